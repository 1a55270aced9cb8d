// The reader's language, and their place on the page when they switch to another.
//
// The language is remembered, so the site's root page (generator/render/templates/root.html) sends
// them back to it next time instead of guessing from the browser's languages.
//
// The language menu (site_overrides/partials/alternate.html) links each language's copy of this
// page by a relative address, which holds wherever the site is served (a subfolder, a preview
// host). A click on it carries the place over: the address's #fragment (a clause, a clarification,
// an Ask situation #ask-…?…, the same in every language), or else the clause or heading at the
// top of the window when the reader has scrolled.
(function () {
  "use strict";
  var lang = document.documentElement.getAttribute("lang");
  if (lang) {
    try { localStorage.setItem("kb-language", lang); } catch (error) { /* storage blocked: nothing remembered */ }
  }

  // Places with the same id in every language (generator/render/templates/rule.md): sections, questions, clauses,
  // clarifications and worked examples.
  var PLACES = [".md-content h2[id]", ".md-content h3[id]", ".md-content .kb-clause[id]",
                ".md-content .kb-clarification[id]", ".md-content .kb-example[id]"].join(", ");

  // Where a place jumped to lands: below the header and, on a rule page, the section bar (the page's
  // scroll padding), else below the header.
  function landing() {
    var padding = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop);
    var header = document.querySelector(".md-header");
    return Math.max(isNaN(padding) ? 0 : padding, header ? header.getBoundingClientRect().height : 0);
  }

  // The last element with an id that starts above where a jump lands (under the header and section bar).
  function placeInView() {
    if (window.scrollY <= 0) return "";
    var top = landing() + 1;
    var found = "";
    var places = document.querySelectorAll(PLACES);
    for (var index = 0; index < places.length; index++) {
      var box = places[index].getBoundingClientRect();
      if (box.height === 0 && box.width === 0) continue; // hidden (a closed <details>, a hidden control)
      if (box.top > top) break;
      found = places[index].id;
    }
    return found ? "#" + encodeURIComponent(found) : "";
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a.kb-lang-link");
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey ||
        event.shiftKey || event.altKey || link.classList.contains("kb-lang-link--current")) return;
    var place = location.hash || placeInView();
    if (!place) return;
    var target = new URL(link.href);
    target.hash = place;
    event.preventDefault();
    location.assign(target.href);
  });
})();

// Rule pages: a clause's §N copies its link; the section bar marks where the reader is; Ask panels the reader
// used print with the situation they answer (docs/assets/kb.css, @media print).
(function () {
  "use strict";

  // A clause's §N is its link: following it puts the link in the address bar, and it is copied too. Clause ids
  // are the same in every language, so the link works in each.
  var toastTimer;
  function toast(key) {
    var box = document.querySelector(".kb-toast");
    if (!box) return;
    box.textContent = box.getAttribute(key) || "";
    clearTimeout(toastTimer);
    toastTimer = setTimeout(function () { box.textContent = ""; }, 2000);
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest("[data-kb-copy]");
    if (!link) return;
    var url = location.href.split("#")[0] + "#" + link.getAttribute("data-kb-copy");
    var copied = function () {
      link.setAttribute("data-kb-copied", "true");
      toast("data-kb-copied");
      setTimeout(function () { link.removeAttribute("data-kb-copied"); }, 2000);
    };
    var inAddress = function () { history.replaceState(null, "", url); toast("data-kb-in-address"); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(url).then(copied, inAddress);
    } else {
      inAddress();
    }
  });

  // The phone's drawer opens on the page's table of contents (Material nests it under the page's entry, one
  // level down); its back arrow leads to the page's system and the rest of the site.
  var drawer = document.getElementById("__drawer"), contents = document.getElementById("__toc");
  if (drawer && contents) {
    drawer.addEventListener("change", function () { if (drawer.checked) contents.checked = true; });
  }

  // Material keeps the reader's colour scheme per language folder (its storage scope, /en/ or /ru/); the reader
  // chose it for the whole site, so it is kept for each language of the language menu too.
  document.addEventListener("change", function (event) {
    if (event.target.name !== "__palette" || typeof __md_scope === "undefined") return;
    setTimeout(function () {  // once Material has saved it
      var key = ".__palette", saved = localStorage.getItem(__md_scope.pathname + key);
      if (!saved) return;
      document.querySelectorAll("a.kb-lang-link[hreflang]").forEach(function (link) {
        var scope = __md_scope.pathname.replace(/[^\/]+\/$/, link.getAttribute("hreflang") + "/");
        try { localStorage.setItem(scope + key, saved); } catch (error) { /* storage blocked: this language only */ }
      });
    });
  });

  // The section bar shows which part of the page is under it (aria-current), read on scroll once per frame. A
  // section counts as reached where a tapped link lands it: the page's scroll-padding-top (kb.css), a little
  // below the bar, not the bar's own edge (that marked the section before the tapped one). The tapped section
  // stays marked while it is on screen, until the reader scrolls: the last, short sections never reach the top.
  var bar = document.querySelector(".kb-sections");
  if (bar) {
    var links = Array.prototype.slice.call(bar.querySelectorAll("a[href^='#']"));
    var pending = false, tapped = null;
    var LANDING_SLACK = 12; // px: a landed heading's top may sit this far below the padding (rounding, margins)
    var targetOf = function (link) { return document.getElementById(link.getAttribute("href").slice(1)); };
    var mark = function () {
      pending = false;
      var padding = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;
      var line = Math.max(bar.getBoundingClientRect().bottom, padding) + LANDING_SLACK;
      var current = null;
      links.forEach(function (link) {
        var target = targetOf(link);
        if (target && target.getBoundingClientRect().top <= line) current = link;
      });
      if (tapped && targetOf(tapped)) {
        var box = targetOf(tapped).getBoundingClientRect();
        if (box.top < window.innerHeight && box.bottom > 0) current = tapped;
      }
      links.forEach(function (link) {
        if (link === current) link.setAttribute("aria-current", "location");
        else link.removeAttribute("aria-current");
      });
    };
    window.addEventListener("scroll", function () {
      if (!pending) { pending = true; requestAnimationFrame(mark); }
    }, {passive: true});
    bar.addEventListener("click", function (event) {
      var link = event.target.closest("a[href^='#']");
      if (link && links.indexOf(link) >= 0) { tapped = link; mark(); }
    });
    ["wheel", "touchmove", "keydown"].forEach(function (type) {  // the reader scrolls on: the position decides again
      window.addEventListener(type, function () { tapped = null; }, {passive: true});
    });
    mark();
    // Anchors land below the bar (kb.css, scroll-padding-top): on a narrow screen it may take two lines.
    var measure = function () {
      document.documentElement.style.setProperty("--kb-bar-height", bar.getBoundingClientRect().height + "px");
    };
    if (window.ResizeObserver) new ResizeObserver(measure).observe(bar);
    measure();
  }

  // A panel the reader used (typed, picked, moved a model) or opened from a shared link is "asked": it prints,
  // with the question it is labelled by.
  function asked(form) {
    if (!form || form.classList.contains("kb-ask--asked")) return;
    form.classList.add("kb-ask--asked");
    var question = document.getElementById(form.getAttribute("aria-labelledby") || "");
    if (question) question.classList.add("kb-ask--asked");
  }
  ["input", "change", "keydown", "pointerdown"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      if (event.target.closest) asked(event.target.closest("form.kb-ask"));
    }, true);
  });
  function fromLink() {  // #ask-<predicate>?…: the form that asks that predicate (ask.js writes its situation in words)
    var match = /^#ask-([A-Za-z0-9_]+)\?/.exec(location.hash);
    if (match) asked(document.querySelector("form.kb-ask[data-predicates~='" + match[1] + "']"));
  }
  fromLink();
  window.addEventListener("hashchange", fromLink);

})();

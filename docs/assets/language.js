// Remember the language the reader reads, so the site's root page (generator/render/templates/root.html)
// sends them back to it next time instead of guessing from the browser's languages.
(function () {
  "use strict";
  var lang = document.documentElement.getAttribute("lang");
  if (!lang) return;
  try { localStorage.setItem("kb-language", lang); } catch (error) { /* storage blocked: nothing remembered */ }
})();

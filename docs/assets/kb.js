// Copy-link buttons on clauses: the link works in every language because clause ids are shared.
document.addEventListener("click", function (event) {
  var button = event.target.closest("[data-kb-copy]");
  if (!button) return;
  var url = location.href.split("#")[0] + "#" + button.getAttribute("data-kb-copy");
  var done = function () {
    button.setAttribute("data-kb-copied", "true");
    button.classList.add("kb-copy--done");
    setTimeout(function () { button.classList.remove("kb-copy--done"); }, 1500);
  };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(url).then(done, function () { history.replaceState(null, "", url); done(); });
  } else {
    history.replaceState(null, "", url);
    done();
  }
});

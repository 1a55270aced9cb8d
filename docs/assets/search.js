// Site search with Pagefind, in the Material header (markup: site_overrides/partials/search.html).
//
// Pagefind reads <html lang> and loads only that language's index, so the Russian pages search
// Russian pages and the English pages English ones; its interface labels follow the same
// attribute. Result links carry ?highlight=<word> for each word Pagefind marked in the excerpt
// (the words as written on the page, so an inflected query such as «разведчика» still lights up
// «Разведчик»), and the page they open marks those words with pagefind-highlight.js.
// Everything is loaded from the site itself: nothing is fetched from another host.
(function () {
  "use strict";

  var root = document.querySelector("[data-kb-search]");
  if (!root) return;
  var bundle = new URL(root.getAttribute("data-kb-bundle"), document.baseURI).href;
  var siteRoot = new URL("../", bundle).pathname; // Pagefind stores URLs from the site root: /en/t9a/scout/
  var toggle = root.querySelector(".kb-search__toggle");
  // A language with many pages is indexed in parts (generator/search.py): part 1 in the main
  // bundle, part n in <bundle>/<lang>-<n>/; Pagefind searches them all and ranks the results together.
  var parts = parseInt(root.getAttribute("data-kb-parts") || "1", 10) || 1;
  var lang = root.getAttribute("data-kb-lang") || "";
  var HIGHLIGHT = "highlight";
  // From the last key to the search: none (Pagefind's default: 300 ms). The search waits for the index
  // chunks of the typed word anyway, which Pagefind fetched during the wait; a wait only came on top
  // when they were quicker. The interface drops the results of a search overtaken by a later key, and
  // keys 120 ms apart fetched no more than with a 50 ms wait (scripts/bench_search.py, typed).
  var DEBOUNCE_MS = 0;
  var IDLE_TIMEOUT_MS = 2000; // load search at the latest this long after the page started, idle or not
  var EXCERPT_LENGTH = 24; // words around the match in a result
  // Results listed before "Load more": each costs the fetch of its page's fragment (the whole page's
  // text, 4–5 KB) and its own drawing. Six are one round of fetches (a browser fetches six files at a
  // time from an HTTP/1.1 host), ten were two; six keep «Light infantry» in view for its alias
  // «Skirmisher», sixth after the Skirmishers rules, the glossary and the lists (tests/browser/test_search.py).
  var PAGE_SIZE = 6;

  // ------------------------------------------------------------------ result links
  function markedWords(excerpt) {
    var words = [];
    var pattern = /<mark>([\s\S]*?)<\/mark>/g;
    var match;
    while ((match = pattern.exec(excerpt || ""))) {
      // Pagefind marks whole tokens, punctuation included («разведчики,»).
      var word = match[1].replace(/<[^>]*>/g, "").replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "").toLowerCase();
      if (word && words.indexOf(word) < 0) words.push(word);
    }
    return words.slice(0, 8);
  }

  function typedWords() {
    var box = input();
    return box ? box.value.trim().split(/\s+/).filter(Boolean) : [];
  }

  function withHighlight(url, words) {
    if (!url || !words.length) return url;
    var hash = "";
    var at = url.indexOf("#");
    if (at >= 0) { hash = url.slice(at); url = url.slice(0, at); }
    var query = words.map(function (w) { return HIGHLIGHT + "=" + encodeURIComponent(w); }).join("&");
    return url + (url.indexOf("?") >= 0 ? "&" : "?") + query + hash;
  }

  function processResult(result) {
    var meta = result.meta || {};
    if (meta.system) {  // rules of different systems share titles (Skirmishers): name the system
      meta.title += " · " + meta.system;
      delete meta.system;  // shown in the title instead of as an untranslated "system:" tag
    }
    var words = markedWords(result.excerpt);
    (result.sub_results || []).forEach(function (sub) {
      markedWords(sub.excerpt).forEach(function (w) { if (words.indexOf(w) < 0) words.push(w); });
    });
    if (!words.length) words = typedWords();
    result.url = withHighlight(result.url, words);
    (result.sub_results || []).forEach(function (sub) {
      var own = markedWords(sub.excerpt);
      sub.url = withHighlight(sub.url, own.length ? own : words);
    });
    return result;
  }

  // ------------------------------------------------------------------ open / close
  function input() { return root.querySelector("input"); }

  function setOpen(open, focus) {
    root.classList.toggle("kb-search--open", open);
    root.classList.toggle("kb-search--active", open);
    if (toggle) toggle.setAttribute("aria-expanded", open ? "true" : "false");
    if (open && focus && input()) input().focus();
  }

  if (toggle) {
    toggle.addEventListener("click", function () {
      setOpen(!root.classList.contains("kb-search--open"), true);
    });
  }
  root.addEventListener("focusin", function () { root.classList.add("kb-search--active"); });
  document.addEventListener("pointerdown", function (event) {
    if (!root.contains(event.target)) setOpen(false, false);
  });
  document.addEventListener("keydown", function (event) {
    var target = event.target;
    var typing = target && (target.isContentEditable || /^(input|textarea|select)$/i.test(target.tagName));
    if (event.key === "Escape" && root.contains(target)) {
      setOpen(false, false);
      if (toggle && getComputedStyle(toggle).display !== "none") toggle.focus(); else target.blur();
      return;
    }
    // The same keys as Material's own search: "/", "s" and "f".
    if (!typing && !event.ctrlKey && !event.metaKey && !event.altKey && /^[/sf]$/.test(event.key)) {
      event.preventDefault();
      setOpen(true, true);
    }
  });

  // ------------------------------------------------------------------ start
  // Counted messages come from our catalogs (generator/search.py), worded so that one form fits
  // every number: Pagefind has a single "many" form, wrong in Russian for 2–4 and 22–24.
  // The same attribute carries the word search practises on (generator/search.py, PRACTICE), which is
  // not one of Pagefind's strings.
  var strings = (function () {
    try { return JSON.parse(root.getAttribute("data-kb-labels") || "{}"); } catch (error) { return {}; }
  })();
  var practiceWord = strings.practice || "";
  delete strings.practice;

  function otherParts() {
    var bundles = [];
    for (var number = 2; number <= parts; number++) {
      bundles.push({ bundlePath: bundle + lang + "-" + number + "/", baseUrl: siteRoot, excerptLength: EXCERPT_LENGTH });
    }
    return bundles;
  }

  function start() {
    if (typeof window.PagefindUI !== "function") return; // pagefind-ui.js missing: leave the page as it is
    new window.PagefindUI({
      element: "#kb-search-ui",
      bundlePath: bundle,
      baseUrl: siteRoot,
      showImages: false,
      showSubResults: true,
      resetStyles: false,
      excerptLength: EXCERPT_LENGTH,
      mergeIndex: otherParts(),
      pageSize: PAGE_SIZE,
      debounceTimeoutMs: DEBOUNCE_MS,
      processResult: processResult,
      translations: strings
    });
    // Pagefind names its box by title only; an aria-label gives it a name assistive technology reads.
    var box = input();
    if (box && !box.getAttribute("aria-label")) box.setAttribute("aria-label", box.getAttribute("title") || "Search");
    root.classList.add("kb-search--ready");
    warmWhenIdle();
  }

  // ------------------------------------------------------------------ warm-up
  // Pagefind's interface loads its script, WebAssembly and the language's metadata when its input
  // gets focus; typing right after that waited for all of it. So we give it that focus event
  // early: when the page is idle, or as soon as the pointer comes near the search box. The
  // reader's focus does not move (the event is dispatched, not a real focus()).
  var warmed = false;
  function warm() {
    var box = input();
    if (warmed || !box) return;
    warmed = true;
    box.dispatchEvent(new FocusEvent("focus"));
    primeWorker();
    primeCount();
  }

  // The first search in Pagefind's worker also builds the Intl.Segmenter it splits the query with
  // (15–40 ms in Chromium, on the way to the index chunks the query needs). Searching for
  // nothing does just that and fetches nothing. The same URL as the interface's import gives the
  // same module, so the same worker and instances.
  function primeWorker() {
    import(bundle + "pagefind.js").then(function (pagefind) {
      return pagefind.preload(" ").then(function () { whenIdle(function () { practise(pagefind); }); });
    }).catch(function () { /* search still works, the first query just pays for it */ });
  }

  // V8 first runs Pagefind's WebAssembly and scripts unoptimised and compiles their busy parts with
  // its optimising tiers in the background while a search runs: 190 ms of compiling during the first
  // query at 1,000 rules (Chromium trace: wasm.TopTierCompilation, Maglev), on the cores the search
  // needs. One practice search while the page is idle gets that done: for a word on every rule page
  // (its "Source" label), so a whole index chunk is read and most pages are scored as in a real
  // query, and its best result opened. It costs that word's index chunk in each part and one
  // fragment, which scripts/bench_search.py adds to the first query's bytes. Not once the reader has
  // started (a search of theirs would wait for it), nor when the browser asks to save data.
  function practise(pagefind) {
    var box = input();
    var saveData = navigator.connection && navigator.connection.saveData;
    if (!practiceWord || !box || box.value || document.activeElement === box || saveData) return;
    pagefind.search(practiceWord).then(function (found) {
      return found.results.length ? found.results[0].data() : null;
    }).catch(function () { /* only practice */ });
  }

  // The results' count line formats its number with a new Intl.NumberFormat, whose first construction
  // in a page loads the language's number data (18–23 ms in a fresh Chromium page, on the main
  // thread as the first results are drawn); one made now leaves that data loaded.
  function primeCount() {
    try {
      new Intl.NumberFormat(document.documentElement.lang || undefined).format(2);
    } catch (error) { /* no Intl: nothing to prime */ }
  }

  function whenIdle(task) {
    if (typeof window.requestIdleCallback === "function") {
      window.requestIdleCallback(task, { timeout: IDLE_TIMEOUT_MS });
    } else {
      setTimeout(task, IDLE_TIMEOUT_MS);
    }
  }

  function warmWhenIdle() {
    root.addEventListener("pointerenter", warm);
    root.addEventListener("touchstart", warm, { passive: true });
    whenIdle(warm);
  }

  function highlight() {
    if (!new URLSearchParams(location.search).getAll(HIGHLIGHT).length) return;
    import(bundle + "pagefind-highlight.js").then(function () {
      new window.PagefindHighlight({
        highlightParam: HIGHLIGHT,
        markContext: ".md-content",
        addStyles: false,
        markOptions: { className: "pagefind-highlight", exclude: ["[data-pagefind-ignore]", "[data-pagefind-ignore] *", ".headerlink"] }
      });
      var first = document.querySelector("mark.pagefind-highlight");
      if (first && !location.hash) first.scrollIntoView({ block: "center" });
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { start(); highlight(); });
  } else {
    start();
    highlight();
  }
})();

// Site search with Pagefind, in the Material header (markup: site_overrides/partials/search.html).
//
// Nothing of Pagefind is fetched with the page: the header shows a field of the same look (the
// "stub", same classes), and Pagefind's interface, engine and index are loaded when the reader
// moves toward search: the pointer over the box, a tap on it or on the search button, the focus,
// or one of the keys "/", "s", "f". Its own field then takes the stub's place, with what the
// reader typed and the focus. The query is kept in the page's history entry, so Back to a page
// searched from shows the same results again.
//
// Pagefind reads <html lang> and loads only that language's index, so the Russian pages search
// Russian pages and the English pages English ones. Each result's parts link to the clause,
// clarification or worked example they were found in (see regroup), and carry ?highlight=<word>
// for each word Pagefind marked (the words as written on the page, so an inflected query such as
// «разведчика» still lights up «Разведчик»); the page they open marks those words with
// pagefind-highlight.js. Everything is loaded from the site itself: nothing from another host.
(function () {
  "use strict";

  var root = document.querySelector("[data-kb-search]");
  if (!root) return;
  var bundle = new URL(root.getAttribute("data-kb-bundle"), document.baseURI).href;
  var siteRoot = new URL("../", bundle).pathname; // Pagefind stores URLs from the site root: /en/t9a/scout/
  var toggle = root.querySelector(".kb-search__toggle");
  var stub = root.querySelector(".kb-search__stub");
  // A language with many pages is indexed in parts (generator/site/search.py): part 1 in the main
  // bundle, part n in <bundle>/<lang>-<n>/; Pagefind searches them all and ranks the results together.
  var parts = parseInt(root.getAttribute("data-kb-parts") || "1", 10) || 1;
  var lang = root.getAttribute("data-kb-lang") || "";
  var HIGHLIGHT = "highlight";
  var STATE = "kbSearch"; // the key of the query in history.state
  // From the last key to the search: none (Pagefind's default: 300 ms). The search waits for the index
  // chunks of the typed word anyway, which Pagefind fetched during the wait; a wait only came on top
  // when they were quicker. The interface drops the results of a search overtaken by a later key, and
  // keys 120 ms apart fetched no more than with a 50 ms wait (scripts/bench_search.py, typed).
  var DEBOUNCE_MS = 0;
  var EXCERPT_LENGTH = 24; // words around the match in a result
  // Results listed before "Load more": each costs the fetch of its page's fragment (the whole page's
  // text, 4–5 KB) and its own drawing. Six are one round of fetches (a browser fetches six files at a
  // time from an HTTP/1.1 host), ten were two; six keep «Light infantry» in view for its alias
  // «Skirmisher», sixth after the Skirmishers rules, the glossary and the lists (tests/browser/test_search.py).
  var PAGE_SIZE = 6;

  // ------------------------------------------------------------------ parts of a result on their own anchor
  // Pagefind splits a page's matches by its headings with an id (the page's sections: Rule text,
  // Clarifications…), so a word of the fourth clarification linked to #clarifications. Pagefind
  // also lists every other element with an id, with its place among the page's words
  // (result.anchors): each clause and clarification is a <div id>, each worked example an <li id>.
  // The matches are grouped again by the nearest of those before them, so a part opens its own
  // clause or clarification, and its excerpt is cut from that part's own words.
  var PART = /^(div|li|h[1-6])$/i;
  var HEADING = /^h[1-6]$/i;
  var CLAUSES = "rule-text"; // the id of the section of clauses (generator/render/templates/rule.md)
  var CLARIFICATION = "clarification-"; // the ids of clarifications (rule.md)
  var QUESTION_WORDS = 14; // at most this many words of a clarification's question name its part

  function escapeHtml(text) {
    return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  }

  // The `length` words of words[start, end) holding the most matches, the earliest such window.
  function excerpt(words, start, end, locations, length) {
    var hits = {};
    locations.forEach(function (location) { hits[location] = true; });
    var from = start;
    if (end - start > length) {
      var count = 0, best = -1, at;
      for (at = start; at < start + length; at++) if (hits[at]) count++;
      best = count;
      for (at = start + 1; at + length <= end; at++) {
        count += (hits[at + length - 1] ? 1 : 0) - (hits[at - 1] ? 1 : 0);
        if (count > best) { best = count; from = at; }
      }
    }
    var to = Math.min(end, from + length);
    var shown = [];
    for (var index = from; index < to; index++) {
      var word = escapeHtml(words[index] || "");
      shown.push(hits[index] ? "<mark>" + word + "</mark>" : word);
    }
    return (from > start ? "… " : "") + shown.join(" ") + (to < end ? " …" : "");
  }

  function regroup(result) {
    // The page's title (its <h1>) is the page itself, not a part of it.
    var anchors = (result.anchors || []).filter(function (anchor) {
      return anchor.id && PART.test(anchor.element || "") && !/^h1$/i.test(anchor.element);
    }).sort(function (a, b) { return a.location - b.location; });
    var located = result.weighted_locations || [];
    if (!located.length || typeof result.content !== "string") return;
    var words = result.content.split(/[\r\n\s]+/g);
    var page = result.url.split("#")[0];
    var groups = [];
    var group = null;
    var next = 0, current = null, section = null, clause = 0;
    located.slice().sort(function (a, b) { return a.location - b.location; }).forEach(function (word) {
      while (next < anchors.length && anchors[next].location <= word.location) {
        current = anchors[next++];
        if (HEADING.test(current.element)) {
          section = current;
          clause = 0;
        } else if (section && section.id === CLAUSES && /^div$/i.test(current.element)) {
          clause++;
          current.clause = clause;
        }
        current.section = section;
        current.end = next < anchors.length ? anchors[next].location : words.length;
      }
      if (!group || group.anchor !== current) {
        group = { anchor: current, weighted_locations: [], locations: [], score: 0 };
        groups.push(group);
      }
      group.weighted_locations.push(word);
      group.locations.push(word.location);
      group.score += word.balanced_score || 0;
    });
    result.sub_results = groups.map(function (part) {
      var anchor = part.anchor;
      var start = anchor ? anchor.location : 0;
      var end = anchor ? anchor.end : (anchors[0] ? anchors[0].location : words.length);
      return {
        title: partTitle(result, anchor, words),
        url: anchor ? page + "#" + anchor.id : result.url,
        anchor: anchor || undefined,
        weighted_locations: part.weighted_locations,
        locations: part.locations,
        excerpt: excerpt(words, start, end, part.locations, EXCERPT_LENGTH),
        score: part.score
      };
    });
    // The result's own excerpt: its best part's, which starts where that part starts when it is short.
    var best = result.sub_results.reduce(function (a, b) { return b.score > a.score ? b : a; });
    result.excerpt = best.excerpt;
  }

  // A part is named by its section's heading; a clause also by its number (§ as on the page), a
  // clarification by its question, which its excerpt may not reach.
  function partTitle(result, anchor, words) {
    if (!anchor) return (result.meta && result.meta.title) || "";
    if (HEADING.test(anchor.element)) return anchor.text || "";
    var heading = anchor.section ? anchor.section.text : "";
    if (anchor.clause) return heading + " · §" + anchor.clause;
    if (anchor.id.indexOf(CLARIFICATION) !== 0) return heading;
    var question = [];
    for (var at = anchor.location; at < anchor.end && question.length < QUESTION_WORDS; at++) {
      question.push(words[at]);
      if (/[?？]$/.test(words[at])) break;
    }
    var cut = question.length === QUESTION_WORDS && !/[?？]$/.test(question[question.length - 1]) ? "…" : "";
    return (heading ? heading + " · " : "") + question.join(" ") + cut;
  }

  // ------------------------------------------------------------------ result links
  function markedWords(excerpt) {
    var words = [];
    var pattern = /<mark>([\s\S]*?)<\/mark>/g;
    var match;
    while ((match = pattern.exec(excerpt || ""))) {
      // Pagefind marks whole tokens, punctuation included («разведчики,»).
      var word = match[1].replace(/<[^>]*>/g, "").replace(/&[a-z]+;/g, "")
        .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "").toLowerCase();
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
    url = url.replace(/[?&]highlight=[^&]*/g, "").replace(/^([^?]*)&/, "$1?");
    var query = words.map(function (w) { return HIGHLIGHT + "=" + encodeURIComponent(w); }).join("&");
    return url + (url.indexOf("?") >= 0 ? "&" : "?") + query + hash;
  }

  function processResult(result) {
    var meta = result.meta || {};
    if (meta.system) {  // rules of different systems share titles (Skirmishers): name the system
      meta.title += " · " + meta.system;
      delete meta.system;  // shown in the title instead of as an untranslated "system:" tag
    }
    regroup(result);
    var words = markedWords(result.excerpt);
    (result.sub_results || []).forEach(function (sub) {
      markedWords(sub.excerpt).forEach(function (w) { if (words.indexOf(w) < 0) words.push(w); });
    });
    if (!words.length) words = typedWords();
    var page = result.url;
    result.url = withHighlight(page, words);
    (result.sub_results || []).forEach(function (sub) {
      // The part before the page's first heading is the page itself: the same link, which Pagefind's interface
      // then leaves out as a repeat of the result's own.
      if (sub.url === page) { sub.url = result.url; return; }
      var own = markedWords(sub.excerpt);
      sub.url = withHighlight(sub.url, own.length ? own : words);
    });
    return result;
  }

  // ------------------------------------------------------------------ open / close
  function input() {
    return root.querySelector(".pagefind-ui__search-input:not(.kb-search__stub-input)") || stubInput();
  }

  function stubInput() {
    return stub ? stub.querySelector("input") : null;
  }

  function setOpen(open, focus) {
    root.classList.toggle("kb-search--open", open);
    root.classList.toggle("kb-search--active", open);
    if (toggle) toggle.setAttribute("aria-expanded", open ? "true" : "false");
    if (open) load();
    if (open && focus && input()) input().focus();
    if (!open) remember(""); // closed by the reader: Back to this page shows no results they put away
  }

  if (toggle) {
    toggle.addEventListener("click", function () {
      setOpen(!root.classList.contains("kb-search--open"), true);
    });
  }
  root.addEventListener("focusin", function () {
    root.classList.add("kb-search--active");
    load();
  });
  // Moving toward the search: a pointer over the box, or a finger on it.
  root.addEventListener("pointerenter", function () { load(); });
  root.addEventListener("touchstart", function () { load(); }, { passive: true });
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

  // ------------------------------------------------------------------ the query in the history entry
  function remember(query) {
    var state = history.state && typeof history.state === "object" ? history.state : {};
    if ((state[STATE] || "") === query) return;
    var next = {};
    Object.keys(state).forEach(function (key) { next[key] = state[key]; });
    if (query) next[STATE] = query; else delete next[STATE];
    try { history.replaceState(next, ""); } catch (error) { /* a state too large or refused: nothing kept */ }
  }

  function remembered() {
    var state = history.state;
    return state && typeof state === "object" && typeof state[STATE] === "string" ? state[STATE] : "";
  }

  // ------------------------------------------------------------------ loading Pagefind
  // Counted messages come from our catalogs (generator/site/search.py), worded so that one form fits
  // every number: Pagefind has a single "many" form, wrong in Russian for 2–4 and 22–24.
  // The same attribute carries the word search practises on (generator/site/search.py, PRACTICE), which is
  // not one of Pagefind's strings, and the offline control's strings (docs/assets/offline.js).
  var strings = (function () {
    try { return JSON.parse(root.getAttribute("data-kb-labels") || "{}"); } catch (error) { return {}; }
  })();
  var practiceWord = strings.practice || "";
  var offlineWords = strings.offline || {};
  delete strings.practice;
  delete strings.offline;

  // Offline, with this language not saved, search cannot load: say so where the results would be, not nothing.
  function sayOffline() {
    var place = root.querySelector(".kb-search__ui");
    if (!place || !offlineWords.searchOffline) return;
    var note = root.querySelector(".kb-search__offline");
    if (!note) {
      note = document.createElement("p");
      note.className = "kb-search__offline";
      note.setAttribute("role", "status");
      place.appendChild(note);
    }
    note.textContent = offlineWords.searchOffline;
  }
  if (stubInput() && stubInput().placeholder) strings.placeholder = stubInput().placeholder;

  var loading = null;
  var engine = null; // Pagefind's engine (pagefind.js), started beside its interface
  function fetched(tag, attributes) {
    return new Promise(function (resolve, reject) {
      var element = document.createElement(tag);
      Object.keys(attributes).forEach(function (name) { element.setAttribute(name, attributes[name]); });
      element.addEventListener("load", resolve);
      element.addEventListener("error", reject);
      document.head.appendChild(element);
    });
  }

  // The engine is what a first query waits for: its module, its worker, the language's metadata and
  // WebAssembly. Started here, beside the interface's script rather than after it, with the options the
  // interface gives it again (the same module: the same URL); the interface merges the other parts.
  function startEngine() {
    engine = import(bundle + "pagefind.js").then(function (pagefind) {
      return pagefind.options({ baseUrl: siteRoot, excerptLength: EXCERPT_LENGTH })
        .then(function () { return pagefind.init(); })
        .then(function () { return pagefind; });
    });
    engine.catch(function () { // the interface loads it itself, or reports why it cannot
      engine = null;
      if (navigator.onLine === false) sayOffline();
    });
  }

  function load() {
    if (!loading) {
      startEngine();
      loading = Promise.all([
        fetched("link", { rel: "stylesheet", href: bundle + "pagefind-ui.css" }),
        fetched("script", { src: bundle + "pagefind-ui.js" })
      ]).then(start).catch(function () {
        loading = null; // offline and not kept, say: the stub stays, and the next approach tries again
        sayOffline();
      });
    }
    return loading;
  }

  function otherParts() {
    var bundles = [];
    for (var number = 2; number <= parts; number++) {
      bundles.push({ bundlePath: bundle + lang + "-" + number + "/", baseUrl: siteRoot, excerptLength: EXCERPT_LENGTH });
    }
    return bundles;
  }

  function start() {
    if (typeof window.PagefindUI !== "function") return; // pagefind-ui.js missing: the page stays as it is
    var ui = new window.PagefindUI({
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
    var box = root.querySelector(".pagefind-ui__search-input:not(.kb-search__stub-input)");
    if (!box) return;
    // Pagefind names its box by title only; an aria-label gives it a name assistive technology reads.
    if (!box.getAttribute("aria-label")) box.setAttribute("aria-label", box.getAttribute("title") || strings.placeholder || "Search");
    box.setAttribute("autocomplete", "off");
    box.addEventListener("input", function () { remember(box.value.trim()); });
    root.addEventListener("click", function (event) { // "Clear" empties the field without an input event
      if (event.target.closest && event.target.closest(".pagefind-ui__search-clear")) remember("");
    });
    // Pagefind's field takes the stub's place: what the reader typed there, and the focus.
    var old = stubInput();
    var typed = old ? old.value : "";
    var focused = old && document.activeElement === old;
    if (stub) stub.remove();
    root.classList.add("kb-search--ready");
    if (focused) {
      box.focus();
    } else {
      box.dispatchEvent(new FocusEvent("focus")); // Pagefind loads its engine on its field's focus
    }
    if (typed) ui.triggerSearch(typed);
    primeWorker();
    primeCount();
  }

  // ------------------------------------------------------------------ warm-up
  // The first search in Pagefind's worker also builds the Intl.Segmenter it splits the query with
  // (15–40 ms in Chromium, on the way to the index chunks the query needs). Searching for
  // nothing does just that and fetches nothing. The same URL as the interface's import gives the
  // same module, so the same worker and instances.
  function primeWorker() {
    (engine || import(bundle + "pagefind.js")).then(function (pagefind) {
      return pagefind.preload(" ").then(function () { whenIdle(function () { practise(pagefind); }); });
    }).catch(function () { /* search still works, the first query just pays for it */ });
  }

  // V8 first runs Pagefind's WebAssembly and scripts unoptimised and compiles their busy parts with
  // its optimising tiers in the background while a search runs: 190 ms of compiling during the first
  // query at 1,000 rules (Chromium trace: wasm.TopTierCompilation, Maglev), on the cores the search
  // needs. One practice search while the reader has not typed yet gets that done: for a word on every
  // rule page (its "Source" label), so a whole index chunk is read and most pages are scored as in a
  // real query, and its best result opened. It costs that word's index chunk in each part and one
  // fragment, which scripts/bench_search.py adds to the first query's bytes. Not once the reader has
  // typed (a search of theirs would wait for it), nor when the browser asks to save data.
  // The root's data-kb-practice says what was decided ("skipped" or "started"), for whoever checks it had its turn.
  function practise(pagefind) {
    var box = input();
    var saveData = navigator.connection && navigator.connection.saveData;
    var skip = !practiceWord || !box || box.value || saveData;
    root.setAttribute("data-kb-practice", skip ? "skipped" : "started");
    if (skip) return;
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
      window.requestIdleCallback(task, { timeout: 1000 });
    } else {
      setTimeout(task, 0);
    }
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
    }).catch(function () { /* offline and not kept: the page without its marks */ });
  }

  // Back to a page searched from: the same query and its results, drawn again.
  function restore() {
    var query = remembered();
    if (!query) return;
    if (stubInput()) stubInput().value = query;
    root.classList.add("kb-search--active", "kb-search--open");
    if (toggle) toggle.setAttribute("aria-expanded", "true");
    load();
  }

  if (stubInput()) stubInput().addEventListener("input", function () { remember(stubInput().value.trim()); });
  highlight();
  restore();
})();

// The site's service worker: pages open and answer without a connection.
//
// generator/site/offline.py writes this file to the site's root as sw.js, below one line of its own:
//   const BUILD = {"version": "<of every language's file list>", "languages": {"<lang>": {"bytes": …, "files": …}}};
// A new version of the site is a new sw.js, which the browser installs on the reader's next visit.
//
// - Every page the reader opens, with what it loads (styles, scripts, the Ask panels' code, search files), is kept
//   in this version's cache. Requests go to the network first, so a reader online always sees the published site;
//   when the network fails (or is slower than SLOW_NETWORK_MS and a copy is kept), the kept copy answers.
// - Nothing else is downloaded unless the reader asks (docs/assets/offline.js): "save" fetches every file of a
//   language listed in offline/<lang>.json, whose total size the page states before.
// - A new version installs beside the old one: it keeps the old cache's files whose digest the new lists still give,
//   downloads again those that changed (only files the reader had), completes the languages they saved, then takes
//   over and deletes the old cache. Until it is complete, the old version keeps serving.
"use strict";

const PREFIX = "kb-offline-";
const CACHE = PREFIX + BUILD.version;
const SCOPE = self.registration.scope; // the site's root, ending in "/": wherever the site is served
const LISTS = "offline/"; // the lists, read by this worker only and never kept
const SAVED = LISTS + "saved-"; // + language: a kept entry that says the reader saved that language
const PARALLEL = 6; // downloads at a time, as a browser fetches from one HTTP/1.1 host
const SLOW_NETWORK_MS = 4000; // a kept copy answers after this long without a response (a weak signal at the table)
const PROGRESS_MS = 150; // at most one progress message this often
const DIGEST_HEX = 16; // hex digits of SHA-256 in the lists (generator/site/offline.py, DIGEST_LENGTH)

function keyOf(url) {
  // Pages are the same whatever their query (?highlight=… from a search result) or fragment.
  const address = new URL(url);
  address.search = "";
  address.hash = "";
  return address.href;
}

function keepable(response) {
  return Boolean(response) && response.status === 200 && (response.type === "basic" || response.type === "default");
}

function isOurs(url) {
  // Vetted as it would be kept: keyOf() resolves "en/../offline/en.json" and "en/%2e%2e/sw.js" to the files they name.
  let key;
  try {
    key = keyOf(url);
  } catch (error) {
    return false; // not an address
  }
  if (!key.startsWith(SCOPE)) return false;
  const path = key.slice(SCOPE.length);
  return !path.startsWith(LISTS) && path !== "sw.js";
}

// ------------------------------------------------------------------ answering requests
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !isOurs(request.url) || request.headers.has("range")) return;
  event.respondWith(answer(event));
});

function answer(event) {
  const request = event.request;
  const key = keyOf(request.url);
  let keeping = null;
  const network = (async () => {
    const response = (await event.preloadResponse) || (await fetch(request));
    if (keepable(response)) {
      // Kept beside the answer, not before it: the page reads the response while the copy is written.
      const copy = response.clone();
      keeping = caches.open(CACHE).then((cache) => cache.put(key, copy));
    }
    return response;
  })();
  // The copy is kept even when the answer came from the cache (a slow network) or the page went away.
  event.waitUntil(network.then(() => keeping).catch(() => undefined));
  const kept = () => caches.open(CACHE).then((cache) => cache.match(key));
  const slow = new Promise((resolve) => setTimeout(resolve, SLOW_NETWORK_MS))
    .then(kept).then((response) => response || network);
  slow.catch(() => undefined); // its failure is the network's, answered below
  return Promise.race([network, slow]).catch(() => kept().then((response) => {
    if (response) return response;
    // A page never opened here: the site's own page in the address's language says what is kept and how to save
    // the language, never the browser's error page. Anything else (a style, a script) fails as a failed load.
    if (request.mode === "navigate") return offlinePage(request.url);
    throw new TypeError("offline and not kept: " + key);
  }));
}

// ------------------------------------------------------------------ the offline page
const KEPT_LISTED = 60; // kept pages named on the offline page, at most: a reader scans a list, not a database
const TITLE_BYTES = 4096; // the head of a kept page read for its <title>

function languageOf(url) {
  const first = url.startsWith(SCOPE) ? url.slice(SCOPE.length).split("/")[0] : "";
  const codes = Object.keys(BUILD.languages);
  return codes.includes(first) ? first : codes[0];
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

function megabytes(bytes, lang) {
  try {
    return new Intl.NumberFormat(lang, { style: "unit", unit: "megabyte", maximumFractionDigits: 1 }).format(bytes / 1e6);
  } catch (error) {
    return (bytes / 1e6).toFixed(1) + " MB";
  }
}

// The pages of one language this worker keeps, with their titles: [{url, title}], home page first.
async function keptPages(lang) {
  const cache = await caches.open(CACHE);
  const home = SCOPE + lang + "/";
  const pages = (await cache.keys()).map((request) => request.url)
    .filter((url) => url.startsWith(home) && (url.endsWith("/") || url.endsWith(".html")))
    .sort((a, b) => (a === home ? -1 : b === home ? 1 : a.localeCompare(b)))
    .slice(0, KEPT_LISTED);
  return Promise.all(pages.map(async (url) => {
    const response = await cache.match(url);
    const head = response ? (await response.text()).slice(0, TITLE_BYTES) : "";
    const found = /<title>([^<]*)<\/title>/i.exec(head);
    const title = found ? found[1].replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"').replace(/&#0?39;/g, "'") : url.slice(home.length);
    const cut = title.lastIndexOf(" - "); // «Scout - Wargame Rules Knowledge Base»: the page's own name is enough
    return { url, title: cut > 0 ? title.slice(0, cut) : title };
  }));
}

async function offlinePage(url) {
  const lang = languageOf(url);
  const language = BUILD.languages[lang];
  const words = language.labels || {};
  const pages = await keptPages(lang);
  const list = pages.length
    ? "<p>" + escapeHtml(words.keptHere || "") + "</p><ul>" + pages.map((page) =>
      '<li><a href="' + escapeHtml(page.url) + '">' + escapeHtml(page.title) + "</a></li>").join("") + "</ul>"
    : "<p>" + escapeHtml(words.noneKept || "") + "</p>";
  const offer = (words.saveWhenOnline || "").split("[SIZE]").join(megabytes(language.bytes, lang));
  const html = `<!doctype html>
<html lang="${escapeHtml(lang)}" class="kb-offline-page"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(words.notKept || "")}</title>
<style>
:root { color-scheme: light dark; --fg: #1f2328; --bg: #fff; --accent: #3f51b5; --line: #d0d4dc; }
@media (prefers-color-scheme: dark) { :root { --fg: #e2e4e9; --bg: #1e2129; --accent: #8c9eff; --line: #3a3f4b; } }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
main { max-width: 40rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
h1 { font-size: 1.4rem; line-height: 1.25; margin: 0 0 .75rem; }
a { color: var(--accent); }
ul { padding-left: 1.2rem; } li { margin: .35rem 0; }
button { font: inherit; min-height: 44px; padding: .4rem 1rem; border: 1px solid var(--accent); border-radius: .3rem; background: var(--accent); color: var(--bg); cursor: pointer; }
button:disabled { opacity: .6; }
.kb-offline-page__actions { display: flex; flex-wrap: wrap; gap: .6rem; margin: 1rem 0; }
.kb-offline-page__retry { background: transparent; color: var(--accent); }
.kb-offline-page__status { min-height: 1.5em; }
</style></head>
<body><main>
<h1>${escapeHtml(words.notKept || "")}</h1>
<p>${escapeHtml(words.noConnection || "")}</p>
${list}
<p>${escapeHtml(offer)}</p>
<p class="kb-offline-page__actions"><button type="button" class="kb-offline-page__save" data-kb-lang="${escapeHtml(lang)}">${escapeHtml(words.save || "")}</button>
<button type="button" class="kb-offline-page__retry">${escapeHtml(words.retry || "")}</button></p>
<p class="kb-offline-page__status" role="status" aria-live="polite"></p>
</main>
<script>
(function () {
  var words = ${JSON.stringify(words).replace(/</g, "\\u003c")};
  var status = document.querySelector(".kb-offline-page__status");
  var save = document.querySelector(".kb-offline-page__save");
  document.querySelector(".kb-offline-page__retry").addEventListener("click", function () { location.reload(); });
  save.addEventListener("click", function () {
    var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (!worker) { status.textContent = words.failed || ""; return; }
    var channel = new MessageChannel();
    save.disabled = true;
    channel.port1.onmessage = function (event) {
      var reply = event.data || {};
      if (reply.state === "saving") {
        status.textContent = reply.total ? Math.round(100 * reply.done / reply.total) + " %" : "";
      } else if (reply.state === "status" && reply.saved) {
        location.reload();
      } else {
        save.disabled = false;
        status.textContent = words[reply.state === "updating" ? "updating" : "failed"] || "";
      }
    };
    worker.postMessage({ type: "save", lang: save.getAttribute("data-kb-lang") }, [channel.port2]);
  });
})();
</script>
</body></html>`;
  return new Response(html, { status: 200, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
}

// ------------------------------------------------------------------ messages from the pages (offline.js)
self.addEventListener("message", (event) => {
  const message = event.data || {};
  const port = event.ports && event.ports[0];
  const tell = (reply) => { if (port) port.postMessage(reply); };
  const lang = typeof message.lang === "string" && Object.prototype.hasOwnProperty.call(BUILD.languages, message.lang)
    ? message.lang : null;
  if (message.type === "status" && lang) {
    event.waitUntil(status(lang).then(tell));
  } else if (message.type === "save" && lang) {
    event.waitUntil(save(lang, tell));
  } else if (message.type === "opened" && Array.isArray(message.addresses)) {
    event.waitUntil(keepOpened(message.addresses.filter((url) => typeof url === "string")).then(() => tell({ state: "kept" })));
  }
});

async function status(lang) {
  const cache = await caches.open(CACHE);
  const saved = Boolean(await cache.match(SCOPE + SAVED + lang));
  return { state: "status", lang, version: BUILD.version, saved, ...BUILD.languages[lang] };
}

// A page that opened before this worker controlled it (the reader's first) sends what it loaded: kept the same way,
// from the browser's HTTP cache where it still has them.
async function keepOpened(addresses) {
  const cache = await caches.open(CACHE);
  const wanted = [...new Set(addresses.filter(isOurs).map(keyOf))];
  await inParallel(wanted, async (key) => {
    if (await cache.match(key)) return;
    try {
      const response = await fetch(key, { cache: "force-cache" });
      if (keepable(response)) await cache.put(key, response);
    } catch (error) { /* offline already: it is kept on the next visit */ }
  });
}

async function readList(lang) {
  const response = await fetch(SCOPE + LISTS + lang + ".json", { cache: "no-store" });
  if (!response.ok) throw new Error("no list of files for " + lang + ": " + response.status);
  return response.json();
}

async function save(lang, tell) {
  try {
    const list = await readList(lang);
    if (list.version !== BUILD.version) {
      // The site was published again since this worker: the new one saves the new files (see carryOver).
      await (await caches.open(CACHE)).put(SCOPE + SAVED + lang, new Response(list.version));
      self.registration.update().catch(() => undefined);
      tell({ state: "updating", lang });
      return;
    }
    await download(list, await caches.open(CACHE), tell);
    tell(await status(lang));
  } catch (error) {
    tell({ state: "failed", lang, reason: String(error && error.message || error) });
  }
}

// Every file of a list not kept yet, then the entry that marks the language saved.
async function download(list, cache, tell) {
  const total = list.files.reduce((sum, file) => sum + file[1], 0);
  let done = 0;
  let told = 0;
  const progress = (force) => {
    const now = Date.now();
    if (tell && (force || now - told >= PROGRESS_MS)) {
      told = now;
      tell({ state: "saving", lang: list.lang, done, total });
    }
  };
  progress(true);
  await inParallel(list.files, async ([address, size]) => {
    const key = new URL(address, SCOPE).href;
    if (!(await cache.match(key))) {
      const response = await fetch(key, { cache: "no-cache" });
      if (!keepable(response)) throw new Error(address + ": " + response.status);
      await cache.put(key, response);
    }
    done += size;
    progress(false);
  });
  progress(true);
  await cache.put(SCOPE + SAVED + list.lang, new Response(list.version));
}

async function inParallel(items, task) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, items.length) }, worker));
}

// ------------------------------------------------------------------ a new version
self.addEventListener("install", (event) => {
  event.waitUntil(carryOver().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// What the reader had in the old version's cache, brought into this version's: unchanged files copied, changed
// ones downloaded again, files the site no longer has dropped, saved languages completed. Any failure fails the
// install: the old version stays whole and the browser tries again on a later visit.
async function carryOver() {
  const names = (await caches.keys()).filter((name) => name.startsWith(PREFIX) && name !== CACHE);
  if (!names.length) return;
  const kept = new Map(); // url -> the old cache holding it
  const saved = new Set();
  const languages = new Set();
  for (const name of names) {
    const old = await caches.open(name);
    for (const request of await old.keys()) {
      const path = request.url.slice(SCOPE.length);
      if (path.startsWith(SAVED)) {
        saved.add(path.slice(SAVED.length));
        continue;
      }
      kept.set(request.url, old);
      const first = path.split("/")[0];
      if (Object.prototype.hasOwnProperty.call(BUILD.languages, first)) languages.add(first);
    }
  }
  for (const lang of saved) languages.add(lang);
  const lists = {};
  const digests = new Map();
  for (const lang of languages) {
    if (!Object.prototype.hasOwnProperty.call(BUILD.languages, lang)) continue;
    lists[lang] = await readList(lang);
    for (const [address, , digest] of lists[lang].files) digests.set(new URL(address, SCOPE).href, digest);
  }
  const cache = await caches.open(CACHE);
  await inParallel([...kept], async ([url, old]) => {
    const wanted = digests.get(url);
    if (!wanted || await cache.match(url)) return;
    const response = await old.match(url);
    if (response && await digestOf(response.clone()) === wanted) {
      await cache.put(url, response);
      return;
    }
    const fresh = await fetch(url, { cache: "no-cache" });
    if (!keepable(fresh)) throw new Error(url + ": " + fresh.status);
    await cache.put(url, fresh);
  });
  for (const lang of saved) {
    if (lists[lang]) await download(lists[lang], cache, null);
  }
}

async function digestOf(response) {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", await response.arrayBuffer()));
  return Array.from(hash.slice(0, DIGEST_HEX / 2), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

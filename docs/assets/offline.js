// Offline use: the site's service worker and the header's offline control.
//
// The worker (sw.js at the site's root, written by generator/site/offline.py from
// generator/render/templates/sw.js) keeps every page the reader opens; the control
// (site_overrides/partials/alternate.html) states how much a whole language weighs and saves it
// on request, and says when it is saved. The worker is registered once the page has loaded, so it
// never competes with the page; the page it was registered from was loaded without it, so it is
// told what that page loaded and keeps it too.
(function () {
  "use strict";

  var control = document.querySelector("[data-kb-offline]");
  if (!control || !("serviceWorker" in navigator) || !window.isSecureContext) return; // the control stays hidden

  var root = new URL(control.getAttribute("data-kb-root"), document.baseURI).href;
  var lang = control.getAttribute("data-kb-lang") || document.documentElement.lang || "";
  var labels = (function () {
    try { return JSON.parse(control.getAttribute("data-kb-labels") || "{}"); } catch (error) { return {}; }
  })();
  var toggle = control.querySelector(".kb-offline__toggle");
  var panel = control.querySelector(".kb-offline__panel");
  var text = control.querySelector(".kb-offline__text");
  var progress = control.querySelector(".kb-offline__progress");
  var save = control.querySelector(".kb-offline__save");
  var saving = false;
  control.hidden = false; // shown now, not once the worker is registered, so the header does not shift after load

  // ------------------------------------------------------------------ the worker
  function send(message, onReply) {
    return navigator.serviceWorker.ready.then(function (registration) {
      var channel = new MessageChannel();
      channel.port1.onmessage = function (event) { onReply(event.data || {}); };
      registration.active.postMessage(message, [channel.port2]);
    });
  }

  function keepThisPage() {
    if (navigator.serviceWorker.controller) return; // the worker saw every request of this page itself
    var addresses = [location.href];
    if (window.performance && performance.getEntriesByType) {
      performance.getEntriesByType("resource").forEach(function (entry) { addresses.push(entry.name); });
    }
    // The tab's icon: the browser fetches it for the page, which the page's own resource list leaves out.
    document.querySelectorAll('link[rel~="icon"]').forEach(function (link) { addresses.push(link.href); });
    send({ type: "opened", addresses: addresses }, function () {});
  }

  function register() {
    navigator.serviceWorker.register(root + "sw.js").then(keepThisPage).catch(function () {
      control.hidden = true; // no sw.js here (the pages served without the rest of the site): nothing to offer
    });
  }

  // A new version took over (its worker installs on a visit and then controls the open pages): show its state.
  navigator.serviceWorker.addEventListener("controllerchange", function () {
    if (!panel.hidden && !saving) ask();
  });

  // ------------------------------------------------------------------ the control
  function size(bytes) {
    var megabytes = bytes / 1e6;
    try {
      return new Intl.NumberFormat(lang || undefined, {
        style: "unit", unit: megabytes >= 1 ? "megabyte" : "kilobyte", maximumFractionDigits: 1
      }).format(megabytes >= 1 ? megabytes : bytes / 1e3);
    } catch (error) {
      return megabytes.toFixed(1) + " MB";
    }
  }

  function say(label, values) {
    var line = labels[label] || "";
    Object.keys(values || {}).forEach(function (token) { line = line.split("[" + token + "]").join(values[token]); });
    text.textContent = line;
  }

  function show(reply) {
    if (reply.state === "status") {
      saving = false;
      progress.hidden = true;
      control.classList.toggle("kb-offline--saved", reply.saved);
      if (reply.saved) {
        say("saved", { SIZE: size(reply.bytes) });
        save.hidden = true;
      } else {
        text.textContent = (labels.kept || "") + " ";
        text.appendChild(document.createTextNode((labels.offer || "").split("[SIZE]").join(size(reply.bytes))));
        save.textContent = labels.save || "";
        save.hidden = false;
        save.disabled = false;
      }
    } else if (reply.state === "saving") {
      progress.hidden = false;
      progress.value = reply.total ? reply.done / reply.total : 0;
      say("saving", { DONE: size(reply.done), TOTAL: size(reply.total) });
    } else if (reply.state === "failed" || reply.state === "updating") {
      saving = false;
      progress.hidden = true;
      save.disabled = false;
      say(reply.state);
    }
  }

  function ask() {
    send({ type: "status", lang: lang }, show);
  }

  function setOpen(open) {
    panel.hidden = !open;
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
    if (open) ask();
  }

  toggle.addEventListener("click", function () { setOpen(panel.hidden); });
  save.addEventListener("click", function () {
    saving = true;
    save.disabled = true;
    // Asked once the reader saves: the browser then keeps the saved pages when the device runs short of space.
    if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(function () {});
    send({ type: "save", lang: lang }, show);
  });
  document.addEventListener("pointerdown", function (event) {
    if (!panel.hidden && !control.contains(event.target)) setOpen(false);
  });
  control.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && !panel.hidden) {
      setOpen(false);
      toggle.focus();
    }
  });

  if (document.readyState === "complete") {
    register();
  } else {
    window.addEventListener("load", register);
  }
})();

/* Callroute website number swapping (docs/attribution.md). No dependency. The portal serves it with
   the customer's key and pools filled in. It shows each visitor a number of the campaign's pool in
   place of the page's own (elements of class callroute-number, the page number's text, tel: links),
   and keeps the page's own number when the portal does not answer in time. */
(function () {
  "use strict";
  var KEY = "__KEY__", POOLS = __POOLS__, CLS = "callroute-number", WAIT = 3000, EVERY = 60000;
  var me = document.currentScript;
  var api = (me ? new URL(me.src).origin : "") + "/api/dni/" + KEY + "/";
  var swaps = {}, sessions = [], known = false, last = 0;
  var hide = document.createElement("style");
  hide.textContent = "." + CLS + "{visibility:hidden}";
  (document.head || document.documentElement).appendChild(hide);

  function digits(s) { return (s || "").replace(/\D/g, ""); }
  function reveal() { if (hide.parentNode) hide.parentNode.removeChild(hide); }
  function visitor() {
    var id;
    try { id = localStorage.getItem("callroute_vid"); } catch (e) { /* storage off: one per page */ }
    if (!id) {
      var a = new Uint8Array(16);
      crypto.getRandomValues(a);
      id = Array.prototype.map.call(a, function (b) { return (b + 256).toString(16).slice(1); }).join("");
      try { localStorage.setItem("callroute_vid", id); } catch (e) { /* kept for this page only */ }
    }
    return id;
  }
  function post(path, body) {
    var stop = new AbortController(), timer = setTimeout(function () { stop.abort(); }, WAIT);
    return fetch(api + path, {
      method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "text/plain" },
      credentials: "omit", keepalive: true, signal: stop.signal
    }).then(function (r) {
      clearTimeout(timer);
      if (!r.ok) throw new Error(r.status);
      return r.json();
    });
  }
  // The pool whose page number these digits are (the national or the international form).
  function poolOf(text) {
    var d = digits(text).replace(/^0+/, ""); // a trunk prefix (020 ...) is no part of the number
    if (d.length < 7) return null;
    for (var i = 0; i < POOLS.length; i++) {
      var n = POOLS[i].n;
      if (n && (n === d || n.slice(-d.length) === d)) return POOLS[i].c;
    }
    return null;
  }
  // The number in the page's own format: its digits replaced from the right, a trunk prefix kept.
  function shown(text, number) {
    var n = digits(number), d = digits(text), z = d.length - d.replace(/^0+/, "").length;
    var j = n.length - d.length + z, i = 0;
    if (j < 0 || !d) return number;
    return text.replace(/\d/g, function (c) { return i++ < z ? c : n.charAt(j++); });
  }
  var PHONE = /\+?\d[\d\s().\-]{5,}\d/g;
  function apply(root) {
    if (!known || !root || root.nodeType !== 1 && root.nodeType !== 9) return;
    var els = root.querySelectorAll ? root.querySelectorAll("." + CLS + ",a[href^='tel:']") : [];
    Array.prototype.forEach.call(els, function (el) {
      if (el.tagName === "A" && /^tel:/i.test(el.getAttribute("href"))) {
        var p = poolOf(el.getAttribute("href"));
        if (p && swaps[p]) el.setAttribute("href", "tel:" + swaps[p]);
      }
      if (el.classList.contains(CLS)) {
        var pool = +el.getAttribute("data-pool") || poolOf(el.textContent) || (POOLS[0] && POOLS[0].c);
        if (swaps[pool] && el.children.length === 0) el.textContent = shown(el.textContent, swaps[pool]);
      }
    });
    var walk = document.createTreeWalker(root, 4), node;
    while ((node = walk.nextNode())) {
      var tag = node.parentNode && node.parentNode.nodeName;
      if (tag === "SCRIPT" || tag === "STYLE") continue;
      var text = node.nodeValue.replace(PHONE, function (m) {
        var p = poolOf(m);
        return p && swaps[p] ? shown(m, swaps[p]) : m;
      });
      if (text !== node.nodeValue) node.nodeValue = text;
    }
  }
  function pools() {
    if (POOLS.length < 2) return POOLS.map(function (p) { return p.c; });
    var found = {}, els = document.querySelectorAll("." + CLS + "[data-pool]");
    Array.prototype.forEach.call(els, function (el) { found[el.getAttribute("data-pool")] = 1; });
    POOLS.forEach(function (p) {
      if (p.n && digits(document.body.textContent).indexOf(p.n.slice(-7)) >= 0) found[p.c] = 1;
    });
    return Object.keys(found).map(Number).slice(0, 5);
  }
  function start() {
    var wanted = pools();
    if (!wanted.length) return reveal();
    post("assign", { visitor_id: visitor(), pools: wanted, page: location.href, referrer: document.referrer || null })
      .then(function (answer) {
        answer.data.swaps.forEach(function (s) { swaps[s.pool] = s.number; sessions.push(s.session_id); });
        known = true;
        last = Date.now();
        apply(document);
      })
      .catch(function () { /* the page keeps its own number */ })
      .then(reveal);
  }
  function touch() {
    if (!sessions.length || Date.now() - last < EVERY) return;
    last = Date.now();
    post("touch", { sessions: sessions }).catch(function () { /* next time */ });
  }
  new MutationObserver(function (changes) {
    changes.forEach(function (c) {
      Array.prototype.forEach.call(c.addedNodes, function (n) { apply(n.nodeType === 3 ? n.parentNode : n); });
    });
  }).observe(document.documentElement, { childList: true, subtree: true });
  ["click", "scroll", "keydown", "touchstart"].forEach(function (e) {
    addEventListener(e, touch, { passive: true, capture: true });
  });
  if (POOLS.length < 2 || document.readyState !== "loading") start();
  else document.addEventListener("DOMContentLoaded", start);
  document.addEventListener("DOMContentLoaded", function () { apply(document); });
})();

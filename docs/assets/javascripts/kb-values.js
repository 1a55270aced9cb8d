// Whether a value fits an argument's declared type: generator/kb/value_types.value_fault in JavaScript, check for
// check, so the page refuses what `generator check` refuses, with the same fault (tests/test_value_faults.py runs
// both in QuickJS, tests/browser/test_differential.py in Chromium). No DOM: the Ask panel (ask.js) reads a
// situation from its fields or from a shared link, then asks `KbValues.fault(declared, value)` before any
// predicate runs on it; a fault is data (["item", 2]) that ask.js words in the page's language.
(function (root) {
  "use strict";
  var MAX_ITEMS = 200; // value_types.MAX_ITEMS: items in one list argument
  var LIST_ITEMS = { bools: "bool", ints: "int", models: "model", points: "point", dice: "die" }; // implied items

  function isNumber(v) { return typeof v === "number" && isFinite(v); }
  function isWhole(v) { return isNumber(v) && Math.floor(v) === v; }
  function isPoint(v) { return Array.isArray(v) && v.length === 2 && isNumber(v[0]) && isNumber(v[1]); }
  var CHECKS = { // value_types.TYPES[...].check
    bool: function (v) { return typeof v === "boolean"; },
    int: isWhole,
    number: isNumber,
    inches: function (v) { return isNumber(v) && v >= 0; },
    mm: isNumber,
    degrees: isNumber,
    point: isPoint,
    size: isPoint,
    choice: function (v) { return typeof v === "string" || isWhole(v); },
    text: function (v) { return typeof v === "string"; },
    model: function (v) { return isWhole(v) && v >= 0; },
    any: function () { return true; }
  };
  function named(values, v) { return (values || []).indexOf(v) >= 0; }
  function itemFits(kind, item, declared) {
    if (kind === "die") return isWhole(item) && item >= 1 && item <= 6;
    if (kind === "choice") return CHECKS.choice(item) && (named(declared.values, item) || declared.other != null);
    return CHECKS[kind](item);
  }
  function outside(v, declared) {
    return isNumber(v) && ((declared.min != null && v < declared.min) || (declared.max != null && v > declared.max));
  }

  // null, or ["null"], ["type"], ["unknown"], ["range"], ["long"], ["item", i], ["range", i]: value_fault's faults.
  function fault(declared, value) {
    var kind = declared.type;
    if (value === null || value === undefined) return declared.nullable || kind === "any" ? null : ["null"];
    var itemKind = kind === "list" ? declared.items : LIST_ITEMS[kind];
    if (itemKind) {
      if (!Array.isArray(value)) return ["type"];
      if (value.length > MAX_ITEMS) return ["long"];
      for (var i = 0; i < value.length; i++) {
        if (!itemFits(itemKind, value[i], declared)) return ["item", i];
        if (outside(value[i], declared)) return ["range", i];
      }
      return null;
    }
    if (!CHECKS[kind] || !CHECKS[kind](value)) return ["type"];
    if (kind === "choice" && !named(declared.values, value) && declared.other == null) return ["unknown"];
    if (outside(value, declared)) return ["range"];
    return null;
  }

  // How deep a value is nested, counted without recursion (a 5,000-deep list from a link must not overflow the
  // stack); stops counting past `limit`.
  function depth(value, limit) {
    var stack = [[value, 1]], deepest = 0;
    while (stack.length) {
      var top = stack.pop(), current = top[0], level = top[1];
      deepest = Math.max(deepest, level);
      if (deepest > limit) return deepest;
      if (current && typeof current === "object") {
        var children = Array.isArray(current) ? current : Object.keys(current).map(function (k) { return current[k]; });
        for (var i = 0; i < children.length; i++) stack.push([children[i], level + 1]);
      }
    }
    return deepest;
  }

  root.KbValues = { fault: fault, depth: depth, MAX_ITEMS: MAX_ITEMS, LIST_ITEMS: LIST_ITEMS };
})(typeof window !== "undefined" ? window : globalThis);

// "Ask this rule": each form (generator/render/ask.py) reads the situation once, runs every predicate of
// its group compiled to JavaScript at build time (window.KB_PREDICATES, on kb-runtime.js), traced, and
// writes each answer in the page's language with the clause that decided it and the reasons the trace
// gives (the same words as generator/render/reasons.py). The situation lives in the URL hash
// (#ask-<predicate>?<argument>=<value>&...), so a shared link restores form and answers in any language.
(function () {
  "use strict";
  var wordsNode = document.getElementById("kb-ask-words");
  if (!wordsNode) return;
  var W = JSON.parse(wordsNode.getAttribute("data-kb-words"));
  var LANG = W.lang;
  var plural = window.Intl && Intl.PluralRules ? new Intl.PluralRules(LANG) : null;
  var decimals = window.Intl ? new Intl.NumberFormat(LANG, { maximumFractionDigits: 1, useGrouping: false }) : null;
  var DECIMAL_SIGN = decimals ? decimals.format(1.5).replace(/[0-9]/g, "") : "."; // «,» in Russian
  var OTHER = "other"; // render/ask.OTHER_VALUE: what an open choice's «another faction» sends
  var MAX_DEPTH = 50; // evaluate/limits.MAX_VALUE_DEPTH: a value from a link nested deeper is refused unread
  var Values = window.KbValues;
  var STEP = 0.5, FINE = 0.1; // inches a model moves per arrow key; with Shift held
  var SYMBOLS = { "<": "<", "<=": "\u2264", ">": ">", ">=": "\u2265", "==": "=", "!=": "\u2260" };
  var NEGATED = { "<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "==" };
  var LISTS = ["list", "ints", "bools", "models"]; // kb/answers.LISTS: a list result's items, comma-separated
  var COUNTED = ["models"]; // kb/answers.COUNTED: the plural group counts the items
  var LARGEST = 999999999999999; // 15 digits: every such number is exact in both engines (evaluate/limits.MAX_INT)

  function fill(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (all, key) { return key in values ? values[key] : all; });
  }
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function has(object, key) { return Object.prototype.hasOwnProperty.call(object, key); }
  function isNumber(x) { return typeof x === "number" && isFinite(x); }

  // ------------------------------------------------------------------ numbers in the page's locale
  // A number exactly, in the locale's decimal form: the shortest digits that read back as this very number
  // (17.9999999 stays 17,9999999; Python's Translations.number writes the same), never rounded for show.
  function exactText(value) {
    var text = String(value), m = /^(-?)(\d)(?:\.(\d+))?e-(\d+)$/.exec(text);
    if (m && Number(m[4]) <= 20) text = m[1] + Math.abs(value).toFixed((m[3] || "").length + Number(m[4]));
    return text.replace(".", DECIMAL_SIGN);
  }
  function num(value) {
    return exactText(value).replace(/^-/, "\u2212");
  }
  var FRACTION_GLYPHS = {0.25: "\u00bc", 0.5: "\u00bd", 0.75: "\u00be"}; // render/values.FRACTION_GLYPHS
  function withHalves(value) { // render/values.with_halves: «1½», «½», «3¾», «17,9»
    var size = Math.abs(value), shown, glyph = FRACTION_GLYPHS[size % 1];
    if (glyph) shown = (size >= 1 ? num(Math.floor(size)) : "") + glyph;
    else shown = num(size);
    return (value < 0 ? "\u2212" : "") + shown;
  }
  function parseNumber(text) {
    var cleaned = String(text).trim().replace(/\s+/g, "").replace(/^[\u2212\u2013]/, "-").replace(",", ".")
      .replace(/(\u2033|"|''|inch(es)?|in|\u0434\u044e\u0439\u043c\u0430?|\u0434\u044e\u0439\u043c\u043e\u0432)$/i, "");
    var glyph = /^(-?)(\d*)([\u00bc\u00bd\u00be])$/.exec(cleaned);
    if (glyph) {
      var size = Number(glyph[2] || 0) + {"\u00bc": 0.25, "\u00bd": 0.5, "\u00be": 0.75}[glyph[3]];
      return glyph[1] ? -size : size;
    }
    if (!/^-?(\d+\.?\d*|\.\d+)(e-?\d+)?$/i.test(cleaned)) return null;
    return Number(cleaned);
  }
  function parseWhole(text) {
    var cleaned = String(text).trim().replace(/^[\u2212\u2013]/, "-");
    return /^-?\d+$/.test(cleaned) ? Number(cleaned) : null;
  }

  // ------------------------------------------------------------------ values in words (render/values.py)
  function unitNumber(value, type) {
    if (type === "inches") return withHalves(value) + "\u2033";
    if (type === "mm") return fill(W.mm, { num: num(value) });
    if (type === "degrees") return num(value) + "\u00b0";
    return num(value);
  }
  function point(p) { return "(" + num(p[0]) + "; " + num(p[1]) + ")"; }
  function plain(value) {
    if (value === null || value === undefined) return W.none;
    if (value === true) return W.yes;
    if (value === false) return W.no;
    if (typeof value === "number") return num(value);
    if (typeof value === "string") return value;
    if (Array.isArray(value)) return "[" + value.map(plain).join("; ") + "]";
    return JSON.stringify(value);
  }
  function inWords(type, value, labels) {
    if (value === null || value === undefined) return W.none;
    var isNum = isNumber(value);
    if (type === "bool" && typeof value === "boolean") return value ? W.yes : W.no;
    if ((type === "inches" || type === "mm" || type === "degrees") && isNum) return unitNumber(value, type);
    if (type === "model" && isNum) return num(value + 1);
    if (type === "models" && Array.isArray(value)) return value.length ? value.map(function (i) { return num(i + 1); }).join(", ") : "\u2014";
    if (type === "choice" && labels && has(labels, String(value))) return labels[String(value)];
    if (type === "dice" && Array.isArray(value)) return fill(W.dice, { dice: value.map(num).join(" + ") });
    if (type === "point" && Array.isArray(value) && value.length === 2) return point(value);
    if (type === "points" && Array.isArray(value)) return value.length ? value.map(point).join(", ") : "\u2014";
    if (type === "size" && Array.isArray(value) && value.length === 2) return fill(W.size, { width: num(value[0]), depth: num(value[1]) });
    return plain(value);
  }
  function listed(value) {
    return value.length ? value.map(function (item) { return typeof item === "string" ? item : plain(item); }).join(", ") : "\u2014";
  }
  // The result as the rule's declared answer (kb/answers.answer_key): a phrase for this value, else the
  // `other` pattern in the value's plural category (a list of models: its count) with {value} in words.
  function answerKey(value) {
    if (value === true) return "true";
    if (value === false) return "false";
    if (value === null || value === undefined) return "null";
    if (Array.isArray(value) && !value.length) return "empty";
    return String(value);
  }
  function newsOf(returns, value) { // kb/answers.news_of: good, bad or neutral for the unit asked about
    var news = returns.news || {}, key = answerKey(value);
    return has(news, key) ? news[key] : has(news, "other") ? news.other : null;
  }
  function answerWords(returns, value) {
    var answers = returns.answers || {}, key = answerKey(value);
    if (has(answers, key)) return answers[key];
    var pattern = returns.pattern || {};
    if (!Object.keys(pattern).length) return null;
    var counted = Array.isArray(value) && COUNTED.indexOf(returns.type) >= 0;
    var count = isNumber(value) ? Math.abs(value) : counted ? value.length : null;
    var category = count !== null && plural ? plural.select(count) : "other";
    var chosen = pattern[category] || pattern.other || pattern[Object.keys(pattern)[0]];
    var shown = Array.isArray(value) && LISTS.indexOf(returns.type) >= 0 && returns.type !== "models" ? listed(value) : inWords(returns.type, value, returns.labels);
    return chosen.replace("{value}", function () { return shown; });
  }

  // ------------------------------------------------------------------ the reasons (render/reasons.py)
  function Words(panel) { this.args = panel.argsByName; }
  Words.prototype.number = function (value, unitOf) {
    var arg = this.args[unitOf];
    return unitNumber(value, arg ? arg.type : null);
  };
  Words.prototype.value = function (name, value) {
    var arg = this.args[name];
    if (value === null || value === undefined) return W.none;
    if (typeof value === "boolean") return value ? W.yes : W.no;
    if (arg.type === "choice") return choiceWords(arg, value);
    if (arg.field === "checks" && Array.isArray(value)) return value.length ? value.map(function (item) { return choiceWords(arg, item); }).join(", ") : "\u2014";
    if (arg.type === "models" && Array.isArray(value)) return value.length ? value.map(function (i) { return num(i + 1); }).join(", ") : "\u2014";
    if (isNumber(value)) return this.number(arg.type === "model" ? value + 1 : value, name);
    if (arg.type === "dice" && Array.isArray(value)) return fill(W.dice, { dice: value.map(num).join(" + ") });
    if ((arg.type === "point" || arg.type === "size") && Array.isArray(value) && value.length === 2) return point(value);
    if (arg.type === "points" && Array.isArray(value)) return value.length ? value.map(point).join(", ") : "\u2014";
    if (Array.isArray(value)) return value.length ? value.map(function (item) {
      return typeof item === "boolean" ? (item ? W.yes : W.no) : isNumber(item) ? num(item) : String(item);
    }).join(", ") : "\u2014";
    return String(value);
  };
  function choiceWords(arg, value) {
    if (has(arg.labels, String(value))) return arg.labels[String(value)];
    return arg.other != null ? arg.other : String(value);
  }
  // A formula (evaluate/clauses.py): how a compared or returned value was computed from the arguments.
  var SIGNS = { "+": "+", "-": "\u2212", "*": "\u00d7", "/": "/" };
  var PRECEDENCE = { "+": 1, "-": 1, "*": 2, "/": 2, "neg": 3 };
  var VALUE_CALLS = ["sum", "len"];
  var UNITS = ["inches", "mm", "degrees"];
  function labelled(label, shown) { return label + (label.indexOf(":") >= 0 ? " \u2014 " : ": ") + shown; }
  function isTree(tree) { return Array.isArray(tree); }
  function Formula(tree, given, words) { this.given = given; this.words = words; this.tree = this.resolve(tree); }
  Formula.prototype.resolve = function (tree) {
    var self = this;
    if (isTree(tree) && tree[0] === "if") return this.resolve(this.given[tree[1]] ? tree[2] : tree[3]);
    if (isTree(tree)) return [tree[0]].concat(tree.slice(1).map(function (part) { return self.resolve(part); }));
    return tree;
  };
  Formula.prototype.args = function (tree) {
    var self = this, found = [];
    if (tree === undefined) tree = this.tree;
    if (typeof tree === "string") return has(this.words.args, tree) ? [tree] : [];
    if (isTree(tree)) tree.slice(1).forEach(function (part) {
      self.args(part).forEach(function (name) { if (found.indexOf(name) < 0) found.push(name); });
    });
    return found;
  };
  Formula.prototype.unitOf = function () {
    var self = this;
    return this.args().filter(function (name) { return UNITS.indexOf(self.words.args[name].type) >= 0; })[0] || null;
  };
  Formula.prototype.value = function (tree) {
    if (typeof tree === "string") return this.given[tree];
    if (!isTree(tree)) return tree;
    var items = this.value(tree[1]);
    if (tree[0] === "sum") return items.reduce(function (total, item) { return total + item; }, 0);
    if (tree[0] === "len") return items.length;
    return null;
  };
  Formula.prototype.text = function (tree, parent, right) {
    if (tree === undefined) tree = this.tree;
    if (typeof tree === "string") return this.words.number(this.given[tree], tree);
    if (!isTree(tree)) return num(tree);
    if (VALUE_CALLS.indexOf(tree[0]) >= 0) return num(this.value(tree));
    if (tree[0] === "abs") return "|" + this.text(tree[1], 0) + "|";
    if (tree[0] === "item") return num(tree[1]);
    if (tree[0] === "sumeach") { // sum([7 - x for x in sources]), item by item: «(7 − 6) + (7 − 5)»
      var self = this, items = this.given[tree[1]] || [];
      var terms = items.map(function (item) { return self.text(replaced(tree[2], item), 2); });
      if (!terms.length) terms = ["0"];
      var joined = terms.join(" + ");
      return terms.length > 1 && ((parent || 0) > 1 || right) ? "(" + joined + ")" : joined;
    }
    var strength = PRECEDENCE[tree[0]], shown;
    if (tree[0] === "neg") shown = "\u2212" + this.text(tree[1], strength);
    else shown = this.text(tree[1], strength) + " " + SIGNS[tree[0]] + " " + this.text(tree[2], strength, true);
    return strength < (parent || 0) || (right && strength === parent) ? "(" + shown + ")" : shown;
  };
  function replaced(tree, item) {
    if (isTree(tree) && tree.length === 1 && tree[0] === "item") return ["item", item];
    if (isTree(tree)) return [tree[0]].concat(tree.slice(1).map(function (part) { return replaced(part, item); }));
    return tree;
  }
  Formula.prototype.computes = function () { return isTree(this.tree) && VALUE_CALLS.indexOf(this.tree[0]) < 0; };
  Formula.prototype.shown = function (result) {
    var value = this.words.number(result, this.unitOf()), text = this.text();
    return this.computes() && text !== value ? text + " = " + value : value;
  };

  // One reason being written (render/reasons.StepWords): its parts, and the arguments it has named.
  function StepWords(words, given, namedBefore) {
    this.words = words; this.given = given; this.namedBefore = namedBefore; this.parts = []; this.named = {};
  }
  StepWords.prototype.name = function (name, shown) {
    this.parts.push(labelled(this.words.args[name].label, shown));
    this.named[name] = true;
  };
  StepWords.prototype.leaves = function (formula) {
    var self = this;
    formula.args().forEach(function (name) {
      if (!self.named[name] && !self.namedBefore[name]) self.name(name, self.words.value(name, self.given[name]));
      self.named[name] = true;
    });
  };
  StepWords.prototype.operand = function (tree, value, unitOf) {
    var words = this.words;
    if (typeof tree === "string" && has(words.args, tree)) {
      var shown = words.number(value, tree);
      if (this.named[tree]) return shown;
      this.named[tree] = true;
      return shown + " (" + words.args[tree].label + ")";
    }
    if (isTree(tree)) {
      var formula = new Formula(tree, this.given, words);
      this.leaves(formula);
      return formula.shown(value);
    }
    return words.number(value, unitOf);
  };
  StepWords.prototype.comparison = function (c) {
    var left = c[0], op = c[1], right = c[2], holds = c[3], self = this, words = this.words;
    if (!has(SYMBOLS, op) || !isNumber(left) || !isNumber(right)) return;
    var trees = [c[4], c[5]].map(function (tree) {
      return tree === null || tree === undefined ? null : new Formula(tree, self.given, words).tree;
    });
    var reads = [];
    trees.forEach(function (tree) {
      if (typeof tree === "string" || isTree(tree)) reads = reads.concat(new Formula(tree, self.given, words).args());
    });
    if (!reads.length) return;
    var symbol = SYMBOLS[holds ? op : NEGATED[op]];
    var bare = trees.map(function (tree) { return typeof tree === "string" && has(words.args, tree); });
    if (symbol === "=" && bare.filter(Boolean).length === 1 && trees.indexOf(null) >= 0) {
      var name = trees[bare.indexOf(true)];
      if (!this.named[name]) this.name(name, words.value(name, has(this.given, name) ? this.given[name] : [left, right][bare.indexOf(true)]));
      return;
    }
    var unitOf = reads.filter(function (name) { return UNITS.indexOf(words.args[name].type) >= 0; })[0] || reads[0];
    var shownLeft = this.operand(trees[0], left, unitOf), shownRight = this.operand(trees[1], right, unitOf);
    this.parts.push(shownLeft + " " + symbol + " " + shownRight);
  };
  StepWords.prototype.returned = function (tree, outcome) {
    if (!isNumber(outcome)) return;
    var formula = new Formula(tree, this.given, this.words);
    if (!formula.computes() || !formula.args().length) return;
    this.leaves(formula);
    this.parts.push(formula.shown(outcome));
  };
  StepWords.prototype.reads = function (step) {
    var self = this;
    step.reads.forEach(function (read) {
      if (has(self.words.args, read[0]) && !self.named[read[0]]) self.name(read[0], self.words.value(read[0], read[1]));
    });
  };
  // render/reasons.settled: a match among «30 or 35 mm», not the numbers missed; no count against a number.
  function settled(compares) {
    var matched = {};
    compares.forEach(function (c) {
      [c[4], c[5]].forEach(function (tree) {
        var nulls = (c[4] === null ? 1 : 0) + (c[5] === null ? 1 : 0);
        if (typeof tree === "string" && (c[1] === "==") === c[3] && (c[1] === "==" || c[1] === "!=") && nulls === 1) matched[tree] = true;
      });
    });
    return compares.filter(function (c) {
      var trees = [c[4], c[5]].filter(function (tree) { return tree !== null && tree !== undefined; });
      if (trees.length === 1 && typeof trees[0] === "string" && matched[trees[0]] && (c[1] === "==" || c[1] === "!=") && (c[1] === "==") !== c[3]) return false;
      if (trees.length === 1 && isTree(trees[0]) && VALUE_CALLS.indexOf(trees[0][0]) >= 0) return false;
      return true;
    });
  }
  function stepText(step, words, given, returned, namedBefore) {
    var all = {}, key;
    for (key in given || {}) if (has(given, key)) all[key] = given[key];
    step.reads.forEach(function (read) { if (!has(all, read[0])) all[read[0]] = read[1]; });
    var writing = new StepWords(words, all, namedBefore);
    settled(step.compares).forEach(function (c) { writing.comparison(c); });
    var tree = step.kind === "return" ? (returned || {})[step.line + ":" + step.column] : undefined;
    if (tree !== undefined) writing.returned(tree, step.outcome);
    writing.reads(step);
    Object.keys(writing.named).forEach(function (name) { namedBefore[name] = true; });
    return writing.parts.join("; ");
  }
  function reasons(steps, words, given, predicate) {
    var found = [], seen = {}, named = {};
    steps.forEach(function (step) {
      var text = stepText(step, words, given, predicate.returned, named), key = step.clause + "\u0000" + text;
      if (text && !seen[key]) { seen[key] = true; found.push({ clause: step.clause, text: text }); }
    });
    if (!found.length && given) { // render/reasons.reasons: the situation, under the clause that decided
      var situation = predicate.params.filter(function (name) { return has(words.args, name) && has(given, name); })
        .map(function (name) { return labelled(words.args[name].label, words.value(name, given[name])); }).join("; ");
      if (situation) found.push({ clause: decidedBy(predicate, steps), text: situation });
    }
    return found;
  }
  function decidedBy(predicate, steps) {
    for (var i = steps.length - 1; i >= 0; i--) if (steps[i].kind === "return") return steps[i].clause || predicate.clause;
    return predicate.clause;
  }

  // ------------------------------------------------------------------ one form
  function Panel(form) {
    this.form = form;
    this.data = JSON.parse(form.getAttribute("data-kb-ask"));
    this.boardNode = form.querySelector(".kb-ask__board");
    this.status = form.querySelector(".kb-ask__status");
    this.recap = form.querySelector(".kb-ask__recap");
    this.fields = {};
    this.argsByName = {};
    var self = this;
    this.data.args.forEach(function (arg) {
      self.fields[arg.name] = form.querySelector('.kb-ask__field[data-arg="' + arg.name + '"]');
      self.argsByName[arg.name] = arg;
    });
    this.words = new Words(this);
    var box = form.querySelector(".kb-ask__boxes li");
    this.boxRow = box ? box.cloneNode(true) : null; // a row to copy when every box was removed
    form.addEventListener("change", function (event) { // a reader's own pick replaces a link's unnamed id
      var changed = event.target.closest && event.target.closest(".kb-ask__field");
      if (changed) delete changed.kbOther;
    }, true);
    form.addEventListener("input", function () { self.update(true); });
    form.addEventListener("change", function () { self.update(true); });
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    form.addEventListener("click", function (event) { self.click(event); });
    if (this.boardNode) this.board = new Board(this);
  }

  Panel.prototype.field = function (arg) { return this.fields[arg.name]; };

  // Read one argument: {value} or {problem}; what the declared type does not take is refused, never answered.
  Panel.prototype.read = function (arg) {
    var got = this.readField(arg);
    return got.problem ? got : checked(arg, got.value);
  };
  // A value read from a field or a link, held to its declared type (kb-values.js, as `generator check` does),
  // then to 15 digits: {value} or {problem} in the page's language, saying what the field accepts.
  function checked(arg, value) {
    if (Values.depth(value, MAX_DEPTH) > MAX_DEPTH) return { problem: fill(W.problemDeep, { limit: MAX_DEPTH }) };
    if (tooLarge(value)) return { problem: W.tooLarge };
    var fault = Values.fault(arg, value);
    return fault ? { problem: faultWords(arg, value, fault) } : { value: value };
  }
  function shownItem(item) {
    var text = typeof item === "string" ? item : isNumber(item) ? num(item) : JSON.stringify(item);
    return text && text.length > 40 ? text.slice(0, 39) + "\u2026" : text; // a long stranger is named, not echoed whole
  }
  function faultWords(arg, value, fault) {
    var code = fault[0], item = fault.length > 1 ? value[fault[1]] : value;
    var choices = (arg.values || []).map(function (v) { return choiceWords(arg, v); }).join(", ");
    var low = arg.min != null ? num(arg.min) : "", high = arg.max != null ? num(arg.max) : "";
    if (code === "null") return W.problemNull;
    if (code === "long") return fill(W.problemLong, { limit: num(Values.MAX_ITEMS), count: num(value.length) });
    if (code === "unknown") return fill(W.problemUnknown, { value: shownItem(value), values: choices });
    if (code === "range" && fault.length > 1) return fill(W.problemItemRange, { num: fault[1] + 1, value: shownItem(item), low: low, high: high });
    if (code === "range") return fill(W.problemRange, { low: low, high: high });
    if (code === "item" && (arg.items === "choice")) return fill(W.problemItemChoice, { num: fault[1] + 1, value: shownItem(item), values: choices });
    if (code === "item") return fill(W.problemItem, { num: fault[1] + 1, value: shownItem(item), kind: arg.kind });
    return fill(W.problemType, { kind: arg.kind });
  }
  // A number past 15 digits, or an infinity a list may hold (1e400): the reader is asked for a smaller one, in the
  // page's language, before the runtime would refuse it in English. Walked without recursion (a link's nesting).
  function tooLarge(value) {
    var stack = [value];
    while (stack.length) {
      var current = stack.pop();
      if (typeof current === "number" && (!isFinite(current) || Math.abs(current) > LARGEST)) return true;
      if (current && typeof current === "object") Object.keys(current).forEach(function (key) { stack.push(current[key]); });
    }
    return false;
  }
  function numeric(arg) { return (arg.values || []).some(function (v) { return typeof v === "number"; }); }
  function choiceValue(arg, text) { return numeric(arg) && /^-?\d+$/.test(text) && !has(arg.labels, text) ? Number(text) : text; }

  // Items typed in one line, separated by commas («A, B, A»; a list of numbers «6, 5»): each read as its item type.
  function readWords(arg, text) {
    var parts = String(text).split(/[,;\uff0c]/).map(function (part) { return part.trim(); }).filter(function (part) { return part !== ""; });
    if (parts.length > Values.MAX_ITEMS) return { problem: fill(W.problemLong, { limit: num(Values.MAX_ITEMS), count: num(parts.length) }) };
    var kind = arg.type === "list" ? arg.items : Values.LIST_ITEMS[arg.type], items = [];
    for (var i = 0; i < parts.length; i++) {
      if (kind === "text" || kind === "choice") { items.push(parts[i]); continue; }
      var n = kind === "int" || kind === "model" ? parseWhole(parts[i].replace(/\+$/, "")) : parseNumber(parts[i]);
      if (n === null || (kind === "model" && n < 1)) return { problem: fill(W.problemItem, { num: i + 1, value: shownItem(parts[i]), kind: arg.kind }) };
      items.push(kind === "model" ? n - 1 : n);
    }
    return { value: items };
  }

  Panel.prototype.readField = function (arg) {
    var field = this.field(arg), kind = arg.field, input;
    if (kind === "yesno") {
      input = field.querySelector("input:checked");
      if (!input) return { value: null };
      return { value: input.value === "" ? null : input.value === "1" };
    }
    if (kind === "choice") {
      var chosen = field.querySelector("select").value;
      if (chosen === "" && arg.nullable) return { value: null };
      if (chosen === OTHER && arg.other != null && field.kbOther !== undefined) return { value: field.kbOther }; // the link's own id
      return { value: choiceValue(arg, chosen) };
    }
    if (kind === "checks") {
      return { value: Array.prototype.map.call(field.querySelectorAll("input:checked"), function (box) { return choiceValue(arg, box.value); }) };
    }
    if (kind === "segments") {
      input = field.querySelector("input:checked");
      return input ? { value: Number(input.value) } : (arg.nullable ? { value: null } : { problem: W.problemNull });
    }
    if (kind === "counts") {
      var counted = [];
      field.querySelectorAll(".kb-ask__count").forEach(function (row) {
        var times = parseWhole(row.querySelector("output").textContent) || 0;
        for (var k = 0; k < times; k++) counted.push(Number(row.getAttribute("data-value")));
      });
      return { value: counted };
    }
    if (kind === "boxes") {
      return { value: Array.prototype.map.call(field.querySelectorAll(".kb-ask__boxes input"), function (box) { return box.checked; }) };
    }
    if (kind === "words") return readWords(arg, field.querySelector("input").value);
    if (kind === "decimal" || kind === "whole" || kind === "model") {
      input = field.querySelector("input");
      var parsed = kind === "decimal" ? parseNumber(input.value) : parseWhole(input.value);
      if (parsed === null || (kind === "model" && parsed < 1)) {
        if (arg.nullable && input.value.trim() === "") return { value: null };
        return { problem: kind === "model" ? W.needModel : kind === "whole" ? W.needWhole : W.needNumber };
      }
      if (arg.type === "inches" && parsed < 0) return { problem: W.needDistance }; // value_types.is_distance
      return { value: kind === "model" ? parsed - 1 : parsed };
    }
    if (kind === "dice") {
      var faces = [];
      field.querySelectorAll(".kb-ask__die").forEach(function (die) {
        var face = die.querySelector("input:checked");
        faces.push(face ? Number(face.value) : null);
      });
      return faces.indexOf(null) >= 0 ? { problem: W.problemNull } : { value: faces };
    }
    if (kind === "size" || kind === "point" || kind === "points") {
      var inputs = field.querySelectorAll("input"), numbers = [];
      for (var i = 0; i < inputs.length; i++) {
        var n = parseNumber(inputs[i].value);
        if (n === null) return { problem: W.needNumber };
        numbers.push(n);
      }
      var pairs = [];
      for (var j = 0; j + 1 < numbers.length; j += 2) pairs.push([numbers[j], numbers[j + 1]]);
      if (kind === "points") return { value: pairs };
      return { value: pairs[0] || numbers.slice(0, 2) };
    }
    if (kind === "text") {
      var text = field.querySelector("input").value;
      return { value: text === "" && arg.nullable ? null : text }; // an empty nullable text is "none"
    }
    try {
      return { value: JSON.parse(field.querySelector("input").value) };
    } catch (error) {
      return { problem: W.needValue };
    }
  };

  Panel.prototype.given = function () {
    var given = {}, ok = true, self = this;
    this.data.args.forEach(function (arg) {
      var got = self.read(arg), problem = self.field(arg).querySelector(".kb-ask__problem");
      problem.textContent = got.problem || "";
      var input = self.field(arg).querySelector("input[type=text]");
      if (input) input.setAttribute("aria-invalid", got.problem ? "true" : "false");
      if (got.problem) ok = false; else given[arg.name] = got.value;
    });
    return ok ? given : null;
  };

  // One predicate's answer to the situation, traced: {value, steps} or {problem}.
  Panel.prototype.run = function (predicate, given) {
    var compiled = (window.KB_PREDICATES || {})[this.data.rule + ":" + predicate.name];
    if (typeof compiled !== "function") return { problem: W.compiledMissing };
    var args = {}, trace = { steps: [] };
    predicate.params.forEach(function (name) { args[name] = given[name]; });
    try {
      return { value: compiled(args, null, trace), steps: trace.steps, args: args };
    } catch (error) {
      return { problem: fill(W.noAnswer, { reason: error && error.message ? error.message : String(error) }) };
    }
  };

  Panel.prototype.update = function (fromReader) {
    var given = this.given(), self = this;
    if (this.board) this.board.draw();
    this.answers = {};
    this.givenNow = given;
    if (fromReader && this.recap) this.recap.hidden = true;
    if (given && fromReader) history.replaceState(null, "", "#" + this.form.id + "?" + encodeScenario(this.data.args, given));
    this.data.predicates.forEach(function (predicate) {
      var out = self.form.querySelector('.kb-ask__result[data-predicate="' + predicate.name + '"] .kb-ask__output');
      out.textContent = "";
      if (!given) return;
      var outcome = self.run(predicate, given);
      if (outcome.problem) { out.appendChild(el("p", { "class": "kb-ask__error" }, outcome.problem)); return; }
      self.answers[predicate.name] = outcome;
      self.answer(predicate, outcome, out);
    });
    this.printRecap();
  };

  // The situation in words, «label: value · …»: the recap of a shared link, and the line a printed panel
  // shows above its answer in place of the fields (kb.css hides it on screen).
  Panel.prototype.situationWords = function () {
    var self = this;
    return this.data.args.map(function (arg) {
      return arg.label + ": " + self.words.value(arg.name, self.givenNow[arg.name]);
    }).join(" \u00b7 ");
  };

  Panel.prototype.printRecap = function () {
    var line = this.form.querySelector(".kb-print-recap");
    if (!line) {
      line = el("p", { "class": "kb-print-recap" });
      this.form.insertBefore(line, this.form.firstChild);
    }
    line.textContent = this.givenNow ? this.situationWords() : "";
  };

  Panel.prototype.verdictWords = function (predicate, value) {
    var phrase = answerWords(predicate.returns, value);
    return phrase === null ? inWords(predicate.returns.type, value, predicate.returns.labels) : phrase;
  };

  Panel.prototype.answer = function (predicate, outcome, out) {
    var returns = predicate.returns, value = outcome.value, clauses = this.data.clauses;
    var verdict = el("p", { "class": "kb-ask__verdict" });
    var phrase = answerWords(returns, value);
    if (phrase === null) { // no declared answer: the result's meaning, then the value in words
      var meaning = el("span", { "class": "kb-ask__meaning" });
      meaning.innerHTML = returns.meaning + ": "; // escaped HTML from the build (code spans kept)
      verdict.appendChild(meaning);
    }
    // Coloured by what the answer means for the unit (the rule's `news`), with an icon and a word for it.
    var news = newsOf(returns, value);
    var strong = el("strong", { "class": news ? "kb-value kb-value--" + news : "kb-value" });
    if (news) strong.appendChild(el("span", { "class": "kb-news kb-news--" + news, role: "img", "aria-label": W.news[news], title: W.news[news] }));
    strong.appendChild(document.createTextNode(phrase === null ? inWords(returns.type, value, returns.labels) : phrase));
    verdict.appendChild(strong);
    var decided = decidedBy(predicate, outcome.steps), clause = clauses[decided];
    if (clause) {
      var by = el("span", { "class": "kb-ask__clause" }, W.decidedBy + " ");
      by.appendChild(el("a", { href: "#" + decided }, "\u00a7" + clause.number));
      verdict.appendChild(document.createTextNode(" \u00b7 "));
      verdict.appendChild(by);
    }
    out.appendChild(verdict);
    var found = reasons(outcome.steps, this.words, outcome.args, predicate);
    if (found.length) {
      var list = el("ul", { "class": "kb-ask__reasons", "aria-label": W.because });
      found.forEach(function (reason) {
        var item = el("li");
        if (reason.clause && clauses[reason.clause]) {
          item.appendChild(el("a", { href: "#" + reason.clause, "class": "kb-ask__reason-clause" }, "\u00a7" + clauses[reason.clause].number));
          item.appendChild(document.createTextNode(" "));
        }
        item.appendChild(document.createTextNode(reason.text));
        list.appendChild(item);
      });
      out.appendChild(list);
    }
    if (clause && clause.clarifications.length) {
      var notes = el("ul", { "class": "kb-ask__clarifications", "aria-label": W.clarified });
      clause.clarifications.forEach(function (c) {
        var item = el("li");
        var link = el("a", { href: "#clarification-" + c.id });
        link.innerHTML = c.question; // escaped HTML from the build
        item.appendChild(link);
        notes.appendChild(item);
      });
      out.appendChild(notes);
    }
    var example = this.example(predicate, outcome.args, value);
    if (example) {
      var match = el("p", { "class": "kb-ask__example" }, W.example + " ");
      match.appendChild(el("a", { href: "#example-" + example.id }, example.name));
      out.appendChild(match);
    }
  };

  // A worked example with exactly this situation and answer, if there is one.
  Panel.prototype.example = function (predicate, args, value) {
    return predicate.examples.filter(function (example) {
      return same(example.expect, value) && predicate.params.every(function (name) { return same(example.given[name], args[name]); });
    })[0] || null;
  };

  // The one-line recap a shared link opens with: the situation, then each answer.
  Panel.prototype.showRecap = function () {
    if (!this.recap || !this.givenNow) return;
    var self = this;
    var verdicts = this.data.predicates.filter(function (p) { return self.answers[p.name]; }).map(function (p) {
      var outcome = self.answers[p.name], clause = self.data.clauses[decidedBy(p, outcome.steps)];
      return self.verdictWords(p, outcome.value) + (clause ? " (\u00a7" + clause.number + ")" : "");
    });
    this.recap.textContent = "";
    this.recap.classList.remove("kb-ask__recap--refused");
    this.recap.appendChild(el("strong", {}, W.fromLink + " "));
    this.recap.appendChild(document.createTextNode(this.situationWords() + " \u2192 " + verdicts.join("; ")));
    this.recap.hidden = false;
  };

  Panel.prototype.yaml = function () {
    var self = this;
    if (!this.givenNow) return "";
    // JSON is YAML: flow mappings and lists that `python -m generator check FILE` reads. Line and paragraph
    // separators are written as escapes, which YAML reads back as the same characters.
    var json = function (value) { return JSON.stringify(value).replace(/[\u0085\u2028\u2029]/g, function (c) { return "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"); }); };
    return this.data.predicates.filter(function (p) { return self.answers[p.name]; }).map(function (p) {
      var outcome = self.answers[p.name];
      return "- rule: " + self.data.rule + "\n  predicate: " + p.name + "\n  name: " + json(W.exampleName) +
        "\n  given: " + json(outcome.args) + "\n  expect: " + json(outcome.value) + "\n";
    }).join("");
  };

  Panel.prototype.link = function () {
    var given = this.given();
    return given ? location.href.split("#")[0] + "#" + this.form.id + "?" + encodeScenario(this.data.args, given) : null;
  };

  Panel.prototype.say = function (text) {
    var status = this.status;
    status.textContent = text;
    clearTimeout(this.sayTimer);
    this.sayTimer = setTimeout(function () { status.textContent = ""; }, 4000);
  };

  Panel.prototype.copy = function (text, done, label) {
    var self = this;
    var fallback = function () { // no clipboard (an insecure origin, or refused): the text to copy by hand
      var out = self.form.querySelector(".kb-ask__copied");
      if (!out) {
        out = el("textarea", { "class": "kb-ask__copied", readonly: "readonly", rows: "4" });
        self.form.querySelector(".kb-ask__actions").after(out);
      }
      out.setAttribute("aria-label", label);
      out.value = text;
      out.select();
      self.say(W.copyFailed);
    };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(function () { self.say(done); }, fallback);
    else fallback();
  };

  Panel.prototype.click = function (event) {
    var button = event.target.closest("button");
    if (!button) return;
    if (button.classList.contains("kb-ask__add") || button.classList.contains("kb-ask__remove")) {
      var list = button.closest("fieldset").querySelector(".kb-ask__points, .kb-ask__boxes");
      var boxes = list.classList.contains("kb-ask__boxes"), fewest = boxes ? 0 : 1;
      if (button.classList.contains("kb-ask__add")) { if (list.children.length < Values.MAX_ITEMS) (boxes ? this.addBox(list) : addPoint(list)); }
      else if (list.children.length > fewest) list.removeChild(list.lastElementChild);
      this.update(true);
      return;
    }
    if (button.classList.contains("kb-ask__step")) { // a stepper: one more or one fewer, within the declared range
      this.step(button, Number(button.getAttribute("data-step")));
      this.update(true);
      return;
    }
    if (button.classList.contains("kb-ask__share")) {
      var link = this.link(), self = this;
      if (!link) return;
      if (navigator.share && matchMedia("(pointer: coarse)").matches) { // a phone: its own share sheet
        navigator.share({ title: document.title, url: link }).catch(function (error) {
          if (!error || error.name !== "AbortError") self.copy(link, W.linkCopied, button.textContent);
        });
      } else {
        this.copy(link, W.linkCopied, button.textContent);
      }
    } else if (button.classList.contains("kb-ask__yaml")) {
      var text = this.yaml();
      if (text) this.copy(text, W.copied, button.textContent);
    }
  };

  Panel.prototype.step = function (button, by) {
    var count = button.closest(".kb-ask__count");
    if (count) {
      var out = count.querySelector("output"), total = this.readField(this.argOf(button)).value.length;
      var n = (parseWhole(out.textContent) || 0) + by;
      if (n >= 0 && (by < 0 || total < Values.MAX_ITEMS)) out.textContent = num(n);
      return;
    }
    var arg = this.argOf(button), input = this.field(arg).querySelector("input");
    var next = (parseWhole(input.value) || 0) + by;
    if (arg.min != null) next = Math.max(arg.min, next);
    if (arg.max != null) next = Math.min(arg.max, next);
    input.value = num(next).replace("\u2212", "-");
  };
  Panel.prototype.argOf = function (node) {
    return this.argsByName[node.closest(".kb-ask__field").getAttribute("data-arg")];
  };
  Panel.prototype.addBox = function (list) {
    var row = this.boxRow.cloneNode(true);
    row.querySelector("input").checked = false;
    row.querySelector(".kb-ask__point-name").textContent = fill(W.model, { num: list.children.length + 1 });
    list.appendChild(row);
  };

  function addPoint(list) {
    var last = list.lastElementChild, copy = last.cloneNode(true), index = list.children.length;
    var name = fill(W.model, { num: index + 1 });
    copy.querySelector(".kb-ask__point-name").textContent = name;
    copy.querySelectorAll("input").forEach(function (input) {
      var axis = input.getAttribute("data-axis");
      input.setAttribute("aria-label", name + ": " + input.getAttribute("data-axis-name"));  // the page's words
      if (axis === "0") input.value = num((parseNumber(input.value) || 0) + 1.5);
    });
    list.appendChild(copy);
  }

  function textOf(html) { var box = document.createElement("span"); box.innerHTML = html; return box.textContent; }
  function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

  // ------------------------------------------------------------------ the situation in the URL
  function encodeScenario(args, given) {
    var params = new URLSearchParams();
    args.forEach(function (arg) {
      var value = given[arg.name];
      if (value === null || value === undefined) params.set(arg.name, "");
      else if (arg.field === "yesno") params.set(arg.name, value ? "1" : "0");
      else if (arg.field === "point" || arg.field === "size" || arg.field === "dice") params.set(arg.name, value.map(String).join(","));
      else if (arg.field === "points") params.set(arg.name, value.map(function (p) { return p.map(String).join(","); }).join(";"));
      else if (Array.isArray(value)) params.set(arg.name, JSON.stringify(value)); // checks, counts, boxes, words: as links always wrote lists
      else params.set(arg.name, String(value)); // a model by its number as the predicate counts it, from 0
    });
    return params.toString();
  }

  // One argument's text in a link, read as its declared type: {value} or {problem}. A list of points longer than the
  // limit is refused before a single row is made (a 10,000-point link answers at once instead of freezing the tab).
  function fromLink(arg, raw) {
    var kind = arg.field;
    if (raw === "" && (arg.nullable || kind === "text")) return { value: kind === "text" && !arg.nullable ? "" : null };
    if (kind === "yesno") return raw === "1" ? { value: true } : raw === "0" ? { value: false } : { problem: fill(W.problemType, { kind: arg.kind }) };
    if (kind === "choice") return { value: choiceValue(arg, raw) };
    if (kind === "text") return { value: raw };
    if (kind === "decimal" || kind === "whole" || kind === "segments" || kind === "model") {
      var n = kind === "decimal" ? parseNumber(raw) : parseWhole(raw);
      return n === null ? { problem: kind === "decimal" ? W.needNumber : W.needWhole } : { value: n };
    }
    if (kind === "dice" || kind === "point" || kind === "size" || kind === "points") {
      var pairs = raw.split(";");
      if (pairs.length > Values.MAX_ITEMS) return { problem: fill(W.problemLong, { limit: num(Values.MAX_ITEMS), count: num(pairs.length) }) };
      var numbers = pairs.map(function (pair) { return pair.split(",").map(function (part) { return parseNumber(part); }); });
      if (numbers.some(function (p) { return p.indexOf(null) >= 0; })) return { problem: W.needNumber };
      if (kind === "points") return { value: numbers };
      return numbers.length === 1 ? { value: numbers[0] } : { problem: fill(W.problemType, { kind: arg.kind }) };
    }
    if (raw.length && raw.charAt(0) !== "[" && kind === "words") return readWords(arg, raw); // typed words, as the field takes them
    try {
      return { value: JSON.parse(raw) };
    } catch (error) {
      return { problem: fill(W.problemType, { kind: arg.kind }) };
    }
  }

  // Put a value (already checked) into its field, exactly: a decimal keeps every digit, in the locale's form.
  Panel.prototype.put = function (arg, value) {
    var field = this.field(arg), kind = arg.field, self = this;
    if (kind === "yesno") {
      var radio = field.querySelector('input[value="' + (value === true ? "1" : value === false ? "0" : "") + '"]');
      if (radio) radio.checked = true;
    } else if (kind === "choice") {
      var select = field.querySelector("select"), known = value === null ? "" : String(value);
      delete field.kbOther;
      if (value !== null && !has(arg.labels, known) && arg.other != null) { select.value = OTHER; field.kbOther = value; }
      else select.value = known;
    } else if (kind === "checks") {
      field.querySelectorAll("input").forEach(function (box) { box.checked = value.indexOf(choiceValue(arg, box.value)) >= 0; });
    } else if (kind === "segments" || kind === "dice") {
      var faces = kind === "dice" ? value : [value];
      field.querySelectorAll(kind === "dice" ? ".kb-ask__die" : ".kb-ask__chips").forEach(function (group, i) {
        group.querySelectorAll("input").forEach(function (option) { option.checked = Number(option.value) === faces[i]; });
      });
    } else if (kind === "counts") {
      field.querySelectorAll(".kb-ask__count").forEach(function (row) {
        var v = Number(row.getAttribute("data-value"));
        row.querySelector("output").textContent = num(value.filter(function (item) { return item === v; }).length);
      });
    } else if (kind === "boxes") {
      var list = field.querySelector(".kb-ask__boxes");
      while (list.children.length < value.length) self.addBox(list);
      while (list.children.length > value.length) list.removeChild(list.lastElementChild);
      list.querySelectorAll("input").forEach(function (box, i) { box.checked = value[i]; });
    } else if (kind === "words") {
      var items = arg.type === "models" ? value.map(function (i) { return i + 1; }) : value;
      field.querySelector("input").value = items.map(function (item) { return typeof item === "number" ? exactText(item) : String(item); }).join(", ");
    } else if (kind === "decimal" || kind === "whole" || kind === "model") {
      field.querySelector("input").value = value === null ? "" : exactText(kind === "model" ? value + 1 : value);
    } else if (kind === "point" || kind === "size" || kind === "points") {
      var pairs = kind === "points" ? value : [value];
      if (kind === "points") {
        var rows = field.querySelector(".kb-ask__points");
        while (rows.children.length < pairs.length) addPoint(rows);
        while (rows.children.length > pairs.length && rows.children.length > 1) rows.removeChild(rows.lastElementChild);
      }
      var inputs = field.querySelectorAll("input"), flat = [].concat.apply([], pairs);
      flat.forEach(function (n, i) { if (inputs[i]) inputs[i].value = exactText(n); });
    } else {
      field.querySelector("input").value = value === null ? "" : typeof value === "string" ? value : JSON.stringify(value);
    }
  };

  // A shared link: every argument read and checked first; anything the panel cannot read is refused in the recap
  // line, naming the field and what it takes, and no answer is shown. Otherwise the form holds exactly the link's
  // situation, and answers it.
  Panel.prototype.restore = function (query) {
    try {
      this.restoreFrom(query);
    } catch (error) { // whatever a crafted link holds, the panel says so instead of going blank
      this.refuse([fill(W.noAnswer, { reason: error && error.message ? error.message : String(error) })]);
    }
  };
  Panel.prototype.restoreFrom = function (query) {
    var params = new URLSearchParams(query), self = this, read = {}, refused = [];
    this.data.args.forEach(function (arg) {
      if (!params.has(arg.name)) return;
      var got = fromLink(arg, params.get(arg.name));
      if (!got.problem) got = checked(arg, got.value);
      if (got.problem) refused.push(arg.label + ": " + got.problem);
      else read[arg.name] = got.value;
    });
    if (refused.length) return this.refuse(refused);
    this.data.args.forEach(function (arg) { if (has(read, arg.name)) self.put(arg, read[arg.name]); });
    this.update(false);
    this.showRecap();
  };

  Panel.prototype.refuse = function (refused) {
    var self = this;
    this.givenNow = null;
    this.answers = {};
    this.data.predicates.forEach(function (predicate) {
      self.form.querySelector('.kb-ask__result[data-predicate="' + predicate.name + '"] .kb-ask__output').textContent = "";
    });
    this.recap.textContent = "";
    this.recap.classList.add("kb-ask__recap--refused");
    this.recap.appendChild(el("strong", {}, W.linkRefused + " "));
    this.recap.appendChild(document.createTextNode(refused.join(" \u00b7 ")));
    this.recap.hidden = false;
  };

  // ------------------------------------------------------------------ the geometry board
  function Board(panel) {
    this.panel = panel;
    this.node = panel.boardNode;
    this.size = Number(this.node.getAttribute("data-size")) || 24;
    this.svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    this.svg.setAttribute("class", "kb-ask__svg");
    this.node.appendChild(this.svg);
    this.live = el("p", { "class": "kb-ask__moved", "aria-live": "polite" });
    this.node.appendChild(this.live);
    this.frame();
    var self = this;
    this.svg.addEventListener("pointermove", function (event) { self.drag(event); });
    this.svg.addEventListener("pointerup", function () { self.dragging = null; });
    this.svg.addEventListener("pointercancel", function () { self.dragging = null; });
  }

  // The inputs of every model on the board, as [{input x, input y, name, group}].
  Board.prototype.models = function () {
    var models = [], panel = this.panel;
    panel.data.args.forEach(function (arg, group) {
      if (arg.field !== "point" && arg.field !== "points") return;
      panel.field(arg).querySelectorAll(".kb-ask__points li").forEach(function (row, index) {
        var inputs = row.querySelectorAll("input");
        models.push({ x: inputs[0], y: inputs[1], group: group, index: index, many: arg.field === "points",
                      name: (arg.field === "point" ? textOf(arg.meaning) : row.querySelector(".kb-ask__point-name").textContent) });
      });
    });
    return models;
  };

  // A fixed frame around the starting models (at least `size` inches wide), so dragging never rescales it.
  Board.prototype.frame = function () {
    var xs = [], ys = [];
    this.models().forEach(function (m) { xs.push(parseNumber(m.x.value) || 0); ys.push(parseNumber(m.y.value) || 0); });
    var cx = (Math.min.apply(null, xs) + Math.max.apply(null, xs)) / 2, cy = (Math.min.apply(null, ys) + Math.max.apply(null, ys)) / 2;
    var span = Math.max(this.size, Math.max.apply(null, xs) - Math.min.apply(null, xs) + 4, Math.max.apply(null, ys) - Math.min.apply(null, ys) + 4);
    this.x0 = Math.floor(cx - span / 2); this.y0 = Math.floor(cy - span / 2); this.span = Math.ceil(span);
    this.svg.setAttribute("viewBox", "0 0 " + this.span + " " + this.span);
  };

  // The grid is drawn once; the models' marks are kept and moved, so a focused model keeps focus
  // while the arrow keys move it. Marks are made anew only when models are added or removed.
  Board.prototype.draw = function () {
    var self = this, ns = "http://www.w3.org/2000/svg", models = this.models();
    if (!this.grid) {
      this.grid = document.createElementNS(ns, "g");
      for (var g = 0; g <= this.span; g += 1) {
        var major = (g + this.x0) % 6 === 0;
        [["x1", g, "y1", 0, "x2", g, "y2", this.span], ["x1", 0, "y1", g, "x2", this.span, "y2", g]].forEach(function (a) {
          var line = document.createElementNS(ns, "line");
          for (var i = 0; i < a.length; i += 2) line.setAttribute(a[i], a[i + 1]);
          line.setAttribute("class", major ? "kb-ask__grid kb-ask__grid--major" : "kb-ask__grid");
          self.grid.appendChild(line);
        });
      }
      this.svg.appendChild(this.grid);
    }
    if (!this.marks || this.marks.length !== models.length) {
      (this.marks || []).forEach(function (mark) { mark.node.remove(); });
      this.marks = models.map(function (model) { return { model: model, node: self.mark(model) }; });
    }
    this.marks.forEach(function (entry) {
      var model = entry.model, x = parseNumber(model.x.value), y = parseNumber(model.y.value);
      entry.node.style.display = x === null || y === null ? "none" : "";
      if (x === null || y === null) return;
      entry.node.setAttribute("aria-label", model.name + " " + fill(W.at, { x: num(x), y: num(y) }));
      entry.node.setAttribute("transform", "translate(" + (x - self.x0) + " " + (self.y0 + self.span - y) + ")");
    });
  };

  Board.prototype.mark = function (model) {
    var self = this, ns = "http://www.w3.org/2000/svg", svg = this.svg;
    var mark = document.createElementNS(ns, "g");
    mark.setAttribute("class", "kb-ask__model kb-ask__model--" + model.group);
    mark.setAttribute("tabindex", "0");
    mark.setAttribute("role", "button");
    var circle = document.createElementNS(ns, "circle");
    circle.setAttribute("r", "0.6");
    mark.appendChild(circle);
    var label = document.createElementNS(ns, "text");
    label.setAttribute("y", "0.3");
    label.textContent = model.many ? String(model.index + 1) : "";
    mark.appendChild(label);
    mark.addEventListener("pointerdown", function (event) {
      event.preventDefault();
      self.dragging = model;
      mark.focus();
      if (svg.setPointerCapture) svg.setPointerCapture(event.pointerId);
    });
    mark.addEventListener("keydown", function (event) { self.key(event, model); });
    svg.appendChild(mark);
    return mark;
  };

  Board.prototype.place = function (model, x, y) {
    var round = function (v) { return Math.round(v * 10) / 10; };
    x = Math.min(this.x0 + this.span, Math.max(this.x0, round(x)));
    y = Math.min(this.y0 + this.span, Math.max(this.y0, round(y)));
    model.x.value = num(x).replace("\u2212", "-");
    model.y.value = num(y).replace("\u2212", "-");
    this.live.textContent = fill(W.moved, { name: model.name, x: num(x), y: num(y) });
    this.panel.update(true);
  };

  Board.prototype.drag = function (event) {
    if (!this.dragging) return;
    var matrix = this.svg.getScreenCTM();
    if (!matrix) return;
    var p = this.svg.createSVGPoint();
    p.x = event.clientX; p.y = event.clientY;
    var at = p.matrixTransform(matrix.inverse());
    this.place(this.dragging, at.x + this.x0, this.y0 + this.span - at.y);
  };

  Board.prototype.key = function (event, model) {
    var step = event.shiftKey ? FINE : STEP, dx = 0, dy = 0;
    if (event.key === "ArrowLeft") dx = -step;
    else if (event.key === "ArrowRight") dx = step;
    else if (event.key === "ArrowUp") dy = step;
    else if (event.key === "ArrowDown") dy = -step;
    else return;
    event.preventDefault();
    this.place(model, (parseNumber(model.x.value) || 0) + dx, (parseNumber(model.y.value) || 0) + dy);
  };

  // ------------------------------------------------------------------ start
  var panels = {}, byPredicate = {};
  function start() {
    document.querySelectorAll("form.kb-ask").forEach(function (form) {
      var panel = panels[form.id] = new Panel(form);
      panel.data.predicates.forEach(function (p) { byPredicate["ask-" + p.name] = panel; });
    });
    var restored = restoreFromHash();
    Object.keys(panels).forEach(function (id) { if (panels[id] !== restored) panels[id].update(false); });
  }
  // #ask-<predicate>?…: the form that asks that predicate (alone or with the predicates sharing its
  // arguments) opens on that situation, scrolled below the sticky header with the recap in view.
  function restoreFromHash() {
    var match = /^#(ask-[a-z0-9_]+)\?(.*)$/.exec(location.hash);
    var panel = match ? byPredicate[match[1]] || panels[match[1]] : null;
    if (!panel) return null;
    panel.restore(match[2]);
    var heading = document.getElementById(panel.form.getAttribute("aria-labelledby")) || panel.form;
    heading.scrollIntoView({ block: "start" });
    return panel;
  }
  window.addEventListener("hashchange", restoreFromHash);
  // What a form says for these arguments, as data: the tests hold it equal to `generator check --explain`.
  window.KbAsk = {
    // The situation a form holds now and each of its predicates' results (null when refused): what a test compares
    // with the link it opened and with Python's answer.
    state: function (predicateName) {
      var panel = byPredicate["ask-" + predicateName], values = {};
      Object.keys(panel.answers || {}).forEach(function (name) { values[name] = panel.answers[name].value; });
      return { given: panel.givenNow, values: values };
    },
    explain: function (predicateName, args) {
      var panel = byPredicate["ask-" + predicateName];
      var predicate = panel.data.predicates.filter(function (p) { return p.name === predicateName; })[0];
      var outcome = panel.run(predicate, args);
      if (outcome.problem) return { problem: outcome.problem };
      return { answer: panel.verdictWords(predicate, outcome.value), decidedBy: decidedBy(predicate, outcome.steps),
               reasons: reasons(outcome.steps, panel.words, outcome.args, predicate) };
    }
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();

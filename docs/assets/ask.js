// "Ask this rule": each panel (generator/ask.py) reads its form, runs the predicate compiled to
// JavaScript at build time (window.KB_PREDICATES, from the page's compiled-predicates script), and
// writes the answer in the page's language. The scenario lives in the URL hash
// (#ask-<predicate>?<argument>=<value>&...), so a copied link restores form and answer in any language.
(function () {
  "use strict";
  var wordsNode = document.getElementById("kb-ask-words");
  if (!wordsNode) return;
  var W = JSON.parse(wordsNode.getAttribute("data-kb-words"));
  var LANG = W.lang;
  var plural = window.Intl && Intl.PluralRules ? new Intl.PluralRules(LANG) : null;
  var decimals = window.Intl ? new Intl.NumberFormat(LANG, { maximumFractionDigits: 6, useGrouping: false }) : null;
  var STEP = 0.5, FINE = 0.1; // inches a model moves per arrow key; with Shift held

  function fill(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (all, key) { return key in values ? values[key] : all; });
  }
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // ------------------------------------------------------------------ numbers in the page's locale
  function num(value) {
    var shown = decimals ? decimals.format(value) : String(value);
    return shown.replace(/^-/, "\u2212");
  }
  function parseNumber(text) {
    var cleaned = String(text).trim().replace(/\s+/g, "").replace(/^[\u2212\u2013]/, "-").replace(",", ".");
    if (!/^-?(\d+\.?\d*|\.\d+)$/.test(cleaned)) return null;
    return Number(cleaned);
  }
  function parseWhole(text) {
    var cleaned = String(text).trim().replace(/^[\u2212\u2013]/, "-");
    return /^-?\d+$/.test(cleaned) ? Number(cleaned) : null;
  }

  // ------------------------------------------------------------------ values in words
  function inches(value) {
    var forms = W.inches, category = plural ? plural.select(value) : "other";
    return fill(forms[category] || forms.other || forms.many || "%(num)s\u2033", { num: num(value) });
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
    var isNum = typeof value === "number";
    if (type === "bool" && typeof value === "boolean") return value ? W.yes : W.no;
    if (type === "inches" && isNum) return inches(value);
    if (type === "mm" && isNum) return fill(W.mm, { num: num(value) });
    if (type === "degrees" && isNum) return num(value) + "\u00b0";
    if (type === "choice" && labels && Object.prototype.hasOwnProperty.call(labels, String(value))) return labels[String(value)];
    if (type === "dice" && Array.isArray(value)) return fill(W.dice, { dice: value.map(num).join(" + ") });
    if (type === "point" && Array.isArray(value) && value.length === 2) return point(value);
    if (type === "points" && Array.isArray(value)) return value.length ? value.map(point).join(", ") : "\u2014";
    if (type === "size" && Array.isArray(value) && value.length === 2) return fill(W.size, { width: num(value[0]), depth: num(value[1]) });
    return plain(value);
  }

  // The result as the rule's declared answer (value_types.answer_key, generator/ask.py): a phrase for
  // this value, else the `other` pattern in the value's plural category with {value} in words; else null.
  function answerKey(value) {
    if (value === true) return "true";
    if (value === false) return "false";
    if (value === null || value === undefined) return "null";
    return String(value);
  }
  var LISTS = ["list", "ints", "bools"]; // value_types.LISTS: a list result's items, comma-separated
  function listed(value) {
    return value.length ? value.map(function (item) { return typeof item === "string" ? item : plain(item); }).join(", ") : "\u2014";
  }
  function answerWords(returns, value) {
    var answers = returns.answers || {}, key = answerKey(value);
    if (Object.prototype.hasOwnProperty.call(answers, key)) return answers[key];
    var pattern = returns.pattern || {};
    if (!Object.keys(pattern).length) return null;
    var category = typeof value === "number" && plural ? plural.select(Math.abs(value)) : "other";
    var chosen = pattern[category] || pattern.other || pattern[Object.keys(pattern)[0]];
    var shown = Array.isArray(value) && LISTS.indexOf(returns.type) >= 0 ? listed(value) : inWords(returns.type, value, returns.labels);
    return chosen.replace("{value}", function () { return shown; });
  }

  // ------------------------------------------------------------------ one panel
  function Panel(form) {
    this.form = form;
    this.data = JSON.parse(form.getAttribute("data-kb-ask"));
    this.answer = form.querySelector(".kb-ask__answer");
    this.boardNode = form.querySelector(".kb-ask__board");
    this.fields = {};
    var self = this;
    this.data.args.forEach(function (arg) {
      self.fields[arg.name] = form.querySelector('.kb-ask__field[data-arg="' + arg.name + '"]');
    });
    form.addEventListener("input", function () { self.update(true); });
    form.addEventListener("change", function () { self.update(true); });
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    form.addEventListener("click", function (event) { self.click(event); });
    if (this.boardNode) this.board = new Board(this);
  }

  Panel.prototype.field = function (arg) { return this.fields[arg.name]; };

  // Read one argument: {value} or {problem}.
  Panel.prototype.read = function (arg) {
    var field = this.field(arg), kind = arg.field, input;
    if (kind === "yesno") {
      input = field.querySelector("input:checked");
      if (!input) return { value: null };
      return { value: input.value === "" ? null : input.value === "1" };
    }
    if (kind === "choice") {
      var chosen = field.querySelector("select").value;
      if (chosen === "" && arg.nullable) return { value: null };
      return { value: /^-?\d+$/.test(chosen) && !Object.prototype.hasOwnProperty.call(arg.labels, chosen) ? Number(chosen) : chosen };
    }
    if (kind === "decimal" || kind === "whole") {
      input = field.querySelector("input");
      var parsed = kind === "whole" ? parseWhole(input.value) : parseNumber(input.value);
      if (parsed === null) {
        if (arg.nullable && input.value.trim() === "") return { value: null };
        return { problem: kind === "whole" ? W.needWhole : W.needNumber };
      }
      return { value: parsed };
    }
    if (kind === "dice") {
      return { value: Array.prototype.map.call(field.querySelectorAll("select"), function (s) { return Number(s.value); }) };
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

  // The clause that decides: the closest worked example with the same answer (generator/ask.py):
  // fewest differing yes/no, choice and text arguments, then fewest differing other arguments,
  // then the smallest difference of numbers.
  Panel.prototype.deciding = function (given, result) {
    var best = null, bestScore = null, self = this;
    this.data.examples.forEach(function (example) {
      if (!same(example.expect, result)) return;
      var score = [0, 0, 0];
      self.data.args.forEach(function (arg) {
        var a = example.given[arg.name], b = given[arg.name];
        if (same(a, b)) return;
        if (arg.field === "yesno" || arg.field === "choice" || arg.field === "text") score[0] += 1;
        else score[1] += 1;
        if (typeof a === "number" && typeof b === "number") score[2] += Math.abs(a - b);
      });
      if (bestScore === null || less(score, bestScore)) { best = example; bestScore = score; }
    });
    var exact = best && bestScore[0] === 0 && bestScore[1] === 0;
    return { clause: best ? best.clause : this.data.clause, example: exact ? best : null };
  };

  function less(a, b) {
    for (var i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i];
    return false;
  }

  Panel.prototype.run = function (given) {
    var predicates = window.KB_PREDICATES || {};
    var compiled = predicates[this.data.rule + ":" + this.data.predicate];
    if (typeof compiled !== "function") return { problem: W.compiledMissing };
    try {
      return { value: compiled(given) };
    } catch (error) {
      return { problem: fill(W.noAnswer, { reason: error && error.message ? error.message : String(error) }) };
    }
  };

  Panel.prototype.update = function (fromReader) {
    var given = this.given();
    if (this.board) this.board.draw();
    this.answer.textContent = "";
    this.result = undefined;
    if (!given) return;
    if (fromReader) history.replaceState(null, "", "#" + this.form.id + "?" + encodeScenario(this.data.args, given));
    var outcome = this.run(given);
    if (outcome.problem) {
      this.answer.appendChild(el("p", { "class": "kb-ask__error" }, outcome.problem));
      return;
    }
    this.result = outcome.value;
    this.givenNow = given;
    var returns = this.data.returns;
    var verdict = el("p", { "class": "kb-ask__verdict" });
    var phrase = answerWords(returns, outcome.value);
    if (phrase === null) { // no declared answer: the result's meaning, then the value in words
      var meaning = el("span", { "class": "kb-ask__meaning" });
      meaning.innerHTML = returns.meaning + ": "; // escaped HTML from the build (code spans kept)
      verdict.appendChild(meaning);
    }
    var strong = el("strong", { "class": typeof outcome.value === "boolean" ? "kb-value kb-value--" + (outcome.value ? "yes" : "no") : "kb-value" },
                    phrase === null ? inWords(returns.type, outcome.value, returns.labels) : phrase);
    verdict.appendChild(strong);
    this.answer.appendChild(verdict);
    var decided = this.deciding(given, outcome.value), clause = this.data.clauses[decided.clause];
    var by = el("span", { "class": "kb-ask__clause" }, W.decidedBy + " ");
    by.appendChild(el("a", { href: "#" + decided.clause }, "\u00a7" + clause.number));
    verdict.appendChild(document.createTextNode(" \u00b7 "));
    verdict.appendChild(by);
    if (clause.clarifications.length) {
      var list = el("ul", { "class": "kb-ask__clarifications", "aria-label": W.clarified });
      clause.clarifications.forEach(function (c) {
        var item = el("li");
        var link = el("a", { href: "#clarification-" + c.id });
        link.innerHTML = c.question; // escaped HTML from the build
        item.appendChild(link);
        list.appendChild(item);
      });
      this.answer.appendChild(list);
    }
    if (decided.example) {
      var match = el("p", { "class": "kb-ask__example" }, W.example + " ");
      match.appendChild(el("a", { href: "#example-" + decided.example.id }, decided.example.name));
      this.answer.appendChild(match);
    }
  };

  Panel.prototype.yaml = function () {
    if (this.result === undefined) return "";
    // JSON is YAML: flow mappings and lists that `python -m generator check FILE` reads.
    return "- rule: " + this.data.rule + "\n  predicate: " + this.data.predicate + "\n  name: " +
      JSON.stringify(W.exampleName) + "\n  given: " + JSON.stringify(this.givenNow) + "\n  expect: " +
      JSON.stringify(this.result) + "\n";
  };

  Panel.prototype.click = function (event) {
    var button = event.target.closest("button");
    if (!button) return;
    if (button.classList.contains("kb-ask__add") || button.classList.contains("kb-ask__remove")) {
      var list = button.closest("fieldset").querySelector(".kb-ask__points");
      if (button.classList.contains("kb-ask__add")) addPoint(list);
      else if (list.children.length > 1) list.removeChild(list.lastElementChild);
      this.update(true);
      return;
    }
    var text = null;
    if (button.classList.contains("kb-ask__share")) {
      var given = this.given();
      if (given) text = location.href.split("#")[0] + "#" + this.form.id + "?" + encodeScenario(this.data.args, given);
    } else if (button.classList.contains("kb-ask__yaml")) {
      text = this.yaml();
    }
    if (!text) return;
    var out = this.form.querySelector(".kb-ask__copied");
    if (!out) {
      out = el("textarea", { "class": "kb-ask__copied", readonly: "readonly", rows: "6", "aria-label": button.textContent });
      this.form.querySelector(".kb-ask__actions").after(out);
    }
    out.value = text;
    out.setAttribute("aria-label", button.textContent);
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).catch(function () {});
    button.setAttribute("data-kb-copied", "true");
  };

  function addPoint(list) {
    var last = list.lastElementChild, copy = last.cloneNode(true), index = list.children.length;
    var name = fill(W.model, { num: index });
    copy.querySelector(".kb-ask__point-name").textContent = name;
    copy.querySelectorAll("input").forEach(function (input) {
      var axis = input.getAttribute("data-axis");
      input.setAttribute("aria-label", name + ": " + (axis === "0" ? "x" : "y"));
      if (axis === "0") input.value = num((parseNumber(input.value) || 0) + 1.5);
    });
    list.appendChild(copy);
  }

  function textOf(html) { var box = document.createElement("span"); box.innerHTML = html; return box.textContent; }
  function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

  // ------------------------------------------------------------------ the scenario in the URL
  function encodeScenario(args, given) {
    var params = new URLSearchParams();
    args.forEach(function (arg) {
      var value = given[arg.name];
      if (value === null || value === undefined) params.set(arg.name, "");
      else if (arg.field === "yesno") params.set(arg.name, value ? "1" : "0");
      else if (arg.field === "point" || arg.field === "size" || arg.field === "dice") params.set(arg.name, value.join(","));
      else if (arg.field === "points") params.set(arg.name, value.map(function (p) { return p.join(","); }).join(";"));
      else if (arg.field === "list") params.set(arg.name, JSON.stringify(value));
      else params.set(arg.name, String(value));
    });
    return params.toString();
  }

  Panel.prototype.restore = function (query) {
    var params = new URLSearchParams(query), self = this;
    this.data.args.forEach(function (arg) {
      if (!params.has(arg.name)) return;
      var raw = params.get(arg.name), field = self.field(arg);
      if (arg.field === "yesno") {
        var radio = field.querySelector('input[value="' + (raw === "1" ? "1" : raw === "0" ? "0" : "") + '"]');
        if (radio) radio.checked = true;
      } else if (arg.field === "choice") {
        field.querySelector("select").value = raw;
      } else if (arg.field === "decimal" || arg.field === "whole") {
        var n = parseNumber(raw);
        field.querySelector("input").value = n === null ? raw : num(n).replace("\u2212", "-");
      } else if (arg.field === "dice") {
        raw.split(",").forEach(function (face, i) { var s = field.querySelectorAll("select")[i]; if (s) s.value = face; });
      } else if (arg.field === "point" || arg.field === "size" || arg.field === "points") {
        var pairs = raw.split(";").map(function (pair) { return pair.split(","); });
        if (arg.field === "points") {
          var list = field.querySelector(".kb-ask__points");
          while (list.children.length < pairs.length) addPoint(list);
          while (list.children.length > pairs.length && list.children.length > 1) list.removeChild(list.lastElementChild);
        }
        var inputs = field.querySelectorAll("input"), flat = [].concat.apply([], pairs);
        flat.forEach(function (value, i) { if (inputs[i]) inputs[i].value = num(Number(value)).replace("\u2212", "-"); });
      } else {
        field.querySelector("input").value = raw;
      }
    });
    this.update(false);
  };

  // ------------------------------------------------------------------ the geometry board
  function Board(panel) {
    this.panel = panel;
    this.node = panel.boardNode;
    this.size = Number(this.node.getAttribute("data-size")) || 24;
    this.svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    this.svg.setAttribute("class", "kb-ask__svg");
    this.svg.setAttribute("aria-hidden", "false");
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
    label.textContent = model.many ? String(model.index) : "";
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
  var panels = {};
  function start() {
    document.querySelectorAll("form.kb-ask").forEach(function (form) {
      panels[form.id] = new Panel(form);
    });
    var restored = restoreFromHash();
    Object.keys(panels).forEach(function (id) { if (id !== restored) panels[id].update(false); });
  }
  function restoreFromHash() {
    var match = /^#(ask-[a-z0-9_]+)\?(.*)$/.exec(location.hash);
    if (!match || !panels[match[1]]) return null;
    panels[match[1]].restore(match[2]);
    panels[match[1]].form.scrollIntoView();
    return match[1];
  }
  window.addEventListener("hashchange", restoreFromHash);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();

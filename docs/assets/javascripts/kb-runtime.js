// The runtime of predicates compiled from Python by generator/evaluate/to_js.py: Python's semantics
// for the allow-listed subset (truthiness, //, %, round, ==, <, in, int vs float, str), the same
// step and memory budget as generator/evaluate/, and the helpers of generator/evaluate/helpers.py.
// Values: None -> null, bool -> boolean, int -> number (within ±MAX_INT, exact), float -> Float,
// str -> string, list -> Array, tuple -> Array marked as a tuple, dict -> Dict.
// Where a host would decide a result (Math.hypot, Math.pow, float sums, a float's digits), both
// engines follow one definition: generator/evaluate/exact.py and helpers.py say which, and the
// functions below do the same, step for step.
(function (root) {
  "use strict";
  // The same limits as generator/evaluate/limits.py (tests/test_to_js.py holds them equal).
  var LIMITS = {
    MAX_STEPS: 200000, MAX_SEQUENCE: 10000, MAX_BUILT: 100000, MAX_VALUE_DEPTH: 50, MAX_INPUT_ELEMENTS: 100000,
    MAX_INT: 9007199254740991, MAX_EXPONENT: 128, MAX_ROUND_DIGITS: 20
  };
  // What each function costs, as in generator/evaluate/functions.py (held equal by the same test).
  var CALL_COSTS = {
    abs: "unit", all: "shallow", any: "shallow", bool: "unit", enumerate: "shallow", float: "unit", int: "unit",
    len: "unit", list: "shallow", max: "deep", min: "deep", range: "range", round: "unit", sorted: "sorting",
    str: "shallow", sum: "shallow", zip: "shallow", distance: "unit", square_gap: "unit", connected: "connected"
  };

  function KbError(kind, message) {
    var error = new Error(message);
    error.name = "KbError";
    error.kind = kind; // SnippetRuntimeError, StepLimit, MemoryLimit, SizeLimit or DepthLimit
    return error;
  }
  function fail(message) { return KbError("SnippetRuntimeError", message); }

  // ---------------------------------------------------------------- values
  function Float(v) { this.v = v; }
  var TUPLE = typeof Symbol === "function" ? Symbol("tuple") : "__tuple";
  function tuple(items) { Object.defineProperty(items, TUPLE, { value: true }); return items; }
  function isTuple(x) { return Array.isArray(x) && x[TUPLE] === true; }
  function isList(x) { return Array.isArray(x) && x[TUPLE] !== true; }
  function Dict() { this.map = new Map(); }
  Dict.prototype.size = function () { return this.map.size; };
  Dict.prototype.keys = function () { return Array.from(this.map.values(), function (e) { return e[0]; }); };
  Dict.prototype.values = function () { return Array.from(this.map.values(), function (e) { return e[1]; }); };

  function isInt(x) { return typeof x === "number" || typeof x === "boolean"; }
  function isNumber(x) { return isInt(x) || x instanceof Float; }
  function num(x) { return typeof x === "boolean" ? (x ? 1 : 0) : x instanceof Float ? x.v : x; }
  function isSeq(x) { return typeof x === "string" || Array.isArray(x); }
  function chars(s) { return Array.from(s); }
  function length(x) { return typeof x === "string" ? chars(x).length : Array.isArray(x) ? x.length : x.size(); }
  function typeName(x) {
    if (x === null) return "NoneType";
    if (typeof x === "boolean") return "bool";
    if (typeof x === "number") return "int";
    if (x instanceof Float) return "float";
    if (typeof x === "string") return "str";
    if (x instanceof Dict) return "dict";
    return isTuple(x) ? "tuple" : "list";
  }
  function beyond(v) { return "the whole number " + v + " is beyond \u00b1" + LIMITS.MAX_INT + " (2**53 \u2212 1)"; }
  function int(v) { // an int result of an operation: a result past ±MAX_INT is no longer exact, and refused
    if (!Number.isSafeInteger(v)) throw KbError("SizeLimit", beyond(v));
    return v === 0 ? 0 : v; // no -0 for integers
  }
  function float(v) { return new Float(v); }
  function children(x) {
    if (Array.isArray(x)) return x;
    if (x instanceof Dict) return x.keys().concat(x.values());
    return null;
  }
  function keyOf(x) {
    if (x === null) return "N";
    if (isNumber(x)) return "n" + String(num(x));
    if (typeof x === "string") return "s" + x;
    if (isTuple(x)) return "t" + JSON.stringify(x.map(keyOf)); // JSON quotes each item's key: no two tuples meet
    throw fail("dict keys must be strings, numbers or tuples of them");
  }

  // ---------------------------------------------------------------- the meter
  function Meter(budget) { this.budget = budget; this.built = 0; }
  Meter.prototype.step = function (cost) {
    this.budget.spent += cost === undefined ? 1 : cost;
    if (this.budget.spent > this.budget.limit) throw KbError("StepLimit", "stopped after " + this.budget.limit + " evaluation steps");
  };
  Meter.prototype.build = function (count) {
    this.built += count;
    if (this.built > LIMITS.MAX_BUILT) throw KbError("MemoryLimit", "built more than " + LIMITS.MAX_BUILT + " elements in one call");
    this.step(count);
  };
  Meter.prototype.remaining = function () { return Math.max(0, this.budget.limit - this.budget.spent); };
  Meter.prototype.touch = function () {
    for (var i = 0; i < arguments.length; i++) {
      var x = arguments[i];
      if (x === null || isNumber(x)) this.step(1);
      else this.step(weigh(x, this.remaining()));
    }
  };
  function weigh(value, limit) {
    var count = 0, stack = [value], depths = [1];
    while (stack.length) {
      var current = stack.pop(), depth = depths.pop();
      count += typeof current === "string" ? Math.max(1, length(current)) : 1;
      var kids = children(current);
      if (!kids || !kids.length) { if (count > limit) return count; continue; }
      if (depth >= LIMITS.MAX_VALUE_DEPTH) throw KbError("DepthLimit", "a value is nested more than " + LIMITS.MAX_VALUE_DEPTH + " levels deep");
      if (count + kids.length > limit) return count + kids.length;
      for (var i = 0; i < kids.length; i++) { stack.push(kids[i]); depths.push(depth + 1); }
    }
    return count;
  }
  function checkKey(key) {
    var stack = [key];
    while (stack.length) {
      var x = stack.pop();
      if (!(x === null || isNumber(x) || typeof x === "string" || isTuple(x))) throw fail("dict keys must be strings, numbers or tuples of them");
      if (isTuple(x)) for (var i = 0; i < x.length; i++) stack.push(x[i]);
    }
  }
  function checked(x) {
    if (isSeq(x) || x instanceof Dict) {
      if (length(x) > LIMITS.MAX_SEQUENCE) throw KbError("SizeLimit", "a value grew past " + LIMITS.MAX_SEQUENCE + " elements");
    } else if (x instanceof Float && isNaN(x.v)) throw fail("the result is not a number (NaN)");
    return x;
  }

  // ---------------------------------------------------------------- truth, equality, order
  function truth(x) {
    if (x === null || x === false) return false;
    if (x === true) return true;
    if (typeof x === "number") return x !== 0;
    if (x instanceof Float) return x.v !== 0;
    return length(x) !== 0;
  }
  function eq(a, b) {
    if (isNumber(a) && isNumber(b)) return num(a) === num(b);
    if (typeof a === "string" || typeof b === "string") return a === b;
    if (a === null || b === null) return a === b;
    if (Array.isArray(a) && Array.isArray(b)) {
      if (isTuple(a) !== isTuple(b) || a.length !== b.length) return false;
      for (var i = 0; i < a.length; i++) if (a[i] !== b[i] && !eq(a[i], b[i])) return false;
      return true;
    }
    if (a instanceof Dict && b instanceof Dict) {
      if (a.size() !== b.size()) return false;
      var same = true;
      a.map.forEach(function (entry, key) { var other = b.map.get(key); if (!other || !eq(entry[1], other[1])) same = false; });
      return same;
    }
    return false;
  }
  function codePointLess(a, b) {
    var x = chars(a), y = chars(b), n = Math.min(x.length, y.length);
    for (var i = 0; i < n; i++) {
      var p = x[i].codePointAt(0), q = y[i].codePointAt(0);
      if (p !== q) return p < q;
    }
    return x.length < y.length;
  }
  function order(op, a, b) { // Python's <, <=, >, >= ; TypeError for unlike types
    if (isNumber(a) && isNumber(b)) return cmpNumbers(op, num(a), num(b));
    if (typeof a === "string" && typeof b === "string") {
      return op === "<" ? codePointLess(a, b) : op === ">" ? codePointLess(b, a) : op === "<=" ? !codePointLess(b, a) : !codePointLess(a, b);
    }
    if (Array.isArray(a) && Array.isArray(b) && isTuple(a) === isTuple(b)) {
      for (var i = 0; i < a.length && i < b.length; i++) {
        if (a[i] !== b[i] && !eq(a[i], b[i])) return order(op, a[i], b[i]);
      }
      return cmpNumbers(op, a.length, b.length);
    }
    throw fail("cannot compute: '" + op + "' not supported between instances of '" + typeName(a) + "' and '" + typeName(b) + "'");
  }
  function cmpNumbers(op, x, y) { return op === "<" ? x < y : op === "<=" ? x <= y : op === ">" ? x > y : x >= y; }
  function contains(container, item) {
    if (Array.isArray(container)) { for (var i = 0; i < container.length; i++) if (container[i] === item || eq(container[i], item)) return true; return false; }
    if (typeof container === "string") {
      if (typeof item !== "string") throw fail("cannot compute: 'in <string>' requires string as left operand, not " + typeName(item));
      return container.indexOf(item) >= 0;
    }
    if (container instanceof Dict) { checkKey(item); return container.map.has(keyOf(item)); }
    throw fail("'in' needs a list, string or dict on its right");
  }

  // ---------------------------------------------------------------- arithmetic (operators.py)
  function operands(a, b) {
    var ok = function (x) { return isNumber(x) || isSeq(x); };
    if (!ok(a) || !ok(b)) throw fail("unsupported operand types " + typeName(a) + " and " + typeName(b));
  }
  function unsupported(op, a, b) { return fail("cannot compute: unsupported operand type(s) for " + op + ": '" + typeName(a) + "' and '" + typeName(b) + "'"); }
  function numeric(op, a, b, f) {
    if (!isNumber(a) || !isNumber(b)) throw unsupported(op, a, b);
    var r = f(num(a), num(b));
    return isInt(a) && isInt(b) ? int(r) : float(r);
  }
  function plus(x, y) { return x + y; }
  function add(a, b) {
    operands(a, b);
    if (isSeq(a) && isSeq(b) && length(a) + length(b) > LIMITS.MAX_SEQUENCE) throw KbError("SizeLimit", "a value grew past " + LIMITS.MAX_SEQUENCE + " elements");
    if (typeof a === "string" && typeof b === "string") return a + b;
    if (Array.isArray(a) && Array.isArray(b) && isTuple(a) === isTuple(b)) { var r = a.concat(b); return isTuple(a) ? tuple(r) : r; }
    return numeric("+", a, b, plus);
  }
  function sub(a, b) { operands(a, b); return numeric("-", a, b, function (x, y) { return x - y; }); }
  function mult(a, b) {
    operands(a, b);
    var seq = isSeq(a) ? a : b, count = isSeq(a) ? b : a;
    if (isSeq(seq) && isInt(count)) {
      var times = length(seq) ? Math.max(num(count), 0) : 0; // nothing repeated any number of times is nothing
      if (length(seq) * times > LIMITS.MAX_SEQUENCE) throw KbError("SizeLimit", "repetition would exceed " + LIMITS.MAX_SEQUENCE + " elements");
      if (typeof seq === "string") return seq.repeat(times);
      var out = [];
      for (var i = 0; i < times; i++) for (var j = 0; j < seq.length; j++) out.push(seq[j]);
      return isTuple(seq) ? tuple(out) : out;
    }
    return numeric("*", a, b, function (x, y) { return x * y; });
  }
  function div(a, b) {
    operands(a, b);
    if (!isNumber(a) || !isNumber(b)) throw unsupported("/", a, b);
    if (num(b) === 0) throw fail("division by zero");
    return float(num(a) / num(b));
  }
  function floatDivmod(x, y) { // CPython's float_divmod
    var mod = x % y, d = (x - mod) / y, fl;
    if (mod) { if ((y < 0) !== (mod < 0)) { mod += y; d -= 1; } } else mod = y < 0 ? -0 : 0;
    if (d) { fl = Math.floor(d); if (d - fl > 0.5) fl += 1; } else fl = (x / y) < 0 || Object.is(x / y, -0) ? -0 : 0;
    return [fl, mod];
  }
  function intDivmod(x, y) {
    var q = BigInt(x) / BigInt(y), r = BigInt(x) % BigInt(y);
    if (r !== 0n && ((r < 0n) !== (y < 0))) { q -= 1n; r += BigInt(y); }
    return [int(Number(q)), int(Number(r))];
  }
  function divmod(op, a, b, index) {
    operands(a, b);
    if (typeof a === "string" && op === "%") throw fail("'%' string formatting is not allowed");
    if (!isNumber(a) || !isNumber(b)) throw unsupported(op, a, b);
    if (num(b) === 0) throw fail("division by zero");
    if (isInt(a) && isInt(b)) return intDivmod(num(a), num(b))[index];
    return float(floatDivmod(num(a), num(b))[index]);
  }
  function pow(a, b) { // operators.safe_pow
    if (!isNumber(a) || !isNumber(b)) throw fail("'**' needs numbers");
    var x = num(a), y = num(b);
    if (Math.abs(y) > LIMITS.MAX_EXPONENT) throw KbError("SizeLimit", "exponent " + y + " exceeds the limit of " + LIMITS.MAX_EXPONENT);
    if (isInt(a) && isInt(b) && y >= 0) return int(Number(BigInt(x) ** BigInt(y)));
    if (y === 0.5) {
      if (x < 0) throw fail("the result is a complex number");
      return float(x ? Math.sqrt(x) : 0); // IEEE square roots are correctly rounded in every engine
    }
    if (!Number.isInteger(y)) throw fail("'**' takes a whole exponent, or 0.5 for a square root, not " + (b instanceof Float ? floatRepr(y) : y));
    return float(power(x, y));
  }
  var BINARY = {
    "+": add, "-": sub, "*": mult, "/": div, "**": pow,
    "//": function (a, b) { return divmod("//", a, b, 0); },
    "%": function (a, b) { return divmod("%", a, b, 1); }
  };

  // ---------------------------------------------------------------- Python's text of numbers
  var F64 = new DataView(new ArrayBuffer(8)); // a float's bits
  // shortestDigits(v) for a finite v > 0: [n, d] with v's text n * 10**d, as Python's repr and ECMA-262's
  // Number::toString define it: the fewest digits that read back as v, the closest to v if several, the even one if
  // two. Worked out exactly: QuickJS prints 2**-24 with 17 digits where 16 read back.
  function shortestDigits(v) {
    F64.setFloat64(0, v);
    var field = (F64.getUint32(0) >>> 20) & 0x7ff, fraction = (BigInt(F64.getUint32(0) & 0xfffff) << 32n) | BigInt(F64.getUint32(4));
    var m = field ? fraction | (1n << 52n) : fraction, e = (field ? field : 1) - 1075 - 2;
    // v = 4m * 2**e; the floats next to it are 4 units away, or 2 below the first of a binade (but the lowest)
    var mid = 4n * m, low = mid - (field > 1 && fraction === 0n ? 1n : 2n), high = mid + 2n, closed = (m & 1n) === 0n;
    function within(d) { // the multiples n * 10**d that read back as v: [first n, last n, unit, scale] or null
      var unit = (d > 0 ? 10n ** BigInt(d) : 1n) << BigInt(e < 0 ? -e : 0); // n * unit against x * scale
      var scale = (d < 0 ? 10n ** BigInt(-d) : 1n) << BigInt(e > 0 ? e : 0);
      var from = low * scale, to = high * scale, first = (from + unit - 1n) / unit, last = to / unit;
      if (!closed && first * unit === from) first += 1n;
      if (!closed && last * unit === to) last -= 1n;
      return first <= last ? [first, last, unit, scale] : null;
    }
    // If 10**d works so does 10**(d-1): find the largest d that works, starting where the host's own text ends
    // (a guess only: each step is checked, so the answer is the same whatever the host prints).
    var text = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(v)), d = Number(text[3] || 0) - (text[2] || "").length;
    var found = within(d);
    if (found) { for (var up = within(d + 1); up; up = within(d + 1)) { d += 1; found = up; } }
    else { while (!found) found = within(--d); }
    var target = mid * found[3], n = target / found[2], rest = target - n * found[2];
    if (2n * rest > found[2] || (2n * rest === found[2] && (n & 1n) === 1n)) n += 1n;
    return [n < found[0] ? found[0] : n > found[1] ? found[1] : n, d];
  }
  function floatRepr(v) {
    if (isNaN(v)) return "nan";
    if (!isFinite(v)) return v > 0 ? "inf" : "-inf";
    if (v === 0) return Object.is(v, -0) ? "-0.0" : "0.0";
    var found = shortestDigits(Math.abs(v)), digits = found[0].toString(), exp = found[1] + digits.length - 1;
    var sign = v < 0 ? "-" : "", text;
    if (exp >= -4 && exp < 16) {
      if (exp < 0) text = "0." + "0".repeat(-exp - 1) + digits;
      else if (digits.length <= exp + 1) text = digits + "0".repeat(exp + 1 - digits.length) + ".0";
      else text = digits.slice(0, exp + 1) + "." + digits.slice(exp + 1);
    } else {
      text = digits[0] + (digits.length > 1 ? "." + digits.slice(1) : "") + "e" + (exp < 0 ? "-" : "+") + (Math.abs(exp) < 10 ? "0" : "") + Math.abs(exp);
    }
    return sign + text;
  }
  function exactRound(x, n) { // round half to even of the exact binary value x at 10**-n, as a BigInt count of 10**-n
    var buf = new DataView(new ArrayBuffer(8)); buf.setFloat64(0, x);
    var hi = buf.getUint32(0), lo = buf.getUint32(4), e = (hi >>> 20) & 0x7ff;
    var m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo), negative = hi >>> 31 === 1;
    if (e === 0) e = 1; else m |= 1n << 52n;
    e -= 1075;
    var numr = m, den = 1n;
    if (e >= 0) numr <<= BigInt(e); else den <<= BigInt(-e);
    if (n >= 0) numr *= 10n ** BigInt(n); else den *= 10n ** BigInt(-n);
    var q = numr / den, r = numr - q * den;
    if (2n * r > den || (2n * r === den && q % 2n === 1n)) q += 1n;
    return negative ? -q : q;
  }

  // ---------------------------------------------------------------- exact arithmetic (exact.py)
  function bits(n) { return n === 0n ? 0 : n.toString(2).length; } // of a BigInt >= 0
  function parts(v) { // [m, e] with v === m * 2**e exactly, m and e as BigInt and number, for a finite v
    if (Number.isSafeInteger(v)) return [BigInt(v), 0];
    F64.setFloat64(0, v);
    var hi = F64.getUint32(0), e = (hi >>> 20) & 0x7ff, m = (BigInt(hi & 0xfffff) << 32n) | BigInt(F64.getUint32(4));
    if (e === 0) e = 1; else m |= 1n << 52n;
    return [hi >>> 31 ? -m : m, e - 1075];
  }
  function pow2(k) { // 2**k exactly, for -1074 <= k <= 1023
    if (k >= -1022) { F64.setUint32(0, (k + 1023) * 0x100000); F64.setUint32(4, 0); } else {
      var s = k + 1074;
      F64.setUint32(0, s >= 32 ? 2 ** (s - 32) : 0); F64.setUint32(4, s < 32 ? 2 ** s : 0);
    }
    return F64.getFloat64(0);
  }
  function nearest(n, sticky, e) { // exact.nearest: the float nearest (n + f) * 2**e, 0 <= f < 1, f > 0 iff sticky
    if (n === 0n) return 0;
    var size = bits(n), top = size - 1 + e;
    if (top > 1023) return Infinity;
    var precision = top >= -1022 ? 53 : 53 - (-1022 - top), drop = size - precision;
    if (drop <= 0) return Number(n) * pow2(e);
    var mantissa = n >> BigInt(drop), rest = n - (mantissa << BigInt(drop)), half = 1n << BigInt(drop - 1);
    if (rest > half || (rest === half && (sticky || (mantissa & 1n) === 1n))) mantissa += 1n;
    if (bits(mantissa) - 1 + e + drop > 1023) return Infinity;
    return Number(mantissa) * pow2(e + drop);
  }
  function quotient(p, q, e) { // exact.quotient: the float nearest p / q * 2**e
    var shift = Math.max(0, 55 + bits(q) - bits(p)), scaled = p << BigInt(shift), whole = scaled / q;
    return nearest(whole, scaled - whole * q !== 0n, e - shift);
  }
  function isqrt(n) { // the floor of the square root of a BigInt n >= 0 (Newton's method from above)
    if (n < 2n) return n;
    var x = 1n << BigInt((bits(n) + 1) >> 1);
    for (;;) { var y = (x + n / x) >> 1n; if (y >= x) return x; x = y; }
  }
  function squareRoot(n, e) { // exact.root: the float nearest the square root of n * 2**e, e even
    if (n === 0n) return 0;
    var k = Math.max(0, Math.floor((2 * 55 - bits(n) + 1) / 2)), scaled = n << BigInt(2 * k), whole = isqrt(scaled);
    return nearest(whole, whole * whole !== scaled, e / 2 - k);
  }
  function norm(dx, dy) { // exact.norm: the float nearest sqrt(dx**2 + dy**2), each side exact as [m, e]
    var low = Math.min(dx[1], dy[1]);
    return squareRoot(((dx[0] * dx[0]) << BigInt(2 * (dx[1] - low))) + ((dy[0] * dy[0]) << BigInt(2 * (dy[1] - low))), 2 * low);
  }
  function difference(a, b) { // exact.difference: a - b exactly, as [m, e]
    var p = parts(a), q = parts(b), low = Math.min(p[1], q[1]);
    return [(p[0] << BigInt(p[1] - low)) - (q[0] << BigInt(q[1] - low)), low];
  }
  function gap(a, b, side) { // exact.gap: max(0, |a - b| - side) exactly, as [m, e]
    var d = difference(a, b), s = parts(side), low = Math.min(d[1], s[1]);
    var g = ((d[0] < 0n ? -d[0] : d[0]) << BigInt(d[1] - low)) - (s[0] << BigInt(s[1] - low));
    return [g > 0n ? g : 0n, low];
  }
  function power(x, n) { // exact.power: x ** n for a whole n, the exact power rounded once
    if (n === 0) return 1;
    var negative = (x < 0 || Object.is(x, -0)) && Math.abs(n % 2) === 1, r;
    if (!isFinite(x)) r = n > 0 ? Infinity : 0;
    else if (x === 0) {
      if (n < 0) throw fail("0.0 cannot be raised to a negative power");
      r = 0;
    } else {
      var pe = parts(Math.abs(x));
      r = n > 0 ? nearest(pe[0] ** BigInt(n), false, pe[1] * n) : quotient(1n, pe[0] ** BigInt(-n), pe[1] * n);
      if (r === Infinity) throw fail("the result is too large for a float");
    }
    return negative ? -r : r;
  }

  // ---------------------------------------------------------------- helpers (helpers.py)
  function sequence(x, name) {
    if (x instanceof Dict) return x.keys();
    if (typeof x === "string") return chars(x);
    if (Array.isArray(x)) return x.slice();
    throw fail((name || "argument") + " must be a list, got " + typeName(x));
  }
  function number(x, name) {
    if (typeof x === "boolean" || !isNumber(x)) throw fail((name || "argument") + " must be a number, got " + show(x));
    return x;
  }
  function point(x, name) {
    if (!Array.isArray(x) || x.length !== 2) throw fail(name + " must be [x, y], got " + show(x));
    return [num(number(x[0], name)), num(number(x[1], name))];
  }
  function show(x) { return typeName(x); }
  function items(args) {
    var out = args.length === 1 ? sequence(args[0]) : args.slice();
    if (!out.length) throw fail("needs at least one value");
    return out;
  }
  function isWhole(x) { return typeof x === "number"; }
  function rangeLength(args) { // [how many, start, step], counted exactly (a difference of two ints may not be)
    if (args.length < 1 || args.length > 3 || !args.every(isWhole)) throw fail("range() takes one to three integers");
    var start = args.length > 1 ? args[0] : 0, stop = args.length > 1 ? args[1] : args[0], step = args.length > 2 ? args[2] : 1;
    if (step === 0) throw fail("range() step must not be zero");
    var from = BigInt(start), to = BigInt(stop), by = BigInt(step);
    var n = step > 0 ? (to > from ? (to - from - 1n) / by + 1n : 0n) : (from > to ? (from - to - 1n) / -by + 1n : 0n);
    return [Number(n), start, step];
  }
  function finite(x, name) {
    if (!isFinite(x)) throw fail(name + " must be a finite number, got " + floatRepr(x));
    return x;
  }
  function round(x, digits) {
    number(x);
    if (digits === undefined || digits === null) { // round(x, None) is round(x), as in Python
      if (x instanceof Float && !isFinite(x.v)) throw fail("round() of an infinite number");
      return x instanceof Float ? int(Number(exactRound(x.v, 0))) : num(x);
    }
    if (typeof digits !== "number" || Math.abs(digits) > LIMITS.MAX_ROUND_DIGITS) throw fail("round() digits must be an integer between -" + LIMITS.MAX_ROUND_DIGITS + " and " + LIMITS.MAX_ROUND_DIGITS);
    if (x instanceof Float) {
      if (!isFinite(x.v)) return x;
      // the float nearest q * 10**-digits, exactly (not the host's reading of a decimal text)
      var q = exactRound(x.v, digits), size = q < 0n ? -q : q, scale = 10n ** BigInt(Math.abs(digits));
      var r = digits >= 0 ? quotient(size, scale, 0) : nearest(size * scale, false, 0);
      return float(x.v < 0 || Object.is(x.v, -0) ? -r : r); // a negative x keeps its sign, even rounded to 0
    }
    if (digits >= 0) return num(x);
    var unit = 10n ** BigInt(-digits), v = BigInt(num(x)), q2 = v / unit, rem = v - q2 * unit;
    if (rem < 0n) { q2 -= 1n; rem += unit; }
    if (2n * rem > unit || (2n * rem === unit && q2 % 2n !== 0n)) q2 += 1n;
    return int(Number(q2 * unit));
  }
  function mergeSort(list) { // stable, and like Python's sort it only ever asks "is b < a?"
    if (list.length < 2) return list;
    var middle = list.length >> 1, left = mergeSort(list.slice(0, middle)), right = mergeSort(list.slice(middle));
    var out = [], i = 0, j = 0;
    while (i < left.length && j < right.length) out.push(order("<", right[j], left[i]) ? right[j++] : left[i++]);
    return out.concat(left.slice(i), right.slice(j));
  }
  function maxmin(op, args) {
    var list = items(args), best = list[0];
    for (var i = 1; i < list.length; i++) if (order(op, list[i], best)) best = list[i];
    return best;
  }
  var HELPERS = {
    abs: function (x) { number(x); return x instanceof Float ? float(Math.abs(x.v)) : int(Math.abs(x)); },
    all: function (x) { return sequence(x).every(truth); },
    any: function (x) { return sequence(x).some(truth); },
    bool: function (x) { return truth(x); },
    enumerate: function (x) { return sequence(x).map(function (item, i) { return [i, item]; }); },
    float: function (x) { if (typeof x === "string") throw fail("float() takes a number"); return float(num(number(x))); },
    int: function (x) {
      if (x instanceof Float && !isFinite(x.v)) throw fail("int() of an infinite number");
      return int(Math.trunc(num(number(x))));
    },
    len: function (x) { if (isSeq(x) || x instanceof Dict) return length(x); throw fail("argument must be a list, got " + typeName(x)); },
    list: function (x) { return sequence(x); },
    max: function () { return maxmin(">", Array.prototype.slice.call(arguments)); },
    min: function () { return maxmin("<", Array.prototype.slice.call(arguments)); },
    range: function () {
      var spec = rangeLength(Array.prototype.slice.call(arguments));
      if (spec[0] > LIMITS.MAX_SEQUENCE) throw fail("range of " + spec[0] + " numbers exceeds " + LIMITS.MAX_SEQUENCE);
      var out = [];
      for (var i = 0, v = spec[1]; i < spec[0]; i++, v += spec[2]) out.push(v); // each v within the bounds: exact
      return out;
    },
    round: function (x, digits) { return round(x, digits); },
    sorted: function (x) { return mergeSort(sequence(x)); },
    str: function (x) {
      if (x === null) return "None";
      if (typeof x === "boolean") return x ? "True" : "False";
      if (typeof x === "number") return String(x);
      if (x instanceof Float) return floatRepr(x.v);
      if (typeof x === "string") return x;
      throw fail("str() takes a number, a boolean, a string or null");
    },
    sum: function (x) { // helpers.safe_sum: left to right from 0, each partial sum as '+' makes it
      var list = sequence(x), total = 0;
      list.forEach(function (item) { number(item, "each item"); });
      list.forEach(function (item) { total = numeric("+", total, item, plus); });
      return total;
    },
    zip: function () {
      var seqs = Array.prototype.slice.call(arguments).map(function (s) { return sequence(s); });
      var n = seqs.length ? Math.min.apply(null, seqs.map(function (s) { return s.length; })) : 0, out = [];
      for (var i = 0; i < n; i++) out.push(seqs.map(function (s) { return s[i]; }));
      return out;
    },
    distance: function (a, b) { // the exact distance rounded once, not Math.hypot (security review N3)
      var p = point(a, "a"), q = point(b, "b");
      [p[0], p[1], q[0], q[1]].forEach(function (c) { finite(c, "a coordinate"); });
      return float(norm(difference(p[0], q[0]), difference(p[1], q[1])));
    },
    square_gap: function (a, b, side) {
      var p = point(a, "a"), q = point(b, "b"), s = num(number(side, "side"));
      [p[0], p[1], q[0], q[1], s].forEach(function (c) { finite(c, "a coordinate or the side"); });
      return float(norm(gap(p[0], q[0], s), gap(p[1], q[1], s)));
    },
    connected: function (count, pairs) {
      if (typeof count !== "number" || count < 0 || count > LIMITS.MAX_SEQUENCE) throw fail("count must be a whole number from 0 to " + LIMITS.MAX_SEQUENCE);
      var parent = [];
      for (var i = 0; i < count; i++) parent.push(i);
      var root = function (node) {
        while (parent[node] !== node) { parent[node] = parent[parent[node]]; node = parent[node]; }
        return node;
      };
      sequence(pairs, "pairs").forEach(function (pair) {
        if (!Array.isArray(pair) || pair.length !== 2) throw fail("each pair must be [i, j], got " + show(pair));
        if (!pair.every(function (n) { return typeof n === "number" && n >= 0 && n < count; })) throw fail("pair names a node outside 0.." + (count - 1));
        parent[root(pair[0])] = root(pair[1]);
      });
      var roots = new Set();
      for (var j = 0; j < count; j++) roots.add(root(j));
      return roots.size <= 1;
    }
  };
  function shallow(args) { return args.reduce(function (t, a) { return t + (isSeq(a) || a instanceof Dict ? length(a) : 1); }, 0); }
  var COSTS = { // functions.py: steps charged before the call
    unit: function (m) { m.step(1); },
    shallow: function (m, args) { m.step(shallow(args)); },
    deep: function (m, args) { m.touch.apply(m, args); },
    sorting: function (m, args) {
      var n = args.length ? (isSeq(args[0]) || args[0] instanceof Dict ? length(args[0]) : 1) : 0;
      var rounds = args.length ? Math.max(1, 32 - Math.clz32(n)) : 1; // ceil(log2(n + 1)), in integers
      for (var i = 0; i < rounds; i++) m.touch.apply(m, args);
    },
    range: function (m, args) { m.step(Math.min(rangeLength(args)[0], LIMITS.MAX_SEQUENCE) + 1); },
    connected: function (m, args) {
      var count = args.length && typeof args[0] === "number" ? args[0] : 0;
      m.step(Math.max(count, 0) + shallow(args.slice(1)) + 1);
    }
  };
  function builtBy(result) {
    if (typeof result === "string") return length(result);
    if (isList(result)) return result.length + result.reduce(function (t, x) { return t + (isList(x) ? x.length : 0); }, 0);
    return 0;
  }

  // ---------------------------------------------------------------- the operations compiled code calls
  // A traced call (generator/evaluate/trace.py): each test and the return that answered, with the clause,
  // the values read and the comparisons made there; a step met again moves to the end, counted.
  function Call(meter, traced) { this.m = meter; this.steps = traced ? new Map() : null; this.open = []; }
  var P = Call.prototype;
  P.begin = function () { this.open.push({ reads: [], compares: [] }); };
  P.end = function (kind, line, column, clause, outcome) {
    var found = this.open.pop(), key = kind + ":" + line + ":" + column, before = this.steps.get(key);
    this.steps.delete(key);
    this.steps.set(key, { kind: kind, line: line, column: column, clause: clause, reads: found.reads,
                          compares: found.compares, outcome: outcome, times: before ? before.times + 1 : 1 });
  };
  P.test = function (line, column, clause, thunk) {
    if (!this.steps) return thunk();
    this.begin();
    var outcome = thunk();
    this.end("test", line, column, clause, outcome);
    return outcome;
  };
  P.ret = function (line, column, clause, thunk) {
    if (!this.steps) return thunk();
    this.begin();
    var value = thunk();
    this.end("return", line, column, clause, value);
    return value;
  };
  P.read = function (name, value) {
    var top = this.steps && this.open[this.open.length - 1];
    if (top && !top.reads.some(function (read) { return read[0] === name; })) top.reads.push([name, value]);
    return value;
  };
  P.t = function () { this.m.step(1); };
  P.unbound = function (name) { throw fail("name '" + name + "' is used before it is assigned"); };
  P.truth = truth;
  P.binop = function (op, a, b) {
    var r = BINARY[op](a, b);
    if (isSeq(r)) this.m.build(length(r));
    return checked(r);
  };
  P.not = function (x) { return !truth(x); };
  P.neg = function (x, plus) {
    if (!isNumber(x)) throw fail("unary + and - need a number");
    if (x instanceof Float) return float(plus ? x.v : -x.v);
    return int(plus ? num(x) : -num(x));
  };
  P.and = function (thunks) { var r = null; for (var i = 0; i < thunks.length; i++) { r = thunks[i](); if (!truth(r)) return r; } return r; };
  P.or = function (thunks) { var r = null; for (var i = 0; i < thunks.length; i++) { r = thunks[i](); if (truth(r)) return r; } return r; };
  P.compare = function (left, pairs, names) {
    var top = names && this.steps && this.open[this.open.length - 1];
    for (var i = 0; i < pairs.length; i++) {
      var op = pairs[i][0], right = pairs[i][1](), ok;
      if (op === "is") ok = left === right;
      else if (op === "is not") ok = left !== right;
      else {
        this.m.touch(left, right);
        if (op === "==") ok = eq(left, right);
        else if (op === "!=") ok = !eq(left, right);
        else if (op === "in") ok = contains(right, left);
        else if (op === "not in") ok = !contains(right, left);
        else ok = order(op, left, right);
      }
      if (top) top.compares.push([left, op, right, ok, names[i], names[i + 1]]);
      if (!ok) return false;
      left = right;
    }
    return true;
  };
  P.call = function (name, args) {
    var fn = HELPERS[name], cost = COSTS[CALL_COSTS[name]];
    cost(this.m, args);
    var result = fn.apply(null, args);
    this.m.build(builtBy(result));
    return checked(result);
  };
  P.list = function (items) { this.m.build(items.length); return checked(items); };
  P.tuple = function (items) { this.m.build(items.length); return checked(tuple(items)); };
  P.dict = function (entries) { // entries: [[thunk key, thunk value], ...] evaluated in order
    var d = new Dict();
    for (var i = 0; i < entries.length; i++) {
      var key = entries[i][0]();
      this.m.touch(key);
      checkKey(key);
      var value = entries[i][1]();
      var k = keyOf(key), old = d.map.get(k);
      d.map.set(k, [old ? old[0] : key, value]);
    }
    this.m.build(d.size());
    return checked(d);
  };
  function index(container, key) {
    if (!isInt(key)) throw fail("indexes must be whole numbers");
    var n = length(container), i = num(key);
    if (i < 0) i += n;
    if (i < 0 || i >= n) throw fail("cannot compute: index out of range");
    return i;
  }
  P.getitem = function (container, key) {
    if (!(isSeq(container) || container instanceof Dict)) throw fail("only lists, tuples, strings and dicts can be indexed");
    if (container instanceof Dict) {
      this.m.touch(key);
      checkKey(key);
      var entry = container.map.get(keyOf(key));
      if (!entry) throw fail("no entry " + show(key));
      return entry[1];
    }
    if (typeof container === "string") return chars(container)[index(container, key)];
    return container[index(container, key)];
  };
  P.slice = function (container, lower, upper, step) {
    if (!(isSeq(container) || container instanceof Dict)) throw fail("only lists, tuples, strings and dicts can be indexed");
    [lower, upper, step].forEach(function (b) { if (b !== null && typeof b !== "number") throw fail("slice bounds must be integers"); });
    if (step === 0) throw fail("slice step cannot be zero");
    if (container instanceof Dict) throw fail("cannot compute: unhashable type: 'slice'");
    var items = typeof container === "string" ? chars(container) : container, n = items.length, st = step === null ? 1 : step;
    var clamp = function (v, dflt, lo, hi) { if (v === null) return dflt; if (v < 0) v += n; return Math.min(Math.max(v, lo), hi); };
    var start = st > 0 ? clamp(lower, 0, 0, n) : clamp(lower, n - 1, -1, n - 1);
    var stop = st > 0 ? clamp(upper, n, 0, n) : clamp(upper, -1, -1, n - 1);
    var out = [];
    for (var i = start; st > 0 ? i < stop : i > stop; i += st) out.push(items[i]);
    this.m.build(out.length);
    if (typeof container === "string") return out.join("");
    return isTuple(container) ? tuple(out) : out;
  };
  P.setitem = function (container, key, value) {
    if (!(isList(container) || container instanceof Dict)) throw fail("only list items and dict entries can be assigned");
    if (container instanceof Dict) {
      this.m.touch(key);
      checkKey(key);
      this.m.build(1);
      var k = keyOf(key), old = container.map.get(k);
      container.map.set(k, [old ? old[0] : key, value]);
    } else {
      if (!isInt(key)) throw fail("cannot assign item: TypeError");
      var n = container.length, i = num(key);
      if (i < 0) i += n;
      if (i < 0 || i >= n) throw fail("cannot assign item: IndexError");
      container[i] = value;
    }
    checked(container);
  };
  P.iter = function (x) {
    if (x instanceof Dict) { this.m.build(x.size()); return x.keys(); }
    if (Array.isArray(x)) return x;
    if (typeof x === "string") return chars(x);
    throw fail("cannot loop over a value of type " + typeName(x));
  };
  P.unpack = function (x, n) {
    var items = this.iter(x);
    if (items.length !== n) throw fail("cannot unpack " + items.length + " values into " + n + " names");
    return items;
  };
  P.grow = function (results, item) { results.push(item); this.m.build(1); checked(results); };
  P.float = float;

  // ---------------------------------------------------------------- in and out (values.argument, values.result)
  var LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?:^|[^\ud800-\udbff])([\udc00-\udfff])/;
  function loneSurrogate(text) { // "U+D83D" for the first unpaired surrogate in a string, or null
    var found = LONE_SURROGATE.exec(text);
    return found ? "U+" + (found[1] || found[0]).charCodeAt(0).toString(16).toUpperCase() : null;
  }
  function byCodePoint(a, b) { return codePointLess(a, b) ? -1 : codePointLess(b, a) ? 1 : 0; }
  // values._walk: depth first, a dict's entries key then value; kids(v) lists them, problem(v) throws for a wrong one
  function walk(x, where, kids, problem) {
    var count = 0, stack = [[x, 1]];
    while (stack.length) {
      var top = stack.pop(), v = top[0];
      if (++count > LIMITS.MAX_INPUT_ELEMENTS) throw KbError("SizeLimit", where + " is too large (more than " + LIMITS.MAX_INPUT_ELEMENTS + " elements)");
      problem(v);
      var items = kids(v);
      if (items.length && top[1] >= LIMITS.MAX_VALUE_DEPTH) throw KbError("DepthLimit", where + " is nested more than " + LIMITS.MAX_VALUE_DEPTH + " levels deep");
      for (var i = items.length - 1; i >= 0; i--) stack.push([items[i], top[1] + 1]);
    }
  }
  function jsonKids(v) { // of a value as JSON.parse makes it: an object's keys sorted by code point
    if (Array.isArray(v)) return v;
    if (v === null || typeof v !== "object") return [];
    var out = [];
    Object.keys(v).sort(byCodePoint).forEach(function (k) { out.push(k, v[k]); });
    return out;
  }
  function argumentProblem(where) {
    return function (v) {
      var kind = v === null ? "null" : Array.isArray(v) ? "array" : typeof v;
      if (["null", "boolean", "number", "string", "array", "object"].indexOf(kind) < 0) throw fail(where + " holds a " + kind + ", which is not plain data");
      if (kind === "number" && !isFinite(v)) throw fail(where + " holds " + floatRepr(v) + ", which is not a finite number; give a number");
      if (kind === "number" && Number.isInteger(v) && !Number.isSafeInteger(v)) throw KbError("SizeLimit", where + " holds the whole number " + floatRepr(v) + ", beyond \u00b1" + LIMITS.MAX_INT + " (2**53 \u2212 1)");
      if (kind === "string" && loneSurrogate(v)) throw fail(where + " holds a lone surrogate (" + loneSurrogate(v) + "), which is not text");
    };
  }
  // An argument as Python reads it (values.argument): a JSON number that is whole is an int, any other a float;
  // a JSON object is a dict whose keys come sorted.
  function fromJson(x) {
    if (typeof x === "number") return Number.isInteger(x) ? int(x) : float(x);
    if (Array.isArray(x)) return x.map(fromJson);
    if (x !== null && typeof x === "object") {
      var d = new Dict();
      Object.keys(x).sort(byCodePoint).forEach(function (k) { d.map.set(keyOf(k), [k, fromJson(x[k])]); });
      return d;
    }
    return x;
  }
  function valueKids(v) { // of a runtime value: a dict's entries in their order
    if (Array.isArray(v)) return v;
    if (!(v instanceof Dict)) return [];
    var out = [];
    v.map.forEach(function (entry) { out.push(entry[0], entry[1]); });
    return out;
  }
  function resultProblem(v) {
    if (v instanceof Float && !isFinite(v.v)) throw fail("the result holds " + floatRepr(v.v) + ", which is not a finite number");
    if (v instanceof Dict && !v.keys().every(function (k) { return typeof k === "string"; })) throw fail("the result holds a dict whose keys are not all strings, as JSON's are");
  }
  function toJson(x) {
    if (x instanceof Float) return x.v;
    if (Array.isArray(x)) return x.map(toJson);
    if (x instanceof Dict) { var o = {}; x.map.forEach(function (e) { o[e[0]] = toJson(e[1]); }); return o; }
    return x;
  }
  // values.exact_json: what plain JSON loses kept, for the differential tests (a float's repr, a tuple, a dict's order)
  function tagged(x) {
    if (x instanceof Float) return { "float": floatRepr(x.v) };
    if (isTuple(x)) return { "tuple": x.map(tagged) };
    if (Array.isArray(x)) return x.map(tagged);
    if (x instanceof Dict) return { "dict": Array.from(x.map.values(), function (e) { return [tagged(e[0]), tagged(e[1])]; }) };
    return x;
  }
  var tagging = false;
  // exactly(fn, args, budget): a compiled predicate's result as values.exact_json writes it, or its error as thrown
  function exactly(fn, args, budget, trace) {
    tagging = true;
    try { return fn(args, budget, trace); } finally { tagging = false; }
  }
  function Budget(steps) { this.limit = steps === undefined ? LIMITS.MAX_STEPS : steps; this.spent = 0; }

  // run(params, body, args, budget, trace): what a compiled predicate does when called; with `trace` (an object),
  // trace.steps is set to the traced steps, their values written as the result is.
  function run(params, body, args, budget, trace) {
    args = args || {};
    var missing = params.filter(function (p) { return !Object.prototype.hasOwnProperty.call(args, p); });
    var extra = Object.keys(args).filter(function (p) { return params.indexOf(p) < 0; });
    if (missing.length || extra.length) {
      var said = (missing.length ? ["missing " + missing.join(", ")] : []).concat(extra.length ? ["unexpected " + extra.join(", ")] : []);
      throw fail("wrong arguments: " + said.join("; "));
    }
    var values = params.map(function (p) {
      walk(args[p], "argument '" + p + "'", jsonKids, argumentProblem("argument '" + p + "'"));
      return fromJson(args[p]);
    });
    var call = new Call(new Meter(budget || new Budget()), !!trace);
    var result;
    try {
      result = body(call, values);
    } catch (error) {
      if (error && error.name === "KbError") throw error;
      if (error instanceof RangeError) throw KbError("DepthLimit", "the snippet is nested too deeply to run");
      throw fail("cannot compute: " + (error && error.message));
    }
    if (result === NO_RETURN) throw fail("the code ended without 'return'");
    walk(checked(result), "the result", valueKids, resultProblem);
    var written = tagging ? tagged : toJson;
    if (trace) trace.steps = Array.from(call.steps.values(), function (step) {
      return { kind: step.kind, line: step.line, column: step.column, clause: step.clause,
               reads: step.reads.map(function (read) { return [read[0], written(read[1])]; }),
               compares: step.compares.map(function (c) { return [written(c[0]), c[1], written(c[2]), c[3], c[4], c[5]]; }),
               outcome: written(step.outcome), times: step.times };
    });
    return written(result);
  }
  var NO_RETURN = {};

  root.KbRuntime = {
    LIMITS: LIMITS, CALL_COSTS: CALL_COSTS, run: run, Budget: Budget, NO_RETURN: NO_RETURN, KbError: KbError,
    floatRepr: floatRepr, fromJson: fromJson, toJson: toJson, exactly: exactly
  };
})(typeof globalThis !== "undefined" ? globalThis : this);

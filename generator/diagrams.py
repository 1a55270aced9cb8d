"""SVG diagrams drawn from the worked examples' own data, in the page's language.

A diagram shows exactly what an example gives its predicate (figure positions, distances, angles)
and the answer the example expects, which `generator check` and the test suite hold against the
predicate. Limits drawn as reference lines (the ½″–1″ gap of a skirmish chain, the 18″ and 12″ of
a scout, the 45° withdrawal cone) are not copied from the rule text either: they are read off the
predicate itself by probing it (`_boundaries`), so a diagram cannot disagree with the code the
examples test. Every number and word that reaches the SVG is escaped; the SVG is built as plain
strings, with no library and no external resources.

Each diagram is a <figure> holding an <svg role="img"> with <title>/<desc> (its text alternative)
and a <figcaption>. The renderer exposes `Renderer.diagram(rule, example)`; the template
`_diagrams.md` lays the figures out under a rule's worked examples.
"""

from __future__ import annotations

import math
from typing import Callable, Optional

from markupsafe import Markup

from .evaluate import SnippetRuntimeError
from .helpers import square_gap
from .model import Example, Rule

OK = "#2e7d32"  # the colours of "yes" and "no" in docs/assets/kb.css
BAD = "#c62828"
ACCENT = "#ef6c00"  # the site's accent (deep orange)
FONT = 12  # text size in SVG units; a unit is a CSS pixel when the figure is not scaled down


# ---------------------------------------------------------------------------- SVG building
def _number(value) -> str:
    """A coordinate or length for an attribute: a plain decimal, never anything else."""
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"not a finite number: {value!r}")
    text = f"{number:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _attrs(attributes: dict) -> Markup:
    parts = []
    for key, value in attributes.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        shown = _number(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)
        parts.append(Markup(' {}="{}"').format(name, shown))
    return Markup("").join(parts)


class Svg:
    """An SVG drawing built element by element; text content and attribute values are escaped."""

    def __init__(self, width: float, height: float):
        self.width = width
        self.height = height
        self.parts: list[Markup] = []

    def el(self, tag: str, text: Optional[str] = None, **attributes) -> "Svg":
        if text is None:
            self.parts.append(Markup("<{}{}/>").format(Markup(tag), _attrs(attributes)))
        else:
            self.parts.append(Markup("<{}{}>{}</{}>").format(Markup(tag), _attrs(attributes), text, Markup(tag)))
        return self

    def text(self, x, y, words: str, anchor: str = "middle", size: float = FONT, **attributes) -> "Svg":
        attributes.setdefault("fill", "currentColor")
        return self.el("text", words, x=x, y=y, text_anchor=anchor, font_size=size, **attributes)

    def markup(self, ident: str, title: str, desc: str) -> Markup:
        return Markup('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" '
                      'role="img" aria-labelledby="{i}-title {i}-desc" style="max-width:100%;height:auto">'
                      '<title id="{i}-title">{t}</title><desc id="{i}-desc">{d}</desc>{body}</svg>').format(
            w=_number(self.width), h=_number(self.height), i=ident, t=title, d=desc,
            body=Markup("").join(self.parts))


class View:
    """Inches on the table to SVG units: x to the right, y up the page (towards the enemy)."""

    def __init__(self, xmin, xmax, ymin, ymax, scale, margin=(16, 16, 16, 16)):
        self.xmin, self.ymax, self.scale = xmin, ymax, scale
        self.top, self.right, self.bottom, self.left = margin
        self.width = self.left + (xmax - xmin) * scale + self.right
        self.height = self.top + (ymax - ymin) * scale + self.bottom

    def x(self, x):
        return self.left + (x - self.xmin) * self.scale

    def y(self, y):
        return self.top + (self.ymax - y) * self.scale


# ---------------------------------------------------------------------------- reading the predicate
def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _is_point(value) -> bool:
    return isinstance(value, (list, tuple)) and len(value) == 2 and all(_is_number(v) for v in value)


def _is_points(value) -> bool:
    return isinstance(value, (list, tuple)) and len(value) >= 1 and all(_is_point(p) for p in value)


_BOUNDARIES: dict = {}


def _boundaries(key, answer: Callable[[float], object], low: float, high: float, step: float) -> list[tuple]:
    """Where a predicate's answer changes along one argument: [(value, answer below, answer above)].

    Scans from `low` to `high`, then narrows each change down by bisection. Values are rounded to
    1/1000, so a limit written as "at least ½″" with a 1e-9 tolerance comes out as 0.5.
    """
    if key in _BOUNDARIES:
        return _BOUNDARIES[key]
    found = []
    count = int(round((high - low) / step))
    previous_value, previous = low, answer(low)
    for index in range(1, count + 1):
        value = low + index * step
        current = answer(value)
        if current != previous:
            a, b = previous_value, value
            for _ in range(40):
                middle = (a + b) / 2
                if answer(middle) == previous:
                    a = middle
                else:
                    b = middle
            found.append((round(b, 3), previous, current))
        previous_value, previous = value, current
    _BOUNDARIES[key] = found
    return found


def _predicate_args(rule: Rule, example: Example, names: list[str]):
    predicate = rule.predicate(example.predicate)
    if predicate is None or predicate.snippet is None or predicate.params != names:
        return None
    return predicate


# ---------------------------------------------------------------------------- the diagrams
class Diagrams:
    """The diagrams of one page language."""

    def __init__(self, renderer):
        self.r = renderer
        self.tr = renderer.tr

    # words ------------------------------------------------------------------
    def inches(self, value) -> str:
        return f"{self.tr.number(round(float(value), 2))}″"

    def degrees(self, value) -> str:
        return f"{self.tr.number(round(float(value), 1))}°"

    def verdict(self, allowed: bool) -> Markup:
        _ = self.tr.gettext
        return Markup('<span class="kb-value kb-value--{}">{}</span>').format(
            "yes" if allowed else "no", _("Allowed") if allowed else _("Not allowed"))

    def figure(self, rule: Rule, example: Example, svg: Svg, desc: str) -> Markup:
        _ = self.tr.gettext
        ident = f"diagram-{example.id}"
        title = self.r.plain(f"{rule.key}:example:{example.id}", example.name, rule.lang)
        name = self.r.html(f"{rule.key}:example:{example.id}", example.name, rule.lang)
        caption = Markup('{} <a class="kb-diagram__row" href="#example-{}">{}</a>').format(
            name, example.id, _("to the example"))
        if isinstance(example.expect, bool):
            caption = Markup("{} — {}").format(self.verdict(example.expect), caption)
        return Markup('<figure class="kb-diagram" id="{}" style="margin:0;max-width:100%">{}'
                      '<figcaption style="max-width:{}px">{}</figcaption></figure>').format(
            ident, svg.markup(ident, title, desc), _number(max(svg.width, 220)), caption)

    def legend(self, svg: Svg, x: float, y: float, entries: list[tuple[str, str, str]]):
        """A row of (colour, dash, words) keys from (x, y)."""
        for colour, dash, words in entries:
            svg.el("line", x1=x, y1=y - 4, x2=x + 18, y2=y - 4, stroke=colour, stroke_width=3, stroke_dasharray=dash)
            svg.text(x + 22, y, words, anchor="start", size=FONT - 1)
            y += FONT + 4
        return y

    # (a) battlesystem/skirmishers: formation_ok --------------------------------
    def formation(self, rule: Rule, example: Example) -> Optional[Markup]:
        _ = self.tr.gettext
        predicate = _predicate_args(rule, example, ["figures", "base"])
        figures, base = example.given.get("figures"), example.given.get("base")
        if predicate is None or not _is_points(figures) or not _is_number(base) or base <= 0:
            return None
        limits = _boundaries((rule.key, predicate.code, "gap"),
                             lambda gap: predicate.snippet(figures=[[0, 0], [1 + gap, 0]], base=1),
                             0.0, 4.0, 0.05)
        opening = [value for value, below, above in limits if above is True]
        closing = [value for value, below, above in limits if below is True]
        if len(opening) != 1 or len(closing) != 1:
            return None
        low, high = opening[0], closing[0]

        # The gaps worth marking: the links of a minimum spanning tree (they decide whether the
        # chain holds together) and every pair closer than allowed.
        count = len(figures)
        gaps = {(i, j): square_gap(figures[i], figures[j], base) for i in range(count) for j in range(i + 1, count)}
        marked = set(pair for pair, gap in gaps.items() if gap < low - 1e-9)
        joined = {0}
        while len(joined) < count:
            pair = min(((i, j) for (i, j) in gaps if (i in joined) != (j in joined)), key=lambda p: (gaps[p], p))
            marked.add(pair)
            joined.update(pair)

        half = base / 2
        xs = [p[0] for p in figures]
        ys = [p[1] for p in figures]
        span = max(max(xs) - min(xs), max(ys) - min(ys)) + base
        scale = min(48.0, 300.0 / span)
        view = View(min(xs) - half, max(xs) + half, min(ys) - half, max(ys) + half, scale,
                    margin=(FONT + 14, 16 + 4 * FONT, 2 * (FONT + 4) + 12, 16))
        svg = Svg(max(view.width, 240), view.height)
        for index, (x, y) in enumerate(figures):
            svg.el("rect", x=view.x(x - half), y=view.y(y + half), width=base * scale, height=base * scale,
                   fill="currentColor", fill_opacity=0.08, stroke="currentColor", stroke_width=1.5)
            svg.text(view.x(x), view.y(y) + FONT / 3, str(index + 1), size=FONT - 1)
        described = []
        for i, j in sorted(marked):
            gap = gaps[(i, j)]
            good = low - 1e-9 <= gap <= high + 1e-9
            colour = OK if good else BAD
            (ax, ay), (bx, by) = _closest_points(figures[i], figures[j], half)
            if gap > 1e-9:
                svg.el("line", x1=view.x(ax), y1=view.y(ay), x2=view.x(bx), y2=view.y(by), stroke=colour,
                       stroke_width=3, stroke_dasharray=None if good else "5 3", stroke_linecap="round")
            else:
                svg.el("circle", cx=view.x(ax), cy=view.y(ay), r=5, fill="none", stroke=colour, stroke_width=2.5)
            if abs(by - ay) > abs(bx - ax):  # an up-and-down gap: label it to the right
                svg.text((view.x(ax) + view.x(bx)) / 2 + 6, (view.y(ay) + view.y(by)) / 2 + FONT / 3,
                         self.inches(gap), anchor="start", size=FONT - 1, fill=colour, font_weight="bold")
            else:
                svg.text((view.x(ax) + view.x(bx)) / 2, min(view.y(ay), view.y(by)) - 6, self.inches(gap),
                         size=FONT - 1, fill=colour, font_weight="bold")
            described.append(_("%(gap)s between %(a)s and %(b)s") % {"gap": self.inches(gap), "a": i + 1, "b": j + 1})
        self.legend(svg, 16, view.height - FONT - 8, [
            (OK, None, _("gap from %(low)s to %(high)s: allowed") % {"low": self.inches(low), "high": self.inches(high)}),
            (BAD, "5 3", _("closer or farther than that")),
        ])
        desc = " ".join([
            self.tr.ngettext("%(num)s square base, %(side)s wide.", "%(num)s square bases, %(side)s wide.", count)
            % {"num": count, "side": self.inches(base)},
            (_("Gaps marked: %(gaps)s.") % {"gaps": "; ".join(described)}) if described else "",
            _("Every figure needs a neighbour no more than %(high)s away, none may be closer than %(low)s, and "
              "the bases must form one chain.") % {"low": self.inches(low), "high": self.inches(high)},
            _("The formation is legal.") if example.expect is True else _("The formation is not legal."),
        ]).replace("  ", " ")
        return self.figure(rule, example, svg, desc)

    # (d) battlesystem/skirmishers: withdraw_angle_ok ------------------------------
    def withdraw_angle(self, rule: Rule, example: Example) -> Optional[Markup]:
        _ = self.tr.gettext
        predicate = _predicate_args(rule, example, ["angle"])
        angle = example.given.get("angle")
        if predicate is None or not _is_number(angle) or abs(angle) > 180:
            return None
        limits = _boundaries((rule.key, predicate.code, "angle"), lambda a: predicate.snippet(angle=a),
                             0.0, 180.0, 1.0)
        closing = [value for value, below, above in limits if below is True]
        if len(closing) != 1:
            return None
        limit = closing[0]
        cx, cy, reach = 140, 58, 110
        svg = Svg(2 * cx, cy + reach + 34)

        def point(degrees, length):  # 0° is straight back (down the page), positive to the right
            radians = math.radians(degrees)
            return cx + length * math.sin(radians), cy + length * math.cos(radians)

        left, right = point(-limit, reach), point(limit, reach)
        large = 1 if limit > 90 else 0
        svg.el("path", d=Markup("M {} {} L {} {} A {} {} 0 {} 1 {} {} Z").format(
            _number(cx), _number(cy), _number(right[0]), _number(right[1]), _number(reach), _number(reach), large,
            _number(left[0]), _number(left[1])), fill=OK, fill_opacity=0.12, stroke=OK, stroke_width=1.5,
            stroke_dasharray="4 3")
        back = point(0, reach + 6)
        svg.el("line", x1=cx, y1=cy, x2=back[0], y2=back[1], stroke="currentColor", stroke_opacity=0.5,
               stroke_width=1, stroke_dasharray="2 3")
        svg.text(back[0], back[1] + FONT, _("straight back"), size=FONT - 1, fill_opacity=0.8)
        for sign in (-1, 1):
            edge = point(sign * limit, reach + 12)
            svg.text(edge[0], edge[1] + 4, self.degrees(limit), size=FONT - 1, fill=OK)
        # The enemy is ahead (up the page); the figure is a base seen from above.
        svg.el("rect", x=cx - 14, y=cy - 14, width=28, height=28, fill="currentColor", fill_opacity=0.08,
               stroke="currentColor", stroke_width=1.5)
        svg.el("path", d=Markup("M {} {} L {} {} L {} {} Z").format(cx - 8, cy - 20, cx + 8, cy - 20, cx, cy - 28),
               fill="currentColor", fill_opacity=0.6)
        svg.text(cx, 14, _("enemy ahead"), size=FONT - 1, fill_opacity=0.8)
        good = example.expect is True
        colour = OK if good else BAD
        tip = point(angle, reach - 18)
        svg.el("line", x1=cx, y1=cy + 14, x2=tip[0], y2=tip[1], stroke=colour, stroke_width=3,
               stroke_dasharray=None if good else "6 3")
        head = [point(angle, reach - 4), point(angle - 4, reach - 20), point(angle + 4, reach - 20)]
        svg.el("path", d=Markup("M {} {} L {} {} L {} {} Z").format(*[_number(v) for p in head for v in p]),
               fill=colour)
        if abs(angle) > 0.5:
            arc = 52
            start, end = point(0, arc), point(angle, arc)
            svg.el("path", d=Markup("M {} {} A {} {} 0 0 {} {} {}").format(
                _number(start[0]), _number(start[1]), arc, arc, 0 if angle > 0 else 1, _number(end[0]),
                _number(end[1])), fill="none", stroke=colour, stroke_width=1.5)
        label = point(angle / 2 if abs(angle) > 0.5 else 8, 66)
        svg.text(label[0] + (10 if angle >= 0 else -10), label[1] + 4, self.degrees(angle), size=FONT,
                 fill=colour, font_weight="bold")
        desc = " ".join([
            _("The figure's path runs %(angle)s off straight back; the allowed cone reaches %(limit)s to either "
              "side.") % {"angle": self.degrees(abs(angle)), "limit": self.degrees(limit)},
            _("The path is allowed.") if good else _("The path is not allowed."),
        ])
        return self.figure(rule, example, svg, desc)

    # (c) t9a/scout: deploy_ok --------------------------------------------------
    def scout_distance(self, rule: Rule, example: Example) -> Optional[Markup]:
        _ = self.tr.gettext
        predicate = _predicate_args(rule, example, ["in_own_zone", "enemy_distance", "terrain"])
        own, distance, terrain = (example.given.get(k) for k in ("in_own_zone", "enemy_distance", "terrain"))
        argument = next(a for a in predicate.args if a.name == "terrain") if predicate else None
        if (predicate is None or not isinstance(own, bool) or not _is_number(distance) or distance < 0
                or argument is None or not argument.values or terrain not in argument.values):
            return None
        limit_of = {}
        for value in argument.values:
            changes = _boundaries((rule.key, predicate.code, "distance", value),
                                  lambda d, v=value: predicate.snippet(in_own_zone=False, enemy_distance=d, terrain=v),
                                  0.0, 48.0, 0.5)
            if len(changes) != 1 or changes[0][2] is not True:
                return None
            limit_of[value] = changes[0][0]
        rings = sorted(set(limit_of.values()), reverse=True)
        limit = limit_of[terrain]
        outer = max(rings + [distance]) * 1.08
        radius = 112
        scale = radius / outer
        cx, cy = 130, 16 + radius
        svg = Svg(260, 2 * radius + 32 + (len(rings) + 1) * (FONT + 4))
        for ring in rings:
            applies = ring == limit and not own
            svg.el("circle", cx=cx, cy=cy, r=ring * scale, fill=ACCENT if applies else "none",
                   fill_opacity=0.1 if applies else None, stroke=ACCENT if applies else "currentColor",
                   stroke_opacity=None if applies else 0.45, stroke_width=2 if applies else 1,
                   stroke_dasharray=None if applies else "4 3")
            svg.text(cx, cy - ring * scale + FONT + 2, self.inches(ring), size=FONT - 1,
                     fill=ACCENT if applies else "currentColor")
        svg.el("rect", x=cx - 12, y=cy - 6, width=24, height=12, fill=BAD, fill_opacity=0.85)
        svg.text(cx, cy - 11, _("enemy"), size=FONT - 1)
        good = example.expect is True
        colour = OK if good else BAD
        angle = math.radians(135)
        sx, sy = cx + distance * scale * math.cos(angle), cy + distance * scale * math.sin(angle)
        svg.el("line", x1=cx, y1=cy, x2=sx, y2=sy, stroke=colour, stroke_width=2,
               stroke_dasharray=None if good else "5 3")
        svg.el("rect", x=sx - 7, y=sy - 7, width=14, height=14, fill=colour, stroke="white", stroke_width=1)
        svg.text((cx + sx) / 2 - 6, (cy + sy) / 2 - 6, self.inches(distance), anchor="end", size=FONT,
                 fill=colour, font_weight="bold")
        y = 2 * radius + 32
        entries = []
        for ring in rings:
            names = ", ".join(v for v in argument.values if limit_of[v] == ring)
            applies = ring == limit and not own
            entries.append((ACCENT if applies else "currentColor", None if applies else "4 3",
                            f"{self.inches(ring)}: {names}"))
        entries.append((colour, None, _("scout unit in its own deployment zone") if own else
                        _("scout unit, terrain: %(terrain)s") % {"terrain": terrain}))
        self.legend(svg, 12, y, entries)
        parts = [_("The scout unit stands %(dist)s from the nearest enemy unit.") % {"dist": self.inches(distance)}]
        if own:
            parts.append(_("It is set up in its own deployment zone, where no minimum distance applies."))
        else:
            parts.append(_("It stands in terrain “%(terrain)s”, where it must keep at least %(limit)s away.")
                         % {"terrain": terrain, "limit": self.inches(limit)})
        parts.append(_("The placement is allowed.") if good else _("The placement is not allowed."))
        return self.figure(rule, example, svg, " ".join(parts))

    # (b) t9a/light-infantry: anchor_candidates and close_ranks -------------------
    def _unit(self, svg: Svg, view: View, models, base, anchors, ghost=False):
        half = base / 2
        for index, (x, y) in enumerate(models):
            anchor = index in anchors
            if ghost:  # where the model stood before: an outline only
                svg.el("rect", x=view.x(x - half), y=view.y(y + half), width=base * view.scale,
                       height=base * view.scale, fill="none", stroke=ACCENT if anchor else "currentColor",
                       stroke_width=1, stroke_dasharray="3 2", stroke_opacity=0.4)
                continue
            svg.el("rect", x=view.x(x - half), y=view.y(y + half), width=base * view.scale, height=base * view.scale,
                   fill=ACCENT if anchor else "currentColor", fill_opacity=0.35 if anchor else 0.08,
                   stroke=ACCENT if anchor else "currentColor", stroke_width=2.5 if anchor else 1.2)
            svg.text(view.x(x), view.y(y) + FONT / 3, str(index), size=FONT - 1)

    def _enemy(self, svg: Svg, view: View, point):
        x, y = view.x(point[0]), view.y(point[1])
        svg.el("path", d=Markup("M {} {} L {} {} L {} {} L {} {} Z").format(
            _number(x), _number(y - 8), _number(x + 8), _number(y), _number(x), _number(y + 8), _number(x - 8),
            _number(y)), fill=BAD, fill_opacity=0.85)
        svg.text(x + 12, y + 4, self.tr.gettext("enemy"), anchor="start", size=FONT - 1, fill=BAD)

    def anchor_candidates(self, rule: Rule, example: Example) -> Optional[Markup]:
        _ = self.tr.gettext
        predicate = _predicate_args(rule, example, ["models", "enemy"])
        models, enemy, expect = example.given.get("models"), example.given.get("enemy"), example.expect
        if (predicate is None or not _is_points(models) or not _is_point(enemy) or not isinstance(expect, list)
                or not all(isinstance(i, int) and 0 <= i < len(models) for i in expect)):
            return None
        base = _loose_base(models)
        half = base / 2
        xs = [p[0] for p in models] + [enemy[0]]
        ys = [p[1] for p in models] + [enemy[1]]
        scale = min(40.0, 220.0 / max(max(xs) - min(xs) + base, max(ys) - min(ys) + base))
        view = View(min(xs) - half, max(xs) + half, min(ys) - half, max(ys) + half, scale,
                    margin=(16, 64, 16 + FONT + 10, 16))
        svg = Svg(max(view.width, 240), view.height)
        for index, model in enumerate(models):
            near = index in expect
            svg.el("line", x1=view.x(model[0]), y1=view.y(model[1]), x2=view.x(enemy[0]), y2=view.y(enemy[1]),
                   stroke=ACCENT if near else "currentColor", stroke_opacity=None if near else 0.25,
                   stroke_width=2 if near else 1, stroke_dasharray=None if near else "3 3")
        self._unit(svg, view, models, base, set(expect))
        self._enemy(svg, view, enemy)
        self.legend(svg, 16, view.height - 8, [(ACCENT, None, _("nearest to the enemy: stays in place"))])
        listed = ", ".join(str(i) for i in expect)
        desc = " ".join([
            self.tr.ngettext("%(num)s model, numbered from 0; the enemy is measured from the point %(point)s.",
                             "%(num)s models, numbered from 0; the enemy is measured from the point %(point)s.",
                             len(models)) % {"num": len(models), "point": self._point(enemy)},
            self.tr.ngettext("Model %(list)s is nearest to the enemy and stays in place.",
                             "Models %(list)s are equally near the enemy; the active player picks the one that "
                             "stays in place.", len(expect)) % {"list": listed} if expect else "",
        ])
        return self.figure(rule, example, svg, desc.strip())

    def close_ranks(self, rule: Rule, example: Example) -> Optional[Markup]:
        _ = self.tr.gettext
        predicate = _predicate_args(rule, example, ["models", "anchor", "base"])
        models, anchor, base = (example.given.get(k) for k in ("models", "anchor", "base"))
        after = example.expect
        if (predicate is None or not _is_points(models) or not isinstance(anchor, int) or isinstance(anchor, bool)
                or not 0 <= anchor < len(models) or not _is_number(base) or base <= 0 or not _is_points(after)
                or len(after) != len(models)):
            return None
        # The same unit in an anchor_candidates example of this rule tells where the enemy stands
        # (figure 15: step A, the charge, then step B, the unit closing up).
        enemy = None
        for other in rule.examples:
            if (other.predicate == "anchor_candidates" and other.given.get("models") == models
                    and isinstance(other.expect, list) and anchor in other.expect and _is_point(other.given.get("enemy"))):
                enemy = other.given["enemy"]
        half = base / 2
        points = list(models) + list(after) + ([enemy] if enemy else [])
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        span_x, span_y = max(xs) - min(xs) + base, max(ys) - min(ys) + base
        scale = min(36.0, 170.0 / max(span_x, span_y))
        margin = (FONT + 20, 48 if enemy else 16, 16 + FONT + 10, 16)
        view = View(min(xs) - half, max(xs) + half, min(ys) - half, max(ys) + half, scale, margin=margin)
        gap = 24
        svg = Svg(2 * view.width + gap, view.height)
        for panel, (label, positions) in enumerate(((_("Before"), models), (_("After"), after))):
            offset = panel * (view.width + gap)
            svg.parts.append(Markup('<g transform="translate({} 0)">').format(_number(offset)))
            svg.text(view.width / 2, FONT + 4, label, size=FONT, font_weight="bold")
            if panel == 1:
                self._unit(svg, view, models, base, {anchor}, ghost=True)
            self._unit(svg, view, positions, base, {anchor})
            if enemy:
                self._enemy(svg, view, enemy)
            svg.parts.append(Markup("</g>"))
        svg.text(view.width + gap / 2, view.height / 2, "→", size=FONT + 4)
        self.legend(svg, 16, view.height - 8, [(ACCENT, None, _("stays in place; the others close up on it"))])
        width_before = max(p[0] for p in models) - min(p[0] for p in models) + base
        width_after = max(p[0] for p in after) - min(p[0] for p in after) + base
        desc = " ".join([
            self.tr.ngettext("Before: %(num)s model in loose formation, %(width)s wide.",
                             "Before: %(num)s models in loose formation, %(width)s wide.", len(models))
            % {"num": len(models), "width": self.inches(width_before)},
            _("After: the unit has closed up on model %(anchor)s, which stays in place, and is %(width)s wide; "
              "neighbouring bases touch, and every model keeps its rank and file.")
            % {"anchor": anchor, "width": self.inches(width_after)},
            (_("The enemy is measured from the point %(point)s.") % {"point": self._point(enemy)}) if enemy else "",
        ])
        return self.figure(rule, example, svg, desc.strip())

    def _point(self, point) -> str:
        return f"({self.tr.number(point[0])}; {self.tr.number(point[1])})"


def _closest_points(a, b, half):
    """The nearest points of two axis-aligned squares (centres a and b, half-side `half`)."""
    ends = []
    for axis in (0, 1):
        a_low, a_high, b_low, b_high = a[axis] - half, a[axis] + half, b[axis] - half, b[axis] + half
        if a_high < b_low:
            ends.append((a_high, b_low))
        elif b_high < a_low:
            ends.append((a_low, b_high))
        else:
            middle = (max(a_low, b_low) + min(a_high, b_high)) / 2
            ends.append((middle, middle))
    return (ends[0][0], ends[1][0]), (ends[0][1], ends[1][1])


def _loose_base(models) -> float:
    """The side of the bases of a loose unit given by centres only, for drawing: the tightest spacing
    less the ½″ gap that Light Infantry keeps between bases (clause `spacing`; `close_ranks` uses
    the same step of base + ½″)."""
    spacing = [math.dist(p, q) for i, p in enumerate(models) for q in models[i + 1:] if math.dist(p, q) > 1e-9]
    return max(0.3, min(spacing) - 0.5) if spacing else 1.0


DRAWERS = {  # (rule, predicate) -> method of Diagrams
    ("battlesystem/skirmishers", "formation_ok"): Diagrams.formation,
    ("battlesystem/skirmishers", "withdraw_angle_ok"): Diagrams.withdraw_angle,
    ("t9a/scout", "deploy_ok"): Diagrams.scout_distance,
    ("t9a/light-infantry", "anchor_candidates"): Diagrams.anchor_candidates,
    ("t9a/light-infantry", "close_ranks"): Diagrams.close_ranks,
}


def diagram(renderer, rule: Rule, example: Example) -> Markup:
    """The figure for one worked example, or an empty string when there is no diagram for it."""
    drawer = DRAWERS.get((rule.key, example.predicate))
    if drawer is None:
        return Markup("")
    try:
        return drawer(Diagrams(renderer), rule, example) or Markup("")
    except SnippetRuntimeError:
        return Markup("")  # the predicate no longer takes arguments of this shape: no diagram

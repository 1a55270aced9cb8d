"""Drawings for battlesystem/skirmishers: a skirmish chain's gaps and the withdrawal cone."""

from __future__ import annotations

import math
from typing import Optional

from markupsafe import Markup

from ....evaluate.helpers import square_gap
from ....kb.model import Example, Rule
from ....kb.value_types import is_number
from ..probe import is_points, predicate_taking
from ..registry import Context, Drawing, drawing
from ..svg import BAD, FONT, OK, Svg, View, legend, number


def _gap_limits(ctx: Context, rule: Rule, predicate) -> Optional[tuple[float, float]]:
    """The least and the greatest gap the predicate allows between two bases, read off the predicate."""
    limits = ctx.probe.boundaries((rule.key, predicate.code, "gap"),
                                  lambda gap, budget: predicate.snippet.run(
                                      {"figures": [[0, 0], [1 + gap, 0]], "base": 1}, budget),
                                  0.0, 4.0, 0.05)
    opening = [value for value, below, above in limits if above is True]
    closing = [value for value, below, above in limits if below is True]
    return (opening[0], closing[0]) if len(opening) == 1 and len(closing) == 1 else None


def marked_gaps(figures, base: float, low: float) -> tuple[dict, list]:
    """Every pair's gap, and the pairs worth marking: the links of a minimum spanning tree (they
    decide whether the chain holds together) and every pair closer than allowed."""
    count = len(figures)
    gaps = {(i, j): square_gap(figures[i], figures[j], base) for i in range(count) for j in range(i + 1, count)}
    marked = set(pair for pair, gap in gaps.items() if gap < low - 1e-9)
    joined = {0}
    while len(joined) < count:
        pair = min(((i, j) for (i, j) in gaps if (i in joined) != (j in joined)), key=lambda p: (gaps[p], p))
        marked.add(pair)
        joined.update(pair)
    return gaps, sorted(marked)


def _gap(ctx: Context, svg: Svg, view: View, ends, gap: float, good: bool):
    """One marked gap: a line between the bases' nearest points (a ring where they touch) and its length."""
    colour = OK if good else BAD
    (ax, ay), (bx, by) = ends
    if gap > 1e-9:
        svg.el("line", x1=view.x(ax), y1=view.y(ay), x2=view.x(bx), y2=view.y(by), stroke=colour,
               stroke_width=3, stroke_dasharray=None if good else "5 3", stroke_linecap="round")
    else:
        svg.el("circle", cx=view.x(ax), cy=view.y(ay), r=5, fill="none", stroke=colour, stroke_width=2.5)
    if abs(by - ay) > abs(bx - ax):  # an up-and-down gap: label it to the right
        svg.text((view.x(ax) + view.x(bx)) / 2 + 6, (view.y(ay) + view.y(by)) / 2 + FONT / 3,
                 ctx.inches(gap), anchor="start", size=FONT - 1, fill=colour, font_weight="bold")
    else:
        svg.text((view.x(ax) + view.x(bx)) / 2, min(view.y(ay), view.y(by)) - 6, ctx.inches(gap),
                 size=FONT - 1, fill=colour, font_weight="bold")


def _bases(svg: Svg, view: View, figures, base: float):
    half = base / 2
    for index, (x, y) in enumerate(figures):
        svg.el("rect", x=view.x(x - half), y=view.y(y + half), width=base * view.scale, height=base * view.scale,
               fill="currentColor", fill_opacity=0.08, stroke="currentColor", stroke_width=1.5)
        svg.text(view.x(x), view.y(y) + FONT / 3, str(index + 1), size=FONT - 1)


def _formation_view(figures, base: float) -> View:
    half = base / 2
    xs, ys = [p[0] for p in figures], [p[1] for p in figures]
    scale = min(48.0, 300.0 / (max(max(xs) - min(xs), max(ys) - min(ys)) + base))
    return View(min(xs) - half, max(xs) + half, min(ys) - half, max(ys) + half, scale,
                margin=(FONT + 14, 16 + 4 * FONT, 2 * (FONT + 4) + 12, 16))


@drawing("battlesystem/skirmishers", "formation_ok")
def formation(ctx: Context, rule: Rule, example: Example) -> Optional[Drawing]:
    _ = ctx.tr.gettext
    predicate = predicate_taking(rule, example, ["figures", "base"])
    figures, base = example.given.get("figures"), example.given.get("base")
    if predicate is None or not is_points(figures) or not is_number(base) or base <= 0:
        return None
    allowed = _gap_limits(ctx, rule, predicate)
    if allowed is None:
        return None
    low, high = allowed
    gaps, marked = marked_gaps(figures, base, low)
    view = _formation_view(figures, base)
    svg = Svg(max(view.width, 240), view.height)
    _bases(svg, view, figures, base)
    described = []
    for i, j in marked:
        gap = gaps[(i, j)]
        _gap(ctx, svg, view, _closest_points(figures[i], figures[j], base / 2), gap, low - 1e-9 <= gap <= high + 1e-9)
        described.append(_("%(gap)s between %(a)s and %(b)s") % {"gap": ctx.inches(gap), "a": i + 1, "b": j + 1})
    legend(svg, 16, view.height - FONT - 8, [
        (OK, None, _("gap from %(low)s to %(high)s: allowed") % {"low": ctx.inches(low), "high": ctx.inches(high)}),
        (BAD, "5 3", _("closer or farther than that")),
    ])
    desc = " ".join([
        ctx.tr.ngettext("%(num)s square base, %(side)s wide.", "%(num)s square bases, %(side)s wide.", len(figures))
        % {"num": len(figures), "side": ctx.inches(base)},
        (_("Gaps marked: %(gaps)s.") % {"gaps": "; ".join(described)}) if described else "",
        _("Every figure needs a neighbour no more than %(high)s away, none may be closer than %(low)s, and "
          "the bases must form one chain.") % {"low": ctx.inches(low), "high": ctx.inches(high)},
        _("The formation is legal.") if example.expect is True else _("The formation is not legal."),
    ]).replace("  ", " ")
    return Drawing(svg, desc)


CONE_CENTRE, CONE_REACH = (140, 58), 110  # where the figure stands in the drawing, and the cone's radius


def _cone_point(degrees: float, length: float) -> tuple[float, float]:
    """A point of the cone drawing: 0° is straight back (down the page), positive to the right."""
    radians = math.radians(degrees)
    cx, cy = CONE_CENTRE
    return cx + length * math.sin(radians), cy + length * math.cos(radians)


def _cone(ctx: Context, svg: Svg, limit: float):
    """The allowed cone either side of straight back, the figure, and the enemy ahead."""
    _ = ctx.tr.gettext
    (cx, cy), reach = CONE_CENTRE, CONE_REACH
    left, right = _cone_point(-limit, reach), _cone_point(limit, reach)
    svg.el("path", d=Markup("M {} {} L {} {} A {} {} 0 {} 1 {} {} Z").format(
        number(cx), number(cy), number(right[0]), number(right[1]), number(reach), number(reach),
        1 if limit > 90 else 0, number(left[0]), number(left[1])), fill=OK, fill_opacity=0.12, stroke=OK,
        stroke_width=1.5, stroke_dasharray="4 3")
    back = _cone_point(0, reach + 6)
    svg.el("line", x1=cx, y1=cy, x2=back[0], y2=back[1], stroke="currentColor", stroke_opacity=0.5,
           stroke_width=1, stroke_dasharray="2 3")
    svg.text(back[0], back[1] + FONT, _("straight back"), size=FONT - 1, fill_opacity=0.8)
    for sign in (-1, 1):
        edge = _cone_point(sign * limit, reach + 12)
        svg.text(edge[0], edge[1] + 4, ctx.degrees(limit), size=FONT - 1, fill=OK)
    # The enemy is ahead (up the page); the figure is a base seen from above.
    svg.el("rect", x=cx - 14, y=cy - 14, width=28, height=28, fill="currentColor", fill_opacity=0.08,
           stroke="currentColor", stroke_width=1.5)
    svg.el("path", d=Markup("M {} {} L {} {} L {} {} Z").format(cx - 8, cy - 20, cx + 8, cy - 20, cx, cy - 28),
           fill="currentColor", fill_opacity=0.6)
    svg.text(cx, 14, _("enemy ahead"), size=FONT - 1, fill_opacity=0.8)


def _path(ctx: Context, svg: Svg, angle: float, good: bool):
    """The figure's path as an arrow, with the angle it makes with straight back."""
    (cx, cy), reach = CONE_CENTRE, CONE_REACH
    colour = OK if good else BAD
    tip = _cone_point(angle, reach - 18)
    svg.el("line", x1=cx, y1=cy + 14, x2=tip[0], y2=tip[1], stroke=colour, stroke_width=3,
           stroke_dasharray=None if good else "6 3")
    head = [_cone_point(angle, reach - 4), _cone_point(angle - 4, reach - 20), _cone_point(angle + 4, reach - 20)]
    svg.el("path", d=Markup("M {} {} L {} {} L {} {} Z").format(*[number(v) for p in head for v in p]),
           fill=colour)
    if abs(angle) > 0.5:
        arc = 52
        start, end = _cone_point(0, arc), _cone_point(angle, arc)
        svg.el("path", d=Markup("M {} {} A {} {} 0 0 {} {} {}").format(
            number(start[0]), number(start[1]), arc, arc, 0 if angle > 0 else 1, number(end[0]),
            number(end[1])), fill="none", stroke=colour, stroke_width=1.5)
    label = _cone_point(angle / 2 if abs(angle) > 0.5 else 8, 66)
    svg.text(label[0] + (10 if angle >= 0 else -10), label[1] + 4, ctx.degrees(angle), size=FONT,
             fill=colour, font_weight="bold")


@drawing("battlesystem/skirmishers", "withdraw_angle_ok")
def withdraw_angle(ctx: Context, rule: Rule, example: Example) -> Optional[Drawing]:
    _ = ctx.tr.gettext
    predicate = predicate_taking(rule, example, ["angle"])
    angle = example.given.get("angle")
    if predicate is None or not is_number(angle) or abs(angle) > 180:
        return None
    limits = ctx.probe.boundaries((rule.key, predicate.code, "angle"),
                                  lambda a, budget: predicate.snippet.run({"angle": a}, budget), 0.0, 180.0, 1.0)
    closing = [value for value, below, above in limits if below is True]
    if len(closing) != 1:
        return None
    limit, good = closing[0], example.expect is True
    svg = Svg(2 * CONE_CENTRE[0], CONE_CENTRE[1] + CONE_REACH + 34)
    _cone(ctx, svg, limit)
    _path(ctx, svg, angle, good)
    desc = " ".join([
        _("The figure's path runs %(angle)s off straight back; the allowed cone reaches %(limit)s to either "
          "side.") % {"angle": ctx.degrees(abs(angle)), "limit": ctx.degrees(limit)},
        _("The path is allowed.") if good else _("The path is not allowed."),
    ])
    return Drawing(svg, desc)


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



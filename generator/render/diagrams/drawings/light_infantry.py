"""Drawings for t9a/light-infantry: which model is nearest the enemy, and the unit closing ranks on it."""

from __future__ import annotations

import math
from typing import Optional

from markupsafe import Markup

from ....kb.model import Example, Rule
from ....kb.value_types import is_number, is_point
from ..probe import is_points, predicate_taking
from ..registry import Context, Drawing, drawing
from ..svg import ACCENT, BAD, FONT, Svg, View, legend, number


def _unit(svg: Svg, view: View, models, base, anchors, ghost=False):
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
        svg.text(view.x(x), view.y(y) + FONT / 3, str(index + 1), size=FONT - 1)  # a reader counts from 1


def _enemy(ctx: Context, svg: Svg, view: View, point):
    x, y = view.x(point[0]), view.y(point[1])
    svg.el("path", d=Markup("M {} {} L {} {} L {} {} L {} {} Z").format(
        number(x), number(y - 8), number(x + 8), number(y), number(x), number(y + 8), number(x - 8),
        number(y)), fill=BAD, fill_opacity=0.85)
    svg.text(x + 12, y + 4, ctx.tr.gettext("enemy"), anchor="start", size=FONT - 1, fill=BAD)


@drawing("t9a/light-infantry", "anchor_candidates")
def anchor_candidates(ctx: Context, rule: Rule, example: Example) -> Optional[Drawing]:
    _ = ctx.tr.gettext
    predicate = predicate_taking(rule, example, ["models", "enemy"])
    models, enemy, expect = example.given.get("models"), example.given.get("enemy"), example.expect
    if (predicate is None or not is_points(models) or not is_point(enemy) or not isinstance(expect, list)
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
    _unit(svg, view, models, base, set(expect))
    _enemy(ctx, svg, view, enemy)
    legend(svg, 16, view.height - 8, [(ACCENT, None, _("nearest to the enemy: stays in place"))])
    listed = ", ".join(str(i + 1) for i in expect)
    desc = " ".join([
        ctx.tr.ngettext("%(num)s model, numbered from 1; the enemy is measured from the point %(point)s.",
                         "%(num)s models, numbered from 1; the enemy is measured from the point %(point)s.",
                         len(models)) % {"num": len(models), "point": ctx.point(enemy)},
        ctx.tr.ngettext("Model %(list)s is nearest to the enemy and stays in place.",
                         "Models %(list)s are equally near the enemy; the active player picks the one that "
                         "stays in place.", len(expect)) % {"list": listed} if expect else "",
    ])
    return Drawing(svg, desc.strip())


def _closing_shape_ok(models, anchor, base, after) -> bool:
    """Whether an example of close_ranks has the shape the drawing needs."""
    whole = isinstance(anchor, int) and not isinstance(anchor, bool)
    return (is_points(models) and whole and 0 <= anchor < len(models) and is_number(base) and base > 0
            and is_points(after) and len(after) == len(models))


def enemy_of(rule: Rule, models, anchor):
    """Where the enemy stands, from an anchor_candidates example of the same unit with this anchor
    (figure 15: step A, the charge, then step B, the unit closing up), or None."""
    enemy = None
    for other in rule.examples:
        if (other.predicate == "anchor_candidates" and other.given.get("models") == models
                and isinstance(other.expect, list) and anchor in other.expect and is_point(other.given.get("enemy"))):
            enemy = other.given["enemy"]
    return enemy


def _closing_view(models, after, enemy, base: float) -> View:
    half = base / 2
    points = list(models) + list(after) + ([enemy] if enemy else [])
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    scale = min(36.0, 170.0 / max(max(xs) - min(xs) + base, max(ys) - min(ys) + base))
    margin = (FONT + 20, 48 if enemy else 16, 16 + FONT + 10, 16)
    return View(min(xs) - half, max(xs) + half, min(ys) - half, max(ys) + half, scale, margin=margin)


def _width(models, base: float) -> float:
    return max(p[0] for p in models) - min(p[0] for p in models) + base


@drawing("t9a/light-infantry", "close_ranks")
def close_ranks(ctx: Context, rule: Rule, example: Example) -> Optional[Drawing]:
    _ = ctx.tr.gettext
    predicate = predicate_taking(rule, example, ["models", "anchor", "base"])
    models, anchor, base = (example.given.get(k) for k in ("models", "anchor", "base"))
    after = example.expect
    if predicate is None or not _closing_shape_ok(models, anchor, base, after):
        return None
    enemy = enemy_of(rule, models, anchor)
    view = _closing_view(models, after, enemy, base)
    gap = 24
    svg = Svg(2 * view.width + gap, view.height)
    for panel, (label, positions) in enumerate(((_("Before"), models), (_("After"), after))):
        svg.parts.append(Markup('<g transform="translate({} 0)">').format(number(panel * (view.width + gap))))
        svg.text(view.width / 2, FONT + 4, label, size=FONT, font_weight="bold")
        if panel == 1:
            _unit(svg, view, models, base, {anchor}, ghost=True)
        _unit(svg, view, positions, base, {anchor})
        if enemy:
            _enemy(ctx, svg, view, enemy)
        svg.parts.append(Markup("</g>"))
    svg.text(view.width + gap / 2, view.height / 2, "→", size=FONT + 4)
    legend(svg, 16, view.height - 8, [(ACCENT, None, _("stays in place; the others close up on it"))])
    desc = " ".join([
        ctx.tr.ngettext("Before: %(num)s model in loose formation, %(width)s wide.",
                        "Before: %(num)s models in loose formation, %(width)s wide.", len(models))
        % {"num": len(models), "width": ctx.inches(_width(models, base))},
        _("After: the unit has closed up on model %(anchor)s, which stays in place, and is %(width)s wide; "
          "neighbouring bases touch, and every model keeps its rank and file.")
        % {"anchor": anchor + 1, "width": ctx.inches(_width(after, base))},
        (_("The enemy is measured from the point %(point)s.") % {"point": ctx.point(enemy)}) if enemy else "",
    ])
    return Drawing(svg, desc.strip())


def _loose_base(models) -> float:
    """The side of the bases of a loose unit given by centres only, for drawing: the tightest spacing
    less the ½″ gap that Light Infantry keeps between bases (clause `spacing`; `close_ranks` uses
    the same step of base + ½″)."""
    spacing = [math.dist(p, q) for i, p in enumerate(models) for q in models[i + 1:] if math.dist(p, q) > 1e-9]
    return max(0.3, min(spacing) - 0.5) if spacing else 1.0



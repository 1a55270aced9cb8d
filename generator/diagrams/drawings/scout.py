"""The drawing for t9a/scout deploy_ok: the distance kept from the nearest enemy, ring by terrain."""

from __future__ import annotations

import math
from typing import Optional

from ...model import Example, Rule
from ..probe import is_number, predicate_taking
from ..registry import Context, Drawing, drawing
from ..svg import ACCENT, BAD, FONT, OK, Svg, legend


@drawing("t9a/scout", "deploy_ok")
def scout_distance(ctx: Context, rule: Rule, example: Example) -> Optional[Drawing]:
    _ = ctx.tr.gettext
    predicate = predicate_taking(rule, example, ["in_own_zone", "enemy_distance", "terrain"])
    own, distance, terrain = (example.given.get(k) for k in ("in_own_zone", "enemy_distance", "terrain"))
    argument = next(a for a in predicate.args if a.name == "terrain") if predicate else None
    if (predicate is None or not isinstance(own, bool) or not is_number(distance) or distance < 0
            or argument is None or not argument.values or terrain not in argument.values):
        return None
    limit_of = {}
    for value in argument.values:
        changes = ctx.probe.boundaries((rule.key, predicate.code, "distance", value),
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
        svg.text(cx, cy - ring * scale + FONT + 2, ctx.inches(ring), size=FONT - 1,
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
    svg.text((cx + sx) / 2 - 6, (cy + sy) / 2 - 6, ctx.inches(distance), anchor="end", size=FONT,
             fill=colour, font_weight="bold")
    y = 2 * radius + 32
    entries = []
    for ring in rings:
        names = ", ".join(ctx.label("deploy_ok", "terrain", v) for v in argument.values if limit_of[v] == ring)
        applies = ring == limit and not own
        entries.append((ACCENT if applies else "currentColor", None if applies else "4 3",
                        f"{ctx.inches(ring)}: {names}"))
    entries.append((colour, None, _("scout unit in its own deployment zone") if own else
                    _("scout unit outside its deployment zone")))
    legend(svg, 12, y, entries)
    parts = [_("The scout unit stands %(dist)s from the nearest enemy unit.") % {"dist": ctx.inches(distance)}]
    if own:
        parts.append(_("It is set up in its own deployment zone, where no minimum distance applies."))
    else:
        # Named by the terrain of its ring, so examples in equivalent terrain share one diagram.
        shown = ", ".join(ctx.label("deploy_ok", "terrain", v) for v in argument.values if limit_of[v] == limit)
        parts.append(_("It stands in terrain where it must keep at least %(limit)s away (%(terrain)s).")
                     % {"terrain": shown, "limit": ctx.inches(limit)})
    parts.append(_("The placement is allowed.") if good else _("The placement is not allowed."))
    return Drawing(svg, " ".join(parts))

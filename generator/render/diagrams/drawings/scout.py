"""The drawing for t9a/scout deploy_ok: the distance kept from the nearest enemy, ring by terrain.

Geometry (the limit of each terrain, read off the predicate) is apart from the picture (`_rings`,
`_scout`) and from its sentences (`_legend`, `_desc`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

from ....kb.model import Example, Rule
from ....kb.value_types import is_number
from ..probe import predicate_taking
from ..registry import Context, Drawing, drawing
from ..svg import ACCENT, BAD, FONT, OK, PAGE, Svg, legend

RADIUS = 112  # SVG units from the enemy to the outermost ring (or the scout, if farther)
MAX_PROBED = 48.0  # inches: limits are looked for between 0 and this distance


@dataclass
class Situation:
    """One example's placement and the limit of every terrain value."""

    own: bool  # set up in its own deployment zone
    distance: float
    terrain: str
    limits: dict  # terrain value -> the least distance allowed outside the own zone
    allowed: bool

    @property
    def rings(self) -> list[float]:
        return sorted(set(self.limits.values()), reverse=True)

    def applies(self, ring: float) -> bool:
        return ring == self.limits[self.terrain] and not self.own


def _situation(ctx: Context, rule: Rule, example: Example) -> Optional[Situation]:
    predicate = predicate_taking(rule, example, ["in_own_zone", "enemy_distance", "terrain"])
    own, distance, terrain = (example.given.get(k) for k in ("in_own_zone", "enemy_distance", "terrain"))
    argument = next(a for a in predicate.args if a.name == "terrain") if predicate else None
    if (predicate is None or not isinstance(own, bool) or not is_number(distance) or distance < 0
            or argument is None or terrain not in (argument.values or [])):
        return None
    limits = {}
    for value in argument.values:
        changes = ctx.probe.boundaries((rule.key, predicate.code, "distance", value),
                                       lambda d, budget, v=value: predicate.snippet.run(
                                           {"in_own_zone": False, "enemy_distance": d, "terrain": v}, budget),
                                       0.0, MAX_PROBED, 0.5)
        if len(changes) != 1 or changes[0][2] is not True:
            return None
        limits[value] = changes[0][0]
    return Situation(own, distance, terrain, limits, example.expect is True)


def _rings(ctx: Context, svg: Svg, at: Situation, cx: float, cy: float, scale: float):
    for ring in at.rings:
        applies = at.applies(ring)
        svg.el("circle", cx=cx, cy=cy, r=ring * scale, fill=ACCENT if applies else "none",
               fill_opacity=0.1 if applies else None, stroke=ACCENT if applies else "currentColor",
               stroke_opacity=None if applies else 0.45, stroke_width=2 if applies else 1,
               stroke_dasharray=None if applies else "4 3")
        svg.text(cx, cy - ring * scale + FONT + 2, ctx.inches(ring), size=FONT - 1,
                 fill=ACCENT if applies else "currentColor")
    svg.el("rect", x=cx - 12, y=cy - 6, width=24, height=12, fill=BAD, fill_opacity=0.85)
    svg.text(cx, cy - 11, ctx.tr.gettext("enemy"), size=FONT - 1)


def _scout(ctx: Context, svg: Svg, at: Situation, cx: float, cy: float, scale: float):
    colour = OK if at.allowed else BAD
    angle = math.radians(135)
    sx, sy = cx + at.distance * scale * math.cos(angle), cy + at.distance * scale * math.sin(angle)
    svg.el("line", x1=cx, y1=cy, x2=sx, y2=sy, stroke=colour, stroke_width=2,
           stroke_dasharray=None if at.allowed else "5 3")
    svg.el("rect", x=sx - 7, y=sy - 7, width=14, height=14, fill=colour, stroke=PAGE, stroke_width=1)
    svg.text((cx + sx) / 2 - 6, (cy + sy) / 2 - 6, ctx.inches(at.distance), anchor="end", size=FONT,
             fill=colour, font_weight="bold")


def _names(ctx: Context, at: Situation, ring: float) -> str:
    return ", ".join(ctx.label("deploy_ok", "terrain", value) for value, limit in at.limits.items() if limit == ring)


def _legend(ctx: Context, at: Situation) -> list[tuple]:
    _ = ctx.tr.gettext
    entries = [(ACCENT if at.applies(ring) else "currentColor", None if at.applies(ring) else "4 3",
                f"{ctx.inches(ring)}: {_names(ctx, at, ring)}") for ring in at.rings]
    entries.append((OK if at.allowed else BAD, None, _("scout unit in its own deployment zone") if at.own else
                    _("scout unit outside its deployment zone")))
    return entries


def _desc(ctx: Context, at: Situation) -> str:
    _ = ctx.tr.gettext
    parts = [_("The scout unit stands %(dist)s from the nearest enemy unit.") % {"dist": ctx.inches(at.distance)}]
    if at.own:
        parts.append(_("It is set up in its own deployment zone, where no minimum distance applies."))
    else:
        # Named by the terrain of its ring, so examples in equivalent terrain share one diagram.
        limit = at.limits[at.terrain]
        parts.append(_("It stands in terrain where it must keep at least %(limit)s away (%(terrain)s).")
                     % {"terrain": _names(ctx, at, limit), "limit": ctx.inches(limit)})
    parts.append(_("The placement is allowed.") if at.allowed else _("The placement is not allowed."))
    return " ".join(parts)


@drawing("t9a/scout", "deploy_ok")
def scout_distance(ctx: Context, rule: Rule, example: Example) -> Optional[Drawing]:
    at = _situation(ctx, rule, example)
    if at is None:
        return None
    scale = RADIUS / (max(at.rings + [at.distance]) * 1.08)
    cx, cy = 130, 16 + RADIUS
    svg = Svg(260, 2 * RADIUS + 32 + (len(at.rings) + 1) * (FONT + 4))
    _rings(ctx, svg, at, cx, cy, scale)
    _scout(ctx, svg, at, cx, cy, scale)
    legend(svg, 12, 2 * RADIUS + 32, _legend(ctx, at))
    return Drawing(svg, _desc(ctx, at))

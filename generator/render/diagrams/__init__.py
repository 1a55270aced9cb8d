"""SVG diagrams drawn from the worked examples' own data, in the page's language.

A diagram shows exactly what an example gives its predicate (figure positions, distances, angles)
and the answer the example expects, which `generator check` and the test suite hold against the
predicate; limits drawn as reference lines are read off the predicate by probing it (probe.py).
The package: `svg` (a generic SVG kit), `probe` (reading predicates), `registry` (what a drawing
receives and returns), `drawings/` (one module per rule family, registered by rule key), and
`figures` here, which lays a predicate's diagrams out on a page.

Decision: one figure per distinct situation, not per example. Examples whose drawings are the same
picture with the same text alternative share one figure, captioned with every example it shows;
the figures sit in a collapsed <details>, so a page's length follows its rule, not its examples.
"""

from __future__ import annotations

from markupsafe import Markup

from ...evaluate import SnippetRuntimeError
from . import drawings  # importing the package registers every drawing
from .probe import Probe
from .registry import DRAWINGS, Context, Drawing
from .svg import number

__all__ = ["Context", "Probe", "drawings", "figures"]


def _drawing(ctx: Context, rule, example):
    drawer = DRAWINGS.get((rule.key, example.predicate))
    if drawer is None:
        return None
    try:
        return drawer(ctx, rule, example)
    except SnippetRuntimeError:
        return None  # the predicate no longer takes arguments of this shape: no diagram


def figures(ctx: Context, rule, predicate: str, name) -> Markup:
    """The collapsed diagrams of one predicate's examples, one figure per distinct situation, or "".

    `name(example)` gives an example's name as (HTML, plain words) in the page's language.
    """
    groups: dict[tuple, list] = {}
    for example in rule.examples:
        if example.predicate != predicate:
            continue
        drawn = _drawing(ctx, rule, example)
        if drawn is not None:
            key = (str(Markup("").join(drawn.svg.parts)), drawn.svg.width, drawn.svg.height, drawn.desc)
            groups.setdefault(key, [drawn]).append(example)
    if not groups:
        return Markup("")
    shown = [_figure(ctx, group[0], group[1:], name) for group in groups.values()]
    heading = ctx.tr.ngettext("Diagrams: %(num)s situation", "Diagrams: %(num)s situations", len(shown)) % {
        "num": len(shown)}
    return Markup('<details class="kb-diagrams" data-predicate="{}"><summary>{}</summary>'
                  '<div class="kb-diagrams__grid">{}</div></details>').format(
        predicate, heading, Markup("").join(shown))


def _figure(ctx: Context, drawn: Drawing, examples: list, name) -> Markup:
    first = examples[0]
    ident = f"diagram-{first.id}"
    items = Markup("").join(Markup('<li><a href="#example-{}">{}</a></li>').format(e.id, name(e)[0])
                            for e in examples)
    caption = Markup('<ul class="kb-diagram__examples">{}</ul>').format(items)
    title = name(first)[1]
    return Markup('<figure class="kb-diagram" id="{}">{}<figcaption style="max-width:{}px">{}</figcaption>'
                  '</figure>').format(ident, drawn.svg.markup(ident, title, drawn.desc),
                                      number(max(drawn.svg.width, 220)), caption)

"""A small SVG kit with no project knowledge: elements with escaped text and attributes, a view from
table inches to drawing units, and a legend row."""

from __future__ import annotations

import math
from typing import Optional

from markupsafe import Markup, escape


class Paint:
    """A colour of the site's palette, given per colour scheme by docs/assets/kb.css (--kb-paint-NAME): an
    element painted with it carries it as a style, so the drawing follows the light or dark scheme; the
    light scheme's colour is the fallback of a drawing shown without the stylesheet."""

    def __init__(self, name: str, light: str):
        self.css = f"var(--kb-paint-{name},{light})"


OK = Paint("ok", "#2e7d32")  # the diagrams' "yes" and "no" fills (kb.css --kb-paint-ok, --kb-paint-bad)
BAD = Paint("bad", "#c62828")
ACCENT = Paint("accent", "#ef6c00")  # the site's accent (deep orange)
PAGE = Paint("page", "#fff")  # the page's background: an outline that parts a shape from what lies under it
FONT = 12  # text size in SVG units; a unit is a CSS pixel when the figure is not scaled down


def number(value) -> str:
    """A coordinate or length for an attribute: a plain decimal, never anything else."""
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"not a finite number: {value!r}")
    text = f"{number:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def attrs(attributes: dict) -> Markup:
    """` name="value"` for each attribute given a value; `font_size` is written font-size, `class_` class;
    a Paint is written into the style attribute (`fill: var(...)`), where CSS variables work."""
    paints = {key: value for key, value in attributes.items() if isinstance(value, Paint)}
    if paints:
        attributes = {key: value for key, value in attributes.items() if key not in paints}
        attributes["style"] = ";".join(f'{key.rstrip("_").replace("_", "-")}:{paint.css}'
                                       for key, paint in paints.items())
    # escape() and one Markup, not Markup.format per attribute: a page's diagrams have thousands of attributes,
    # and format's string.Formatter was a tenth of a rule page's rendering. Names are Python keywords: no escaping.
    return Markup("".join(
        f' {key.rstrip("_").replace("_", "-")}="{number(value) if _is_number(value) else escape(str(value))}"'
        for key, value in attributes.items() if value is not None))


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class Svg:
    """An SVG drawing built element by element; text content and attribute values are escaped."""

    def __init__(self, width: float, height: float):
        self.width = width
        self.height = height
        self.parts: list[Markup] = []

    def el(self, tag: str, text: Optional[str] = None, **attributes) -> "Svg":
        """Add `<tag attributes/>`, or `<tag attributes>text</tag>` with the text escaped (unless it is Markup)."""
        if text is None:
            self.parts.append(Markup(f"<{tag}{attrs(attributes)}/>"))
        else:
            self.parts.append(Markup(f"<{tag}{attrs(attributes)}>{escape(text)}</{tag}>"))
        return self

    def text(self, x, y, words: str, anchor: str = "middle", size: float = FONT, **attributes) -> "Svg":
        attributes.setdefault("fill", "currentColor")
        return self.el("text", words, x=x, y=y, text_anchor=anchor, font_size=size, **attributes)

    def markup(self, ident: str, title: str, desc: str) -> Markup:
        return Markup('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" '
                      'role="img" aria-labelledby="{i}-title {i}-desc" class="kb-diagram__svg">'
                      '<title id="{i}-title">{t}</title><desc id="{i}-desc">{d}</desc>{body}</svg>').format(
            w=number(self.width), h=number(self.height), i=ident, t=title, d=desc,
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




def legend(svg: Svg, x: float, y: float, entries: list[tuple[str, Optional[str], str]]) -> float:
    """A column of (colour, dash, words) keys from (x, y); returns the y below it."""
    for colour, dash, words in entries:
        svg.el("line", x1=x, y1=y - 4, x2=x + 18, y2=y - 4, stroke=colour, stroke_width=3, stroke_dasharray=dash)
        svg.text(x + 22, y, words, anchor="start", size=FONT - 1)
        y += FONT + 4
    return y

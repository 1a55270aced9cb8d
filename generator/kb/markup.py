"""The small markup of rule text: cross-references, emphasis, code and language marks, rendered to escaped HTML.

A quoted word of another language is marked `[except mounts]{lang=en}` (Pandoc's bracketed span, with
the one attribute we need) and renders as `<span lang="en">except mounts</span>`, so a screen reader
pronounces it in that language; rules/README.md and the translators' guides describe it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape
from typing import Callable, Optional

from markupsafe import Markup

REFERENCE = re.compile(r"\[\[([^\[\]|]+?)(?:\|([^\[\]]+?))?\]\]")
TARGET = re.compile(r"^(?:(?P<term>term):(?P<term_id>[a-z0-9-]+)|(?P<concept>concept):(?P<concept_id>[a-z0-9-]+)"
                    r"|(?P<system>[a-z0-9-]+)/(?P<rule>[a-z0-9-]+)(?:#(?P<clause>[a-z0-9-]+))?)$")
CODE = re.compile(r"`([^`]+)`")
STRONG = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
EMPHASIS = re.compile(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])")
# A language mark holds no brackets, so it never swallows or splits a [[reference]]; the code is a BCP 47 tag.
LANG_SPAN = re.compile(r"(?<!\[)\[([^\[\]]+)\]\{lang=([A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*)\}")
# What HTML, Markdown or its attr_list would act on, as character references a browser shows as text;
# newlines too, since a new line could start a Markdown block of its own.
_TEXT_ESCAPES = {ord(c): f"&#{ord(c)};" for c in "\\`*_{}[]#|~^!&<>\"'\n\r"}
_PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%%")


@dataclass(frozen=True)
class Reference:
    """One [[target|shown text]] token found in a text."""

    token: str
    target: str
    shown: Optional[str]

    @property
    def kind(self) -> str:
        match = TARGET.match(self.target)
        if not match:
            return "invalid"
        if match.group("term"):
            return "term"
        if match.group("concept"):
            return "concept"
        return "clause" if match.group("clause") else "rule"

    @property
    def rule_key(self) -> Optional[str]:
        match = TARGET.match(self.target)
        if match and match.group("system"):
            return f"{match.group('system')}/{match.group('rule')}"
        return None

    @property
    def clause_id(self) -> Optional[str]:
        match = TARGET.match(self.target)
        return match.group("clause") if match else None

    @property
    def item_id(self) -> Optional[str]:
        match = TARGET.match(self.target)
        if not match:
            return None
        return match.group("term_id") or match.group("concept_id")


def as_text(text) -> Markup:
    """A string (a translation, a name from mkdocs.yml) that lands in a Markdown page as text, never as markup."""
    return Markup(str(text).translate(_TEXT_ESCAPES))


def pattern_as_text(pattern: str) -> Markup:
    """as_text for a message that is still to be %-formatted: its %(name)s placeholders and %% are kept."""
    parts, position = [], 0
    for match in _PLACEHOLDER.finditer(pattern):
        parts += [as_text(pattern[position:match.start()]), match.group(0)]
        position = match.end()
    return Markup("".join(parts) + as_text(pattern[position:]))


def references(text: str) -> list[Reference]:
    return [Reference(m.group(0), m.group(1).strip(), m.group(2)) for m in REFERENCE.finditer(text or "")]


def strip_markup(text: str, shown: Callable[[Reference], str] | None = None) -> str:
    """Plain words of a text: references replaced by their shown text, markup removed."""
    text = text or ""
    if "*" not in text and "`" not in text and "[" not in text:  # most texts: nothing to take out
        return text
    text = LANG_SPAN.sub(r"\1", text)
    text = REFERENCE.sub(lambda m: m.group(2) or (shown(Reference(m.group(0), m.group(1), None))
                                                 if shown else m.group(1)), text)
    text = CODE.sub(r"\1", text)
    text = STRONG.sub(r"\1", text)
    return EMPHASIS.sub(r"\1", text)


def markup_signature(text: str) -> dict[str, int]:
    """How many of each kind of markup a text holds, for comparing a translation with its source."""
    text = text or ""
    without_refs = REFERENCE.sub("", text)
    without_code = CODE.sub("", without_refs)
    without_strong = STRONG.sub("", without_code)
    return {
        "references": len(REFERENCE.findall(text)),
        "code": len(CODE.findall(without_refs)),
        "strong": len(STRONG.findall(without_code)),
        "emphasis": len(EMPHASIS.findall(without_strong)),
    }


def render_inline(text: str, link: Callable[[Reference], tuple[str, str, str]]) -> str:
    """Render text to HTML: everything escaped, then only our markup turned into tags.

    `link(reference)` returns (href, words to show, tooltip) for a reference.
    """
    parts = []
    position = 0
    for match in REFERENCE.finditer(text):
        parts.append(_inline_plain(text[position:match.start()]))
        reference = Reference(match.group(0), match.group(1).strip(), match.group(2))
        href, words, tip = link(reference)
        title = f' data-kb-tip="{escape(tip)}"' if tip else ""
        parts.append(f'<a class="kb-ref kb-ref--{reference.kind}" href="{escape(href)}"{title}>'
                     f"{_inline_plain(words)}</a>")
        position = match.end()
    parts.append(_inline_plain(text[position:]))
    return "".join(parts)


def render_unlinked(text: str, shown: Callable[[Reference], str]) -> str:
    """Render text to HTML like render_inline, but references as their words only: for text that sits
    inside a link or a form label, where a nested link is not allowed. `shown(reference)` gives the words."""
    parts = []
    position = 0
    for match in REFERENCE.finditer(text):
        parts.append(_inline_plain(text[position:match.start()]))
        reference = Reference(match.group(0), match.group(1).strip(), match.group(2))
        parts.append(_inline_plain(reference.shown or shown(reference)))
        position = match.end()
    parts.append(_inline_plain(text[position:]))
    return "".join(parts)


def language_marks(text: str) -> list[tuple[str, str]]:
    """(words, language) of every language mark in a text."""
    return [(m.group(1), m.group(2)) for m in LANG_SPAN.finditer(text or "")] if "]{lang=" in (text or "") else []


def _inline_plain(text: str) -> str:
    if "]{lang=" not in text:
        return _code_and_emphasis(text)
    pieces, position = [], 0
    for match in LANG_SPAN.finditer(text):
        pieces.append(_code_and_emphasis(text[position:match.start()]))
        pieces.append(f'<span lang="{escape(match.group(2))}">{_code_and_emphasis(match.group(1))}</span>')
        position = match.end()
    pieces.append(_code_and_emphasis(text[position:]))
    return "".join(pieces)


def _code_and_emphasis(text: str) -> str:
    pieces = []
    position = 0
    for match in CODE.finditer(text):
        pieces.append(_emphasis(escape(text[position:match.start()], quote=False)))
        pieces.append(f"<code>{escape(match.group(1), quote=False)}</code>")
        position = match.end()
    pieces.append(_emphasis(escape(text[position:], quote=False)))
    # Markdown must not reinterpret what is already HTML: neutralise its other triggers.
    return "".join(pieces).replace("_", "&#95;").replace("[", "&#91;").replace("]", "&#93;") \
        .replace("{", "&#123;").replace("}", "&#125;").replace("\\", "&#92;") \
        .replace("*", "&#42;").replace("`", "&#96;")


def _emphasis(escaped: str) -> str:
    if "*" not in escaped:
        return escaped
    escaped = STRONG.sub(r"<strong>\1</strong>", escaped)
    return EMPHASIS.sub(r"<em>\1</em>", escaped)

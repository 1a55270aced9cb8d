"""A pseudo-language built from the English catalogs (tests/pseudo.py) shows every hard-coded word: on its pages,
every word of the page's language comes bracketed and accented from a catalog, or it is a finding."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from generator.site.language_list import native_name

from .conftest import ROOT
from .pseudo import pseudo_site, vehicle

CODE = vehicle()
# Words a page may show in its own language without a catalog: names (WAP, T9A), a player's letter, units.
ALLOWED = re.compile(r"^(?:[A-Z0-9]+|[A-Z]|\d+[A-Za-z]?\d*)$")
ENGLISH_WORD = re.compile(r"[A-Za-z]*[a-z][A-Za-z]*")
UNREAD = {"script", "style", "code", "pre", "kbd", "samp", "template"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
ATTRIBUTES = ("title", "aria-label", "placeholder", "alt", "data-kb-tip")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return pseudo_site(tmp_path_factory, CODE)


def material_words(code: str) -> set[str]:
    """The words Material's own translation for `code` holds (its catalog, not ours)."""
    import material

    text = (Path(material.__file__).parent / "templates/partials/languages" / f"{code}.html").read_text(
        encoding="utf-8")
    return {word for value in re.findall(r'"[^"]*":\s*"([^"]*)"', text) for word in ENGLISH_WORD.findall(value)}


class _Texts(HTMLParser):
    """Every text and read attribute of a page, with the language of the element it stands in."""

    def __init__(self, lang: str):
        super().__init__(convert_charrefs=True)
        self.stack, self.found = [(None, lang, False)], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        _parent, lang, unread = self.stack[-1]
        lang = attrs.get("lang", lang) or lang
        unread = unread or tag in UNREAD or "kb-dev" in (attrs.get("class") or "")
        for name in ATTRIBUTES:
            if attrs.get(name) and not unread:
                self.found.append((attrs[name], lang, f"@{name}"))
        if tag not in VOID:
            self.stack.append((tag, lang, unread))

    def handle_endtag(self, tag):
        for index in range(len(self.stack) - 1, 0, -1):
            if self.stack[index][0] == tag:
                del self.stack[index:]
                break

    def handle_data(self, data):
        _tag, lang, unread = self.stack[-1]
        if not unread and data.strip():
            self.found.append((data, lang, ""))


def plain_english(text: str, allowed: set[str]) -> list[str]:
    """Words of a text that no catalog of the pseudo-language gave: plain ASCII words outside ⟦…⟧."""
    outside = re.sub(r"⟦[^⟧]*⟧?|^[^⟦]*⟧", " ", text)
    return [word for word in ENGLISH_WORD.findall(outside) if not ALLOWED.match(word) and word not in allowed]


def test_every_word_on_every_page_of_the_pseudo_language_comes_from_a_catalog(site):
    from generator.site.mkdocs_config import read_languages

    # Material's own few words (its catalog for the language) and each language's name in itself (mkdocs.yml).
    allowed = material_words(CODE) | {word for entry in read_languages(ROOT) for word in ENGLISH_WORD.findall(
        entry["name"])} | set(ENGLISH_WORD.findall(native_name(CODE)))
    pages = sorted((site / CODE).rglob("*.html"))
    assert len(pages) > 20
    found = []
    for page in pages:
        reader = _Texts(CODE)
        reader.feed(page.read_text(encoding="utf-8"))
        for text, lang, where in reader.found:
            words = plain_english(text, allowed) if lang == CODE else []
            if words:
                found.append(f"{page.relative_to(site)}{where}: {words} in {text.strip()[:70]!r}")
    assert found == [], f"{len(found)} hard-coded text(s):\n" + "\n".join(sorted(set(found))[:80])

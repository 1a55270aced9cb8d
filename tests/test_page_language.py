"""Every built page of every language, read as a reader reads it: no code names in the visible text, and every
word in another script inside an element that says its language (so a screen reader pronounces it right).

Visible text is every text node outside <head>, scripts, styles, <code>/<pre> and the developers' blocks
(<details class="kb-dev">). Text a screen reader skips (aria-hidden) needs no language, but still no code.
"""

from __future__ import annotations

import re
from .languages import LANGUAGES
from html.parser import HTMLParser
from pathlib import Path

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
UNREAD = {"head", "script", "style", "template", "code", "pre", "kbd", "samp", "textarea"}
SNAKE = re.compile(r"(?<![\w-])[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?![\w-])")
FILE = re.compile(r"(?<![\w/.-])[\w./-]*\w\.(?:ya?ml|pot?|md|py|js|json)(?![\w])")
COMMAND = re.compile(r"\b(?:generator (?:check|site|serve)|i18n \w+|make (?:test|site|serve|translations)|pytest|"
                     r"pybabel)\b")
KEBAB = re.compile(r"(?<![\w/-])[a-z0-9]+(?:[-/][a-z0-9]+)+(?![\w/-])")
LATIN_WORD = re.compile(r"[^\W_]*[A-Za-z][^\W_]*")
CYRILLIC_WORD = re.compile(r"[^\W_]*[\u0400-\u04ff][^\W_]*")
ROMAN = re.compile(r"[IVXLCM]{2,}")


class _Reader(HTMLParser):
    """The page's text nodes a reader meets, each with the language of its nearest element that states one."""

    def __init__(self, page_lang: str):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, str | None, bool, bool]] = []  # tag, lang, unread, aria-hidden
        self.page_lang = page_lang
        self.texts: list[tuple[str, str, bool]] = []  # text, its language, whether a screen reader reads it

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        attrs = dict(attrs)
        unread = (tag in UNREAD or "hidden" in attrs
                  or (tag == "details" and "kb-dev" in (attrs.get("class") or "").split()))
        self.stack.append((tag, attrs.get("lang"), unread, attrs.get("aria-hidden") == "true"))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        if not data.strip() or any(unread for _tag, _lang, unread, _hidden in self.stack):
            return
        lang = next((lang for _tag, lang, _unread, _hidden in reversed(self.stack) if lang), self.page_lang)
        self.texts.append((data, lang, not any(hidden for *_rest, hidden in self.stack)))


def _pages(site: Path, lang: str) -> list[Path]:
    return sorted(path for path in (site / lang).rglob("*.html"))


def _read(path: Path, lang: str) -> list[tuple[str, str, bool]]:
    reader = _Reader(lang)
    reader.feed(path.read_text(encoding="utf-8"))
    return reader.texts


def foreign(text: str, page_script: str) -> list[str]:
    if page_script == "latin":
        return CYRILLIC_WORD.findall(text)
    # A single Latin letter is a symbol (a player A, a coordinate x), a run of capitals I, V, X a numeral.
    return [word for word in LATIN_WORD.findall(text) if len(word) > 1 and not ROMAN.fullmatch(word)]


def test_no_page_shows_a_code_name_outside_code_and_the_developers_blocks(site, kb):
    known = {key for key in kb.rules} | {value for rule in kb.rules.values() for predicate in rule.predicates
                                         for argument in predicate.args for value in (argument.values or [])
                                         if isinstance(value, str) and value.count("-") >= 2}
    found = []
    for lang in LANGUAGES:
        for path in _pages(site, lang):
            for text, _lang, _read_aloud in _read(path, lang):
                names = SNAKE.findall(text) + FILE.findall(text) + COMMAND.findall(text)
                names += [word for word in KEBAB.findall(text) if word in known]
                found += [f"{path.relative_to(site)}: {name!r} in {text.strip()[:80]!r}" for name in names]
    assert found == [], "\n".join(found)


def _unmarked(site: Path, lang: str):
    """(page, text) of every text a screen reader reads in the page's own language."""
    for path in _pages(site, lang):
        for text, text_lang, read_aloud in _read(path, lang):
            if read_aloud and text_lang.split("-")[0] == lang:
                yield path, text


def test_every_word_in_another_script_sits_in_an_element_that_says_its_language(site):
    found = []
    for lang in LANGUAGES:
        script = "cyrillic" if lang == "ru" else "latin"
        for path, text in _unmarked(site, lang):
            words = foreign(text, script)
            found += [f"{path.relative_to(site)}: {words} in {text.strip()[:80]!r}"] if words else []
    assert found == [], "\n".join(found)


def test_the_reader_finds_unmarked_words_and_skips_code_marked_words_and_the_developers_block():
    page = ('<html lang="ru"><head><title>WAP</title></head><body><p>Оговорка «except» и '
            '<span lang="en">mounts</span> <code>ward_save</code></p><details class="kb-dev"><p>dice_roll WS</p>'
            '</details><span aria-hidden="true">mm</span><p>flee_test</p></body></html>')
    reader = _Reader("ru")
    reader.feed(page)
    texts = [(text.strip(), lang, aloud) for text, lang, aloud in reader.texts if text.strip()]
    assert texts == [("Оговорка «except» и", "ru", True), ("mounts", "en", True), ("mm", "ru", False),
                     ("flee_test", "ru", True)]
    assert foreign("Оговорка «except» и игрок A, том II", "cyrillic") == ["except"]
    assert foreign("the Russian «отряд»", "latin") == ["отряд"]

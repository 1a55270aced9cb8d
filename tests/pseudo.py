"""A pseudo-language made from the English texts: every letter accented, each text bracketed ⟦…⟧ and made about
40 % longer. Built into a copy of the repository, it shows at a glance any words a page holds that no catalog
gave (they stay plain English) and any layout a longer language would break."""

from __future__ import annotations

import re
from pathlib import Path

# The pseudo-language rides on a language code that Babel (plural rules, numbers) and Material (its own few words)
# both know, which the site does not configure: the first of these that mkdocs.yml lacks.
VEHICLES = ("eo", "sa")


def vehicle() -> str:
    """The code the pseudo-language is built under in this checkout."""
    from .languages import LANGUAGES

    return next(code for code in VEHICLES if code not in LANGUAGES)


GROWTH = 0.4  # how much longer than the English each text is made: translations run 30-40 % longer than English
OPEN, CLOSE = "⟦", "⟧"
_ACCENTED = dict(zip("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
                     "áƀçðéƒĝĥíĵķļɱñóþǫŕšţúṽŵẋýžÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ"))
_PADDING = ("ŵúñ", "ðóš", "ţŕéš", "ǫúáţŕé", "çíñǫ", "šíẋ", "šéþţ", "ĥúíţ")
# What must reach the page unchanged: placeholders, {value}, a reference's target, code spans, HTML and URLs.
_KEPT = re.compile(r"%\(\w+\)[sd]|%%|\{\w+\}|\[\[[^\]|]*\|?|\]\]|`[^`]*`|<[^>]*>|&\w+;|https?://\S+")


def pseudo(text: str) -> str:
    """The pseudo-language's version of one English text."""
    if not text:
        return text
    parts, last = [], 0
    for match in _KEPT.finditer(text):
        parts.append("".join(_ACCENTED.get(char, char) for char in text[last:match.start()]))
        parts.append(match.group())
        last = match.end()
    parts.append("".join(_ACCENTED.get(char, char) for char in text[last:]))
    body = "".join(parts)
    padding, index = "", 0
    while len(padding) < GROWTH * len(text) - 2:
        padding += " " + _PADDING[index % len(_PADDING)]
        index += 1
    # Inside a trailing newline or Markdown line end, not after it.
    stripped = body.rstrip("\n")
    return OPEN + stripped + padding + CLOSE + body[len(stripped):]


def write_pseudo_catalogs(repo: Path, code: str) -> int:
    """Fill every catalog `i18n init code` made in `repo` with the pseudo-language: a text with an English source
    from its msgid, a text with another source from the English catalog's translation. Returns the messages
    filled."""
    from babel.messages.pofile import read_po

    from generator.i18n.po.writer import render_catalog

    filled = 0
    for path in sorted((repo / "translations" / code).rglob("*.po")):
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=code)
        english = _english(repo, path.relative_to(repo / "translations" / code))
        for message in catalog:
            if not message.id:
                continue
            if isinstance(message.id, (tuple, list)):
                message.string = tuple(pseudo(message.id[min(index, 1)]) for index in range(catalog.num_plurals))
            else:
                source = english.get(message.context, message.id) if _russian(message) else message.id
                message.string = pseudo(source)
            message.flags.discard("fuzzy")
            filled += 1
        path.write_bytes(render_catalog(catalog))
    return filled


def _russian(message) -> bool:
    return any(comment == "source language: ru" for comment in message.auto_comments)


def _english(repo: Path, relative: Path) -> dict:
    """context → the English catalog's translation, for the same catalog."""
    from babel.messages.pofile import read_po

    path = repo / "translations" / "en" / relative
    if not path.is_file():
        return {}
    with path.open("rb") as handle:
        return {message.context: message.string for message in read_po(handle, locale="en")
                if message.id and message.string and not message.fuzzy}


def pseudo_site(tmp_path_factory, code: str) -> Path:
    """The site of a copy of the repository with the pseudo-language added as `code`: built once per test run
    (without a search index: the pages are under test), for the catalog test and the phone test alike."""
    from .conftest import ROOT, run_generator, shared

    def make(folder: Path) -> None:
        from generator.site.build import build_site
        from generator.site.inputs import copy_inputs

        repo = copy_inputs(ROOT, folder / "repo")
        made = run_generator(repo, "i18n", "init", code)
        assert made.returncode == 0, made.stderr
        assert write_pseudo_catalogs(repo, code) > 1000
        build_site(repo, folder / "site", quiet=True, search=False)

    return shared(tmp_path_factory, f"pseudo-{code}", make) / "site"

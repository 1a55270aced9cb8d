"""The catalog writer writes exactly what Babel's write_po writes, only faster."""

from __future__ import annotations

import io
import random

from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from generator.i18n.writer import LINE_WIDTH, STABLE_DATE, new_catalog, po_text

# Pieces that make Babel's wrapping take every path: words, hyphens, em-dashes, escapes, line breaks,
# whitespace that textwrap turns into spaces, Unicode spaces, and words longer than a line.
PIECES = ["word", "Уклонение", "a-b", "well-known", "--", "x--y", '"', "\\", "\t", "\n", "\r", "\u00a0",
          "\u2028", "\x0b", " ", "  ", "[[wap/dodge#placement|placement]]", "%(num)s", "«кавычки»",
          "a" * 90, "-" * 5, "end.", "¾", ""]


WORDS = [piece for piece in PIECES if "--" not in piece and not any(c in piece for c in "\t\n\r\x0b")]


def _words(rng: random.Random, longest: int) -> str:
    """A text with no double hyphen, tab or line break: the kind of comment wrapped without textwrap."""
    return "".join(rng.choice(WORDS) + rng.choice([" ", "  ", "\u00a0", ""]) for _ in range(rng.randrange(longest)))


def _text(rng: random.Random, longest: int) -> str:
    return "".join(rng.choice(PIECES) + rng.choice(["", " "]) for _ in range(rng.randrange(longest)))


def _catalog(rng: random.Random) -> Catalog:
    catalog = new_catalog("ru", "rules/wap/dodge")
    for number in range(40):
        plural = rng.random() < 0.15
        msgid = (f"one {number}", _text(rng, 30)) if plural else f"{number} " + _text(rng, 60)
        string = tuple(_text(rng, 40) for _ in range(rng.randrange(1, 4))) if plural else _text(rng, 60)
        around_the_width = "w" * rng.randrange(LINE_WIDTH - 4, LINE_WIDTH + 2) + " end"
        comments = [_text(rng, 25) for _ in range(rng.randrange(3))] + [f"page: /ru/wap/dodge/#example-{'x-' * 30}",
                                                                       around_the_width[-rng.randrange(70, 84):],
                                                                       _words(rng, 50), " " + _words(rng, 30)]
        locations = [(rng.choice(["rules/wap/dodge.yaml", "rules/my rules/a b.yaml", "code.py"]),
                      rng.choice([None, 0, 3, 12])) for _ in range(rng.randrange(3))]
        flags = rng.sample(["fuzzy", "python-format", "no-wrap"], rng.randrange(3))
        catalog.add(msgid, string, locations=locations, flags=flags, auto_comments=comments,
                    user_comments=[_text(rng, 8) for _ in range(rng.randrange(2))],
                    context=f"wap/dodge:clause:c{number}" + ("-" + _text(rng, 20) if rng.random() < 0.1 else ""))
    for number in range(rng.randrange(4)):
        old = Catalog(locale="ru")
        message = old.add(f"gone {number} " + _text(rng, 40), _text(rng, 40), context=f"wap/dodge:gone:{number}",
                          user_comments=[_text(rng, 10)])
        catalog.obsolete[message.context] = message
    return catalog


def _babel(catalog: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=LINE_WIDTH, include_previous=False, ignore_obsolete=False, sort_output=False)
    return buffer.getvalue()


def test_the_po_text_is_byte_for_byte_what_babel_writes_for_every_kind_of_text():
    rng = random.Random(13)
    for _round in range(60):
        catalog = _catalog(rng)
        assert po_text(catalog, list(catalog)).encode("utf-8", "backslashreplace") == _babel(catalog)


def test_an_empty_catalog_and_its_header_are_written_as_babel_writes_them():
    catalog = new_catalog("ru", "ui")
    assert catalog.creation_date == STABLE_DATE
    assert po_text(catalog, list(catalog)).encode("utf-8") == _babel(catalog)

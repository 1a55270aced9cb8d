"""The catalog writer: Babel's layout byte for byte, plus the previous msgids GNU gettext writes."""

import io
import random
from pathlib import Path

from babel.messages.catalog import Message
from babel.messages.pofile import normalize as babel_normalize
from babel.messages.pofile import write_po
from babel.util import TextWrapper

from generator.i18n.po.reader import read_catalog
from generator.i18n.po.writer import LINE_WIDTH, new_catalog, normalize, render_catalog

ROOT = Path(__file__).resolve().parents[1]
# Pieces that decide where Babel breaks a line: spaces of every kind, hyphenated words, dashes after
# punctuation, characters written escaped, words longer than a line, Cyrillic, line separators.
PIECES = list("abc xyz--\"\\\t\r\n\u00a0\u2028 .,!?'&") + ["word", "long" * 30, "при", "«", "»", " -- ", "a-b",
                                                           "well-known", "x\x0c", "\u2068f g.yaml\u2069"]


def _text(rng: random.Random, most: int = 60) -> str:
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(0, most)))


def _babel_bytes(catalog) -> bytes:
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=LINE_WIDTH, include_previous=False, ignore_obsolete=False, sort_output=False)
    return buffer.getvalue()


def test_normalize_breaks_every_text_where_babel_breaks_it():
    rng = random.Random(5)
    for _ in range(600):
        text = _text(rng)
        for prefix in ("", "#~ "):
            for width in (LINE_WIDTH, LINE_WIDTH - 4, 20):
                assert normalize(text, prefix, width) == babel_normalize(text, prefix, width), (text, prefix, width)


def test_a_text_of_words_and_plain_spaces_is_broken_where_babel_breaks_it():
    # No escaped character, hyphen or other white space: the writer finds the breaks by position.
    rng = random.Random(3)
    pieces = [" ", "  ", "a", "word", "при", ".", "«»", "x" * 20, "y" * 76, "z" * 77, "long" * 30]
    for _ in range(200):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 30)))
        for width in (LINE_WIDTH, LINE_WIDTH - 4, 20, 5):
            assert normalize(text, "", width) == babel_normalize(text, "", width), (text, width)


def test_a_long_comment_is_broken_into_the_lines_babels_wrapper_makes():
    wrapper = TextWrapper(width=LINE_WIDTH, break_long_words=False)
    rng = random.Random(1)
    pieces = [" ", "  ", "a", "word", "x" * 85, "y" * 40, "при", ".", "-", "«»", "rules/x/y.yaml:3"]
    for _ in range(1000):
        comment = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 60)))
        catalog = new_catalog("ru", "rules/x/y")
        catalog.add("id", "", auto_comments=[comment], user_comments=[comment])
        written = render_catalog(catalog).decode("utf-8").split("\n\n")[1]
        lines = [line.strip() for line in wrapper.wrap(comment)]
        assert written.startswith("".join(f"# {line}\n" for line in lines) + "".join(f"#. {line}\n" for line in lines))


def test_a_catalog_of_hostile_texts_is_written_as_babels_write_po_writes_it():
    rng = random.Random(7)
    for _ in range(60):
        catalog = new_catalog("ru", "rules/x/y")
        for number in range(4):
            catalog.add(_text(rng) or f"id{number}", _text(rng), context=_text(rng, 20) or None,
                        locations=[(_text(rng, 8) or "f.yaml", rng.choice([0, 3, None]))],
                        flags=rng.choice([[], ["fuzzy"], ["fuzzy", "python-format"]]),
                        auto_comments=[_text(rng), _text(rng)], user_comments=[_text(rng)])
        catalog.add(("one %d", "many %d"), ("a", "b", "c"), context="plural")
        catalog.obsolete["gone"] = Message(_text(rng) or "gone", _text(rng), context="gone", user_comments=[_text(rng)])
        assert render_catalog(catalog) == _babel_bytes(catalog)


def test_every_catalog_in_the_repository_is_written_back_byte_for_byte():
    catalogs = sorted((ROOT / "translations").glob("*/**/*.po"))
    assert len(catalogs) > 20
    for path in catalogs:
        assert render_catalog(read_catalog(path, path.relative_to(ROOT / "translations").parts[0])) == path.read_bytes()


def test_a_changed_message_and_an_obsolete_one_keep_their_previous_msgid_as_gnu_gettext_writes_it():
    catalog = new_catalog("ru", "rules/x/y")
    catalog.add("Run fast now", "Бегите", context="x/y:a", flags=["fuzzy"], previous_id=("Run " + "fast " * 20,))
    catalog.obsolete["x/y:b"] = Message("Old text", "Старый", context="x/y:b", flags=["fuzzy"],
                                        previous_id=("Older text",))
    written = render_catalog(catalog).decode("utf-8")
    assert ('#, fuzzy\n#| msgid ""\n#| "Run fast fast fast fast fast fast fast fast fast fast fast fast fast "\n'
            '#| "fast fast fast fast fast fast fast "\nmsgctxt "x/y:a"\nmsgid "Run fast now"\nmsgstr "Бегите"\n') in written
    assert '#, fuzzy\n#~| msgid "Older text"\n#~ msgctxt "x/y:b"\n#~ msgid "Old text"\n#~ msgstr "Старый"\n' in written

"""Reading a catalog for updating: the strict scanner's reading, held in Babel's Catalog as read_po would hold it."""

import random

import pytest
from babel.messages.catalog import Message

from generator.i18n.po.pofile import CatalogError
from generator.i18n.po.reader import _read_with_babel, read_catalog
from generator.i18n.po.writer import new_catalog, render_catalog

# Pieces of texts and of hand edits: comment markers, location-like words, quotes, escapes, Cyrillic.
PIECES = list("abc xyz--\"\\\t\r\n\u00a0 .,!?'&|:#~") + ["word", "long" * 30, "при", "a-b", "f.yaml:3", "x:y"]
EDITS = ["# note", "#. auto", "#: a.yaml:1 b:c", "#, fuzzy,", "#", "#|x", '"cont"', 'msgstr "z"', '#~ msgid "q"', "# | bar"]


def _fields(catalog) -> list:
    """Everything an update or a review reads from a catalog, header included."""
    header = [(tuple(catalog.mime_headers), catalog.fuzzy, catalog.header_comment, catalog.num_plurals)]
    return header + [(obsolete, m.id, m.string, m.context, sorted(m.flags), m.user_comments, m.auto_comments,
                      m.locations, m.previous_id, m.lineno)
                     for obsolete, messages in ((False, catalog), (True, catalog.obsolete.values()))
                     for m in messages]


def _hand_edited_catalog(rng: random.Random) -> bytes:
    def text(most=30):
        return "".join(rng.choice(PIECES) for _ in range(rng.randint(0, most)))

    catalog = new_catalog("ru", "rules/x/y")
    for number in range(4):
        catalog.add(text() or f"id{number}", text(), context=text(10) or None,
                    locations=[(text(8) or "f.yaml", rng.choice([0, 3, None]))],
                    flags=rng.choice([[], ["fuzzy"], ["fuzzy", "python-format"]]), auto_comments=[text()],
                    user_comments=[text(), "| x"], previous_id=rng.choice([(), (text(),)]))
    catalog.obsolete["gone"] = Message(text() or "gone", text(), context="gone", flags=rng.choice([[], ["fuzzy"]]),
                                       previous_id=rng.choice([(), (text(),)]))
    catalog.add(("one %d", "many %d"), ("a", "b", "c"), context="plural")
    lines = render_catalog(catalog).decode("utf-8").split("\n")
    for _ in range(rng.randint(0, 3)):  # what a translator's editor or a careless merge might leave
        place, edit = rng.randrange(len(lines)), rng.random()
        if edit < 0.4:
            lines.insert(place, rng.choice(EDITS))
        elif edit < 0.7:
            del lines[place]
        else:
            lines[place] = f"  {lines[place]}  "
    return "\n".join(lines).encode("utf-8")


def test_a_hand_edited_catalog_reads_as_babels_read_po_reads_it_or_is_refused_with_its_problems():
    rng, compared = random.Random(3), 0
    for _ in range(200):
        data = _hand_edited_catalog(rng)
        try:
            ours = read_catalog("t.po", "ru", data=data)
        except CatalogError as error:
            assert error.problems and all(line >= 0 for line, _message, _hint in error.problems)
            continue
        assert _fields(ours) == _fields(_read_with_babel("t.po", "ru", data))
        compared += 1
    assert compared > 120  # most edits leave a readable catalog, and those are compared


def test_a_catalog_read_and_written_again_is_the_same_file():
    rng = random.Random(11)
    for _ in range(100):
        catalog = new_catalog("ru", "rules/x/y")
        catalog.add("Run" * rng.randint(1, 40), "Бег " * rng.randint(0, 30), context="x/y:a",
                    flags=["fuzzy"], previous_id=("Walk " * rng.randint(1, 30),), auto_comments=["page: /ru/x/y/"],
                    locations=[("rules/x/y.yaml", 3)], user_comments=["checked"])
        data = render_catalog(catalog)
        assert render_catalog(read_catalog("t.po", "ru", data=data)) == data


def test_a_catalog_read_from_the_disk_cache_is_the_catalog_read_from_its_text(tmp_path, monkeypatch):
    from generator.core import cache
    from generator.i18n.po import reader

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("KB_NO_CACHE", raising=False)
    rng, read = random.Random(5), {}
    for _ in range(200):
        data = _hand_edited_catalog(rng)
        try:
            if reader.catalog_messages("t.po", "ru", data=data) is not None:  # else Babel's read_po reads it
                read[data] = _fields(read_catalog("t.po", "ru", data=data))
        except CatalogError:
            continue
    cache.forget()  # the next readings come from the pack, as in a new process
    monkeypatch.setattr(reader, "scan", lambda *args, **kwargs: pytest.fail("scanned again"))
    try:
        for data, fields in read.items():
            assert _fields(read_catalog("t.po", "ru", data=data)) == fields
    finally:
        cache.forget()
    assert len(read) > 10  # most hand-edited catalogs hold a file name with spaces, or a problem

"""An update's merge keeps every translation: kept, marked fuzzy with what it was made for, or made obsolete."""

from __future__ import annotations

from generator.i18n.po.merge import SourceMessage, merge
from generator.i18n.po.reader import read_catalog
from generator.i18n.po.writer import render_catalog


def source(key: str, text: str) -> SourceMessage:
    return SourceMessage("rules/x/y", key, text, "en", ["x/y · a text"], [("rules/x/y.yaml", 3)])


def test_a_changed_source_keeps_its_translation_fuzzy_with_the_old_text_and_a_gone_one_goes_obsolete(tmp_path):
    first, _counts = merge("ru", "rules/x/y", [source("x/y:a", "Run"), source("x/y:b", "Hide")], None)
    first.get("Run", context="x/y:a").string = "Бег"
    first.get("Hide", context="x/y:b").string = "Прятаться"
    path = tmp_path / "y.po"
    path.write_bytes(render_catalog(first))
    second, counts = merge("ru", "rules/x/y", [source("x/y:a", "Run fast")], read_catalog(path, "ru"))
    assert (counts.kept, counts.fuzzied, counts.obsoleted) == (0, 1, 1)
    text = render_catalog(second).decode()
    assert '#| msgid "Run"\nmsgctxt "x/y:a"\nmsgid "Run fast"\nmsgstr "Бег"' in text
    assert '#~ msgctxt "x/y:b"\n#~ msgid "Hide"\n#~ msgstr "Прятаться"' in text


def test_rendering_what_was_read_gives_the_same_bytes(tmp_path):
    catalog, _counts = merge("ru", "rules/x/y", [source("x/y:a", "Run " * 40)], None)
    catalog.get("Run " * 40, context="x/y:a").string = "Бег"
    path = tmp_path / "y.po"
    path.write_bytes(render_catalog(catalog))
    assert render_catalog(read_catalog(path, "ru")) == path.read_bytes()

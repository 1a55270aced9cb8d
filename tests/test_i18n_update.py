"""`i18n update` from the disk cache gives exactly what merging again gives, and never a stale memory's answer."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from generator.core import cache
from generator.i18n.po.merge import SourceMessage, merge
from generator.i18n.po.writer import render_catalog
from generator.i18n.update import _source_key, _updated


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("KB_NO_CACHE", raising=False)
    yield
    cache.forget()  # this process's entries go to this test's folder now, not at exit


class Memory:
    """A translation memory that suggests one fixed translation and counts the questions."""

    def __init__(self, translation: str):
        self.translation, self.asked = translation, 0

    def suggest(self, _source: str, _source_lang: str = "en"):
        self.asked += 1
        return SimpleNamespace(translation=self.translation, fuzzy=True, comment="", previous=None)


def sources(*texts: str) -> list[SourceMessage]:
    return [SourceMessage("rules/x/y", f"x/y:{n}", text, "en", [], [("rules/x/y.yaml", n + 1)])
            for n, text in enumerate(texts)]


def updated(path, before, messages: list[SourceMessage], memory):
    """rules/x/y's Russian catalog updated as plan_update updates it."""
    return _updated(path, "ru", "rules/x/y", before, messages, _source_key(messages), memory)


def test_an_unchanged_catalog_is_answered_from_the_cache_with_the_same_bytes(tmp_path, cache_home):
    catalog, _counts = merge("ru", "rules/x/y", sources("Run"), None)
    catalog.get("Run", context="x/y:0").string = "Бег"
    before = render_catalog(catalog)
    path = tmp_path / "y.po"
    path.write_bytes(before)
    first = updated(path, before, sources("Run"), Memory("?"))
    path.unlink()  # a second answer that read the file again would fail
    assert updated(path, before, sources("Run"), Memory("?")) == first
    assert first[0] is None and first[1]["kept"] == 1  # None: the file's own bytes, nothing to write


def test_a_new_message_is_filled_from_the_memory_of_now_not_from_a_cached_answer(tmp_path, cache_home):
    path = tmp_path / "y.po"
    old_memory, new_memory = Memory("Старое"), Memory("Новое")
    first, _counts = updated(path, None, sources("Run"), old_memory)
    second, _counts = updated(path, None, sources("Run"), new_memory)
    assert "Старое" in first.decode() and "Новое" in second.decode()
    assert new_memory.asked == 1

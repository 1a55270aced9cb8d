"""A catalog's translation checks from the disk cache equal the checks made afresh, and follow the glossary."""

from __future__ import annotations

import pytest

from generator.core import cache
from generator.i18n.checks import message_issues
from generator.i18n.glossary import Glossary, Term

TEXTS = (("Roll 2D6 for each character.", "Бросьте 2К6 за каждого персонажа.", "en"),
         ("A [[wap/dodge]] save of 5+.", "Спасбросок [[wap/dodge]] 4+.", "en"))


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("KB_NO_CACHE", raising=False)
    yield
    cache.forget()  # this process's entries go to this test's folder now, not at exit


def test_cached_checks_equal_fresh_ones_and_a_changed_glossary_is_checked_again(cache_home, monkeypatch):
    glossary = Glossary([Term("character", "герой")])
    first = message_issues(TEXTS, "ru", glossary)
    assert message_issues(TEXTS, "ru", glossary) == first
    monkeypatch.setenv("KB_NO_CACHE", "1")
    assert message_issues(TEXTS, "ru", glossary) == first
    assert any("glossary" in issue for issue in first[0]) and any("5" in issue for issue in first[1])
    monkeypatch.delenv("KB_NO_CACHE")
    assert message_issues(TEXTS, "ru", Glossary([Term("character", "персонаж")]))[0] == []

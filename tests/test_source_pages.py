"""Page references of the Russian-source rules follow the page markers of their source text."""

from __future__ import annotations

import re

from .conftest import SEEDS, needs_shared

SEED = SEEDS / "004_96868c7293e293b2.txt"  # the Russian T9A rulebook pages
PAGE_MARKER = re.compile(r"^Страница (\d+)$")


def closing_page(lines: list[str], heading: str) -> int | None:
    """The page a heading sits on: each «Страница N» line closes page N, so the first one after it."""
    wanted = heading.casefold().replace("ё", "е")
    start = next((i for i, line in enumerate(lines) if line.strip().casefold().replace("ё", "е") == wanted), None)
    if start is None:
        return None
    for line in lines[start:]:
        marker = PAGE_MARKER.match(line.strip())
        if marker:
            return int(marker.group(1))
    return None


def test_a_heading_is_on_the_page_whose_marker_follows_it():
    lines = ["Первое", "текст", "Страница 98", "Второе", "текст", "Рисунок", "Страница 99"]
    assert closing_page(lines, "Первое") == 98
    assert closing_page(lines, "второе") == 99
    assert closing_page(lines, "Третье") is None


@needs_shared
def test_every_t9a_rule_cites_the_page_its_heading_is_on(kb):
    lines = SEED.read_text(encoding="utf-8").splitlines()
    checked = 0
    for key, rule in kb.rules.items():
        if not key.startswith("t9a/"):
            continue
        names = [rule.title] + [alias.name for alias in rule.aliases if alias.lang == "ru"]
        pages = {closing_page(lines, name) for name in names} - {None}
        assert len(pages) == 1, f"{key}: no single heading of {names} found in the seed"
        cited = [rule.source.page] if rule.source.page is not None else rule.source.pages
        assert cited == sorted(pages), f"{key}: cites {cited}, but its heading is on page {pages.pop()}"
        checked += 1
    assert checked == 3

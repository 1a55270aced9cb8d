"""The quick check's one browser test (`make check`): a rule page as a reader's browser shows it, in both languages.

The rest of tests/browser/ runs in `make test-browser`; this one tells a translator or a rules editor within the quick
check that the pages still draw, answer and switch language."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .test_ask import answer, ask_scout_placement, verdict
from .test_pages import switch_language


@pytest.mark.smoke
def test_a_rule_page_draws_answers_its_ask_panel_and_switches_to_the_same_page_in_the_other_language(page, base_url):
    form = ask_scout_placement(page, base_url, "11,9", "Лес")
    expect(page.locator("h1")).to_have_text(re.compile(r"^Разведчик"))
    expect(verdict(form)).to_have_text("Нельзя")
    expect(answer(form).locator(".kb-ask__clause a")).to_have_text("§4")
    switch_language(page, "en")
    page.wait_for_url(re.compile(r"/en/t9a/scout/"))
    expect(page.locator("h1")).to_have_text(re.compile(r"^Scout"))
    expect(page.locator("form.kb-ask").first).to_be_visible()

"""A site built with a payload in every translation and mkdocs.yml string runs none of them in Chromium."""

from __future__ import annotations

from .conftest import DESKTOP, Guard, _check, _new_page, idle

# The root chooser, the 404 page, and one page of each kind in both languages (rule pages with diagrams,
# predicates, clarifications, see-also and back-links).
SAMPLE = ("", "en/404.html", "ru/404.html", "ru/", "ru/wap/dodge/", "ru/t9a/light-infantry/", "ru/a-z/",
          "ru/glossary/", "ru/clarifications/", "ru/status/", "ru/concepts/loose-formation/", "ru/wap/",
          "en/t9a/scout/", "en/")


# What a theme script could turn into a tooltip: headings, the header, anything with a title; the first five of each.
HOVERED = ("h1", "h2", ".md-header__title", ".md-logo", ".md-header .md-select", "[title]", ".md-nav__link", "a.kb-ref")
# [selector, index, centre] of the first five matches of each selector that Playwright would call visible (a box, and
# not visibility: hidden), found in one call: asking Playwright about each, then hover(), took half of this test's
# time. `centre` is where the mouse goes if it is in the window now, else null (the element must be scrolled to).
VISIBLE = """selectors => selectors.flatMap(selector => [...document.querySelectorAll(selector)].slice(0, 5).map(
    (element, index) => {
        const box = element.getBoundingClientRect();
        const shown = getComputedStyle(element).visibility !== "hidden" && box.width > 0 && box.height > 0;
        const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
        const inside = x >= 0 && y >= 0 && x < window.innerWidth && y < window.innerHeight;
        return shown ? [selector, index, inside ? [x, y] : null] : null;
    }).filter(Boolean))"""
# Where hover(force=True) moves the mouse: the element's centre once scrolled into view, whatever covers it.
CENTRE = """([selector, index]) => {
    const element = document.querySelectorAll(selector)[index];
    element.scrollIntoView({block: "center", inline: "center"});
    const box = element.getBoundingClientRect();
    return [box.x + box.width / 2, box.y + box.height / 2];
}"""


def test_no_planted_payload_opens_a_dialog_on_load_focus_or_hover(browser, hostile_url):
    guard = Guard()
    context, page = _new_page(browser, DESKTOP, guard)
    dialogs: list[str] = []

    def dismiss(dialog):
        dialogs.append(f"{page.url}: {dialog.type} {dialog.message!r}")
        dialog.dismiss()

    page.on("dialog", dismiss)
    try:
        for path in SAMPLE:
            page.goto(hostile_url + path, wait_until="load")
            for _ in range(4):  # autofocus/onfocus payloads fire on focus
                page.keyboard.press("Tab")
            # Hover what a theme script could turn into a tooltip: headings, the header, anything with a title. Those in
            # the window first, where they are (one call each); then each of the others, scrolled to.
            targets = page.evaluate(VISIBLE, HOVERED)
            for _selector, _index, centre in targets:
                if centre:
                    page.mouse.move(*centre)
            for selector, index, centre in targets:
                if not centre:
                    page.mouse.move(*page.evaluate(CENTRE, [selector, index]))
            idle(page)  # what the hovers and focus set off has run
    finally:
        context.close()
    assert not dialogs, "\n".join(dialogs)
    _check(guard)

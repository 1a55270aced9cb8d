"""On a 390 px phone, the pseudo-language's longer words (tests/pseudo.py: about 40 % longer than English) push
nothing off the page and hide no control, on a sample of the page types."""

from __future__ import annotations

import pytest

from ..pseudo import pseudo_site, vehicle
from .conftest import serve_site

CODE = vehicle()
# One page of each kind: a rule with an Ask panel and a diagram, a system, the lists, the status page, the 404.
PAGES = ("t9a/scout/", "wap/skirmishers/", "wap/", "a-z/", "glossary/", "status/", "", "404.html")

LAYOUT = """() => {
  const width = document.documentElement.clientWidth, problems = [];
  if (document.documentElement.scrollWidth > width + 1)
    problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px for ${width}`);
  const scrolls = e => { for (let p = e.parentElement; p; p = p.parentElement) {
      const x = getComputedStyle(p).overflowX; if (x === 'auto' || x === 'scroll') return true; } return false; };
  const name = e => `${e.tagName.toLowerCase()}${e.className && typeof e.className === 'string' ?
      '.' + e.className.trim().split(/\\s+/)[0] : ''} «${(e.textContent || e.value || e.getAttribute('aria-label')
      || '').trim().slice(0, 40)}»`;
  for (const e of document.querySelectorAll('a[href], button, input, select, summary, label')) {
    const box = e.getBoundingClientRect(), style = getComputedStyle(e);
    // Not under test: what is invisible until focused (the skip link), drawers closed off-screen, scrolled tables.
    if (!box.width || !box.height || style.visibility === 'hidden' || style.opacity === '0' ||
        e.closest('[hidden], .md-sidebar, ' +
        '.md-search, .md-nav, .kb-sr-only') || scrolls(e)) continue;
    if (box.left < -1 || box.right > width + 1) problems.push(`${name(e)} reaches ${Math.round(box.left)}…` +
        `${Math.round(box.right)} px, outside the ${width} px page`);
    if (style.overflow !== 'visible' && e.scrollWidth > e.clientWidth + 1 && style.textOverflow !== 'ellipsis' &&
        e.tagName !== 'INPUT' && e.tagName !== 'SELECT')
      problems.push(`${name(e)} cuts its words: ${e.scrollWidth} px in ${e.clientWidth}`);
    if (box.top >= 0 && box.bottom <= innerHeight) {
      const x = Math.min(Math.max(box.left + box.width / 2, 0), width - 1), y = box.top + box.height / 2;
      const top = document.elementFromPoint(x, y);
      if (top && top !== e && !e.contains(top) && !top.contains(e) && !(e.control && e.control === top))
        problems.push(`${name(e)} is covered by ${name(top)}`);
    }
  }
  return problems;
}"""


@pytest.fixture(scope="module")
def pseudo_url(tmp_path_factory):
    for served in serve_site(pseudo_site(tmp_path_factory, CODE)):
        yield served.address


def test_the_longer_pseudo_language_pushes_nothing_off_a_phone_screen_and_hides_no_control(phone, pseudo_url, shot):
    found = []
    for path in PAGES:
        phone.goto(f"{pseudo_url}{CODE}/{path}")
        phone.wait_for_load_state("load")
        assert "⟦" in phone.locator("body").inner_text(), f"/{CODE}/{path} is not in the pseudo-language"
        found += [f"/{CODE}/{path}: {problem}" for problem in phone.evaluate(LAYOUT)]
        if path == "t9a/scout/":
            shot(phone, "scout")
    assert found == [], "\n".join(found)

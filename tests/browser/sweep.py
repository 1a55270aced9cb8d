"""The every-page sweeps' one pass per size and scheme: each page of the built site opened once, every check that
needs that size and scheme run on it, the findings kept for the tests that assert them.

axe-core (tests/browser/test_dark.py) needs every page at both sizes in both schemes; the controls sweep and the
section bar (tests/browser/test_phone.py) need every page at both sizes in the light scheme. Before, each of those
eight tests opened every page itself; now a page is opened four times in all (phone and desktop, light and dark),
in one browser (the worker's) and one built site (the run's). tests/conftest.py sends the tests of one size to the
same worker, so each pass is made once per run.
"""

from __future__ import annotations

from pathlib import Path

import axe_playwright_python

from ..languages import LANGUAGES
from .conftest import Guard, _new_page

ROOT = Path(__file__).resolve().parents[2]
PHONE_WIDTH = 390
SIZES = {
    "phone": {"viewport": {"width": PHONE_WIDTH, "height": 844}, "is_mobile": True, "has_touch": True,
              "device_scale_factor": 2},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}
HEADER = 48  # Material's header, 2.4rem
SECTIONS = {"en": {"rule-text": "Text", "ask": "Ask", "examples": "Examples", "clarifications": "Clarifications"},
            "ru": {"rule-text": "Текст", "ask": "Спросить", "examples": "Примеры", "clarifications": "Разъяснения"}}


def section_labels(lang: str) -> dict[str, str]:
    """The section bar's words in `lang`: as written above for English and Russian (a catalog slip shows), from the
    language's own interface catalog for any other configured language."""
    if lang in SECTIONS:
        return SECTIONS[lang]
    from generator.core.problems import Problems
    from generator.i18n.translate import Translations

    tr = Translations.load(ROOT, lang, Problems())
    return {part: tr.gettext(words) for part, words in SECTIONS["en"].items()}


# What a reader operates (WCAG 2.2, 2.5.8 exempts links inside running text): form controls, buttons, the labels
# of radios and checkboxes, the header's buttons, the clause numbers (they copy the clause's link), the section
# bar's links and the board's models.
CONTROLS = ("input:not([type=hidden]), select, textarea, button, summary, [role=button], label.md-header__button, "
            "label:has(> input[type=radio]), label:has(> input[type=checkbox]), a.kb-clause__anchor, .kb-sections a, "
            ".kb-ask [tabindex]")
FOCUSABLE = ("a[href], button, input:not([type=hidden]), select, textarea, summary, label[tabindex='0'], "
             "[tabindex]:not([tabindex='-1'])")

# One call per page: controls under 24 px, focusable elements without a visible ring once focused, form fields
# that something else covers once focused (the browser scrolls each into view), and the page's width.
SWEEP = """([controls, focusable]) => {
    const shown = element => element.checkVisibility({visibilityProperty: true, opacityProperty: true})
        && element.getBoundingClientRect().width > 0 && element.getBoundingClientRect().height > 0;
    const name = element => `${element.tagName.toLowerCase()}${element.id ? '#' + element.id : ''}` +
        `${element.className && typeof element.className === 'string' ? '.' + element.className.trim().split(/\\s+/).join('.') : ''}`;
    const small = [...document.querySelectorAll(controls)].filter(shown).filter(element => {
        const box = element.getBoundingClientRect();
        return box.width < 23.99 || box.height < 23.99;
    }).map(element => { const box = element.getBoundingClientRect();
        return `${name(element)} ${box.width.toFixed(1)}×${box.height.toFixed(1)}`; });
    const unringed = [], covered = [];
    let focused = 0;
    for (const element of document.querySelectorAll(focusable)) {
        if (element.disabled || element.closest('[inert], details:not([open]) > :not(summary)')) continue;
        const field = element.matches('input, select, textarea');
        element.focus({preventScroll: !field});  // a field is scrolled to, as Tab would: is it then in the clear?
        if (document.activeElement !== element) continue;
        // A visually hidden option (Material's colour scheme radios) shows its focus on the label after it.
        const seen = shown(element) ? element
            : element.nextElementSibling && element.nextElementSibling.tagName === 'LABEL'
              && shown(element.nextElementSibling) ? element.nextElementSibling : null;
        if (!seen) continue;
        focused += 1;
        const style = getComputedStyle(seen);
        const ring = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 1.5
            || style.boxShadow !== 'none';
        if (!element.matches(':focus-visible') || !ring) unringed.push(name(element));
        if (field && seen === element) {
            const box = element.getBoundingClientRect();
            const x = box.left + box.width / 2, y = box.top + box.height / 2;
            const top = document.elementFromPoint(x, y);
            if (y > 0 && y < innerHeight && x > 0 && x < innerWidth && top && top !== element
                && !element.contains(top) && !(element.labels && [...element.labels].some(l => l.contains(top))))
                covered.push(`${name(element)} under ${name(top)}`);
        }
    }
    return {small, unringed, covered, focused, width: document.documentElement.scrollWidth,
            backToTop: document.querySelectorAll('.md-top').length};
}"""


def site_pages(site: Path) -> list[str]:
    """Every page of the built site, as a path below its address: the root, both languages' pages and 404s."""
    found = [""]
    for lang in LANGUAGES:
        found += sorted(f"{path.parent.relative_to(site).as_posix()}/" for path in (site / lang).rglob("index.html")
                        if "api" not in path.relative_to(site).parts)
        found.append(f"{lang}/404.html")
    return found


def rules():
    from generator.kb.load import load

    kb, problems = load(ROOT)
    assert not problems
    return sorted(kb.rules.values(), key=lambda rule: rule.key)


AXE = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text(encoding="utf-8")
SERIOUS = ("serious", "critical")

# axe's run over a page, its serious and critical violations as text. Without `selectors` axe names no nodes and
# runs in about two thirds of the time on the largest pages; a page with a violation is run again to name them.
AXE_RUN = """selectors => axe.run({resultTypes: ['violations'], selectors}).then(results => results.violations
    .filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => `${v.id} (${v.impact}): ${v.help}; ` + v.nodes.slice(0, 3).map(n => (n.target || []).join(' ')).join(', ')))"""


def serious_violations(page) -> list[str]:
    return page.evaluate(AXE_RUN, False) and page.evaluate(AXE_RUN, True)

def bar_stuck_under_header(page) -> dict:
    return page.evaluate("""() => { const bar = document.querySelector('.kb-sections').getBoundingClientRect();
        const header = document.querySelector('.md-header').getBoundingClientRect();
        return {top: bar.top, bottom: bar.bottom, header: header.bottom}; }""")


def section_bar_problems(page, rule, lang: str, size: str) -> list:
    """What is wrong with a rule page's section bar: its parts, and (for a rule with an Ask panel) where one tap or
    click on "Ask" leaves the bar, the part's title and its first field. Moves the page to #ask."""
    wanted = ["rule-text"] + ["ask"] * bool(rule.predicates) + ["examples"] * bool(rule.examples) + \
        ["clarifications"] * bool(rule.clarifications)
    links = page.locator(".kb-sections a").evaluate_all(
        "links => links.map(a => [a.getAttribute('href').slice(1), a.textContent.trim()])")
    if links != [[part, section_labels(lang)[part]] for part in wanted]:
        return [("links", links)]
    present = page.evaluate("ids => ids.filter(id => document.getElementById(id))", wanted)
    if present != wanted:
        return [("parts present", present)]
    if not rule.predicates:
        return []
    ask = page.locator(".kb-sections a[href='#ask']")
    ask.tap() if size == "phone" else ask.click()  # a finger on the phone, the mouse on the desktop
    field = page.locator("form.kb-ask").first.locator("input:not([type=hidden]), select").first
    page.wait_for_function("() => location.hash === '#ask' && new Promise(r => { const y = scrollY; "
                           "requestAnimationFrame(() => r(scrollY === y)); })")  # the jump has settled
    bar = bar_stuck_under_header(page)
    heading, box = page.locator("h2#ask").bounding_box(), field.bounding_box()
    height = page.viewport_size["height"]
    problems = []
    if abs(bar["top"] - bar["header"]) > 1:
        problems.append(("not stuck under the header", bar))
    if bar["bottom"] > heading["y"]:
        problems.append(("over the part's title", bar, heading))
    if not (bar["bottom"] <= box["y"] and box["y"] + box["height"] <= height):
        problems.append(("the first field is not in view below the bar", bar, box))
    return problems


class Swept:
    """One pass's findings: {page path: {check: finding}} and what the pages did that they must not (Guard)."""

    def __init__(self):
        self.pages: dict[str, dict] = {}
        self.misbehaved: list[str] = []


class EveryPage:
    """Every page of the site, swept once per (size, scheme) on first asking, in the worker's browser."""

    def __init__(self, browser, base_url: str, site: Path):
        self.browser, self.base_url, self.site = browser, base_url, site
        self.swept: dict[tuple[str, str], Swept] = {}

    def at(self, size: str, scheme: str) -> Swept:
        if (size, scheme) not in self.swept:
            self.swept[size, scheme] = self._sweep(size, scheme)
        return self.swept[size, scheme]

    def _sweep(self, size: str, scheme: str) -> Swept:
        by_path = {f"{lang}/{rule.key}/": (rule, lang) for rule in rules() for lang in LANGUAGES}
        guard, swept = Guard(), Swept()
        options = {key: value for key, value in SIZES[size].items() if key != "viewport"}
        context, page = _new_page(self.browser, SIZES[size]["viewport"], guard, color_scheme=scheme, **options)
        context.add_init_script(AXE)  # once per context: each page gets axe without a round trip
        try:
            for path in site_pages(self.site):
                page.goto(self.base_url + path)
                found = swept.pages[path] = {"axe": serious_violations(page)}
                if scheme != "light":
                    continue
                page.keyboard.press("Tab")  # the reader uses the keyboard: programmatic focus shows as :focus-visible
                found["controls"] = page.evaluate(SWEEP, [CONTROLS, FOCUSABLE])
                if path in by_path:
                    found["sections"] = section_bar_problems(page, *by_path[path], size)
        finally:
            context.close()
        swept.misbehaved = guard.problems()
        return swept

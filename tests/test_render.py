"""Rendered rule pages: readers see labels and meanings, never code names, outside code."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

HIDDEN = {"code", "pre", "script", "style", "head", "textarea"}  # code, and text no reader sees as prose
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
SHORTEST_NAME = 3  # one- and two-letter names (m, A, B) also occur as ordinary letters in the text


class _Prose(HTMLParser):
    """The visible text of a page in its own language: outside code, the developers' detail and
    any passage marked as another language (original titles, aliases, untranslated text)."""

    def __init__(self, lang: str):
        super().__init__(convert_charrefs=True)
        self.lang, self.stack, self.text = lang, [], []

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        attrs = dict(attrs)
        skip = (tag in HIDDEN or "kb-dev" in (attrs.get("class") or "").split()
                or (attrs.get("lang") not in (None, self.lang)))
        self.stack.append((tag, skip))

    def handle_endtag(self, tag):
        while self.stack:
            open_tag, _skip = self.stack.pop()
            if open_tag == tag:
                break

    def handle_data(self, data):
        if not any(skip for _tag, skip in self.stack):
            self.text.append(data)


def prose(path: Path, lang: str) -> str:
    parser = _Prose(lang)
    parser.feed(path.read_text(encoding="utf-8"))
    return " ".join(parser.text)


def code_names(kb) -> set[str]:
    names = set()
    for rule in kb.rules.values():
        for predicate in rule.predicates:
            names.add(predicate.name)
            for declared in [*predicate.args, predicate.returns]:
                names.update(str(value) for value in declared.values or [])
            names.update(argument.name for argument in predicate.args)
    return {name for name in names if len(name) >= SHORTEST_NAME}


def test_no_russian_page_shows_a_choice_value_or_argument_code_name_outside_code(site, kb):
    pattern = re.compile(r"(?<![\w-])(" + "|".join(sorted(map(re.escape, code_names(kb)), key=len, reverse=True))
                         + r")(?![\w-])")
    pages = sorted((site / "ru").rglob("*.html"))
    assert len(pages) > len(kb.rules)
    found = {}
    for page in pages:
        hits = sorted(set(pattern.findall(prose(page, "ru"))))
        if hits:
            found[str(page.relative_to(site))] = hits
    assert not found, found


def test_the_check_sees_a_code_name_that_leaks_into_prose(tmp_path):
    page = tmp_path / "page.html"
    page.write_text('<html lang="ru"><body><p>местность: forest</p><code>terrain</code>'
                    '<details class="kb-dev"><p>in_own_zone</p></details><span lang="en">Scout</span></body></html>',
                    encoding="utf-8")
    text = prose(page, "ru")
    assert "forest" in text and "terrain" not in text and "in_own_zone" not in text and "Scout" not in text


def test_choice_values_read_as_their_labels_in_both_languages(site):
    ru = prose(site / "ru/t9a/scout/index.html", "ru")
    en = prose(site / "en/t9a/scout/index.html", "en")
    assert "открытая местность" in ru and "Лес" in ru
    assert "open ground" in en and "Forest" in en


def test_examples_read_as_one_line_with_their_answer_and_clause(site):
    html = (site / "ru/t9a/scout/index.html").read_text(encoding="utf-8")
    item = re.search(r'<li class="kb-example" id="example-forest-at-14">(.*?)</li>', html, re.S).group(1)
    assert "→" in item and "да" in item and "§4" in item
    assert "14″" in item and "Лес" in item  # the given values as a phrase in Russian


def test_scout_diagrams_are_one_per_distinct_situation_and_collapsed(site, kb):
    html = (site / "ru/t9a/scout/index.html").read_text(encoding="utf-8")
    examples = [e for e in kb.rules["t9a/scout"].examples if e.predicate == "deploy_ok"]
    figures = re.findall(r'<figure class="kb-diagram"', html)
    assert 0 < len(figures) < len(examples)
    assert re.search(r'<details class="kb-diagrams" data-predicate="deploy_ok">', html)


def test_clarification_links_under_a_clause_name_the_question_they_open(site):
    html = (site / "ru/t9a/scout/index.html").read_text(encoding="utf-8")
    notes = re.search(r'<div class="kb-clause" id="terrain">.*?<ul class="kb-clause__notes"[^>]*>(.*?)</ul>', html, re.S)
    assert 'href="#clarification-terrain-types"' in notes.group(1)
    assert "Какая местность даёт сокращение до 12″?" in notes.group(1)


def test_panel_assets_load_only_on_pages_with_predicates(site, kb):
    with_predicates = (site / "ru/t9a/scout/index.html").read_text(encoding="utf-8")
    without = [rule for rule in kb.rules.values() if not rule.predicates]
    assert "assets/ask.js" in with_predicates and with_predicates.count('<form class="kb-ask"') == 3
    for rule in without:
        assert "ask.js" not in (site / "ru" / rule.key / "index.html").read_text(encoding="utf-8")
    assert "ask.js" not in (site / "ru/glossary/index.html").read_text(encoding="utf-8")


def test_templates_compiled_once_are_compiled_again_when_their_source_changes(tmp_path):
    from jinja2 import Environment, FileSystemLoader

    from generator.render.pages import CompiledTemplates

    compiled = CompiledTemplates()
    (tmp_path / "page.md").write_text("first {{ x }}", encoding="utf-8")
    assert Environment(loader=FileSystemLoader(str(tmp_path)), bytecode_cache=compiled).get_template(
        "page.md").render(x=1) == "first 1"
    assert compiled.code
    (tmp_path / "page.md").write_text("second {{ x }}", encoding="utf-8")
    assert Environment(loader=FileSystemLoader(str(tmp_path)), bytecode_cache=compiled).get_template(
        "page.md").render(x=2) == "second 2"


def test_the_renderers_gettext_reads_like_jinjas_newstyle_gettext_once_or_many_times(kb, ru):
    from jinja2 import Environment

    from generator.kb import markup
    from generator.render.pages import Renderer

    renderer = Renderer(kb, ru, [{"code": "en"}, {"code": "ru"}])
    jinja = Environment(autoescape=True, extensions=["jinja2.ext.i18n"])
    jinja.install_gettext_callables(lambda text: markup.pattern_as_text(ru.gettext(text)),
                                    lambda one, many, n: markup.pattern_as_text(ru.ngettext(one, many, n)), newstyle=True)
    source = ('{{ _("Rule text") }}|{{ _("100%% <b>*not* [a](link)</b>") }}|{{ _("section “%(name)s”", name="<i>") }}|'
              '{{ _("%(done)s of %(all)s messages translated (%(percent)s%%), %(fuzzy)s fuzzy, %(missing)s missing", '
              'done=1, all="<2>", percent=50, fuzzy=0, missing=1) }}')
    expected = jinja.from_string(source).render()
    assert "Текст правила" in expected and "100% &#60;b&#62;" in expected and "&lt;2&gt;" in expected
    template = renderer.env.from_string(source)
    assert [template.render(), template.render()] == [expected, expected]

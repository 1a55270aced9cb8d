"""generator/kb/texts.py: the one list of translatable texts and their message ids, and who reads it."""

from __future__ import annotations

import io

import pytest

from generator.core.problems import Problems
from generator.i18n.extract import extract_rules, knowledge_base_messages
from generator.kb import texts

from .conftest import ROOT, write
from .languages import LANGUAGES


def _catalog_contexts(lang: str) -> set[str]:
    from generator.i18n.po.reader import read_catalog

    found = set()
    for path in (ROOT / "translations" / lang / "rules").rglob("*.po"):
        found |= {m.context for m in read_catalog(path, lang) if m.context}
    return found


def test_every_context_is_unique_and_names_its_owner(kb):
    listed = list(texts.knowledge_base_texts(kb))
    contexts = [text.context for text in listed]
    assert len(contexts) == len(set(contexts))
    assert all(text.context.startswith(text.origin + ":") for text in listed)
    assert "t9a/scout:clause:declaration" in contexts and "wap:book" in contexts
    assert {text.origin.split(":")[0] for text in listed} >= {"term", "concept", "t9a/scout", "wap"}


def test_every_text_is_found_in_its_file_at_its_path(kb):
    from generator.core.yamlfile import parse_yaml

    files = {}  # read afresh: a loaded rule keeps its file's lines, not its parsed data
    for text in texts.knowledge_base_texts(kb):
        origin = kb.origins[text.origin]
        if origin.path not in files:
            files[origin.path] = parse_yaml((kb.root / origin.path).read_text(encoding="utf-8")).data
        value = files[origin.path]
        for part in origin.prefix + text.path:
            value = value[part]
        assert value.strip() == text.source, text.context


def test_the_catalogs_hold_exactly_the_contexts_of_the_texts_not_in_their_language(kb):
    for lang in LANGUAGES:
        wanted = {text.context for text in texts.knowledge_base_texts(kb) if text.lang != lang}
        assert wanted == _catalog_contexts(lang), lang


def test_a_field_is_asked_for_by_owner_and_parts(kb):
    index = texts.Texts(kb)
    rule = kb.rules["t9a/scout"]
    clause = rule.clauses[0]
    found = index.get(rule, "clause", clause.id)
    assert (found.context, found.source, found.lang) == (f"t9a/scout:clause:{clause.id}", clause.text, "ru")
    assert found.url == f"t9a/scout/#{clause.id}" and found.catalog == "rules/t9a/scout"
    term = next(iter(kb.terms.values()))
    assert index.get(term, "meaning").context == f"term:{term.id}:meaning"


def test_an_unknown_field_or_owner_is_an_error_not_an_untranslated_text(kb):
    index = texts.Texts(kb)
    rule = kb.rules["t9a/scout"]
    with pytest.raises(texts.UnknownText, match="t9a/scout:clause:no-such-clause"):
        index.get(rule, "clause", "no-such-clause")
    with pytest.raises(texts.UnknownText):
        index.get(rule, "claus", rule.clauses[0].id)
    with pytest.raises(texts.UnknownText):
        index.get("t9a/scout", "title")


def test_a_template_with_a_mistyped_field_fails_the_build(kb):
    from generator.i18n.translate import Translations
    from generator.render.pages import Renderer
    from generator.render.scope import PageScope

    problems = Problems()
    renderer = Renderer(kb, Translations.load(ROOT, "en", problems), [])
    rule = kb.rules["t9a/scout"]
    template = renderer.env.from_string('{{ r.html(rule, "clause", "no-such-clause") }}')
    with pytest.raises(texts.UnknownText):
        template.render(r=PageScope(renderer, "t9a/scout/"), rule=rule)
    shown = renderer.env.from_string('{{ r.plain(rule, "title") }}').render(r=PageScope(renderer, "t9a/scout/"),
                                                                          rule=rule)
    assert shown and shown != rule.title  # the English translation of the Russian title


def test_choice_labels_are_translatable_but_hold_no_references(kb):
    rule = next(r for r in kb.rules.values() if any(a.labels for p in r.predicates for a in p.args))
    labels = [text for text in texts.rule_texts(rule) if ":value:" in text.context]
    assert labels and not any(text.markup for text in labels)
    assert all("labels" not in path for path, _text in texts.reference_texts(rule))


def test_the_extractor_yields_the_catalogs_contexts_as_pgettext(kb):
    path = ROOT / "rules/wap/strider.yaml"
    with path.open("rb") as handle:
        found = list(extract_rules(handle, {"pgettext": None, "_": None}, [], {}))
    ours = [m for m in knowledge_base_messages(kb) if m.catalog == "rules/wap/strider"]
    assert [(line, name, message) for line, name, message, _comments in found] == \
        [(m.locations[0][1], "pgettext", (m.context, m.msgid)) for m in ours]
    assert [comments for *_rest, comments in found] == [m.comments for m in ours]


def test_the_extractor_skips_a_broken_file_and_gives_plain_texts_without_pgettext(tmp_path):
    broken = write(tmp_path / "rules/wap/broken.yaml", "id: broken\ntitle: [unclosed\n")
    with broken.open("rb") as handle:
        assert list(extract_rules(handle, {"_": None}, [], {})) == []
    with (ROOT / "rules/wap/_system.yaml").open("rb") as handle:
        plain = list(extract_rules(handle, {"_": None}, [], {}))
    assert plain and all(name is None and isinstance(message, str) for _line, name, message, _c in plain)
    assert list(extract_rules(io.BytesIO(b"- a list\n"), {"pgettext": None}, [], {})) == []


def test_pybabel_extract_gives_the_catalogs_contexts_texts_and_lines(kb, tmp_path, monkeypatch):
    from babel.messages.frontend import CommandLineInterface
    from babel.messages.pofile import read_po

    output = tmp_path / "messages.pot"
    monkeypatch.chdir(ROOT)
    CommandLineInterface().run(["pybabel", "-q", "extract", "-F", "babel.cfg", "-o", str(output), "."])
    with output.open("rb") as handle:
        extracted = {m.context: (m.id, m.locations) for m in read_po(handle) if m.context}
    ours = {m.context: (m.msgid, m.locations) for m in knowledge_base_messages(kb)}
    assert extracted == ours


def test_a_knowledge_base_message_reads_its_line_and_comments_only_when_asked(kb):
    from generator.i18n.extract import _message

    text = next(text for text in texts.knowledge_base_texts(kb) if text.context == "t9a/scout:clause:declaration")
    message = _message(kb, text)
    assert "locations" not in vars(message)  # i18n check and status never pay for 40,000 line look-ups
    assert "comments" not in vars(message)
    origin = kb.origins[text.origin]
    assert message.locations == [(origin.path, origin.line(*text.path))]
    assert message.locations[0][1] > 1
    assert message.comments[0] == text.description and message.comments[2] == f"source language: {text.lang}"


def test_texts_listed_without_details_have_the_same_contexts_paths_and_sources(kb):
    for rule in kb.rules.values():
        full = [(t.context, t.path, t.source, t.markup) for t in texts.rule_texts(rule)]
        bare = list(texts.rule_texts(rule, details=False))
        assert [(t.context, t.path, t.source, t.markup) for t in bare] == full
        assert all(t.url == "" and t.description == "" for t in bare)


def test_knowledge_base_messages_are_made_afresh_for_each_call(kb):
    from generator.i18n.extract import knowledge_base_messages

    first, second = knowledge_base_messages(kb), knowledge_base_messages(kb)
    assert first is not second  # no memo outlives the call: a command passes its list on
    assert [m.context for m in first] == [m.context for m in second]

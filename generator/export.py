"""The JSON export of one language: every rule with its predicates, examples and clarifications."""

from __future__ import annotations

import json

from .i18n.translate import Translations
from .model import KnowledgeBase

SCHEMA_VERSION = 1


def export_data(kb: KnowledgeBase, tr: Translations) -> dict:
    """Plain data for one language; texts are translated where a translation exists."""

    def text(context, source, lang):
        return tr.text(context, source, lang).value

    rules = []
    for key in sorted(kb.rules):
        rule = kb.rules[key]
        system = kb.systems[rule.system]
        rules.append({
            "id": rule.key,
            "url": f"/{tr.lang}/{rule.key}/",
            "title": text(f"{key}:title", rule.title, rule.lang),
            "source_title": rule.title,
            "source_lang": rule.lang,
            "aliases": [alias.model_dump() for alias in rule.aliases],
            "system": {"id": system.id, "name": text(f"{system.id}:name", system.name, system.lang)},
            "source": {"book": text(f"{system.id}:book", system.book, system.lang),
                       **rule.source.model_dump(exclude_none=True)},
            "summary": text(f"{key}:summary", rule.summary, rule.lang),
            "clauses": [{"id": c.id, "text": text(f"{key}:clause:{c.id}", c.text, rule.lang)} for c in rule.clauses],
            "predicates": [{
                "name": p.name, "clause": p.clause,
                "summary": text(f"{key}:predicate:{p.name}", p.summary, rule.lang),
                "args": [{"name": a.name, "type": a.type, "values": a.values, "nullable": a.nullable,
                          "text": text(f"{key}:predicate:{p.name}:arg:{a.name}", a.text, rule.lang)} for a in p.args],
                "returns": {"type": p.returns.type, "values": p.returns.values, "nullable": p.returns.nullable,
                            "text": text(f"{key}:predicate:{p.name}:returns", p.returns.text, rule.lang)},
                "code": p.code,
            } for p in rule.predicates],
            "examples": [{"id": e.id, "predicate": e.predicate, "clause": e.clause,
                          "name": text(f"{key}:example:{e.id}", e.name, rule.lang),
                          "given": e.given, "expect": e.expect} for e in rule.examples],
            "clarifications": [{"id": c.id, "status": c.status, "clauses": c.clauses,
                                "question": text(f"{key}:clarification:{c.id}:question", c.question, rule.lang),
                                "answer": text(f"{key}:clarification:{c.id}:answer", c.answer, rule.lang)}
                               for c in rule.clarifications],
            "see_also": rule.see_also,
        })
    glossary = [{"id": t.id, "term": text(f"term:{t.id}:term", t.term, kb.term_lang(t)), "source_term": t.term,
                 "source_lang": kb.term_lang(t), "systems": t.systems,
                 "meaning": text(f"term:{t.id}:meaning", t.meaning, kb.term_lang(t))}
                for t in sorted(kb.terms.values(), key=lambda t: t.id)]
    return {"schema_version": SCHEMA_VERSION, "lang": tr.lang, "rules": rules, "glossary": glossary}


def export_json(kb: KnowledgeBase, tr: Translations) -> str:
    return json.dumps(export_data(kb, tr), ensure_ascii=False, indent=1, sort_keys=True) + "\n"

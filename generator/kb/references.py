"""Whether a [[reference]] target exists: a rule, a clause of it, a glossary term or a concept page."""

from __future__ import annotations

from .layout import ALL_TERMS
from .markup import Reference
from .model import KnowledgeBase
from .texts import concept_key


def reference_problem(kb: KnowledgeBase, target: str):
    """None if a reference target exists, else what is wrong with it."""
    reference = Reference(f"[[{target}]]", target, None)
    kind = reference.kind
    if kind == "invalid":
        return "is not a reference of the form system/rule, system/rule#clause, term:id or concept:id"
    # A target whose file exists but was not loaded (broken, or not asked for) is not reported again.
    if kind == "term":
        known = reference.item_id in kb.terms or ALL_TERMS in kb.unloaded
        return None if known else "names a glossary term that does not exist"
    if kind == "concept":
        known = reference.item_id in kb.concepts or concept_key(reference.item_id) in kb.unloaded
        return None if known else "names a concept page that does not exist"
    rule = kb.rules.get(reference.rule_key)
    if rule is None:
        return None if reference.rule_key in kb.unloaded else "names a rule that does not exist"
    if kind == "clause" and rule.clause(reference.clause_id) is None:
        return f"names a clause that {reference.rule_key} does not have (its clauses: {', '.join(c.id for c in rule.clauses)})"
    return None


class References:
    """reference_problem per target, asked once per validation run (rules share many targets)."""

    def __init__(self, kb: KnowledgeBase):
        self.kb = kb
        self.answers: dict[str, object] = {}

    def problem(self, target: str):
        if target not in self.answers:
            self.answers[target] = reference_problem(self.kb, target)
        return self.answers[target]

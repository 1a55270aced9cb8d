"""Check what the schema cannot: ids, references, examples against their predicates."""

from __future__ import annotations

from collections import Counter

from .markup import references
from . import answers, value_types
from .model import KnowledgeBase, Rule
from .problems import Problems
from .texts import reference_texts as text_fields  # the translatable fields' owner (load and scripts read it here)

# The value types (their checks and English forms) are owned by generator/value_types.py.
FORMS = value_types.FORMS
value_problem = value_types.value_problem


def reference_problem(kb: KnowledgeBase, target: str):
    """None if a reference target exists, else what is wrong with it."""
    from .markup import Reference

    reference = Reference(f"[[{target}]]", target, None)
    kind = reference.kind
    if kind == "invalid":
        return "is not a reference of the form system/rule, system/rule#clause, term:id or concept:id"
    # A target whose file exists but was not loaded (broken, or not asked for) is not reported again.
    if kind == "term":
        known = reference.item_id in kb.terms or "term:*" in kb.unloaded
        return None if known else "names a glossary term that does not exist"
    if kind == "concept":
        known = reference.item_id in kb.concepts or f"concept:{reference.item_id}" in kb.unloaded
        return None if known else "names a concept page that does not exist"
    rule = kb.rules.get(reference.rule_key)
    if rule is None:
        return None if reference.rule_key in kb.unloaded else "names a rule that does not exist"
    if kind == "clause" and rule.clause(reference.clause_id) is None:
        return f"names a clause that {reference.rule_key} does not have (its clauses: {', '.join(c.id for c in rule.clauses)})"
    return None


def _duplicates(items, attribute):
    counts = Counter(getattr(item, attribute) for item in items)
    return {value for value, count in counts.items() if count > 1}


def validate(kb: KnowledgeBase, rules=None) -> Problems:
    """Check every rule, term and concept against each other (only `rules`, keys, if given); return all problems."""
    problems = Problems()
    for rule in kb.rules.values():
        if rules is None or rule.key in rules:
            _validate_rule(kb, rule, problems)
    if rules is not None:
        return problems
    for term in kb.terms.values():
        origin = kb.origins[f"term:{term.id}"]
        for index, system in enumerate(term.systems):
            if system not in kb.systems:
                problems.add(origin.path, origin.line("systems", index), f"term:{term.id}",
                             f"systems lists {system!r}, which is not a system",
                             "use one of: " + ", ".join(sorted(kb.systems)))
        for reference in references(term.meaning):
            issue = reference_problem(kb, reference.target)
            if issue:
                problems.add(origin.path, origin.line("meaning"), f"term:{term.id}",
                             f"reference {reference.token} {issue}", "fix the target or remove the reference")
    for concept in kb.concepts.values():
        origin = kb.origins[f"concept:{concept.id}"]
        subject = f"concept:{concept.id}"
        for index, column in enumerate(concept.columns):
            issue = reference_problem(kb, column)
            if issue:
                problems.add(origin.path, origin.line("columns", index), subject, f"column {column!r} {issue}",
                             "list rules as system/rule")
        row_ids = [row.id for row in concept.rows]
        for row_index, row in enumerate(concept.rows):
            if row_ids.count(row.id) > 1:
                problems.add(origin.path, origin.line("rows", row_index, "id"), subject,
                             f"row id {row.id!r} is used more than once", "make each row id unique")
            for cell_index, (column, cell) in enumerate(zip(concept.columns, row.cells)):
                if cell.ref.split("#")[0] != column.split("#")[0]:
                    problems.add(origin.path, origin.line("rows", row_index, "cells", cell_index, "ref"), subject,
                                 f"cell {cell_index + 1} of row {row.id!r} points at {cell.ref!r}, but its column "
                                 f"is {column!r}", "point each cell at a clause of its column's rule")
            if len(row.cells) != len(concept.columns):
                problems.add(origin.path, origin.line("rows", row_index, "cells"), subject,
                             f"row {row.id!r} has {len(row.cells)} cells for {len(concept.columns)} columns",
                             "give one cell per column, in the columns' order")
            for cell_index, cell in enumerate(row.cells):
                issue = reference_problem(kb, cell.ref)
                if issue:
                    problems.add(origin.path, origin.line("rows", row_index, "cells", cell_index, "ref"), subject,
                                 f"cell reference {cell.ref!r} {issue}", "point the cell at an existing clause")
                for reference in references(cell.text):
                    issue = reference_problem(kb, reference.target)
                    if issue:
                        problems.add(origin.path, origin.line("rows", row_index, "cells", cell_index, "text"),
                                     subject, f"reference {reference.token} {issue}", "fix the target")
    return problems


def _validate_rule(kb: KnowledgeBase, rule: Rule, problems: Problems):
    origin = kb.origins[rule.key]
    add = lambda path, message, hint="": problems.add(origin.path, origin.line(*path), rule.key, message, hint)

    for collection, attribute, label in (("clauses", "id", "clause id"), ("predicates", "name", "predicate name"),
                                         ("examples", "id", "example id"), ("clarifications", "id", "clarification id")):
        items = getattr(rule, collection)
        for value in _duplicates(items, attribute):
            index = next(i for i, item in enumerate(items) if getattr(item, attribute) == value)
            add((collection, index, attribute), f"{label} {value!r} is used more than once", "make each one unique")

    clause_ids = [clause.id for clause in rule.clauses]
    for index, predicate in enumerate(rule.predicates):
        if predicate.clause not in clause_ids:
            add(("predicates", index, "clause"), f"predicate {predicate.name} encodes clause {predicate.clause!r}, "
                f"which does not exist", "use one of: " + ", ".join(clause_ids))
        for value in _duplicates(predicate.args, "name"):
            add(("predicates", index, "args"), f"predicate {predicate.name} lists argument {value!r} twice")
        for key, issue, hint in answers.answer_problems(predicate.returns, rule.lang):
            add(("predicates", index, "returns", "answers") + key, f"predicate {predicate.name}: {issue}", hint)

    for index, example in enumerate(rule.examples):
        where = ("examples", index)
        if example.clause not in clause_ids:
            add(where + ("clause",), f"example {example.id} illustrates clause {example.clause!r}, which does not exist",
                "use one of: " + ", ".join(clause_ids))
        predicate = rule.predicate(example.predicate)
        if predicate is None:
            add(where + ("predicate",), f"example {example.id} uses predicate {example.predicate!r}, which this rule "
                f"does not define", "use one of: " + (", ".join(p.name for p in rule.predicates) or "(none defined)"))
            continue
        missing = [name for name in predicate.params if name not in example.given]
        extra = [name for name in example.given if name not in predicate.params]
        if missing:
            add(where + ("given",), f"example {example.id}: given lacks {', '.join(missing)}",
                f"give every argument of {predicate.name}: {', '.join(predicate.params)}")
        if extra:
            add(where + ("given",), f"example {example.id}: given has {', '.join(extra)}, which "
                f"{predicate.name} does not take", f"its arguments are: {', '.join(predicate.params)}")
        for argument in predicate.args:
            if argument.name in example.given:
                form = value_problem(argument.type, example.given[argument.name], argument.values, argument.nullable)
                if form:
                    add(where + ("given", argument.name),
                        f"example {example.id}: {argument.name} is {example.given[argument.name]!r}",
                        f"expected {form}")
        form = value_problem(predicate.returns.type, example.expect, predicate.returns.values, predicate.returns.nullable)
        if form:
            add(where + ("expect",), f"example {example.id}: expect is {example.expect!r}",
                f"{predicate.name} returns {form}")

    for index, clarification in enumerate(rule.clarifications):
        for number, clause in enumerate(clarification.clauses):
            if clause not in clause_ids:
                add(("clarifications", index, "clauses", number),
                    f"clarification {clarification.id} clarifies clause {clause!r}, which does not exist",
                    "use one of: " + ", ".join(clause_ids))

    for index, target in enumerate(rule.see_also):
        issue = reference_problem(kb, target)
        if issue:
            add(("see_also", index), f"see_also {target!r} {issue}", "fix the target or remove it")
        elif target == rule.key:
            add(("see_also", index), "see_also lists the rule itself", "remove it")

    for path, text in text_fields(rule):
        for reference in references(text):
            issue = reference_problem(kb, reference.target)
            if issue:
                add(path, f"reference {reference.token} {issue}",
                    "fix the target (see the rules index) or remove the brackets")

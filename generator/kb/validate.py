"""Check what the schema cannot: ids, references, examples against their predicates."""

from __future__ import annotations

from collections import Counter

from ..core.direction import reordering
from ..core.problems import Problems
from . import answers
from .markup import references
from .model import KnowledgeBase, Rule
from .references import References
from .texts import concept_key, concept_texts, reference_texts, rule_texts, term_key, term_texts
from .value_types import declared_problem


def _duplicates(items, attribute):
    counts = Counter(getattr(item, attribute) for item in items)
    return {value for value, count in counts.items() if count > 1}


def validate(kb: KnowledgeBase, rules=None, shared: bool | None = None) -> Problems:
    """Check every rule, term and concept against each other; return all problems.

    With `rules` (keys), only those rules are checked, and the glossary and concepts only if `shared`.
    """
    problems = Problems()
    checked = References(kb)
    for key in (kb.rules if rules is None else [key for key in kb.rules if key in rules]):
        _validate_rule(kb, kb.rules[key], problems, checked)
        _reordering(kb, rule_texts(kb.rules[key], details=False), problems)
    if not (rules is None if shared is None else shared):
        return problems
    for term in kb.terms.values():
        _validate_term(kb, term, problems, checked)
        _reordering(kb, term_texts(term, kb.term_lang(term)), problems)
    for concept in kb.concepts.values():
        _validate_concept(kb, concept, problems, checked)
        _reordering(kb, concept_texts(concept), problems)
    return problems


def _reordering(kb: KnowledgeBase, texts, problems: Problems) -> None:
    """Texts holding a character that reorders what a reviewer sees (core/direction.py), at their lines."""
    for text in texts:
        found = reordering(text.source, text.lang)
        if found:
            origin = kb.origins[text.origin]
            problems.add(origin.path, origin.line(*text.path), text.origin, f"the text at {text.context} {found[0]}",
                         found[1])


def _validate_term(kb: KnowledgeBase, term, problems: Problems, checked: References):
    key = term_key(term.id)
    origin = kb.origins[key]
    for index, system in enumerate(term.systems):
        if system not in kb.systems:
            problems.add(origin.path, origin.line("systems", index), key,
                         f"systems lists {system!r}, which is not a system",
                         "use one of: " + ", ".join(sorted(kb.systems)))
    for reference in references(term.meaning):
        issue = checked.problem(reference.target)
        if issue:
            problems.add(origin.path, origin.line("meaning"), key,
                         f"reference {reference.token} {issue}", "fix the target or remove the reference")


def _validate_concept(kb: KnowledgeBase, concept, problems: Problems, checked: References):
    subject = concept_key(concept.id)
    origin = kb.origins[subject]
    add = lambda path, message, hint: problems.add(origin.path, origin.line(*path), subject, message, hint)
    for index, column in enumerate(concept.columns):
        issue = checked.problem(column)
        if issue:
            add(("columns", index), f"column {column!r} {issue}", "list rules as system/rule")
    row_ids = Counter(row.id for row in concept.rows)
    for row_index, row in enumerate(concept.rows):
        if row_ids[row.id] > 1:
            add(("rows", row_index, "id"), f"row id {row.id!r} is used more than once", "make each row id unique")
        if len(row.cells) != len(concept.columns):
            add(("rows", row_index, "cells"), f"row {row.id!r} has {len(row.cells)} cells for "
                f"{len(concept.columns)} columns", "give one cell per column, in the columns' order")
        _validate_cells(concept, row_index, row, add, checked)


def _validate_cells(concept, row_index: int, row, add, checked: References):
    for cell_index, (column, cell) in enumerate(zip(concept.columns, row.cells)):
        if cell.ref.split("#")[0] != column.split("#")[0]:
            add(("rows", row_index, "cells", cell_index, "ref"), f"cell {cell_index + 1} of row {row.id!r} points "
                f"at {cell.ref!r}, but its column is {column!r}", "point each cell at a clause of its column's rule")
    for cell_index, cell in enumerate(row.cells):
        where = ("rows", row_index, "cells", cell_index)
        issue = checked.problem(cell.ref)
        if issue:
            add(where + ("ref",), f"cell reference {cell.ref!r} {issue}", "point the cell at an existing clause")
        for reference in references(cell.text):
            issue = checked.problem(reference.target)
            if issue:
                add(where + ("text",), f"reference {reference.token} {issue}", "fix the target")


def _validate_rule(kb: KnowledgeBase, rule: Rule, problems: Problems, checked: References | None = None):
    origin = kb.origins[rule.key]
    add = lambda path, message, hint="": problems.add(origin.path, origin.line(*path), rule.key, message, hint)
    checked = checked or References(kb)
    clause_ids = [clause.id for clause in rule.clauses]
    _unique_ids(rule, add)
    _predicates(rule, clause_ids, add)
    _clause_notes(rule, clause_ids, lambda index, line, message, hint: problems.add(
        origin.path, origin.line("predicates", index, "code") + line, rule.key, message, hint))
    _shared_arguments(rule, add)
    by_name = {}
    for predicate in rule.predicates:
        by_name.setdefault(predicate.name, (predicate, predicate.params))
    for index, example in enumerate(rule.examples):
        _example(rule, index, example, clause_ids, by_name, add)
    for index, clarification in enumerate(rule.clarifications):
        for number, clause in enumerate(clarification.clauses):
            if clause not in clause_ids:
                add(("clarifications", index, "clauses", number),
                    f"clarification {clarification.id} clarifies clause {clause!r}, which does not exist",
                    "use one of: " + ", ".join(clause_ids))
    _rule_references(rule, add, checked)


def _unique_ids(rule: Rule, add):
    for collection, attribute, label in (("clauses", "id", "clause id"), ("predicates", "name", "predicate name"),
                                         ("examples", "id", "example id"), ("clarifications", "id", "clarification id")):
        items = getattr(rule, collection)
        for value in _duplicates(items, attribute):
            index = next(i for i, item in enumerate(items) if getattr(item, attribute) == value)
            add((collection, index, attribute), f"{label} {value!r} is used more than once", "make each one unique")


def _predicates(rule: Rule, clause_ids: list[str], add):
    for index, predicate in enumerate(rule.predicates):
        if predicate.clause not in clause_ids:
            add(("predicates", index, "clause"), f"predicate {predicate.name} encodes clause {predicate.clause!r}, "
                f"which does not exist", "use one of: " + ", ".join(clause_ids))
        for value in _duplicates(predicate.args, "name"):
            add(("predicates", index, "args"), f"predicate {predicate.name} lists argument {value!r} twice")
        for key, issue, hint in answers.answer_problems(predicate.returns, rule.lang):
            add(("predicates", index, "returns", "answers") + key, f"predicate {predicate.name}: {issue}", hint)
        for key, issue, hint in answers.news_problems(predicate.returns):
            add(("predicates", index, "returns", "news") + key, f"predicate {predicate.name}: {issue}", hint)


def _clause_notes(rule: Rule, clause_ids: list[str], add_in_code):
    """Every `# clause:` note of a predicate names a clause of the rule, and every `return` has one.

    `add_in_code(predicate index, line in the code, message, hint)`: a block scalar's text starts on the
    line after its key, so a line of the code is that many lines below the `code:` key.
    """
    for index, predicate in enumerate(rule.predicates):
        snippet = predicate.snippet
        if snippet is None:  # refused at load, and reported there
            continue
        for line, clause in snippet.notation.statement_lines():
            if clause not in clause_ids:
                add_in_code(index, line, f"predicate {predicate.name}: the note names clause {clause!r}, which "
                            f"this rule does not have", "use one of: " + ", ".join(clause_ids))
        for line in snippet.notation.uncovered:
            add_in_code(index, line, f"predicate {predicate.name}: this return applies no clause",
                        "note the clause it applies at the end of its line (# clause: <id>) or on its `if`; "
                        "see rules/README.md")


def _shared_arguments(rule: Rule, add):
    """Arguments with one name mean one thing in every predicate of a rule: the page asks for them once."""
    first: dict[str, object] = {}
    for index, predicate in enumerate(rule.predicates):
        for number, argument in enumerate(predicate.args):
            seen = first.setdefault(argument.name, (predicate, argument))
            other, earlier = seen
            if other is predicate:
                continue
            if (argument.type, argument.text, argument.values, argument.nullable, argument.items, argument.other,
                    argument.min, argument.max, argument.help) != \
                    (earlier.type, earlier.text, earlier.values, earlier.nullable, earlier.items, earlier.other,
                     earlier.min, earlier.max, earlier.help):
                add(("predicates", index, "args", number, "name"),
                    f"predicate {predicate.name}'s argument {argument.name} differs from {other.name}'s "
                    f"(type, meaning, values or nullable)", "arguments with one name are asked once on the page: "
                    "give them the same type, text and values, or give one of them another name")


def _example(rule: Rule, index: int, example, clause_ids: list[str], by_name: dict, add):
    """One worked example: its clause and predicate exist, its arguments and answer have the declared forms."""
    where = ("examples", index)
    if example.clause not in clause_ids:
        add(where + ("clause",), f"example {example.id} illustrates clause {example.clause!r}, which does not exist",
            "use one of: " + ", ".join(clause_ids))
    if example.predicate not in by_name:
        add(where + ("predicate",), f"example {example.id} uses predicate {example.predicate!r}, which this rule "
            f"does not define", "use one of: " + (", ".join(p.name for p in rule.predicates) or "(none defined)"))
        return
    predicate, params = by_name[example.predicate]
    given = example.given
    missing = [name for name in params if name not in given]
    extra = [name for name in given if name not in params]
    if missing:
        add(where + ("given",), f"example {example.id}: given lacks {', '.join(missing)}",
            f"give every argument of {predicate.name}: {', '.join(params)}")
    if extra:
        add(where + ("given",), f"example {example.id}: given has {', '.join(extra)}, which "
            f"{predicate.name} does not take", f"its arguments are: {', '.join(params)}")
    for argument in predicate.args:
        if argument.name in given:
            form = declared_problem(argument, given[argument.name])
            if form:
                add(where + ("given", argument.name), f"example {example.id}: {argument.name} is "
                    f"{given[argument.name]!r}", f"expected {form}")
    returns = predicate.returns
    form = declared_problem(returns, example.expect)
    if form:
        add(where + ("expect",), f"example {example.id}: expect is {example.expect!r}", f"{predicate.name} returns {form}")


def _rule_references(rule: Rule, add, checked: References):
    for index, target in enumerate(rule.see_also):
        issue = checked.problem(target)
        if issue:
            add(("see_also", index), f"see_also {target!r} {issue}", "fix the target or remove it")
        elif target == rule.key:
            add(("see_also", index), "see_also lists the rule itself", "remove it")
    for path, text in reference_texts(rule):
        if not text or "[[" not in text:  # no reference can start without brackets: skip the parse
            continue
        for reference in references(text):
            issue = checked.problem(reference.target)
            if issue:
                add(path, f"reference {reference.token} {issue}",
                    "fix the target (see the rules index) or remove the brackets")

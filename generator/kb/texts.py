"""Every translatable text of the knowledge base and its message id (msgctxt), in one place.

Decision: this module is the only owner of the message-context scheme and of the list
of translatable fields. A text's context is its owner's key followed by the field's parts, joined
with ":" — the owner key is the key of `KnowledgeBase.origins` (a rule `t9a/scout`, a system `wap`,
`term:<id>`, `concept:<id>`), so `t9a/scout:clause:placement`, `t9a/scout:predicate:X:arg:Y:value:V`,
`t9a/scout:clarification:ID:answer`, `term:ID:meaning`, `concept:ID:cell:ROW:COLUMN`. Contexts are
stable: rule keys, clause and example ids, predicate and argument names never change once published.

`rule_texts`, `system_texts`, `term_texts` and `concept_texts` list an owner's texts as
`Translatable` records (context, YAML path, source text and language, catalog, page address,
description for translators, whether it holds inline markup); `knowledge_base_texts` lists them all.
Extraction (generator/i18n/extract.py and the `pybabel` extractor), rendering, the JSON export,
back-links and reference checks read these records.
Templates and code never spell a context: they ask a `Texts` index for "the clause text of rule X"
(`texts.get(rule, "clause", clause_id)`; `r.html(rule, "clause", clause.id)` in templates). Asking for
a field the owner does not have raises `UnknownText` — a bug in the caller, found at build time,
never a text silently shown as "not translated".

`pybabel extract -F babel.cfg` reads rule YAML through `i18n.extract.extract_rules`, which yields
these records as `pgettext`-shaped messages, so its messages carry the catalogs' msgctxt too.
"""

from __future__ import annotations

from typing import Iterator, NamedTuple, Optional

from . import urls
from .answers import OTHER, answer_key
from .model import Concept, KnowledgeBase, Rule, System, Term

SEPARATOR = ":"  # between the parts of a context


class UnknownText(LookupError):
    """A caller asked for a text its owner does not have: a typo in a template or in code (a bug)."""


class Translatable(NamedTuple):
    """One source-language text that translators translate.

    A named tuple rather than a frozen dataclass: every text is listed by validation and again by every
    i18n command, and a tuple is made several times faster.
    """

    context: str  # msgctxt, stable: "t9a/scout:clause:placement"
    path: tuple  # where the text sits in its owner's YAML (below the owner's origin prefix)
    source: str  # the text as written in the source language
    lang: str  # that source language
    catalog: str  # the catalog it lives in, under translations/<lang>/: "rules/t9a/scout"
    origin: str  # the owner's key in KnowledgeBase.origins (and the context's first part)
    url: str  # the page showing it, within a language, with its anchor: "t9a/scout/#placement"
    description: str  # what it is, for translators: "t9a/scout · clause placement"
    markup: bool = True  # written in inline markup ([[references]], code spans); choice labels are plain words


def context(owner_key: str, *parts) -> str:
    """The message context of one field of an owner: `context("t9a/scout", "clause", "placement")`."""
    try:
        return SEPARATOR.join((owner_key, *parts))
    except TypeError:  # a choice value that is a number or true/false: spelt as str() spells it
        return SEPARATOR.join((owner_key, *map(str, parts)))


def declared_parts(predicate_name: str, argument_name: Optional[str] = None) -> tuple:
    """The field parts of an argument's meaning (or the result's, without a name)."""
    where = ("arg", argument_name) if argument_name is not None else ("returns",)
    return ("predicate", predicate_name, *where)


def declared_context(rule_key: str, predicate_name: str, argument_name: Optional[str] = None) -> str:
    """The message context of an argument's meaning (or the result's, without a name)."""
    return context(rule_key, *declared_parts(predicate_name, argument_name))


def label_context(declared_at: str, value) -> str:
    """The message context of one choice value's label, under its argument's or result's context."""
    return context(declared_at, "value", value)


def answer_context(declared_at: str, key: str) -> str:
    """The message context of one declared answer, under the result's context (answers.answer_key gives `key`)."""
    return context(declared_at, "answer", key)


# ---------------------------------------------------------------- the translatable fields
def rule_texts(rule: Rule, details: bool = True) -> Iterator[Translatable]:
    """A rule's texts, in the order of its file.

    Without `details` the page address and the translators' description are left empty: validation
    reads only paths and sources, and describing every worked example is not free.
    """
    key, lang = rule.key, rule.lang
    catalog = f"rules/{key}"

    def text(parts, source, path, what, anchor=None, markup=True):
        if not details:
            return Translatable(context(key, *parts), path, source, lang, catalog, key, "", "", markup)
        return Translatable(context(key, *parts), path, source, lang, catalog, key,
                            urls.rule_url(key, anchor), f"{key} · {what}", markup)

    yield text(("title",), rule.title, ("title",), "title")
    yield text(("summary",), rule.summary, ("summary",), "one-line summary")
    for index, clause in enumerate(rule.clauses):
        yield text(("clause", clause.id), clause.text, ("clauses", index, "text"), f"clause {clause.id}", clause.id)
    for index, predicate in enumerate(rule.predicates):
        yield from _predicate_texts(text, index, predicate)
    for index, example in enumerate(rule.examples):
        yield text(("example", example.id), example.name, ("examples", index, "name"),
                   f"worked example {example.id} ({example.predicate}, given {example.given} → {example.expect!r})"
                   if details else "", f"example-{example.id}")
    for index, clarification in enumerate(rule.clarifications):
        ident, anchor, at = clarification.id, f"clarification-{clarification.id}", ("clarifications", index)
        yield text(("clarification", ident, "question"), clarification.question, at + ("question",),
                   f"clarification {ident}: question", anchor)
        yield text(("clarification", ident, "answer"), clarification.answer, at + ("answer",),
                   f"clarification {ident}: answer ({clarification.status})", anchor)


def _predicate_texts(text, index: int, predicate) -> Iterator[Translatable]:
    """One predicate's texts (rule_texts' `text` makes each): what it answers, its arguments, its result."""
    name, anchor, at = predicate.name, f"predicate-{predicate.name}", ("predicates", index)
    yield text(("predicate", name), predicate.summary, at + ("summary",), f"predicate {name}: what it answers",
               anchor)
    for number, argument in enumerate(predicate.args):
        parts, where = declared_parts(name, argument.name), at + ("args", number)
        yield text(parts, argument.text, where + ("text",),
                   f"predicate {name}: meaning of argument {argument.name} ({argument.type})", anchor)
        for value, label in (argument.labels or {}).items():
            yield text(parts + ("value", value), label, where + ("labels", value),
                       f"predicate {name}: label of the value {value} of argument {argument.name}", anchor,
                       markup=False)
        if argument.other is not None:
            yield text(parts + ("other",), argument.other, where + ("other",),
                       f"predicate {name}: the form's words for any value of {argument.name} not listed", anchor,
                       markup=False)
        if argument.help is not None:
            yield text(parts + ("help",), argument.help, where + ("help",),
                       f"predicate {name}: one line of help under the form's field {argument.name}", anchor,
                       markup=False)
    parts, returns = declared_parts(name), predicate.returns
    yield text(parts, returns.text, at + ("returns", "text"),
               f"predicate {name}: meaning of its result ({returns.type})", anchor)
    for value, label in (returns.labels or {}).items():
        yield text(parts + ("value", value), label, at + ("returns", "labels", value),
                   f"predicate {name}: label of the result value {value}", anchor, markup=False)
    for value, answer in (returns.answers or {}).items():  # generator/kb/answers.py: how a result reads
        said = answer_key(value)
        yield text(parts + ("answer", said), answer, at + ("returns", "answers", value),
                   f"predicate {name}: the answer a reader sees " + (
                       "for any other result: {value} is the value; {a|b|...} are plural forms in your "
                       "language's order" if said == OTHER else f"when the result is {said}"), anchor, markup=False)


def system_texts(system: System) -> Iterator[Translatable]:
    url = urls.page_url(f"{system.id}/index.md")
    for field in ("name", "book"):
        yield Translatable(context(system.id, field), (field,), getattr(system, field), system.lang,
                           f"rules/{system.id}/_system", system.id, url, f"system {system.id} · {field}")


def term_texts(term: Term, lang: str) -> Iterator[Translatable]:
    """A glossary term's texts; `lang` is the term's own language or the glossary's."""
    key = term_key(term.id)
    for field in ("term", "meaning"):
        yield Translatable(context(key, field), (field,), getattr(term, field), lang, "rules/glossary", key,
                           urls.term_url(term.id), f"glossary term {term.id} · {field}")


def concept_texts(concept: Concept) -> Iterator[Translatable]:
    key = concept_key(concept.id)

    def text(parts, source, path, what):
        return Translatable(context(key, *parts), path, source, concept.lang, f"rules/concepts/{concept.id}", key,
                            urls.concept_url(concept.id), f"concept {concept.id} · {what}")

    yield text(("title",), concept.title, ("title",), "title")
    yield text(("summary",), concept.summary, ("summary",), "summary")
    if concept.intro:
        yield text(("intro",), concept.intro, ("intro",), "introduction")
    for row_index, row in enumerate(concept.rows):
        yield text(("row", row.id), row.label, ("rows", row_index, "label"), f"row label {row.id}")
        # A cell is identified by its row and column, so pointing it at another clause keeps its translation.
        for cell_index, (column, cell) in enumerate(zip(concept.columns, row.cells)):
            yield text(("cell", row.id, column), cell.text, ("rows", row_index, "cells", cell_index, "text"),
                       f"cell of row {row.id} for {column} (summarises {cell.ref})")


def term_key(term_id: str) -> str:
    return f"term{SEPARATOR}{term_id}"


def concept_key(concept_id: str) -> str:
    return f"concept{SEPARATOR}{concept_id}"


def _owner(kb: KnowledgeBase, owner) -> tuple[str, Iterator[Translatable]]:
    """The key of a rule, system, term or concept (its origin key, its contexts' first part) and its texts."""
    if isinstance(owner, Rule):
        return owner.key, rule_texts(owner)
    if isinstance(owner, Term):
        return term_key(owner.id), term_texts(owner, kb.term_lang(owner))
    if isinstance(owner, Concept):
        return concept_key(owner.id), concept_texts(owner)
    if isinstance(owner, System):
        return owner.id, system_texts(owner)
    raise UnknownText(f"{owner!r} has no translatable texts (expected a rule, system, term or concept)")


def knowledge_base_texts(kb: KnowledgeBase, details: bool = True) -> Iterator[Translatable]:
    """Every text in a stable order: each system with its rules, then the glossary, then the concepts.

    Without `details`, rules' texts come without their page address and description (see rule_texts).
    """
    for system_id in sorted(kb.systems):
        yield from system_texts(kb.systems[system_id])
        for rule in kb.rules_of(system_id):
            yield from rule_texts(rule, details)
    for term_id in sorted(kb.terms):
        yield from term_texts(kb.terms[term_id], kb.term_lang(kb.terms[term_id]))
    for concept_id in sorted(kb.concepts):
        yield from concept_texts(kb.concepts[concept_id])


def reference_texts(rule: Rule) -> Iterator[tuple[tuple, str]]:
    """(YAML path, text) of each text of a rule that may hold [[references]] (checks, back-links, loading)."""
    for text in rule_texts(rule, details=False):
        if text.markup:
            yield text.path, text.source


class Texts:
    """The texts of one loaded knowledge base, found by owner and field; one per build, filled on demand."""

    def __init__(self, kb: KnowledgeBase):
        self.kb = kb
        # id(owner) -> (the owner, its key, its texts by context). Held owners keep their ids; a reloaded owner is a
        # new object. Found by identity, not by key: working out the key is a fifth of a lookup (~50 a rule page).
        self._owned: dict[int, tuple] = {}

    def get(self, owner, *parts) -> Translatable:
        """The text of `owner`'s field `parts`: `get(rule, "clause", "placement")`, `get(term, "meaning")`."""
        known = self._owned.get(id(owner))
        if known is None or known[0] is not owner:
            key, owned = _owner(self.kb, owner)
            known = self._owned[id(owner)] = (owner, key, {text.context: text for text in owned})
        _owner_object, key, by_context = known
        wanted = context(key, *parts)
        found = by_context.get(wanted)
        if found is None:
            raise UnknownText(f"no translatable text {wanted!r}: {key} has "
                              + ", ".join(sorted(by_context)[:12]) + (" ..." if len(by_context) > 12 else ""))
        return found

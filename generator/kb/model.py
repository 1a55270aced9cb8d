"""The knowledge base's nouns: systems, rules, terms and concepts, as validated data."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, model_validator

from .value_types import ARG_TYPES, ITEM_TYPES

Id = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")]
Identifier = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")]
Lang = Annotated[str, StringConstraints(pattern=r"^[a-z]{2,3}(_[A-Z]{2})?$")]
Text = Annotated[str, StringConstraints(min_length=1, strip_whitespace=True)]



def _(text: str) -> str:
    """Marks a UI msgid for extraction; translated where it is shown (a clarification's badge)."""
    return text


NEWS = ("good", "bad", "neutral")  # what an answer can mean for the unit asked about (Returns.news)
STATUSES = {  # a clarification's status -> the badge a reader sees (a UI msgid)
    "rules-as-written": _("Rules as written"),
    "interpretation": _("Interpretation"),
    "translation-note": _("Translation note"),
}


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=False)


class System(Strict):
    id: Id
    lang: Lang
    name: Text
    book: Text
    edition: Optional[Union[str, int, float]] = None


class Alias(Strict):
    name: Text
    lang: Lang


class Source(Strict):
    page: Optional[int] = None
    pages: Optional[list[int]] = None
    section: Optional[Text] = None
    figure: Optional[int] = None

    @model_validator(mode="after")
    def one_locator(self):
        given = [name for name in ("page", "pages", "section") if getattr(self, name) is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of page, pages or section")
        if self.pages is not None and not self.pages:
            raise ValueError("pages must list at least one page")
        return self

    @property
    def page_list(self) -> list[int]:
        return [self.page] if self.page is not None else list(self.pages or [])


class Clause(Strict):
    id: Id
    text: Text


class Declared(Strict):
    """A declared value: an argument or a result. A choice lists its code names and a label for each."""

    type: Literal[ARG_TYPES]  # type: ignore[valid-type]
    text: Text
    values: Optional[list[Union[str, int]]] = None
    labels: Optional[dict[str, Text]] = None  # choice value -> what a reader sees, in the rule's language
    nullable: bool = False
    items: Optional[Literal[ITEM_TYPES]] = None  # type: ignore[valid-type]  # a `list`: what each item is
    other: Optional[Text] = None  # an open choice: the reader's words for every value it does not name
    min: Optional[Union[int, float]] = None  # a number (or each number of a list) is at least this
    max: Optional[Union[int, float]] = None  # ... and at most this

    @property
    def choices(self) -> bool:
        """Its values (or its items) come from `values`, each with a label."""
        return self.type == "choice" or (self.type == "list" and self.items == "choice")

    @model_validator(mode="after")
    def choice_needs_values_and_labels(self):
        if self.items is not None and self.type != "list":
            raise ValueError("'items' is only for type 'list' (what each item is)")
        if self.choices and not self.values:
            raise ValueError(f"type '{self.type}' of choices needs a list of allowed 'values'")
        if not self.choices and self.type != "text" and self.values is not None:
            raise ValueError("'values' is only for type 'choice' (the allowed values), a list of items: choice, "
                             "or 'text' (the known ids)")
        if not self.choices and self.labels is not None:
            raise ValueError("'labels' are only for type 'choice' (or a list of items: choice)")
        if self.other is not None and self.type != "choice":
            raise ValueError("'other' (the words for any value not listed) is only for type 'choice'")
        if self.other is not None and "other" in (self.values or []):
            raise ValueError("an open choice (with 'other') cannot also list a value named other: the form sends "
                             "that id for every value it does not name")
        numeric = ("int", "number", "inches", "mm", "degrees", "ints") + (("list",) if self.items in (
            "int", "number", "inches") else ())
        if (self.min is not None or self.max is not None) and self.type not in numeric:
            raise ValueError("'min' and 'max' are only for numbers and lists of numbers")
        if self.choices:
            names = [str(value) for value in self.values]
            missing = [name for name in names if name not in (self.labels or {})]
            if missing:
                raise ValueError(f"every choice value needs a label in the rule's language: add labels: "
                                 f"{{{', '.join(f'{name}: ...' for name in missing)}}} beside 'values'")
            unknown = sorted(set(self.labels) - set(names))
            if unknown:
                raise ValueError(f"labels name values that are not in 'values': {', '.join(unknown)}")
        return self


class Argument(Declared):
    name: Identifier
    help: Optional[Text] = None  # one line under the form's field: how to fill it in (never in clarifications)

    @model_validator(mode="after")
    def list_says_its_items(self):
        if self.type == "list" and self.items is None:
            raise ValueError("a 'list' argument says what its items are: add items: choice (with values and "
                             "labels), text, int, number, inches, bool or point")
        return self


class Returns(Declared):
    # What a reader is told for each result, in the rule's language: a phrase per value (`true:`, `false:`,
    # a choice value, a number, `null:`) and `other:`, a pattern with {value} for the rest. Checked by
    # answers.answer_problems (generator check), which knows the rule's language for plural forms.
    answers: Optional[dict[Union[bool, int, float, str, None], Text]] = None
    # What each answer means for the unit the question is about (same keys as `answers`): the panel's and the
    # examples' colour and icon follow it, not true/false. answers.news_problems checks that every answer has one.
    news: Optional[dict[Union[bool, int, float, str, None], Literal[NEWS]]] = None  # type: ignore[valid-type]


class Predicate(Strict):
    name: Identifier
    clause: Id
    summary: Text
    args: list[Argument]
    returns: Returns
    code: Text

    snippet: Optional[Any] = Field(default=None, exclude=True)

    @property
    def params(self) -> list[str]:
        return [argument.name for argument in self.args]


class Example(Strict):
    id: Id
    predicate: Identifier
    clause: Id
    name: Text
    given: dict[str, Any]
    expect: Any


class Clarification(Strict):
    id: Id
    status: Literal[tuple(STATUSES)]  # type: ignore[valid-type]
    clauses: list[Id] = Field(min_length=1)
    question: Text
    answer: Text


class Rule(Strict):
    id: Id
    title: Text
    aliases: list[Alias] = []
    source: Source
    summary: Text
    clauses: list[Clause] = Field(min_length=1)
    predicates: list[Predicate]
    examples: list[Example]
    clarifications: list[Clarification] = []
    see_also: list[str] = []

    # Filled in by the loader, not read from YAML.
    system: str = Field(default="", exclude=True)
    lang: str = Field(default="", exclude=True)

    @property
    def key(self) -> str:
        return f"{self.system}/{self.id}"

    def clause(self, clause_id: str) -> Optional[Clause]:
        return next((clause for clause in self.clauses if clause.id == clause_id), None)

    def predicate(self, name: str) -> Optional[Predicate]:
        return next((predicate for predicate in self.predicates if predicate.name == name), None)


class Term(Strict):
    id: Id
    term: Text
    lang: Optional[Lang] = None
    systems: list[str] = Field(min_length=1)
    meaning: Text


class Glossary(Strict):
    lang: Lang
    terms: list[Term]


class ConceptCell(Strict):
    ref: str
    text: Text


class ConceptRow(Strict):
    id: Id
    label: Text
    cells: list[ConceptCell]


class Concept(Strict):
    id: Id
    lang: Lang
    title: Text
    summary: Text
    intro: Optional[Text] = None
    columns: list[str] = Field(min_length=2)
    rows: list[ConceptRow] = Field(min_length=1)


@dataclass
class Origin:
    """Where a loaded object came from, so problems can name the file and line."""

    path: str
    document: Any  # yamlfile.YamlDocument
    prefix: tuple = ()  # where the object sits inside its file (a glossary term is one item of a list)

    def line(self, *path) -> int:
        return self.document.line(self.prefix + path)


@dataclass
class KnowledgeBase:
    """Everything loaded and validated: the only input the renderer and the checks see."""

    root: Path
    systems: dict[str, System] = field(default_factory=dict)
    rules: dict[str, Rule] = field(default_factory=dict)
    terms: dict[str, Term] = field(default_factory=dict)
    concepts: dict[str, Concept] = field(default_factory=dict)
    origins: dict[str, Origin] = field(default_factory=dict)  # keyed like messages: rule key, "term:id"...
    # Keys ("wap/dodge", "term:*", "concept:x") whose files exist but could not be loaded or were not asked
    # for: references to them are not reported again as "does not exist" (one broken file, one problem).
    unloaded: set[str] = field(default_factory=set)

    def term_lang(self, term: Term) -> str:
        return term.lang or self.glossary_lang

    glossary_lang: str = "en"

    def rules_of(self, system_id: str) -> list[Rule]:
        return sorted((rule for rule in self.rules.values() if rule.system == system_id), key=lambda r: r.id)


def _hint_for(error: dict) -> str:
    kind = error["type"]
    location = error["loc"]
    if kind == "missing":
        return f"add the key '{location[-1]}'"
    if kind == "extra_forbidden":
        return f"remove '{location[-1]}' or check its spelling (see rules/README.md for the allowed keys)"
    if kind == "string_pattern_mismatch":
        return "use lower-case letters, digits and hyphens for ids (snake_case for predicate and argument names)"
    if kind.startswith("literal_error"):
        return "use one of the values listed"
    if kind in ("list_type", "dict_type", "model_type"):
        return "check the indentation: this should be " + ("a list" if kind == "list_type" else "a mapping")
    if kind == "too_short":
        return "add at least one item"
    return "see rules/README.md for the expected form"


def _describe(error: dict) -> str:
    location = ".".join(str(part) for part in error["loc"]) or "(top level)"
    received = error.get("input")
    message = error["msg"]
    if error["type"] == "missing":
        return f"{location}: required key is missing"
    shown = repr(received)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return f"{location}: {message} (got {shown})"


def model_problems(problems, path: str, document, subject: str, error: ValidationError):
    """One problem per schema error, at the line of the part it names, with a hint how to fix it."""
    for item in error.errors(include_url=False):
        location = tuple(item["loc"])
        problems.add(path, document.line(location), subject, _describe(item), _hint_for(item))

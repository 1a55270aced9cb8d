"""Read every YAML file under rules/ into the data model, collecting every problem on the way."""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from .evaluate import Snippet, SnippetError
from .model import Concept, Glossary, KnowledgeBase, Origin, Rule, System
from .problems import Problems, relative
from .yamlfile import YamlError, read_yaml

SYSTEM_FILE = "_system.yaml"
GLOSSARY_FILE = "glossary.yaml"
CONCEPTS_DIR = "concepts"


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


def _model_problems(problems: Problems, path: str, document, subject: str, error: ValidationError):
    for item in error.errors(include_url=False):
        location = tuple(item["loc"])
        problems.add(path, document.line(location), subject, _describe(item), _hint_for(item))


def _read(path: Path, root: Path, problems: Problems, subject: str):
    shown = relative(path, root)
    try:
        document = read_yaml(path)
    except YamlError as error:
        problems.add(shown, error.line, subject, error.message, error.hint)
        return shown, None
    if not isinstance(document.data, dict):
        problems.add(shown, 1, subject, "the file must hold a mapping of keys (id:, title:, ...)",
                     "start from the annotated example in rules/README.md")
        return shown, None
    return shown, document


def load(root: Path) -> tuple[KnowledgeBase, Problems]:
    """Load systems, rules, glossary and concepts from root/rules; never stops at the first problem."""
    root = Path(root)
    rules_dir = root / "rules"
    kb = KnowledgeBase(root=root)
    problems = Problems()
    if not rules_dir.is_dir():
        problems.add(relative(rules_dir, root), 0, "", "the rules folder is missing", "run from the repository root")
        return kb, problems

    for system_dir in sorted(p for p in rules_dir.iterdir() if p.is_dir() and p.name != CONCEPTS_DIR):
        system_file = system_dir / SYSTEM_FILE
        if not system_file.exists():
            problems.add(relative(system_dir, root), 0, system_dir.name, f"no {SYSTEM_FILE} in this system folder",
                         f"add {SYSTEM_FILE} with id, lang, name and book")
            continue
        shown, document = _read(system_file, root, problems, system_dir.name)
        if document is None:
            continue
        try:
            system = System.model_validate(document.data)
        except ValidationError as error:
            _model_problems(problems, shown, document, system_dir.name, error)
            continue
        if system.id != system_dir.name:
            problems.add(shown, document.line(("id",)), system_dir.name,
                         f"id is {system.id!r} but the folder is {system_dir.name!r}",
                         "make the id equal to the folder name")
            continue
        kb.systems[system.id] = system
        kb.origins[system.id] = Origin(shown, document)

        for rule_file in sorted(system_dir.glob("*.yaml")):
            if rule_file.name == SYSTEM_FILE:
                continue
            _load_rule(rule_file, system, root, kb, problems)
        for stray in sorted(system_dir.glob("*.yml")):
            problems.add(relative(stray, root), 0, system.id, "rule files end in .yaml", "rename it to .yaml")

    glossary_file = rules_dir / GLOSSARY_FILE
    if glossary_file.exists():
        shown, document = _read(glossary_file, root, problems, "glossary")
        if document is not None:
            try:
                glossary = Glossary.model_validate(document.data)
            except ValidationError as error:
                _model_problems(problems, shown, document, "glossary", error)
            else:
                kb.glossary_lang = glossary.lang
                for index, term in enumerate(glossary.terms):
                    key = f"term:{term.id}"
                    if key in kb.origins:
                        problems.add(shown, document.line(("terms", index, "id")), key,
                                     f"term id {term.id!r} is defined twice", "give each term its own id")
                        continue
                    kb.terms[term.id] = term
                    kb.origins[key] = Origin(shown, document, ("terms", index))

    concepts_dir = rules_dir / CONCEPTS_DIR
    if concepts_dir.is_dir():
        for concept_file in sorted(concepts_dir.glob("*.yaml")):
            shown, document = _read(concept_file, root, problems, f"concept:{concept_file.stem}")
            if document is None:
                continue
            try:
                concept = Concept.model_validate(document.data)
            except ValidationError as error:
                _model_problems(problems, shown, document, f"concept:{concept_file.stem}", error)
                continue
            if concept.id != concept_file.stem:
                problems.add(shown, document.line(("id",)), f"concept:{concept.id}",
                             f"id is {concept.id!r} but the file is {concept_file.name!r}",
                             "make the id equal to the file name")
                continue
            kb.concepts[concept.id] = concept
            kb.origins[f"concept:{concept.id}"] = Origin(shown, document)
    return kb, problems


def _load_rule(rule_file: Path, system, root: Path, kb: KnowledgeBase, problems: Problems):
    subject = f"{system.id}/{rule_file.stem}"
    shown, document = _read(rule_file, root, problems, subject)
    if document is None:
        return
    try:
        rule = Rule.model_validate(document.data)
    except ValidationError as error:
        _model_problems(problems, shown, document, subject, error)
        return
    if rule.id != rule_file.stem:
        problems.add(shown, document.line(("id",)), subject,
                     f"id is {rule.id!r} but the file is {rule_file.name!r}",
                     "make the id equal to the file name (ids are part of page addresses)")
        return
    rule.system = system.id
    rule.lang = system.lang
    for index, predicate in enumerate(rule.predicates):
        try:
            predicate.snippet = Snippet.compile(predicate.code, predicate.params)
        except SnippetError as error:
            code_line = document.line(("predicates", index, "code"))
            # A block scalar's text starts on the line after its key.
            line = code_line + (error.line or 0)
            problems.add(shown, line, subject,
                         f"predicate {predicate.name}: code refused: {error.reason}",
                         "rewrite the snippet with the constructs listed in rules/README.md")
    kb.rules[rule.key] = rule
    kb.origins[rule.key] = Origin(shown, document)

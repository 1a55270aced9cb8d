"""Read the YAML files under rules/ into the data model, collecting every problem on the way.

`load_and_validate` is the one owner of the "load, then validate" sequence (cli, site, serve, tests):
everything is validated, but a reference to a file that exists and failed to load is not reported
again (one broken file gives one problem), and callers run no examples while problems remain.
With `rules=` it loads only those rules, the rules and concepts they reference, and the glossary —
what `check FILE` and `check rules/wap/` need — and validates only the rules asked for.
"""

from __future__ import annotations

import contextlib
import functools
import gc
from collections import defaultdict
from pathlib import Path
from typing import Callable, Collection, Optional

from pydantic import ValidationError

from ..core.parallel import fill_cache
from ..core.problems import Problems
from ..core.repofiles import repository_files, shown_path
from ..core.yamlfile import read_document
from ..evaluate import Snippet, SnippetError
from .layout import ALL_TERMS, CONCEPTS_DIR, GLOSSARY_FILE, RULES_DIR, SYSTEM_FILE
from .model import Concept, Glossary, KnowledgeBase, Origin, Rule, System, model_problems
from .parts import referenced, referring
from .texts import concept_key, term_key
from .validate import validate


@contextlib.contextmanager
def bulk_allocation():
    """No collection of cycles while many long-lived objects are made (a knowledge base, its cases and answers).

    A collection would walk the growing model only to keep all of it. Reference counting still frees nearly
    everything at once; the few cycles left wait until the block ends, when the collector comes back as it
    was.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@functools.lru_cache(maxsize=None)
def _compiled(code: str, params: tuple[str, ...]) -> Snippet:
    """A vetted snippet; the same code with the same parameters is checked once per process (it is pure)."""
    return Snippet.compile(code, list(params))


class _Loader:
    """One pass over rules/: reads files into `kb`, recording what failed in `kb.unloaded`."""

    def __init__(self, root: Path, with_lines: bool = False):
        self.root = root
        self.with_lines = with_lines  # every file's map of lines will be asked for (see parse_yaml_cached)
        self.kb = KnowledgeBase(root=root)
        self.problems = Problems()
        self.by_folder: dict[str, dict[str, Path]] = defaultdict(dict)  # system or concepts -> stem -> file
        self.loose: list[Path] = []  # files directly under rules/

    def survey(self):
        """List every file under rules/ (refusing symlinks out), grouped by folder."""
        for path in repository_files(self.root, RULES_DIR, self.problems):
            parts = path.relative_to(self.root / RULES_DIR).parts
            if len(parts) == 1:
                self.loose.append(path)
            elif len(parts) == 2:
                self.by_folder[parts[0]][parts[1]] = path

    def yaml_files(self) -> list[Path]:
        """Every YAML file the survey found, which a full load reads."""
        paths = [path for files in self.by_folder.values() for path in files.values()] + self.loose
        return [path for path in paths if path.suffix == ".yaml"]

    def parse(self, path: Path) -> None:
        """Parse one file through the disk cache, its problems left for the reading that follows."""
        read_document(self.root, path, Problems(), "", self.with_lines)

    def parse_ahead(self):
        """Parse every file the disk cache lacks on all cores (core/parallel.py); reading them then hits the cache."""
        fill_cache(self.parse, self.yaml_files())

    def read(self, path: Path, subject: str):
        shown = shown_path(path, self.root)
        document = read_document(self.root, path, self.problems, subject, self.with_lines)
        if document is None:
            return shown, None
        if not isinstance(document.data, dict):
            self.problems.add(shown, 1, subject, "the file must hold a mapping of keys (id:, title:, ...)",
                              "start from the annotated example in rules/README.md")
            return shown, None
        return shown, document

    def model(self, path: Path, subject: str, model_class, expected_id: Optional[str], named_by: str):
        """Read `path` as `model_class`: (object, origin), or None with problems if broken or its id is wrong.

        `named_by` says what the id must equal: "folder" or "file".
        """
        shown, document = self.read(path, subject)
        if document is None:
            return None
        try:
            item = model_class.model_validate(document.data)
        except ValidationError as error:
            model_problems(self.problems, shown, document, subject, error)
            return None
        if expected_id is not None and item.id != expected_id:
            name = path.parent.name if named_by == "folder" else path.name
            self.problems.add(shown, document.line(("id",)), subject,
                              f"id is {item.id!r} but the {named_by} is {name!r}",
                              f"make the id equal to the {named_by} name (ids are part of page addresses)")
            return None
        document.data = None  # the model holds what is needed now; the origin keeps only the file's lines
        return item, Origin(shown, document)

    def system(self, name: str) -> Optional[System]:
        if name in self.kb.systems:
            return self.kb.systems[name]
        if SYSTEM_FILE not in self.by_folder[name]:
            self.problems.add(f"{RULES_DIR}/{name}", 0, name, f"no {SYSTEM_FILE} in this system folder",
                              f"add {SYSTEM_FILE} with id, lang, name and book")
            return None
        loaded = self.model(self.by_folder[name][SYSTEM_FILE], name, System, name, "folder")
        if loaded is None:
            return None
        system, self.kb.origins[name] = loaded
        self.kb.systems[name] = system
        return system

    def rule_files(self, name: str) -> dict[str, Path]:
        return {file[:-len(".yaml")]: path for file, path in self.by_folder[name].items()
                if file.endswith(".yaml") and file != SYSTEM_FILE}

    def systems_and_rules(self, wanted: Optional[Collection[str]]):
        for name in sorted(self.by_folder):
            if name == CONCEPTS_DIR:
                continue
            stems = self.rule_files(name)
            keys = {f"{name}/{stem}": stem for stem in stems}
            if wanted is not None:
                keys = {key: stem for key, stem in keys.items() if key in wanted}
                if not keys:
                    continue
            system = self.system(name)
            if system is None:
                self.kb.unloaded.update(keys)
                continue
            for key, stem in sorted(keys.items()):
                if key not in self.kb.rules and not self.rule(stems[stem], system):
                    self.kb.unloaded.add(key)
            if wanted is None:
                for stray in sorted(file for file in self.by_folder[name] if file.endswith(".yml")):
                    self.problems.add(f"{RULES_DIR}/{name}/{stray}", 0, system.id, "rule files end in .yaml",
                                      "rename it to .yaml")

    def rule(self, rule_file: Path, system: System) -> bool:
        subject = f"{system.id}/{rule_file.stem}"
        loaded = self.model(rule_file, subject, Rule, rule_file.stem, "file")
        if loaded is None:
            return False
        rule, origin = loaded
        shown, document = origin.path, origin.document
        rule.system = system.id
        rule.lang = system.lang
        for index, predicate in enumerate(rule.predicates):
            try:
                predicate.snippet = _compiled(predicate.code, tuple(predicate.params))
            except SnippetError as error:
                code_line = document.line(("predicates", index, "code"))
                # A block scalar's text starts on the line after its key.
                self.problems.add(shown, code_line + (error.line or 0), subject,
                                  f"predicate {predicate.name}: code refused: {error.reason}",
                                  "rewrite the snippet with the constructs listed in rules/README.md")
        self.kb.rules[rule.key] = rule
        self.kb.origins[rule.key] = origin
        return True

    def glossary(self):
        path = next((p for p in self.loose if p.name == GLOSSARY_FILE), None)
        if path is None:
            return
        loaded = self.model(path, "glossary", Glossary, None, "file")
        if loaded is None:
            self.kb.unloaded.add(ALL_TERMS)
            return
        glossary, origin = loaded
        shown, document = origin.path, origin.document
        self.kb.glossary_lang = glossary.lang
        for index, term in enumerate(glossary.terms):
            key = term_key(term.id)
            if key in self.kb.origins:
                self.problems.add(shown, document.line(("terms", index, "id")), key,
                                  f"term id {term.id!r} is defined twice", "give each term its own id")
                continue
            self.kb.terms[term.id] = term
            self.kb.origins[key] = Origin(shown, document, ("terms", index))

    def concepts(self, wanted: Optional[Collection[str]]):
        for file, path in sorted(self.by_folder.get(CONCEPTS_DIR, {}).items()):
            stem = file[:-len(".yaml")]
            key = concept_key(stem)
            if not file.endswith(".yaml") or (wanted is not None and key not in wanted):
                continue
            loaded = self.model(path, key, Concept, stem, "file")
            if loaded is None:
                self.kb.unloaded.add(key)
                continue
            concept, self.kb.origins[key] = loaded
            self.kb.concepts[concept.id] = concept


def rule_file_reads(root: Path, with_lines: bool = False) -> list[Callable[[], None]]:
    """A call per YAML file a full load() parses, parsing it through the disk cache, for a command that shares
    them out over the cores before it loads (cli/common.py loaded_while_catalogs_read)."""
    loader = _Loader(Path(root).resolve(), with_lines)
    if not (loader.root / RULES_DIR).is_dir():
        return []
    loader.survey()
    return [functools.partial(loader.parse, path) for path in loader.yaml_files()]


def load(root: Path, rules: Optional[Collection[str]] = None,
         with_lines: bool = False) -> tuple[KnowledgeBase, Problems]:
    """Load systems, rules, glossary and concepts from root/rules; never stops at the first problem.

    With `rules` (keys like "wap/dodge"), only those rules (and their systems), the glossary and the
    rules and concepts they reference are read; every other rule is marked unloaded. `with_lines` is for
    callers that will ask for the line of every text (`i18n update`): a file parsed now keeps its lines.
    """
    with bulk_allocation():
        return _load(Path(root).resolve(), rules, with_lines)


def _load(root: Path, rules: Optional[Collection[str]], with_lines: bool = False) -> tuple[KnowledgeBase, Problems]:
    loader = _Loader(root, with_lines)
    if not (root / RULES_DIR).is_dir():
        loader.problems.add(RULES_DIR, 0, "", "the rules folder is missing", "run from the repository root")
        return loader.kb, loader.problems
    loader.survey()
    if rules is None:
        loader.parse_ahead()
        loader.systems_and_rules(None)
        loader.glossary()
        loader.concepts(None)
        return loader.kb, loader.problems
    wanted = set(rules)
    loader.systems_and_rules(wanted)
    targets = referenced(loader.kb, wanted)
    loader.systems_and_rules(targets - wanted)
    loader.glossary()
    loader.concepts({target for target in targets if target.startswith(concept_key(""))})
    every_rule = {f"{name}/{stem}" for name in loader.by_folder if name != CONCEPTS_DIR for stem in loader.rule_files(name)}
    loader.kb.unloaded.update(every_rule - set(loader.kb.rules))
    concepts = (concept_key(file[:-len(".yaml")]) for file in loader.by_folder.get(CONCEPTS_DIR, {}))
    loader.kb.unloaded.update(key for key in concepts if key not in loader.kb.origins)
    return loader.kb, loader.problems


def load_and_validate(root: Path, rules: Optional[Collection[str]] = None,
                      with_lines: bool = False) -> tuple[KnowledgeBase, Problems]:
    """Load, then validate (only the rules asked for, if `rules` is given); every problem found, cascades left out."""
    kb, problems = load(root, rules, with_lines)
    return kb, validated(kb, problems, rules)


def validated(kb: KnowledgeBase, problems: Problems, rules: Optional[Collection[str]] = None) -> Problems:
    """`problems` (from loading `kb`) with what validating the rules asked for (all if None) finds added: the
    second half of load_and_validate, for a command that works on the loaded rules meanwhile (check)."""
    problems.extend(validate(kb, None if rules is None else set(rules) & set(kb.rules)))
    return problems


def reload(kb: KnowledgeBase, keys: Collection[str]) -> tuple[KnowledgeBase, Problems]:
    """A copy of a loaded, valid `kb` with the rules `keys` read again from their files (`make serve` after an edit).

    Every other file stays as it was read. Validated again: the edited rules, the rules whose text or
    see_also names one of them (a clause they point at may be gone), and every term and concept.
    Each key must name a rule of `kb` whose file still exists (anything else needs a full `load`).
    """
    fresh = KnowledgeBase(root=kb.root, systems=kb.systems, rules=dict(kb.rules), terms=kb.terms,
                          concepts=kb.concepts, origins=dict(kb.origins), unloaded=set(kb.unloaded),
                          glossary_lang=kb.glossary_lang)
    loader = _Loader(kb.root)
    loader.kb = fresh
    with bulk_allocation():
        for key in sorted(keys):
            system, stem = key.split("/")
            del fresh.rules[key]
            if not loader.rule(kb.root / RULES_DIR / system / f"{stem}.yaml", fresh.systems[system]):
                fresh.unloaded.add(key)
    problems = loader.problems
    problems.extend(validate(fresh, set(keys) | referring(fresh, keys), shared=True))
    return fresh, problems

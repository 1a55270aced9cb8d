"""Run worked examples, from the rules themselves or from a player's own file, against their predicates."""

from __future__ import annotations

import functools
import itertools
import math
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Optional, Union

from ..core import cache
from ..core.parallel import fill_cache
from ..core.problems import Problems, relative
from ..core.yamlfile import YamlError, read_yaml
from ..evaluate import (
    MAX_FILE_STEPS,
    MAX_RUN_STEPS,
    Allowance,
    LimitReached,
    SnippetRuntimeError,
    StepLimit,
    call_budget,
    spent_allowance,
)
from .model import KnowledgeBase
from .value_types import declared_problem

SCENARIO_KEYS = ("rule", "predicate", "given", "expect", "name", "id")  # the first four are required
TOLERANCE = 1e-9  # numbers this close count as equal (distances come out of square roots)


@dataclass
class Case:
    """One question put to a predicate: the arguments and the answer expected."""

    rule: str
    predicate: str
    given: dict
    expect: Any
    name: str
    case_id: str
    file: str
    where: Union[int, Callable[[], int]]  # the line, or how to find it (only a failure needs it)
    clause: Optional[str] = None  # the clause a rule's own example illustrates: it must be on the traced path

    @property
    def line(self) -> int:
        return self.where if isinstance(self.where, int) else self.where()

    @property
    def test_id(self) -> str:
        return f"{self.rule}::{self.predicate}::{self.case_id}"


@dataclass
class Outcome:
    case: Case
    passed: bool
    got: Any = None
    error: Optional[str] = None
    stopped: Optional[str] = None  # `file:line: rule: predicate: what stopped it — hint`, line in the snippet
    steps: list = field(default_factory=list)  # the traced steps (evaluate/trace.py); empty when from the cache
    over: Optional[Allowance] = None  # the shared allowance (a file's, the run's) this example ran out of

    def describe(self) -> str:
        if self.passed:
            return f"PASS {self.case.test_id}"
        if self.stopped:
            return f"FAIL {self.stopped} (example {self.case.case_id})"
        detail = self.error or f"expected {self.case.expect!r}, got {self.got!r}"
        return f"FAIL {self.case.file}:{self.case.line}: {self.case.test_id}: {detail}"


def same(expected, got) -> bool:
    """Equal as plain data: numbers within TOLERANCE, lists and tuples element by element."""
    if isinstance(expected, bool) or isinstance(got, bool):
        return isinstance(expected, bool) and isinstance(got, bool) and expected == got
    if isinstance(expected, (int, float)) and isinstance(got, (int, float)):
        return math.isclose(expected, got, rel_tol=TOLERANCE, abs_tol=TOLERANCE)
    if isinstance(expected, (list, tuple)) and isinstance(got, (list, tuple)):
        return len(expected) == len(got) and all(same(e, g) for e, g in zip(expected, got))
    if isinstance(expected, dict) and isinstance(got, dict):
        return expected.keys() == got.keys() and all(same(expected[k], got[k]) for k in expected)
    return expected == got


def rule_cases(kb: KnowledgeBase) -> list[Case]:
    """Every worked example written in the rule files, in a stable order."""
    cases = []
    for key in sorted(kb.rules):
        rule = kb.rules[key]
        origin = kb.origins[key]
        for index, example in enumerate(rule.examples):
            cases.append(Case(rule.key, example.predicate, example.given, example.expect, example.name,
                              example.id, origin.path, functools.partial(origin.line, "examples", index),
                              example.clause))
    return cases


def run_case(kb: KnowledgeBase, case: Case, *allowances: Allowance) -> Outcome:
    """One example's outcome; its steps are spent from each of the `allowances` too (a file's, the run's)."""
    rule = kb.rules.get(case.rule)
    predicate = rule.predicate(case.predicate) if rule else None
    if predicate is None or predicate.snippet is None:
        return Outcome(case, False, error=f"no runnable predicate {case.rule}::{case.predicate}")
    snippet = predicate.snippet
    budget = call_budget(snippet.steps, *allowances)
    try:
        got, steps = snippet.traced(case.given, budget)
    except SnippetRuntimeError as error:
        over = spent_allowance(budget, snippet.steps, *allowances) if isinstance(error, StepLimit) else None
        return Outcome(case, False, error=f"the predicate stopped: {error}", stopped=_stopped(kb, case, error),
                       over=over)
    finally:
        for allowance in allowances:
            allowance.spend(min(budget.spent, budget.limit))
    if not same(case.expect, got):
        return Outcome(case, False, got=got, steps=steps)
    applied = [step["clause"] for step in steps if step["clause"]]
    if case.clause is not None and case.clause not in applied:
        return Outcome(case, False, got=got, steps=steps, error=(
            f"the example illustrates clause {case.clause}, which is not on the path the predicate took "
            f"(its steps apply {', '.join(dict.fromkeys(applied)) or 'no clause'}) — give the example the clause "
            f"that decides it, or correct the predicate's # clause notes"))
    return Outcome(case, True, got=got, steps=steps)


def run_cases(kb: KnowledgeBase, cases: list[Case]) -> Iterator[Outcome]:
    """run_case for each case in turn; a rule's examples that all passed before come from the disk cache.

    An answer is a pure function of the predicates' code and arguments, the examples and the evaluator's
    code, which together make the key. Only a rule whose every example passed is kept: a failure is
    worked out afresh, with its line and message from the files as they are now.
    """
    groups = _groups(cases)
    fill_cache(*answer_work(kb, cases))  # a first run works them out on every core
    run = Allowance(MAX_RUN_STEPS, "MAX_RUN_STEPS")
    for index, group in enumerate(groups):
        outcomes = _rule_outcomes(kb, group, run)
        if outcomes[-1].over is run:
            later = groups[index + 1:]
            outcomes[-1] = _over_budget(outcomes[-1], sum(map(len, later)), len(later))
            yield from outcomes
            return
        yield from outcomes


def answer_work(kb: KnowledgeBase, cases: list[Case]) -> tuple[Callable[[list[Case]], object], list[list[Case]]]:
    """What run_cases works out, as a pure call and the items to call it on (one rule's cases each), for having
    another core fill the disk cache with the answers beforehand (core/parallel.py fill_beside)."""
    # Each process that fills the cache spends at most a run's allowance of its own (a fork copies it); what it
    # leaves undone the run works out, within the run's allowance.
    filling = Allowance(MAX_RUN_STEPS, "MAX_RUN_STEPS")
    return (lambda group: _rule_outcomes(kb, group, filling)), _groups(cases)


def _groups(cases: list[Case]) -> list[list[Case]]:
    """The cases in runs of one rule's: a rule's answers are kept together."""
    return [list(group) for _rule, group in itertools.groupby(cases, key=lambda case: case.rule)]


def _rule_outcomes(kb: KnowledgeBase, group: list[Case], run: Allowance) -> list[Outcome]:
    """The outcomes of one rule's cases, from the disk cache when they all passed before.

    The cases spend a file's allowance (MAX_FILE_STEPS) and `run`; the first to run out of either ends the
    group. Answers from the cache spend what they spent when worked out, so that a run stops at the same place
    with the cache as without it.
    """
    key = _cases_key(kb, group)
    stored = cache.stored(ANSWERS, key) if key is not None else None
    if isinstance(stored, tuple) and len(stored) == 2 and len(stored[0]) == len(group) and stored[1] <= run.remaining:
        answers, spent = stored
        run.spend(spent)
        return [Outcome(case, True, got=got) for case, got in zip(group, answers)]
    file = Allowance(MAX_FILE_STEPS, "MAX_FILE_STEPS")
    outcomes = []
    for index, case in enumerate(group):
        outcomes.append(run_case(kb, case, file, run))
        if outcomes[-1].over is file:
            outcomes[-1] = _over_budget(outcomes[-1], len(group) - index - 1, 0)
        if outcomes[-1].over is not None:
            break
    if key is not None and all(outcome.passed for outcome in outcomes):
        try:
            cache.store(ANSWERS, key, ([outcome.got for outcome in outcomes], file.spent))
        except ValueError:  # an answer marshal cannot hold: worked out again next time
            pass
    return outcomes


def _over_budget(outcome: Outcome, cases_left: int, files_left: int) -> Outcome:
    """The outcome of the example that spent the last of a shared allowance: where, which limit, what was left."""
    case, over = outcome.case, outcome.over
    whose = f"the worked examples of {case.file}" if over.name == "MAX_FILE_STEPS" else "the worked examples of this run"
    left = f"{cases_left} example(s) after this one" + (f" and those of {files_left} more file(s)" if files_left else "")
    error = (f"{whose} spent their budget of {over.limit:,} evaluation steps ({over.name}); {left} not run — make the "
             f"examples cheaper (smaller arguments, fewer loops) or fewer")
    return Outcome(case, False, error=error, stopped=f"{case.file}:{case.line}: {case.test_id}: {error}", over=over)


ANSWERS = "example-answers"  # the disk cache's kind for a rule's answers (kept only when all of them passed)


def _cases_key(kb: KnowledgeBase, cases: list[Case]) -> Optional[bytes]:
    """What a rule's answers depend on, as bytes; None if it cannot be put in bytes (then nothing is cached)."""
    rule = kb.rules.get(cases[0].rule)
    if rule is None:
        return None
    # The rule's key is not needed for correctness; it keeps copies of one rule (the benchmarks' inputs)
    # from answering for each other, so the figures stay those of distinct rules.
    predicates = tuple((p.name, p.code, tuple(p.params), getattr(p.snippet, "steps", None)) for p in rule.predicates)
    asked = tuple((case.predicate, case.given, case.expect, case.clause) for case in cases)
    try:
        return cache.key_bytes((rule.key, predicates, asked))
    except ValueError:
        return None


def _stopped(kb: KnowledgeBase, case: Case, error: SnippetRuntimeError) -> str:
    """Where and why a predicate stopped, at the line of its snippet in the rule file."""
    rule = kb.rules[case.rule]
    origin = kb.origins[case.rule]
    index = next(i for i, p in enumerate(rule.predicates) if p.name == case.predicate)
    # A block scalar's text starts on the line after its key.
    line = origin.line("predicates", index, "code") + (error.line or 0)
    what = f"{error.limit} reached: {error.reason}" if isinstance(error, LimitReached) else error.reason
    return f"{origin.path}:{line}: {case.rule}: {case.predicate}: {what} — {error.hint}"


@dataclass
class ScenarioFile:
    """A player's file of questions, read but not yet matched against the rules."""

    path: Path
    shown: str
    document: Any  # yamlfile.YamlDocument
    entries: list
    prefix: tuple  # where the list sits in the file: () or ("examples",)

    def rule_keys(self) -> set[str]:
        """The rules the file asks about (only well-formed keys; the rest are reported later)."""
        return {entry["rule"] for entry in self.entries if isinstance(entry, dict) and isinstance(entry.get("rule"), str)}


def read_scenarios(path: Path, root: Path, problems: Problems) -> Optional[ScenarioFile]:
    """Read a player's scenario file: a list of {rule, predicate, given, expect} (name, id optional)."""
    path = Path(path)
    shown = relative(path, root)
    if path.is_dir():
        problems.add(shown, 0, "", "is a folder, not a scenario file",
                     "name a YAML file of examples (to check part of the rules, give a folder under rules/)")
        return None
    if not path.exists():
        problems.add(shown, 0, "", "file not found", "check the path")
        return None
    if not stat.S_ISREG(path.stat().st_mode):
        problems.add(shown, 0, "", "is not a plain file (a device, fifo or socket)", "name a YAML file of examples")
        return None
    try:
        document = read_yaml(path)
    except YamlError as error:
        problems.add(shown, error.line, "", error.message, error.hint)
        return None
    except OSError as error:
        problems.add(shown, 0, "", f"cannot be read ({error.strerror})", "check the path and its permissions")
        return None
    entries, prefix = document.data, ()
    if isinstance(entries, dict) and "examples" in entries:
        entries, prefix = entries["examples"], ("examples",)
    if not isinstance(entries, list):
        problems.add(shown, 1, "", "the file must be a list of examples",
                     "write entries like: - {rule: t9a/scout, predicate: deploy_ok, given: {...}, expect: true}")
        return None
    return ScenarioFile(path, shown, document, entries, prefix)


def _entry_problem(entry, index: int):
    """What is wrong with the shape of one entry, as (key, message, hint), or None."""
    if not isinstance(entry, dict):
        return None, f"entry {index + 1} is not a mapping", "give rule, predicate, given, expect"
    missing = [key for key in SCENARIO_KEYS[:4] if key not in entry]
    if missing:
        return None, f"entry {index + 1} lacks {', '.join(missing)}", "each entry needs rule, predicate, given and expect"
    unknown = [str(key) for key in entry if key not in SCENARIO_KEYS]
    if unknown:
        return None, f"entry {index + 1} has unknown keys {', '.join(unknown)}", "allowed keys: " + ", ".join(SCENARIO_KEYS)
    for key in ("rule", "predicate"):
        if not isinstance(entry[key], str):
            return key, f"{key} is {entry[key]!r}, not a name", "write one name, like t9a/scout or deploy_ok"
    if not isinstance(entry["given"], dict):
        return "given", "given must be a mapping", "write given: {argument: value, ...}"
    odd = [repr(key) for key in entry["given"] if not isinstance(key, str)]
    if odd:
        return "given", f"given has keys that are not argument names: {', '.join(odd)}", "use the predicate's argument names"
    return None


def external_cases(kb: KnowledgeBase, scenarios: ScenarioFile, problems: Problems) -> list[Case]:
    """The cases of a scenario file that fit the rules; every entry that does not is a problem."""
    shown, document, prefix = scenarios.shown, scenarios.document, scenarios.prefix
    cases = []
    for index, entry in enumerate(scenarios.entries):
        line = document.line(prefix + (index,))
        subject = str(entry.get("rule", "")) if isinstance(entry, dict) and isinstance(entry.get("rule"), str) else ""
        shape = _entry_problem(entry, index)
        if shape:
            key, message, hint = shape
            problems.add(shown, document.line(prefix + (index, key)) if key else line, subject, message, hint)
            continue
        rule = kb.rules.get(entry["rule"])
        if rule is None:
            problems.add(shown, document.line(prefix + (index, "rule")), subject,
                         f"no rule {entry['rule']!r}", "use a key like t9a/scout (see the site's index)")
            continue
        predicate = rule.predicate(entry["predicate"])
        if predicate is None:
            problems.add(shown, document.line(prefix + (index, "predicate")), subject,
                         f"{rule.key} has no predicate {entry['predicate']!r}",
                         "use one of: " + ", ".join(p.name for p in rule.predicates))
            continue
        wanted, got = set(predicate.params), set(entry["given"])
        if wanted != got:
            parts = []
            if wanted - got:
                parts.append("lacks " + ", ".join(sorted(wanted - got)))
            if got - wanted:
                parts.append("has unknown " + ", ".join(sorted(got - wanted)))
            problems.add(shown, document.line(prefix + (index, "given")), subject,
                         f"given {' and '.join(parts)}", f"{predicate.name} takes: {', '.join(predicate.params)}")
            continue
        wrong = [(argument, form) for argument in predicate.args
                 for form in [declared_problem(argument, entry["given"][argument.name])] if form]
        for argument, form in wrong:
            problems.add(shown, document.line(prefix + (index, "given", argument.name)), subject,
                         f"{argument.name} is {entry['given'][argument.name]!r}", f"expected {form}")
        if wrong:
            continue
        case_id = str(entry.get("id") or f"{scenarios.path.stem}-{index + 1}")
        cases.append(Case(rule.key, predicate.name, entry["given"], entry["expect"],
                          str(entry.get("name") or case_id), case_id, shown, line))
    return cases

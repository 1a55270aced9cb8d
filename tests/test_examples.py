"""Every worked example in rules/ runs against its predicate: the rule files are the test suite."""

from __future__ import annotations

import dataclasses

import pytest

from generator.core import cache
from generator.kb import examples
from generator.kb.examples import rule_cases, run_case, run_cases
from generator.kb.load import load

from .conftest import ROOT

_KB, _PROBLEMS = load(ROOT)
CASES = rule_cases(_KB)


def test_the_rules_load_without_problems():
    assert not _PROBLEMS, _PROBLEMS.report()


def test_there_are_worked_examples_to_run():
    assert len(CASES) >= 100


@pytest.mark.parametrize("case", CASES, ids=[case.test_id for case in CASES])
def test_worked_example(case):
    outcome = run_case(_KB, case)
    assert outcome.passed, outcome.describe()


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("KB_NO_CACHE", raising=False)
    yield
    cache.forget()


def _dodge_cases():
    return [case for case in CASES if case.rule == "wap/dodge"]


def test_a_rule_whose_examples_all_passed_is_answered_from_the_cache_with_the_same_outcomes(cache_home, monkeypatch):
    fresh = [(o.passed, o.got) for o in run_cases(_KB, _dodge_cases())]
    cache.forget()  # as a new process would
    monkeypatch.setattr(examples, "run_case", lambda *_: pytest.fail("worked out again"))
    assert [(o.passed, o.got) for o in run_cases(_KB, _dodge_cases())] == fresh and all(p for p, _ in fresh)


def test_a_changed_predicate_or_example_is_worked_out_again_and_a_failure_is_never_cached(cache_home, monkeypatch):
    cases = _dodge_cases()
    list(run_cases(_KB, cases))
    wrong = [dataclasses.replace(cases[0], expect="not this")] + cases[1:]
    assert [o.passed for o in run_cases(_KB, wrong)] == [False] + [True] * (len(cases) - 1)
    runs = []
    real_run_case = examples.run_case
    monkeypatch.setattr(examples, "run_case", lambda kb, case, *shared: runs.append(case) or real_run_case(kb, case, *shared))
    assert not next(iter(run_cases(_KB, wrong))).passed and len(runs) == len(cases)  # not from the cache
    rule = _KB.rules["wap/dodge"]
    predicate = rule.predicates[0]
    edited = predicate.model_copy(update={"code": predicate.code + "\n"})
    monkeypatch.setattr(rule, "predicates", [edited] + rule.predicates[1:])
    runs.clear()
    list(run_cases(_KB, cases))
    assert len(runs) == len(cases)


def test_a_worked_examples_number_counts_as_the_answer_only_within_a_billionth():
    assert examples.same(0.1 + 0.2, 0.3)  # arithmetic's rounding is not a wrong example
    assert examples.same(2 ** 0.5 * 2 ** 0.5, 2)
    assert not examples.same(1.0, 1.0 + 1e-6)
    assert not examples.same(7.0, 7.4)  # a wrong example close to the answer still fails
    assert not examples.same([1.0, 2.0], [1.0, 2.4])

"""Every worked example in rules/ runs against its predicate: the rule files are the test suite."""

from __future__ import annotations

import pytest

from generator.examples import rule_cases, run_case
from generator.load import load

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

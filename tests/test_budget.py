"""A whole check has a step budget (security review, round four, B): a rule file's worked examples share
MAX_FILE_STEPS and a run's share MAX_RUN_STEPS, so a pull request cannot make `check` (or the differential tests,
which run what check runs) take longer than those bounds, however many examples it adds."""

from __future__ import annotations

import re

import pytest

from generator.core import cache
from generator.evaluate import MAX_FILE_STEPS, MAX_STEPS, Allowance, Snippet
from generator.kb import examples
from generator.kb.load import load

from .conftest import run_generator
from .differential import checked_examples, run_python

# The review's predicate: about 63,000 steps for each unit of n, so n = 3 stays just under MAX_STEPS.
SLOW = """\
  - name: slow
    clause: cumulative
    summary: Spends steps.
    args: [{name: n, type: int, text: a number}]
    returns: {type: int, text: a number}
    code: |
      t = 0  # clause: cumulative
      for j in range(n):
          for i in range(9000):
              t = t + 1
      return t  # clause: cumulative
"""


@pytest.fixture
def empty_cache(tmp_path, monkeypatch):
    """A disk cache of its own, empty, and turned on (tests/test_examples.py has the same)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("KB_NO_CACHE", raising=False)
    yield
    cache.forget()


def with_slow_examples(repo, rule: str, given: list[int]) -> None:
    """Give rules/<rule>.yaml the slow predicate and one passing example of it for each n in `given`, first."""
    path = repo / f"rules/{rule}.yaml"
    added = "".join(f"  - {{id: slow-{k}, predicate: slow, clause: cumulative, name: Slow {k}., given: {{n: {n}}}, "
                    f"expect: {n * 9000}}}\n" for k, n in enumerate(given))
    text = path.read_text(encoding="utf-8")
    assert "\nexamples:\n" in text and "\npredicates:\n" in text
    clause = re.search(r"\nclauses:\n  - id: ([a-z0-9-]+)\n", text)[1]  # the slow predicate applies the first clause
    added = added.replace("clause: cumulative", f"clause: {clause}")
    path.write_text(text.replace("\npredicates:\n", "\npredicates:\n" + SLOW.replace("cumulative", clause), 1)
                    .replace("\nexamples:\n", "\nexamples:\n" + added, 1), encoding="utf-8")


def example_line(repo, rule: str, example_id: str) -> int:
    lines = (repo / f"rules/{rule}.yaml").read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, 1) if f"id: {example_id}," in line)


def test_the_slow_predicate_stays_under_the_step_limit_of_one_call():
    snippet = Snippet.compile(SLOW.split("code: |\n")[1].replace("      ", "", 1).replace("\n      ", "\n"), ["n"])
    [outcome] = run_python(snippet, [{"n": 3}])
    assert outcome["ok"] == ["int", 27000] or outcome["ok"] == 27000, outcome
    assert 3 * MAX_STEPS > MAX_FILE_STEPS  # three such examples spend more than one file may


def test_a_rule_file_whose_examples_spend_more_than_its_budget_stops_there_naming_the_file_and_the_limit(repo):
    with_slow_examples(repo, "wap/dodge", [3, 3, 3, 3])
    result = run_generator(repo, "check")
    assert result.returncode == 1, result.stdout[-2000:]
    [failure] = [line for line in result.stdout.splitlines() if line.startswith("FAIL")]
    line = example_line(repo, "wap/dodge", "slow-2")
    assert failure.startswith(f"FAIL rules/wap/dodge.yaml:{line}: wap/dodge::slow::slow-2: ")
    assert f"{MAX_FILE_STEPS:,} evaluation steps (MAX_FILE_STEPS)" in failure
    cases = examples.rule_cases(load(repo)[0])
    dodge = sum(case.rule == "wap/dodge" for case in cases)
    assert f"{dodge - 3} example(s) after this one not run" in failure
    # The other rules' examples still ran: only the file past its budget stopped.
    passed, failed = map(int, re.search(r"(\d+) passed, (\d+) failed", result.stdout).groups())
    assert (passed, failed) == (len(cases) - dodge + 2, 1)


def test_the_run_stops_at_the_file_that_spends_the_last_of_the_run_budget_and_runs_no_later_file(repo, monkeypatch):
    monkeypatch.setattr(examples, "MAX_RUN_STEPS", 5 * MAX_STEPS // 2)
    for rule in ("wap/dodge", "wap/immunity", "wap/martial-arts"):  # run in this order: the keys' order
        with_slow_examples(repo, rule, [3])  # each spends just under MAX_STEPS: the third goes past the run's
    result = run_generator(repo, "check")
    assert result.returncode == 1
    [failure] = [line for line in result.stdout.splitlines() if line.startswith("FAIL")]
    line = example_line(repo, 'wap/martial-arts', 'slow-0')
    assert failure.startswith(f"FAIL rules/wap/martial-arts.yaml:{line}: ")
    assert f"{5 * MAX_STEPS // 2:,} evaluation steps (MAX_RUN_STEPS)" in failure and "2 more file(s) not run" in failure
    assert "wap/skirmishers" not in result.stdout and "wap/strider" not in result.stdout


def test_answers_from_the_cache_spend_the_steps_they_spent_so_a_warm_run_stops_where_a_cold_one_did(
        repo, monkeypatch, empty_cache):
    monkeypatch.setattr(examples, "MAX_RUN_STEPS", 5 * MAX_STEPS // 2)
    for rule in ("wap/dodge", "wap/immunity", "wap/martial-arts"):
        with_slow_examples(repo, rule, [3])
    cold = run_generator(repo, "check")
    warm = run_generator(repo, "check")
    assert cold.returncode == warm.returncode == 1
    assert cold.stdout == warm.stdout and "MAX_RUN_STEPS" in warm.stdout


def test_the_differential_tests_run_the_examples_check_runs_and_situations_within_their_allowance(repo):
    with_slow_examples(repo, "wap/dodge", [3, 3, 3, 3])
    kb, _problems = load(repo)
    kept = {case.case_id for case in checked_examples(kb) if case.rule == "wap/dodge"}
    assert {"slow-0", "slow-1"} <= kept and not kept & {"slow-2", "slow-3", "single-dodge-front"}
    snippet = kb.rules["wap/dodge"].predicate("slow").snippet
    allowance = Allowance(5 * MAX_STEPS, "test")
    outcomes = run_python(snippet, [{"n": 3}] * 100, allowance)
    assert len(outcomes) == 5 and allowance.spent <= 5 * MAX_STEPS


def test_check_explain_explains_only_the_examples_that_ran_within_the_budget(repo):
    with_slow_examples(repo, "wap/dodge", [3, 3, 3, 3])
    result = run_generator(repo, "check", "--explain", "rules/wap/dodge.yaml")
    assert "wap/dodge::slow::slow-0: Slow 0." in result.stdout and "wap/dodge::slow::slow-2: Slow 2." in result.stdout
    assert "slow-3: Slow 3." not in result.stdout and "wap/dodge::dodge_save::" not in result.stdout  # not run

"""`python -m generator check`: every problem listed, a closing tally, exit 0 / 1 / 2."""

from __future__ import annotations

import subprocess
import sys

from .conftest import ROOT, write


def check(repo, *files):
    result = subprocess.run([sys.executable, "-m", "generator", "--root", str(repo), "check", *map(str, files)],
                            capture_output=True, text=True, cwd=ROOT)
    return result.returncode, result.stdout, result.stderr


def test_check_passes_on_the_knowledge_base_and_ends_with_the_tally(repo):
    code, out, _err = check(repo)
    last = out.strip().splitlines()[-1]
    assert code == 0, out
    assert last.endswith(" passed, 0 failed") and int(last.split()[0]) >= 100


def test_a_failing_example_exits_1_and_names_its_file_line_and_id(repo):
    path = repo / "rules/t9a/scout.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("expect: true", "expect: false", 1), encoding="utf-8")
    code, out, _err = check(repo)
    assert code == 1
    assert "FAIL rules/t9a/scout.yaml:" in out and "t9a/scout::" in out
    assert out.strip().splitlines()[-1].endswith(" 1 failed")


def test_malformed_input_exits_2_after_listing_every_problem(repo):
    write(repo / "rules/wap/broken.yaml", "id: broken\ntitle: [\n")
    write(repo / "rules/t9a/other.yaml", "id: other\n")
    code, out, _err = check(repo)
    assert code == 2
    assert "rules/wap/broken.yaml:" in out and "rules/t9a/other.yaml:" in out


def test_a_players_own_scenarios_are_checked_from_an_external_file(repo, tmp_path):
    scenarios = write(tmp_path / "my-game.yaml", """
- rule: t9a/scout
  predicate: deploy_ok
  given: {in_own_zone: false, enemy_distance: 14, terrain: forest}
  expect: true
- rule: t9a/scout
  predicate: deploy_ok
  given: {in_own_zone: false, enemy_distance: 14, terrain: open}
  expect: true
""")
    code, out, _err = check(repo, scenarios)
    assert code == 1
    assert out.strip().splitlines()[-1] == "1 passed, 1 failed"
    assert "my-game.yaml:6" in out


def test_an_external_scenario_for_a_missing_predicate_is_malformed_input(repo, tmp_path):
    scenarios = write(tmp_path / "bad.yaml", "- {rule: t9a/scout, predicate: fly_ok, given: {}, expect: true}\n")
    code, out, _err = check(repo, scenarios)
    assert code == 2
    assert "t9a/scout has no predicate 'fly_ok'" in out

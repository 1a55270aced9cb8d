"""`python -m generator check`: every problem listed, a closing tally, exit 0 / 1 / 2."""

from __future__ import annotations

import pytest

from .conftest import ROOT, run_generator, write


def check(repo, *files):
    result = run_generator(repo, "check", *files)
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


def run_main(capsys, *argv):
    """The CLI in this process (faster than a subprocess): exit code and standard output."""
    from generator.cli import main

    code = main(list(map(str, argv)))
    return code, capsys.readouterr().out


SCOUT_GIVEN = "{in_own_zone: false, enemy_distance: 14, terrain: forest}"


@pytest.mark.parametrize("entry, expected", [
    (f"- rule: [t9a/scout]\n  predicate: deploy_ok\n  given: {SCOUT_GIVEN}\n  expect: true\n",
     "f10.yaml:1: rule is ['t9a/scout'], not a name — write one name"),
    (f"- rule: t9a/scout\n  predicate: {{a: 1}}\n  given: {SCOUT_GIVEN}\n  expect: true\n",
     "f10.yaml:2: t9a/scout: predicate is {'a': 1}, not a name"),
    ("- rule: t9a/scout\n  predicate: deploy_ok\n"
     "  given: {in_own_zone: false, enemy_distance: 14, terrain: forest, 1: 2}\n  expect: true\n",
     "f10.yaml:3: t9a/scout: given has keys that are not argument names: 1"),
    ("- [t9a/scout, deploy_ok]\n", "f10.yaml:1: entry 1 is not a mapping"),
    ("- {rule: t9a/scout, predicate: deploy_ok, given: [1], expect: true, 3: x}\n",
     "f10.yaml:1: t9a/scout: entry 1 has unknown keys 3"),
])
def test_a_malformed_scenario_file_is_a_problem_with_its_line_not_a_traceback(capsys, tmp_path, entry, expected):  # F10
    code, out = run_main(capsys, "--root", ROOT, "check", write(tmp_path / "f10.yaml", entry))
    assert code == 2
    assert expected in out, out


def test_a_folder_or_a_device_given_as_file_is_a_problem_not_a_traceback(capsys, tmp_path):  # F10
    code, out = run_main(capsys, "--root", ROOT, "check", tmp_path, "/dev/null")
    assert code == 2
    assert f"{tmp_path}: is a folder, not a scenario file" in out
    assert "/dev/null: is not a plain file" in out


def test_no_examples_run_while_the_rules_have_problems(capsys, repo):
    write(repo / "rules/wap/broken.yaml", "id: broken\ntitle: [\n")
    code, out = run_main(capsys, "--root", repo, "check")
    assert code == 2
    assert "examples not run: the rules have problems" in out and " passed, " not in out


def test_a_path_under_rules_checks_only_those_rules_and_runs_only_their_examples(capsys, repo):
    write(repo / "rules/t9a/broken.yaml", "id: [\n")
    code, out = run_main(capsys, "--root", repo, "check", "rules/wap/", "-v")
    assert code == 0, out
    assert "broken" not in out
    ran = [line.split()[1] for line in out.splitlines() if line.startswith("PASS ")]
    assert ran and all(test_id.startswith("wap/") for test_id in ran)
    assert {test_id.split("::")[0] for test_id in ran} >= {"wap/dodge", "wap/strider"}
    code, out = run_main(capsys, "--root", repo, "check", repo / "rules/t9a/scout.yaml")
    assert code == 0 and "rules/t9a/broken.yaml" not in out  # scout alone is fine...
    code, out = run_main(capsys, "--root", repo, "check", "rules/t9a")
    assert code == 2 and "rules/t9a/broken.yaml:2: t9a/broken: not valid YAML" in out  # ...the folder holds the broken file


def test_a_scenario_file_loads_only_the_rules_it_asks_about(capsys, repo, tmp_path):
    write(repo / "rules/wap/broken.yaml", "id: [\n")  # not asked about, so never read
    scenarios = write(tmp_path / "game.yaml", f"- {{rule: t9a/scout, predicate: deploy_ok, given: {SCOUT_GIVEN}, "
                                              f"expect: true}}\n")
    code, out = run_main(capsys, "--root", repo, "check", scenarios)
    assert code == 0, out
    assert out.strip().splitlines()[-1] == "1 passed, 0 failed"


def test_i18n_check_reports_only_the_catalogs_under_the_paths_given(capsys, repo):
    path = repo / "translations/ru/rules/wap/dodge.po"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("атакованная спереди, спасается на 6.", "атакованная спереди, спасается на 7.", 1),
                    encoding="utf-8")
    code, out = run_main(capsys, "--root", repo, "i18n", "check", "translations/ru/rules/wap/")
    assert code == 2 and "translations/ru/rules/wap/dodge.po:" in out, out
    code, out = run_main(capsys, "--root", repo, "i18n", "check", repo / "translations/ru/rules/battlesystem")
    assert code == 0 and "dodge.po" not in out, out
    assert run_main(capsys, "--root", repo, "i18n", "check", "rules/wap")[0] == 2


def test_a_translation_path_or_an_empty_rules_path_is_a_problem_and_checks_nothing_else(capsys):
    code, out = run_main(capsys, "--root", ROOT, "check", "translations/ru/rules/wap", "rules/nowhere")
    assert code == 2
    assert "translations/ru/rules/wap: is a translation path — check catalogs with: i18n check" in out
    assert "rules/nowhere: holds no rule files" in out
    assert out.strip().splitlines()[-1] == "0 passed, 0 failed"


def test_an_alias_bomb_in_a_rule_or_a_scenario_file_exits_2_with_file_line_and_hint(capsys, repo, tmp_path):  # F8
    from .test_yamlfile import BILLION_LAUGHS

    write(repo / "rules/wap/bomb.yaml", "id: bomb\n" + BILLION_LAUGHS)
    code, out = run_main(capsys, "--root", repo, "check")
    assert code == 2
    assert "rules/wap/bomb.yaml:4: wap/bomb: the alias *l0 repeats another part of the file; aliases are not " \
           "allowed — write the value out in full" in out
    code, out = run_main(capsys, "--root", repo, "check", write(tmp_path / "bomb.yaml", BILLION_LAUGHS))
    assert code == 2 and "bomb.yaml:3: the alias *l0" in out


def test_a_failing_example_names_the_line_where_its_entry_starts(capsys, repo):
    path = repo / "rules/t9a/scout.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("expect: true", "expect: false", 1), encoding="utf-8")
    code, out = run_main(capsys, "--root", repo, "check")
    assert code == 1
    failure = next(line for line in out.splitlines() if line.startswith("FAIL "))
    number = int(failure.split(":")[1])
    lines = path.read_text(encoding="utf-8").splitlines()
    entry = lines[number - 1:]
    assert entry[0].lstrip().startswith("- ")  # the example's own list item...
    following = next(index for index, line in enumerate(entry[1:], 1) if line.lstrip().startswith("- ") and
                     len(line) - len(line.lstrip()) <= len(entry[0]) - len(entry[0].lstrip()))
    assert any("expect: false" in line for line in entry[:following])  # ...which holds the changed answer

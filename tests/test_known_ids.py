"""A text argument that names its known ids accepts any other id, but refuses a known one misspelt."""

from __future__ import annotations

from generator import cli
from generator.kb.value_types import near_miss

from .conftest import ROOT, write
from .test_load import problems_of

FACTIONS = ["daemons-of-khorne", "daemons-of-slaanesh", "daemons-of-tzeentch", "daemons-of-nurgle"]
NURGLE = "rules/wap/daemon-of-nurgle.yaml"


def test_a_known_id_in_other_case_spacing_or_shortened_to_its_last_word_is_a_near_miss():
    for written in ("tzeentch", "Daemons of Tzeentch", "daemons_of_tzeentch", "Daemon of Tzeentch",
                    "deamons-of-tzeentch", "TZEENTCH"):
        assert near_miss(written, FACTIONS) == "daemons-of-tzeentch", written


def test_an_exact_id_or_a_stranger_is_no_near_miss():
    for written in ("daemons-of-tzeentch", "empire", "daemons-of-chaos", "daemons", "warriors-of-chaos", ""):
        assert near_miss(written, FACTIONS) is None, written


def check(scenarios, capsys) -> tuple[int, list[str]]:
    """`generator check FILE` run in-process: its exit code and the lines it printed."""
    code = cli.main(["--root", str(ROOT), "check", str(scenarios)])
    captured = capsys.readouterr()
    return code, (captured.out + captured.err).splitlines()


def test_a_players_scenario_with_a_misspelt_faction_is_refused_naming_the_id_meant(tmp_path, capsys):
    scenarios = write(tmp_path / "game.yaml", """
- {rule: wap/daemon-of-nurgle, predicate: hates, given: {target: tzeentch}, expect: false}
- {rule: wap/daemon-of-nurgle, predicate: ally_status, given: {other: Daemons of Khorne}, expect: null}
""")
    code, lines = check(scenarios, capsys)
    assert code == 2, lines
    found = [line for line in lines if "game.yaml:" in line]
    assert len(found) == 2, lines
    assert "game.yaml:2: wap/daemon-of-nurgle: target is 'tzeentch'" in found[0] and \
        "daemons-of-tzeentch exactly" in found[0]
    assert "game.yaml:3:" in found[1] and "daemons-of-khorne exactly" in found[1]


def test_a_players_scenario_with_an_unknown_faction_runs_and_gets_no_hatred(tmp_path, capsys):
    scenarios = write(tmp_path / "game.yaml", """
- {rule: wap/daemon-of-nurgle, predicate: hates, given: {target: empire}, expect: false}
- {rule: wap/daemon-of-nurgle, predicate: hates, given: {target: daemons-of-tzeentch}, expect: true}
""")
    code, lines = check(scenarios, capsys)
    assert code == 0, lines
    assert lines[-1] == "2 passed, 0 failed", lines


def test_a_worked_example_with_a_misspelt_faction_is_a_check_problem(repo):
    path = repo / NURGLE
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("given: {target: daemons-of-khorne}", "given: {target: khorne}", 1), encoding="utf-8")
    found = problems_of(repo)
    assert any(NURGLE in p and "target is 'khorne'" in p and "daemons-of-khorne exactly" in p for p in found), found


def test_values_on_a_number_argument_are_still_refused(repo):
    path = repo / NURGLE
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("        type: bool\n", "        type: bool\n        values: [true]\n", 1),
                    encoding="utf-8")
    found = problems_of(repo)
    assert any(NURGLE in p and "'values' is only for type 'choice'" in p for p in found), found


def test_the_nurgle_arguments_declare_the_faction_ids(kb):
    rule = kb.rules["wap/daemon-of-nurgle"]
    for name, argument in (("hates", "target"), ("ally_status", "other")):
        declared = next(a for a in rule.predicate(name).args if a.name == argument)
        assert declared.values == FACTIONS and declared.type == "choice"
        assert set(declared.labels) == set(FACTIONS) and declared.other  # an open choice: any other id is accepted
        assert not any(faction in declared.text for faction in FACTIONS)  # the reader sees labels, never ids


def test_a_players_scenario_with_a_strider_terrain_outside_the_list_is_refused_naming_the_item(tmp_path, capsys):
    scenarios = write(tmp_path / "game.yaml", """
- {rule: wap/strider, predicate: movement_penalty_applies, given: {strider: [Marsh], terrain: marsh}, expect: false}
- {rule: wap/strider, predicate: dangerous_test, given: {strider: [forest, болото], terrain: marsh, dangerous: true},
   expect: false}
- {rule: wap/strider, predicate: movement_penalty_applies, given: {strider: [marsh], terrain: marsh}, expect: false}
""")
    code, lines = check(scenarios, capsys)
    assert code == 2, lines
    found = [line for line in lines if "game.yaml:" in line]
    assert len(found) == 2, lines
    assert "strider is ['Marsh']" in found[0] and "item 1 is 'Marsh'" in found[0] and "forest, marsh" in found[0]
    assert "item 2 is 'болото'" in found[1]



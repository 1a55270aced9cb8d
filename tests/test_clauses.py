"""Which clause each step applies: `# clause:` notes read, checked against the rule, and traced runs that record them."""

from __future__ import annotations

import pytest

from generator.evaluate import Snippet, SnippetRefused
from generator.kb.load import load_and_validate

from .conftest import ROOT, run_generator

SCOUT = """if in_own_zone:  # clause: placement
    return True
if terrain in ["forest", "ruins", "building", "field", "water"]:  # clause: terrain
    return enemy_distance >= 12
return enemy_distance >= 18  # clause: placement
"""
PARAMS = ["in_own_zone", "enemy_distance", "terrain"]
DEPLOY_OK = "rules/t9a/scout.yaml"


def steps_of(**given):
    return Snippet.compile(SCOUT, PARAMS).explain(**given)


def test_a_note_at_the_end_of_a_line_or_alone_above_it_names_the_statements_clause():
    notes = Snippet.compile("# clause: one\nx = a\nif x:  # clause: two\n    return 1\nreturn 2  # clause: one\n",
                            ["a"]).notation
    assert notes.statement_lines() == [(2, "one"), (3, "two"), (5, "one")]
    assert notes.uncovered == []


def test_a_statement_inside_an_if_applies_its_parents_clause_unless_it_has_its_own():
    snippet = Snippet.compile("if a:  # clause: outer\n    if b:\n        return 1\n    return 2  # clause: inner\n"
                              "return 3  # clause: last\n", ["a", "b"])
    clauses = [step["clause"] for step in snippet.explain(a=True, b=True)[1]]
    assert clauses == ["outer", "outer", "outer"]
    assert [step["clause"] for step in snippet.explain(a=True, b=False)[1]][-1] == "inner"


def test_a_return_no_note_covers_is_found():
    assert Snippet.compile("if a:  # clause: x\n    return 1\nreturn 2\n", ["a"]).notation.uncovered == [3]


@pytest.mark.parametrize("code, line", [
    ("return a  # clause placement\n", 1),  # a note without its colon is not silently ignored
    ("return a\n# clause: one\n", 2),  # a note after the last statement notes nothing
    ("x = [a,\n     a]  # clause: one\nreturn x  # clause: one\n", 2),  # inside a statement, not at its start
])
def test_a_malformed_or_misplaced_note_refuses_the_snippet_at_its_line(code, line):
    with pytest.raises(SnippetRefused) as refused:
        Snippet.compile(code, ["a"])
    assert refused.value.line == line


def test_a_traced_run_records_each_test_and_the_return_with_what_it_read_and_compared():
    value, steps = steps_of(in_own_zone=False, enemy_distance=17.9, terrain="open")
    assert value is False
    assert [(step["kind"], step["clause"], step["outcome"]) for step in steps] == [
        ("test", "placement", False), ("test", "terrain", False), ("return", "placement", False)]
    assert steps[0]["reads"] == [["in_own_zone", False]]
    assert steps[-1]["compares"] == [[17.9, ">=", 18, False, "enemy_distance", None]]


def test_a_test_in_a_loop_is_one_step_as_last_evaluated_and_counted():
    snippet = Snippet.compile("for x in xs:  # clause: loop\n    if x > 2:\n        return x\nreturn 0\n", ["xs"])
    value, steps = snippet.explain(xs=[1, 2, 3])
    assert value == 3
    assert steps[0]["times"] == 3 and steps[0]["outcome"] is True and steps[0]["reads"] == [["x", 3]]
    assert steps[-1]["kind"] == "return" and steps[-1]["clause"] == "loop"


def test_names_read_inside_a_comprehension_are_the_loops_own_not_the_steps():
    snippet = Snippet.compile("return any([x > limit for x in xs])  # clause: c\n", ["xs", "limit"])
    (step,) = snippet.explain(xs=[1, 5], limit=3)[1]
    assert step["reads"] == [] and step["compares"] == []


def test_an_untraced_run_costs_the_same_steps_and_gives_the_same_answer():
    from generator.evaluate import Budget

    snippet = Snippet.compile(SCOUT, PARAMS)
    plain, traced = Budget(), Budget()
    given = {"in_own_zone": False, "enemy_distance": 14, "terrain": "forest"}
    assert snippet.run(given, plain) == snippet.run(given, traced, trace=__import__("generator.evaluate.trace",
                                                                                     fromlist=["Trace"]).Trace())
    assert plain.spent == traced.spent


def _replace(repo, path, old, new):
    file = repo / path
    text = file.read_text(encoding="utf-8")
    assert old in text
    file.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_note_naming_a_clause_the_rule_lacks_is_refused_at_its_line(repo):
    _replace(repo, DEPLOY_OK, "return enemy_distance >= 12\n", "return enemy_distance >= 12  # clause: forest\n")
    _kb, problems = load_and_validate(repo)
    (found,) = [str(problem) for problem in problems]
    line = next(number for number, text in enumerate((repo / DEPLOY_OK).read_text().splitlines(), start=1)
                if "# clause: forest" in text)
    assert found.startswith(f"{DEPLOY_OK}:{line}: t9a/scout: predicate deploy_ok: the note names clause 'forest'")
    assert "use one of: declaration, held-back, placement, terrain" in found


def test_a_return_without_a_clause_is_refused_with_how_to_note_it(repo):
    _replace(repo, DEPLOY_OK, "return enemy_distance >= 18  # clause: placement\n", "return enemy_distance >= 18\n")
    _kb, problems = load_and_validate(repo)
    (found,) = [str(problem) for problem in problems]
    assert "predicate deploy_ok: this return applies no clause" in found and "# clause: <id>" in found


def test_arguments_of_one_name_that_mean_different_things_are_refused(repo):
    _replace(repo, "rules/wap/strider.yaml", "        text: the terrain the model stands in\n",
             "        text: the terrain the model moves through\n")
    _kb, problems = load_and_validate(repo)
    assert any("argument terrain differs from movement_penalty_applies's" in str(problem) for problem in problems)


def test_check_reports_a_worked_example_whose_clause_is_off_its_path(repo):
    text = (repo / DEPLOY_OK).read_text(encoding="utf-8")
    start = text.index("  - id: forest-at-14")
    end = text.index("expect:", start)
    (repo / DEPLOY_OK).write_text(text[:start] + text[start:end].replace("clause: terrain", "clause: alternating")
                                  + text[end:], encoding="utf-8")
    result = run_generator(repo, "check")
    assert result.returncode == 1
    assert ("t9a/scout::deploy_ok::forest-at-14: the example illustrates clause alternating, which is not on the "
            "path the predicate took (its steps apply placement, terrain)") in result.stdout


def test_every_worked_example_of_the_real_rules_is_on_its_path():
    result = run_generator(ROOT, "check")
    assert result.returncode == 0, result.stdout + result.stderr


# --- security review, round four, F: the note reader and the parser see the same lines -----------------------

def test_a_carriage_return_in_the_code_is_refused_so_no_note_lands_on_another_statement():
    # Python ends a line at the CR; the note reader did not: `return 5` was traced with no clause, and the note
    # `cumulative` was read for line 1.
    with pytest.raises(SnippetRefused, match=r"U\+000D \(CARRIAGE RETURN\).*write \\r in a string") as refused:
        Snippet.compile("x = 1  # clause: mounted\rreturn 5  # clause: cumulative\n", [])
    assert refused.value.line == 1


def test_a_form_feed_before_a_note_is_refused_rather_than_the_note_dropped():
    with pytest.raises(SnippetRefused, match=r"U\+000C \(FORM FEED\)") as refused:
        Snippet.compile("x = 1\n\x0c# clause: mounted\nreturn 2  # clause: cumulative\n", [])
    assert refused.value.line == 2


def test_a_quoted_code_with_a_carriage_return_is_refused_by_check_in_the_rule_file(repo):
    block = "".join(f"      {line}\n" for line in SCOUT.splitlines())  # as the rule file writes it
    quoted = ("x = 1  # clause: terrain\\r" + SCOUT.replace("\n", "\\n")).replace('"', '\\"')
    _replace(repo, DEPLOY_OK, f"    code: |\n{block}", f'    code: "{quoted}"\n')
    _kb, problems = load_and_validate(repo)
    (found,) = [str(problem) for problem in problems]
    assert found.startswith(f"{DEPLOY_OK}:") and "predicate deploy_ok: code refused" in found
    assert "U+000D (CARRIAGE RETURN)" in found and "write \\r in a string if you mean it" in found

"""Bad rule files get a clear error naming file, line, rule and fix; every problem is reported at once."""

from __future__ import annotations

import pytest

from generator.kb.load import load_and_validate

from .conftest import write

STRIDER = "rules/wap/strider.yaml"


def problems_of(repo):
    _kb, problems = load_and_validate(repo)
    return [str(problem) for problem in problems]


def test_the_copied_repository_has_no_problems(repo):
    assert problems_of(repo) == []


def test_broken_yaml_names_the_file_the_line_and_the_rule(repo):
    path = repo / STRIDER
    lines = path.read_text(encoding="utf-8").splitlines()
    lines.insert(3, "title: [unclosed")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    found = problems_of(repo)
    assert len(found) == 1
    assert found[0].startswith(f"{STRIDER}:")
    assert "wap/strider: not valid YAML" in found[0]
    assert "—" in found[0]  # followed by how to fix it


def test_a_repeated_key_is_an_error_not_a_silent_override(repo):
    write(repo / "rules/wap/dup.yaml", "id: dup\ntitle: A\ntitle: B\n")
    found = problems_of(repo)
    assert any("rules/wap/dup.yaml:3: wap/dup: key 'title' appears twice" in p for p in found), found


def test_schema_errors_name_the_key_the_value_and_the_form_expected(repo):
    path = repo / STRIDER
    text = path.read_text(encoding="utf-8").replace("type: bool", "type: boolean", 1)
    path.write_text(text, encoding="utf-8")
    found = problems_of(repo)
    assert len(found) == 1, found
    assert "wap/strider" in found[0] and "'boolean'" in found[0] and "use one of the values listed" in found[0]
    line = int(found[0].split(":")[1])
    assert path.read_text(encoding="utf-8").splitlines()[line - 1].strip() == "type: boolean"


def test_every_problem_in_every_file_is_collected_before_failing(repo):
    write(repo / "rules/wap/one.yaml", "id: one\n")
    write(repo / "rules/t9a/two.yaml", "id: [\n")
    found = problems_of(repo)
    assert any(p.startswith("rules/wap/one.yaml") for p in found)
    assert any(p.startswith("rules/t9a/two.yaml") for p in found)


def test_a_dangling_reference_is_an_error_with_its_line(repo):
    path = repo / STRIDER
    text = path.read_text(encoding="utf-8").split("\nsee_also:")[0]
    path.write_text(text + "\nsee_also: [wap/no-such-rule, t9a/scout#no-such-clause]\n", encoding="utf-8")
    found = problems_of(repo)
    assert any("'wap/no-such-rule' names a rule that does not exist" in p for p in found), found
    assert any("names a clause that t9a/scout does not have" in p for p in found), found
    assert all(p.startswith(STRIDER + ":") for p in found)


def test_a_dangling_reference_inside_rule_text_is_an_error(repo):
    path = repo / STRIDER
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("summary: ", "summary: See [[term:no-such-term]]. ", 1), encoding="utf-8")
    found = problems_of(repo)
    assert any("[[term:no-such-term]] names a glossary term that does not exist" in p for p in found), found


def test_a_hostile_snippet_in_a_rule_file_is_refused_with_file_rule_and_predicate(repo):
    path = repo / STRIDER
    text = path.read_text(encoding="utf-8")
    start = text.index("    code: |\n") + len("    code: |\n")
    text = text[:start] + "      x = ().__class__.__bases__\n" + text[start:]
    path.write_text(text, encoding="utf-8")
    found = problems_of(repo)
    assert len(found) == 1, found
    assert found[0].startswith(STRIDER + ":") and "wap/strider: predicate" in found[0]
    assert "code refused" in found[0] and "attribute" in found[0]
    line = int(found[0].split(":")[1])
    assert "__class__" in path.read_text(encoding="utf-8").splitlines()[line - 1]


def test_an_example_that_does_not_fit_its_predicate_is_reported(repo):
    path = repo / STRIDER
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("expect: true", "expect: 7", 1), encoding="utf-8")
    found = problems_of(repo)
    assert any("expect is 7" in p for p in found), found


def test_a_concept_cell_must_point_into_its_own_column(repo):
    path = repo / "rules/concepts/fighting-withdrawal.yaml"
    text = path.read_text(encoding="utf-8")
    first = text.index("ref: battlesystem/fighting-withdrawal#")
    path.write_text(text[:first] + "ref: t9a/scout#placement  # wrong column\n" + text[first:].split("\n", 1)[1],
                    encoding="utf-8")
    found = problems_of(repo)
    assert any("concept:fighting-withdrawal" in p and "but its column is" in p for p in found), found


def test_one_broken_rule_gives_one_problem_not_a_cascade_through_its_references(repo):
    path = repo / "rules/t9a/light-infantry.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("id: light-infantry", "id: [light-infantry", 1),
                    encoding="utf-8")
    found = problems_of(repo)
    assert len(found) == 1, found  # was 13: twelve "names a rule that does not exist"
    assert found[0].startswith("rules/t9a/light-infantry.yaml:")


def test_a_reference_to_a_rule_that_has_no_file_is_still_reported_when_another_file_is_broken(repo):
    write(repo / "rules/wap/broken.yaml", "id: [\n")
    path = repo / STRIDER
    path.write_text(path.read_text(encoding="utf-8").replace("summary: ", "summary: See [[wap/nowhere]]. ", 1),
                    encoding="utf-8")
    found = problems_of(repo)
    assert len(found) == 2, found
    assert any("[[wap/nowhere]] names a rule that does not exist" in p for p in found)


def test_loading_some_rules_reads_only_them_and_what_they_reference(repo):
    write(repo / "rules/battlesystem/broken.yaml", "id: [\n")  # never read, so never reported
    kb, problems = load_and_validate(repo, {"wap/dodge"})
    assert not problems, problems.report()
    assert set(kb.rules) == {"wap/dodge", "wap/daemonic"}  # dodge's text points at daemonic
    assert {"wap/strider", "battlesystem/broken", "t9a/scout"} <= kb.unloaded
    assert set(kb.systems) == {"wap"} and not kb.concepts


def test_loading_collects_no_cycles_and_gives_the_collector_back_as_it_was_even_after_an_error():
    import gc

    from generator.kb.load import bulk_allocation

    assert gc.isenabled()
    with pytest.raises(LookupError):
        with bulk_allocation():
            assert not gc.isenabled()
            raise LookupError("a broken file")
    assert gc.isenabled()
    gc.disable()
    try:
        with bulk_allocation():  # inside a caller that turned the collector off: it stays off after
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_loaded_rule_keeps_its_lines_for_problems_but_not_its_parsed_data(repo):
    kb, problems = load_and_validate(repo)
    assert not problems, problems.report()
    origin = kb.origins["wap/dodge"]
    assert origin.document.data is None  # the model holds it; at 1,000 rules the copy was 37 MiB of a build
    assert origin.line("examples") > 1

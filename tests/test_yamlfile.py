"""YAML is bounded before it is trusted: aliases, deep nesting, big files and odd tags are refused with a line."""

from __future__ import annotations

import gc
import os
import subprocess
import sys

import pytest
import yaml

from generator.core import yamlfile
from generator.core.yamlfile import MAX_NESTING, MAX_YAML_BYTES, YamlError, parse_yaml

from .conftest import ROOT

BILLION_LAUGHS = 'x:\n  - &l0 ["lol"]\n' + "".join(
    f"  - &l{level} [{', '.join([f'*l{level - 1}'] * 10)}]\n" for level in range(1, 8))


@pytest.fixture(params=["libyaml", "pure-python"])
def loader(request, monkeypatch):
    """Run the test with libyaml's composer and again with the pure-Python one."""
    if request.param == "libyaml":
        if yamlfile.FastLoader is None:
            pytest.fail("PyYAML was built without libyaml; requirements expect the wheel that bundles it")
        monkeypatch.setattr(yamlfile, "LOADER", yamlfile.FastLoader)
    else:
        monkeypatch.setattr(yamlfile, "LOADER", yamlfile.PureLoader)
    return request.param


def refusal(text: str) -> YamlError:
    with pytest.raises(YamlError) as caught:
        parse_yaml(text)
    return caught.value


def test_a_billion_laughs_file_is_refused_at_its_first_alias(loader):  # F8
    error = refusal(BILLION_LAUGHS)
    assert error.line == 3 and "alias *l0" in error.message and "not allowed" in error.message
    assert "write the value out in full" in error.hint


def test_a_self_referencing_alias_is_refused_not_a_recursion_error(loader):  # F9
    error = refusal("given: {in_own_zone: false, enemy_distance: &a [*a], terrain: forest}\n")
    assert error.line == 1 and "alias *a" in error.message


def test_an_alias_to_a_plain_value_is_refused_too(loader):
    error = refusal("a: &x 1\nb: *x\n")
    assert error.line == 2 and "alias *x" in error.message


@pytest.mark.parametrize("opening, closing", [("[", "]"), ("{a: ", "}")])
def test_three_thousand_nested_levels_are_refused_with_a_line_not_a_recursion_error(loader, opening, closing):  # F9
    error = refusal("id: x\nx: " + opening * 3000 + "1" + closing * 3000 + "\n")
    assert error.line == 2 and f"more than {MAX_NESTING} levels" in error.message and error.hint


def test_a_megabyte_of_indented_mappings_is_refused_where_it_passes_the_limit(loader):  # F9, block style
    error = refusal("".join(" " * level + "a:\n" for level in range(1400)))
    assert error.line == MAX_NESTING + 1 and f"more than {MAX_NESTING} levels" in error.message


def test_nesting_up_to_the_limit_is_accepted(loader):
    depth = MAX_NESTING - 1  # the top-level mapping is one level
    document = parse_yaml("x: " + "[" * depth + "1" + "]" * depth + "\n")
    value = document.data["x"]
    for _ in range(depth):
        value = value[0]
    assert value == 1


@pytest.mark.parametrize("text, shown, line", [
    ("id: a\nsource: !!python/object:os.system\n  page: 1\n", "!!python/object:os.system is not allowed on a mapping", 2),
    ("aliases: !!python/object/apply:os.system [echo]\n", "!!python/object/apply:os.system is not allowed on a list", 1),
    ("id: a\ntitle: !shout hello\n", "!shout is not allowed on a value", 2),
    ("id: a\ntitle: !!binary aGVsbG8=\n", "!!binary is not allowed", 2),
])
def test_tags_other_than_the_plain_core_ones_are_refused(loader, text, shown, line):  # F18
    error = refusal(text)
    assert shown in error.message and error.line == line and "remove the tag" in error.hint


def test_a_date_and_a_merge_key_are_refused_with_how_to_write_them(loader):
    assert "put it in quotes" in refusal("id: a\nsince: 2020-01-01\n").hint
    merged = refusal("a: {x: 1}\nb:\n  <<: {x: 2}\n")
    assert merged.line == 3 and "merge keys" in merged.message


def test_plain_core_tags_are_still_accepted(loader):
    document = parse_yaml("a: !!str 12\nb: !!int '7'\nc: [1, 2.5, true, null, text]\n")
    assert document.data == {"a": "12", "b": 7, "c": [1, 2.5, True, None, "text"]}


def test_a_repeated_key_is_refused_with_its_line(loader):
    error = refusal("id: a\ntitle: A\ntitle: B\n")
    assert error.line == 3 and "key 'title' appears twice" in error.message


def test_a_file_larger_than_the_limit_is_refused_before_it_is_parsed(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_text("a: " + "x" * MAX_YAML_BYTES + "\n", encoding="utf-8")
    with pytest.raises(YamlError) as caught:
        yamlfile.read_yaml(path)
    assert "larger than" in caught.value.message and "split it" in caught.value.hint


def test_libyaml_pure_python_and_stock_pyyaml_give_the_same_data_and_lines_for_every_rule(monkeypatch):
    files = sorted((ROOT / "rules").rglob("*.yaml"))
    assert len(files) > 10
    for path in files:
        text = path.read_text(encoding="utf-8")
        monkeypatch.setattr(yamlfile, "LOADER", yamlfile.FastLoader)
        fast = parse_yaml(text)
        monkeypatch.setattr(yamlfile, "LOADER", yamlfile.PureLoader)
        pure = parse_yaml(text)
        assert fast.data == pure.data == yaml.safe_load(text), path  # as PyYAML's stock loader reads it
        assert fast.lines == pure.lines, path


def test_plain_and_quoted_scalars_and_collections_get_stock_pyyamls_tags_with_no_path_resolver_skipped(loader):
    text = ("a: yes\nb: 'yes'\nc: ~\nd: 0x1F\ne: 1_000\nf: .5\ng: [1, '2', null, \"3\"]\nh: {i: -3, j: \"\"}\n"
            "k: |\n  yes\nl: Yes it is\n")
    assert parse_yaml(text).data == yaml.safe_load(text)
    # The loaders answer the composer's calls for path resolvers with nothing, which is right only without any.
    assert not yamlfile.LOADER.yaml_path_resolvers


def test_line_numbers_point_at_the_key_that_holds_each_value():
    document = parse_yaml("id: a\nclauses:\n  - id: one\n    text: First.\n  - id: two\n    text: |\n      Second.\n")
    assert document.line(("clauses", 1, "text")) == 6
    assert document.line(("clauses", 0)) == 3
    assert document.line(("clauses", 1, "no-such-key")) == 5


def test_without_libyaml_check_falls_back_to_pure_python_with_the_same_result():
    # A fresh interpreter in which PyYAML has no C loader, as on a machine without libyaml.
    program = ("import sys, yaml; del yaml.CSafeLoader; from generator.core import yamlfile; "
               "assert yamlfile.LOADER is yamlfile.PureLoader, yamlfile.LOADER; "
               "from generator.cli import main; sys.exit(main(['--root', sys.argv[1], 'check']))")
    environment = dict(os.environ, KB_NO_CACHE="1")  # parse every file, not the cached results of the C parser
    result = subprocess.run([sys.executable, "-c", program, str(ROOT)], capture_output=True, text=True, cwd=ROOT,
                            env=environment)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().splitlines()[-1].endswith(" passed, 0 failed")


def test_the_limits_in_the_contributors_guide_are_the_ones_enforced():
    guide = (ROOT / "rules/README.md").read_text(encoding="utf-8")
    assert f"at most {MAX_YAML_BYTES:,} bytes" in guide and f"at most {MAX_NESTING} levels deep" in guide


def test_a_cached_documents_line_map_equals_the_parsed_one_and_comes_from_the_cache_the_second_time(
        tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("KB_NO_CACHE", raising=False)
    text = "id: x\nclauses:\n  - id: a\n    text: Run\n  - id: b\n    text: Hide\n"
    expected = yamlfile.parse_yaml(text).lines
    assert yamlfile.parse_yaml_cached(text).lines == expected
    monkeypatch.setattr(yamlfile, "parse_yaml", lambda *args, **kwargs: pytest.fail("parsed again"))
    assert yamlfile.parse_yaml_cached(text).line(("clauses", 1, "text")) == 6


def test_a_parsed_file_leaves_nothing_for_the_cycle_collector_to_free(loader):
    # check and i18n build their knowledge base with the collector off: a cycle per file would keep every
    # loader and its buffers to the end.
    text = (ROOT / "rules/t9a/scout.yaml").read_text(encoding="utf-8")
    gc.collect()
    gc.disable()
    try:
        for _ in range(3):
            parse_yaml(text)
        with pytest.raises(YamlError):
            parse_yaml("a: 1\na: 2\n")
        assert gc.collect() == 0
    finally:
        gc.enable()

"""The on-disk cache is invisible: same answers, keyed by content and code version, damaged entries ignored."""

from __future__ import annotations

import pytest

from generator.core import diskcache, yamlfile


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("KB_NO_CACHE", raising=False)
    yield tmp_path / "cache" / diskcache.CACHE_NAME
    diskcache.forget()


def packs(cache_home):
    return sorted(cache_home.rglob("*" + diskcache.PACK_SUFFIX))


def counting(value):
    calls = []

    def compute():
        calls.append(1)
        return value

    return compute, calls


def test_a_value_is_computed_once_for_the_same_bytes_and_version(cache_home):
    compute, calls = counting({"a": [1, (2, 3)]})
    assert diskcache.cached("t", "v1", b"text", compute) == {"a": [1, (2, 3)]}
    assert diskcache.cached("t", "v1", b"text", compute) == {"a": [1, (2, 3)]}
    diskcache.forget()  # the next call reads the pack, as a new process would
    assert diskcache.cached("t", "v1", b"text", compute) == {"a": [1, (2, 3)]}
    assert len(calls) == 1 and len(packs(cache_home)) == 1


def test_other_bytes_or_another_code_version_miss_the_cache(cache_home):
    compute, calls = counting(1)
    diskcache.cached("t", "v1", b"text", compute)
    diskcache.cached("t", "v1", b"text!", compute)
    diskcache.cached("t", "v2", b"text", compute)
    assert len(calls) == 3


def test_a_damaged_entry_is_a_miss_not_an_error(cache_home):
    compute, calls = counting([1, 2])
    diskcache.cached("t", "v1", b"text", compute)
    diskcache.forget()
    for entry in packs(cache_home):
        entry.write_bytes(b"\x00garbage")
    assert diskcache.cached("t", "v1", b"text", compute) == [1, 2]
    assert len(calls) == 2


def test_each_process_writes_one_pack_and_too_many_packs_are_folded_into_one_that_keeps_every_entry(cache_home):
    compute, calls = counting("value")
    for number in range(diskcache.MAX_PACKS + 1):  # one process after another, each making one entry
        diskcache.cached("t", "v1", str(number).encode(), compute)
        diskcache.forget()
    assert len(packs(cache_home)) == 1, "the writer that found MAX_PACKS packs folded them into its own"
    for number in range(diskcache.MAX_PACKS + 1):
        assert diskcache.cached("t", "v1", str(number).encode(), compute) == "value"
    assert len(calls) == diskcache.MAX_PACKS + 1


def test_a_pack_another_process_folds_away_while_this_one_reads_it_still_answers(cache_home):
    diskcache.cached("t", "v1", b"text", lambda: "value")
    diskcache.forget()
    assert diskcache.cached("t", "v1", b"other", lambda: "other value") == "other value"  # this process opened the pack
    for pack in packs(cache_home):
        pack.unlink()  # as the writer that folds packs does
    assert diskcache.cached("t", "v1", b"text", lambda: pytest.fail("computed again")) == "value"


def test_entries_a_helper_made_reach_its_parent_as_a_pack_the_parent_reads_and_does_not_write_again(cache_home):
    diskcache.cached("t", "v1", b"parent's", lambda: "before the helper")
    before = diskcache.made_keys()
    diskcache.cached("t", "v1", b"helper's", lambda: "made by the helper")
    written, unwritten = diskcache.packed_since(before)  # in the helper
    assert list(written) == [str(packs(cache_home)[0].parent)] and unwritten == {}
    assert diskcache.made_count() == 1, "what the helper packed is not written again at exit"
    diskcache.take_packs(written)  # in the parent
    assert diskcache.cached("t", "v1", b"helper's", lambda: pytest.fail("computed again")) == "made by the helper"
    diskcache.forget()
    assert len(packs(cache_home)) == 2
    assert diskcache.cached("t", "v1", b"parent's", lambda: pytest.fail("computed again")) == "before the helper"


def test_entries_a_helper_cannot_write_travel_to_its_parent_as_they_are(cache_home, monkeypatch):
    def refused(_folder, _entries):
        raise OSError("read-only file system")

    before = diskcache.made_keys()
    diskcache.cached("t", "v1", b"text", lambda: "value")
    monkeypatch.setattr(diskcache, "_write_pack", refused)
    written, unwritten = diskcache.packed_since(before)
    key = diskcache.hashlib.sha256(b"text").digest()
    assert written == {} and [list(entries) for entries in unwritten.values()] == [[key]]
    assert diskcache.made_count() == 1


def test_a_version_folder_nobody_wrote_to_for_weeks_is_removed_by_the_next_writer(cache_home):
    import os
    import time

    diskcache.cached("t", "old code", b"text", lambda: 1)
    diskcache.forget()
    (old,) = [path.parent for path in packs(cache_home)]
    weeks_ago = time.time() - (diskcache.STALE_DAYS + 1) * 86400
    os.utime(old, (weeks_ago, weeks_ago))
    diskcache.cached("t", "new code", b"text", lambda: 2)
    diskcache.forget()
    assert not old.exists() and len(packs(cache_home)) == 1


def test_kb_no_cache_turns_the_cache_off(cache_home, monkeypatch):
    monkeypatch.setenv("KB_NO_CACHE", "1")
    compute, calls = counting(1)
    diskcache.cached("t", "v1", b"text", compute)
    diskcache.cached("t", "v1", b"text", compute)
    assert len(calls) == 2 and not cache_home.exists()


def test_a_cached_yaml_file_reads_as_the_same_data_and_lines(cache_home, tmp_path):
    path = tmp_path / "rule.yaml"
    path.write_text("id: a\nclauses:\n  - {id: one, text: First.}\n  - id: two\n    text: Second.\n", encoding="utf-8")
    first = yamlfile.read_yaml(path)
    diskcache.forget()
    second = yamlfile.read_yaml(path)  # from the cache
    assert packs(cache_home), "the first read should have stored an entry"
    assert (second.data, second.lines) == (first.data, first.lines) == (yamlfile.parse_yaml(path.read_text()).data,
                                                                        yamlfile.parse_yaml(path.read_text()).lines)
    assert second.line(("clauses", 1, "text")) == 5


def test_a_refused_yaml_file_is_refused_every_time(cache_home, tmp_path):
    path = tmp_path / "bomb.yaml"
    path.write_text("a: &x [1]\nb: *x\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(yamlfile.YamlError):
            yamlfile.read_yaml(path)


def test_a_file_parsed_for_a_caller_that_wants_lines_is_parsed_once(cache_home, monkeypatch):
    text = "id: a\nclauses:\n  - id: one\n    text: First.\n"
    parses = []
    parse = yamlfile.parse_yaml
    monkeypatch.setattr(yamlfile, "parse_yaml", lambda *args, **kwargs: parses.append(1) or parse(*args, **kwargs))
    document = yamlfile.parse_yaml_cached(text, with_lines=True)
    assert document.line(("clauses", 0, "text")) == 4 and len(parses) == 1  # the lines came from the same pass
    again = yamlfile.parse_yaml_cached(text)
    assert again.line(("clauses", 0, "text")) == 4 and len(parses) == 1  # data and lines both from the cache


def test_where_there_is_no_pread_a_pack_is_read_by_seeking_with_the_same_answers(cache_home, monkeypatch):
    diskcache.cached("t", "v1", b"text", lambda: {"a": 1})
    diskcache.forget()
    monkeypatch.delattr(diskcache.os, "pread")  # as on Windows
    assert diskcache.cached("t", "v1", b"text", lambda: pytest.fail("computed again")) == {"a": 1}


def test_the_same_data_gives_the_same_key_however_its_strings_happen_to_be_shared():
    import marshal

    shared = "en"
    made = "".join(["e", "n"])  # equal, but another object, and not interned
    one, other = ("ru", [shared, shared], {"lang": shared}), ("ru", [shared, made], {"lang": made})
    assert marshal.dumps(one, 4) != marshal.dumps(other, 4)  # why keys are not made with the values' format
    assert diskcache.key_bytes(one) == diskcache.key_bytes(other)

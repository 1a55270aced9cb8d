"""The disk cache is invisible: the same answers, keyed by content and the package's code, damage is a miss."""

from __future__ import annotations

import marshal
import multiprocessing
import os
import sqlite3
import subprocess
import sys

import pytest

from generator.core import cache, yamlfile
from generator.site.inputs import copy_inputs

from .conftest import ROOT


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("KB_NO_CACHE", raising=False)
    cache.forget()
    yield tmp_path / "cache" / cache.CACHE_NAME
    cache.forget()


def counting(value):
    calls = []

    def compute():
        calls.append(1)
        return value

    return compute, calls


def rows(cache_home) -> list[tuple]:
    with sqlite3.connect(cache_home / cache.DATABASE) as connection:
        return connection.execute("SELECT key, value, version, used FROM entries").fetchall()


def test_a_value_is_computed_once_for_the_same_bytes_and_kept_for_the_next_process(cache_home):
    compute, calls = counting({"a": [1, (2, 3)]})
    assert cache.cached("t", b"text", compute) == {"a": [1, (2, 3)]}
    assert cache.cached("t", b"text", compute) == {"a": [1, (2, 3)]}
    cache.forget()  # written, and the next call reads the database, as a new process would
    assert cache.cached("t", b"text", compute) == {"a": [1, (2, 3)]}
    assert len(calls) == 1 and len(rows(cache_home)) == 1


def test_other_bytes_or_another_kind_miss_the_cache(cache_home):
    compute, calls = counting(1)
    for kind, data in (("t", b"text"), ("t", b"text!"), ("u", b"text")):
        cache.cached(kind, data, compute)
    assert len(calls) == 3


def test_the_version_changes_with_any_file_of_the_package(cache_home, monkeypatch, tmp_path):
    before = cache.code_version()
    package = tmp_path / "generator"
    (package / "kb").mkdir(parents=True)
    (package / "kb" / "model.py").write_text("A = 1\n")
    monkeypatch.setattr(cache, "PACKAGE", package)
    cache.code_version.cache_clear()
    first = cache.code_version()
    (package / "kb" / "model.py").write_text("A = 2\n")  # a module no list names: the version still follows it
    cache.code_version.cache_clear()
    second = cache.code_version()
    cache.code_version.cache_clear()
    assert len({before, first, second}) == 3


def test_an_entry_of_another_code_version_is_never_found(cache_home, monkeypatch):
    cache.cached("t", b"text", lambda: "old code's answer")
    cache.forget()
    monkeypatch.setattr(cache, "code_version", lambda: "a newer version")
    assert cache.cached("t", b"text", lambda: "new code's answer") == "new code's answer"


@pytest.mark.parametrize("damage", [
    b"\x00garbage",
    b"[" + (0x7FFFFFFF).to_bytes(4, "little"),  # security review N13: a list claiming 2**31-1 items
])
def test_a_damaged_entry_is_a_miss_not_an_error(cache_home, damage):
    compute, calls = counting([1, 2])
    cache.cached("t", b"text", compute)
    cache.forget()
    with sqlite3.connect(cache_home / cache.DATABASE) as connection:
        connection.execute("UPDATE entries SET value = ?", (damage,))
    assert cache.cached("t", b"text", compute) == [1, 2]
    assert len(calls) == 2


def test_a_database_that_is_not_one_is_a_miss_and_nothing_is_written(cache_home):
    cache_home.mkdir(parents=True)
    (cache_home / cache.DATABASE).write_bytes(b"this is not an SQLite database" * 100)
    compute, calls = counting("value")
    assert cache.cached("t", b"text", compute) == "value"
    cache.forget()
    assert cache.cached("t", b"text", compute) == "value"
    assert len(calls) == 2
    assert (cache_home / cache.DATABASE).read_bytes().startswith(b"this is not")


def _make_entries(home: str, first: int):
    import os

    os.environ["XDG_CACHE_HOME"] = home
    for number in range(first, first + 200):
        cache.cached("t", str(number).encode(), lambda: number)
    cache.flush()


def test_two_processes_writing_at_once_keep_every_entry(cache_home):
    home = str(cache_home.parent)
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        pool.starmap(_make_entries, [(home, 0), (home, 200)])
    assert len(rows(cache_home)) == 400
    assert [cache.cached("t", str(number).encode(), lambda: pytest.fail("computed again"))
            for number in range(400)] == list(range(400))


def test_a_database_another_process_is_setting_up_is_tried_again_not_given_up(cache_home, monkeypatch):
    real_connect, attempts = sqlite3.connect, []

    def connect(*args, **kwargs):  # SQLite may report the lock at once instead of waiting for it
        attempts.append(1)
        if len(attempts) <= 2:
            error = sqlite3.OperationalError("database is locked")
            error.sqlite_errorcode = cache.SQLITE_BUSY
            raise error
        return real_connect(*args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", connect)
    cache.cached("t", b"text", lambda: 1)
    cache.flush()
    assert len(attempts) >= 3 and len(rows(cache_home)) == 1


def test_entries_of_another_version_unused_for_weeks_are_removed_by_the_next_writer(cache_home):
    import time

    cache.cached("t", b"text", lambda: 1)
    cache.forget()
    weeks_ago = int(time.time()) - (cache.STALE_DAYS + 1) * 86400
    with sqlite3.connect(cache_home / cache.DATABASE) as connection:
        connection.execute("UPDATE entries SET version = 'old code', used = ?", (weeks_ago,))
        connection.execute("INSERT INTO entries VALUES (x'00', x'00', 'old code', ?)", (int(time.time()),))
    cache.cached("t", b"other text", lambda: 2)
    cache.forget()
    assert sorted(row[2] for row in rows(cache_home)) == sorted(["old code", cache.code_version()])  # the recent one stays


def test_kb_no_cache_turns_the_cache_off(cache_home, monkeypatch):
    monkeypatch.setenv("KB_NO_CACHE", "1")
    compute, calls = counting(1)
    cache.cached("t", b"text", compute)
    cache.cached("t", b"text", compute)
    cache.flush()
    assert len(calls) == 2 and not cache_home.exists()


def test_a_cached_yaml_file_reads_as_the_same_data_and_lines(cache_home, tmp_path):
    path = tmp_path / "rule.yaml"
    path.write_text("id: a\nclauses:\n  - {id: one, text: First.}\n  - id: two\n    text: Second.\n", encoding="utf-8")
    first = yamlfile.read_yaml(path)
    cache.forget()
    second = yamlfile.read_yaml(path)  # from the cache
    assert rows(cache_home), "the first read should have stored an entry"
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


def test_the_same_data_gives_the_same_key_however_its_strings_happen_to_be_shared():
    shared = "en"
    made = "".join(["e", "n"])  # equal, but another object, and not interned
    one, other = ("ru", [shared, shared], {"lang": shared}), ("ru", [shared, made], {"lang": made})
    assert marshal.dumps(one, 4) != marshal.dumps(other, 4)  # why keys are not made with the values' format
    assert cache.key_bytes(one) == cache.key_bytes(other)


def test_a_check_run_as_its_own_process_writes_its_entries_before_the_process_ends(cache_home, tmp_path):
    repo = copy_inputs(ROOT, tmp_path / "repo")
    env = {**os.environ, "XDG_CACHE_HOME": str(cache_home.parent)}
    command = [sys.executable, "-m", "generator", "--root", str(repo), "check"]
    first = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    assert first.returncode == 0, first.stdout + first.stderr
    assert first.stdout.strip().splitlines()[-1].endswith(" passed, 0 failed")
    entries = rows(cache_home)
    assert any(version == cache.code_version() for _key, _value, version, _used in entries)
    again = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    assert (again.returncode, again.stdout) == (first.returncode, first.stdout)
    assert len(rows(cache_home)) == len(entries)  # every entry was there: the second run made none

"""Filling the disk cache on both cores: every item worked once, every entry and answer arrives, no stray process."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest

from generator import cachefill, diskcache

from .conftest import ROOT


@pytest.fixture
def empty_cache(tmp_path, monkeypatch) -> dict[str, str]:
    """An empty disk cache for this process and the ones a test starts (given their environment)."""
    for name, value in {"XDG_CACHE_HOME": str(tmp_path / "cache"), "KB_NO_CACHE": ""}.items():
        monkeypatch.setenv(name, value)
    yield dict(os.environ)
    diskcache.forget()


FILL_SCRIPT = """
import sys
from generator import cachefill, diskcache
items = list(range(cachefill.PARALLEL_MINIMUM * 2))
here = []

def square(item):
    if item == 7:
        raise ValueError("a broken file")
    return diskcache.cached("t", "v1", str(item).encode(), lambda: here.append(item) or item * item)

cachefill.fill_in_parallel(items, square)
for item in items:
    if item != 7:
        assert diskcache.cached("t", "v1", str(item).encode(), lambda: sys.exit(f"{item} not filled")) == item * item
diskcache.forget()  # a later run, with a warm cache: no child is made
import os
os.fork = lambda: sys.exit("forked although the cache knew every item")
cachefill.fill_in_parallel(items, square)
print(len(here), len(items))
"""


def test_entries_filled_on_both_cores_reach_this_process_and_a_warm_cache_makes_no_second_process(empty_cache):
    # In a process of its own: pytest's own process may run server threads, beside which nothing is forked.
    result = subprocess.run([sys.executable, "-c", FILL_SCRIPT], cwd=ROOT, capture_output=True, text=True, check=True)
    here, items = map(int, result.stdout.split())
    assert 0 < here < items, "this process should have done part of the work, not all of it"


def test_nothing_is_forked_beside_a_running_thread_or_for_a_few_items(empty_cache):
    calls = []
    work = calls.append
    cachefill.fill_in_parallel(list(range(cachefill.PARALLEL_MINIMUM - 1)), work)
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        cachefill.fill_in_parallel(list(range(cachefill.PARALLEL_MINIMUM * 2)), work)
    finally:
        stop.set()
        thread.join()
    assert calls == []


HELPER_SCRIPT = """
import os, sys, time
from generator import cachefill, diskcache
items = list(range(cachefill.PARALLEL_MINIMUM * 3))
log = sys.argv[1]

def square(item):
    if item == 7:
        raise ValueError("a broken file")
    with open(log, "a") as out:  # one short line per call: appends from two processes never mix
        out.write(f"{os.getpid()} {item}\\n")
    return diskcache.cached("t", "v1", str(item).encode(), lambda: item * item)

helper = cachefill.fill_in_background(items, square)
time.sleep(0.05)  # this process is busy elsewhere while the helper works
helper.join()
for item in items:
    if item != 7:
        assert diskcache.cached("t", "v1", str(item).encode(), lambda: sys.exit(f"{item} not filled")) == item * item
diskcache.forget()
answers = cachefill.map_in_parallel([str(item) for item in items], lambda item: diskcache.cached(
    "m", "v1", item.encode(), lambda: int(item) + 1))
print(sorted(answers) == list(range(len(items))) and all(answers[i] == i + 1 for i in answers))
"""


def test_a_helper_and_this_process_share_the_items_so_each_is_worked_once_and_every_entry_arrives(empty_cache, tmp_path):
    log = tmp_path / "calls"
    result = subprocess.run([sys.executable, "-c", HELPER_SCRIPT, str(log)], cwd=ROOT, capture_output=True,
                            text=True, env=empty_cache)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True"]  # map_in_parallel: the answer of every item, from both processes
    calls = [line.split() for line in log.read_text().splitlines()]
    worked = sorted(int(item) for _pid, item in calls)
    assert worked == [item for item in range(cachefill.PARALLEL_MINIMUM * 3) if item != 7]  # once each
    assert len({pid for pid, _item in calls}) == 2  # by a helper process besides this one


STOP_SCRIPT = """
import os, time
from generator import cachefill, diskcache
command = os.getpid()
helper = cachefill.fill_in_background(list(range(200)), lambda item: diskcache.cached(
    "t", "v1", str(item).encode(), lambda: os.getpid() != command and time.sleep(1)))  # the helper is slow
print(helper.pid, flush=True)
"""  # the command ends before it joins its helper


def test_a_helper_nobody_joined_is_ended_with_the_command(empty_cache):
    import os
    result = subprocess.run([sys.executable, "-c", STOP_SCRIPT], cwd=ROOT, capture_output=True, text=True,
                            env=empty_cache, timeout=60)
    child = int(result.stdout)
    with pytest.raises(ProcessLookupError):
        os.kill(child, 0)

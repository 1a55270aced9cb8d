"""A first run shares its parsing among the cores: the entries other processes make come back, nothing changes."""

from __future__ import annotations

import multiprocessing
import os
import re
import threading

import pytest

from generator.cli import main
from generator.core import cache, parallel
from generator.i18n import update as update_module
from generator.site.inputs import copy_inputs

from .conftest import ROOT


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("KB_NO_CACHE", raising=False)
    cache.forget()
    yield
    cache.forget()


@pytest.fixture
def two_cores(monkeypatch):
    """Two processes share the work whatever the machine and the test runner's threads, from a few items on."""
    monkeypatch.setattr(parallel, "cores", lambda: 2)
    monkeypatch.setattr(parallel, "MIN_ITEMS", 4)


def squared_by(pids: list, before=lambda number: None):
    """Work that caches the square of a number and notes which process computed it (calling before(number) first)."""
    def work(number):
        def compute():
            pids.append(os.getpid())
            before(number)
            return number * number
        return cache.cached("square", str(number).encode(), compute)
    return work


# A bound for a process that never comes (a broken share-out), not a wait: the processes meet as soon as both are there.
MEETING_TIMEOUT_S = 120


def two_meet():
    """before(number) for work shared by two processes: each one's first item waits until the other has taken one
    too, so both do part of the work however the machine schedules them (a barrier made before the fork)."""
    barrier, met = multiprocessing.Barrier(2, timeout=MEETING_TIMEOUT_S), set()

    def before(_number):
        if os.getpid() not in met:
            met.add(os.getpid())
            barrier.wait()
    return before


def counted_done():
    """(note, wait): note(number) counts an item as done in whichever process did it; wait(n) returns once n have."""
    done = multiprocessing.Semaphore(0)

    def wait(count: int):
        for _ in range(count):
            assert done.acquire(timeout=MEETING_TIMEOUT_S), "the other process did not do its items"
    return (lambda _number: done.release()), wait


def test_entries_made_in_another_process_are_kept_here_and_the_command_finds_them_without_computing(cache_home,
                                                                                                   two_cores):
    made_here: list[int] = []
    work = squared_by(made_here, two_meet())
    parallel.fill_cache(work, list(range(10)))
    assert 0 < len(made_here) < 10  # this process did some; the child's came back as entries
    assert all(pid == os.getpid() for pid in made_here)
    made_here.clear()
    assert [work(number) for number in range(10)] == [number * number for number in range(10)]
    assert made_here == []  # every answer now comes from the cache
    cache.forget()  # and they reach the database with this process's own
    assert [work(number) for number in range(10)] == [number * number for number in range(10)]
    assert made_here == []


def test_the_process_that_is_free_takes_the_next_items_so_one_slow_item_does_not_hold_the_rest(cache_home,
                                                                                              two_cores):
    made_here: list[int] = []
    note, wait = counted_done()

    def before(number):  # whoever takes item 0 is busy with it until the other has done every other item
        wait(9) if number == 0 else note(number)

    parallel.fill_cache(squared_by(made_here, before), list(range(10)))
    assert len(made_here) in (1, 9)  # item 0 alone, or the nine others (when the child took item 0)


def test_beside_its_own_work_a_process_has_another_fill_the_cache_and_shares_nothing_more(cache_home, two_cores):
    made_here: list[int] = []
    note, wait = counted_done()
    work = squared_by(made_here, note)

    def here():  # busy until the other process has done every item
        wait(10)
        return parallel.processes(), os.getpid()

    assert parallel.fill_beside(here, work, list(range(10))) == (1, os.getpid())  # the other core was taken
    assert made_here == [] and [work(number) for number in range(10)] == [n * n for n in range(10)]
    assert made_here == []  # the other process made every entry; they came back
    assert parallel.processes() == 2
    assert parallel.fill_beside(lambda: (parallel.processes(), os.getpid()), work, list(range(10))) == \
        (2, os.getpid())  # a warm cache: no helper


def test_its_own_work_done_a_process_lends_a_hand_with_the_items_left(cache_home, two_cores):
    made_here: list[int] = []
    work = squared_by(made_here, two_meet())
    assert parallel.fill_beside(lambda: "done", work, list(range(10))) == "done"
    assert 0 < len(made_here) < 10
    assert [work(number) for number in range(10)] == [n * n for n in range(10)] and len(made_here) < 10


def test_a_warm_cache_is_not_shared_out_again(cache_home, two_cores, monkeypatch):
    work = squared_by([])
    for number in range(10):
        work(number)
    monkeypatch.setattr(parallel, "_fork", lambda *_: pytest.fail("forked for a warm cache"))
    parallel.fill_cache(work, list(range(10)))


def test_a_share_whose_process_fails_is_done_here(cache_home, two_cores):
    made_here: list[int] = []
    compute = squared_by(made_here)
    parent = os.getpid()

    def work(number):
        if os.getpid() != parent:
            os._exit(3)  # the child dies before it hands anything back
        return compute(number)

    parallel.fill_cache(work, list(range(10)))
    assert sorted(cache.cached("square", str(n).encode(), lambda: None) for n in range(10)) == \
        sorted(n * n for n in range(10))
    assert len(made_here) == 10


def test_work_that_fails_is_left_for_the_command_to_meet(cache_home, two_cores):
    def work(number):
        return cache.cached("broken", str(number).encode(), lambda: 1 // 0)

    parallel.fill_cache(work, list(range(10)))  # no exception here: the command reports it where it reads the item
    with pytest.raises(ZeroDivisionError):
        work(0)


def test_few_items_no_cache_or_other_threads_mean_one_process(cache_home, monkeypatch):
    monkeypatch.setattr(parallel, "_fork", lambda *_: pytest.fail("forked"))
    parallel.fill_cache(squared_by([]), list(range(parallel.MIN_ITEMS - 1)))
    monkeypatch.setenv("KB_NO_CACHE", "1")
    assert parallel.processes() == 1
    monkeypatch.delenv("KB_NO_CACHE")
    started = threading.Event()
    done = threading.Event()
    thread = threading.Thread(target=lambda: (started.set(), done.wait()))
    thread.start()
    try:
        started.wait()
        assert parallel.processes() == 1  # a lock another thread holds would stay held in a forked child
    finally:
        done.set()
        thread.join()


def test_misses_tells_a_missing_entry_from_a_kept_one_without_computing_either(cache_home):
    computed: list[int] = []
    work = squared_by(computed)
    work(2)
    assert cache.misses(work, 3) and not cache.misses(work, 2)
    assert computed == [os.getpid()]  # only the first, real call computed
    assert not cache.misses(lambda item: 1 // 0, 1)  # a failure before any lookup misses nothing


def test_alongside_gives_both_results_the_second_made_in_another_process_with_its_cache_entries(cache_home,
                                                                                               two_cores):
    here, there = parallel.alongside(lambda: os.getpid(),
                                     lambda: (os.getpid(), cache.cached("made there", b"x", lambda: [1, 2])), 10)
    assert here == os.getpid() and there[0] != os.getpid() and there[1] == [1, 2]
    assert cache.cached("made there", b"x", lambda: pytest.fail("computed again")) == [1, 2]


def test_alongside_does_the_second_part_here_when_its_process_fails(cache_home, two_cores):
    parent = os.getpid()

    def there():
        if os.getpid() != parent:
            os._exit(3)
        return "done here"

    assert parallel.alongside(lambda: 1, there, 10) == (1, "done here")


def test_alongside_runs_small_work_in_turn_in_this_process(cache_home, two_cores, monkeypatch):
    monkeypatch.setattr(parallel, "_fork", lambda *_: pytest.fail("forked"))
    assert parallel.alongside(lambda: 1, lambda: 2, parallel.MIN_ITEMS - 1) == (1, 2)


# check runs its steps one after the other, sharing out only a first run's parsing; i18n check also runs two parts
# side by side on a warm cache.
@pytest.mark.parametrize("command, warm_shares", [(["check"], False), (["i18n", "check"], True)], ids=["check", "i18n"])
def test_the_commands_print_the_same_on_two_cores_as_on_one(cache_home, monkeypatch, capsys, tmp_path, command,
                                                          warm_shares):
    monkeypatch.setattr(parallel, "cores", lambda: 1)
    serial = main(["--root", str(ROOT), *command]), capsys.readouterr()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "empty"))  # a first run again: the files are shared out
    cache.forget()
    monkeypatch.setattr(parallel, "cores", lambda: 2)
    monkeypatch.setattr(parallel, "MIN_ITEMS", 1)  # every share and every part goes to another process
    monkeypatch.setattr(parallel, "_fork", counted(parallel._fork))
    shared = main(["--root", str(ROOT), *command]), capsys.readouterr()
    assert parallel._fork.calls > 0
    assert shared == serial
    cache.flush()  # a second run meets a warm cache: nothing is shared out (i18n check's parts still run side by side)
    parallel._fork.calls = 0
    warm = main(["--root", str(ROOT), *command]), capsys.readouterr()
    assert (parallel._fork.calls > 0) == warm_shares
    assert warm == serial


def counted(function):
    def wrapper(*args):
        wrapper.calls += 1
        return function(*args)
    wrapper.calls = 0
    return wrapper


def test_i18n_update_writes_the_same_catalogs_with_the_merges_shared_out_as_on_one_core(cache_home, monkeypatch,
                                                                                        capsys, tmp_path):
    def edited(folder):
        # A renamed clause and a reworded one: a message is added (the memory is asked), one made obsolete, one
        # marked fuzzy.
        root = copy_inputs(ROOT, tmp_path / folder)
        rule = root / "rules/wap/dodge.yaml"
        text = re.sub(r"\bcumulative\b", "adds-up", rule.read_text(encoding="utf-8"))
        rule.write_text(text.replace("front arc", "front facing", 1), encoding="utf-8")
        return root

    one, two = edited("one"), edited("two")
    monkeypatch.setattr(parallel, "cores", lambda: 1)
    serial = main(["--root", str(one), "i18n", "update"]), capsys.readouterr().out
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "empty"))
    cache.forget()
    monkeypatch.setattr(parallel, "cores", lambda: 2)
    monkeypatch.setattr(parallel, "MIN_ITEMS", 1)
    merged_by = tmp_path / "merged-by"
    real_merge = update_module._merged
    meet = two_meet()

    def noted_merge(*args):
        meet(None)  # each process's first merge waits for the other's: both take catalogs from the queue
        with open(merged_by, "a") as note:
            note.write(f"{os.getpid()}\n")
        return real_merge(*args)

    monkeypatch.setattr(update_module, "_merged", noted_merge)
    shared = main(["--root", str(two), "i18n", "update"]), capsys.readouterr().out
    assert len(set(merged_by.read_text().split())) > 1  # other processes merged catalogs too
    assert shared == serial
    assert re.search(r"ru: \d+ file\(s\) changed; 1 new, \d+ kept, 1 marked fuzzy, 1 made obsolete", serial[1])
    written = {path.relative_to(one): path.read_bytes() for path in (one / "translations").rglob("*.po")}
    assert written == {path.relative_to(two): path.read_bytes() for path in (two / "translations").rglob("*.po")}

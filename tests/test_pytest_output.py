"""pytest's own output cannot forge CI lines (security review, round four, I2): tests/conftest.py puts the project's
CommandGuard in front of the pytest process's stdout and stderr, so an assertion message or captured output that
holds a CR, a `::` line or a `##[` prints as text, read here with the runner's parser (tests/runner_commands.py)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from .conftest import ROOT
from .runner_commands import PAYLOADS, commands

# A test that prints every payload and fails with all of them in its message, and one that passes.
TOY = f"""
PAYLOADS = {PAYLOADS!r}


def test_prints_and_asserts_every_payload():
    for payload in PAYLOADS:
        print("captured " + payload)
    assert False, "message " + "".join(PAYLOADS)


def test_passes():
    pass
"""
GUARDED = "from tests.conftest import pytest_cmdline_main, pytest_unconfigure  # the project's own hooks\n"


def run_toy(folder, conftest: str, *options: str) -> str:
    (folder / "test_toy.py").write_text(TOY, encoding="utf-8")
    (folder / "conftest.py").write_text(conftest, encoding="utf-8")
    environment = dict(os.environ, PYTHONPATH=str(ROOT), PYTEST_ADDOPTS="")
    result = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--rootdir", str(folder),
                             *options, str(folder)], cwd=ROOT, capture_output=True, env=environment, timeout=300)
    assert result.returncode == 1, result.stdout[-2000:]
    return (result.stdout + result.stderr).decode("utf-8")


def test_no_assertion_message_or_captured_output_starts_a_runner_command(tmp_path):
    output = run_toy(tmp_path, GUARDED, "-n", "2")  # as `make test` runs: the controller prints the workers' reports
    assert commands(output) == []
    assert "captured " in output and "message " in output  # the payloads were printed, as text
    assert re.search(r"^1 failed, 1 passed in [\d.]+s$", output, re.MULTILINE), output[-500:]  # the summary CI reads


def test_without_the_guard_the_same_test_forges_commands(tmp_path):
    forged = {command.name for _line, command in commands(run_toy(tmp_path, ""))}
    assert {"error", "warning", "add-mask", "stop-commands"} <= forged

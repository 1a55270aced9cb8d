"""Shared fixtures: the real knowledge base, and throw-away copies of the repository to break."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


@pytest.fixture(scope="session")
def kb():
    from generator.load import load
    from generator.validate import validate

    knowledge_base, problems = load(ROOT)
    problems.extend(validate(knowledge_base))
    assert not problems, problems.report()
    return knowledge_base


@pytest.fixture
def repo(tmp_path) -> Path:
    """A copy of the repository's inputs that a test may edit freely."""
    from generator.inputs import copy_inputs

    return copy_inputs(ROOT, tmp_path / "repo")


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path

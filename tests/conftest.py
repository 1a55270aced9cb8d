"""Shared fixtures: the real knowledge base, and throw-away copies of the repository to break."""

from __future__ import annotations

import shutil
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
    copy = tmp_path / "repo"
    for name in ("rules", "translations", "docs", "site_overrides"):
        shutil.copytree(ROOT / name, copy / name)
    shutil.copy(ROOT / "mkdocs.yml", copy / "mkdocs.yml")
    (copy / "generator").symlink_to(ROOT / "generator")  # mkdocs.yml names its hooks by path
    return copy


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path

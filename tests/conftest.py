"""Shared fixtures: the real knowledge base, the built site, and throw-away copies of the repository to break."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"

# A missing Russian translation planted in one build (`planted_site`): {name: (catalog, message, planted text)}.
# A message is a rule message's msgctxt or an interface msgid; "" leaves it untranslated. (Hostile
# translations are planted by tests/hostile.py, in tests/test_hostile_translations.py's build.)
PLANTS = {
    "rule missing": ("translations/ru/rules/wap/martial-arts.po", "wap/martial-arts:summary", ""),
}


@pytest.fixture(scope="session")
def kb():
    from generator.load import load_and_validate

    knowledge_base, problems = load_and_validate(ROOT)
    assert not problems, problems.report()
    return knowledge_base


@pytest.fixture
def repo(tmp_path) -> Path:
    """A copy of the repository's inputs that a test may edit freely."""
    from generator.inputs import copy_inputs

    return copy_inputs(ROOT, tmp_path / "repo")


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """The site built from the repository, once per test session (and per xdist worker)."""
    from generator.site import build_site

    return build_site(ROOT, tmp_path_factory.mktemp("build") / "site", quiet=True)


def plant(repo: Path, catalog: str, message: str, text: str):
    """Set one message of one catalog in a repository copy (`message`: a msgctxt, or an interface msgid)."""
    from generator.i18n.catalog import read_catalog, render_catalog

    path = repo / catalog
    entries = read_catalog(path, "ru")
    found = [m for m in entries if message in (m.context, m.id)]
    assert len(found) == 1, f"{catalog}: {message!r} matches {len(found)} messages"
    found[0].string = text
    path.write_bytes(render_catalog(entries))


@pytest.fixture(scope="session")
def planted_repo(tmp_path_factory) -> Path:
    """A repository copy carrying every translation of PLANTS."""
    from generator.inputs import copy_inputs

    repo = copy_inputs(ROOT, tmp_path_factory.mktemp("planted") / "repo")
    for catalog, message, text in PLANTS.values():
        plant(repo, catalog, message, text)
    return repo


@pytest.fixture(scope="session")
def planted_site(planted_repo, tmp_path_factory) -> Path:
    """The site of `planted_repo`, built once for the tests of a missing translation."""
    from generator.site import build_site

    return build_site(planted_repo, tmp_path_factory.mktemp("planted-site") / "site", quiet=True, search=False)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path

"""Shared fixtures: the real knowledge base, the built site, and throw-away copies of the repository to break."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"

RU_RULES = "translations/ru/rules/wap"
# Hostile or broken Russian translations planted together in one build (`planted_site`), each in its
# own message so that every test finds its own on its own page: {name: (catalog, message, planted text)}.
# A message is a rule message's msgctxt or an interface msgid; "" leaves it untranslated.
PLANTS = {
    "rule script tag": (f"{RU_RULES}/strider.po", "wap/strider:summary", "Опасно: <script>alert(1)</script> конец."),
    "rule jinja expression": (f"{RU_RULES}/dodge.po", "wap/dodge:summary", "Опасно: {{ config }} конец."),
    "rule jinja raw block": (f"{RU_RULES}/immunity.po", "wap/immunity:summary", "Опасно: {% raw %}x{% endraw %} конец."),
    "rule missing": (f"{RU_RULES}/martial-arts.po", "wap/martial-arts:summary", ""),
    "ui script tag": ("translations/ru/ui.po", "Rule text", "Текст <script>alert(1)</script>"),
    "ui jinja expression": ("translations/ru/ui.po", "Predicates", "Текст {{ config }}"),
    "ui jinja raw block": ("translations/ru/ui.po", "Worked examples", "Текст {%% raw %%}x{%% endraw %%}"),
    "ui lone percent": ("translations/ru/ui.po", "See also", "Текст {% raw %}x{% endraw %}"),
    "search label": ("translations/ru/ui.po", "Nothing found", "'><script>alert(1)</script>"),
}


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
    """The site of `planted_repo`, built once for every test of a hostile or missing translation."""
    from generator.site import build_site

    return build_site(planted_repo, tmp_path_factory.mktemp("planted-site") / "site", quiet=True, search=False)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path

"""Build the whole site: validate everything, render every language in memory, then let MkDocs write it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from markupsafe import escape

from .i18n.translate import Translations
from .load import load
from .model import KnowledgeBase
from .problems import InputError, Problems
from .render import Page, Renderer
from .validate import validate


@dataclass
class LanguageBuild:
    """What MkDocs needs for one language: generated pages, navigation and extra files."""

    lang: str
    pages: list[Page]
    nav: list
    assets: dict = field(default_factory=dict)  # path -> text (JSON export)
    search_labels: dict = field(default_factory=dict)  # Pagefind UI strings in this language


@dataclass
class Prepared:
    """The validated input of a build, shared by every language."""

    root: Path
    kb: KnowledgeBase
    languages: list[dict]
    translations: dict[str, Translations]


_PREPARED: dict[str, Prepared] = {}  # keyed by root, so one `site` run loads the input once


def read_languages(root: Path) -> list[dict]:
    raw = yaml.safe_load((Path(root) / "mkdocs.yml").read_text(encoding="utf-8"))
    return list(raw.get("extra", {}).get("kb_languages") or [{"code": "en", "name": "English"}])


def prepare(root: Path, fresh: bool = False) -> Prepared:
    """Load and validate rules and every catalog; raise InputError listing every problem."""
    root = Path(root).resolve()
    if not fresh and str(root) in _PREPARED:
        return _PREPARED[str(root)]
    kb, problems = load(root)
    if not problems:
        problems.extend(validate(kb))
    languages = read_languages(root)
    translations = {}
    checked = kb if not problems else None  # references are checked against a knowledge base that loaded cleanly
    for language in languages:
        translations[language["code"]] = Translations.load(root, language["code"], problems, checked)
    if problems:
        raise InputError(problems)
    prepared = Prepared(root, kb, languages, translations)
    _PREPARED[str(root)] = prepared
    return prepared


def language_build(root: Path, lang: str) -> LanguageBuild:
    prepared = prepare(root)
    if lang not in prepared.translations:
        problems = Problems()
        problems.add("mkdocs.yml", 0, "", f"theme.language is {lang!r}, which is not in extra.kb_languages",
                     "add the language to extra.kb_languages")
        raise InputError(problems)
    from .i18n.status import language_status

    tr = prepared.translations[lang]
    status = language_status(prepared.kb, tr) if len(prepared.languages) > 1 else None
    renderer = Renderer(prepared.kb, tr, prepared.languages, status=status)
    pages = renderer.pages()
    from .export import export_files

    assets = export_files(prepared.kb, tr)
    from .search import search_labels

    return LanguageBuild(lang, pages, renderer.nav(), assets, search_labels(tr))


def _mkdocs_config(root: Path, lang: str, site_dir: Path):
    from mkdocs.config import load_config

    _ = prepare(root).translations[lang].gettext
    raw = yaml.safe_load((root / "mkdocs.yml").read_text(encoding="utf-8"))
    theme = dict(raw["theme"], language=lang)
    plugins = raw.get("plugins")
    # site_url names the English build (…/en/); each language lives beside it under its own prefix.
    site_root = str(raw.get("site_url") or "http://127.0.0.1:8000/en/").rstrip("/").rsplit("/", 1)[0]
    # The theme prints these raw (and some with `| e`): escaped once, as Markup, they are text everywhere.
    extra = dict(raw.get("extra") or {})
    extra["alternate"] = [{key: escape(value) for key, value in alt.items()} for alt in extra.get("alternate") or []]
    return load_config(config_file=str(root / "mkdocs.yml"), site_dir=str(site_dir), theme=theme,
                       plugins=plugins, strict=True, site_url=f"{site_root}/{lang}/", extra=extra,
                       site_name=escape(_("Wargame Rules Knowledge Base")),
                       site_description=escape(raw.get("site_description") or ""))


def build_site(root: Path, out: Path | None = None, quiet: bool = False) -> Path:
    """Build every language into `out` (default site/); on any problem, leave `out` untouched."""
    from mkdocs.commands.build import build

    root = Path(root).resolve()
    out = Path(out or root / "site").resolve()
    _PREPARED.pop(str(root), None)
    prepared = prepare(root, fresh=True)
    for language in prepared.languages:  # render everything before writing anything
        language_build(root, language["code"])
    os.environ.setdefault("SOURCE_DATE_EPOCH", _source_date(root))  # sitemap dates follow the input, not the clock
    staging = out.with_name(out.name + ".staging")
    shutil.rmtree(staging, ignore_errors=True)
    try:
        for language in prepared.languages:
            config = _mkdocs_config(root, language["code"], staging / language["code"])
            build(config)
        write_root_page(staging, prepared.languages)
        index_search(staging, quiet=quiet)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    retired = out.with_name(out.name + ".old")
    shutil.rmtree(retired, ignore_errors=True)
    if out.exists():
        os.replace(out, retired)
    os.replace(staging, out)
    shutil.rmtree(retired, ignore_errors=True)
    return out


def _source_date(root: Path) -> str:
    """Seconds since 1970 of the last commit, so the same input builds the same bytes on any day."""
    try:
        result = subprocess.run(["git", "-C", str(root), "log", "-1", "--format=%ct"], capture_output=True, text=True)
        if result.returncode == 0 and result.stdout.strip().isdigit():
            return result.stdout.strip()
    except OSError:
        pass
    return "1767225600"  # 2026-01-01, for a tree outside git


def write_root_page(site_dir: Path, languages: list[dict]):
    """The site root only lets the reader pick a language, so no language owns the root address."""
    languages = [{key: escape(value) for key, value in lang.items()} for lang in languages]  # mkdocs.yml is input
    links = "\n".join(
        f'    <li><a href="{lang["code"]}/" hreflang="{lang["code"]}" lang="{lang["code"]}">{lang["name"]}</a></li>'
        for lang in languages)
    alternates = "\n".join(f'  <link rel="alternate" hreflang="{lang["code"]}" href="{lang["code"]}/">'
                           for lang in languages)
    html = f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Wargame Rules Knowledge Base</title>
{alternates}
  <style>body{{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}}
  li{{font-size:1.4rem;margin:.6rem 0}}</style>
</head>
<body>
  <h1>Wargame Rules Knowledge Base</h1>
  <p>Choose a language · Выберите язык</p>
  <ul>
{links}
  </ul>
</body>
</html>
"""
    (site_dir / "index.html").write_text(html, encoding="utf-8")


INPUT_FOLDERS = ("rules", "translations", "docs", "site_overrides")  # with mkdocs.yml: all a build reads


def copy_inputs(root: Path, into: Path) -> Path:
    """A copy of a repository's site inputs that builds on its own (used by tests and benchmarks)."""
    for name in INPUT_FOLDERS:
        shutil.copytree(root / name, into / name)
    shutil.copy(root / "mkdocs.yml", into / "mkdocs.yml")
    (into / "generator").symlink_to(root / "generator")  # mkdocs.yml names its hooks by path
    return into


def pagefind_command(site_dir: Path) -> list[str]:
    """The Pagefind run that indexes a built site (also timed by scripts/bench_search.py)."""
    # The ¶ that MkDocs puts after every heading would end up in result titles and excerpts; our own
    # controls (copy link, § anchors, table heads) carry data-pagefind-ignore in the templates.
    return [sys.executable, "-m", "pagefind", "--site", str(site_dir), "--exclude-selectors", ".headerlink"]


def index_search(site_dir: Path, quiet: bool = False):
    """Build the Pagefind index (one per page language) if Pagefind is installed."""
    try:
        import pagefind  # noqa: F401
    except ImportError:
        return
    command = pagefind_command(site_dir)
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError("pagefind failed:\n" + result.stdout + result.stderr)
    # Pagefind lists the languages in hash-map order, which changes from run to run; sorted, the
    # whole site is byte-identical across builds.
    entry = site_dir / "pagefind" / "pagefind-entry.json"
    if entry.exists():
        data = json.loads(entry.read_text(encoding="utf-8"))
        entry.write_text(json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":")), encoding="utf-8")
    if not quiet:
        print(result.stdout.strip().splitlines()[-1] if result.stdout.strip() else "pagefind: done")

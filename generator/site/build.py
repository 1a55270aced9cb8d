"""Build orchestration: validate everything, render each language once, let MkDocs write it, publish atomically.

Decision: a `Build` is the only holder of a build's data (validated input, date, rendered
languages); it is made per build and handed to the MkDocs hooks on the config
(`mkdocs_config.attach`), never kept in a module global, so every build reads its input afresh.

Decision: memory is counted over all of a build's processes at once. `generator site` writes the
pages in a forked child and indexes them once it has exited (`build_site(isolated=True)`); an
in-process build (`make serve`, tests) lets go of its input before Pagefind runs instead.
"""

from __future__ import annotations

import ctypes
import gc
import multiprocessing
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from mkdocs.commands.build import build as mkdocs_build

from ..core import cache
from ..core.problems import InputError, Problems
from ..core.repofiles import repository_files
from ..i18n.status import language_status
from ..i18n.translate import Translations, chain, fallback_problems
from ..kb.load import load_and_validate
from ..kb.model import KnowledgeBase
from ..render.export import LanguageExport
from ..render.pages import Page, Renderer
from .inputs import PUBLISHED
from .mkdocs_config import mkdocs_config, read_config, read_languages, site_name
from .offline import LABELS, Digests, offline_labels, write_offline_files, write_web_manifests
from .publish import publish
from .root_page import write_root_page
from .search import index_search, search_labels

OUTSIDE_GIT_DATE = 1767225600  # 2026-01-01: the date of a tree outside git, so its builds are reproducible too


@dataclass
class LanguageBuild:
    """What MkDocs needs for one language: generated pages, navigation and extra files."""
    lang: str
    pages: list[Page]
    nav: list
    assets: dict = field(default_factory=dict)  # path -> text (JSON export)
    search_labels: dict = field(default_factory=dict)  # the header's strings: Pagefind UI's, the offline control's
    export: object = None  # the export.LanguageExport the assets were written from (`make serve` updates it)


@dataclass
class Prepared:
    """The validated input of a build, shared by every language."""
    root: Path
    kb: KnowledgeBase
    languages: list[dict]
    translations: dict[str, Translations]
    config: dict = field(default_factory=dict)  # mkdocs.yml as data


def prepare(root: Path) -> Prepared:
    """Load and validate rules and every catalog afresh; raise InputError listing every problem."""
    root = Path(root).resolve()
    kb, problems = load_and_validate(root)
    for folder in PUBLISHED:  # MkDocs would follow a symlink out of the checkout and publish its target
        repository_files(root, folder, problems)
    config = read_config(root)
    languages = read_languages(root, config)
    translations = {}
    checked = kb if not problems else None  # references are checked against a knowledge base that loaded cleanly
    for language in languages:
        translations[language["code"]] = Translations.load(root, language["code"], problems, checked)
    fallback_problems(languages, problems)
    if problems:
        raise InputError(problems)
    chain(translations, languages)
    return Prepared(root, kb, languages, translations, config)


def language_build(prepared: Prepared, lang: str, renderer_class: type[Renderer] = Renderer,
                   keep_export: bool = False) -> LanguageBuild:
    """Render every page, the navigation, the export and the search labels of one language.

    `keep_export` keeps the export's text per rule (`make serve` updates it; it grows with the rules).
    """
    if lang not in prepared.translations:
        problems = Problems()
        problems.add("mkdocs.yml", 0, "", f"theme.language is {lang!r}, which is not in extra.kb_languages",
                     "add the language to extra.kb_languages")
        raise InputError(problems)
    tr = prepared.translations[lang]
    status = language_status(prepared.kb, tr) if len(prepared.languages) > 1 else None
    renderer = renderer_class(prepared.kb, tr, prepared.languages, status=status)
    pages = renderer.pages()
    export = LanguageExport(prepared.kb, tr)
    labels = {**search_labels(tr), LABELS: offline_labels(tr)}
    return LanguageBuild(lang, pages, renderer.nav(), export.files(), labels, export if keep_export else None)


class Build:
    """One build of the site: its input read once, its date, and each language rendered at most once."""
    def __init__(self, root: Path, date: int | None = None, prepared: Prepared | None = None,
                 keep_mkdocs: bool = False):
        self.root = Path(root).resolve()
        self.date = source_date(self.root) if date is None else int(date)
        self._prepared = prepared
        self._languages: dict[str, LanguageBuild] = {}
        # MkDocs' state per language (config, files, nav, env), kept only by `make serve` to update pages later.
        self.mkdocs: dict[str, dict] | None = {} if keep_mkdocs else None
        self._scratch: tempfile.TemporaryDirectory | None = None

    @property
    def prepared(self) -> Prepared:
        if self._prepared is None:
            self._prepared = prepare(self.root)
        return self._prepared

    @prepared.setter
    def prepared(self, prepared: Prepared) -> None:
        """New input for the pages rendered from now on (`make serve` after an edit); rendered languages dropped."""
        self._prepared = prepared
        self._languages.clear()

    @property
    def day(self) -> str:
        """The build date as MkDocs writes it into the sitemap."""
        return datetime.fromtimestamp(self.date, timezone.utc).strftime("%Y-%m-%d")

    def language(self, lang: str) -> LanguageBuild:
        if lang not in self._languages:
            self._languages[lang] = language_build(self.prepared, lang, keep_export=self.mkdocs is not None)
        return self._languages[lang]

    def keep(self, lang: str, **state) -> None:
        """Remember MkDocs' state of one language, if this build keeps it (see `keep_mkdocs`)."""
        if self.mkdocs is not None:
            self.mkdocs.setdefault(lang, {}).update(state)

    def release(self, lang: str) -> None:
        """Forget a language's pages once MkDocs has them, so memory holds one language at a time."""
        self._languages.pop(lang, None)

    def release_input(self) -> None:
        """Forget the validated input (a one-off build, once every language is written); read afresh if asked again."""
        self._prepared = None
        self._languages.clear()
        return_freed_memory()

    def scratch_folder(self) -> str:
        """A private folder for files MkDocs copies later (the export), removed after the build."""
        if self._scratch is None:
            self._scratch = tempfile.TemporaryDirectory(prefix="kb-build-")
        return self._scratch.name

    def remove_scratch(self) -> None:
        if self._scratch is not None:
            self._scratch.cleanup()
            self._scratch = None


def build_site(root: Path, out: Path | None = None, quiet: bool = False, date: int | None = None,
               search: bool = True, isolated: bool = False) -> Path:
    """Build every language into `out` (default site/); on any problem, leave `out` untouched.

    `date` (seconds since 1970) defaults to the last commit's; `search=False` skips the Pagefind index.
    `isolated` (`generator site`): a forked child process writes the pages and exits before Pagefind
    runs, so no process holds the input (or what the allocator kept of it) beside Pagefind's.
    """
    if isolated and sys.platform == "linux":  # fork is safe there; macOS libraries may not survive it
        root = Path(root).resolve()
        return _stage_and_publish(Path(out or root / "site").resolve(),
                                  lambda staging: _write_pages_in_a_child(root, date, staging), quiet, search)
    build = Build(root, date)
    return write_site(build, Path(out or build.root / "site"), quiet, search, one_off=True)


def write_site(build: Build, out: Path, quiet: bool = False, search: bool = True, one_off: bool = False,
               digests: Digests | None = None) -> Path:
    """Let MkDocs write every language of `build`, add the root page and the search index, publish to `out`.

    `digests` (`make serve`) keeps the written files' digests for the lists of files for offline use after an edit.
    `one_off`: nothing reads `build` again (`generator site`), so its input is let go before Pagefind
    indexes: this process stays resident beside Pagefind's, and the two together make the build's peak.
    """
    def pages(staging: Path) -> None:
        write_pages(build, staging)
        if one_off:
            build.release_input()

    try:
        return _stage_and_publish(Path(out).resolve(), pages, quiet, search, digests)
    finally:
        build.remove_scratch()


def write_pages(build: Build, staging: Path) -> None:
    """Every language of `build` written by MkDocs into `staging`, and the root page."""
    languages = [language["code"] for language in build.prepared.languages]  # every input validated first
    for lang in languages:
        mkdocs_build(mkdocs_config(build, lang, staging / lang))
        build.release(lang)
        return_freed_memory()
    site_names = {lang: site_name(build.prepared.translations[lang]) for lang in languages}
    write_root_page(staging, build.prepared.languages, site_names, build.prepared.config)
    write_web_manifests(staging, {lang: build.prepared.translations[lang] for lang in languages})


def _stage_and_publish(out: Path, pages, quiet: bool, search: bool, digests: Digests | None = None) -> Path:
    """`pages(staging)` writes the site beside `out`; then the search index and the lists of files for offline use
    (they list the index too), then it replaces `out`."""
    staging = out.with_name(out.name + ".staging")
    shutil.rmtree(staging, ignore_errors=True)
    try:
        pages(staging)
        indexed = index_search(staging) if search else "search index skipped"
        write_offline_files(staging, digests)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    publish(staging, out)
    if not quiet:
        print(indexed)
    return out


def _write_pages_in_a_child(root: Path, date: int | None, staging: Path) -> None:
    """write_pages in a forked process, which has exited (and given its memory back) on return."""
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")) as child:
        problems = child.submit(_write_pages_here, root, date, staging).result()
    if problems is not None:
        raise InputError(problems)


def _write_pages_here(root: Path, date: int | None, staging: Path) -> Problems | None:
    """The child's part of an isolated build; the input's problems, returned: an InputError does not
    survive pickling (its argument is the report, not the problems)."""
    build = Build(root, date)
    try:
        build.prepared  # the input, read first (an InputError lists every problem)
        # Kept until the child exits, so the collector need not walk it again in every collection of the
        # oldest generation the pages' objects cause (it roughly halves the time spent collecting).
        # Collected first, so no garbage is frozen with it.
        gc.collect()
        gc.freeze()
        write_pages(build, staging)
    except InputError as error:
        return error.problems
    finally:
        build.remove_scratch()
        cache.flush()  # the child leaves without running exit handlers: what it parsed is kept for next time
    return None


def return_freed_memory() -> None:
    """Hand the memory of a written language back to the system (glibc's malloc_trim), where there is one.

    Without it the next language is built on top of the last one's freed but still resident memory,
    and the build's peak is the sum of two languages, not the larger one.
    """
    gc.collect()
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (AttributeError, OSError):  # not glibc
        pass


def source_date(root: Path) -> int:
    """Seconds since 1970 of the last commit, so the same input builds the same bytes on any day."""
    try:
        result = subprocess.run(["git", "-C", str(root), "log", "-1", "--format=%ct"], capture_output=True, text=True)
        if result.returncode == 0 and result.stdout.strip().isdigit():
            return int(result.stdout.strip())
    except OSError:
        pass
    return OUTSIDE_GIT_DATE

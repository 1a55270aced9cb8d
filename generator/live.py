"""`make serve`'s site: the last good build kept in memory, updated page by page after an edit.

Decision (issue 10.5): after an edit of rules' own files (their YAML or per-rule catalogs) only those
files are read again (`reprepare`): the rest of the knowledge base and of the catalogs stays in
memory, and what may depend on the edited rules is validated again (the rules and translations that
name them, the glossary and concepts). Any other edit under rules/ or translations/ (a new or
deleted file, a system, the glossary, a concept, a shared catalog) loads and validates the whole
input again. Then only the edited rules' pages and the rule pages linked to or from them are
rendered again, with every listing page; other edits render every page. Only the pages whose
Markdown changed go through MkDocs again (its config, files, navigation and Jinja environment are
kept per language) and are written, with the export. The search index is rebuilt in a background
thread. An edit of anything else (mkdocs.yml, docs/, site_overrides/, templates), or a change of
the navigation or of the set of pages, rebuilds the whole site. Edits that failed to build stay
pending and are applied with the next one, so nothing read incrementally is ever missed.
"""

from __future__ import annotations

import logging
import shutil
import threading
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from .load import reload
from .problems import InputError
from .render import Links, Page, Renderer
from .search import BUNDLE, index_search
from .site import Build, LanguageBuild, Prepared, language_build, prepare, publish, write_site

PAGE_INPUTS = ("rules/", "translations/")  # edits here can be applied page by page
log = logging.getLogger(__name__)


def edited_rules(changed: set[str]) -> set[str] | None:
    """The keys of the rules whose own files (YAML, per-rule catalogs) are all that changed; None otherwise."""
    keys = set()
    for path in changed:
        parts = PurePosixPath(path).parts
        if len(parts) == 3 and parts[0] == "rules" and parts[2].endswith(".yaml"):
            keys.add(f"{parts[1]}/{parts[2].removesuffix('.yaml')}")
        elif len(parts) == 5 and parts[0] == "translations" and parts[2] == "rules" and parts[4].endswith(".po"):
            keys.add(f"{parts[3]}/{parts[4].removesuffix('.po')}")
        else:
            return None
    return keys


def _rule_catalogs(changed: set[str]) -> dict[str, set[str]]:
    """Language -> the per-rule catalogs (names like "rules/wap/dodge") among the changed paths."""
    found: dict[str, set[str]] = {}
    for path in changed:
        parts = PurePosixPath(path).parts
        if parts[0] == "translations":
            found.setdefault(parts[1], set()).add(str(PurePosixPath(*parts[2:]).with_suffix("")))
    return found


def reprepare(previous: Prepared, changed: set[str]) -> Prepared:
    """`previous` with only the changed files read again, when they are existing rules' own files; else `prepare`.

    Raises InputError with every problem, like `prepare`.
    """
    keys = edited_rules(changed)
    catalogs = _rule_catalogs(changed)
    if (keys is None or not keys <= set(previous.kb.rules) or not set(catalogs) <= set(previous.translations)
            or not all((previous.root / path).is_file() for path in changed)):
        return prepare(previous.root)
    kb, problems = reload(previous.kb, keys)
    checked = kb if not problems else None  # as in `prepare`: references are checked against a clean load
    translations = {}
    for lang, old in previous.translations.items():
        fresh = translations[lang] = old.copy()
        for name in sorted(catalogs.get(lang, ())):
            fresh.read(name, problems, checked, {})
        if checked is not None:
            fresh.recheck(kb, keys, problems, skip=catalogs.get(lang, ()))
    if problems:
        raise InputError(problems)
    return Prepared(previous.root, kb, previous.languages, translations, previous.config)


def linked_rules(kb, keys: set[str]) -> set[str]:
    """`keys` and every rule that links to one of them or that one of them links to (its back-links list)."""
    found = set(keys)
    for key, sources in Links.of(kb).rule_backlinks.items():
        if key in keys:
            found |= sources
        if sources & keys:
            found.add(key)
    return found


def reusing(previous: dict[str, Page], fresh: set[str]) -> type[Renderer]:
    """A Renderer that renders the rule pages of `fresh` and takes every other rule page from `previous`."""

    class Reusing(Renderer):
        def rule_page(self, rule):
            page = previous.get(f"{rule.key}.md")
            return super().rule_page(rule) if rule.key in fresh or page is None else page

    return Reusing


@dataclass
class Served:
    """What one language of the served site was built from, to compare the next render with."""

    pages: dict[str, Page]  # page path -> the page as rendered
    nav: list
    assets: dict[str, str]
    search_labels: dict = field(default_factory=dict)

    @classmethod
    def of(cls, built: LanguageBuild) -> "Served":
        return cls({page.path: page for page in built.pages}, built.nav, dict(built.assets),
                   dict(built.search_labels))

    def same_frame(self, built: LanguageBuild) -> bool:
        """True if only page contents differ: same pages, navigation and search labels."""
        return (built.nav == self.nav and built.search_labels == self.search_labels
                and {page.path for page in built.pages} == set(self.pages) and set(built.assets) == set(self.assets))


class Indexer:
    """Rebuilds the search index of the served site in a background thread, one run at a time."""

    def __init__(self, site: Path):
        self.site = site
        self.wanted = threading.Event()
        self.idle = threading.Event()
        self.idle.set()
        threading.Thread(target=self._run, daemon=True, name="search-index").start()

    def request(self) -> None:
        self.idle.clear()
        self.wanted.set()

    def _run(self) -> None:
        while True:
            self.wanted.wait()
            self.wanted.clear()
            fresh = self.site.with_name(self.site.name + ".search")  # beside the site: Pagefind never deletes old chunks
            try:
                shutil.rmtree(fresh, ignore_errors=True)
                index_search(self.site, fresh)
                publish(fresh, self.site / BUNDLE)
            except Exception as error:  # the pages are served anyway; only search lags behind
                log.warning("search index not rebuilt: %s", error)
            if not self.wanted.is_set():
                self.idle.set()


class LiveSite:
    """The served site folder and the in-memory state of its last good build."""

    def __init__(self, root: Path, out: Path, search: bool = True):
        self.root = Path(root).resolve()
        self.out = Path(out).resolve()
        self.search = search
        self.build: Build | None = None
        self.served: dict[str, Served] = {}
        self.pending: set[str] = set()  # edited paths not yet in a good build (a build failed since)
        self.indexer = Indexer(self.out) if search else None

    def rebuild(self) -> int:
        """Build the whole site and keep its state; the number of pages written."""
        if self.indexer is not None:
            self.indexer.idle.wait()  # an index still being made of the old pages must not replace the new one
        build = Build(self.root, keep_mkdocs=True)
        served = {language["code"]: Served.of(build.language(language["code"]))
                  for language in build.prepared.languages}
        write_site(build, self.out, quiet=True, search=self.search)
        for lang, state in build.mkdocs.items():  # MkDocs wrote into the staging folder, now published here
            for file in state["files"]:
                file.dest_dir = str(self.out / lang)
                file.abs_dest_path = str(self.out / lang / file.dest_uri)  # MkDocs caches it from dest_dir
        self.build, self.served = build, served
        self.pending.clear()
        return sum(len(state.pages) for state in served.values())

    def update(self, changed: set[str]) -> int:
        """Apply an edit of the inputs `changed` (paths relative to the root); the number of pages written.

        Raises InputError (the last good site stays served); the edit is then kept and applied with the next.
        """
        self.pending |= changed
        if self.build is None or any(not path.startswith(PAGE_INPUTS) for path in self.pending):
            return self.rebuild()
        prepared = reprepare(self.build.prepared, self.pending)
        keys = edited_rules(self.pending)
        if keys is not None and keys <= set(prepared.kb.rules) and keys <= set(self.build.prepared.kb.rules):
            # Rule pages that can show what changed: the edited rules' and those linked to or from them,
            # before or after the edit. Every other page is rendered again and compared.
            fresh = linked_rules(prepared.kb, keys) | linked_rules(self.build.prepared.kb, keys)
            rendered = {lang: language_build(prepared, lang, reusing(served.pages, fresh))
                        for lang, served in self.served.items()}
        else:
            rendered = {lang: language_build(prepared, lang) for lang in self.served}
        if set(rendered) != {language["code"] for language in prepared.languages} or not all(
                self.served[lang].same_frame(built) for lang, built in rendered.items()):
            return self.rebuild()
        self.build.prepared = prepared  # the hooks of the pages rendered below read this build
        self.pending.clear()
        written = sum(self._write_changes(lang, built) for lang, built in rendered.items())
        if written and self.indexer is not None:
            self.indexer.request()
        return written

    def _write_changes(self, lang: str, built: LanguageBuild) -> int:
        """Send the pages of one language whose Markdown changed through MkDocs again; write them and the export."""
        from mkdocs.commands.build import _build_page, _populate_page

        served, state = self.served[lang], self.build.mkdocs[lang]
        config, files, nav, env = state["config"], state["files"], state["nav"], state["env"]
        pages = []
        for page in built.pages:
            if served.pages[page.path].content != page.content:
                file = files.get_file_from_path(page.path)
                file.content_string = page.content
                _populate_page(file.page, config, files)
                pages.append(file.page)
                served.pages[page.path] = page
        doc_files = files.documentation_pages()
        for page in pages:
            _build_page(page, config, doc_files, nav, env)
        for path, content in built.assets.items():
            if served.assets.get(path) != content:
                target = self.out / lang / path
                target.write_text(content, encoding="utf-8")
                served.assets[path] = content
        return len(pages)

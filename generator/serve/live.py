"""`make serve`'s site: the last good build kept in memory, updated page by page after an edit.

Decision: an edit of rules' own files reads only those files again (generator/serve/edits.py) and
renders, converts and writes the edited rules' own pages first, in every language: what the author
looks at. The other pages that may show the edit (those linking to it, the listings, the pages whose
navigation lists a retitled rule) follow in a background thread (`background.Follower`), cancelled by a
newer edit; the search index is rebuilt after them. Only pages whose Markdown changed go through MkDocs
again (its per-language state is kept; the private functions this needs are named in
generator/serve/mkdocs_private.py), each written to a temporary file renamed over the page, so a browser
never reads half a page. Any other edit reloads the whole input; a change of the navigation (a new rule,
or a retitled one moving to another letter of a large system's list) or of the set of pages rebuilds
the whole site. Edits that failed to build stay pending until the next one.
"""

from __future__ import annotations

import copy
import os
import shutil
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from mkdocs.structure.pages import Page as MkDocsPage

from ..i18n.status import language_status
from ..render.export import LanguageExport
from ..render.links import Links
from ..render.pages import NAV_LETTERS_ABOVE, Page, Renderer
from ..site.build import Build, LanguageBuild, Prepared, language_build, write_site
from ..site.offline import Digests, write_offline_files
from .background import Follower, Indexer
from .edits import edited_rules, linked_rules, listings_to_check, reprepare
from .mkdocs_private import build_page, populate_page

PAGE_INPUTS = ("rules/", "translations/")  # edits here can be applied page by page


@dataclass
class Served:
    """What one language of the served site was built from, to compare the next render with."""

    pages: dict[str, Page]  # page path -> the page as rendered
    nav: list
    assets: dict[str, str]
    search_labels: dict = field(default_factory=dict)
    export: LanguageExport | None = None

    @classmethod
    def of(cls, built: LanguageBuild) -> "Served":
        return cls({page.path: page for page in built.pages}, built.nav, dict(built.assets),
                   dict(built.search_labels), built.export)

    def same_navigation(self, built: LanguageBuild) -> bool:
        """True if only page contents differ: same pages, navigation and search labels."""
        return (built.nav == self.nav and built.search_labels == self.search_labels
                and {page.path for page in built.pages} == set(self.pages) and set(built.assets) == set(self.assets))


def _codes(prepared: Prepared) -> set[str]:
    return {language["code"] for language in prepared.languages}


PAGE_RESULTS = ("markdown", "meta", "content", "toc", "_title_from_render", "present_anchor_ids",
                "links_to_anchors", "update_date")  # what MkDocs' reading and rendering of a page set on it
TEMPORARY = ".live-"  # prefix of a file being written, renamed over its target once complete


def write_atomically(path: Path, data: bytes) -> None:
    """Write `path` so that a reader sees the old file or the new one, never a part of it."""
    temporary = path.with_name(TEMPORARY + path.name)
    temporary.write_bytes(data)
    os.replace(temporary, path)


class LiveSite:
    """The served site folder and the in-memory state of its last good build."""

    def __init__(self, root: Path, out: Path, search: bool = True, report=None):
        self.root = Path(root).resolve()
        self.out = Path(out).resolve()
        self.search = search
        self.report = report  # called with (pages written, seconds) when a follow-up finishes
        self.build: Build | None = None
        self.served: dict[str, Served] = {}
        self.links: Links | None = None  # of the last good build's rules
        self.pending: set[str] = set()  # edited paths not yet in a good build (a build failed since)
        self.stale: dict[str, set[str]] = {}  # language -> pages that may not yet show the last good build
        self.stale_export: dict[str, set[str]] = {}  # language -> rules whose export entries may be out of date
        # language -> stale pages to write again even if their Markdown is unchanged: they list an edited rule whose
        # title changed in their navigation
        self.renamed_in_nav: dict[str, set[str]] = {}
        self.lock = threading.RLock()  # held while the in-memory state or the site folder changes
        self.unindexed = False  # pages or the export were written since the search index was last asked for
        self.digests = Digests()  # of the served files, so the lists for offline use read only what an edit rewrote
        self.indexer = Indexer(self.out, self.digests) if search else None
        self.follower = Follower(self)

    def close(self) -> None:
        """Stop the background work: no page is being written on return, no search index is being made, and no
        scratch folder is left beside the site."""
        self.follower.cancel()
        with self.lock:  # pages are written under it: none is half-way on return
            if self.indexer is not None:
                self.indexer.stop()
            for scratch in (self.out.with_name(self.out.name + ".staging"),):
                shutil.rmtree(scratch, ignore_errors=True)

    def settle(self, timeout: float | None = None) -> bool:
        """Wait until every page shows the last good build (the follow-up of the last edit is done)."""
        return self.follower.idle.wait(timeout)

    def rebuild(self) -> int:
        """Build the whole site and keep its state; the number of pages written."""
        self.follower.cancel()
        with self.lock:
            if self.indexer is not None:
                self.indexer.idle.wait()  # an index still being made of the old pages must not replace the new one
            build = Build(self.root, keep_mkdocs=True)
            served = {language["code"]: Served.of(build.language(language["code"]))
                      for language in build.prepared.languages}
            write_site(build, self.out, quiet=True, search=self.search, digests=self.digests)
            for lang, state in build.mkdocs.items():  # MkDocs wrote into the staging folder, now published here
                for file in state["files"]:
                    file.dest_dir = str(self.out / lang)
                    file.abs_dest_path = str(self.out / lang / file.dest_uri)  # MkDocs caches it from dest_dir
            self.build, self.served, self.links = build, served, Links.of(build.prepared.kb)
            self.pending.clear()
            self.stale.clear()
            self.stale_export.clear()
            self.renamed_in_nav.clear()
            self.unindexed = False  # write_site indexed the new site
            return sum(len(state.pages) for state in served.values())

    def update(self, changed: set[str]) -> int:
        """Apply an edit of the inputs `changed` (paths relative to the root); the number of pages written.

        After an edit of rules' own files only their pages are written here; the other pages that may
        show the edit follow in the background (`settle` waits for them). Raises InputError (the last
        good site stays served); the edit is then kept and applied with the next.
        """
        self.follower.cancel()
        try:
            return self._update(changed)
        finally:  # also after a failed edit: what an earlier edit left stale still follows
            if any(self.stale.values()) or any(self.stale_export.values()):
                self.follower.start()

    def _update(self, changed: set[str]) -> int:
        with self.lock:
            self.pending |= changed
            if self.build is None or any(not path.startswith(PAGE_INPUTS) for path in self.pending):
                return self.rebuild()
            previous = self.build.prepared
            prepared = reprepare(previous, self.pending)
            keys = edited_rules(self.pending)
            if (keys is None or set(prepared.kb.rules) != set(previous.kb.rules)
                    or _codes(prepared) != set(self.served)):
                return self._render_everything(prepared)
            links = Links.of(prepared.kb, self.links, keys)
            renderers = {lang: Renderer(prepared.kb, prepared.translations[lang], prepared.languages, links=links)
                         for lang in self.served}
            if self._regrouped(previous, prepared, keys, renderers):
                return self.rebuild()  # MkDocs' navigation is made once per build
            written = 0
            renamed = {lang: set() for lang in renderers}
            for lang, renderer in renderers.items():  # first the edited rules' own pages, in every language
                for key in sorted(keys):
                    title = self._title(lang, f"{key}.md")
                    written += self._publish(lang, renderer.rule_page(prepared.kb.rules[key]))
                    if self._title(lang, f"{key}.md") != title:
                        renamed[lang] |= self._listed_with(lang, f"{key}.md")
            around = linked_rules(links, keys) | linked_rules(self.links, keys)
            for lang, served in self.served.items():
                listings = set(served.pages) - {f"{key}.md" for key in prepared.kb.rules}
                self.stale.setdefault(lang, set()).update(
                    {f"{key}.md" for key in around - keys}, renamed[lang],
                    listings_to_check(previous, prepared, (self.links, links), keys, lang, listings))
                self.renamed_in_nav.setdefault(lang, set()).update(renamed[lang])
                self.stale_export.setdefault(lang, set()).update(keys)
            self.build.prepared, self.links = prepared, links  # the hooks of the pages written later read this build
            self.pending.clear()
            return written

    def follow(self, cancelled) -> int:
        """Bring every stale page and export of the last good build up to date, unless `cancelled()` turns true.

        Runs in the follower's thread: pages are rendered and converted outside the lock, and written
        under it only if no newer edit came meanwhile. The number of pages written.
        """
        start, written = time.perf_counter(), 0
        with self.lock:
            if cancelled():
                return 0
            prepared, links = self.build.prepared, self.links
            stale = {lang: set(paths) for lang, paths in self.stale.items()}
            stale_export = {lang: set(keys) for lang, keys in self.stale_export.items()}
            renamed = {lang: set(paths) for lang, paths in self.renamed_in_nav.items()}
        for lang, served in self.served.items():
            paths, tr = stale.get(lang, set()), prepared.translations[lang]
            status = language_status(prepared.kb, tr) if "status.md" in paths else None
            makers = Renderer(prepared.kb, tr, prepared.languages, status=status, links=links).makers()
            # Rule pages first, then the listings, the smallest first: the largest lists take longest.
            order = sorted(paths, key=lambda path: (path[:-3] not in prepared.kb.rules, len(served.pages[path].content),
                                                    path))
            for path in order:
                if cancelled():
                    return written
                page = makers[path]()
                converted = (self._converted(lang, page) if served.pages[path].content != page.content
                             or path in renamed.get(lang, ()) else None)
                with self.lock:
                    if cancelled():
                        return written
                    if converted is not None:
                        written += self._publish(lang, page, converted)
                    self.stale[lang].discard(path)
                    self.renamed_in_nav.get(lang, set()).discard(path)
            keys = stale_export.get(lang)
            if keys:
                export = served.export.updated(prepared.kb, tr, keys)
                files = export.files()
                with self.lock:
                    if cancelled():
                        return written
                    self._write_assets(lang, files)
                    served.export = export
                    self.stale_export[lang] -= keys
        if cancelled():
            return written
        write_offline_files(self.out, self.digests)  # the pages are whole again: the lists for offline use follow them
        if self.indexer is not None and self.unindexed:
            self.unindexed = False
            self.indexer.request()
        if self.report is not None:
            self.report(written, time.perf_counter() - start)
        return written

    def _render_everything(self, prepared: Prepared) -> int:
        """Render every page of every language from `prepared`; write those that changed (or rebuild)."""
        rendered = {lang: language_build(prepared, lang, keep_export=True) for lang in self.served}
        if set(rendered) != _codes(prepared) or not all(
                self.served[lang].same_navigation(built) for lang, built in rendered.items()):
            return self.rebuild()
        self.build.prepared, self.links = prepared, Links.of(prepared.kb)  # the hooks of the pages below read it
        self.pending.clear()
        written = 0
        for lang, built in rendered.items():
            written += sum(self._publish(lang, page) for page in built.pages)
            self._write_assets(lang, built.assets)
            self.served[lang].export = built.export
        self.stale.clear()
        self.stale_export.clear()
        write_offline_files(self.out, self.digests)
        self.renamed_in_nav.clear()
        if self.unindexed and self.indexer is not None:
            self.unindexed = False
            self.indexer.request()
        return written

    def _regrouped(self, previous: Prepared, prepared: Prepared, keys: set[str], renderers: dict) -> bool:
        """Whether an edit of the rules `keys` moved one to another letter of its system's navigation (a large
        system's rules are listed under their titles' first letters: Renderer.system_nav)."""
        if all(len(prepared.kb.rules_of(prepared.kb.rules[key].system)) <= NAV_LETTERS_ABOVE for key in keys):
            return False
        return any(renderer.system_nav() != Renderer(previous.kb, previous.translations[lang], previous.languages,
                                                     links=self.links).system_nav()
                   for lang, renderer in renderers.items())

    def _title(self, lang: str, path: str) -> str:
        """The title the navigation shows for the page at `path` (MkDocs reads it from the page's front matter)."""
        return self.build.mkdocs[lang]["files"].get_file_from_path(path).page.title

    def _listed_with(self, lang: str, path: str) -> set[str]:
        """The pages whose navigation lists the page at `path`: every page of its section. Material's
        navigation.prune (mkdocs.yml) leaves a section's pages out of every page outside it."""
        section = self.build.mkdocs[lang]["files"].get_file_from_path(path).page.parent
        if section is None:  # a page at the top of the navigation is listed on every page
            return set(self.served[lang].pages)
        found, items = set(), list(section.children)
        while items:
            item = items.pop()
            if item.is_page:
                found.add(item.file.src_uri)
            else:
                items.extend(item.children or ())
        return found - {path}

    def _converted(self, lang: str, page: Page):
        """A private MkDocs page of `page` read and converted to HTML; the served pages are left untouched."""
        state = self.build.mkdocs[lang]
        twin = copy.copy(state["files"].get_file_from_path(page.path))
        twin.content_string = page.content
        private = MkDocsPage(None, twin, state["config"])
        populate_page(private, state["config"], state["files"])
        return private

    def _publish(self, lang: str, page: Page, converted=None) -> int:
        """Write one page if its Markdown changed (with the lock held); 1 if it was written, else 0."""
        served, state = self.served[lang], self.build.mkdocs[lang]
        if converted is None:
            if served.pages[page.path].content == page.content:
                return 0
            converted = self._converted(lang, page)
        file = state["files"].get_file_from_path(page.path)
        file.content_string = page.content
        for name in PAGE_RESULTS:
            setattr(file.page, name, getattr(converted, name))
        target = file.abs_dest_path
        file.abs_dest_path = str(Path(target).with_name(TEMPORARY + Path(target).name))
        try:  # MkDocs writes the file in place: it writes a temporary one here, renamed over the page once complete
            build_page(file.page, state["config"], state["files"].documentation_pages(), state["nav"], state["env"])
            os.replace(file.abs_dest_path, target)
        finally:
            file.abs_dest_path = target
        served.pages[page.path] = page
        self.stale.get(lang, set()).discard(page.path)
        self.unindexed = True
        return 1

    def _write_assets(self, lang: str, assets: dict[str, str]) -> None:
        served = self.served[lang]
        for path, content in assets.items():
            if served.assets.get(path) != content:
                write_atomically(self.out / lang / path, content.encode("utf-8"))
                served.assets[path] = content
                self.unindexed = True

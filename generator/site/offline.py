"""The site without a connection: what each language's pages need, listed at build time, and the files that use it.

A reader's browser keeps what they open (the service worker, generator/render/templates/sw.js, written to the
site's root as sw.js) and can save a whole language in one action, whose size it states first: so each language's
files are listed here with their size and a digest once the site and its search index are written
(offline/<lang>.json), and sw.js carries every language's total and the version of the whole list. A new list makes
a new sw.js, which the browser notices on the reader's next visit. Each language also gets a web manifest, so the
site can be installed in the reader's language.

Decision: a language's list holds what its pages load, not its whole folder: the sitemap, the JSON export (api/,
for programs, the largest files of a large site), source maps and Material's own search (this site has Pagefind)
are left out.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from html.parser import HTMLParser
from pathlib import Path

from ..i18n.translate import Translations
from ..render.pages import TEMPLATES
from .mkdocs_config import site_name
from .search import BUNDLE

WORKER = "sw.js"  # at the site's root, so its scope is the whole site: every language and the search index
LISTS = "offline"  # the folder of the lists, at the site's root
WEB_MANIFEST = "manifest.webmanifest"  # in each language's folder
THEME_COLOUR = "#795548"  # Material's "brown", mkdocs.yml's primary colour: the installed app's title bar
LABELS = "offline"  # the key of the offline control's strings beside the search box's (see offline_labels)
# Filled in by docs/assets/offline.js: sizes in the reader's language, as Intl.NumberFormat writes them.
TOKENS = {"size": "[SIZE]", "done": "[DONE]", "total": "[TOTAL]"}
DIGEST_LENGTH = 16  # hex digits of a file's SHA-256 that sw.js compares to tell a changed file from a kept one
# Files of a language's folder that no page loads (paths from the language's folder; a folder ends with "/").
NOT_LOADED = ("sitemap.xml", "sitemap.xml.gz", "api/", "assets/javascripts/lunr/", "assets/javascripts/workers/")
NOT_LOADED_SUFFIXES = (".map",)
# What search.js loads from the Pagefind bundle besides a language's own index (its interface, engine and worker).
SEARCH_ENGINE = ("pagefind-ui.js", "pagefind-ui.css", "pagefind.js", "pagefind-worker.js", "pagefind-highlight.js",
                 "pagefind-entry.json")
# The web manifest's icons, from each language's folder (docs/assets/icons/); the SVG is the drawing they are made from.
ICONS = ({"src": "assets/icons/icon.svg", "sizes": "any", "type": "image/svg+xml"},
         {"src": "assets/icons/icon-192.png", "sizes": "192x192", "type": "image/png"},
         {"src": "assets/icons/icon-512.png", "sizes": "512x512", "type": "image/png"},
         {"src": "assets/icons/icon-maskable-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"})


def _address(path: str) -> str:
    """The address a file is asked for by, from the site's root: a folder's index.html is asked for as the folder."""
    if path == "index.html":
        return "./"
    return path[:-len("index.html")] if path.endswith("/index.html") else path


def _loaded(relative: str) -> bool:
    return not relative.startswith(NOT_LOADED) and not relative.endswith(NOT_LOADED_SUFFIXES)


def _search_files(site_dir: Path, lang: str) -> list[Path]:
    """The Pagefind files a search in `lang` may load: the engine, the language's WebAssembly, metadata, index
    chunks, fragments and filters, in every part of its index (generator/site/search.py)."""
    bundle = site_dir / BUNDLE
    entry_file = bundle / "pagefind-entry.json"
    if not entry_file.is_file():  # a site built without its search index
        return []
    entry = json.loads(entry_file.read_text(encoding="utf-8")).get("languages", {}).get(lang)
    if entry is None:
        return []
    files = [bundle / name for name in SEARCH_ENGINE if (bundle / name).is_file()]
    files.append(bundle / f"wasm.{entry.get('wasm') or 'unknown'}.pagefind")
    # Part 1 lives in the bundle itself; parts 2, 3, … in <bundle>/<lang>-<n>/, each with its own entry and metadata.
    for part in [bundle, *sorted(bundle.glob(f"{lang}-*/"))]:
        if part != bundle:
            files.append(part / "pagefind-entry.json")
        files.extend(sorted(part.glob(f"pagefind.{lang}_*.pf_meta")))
        for folder in ("index", "fragment", "filter"):
            files.extend(sorted((part / folder).glob(f"{lang}_*")))
    return [file for file in files if file.is_file()]


class Digests:
    """Each listed file's digest, kept with what its file-system entry said then (inode, change time, size).

    `make serve` writes the lists again after every edit: a file the edit did not rewrite is not read again
    (at 1,013 rules, hashing every file took 6.5 s per edit; an edit rewrites a handful). A file is rewritten by
    renaming a new one over it (a new inode) or in place (a new change time), so a kept digest is never stale.
    """

    def __init__(self):
        self.known: dict[str, tuple[tuple[int, int, int], str]] = {}
        self.hashed = 0  # files read and hashed, for the tests and benchmarks

    def of(self, path: Path, address: str) -> tuple[int, str]:
        """(size, digest) of the file at `path`, read only if it changed since it was last asked for at `address`
        (its place in the site: a staged site keeps its digests once published, as its files keep their inodes)."""
        status = os.stat(path)
        stamp = (status.st_ino, status.st_ctime_ns, status.st_size)
        kept = self.known.get(address)
        if kept is not None and kept[0] == stamp:
            return status.st_size, kept[1]
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:DIGEST_LENGTH]
        self.known[address] = (stamp, digest)
        self.hashed += 1
        return status.st_size, digest


def language_files(site_dir: Path, lang: str, digests: Digests | None = None) -> list[list]:
    """[address from the site's root, size in bytes, digest] of every file the pages of `lang` load, sorted;
    `digests` keeps what an earlier call read."""
    site_dir = Path(site_dir)
    folder = site_dir / lang
    files = [path for path in folder.rglob("*") if path.is_file() and _loaded(path.relative_to(folder).as_posix())]
    files += _search_files(site_dir, lang)
    root_page = site_dir / "index.html"  # the language chooser, which sends a returning reader on to their language
    if root_page.is_file():
        files.append(root_page)
    digests = digests or Digests()
    listed = []
    for path in set(files):
        relative = path.relative_to(site_dir).as_posix()
        listed.append([_address(relative), *digests.of(path, relative)])
    return sorted(listed)


def site_languages(site_dir: Path) -> list[str]:
    """The language folders of a written site (those with a home page), as Pagefind's runs find them."""
    return sorted(path.name for path in Path(site_dir).iterdir() if path.is_dir() and (path / "index.html").is_file())


class _OfflineLabels(HTMLParser):
    """The offline control's strings in a built page (site_overrides/partials/alternate.html, data-kb-labels)."""

    def __init__(self):
        super().__init__()
        self.labels: dict = {}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "data-kb-offline" in attrs and not self.labels:
            try:
                self.labels = json.loads(attrs.get("data-kb-labels") or "{}")
            except ValueError:
                self.labels = {}


def home_labels(site_dir: Path, lang: str) -> dict:
    """The offline control's strings of a language, read from its home page: sw.js writes its offline page with
    them (the page the reader gets for a page it does not keep), in the language of the address asked for."""
    parser = _OfflineLabels()
    parser.feed((Path(site_dir) / lang / "index.html").read_text(encoding="utf-8"))
    return parser.labels


# `make serve` writes the lists again from two threads (after an edit's pages, after a new search index): one at a
# time, so the last to start reads the site as the last change left it.
_WRITING = threading.Lock()


def _write_atomically(path: Path, text: str) -> None:
    """A file a browser may be reading, replaced whole (its reader gets the old or the new, never half); left as it
    is if it already holds `text` (an edit that changed no listed file touches no list)."""
    try:
        if path.read_text(encoding="utf-8") == text:
            return
    except (OSError, UnicodeDecodeError):
        pass
    scratch = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
    scratch.write_text(text, encoding="utf-8")
    os.replace(scratch, path)


def write_offline_files(site_dir: Path, digests: Digests | None = None) -> dict[str, dict]:
    """Write offline/<lang>.json for every language and sw.js at the root of a written site (search index included);
    {lang: {"bytes": total, "files": count}}. `digests` (kept by `make serve`) spares reading unchanged files."""
    with _WRITING:
        return _write_offline_files(Path(site_dir), digests or Digests())


def _write_offline_files(site_dir: Path, digests: Digests) -> dict[str, dict]:
    worker = (TEMPLATES / WORKER).read_text(encoding="utf-8")
    lists = {lang: language_files(site_dir, lang, digests) for lang in site_languages(site_dir)}
    version = hashlib.sha256(worker.encode("utf-8"))
    for lang, files in lists.items():
        version.update(json.dumps([lang, files], ensure_ascii=False).encode("utf-8"))
    build = {"version": version.hexdigest()[:DIGEST_LENGTH],
             "languages": {lang: {"bytes": sum(file[1] for file in files), "files": len(files),
                                  "labels": home_labels(site_dir, lang)}
                           for lang, files in lists.items()}}
    (site_dir / LISTS).mkdir(exist_ok=True)
    for lang, files in lists.items():
        listed = {"version": build["version"], "lang": lang, "files": files}
        _write_atomically(site_dir / LISTS / f"{lang}.json", json.dumps(listed, ensure_ascii=False, separators=(",", ":")))
    # The version and totals go first in the worker: a new list is a new worker, which the browser installs.
    header = f"const BUILD = {json.dumps(build, sort_keys=True, separators=(',', ':'))};\n"
    _write_atomically(site_dir / WORKER, header + worker)
    return build["languages"]


def offline_labels(tr: Translations) -> dict[str, str]:
    """The strings of the header's offline control (site_overrides/partials/alternate.html) in one language.

    They travel with the search box's strings (config.extra.kb_search_labels, under LABELS): the header's strings,
    which `make serve` compares as one to tell when the header must be built again."""
    _ = tr.gettext
    return {
        "title": _("Offline use"),
        "kept": _("Pages you open are kept on this device and open without a connection."),
        "offer": _("Every page in this language, with its search, can be saved for use without a connection: "
                   "%(size)s to download.") % TOKENS,
        "save": _("Save for offline use"),
        "saving": _("Saving: %(done)s of %(total)s") % TOKENS,
        "saved": _("Saved on this device (%(size)s): every page in this language and its search work without a "
                   "connection.") % TOKENS,
        "failed": _("Saving stopped: the connection was lost. Try again when you are online."),
        "updating": _("The site has just been updated: try again in a minute."),
        # The page sw.js answers with, offline, for a page it does not keep; and search, offline before saving.
        "notKept": _("This page is not saved on this device"),
        "noConnection": _("There is no connection, and this page was never opened here, so it was not kept."),
        "keptHere": _("Saved on this device in this language:"),
        "noneKept": _("No page in this language is saved on this device yet."),
        "saveWhenOnline": _("Once you are online, save every page in this language with its search, and all of "
                            "them open without a connection: %(size)s to download.") % TOKENS,
        "retry": _("Try again"),
        "searchOffline": _("Search works without a connection only once this language is saved for offline use "
                           "(the cloud button at the top)."),
    }


def short_name(tr: Translations) -> str:
    """The name under the installed app's icon: a word or two."""
    return tr.gettext("Rules KB")


def web_manifest(name: str, short: str, lang: str, colour: str) -> dict:
    """The web manifest of one language: installed, the site opens on that language's home page."""
    return {
        "name": name,
        "short_name": short,
        "lang": lang,
        "dir": "ltr",
        "start_url": "./",  # also the app's id: one app per language, wherever the site is published
        "scope": "../",  # the whole site: a language switch stays inside the installed app
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": colour,
        "icons": [dict(icon) for icon in ICONS],
    }


def write_web_manifests(site_dir: Path, translations: dict[str, Translations]) -> None:
    """<lang>/manifest.webmanifest for every language of a written site."""
    for lang, tr in translations.items():
        manifest = web_manifest(site_name(tr), short_name(tr), lang, THEME_COLOUR)
        text = json.dumps(manifest, ensure_ascii=False, indent=1)
        (Path(site_dir) / lang / WEB_MANIFEST).write_text(text + "\n", encoding="utf-8")

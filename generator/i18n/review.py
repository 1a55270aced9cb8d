"""`i18n review [BASE]`: what a change did to the translations, message by message, for the one reviewing it."""

from __future__ import annotations

import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from babel.messages.catalog import Catalog

from ..kb.model import KnowledgeBase
from .checks import check_catalogs
from .extract import knowledge_base_messages
from .memory import consistency_warnings
from .po.pofile import CatalogError
from .po.reader import message_key, read_catalog
from .update import wanted_catalogs

BASE_BRANCHES = ("main", "origin/main")  # BASE defaults to the merge base with the first of these that exists
SUMMARY_VARIABLE = "GITHUB_STEP_SUMMARY"  # the file GitHub Actions shows as the job's summary
CATALOGS = "translations"
GIT_TIMEOUT = 60  # seconds for one git command; reading a repository's catalogs takes well under one

ADDED, CHANGED, EMPTIED, APPROVED, OBSOLETE = "translation added", "translation changed", "translation removed", \
    "fuzzy flag cleared, translation unchanged", "made obsolete"
# An obsolete (#~) translation that BASE did not have: never shown, but `i18n update` restores it as it is when its
# message comes back, so a reviewer must see it as much as a translation added.
RETIRED = "obsolete translation added or changed (restored as it is if its message comes back)"
RETIRED_KINDS = (OBSOLETE, RETIRED)  # the kinds about messages no source has now: no checks, "source was"


class ReviewError(Exception):
    """Git cannot say what BASE was: no repository, an unknown revision, no main branch."""

    def __init__(self, message: str, hint: str):
        self.message, self.hint = message, hint
        super().__init__(f"{message} — {hint}")


@dataclass
class Change:
    """One message whose translation or fuzzy flag changed since BASE."""

    lang: str
    file: str
    line: int
    key: str
    kind: str
    source: str  # the source text now (for an obsolete message, the text it was made for)
    before: str
    after: str
    fuzzy_cleared: bool = False
    fuzzy_now: bool = False
    previous_source: Optional[str] = None  # for a fuzzy flag cleared: the source the translation was made for
    checks: list[str] = field(default_factory=list)


@dataclass
class Review:
    base: str
    described: str  # how BASE was chosen, for the heading
    changes: list[Change]


def git(root: Path, *args: str, data: Optional[bytes] = None) -> bytes:
    try:
        result = subprocess.run(["git", "-C", str(root), *args], input=data, capture_output=True,
                                timeout=GIT_TIMEOUT, check=False)
    except FileNotFoundError:
        raise ReviewError("git is not installed", "install git: the review reads catalogs as they were in git") \
            from None
    except subprocess.TimeoutExpired:
        raise ReviewError(f"git {' '.join(args[:2])} took more than {GIT_TIMEOUT} s",
                          "check the repository (a network file system, a lock held by another git?)") from None
    if result.returncode != 0:
        raise ReviewError(f"git {' '.join(args[:2])} failed: {result.stderr.decode(errors='replace').strip()}",
                          "run the review inside the repository's git checkout, with BASE a known revision")
    return result.stdout


def resolve_base(root: Path, base: Optional[str]) -> tuple[str, str]:
    """The commit to compare with and how it was chosen: BASE as given, or the merge base with main."""
    if base:
        try:
            commit = git(root, "rev-parse", "--verify", "--end-of-options", f"{base}^{{commit}}").decode().strip()
        except ReviewError as error:
            raise ReviewError(f"no revision {base!r} here ({error.message})",
                              "name a branch, tag or commit, e.g. main or origin/main (git fetch it first)") from None
        return commit, base
    for branch in BASE_BRANCHES:
        try:
            commit = git(root, "merge-base", "HEAD", branch).decode().strip()
        except ReviewError:
            continue
        return commit, f"the merge base with {branch}"
    raise ReviewError("there is no branch main or origin/main to compare with",
                      "name the revision: python -m generator i18n review origin/main (fetch it first if needed)")


def base_catalogs(root: Path, commit: str) -> dict[str, bytes]:
    """Every catalog at the commit, {path relative to root: bytes}, read with one `git cat-file` process."""
    listing = git(root, "ls-tree", "-r", "-z", commit, "--", CATALOGS).decode("utf-8", errors="replace")
    objects = {}
    for entry in filter(None, listing.split("\0")):
        meta, path = entry.split("\t", 1)
        if path.endswith(".po") and meta.split()[1] == "blob":
            objects[path] = meta.split()[2]
    if not objects:
        return {}
    output = git(root, "cat-file", "--batch", data="".join(f"{sha}\n" for sha in objects.values()).encode())
    contents, position = {}, 0
    for path, sha in objects.items():
        header_end = output.index(b"\n", position)
        size = int(output[position:header_end].split()[2])
        contents[path] = output[header_end + 1:header_end + 1 + size]
        position = header_end + 1 + size + 1  # the blob is followed by a newline
    return contents


def parse_catalog(data: bytes, lang: str, shown: str) -> Catalog:
    """Read catalog bytes through the same strict reader as a file on disk."""
    with tempfile.TemporaryDirectory(prefix="kb-review-") as folder:
        path = Path(folder) / "catalog.po"
        path.write_bytes(data)
        try:
            return read_catalog(path, lang)
        except CatalogError as error:
            raise ReviewError(f"{shown}:{error.line}: {error.message}", "fix the catalog, then review again") from None


def _text(string) -> str:
    if isinstance(string, (list, tuple)):
        return " ‖ ".join(str(form) for form in string) if any(string) else ""
    return str(string or "")


def _keyed(catalog: Optional[Catalog], obsolete: bool = False) -> dict:
    """A catalog's messages by key: its active ones with an id, or its obsolete ones (empty for no catalog)."""
    if catalog is None:
        return {}
    if obsolete:
        return {message_key(m): m for m in catalog.obsolete.values()}
    return {message_key(m): m for m in catalog if m.id}


def _made_for(previous, message) -> Optional[str]:
    """For a fuzzy flag cleared: the source text the translation was made for, if known."""
    made_for = previous.previous_id[0] if previous.previous_id else None
    if made_for is None and previous.id != message.id:
        made_for = _text(previous.id)
    return made_for


def _change(lang: str, shown: str, message, previous, sources: dict) -> Optional[Change]:
    """The change of one message now against its message at BASE (active or obsolete then), or None."""
    key = message_key(message)
    was, now = _text(previous.string) if previous else "", _text(message.string)
    cleared = bool(previous is not None and previous.fuzzy and not message.fuzzy and now)
    if was == now and not cleared:
        return None
    kind = ADDED if not was else EMPTIED if not now else CHANGED if was != now else APPROVED
    made_for = _made_for(previous, message) if cleared else None
    source = sources.get(key)
    return Change(lang, shown, message.lineno, str(key), kind, _text(source.msgid) if source else _text(message.id),
                  was, now, fuzzy_cleared=cleared, fuzzy_now=message.fuzzy, previous_source=made_for)


def compare_catalogs(lang: str, shown: str, before: Optional[Catalog], after: Optional[Catalog],
                     sources: dict) -> list[Change]:
    """The changes between one catalog at BASE and now, in the order of the catalog now."""
    old, old_retired = _keyed(before), _keyed(before, obsolete=True)
    current = [m for m in after if m.id] if after is not None else []
    changes = []
    for message in current:
        key = message_key(message)
        change = _change(lang, shown, message, old.get(key) or old_retired.get(key), sources)
        if change is not None:
            changes.append(change)
    retired_now = _keyed(after, obsolete=True)
    still_current = {message_key(m) for m in current}
    for key, message in old.items():
        if key in still_current or not _text(message.string):
            continue
        kept = retired_now.get(key)
        changes.append(Change(lang, shown, kept.lineno if kept else message.lineno, str(key), OBSOLETE,
                              _text(message.id), _text(message.string),
                              "(kept as obsolete #~)" if kept else "(deleted)"))
    changes.extend(_retired_changes(lang, shown, old, old_retired, retired_now))
    return changes


def _retired_changes(lang: str, shown: str, old: dict, old_retired: dict, retired_now: dict) -> list[Change]:
    """Obsolete translations now that BASE had in no form: not as this obsolete message (same text, translation and
    fuzzy flag), nor as the active message a change retired."""
    changes = []
    for key, message in retired_now.items():
        was = old_retired.get(key) or old.get(key)
        if not _text(message.string) or (was is not None and (was.id, _text(was.string), bool(was.fuzzy)) ==
                                          (message.id, _text(message.string), bool(message.fuzzy))):
            continue
        changes.append(Change(lang, shown, message.lineno, str(key), RETIRED, _text(message.id),
                              _text(was.string) if was is not None else "", _text(message.string),
                              fuzzy_now=bool(message.fuzzy)))
    return changes


def review(root: Path, kb: KnowledgeBase, languages: list[str], base: Optional[str] = None) -> Review:
    """Every message of the given languages whose translation or fuzzy flag changed since BASE, checked."""
    root = Path(root)
    commit, described = resolve_base(root, base)
    at_base = base_catalogs(root, commit)
    now = {str(path.relative_to(root)): path.read_bytes() for path in sorted((root / CATALOGS).rglob("*.po"))}
    changes: list[Change] = []
    sources: dict[str, dict] = {}  # per language, the source messages by key, made once
    messages = knowledge_base_messages(kb)
    for shown in sorted(set(at_base) | set(now)):
        lang = Path(shown).parts[1]
        if lang not in languages or at_base.get(shown) == now.get(shown):
            continue
        before = parse_catalog(at_base[shown], lang, f"{commit[:10]}:{shown}") if shown in at_base else None
        after = parse_catalog(now[shown], lang, shown) if shown in now else None
        if lang not in sources:
            sources[lang] = {message.key: message for listed in wanted_catalogs(kb, lang, messages).values()
                             for message in listed}
        changes.extend(compare_catalogs(lang, shown, before, after, sources[lang]))
    _attach_checks(root, kb, changes, messages)
    return Review(commit, described, changes)


def _attach_checks(root: Path, kb: KnowledgeBase, changes: list[Change], messages: list):
    """The `i18n check` problems and consistency warnings on each changed message's line."""
    languages = sorted({change.lang for change in changes if change.kind not in RETIRED_KINDS})
    if not languages:
        return
    found: dict[tuple[str, int], list[str]] = {}
    for problem in check_catalogs(root, kb, languages, messages):
        found.setdefault((problem.file, problem.line), []).append(problem.message)
    for warning in consistency_warnings(root, {lang: wanted_catalogs(kb, lang, messages) for lang in languages}):
        found.setdefault((warning.file, warning.line), []).append(f"consistency: {warning.message}")
    for change in changes:
        if change.kind not in RETIRED_KINDS:
            change.checks = found.get((change.file, change.line), [])

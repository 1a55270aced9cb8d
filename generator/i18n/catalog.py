"""Catalog files on disk: where they live, how they are read, and how an update keeps every translation."""

from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterable, Optional

from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import PoFileError, normalize, read_po, write_po

from .extract import SourceMessage

# Fixed dates keep catalogs byte-identical between runs; the history lives in git.
STABLE_DATE = datetime(2026, 1, 1, tzinfo=timezone.utc)
PROJECT = "wargame-rules-kb"
LINE_WIDTH = 79
TRANSLATORS = "Knowledge base translators (see git history)"


def catalog_path(root: Path, lang: str, catalog: str) -> Path:
    return Path(root) / "translations" / lang / f"{catalog}.po"


def catalog_name(root: Path, lang: str, path: Path) -> str:
    return str(Path(path).relative_to(Path(root) / "translations" / lang).with_suffix(""))


def existing_catalogs(root: Path, lang: str) -> list[str]:
    folder = Path(root) / "translations" / lang
    return sorted(catalog_name(root, lang, path) for path in folder.rglob("*.po")) if folder.is_dir() else []


def message_key(message: Message):
    return message.context if message.context is not None else message.id


class CatalogError(Exception):
    """A catalog file that cannot be parsed."""

    def __init__(self, path, line, message):
        self.path, self.line, self.message = path, line, message
        super().__init__(f"{path}:{line}: {message}")


def read_catalog(path: Path, lang: str) -> Catalog:
    """Read a .po file strictly: a syntax error is an error, not a silently skipped entry."""
    data = Path(path).read_bytes()
    try:
        catalog = read_po(io.BytesIO(data), locale=lang, abort_invalid=True)
    except PoFileError as error:
        line = getattr(error, "lineno", 0)
        raise CatalogError(path, line, f"not a valid catalog: {error}") from None
    except (UnknownLocaleError, ValueError, UnicodeDecodeError) as error:
        raise CatalogError(path, 0, f"cannot read: {error}") from None
    _attach_previous(catalog, data.decode("utf-8", errors="replace"))
    return catalog


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        text = text[1:-1]
    return text.replace('\\"', '"').replace("\\n", "\n").replace("\\t", "\t").replace("\\\\", "\\")


def _attach_previous(catalog: Catalog, text: str):
    """Babel's reader skips `#| msgid` lines; read them so a second update keeps what the translator needs."""
    previous: dict[int, str] = {}
    pending: list[str] = []
    in_previous_id = False
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("#| msgid "):
            pending, in_previous_id = [_unquote(line[len("#| msgid "):])], True
        elif line.startswith('#| "') and in_previous_id:
            pending.append(_unquote(line[3:]))
        elif line.startswith("#|"):
            in_previous_id = False
        elif line.startswith("msgid ") and pending:
            previous[number] = "".join(pending)
            pending, in_previous_id = [], False
        elif not line.startswith("#") and not line.startswith("msgctxt") and line.strip():
            pending, in_previous_id = [], False
    for message in list(catalog) + list(catalog.obsolete.values()):
        # Babel files continuation lines of a previous msgid as translator comments; they are not.
        message.user_comments = [c for c in message.user_comments if not c.startswith("|")]
        if message.lineno in previous:
            message.previous_id = [previous[message.lineno]]


def new_catalog(lang: str, catalog: str) -> Catalog:
    header = (f"# {lang} translation of {catalog} — wargame rules knowledge base.\n"
              "# Edit msgstr lines only; see translations/README.md for the workflow and checks.")
    return Catalog(locale=lang, domain=catalog.replace("/", "."), project=PROJECT, version="1", header_comment=header,
                   creation_date=STABLE_DATE, revision_date=STABLE_DATE, fuzzy=False,
                   msgid_bugs_address="", last_translator=TRANSLATORS, language_team=f"{lang} translators")


def render_catalog(catalog: Catalog) -> bytes:
    """The .po text of a catalog, with `#| msgid` lines that GNU gettext and Poedit accept."""
    buffer = io.BytesIO()
    # Babel wraps a long previous msgid into an invalid comment, so those lines are written here instead.
    write_po(buffer, catalog, width=LINE_WIDTH, include_previous=False, ignore_obsolete=False, sort_output=False)
    previous = {m.context: m.previous_id[0] for m in catalog
                if m.id and m.context is not None and m.previous_id and m.previous_id[0]}
    if not previous:
        return buffer.getvalue()
    lines = buffer.getvalue().decode("utf-8").split("\n")
    output = []
    for index, line in enumerate(lines):
        if line.startswith("msgctxt "):
            parts = [_unquote(line[len("msgctxt "):])]
            following = index + 1
            while following < len(lines) and lines[following].startswith('"'):
                parts.append(_unquote(lines[following]))
                following += 1
            context = "".join(parts)
            if context in previous:
                quoted = normalize(previous[context], width=LINE_WIDTH - 3).split("\n")
                output.append(f"#| msgid {quoted[0]}")
                output.extend(f"#| {part}" for part in quoted[1:])
        output.append(line)
    return "\n".join(output).encode("utf-8")


def _comments(source: SourceMessage, lang: str) -> list[str]:
    return [comment.replace("{lang}", lang) for comment in source.comments]


@dataclass
class UpdateSummary:
    added: int = 0
    kept: int = 0
    fuzzied: int = 0
    obsoleted: int = 0
    changed: bool = False


def merge(lang: str, name: str, sources: Iterable[SourceMessage], old: Optional[Catalog]) -> tuple[Catalog, UpdateSummary]:
    """Make the catalog for `sources`, carrying every translation over from `old` by stable context.

    Same source text: the translation and its flags stay. Changed source text: the translation stays,
    is marked fuzzy, and the text it was made for is kept as the previous msgid. Gone from the source:
    the translated message becomes obsolete (#~), never dropped.
    """
    summary = UpdateSummary()
    catalog = new_catalog(lang, name)
    if old is not None:
        catalog.mime_headers = old.mime_headers
        if catalog.last_translator.startswith("FULL NAME"):
            catalog.last_translator = TRANSLATORS
        catalog.creation_date = old.creation_date
        catalog.revision_date = old.revision_date
        catalog.fuzzy = False
    current = {message_key(m): m for m in old if m.id} if old is not None else {}
    retired = {message_key(m): m for m in old.obsolete.values()} if old is not None else {}
    for source in sources:
        previous = current.pop(source.key, None)
        revived = False
        if previous is None and source.key in retired:
            previous, revived = retired.pop(source.key), True
        flags = set()
        string = "" if not isinstance(source.msgid, tuple) else ("",) * max(catalog.num_plurals, 1)
        previous_id = None
        user_comments = []
        if previous is not None:
            string = previous.string
            user_comments = list(previous.user_comments)
            flags = set(previous.flags) - {"fuzzy"}
            if previous.id == source.msgid and not revived:
                if previous.fuzzy:
                    flags.add("fuzzy")
                    previous_id = previous.previous_id or None
                summary.kept += 1
            elif _has_text(string):
                flags.add("fuzzy")
                # Show the translator the text the translation was made for, not an intermediate edit.
                previous_id = (previous.previous_id or None) if previous.fuzzy else previous.id
                previous_id = previous_id or previous.id
                summary.fuzzied += 1
            else:
                summary.added += 1
        else:
            summary.added += 1
        if isinstance(previous_id, (list, tuple)) and not isinstance(source.msgid, tuple):
            previous_id = previous_id[0] if previous_id else None
        catalog.add(source.msgid, string, locations=[(p, l) for p, l in source.locations],
                    flags=sorted(flags), auto_comments=_comments(source, lang), user_comments=user_comments,
                    previous_id=previous_id if previous_id else (), context=source.context)
    for key, message in list(current.items()) + list(retired.items()):
        if not _has_text(message.string):
            continue
        if key in current:
            summary.obsoleted += 1
        catalog.obsolete[key] = Message(message.id, message.string, flags=message.flags,
                                        user_comments=message.user_comments, context=message.context,
                                        previous_id=message.previous_id)
    return catalog, summary


def _has_text(string) -> bool:
    if isinstance(string, (list, tuple)):
        return any(string)
    return bool(string)


def locale_exists(lang: str) -> bool:
    try:
        Locale.parse(lang)
        return True
    except (UnknownLocaleError, ValueError):
        return False

"""Merging a catalog with its sources: every translation carried over by stable context, none ever dropped."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Optional

from babel.messages.catalog import Catalog, Message

from .reader import SUGGESTION, message_key
from .writer import TRANSLATORS, new_catalog


@dataclass
class SourceMessage:
    """One source-language string, with the context a translator needs."""

    catalog: str  # "rules/t9a/scout", "rules/glossary", "ui"
    context: Optional[str]  # stable id: "t9a/scout:clause:placement"; None for UI strings
    msgid: object  # str, or (singular, plural) for plural UI strings
    source_lang: str
    comments: list[str] = field(default_factory=list)
    locations: list[tuple[str, int]] = field(default_factory=list)

    @property
    def key(self):
        return self.context if self.context is not None else self.msgid


@dataclass
class UpdateSummary:
    """What a merge did to one catalog's messages."""

    added: int = 0
    kept: int = 0
    fuzzied: int = 0
    obsoleted: int = 0
    changed: bool = False


def _comments(source: SourceMessage, lang: str) -> list[str]:
    return [comment.replace("{lang}", lang) for comment in source.comments]


def _has_text(string) -> bool:
    if isinstance(string, (list, tuple)):
        return any(string)
    return bool(string)


def _start(lang: str, name: str, old: Optional[Catalog]) -> Catalog:
    """A new catalog for `name` that keeps the old one's headers and dates."""
    catalog = new_catalog(lang, name)
    if old is not None:
        catalog.mime_headers = old.mime_headers
        if catalog.last_translator.startswith("FULL NAME"):
            catalog.last_translator = TRANSLATORS
        catalog.creation_date = old.creation_date
        catalog.revision_date = old.revision_date
        catalog.fuzzy = False
    return catalog


def _carried(source: SourceMessage, previous: Message, summary: UpdateSummary):
    """(string, flags, previous msgid, translator comments) of a message that had a translation before.

    An obsolete message that comes back for the same source text is restored as it was: translated stays
    translated, fuzzy stays fuzzy (a restored rule keeps its translations).
    """
    string = previous.string
    flags = set(previous.flags) - {"fuzzy"}
    if not previous.fuzzy:
        flags.discard(SUGGESTION)  # a translator accepted the suggestion by clearing fuzzy: it is theirs now
    previous_id = None
    if previous.id == source.msgid:
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
    return string, flags, previous_id, list(previous.user_comments)


def _add(catalog: Catalog, lang: str, source: SourceMessage, previous: Optional[Message], summary: UpdateSummary):
    """Add the message for `source` to the catalog, with what `previous` (its old message, if any) carries over."""
    if previous is not None:
        string, flags, previous_id, user_comments = _carried(source, previous, summary)
    else:
        string = "" if not isinstance(source.msgid, tuple) else ("",) * max(catalog.num_plurals, 1)
        flags, previous_id, user_comments = set(), None, []
        summary.added += 1
    if isinstance(previous_id, (list, tuple)) and not isinstance(source.msgid, tuple):
        previous_id = previous_id[0] if previous_id else None
    catalog.add(source.msgid, string, locations=[(p, l) for p, l in source.locations],
                flags=sorted(flags), auto_comments=_comments(source, lang), user_comments=user_comments,
                previous_id=previous_id if previous_id else (), context=source.context)


def merge(lang: str, name: str, sources: Iterable[SourceMessage], old: Optional[Catalog]) -> tuple[Catalog, UpdateSummary]:
    """Make the catalog for `sources`, carrying every translation over from `old` by stable context.

    Same source text: the translation and its flags stay. Changed source text: the translation stays,
    is marked fuzzy, and the text it was made for is kept as the previous msgid. Gone from the source:
    the translated message becomes obsolete (#~), never dropped; back in the source, it is carried over
    by the same rules.
    """
    summary = UpdateSummary()
    catalog = _start(lang, name, old)
    current = {message_key(m): m for m in old if m.id} if old is not None else {}
    retired = {message_key(m): m for m in old.obsolete.values()} if old is not None else {}
    for source in sources:
        previous = current.pop(source.key, None)
        if previous is None and source.key in retired:
            previous = retired.pop(source.key)
        _add(catalog, lang, source, previous, summary)
    for key, message in list(current.items()) + list(retired.items()):
        if not _has_text(message.string):
            continue
        if key in current:
            summary.obsoleted += 1
        catalog.obsolete[key] = Message(message.id, message.string, flags=message.flags,
                                        user_comments=message.user_comments, context=message.context,
                                        previous_id=message.previous_id)
    return catalog, summary

"""Writing catalogs: a new catalog's header, and the .po text with previous msgids GNU gettext and Poedit accept."""

from __future__ import annotations

import io
from datetime import datetime, timezone

from babel.messages.catalog import Catalog
from babel.messages.pofile import normalize, unescape, write_po


# Fixed dates keep catalogs byte-identical between runs; the history lives in git.
STABLE_DATE = datetime(2026, 1, 1, tzinfo=timezone.utc)
PROJECT = "wargame-rules-kb"
LINE_WIDTH = 79
TRANSLATORS = "Knowledge base translators (see git history)"
# (start of a context line, where its extra lines come from, the marker of a previous msgid line)
_CONTEXT_LINES = (("msgctxt ", "active", "#|"), ("#~ msgctxt ", "retired", "#~|"))


def new_catalog(lang: str, catalog: str) -> Catalog:
    """An empty catalog with the project's header and fixed dates."""
    header = (f"# {lang} translation of {catalog} — wargame rules knowledge base.\n"
              "# Edit msgstr lines only; see translations/README.md for the workflow and checks.")
    return Catalog(locale=lang, domain=catalog.replace("/", "."), project=PROJECT, version="1", header_comment=header,
                   creation_date=STABLE_DATE, revision_date=STABLE_DATE, fuzzy=False,
                   msgid_bugs_address="", last_translator=TRANSLATORS, language_team=f"{lang} translators")


def render_catalog(catalog: Catalog) -> bytes:
    """The .po text of a catalog, with `#| msgid` lines that GNU gettext and Poedit accept.

    Obsolete messages keep their flags and previous msgid too (`#, fuzzy` / `#~| msgid`), as GNU gettext
    writes them, so a fuzzy message that goes obsolete and comes back still shows what it was made for.
    """
    buffer = io.BytesIO()
    # Babel wraps a long previous msgid into an invalid comment, and drops the flags and previous msgid of
    # obsolete messages, so those lines are written here instead.
    write_po(buffer, catalog, width=LINE_WIDTH, include_previous=False, ignore_obsolete=False, sort_output=False)
    extra = {"active": {m.context: ([], m.previous_id[0]) for m in catalog
                        if m.id and m.context is not None and m.previous_id and m.previous_id[0]},
             "retired": {m.context: (sorted(m.flags), m.previous_id[0] if m.previous_id else "")
                         for m in catalog.obsolete.values() if m.context is not None and (m.flags or m.previous_id)}}
    if not extra["active"] and not extra["retired"]:
        return buffer.getvalue()
    lines = buffer.getvalue().decode("utf-8").split("\n")
    output = []
    for index, line in enumerate(lines):
        for prefix, kind, marker in _CONTEXT_LINES:
            if line.startswith(prefix):
                output.extend(_lines_before(lines, index, prefix, extra[kind], marker))
        output.append(line)
    return "\n".join(output).encode("utf-8")


def _lines_before(lines: list[str], index: int, prefix: str, wanted: dict, marker: str) -> list[str]:
    """The flags and previous-msgid lines that go before the msgctxt starting at lines[index], if any."""
    continuation = prefix[:-len("msgctxt ")] + '"'
    parts = [unescape(lines[index][len(prefix):])]
    following = index + 1
    while following < len(lines) and lines[following].startswith(continuation):
        parts.append(unescape(lines[following][len(continuation) - 1:]))
        following += 1
    flags, previous = wanted.get("".join(parts), ([], ""))
    output = []
    if flags:
        output.append("#, " + ", ".join(flags))
    if previous:
        quoted = normalize(previous, width=LINE_WIDTH - 4).split("\n")
        output.append(f"{marker} msgid {quoted[0]}")
        output.extend(f"{marker} {part}" for part in quoted[1:])
    return output

"""Writing catalogs: a new catalog's header, and the .po text in the project's layout, which GNU gettext and Poedit accept.

Decision: this module is the only writer of .po text. The layout is Babel's `write_po` (width 79, no
sorting, obsolete messages kept), so files written by earlier versions or by `pybabel` keep every byte;
on top of it, the previous msgid of a changed message (`#| msgid`) and the flags and previous msgid of
an obsolete one are written the way GNU gettext writes them, which Babel does not. It is written here
rather than by `write_po` plus a second pass because `write_po` measures every word of every text by
escaping it and wraps every comment with textwrap, which dominated a first `i18n update`. tests/test_i18n_writer.py holds it to `write_po`'s bytes on every catalog and on hostile texts.
"""

from __future__ import annotations

import os
import re
from bisect import bisect_left
from datetime import datetime, timezone
from itertools import accumulate

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import WORD_SEP, escape
from babel.util import TextWrapper  # Babel's: breaks at spaces and dashes, never inside a file name

# Fixed dates keep catalogs byte-identical between runs; the history lives in git.
STABLE_DATE = datetime(2026, 1, 1, tzinfo=timezone.utc)
PROJECT = "wargame-rules-kb"
LINE_WIDTH = 79
TRANSLATORS = "Knowledge base translators (see git history)"
PREVIOUS_WIDTH = LINE_WIDTH - 4  # a previous msgid is wrapped narrower: its lines carry "#| " in front
_ESCAPED = re.compile(r'[\\\t\r\n"]')  # the characters `escape` writes as two
_SPACES = re.compile(r"(\s+)")  # where a text with no hyphen, or a printable comment, may break
_LINE_BREAK = re.compile("[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")  # where str.splitlines breaks
# Comments are wrapped as xgettext and Babel wrap them: at the line width, never inside a word.
_COMMENTS = TextWrapper(width=LINE_WIDTH, break_long_words=False)
_HEADER = TextWrapper(width=LINE_WIDTH, subsequent_indent="# ", break_long_words=False)


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
    lines: list[str] = []
    for message in catalog:
        if not message.id:  # the header: Babel's catalog gives its fields as this message
            lines.append(_header_comment(catalog.header_comment) + "\n")
        _comments(lines, message.user_comments, "")
        _comments(lines, message.auto_comments, ".")
        _comments(lines, [_locations(message)], ":")
        if message.flags:
            lines.append(f"#{', '.join(['', *sorted(message.flags)])}\n")
        if catalog.get_conflicts(message.id, message.context):
            raise ValueError(f"message {message.context or message.id!r} has conflicting translations, which "
                             "this project's catalogs never record")
        if message.context and message.previous_id and message.previous_id[0]:
            _previous(lines, message.previous_id[0], "#|")
        _message(lines, catalog, message, "")
        lines.append("\n")
    for message in catalog.obsolete.values():
        _comments(lines, message.user_comments, "")
        if message.context:
            if message.flags:
                lines.append("#, " + ", ".join(sorted(message.flags)) + "\n")
            if message.previous_id and message.previous_id[0]:
                _previous(lines, message.previous_id[0], "#~|")
        _message(lines, catalog, message, "#~ ")
        lines.append("\n")
    return "".join(lines).encode(catalog.charset, "backslashreplace")


def normalize(string: str, prefix: str = "", width: int = LINE_WIDTH) -> str:
    """A text as quoted .po lines: Babel's `normalize`, byte for byte, without escaping every word to measure it.

    Babel splits each line at its word separators and fills lines greedily, counting each piece's
    escaped length plus the prefix's (a quirk kept, since it decides where lines break).
    """
    prefix_length = len(prefix)
    quoted = escape(string)
    if len(quoted) + prefix_length <= width and not _LINE_BREAK.search(string):
        return quoted  # most texts: one line that fits
    lines = []
    for line in string.splitlines(True):
        specials = len(_ESCAPED.findall(line))
        if len(line) + specials + 2 + prefix_length <= width:
            lines.append(line)
            continue
        if not specials and not prefix_length and "-" not in line and line.isprintable() and width > 3:
            lines.extend(_pieces_filled(line, width - 3))  # the pieces: runs of plain spaces and what lies between
            continue
        # Without a hyphen only WORD_SEP's first alternative, a run of spaces, can match.
        chunks = (WORD_SEP if "-" in line else _SPACES).split(line)
        lines.extend(_filled(chunks, [(len(escape(chunk)) - 2 if specials else len(chunk)) + prefix_length
                                      for chunk in chunks], width))
    if len(lines) <= 1:
        return quoted
    if not lines[-1]:
        del lines[-1]
        lines[-1] += "\n"
    return '""\n' + "\n".join(prefix + escape(line) for line in lines)


def _filled(chunks: list[str], lengths: list[int], width: int) -> list[str]:
    """Babel's greedy fill: each line takes pieces while 2 + their lengths stay under `width`, and at least one."""
    ends = list(accumulate(lengths, initial=0))  # ends[i]: the length of the first i pieces
    lines, start = [], 0
    while start < len(chunks):
        # The first piece past the limit, found by bisection instead of adding the pieces one by one.
        stop = max(bisect_left(ends, width - 2 + ends[start]) - 1, start + 1)
        lines.append("".join(chunks[start:stop]))
        start = stop
    return lines


def _pieces_filled(text: str, most: int) -> list[str]:
    """_filled's lines for a text whose only white space is the plain space, found by position, not piece by piece.

    (A printable text has no other white space.) Each line is the longest run of whole pieces of at most
    `most` characters, or one piece when the first is longer: a third of the time of splitting into pieces.
    """
    lines, start = [], 0
    while start < len(text):
        stop = _pieces_end(text, start, most)
        lines.append(text[start:stop])
        start = stop
    # Splitting at spaces leaves an empty piece before leading and after trailing spaces; _filled gives it a
    # line of its own when the piece beside it filled a line alone.
    if text.startswith(" ") and len(lines[0]) > most:
        lines.insert(0, "")
    if text.endswith(" ") and len(lines[-1]) > most:
        lines.append("")
    return lines


def _pieces_end(text: str, start: int, most: int) -> int:
    """Where the longest run of whole pieces from `start` with at most `most` characters ends (pieces: runs of
    plain spaces and of other characters); the first piece's end when even that one is longer."""
    end = start + most
    if end >= len(text):
        return len(text)
    if text[end] == " ":  # the first character past the limit is a space: the line ends where the spaces start
        stop = start + len(text[start:end].rstrip(" "))
        return stop if stop > start else len(text) - len(text[start:].lstrip(" "))
    space = text.rfind(" ", start, end)  # it is in a word: the line ends after the last space before that word
    if space >= 0:
        return space + 1
    space = text.find(" ", end)
    return len(text) if space < 0 else space


def _header_comment(comment: str) -> str:
    return "\n".join(line for text in comment.splitlines() for line in _HEADER.wrap(text))


def _comments(lines: list[str], comments, marker: str) -> None:
    """`#<marker> text` lines, each comment wrapped at the line width (most fit, and skip the wrapper)."""
    for comment in comments:
        if not comment.isprintable() or "--" in comment:  # tabs, line breaks, dashes: the wrapper's own rules
            lines.extend(f"#{marker} {line.strip()}\n" for line in _COMMENTS.wrap(comment))
        elif len(comment) <= LINE_WIDTH:  # one line: all the wrapper would do is drop the spaces at its ends
            if comment.strip():
                lines.append(f"#{marker} {comment.strip()}\n")
        else:
            lines.extend(f"#{marker} {line}\n" for line in _wrapped(comment))


def _wrapped(comment: str) -> list[str]:
    """The lines, stripped, Babel's TextWrapper makes of a printable comment with no dash pair (so split at spaces).

    Each line takes whole pieces up to the width; a line after the first drops the spaces it starts with.
    """
    lines, start = [], 0
    while start < len(comment):
        if lines:
            start = len(comment) - len(comment[start:].lstrip(" "))
            if start == len(comment):
                break
        stop = _pieces_end(comment, start, LINE_WIDTH)
        line = comment[start:stop].strip()
        if line:
            lines.append(line)
        start = stop
    return lines


def _locations(message: Message) -> str:
    """The `#:` comment's text: each file and line once, in file then line order, as Babel writes them."""
    try:
        locations = sorted(message.locations, key=lambda x: (x[0], isinstance(x[1], int) and x[1] or -1))
    except TypeError:  # e.g. a line that is None beside one that is a number: kept in their order
        locations = message.locations
    seen = {}
    for filename, lineno in locations:
        location = filename.replace(os.sep, "/")
        if " " in location or "\t" in location:  # gettext's isolates around a name with spaces
            location = ("" if location.startswith("\u2068") else "\u2068") + location
            location += "" if location.endswith("\u2069") else "\u2069"
        seen[f"{location}:{lineno:d}" if lineno else location] = None
    return " ".join(seen)


def _previous(lines: list[str], previous: str, marker: str) -> None:
    quoted = normalize(previous, width=PREVIOUS_WIDTH).split("\n")
    lines.append(f"{marker} msgid {quoted[0]}\n")
    lines.extend(f"{marker} {part}\n" for part in quoted[1:])


def _message(lines: list[str], catalog: Catalog, message: Message, prefix: str) -> None:
    """The msgctxt, msgid (and msgid_plural) and msgstr lines of one message."""
    if message.context:
        lines.append(f"{prefix}msgctxt {normalize(message.context, prefix)}\n")
    if isinstance(message.id, (list, tuple)):
        lines.append(f"{prefix}msgid {normalize(message.id[0], prefix)}\n")
        lines.append(f"{prefix}msgid_plural {normalize(message.id[1], prefix)}\n")
        for index in range(catalog.num_plurals):
            string = message.string[index] if index < len(message.string) else ""
            lines.append(f"{prefix}msgstr[{index:d}] {normalize(string, prefix)}\n")
    else:
        lines.append(f"{prefix}msgid {normalize(message.id, prefix)}\n")
        lines.append(f"{prefix}msgstr {normalize(message.string or '', prefix)}\n")

"""Writing catalogs: a new catalog's header, and the .po text with previous msgids GNU gettext and Poedit accept."""

from __future__ import annotations

import io
import marshal
from bisect import bisect_left
from itertools import accumulate
import os
import re
from datetime import datetime, timezone

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import WORD_SEP, escape, normalize, unescape, write_po
from babel.util import TextWrapper  # the wrapper Babel's writer uses (it keeps hyphenated words whole)

from .reader import code_version

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


def _plain_message(message: Message) -> tuple:
    """Everything about a message that its .po text shows (not its line number)."""
    return (message.id, message.string, message.context, tuple(message.locations), tuple(sorted(message.flags)),
            tuple(message.auto_comments), tuple(message.user_comments), tuple(message.previous_id or ()))


def render_catalog(catalog: Catalog) -> bytes:
    """The .po text of a catalog (see _render_catalog), from the on-disk cache when this exact content was
    rendered by this code before: `i18n update` with nothing to change re-renders a thousand catalogs."""
    from ..diskcache import cached

    messages = list(catalog)  # the header message is made anew (dates formatted) on every pass over a catalog
    content = (catalog.header_comment, tuple(_plain_message(m) for m in messages),
               tuple(_plain_message(m) for m in catalog.obsolete.values()))
    try:
        key = marshal.dumps(content, 4)
    except ValueError:  # not plain data (never expected): render without the cache
        return _render_catalog(catalog, messages)
    return cached("catalog-render", code_version(), key, lambda: _render_catalog(catalog, messages))


def _render_catalog(catalog: Catalog, messages: list[Message] | None = None) -> bytes:
    """The .po text of a catalog, with `#| msgid` lines that GNU gettext and Poedit accept.

    Obsolete messages keep their flags and previous msgid too (`#, fuzzy` / `#~| msgid`), as GNU gettext
    writes them, so a fuzzy message that goes obsolete and comes back still shows what it was made for.
    """
    # Babel wraps a long previous msgid into an invalid comment, and drops the flags and previous msgid of
    # obsolete messages, so those lines are written here instead.
    text = po_text(catalog, list(catalog) if messages is None else messages)
    if text is not None:
        buffer = io.BytesIO(text.encode(catalog.charset, "backslashreplace"))
    else:  # a catalog with merge conflicts, which po_text leaves to Babel
        buffer = io.BytesIO()
        write_po(buffer, catalog, width=LINE_WIDTH, include_previous=False, ignore_obsolete=False,
                 sort_output=False)
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


# ---------------------------------------------------------------- the .po text, as Babel writes it
_WRAPPED_AS_SPACE = re.compile("[\t\n\x0b\x0c\r]")  # what TextWrapper turns into spaces before wrapping
_ESCAPED = re.compile('[\\\\\t\r\n"]')  # the characters Babel's escape() writes as two
_SPACES = re.compile(r"(\s+)")
_LINE_BREAK = re.compile("[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")  # where str.splitlines breaks


def po_text(catalog: Catalog, messages: list[Message]) -> str | None:
    """What Babel's `write_po(width=LINE_WIDTH, include_previous=False)` writes for a catalog, made faster.

    `messages` is list(catalog) (its header first). Babel's writer escapes each word of a long string
    again for every line it tries, and runs textwrap on every comment, even the short ones that fit:
    at a thousand catalogs that was four seconds of a cold `i18n update`. Here a string or comment that
    fits on its line is written at once, and a long one is wrapped by Babel's own rule with each word
    escaped once. None if the catalog holds merge conflicts (left to Babel). tests/test_i18n_writer.py
    compares the two writers on catalogs with every kind of text.
    """
    width = LINE_WIDTH
    comment_wrapper = TextWrapper(width=width, break_long_words=False)
    header_wrapper = TextWrapper(width=width, subsequent_indent="# ", break_long_words=False)
    out: list[str] = []
    add = out.append

    def comment(text: str, prefix: str = ""):
        if text and len(text) <= width and text == text.strip() and not _WRAPPED_AS_SPACE.search(text):
            add(f"#{prefix} {text}\n")  # what textwrap makes of a comment that fits on one line
            return
        plain = "--" not in text and "\u2068" not in text and not _WRAPPED_AS_SPACE.search(text)
        for line in _wrapped(text) if plain else comment_wrapper.wrap(text):
            add(f"#{prefix} {line.strip()}\n")

    def message_lines(message: Message, prefix: str = ""):
        if message.context:
            add(f"{prefix}msgctxt {_normalize(message.context, prefix)}\n")
        if isinstance(message.id, (list, tuple)):
            add(f"{prefix}msgid {_normalize(message.id[0], prefix)}\n")
            add(f"{prefix}msgid_plural {_normalize(message.id[1], prefix)}\n")
            for index in range(catalog.num_plurals):
                try:
                    string = message.string[index]
                except IndexError:
                    string = ""
                add(f"{prefix}msgstr[{index:d}] {_normalize(string, prefix)}\n")
        else:
            add(f"{prefix}msgid {_normalize(message.id, prefix)}\n")
            add(f"{prefix}msgstr {_normalize(message.string or '', prefix)}\n")

    for message in messages:
        if catalog.get_conflicts(message.id, message.context):
            return None
        if not message.id:  # the header
            lines = []
            for line in catalog.header_comment.splitlines():
                lines += header_wrapper.wrap(line)
            add("\n".join(lines) + "\n")
        for text in message.user_comments:
            comment(text)
        for text in message.auto_comments:
            comment(text, ".")
        try:
            locations = sorted(message.locations, key=lambda x: (x[0], isinstance(x[1], int) and x[1] or -1))
        except TypeError:
            locations = message.locations
        shown = {}
        for filename, lineno in locations:
            location = _enclosed(filename.replace(os.sep, "/"))
            shown[f"{location}:{lineno:d}" if lineno else location] = None
        comment(" ".join(shown), ":")
        if message.flags:
            add(f"#{', '.join(['', *sorted(message.flags)])}\n")
        message_lines(message)
        add("\n")
    for message in catalog.obsolete.values():
        for text in message.user_comments:
            comment(text)
        message_lines(message, "#~ ")
        add("\n")
    return "".join(out)


def _wrapped(text: str) -> list[str]:
    """What Babel's TextWrapper(width=LINE_WIDTH, break_long_words=False) makes of a comment with no double
    hyphen, no isolate mark and no tab or line break: textwrap's own loop, over words split at whitespace
    (Babel's wrapper splits words only there and at dashes of two or more hyphens)."""
    chunks = [chunk for chunk in _SPACES.split(text) if chunk]
    chunks.reverse()
    lines: list[str] = []
    while chunks:
        line, length = [], 0
        if lines and not chunks[-1].strip():  # a line after the first starts with no space
            del chunks[-1]
        while chunks and length + len(chunks[-1]) <= LINE_WIDTH:
            length += len(chunks[-1])
            line.append(chunks.pop())
        if chunks and len(chunks[-1]) > LINE_WIDTH and not line:  # a word longer than a line goes alone
            line.append(chunks.pop())
        if line and not line[-1].strip():  # nor ends with one
            del line[-1]
        if line:
            lines.append("".join(line))
    return lines


def _enclosed(filename: str) -> str:
    """A location's file name, between isolate marks if it holds a space or tab (as gettext and Babel write it)."""
    if " " not in filename and "\t" not in filename:
        return filename
    if not filename.startswith("\u2068"):
        filename = "\u2068" + filename
    if not filename.endswith("\u2069"):
        filename += "\u2069"
    return filename


def _normalize(string: str, prefix: str) -> str:
    """Babel's `normalize(string, prefix, LINE_WIDTH)`: a quoted string, split into lines when it is long."""
    escaped = escape(string)
    if len(escaped) + len(prefix) <= LINE_WIDTH and not _LINE_BREAK.search(string):
        return escaped  # one line that fits: Babel writes it as it is
    width, prefix_length = LINE_WIDTH, len(prefix)
    lines = []
    for line in string.splitlines(True):
        if len(escape(line)) + prefix_length <= width:
            lines.append(line)
            continue
        # Without a hyphen only WORD_SEP's first branch, a run of whitespace, can match.
        chunks = WORD_SEP.split(line) if "-" in line else _SPACES.split(line)
        if _ESCAPED.search(line):  # each word's escaped length, found once
            lengths = [len(escape(chunk)) - 2 + prefix_length for chunk in chunks]
        else:  # nothing to escape: a word is as long as it is written
            lengths = [len(chunk) + prefix_length for chunk in chunks]
        # Babel fills a line with words while 2 + their lengths stays under the width, and puts a word
        # that is too long on its own: with running totals each line's end is found by bisection.
        totals = [0, *accumulate(lengths)]
        start, count = 0, len(chunks)
        while start < count:
            end = max(bisect_left(totals, width - 2 + totals[start], start + 1) - 1, start + 1)
            lines.append("".join(chunks[start:end]))
            start = end
    if len(lines) <= 1:
        return escaped
    if not lines[-1]:
        del lines[-1]
        lines[-1] += "\n"
    return '""\n' + "\n".join(prefix + escape(line) for line in lines)

"""`i18n review`'s report: plain text for a terminal, Markdown (escaped, literal) for a pull request's summary."""

from __future__ import annotations

import html
import re

from ..core.report_formats import plain
from .memory import one_line
from .review import APPROVED, RETIRED_KINDS, Change, Review


def _by_language(changes: list[Change]) -> dict[str, list[Change]]:
    grouped: dict[str, list[Change]] = {}
    for change in changes:
        grouped.setdefault(change.lang, []).append(change)
    return grouped


def _flags(change: Change) -> str:
    notes = [change.kind]
    if change.fuzzy_cleared and change.kind != APPROVED:
        notes.append("fuzzy flag cleared")
    if change.fuzzy_now:
        notes.append("still fuzzy")
    return ", ".join(notes)


def _text(text) -> str:
    """A text of a catalog on one line of the terminal: its whitespace collapsed, anything else unsafe escaped."""
    return plain(one_line(text))


def plain_text(result: Review) -> str:
    """The review for a terminal (and the CI log): one block per changed message, grouped by language; every
    file name, key and text on one line, escaped (generator/core/report_formats.py)."""
    lines = [f"Translation review against {result.base[:10]} ({plain(result.described)}): "
             f"{len(result.changes)} message(s) changed"]
    for lang, changes in _by_language(result.changes).items():
        lines += ["", f"== {plain(lang)}: {len(changes)} message(s)"]
        for change in changes:
            lines += ["", f"{plain(change.file)}:{change.line}: {plain(change.key)}: {_flags(change)}"]
            if change.kind == APPROVED:
                lines.append("  ! approved without a change: check the translation still says what the source says now")
            if change.kind in RETIRED_KINDS:
                lines.append(f"  source was : {_text(change.source)}")
            else:
                lines.append(f"  source now : {_text(change.source)}")
            if change.previous_source:
                lines.append(f"  made for   : {_text(change.previous_source)}")
            lines.append(f"  before     : {_text(change.before) or '(empty)'}")
            lines.append(f"  after      : {_text(change.after) or '(empty)'}")
            if change.kind not in RETIRED_KINDS:
                lines.append("  checks     : " + ("ok" if not change.checks else _text(change.checks[0])))
                lines.extend(f"               {_text(issue)}" for issue in change.checks[1:])
    if not result.changes:
        lines.append("no translation changed")
    return "\n".join(lines) + "\n"


_MARKDOWN_SPECIALS = "\\`*_[]|~#!"


# What GFM's autolink extension links without any markup: a scheme's address, www., an e-mail address.
_AUTOLINKED = re.compile(r"((?:[A-Za-z][A-Za-z0-9+.-]*:/+|www\.)[^\s<>]*|[\w.+-]+@[\w-]+(?:\.[\w-]+)+)")
_MARKDOWN_LINE_END = re.compile(r"\r\n|\r|\n")  # CommonMark's line endings: each would end a table row


def markdown_cell(text: str) -> str:
    """A text shown literally in a Markdown table cell: HTML escaped, Markdown syntax backslashed, one line
    (its line breaks as <br>, any other control character as a visible escape), and what GitHub would turn
    into a link by itself (an address, www., an e-mail) shown as code, so a translation cannot add one."""
    lines = []
    for part in _MARKDOWN_LINE_END.split(str(text)):
        pieces = _AUTOLINKED.split(plain(part))  # odd pieces are the matches
        lines.append("".join(code_span(piece) if index % 2 else _escaped(piece) for index, piece in enumerate(pieces)))
    return "<br>".join(lines) or "—"


def _escaped(text: str) -> str:
    return html.escape("".join(f"\\{char}" if char in _MARKDOWN_SPECIALS else char for char in text), quote=False)


def code_span(text: str, in_table: bool = True) -> str:
    """A text shown as inline code whatever it holds: a fence of more backticks than any run inside it (so no
    backtick closes it early), on one line (plain()), and in a table its pipes escaped (GFM splits cells at a
    pipe even inside code)."""
    shown = plain(text)
    if in_table:
        shown = shown.replace("|", "\\|")
    fence = "`" * (max((len(run) for run in re.findall(r"`+", shown)), default=0) + 1)
    padded = f" {shown} " if shown.startswith("`") or shown.endswith("`") else shown
    return f"{fence}{padded}{fence}"


def markdown(result: Review) -> str:
    """The review as Markdown: a table per language, approvals without a change called out first."""
    lines = ["## Translation review", "",
             f"Compared with `{result.base[:10]}` ({markdown_cell(result.described)}): "
             f"{len(result.changes)} message(s) changed.", ""]
    if not result.changes:
        lines.append("No translation changed.")
    for lang, changes in _by_language(result.changes).items():
        lines += [f"### {markdown_cell(lang)} — {len(changes)} message(s)", ""]
        for change in changes:
            if change.kind == APPROVED:
                made_for = (f" The translation was made for «{markdown_cell(change.previous_source)}»."
                            if change.previous_source else "")
                lines += [f"> **Fuzzy flag cleared without a change** at "
                          f"{code_span(f'{change.file}:{change.line}', in_table=False)} "
                          f"({markdown_cell(change.key)}).{made_for} Check that it still says what the source "
                          f"says now.", ""]
        lines += ["| message | what | source now | before | after | checks |", "|---|---|---|---|---|---|"]
        for change in changes:
            checks = "ok" if not change.checks else "<br>".join(markdown_cell(issue) for issue in change.checks)
            if change.kind in RETIRED_KINDS:
                checks = ""
            source = markdown_cell(change.source)
            if change.previous_source:
                source += f"<br>(made for: {markdown_cell(change.previous_source)})"
            lines.append(f"| {code_span(f'{change.file}:{change.line}')}<br>{markdown_cell(change.key)} | "
                         f"{markdown_cell(_flags(change))} | {source} | {markdown_cell(change.before)} | "
                         f"{markdown_cell(change.after)} | {checks} |")
        lines.append("")
    return "\n".join(lines) + "\n"

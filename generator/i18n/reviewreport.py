"""`i18n review`'s report: plain text for a terminal, Markdown (escaped, literal) for a pull request's summary."""

from __future__ import annotations

import html

from .memory import one_line
from .review import APPROVED, OBSOLETE, Change, Review


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


def plain_text(result: Review) -> str:
    """The review for a terminal: one block per changed message, grouped by language."""
    lines = [f"Translation review against {result.base[:10]} ({result.described}): "
             f"{len(result.changes)} message(s) changed"]
    for lang, changes in _by_language(result.changes).items():
        lines += ["", f"== {lang}: {len(changes)} message(s)"]
        for change in changes:
            lines += ["", f"{change.file}:{change.line}: {change.key}: {_flags(change)}"]
            if change.kind == APPROVED:
                lines.append("  ! approved without a change: check the translation still says what the source says now")
            if change.kind == OBSOLETE:
                lines.append(f"  source was : {one_line(change.source)}")
            else:
                lines.append(f"  source now : {one_line(change.source)}")
            if change.previous_source:
                lines.append(f"  made for   : {one_line(change.previous_source)}")
            lines.append(f"  before     : {one_line(change.before) or '(empty)'}")
            lines.append(f"  after      : {one_line(change.after) or '(empty)'}")
            if change.kind != OBSOLETE:
                lines.append("  checks     : " + ("ok" if not change.checks else change.checks[0]))
                lines.extend(f"               {issue}" for issue in change.checks[1:])
    if not result.changes:
        lines.append("no translation changed")
    return "\n".join(lines) + "\n"


_MARKDOWN_SPECIALS = "\\`*_[]|~#!"


def markdown_cell(text: str) -> str:
    """A text shown literally in a Markdown table cell: HTML escaped, Markdown syntax backslashed, one line."""
    escaped = "".join(f"\\{char}" if char in _MARKDOWN_SPECIALS else char for char in str(text))
    escaped = html.escape(escaped, quote=False)
    return "<br>".join(part for part in escaped.replace("\r", "").split("\n")) or "—"


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
                lines += [f"> **Fuzzy flag cleared without a change** at `{change.file}:{change.line}` "
                          f"({markdown_cell(change.key)}).{made_for} Check that it still says what the source "
                          f"says now.", ""]
        lines += ["| message | what | source now | before | after | checks |", "|---|---|---|---|---|---|"]
        for change in changes:
            checks = "ok" if not change.checks else "<br>".join(markdown_cell(issue) for issue in change.checks)
            if change.kind == OBSOLETE:
                checks = ""
            source = markdown_cell(change.source)
            if change.previous_source:
                source += f"<br>(made for: {markdown_cell(change.previous_source)})"
            lines.append(f"| `{change.file}:{change.line}`<br>{markdown_cell(change.key)} | "
                         f"{markdown_cell(_flags(change))} | {source} | {markdown_cell(change.before)} | "
                         f"{markdown_cell(change.after)} | {checks} |")
        lines.append("")
    return "\n".join(lines) + "\n"

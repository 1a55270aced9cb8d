"""How problems and reports are printed: plain `file:line: …` lines, GitHub workflow annotations beside them, and
the guard that keeps a value read from a file from starting a line the CI runner would obey as a command.

GitHub's runner reads every line a step prints: a line that starts with `::` (after leading spaces) is a
workflow command (`::error`, `::add-mask::`, `::stop-commands::`), and `##[command]` is obeyed anywhere in a
line. File names, catalog contexts and texts come from strangers' pull requests, so every value is printed
through `plain()` (one line, escaped), and `guarded_output()` checks every line the process writes.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
import threading
from typing import Iterable, Optional

PLAIN, GITHUB = "plain", "github"
FORMATS = (PLAIN, GITHUB)
ERROR, WARNING = "error", "warning"

# Characters a value may not print raw: C0 and C1 controls (line ends, the terminal's escape sequences), the
# Unicode line and paragraph separators, and the invisible and bidirectional format characters that make a line
# read differently from what it holds. `##[` and `##vso[` open a runner command anywhere in a line (GitHub's
# older syntax, Azure's): their `[` is escaped, so the escape always follows what came before it.
_OPENS_COMMAND = r"(?<=##)\[|(?<=##vso)\["
HIDDEN = r"\x00-\x1f\x7f-\x9f\xad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff"  # (a class's inside)
_UNSAFE = re.compile(f"[{HIDDEN}]|" + _OPENS_COMMAND)
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
# Where a line ends, for the guard: the runner splits at CR and LF; the rest end a line in other readers.
_LINE_END = re.compile(r"\r\n|[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")
_COMMAND_START = "::"


def _escaped(match: re.Match) -> str:
    found = match.group()
    if found == "[":
        return "\\["  # `##\[` shows what was written and opens no command
    return _NAMED.get(found) or (f"\\x{ord(found):02x}" if ord(found) < 0x100 else f"\\u{ord(found):04x}")


def plain(value) -> str:
    """A value read from a file (a name, a context, a text), shown on one line: every control character, line
    separator and invisible or bidirectional format character as an escape (`\\n`, `\\x1b`, `\\u2028`), and `##[` as
    `##\\[`."""
    text = str(value)
    return _UNSAFE.sub(_escaped, text) if _UNSAFE.search(text) else text


def json_text(data, **options) -> str:
    """JSON whose strings keep the values exactly and still pass the guard: the separators it would read as line
    ends, and the `[` of a `##[`, written as JSON escapes."""
    text = json.dumps(data, ensure_ascii=False, **options)
    return (text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029").replace("\x85", "\\u0085")
            .replace("##[", "##\\u005b").replace("##vso[", "##vso\\u005b"))


def chosen_format(requested: Optional[str], environ=None) -> str:
    """An explicit --format wins; under GitHub Actions (GITHUB_ACTIONS=true) annotations are added by default."""
    if requested:
        return requested
    environ = os.environ if environ is None else environ
    return GITHUB if environ.get("GITHUB_ACTIONS") == "true" else PLAIN


def escape_data(text: str) -> str:
    """A workflow command's message: %, CR and LF are percent-encoded (GitHub's workflow-command rules)."""
    return str(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A workflow command's property value: as a message, and also `:` and `,`, which end a property."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(level: str, file: str, line: int, title: str, message: str) -> str:
    """One `::error file=…,line=…,title=…::message` line; line 0 (a whole file) leaves `line` out."""
    properties = [f"file={escape_property(file)}"]
    if line:
        properties.append(f"line={int(line)}")
    if title:
        properties.append(f"title={escape_property(title)}")
    return f"::{level} {','.join(properties)}::{escape_data(message)}"


def problem_annotation(problem, level: str = ERROR) -> str:
    """A Problem as an annotation: its subject is the title, its message and hint the text."""
    text = f"{problem.message} — {problem.hint}" if problem.hint else problem.message
    return annotation(level, problem.file, problem.line, problem.subject or problem.file, text)


def outcome_annotation(outcome) -> str:
    """A failing worked example as an annotation on the line where the example is written."""
    case = outcome.case
    detail = outcome.error or f"expected {case.expect!r}, got {outcome.got!r}"
    return annotation(ERROR, case.file, case.line, f"example {case.test_id} fails", detail)


def print_command(line: str, stream=None) -> None:
    """Print one of the project's own workflow commands (an annotation): the one kind of line the guard lets
    start with `::`."""
    target = sys.stdout if stream is None else stream
    if isinstance(target, CommandGuard):
        target.write_command(line)
    else:
        print(line, file=target)


def print_problems(problems: Iterable, output_format: str, level: str = ERROR, stream=None):
    """Print each problem as its plain line and, in the GitHub format, as an annotation too."""
    for problem in problems:
        print(problem, file=stream)
        if output_format == GITHUB:
            print_command(problem_annotation(problem, level), stream)


class CommandGuard:
    """A text stream in front of stdout or stderr that lets no line start a workflow command, whatever printed it.

    A line whose text starts with `::` (after leading spaces) gets a backslash before it, and `##[` becomes
    `##\\[`; the project's own annotations go through `write_command`. Lines are held until they end (print
    writes a text and its newline separately), so a command split over two writes is still seen.
    """

    def __init__(self, stream):
        self.stream = stream
        self._lock = threading.Lock()
        self._pending = ""  # the line written so far, not yet passed on
        self._continued = ""  # the last characters of a line passed on unfinished (a flush), "" at a line's start
        self._started = False  # part of the current line was passed on already: it no longer starts a line

    def write(self, text) -> int:
        text = str(text)
        with self._lock:
            self._pending += text
            position = 0
            for end in _LINE_END.finditer(self._pending):
                self._pass_on(self._pending[position:end.start()], end.group())
                position = end.end()
            self._pending = self._pending[position:]
        return len(text)

    def write_command(self, line: str) -> None:
        """Pass one of the project's own command lines through as it is, on a line of its own."""
        with self._lock:
            if self._pending or self._started:
                self._pass_on(self._pending, "\n")
                self._pending = ""
            self.stream.write(line + "\n")

    def flush(self) -> None:
        with self._lock:
            stripped = self._pending[_line_start(self._pending):]
            # Held back: nothing but spaces, or a lone colon that the next write could make a command.
            if stripped and not (not self._started and _COMMAND_START.startswith(stripped)):
                self._pass_on(self._pending, "")
                self._pending = ""
            self.stream.flush()

    def _pass_on(self, body: str, end: str) -> None:
        # The escape goes before a `[`, so the text passed on already is escaped the same way again.
        done = len(_UNSAFE_INLINE.sub(_escaped, self._continued))
        safe = _UNSAFE_INLINE.sub(_escaped, self._continued + body)[done:]
        if not self._started:
            lead = _line_start(safe)
            if safe.startswith(_COMMAND_START, lead):
                safe = f"{safe[:lead]}\\{safe[lead:]}"
        self.stream.write(safe + end)
        self._started = not end
        self._continued = (self._continued + body)[-5:] if not end else ""

    def __getattr__(self, name):  # encoding, fileno, isatty, buffer: those of the stream behind
        return getattr(self.stream, name)


# Within a line the guard escapes only what opens a command there: a line's other characters are the printer's.
_UNSAFE_INLINE = re.compile(_OPENS_COMMAND)
# What the runner may skip before a command: spaces (it trims them), and format characters, which a
# culture-aware comparison of .NET ignores.
_SKIPPED = re.compile(r"[\s\xad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]*")


def _line_start(text: str) -> int:
    """Where a line's text begins for the runner: after its leading spaces and format characters."""
    return _SKIPPED.match(text).end()


@contextlib.contextmanager
def guarded_output():
    """Within the block, sys.stdout and sys.stderr pass through a CommandGuard (restored afterwards)."""
    saved = sys.stdout, sys.stderr
    guards = CommandGuard(sys.stdout), CommandGuard(sys.stderr)
    sys.stdout, sys.stderr = guards
    try:
        yield guards
    finally:
        for guard in guards:
            with contextlib.suppress(Exception):  # a closed pipe (`| head`) must not hide the command's own error
                guard.flush()
        sys.stdout, sys.stderr = saved

"""How GitHub's runner reads a step's output, for the tests of what the project prints in CI (and the sweep,
scripts/sweep_ci_output.py).

A port of actions/runner's `ActionCommand.TryParseV2` (`::name k=v,…::data`, after the line's leading spaces)
and `TryParse` (`##[name k=v;…]data`, anywhere in a line), with the runner's unescaping: the tests read the
raw output of the real commands through it, as the runner would.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# Each ends one line and starts another with a command, or opens one mid-line; the first three are the security
# review's (N1). tests/test_ci_output.py and scripts/sweep_ci_output.py plant them in every field.
PAYLOADS = ("\n::stop-commands::x", "\n::add-mask::y", "\n::error title=F::z", "\r::warning title=CR::w",
            "\r\n::error::crlf", "%0A::error::pct%0D%0A::add-mask::pct2", "\u2028::error::ls", "\x85::error::nel",
            "\n  ::error::indented", "##[error]v1 anywhere", "##[add-mask]v1mask", "\x1b[2J\x1b[31mred")

# The runner's registered commands (ActionCommandManager and its extensions).
COMMANDS = {"stop-commands", "set-env", "set-output", "save-state", "add-mask", "add-path", "debug", "notice",
            "warning", "error", "group", "endgroup", "echo", "add-matcher", "remove-matcher"}
# The runner reads lines with .NET's StreamReader.ReadLine: CR, LF and CRLF end a line.
LINE_END = re.compile(r"\r\n|\r|\n")
# Skipped before `::`: .NET's TrimStart takes white space, and its culture-aware StartsWith ignores format
# characters (soft hyphen, zero-width and bidirectional marks); counting both makes the test the stricter.
LEADING = re.compile(r"[\s\xad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]*")


def escaped(text: str) -> str:
    """How the project shows a value on one line (core/report_formats.plain): control characters and separators
    as escapes, `##[` as `##\\[`; written out here again so the tests do not check plain() against itself."""
    named = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
    text = re.sub(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]", lambda m: named.get(m.group()) or (
        f"\\x{ord(m.group()):02x}" if ord(m.group()) < 256 else f"\\u{ord(m.group()):04x}"), text)
    return text.replace("##[", "##\\[")


@dataclass
class Command:
    name: str
    properties: dict = field(default_factory=dict)
    data: str = ""


def lines(output: str) -> list[str]:
    return LINE_END.split(output)


def _unescape(text: str, pairs) -> str:
    for escaped, raw in pairs:
        text = text.replace(escaped, raw)
    return text


_DATA = (("%0D", "\r"), ("%0A", "\n"), ("%25", "%"))
_PROPERTY = (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%"))
_V1 = (("%3B", ";"), ("%0D", "\r"), ("%0A", "\n"), ("%5D", "]"), ("%25", "%"))


def parse(line: str) -> Command | None:
    """The command the runner finds in one line of output, or None."""
    message = line[LEADING.match(line).end():]
    if message.startswith("::"):
        end = message.find("::", 2)
        if end >= 0:
            info = message[2:end]
            name, _, properties = info.partition(" ")
            if name.lower() in COMMANDS:
                command = Command(name.lower())
                for pair in filter(None, properties.strip().split(",")):
                    key, equals, value = pair.partition("=")
                    if equals and key and value:
                        command.properties[key] = _unescape(value, _PROPERTY)
                command.data = _unescape(message[end + 2:], _DATA)
                return command
    start = line.find("##[")
    if start >= 0:
        close = line.find("]", start)
        if close >= 0:
            name = line[start + 3:close].split(" ")[0]
            if name.lower() in COMMANDS:
                return Command(name.lower(), {}, _unescape(line[close + 1:], _V1))
    return None


def commands(output: str) -> list[tuple[str, Command]]:
    """(line, command) for every line of `output` that the runner would obey."""
    found = []
    for line in lines(output):
        command = parse(line)
        if command is not None:
            found.append((line, command))
    return found

"""Reading .po files strictly: every line Babel would misread is a problem with its line number, nothing is skipped."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from babel.messages.pofile import unescape

from .plurals import catalog_plurals

SYNTAX_HINT = "fix the quoting or the keyword on that line (msgctxt/msgid/msgstr), or restore the file from git"
_KEYWORD = re.compile(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)[ \t]+(.*)")
# One string: no bare quote inside, every backslash escapes (written as runs of plain characters between
# escapes, which a regular expression matches much faster than one alternative per character).
_QUOTED = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_MESSAGE_LINE = re.compile(r'(?:(msgctxt|msgid_plural|msgid|msgstr)(?:\[(\d+)\])?[ \t]+)?("[^"\\]*(?:\\.[^"\\]*)*")')


class CatalogError(Exception):
    """A catalog file that cannot be read safely, with every problem found in it: [(line, problem, hint)]."""

    def __init__(self, path, problems: list[tuple[int, str, str]]):
        self.path, self.problems = path, problems
        self.line, self.message, self.hint = problems[0]
        super().__init__("; ".join(f"{path}:{line}: {message}" for line, message, _hint in problems))


@dataclass
class Entry:
    """One message as written in a .po file: read without Babel, for checking and for looking translations up.

    `id`, `string`, `context`, `fuzzy` and `lineno` mean what they mean on a Babel Message.
    """

    line: int  # where the entry starts (its msgctxt, else its msgid), for problem reports
    lineno: int  # the msgid line, as Babel numbers a message
    obsolete: bool
    context_parts: Optional[list[str]]
    id_parts: list[str]
    plural_parts: Optional[list[str]]
    string_parts: dict[int, list[str]]  # msgstr index (0 for a plain msgstr) -> its quoted pieces
    previous: Optional[list[str]]
    flags: set[str]
    # Read only when asked (scan(..., comments=True)), as Babel reads them: for rewriting the file.
    comments: Optional["Comments"] = None

    @property
    def context(self) -> Optional[str]:
        return "".join(self.context_parts) if self.context_parts is not None else None

    @property
    def id(self):
        singular = "".join(self.id_parts)
        return (singular, "".join(self.plural_parts)) if self.plural_parts is not None else singular

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags

    def key(self):
        return self.context if self.context_parts is not None else "".join(self.id_parts)

    def label(self) -> str:
        shown = " ".join(self.key().split())
        return repr(shown if len(shown) <= 60 else shown[:57] + "...")


@dataclass
class Comments:
    """The comment lines before a message, as Babel reads them: translator, extracted, locations, flags as written."""

    user: list = field(default_factory=list)
    auto: list = field(default_factory=list)
    locations: list = field(default_factory=list)  # (file, line or None)
    flags: list = field(default_factory=list)  # every name between commas, empty ones too


@dataclass
class CatalogEntries:
    """A catalog read for looking up and checking (no Babel objects): fast enough for every command."""

    messages: list  # active messages (reader.LookupEntry; Entry while scanning), header excluded, in file order
    obsolete: list
    num_plurals: int
    plural_expr: str

    def __iter__(self):
        return iter(self.messages)


def _finish(entry: Entry, num_plurals: int):
    """Give an entry its `string` the way Babel would: plural forms padded to the language's number."""
    if entry.plural_parts is None:
        entry.string = "".join(entry.string_parts.get(0, []))
    else:
        entry.string = tuple("".join(entry.string_parts.get(index, [])) for index in range(num_plurals))


# After "#": flags, a previous msgid, an obsolete message, a conflict line; any other marker is a plain comment.
_READ_COMMENT_MARKERS = (",", "|", "~", "-")
# msgcat's "#-#-#-#-#  file  #-#-#-#-#" lines: the msgstr below holds two files' translations run together.
CONFLICT = "a merge-conflict line (#-) cannot be read"
CONFLICT_HINT = ("keep the one translation you mean in the msgstr below it and delete the #-#-#-#-# lines "
                 "(or restore the file from git)")


class _Scanner:
    """Reads a .po text line by line into entries, noting every line Babel would read wrongly."""

    def __init__(self, comments: bool = False):
        self.comments = Comments() if comments else None  # the comments read since the last message
        self.entries: list[Entry] = []
        self.problems: list[tuple[int, str, str]] = []
        self.context: Optional[list[str]] = None
        self.context_line = 0
        self.previous: Optional[list[str]] = None
        self.flags: set[str] = set()
        self.target: Optional[list[str]] = None  # the string that quoted continuation lines extend
        self.previous_target: Optional[list[str]] = None
        self.closed = False  # a comment came after the last msgid: its msgstr cannot follow any more
        self.lost = False  # a line that is no msgctxt/msgid/msgstr came after the last msgid

    def line(self, number: int, raw: str):
        """Take one line of the file: a comment, a previous msgid, a keyword line or a continuation."""
        line = raw.strip()
        if not line:
            return
        if line[0] == "#":
            marker = line[1:2]
            if marker != "~":  # like Babel, any comment ends the message before it
                self.target, self.closed = None, True
                if marker == "-":  # refused by every command alike: check and i18n check as well as update
                    self.problems.append((number, CONFLICT, CONFLICT_HINT))
                elif self.comments is not None:
                    self._comment(number, line, marker)
            if marker == ",":
                self.flags.update(flag.strip() for flag in line[2:].split(",") if flag.strip())
                return
            if marker not in ("|", "~"):
                return  # translator, extracted and location comments
        obsolete = line.startswith("#~")
        if obsolete:
            line = line[2:].lstrip()
            if line.startswith("|"):  # `#~| msgid`: the previous msgid of an obsolete message
                line = "#" + line
        if line.startswith("#|"):
            self._previous_line(number, line[2:].lstrip())
            return
        parsed = self._parse(number, line)
        if parsed is not None:
            self._apply(number, obsolete, *parsed)
        else:
            self._lose()

    def _lose(self):
        """After a line reported as a problem, the lines up to the next message belong to it: no more problems."""
        self.target, self.lost = None, True
        if self.entries:
            self.entries[-1].string_parts.setdefault(0, [])  # nor "no msgstr" for the message it broke

    def _comment(self, number: int, line: str, marker: str):
        """Keep a comment line for the next message, as Babel reads it."""
        comments = self.comments
        if marker == ":":
            for location in line[2:].split():
                name, colon, number_text = location.rpartition(":")
                if not colon:
                    comments.locations.append((location, None))
                    continue
                try:
                    comments.locations.append((name, int(number_text)))
                except ValueError:  # Babel drops a location whose line is not a number
                    pass
        elif marker == ",":
            comments.flags.extend(flag.strip() for flag in line[2:].lstrip().split(","))
        elif marker == ".":
            if line[2:].strip():
                comments.auto.append(line[2:].strip())
        else:  # `#|` too: Babel keeps it as a translator comment (the reader drops it from messages)
            comments.user.append(line[1:].strip())

    def _previous_line(self, number: int, body: str):
        match = _KEYWORD.fullmatch(body)
        value = match.group(2) if match else body
        if not _QUOTED.fullmatch(value):
            self.problems.append((number, "a previous-msgid (#|) line is not one quoted string", SYNTAX_HINT))
            return
        if match:
            self.previous_target = [] if match.group(1) == "msgid" else None
            self.previous = self.previous_target if self.previous_target is not None else self.previous
        if self.previous_target is not None:
            self.previous_target.append(unescape(value))

    def _parse(self, number: int, line: str):
        """(keyword, msgstr index, text) of a message line; None for a line that is not one (a problem is noted)."""
        match = _MESSAGE_LINE.fullmatch(line)
        if match:
            keyword, index, value = match.groups()
            return keyword, index, value[1:-1] if "\\" not in value else unescape(value)
        match = _KEYWORD.fullmatch(line)  # say what is wrong with the line
        keyword, value = (match.group(1), match.group(2)) if match else (None, line)
        if not match and not line.startswith('"'):
            self.problems.append((number, f"{line[:40]!r} is neither a msgctxt/msgid/msgstr line nor a quoted string",
                                  SYNTAX_HINT))
            return None
        self.problems.append((number, f"{keyword or 'a continuation line'} must hold one string in double quotes "
                                      f"(write \\\" for a quote inside it): {value[:40]!r}", SYNTAX_HINT))
        keyword = keyword.split("[")[0] if keyword else None
        index = match.group(1)[7:-1] if keyword == "msgstr" and "[" in match.group(1) else None
        return keyword, index, ""

    def _apply(self, number: int, obsolete: bool, keyword: Optional[str], index: Optional[str], value: str):
        if keyword == "msgctxt":
            self.context, self.context_line = [value], number
            self.target, self.lost = self.context, False
        elif keyword == "msgid":
            entry = Entry(self.context_line if self.context is not None else number, number, obsolete, self.context,
                          [value], None, {}, self.previous, self.flags, self.comments)
            self.closed = self.lost = False
            if self.comments is not None:
                self.comments = Comments()
            self.entries.append(entry)
            self.context, self.previous, self.previous_target, self.flags = None, None, None, set()
            self.target = entry.id_parts
        elif self.lost:
            return
        elif keyword is None:
            if self.target is None:
                self.problems.append((number, "a quoted string before any msgctxt/msgid/msgstr", SYNTAX_HINT))
            else:
                self.target.append(value)
        elif not self.entries:
            self.problems.append((number, f"{keyword} before any msgid", SYNTAX_HINT))
        elif self.closed:  # Babel would give this text to the next message
            self.problems.append((number, f"a comment stands between this {keyword} and its msgid",
                                  "move the comment above the msgctxt/msgid line"))
            self._lose()
        elif keyword == "msgid_plural":
            self.entries[-1].plural_parts = self.target = [value]
        else:
            entry = self.entries[-1]
            if int(index or 0) in entry.string_parts:  # Babel keeps the first of a msgstr, the last of a msgstr[n]
                self.problems.append((number, f"a second {keyword}{f'[{index}]' if index else ''} for one msgid",
                                      "keep one translation and delete the other line"))
            entry.string_parts[int(index or 0)] = self.target = [value]


def _sort_entries(entries: list[Entry], header: Optional[Entry], num_plurals: int, problems: list) -> tuple[list, list]:
    """Active and obsolete entries, finished, with a problem for every duplicate and every extra plural form."""
    seen: dict[tuple, int] = {}
    active, retired = [], []
    for entry in entries:
        if entry is header:
            _finish(entry, num_plurals)
            continue
        first = seen.setdefault((entry.obsolete, entry.key()), entry.line)
        if first != entry.line:
            problems.append((entry.line, f"{entry.label()} appears twice (also at line {first}); both are kept "
                                         "until you choose", "merge the two translations into one entry and "
                                                             "delete the other"))
        if not entry.string_parts:
            problems.append((entry.lineno, f"{entry.label()} has no msgstr line", "add msgstr \"\" after it"))
        if entry.plural_parts is not None and any(index >= num_plurals for index in entry.string_parts):
            problems.append((entry.lineno, f"{entry.label()} has more translations than the {num_plurals} plural "
                                           "forms of its language", f"keep msgstr[0] to msgstr[{num_plurals - 1}]"))
        _finish(entry, num_plurals)
        (retired if entry.obsolete else active).append(entry)
    return active, retired


def scan(text: str, lang: str = "en", comments: bool = False) -> tuple[CatalogEntries, list[Entry],
                                                                       list[tuple[int, str, str]]]:
    """Every entry of a .po text and every line Babel would read wrongly (an unclosed quote, a stray word).

    Returns the catalog's messages, every entry as written (header and obsolete ones included) and the problems.
    `comments`: read each entry's comment lines too (`Entry.comments`), as rewriting the file needs them.
    """
    scanner = _Scanner(comments)
    skipped = () if comments else _READ_COMMENT_MARKERS
    take, apply, message_line = scanner.line, scanner._apply, _MESSAGE_LINE.fullmatch
    # A line ends at LF (CRLF too), as GNU gettext and Babel read a .po file: str.splitlines would also end one at
    # U+2028, NEL and other separators a rule text may hold, and refuse the catalog `i18n update` wrote for it.
    for number, raw in enumerate((text.replace("\r\n", "\n") if "\r" in text else text).split("\n"), start=1):
        # The two commonest kinds of line go straight through (a thousand catalogs are ~500,000 lines);
        # take() reads every other line, and these the same way.
        first = raw[:1]
        if first == "#":
            if skipped and raw[1:2] not in skipped:  # translator, extracted and location comments
                scanner.target, scanner.closed = None, True  # as take() would: the message before it is over
                continue
        elif first == "m" or first == '"':
            match = message_line(raw)  # a whole line that is already stripped: it starts and ends with no space
            if match:
                keyword, index, value = match.groups()
                apply(number, False, keyword, index, value[1:-1] if "\\" not in value else unescape(value))
                continue
        take(number, raw)
    entries, problems = scanner.entries, scanner.problems
    header = next((e for e in entries if e.context_parts is None and not "".join(e.id_parts) and not e.obsolete),
                  None)
    header_text = "".join(header.string_parts.get(0, [])) if header else None
    num_plurals, plural_expr = catalog_plurals(header_text, header.line if header else 0, lang, problems)
    active, retired = _sort_entries(entries, header, num_plurals, problems)
    return CatalogEntries(active, retired, num_plurals, plural_expr), entries, problems



"""Catalog files on disk: where they live, how they are read, and how an update keeps every translation."""

from __future__ import annotations

import functools
import gettext as stdlib_gettext
import io
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterable, Optional

from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import PoFileError, normalize, read_po, unescape, write_po

from ..problems import Problems
from ..repofiles import read_repository_bytes, repository_files
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


def existing_catalogs(root: Path, lang: str, problems: Optional[Problems] = None) -> list[str]:
    """The catalogs of a language; a .po file or folder linked from outside the checkout is a problem, not read."""
    found = repository_files(root, Path("translations") / lang, problems if problems is not None else Problems(),
                             (".po",))
    return sorted(catalog_name(root, lang, path) for path in found)


def message_key(message: Message):
    return message.context if message.context is not None else message.id


def message_label(message: Message) -> str:
    """How a problem names a message: its context and the start of its source text."""
    text = message.id[0] if isinstance(message.id, tuple) else message.id
    text = " ".join(str(text).split())
    shown = text if len(text) <= 50 else text[:47] + "..."
    return f"{message.context} {shown!r}" if message.context else repr(shown)


class CatalogError(Exception):
    """A catalog file that cannot be read safely, with every problem found in it: [(line, problem, hint)]."""

    def __init__(self, path, problems: list[tuple[int, str, str]]):
        self.path, self.problems = path, problems
        self.line, self.message, self.hint = problems[0]
        super().__init__("; ".join(f"{path}:{line}: {message}" for line, message, _hint in problems))


MAX_PLURAL_FORMS = 6  # CLDR's most (Arabic); a header asking for more is broken or hostile
MAX_PLURAL_RULE = 300  # characters in a `plural=` expression; real ones are under 150
PLURAL_PROBE = 1000  # counts 0…this are tried: every form the rule picks must exist
SYNTAX_HINT = "fix the quoting or the keyword on that line (msgctxt/msgid/msgstr), or restore the file from git"
_KEYWORD = re.compile(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)[ \t]+(.*)")
_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')  # one string: no bare quote inside, every backslash escapes
_PLURAL_FORMS = re.compile(r"^Plural-Forms:(.*)$", re.MULTILINE)
_PLURAL_RULE = re.compile(r"\s*nplurals\s*=\s*(\d{1,9})\s*;\s*plural\s*=\s*(.*?)\s*;?\s*")


@dataclass
class _Entry:
    """One message as written in the file, before Babel reads it: enough to check and to restore `#|`."""

    line: int
    obsolete: bool
    context: Optional[list[str]]
    msgid: list[str]
    previous: Optional[list[str]]
    msgstr: list[str]

    def key(self):
        return "".join(self.context) if self.context is not None else "".join(self.msgid)

    def label(self) -> str:
        shown = " ".join(self.key().split())
        return repr(shown if len(shown) <= 60 else shown[:57] + "...")


def _scan(text: str) -> tuple[list[_Entry], list[tuple[int, str, str]]]:
    """Every entry of a .po text and every line Babel would read wrongly (an unclosed quote, a stray word)."""
    entries: list[_Entry] = []
    problems: list[tuple[int, str, str]] = []
    context: Optional[list[str]] = None
    context_line = 0
    previous: Optional[list[str]] = None
    target: Optional[list[str]] = None  # the string that quoted continuation lines extend
    previous_target: Optional[list[str]] = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        obsolete = line.startswith("#~")
        if obsolete:
            line = line[2:].lstrip()
            if line.startswith("|"):  # `#~| msgid`: the previous msgid of an obsolete message
                line = "#" + line
        if line.startswith("#|"):
            body = line[2:].lstrip()
            match = _KEYWORD.fullmatch(body)
            value = match.group(2) if match else body
            if not _QUOTED.fullmatch(value):
                problems.append((number, "a previous-msgid (#|) line is not one quoted string", SYNTAX_HINT))
                continue
            if match:
                previous_target = [] if match.group(1) == "msgid" else None
                previous = previous_target if previous_target is not None else previous
            if previous_target is not None:
                previous_target.append(unescape(value))
            continue
        if not line or line.startswith("#"):
            continue
        match = _KEYWORD.fullmatch(line)
        keyword, value = (match.group(1), match.group(2)) if match else (None, line)
        if not match and not line.startswith('"'):
            problems.append((number, f"{line[:40]!r} is neither a msgctxt/msgid/msgstr line nor a quoted string",
                             SYNTAX_HINT))
            continue
        if not _QUOTED.fullmatch(value):
            problems.append((number, f"{keyword or 'a continuation line'} must hold one string in double quotes "
                                     f"(write \\\" for a quote inside it): {value[:40]!r}", SYNTAX_HINT))
            value = '""'
        value = unescape(value)
        if keyword == "msgctxt":
            context, context_line = [value], number
            target = context
        elif keyword == "msgid":
            entry = _Entry(context_line if context is not None else number, obsolete, context, [value], previous, [])
            entries.append(entry)
            context, previous, previous_target = None, None, None
            target = entry.msgid
        elif keyword is not None:
            target = entries[-1].msgstr if entries and keyword == "msgstr" else []
            target.append(value)
        elif target is None:
            problems.append((number, "a quoted string before any msgctxt/msgid/msgstr", SYNTAX_HINT))
        else:
            target.append(value)
    seen: dict[tuple, int] = {}
    for entry in entries:
        if entry.context is None and not "".join(entry.msgid):
            continue  # the header
        first = seen.setdefault((entry.obsolete, entry.key()), entry.line)
        if first != entry.line:
            problems.append((entry.line, f"{entry.label()} appears twice (also at line {first}); both are kept "
                                         "until you choose", "merge the two translations into one entry and "
                                                             "delete the other"))
    header = next((e for e in entries if e.context is None and not "".join(e.msgid) and not e.obsolete), None)
    forms = _PLURAL_FORMS.search("".join(header.msgstr)) if header else None
    problem = plural_problem(forms.group(1)) if forms else None
    if problem:
        problems.append((header.line, f"Plural-Forms: {problem}",
                         "copy the Plural-Forms line of your language from the GNU gettext manual or "
                         "translations/ru/ui.po"))
    return entries, problems


@functools.lru_cache(maxsize=32)
def plural_problem(header: str) -> Optional[str]:
    """None if a `Plural-Forms` value is safe to use, else what is wrong (every count gets an existing form)."""
    match = _PLURAL_RULE.fullmatch(header)
    if not match:
        return "must read `nplurals=N; plural=EXPRESSION;`"
    count, expression = int(match.group(1)), match.group(2)
    if not 1 <= count <= MAX_PLURAL_FORMS:
        return f"nplurals={count} is out of range (1 to {MAX_PLURAL_FORMS})"
    if len(expression) > MAX_PLURAL_RULE:
        return f"the plural expression is longer than {MAX_PLURAL_RULE} characters"
    try:
        rule = stdlib_gettext.c2py(expression)
    except (ValueError, SyntaxError, RecursionError, OverflowError) as error:
        return f"plural={expression[:60]!r} is not a C plural expression ({error})"
    for number in range(PLURAL_PROBE + 1):
        try:
            form = rule(number)
        except ZeroDivisionError:
            return f"plural={expression[:60]!r} divides by zero for n={number}"
        except (ArithmeticError, ValueError, TypeError, RecursionError) as error:
            return f"plural={expression[:60]!r} fails for n={number} ({error})"
        if not 0 <= form < count:
            return f"plural={expression[:60]!r} picks form {form} for n={number}, but there are only {count} forms"
    return None


def read_catalog(path: Path, lang: str, root: Optional[Path] = None) -> Catalog:
    """Read a .po file strictly: every syntax problem is an error, nothing is silently skipped or cut.

    With `root`, the file is read under the repository-file policy (generator/repofiles.py).
    """
    if root is not None:
        refused = Problems()
        data = read_repository_bytes(root, path, refused)
        if data is None:
            raise CatalogError(path, [(p.line, p.message, p.hint) for p in refused])
    else:
        data = Path(path).read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise CatalogError(path, [(data[:error.start].count(b"\n") + 1, f"not UTF-8 text ({error.reason})",
                                   "save the file as UTF-8")]) from None
    entries, problems = _scan(text)
    if problems:
        raise CatalogError(path, problems)
    # Babel reads `#~|` as a message line; as `#|` it is a comment, removed below.
    babel_text = re.sub(r"(?m)^(\s*)#~\|", r"\1#|", text) if "#~|" in text else text
    try:
        catalog = read_po(io.BytesIO(babel_text.encode("utf-8")), locale=lang, abort_invalid=True)
    except PoFileError as error:
        line = getattr(error, "lineno", 0)
        raise CatalogError(path, [(line, f"not a valid catalog: {error}", SYNTAX_HINT)]) from None
    except (UnknownLocaleError, ValueError) as error:
        raise CatalogError(path, [(0, f"cannot read: {error}", SYNTAX_HINT)]) from None
    previous = {(e.obsolete, e.key()): "".join(e.previous) for e in entries if e.previous}
    for obsolete, messages in ((False, list(catalog)), (True, list(catalog.obsolete.values()))):
        for message in messages:
            # Babel files `#|` lines as translator comments; they are not.
            message.user_comments = [c for c in message.user_comments if not c.startswith("|")]
            text_of_previous = previous.get((obsolete, message_key(message)))
            if text_of_previous:
                message.previous_id = [text_of_previous]
    return catalog


def new_catalog(lang: str, catalog: str) -> Catalog:
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
    active = {m.context: ([], m.previous_id[0]) for m in catalog
              if m.id and m.context is not None and m.previous_id and m.previous_id[0]}
    retired = {m.context: (sorted(m.flags), m.previous_id[0] if m.previous_id else "")
               for m in catalog.obsolete.values() if m.context is not None and (m.flags or m.previous_id)}
    if not active and not retired:
        return buffer.getvalue()
    lines = buffer.getvalue().decode("utf-8").split("\n")
    output = []
    for index, line in enumerate(lines):
        for prefix, wanted, marker in (("msgctxt ", active, "#|"), ("#~ msgctxt ", retired, "#~|")):
            if not line.startswith(prefix):
                continue
            continuation = prefix[:-len("msgctxt ")] + '"'
            parts = [unescape(line[len(prefix):])]
            following = index + 1
            while following < len(lines) and lines[following].startswith(continuation):
                parts.append(unescape(lines[following][len(continuation) - 1:]))
                following += 1
            flags, previous = wanted.get("".join(parts), ([], ""))
            if flags:
                output.append("#, " + ", ".join(flags))
            if previous:
                quoted = normalize(previous, width=LINE_WIDTH - 4).split("\n")
                output.append(f"{marker} msgid {quoted[0]}")
                output.extend(f"{marker} {part}" for part in quoted[1:])
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

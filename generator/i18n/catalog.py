"""Catalog files on disk: where they live, how they are read, and how an update keeps every translation."""

from __future__ import annotations

import functools
import gettext as stdlib_gettext
import io
import marshal
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterable, NamedTuple, Optional

from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog, Message
from babel.messages.plurals import get_plural
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
_MESSAGE_LINE = re.compile(r'(?:(msgctxt|msgid_plural|msgid|msgstr)(?:\[(\d+)\])?[ \t]+)?("(?:[^"\\]|\\.)*")')
_PLURAL_FORMS = re.compile(r"^Plural-Forms:(.*)$", re.MULTILINE)
_PLURAL_RULE = re.compile(r"\s*nplurals\s*=\s*(\d{1,9})\s*;\s*plural\s*=\s*(.*?)\s*;?\s*")


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
class CatalogEntries:
    """A catalog read for looking up and checking (no Babel objects): fast enough for every command."""

    messages: list  # active messages (LookupEntry; Entry while scanning), header excluded, in file order
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


def _scan(text: str, lang: str = "en") -> tuple[CatalogEntries, list[Entry], list[tuple[int, str, str]]]:
    """Every entry of a .po text and every line Babel would read wrongly (an unclosed quote, a stray word).

    Returns the catalog's messages, every entry as written (header and obsolete ones included) and the problems.
    """
    entries: list[Entry] = []
    problems: list[tuple[int, str, str]] = []
    context: Optional[list[str]] = None
    context_line = 0
    previous: Optional[list[str]] = None
    flags: set[str] = set()
    target: Optional[list[str]] = None  # the string that quoted continuation lines extend
    previous_target: Optional[list[str]] = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line[0] == "#":
            marker = line[1:2]
            if marker == ",":
                flags.update(flag.strip() for flag in line[2:].split(",") if flag.strip())
                continue
            if marker not in ("|", "~"):
                continue  # translator, extracted and location comments
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
        match = _MESSAGE_LINE.fullmatch(line)
        if match:
            keyword, index, value = match.groups()
            value = value[1:-1] if "\\" not in value else unescape(value)
        else:  # say what is wrong with the line
            match = _KEYWORD.fullmatch(line)
            keyword, value = (match.group(1), match.group(2)) if match else (None, line)
            if not match and not line.startswith('"'):
                problems.append((number, f"{line[:40]!r} is neither a msgctxt/msgid/msgstr line nor a quoted string",
                                 SYNTAX_HINT))
                continue
            problems.append((number, f"{keyword or 'a continuation line'} must hold one string in double quotes "
                                     f"(write \\\" for a quote inside it): {value[:40]!r}", SYNTAX_HINT))
            value, index = "", None
            keyword = keyword.split("[")[0] if keyword else None
            index = match.group(1)[7:-1] if keyword == "msgstr" and "[" in match.group(1) else None
        if keyword == "msgctxt":
            context, context_line = [value], number
            target = context
        elif keyword == "msgid":
            entry = Entry(context_line if context is not None else number, number, obsolete, context, [value], None,
                          {}, previous, flags)
            entries.append(entry)
            context, previous, previous_target, flags = None, None, None, set()
            target = entry.id_parts
        elif keyword is None:
            if target is None:
                problems.append((number, "a quoted string before any msgctxt/msgid/msgstr", SYNTAX_HINT))
            else:
                target.append(value)
        elif not entries:
            problems.append((number, f"{keyword} before any msgid", SYNTAX_HINT))
        elif keyword == "msgid_plural":
            entries[-1].plural_parts = target = [value]
        else:
            entries[-1].string_parts[int(index or 0)] = target = [value]
    header = next((e for e in entries if e.context_parts is None and not "".join(e.id_parts) and not e.obsolete),
                  None)
    forms = _PLURAL_FORMS.search("".join(header.string_parts.get(0, []))) if header else None
    problem = plural_problem(forms.group(1)) if forms else None
    if problem:
        problems.append((header.line, f"Plural-Forms: {problem}",
                         "copy the Plural-Forms line of your language from the GNU gettext manual or "
                         "translations/ru/ui.po"))
    if forms and not problem:
        match = _PLURAL_RULE.fullmatch(forms.group(1))
        num_plurals, plural_expr = int(match.group(1)), match.group(2)
    else:
        default = _default_plural(lang)
        num_plurals, plural_expr = default.num_plurals, default.plural_expr
    seen: dict[tuple, int] = {}
    active, retired = [], []
    for entry in entries:
        if entry is header:
            continue
        first = seen.setdefault((entry.obsolete, entry.key()), entry.line)
        if first != entry.line:
            problems.append((entry.line, f"{entry.label()} appears twice (also at line {first}); both are kept "
                                         "until you choose", "merge the two translations into one entry and "
                                                             "delete the other"))
        if entry.plural_parts is not None and any(index >= num_plurals for index in entry.string_parts):
            problems.append((entry.lineno, f"{entry.label()} has more translations than the {num_plurals} plural "
                                           "forms of its language", f"keep msgstr[0] to msgstr[{num_plurals - 1}]"))
        _finish(entry, num_plurals)
        (retired if entry.obsolete else active).append(entry)
    return CatalogEntries(active, retired, num_plurals, plural_expr), entries, problems


@functools.lru_cache(maxsize=None)
def _default_plural(lang: str):
    try:
        return get_plural(lang)
    except (UnknownLocaleError, ValueError):
        return get_plural("en")


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


def _read_bytes(path: Path, root: Optional[Path]) -> bytes:
    """A catalog's bytes; with `root`, read under the repository-file policy (generator/repofiles.py)."""
    if root is None:
        return Path(path).read_bytes()
    refused = Problems()
    data = read_repository_bytes(root, path, refused)
    if data is None:
        raise CatalogError(path, [(p.line, p.message, p.hint) for p in refused])
    return data


def _decode(path: Path, data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise CatalogError(path, [(data[:error.start].count(b"\n") + 1, f"not UTF-8 text ({error.reason})",
                                   "save the file as UTF-8")]) from None


def _plain_entries(path: Path, data: bytes, lang: str) -> tuple:
    """read_entries' answer as plain data (for the disk cache); CatalogError if the catalog has problems."""
    catalog, _entries, problems = _scan(_decode(path, data), lang)
    if problems:
        raise CatalogError(path, problems)

    def plain(entry: Entry) -> tuple:
        previous = "".join(entry.previous) if entry.previous is not None else None
        return entry.lineno, entry.context, entry.id, entry.string, entry.fuzzy, previous

    return (tuple(plain(e) for e in catalog.messages), tuple(plain(e) for e in catalog.obsolete),
            catalog.num_plurals, catalog.plural_expr)


class LookupEntry(NamedTuple):
    """A message as the site and the checks use it; the same attributes as a Babel Message, built cheaply."""

    lineno: int
    context: Optional[str]
    id: object  # str, or (singular, plural)
    string: object  # str, or one str per plural form
    fuzzy: bool
    previous: Optional[str]


def _previous_msgids(path: Path, data: bytes, lang: str) -> tuple:
    """((obsolete, key), previous msgid) for every message that has one; CatalogError if the catalog has problems."""
    _catalog, entries, problems = _scan(_decode(path, data), lang)
    if problems:
        raise CatalogError(path, problems)
    return tuple(((e.obsolete, e.key()), "".join(e.previous)) for e in entries if e.previous)


_CODE_VERSION: list[str] = []  # the version of the code that reads and writes catalogs, worked out once per process


def _code_version() -> str:
    if not _CODE_VERSION:
        import babel

        from ..diskcache import source_version

        _CODE_VERSION.append(source_version(__file__, extra=f"babel {babel.__version__}"))
    return _CODE_VERSION[0]


def cached_scan(kind: str, path: Path, data: bytes, lang: str, compute):
    """compute(path, data, lang), a pure function of the bytes, from the on-disk cache (generator/diskcache.py)."""
    from ..diskcache import cached

    return cached(kind, _code_version(), lang.encode("utf-8") + b"\0" + data, lambda: compute(path, data, lang))


def read_entries(path: Path, lang: str, root: Optional[Path] = None) -> CatalogEntries:
    """A catalog's messages for looking up and checking, read strictly (CatalogError lists every problem).

    The result for these exact bytes is kept in the on-disk cache: reading a thousand catalogs again
    costs a hash and a marshal load each.
    """
    messages, obsolete, num_plurals, plural_expr = cached_scan("catalog-entries", path, _read_bytes(path, root),
                                                               lang, _plain_entries)
    return CatalogEntries([LookupEntry._make(fields) for fields in messages],
                          [LookupEntry._make(fields) for fields in obsolete], num_plurals, plural_expr)


def read_catalog(path: Path, lang: str, root: Optional[Path] = None) -> Catalog:
    """Read a .po file strictly as a Babel catalog (for updating it): nothing is silently skipped or cut."""
    data = _read_bytes(path, root)
    # The strict scan's verdict and the previous msgids depend on the bytes alone: cached like read_entries.
    previous = dict(cached_scan("catalog-previous", path, data, lang, _previous_msgids))
    text = data.decode("utf-8")
    # Babel reads `#~|` as a message line; as `#|` it is a comment, removed below.
    babel_text = re.sub(r"(?m)^(\s*)#~\|", r"\1#|", text) if "#~|" in text else text
    try:
        catalog = read_po(io.BytesIO(babel_text.encode("utf-8")), locale=lang, abort_invalid=True)
    except PoFileError as error:
        line = getattr(error, "lineno", 0)
        raise CatalogError(path, [(line, f"not a valid catalog: {error}", SYNTAX_HINT)]) from None
    except (UnknownLocaleError, ValueError) as error:
        raise CatalogError(path, [(0, f"cannot read: {error}", SYNTAX_HINT)]) from None
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


def _plain_message(message: Message) -> tuple:
    """Everything about a message that its .po text shows (not its line number)."""
    return (message.id, message.string, message.context, tuple(message.locations), tuple(sorted(message.flags)),
            tuple(message.auto_comments), tuple(message.user_comments), tuple(message.previous_id or ()))


def render_catalog(catalog: Catalog) -> bytes:
    """The .po text of a catalog (see _render_catalog), from the on-disk cache when this exact content was
    rendered by this code before: `i18n update` with nothing to change re-renders a thousand catalogs."""
    from ..diskcache import cached

    content = (catalog.header_comment, tuple(_plain_message(m) for m in catalog),
               tuple(_plain_message(m) for m in catalog.obsolete.values()))
    try:
        key = marshal.dumps(content, 4)
    except ValueError:  # not plain data (never expected): render without the cache
        return _render_catalog(catalog)
    return cached("catalog-render", _code_version(), key, lambda: _render_catalog(catalog))


def _render_catalog(catalog: Catalog) -> bytes:
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

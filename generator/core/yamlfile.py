"""Read YAML as plain data while remembering the line of every key and item, bounded before it is trusted.

Policy: rules, glossaries and players' scenario files are plain data. Aliases (`*name`)
are refused rather than expanded, so a few hundred bytes cannot grow into gigabytes or loop forever;
nesting deeper than MAX_NESTING and files larger than MAX_YAML_BYTES are refused; the only tags are
the plain core ones (strings, numbers, true/false, null, lists, mappings) — anything else, explicit
(`!!python/object`, `!foo`) or implied (a date, a merge key `<<`), is refused rather than ignored.
Every refusal is a YamlError with a line and a hint, which readers turn into a Problem; the
bounds and the scans that find a breach live in generator/core/yamllimits.py.

libyaml's C parser composes the nodes when PyYAML has it (about ten times faster, with the same
marks); otherwise the pure-Python one does the same job.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from yaml.constructor import SafeConstructor

from .cache import cached
from .problems import Problems
from .repofiles import read_repository_text, shown_path
from .yamllimits import MAX_NESTING, YamlError, refuse_aliases, refuse_deep_brackets, too_deep, too_deep_error

MAX_YAML_BYTES = 1_000_000  # the largest rule file is about 33 KB; a megabyte is room enough for any rule
FAST_BASE = getattr(yaml, "CSafeLoader", None)  # libyaml's parser, when PyYAML was built with it
PLAIN_TAG_CACHE_LENGTH = 40  # plain scalars up to this long have their resolved tag remembered

_CORE = "tag:yaml.org,2002:"
SCALAR_TAGS = {_CORE + kind for kind in ("str", "int", "float", "bool", "null")}
SEQUENCE_TAG, MAPPING_TAG = _CORE + "seq", _CORE + "map"
PLAIN_DATA_HINT = "only plain values, lists and mappings are allowed: remove the tag"


class YamlDocument:
    """Plain data from one file, with the line where each part of it starts.

    The map of lines may be left to be made from `text` when first asked for: most files never
    have a problem to report, so the cached path keeps only their data.
    """

    def __init__(self, data: object, lines: dict[tuple, int] | None = None, text: str | None = None):
        self.data = data
        self._lines = lines
        self._text = text

    @property
    def lines(self) -> dict[tuple, int]:
        if self._lines is None:
            self._lines = _cached_lines(self._text) if self._text is not None else {}
        return self._lines

    def line(self, path) -> int:
        """The line of the deepest known part of `path` (1-based; 1 if nothing matches)."""
        lines = self.lines
        path = tuple(path)
        while path:
            if path in lines:
                return lines[path]
            path = path[:-1]
        return lines.get((), 1)


def _line(node) -> int:
    return node.start_mark.line + 1


def _tag_problem(node, kind: str) -> YamlError:
    tag = node.tag
    if tag == _CORE + "timestamp":
        return YamlError(f"{node.value!r} reads as a date, which is not plain text", _line(node),
                         "put it in quotes if it is text")
    if tag == _CORE + "merge":
        return YamlError("merge keys (<<) are not allowed", _line(node), "write the keys out in full")
    shown = "!!" + tag[len(_CORE):] if tag.startswith(_CORE) else tag
    return YamlError(f"the tag {shown} is not allowed on a {kind}", _line(node), PLAIN_DATA_HINT)


_PLAIN_VALUES: dict[tuple[str, str], object] = {}  # (tag, text) -> the immutable value it reads as, per process
_STR_TAG = _CORE + "str"
_SCALAR_NODE, _SEQUENCE_NODE, _MAPPING_NODE = yaml.ScalarNode, yaml.SequenceNode, yaml.MappingNode


def _scalar(loader, node):
    """A scalar's plain value: its text, or a number, a boolean or null built once per spelling."""
    tag = node.tag
    if tag == _STR_TAG:
        return node.value
    known = _PLAIN_VALUES.get((tag, node.value))
    if known is not None:
        return known
    if tag not in SCALAR_TAGS:
        raise _tag_problem(node, "value")
    value = SafeConstructor.yaml_constructors[tag](loader, node)
    if len(node.value) <= PLAIN_TAG_CACHE_LENGTH and value is not None:
        _PLAIN_VALUES[(tag, node.value)] = value
    return value


def _key(loader, key_node):
    """A mapping key's plain value; YamlError if the key is itself a list or a mapping."""
    if key_node.__class__ is not _SCALAR_NODE:
        raise YamlError("a mapping key must be a plain value", _line(key_node))
    return _scalar(loader, key_node)


def _data(loader, node, depth: int = 0):
    """Plain data from a node graph with no aliases (refused beforehand), refusing odd tags, repeated keys and
    nesting past MAX_NESTING.

    A scalar, most of the nodes, is read where its list or mapping meets it, not through another level of the walk.
    """
    if node.__class__ is _SCALAR_NODE:
        return _scalar(loader, node)
    if depth >= MAX_NESTING:
        raise too_deep(_line(node))
    if node.__class__ is _SEQUENCE_NODE:
        if node.tag != SEQUENCE_TAG:
            raise _tag_problem(node, "list")
        return [_scalar(loader, item) if item.__class__ is _SCALAR_NODE else _data(loader, item, depth + 1)
                for item in node.value]
    if node.tag != MAPPING_TAG:
        raise _tag_problem(node, "mapping")
    result = {}
    for key_node, value_node in node.value:
        key = _key(loader, key_node)
        if key in result:
            raise YamlError(
                f"key {key!r} appears twice in the same mapping", _line(key_node),
                "remove or rename one of them (YAML would silently keep only the last)")
        result[key] = _scalar(loader, value_node) if value_node.__class__ is _SCALAR_NODE else \
            _data(loader, value_node, depth + 1)
    return result


def _note_lines(loader, node, path: tuple, lines: dict[tuple, int]) -> dict[tuple, int]:
    """Add the line of every key and item under `node` (which _data accepted) to `lines`, by its path."""
    if node.__class__ is _SEQUENCE_NODE:
        for index, item in enumerate(node.value):
            child = path + (index,)
            lines[child] = _line(item)
            if item.__class__ is not _SCALAR_NODE:
                _note_lines(loader, item, child, lines)
    elif node.__class__ is _MAPPING_NODE:
        for key_node, value_node in node.value:
            child = path + (_key(loader, key_node),)
            lines[child] = _line(key_node)
            if value_node.__class__ is not _SCALAR_NODE:
                _note_lines(loader, value_node, child, lines)
    return lines


class PureLoader(yaml.SafeLoader):
    """PyYAML's pure-Python safe loader (the fallback)."""


FastLoader = type("FastLoader", (FAST_BASE,), {"__doc__": "libyaml's safe loader."}) if FAST_BASE else None
LOADER = FastLoader or PureLoader  # tests set this to PureLoader to exercise the fallback


def parse_yaml(text: str, with_lines: bool = True) -> YamlDocument:
    """Parse one YAML document into plain data and a map of lines; raise YamlError if it is broken or refused.

    Without `with_lines` the map is made from the text again only if it is asked for.
    """
    if len(text) > MAX_YAML_BYTES:
        raise YamlError(f"the file is larger than {MAX_YAML_BYTES:,} characters", 1,
                        "split it into smaller files (one rule per file)")
    if LOADER is PureLoader:
        refuse_deep_brackets(text)
    if "&" in text:  # without an anchor there can be no alias; with one, refuse any alias before composing
        refuse_aliases(text, LOADER)
    loader = LOADER(text)
    try:
        try:
            node = loader.get_single_node()
        except RecursionError:  # the pure-Python composer recurses once per level
            raise too_deep_error(text, LOADER) from None
        if node is None:
            return YamlDocument(data=None, lines={(): 1})
        data = _data(loader, node)
        lines = _note_lines(loader, node, (), {(): _line(node)}) if with_lines else None
        return YamlDocument(data, lines, text)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark else 1
        message = " ".join(part for part in (error.context, error.problem) if part)
        if "maximum nesting depth" in message:  # libyaml's own limit (1,000 levels): find where ours was passed
            raise too_deep_error(text, LOADER, line) from None
        raise YamlError(f"not valid YAML: {message}", line,
                        "check the indentation and quoting on this line and the one before") from None
    except yaml.YAMLError as error:
        raise YamlError(f"not valid YAML: {error}", 1) from None
    except (ValueError, OverflowError) as error:  # a scalar the core constructors refuse (e.g. an odd float)
        raise YamlError(f"not a plain value: {error}", 1) from None
    finally:
        loader.dispose()


def _cached_lines(text: str) -> dict[tuple, int]:
    """parse_yaml's map of lines for text it parsed before, from the on-disk cache like the data (i18n commands
    name a line for every message, and parsing every file again for it is slow)."""
    return cached(_kind("yaml-lines"), text.encode("utf-8"), lambda: parse_yaml(text).lines)


def _kind(name: str) -> str:
    """A cache kind per loader: libyaml's and the pure-Python loader's results are kept apart."""
    return f"{name}:{LOADER.__name__}"


def parse_yaml_cached(text: str, with_lines: bool = False) -> YamlDocument:
    """parse_yaml, answered from the on-disk cache when these exact characters were parsed by this code before.

    `with_lines` is for a caller that will ask for the line of every part (`i18n update` names each
    message's line): when the text has to be parsed, its map of lines is made and kept in the same pass.
    """
    made: list[YamlDocument] = []

    def parse():
        made.append(parse_yaml(text, with_lines=with_lines))
        return made[0].data

    data = cached(_kind("yaml"), text.encode("utf-8"), parse)
    if made and with_lines:
        lines = made[0].lines
        cached(_kind("yaml-lines"), text.encode("utf-8"), lambda: lines)
        return YamlDocument(data, lines, text)
    return YamlDocument(data, text=text)


def read_yaml(path: Path) -> YamlDocument:
    """Parse the YAML file at `path` (at most MAX_YAML_BYTES); raise YamlError if it is broken or refused."""
    with open(path, "rb") as handle:
        data = handle.read(MAX_YAML_BYTES + 1)
    if len(data) > MAX_YAML_BYTES:
        raise YamlError(f"the file is larger than {MAX_YAML_BYTES:,} bytes", 1,
                        "split it into smaller files (one rule per file)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise YamlError(f"not UTF-8 text ({error.reason})", data[:error.start].count(b"\n") + 1,
                        "save the file as UTF-8") from None
    return parse_yaml_cached(text)


def read_document(root: Path, path: Path, problems: Problems, subject: str = "",
                  with_lines: bool = False) -> YamlDocument | None:
    """Read one repository YAML file (inside the checkout, bounded); None with a problem if it cannot be used.

    `with_lines`: see parse_yaml_cached."""
    text = read_repository_text(root, path, problems, subject, limit=MAX_YAML_BYTES)
    if text is None:
        return None
    try:
        return parse_yaml_cached(text, with_lines)
    except YamlError as error:
        problems.add(shown_path(path, root), error.line, subject, error.message, error.hint)
        return None

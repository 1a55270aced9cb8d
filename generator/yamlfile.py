"""Read YAML as plain data while remembering the line of every key and item, bounded before it is trusted.

Policy (issue 9.3): rules, glossaries and players' scenario files are plain data. Aliases (`*name`)
are refused rather than expanded, so a few hundred bytes cannot grow into gigabytes or loop forever;
nesting deeper than MAX_NESTING and files larger than MAX_YAML_BYTES are refused; the only tags are
the plain core ones (strings, numbers, true/false, null, lists, mappings) — anything else, explicit
(`!!python/object`, `!foo`) or implied (a date, a merge key `<<`), is refused rather than ignored.
Every refusal is a YamlError with a line and a hint, which readers turn into a Problem.

libyaml's C parser composes the nodes when PyYAML has it (about ten times faster, with the same
marks); otherwise the pure-Python one does the same job.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml
from yaml.constructor import SafeConstructor

from .problems import Problems

MAX_YAML_BYTES = 1_000_000  # the largest rule file is about 33 KB; a megabyte is room enough for any rule
MAX_NESTING = 32  # rules nest about 6 levels deep; 32 leaves room for nested lists in worked examples
FAST_LOADER = getattr(yaml, "CSafeLoader", None)  # libyaml's parser, when PyYAML was built with it
LOADER = FAST_LOADER or yaml.SafeLoader  # tests set this to yaml.SafeLoader to exercise the fallback

_CORE = "tag:yaml.org,2002:"
SCALAR_TAGS = {_CORE + kind for kind in ("str", "int", "float", "bool", "null")}
SEQUENCE_TAG, MAPPING_TAG = _CORE + "seq", _CORE + "map"
PLAIN_DATA_HINT = "only plain values, lists and mappings are allowed: remove the tag"


@dataclass
class YamlDocument:
    """Plain data from one file, with the line where each part of it starts."""

    data: object
    lines: dict[tuple, int] = field(default_factory=dict)

    def line(self, path) -> int:
        """The line of the deepest known part of `path` (1-based; 1 if nothing matches)."""
        path = tuple(path)
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return self.lines.get((), 1)


class YamlError(Exception):
    """A file that is not valid YAML, repeats a key, or goes beyond what plain data may hold."""

    def __init__(self, message: str, line: int, hint: str = ""):
        self.message, self.line, self.hint = message, line, hint
        super().__init__(f"line {line}: {message}")


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


class _Builder:
    """Turns a composed node graph into plain data and a line map, refusing what plain data may not hold."""

    def __init__(self, loader, text: str):
        self.loader, self.text = loader, text
        self.lines: dict[tuple, int] = {}
        self.seen: set[int] = set()  # every node built so far: meeting one again means an alias

    def visit(self, node):
        if id(node) in self.seen:
            raise _alias_error(self.text)
        self.seen.add(id(node))

    def scalar(self, node):
        if node.tag not in SCALAR_TAGS:
            raise _tag_problem(node, "value")
        if node.tag == _CORE + "str":
            return node.value
        return SafeConstructor.yaml_constructors[node.tag](self.loader, node)

    def build(self, node, path: tuple, depth: int):
        self.visit(node)
        self.lines.setdefault(path, _line(node))
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node)
        if depth >= MAX_NESTING:
            raise YamlError(f"lists and mappings are nested more than {MAX_NESTING} levels deep", _line(node),
                            "flatten the data")
        if isinstance(node, yaml.SequenceNode):
            if node.tag != SEQUENCE_TAG:
                raise _tag_problem(node, "list")
            return [self.build(item, path + (index,), depth + 1) for index, item in enumerate(node.value)]
        if node.tag != MAPPING_TAG:
            raise _tag_problem(node, "mapping")
        result = {}
        for key_node, value_node in node.value:
            self.visit(key_node)
            if not isinstance(key_node, yaml.ScalarNode):
                raise YamlError("a mapping key must be a plain value", _line(key_node))
            key = self.scalar(key_node)
            if key in result:
                raise YamlError(
                    f"key {key!r} appears twice in the same mapping", _line(key_node),
                    "remove or rename one of them (YAML would silently keep only the last)")
            child = path + (key,)
            self.lines[child] = _line(key_node)
            result[key] = self.build(value_node, child, depth + 1)
        return result


def _events(loader):
    while loader.check_event():
        yield loader.get_event()


def _alias_error(text: str) -> YamlError:
    """The first alias in `text`, found again by scanning its events (only ever on this error path)."""
    line, name = 1, ""
    loader = LOADER(text)
    try:
        for event in _events(loader):
            if isinstance(event, yaml.AliasEvent):
                line, name = event.start_mark.line + 1, event.anchor
                break
    finally:
        loader.dispose()
    return YamlError(f"the alias *{name} repeats another part of the file; aliases are not allowed", line,
                     "write the value out in full where it is used (and drop the &anchor)")


def _too_deep_error(text: str) -> YamlError:
    """Where `text` first nests deeper than MAX_NESTING, found by scanning events without recursion."""
    depth = 0
    loader = LOADER(text)
    try:
        for event in _events(loader):
            if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                depth += 1
                if depth > MAX_NESTING:
                    return YamlError(f"lists and mappings are nested more than {MAX_NESTING} levels deep",
                                     event.start_mark.line + 1, "flatten the data")
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                depth -= 1
    finally:
        loader.dispose()
    return YamlError("the file nests too deeply to read", 1, "flatten the data")


def parse_yaml(text: str) -> YamlDocument:
    """Parse one YAML document into plain data and a map of lines; raise YamlError if it is broken or refused."""
    if len(text) > MAX_YAML_BYTES:
        raise YamlError(f"the file is larger than {MAX_YAML_BYTES:,} characters", 1,
                        "split it into smaller files (one rule per file)")
    loader = LOADER(text)
    try:
        try:
            node = loader.get_single_node()
        except RecursionError:  # the pure-Python composer recurses once per level
            raise _too_deep_error(text) from None
        if node is None:
            return YamlDocument(data=None, lines={(): 1})
        builder = _Builder(loader, text)
        data = builder.build(node, (), 0)
        return YamlDocument(data=data, lines=builder.lines)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark else 1
        message = " ".join(part for part in (error.context, error.problem) if part)
        if "maximum nesting depth" in message:  # libyaml's own limit (1,000 levels)
            raise YamlError(f"lists and mappings are nested more than {MAX_NESTING} levels deep", line,
                            "flatten the data") from None
        raise YamlError(f"not valid YAML: {message}", line,
                        "check the indentation and quoting on this line and the one before") from None
    except yaml.YAMLError as error:
        raise YamlError(f"not valid YAML: {error}", 1) from None
    except (ValueError, OverflowError) as error:  # a scalar the core constructors refuse (e.g. an odd float)
        raise YamlError(f"not a plain value: {error}", 1) from None
    finally:
        loader.dispose()


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
    return parse_yaml(text)


def read_document(root: Path, path: Path, problems: Problems, subject: str = "") -> YamlDocument | None:
    """Read one repository YAML file (inside the checkout, bounded); None with a problem if it cannot be used."""
    from .repofiles import read_repository_text, shown_path

    text = read_repository_text(root, path, problems, subject, limit=MAX_YAML_BYTES)
    if text is None:
        return None
    try:
        return parse_yaml(text)
    except YamlError as error:
        problems.add(shown_path(path, root), error.line, subject, error.message, error.hint)
        return None

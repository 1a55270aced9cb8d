"""Read YAML as plain data while remembering the line of every key and item."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml



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
    """A file that is not valid YAML, or repeats a key."""

    def __init__(self, message: str, line: int, hint: str = ""):
        self.message, self.line, self.hint = message, line, hint
        super().__init__(f"line {line}: {message}")


def _construct(node, path, lines, loader):
    lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        result = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            if isinstance(key, (list, dict)):
                raise YamlError("a mapping key must be a plain value", key_node.start_mark.line + 1)
            if key in result:
                raise YamlError(
                    f"key {key!r} appears twice in the same mapping", key_node.start_mark.line + 1,
                    "remove or rename one of them (YAML would silently keep only the last)")
            child = path + (key,)
            lines[child] = key_node.start_mark.line + 1
            result[key] = _construct(value_node, child, lines, loader)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_construct(item, path + (index,), lines, loader) for index, item in enumerate(node.value)]
    return loader.construct_object(node, deep=True)


def parse_yaml(text: str) -> YamlDocument:
    """Parse one YAML document into plain data and a map of lines; raise YamlError if it is broken."""
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return YamlDocument(data=None, lines={(): 1})
        lines: dict[tuple, int] = {}
        data = _construct(node, (), lines, loader)
        return YamlDocument(data=data, lines=lines)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark else 1
        message = " ".join(part for part in (error.context, error.problem) if part)
        raise YamlError(f"not valid YAML: {message}", line,
                        "check the indentation and quoting on this line and the one before") from None
    except yaml.YAMLError as error:
        raise YamlError(f"not valid YAML: {error}", 1) from None
    finally:
        loader.dispose()


def read_yaml(path: Path) -> YamlDocument:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise YamlError(f"not UTF-8 text ({error.reason})", 1, "save the file as UTF-8") from None
    return parse_yaml(text)

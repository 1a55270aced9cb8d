"""The bounds on YAML input and how a breach is found and reported, without composing the file.

Aliases are refused before anything is composed; nesting deeper than MAX_NESTING is refused with the
line where it happens, found by scanning events (no recursion); a rough bracket count keeps the
pure-Python scanner away from thousands of nested flow levels. `loader_class` is the PyYAML loader
in use (libyaml's or the pure-Python one, see generator/core/yamlfile.py).
"""

from __future__ import annotations

import re

import yaml

MAX_NESTING = 32  # rules nest about 6 levels deep; 32 leaves room for nested lists in worked examples


class YamlError(Exception):
    """A file that is not valid YAML, repeats a key, or goes beyond what plain data may hold."""

    def __init__(self, message: str, line: int, hint: str = ""):
        self.message, self.line, self.hint = message, line, hint
        super().__init__(f"line {line}: {message}")


def _events(loader):
    while loader.check_event():
        yield loader.get_event()


def refuse_aliases(text: str, loader_class):
    """Raise YamlError at the first alias in `text`, found by scanning its events (nothing is composed)."""
    loader = loader_class(text)
    try:
        for event in _events(loader):
            if isinstance(event, yaml.AliasEvent):
                raise YamlError(f"the alias *{event.anchor} repeats another part of the file; aliases are not allowed",
                                event.start_mark.line + 1,
                                "write the value out in full where it is used (and drop the &anchor)")
    except yaml.YAMLError:
        pass  # a syntax error is reported with its line by the parse that follows
    finally:
        loader.dispose()


_BRACKET = re.compile(r"[\[\]{}]")
BRACKET_SLACK = 4  # brackets in prose ("[[wap/dodge]]") count too, so the rough count gets this much headroom


def refuse_deep_brackets(text: str):
    """Refuse flow nesting far past MAX_NESTING before the pure-Python scanner, slow on it, ever sees it.

    libyaml refuses deep nesting itself; the pure scanner takes seconds on a few thousand levels.
    Brackets inside quotes or prose are counted too, so the bound is generous (BRACKET_SLACK times the limit).
    """
    depth = 0
    for match in _BRACKET.finditer(text):
        depth = depth + 1 if match.group() in "[{" else max(depth - 1, 0)
        if depth > MAX_NESTING * BRACKET_SLACK:
            raise too_deep(text.count("\n", 0, match.start()) + 1)


def too_deep(line: int) -> YamlError:
    return YamlError(f"lists and mappings are nested more than {MAX_NESTING} levels deep", line, "flatten the data")


def too_deep_error(text: str, loader_class, line: int = 1) -> YamlError:
    """Where `text` first nests deeper than MAX_NESTING, found by scanning events without recursion.

    `line` is used when the scan cannot tell (libyaml refuses a deep flow collection before any event).
    """
    depth = 0
    loader = loader_class(text)
    try:
        for event in _events(loader):
            if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                depth += 1
                if depth > MAX_NESTING:
                    return too_deep(event.start_mark.line + 1)
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                depth -= 1
    except yaml.YAMLError:
        pass
    finally:
        loader.dispose()
    return too_deep(line)

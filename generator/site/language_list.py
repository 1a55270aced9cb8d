"""Add a language to, or take one from, mkdocs.yml's `extra.kb_languages`, keeping every other line as written.

Decision: the list is edited as text, one `- {code: xx, name: …}` line per language, so the file's comments
and layout survive; the result is read back as YAML and must give exactly the old list plus (or minus) the one
entry, or nothing is written and the caller is told to edit the line by hand.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from babel import Locale

from .inputs import CONFIG
from .mkdocs_config import read_languages

_LIST_KEY = re.compile(r"^(?P<indent>\s*)kb_languages:\s*(#.*)?$")


class LanguageListError(Exception):
    """mkdocs.yml's language list could not be edited safely (the message says what to do instead)."""


def native_name(code: str) -> str:
    """The language's name in itself, as a reader looks for it in the menu (Babel's CLDR data: de → Deutsch)."""
    name = Locale.parse(code).get_display_name(code) or code
    return name[:1].upper() + name[1:]


def add_language(root: Path, code: str, name: str | None = None) -> bool:
    """Append `code` to the configured languages; False if it is configured already."""
    if code in [entry["code"] for entry in read_languages(root)]:
        return False
    text, lines, _start, last = _list_lines(root)
    indent = re.match(r"\s*", lines[last]).group()
    entry = f"{indent}- {{code: {code}, name: {_quoted(name or native_name(code))}}}"
    _write_checked(root, text, lines[:last + 1] + [entry] + lines[last + 1:],
                   read_languages(root) + [{"code": code, "name": name or native_name(code)}])
    return True


def remove_language(root: Path, code: str) -> bool:
    """Take `code` out of the configured languages (its catalogs stay); False if it was not configured."""
    before = read_languages(root)
    if code not in [entry["code"] for entry in before]:
        return False
    if len(before) == 1:
        raise LanguageListError(f"{code} is the site's only language; a site needs one")
    text, lines, start, last = _list_lines(root)
    kept = [line for index, line in enumerate(lines) if not (start < index <= last and _names(line, code))]
    _write_checked(root, text, kept, [entry for entry in before if entry["code"] != code])
    return True


def _list_lines(root: Path) -> tuple[str, list[str], int, int]:
    """mkdocs.yml's text, its lines, and the indexes of the `kb_languages:` line and of the list's last entry."""
    text = (Path(root) / CONFIG).read_text(encoding="utf-8")
    lines = text.splitlines()
    start = next((index for index, line in enumerate(lines) if _LIST_KEY.match(line)), None)
    if start is None:
        raise LanguageListError(f"{CONFIG} has no kb_languages list under extra")
    last = start
    for index in range(start + 1, len(lines)):
        stripped = lines[index].strip()
        if stripped.startswith("- "):
            last = index
        elif not (stripped.startswith("#") and last == start):  # comments may stand above the first entry
            break
    if last == start:
        raise LanguageListError(f"{CONFIG}: kb_languages is not a list of '- {{code: …, name: …}}' lines")
    return text, lines, start, last


def _names(line: str, code: str) -> bool:
    """Whether a line is the one-line list entry of `code`."""
    stripped = line.strip()
    if not stripped.startswith("- {"):
        return False
    try:
        entry = yaml.safe_load(stripped[2:])
    except yaml.YAMLError:
        return False
    return isinstance(entry, dict) and entry.get("code") == code


def _quoted(name: str) -> str:
    """The name as a YAML flow scalar (quoted when plain YAML would read it otherwise)."""
    return name if yaml.safe_load(f"{{name: {name}}}") == {"name": name} else '"' + name.replace('"', '\\"') + '"'


def _write_checked(root: Path, text: str, lines: list[str], wanted: list[dict]) -> None:
    """Write the edited lines only if they read back as exactly the wanted language list."""
    edited = "\n".join(lines) + ("\n" if text.endswith("\n") else "")
    if read_languages(root, yaml.safe_load(edited) or {}) != wanted:
        raise LanguageListError(f"{CONFIG}: the language list is not laid out one entry a line; edit it by hand")
    (Path(root) / CONFIG).write_text(edited, encoding="utf-8")

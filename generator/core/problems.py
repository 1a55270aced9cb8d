"""Problems found in the input, collected so that every one is reported before anything fails."""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from .report_formats import plain


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with one input file, with where it is and how to fix it."""

    file: str
    line: int
    subject: str  # the rule key, catalog message or term the problem belongs to
    message: str
    hint: str = ""

    def __str__(self) -> str:
        """`file:line: subject: message — hint` on one line: each part read from a file is shown through plain()."""
        where = f"{plain(self.file)}:{self.line}" if self.line else plain(self.file)
        text = f"{where}: {plain(self.subject)}: {plain(self.message)}" if self.subject else \
            f"{where}: {plain(self.message)}"
        return f"{text} — {plain(self.hint)}" if self.hint else text


@dataclass
class Problems:
    """An ordered collection of problems; nothing is written while it is not empty."""

    items: list[Problem] = field(default_factory=list)

    def add(self, file, line, subject, message, hint=""):
        self.items.append(Problem(str(file), int(line or 0), subject or "", message, hint))

    def extend(self, other: "Problems | Iterable[Problem]"):
        self.items.extend(other.items if isinstance(other, Problems) else other)

    def __bool__(self):
        return bool(self.items)

    def __len__(self):
        return len(self.items)

    def __iter__(self):
        return iter(sorted(set(self.items)))

    def report(self) -> str:
        return "\n".join(str(problem) for problem in self)


class InputError(Exception):
    """Raised with every problem found, once the whole input has been read."""

    def __init__(self, problems: Problems):
        self.problems = problems
        super().__init__(problems.report())


def relative(path: Path, root: Path) -> str:
    """`path` relative to `root`, symlinks followed in both (as Path.resolve and relative_to make it); `path` as
    given if it lies elsewhere."""
    real, real_root = os.path.realpath(path), followed_root(root)
    if real == real_root:
        return "."
    prefix = real_root if real_root.endswith(os.sep) else real_root + os.sep
    return real[len(prefix):] if real.startswith(prefix) else str(path)


def followed_root(root) -> str:
    """A repository root with symlinks followed: asked for every file read and every problem, and worked out once
    per root, because the user chooses where the checkout lies and nothing in it can move it."""
    return _followed(os.path.abspath(root))


@functools.lru_cache(maxsize=64)
def _followed(root: str) -> str:
    return os.path.realpath(root)

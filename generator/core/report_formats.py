"""How problems are printed: plain `file:line: …` lines, and GitHub workflow annotations beside them."""

from __future__ import annotations

import os
from typing import Iterable, Optional

PLAIN, GITHUB = "plain", "github"
FORMATS = (PLAIN, GITHUB)
ERROR, WARNING = "error", "warning"


def chosen_format(requested: Optional[str], environ=None) -> str:
    """An explicit --format wins; under GitHub Actions (GITHUB_ACTIONS=true) annotations are added by default."""
    if requested:
        return requested
    environ = os.environ if environ is None else environ
    return GITHUB if environ.get("GITHUB_ACTIONS") == "true" else PLAIN


def escape_data(text: str) -> str:
    """A workflow command's message: %, CR and LF are percent-encoded (GitHub's workflow-command rules)."""
    return str(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A workflow command's property value: as a message, and also `:` and `,`, which end a property."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(level: str, file: str, line: int, title: str, message: str) -> str:
    """One `::error file=…,line=…,title=…::message` line; line 0 (a whole file) leaves `line` out."""
    properties = [f"file={escape_property(file)}"]
    if line:
        properties.append(f"line={int(line)}")
    if title:
        properties.append(f"title={escape_property(title)}")
    return f"::{level} {','.join(properties)}::{escape_data(message)}"


def problem_annotation(problem, level: str = ERROR) -> str:
    """A Problem as an annotation: its subject is the title, its message and hint the text."""
    text = f"{problem.message} — {problem.hint}" if problem.hint else problem.message
    return annotation(level, problem.file, problem.line, problem.subject or problem.file, text)


def outcome_annotation(outcome) -> str:
    """A failing worked example as an annotation on the line where the example is written."""
    case = outcome.case
    detail = outcome.error or f"expected {case.expect!r}, got {outcome.got!r}"
    return annotation(ERROR, case.file, case.line, f"example {case.test_id} fails", detail)


def print_problems(problems: Iterable, output_format: str, level: str = ERROR, stream=None):
    """Print each problem as its plain line and, in the GitHub format, as an annotation too."""
    for problem in problems:
        print(problem, file=stream)
        if output_format == GITHUB:
            print(problem_annotation(problem, level), file=stream)

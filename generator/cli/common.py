"""What every command shares: exit codes, the repository root, paths from the command line, --format."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..core.report_formats import FORMATS

EXIT_OK, EXIT_FAILED, EXIT_MALFORMED = 0, 1, 2


def repository_root(args) -> Path:
    return Path(args.root).resolve()


def given_path(root: Path, item: str) -> Path:
    """A path from the command line: from the current folder, or from --root when that is where it lies."""
    path = Path(item)
    if path.is_absolute() or not (root / path).exists():
        return path
    return path if under(path, root) else root / path


def under(path: Path, folder: Path) -> bool:
    here = path.absolute()
    return here == folder or folder in here.parents


def add_format_option(parser: argparse.ArgumentParser):
    parser.add_argument("--format", choices=FORMATS, help="github: also print each problem as a workflow annotation "
                                                          "(the default when GITHUB_ACTIONS=true); plain otherwise")

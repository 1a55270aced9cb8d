"""What every command shares: exit codes, the repository root, paths from the command line, --format."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Callable, Optional, TypeVar

from ..core.parallel import fill_cache
from ..core.report_formats import FORMATS
from ..i18n.translate import catalog_reads
from ..kb.load import rule_file_reads

EXIT_OK, EXIT_FAILED, EXIT_MALFORMED = 0, 1, 2
Answer = TypeVar("Answer")


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


def read_inputs_ahead(root: Path, languages: list[str], with_lines: bool = False) -> None:
    """Parse every rule file and every catalog of `languages` that the disk cache lacks, in one share-out over
    the cores (core/parallel.py), before a command reads them one by one as cache hits.

    The two kinds need nothing of each other: shared out together, no core waits between loading the
    rules and reading the catalogs. Rule files come first: a byte of YAML takes five times as long.
    """
    reads = rule_file_reads(root, with_lines) + [read for lang in languages for read in catalog_reads(root, lang)]
    fill_cache(lambda read: read(), reads)


def unless_failed(part: Callable[[], Answer]) -> Optional[Answer]:
    """part(), or None if it raised: for work done ahead, on another core, whose answer may not be needed (the
    command does it again if it is, and meets the error itself)."""
    try:
        return part()
    except Exception:
        return None

"""What every command shares: exit codes, the repository root, paths from the command line, --format."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Callable, Optional, TypeVar

from ..core.parallel import fill_beside, fill_cache
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


def loaded_while_catalogs_read(root: Path, languages: list[str], loading: Callable[[], Answer],
                               with_lines: bool = False) -> Answer:
    """loading() of the rules, with the input files the disk cache lacks (a first run's, as on CI) parsed
    over the cores (core/parallel.py): first every rule file on all of them, then the catalogs of
    `languages` on the others while this one loads the rules from the cache.

    Loading needs the rule files only, and runs on one core: reading the catalogs beside it keeps the
    others busy then, rather than reading them beforehand with the rules while loading waits.
    """
    fill_cache(lambda read: read(), rule_file_reads(root, with_lines))
    reads = [read for lang in languages for read in catalog_reads(root, lang)]
    return fill_beside(loading, lambda read: read(), reads)


def unless_failed(part: Callable[[], Answer]) -> Optional[Answer]:
    """part(), or None if it raised: for work done ahead, on another core, whose answer may not be needed (the
    command does it again if it is, and meets the error itself)."""
    try:
        return part()
    except Exception:
        return None

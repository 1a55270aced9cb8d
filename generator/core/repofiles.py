"""The repository's input files, listed and read only from inside the checkout.

Policy: a file or folder under rules/, translations/, docs/ or site_overrides/ may be a
symlink only if it points somewhere inside the checkout; one that points outside it, to nothing, or
to anything that is not a plain file or folder (a device, a fifo, a socket) is reported as a problem
and never opened, listed into, written through or published. Every reader of those folders lists
and opens files through this module, and every writer asks `write_problem` first.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .problems import Problems, followed_root

INPUT_FOLDERS = ("rules", "translations", "docs", "site_overrides")  # what a contributor's pull request may change
FIX_LINK = "replace the symlink by the file itself (inputs must live inside the repository)"


def shown_path(path: Path, root: Path) -> str:
    """`path` relative to `root` as written (symlinks not followed), for problem messages."""
    try:
        return os.path.relpath(os.path.abspath(path), os.path.abspath(root)).replace(os.sep, "/")
    except ValueError:  # another drive on Windows
        return str(path)


def _within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def outside_problem(root: Path, path: Path) -> str | None:
    """None if `path`, symlinks followed, is a plain file or folder inside `root`; otherwise what is wrong."""
    return _inspect(root, path)[0]


def _inspect(root: Path, path: Path) -> tuple[str | None, str, int]:
    """(outside_problem's answer, the path with symlinks followed, its mode or 0): one resolution per read."""
    real_root = followed_root(root)
    path = os.fspath(path)
    target = os.path.realpath(path)
    if not _within(target, real_root):
        if not os.path.lexists(path):
            return "does not exist", target, 0
        if _within(os.path.abspath(path), os.path.abspath(root)) or _within(os.path.abspath(path), real_root):
            return "is a symlink that points outside the repository", target, 0  # or lies in a folder that is one
        return "is outside the repository", target, 0
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        return ("is a symlink that points to nothing" if os.path.islink(path) else "does not exist"), target, 0
    except OSError:  # a symlink loop
        return "is a symlink that cannot be followed (a loop?)", target, 0
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        return "is not a plain file (a device, fifo or socket)", target, mode
    return None, target, mode


def repository_files(root: Path, folder: Path | str, problems: Problems, suffixes: tuple[str, ...] = ()) -> list[Path]:
    """Every plain file under root/folder (recursively, sorted) ending in one of `suffixes` (all if empty).

    Entries that leave the repository or are not plain files are added to `problems` and skipped;
    folders are not entered when they do. A missing folder gives an empty list.
    """
    root = Path(root)
    top = os.path.join(root, folder)
    if not os.path.lexists(top):
        return []
    found: list[str] = []
    seen: set[str] = set()  # resolved folders already walked (an inside symlink may lead back)
    pending = [top]
    while pending:
        current = pending.pop()
        issue = outside_problem(root, current)
        if issue:
            problems.add(shown_path(current, root), 0, "", f"{issue}; it was not read", FIX_LINK)
            continue
        real = os.path.realpath(current)
        if real in seen:
            continue
        seen.add(real)
        with os.scandir(current) as entries:
            for entry in entries:
                plain_file = entry.is_file(follow_symlinks=False)
                if entry.is_symlink() or not (plain_file or entry.is_dir(follow_symlinks=False)):
                    issue = outside_problem(root, entry.path)  # links and odd files are looked at closely
                    if issue:
                        problems.add(shown_path(entry.path, root), 0, "", f"{issue}; it was not read", FIX_LINK)
                        continue
                    plain_file = os.path.isfile(entry.path)
                if not plain_file:
                    pending.append(entry.path)
                elif not suffixes or entry.name.endswith(suffixes):
                    found.append(entry.path)
    return [Path(path) for path in sorted(found)]


def read_repository_bytes(root: Path, path: Path, problems: Problems, subject: str = "",
                          limit: int | None = None) -> bytes | None:
    """The bytes of one repository file, or None (with a problem) if it leaves the repository or exceeds `limit`."""
    issue, target, mode = _inspect(root, path)
    if issue == "does not exist":
        problems.add(shown_path(path, root), 0, subject, "file not found", "check the path")
        return None
    if issue or stat.S_ISDIR(mode):
        problems.add(shown_path(path, root), 0, subject, f"{issue or 'is a folder'}; it was not read",
                     FIX_LINK if issue else "name a file")
        return None
    with open(target, "rb") as handle:
        data = handle.read(limit + 1 if limit is not None else -1)
    if limit is not None and len(data) > limit:
        problems.add(shown_path(path, root), 0, subject, f"the file is larger than {limit:,} bytes",
                     "split it into smaller files (one rule per file)")
        return None
    return data


def read_repository_text(root: Path, path: Path, problems: Problems, subject: str = "",
                         limit: int | None = None) -> str | None:
    """The UTF-8 text of one repository file, or None with a problem (outside, too large, not UTF-8)."""
    data = read_repository_bytes(root, path, problems, subject, limit)
    if data is None:
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        problems.add(shown_path(path, root), line, subject, f"not UTF-8 text ({error.reason})", "save the file as UTF-8")
        return None


def write_problem(root: Path, path: Path) -> str | None:
    """None if writing `path` would land inside `root` (through any symlinked folder); otherwise why not."""
    path = Path(path)
    while not os.path.lexists(path) and path != path.parent:  # the nearest part that exists decides
        path = path.parent
    return outside_problem(root, path)

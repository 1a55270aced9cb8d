"""The files a site build reads: one list for the build, `make serve`, the MkDocs hooks, tests and benchmarks.

Decision: everything a build reads lives under these paths of the repository; the Python code of
`generator/` is not an input (a running server keeps the code it started with), its Jinja
templates are (they are read afresh by every build).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from ..core.repofiles import INPUT_FOLDERS  # rules, translations, docs, site_overrides

CONFIG = "mkdocs.yml"
TEMPLATES = "generator/render/templates"
PUBLISHED = ("docs", "site_overrides")  # folders MkDocs copies or renders into the site as they are
# Everything a build reads: copied by copy_inputs, watched by serve and by the hooks under mkdocs serve.
INPUTS = (CONFIG, *INPUT_FOLDERS, TEMPLATES)


def input_files(root: Path):
    """Every file a build reads, as paths under `root`."""
    for name in INPUTS:
        place = root / name
        if place.is_file():
            yield place
        elif place.is_dir():
            for file in place.rglob("*"):
                if "__pycache__" not in file.parts and file.is_file():
                    yield file


def snapshot(root: Path) -> dict[str, int]:
    """Modification time and size of every input file, to notice any edit, addition or removal."""
    state = {}
    for file in input_files(root):
        try:
            info = file.stat()
        except FileNotFoundError:  # removed between listing and stat: the next snapshot sees it gone
            continue
        state[str(file.relative_to(root))] = (info.st_mtime_ns, info.st_size)
    return state


def input_path(root: Path, path: str) -> str | None:
    """`path` (absolute, as file events name it) relative to `root` if a build reads it, else None."""
    try:
        relative = Path(path).relative_to(root)
    except ValueError:
        return None
    if "__pycache__" in relative.parts or not any(
            relative == Path(name) or Path(name) in relative.parents for name in INPUTS):
        return None
    return str(relative)


def refreshed(before: dict[str, int], root: Path, paths: set[str]) -> dict[str, int]:
    """`before` with only `paths` (absolute, as file events name them) looked at again: an edit seen by
    its event need not stat every input (slow on a large site while another thread holds the GIL)."""
    after = dict(before)
    for relative in filter(None, (input_path(root, path) for path in paths)):
        try:
            info = (root / relative).stat()
        except FileNotFoundError:
            after.pop(relative, None)
            continue
        if (root / relative).is_file():
            after[relative] = (info.st_mtime_ns, info.st_size)
    return after


def changed(before: dict, after: dict) -> set[str]:
    """The input paths (relative to the root) added, removed or modified between two snapshots."""
    return {path for path in before.keys() | after.keys() if before.get(path) != after.get(path)}


def copy_inputs(root: Path, into: Path) -> Path:
    """A copy of a repository's site inputs that builds on its own (used by tests and benchmarks)."""
    into.mkdir(parents=True, exist_ok=True)
    for name in INPUT_FOLDERS:
        shutil.copytree(root / name, into / name)
    shutil.copy(root / CONFIG, into / CONFIG)
    (into / "generator").symlink_to(root / "generator")  # mkdocs.yml names its hooks by path; templates live there
    return into

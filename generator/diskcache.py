"""A cache on disk for pure results computed from a file's bytes (parsed YAML), keyed by content and code version.

Invisible to correctness: the key is a hash of the input bytes together with a version string that
changes with the code and libraries that compute the value, so an entry is only ever used for
exactly the bytes and code it was made from; an unreadable or damaged entry is a miss. Values are
plain data stored with `marshal` (no code is ever loaded). The cache lives in the user's cache
folder ($XDG_CACHE_HOME or ~/.cache), never in the checkout, so a pull request cannot plant an
entry, and git never sees it. KB_NO_CACHE=1 turns it off.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
import tempfile
from pathlib import Path
from typing import Callable

CACHE_NAME = "wargame-rules-kb"  # the folder under the user's cache folder
MARSHAL_VERSION = 4  # marshal's format; part of every key along with Python's own version


def cache_folder() -> Path | None:
    """Where entries live, or None when caching is turned off."""
    if os.environ.get("KB_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / CACHE_NAME


def cached(kind: str, version: str, data: bytes, compute: Callable[[], object]) -> object:
    """compute() for these bytes, from the cache when an entry made by the same code version exists.

    `compute` must be pure (its result depends only on `data` and the code named by `version`)
    and return plain data: dicts, lists, tuples, strings, numbers, booleans and None.
    """
    folder = cache_folder()
    if folder is None:
        return compute()
    key = hashlib.sha256(f"{kind}\0{version}\0{sys.version}\0{MARSHAL_VERSION}\0".encode() + data).hexdigest()
    # Plain strings, not Path objects: a cold run at a thousand rules makes several thousand entries.
    subfolder = os.path.join(folder, kind, key[:2])
    path = os.path.join(subfolder, key)
    try:
        with open(path, "rb") as handle:
            return marshal.loads(handle.read())
    except (OSError, EOFError, ValueError, TypeError):
        pass
    value = compute()
    try:
        encoded = marshal.dumps(value, MARSHAL_VERSION)
        _write(subfolder, path, encoded)
    except (OSError, ValueError):  # a read-only home, or a value marshal cannot hold: just don't cache
        pass
    return value


def _write(subfolder: str, path: str, encoded: bytes):
    """Write an entry aside and rename it, so a reader never sees half of one; the folder is made when missing."""
    try:
        handle, temporary = tempfile.mkstemp(dir=subfolder)
    except FileNotFoundError:
        os.makedirs(subfolder, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=subfolder)
    with os.fdopen(handle, "wb") as out:
        out.write(encoded)
    os.replace(temporary, path)


def source_version(*files: str, extra: str = "") -> str:
    """A version string for code: a hash of the named source files' bytes plus `extra` (library versions)."""
    digest = hashlib.sha256(extra.encode())
    for file in files:
        digest.update(Path(file).read_bytes())
    return digest.hexdigest()[:16]

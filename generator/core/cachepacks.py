"""The disk cache's pack files: an index of keys, then the values, each read from the file when asked."""

from __future__ import annotations

import marshal
import os
import threading

PACK_SUFFIX = ".pack"  # a file of entries; anything else in a version folder is ignored
INDEX_LENGTH_BYTES = 8  # a pack starts with the length of its index, in this many bytes
MARSHAL_VERSION = 4  # marshal's format of packs and values; part of every version folder's name


class Pack:
    """One pack file, open for reading: an index of its entries, and each value read from the file when asked."""

    def __init__(self, path: str):
        with open(path, "rb") as handle:
            head = handle.read(INDEX_LENGTH_BYTES)
            length = int.from_bytes(head, "big")
            if len(head) != INDEX_LENGTH_BYTES or length > os.fstat(handle.fileno()).st_size:
                raise ValueError("not a pack")
            index = marshal.loads(handle.read(length))
            if not isinstance(index, dict):
                raise ValueError("not a pack")
            self.handle = os.dup(handle.fileno())  # kept open: a pack folded away by another process stays readable
        self.index: dict[bytes, tuple[int, int]] = index
        self.start = INDEX_LENGTH_BYTES + length  # where the values begin
        self.name = os.path.basename(path)

    def get(self, key: bytes) -> bytes | None:
        where = self.index.get(key)
        if where is None:
            return None
        offset, length = where
        data = _read_at(self.handle, length, self.start + offset)
        return data if len(data) == length else None

    def entries(self) -> dict[bytes, bytes]:
        found = {key: self.get(key) for key in self.index}
        return {key: value for key, value in found.items() if value is not None}


_SEEKING = threading.Lock()  # where there is no pread, a seek and a read must not interleave between threads


def _read_at(handle: int, length: int, offset: int) -> bytes:
    """`length` bytes at `offset` of an open file, without moving a position another thread relies on."""
    if hasattr(os, "pread"):
        return os.pread(handle, length, offset)
    with _SEEKING:  # Windows
        os.lseek(handle, offset, os.SEEK_SET)
        return os.read(handle, length)


def pack_bytes(entries: dict[bytes, bytes]) -> bytes:
    """A pack's bytes: the length of its index, the index {key: (offset after the index, length)}, the values."""
    index, offset = {}, 0
    for key, value in entries.items():
        index[key] = (offset, len(value))
        offset += len(value)
    placed = marshal.dumps(index, MARSHAL_VERSION)
    return len(placed).to_bytes(INDEX_LENGTH_BYTES, "big") + placed + b"".join(entries.values())


def pack_names(folder: str) -> list[str]:
    try:
        return sorted(name for name in os.listdir(folder) if name.endswith(PACK_SUFFIX))
    except OSError:
        return []


def open_packs(folder: str, paths: list[str] | None = None) -> list[Pack]:
    """The readable packs of a version folder (or the given ones); a damaged or vanished one is left out."""
    packs = []
    for path in paths if paths is not None else [os.path.join(folder, name) for name in pack_names(folder)]:
        try:
            packs.append(Pack(path))
        except (OSError, EOFError, ValueError, TypeError):
            continue  # gone (folded by another process) or damaged: its entries are misses
    return packs

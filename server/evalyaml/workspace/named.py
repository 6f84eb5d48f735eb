"""The files a format's cross check reads by name, as the workspace sees them.

A checksum in an aggregate vouches for a samples file; a manifest's digest vouches for a
dataset's lines; a suite names its grader prompts. Those checks read other files' bytes, so the
workspace must (1) serve the editor's buffer when the file is open, so that the check follows
the author's typing, (2) keep every name inside the workspace roots, so that a hostile
`../../etc/passwd` or a symbolic link out of the project reads nothing, and (3) remember each
path read, absent ones included, so that creating, editing or deleting it re-runs the check.
`RecordingFiles` does the three; the index keeps what it recorded (`Workspace._readers`).
"""

from __future__ import annotations

import io
import os
from collections.abc import Sequence
from pathlib import Path
from typing import BinaryIO, Protocol

from evalyaml.core.kinds import Kind
from evalyaml.core.model import Definition, FileAnalysis


class FileHost(Protocol):
    """What `RecordingFiles` needs from the index."""

    def buffer_text(self, path: Path) -> str | None: ...

    def analysis(self, path: Path) -> FileAnalysis | None: ...

    def definitions_of(self, kind: Kind, id: str) -> list[tuple[Path, Definition]]: ...


def _normal(path: Path | str) -> Path:
    return Path(os.path.abspath(path))


def _inside(real: str, roots: Sequence[str]) -> bool:
    return any(real == root or real.startswith(root.rstrip(os.sep) + os.sep) for root in roots)


class RecordingFiles:
    """`formats.base.NamedFiles` over one workspace, for one file's cross check."""

    def __init__(self, host: FileHost, roots: Sequence[Path]) -> None:
        self._host = host
        # Compared after resolving links on both sides: a root reached through a link still
        # holds its files, and a link inside a root that points outside it leads nowhere.
        self._roots = [os.path.realpath(r) for r in dict.fromkeys(roots)]
        self.read: set[Path] = set()
        self._verdicts: dict[Path, bool] = {}  # one check's answers: resolve, then read

    def _allowed(self, path: Path) -> bool:
        verdict = self._verdicts.get(path)
        if verdict is None:
            verdict = self._verdicts[path] = _inside(os.path.realpath(path), self._roots)
        return verdict

    def resolve(self, base: Path, name: str) -> Path | None:
        if not name or "\0" in name:
            return None
        candidate = _normal(Path(base) / name)
        return candidate if self._allowed(candidate) else None

    def _open(self, path: Path) -> tuple[Path, str | None, bool]:
        """The normalised path (recorded), the open buffer's text, and whether it may be read."""
        key = _normal(path)
        self.read.add(key)
        if not self._allowed(key):
            return key, None, False
        return key, self._host.buffer_text(key), True

    def exists(self, path: Path) -> bool:
        key, buffer, allowed = self._open(path)
        return allowed and (buffer is not None or key.is_file())

    def read_bytes(self, path: Path) -> bytes | None:
        key, buffer, allowed = self._open(path)
        if not allowed:
            return None
        disk = _disk_bytes(key)
        if buffer is None:
            return disk
        return _buffer_bytes(buffer, disk)

    def read_text(self, path: Path) -> str | None:
        key, buffer, allowed = self._open(path)
        if not allowed:
            return None
        if buffer is not None:
            return buffer.removeprefix("\ufeff")
        data = _disk_bytes(key)
        if data is None:
            return None
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError:
            return None

    def open_binary(self, path: Path) -> BinaryIO | None:
        key, buffer, allowed = self._open(path)
        if not allowed:
            return None
        if buffer is not None:
            return io.BytesIO(_buffer_bytes(buffer, _disk_bytes(key)))
        try:
            return open(key, "rb") if key.is_file() else None
        except OSError:
            return None

    def analysis(self, path: Path) -> FileAnalysis | None:
        key = _normal(path)
        self.read.add(key)
        return self._host.analysis(key) if self._allowed(key) else None

    def definitions_of(self, kind: Kind, id: str) -> list[tuple[Path, Definition]]:
        return self._host.definitions_of(kind, id)


def _disk_bytes(path: Path) -> bytes | None:
    try:
        return path.read_bytes() if path.is_file() else None
    except OSError:
        return None


_BOM = b"\xef\xbb\xbf"


def _buffer_bytes(buffer: str, disk: bytes | None) -> bytes:
    """What the buffer will be on disk once saved. Editors hand over the text without the byte
    order mark, so the disk's bytes stand when they hold the same text, and a BOM the disk had
    is kept when they do not: a checksum over an unchanged open file equals the saved one."""
    encoded = buffer.encode("utf-8", errors="surrogatepass")
    if disk is not None:
        # compared as bytes (a 150 MB samples file is re-hashed on every edit of its buffer):
        # UTF-8 maps text to bytes one to one, so equal bytes after one BOM each are equal text
        bare = encoded.removeprefix(_BOM)
        if disk.removeprefix(_BOM) == bare:
            return disk
        if disk.startswith(_BOM) and not encoded.startswith(_BOM):
            return _BOM + encoded
    return encoded


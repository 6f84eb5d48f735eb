"""The text of a file that is not open in the editor: read from disk, cached by mtime and size.

Positions in another file (related information, definitions, references, rename edits) are
mapped through its text; `Engine.mapper_for` takes the open buffer when there is one, else this
cache. Any thread may read it (a race only reads a file twice).
"""

from __future__ import annotations

from pathlib import Path
from stat import S_ISREG

from evalyaml.lsp.positions import Encoding, PositionMapper
from evalyaml.syntax.text import LineIndex


class DiskTexts:
    """Line tables of files on disk, keyed by normalised path, valid while mtime and size hold."""

    def __init__(self) -> None:
        self._lines: dict[Path, tuple[int, int, LineIndex]] = {}

    def mapper(self, key: Path, encoding: Encoding) -> PositionMapper:
        """Positions in the file at `key` as it is on disk (empty if it cannot be read)."""
        try:
            stat = key.stat()
            if not S_ISREG(stat.st_mode):
                # A FIFO named x.yaml would block this read, and the engine thread, forever.
                return PositionMapper("", encoding)
            cached = self._lines.get(key)
            if cached is None or cached[:2] != (stat.st_mtime_ns, stat.st_size):
                text = key.read_bytes().decode("utf-8", errors="replace")
                cached = (stat.st_mtime_ns, stat.st_size, LineIndex(text))
                self._lines[key] = cached
            return PositionMapper(cached[2], encoding)
        except OSError:
            return PositionMapper("", encoding)

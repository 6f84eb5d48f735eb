"""The lines of a byte stream, in bounded memory: a samples file of gigabytes is read in
chunks, and a line longer than the caller's limit is measured, never held. CR, LF and CRLF each
end a line, as in the editor (a CRLF split between two chunks is one break)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

CHUNK = 1 << 20
"""Bytes read at a time."""


def byte_lines(stream: BinaryIO, max_line: int) -> Iterator[tuple[int, bytes | None, int]]:
    """(line number, its bytes without the break, or None when longer than `max_line`, its
    length). CR, LF and CRLF each end one line."""
    number = 0
    pending = bytearray()
    too_long = 0  # bytes of the current line once it passed max_line (then not kept)
    last_cr = False
    while chunk := stream.read(CHUNK):
        start = 0
        if last_cr and chunk[:1] == b"\n":
            start = 1  # the LF of a CRLF split between chunks
        last_cr = False
        if not too_long and b"\r" not in chunk:  # LF only: split in C, the common case
            parts = (chunk[start:] if start else chunk).split(b"\n")
            tail = parts.pop()
            for part in parts:
                line = part
                if pending:
                    pending += part
                    line = bytes(pending)
                    pending.clear()
                yield (number, None, len(line)) if len(line) > max_line else \
                    (number, line, len(line))
                number += 1
            if len(pending) + len(tail) > max_line:
                too_long = len(pending) + len(tail)
                pending.clear()
            else:
                pending += tail
            continue
        while True:
            cut = _next_break(chunk, start)
            if cut < 0:
                piece = chunk[start:]
                if too_long or len(pending) + len(piece) > max_line:
                    too_long += len(pending) + len(piece)
                    pending.clear()
                else:
                    pending += piece
                break
            piece = chunk[start:cut]
            if too_long or len(pending) + len(piece) > max_line:
                yield number, None, too_long + len(pending) + len(piece)
            else:
                pending += piece
                yield number, bytes(pending), len(pending)
            pending.clear()
            too_long = 0
            number += 1
            if chunk[cut:cut + 1] == b"\r":
                if cut + 1 < len(chunk):
                    start = cut + 2 if chunk[cut + 1:cut + 2] == b"\n" else cut + 1
                else:
                    last_cr = True
                    break
            else:
                start = cut + 1
            if start >= len(chunk):
                break
    if too_long:
        yield number, None, too_long + len(pending)
    elif pending:
        yield number, bytes(pending), len(pending)


def _next_break(chunk: bytes, start: int) -> int:
    lf = chunk.find(b"\n", start)
    cr = chunk.find(b"\r", start, lf if lf >= 0 else len(chunk))
    return cr if cr >= 0 else lf

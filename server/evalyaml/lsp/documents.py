"""Open documents: text and version, kept by the server itself (not pygls' workspace).

The server applies incremental `didChange` edits with `positions` (one conversion module) and
keeps each document's `LineIndex` up to date by splicing the line-start table, never by a re-scan
of a 3 MB dataset (a long document's table is a `lines.BlockLineIndex`: an edit costs one block
of it, not the lines below the edit). A `Document` is immutable: the engine thread reads
`store.get(uri)` and always sees a consistent (text, version) pair while the event loop replaces
it with the next one.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from pathlib import Path

from lsprotocol import types
from pygls.uris import from_fs_path, to_fs_path

from evalyaml.ide.outline import Outline
from evalyaml.lsp.lines import BlockLineIndex, compact
from evalyaml.lsp.positions import Encoding, PositionMapper
from evalyaml.syntax.text import LineIndex

_BREAK = re.compile(r"\r\n|\r|\n")
# Every Document (an open, every applied change) gets the next serial number: "already analysed"
# and "is this report stale" are decided by it, never by the client's version number, which a
# buggy client may repeat or send backwards.
_serials = itertools.count(1)


def uri_to_path(uri: str) -> Path | None:
    path = to_fs_path(uri)
    return Path(path) if path else None


def path_to_uri(path: Path | str) -> str:
    uri = from_fs_path(str(path))
    return uri if uri is not None else Path(path).as_uri()


@dataclass(frozen=True, slots=True)
class Document:
    uri: str
    path: Path | None
    text: str
    version: int | None
    language_id: str = "yaml"
    lines: LineIndex = field(compare=False, repr=False, default=None)  # type: ignore[assignment]
    # The outline (see `ide.outline.Outline`), built on first use and spliced on later edits.
    _outline: list[Outline] = field(compare=False, repr=False, default_factory=list)
    serial: int = field(compare=False, default_factory=lambda: next(_serials))

    def __post_init__(self) -> None:
        if self.lines is None:
            object.__setattr__(self, "lines", compact(LineIndex(self.text)))

    def mapper(self, encoding: Encoding) -> PositionMapper:
        return PositionMapper(self.lines, encoding)

    @property
    def outline(self) -> Outline:
        if not self._outline:
            self._outline.append(Outline.build(self.lines))
        return self._outline[0]

    @property
    def has_outline(self) -> bool:
        return bool(self._outline)


def apply_changes(doc: Document, changes: list[types.TextDocumentContentChangeEvent],
                  version: int | None, encoding: Encoding) -> Document:
    text, lines = doc.text, doc.lines
    outline = doc._outline[0] if doc._outline else None
    for change in changes:
        if isinstance(change, types.TextDocumentContentChangePartial):
            text, lines, lines_changed = _apply_partial(text, lines, change.range, change.text,
                                                        encoding)
            if outline is not None:
                outline = None if lines_changed is None else outline.spliced(
                    lines_changed[0], lines_changed[1], lines_changed[2], lines)
        else:
            text = change.text
            lines = compact(LineIndex(text))
            outline = None
    return Document(doc.uri, doc.path, text, version, doc.language_id, lines,
                    [outline] if outline is not None else [])


SPLICE_WINDOW = 256


def _spliced(text: str, start: int, end: int, new_text: str) -> str:
    """`text[:start] + new_text + text[end:]`, without the two slices when the text is large
    and the edit small: they are as large as the text together (12 MB for a 6 MB dataset with
    CJK in it), fresh memory at every keystroke, and they raise the peak. A window around the
    edit that occurs first at its own place is replaced in one copy instead."""
    if len(text) > 1_000_000 and end - start <= SPLICE_WINDOW:
        low, high = max(0, start - SPLICE_WINDOW), min(len(text), end + SPLICE_WINDOW)
        window = text[low:high]
        if text.find(window) == low:
            return text.replace(window, "".join((text[low:start], new_text, text[end:high])), 1)
    return "".join((text[:start], new_text, text[end:]))


def _apply_partial(text: str, lines: LineIndex, rng: types.Range, new_text: str,
                   encoding: Encoding
                   ) -> tuple[str, LineIndex, tuple[int, int, int] | None]:
    """The new text, its LineIndex, and (first line, old last line, new last line) of the
    lines that changed (None when everything must be recounted)."""
    mapper = PositionMapper(lines, encoding)
    start_pos = mapper.core_position(rng.start)
    end_pos = mapper.core_position(rng.end)
    if end_pos < start_pos:
        start_pos, end_pos = end_pos, start_pos
    start = lines.offset(start_pos)
    end = lines.offset(end_pos)
    result = _spliced(text, start, end, new_text)
    # A CR before the edit and an LF at the start of the new text (or the reverse) may merge
    # into one CRLF line break; recount from scratch in that rare case.
    joins_break = (start > 0 and text[start - 1] == "\r" and result[start:start + 1] == "\n") \
        or (new_text.endswith("\r") and text[end:end + 1] == "\n") \
        or (start > 0 and not new_text and text[start - 1] == "\r" and text[end:end + 1] == "\n")
    if joins_break or "\r" in text[start:end]:
        return result, compact(LineIndex(result)), None
    first, last = start_pos.line, end_pos.line
    inserted = [start + m.end() for m in _BREAK.finditer(new_text)]
    changed = (first, last, first + len(inserted))
    if isinstance(lines, BlockLineIndex):
        return result, lines.edited(result, first, last, inserted), changed
    delta = len(new_text) - (end - start)
    starts = lines._starts
    below = [s + delta for s in starts[last + 1:]] if delta else starts[last + 1:]
    index = LineIndex.__new__(LineIndex)  # the table LineIndex(result) would count
    index.text, index._starts = result, [*starts[: first + 1], *inserted, *below]
    return result, compact(index), changed


class DocumentStore:
    """uri -> Document for the documents the client has open."""

    def __init__(self) -> None:
        self._docs: dict[str, Document] = {}

    def open(self, item: types.TextDocumentItem) -> Document:
        doc = Document(item.uri, uri_to_path(item.uri), item.text, item.version,
                       item.language_id)
        self._docs[item.uri] = doc
        return doc

    def change(self, params: types.DidChangeTextDocumentParams, encoding: Encoding
               ) -> Document | None:
        doc = self._docs.get(params.text_document.uri)
        if doc is None:
            return None
        new = apply_changes(doc, list(params.content_changes), params.text_document.version,
                            encoding)
        self._docs[doc.uri] = new
        return new

    def close(self, uri: str) -> Document | None:
        return self._docs.pop(uri, None)

    def get(self, uri: str) -> Document | None:
        return self._docs.get(uri)

    def by_path(self, path: Path) -> Document | None:
        for doc in list(self._docs.values()):
            if doc.path == path:
                return doc
        return None

    def all(self) -> list[Document]:
        return list(self._docs.values())

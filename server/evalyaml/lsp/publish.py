"""Diagnostics as JSON text: each finding serialised once, each publish a join.

pygls would build an `lsprotocol` `Diagnostic` per finding, unstructure it with cattrs and
`json.dumps` the lot, on every publish: about 40 us a finding, 0.7 s for a dataset with 17,000
findings, on every keystroke. Here a finding becomes its JSON fragment directly (the same bytes
pygls would write: `tests/lsp/test_publish.py` holds them equal), and a document's fragments are
kept from one publish to the next, keyed by the `Finding` object itself.

Why identity is enough: the incremental analysis hands back the *same* `Finding` objects for what
did not change (a case's cached result placed on the same line, the root's findings for the same
skeleton, cross-file findings the index did not invalidate), and a finding object is only ever
reused for the same text under its positions, so its converted range cannot have changed. The
exceptions are findings with related information in *another* file, whose text may change on its
own: those are converted afresh every time. A publish whose fragments are all the previous ones
resends the previous joined payload. Fragments and payload are ASCII bytes (`json.dumps` escapes
the rest), so the payload is never encoded, and the frame around it is the only other copy.

`notification` wraps the payload in the JSON-RPC envelope, again byte for byte as pygls would;
`EvalProtocol.send_parts` frames and writes it. `LazyDiagnostics` gives the `Diagnostic` objects
back for the few readers that need them (code actions), parsed from the very fragments sent.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache
from json.encoder import encode_basestring_ascii
from pathlib import Path
from typing import Any, overload

from lsprotocol import types
from lsprotocol.converters import get_converter

from evalyaml.core.codes import CODES
from evalyaml.core.findings import Finding
from evalyaml.lsp.documents import path_to_uri
from evalyaml.lsp.positions import PositionMapper
from evalyaml.syntax.text import Span

MapperFor = Callable[[Path], PositionMapper]
SOURCE = "evalyaml"
_dumps = json.dumps
# What `json.dumps` writes for a string (its default `ensure_ascii`), without its per-call set-up.
_string = encode_basestring_ascii
_tails: dict[str, str] = {}


def _tail(code: str) -> str:
    """`"code": ..., "codeDescription": ..., "source": ...`: the same for every finding of
    a code."""
    tail = _tails.get(code)
    if tail is None:
        known = CODES.get(code)
        description = f', "codeDescription": {{"href": {_dumps(known.doc_url)}}}' \
            if known else ""
        tail = _tails[code] = f'"code": {_dumps(code)}{description}, "source": "{SOURCE}"'
    return tail


def json_range(mapper: PositionMapper, span: Span) -> str:
    return mapper.json_range(span)


def fragment(finding: Finding, mapper: PositionMapper, uri: str, mapper_for: MapperFor,
             *, related_support: bool) -> str:
    """One finding as the JSON of `convert.diagnostic(...)` (what pygls would write)."""
    code = finding.code
    related = ""
    if finding.related and related_support:
        items = []
        for item in finding.related:
            if item.path is None:
                target, rng = uri, json_range(mapper, item.span)
            else:
                other = Path(item.path)
                target, rng = path_to_uri(other), json_range(mapper_for(other), item.span)
            items.append(f'{{"location": {{"uri": {_dumps(target)}, "range": {rng}}}, '
                         f'"message": {_dumps(item.message)}}}')
        related = f', "relatedInformation": [{", ".join(items)}]'
    return (f'{{"range": {json_range(mapper, finding.span)}, '
            f'"message": {_string(finding.message)}, "severity": {int(finding.severity)}, '
            f'{_tail(code)}{related}, "data": {{"code": {_string(code)}}}}}')


class Fragments:
    """One file's findings as JSON fragments, reused from its previous publish (see the module
    docstring). One per open document or reported file, for one encoding.

    A finding that moved with its cached case (a line inserted above it) is a new object, but it
    remembers the finding it was moved from (`Finding.origin`, `Finding.shift`). Its fragment
    is the one rendered for any other placement of that origin with the two line numbers
    replaced: the case's text is the same, so every column is too. Only findings without
    related information are moved so (a related position may lie outside the case).
    """

    __slots__ = ("_entries", "_moves", "_parts", "_payload")

    def __init__(self) -> None:
        self._entries: dict[int, tuple[Finding, bytes]] = {}
        # id(origin) -> the finding of the last publish moved from it (its fragment is in
        # `_entries`): the only extra memory a moved finding costs is this one dict slot
        self._moves: dict[int, Finding] = {}
        self._parts: list[bytes] = []
        self._payload = b""

    def prerender(self, findings: Iterable[Finding], mapper: PositionMapper, uri: str,
                  mapper_for: MapperFor, *, related_support: bool) -> None:
        """Render `findings` ahead of their publish: `render` then finds each by identity, as
        it finds last publish's. The engine renders a large document's cases share by share
        while the case worker still works on others (`Engine.map_cases`), so that they cost
        nothing after the last share. Findings whose related places lie in another file are
        left to `render`, which converts those afresh anyway."""
        entries = self._entries
        for finding in findings:
            if finding.related and related_support and \
                    any(r.path is not None for r in finding.related):
                continue
            entries[id(finding)] = (finding, fragment(
                finding, mapper, uri, mapper_for, related_support=related_support
            ).encode("ascii"))

    def render(self, findings: Sequence[Finding], mapper: PositionMapper, uri: str,
               mapper_for: MapperFor, *, related_support: bool) -> tuple[list[bytes], bytes]:
        """The fragments of `findings`, in order, and the payload: them all, comma-separated
        (the JSON array without its brackets, which `notification_parts` adds)."""
        entries = self._entries
        kept: dict[int, tuple[Finding, bytes]] = {}
        kept_moves: dict[int, Finding] = {}
        parts: list[bytes] = []
        for finding in findings:
            key = id(finding)
            hit = entries.get(key)
            if hit is not None and hit[0] is finding:
                text = hit[1]
            elif finding.related:
                text = fragment(finding, mapper, uri, mapper_for,
                                related_support=related_support).encode("ascii")
                if related_support and any(r.path is not None for r in finding.related):
                    parts.append(text)
                    continue  # another file's positions: converted afresh every time
            else:
                text = self._moved(finding) or fragment(
                    finding, mapper, uri, mapper_for,
                    related_support=related_support).encode("ascii")
            if not finding.related:  # what a finding moved from it will look up
                kept_moves[id(finding.origin or finding)] = finding
            kept[key] = (finding, text)
            parts.append(text)
        # Only this publish's findings are kept (the object keeps its finding alive, so its
        # id cannot be reused by another while the entry exists).
        self._entries = kept
        self._moves = kept_moves
        if parts != self._parts:  # compared by identity first: a join only when changed
            self._parts = parts
            self._payload = b", ".join(parts)
        return self._parts, self._payload

    def _moved(self, finding: Finding) -> bytes | None:
        """The fragment of the last publish's finding moved from the same origin, with the
        two line numbers of its range moved to `finding`'s lines; None when there is none."""
        origin = finding.origin
        if origin is None:
            return None
        before = self._moves.get(id(origin))
        if before is None or (before.origin or before) is not origin:
            return None  # (a finding made on its line, by the case worker, is its own origin)
        text = self._entries[id(before)][1]
        delta = finding.shift - before.shift
        if delta == 0:
            return text
        start = len(_START_LINE)  # `fragment` starts with the range
        start_end = text.index(b",", start)
        end = text.index(_END_LINE, start_end) + len(_END_LINE)
        end_end = text.index(b",", end)
        return b"%b%d%b%d%b" % (text[:start], int(text[start:start_end]) + delta,
                                text[start_end:end], int(text[end:end_end]) + delta,
                                text[end_end:])


_START_LINE = b'{"range": {"start": {"line": '
_END_LINE = b'"end": {"line": '


def notification(uri: str, payload: bytes, version: int | None) -> bytes:
    """`textDocument/publishDiagnostics` as pygls serialises it (key order included)."""
    return b"".join(notification_parts(uri, payload, version))


def notification_parts(uri: str, payload: bytes, version: int | None
                       ) -> tuple[bytes, bytes, bytes]:
    """`notification` in three parts, the payload in the middle: the frame is joined once
    (`EvalProtocol.send_parts`), the payload never copied on its own."""
    tail = "" if version is None else f', "version": {version}'
    return (f'{{"params": {{"uri": {_dumps(uri)}, "diagnostics": ['.encode("ascii"), payload,
            f']{tail}}}, "method": "textDocument/publishDiagnostics", "jsonrpc": "2.0"}}'
            .encode("ascii"))


class RawResult:
    """A request's result already serialised: parts that join into its JSON. Returned by a
    handler in place of `lsprotocol` objects, written by `EvalProtocol._send_response` as is.
    Pull diagnostics answer with the very payload a push would send, so that a pull client (VS
    Code) gets the fragment reuse too, not cattrs over 17,000 `Diagnostic` objects."""

    __slots__ = ("parts",)

    def __init__(self, parts: Sequence[bytes]) -> None:
        self.parts = tuple(parts)

    def json(self) -> Any:
        """The result as parsed JSON (tests, and whoever must read it back)."""
        return json.loads(b"".join(self.parts))


def full_report(payload: bytes, result_id: str) -> RawResult:
    """`RelatedFullDocumentDiagnosticReport(items=..., result_id=...)` as pygls would write
    it (`{"items": [...], "kind": "full", "resultId": ...}`)."""
    return RawResult((b'{"items": [', payload,
                      f'], "kind": "full", "resultId": {_dumps(result_id)}}}'.encode("ascii")))


def workspace_report(entries: Sequence[tuple[str, int | None, str, bytes | None]]
                     ) -> RawResult:
    """`WorkspaceDiagnosticReport`: per file (uri, version, result id, payload), the payload
    None for a file whose result id the client already has (`kind: unchanged`)."""
    parts: list[bytes] = [b'{"items": [']
    for index, (uri, version, result_id, payload) in enumerate(entries):
        head = f'{", " if index else ""}{{"uri": {_dumps(uri)}, "version": {_dumps(version)}, '
        if payload is None:
            parts.append(f'{head}"kind": "unchanged", "resultId": {_dumps(result_id)}}}'
                         .encode("ascii"))
        else:
            parts += [f'{head}"items": ['.encode("ascii"), payload,
                      f'], "kind": "full", "resultId": {_dumps(result_id)}}}'.encode("ascii")]
    parts.append(b"]}")
    return RawResult(parts)


def response_parts(msg_id: int | str | None, result: RawResult) -> list[bytes]:
    """The JSON-RPC response around a raw result, as pygls orders it."""
    return [f'{{"id": {_dumps(msg_id)}, "jsonrpc": "2.0", "result": '.encode("ascii"),
            *result.parts, b"}"]


@cache
def _converter() -> Any:
    return get_converter()


class LazyDiagnostics(Sequence[types.Diagnostic]):
    """The `Diagnostic` objects of published fragments, parsed one by one when asked for."""

    __slots__ = ("_done", "_parts")

    def __init__(self, parts: list[bytes]) -> None:
        self._parts = parts
        self._done: dict[int, types.Diagnostic] = {}

    def __len__(self) -> int:
        return len(self._parts)

    @overload
    def __getitem__(self, index: int) -> types.Diagnostic: ...
    @overload
    def __getitem__(self, index: slice) -> list[types.Diagnostic]: ...

    def __getitem__(self, index: int | slice) -> types.Diagnostic | list[types.Diagnostic]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self._parts)))]
        if index < 0:
            index += len(self._parts)
        found = self._done.get(index)
        if found is None:
            found = self._done[index] = _converter().structure(
                json.loads(self._parts[index]), types.Diagnostic)
        return found

    def __iter__(self) -> Iterator[types.Diagnostic]:
        return (self[i] for i in range(len(self._parts)))

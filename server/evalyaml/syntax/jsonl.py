"""JSON Lines: one JSON text per line, each parsed from its own text and placed at its line.

Decisions:
- Rows end at LF only, as the JSON Lines convention says. A CR before the LF is dropped with
  it (CRLF files); a lone CR stays inside its row, where JSON reads it as whitespace. That is
  rare, and whatever a lone CR means to a given reader, it is no row separator to ours.
  `LineIndex` (and so the editor) does start a new line after it, which is why a row's line
  number comes from the file's `LineIndex` and not from counting rows: findings stay exact.
- U+2028, U+2029 and NEL are ordinary characters, never row ends (`str.splitlines` would end a
  row there and cut a string in two).
- A blank row (nothing but spaces, tabs and CR) is skipped; it is no value and no error.
- Each row is parsed by `parse_line`, from its text alone, with positions relative to that text
  (line 0); `parse_jsonl` moves the findings down to the row's line with `Finding.shifted`. So
  a cache keyed by the row's text can hand back a row unchanged wherever it moves, the way
  dataset cases are placed: pass a caching `parse_line` in.
- Syntax only: that every row must be an object is a rule of the formats that use JSONL, which
  call `require_objects` (EY200) when they want it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from evalyaml.analysis.findings import Finding, FindingSink
from evalyaml.analysis.text import LineIndex, Position, Span
from evalyaml.analysis.yamltree import Mapping, Node, Scalar, Sequence
from evalyaml.syntax.json import parse_json

_LONE_CR = re.compile(r"\r(?!\n)")


@dataclass(frozen=True, slots=True)
class LineParse:
    """One row parsed from its own text: what a per-row cache keeps.

    Node offsets are code points into the row's text; findings are on line 0 (or further down
    only after a lone CR inside the row).
    """

    root: Node | None
    ok: bool
    findings: tuple[Finding, ...]


def parse_line(text: str, strict: bool) -> LineParse:
    """Parse one row's text (without its line break)."""
    sink = FindingSink(strict=strict)
    parsed = parse_json(text, sink)
    return LineParse(parsed.documents[0] if parsed.documents else None, parsed.ok,
                     tuple(sink.findings))


LineParser = Callable[[str, bool], LineParse]
"""`parse_line`, or a function that caches it by (row text, strict)."""


@dataclass(frozen=True, slots=True)
class Line:
    """A non-blank row: its line in the file, and its tree with offsets relative to the row."""

    number: int  # 0-based line in the file, as `LineIndex` counts lines
    start_offset: int  # code-point offset in the file of the row's first character
    root: Node | None  # None when the row does not parse
    ok: bool


@dataclass(slots=True)
class JsonlDoc:
    text: str
    lines: LineIndex  # of the whole file
    rows: list[Line]  # the non-blank rows, in order

    def span(self, row: Line, node: Node) -> Span:
        """A node of `row`'s tree in file positions."""
        return self.lines.span(row.start_offset + node.start, row.start_offset + node.end)


def parse_jsonl(text: str, sink: FindingSink, *, parse: LineParser = parse_line) -> JsonlDoc:
    """Parse every non-blank row; findings go to `sink` in file positions."""
    lines = LineIndex(text)
    rows: list[Line] = []
    strict = sink.strict
    by_line = _LONE_CR.search(text) is not None  # else row i is line i
    offset = 0
    findings = sink.findings
    for number, raw in enumerate(text.split("\n")):
        start = offset
        offset += len(raw) + 1
        row = raw[:-1] if raw.endswith("\r") else raw
        if not row.strip(" \t\r"):
            continue
        if by_line:
            number = lines.position(start).line  # noqa: PLW2901 - the file's numbering wins
        result = parse(row, strict)
        rows.append(Line(number, start, result.root, result.ok))
        if result.findings:
            findings.extend(f.shifted(number) for f in result.findings)
        if row.startswith("\ufeff") and start:
            sink.add("EY110", "U+FEFF (a byte-order mark) is not whitespace in JSON, and "
                     "belongs only at the start of a file; remove it",
                     Span(Position(number, 0), Position(number, 1)))
    return JsonlDoc(text, lines, rows)


def require_objects(doc: JsonlDoc, sink: FindingSink, *, what: str = "each line") -> None:
    """EY200 on every row whose value is not a JSON object, for formats whose rows are records.
    """
    for row in doc.rows:
        root = row.root
        if root is not None and not isinstance(root, Mapping):
            sink.add("EY200", f"{what} must be a JSON object; this one is {_kind(root)}",
                     doc.span(row, root))


def _kind(node: Node) -> str:
    if isinstance(node, Sequence):
        return "an array"
    if isinstance(node, Scalar):
        value = node.value
        if node.style == '"':
            return "a string"
        if value is None:
            return "null"
        if isinstance(value, bool):
            return "a boolean"
        return "a number"
    return "not a value"  # pragma: no cover - JSON builds only the three node kinds

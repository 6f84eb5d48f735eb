"""JSON Lines: one JSON text per line, each parsed from its own text and placed at its line.

Decisions:
- Rows are the lines `syntax.lines` gives: broken at LF, CRLF and a lone CR, as LSP breaks them
  (and as Python's text-mode files do, which is how most harnesses read JSONL), never at
  U+2028, U+2029 or NEL, which JSON allows inside strings (`str.splitlines` would cut such a
  string in two). So row numbers are the editor's line numbers, and a row never holds a break.
- A blank row (nothing but spaces and tabs) is skipped: no value and no error.
- Each row is parsed from its text alone, with positions relative to it (line 0), and its
  findings are moved to its line with `Finding.shifted`. So the `LineCache` of `syntax.lines`,
  keyed by the row's text, hands back an unchanged row wherever it moves, the way dataset
  cases are placed: an edit to a 100,000-row file parses only the rows it changed.
- A byte-order mark is skipped at the start of the file (as `parse_json` does) and reported at
  the start of any other row, where it is a stray character a JSON reader refuses.
- Syntax only: that every row must be an object is a rule of the formats that use JSONL; they
  call `require_objects` (with their code) when they want it.
"""

from __future__ import annotations

from functools import partial

from evalyaml.core.findings import FindingSink
from evalyaml.syntax.json import SYNTAX, read_json
from evalyaml.syntax.lines import LineCache, LineResult, analyze_lines
from evalyaml.syntax.record import mutable_record, record
from evalyaml.syntax.text import LineIndex, Position, Span
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence


@record
class RowTree:
    """A row's tree, with offsets relative to the row's text; None when it does not parse."""

    root: Node | None
    ok: bool


def parse_row(text: str, *, strict: bool) -> LineResult[RowTree]:
    """One row's text (without its line break): its tree, and its findings on line 0."""
    sink = FindingSink(strict=strict)
    root = read_json(text, sink)
    return LineResult(tuple(sink.findings), RowTree(root, root is not None))


@record
class Line:
    """A non-blank row: its line in the file, and its tree with offsets relative to the row."""

    number: int  # 0-based line in the file, as `LineIndex` counts lines
    start_offset: int  # code-point offset in the file of the row's first character
    root: Node | None  # None when the row does not parse
    ok: bool


@mutable_record
class JsonlDoc:
    text: str
    lines: LineIndex  # of the whole file
    rows: list[Line]  # the non-blank rows, in order

    def span(self, row: Line, node: Node) -> Span:
        """A node of `row`'s tree, in file positions."""
        return self.lines.span(row.start_offset + node.start, row.start_offset + node.end)


def parse_jsonl(text: str, sink: FindingSink, *, cache: LineCache[RowTree] | None = None
                ) -> JsonlDoc:
    """Parse every non-blank row; findings go to `sink` in file positions.

    With `cache` (one per open document), rows whose text has not changed are not parsed again.
    """
    strict = sink.strict
    placed = analyze_lines(text, partial(parse_row, strict=strict), cache=cache,
                           context=("jsonl", strict))
    lines = LineIndex(text)
    rows: list[Line] = []
    findings = sink.findings
    for row in placed:
        facts = row.result.facts
        rows.append(Line(row.line, lines.line_start(row.line), facts.root, facts.ok))
        if row.result.findings:
            findings.extend(row.findings())
        if row.line and row.text.startswith("\ufeff"):
            _stray_bom(sink, row.line)
    return JsonlDoc(text, lines, rows)


def parse_lone_row(text: str, sink: FindingSink, *, first: bool) -> RowTree:
    """One row (without its line break) as `parse_jsonl` reads it on line 0; `first`: the
    file's first line, where a byte-order mark belongs."""
    found = parse_row(text, strict=sink.strict)
    sink.findings.extend(found.findings)
    if not first and text.startswith("\ufeff"):
        _stray_bom(sink, 0)
    return found.facts


def _stray_bom(sink: FindingSink, line: int) -> None:
    sink.add(SYNTAX, "U+FEFF (a byte-order mark) is not whitespace in JSON and belongs only at "
             "the start of a file; remove it", Span(Position(line, 0), Position(line, 1)))


def require_objects(doc: JsonlDoc, sink: FindingSink, *, code: str,
                    what: str = "each line") -> None:
    """`code` (the format's "not a mapping", EY200 for those sharing the contract's) on every
    row whose value is not a JSON object, for formats whose rows are records."""
    for row in doc.rows:
        root = row.root
        if root is not None and not isinstance(root, Mapping):
            not_an_object(root, doc.span(row, root), sink, code=code, what=what)


def not_an_object(root: Node, span: Span, sink: FindingSink, *, code: str, what: str) -> None:
    """`require_objects`' finding on one row."""
    sink.add(code, f"{what} must be a JSON object; this one is {_kind(root)}", span)


def _kind(node: Node) -> str:
    if isinstance(node, Sequence):
        return "an array"
    if isinstance(node, Scalar):
        if node.style:
            return "a string"
        value = node.value
        if value is None:
            return "null"
        return "a boolean" if isinstance(value, bool) else "a number"
    return "not a value"  # pragma: no cover - JSON builds only the three node kinds

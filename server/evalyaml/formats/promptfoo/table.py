"""A CSV test table as promptfoo reads it: csv-parse with `columns: true` (every record as long
as the header), the special `__` columns of `testCaseFromCsvRow` and the `__expected` shorthand
of `assertionFromString` (`src/csv.ts`; `../shared/FORMATS.md` §7.8), each finding at its cell.

What promptfoo does silently is what is reported: a misspelt type prefix is compared with
`equals` (always fails), `latency:3000` is the value 3000 with threshold 0.75, a single
underscore column is a variable, a non-numeric `__threshold` is unset.
"""

from __future__ import annotations

import re

from evalyaml.core.findings import FindingSink
from evalyaml.core.suggest import rank
from evalyaml.formats.promptfoo import vocab
from evalyaml.syntax.csv import Cell, Row, read_csv
from evalyaml.syntax.text import LineIndex, Span

SPECIAL = ("__expected", "__prefix", "__suffix", "__description", "__providerOutput", "__metric",
           "__threshold", "__metadata", "__config")
_SINGLE = re.compile(r"^_(?!_)(expected|prefix|suffix|description|providerOutput|metric|"
                     r"threshold|metadata|config)")
_SHORTHAND = re.compile(r"^(not-)?([a-z][a-z0-9-]*(?::[a-z]+)?)(\([^)]*\))?:", re.IGNORECASE)
_BASE = frozenset(vocab.BASE_TYPES)
_SCRIPT_PREFIXES = ("javascript:", "fn:", "eval:", "grade:", "llm-rubric:", "python:",
                    "file://")
# Types whose CSV threshold comes only from `(n)` (`assertionFromString`).
_THRESHOLD_TYPES = frozenset({"answer-relevance", "classifier", "context-faithfulness",
                              "context-recall", "context-relevance", "cost", "latency",
                              "levenshtein", "perplexity", "perplexity-score", "rouge-n",
                              "similar", "starts-with"})
_NUMBER = re.compile(r"^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$")


def columns(text: str) -> list[str] | None:
    """The header's names (trimmed), or None when there is no header."""
    table = read_csv(text)
    if not table.rows:
        return None
    return [cell.value.strip() for cell in table.rows[0].cells]


def check_table(text: str, sink: FindingSink) -> None:
    lines = LineIndex(text)
    table = read_csv(text)

    def at(cell: Cell) -> Span:
        return lines.span(cell.start, cell.end)

    if table.error is not None:
        sink.add("EYPF021", table.error.message,
                 lines.span(table.error.start, table.error.end))
    if not table.rows:
        return
    header = table.rows[0]
    names = check_header(sink, lines, header)
    width = len(names)
    last = table.rows[-1].start
    for blank in table.blanks:
        if blank.start > header.start and blank.start < last:
            sink.add("EYPF021", f"an empty line: csv-parse fails with \"Invalid Record Length: "
                     f"columns length is {width}, got 1 on line {blank.line + 1}\"",
                     lines.span(blank.start, blank.start))
    for row in table.rows[1:]:
        check_record(sink, lines, row, names, line=row.line)


def check_header(sink: FindingSink, lines: LineIndex, header: Row) -> list[str]:
    """The header's findings; its names."""
    names = [cell.value.strip() for cell in header.cells]
    for cell, name in zip(header.cells, names, strict=True):
        _header(sink, lines.span(cell.start, cell.end), name)
    return names


def check_record(sink: FindingSink, lines: LineIndex, row: Row, names: list[str], *,
                 line: int) -> None:
    """One record under the header's `names`; `line`: its line in the file (for messages)."""
    width = len(names)
    if len(row.cells) != width:
        sink.add("EYPF021", f"this record has {len(row.cells)} fields and the header "
                 f"{width}: csv-parse fails with \"Invalid Record Length: columns length is "
                 f"{width}, got {len(row.cells)} on line {line + 1}\"",
                 lines.span(row.start, row.end))
        return
    for cell, name in zip(row.cells, names, strict=True):
        if name.startswith("__expected") and cell.value.strip():
            _expected(sink, lines.span(cell.start, cell.end), cell.value)
        elif name == "__threshold" and cell.value.strip() and \
                not _NUMBER.match(cell.value):
            sink.add("EYPF015", f"'{cell.value}' is not a number: promptfoo leaves the "
                     "row's threshold unset (parseFiniteNumber), silently",
                     lines.span(cell.start, cell.end))


def _header(sink: FindingSink, span: Span, name: str) -> None:
    single = _SINGLE.match(name)
    if single:
        sink.add("EYPF014", f"column '{name}' has a single underscore: promptfoo warns and reads "
                 f"it as a variable; did you mean '_{name}'?", span)
        return
    if name == "__metadata":
        sink.add("EYPF014", "'__metadata' needs a key ('__metadata:<key>'): promptfoo ignores "
                 "this column", span)
        return
    if name.startswith("__") and not name.startswith(SPECIAL):
        guess = rank(name, SPECIAL)
        if guess:
            sink.add("EYPF014", f"column '{name}' is no special column, so promptfoo reads it as "
                     f"a variable; did you mean '{guess[0]}'?", span)


def _expected(sink: FindingSink, span: Span, cell: str) -> None:
    text = cell.strip()
    if text.startswith(_SCRIPT_PREFIXES) or text.endswith(".py") or ".py:" in text:
        return
    match = _SHORTHAND.match(text)
    if match is None:
        return
    name = match.group(2)
    negated = match.group(1) or ""
    if name in _BASE:
        if name in _THRESHOLD_TYPES and match.group(3) is None and name != "starts-with" and \
                _NUMBER.match(text[match.end():]):
            value = text[match.end():].strip()
            sink.add("EYPF015", f"'{text}' is read as value {value} with the default threshold: "
                     f"write '{negated}{name}({value})' to set the threshold",
                     span)
        return
    guess = rank(name, _BASE)
    if guess:
        sink.add("EYPF015", f"'{negated}{name}' is no assertion type, so promptfoo compares the "
                 f"output with the whole cell ('equals') and the test fails; did you mean "
                 f"'{negated}{guess[0]}:'?", span)

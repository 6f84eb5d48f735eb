"""A CSV test table record by record (`syntax.rowchecks`): where every record is one line
(no line break inside a quoted cell, no CR, no line of only spaces), each record's findings
come from its own line, cached by its text and the header's names, so a keystroke in one row of
10,000 re-checks that row instead of reading the whole table again. Any other table is read
whole (`table.check_table`), which this must equal (`tests/hostile/test_incremental_items.py`).
"""

from __future__ import annotations

import re

from evalyaml.core.findings import Finding, FindingSink
from evalyaml.formats.promptfoo.table import check_header, check_record
from evalyaml.syntax.csv import read_csv
from evalyaml.syntax.lines import LineResult
from evalyaml.syntax.rowchecks import RowState, analyze_rows
from evalyaml.syntax.text import LineIndex, Span

STATE = "promptfoo-table-rows"
# A line of only spaces or tabs is one record of one field to csv-parse, but no row to
# `analyze_rows`: such a table is read whole. An empty line is no record to either.
_SPACES_LINE = re.compile(r"^[ \t]+$", re.MULTILINE)


class Records:
    """Line 0 is the header; every other line one record under its names. A line that is not
    one whole record (a quote left open) says so (`facts` False): the table is read whole."""

    def __init__(self, names: list[str], strict: bool) -> None:
        self.names = names
        self.strict = strict
        self.context = ("promptfoo-csv", tuple(names), strict)

    def check(self, text: str, *, first: bool, index: int, line: int) -> LineResult[bool]:
        sink = FindingSink(strict=self.strict)
        table = read_csv(text)
        if table.error is not None or len(table.rows) != 1 or table.blanks:
            return LineResult((), False)
        lines = LineIndex(text)
        if first:
            check_header(sink, lines, table.rows[0])
        else:
            check_record(sink, lines, table.rows[0], self.names, line=line)
        return LineResult(tuple(sink.findings), True)

    def quotes_place(self, result: LineResult[bool]) -> bool:
        return bool(result.findings)  # "on line 12"

    def shift(self, facts: bool, lines: int) -> bool:
        return facts


def table_by_record(text: str, strict: bool, state: RowState[bool] | None
                    ) -> list[Finding] | None:
    """The table's findings record by record; None when it must be read whole."""
    if not text or "\r" in text or _SPACES_LINE.search(text):
        return None
    head = read_csv(text[: text.find("\n")] if "\n" in text else text)
    if head.error is not None or len(head.rows) != 1:
        return None
    names = [cell.value.strip() for cell in head.rows[0].cells]
    rows = analyze_rows(text, Records(names, strict), state)
    if not all(row.facts for row in rows):
        return None
    found = [finding for row in rows[1:] for finding in row.findings]
    if "\n\n" in text.rstrip("\n"):
        found[:0] = _empty_lines(text.rstrip("\n"), len(names), strict)
    return [*rows[0].findings, *found]


def _empty_lines(body: str, width: int, strict: bool) -> list[Finding]:
    """`check_table`'s finding for each empty line between the header and the last record
    (the Enter key typed in a table: the rows below it keep their results, moved)."""
    sink = FindingSink(strict=strict)
    at = body.find("\n\n")
    while at >= 0:
        line = body.count("\n", 0, at + 1)
        sink.add("EYPF021", f"an empty line: csv-parse fails with \"Invalid Record Length: "
                 f"columns length is {width}, got 1 on line {line + 1}\"", Span.point(line, 0))
        at = body.find("\n\n", at + 1)
    return sink.findings

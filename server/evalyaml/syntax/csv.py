"""CSV as csv-parse reads it (RFC 4180: `,` by default, `"` quotes with `""` escapes, CR, LF or
CRLF records), keeping where every cell is, so a finding about a cell points at the cell.

Positions are code-point offsets into the text (a leading byte-order mark is the caller's:
`decode` drops it). A quote left open is an error at the quote; a quote inside an unquoted
field is not (promptfoo retries with `relax_quotes`, and so reads it as text).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Cell:
    value: str
    start: int  # offset of the cell's first character (its opening quote when quoted)
    end: int  # offset just past the cell (past its closing quote)


@dataclass(frozen=True, slots=True)
class Row:
    cells: tuple[Cell, ...]
    start: int
    end: int
    line: int  # 0-based line of the row's first character


@dataclass(frozen=True, slots=True)
class CsvError:
    message: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class CsvTable:
    rows: tuple[Row, ...]
    error: CsvError | None
    blanks: tuple[Row, ...] = ()  # empty records (an empty line), kept apart


def read_csv(text: str, delimiter: str = ",") -> CsvTable:
    rows: list[Row] = []
    blanks: list[Row] = []
    cells: list[Cell] = []
    n = len(text)
    i = 0
    line = 0
    row_start = 0
    row_line = 0
    while i <= n:
        start = i
        if i < n and text[i] == '"':
            j = i + 1
            parts: list[str] = []
            while True:
                close = text.find('"', j)
                if close < 0:
                    return CsvTable(tuple(rows), CsvError(
                        "this quoted field is never closed: csv-parse fails with \"Quote Not "
                        "Closed\"", start, start + 1), tuple(blanks))
                parts.append(text[j:close])
                if close + 1 < n and text[close + 1] == '"':
                    parts.append('"')
                    j = close + 2
                    continue
                break
            value = "".join(parts)
            line += value.count("\n") + value.count("\r") - value.count("\r\n")
            i = close + 1
            # Text after the closing quote (relax_quotes keeps it): up to the delimiter.
            k = i
            while k < n and text[k] not in (delimiter, "\n", "\r"):
                k += 1
            value += text[i:k]
            i = k
        else:
            k = i
            while k < n and text[k] not in (delimiter, "\n", "\r"):
                k += 1
            value = text[i:k]
            i = k
        cells.append(Cell(value, start, i))
        if i < n and text[i] == delimiter:
            i += 1
            continue
        # End of record (or of text).
        is_blank = len(cells) == 1 and cells[0].start == cells[0].end
        if not is_blank:
            rows.append(Row(tuple(cells), row_start, i, row_line))
        elif i < n:  # the end of the text after a final line break is no record
            blanks.append(Row(tuple(cells), row_start, i, row_line))
        cells = []
        if i >= n:
            break
        i += 2 if text.startswith("\r\n", i) else 1
        line += 1
        row_start = i
        row_line = line
    return CsvTable(tuple(rows), None, tuple(blanks))

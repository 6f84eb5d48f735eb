"""The CSV reader keeps every cell's place, reads quotes as csv-parse does, and reports a quote
left open at the quote."""

from __future__ import annotations

from evalyaml.syntax.csv import read_csv


def test_cells_keep_their_offsets_through_quotes_and_crlf() -> None:
    text = 'q,__expected\r\n"a ""b""",icontains:x\r\n"multi\nline",2\r\n'
    table = read_csv(text)
    assert table.error is None
    assert [[c.value for c in row.cells] for row in table.rows] == [
        ["q", "__expected"], ['a "b"', "icontains:x"], ["multi\nline", "2"]]
    cell = table.rows[1].cells[0]
    assert text[cell.start:cell.end] == '"a ""b"""'
    assert [row.line for row in table.rows] == [0, 1, 2]
    assert text[table.rows[2].cells[1].start:table.rows[2].cells[1].end] == "2"


def test_an_open_quote_is_an_error_at_the_quote() -> None:
    table = read_csv('a,b\n1,"two\n')
    assert table.error is not None
    assert (table.error.start, table.error.end) == (6, 7)
    assert len(table.rows) == 1


def test_empty_lines_are_kept_apart() -> None:
    table = read_csv("a\n1\n\n2\n")
    assert [r.cells[0].value for r in table.rows] == ["a", "1", "2"]
    assert [b.line for b in table.blanks] == [2]


def test_a_quote_inside_an_unquoted_field_is_text() -> None:
    table = read_csv('a,b\nsay "hi",2\n')
    assert table.rows[1].cells[0].value == 'say "hi"'

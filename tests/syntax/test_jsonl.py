"""JSON Lines (`syntax.jsonl`): each row parsed on its own and placed on its line; blank rows
skipped; rows end where the editor's lines end, never inside a string at U+2028."""

from __future__ import annotations

import json
import time

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.syntax.test_json import JSON_CODES, JSON_VALUES, collector_paused, same

from evalyaml.core.findings import Finding, FindingSink
from evalyaml.syntax.json import parse_json
from evalyaml.syntax.jsonl import JsonlDoc, RowTree, parse_jsonl, require_objects
from evalyaml.syntax.lines import LineCache
from evalyaml.syntax.text import Position, Span
from evalyaml.syntax.tree import Budget, Mapping, to_python


def parse(text: str, cache: LineCache[RowTree] | None = None, *, strict: bool = False
          ) -> tuple[JsonlDoc, list[Finding]]:
    sink = FindingSink(strict=strict)
    doc = parse_jsonl(text, sink, cache=cache)
    return doc, sink.findings


def span(sl: int, sc: int, el: int, ec: int) -> Span:
    return Span(Position(sl, sc), Position(el, ec))


def test_rows_are_placed_on_their_lines_and_blank_lines_skipped() -> None:
    text = '{"a": 1}\r\n\r\n \t \n[1,]\n{"b": "x\u2028y"}\r{"c":\n"open\n{"d": NaN}'
    doc, findings = parse(text)
    assert [(row.number, row.start_offset, row.ok) for row in doc.rows] == [
        (0, 0, True), (3, 16, True), (4, 21, True), (5, 34, False), (6, 40, False),
        (7, 46, True)]
    assert [(f.code, f.span) for f in findings] == [
        ("EY113", span(3, 2, 3, 3)),
        ("EY110", span(5, 5, 5, 5)),  # `{"c":` ends at its line's end: a lone CR ends a row
        ("EY110", span(6, 5, 6, 5)),
        ("EY112", span(7, 6, 7, 9)),
    ]
    # U+2028 is a character inside a string, not a row end.
    assert doc.rows[2].root is not None and to_python(doc.rows[2].root, Budget(10)) == {
        "b": "x\u2028y"}
    # A node's span in the file, from its row's tree.
    row = doc.rows[1]
    assert row.root is not None and doc.span(row, row.root) == span(3, 0, 3, 4)


def test_row_findings_are_the_rows_own_findings_moved_down() -> None:
    rows = ['{"a": [1,]}', "", '{"a": 1, "a": 2}', "   ", "[True]", '{"x": "\\q"}  // c']
    _, findings = parse("\n".join(rows))
    expected: list[Finding] = []
    for number, row in enumerate(rows):
        if row.strip():
            sink = FindingSink(strict=False)
            parse_json(row, sink, base_line=number)
            expected.extend(sink.findings)
    assert findings == expected
    assert [f.span.start.line for f in findings] == [0, 2, 4, 5, 5]
    assert findings[1].related[0].span == span(2, 1, 2, 4)  # related info moves too


def test_a_byte_order_mark_is_skipped_at_the_start_and_reported_elsewhere() -> None:
    doc, findings = parse('\ufeff{"a": 1}\n\ufeff{"b": 2}')
    assert [row.ok for row in doc.rows] == [True, True]
    assert [(f.code, f.span) for f in findings] == [("EY110", span(1, 0, 1, 1))]
    assert doc.rows[0].root is not None and doc.span(doc.rows[0], doc.rows[0].root) == span(
        0, 1, 0, 9)


def test_require_objects_is_left_to_the_formats() -> None:
    doc, findings = parse('{"a": 1}\n[1]\n"s"\n2\nnull\ntrue\n[')
    assert [f.code for f in findings] == ["EY110"]  # parse_jsonl is syntax only
    sink = FindingSink(strict=False)
    require_objects(doc, sink, code="EY200", what="each sample")
    assert [(f.code, f.span.start.line, f.message) for f in sink.findings] == [
        ("EY200", 1, "each sample must be a JSON object; this one is an array"),
        ("EY200", 2, "each sample must be a JSON object; this one is a string"),
        ("EY200", 3, "each sample must be a JSON object; this one is a number"),
        ("EY200", 4, "each sample must be a JSON object; this one is null"),
        ("EY200", 5, "each sample must be a JSON object; this one is a boolean"),
    ]


def test_an_empty_file_has_no_rows_and_no_findings() -> None:
    for text in ("", "\n", "\r\n  \r\n"):
        doc, findings = parse(text)
        assert (doc.rows, findings) == ([], [])


def test_the_cache_parses_only_changed_rows_and_agrees_with_a_fresh_parse() -> None:
    rows = [json.dumps({"sample_id": f"s{n}", "score": n}) for n in range(1_000)]
    rows[500] = '{"sample_id": "s500", "score": 1,}'
    cache: LineCache[RowTree] = LineCache()
    parse("\n".join(rows), cache)
    assert cache.misses == 1_000
    rows.insert(0, '{"new": [1 2]}')  # every row moves down one line
    text = "\n".join(rows)
    doc, findings = parse(text, cache)
    assert (cache.hits, cache.misses) == (1_000, 1_001)
    fresh, fresh_findings = parse(text)
    assert findings == fresh_findings
    assert [f.span.start.line for f in findings] == [0, 501]
    assert [(r.number, r.start_offset, r.ok) for r in doc.rows] == [
        (r.number, r.start_offset, r.ok) for r in fresh.rows]
    # Strictness decides severities, so it is part of the key.
    parse(text, cache, strict=True)
    assert cache.misses == 2_002


_ROW_TEXT = st.builds(lambda v, ascii_only: json.dumps(v, ensure_ascii=ascii_only), JSON_VALUES,
                      st.booleans())
_BROKEN_ROW = st.text(st.sampled_from(list('{}[],:"\\ 1aN\t\u2028😀')), max_size=12)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(_ROW_TEXT, _BROKEN_ROW, st.just(""), st.just(" \t")), max_size=8),
       st.sampled_from(["\n", "\r\n", "\r"]))
def test_any_rows_parse_as_their_own_texts_on_their_own_lines(rows: list[str],
                                                              newline: str) -> None:
    text = newline.join(rows)
    doc, findings = parse(text)
    assert {f.code for f in findings} <= JSON_CODES
    expected: list[Finding] = []
    expected_rows = []
    for number, row in enumerate(rows):
        if not row.strip(" \t"):
            continue
        sink = FindingSink(strict=False)
        parsed = parse_json(row, sink, base_line=number)
        expected.extend(sink.findings)
        expected_rows.append((number, parsed.ok))
    assert findings == expected
    assert [(r.number, r.ok) for r in doc.rows] == expected_rows
    for placed in doc.rows:
        assert doc.lines.position(placed.start_offset) == Position(placed.number, 0)
        if placed.root is not None and not findings:
            line_text = doc.lines.line_text(placed.number)
            assert same(to_python(placed.root, Budget(10**6)), json.loads(line_text))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_never_raises(text: str) -> None:
    doc, findings = parse(text)
    assert {f.code for f in findings} <= JSON_CODES
    assert all(row.ok or row.root is None for row in doc.rows)


def test_deep_rows_are_findings_not_recursion_errors() -> None:
    doc, findings = parse("[" * 100_000 + "\n" + '{"a":' * 100_000 + '\n{"ok": 1}')
    assert [f.code for f in findings] == ["EY105", "EY105"]
    assert [row.ok for row in doc.rows] == [False, False, True]


def test_speed_of_a_long_line_and_of_many_lines() -> None:
    """Printed, not asserted (with the collector paused, as callers run a parse)."""
    long_row = json.dumps({"sample_id": "big", "output": ["token " * 20] * 8_500})
    assert len(long_row) > 1_000_000
    rows = [json.dumps({"sample_id": f"s{n}", "input": "What is 2+2?", "score": n / 7})
            for n in range(100_000)]
    text = "\n".join(rows) + "\n"
    with collector_paused():
        started = time.perf_counter()
        doc, findings = parse(long_row)
        one_line = time.perf_counter() - started
        assert findings == [] and isinstance(doc.rows[0].root, Mapping)
        started = time.perf_counter()
        doc, findings = parse(text)
        many = time.perf_counter() - started
        assert findings == [] and len(doc.rows) == 100_000
        started = time.perf_counter()
        for row in rows:
            json.loads(row)
        loads = time.perf_counter() - started
    print(f"\n1 line of {len(long_row) / 1e6:.1f} MB: {one_line * 1000:.0f} ms; "
          f"100,000 lines ({len(text) / 1e6:.1f} MB): {many * 1000:.0f} ms "
          f"(json.loads per line: {loads * 1000:.0f} ms)")

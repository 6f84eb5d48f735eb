"""Per-line analysis (`syntax.lines`): an edit costs the lines it changed, and the cached result
always equals a fresh one, placed on the right line."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from evalyaml.core.findings import Finding, FindingSink
from evalyaml.syntax.lines import LineCache, LineResult, analyze_lines
from evalyaml.syntax.text import Position, Span


def _row(text: str) -> LineResult[str]:
    """A stand-in for a format's row check: every 'x' is a finding at its column."""
    sink = FindingSink(strict=False)
    for column, char in enumerate(text):
        if char == "x":
            sink.add("EY110", "an x", Span(Position(0, column), Position(0, column + 1)))
    return LineResult(tuple(sink.findings), text.strip())


def _all(text: str, cache: LineCache[str] | None) -> list[tuple[int, str, list[Finding]]]:
    return [(p.line, p.result.facts, p.findings()) for p in analyze_lines(text, _row,
                                                                          cache=cache)]


def test_findings_are_placed_on_their_line_and_blank_lines_skipped() -> None:
    placed = _all('{"a": 1}\n\n  \r\n ax\r{"x": 2}', None)
    assert [(line, facts) for line, facts, _ in placed] == [
        (0, '{"a": 1}'), (3, "ax"), (4, '{"x": 2}')]
    assert [f.span for _, _, findings in placed for f in findings] == [
        Span(Position(3, 2), Position(3, 3)), Span(Position(4, 2), Position(4, 3))]


def test_an_edit_analyses_only_the_changed_line() -> None:
    rows = [f'{{"sample_id": "s{n}", "x": {n}}}' for n in range(10_000)]
    cache: LineCache[str] = LineCache()
    _all("\n".join(rows), cache)
    assert (cache.hits, cache.misses) == (0, 10_000)
    rows[5_000] = '{"sample_id": "edited"}'
    rows.insert(7, "")  # a blank line moves every row below it
    edited = "\n".join(rows)
    assert _all(edited, cache) == _all(edited, None)
    assert (cache.hits, cache.misses) == (9_999, 10_001)


def test_the_context_is_part_of_the_key() -> None:
    cache: LineCache[str] = LineCache()
    analyze_lines("x", _row, cache=cache, context="soft")
    analyze_lines("x", _row, cache=cache, context="strict")
    assert cache.misses == 2


_LINE = st.text(alphabet="ax{}\" \t😀中", max_size=8)


@settings(max_examples=60, deadline=None)
@given(st.lists(_LINE, max_size=12), st.lists(st.tuples(st.integers(0, 20), _LINE), max_size=6),
       st.sampled_from(["\n", "\r\n", "\r"]))
def test_cached_equals_fresh_after_any_edits(lines: list[str], edits: list[tuple[int, str]],
                                             newline: str) -> None:
    cache: LineCache[str] = LineCache(capacity=5)  # small: eviction is exercised too
    _all(newline.join(lines), cache)
    for index, replacement in edits:
        if lines and index < len(lines):
            lines[index] = replacement
        else:
            lines.append(replacement)
        text = newline.join(lines)
        assert _all(text, cache) == _all(text, None)

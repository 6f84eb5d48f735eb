"""`lsp.positions` and the document store: property tests with emoji, CJK, CRLF and tabs."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from lsprotocol import types

from evalyaml.lsp.documents import Document, _spliced, apply_changes
from evalyaml.lsp.positions import Encoding, PositionMapper, choose_encoding, from_units, to_units
from evalyaml.syntax.text import LineIndex, Position

ALPHABET = st.sampled_from([*"ab :-\t#", "😀", "日", "本", "é", "\r\n", "\n", "\r", "𝄞"])
TEXT = st.lists(ALPHABET, max_size=60).map("".join)
ENCODINGS = st.sampled_from(list(Encoding))


def reference_units(prefix: str, encoding: Encoding) -> int:
    """An independent count: encode and measure."""
    if encoding is Encoding.UTF8:
        return len(prefix.encode("utf-8"))
    if encoding is Encoding.UTF16:
        return len(prefix.encode("utf-16-le")) // 2
    return len(prefix)


def lsp_lines(text: str) -> list[str]:
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def test_negotiation() -> None:
    assert choose_encoding(None) is Encoding.UTF16
    assert choose_encoding(["utf-16"]) is Encoding.UTF16
    assert choose_encoding(["utf-32", "utf-16", "utf-8"]) is Encoding.UTF8
    assert choose_encoding([types.PositionEncodingKind.Utf8]) is Encoding.UTF8
    assert choose_encoding(["utf-32"]) is Encoding.UTF32
    assert choose_encoding(["latin-1"]) is Encoding.UTF16


def test_known_columns() -> None:
    line = "a😀日\tb"
    assert [to_units(line, c, Encoding.UTF16) for c in range(6)] == [0, 1, 3, 4, 5, 6]
    assert [to_units(line, c, Encoding.UTF8) for c in range(6)] == [0, 1, 5, 8, 9, 10]
    # a column inside a character rounds down to its start; past the end clamps
    assert from_units(line, 2, Encoding.UTF16) == 1
    assert from_units(line, 3, Encoding.UTF8) == 1
    assert from_units(line, 99, Encoding.UTF16) == 5


@settings(max_examples=300, deadline=None)
@given(TEXT, ENCODINGS, st.data())
def test_round_trip_on_every_line(text: str, encoding: Encoding, data: st.DataObject) -> None:
    mapper = PositionMapper(text, encoding)
    lines = lsp_lines(text)
    assert mapper.lines.line_count == len(lines)
    line = data.draw(st.integers(0, len(lines) - 1))
    column = data.draw(st.integers(0, len(lines[line])))
    client = mapper.position(Position(line, column))
    assert client == types.Position(line, reference_units(lines[line][:column], encoding))
    assert mapper.core_position(client) == Position(line, column)


@settings(max_examples=300, deadline=None)
@given(TEXT, TEXT, ENCODINGS, st.data())
def test_incremental_changes_match_a_fresh_text(text: str, new: str, encoding: Encoding,
                                                data: st.DataObject) -> None:
    """Applying an edit given in client units yields the expected text, and the spliced line
    table and outline equal freshly computed ones (CR/LF joins included)."""
    doc = Document("file:///x.yaml", None, text, 1)
    doc.outline  # noqa: B018 - build it so that the edit splices it
    lines = lsp_lines(text)
    a = (data.draw(st.integers(0, len(lines) - 1)),)
    a = (a[0], data.draw(st.integers(0, len(lines[a[0]]))))
    b = (data.draw(st.integers(a[0], len(lines) - 1)),)
    b = (b[0], data.draw(st.integers(a[1] if b[0] == a[0] else 0, len(lines[b[0]]))))
    index = LineIndex(text)
    start, end = index.offset(Position(*a)), index.offset(Position(*b))
    expected = text[:start] + new + text[end:]
    rng = types.Range(
        types.Position(a[0], reference_units(lines[a[0]][:a[1]], encoding)),
        types.Position(b[0], reference_units(lines[b[0]][:b[1]], encoding)))
    changed = apply_changes(doc, [types.TextDocumentContentChangePartial(range=rng, text=new)],
                            2, encoding)
    assert changed.text == expected
    assert changed.lines._starts == LineIndex(expected)._starts
    from evalyaml.ide.outline import Outline

    assert changed.outline.rows == Outline.build(LineIndex(expected)).rows


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 1_200_100), st.integers(0, 300), st.sampled_from(["", "x", "日本\n", "\r\n"]))
def test_a_small_edit_in_a_large_text_is_spliced_exactly(start: int, length: int,
                                                          new: str) -> None:
    """`documents._spliced` replaces a window in one copy when the text is large: the same
    text as slicing, also where the window repeats (the fallback)."""
    text = _LARGE
    start = min(start, len(text))
    end = min(len(text), start + length)
    assert _spliced(text, start, end, new) == text[:start] + new + text[end:]


_LARGE = ("  - id: a\n    input: 日本 same same\n" * 30_000) + "tail 😀\n" * 2_000


_PIECES = st.sampled_from(["a", " ", "\n", "\r\n", "\r", "é", "😀", "東"])
_POINTS = st.tuples(st.integers(-1, 7), st.integers(-2, 9))


@given(text=st.lists(_PIECES, max_size=16).map("".join),
       points=st.lists(st.tuples(_POINTS, _POINTS), min_size=1, max_size=8))
@settings(max_examples=300, deadline=None)
def test_a_range_written_as_json_is_the_range_of_its_two_positions(
        text: str, points: list[tuple[tuple[int, int], tuple[int, int]]]) -> None:
    """`PositionMapper.json_range` (every published finding) works out the common case itself:
    it must write what `units` gives for each end, in every encoding, on any line breaks."""
    from evalyaml.syntax.text import Span

    for encoding in Encoding:
        mapper = PositionMapper(text, encoding)
        for (sl, sc), (el, ec) in points:
            start, end = Position(sl, sc), Position(el, ec)
            (a, b), (c, d) = mapper.units(start), mapper.units(end)
            assert mapper.json_range(Span(start, end)) == (
                f'{{"start": {{"line": {a}, "character": {b}}}, '
                f'"end": {{"line": {c}, "character": {d}}}}}')

"""A long open document's line table (`lsp/lines.py`) answers as a fresh `LineIndex` of its
text does, after any run of edits: near each other (typing), far apart, across CRLF line
breaks, adding and removing lines; and the document before an edit still answers for its own
text (the engine may hold it while the next one arrives)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lsprotocol import types

from evalyaml.lsp.documents import Document, apply_changes
from evalyaml.lsp.lines import COMPACT_LINES, BlockLineIndex
from evalyaml.lsp.positions import Encoding, PositionMapper
from evalyaml.syntax.text import LineIndex, Position

LINES = ["- id: case_{n}", "  input: \"日本 {n} 😀\"", "", "  criteria:\r", "    x: 1"]
BASE = "\n".join(LINES[n % len(LINES)].format(n=n) for n in range(COMPACT_LINES + 200)) + "\n"

SNIPPETS = st.sampled_from(["", "x", "\n", "\r\n", "a\nb\n", "\n\n\n", "😀", "日本", "\r", " ",
                            "- id: new\n  input: hi\n", "x\n" * 1100])  # the last: a block cut


def same_answers(lines: LineIndex, text: str, probes: list[int]) -> None:
    fresh = LineIndex(text)
    count = fresh.line_count
    assert lines.text == text
    assert lines.line_count == count
    assert [lines.line_start(n) for n in range(-1, count + 1)] == \
        [fresh.line_start(n) for n in range(-1, count + 1)]
    assert [lines.line_end(n) for n in range(count)] == [fresh.line_end(n) for n in range(count)]
    offsets = [-1, 0, len(text), len(text) + 3, *probes]
    offsets += [o + d for o in probes for d in (-2, -1, 1, 2)]
    assert [lines.position(o) for o in offsets] == [fresh.position(o) for o in offsets]
    places = [Position(fresh.position(o).line, c) for o in offsets for c in (0, 1, 7, 400)]
    places += [Position(count, 0), Position(count + 5, 2), Position(-1, 3)]
    assert [lines.offset(p) for p in places] == [fresh.offset(p) for p in places]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_long_documents_table_answers_as_a_fresh_one_after_edits(data: st.DataObject) -> None:
    encoding = data.draw(st.sampled_from(list(Encoding)))
    doc = Document("file:///ws/big.yaml", None, BASE, 1)
    assert isinstance(doc.lines, BlockLineIndex)
    place = data.draw(st.integers(0, len(BASE)))
    for version in range(2, 2 + data.draw(st.integers(1, 8))):
        length = len(doc.text)
        if data.draw(st.booleans()):  # typing on: the next edit near the last one
            place = min(length, max(0, place + data.draw(st.integers(-300, 300))))
        else:
            place = data.draw(st.integers(0, length))
        reach = 60 if data.draw(st.booleans()) else 40_000  # the second: across blocks
        end = data.draw(st.integers(place, min(length, place + reach)))
        mapper = PositionMapper(doc.lines, encoding)
        rng = types.Range(mapper.position(doc.lines.position(place)),
                          mapper.position(doc.lines.position(end)))
        before = doc
        doc = apply_changes(doc, [types.TextDocumentContentChangePartial(
            range=rng, text=data.draw(SNIPPETS))], version, encoding)
        probes = [place, end, *data.draw(st.lists(st.integers(0, len(doc.text)), max_size=20))]
        same_answers(doc.lines, doc.text, probes)
        same_answers(before.lines, before.text, [place, end])


def test_an_edit_rebuilds_one_block_and_shares_the_others() -> None:
    """The point of the blocks: wherever the edit, the next table shares every block but the
    one it falls in (held on the blocks' identity), so a keystroke costs one block."""
    doc = Document("file:///ws/big.yaml", None, BASE, 1)
    for version, (line, text) in enumerate([(3000, "x"), (10, "\n"), (4100, "y")], start=2):
        before = doc.lines
        assert isinstance(before, BlockLineIndex)
        at = types.Position(line, 3)
        doc = apply_changes(doc, [types.TextDocumentContentChangePartial(
            range=types.Range(at, at), text=text)], version, Encoding.UTF16)
        assert isinstance(doc.lines, BlockLineIndex)
        kept = {id(block) for block in before._blocks}
        rebuilt = [block for block in doc.lines._blocks if id(block) not in kept]
        assert len(rebuilt) == 1
        assert len(doc.lines._blocks) == len(before._blocks)
    same_answers(doc.lines, doc.text, [])


def test_a_short_document_keeps_a_plain_table() -> None:
    doc = Document("file:///ws/small.yaml", None, "a: 1\nb: 2\n", 1)
    at = types.Position(1, 0)
    doc = apply_changes(doc, [types.TextDocumentContentChangePartial(
        range=types.Range(at, at), text="c: 3\n")], 2, Encoding.UTF16)
    assert type(doc.lines) is LineIndex
    assert doc.lines.line_count == 4
    same_answers(doc.lines, "a: 1\nc: 3\nb: 2\n", [5, 10])

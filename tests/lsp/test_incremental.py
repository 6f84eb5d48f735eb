"""Edit latency follows the edit, not the file: after random edits, the incremental analysis
(the per-document CaseCache the server keeps) equals a fresh analysis of the same text."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lsprotocol import types

from evalyaml.core.incremental import CaseCache
from evalyaml.core.model import FileAnalysis
from evalyaml.core.options import Options
from evalyaml.dispatch import analyze_text
from evalyaml.lsp.documents import Document, apply_changes
from evalyaml.lsp.positions import Encoding, PositionMapper

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
BASE = (EXAMPLES / "datasets" / "support_faq.yaml").read_text("utf-8")
OPTIONS = Options(today=date(2026, 11, 21))

SNIPPETS = st.sampled_from([
    "x", " ", "\n", "\n  - id: new_case\n    input: hi\n", "- ", ":", ": ", "#", "'", '"',
    "expecteed_facts", "rubric_ref: rubric/fa", "😀", "日本", "\t", "\r\n", "[", "]", "{",
    "    criteria: ok\n", "", "id", "  ", "questions:", "&a", "*a",
])


def summary(analysis: FileAnalysis) -> tuple[object, ...]:
    return (analysis.kind, analysis.findings, analysis.cases, analysis.references,
            analysis.definitions)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_incremental_equals_fresh_after_random_edits(data: st.DataObject) -> None:
    encoding = data.draw(st.sampled_from(list(Encoding)))
    doc = Document("file:///ws/datasets/faq.yaml", None, BASE, 1)
    cache = CaseCache()
    analyze_text(doc.text, "/ws/datasets/faq.yaml", OPTIONS, cache)
    for version in range(2, 2 + data.draw(st.integers(1, 6))):
        length = len(doc.text)
        start = data.draw(st.integers(0, length))
        end = data.draw(st.integers(start, min(length, start + 40)))
        mapper = PositionMapper(doc.lines, encoding)
        rng = types.Range(mapper.position(doc.lines.position(start)),
                          mapper.position(doc.lines.position(end)))
        doc = apply_changes(doc, [types.TextDocumentContentChangePartial(
            range=rng, text=data.draw(SNIPPETS))], version, encoding)
        incremental = analyze_text(doc.text, "/ws/datasets/faq.yaml", OPTIONS, cache)
        fresh = analyze_text(doc.text, "/ws/datasets/faq.yaml", OPTIONS)
        assert summary(incremental) == summary(fresh)

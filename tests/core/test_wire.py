"""Case results sent back by the case worker as `core.wire` tuples come back equal, data and
all, whatever kind their references name; what the encoding cannot carry makes it decline,
never change a result."""

from __future__ import annotations

from pathlib import Path

from evalyaml.core.findings import Related
from evalyaml.core.incremental import CaseResult
from evalyaml.core.kinds import FormatKind
from evalyaml.core.options import Options
from evalyaml.core.wire import decode, encode
from evalyaml.formats.contract.dataset import analyze_case_texts, case_texts
from evalyaml.syntax.record import replace
from evalyaml.syntax.text import Position, Span

ROOT = Path(__file__).resolve().parents[2]
CASES = [
    "  - id: c1\n    input: What is 1+1? 😀 東京\n    rubric_ref: rubric/tone@1.0.0\n",
    "  - id: c2\n    input: x\n    expecteed_facts: [a]\n",  # a typo: a rename fix
    "  - id: c3\n    criteria: no input\n",  # required key missing
    "  - id: c4\n    input: a\n    input: b\n",  # a duplicate key: related information
    "  - id: c5\n    input: \"unclosed\n",  # None: to be joined with the next case
    "  - id: c6\n    input: x\n    expected: not a mapping\n    bundle: agent\n"
    "    rubric_ref: rubric/Not-Snake@x\n",
    "  - id: c7\n    input: x\n    rubric_ref: rubric/tone@1.2.3-rc.1\n",
    "  - input: [1, 2\n",
]


def _dataset_cases() -> list[str]:
    """Every case of the bundled examples' datasets."""
    out: list[str] = []
    for path in sorted((ROOT / "examples").rglob("*.yaml")):
        text = path.read_text("utf-8")
        if "questions:" in text:
            out += case_texts(text) or []
    return out


def _same(before: list[CaseResult | None], after: list[CaseResult | None]) -> None:
    assert after == before
    for a, b in zip(before, after, strict=True):
        if a is not None and b is not None:
            assert [f.data for f in a.findings] == [f.data for f in b.findings]
            assert [(f.fixes, f.related) for f in a.findings] == \
                [(f.fixes, f.related) for f in b.findings]


def test_case_results_come_back_equal() -> None:
    texts = CASES + _dataset_cases()
    for options in (Options(), Options(strict=True)):
        results = analyze_case_texts(texts, options)
        assert any(r is None for r in results)
        found = [f for r in results if r is not None for f in r.findings]
        assert any(f.fixes for f in found) and any(f.related for f in found)
        assert any(f.data for f in found)
        assert any(r is not None and r.reference is not None and r.reference.pin is not None
                   for r in results)
        shipped = encode(results)
        assert shipped is not None
        _same(results, decode(shipped))


def test_any_format_s_kind_travels_and_odd_data_is_declined() -> None:
    result = analyze_case_texts([CASES[0]], Options())[0]
    assert result is not None and result.reference is not None
    other = FormatKind("other", "Other file")
    foreign = replace(result, reference=replace(result.reference, target=other))
    shipped = encode([foreign, result, foreign])
    assert shipped is not None and shipped[1] == [other, result.reference.target]
    back = decode(shipped)
    assert back == [foreign, result, foreign]
    assert back[0] is not None and back[0].reference is not None
    assert back[0].reference.target is other
    finding = result.findings[0] if result.findings else None
    if finding is not None:
        odd = replace(result, findings=(replace(finding, data={"n": 1}),))  # type: ignore[dict-item]
        assert encode([odd]) is None


def test_results_come_back_placed_on_their_lines_as_shifting_would_place_them() -> None:
    """`decode(..., lines)` builds each result on its case's line: equal to `CaseResult.at`,
    fixes and same-file related places moved, another file's related place left alone."""
    results = analyze_case_texts(CASES, Options())
    duplicate = next(r for r in results if r is not None and
                     any(f.related for f in r.findings))
    finding = next(f for f in duplicate.findings if f.related)
    elsewhere = replace(finding, related=(*finding.related, Related(
        "/w/rubrics/tone.yaml", Span(Position(3, 1), Position(3, 9)), "defined here")))
    results.append(replace(duplicate, findings=(elsewhere,)))
    lines = [7 + 4 * n for n in range(len(results))]
    shipped = encode(results)
    assert shipped is not None
    back = decode(shipped, lines)
    expected = [None if r is None else r.at(line) for r, line in zip(results, lines, strict=True)]
    _same(expected, back)
    assert [r.line for r in back if r is not None] == \
        [line for r, line in zip(results, lines, strict=True) if r is not None]
    moved = back[-1]
    assert moved is not None
    assert moved.findings[0].span.start.line == finding.span.start.line + lines[-1]
    assert [r.span.start.line for r in moved.findings[0].related] == \
        [*(r.span.start.line + lines[-1] for r in finding.related), 3]
    assert any(f.fixes for r in back if r is not None for f in r.findings)

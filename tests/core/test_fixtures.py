"""Data-driven: every fixture under fixtures/ gives exactly the findings annotated in it.

See annotations.py for the format. Each fixture also runs three other ways, each compared with
the plain run (so a bug in the annotated findings fails one test, not four):
- with CRLF line breaks: the same lines and columns (a line break is not part of a line);
- as UTF-8 bytes with a byte-order mark, through `analyze_bytes` (the CLI's path): the same
  findings (fixture line 0 is always the `#! kind` header, so no finding sits on the BOM's line);
- in both modes: strict turns every CONTRACT finding into an error and changes nothing else.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from evalyaml.core.codes import CODES, CodeClass, Severity
from evalyaml.core.findings import Finding
from evalyaml.core.model import FileAnalysis
from evalyaml.core.options import Options
from evalyaml.dispatch import analyze_bytes, analyze_text

from .annotations import Expected, Fixture, annotate, parse_fixture

FIXTURES = Path(__file__).parent / "fixtures"
FILES = sorted(FIXTURES.rglob("*.yaml"))


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")  # universal newlines: fixtures are LF in the tree


def _load(path: Path) -> tuple[str, Fixture]:
    text = _read(path)
    return text, parse_fixture(text, path.relative_to(FIXTURES).as_posix())


def _options(fixture: Fixture, *, strict: bool | None = None) -> Options:
    return Options(strict=fixture.strict if strict is None else strict, today=fixture.today,
                   freshness_days=fixture.freshness_days)


def _as_expected(finding: Finding) -> Expected:
    span = finding.span
    return Expected((span.start.line, span.start.character), (span.end.line, span.end.character),
                    finding.code, finding.message)


def _compare(text: str, fixture: Fixture, analysis: FileAnalysis) -> None:
    kind = analysis.kind.value if analysis.kind is not None else "none"
    assert kind == fixture.kind, f"detected as {kind}, annotated as {fixture.kind}"
    actual = sorted(_as_expected(f) for f in analysis.findings)
    if actual != fixture.expected:
        want, got = Counter(fixture.expected), Counter(actual)
        missing = [e.render() for e in sorted((want - got).elements())]
        unexpected = [a.render() for a in sorted((got - want).elements())]
        pytest.fail(
            "findings differ from the annotations\n"
            + "".join(f"  missing:    {m}\n" for m in missing)
            + "".join(f"  unexpected: {u}\n" for u in unexpected)
            + "actual findings drawn as annotations:\n" + annotate(text, actual),
            pytrace=False,
        )


def test_there_are_fixtures() -> None:
    assert len(FILES) >= 30
    kinds = {_load(path)[1].kind for path in FILES}
    assert kinds == {"dataset", "rubric", "judge", "none"}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(FIXTURES).as_posix())
def test_fixture(path: Path) -> None:
    text, fixture = _load(path)
    _compare(text, fixture, analyze_text(text, fixture.path, _options(fixture)))


def _summary(analysis: FileAnalysis) -> tuple[str | None, list[Expected]]:
    kind = analysis.kind.value if analysis.kind is not None else None
    return kind, sorted(_as_expected(f) for f in analysis.findings)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(FIXTURES).as_posix())
def test_fixture_with_crlf(path: Path) -> None:
    text, fixture = _load(path)
    plain = analyze_text(text, fixture.path, _options(fixture))
    crlf = analyze_text(text.replace("\n", "\r\n"), fixture.path, _options(fixture))
    assert _summary(crlf) == _summary(plain)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(FIXTURES).as_posix())
def test_fixture_as_bytes_with_bom(path: Path) -> None:
    text, fixture = _load(path)
    assert all(e.start[0] > 0 for e in fixture.expected), "line 0 is reserved for the header"
    plain = analyze_text(text, fixture.path, _options(fixture))
    data = b"\xef\xbb\xbf" + text.encode("utf-8")
    assert _summary(analyze_bytes(data, fixture.path, _options(fixture))) == _summary(plain)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(FIXTURES).as_posix())
def test_fixture_severities(path: Path) -> None:
    """Soft mode: BROKEN is an error, CONTRACT a warning; strict turns CONTRACT into errors
    and changes nothing else (same codes, ranges and messages)."""
    text, fixture = _load(path)
    soft = analyze_text(text, fixture.path, _options(fixture, strict=False))
    strict = analyze_text(text, fixture.path, _options(fixture, strict=True))
    assert sorted(map(_as_expected, soft.findings)) == sorted(map(_as_expected, strict.findings))
    expected_soft = {CodeClass.BROKEN: Severity.ERROR, CodeClass.CONTRACT: Severity.WARNING,
                     CodeClass.ADVICE: Severity.INFORMATION, CodeClass.HINT: Severity.HINT}
    expected_strict = {**expected_soft, CodeClass.CONTRACT: Severity.ERROR}
    for finding in soft.findings:
        assert finding.severity is expected_soft[CODES[finding.code].code_class], finding
    for finding in strict.findings:
        assert finding.severity is expected_strict[CODES[finding.code].code_class], finding

"""Padosoft eval-harness: every fixture under fixtures/ gives exactly the findings annotated in it.

The fixtures use the core's annotation format (`tests/core/annotations.py`), with kinds named
`padosoft-dataset` and `padosoft-calibration`. They go straight to `FORMAT.analyze`, so they
test the format's rules whether or not the engine has registered it yet; each fixture must also
be claimed by `FORMAT.claim` as the kind it declares, from its own text and path. Like the
core's fixtures, each also runs with CRLF line breaks, with a byte-order mark, and in strict
mode, and must give the same findings.

Set `EVALYAML_DRAFT=1` to print each fixture's actual findings drawn as annotations.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import pytest

from core import annotations as core_annotations
from core.annotations import Expected, Fixture, annotate, parse_fixture
from evalyaml.core.codes import CODES, CodeClass, Severity
from evalyaml.core.findings import Finding
from evalyaml.core.kinds import FormatKind
from evalyaml.core.model import FileAnalysis
from evalyaml.core.options import Options
from evalyaml.formats.base import Claim
from evalyaml.formats.padosoft import CALIBRATION, DATASET, FORMAT

FIXTURES = Path(__file__).parent / "fixtures"
FILES = sorted(FIXTURES.rglob("*.yaml"))
KINDS: dict[str, FormatKind] = {"padosoft-dataset": DATASET,
                                "padosoft-calibration": CALIBRATION}


@pytest.fixture(autouse=True)
def _padosoft_kinds() -> Iterator[None]:
    """The core's annotation parser knows the core's kinds; these fixtures add the format's."""
    with mock.patch.object(core_annotations, "KINDS", (*core_annotations.KINDS, *KINDS)):
        yield


def _load(path: Path) -> tuple[str, Fixture]:
    text = path.read_text(encoding="utf-8")
    return text, parse_fixture(text, path.relative_to(FIXTURES).as_posix())


def _options(fixture: Fixture, *, strict: bool | None = None) -> Options:
    return Options(strict=fixture.strict if strict is None else strict, today=fixture.today)


def _analyze(text: str, fixture: Fixture, *, strict: bool | None = None) -> FileAnalysis:
    return FORMAT.analyze(text, fixture.path, KINDS[fixture.kind], _options(fixture, strict=strict))


def _as_expected(finding: Finding) -> Expected:
    span = finding.span
    return Expected((span.start.line, span.start.character), (span.end.line, span.end.character),
                    finding.code, finding.message)


def _findings(analysis: FileAnalysis) -> list[Expected]:
    return sorted(_as_expected(f) for f in analysis.findings)


def test_there_are_fixtures_of_both_kinds() -> None:
    assert len(FILES) >= 25
    assert {_load(path)[1].kind for path in FILES} == set(KINDS)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(FIXTURES).as_posix())
def test_fixture(path: Path) -> None:
    text, fixture = _load(path)
    claim = FORMAT.claim(text, fixture.path, None)
    assert isinstance(claim, Claim) and claim.kind is KINDS[fixture.kind], claim
    analysis = _analyze(text, fixture)
    assert analysis.kind is KINDS[fixture.kind]
    actual = _findings(analysis)
    if os.environ.get("EVALYAML_DRAFT"):
        print(f"\n===== {path.name}\n{annotate(text, actual)}")
    if actual != fixture.expected:
        want, got = Counter(fixture.expected), Counter(actual)
        pytest.fail(
            "findings differ from the annotations\n"
            + "".join(f"  missing:    {e.render()}\n" for e in sorted((want - got).elements()))
            + "".join(f"  unexpected: {a.render()}\n" for a in sorted((got - want).elements()))
            + "actual findings drawn as annotations:\n" + annotate(text, actual),
            pytrace=False)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(FIXTURES).as_posix())
def test_fixture_with_crlf(path: Path) -> None:
    text, fixture = _load(path)
    assert _findings(_analyze(text.replace("\n", "\r\n"), fixture)) == \
        _findings(_analyze(text, fixture))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(FIXTURES).as_posix())
def test_fixture_with_bom(path: Path) -> None:
    text, fixture = _load(path)
    assert all(e.start[0] > 0 for e in fixture.expected), "line 0 is reserved for the header"
    claim = FORMAT.claim("\ufeff" + text, fixture.path, None)
    assert isinstance(claim, Claim) and claim.kind is KINDS[fixture.kind]
    assert _findings(_analyze("\ufeff" + text, fixture)) == _findings(_analyze(text, fixture))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(FIXTURES).as_posix())
def test_fixture_severities(path: Path) -> None:
    """Loader errors are errors in both modes; what eval-harness tolerates is a warning in
    soft mode and an error in strict mode; nothing else changes."""
    text, fixture = _load(path)
    soft = _analyze(text, fixture, strict=False)
    strict = _analyze(text, fixture, strict=True)
    assert _findings(soft) == _findings(strict)
    for finding in soft.findings:
        broken = CODES[finding.code].code_class is CodeClass.BROKEN
        assert finding.severity is (Severity.ERROR if broken else Severity.WARNING), finding
    for finding in strict.findings:
        assert finding.severity is Severity.ERROR, finding


def test_every_padosoft_code_has_a_fixture() -> None:
    seen = {e.code for path in FILES for e in _load(path)[1].expected}
    padosoft = {code for code in CODES if code.startswith("EY5") and int(code[2:]) <= 519}
    assert padosoft - seen <= {"EY512"}  # eval-set only: tests/formats/padosoft/test_eval_set.py

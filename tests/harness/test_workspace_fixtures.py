"""Data-driven: every workspace fixture gives exactly the findings annotated in it.

Fixtures live in `tests/harness/workspaces/` (the engine's generic cross-file rules) and in
`tests/formats/<format>/` (each format's own, the core contract's in `tests/formats/contract/`),
as `*.fixture` files; see `workspace_fixture.py` for the format. Each fixture runs four ways:
as written (and each file read as the kind its `//-` line names); with CRLF line breaks (the
same lines and columns); with a byte-order mark on every file, read through `analyze_bytes` as
the command line reads it (the same findings); and in both modes (each finding's severity is its
class's, and strict turns each CONTRACT finding into an error and changes nothing else).

Set `EVALYAML_DRAFT=1` to print a failing fixture redrawn with its actual findings.
"""

from __future__ import annotations

import os
from collections import Counter
from datetime import date
from pathlib import Path

import pytest

from evalyaml.core.codes import CODES, CodeClass, Severity, severity_of
from evalyaml.core.findings import Finding
from evalyaml.ide.complete import complete_at
from evalyaml.ide.completion import Request
from evalyaml.ide.hover import hover
from evalyaml.ide.navigation import definition, references
from evalyaml.ide.source import Text
from evalyaml.syntax.text import Position
from evalyaml.workspace.index import Workspace

from .workspace_fixture import (
    Expected,
    FixtureError,
    WorkspaceFixture,
    draw,
    parse_workspace_fixture,
)

TESTS = Path(__file__).resolve().parents[1]
FIXTURES = sorted([*(TESTS / "harness" / "workspaces").rglob("*.fixture"),
                   *(TESTS / "formats").rglob("*.fixture")])


def _write(root: Path, fixture: WorkspaceFixture, *, crlf: bool = False, bom: bool = False
           ) -> None:
    root.mkdir(parents=True, exist_ok=True)
    (root / "evalyaml.toml").write_text("", encoding="utf-8")
    for relative, text in fixture.files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        body = text.replace("\n", "\r\n") if crlf else text
        path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + body.encode("utf-8"))


def _workspace(root: Path, fixture: WorkspaceFixture, *, strict: bool) -> Workspace:
    workspace = Workspace([root], today=fixture.today, strict=strict,
                          freshness_days=fixture.freshness_days)
    workspace.index_all()
    return workspace


def _findings(root: Path, fixture: WorkspaceFixture, *, strict: bool,
              workspace: Workspace | None = None) -> list[tuple[Expected, Finding]]:
    if workspace is None:
        workspace = _workspace(root, fixture, strict=strict)
    out: list[tuple[Expected, Finding]] = []
    for relative in fixture.files:
        for finding in workspace.findings(root / relative):
            span = finding.span
            out.append((Expected(relative, (span.start.line, span.start.character),
                                 (span.end.line, span.end.character), finding.code,
                                 finding.message), finding))
    return sorted(out, key=lambda pair: pair[0])


def test_the_contract_fixtures_read_every_kind() -> None:
    """Each kind of the core contract, and files no format claims, have fixtures (a clean file
    that is not read as its kind would pass with no finding, so the kinds are asserted)."""
    contract = [p for p in FIXTURES if p.is_relative_to(TESTS / "formats" / "contract")]
    assert len(contract) >= 50
    kinds = {kind for path in contract
             for kind in parse_workspace_fixture(path.read_text(encoding="utf-8")).kinds.values()}
    assert kinds == {"dataset", "rubric", "judge", "none"}


def _ids(path: Path) -> str:
    return path.relative_to(TESTS).as_posix()


@pytest.mark.parametrize("path", FIXTURES, ids=_ids)
def test_workspace_fixture(path: Path, tmp_path: Path) -> None:
    fixture = parse_workspace_fixture(path.read_text(encoding="utf-8"))
    _write(tmp_path, fixture)
    workspace = _workspace(tmp_path, fixture, strict=fixture.strict)
    actual = [e for e, _ in _findings(tmp_path, fixture, strict=fixture.strict,
                                      workspace=workspace)]
    if actual != fixture.expected:
        want, got = Counter(fixture.expected), Counter(actual)
        pytest.fail("findings differ from the annotations\n"
                    + "".join(f"  missing:    {e.render()}\n"
                              for e in sorted((want - got).elements()))
                    + "".join(f"  unexpected: {a.render()}\n"
                              for a in sorted((got - want).elements()))
                    + (f"the fixture drawn with its actual findings:\n{draw(fixture, actual)}"
                       if os.environ.get("EVALYAML_DRAFT") else ""), pytrace=False)
    for relative, kind in fixture.kinds.items():
        analysis = workspace.analysis(tmp_path / relative)
        read_as = "none" if analysis is None or analysis.kind is None else analysis.kind.value
        assert read_as == kind, f"{relative} is read as {read_as}, not {kind}"


def _answer(root: Path, workspace: Workspace, fixture: WorkspaceFixture, feature: str) -> str:
    assert fixture.cursor is not None
    relative, line, column = fixture.cursor
    doc = Text(fixture.files[relative], root / relative)
    position = Position(line, column)
    if feature in ("definition", "references"):
        found = definition(workspace, doc, position) if feature == "definition" else \
            references(workspace, doc, None, position, include_declaration=False)
        joiner = " " if feature == "definition" else ", "
        return joiner.join(f"{t.path.relative_to(root).as_posix()} {t.span.start.line}:"
                           f"{t.span.start.character}-{t.span.end.line}:{t.span.end.character}"
                           for t in found) or "none"
    analysis = workspace.analysis(root / relative)
    if analysis is None or analysis.kind is None:
        return "none"
    if feature.startswith("completion"):
        req = Request(doc, analysis.kind, line, workspace, snippets=False, bundles=list)
        labels = [item.label for item in complete_at(req, column)]
        return ", ".join(labels) or "none"
    info = hover(doc, analysis.kind, position, workspace=workspace, today=fixture.today)
    if info is None:
        return "none"
    return info.markdown if feature == "hover includes" else info.markdown.split("\n", 1)[0]


FIXTURES_WITH_A_CURSOR = [p for p in FIXTURES if "$0" in p.read_text(encoding="utf-8")]


@pytest.mark.parametrize("path", FIXTURES_WITH_A_CURSOR, ids=_ids)
def test_workspace_fixture_editor_answers(path: Path, tmp_path: Path) -> None:
    fixture = parse_workspace_fixture(path.read_text(encoding="utf-8"))
    _write(tmp_path, fixture)
    workspace = Workspace([tmp_path], today=fixture.today, strict=fixture.strict)
    workspace.index_all()
    answers = [(feature, _answer(tmp_path, workspace, fixture, feature))
               for feature, _ in fixture.ide]
    for (feature, answer), (_, expected) in zip(answers, fixture.ide, strict=True):
        if feature == "completion includes":
            missing = set(_labels(expected)) - set(_labels(answer))
            assert not missing, f"completion lacks {sorted(missing)}; offered: {answer}"
        elif feature == "hover includes":
            assert expected in answer.split("\n"), f"hover lacks the line {expected!r}:\n{answer}"
        else:
            assert answer == expected, feature


def _labels(answer: str) -> list[str]:
    return [label.strip() for label in answer.split(",")] if answer != "none" else []


# Codes whose finding is the byte-order mark itself, in formats whose own readers refuse one
# (Every Eval Ever's and Apastra's `json.loads`): the BOM variant has them on top of the plain
# findings (a fixture whose file already has a mark keeps its own).
BOM_CODES = frozenset({"EY729", "EY814"})


@pytest.mark.parametrize("variant", ["crlf", "bom"])
@pytest.mark.parametrize("path", FIXTURES, ids=_ids)
def test_workspace_fixture_line_breaks_and_bom(path: Path, variant: str, tmp_path: Path
                                               ) -> None:
    fixture = parse_workspace_fixture(path.read_text(encoding="utf-8"))
    _write(tmp_path / "plain", fixture)
    _write(tmp_path / "variant", fixture, crlf=variant == "crlf", bom=variant == "bom")
    plain = [e for e, _ in _findings(tmp_path / "plain", fixture, strict=fixture.strict)]
    other = [e for e, _ in _findings(tmp_path / "variant", fixture, strict=fixture.strict)]
    if variant == "bom":
        other = [e for e in other if e.code not in BOM_CODES or e in plain]
    assert other == plain


@pytest.mark.parametrize("path", FIXTURES, ids=_ids)
def test_workspace_fixture_in_the_other_mode(path: Path, tmp_path: Path) -> None:
    fixture = parse_workspace_fixture(path.read_text(encoding="utf-8"))
    _write(tmp_path, fixture)
    as_written = _findings(tmp_path, fixture, strict=fixture.strict)
    flipped = _findings(tmp_path, fixture, strict=not fixture.strict)
    assert [e for e, _ in flipped] == [e for e, _ in as_written]
    for (_, mine), (_, theirs) in zip(as_written, flipped, strict=True):
        strict_one, soft_one = (mine, theirs) if fixture.strict else (theirs, mine)
        if CODES[mine.code].code_class is CodeClass.CONTRACT:
            assert (soft_one.severity, strict_one.severity) == (Severity.WARNING, Severity.ERROR)
        else:
            assert soft_one.severity == strict_one.severity
        assert soft_one.severity is severity_of(mine.code, strict=False), soft_one


@pytest.mark.parametrize(("text", "problem"), [
    ("questions: []\n", "text before the first '//-' file line"),
    ("//- a.yaml\n//~ ^ EY301 x\n", "an annotation needs a line above it"),
    ("//- a.yaml\nab\n//~    ^^^ EY301 x\n", "carets run past the end of the line above"),
    ("//- a.yaml\nab\n//~ EY301 no carets\n", "a malformed annotation"),
    ("//- a.yaml\nx\n//- a.yaml\ny\n", "file a.yaml given twice"),
    ("//- a.yaml\nab\n//@ 1..0 EY301 x\n", "the range ends before it starts"),
    ("#! strict\n#! strict\n//- a.yaml\nx\n", "header 'strict' given twice"),
    ("#! colour: red\n//- a.yaml\nx\n", "unknown header 'colour'"),
    ("//= hover: x\n//- a.yaml\nx\n", "'//=' expectations need a '\\$0' cursor"),
    ("//- a.yaml\n$0x\n$0y\n", "a second cursor"),
])
def test_a_malformed_fixture_is_refused_with_its_line(text: str, problem: str) -> None:
    with pytest.raises(FixtureError, match=problem):
        parse_workspace_fixture(text)


DRAFT = """#! strict
#! today: 2026-01-02
//- rubrics/x.yaml kind: rubric
id: x
  descripton: y
//~ ^^^^^^^ EY205 a message: with colons, 'quotes' and # hashes
//@ 0..0 EY201 zero-width at column 0
//@ -1:3..+1:0 EY104 from the line above to the next line
checks: |
  a block scalar
//~ ^ EY999 an annotation inside a block scalar is stripped too
//- notes.txt kind: none
$0plain text
"""


def test_the_fixture_format_reads_headers_kinds_carets_and_ranges() -> None:
    fixture = parse_workspace_fixture(DRAFT)
    assert (fixture.strict, fixture.today, fixture.freshness_days) == (True, date(2026, 1, 2), 90)
    assert fixture.files == {
        "rubrics/x.yaml": "id: x\n  descripton: y\nchecks: |\n  a block scalar",
        "notes.txt": "plain text\n"}
    assert fixture.kinds == {"rubrics/x.yaml": "rubric", "notes.txt": "none"}
    assert fixture.cursor == ("notes.txt", 0, 0)
    path = "rubrics/x.yaml"
    assert fixture.expected == sorted([
        Expected(path, (1, 4), (1, 11), "EY205", "a message: with colons, 'quotes' and # hashes"),
        Expected(path, (1, 0), (1, 0), "EY201", "zero-width at column 0"),
        Expected(path, (0, 3), (2, 0), "EY104", "from the line above to the next line"),
        Expected(path, (3, 4), (3, 5), "EY999",
                 "an annotation inside a block scalar is stripped too"),
    ])


def test_draw_writes_what_the_parser_reads_back() -> None:
    fixture = parse_workspace_fixture(DRAFT.replace("$0", ""))
    drawn = parse_workspace_fixture(draw(fixture, fixture.expected))
    assert (drawn.files, drawn.kinds, drawn.expected, drawn.strict, drawn.today) == (
        fixture.files, fixture.kinds, fixture.expected, True, date(2026, 1, 2))

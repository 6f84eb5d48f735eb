"""Quick fixes without a server: `ide.actions` on a real workspace's findings, exact edits."""

from __future__ import annotations

from tests.ide.conftest import Folder, source, span

from evalyaml.core.findings import Fix, TextEdit
from evalyaml.ide.actions import ActionKind, CodeAction, code_actions
from evalyaml.syntax.text import Position, Span
from evalyaml.workspace.index import normalize

RUBRIC = """\
id: tone
version: "1.0.0"
checks:
  - id: has_json
    kind: format
    format: json
scoring:
  combine: all_pass
"""
EVERYWHERE = Span(Position(0, 0), Position(99, 0))


def test_a_missing_key_and_a_pin_to_the_resolved_version(folder: Folder) -> None:
    folder.write("rubrics/tone.yaml", RUBRIC)
    path = normalize(folder.write("datasets/cases.yaml", """\
        questions:
          - id: first
            rubric_ref: rubric/tone
        """))
    text, _, _ = source(folder.workspace, path)
    findings = folder.workspace.findings(path)
    assert [f.code for f in findings] == ["EY201", "EY303"]
    end = Span.point(2, 27)
    assert code_actions(findings, EVERYWHERE, text.lines) == [
        CodeAction(Fix("Insert missing key 'input'", (TextEdit(end, "\n    input: "),),
                       preferred=True), (0,)),
        CodeAction(Fix("Pin to @1.0", (TextEdit(end, "@1.0"),), preferred=True), (1,)),
        CodeAction(Fix("Pin to exact version @1.0.0", (TextEdit(end, "@1.0.0"),)), (1,))]
    # Only the findings that overlap the range asked about.
    only_pin = code_actions(findings, span(2, 20, 20), text.lines)
    assert [a.fix.title for a in only_pin] == ["Pin to @1.0", "Pin to exact version @1.0.0"]
    assert all(a.kind is ActionKind.QUICK_FIX for a in only_pin)


def test_several_missing_keys_get_one_action_for_all(folder: Folder) -> None:
    path = normalize(folder.write("rubrics/bare.yaml", 'id: bare\nversion: "1.0.0"\n'))
    text, _, _ = source(folder.workspace, path)
    findings = folder.workspace.findings(path)
    missing = [i for i, f in enumerate(findings) if f.code == "EY201"]
    assert len(missing) == 2
    found = code_actions(findings, EVERYWHERE, text.lines)
    assert found[-1].fix.title == "Insert all missing keys"
    assert found[-1].findings == tuple(missing)
    assert found[-1].fix.edits == (TextEdit(Span.point(1, 16), "\nchecks: \nscoring: "),)

"""Hover without a server: `ide.hover` on a real workspace, exact Markdown and spans."""

from __future__ import annotations

from tests.ide.conftest import EXAMPLES, RUBRIC, TODAY, Folder, at, source, span

from evalyaml.core.kinds import FileKind
from evalyaml.ide.hover import HoverInfo, hover
from evalyaml.workspace.index import Workspace


def test_hover_on_a_key_describes_it_from_the_schema(folder: Folder) -> None:
    path = folder.write("rubrics/tone.yaml", RUBRIC)
    text, _, kind = source(folder.workspace, path)
    assert kind is FileKind.RUBRIC
    found = hover(text, kind, at(text, "combine", 3), workspace=folder.workspace, today=TODAY)
    assert found is not None
    assert found.span == span(8, 2, 9)
    assert found.markdown.startswith("**combine** · string · required\n\n")
    assert "One of: `all_pass`" in found.markdown


def test_hover_on_a_check_kind_lists_its_fields(folder: Folder) -> None:
    path = folder.write("rubrics/tone.yaml", RUBRIC)
    text, _, kind = source(folder.workspace, path)
    assert kind is not None
    found = hover(text, kind, at(text, "format\n", 2), workspace=folder.workspace, today=TODAY)
    assert found is not None
    assert found.span == span(5, 10, 16)
    assert "Fields: `format` (required)" in found.markdown


def test_hover_on_a_reference_shows_its_target(folder: Folder) -> None:
    folder.write("rubrics/tone.yaml", RUBRIC)
    path = folder.write("datasets/cases.yaml", """\
        questions:
          - id: first
            input: hello
            rubric_ref: rubric/tone@1.0.0
        """)
    text, _, kind = source(folder.workspace, path)
    assert kind is FileKind.DATASET
    found = hover(text, kind, at(text, "rubric/tone", 8), workspace=folder.workspace,
                  today=TODAY)
    assert found == HoverInfo(
        "`rubric/tone@1.0.0` →\n\n**rubric/tone@1.0.0** · `rubrics/tone.yaml`\n\n"
        "Polite answers.\n\nChecks:\n- `format` `has_json`\n\nScoring: `all_pass`", span(3, 16, 33))


def test_hover_on_an_unknown_reference_says_so(folder: Folder) -> None:
    path = folder.write("datasets/cases.yaml", """\
        questions:
          - id: first
            input: hello
            rubric_ref: rubric/nowhere@1.0.0
        """)
    text, _, kind = source(folder.workspace, path)
    assert kind is not None
    found = hover(text, kind, at(text, "nowhere"), workspace=folder.workspace, today=TODAY)
    assert found == HoverInfo(
        "`rubric/nowhere@1.0.0`: no rubric with id `nowhere` in the workspace", span(3, 16, 36))


def test_hover_outside_anything_answers_nothing(folder: Folder) -> None:
    path = folder.write("rubrics/tone.yaml", RUBRIC)
    text, _, kind = source(folder.workspace, path)
    assert kind is not None
    assert hover(text, kind, at(text, "scoring:", 8), workspace=folder.workspace,
                 today=TODAY) is None


def test_hover_on_a_padosoft_sample_id_shows_its_row(examples: Workspace) -> None:
    path = EXAMPLES / "padosoft/eval/golden/support_faq.yml"
    text, _, kind = source(examples, path)
    assert kind is not None
    found = hover(text, kind, at(text, "refund-window", 2), workspace=examples, today=TODAY)
    assert found is not None
    assert found.span == span(6, 8, 21)
    assert found.markdown.startswith("**refund-window**\n\n")

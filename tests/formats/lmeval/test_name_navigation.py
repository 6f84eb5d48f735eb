"""References and rename of lm-eval task names (issue #24 item 5): a task's name, the group
lists naming it and the tags are one namespace; renaming a task edits its `task:` and every
group member naming it, never a tag or another task's text."""

from __future__ import annotations

from pathlib import Path

from evalyaml.ide.navigation import references, rename_edits, rename_target
from evalyaml.ide.source import Text
from evalyaml.syntax.text import Position
from evalyaml.workspace.index import Workspace

FILES = {
    "suite/_suite.yaml": "group: my_suite\ntask:\n  - qa_one\n  - task: qa_one\n"
                         "    num_fewshot: 0\n  - qa_two\n",
    "suite/qa_one.yaml": "task: qa_one\ndataset_path: x/y\noutput_type: multiple_choice\n"
                         "doc_to_choice: \"{{choices}}\"\n",
    "suite/qa_two.yaml": "task: qa_two\ndataset_path: x/y\noutput_type: multiple_choice\n"
                         "doc_to_choice: \"{{choices}}\"\ntag: qa_tag\n",
}


def _workspace(root: Path) -> Workspace:
    for name, text in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    workspace = Workspace([root])
    workspace.index_all()
    return workspace


def test_references_to_a_task_name_are_the_group_members_naming_it(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    path = tmp_path / "suite/qa_one.yaml"
    doc = Text(path.read_text(encoding="utf-8"), path)
    found = references(workspace, doc, workspace.analysis(path), Position(0, 8), True)
    got = sorted((t.path.relative_to(tmp_path).as_posix(), t.span.start.line,
                  t.span.start.character, t.span.end.character) for t in found)
    assert got == [("suite/_suite.yaml", 2, 4, 10), ("suite/_suite.yaml", 3, 10, 16),
                   ("suite/qa_one.yaml", 0, 6, 12)]


def test_renaming_a_task_from_a_group_member_edits_the_name_and_every_member(
        tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    path = tmp_path / "suite/_suite.yaml"
    doc = Text(path.read_text(encoding="utf-8"), path)
    target = rename_target(workspace, doc, workspace.analysis(path), Position(2, 6))
    assert target is not None
    edits = rename_edits(workspace, target, "qa_first")
    got = sorted((p.relative_to(tmp_path).as_posix(), span.start.line, span.start.character,
                  span.end.character, text) for p, spans in edits.items()
                 for span, text in spans)
    assert got == [("suite/_suite.yaml", 2, 4, 10, "qa_first"),
                   ("suite/_suite.yaml", 3, 10, 16, "qa_first"),
                   ("suite/qa_one.yaml", 0, 6, 12, "qa_first")]

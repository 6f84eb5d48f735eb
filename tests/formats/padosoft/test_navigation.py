"""An eval set's dataset names, navigable from the JSON as from YAML: go to definition lands
on the dataset's `name`, find references from the dataset lists the eval set, and rename
(a name is the author's choice) edits both files."""

from __future__ import annotations

from pathlib import Path

from evalyaml.ide.navigation import definition, references, rename_edits, rename_target
from evalyaml.ide.source import Text
from evalyaml.syntax.text import Position
from evalyaml.workspace.index import Workspace

DATASET = ("schema_version: eval-harness.dataset.v1\nname: support.faq\nsamples:\n"
           "  - id: a\n    input: {q: x}\n    expected_output: y\n")
EVAL_SET = ('{\n  "schema_version": "eval-harness.eval-set.v1",\n  "name": "nightly",\n'
            '  "datasets": ["support.faq"]\n}\n')


def test_an_eval_set_entry_navigates_and_renames(tmp_path: Path) -> None:
    (tmp_path / "evalyaml.toml").write_text("")
    golden, sets = tmp_path / "eval" / "golden", tmp_path / "eval" / "sets"
    golden.mkdir(parents=True)
    sets.mkdir(parents=True)
    (golden / "faq.yml").write_text(DATASET)
    (sets / "nightly.json").write_text(EVAL_SET)
    workspace = Workspace([tmp_path])
    workspace.index_all()
    source = Text(EVAL_SET, sets / "nightly.json")
    at = Position(3, EVAL_SET.splitlines()[3].index("support") + 3)
    found = definition(workspace, source, at)
    assert [(t.path, t.span.start.line, t.span.start.character) for t in found] == [
        (golden / "faq.yml", 1, 6)]
    listed = references(workspace, Text(DATASET, golden / "faq.yml"),
                        workspace.analysis(golden / "faq.yml"), Position(1, 8),
                        include_declaration=False)
    assert [(t.path, t.span.start.line) for t in listed] == [(sets / "nightly.json", 3)]
    target = rename_target(workspace, source, workspace.analysis(sets / "nightly.json"), at)
    assert target is not None and target.id == "support.faq"
    assert set(rename_edits(workspace, target, "support.help")) == {golden / "faq.yml",
                                                                    sets / "nightly.json"}

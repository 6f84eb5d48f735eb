"""The outline of a promptfoo config lists its tests by description, and every `file://` it
names is a document link to the file promptfoo would read."""

from __future__ import annotations

from pathlib import Path

from evalyaml.ide.navigation import document_symbols
from evalyaml.ide.source import Text
from evalyaml.workspace.index import Workspace

CONFIG = """prompts:
  - file://prompts/main.txt
providers:
  - echo
tests:
  - description: refund window
    vars: {question: How long?}
    assert:
      - type: icontains
        value: 30 days
  - vars: {question: Hi}
    assert:
      - type: python
        value: file://asserts/check.py:get_assert
"""


def _workspace(tmp_path: Path) -> Workspace:
    (tmp_path / "evalyaml.toml").write_text("", encoding="utf-8")
    (tmp_path / "promptfooconfig.yaml").write_text(CONFIG, encoding="utf-8")
    (tmp_path / "prompts").mkdir()
    (tmp_path / "prompts" / "main.txt").write_text("Answer {{ question }}\n", encoding="utf-8")
    (tmp_path / "asserts").mkdir()
    (tmp_path / "asserts" / "check.py").write_text("def get_assert(o, c):\n    return True\n",
                                                   encoding="utf-8")
    workspace = Workspace([tmp_path])
    workspace.index_all()
    return workspace


def test_the_outline_lists_tests_by_description(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    path = tmp_path / "promptfooconfig.yaml"
    symbols = document_symbols(Text(CONFIG, path), workspace.analysis(path))
    assert [(s.name, s.selection.start.line, s.selection.start.character) for s in symbols] == [
        ("refund window", 5, 17), ("test 2", 10, 4)]


def test_every_file_reference_names_the_file_promptfoo_reads(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    analysis = workspace.analysis(tmp_path / "promptfooconfig.yaml")
    assert analysis is not None
    refs = [(r.span.start.line, r.span.start.character, Path(r.candidates[0]).name)
            for r in analysis.file_refs]
    assert refs == [(1, 4, "main.txt"), (13, 15, "check.py")]
    assert workspace.findings(tmp_path / "prompts" / "main.txt") == []

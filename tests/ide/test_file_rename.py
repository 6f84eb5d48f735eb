"""Moving a file others name by path: every written path to it follows (`willRenameFiles`)."""

from __future__ import annotations

from pathlib import Path

from evalyaml.ide.file_rename import file_rename_edits
from evalyaml.workspace.index import Workspace

CONFIG = """prompts:
  - file://prompts/ask.txt
  - 'file://./prompts/ask.txt'
providers: [echo]
tests:
  - file://cases/basic.yaml
  - vars:
      question: file://data/q.txt
    assert:
      - type: python
        value: file://asserts/grade.py:check
"""
CASES = """- vars:
    question: file://../data/q.txt
  assert:
    - type: icontains
      value: parcel
"""


def _workspace(root: Path, files: dict[str, str]) -> Workspace:
    (root / "evalyaml.toml").write_text("", encoding="utf-8")
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
    workspace = Workspace([root])
    workspace.index_all()
    return workspace


def _applied(root: Path, workspace: Workspace, old: str, new: str) -> dict[str, str]:
    edits = file_rename_edits(workspace, [(root / old, root / new)])
    out: dict[str, str] = {}
    for holder, changes in edits.items():
        lines = holder.read_text(encoding="utf-8").split("\n")
        for span, text in sorted(changes, reverse=True):
            assert span.start.line == span.end.line
            line = lines[span.start.line]
            lines[span.start.line] = line[:span.start.character] + text + \
                line[span.end.character:]
        out[holder.relative_to(root).as_posix()] = "\n".join(lines)
    return out


def test_a_moved_prompt_file_is_renamed_in_every_config(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path, {
        "promptfooconfig.yaml": CONFIG, "prompts/ask.txt": "Q: {{ question }}\n",
        "cases/basic.yaml": CASES, "data/q.txt": "Where?\n", "asserts/grade.py": "",
        "other/promptfooconfig.yaml": "prompts: ['file://../prompts/ask.txt']\n"
                                      "providers: [echo]\n"})
    changed = _applied(tmp_path, workspace, "prompts/ask.txt", "templates/ask-v2.txt")
    assert changed["promptfooconfig.yaml"].split("\n")[1:3] == [
        "  - file://templates/ask-v2.txt", "  - 'file://./templates/ask-v2.txt'"]
    assert changed["other/promptfooconfig.yaml"].split("\n")[0] == \
        "prompts: ['file://../templates/ask-v2.txt']"
    assert set(changed) == {"promptfooconfig.yaml", "other/promptfooconfig.yaml"}


def test_a_moved_folder_moves_the_paths_into_it(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path, {
        "promptfooconfig.yaml": CONFIG, "prompts/ask.txt": "Q: {{ question }}\n",
        "cases/basic.yaml": CASES, "data/q.txt": "Where?\n", "asserts/grade.py": ""})
    changed = _applied(tmp_path, workspace, "data", "fixtures/data")
    assert changed["promptfooconfig.yaml"].split("\n")[7] == \
        "      question: file://fixtures/data/q.txt"
    assert changed["cases/basic.yaml"].split("\n")[1] == \
        "    question: file://../fixtures/data/q.txt"
    script = _applied(tmp_path, workspace, "asserts/grade.py", "asserts/score.py")
    assert script["promptfooconfig.yaml"].split("\n")[10] == \
        "        value: file://asserts/score.py:check"


def test_a_file_nobody_names_moves_alone(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path, {
        "promptfooconfig.yaml": CONFIG, "prompts/ask.txt": "Q: {{ question }}\n",
        "cases/basic.yaml": CASES, "data/q.txt": "Where?\n", "asserts/grade.py": "",
        "notes.txt": "x\n"})
    assert file_rename_edits(workspace, [(tmp_path / "notes.txt", tmp_path / "n.txt")]) == {}

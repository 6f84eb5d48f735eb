"""Adopted files: a file another file names as a kind of its format (an AgentV grader prompt, an
external cases file) is analysed as that kind for as long as something names it, whatever its
suffix or shape; it is never guessed from its own shape."""

from __future__ import annotations

from pathlib import Path

from evalyaml.formats.agentv import CASES, PROMPT
from evalyaml.workspace.index import Workspace

SUITE = """tests:
  - id: t1
    input: hi
    assertions:
      - type: llm-grader
        prompt: file://prompts/g.md
"""
UNNAMED = """tests:
  - id: t1
    input: hi
    criteria: ok
"""


def _tree(tmp_path: Path) -> tuple[Path, Path]:
    suite = tmp_path / "evals" / "a.eval.yaml"
    prompt = tmp_path / "evals" / "prompts" / "g.md"
    prompt.parent.mkdir(parents=True)
    suite.write_text(SUITE, encoding="utf-8")
    prompt.write_text("Judge {{ ouput }}\n", encoding="utf-8")
    return suite, prompt


def _codes(ws: Workspace, path: Path) -> list[str]:
    return [f.code for f in ws.findings(path)]


def test_a_named_prompt_is_analysed_as_a_prompt(tmp_path: Path) -> None:
    suite, prompt = _tree(tmp_path)
    (tmp_path / "evals" / "notes.md").write_text("{{ x }}\n", encoding="utf-8")
    ws = Workspace([tmp_path])
    ws.index_all()
    analysis = ws.analysis(prompt)
    assert analysis is not None and analysis.kind is PROMPT
    assert _codes(ws, prompt) == ["EY623", "EY624"]
    assert ws.paths() == [suite, prompt]  # the unnamed Markdown file is never read


def test_the_prompt_is_dropped_when_no_suite_names_it(tmp_path: Path) -> None:
    suite, prompt = _tree(tmp_path)
    ws = Workspace([tmp_path])
    ws.index_all()
    touched = ws.set_text(suite, UNNAMED)
    assert prompt in touched
    assert ws.analysis(prompt) is None and prompt not in ws.paths()
    touched = ws.set_text(suite, SUITE)
    assert prompt in touched and _codes(ws, prompt) == ["EY623", "EY624"]


def test_an_edit_to_the_open_prompt_is_checked_as_a_prompt(tmp_path: Path) -> None:
    _, prompt = _tree(tmp_path)
    ws = Workspace([tmp_path])
    ws.index_all()
    assert prompt in ws.set_text(prompt, "Judge {{ output }}\n")
    assert _codes(ws, prompt) == []
    ws.close(prompt)
    assert _codes(ws, prompt) == ["EY623", "EY624"]


def test_a_prompt_created_later_is_adopted_and_the_suite_rechecked(tmp_path: Path) -> None:
    suite, prompt = _tree(tmp_path)
    prompt.unlink()
    ws = Workspace([tmp_path])
    ws.index_all()
    assert _codes(ws, suite) == ["EY621"]
    prompt.write_text("Judge {{ output }}\n", encoding="utf-8")
    touched = ws.refresh(prompt)
    assert {suite, prompt} <= touched
    assert _codes(ws, suite) == []
    analysis = ws.analysis(prompt)
    assert analysis is not None and analysis.kind is PROMPT


def test_a_cases_file_is_checked_as_cases_only_when_named(tmp_path: Path) -> None:
    cases = tmp_path / "evals" / "cases.yaml"
    cases.parent.mkdir(parents=True)
    cases.write_text("- id: c1\n  inputs: hi\n  criteria: ok\n", encoding="utf-8")
    ws = Workspace([tmp_path])
    ws.index_all()
    analysis = ws.analysis(cases)
    assert analysis is None or analysis.kind is None  # a YAML list is everybody's shape
    suite = tmp_path / "evals" / "a.eval.yaml"
    suite.write_text("tests: cases.yaml\n", encoding="utf-8")
    touched = ws.refresh(suite)
    assert cases in touched
    analysis = ws.analysis(cases)
    assert analysis is not None and analysis.kind is CASES
    assert _codes(ws, cases) == ["EY604", "EY601"]


def test_a_name_outside_the_roots_is_never_adopted(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    (root / "evals").mkdir(parents=True)
    (tmp_path / "secret.md").write_text("{{ output }}\n", encoding="utf-8")
    suite = root / "evals" / "a.eval.yaml"
    suite.write_text(SUITE.replace("prompts/g.md", "../../secret.md"), encoding="utf-8")
    ws = Workspace([root])
    ws.index_all()
    assert ws.paths() == [suite]
    assert _codes(ws, suite) == ["EY621"]

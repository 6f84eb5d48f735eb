"""AgentV in the editor, through the pure `ide` layer on a real workspace: hover with effective
metadata and the rendered grader prompt, completion (grader types with custom ones, keys,
roles, variables in a prompt file), document links on `file://` prompts, cases files and
custom assertion types."""

from __future__ import annotations

import json
from pathlib import Path

from evalyaml.formats.agentv import PROMPT, SUITE
from evalyaml.ide import completion, hover, navigation
from evalyaml.ide.source import Text
from evalyaml.syntax.text import Position
from evalyaml.workspace.index import Workspace

SUITE_TEXT = """\
metadata:
  source: dexter
  tags: [finance, "1"]
governance:
  owner: risk
tests:
  - id: apple
    input:
      company: Apple
    metadata:
      tags: [1, extra]
      governance: {owner: me}
    assertions:
      - type: llm-grader
        prompt: file://prompts/dexter.md
        rubrics:
          - operator: correctness
            criteria: Uses the ticker.
      - type: tone-check
    rubrics:
      - outcome: Polite
"""
PROMPT_TEXT = "Task: {{ input }}\nAnswer: {{ output }}\nRubrics: {{ rubrics_json }}\n" \
    "Meta: {{ metadata_json }}\nKeep: {{ unknown }}\n"


def _workspace(tmp_path: Path) -> tuple[Workspace, Path, Path]:
    suite = tmp_path / "evals" / "a.eval.yaml"
    prompt = tmp_path / "evals" / "prompts" / "dexter.md"
    prompt.parent.mkdir(parents=True)
    suite.write_text(SUITE_TEXT, encoding="utf-8")
    prompt.write_text(PROMPT_TEXT, encoding="utf-8")
    script = tmp_path / ".agentv" / "assertions" / "tone-check.ts"
    script.parent.mkdir(parents=True)
    script.write_text("throw new Error('never run')\n", encoding="utf-8")
    ws = Workspace([tmp_path])
    ws.index_all()
    return ws, suite, prompt


def _hover(ws: Workspace, path: Path, line: int, character: int) -> str:
    found = hover.hover(Text(path.read_text(encoding="utf-8"), path), SUITE,
                        Position(line, character), workspace=ws, today=None)
    assert found is not None
    return found.markdown


def test_hover_on_a_test_id_shows_its_effective_metadata(tmp_path: Path) -> None:
    ws, suite, _ = _workspace(tmp_path)
    text = _hover(ws, suite, 6, 10)
    body = text.split("```json\n", 1)[1].split("\n```", 1)[0]
    # Arrays concatenated suite-first and de-duplicated ("1" and 1 collide); the top-level
    # governance replaces the suite's metadata.governance, and the test's own map merges over.
    assert json.loads(body) == {"tags": ["finance", "1", "extra"],
                                "governance": {"owner": "me"}, "source": "dexter"}


def test_hover_on_a_prompt_renders_what_the_grader_receives(tmp_path: Path) -> None:
    ws, suite, _ = _workspace(tmp_path)
    text = _hover(ws, suite, 14, 20)
    assert text.startswith("**prompts/dexter.md** · the prompt the grader receives for test "
                           "`apple`")
    rendered = text.split("```markdown\n", 1)[1].split("\n```", 1)[0]
    lines = rendered.splitlines()
    assert lines[0] == "Task: {"
    assert '"company": "Apple"' in rendered
    assert "Answer: ⟨the agent's answer⟩" in lines
    assert 'Rubrics: [{"id":"rubric-1","outcome":"Uses the ticker.","operator":"correctness",' \
        '"weight":1.0,"required":true}]' in lines
    assert lines[-1] == "Keep: {{ unknown }}"  # unknown variables stay verbatim


def _offers(ws: Workspace, path: Path, text: str, line: int, column: int) -> list[str]:
    kind = PROMPT if path.suffix == ".md" else SUITE
    req = completion.Request(Text(text, path), kind, line, ws, True, list)
    found = completion.format_offers(req, column)
    assert found is not None
    return [item.label for item in found]


def test_completion_of_types_keys_roles_and_variables(tmp_path: Path) -> None:
    ws, suite, prompt = _workspace(tmp_path)
    typed = SUITE_TEXT.replace("      - type: tone-check\n", "      - type: to\n")
    labels = _offers(ws, suite, typed, 18, len("      - type: to"))
    assert "tone-check" in labels and "llm-grader" in labels and "contains" in labels
    keyed = SUITE_TEXT.replace("    rubrics:\n      - outcome: Polite\n", "    cri\n")
    labels = _offers(ws, suite, keyed, 19, len("    cri"))
    assert "criteria" in labels and "expected_output" in labels
    assert "id" not in labels and "assertions" not in labels  # already there
    role = "tests:\n  - id: t\n    input:\n      - role: u\n"
    assert _offers(ws, suite, role, 3, len("      - role: u")) == ["system", "user", "assistant"]
    labels = _offers(ws, prompt, "Grade {{ ou", 0, len("Grade {{ ou"))
    assert labels[:3] == ["input", "output", "expected_output"]


def test_document_links_on_prompts_cases_and_custom_types(tmp_path: Path) -> None:
    ws, suite, prompt = _workspace(tmp_path)
    links = navigation.document_links(ws, ws.analysis(suite))
    targets = {(link.span.start.line, link.path) for link in links}
    assert targets == {(14, prompt),
                       (18, tmp_path / ".agentv" / "assertions" / "tone-check.ts")}


def test_the_custom_script_is_never_read(tmp_path: Path) -> None:
    ws, suite, _ = _workspace(tmp_path)
    script = tmp_path / ".agentv" / "assertions" / "tone-check.ts"
    assert script not in ws.paths()
    assert [f.code for f in ws.findings(suite)] == []


def test_an_unknown_type_is_found_once_the_script_goes(tmp_path: Path) -> None:
    ws, suite, _ = _workspace(tmp_path)
    (tmp_path / ".agentv" / "assertions" / "tone-check.ts").unlink()
    ws.refresh(tmp_path / ".agentv" / "assertions" / "tone-check.ts")
    assert [f.code for f in ws.findings(suite)] == ["EY613"]



def test_completion_on_the_empty_last_line(tmp_path: Path) -> None:
    """The line after the final newline exists for the editor (str.splitlines drops it): a
    top-level key is offered there, not an exception."""
    ws, suite, _ = _workspace(tmp_path)
    text = "description: d\n"
    labels = _offers(ws, suite, text, 1, 0)
    assert "tests" in labels and "description" not in labels

"""The bundled AgentV examples: `evals/` is clean, and each `mistakes/EY6nn*` file (with the
grader prompt it adopts and the `.agentv/` files of its folder) gives its own finding and no
other, with the exact range and message its caret comment draws under the mistake
(`tests/harness/example_carets.py`), or, where no comment can draw it, this file's table."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from evalyaml.core.codes import CODES
from harness.example_carets import Drawn, drawn_carets, drawn_json

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "agentv"
MISTAKES = sorted((EXAMPLES / "mistakes").glob("EY6*.eval.yaml"))

# Findings no comment can draw: at column 0 (where a comment's `#` would have to sit), over
# several lines, or in a grader prompt (Markdown sent to the grader as it is, no comments).
UNDRAWABLE: dict[str, Drawn] = {
    "EY600": Drawn(  # the whole document, a list where a mapping belongs
        "mistakes/EY600.eval.yaml", 0, 0, 1, 11, "EY600",
        'agentv cannot load the suite: the file must contain a YAML object ("File must contain '
        'a YAML object")'),
    "EY602": Drawn(
        "mistakes/EY602.eval.yaml", 0, 0, 0, 10, "EY602",
        "'eval_cases' is deprecated. Use 'tests' instead."),
    "EY623": Drawn(
        "mistakes/prompts/EY623.md", 0, 0, 0, 29, "EY623",
        "the llm-grader refuses this prompt and skips the test: it must include {{ output }} "
        'or {{ expected_output }} ("Missing required fields")'),
    "EY624": Drawn(
        "mistakes/prompts/EY624.md", 0, 9, 0, 14, "EY624",
        "unknown grader variable 'ouput': AgentV leaves {{ ouput }} in the prompt verbatim; "
        "did you mean 'output'?"),
    "EY625": Drawn(
        "mistakes/prompts/EY625.md", 0, 9, 0, 20, "EY625",
        "{{ output_text }} is deprecated: use {{ output }} (it still works, but will be "
        "removed)"),
    "EY633": Drawn(
        "mistakes/EY633.eval.yaml", 0, 0, 0, 9, "EY633",
        "an AgentV 5.x suite (providers/prompts): evalyaml checks the 4.x format (npm agentv "
        "4.x) and leaves this file unchecked"),
    "EY644": Drawn(
        "mistakes/EY644/.agentv/config.yaml", 2, 0, 2, 8, "EY644",
        "Unexpected fields: dashbord (agentv ignores it); did you mean 'dashboard'?"),
}


def _check(*paths: Path) -> list[dict[str, object]]:
    done = subprocess.run([sys.executable, "-m", "evalyaml", "check", *map(str, paths),
                           "--format", "json"], capture_output=True, text=True, timeout=120,
                          check=False)
    found: list[dict[str, object]] = json.loads(done.stdout)
    return found


def test_the_clean_suite_has_no_finding() -> None:
    assert _check(EXAMPLES / "evals") == []


def test_every_agentv_code_has_a_mistakes_file() -> None:
    assert {p.name.split(".")[0] for p in MISTAKES} == {c for c in CODES if c.startswith("EY6")}


@pytest.mark.parametrize("path", MISTAKES, ids=lambda p: p.name)
def test_each_mistakes_file_gives_the_finding_its_carets_draw(path: Path) -> None:
    code = path.name.split(".")[0]
    # A code about another AgentV file (a targets or config file) keeps it in a folder named
    # after it; the grader prompts of all the examples share `prompts/`, each named by its code.
    others = sorted((EXAMPLES / "mistakes" / code / ".agentv").glob("*.yaml"))
    found = _check(path, EXAMPLES / "mistakes" / "prompts", *others)
    mine = sorted(drawn_json(EXAMPLES, f) for f in found
                  if Path(str(f["path"])).resolve() in (path, *others)
                  or Path(str(f["path"])).name.startswith(code + "."))
    expected = [drawn for file in (path, *others) for drawn in drawn_carets(EXAMPLES, file)]
    expected += [UNDRAWABLE[code]] if code in UNDRAWABLE else []
    assert mine == sorted(expected)
    assert [d.code for d in mine] == [code]

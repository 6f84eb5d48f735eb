"""The bundled lm-eval examples: `tasks/` is clean, and each `mistakes/EYLMnnn*` file gives its
own finding and no other, with the exact range and message its caret comment draws under the
mistake (`tests/harness/example_carets.py`), or, where no comment can draw it, this file's
table."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from evalyaml.core.codes import CODES
from harness.example_carets import Drawn, drawn_carets, drawn_json

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "lm-eval"
MISTAKES = sorted((EXAMPLES / "mistakes").glob("EYLM*"))

# Findings at column 0, where a comment's `#` would have to sit: a top-level key.
UNDRAWABLE: dict[str, Drawn] = {
    "EYLM001": Drawn(
        "mistakes/EYLM001.yaml", 1, 0, 1, 4, "EYLM001",
        "a task's 'task:' must be its name: a list or mapping here makes the index skip "
        'the file ("unhashable type", logged at DEBUG), so lm-eval reports "Tasks not '
        "found\"; a group needs 'group: <name>' beside the list"),
    "EYLM002": Drawn(
        "mistakes/EYLM002.yml", 1, 0, 1, 4, "EYLM002",
        "the task index reads only '*.yaml' files: this '.yml' file is never loaded, so "
        "its task is \"not found\"; rename it to '.yaml'"),
    "EYLM006": Drawn(
        "mistakes/EYLM006.yaml", 5, 0, 5, 13, "EYLM006",
        "'fewshot_spilt' is not a TaskConfig field: the harness raises "
        "\"TaskConfig.__init__() got an unexpected keyword argument 'fewshot_spilt'\" "
        "when the task is loaded; did you mean 'fewshot_split'?"),
    "EYLM008": Drawn(
        "mistakes/EYLM008.yaml", 2, 0, 2, 11, "EYLM008",
        "a multiple_choice task needs 'doc_to_choice' (the answer options): without it "
        'the harness logs "doc_to_choice was called but not set in config" and fails '
        "with a TypeError while it builds the requests"),
    "EYLM009": Drawn(
        "mistakes/EYLM009.yaml", 5, 0, 5, 17, "EYLM009",
        "generation_kwargs is ignored by a loglikelihood task: the harness warns "
        '"passed `generation_kwargs`, but not using `output_type: generate_until`!"'),
    "EYLM019": Drawn(
        "mistakes/EYLM019.yaml", 1, 0, 1, 4, "EYLM019",
        'a generate_until task without generation_kwargs: the harness warns "No '
        '`generation_kwargs` specified in task config" and generates greedily (at most '
        "256 tokens, until the fewshot_delimiter)"),
    "EYLM023": Drawn(
        "mistakes/EYLM023.yaml", 1, 0, 1, 3, "EYLM023",
        "the index never registers a group's tag (it stores it and reads tags from task "
        "files only): this group is not among the tag's members, so --tasks with the "
        "tag does not run it; list the group where it should run, or tag its tasks"),
}


def _check(*paths: Path) -> list[dict[str, object]]:
    done = subprocess.run([sys.executable, "-m", "evalyaml", "check", *map(str, paths),
                           "--format", "json"], capture_output=True, text=True, timeout=120,
                          check=False)
    found: list[dict[str, object]] = json.loads(done.stdout)
    return found


def test_the_clean_tasks_have_no_finding() -> None:
    assert _check(EXAMPLES / "tasks") == []


def test_every_lm_eval_code_has_a_mistakes_file() -> None:
    assert {p.name.split(".")[0] for p in MISTAKES} == {c for c in CODES if c.startswith("EYLM")}


@pytest.mark.parametrize("path", MISTAKES, ids=lambda p: p.name)
def test_each_mistakes_file_gives_the_findings_its_carets_draw(path: Path) -> None:
    code = path.name.split(".")[0]
    found = sorted(drawn_json(EXAMPLES, f) for f in _check(path))
    files = sorted(path.rglob("*.y*ml")) if path.is_dir() else [path]
    expected = [drawn for file in files for drawn in drawn_carets(EXAMPLES, file)]
    expected += [UNDRAWABLE[code]] if code in UNDRAWABLE else []
    assert found == sorted(expected)
    assert {d.code for d in found} == {code}

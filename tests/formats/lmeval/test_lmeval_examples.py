"""The bundled lm-eval examples: `tasks/` is clean, and each `mistakes/EYLMnnn*` file gives its
own code and no other."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from evalyaml.core.codes import CODES

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "lm-eval"
MISTAKES = sorted((EXAMPLES / "mistakes").glob("EYLM*"))


def _codes(*paths: Path) -> list[dict[str, object]]:
    done = subprocess.run([sys.executable, "-m", "evalyaml", "check", *map(str, paths),
                           "--format", "json"], capture_output=True, text=True, timeout=120,
                          check=False)
    found: list[dict[str, object]] = json.loads(done.stdout)
    return found


def test_the_clean_tasks_have_no_finding() -> None:
    assert _codes(EXAMPLES / "tasks") == []


def test_every_lm_eval_code_has_a_mistakes_file() -> None:
    assert {p.name.split(".")[0] for p in MISTAKES} == {c for c in CODES if c.startswith("EYLM")}


@pytest.mark.parametrize("path", MISTAKES, ids=lambda p: p.name)
def test_each_mistakes_file_gives_its_code(path: Path) -> None:
    assert {str(f["code"]) for f in _codes(path)} == {path.name.split(".")[0]}

"""The bundled AgentV examples: `evals/` is clean, and each `mistakes/EY6nn*` file (with the
grader prompt it adopts) gives its own code and no other."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from evalyaml.core.codes import CODES

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "agentv"
MISTAKES = sorted((EXAMPLES / "mistakes").glob("EY6*.eval.yaml"))


def _codes(*paths: Path) -> list[dict[str, object]]:
    done = subprocess.run([sys.executable, "-m", "evalyaml", "check", *map(str, paths),
                           "--format", "json"], capture_output=True, text=True, timeout=120,
                          check=False)
    found: list[dict[str, object]] = json.loads(done.stdout)
    return found


def test_the_clean_suite_has_no_finding() -> None:
    assert _codes(EXAMPLES / "evals") == []


def test_every_agentv_code_has_a_mistakes_file() -> None:
    assert {p.name.split(".")[0] for p in MISTAKES} == {c for c in CODES if c.startswith("EY6")}


@pytest.mark.parametrize("path", MISTAKES, ids=lambda p: p.name)
def test_each_mistakes_file_gives_its_code(path: Path) -> None:
    code = path.name.split(".")[0]
    # A code about another AgentV file (a targets or config file) keeps it in a folder named
    # after it.
    folder = EXAMPLES / "mistakes" / code
    found = _codes(path, EXAMPLES / "mistakes" / "prompts",
                   *sorted((folder / ".agentv").glob("*.yaml")))
    mine = {str(f["code"]) for f in found
            if str(f["path"]).endswith("/" + path.name) or f"/prompts/{code}" in str(f["path"])
            or f"/{code}/" in str(f["path"])}
    assert mine == {code}

"""The bundled promptfoo examples: `clean/` gives no finding, and each `mistakes/EYPFnnn/`
workspace gives its own code and no other."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from evalyaml.core.codes import CODES

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "promptfoo"
MISTAKES = sorted(p for p in (EXAMPLES / "mistakes").iterdir() if p.is_dir())


def _check(*paths: Path) -> list[dict[str, object]]:
    done = subprocess.run([sys.executable, "-m", "evalyaml", "check", *map(str, paths),
                           "--format", "json"], capture_output=True, text=True, timeout=120,
                          check=False)
    found: list[dict[str, object]] = json.loads(done.stdout)
    return found


def test_the_clean_workspace_has_no_finding() -> None:
    assert _check(EXAMPLES / "clean") == []


def test_every_promptfoo_code_has_a_mistakes_workspace() -> None:
    assert {p.name for p in MISTAKES} == {c for c in CODES if c.startswith("EYPF")}


def test_each_mistakes_workspace_gives_its_code_and_no_other() -> None:
    found = _check(*MISTAKES)
    by_folder: dict[str, set[str]] = {p.name: set() for p in MISTAKES}
    for finding in found:
        path = Path(str(finding["path"])).resolve()
        folder = path.relative_to(EXAMPLES / "mistakes").parts[0]
        by_folder[folder].add(str(finding["code"]))
    assert by_folder == {name: {name} for name in by_folder}


@pytest.mark.parametrize("name", ["EYPF011", "EYPF015", "EYPF021"])
def test_a_mistake_is_located_in_the_file_promptfoo_reads(name: str) -> None:
    found = _check(EXAMPLES / "mistakes" / name)
    lines = [(Path(str(f["path"])).name, f["range"]["start"]["line"])  # type: ignore[index]
             for f in found]
    assert lines == {"EYPF011": [("promptfooconfig.yaml", 3)], "EYPF015": [("tests.csv", 1)],
                     "EYPF021": [("tests.csv", 2)]}[name]

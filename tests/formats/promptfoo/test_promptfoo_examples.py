"""The bundled promptfoo examples: `clean/` gives no finding, and each `mistakes/EYPFnnn/`
workspace gives its own finding and no other, with the exact range and message its caret
comment draws under the mistake (`tests/harness/example_carets.py`), or, where no comment can
draw it, this file's table."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from evalyaml.core.codes import CODES
from harness.example_carets import Drawn, drawn_carets, drawn_json

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "promptfoo"
MISTAKES = sorted(p for p in (EXAMPLES / "mistakes").iterdir() if p.is_dir())

# Findings no comment can draw: at column 0 (where a comment's `#` would have to sit), or in a
# file promptfoo reads without YAML comments (a prompt template, a CSV of tests).
UNDRAWABLE: dict[str, Drawn] = {
    "EYPF002": Drawn(
        "mistakes/EYPF002/promptfooconfig.yaml", 3, 0, 3, 7, "EYPF002",
        "both 'providers' and 'targets' are set: promptfoo warns \"Exactly one of 'targets' or "
        "'providers' must be provided, but not both\" and runs only 'targets' (the providers "
        "are silently replaced)"),
    "EYPF003": Drawn(
        "mistakes/EYPF003/promptfooconfig.yaml", 0, 0, 0, 7, "EYPF003",
        "the config has no 'providers' (or 'targets'): promptfoo fails with \"You must specify "
        "at least 1 provider\""),
    "EYPF008": Drawn(
        "mistakes/EYPF008/promptfooconfig.yaml", 2, 0, 2, 5, "EYPF008",
        "no test in this config has an assertion (none of their own, none from defaultTest): "
        "promptfoo only records the outputs, and every test passes"),
    "EYPF013": Drawn(
        "mistakes/EYPF013/prompt.txt", 0, 32, 0, 37, "EYPF013",
        "unknown block tag 'endfi': the nunjucks render throws (\"unknown block tag: endfi\")"),
    "EYPF014": Drawn(
        "mistakes/EYPF014/tests.csv", 0, 9, 0, 18, "EYPF014",
        "column '_expected' has a single underscore: promptfoo warns and reads it as a "
        "variable; did you mean '__expected'?"),
    "EYPF015": Drawn(
        "mistakes/EYPF015/tests.csv", 1, 3, 1, 14, "EYPF015",
        "'icontain' is no assertion type, so promptfoo compares the output with the whole cell "
        "('equals') and the test fails; did you mean 'icontains:'?"),
    "EYPF021": Drawn(
        "mistakes/EYPF021/tests.csv", 2, 0, 2, 5, "EYPF021",
        "this record has 1 fields and the header 2: csv-parse fails with \"Invalid Record "
        "Length: columns length is 2, got 1 on line 3\""),
}


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


def test_each_mistakes_workspace_gives_the_findings_its_carets_draw() -> None:
    found = _check(*MISTAKES)
    by_folder: dict[str, list[Drawn]] = {p.name: [] for p in MISTAKES}
    for finding in found:
        drawn = drawn_json(EXAMPLES, finding)
        by_folder[drawn.path.split("/")[1]].append(drawn)
    expected = {p.name: sorted([drawn for file in sorted(p.rglob("*.yaml"))
                                for drawn in drawn_carets(EXAMPLES, file)]
                               + ([UNDRAWABLE[p.name]] if p.name in UNDRAWABLE else []))
                for p in MISTAKES}
    assert {name: sorted(drawns) for name, drawns in by_folder.items()} == expected
    assert all([d.code for d in drawns] == [name] for name, drawns in expected.items())


@pytest.mark.parametrize("name", ["EYPF011", "EYPF015", "EYPF021"])
def test_a_mistake_is_located_in_the_file_promptfoo_reads(name: str) -> None:
    found = _check(EXAMPLES / "mistakes" / name)
    lines = [(Path(str(f["path"])).name, f["range"]["start"]["line"])  # type: ignore[index]
             for f in found]
    assert lines == {"EYPF011": [("promptfooconfig.yaml", 3)], "EYPF015": [("tests.csv", 1)],
                     "EYPF021": [("tests.csv", 2)]}[name]

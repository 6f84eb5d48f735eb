"""examples/padosoft/: the workspace analyses clean, and each file in mistakes/ gives the finding
its name starts with and nothing else, through the format itself (the engine's CLI test of the
examples covers the wiring); a YAML mistake's finding has the exact range and message its caret
comment draws under the mistake (`tests/harness/example_carets.py`), or, where no comment can
draw it, this file's table."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from evalyaml.core.options import Options
from evalyaml.formats.base import Claim
from evalyaml.formats.padosoft import DATASET, EVAL_SET, FORMAT
from harness.example_carets import Drawn, drawn_carets, drawn_finding

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "padosoft"
OPTIONS = Options(today=date(2026, 11, 21))
CLEAN = sorted(p for p in (EXAMPLES / "eval").rglob("*") if p.is_file())
MISTAKES = sorted(p for p in (EXAMPLES / "mistakes").iterdir() if p.is_file())

# Findings at column 0, where a comment's `#` would have to sit: a top-level key.
UNDRAWABLE: dict[str, Drawn] = {
    "EY501": Drawn(
        "mistakes/EY501-null-name.yml", 3, 0, 3, 4, "EY501",
        "eval-harness refuses to load the dataset: 'name' is null, which counts as "
        "missing (loader: \"Dataset YAML missing required string field 'name'.\")"),
    "EY502": Drawn(
        "mistakes/EY502-typo-sampels.yml", 4, 0, 4, 7, "EY502",
        "eval-harness refuses to load the dataset: the dataset has no 'samples' "
        "('sampels' is not 'samples': did you mean 'samples'?) (loader: \"Dataset YAML "
        "missing required list field 'samples'.\")"),
}


def _analyze(path: Path) -> tuple[Claim, list[Drawn]]:
    text = path.read_text(encoding="utf-8")
    rel = path.relative_to(EXAMPLES).as_posix()
    claim = FORMAT.claim(text, rel, None)
    assert isinstance(claim, Claim), rel
    analysis = FORMAT.analyze(text, rel, claim.kind, OPTIONS)
    return claim, [drawn_finding(rel, f) for f in analysis.findings]


@pytest.mark.parametrize("path", CLEAN, ids=lambda p: p.name)
def test_clean_examples(path: Path) -> None:
    assert _analyze(path)[1] == []


def test_the_eval_set_names_the_example_datasets() -> None:
    defined: set[str] = set()
    referenced: set[str] = set()
    for path in CLEAN:
        text = path.read_text(encoding="utf-8")
        claim = FORMAT.claim(text, str(path), None)
        assert isinstance(claim, Claim)
        analysis = FORMAT.analyze(text, str(path), claim.kind, OPTIONS)
        defined.update(d.id for d in analysis.definitions if d.kind is DATASET)
        referenced.update(r.id or "" for r in analysis.references if claim.kind is EVAL_SET)
    assert len(defined) == 3
    assert referenced == defined


def test_every_padosoft_code_has_a_mistake_file() -> None:
    codes = {p.name.split("-")[0] for p in MISTAKES}
    assert codes == {f"EY{n}" for n in range(500, 520)}


@pytest.mark.parametrize("path", MISTAKES, ids=lambda p: p.name)
def test_mistake_gives_its_finding_and_nothing_else(path: Path) -> None:
    code = path.name.split("-")[0]
    found = _analyze(path)[1]
    assert [d.code for d in found] == [code]
    if path.suffix == ".json":  # no comment to draw with: the code is what it gives
        return
    assert path.read_text(encoding="utf-8").splitlines()[0] == f"# expect: {code}"
    expected = drawn_carets(EXAMPLES, path)
    expected += [UNDRAWABLE[code]] if code in UNDRAWABLE else []
    assert found == expected

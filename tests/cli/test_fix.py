"""`check --fix`, `--unsafe-fixes`, `--diff`, `--statistics` and the fixes in JSON output, through
the real CLI on a copy of the example mistakes."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import shutil
from pathlib import Path

import pytest

from evalyaml.cli import main

REPO = Path(__file__).resolve().parents[2]
TODAY = "2026-11-21"
MISTAKES = ["mistakes", "padosoft/mistakes", "agentv/mistakes", "eee/mistakes",
            "apastra/mistakes"]


@pytest.fixture
def examples(tmp_path: Path) -> Path:
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    return tmp_path / "examples"


def run(root: Path, *args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.chdir(root), contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(io.StringIO()):
        code = main(["check", *MISTAKES, "--today", TODAY, *args])
    return code, out.getvalue()


def snapshot(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def test_fix_round_trip_leaves_nothing_fixable_and_is_idempotent(examples: Path) -> None:
    before = snapshot(examples)
    code, diff = run(examples, "--diff")
    assert code == 1
    assert snapshot(examples) == before  # --diff writes nothing
    changed = sorted(line[6:] for line in diff.splitlines() if line.startswith("+++ b/"))
    assert changed == [
        "agentv/mistakes/EY622.eval.yaml", "agentv/mistakes/prompts/EY625.md",
        "apastra/mistakes/promptops/evaluators/EY802-stale-digest.yaml",
        "apastra/mistakes/promptops/prompts/EY810-spaced-placeholder.yaml",
        *(f"eee/mistakes/{case}/data/arith-demo/acme/tiny-model/"
          f"5c4b3a29-1807-4f6e-9d5c-4b3a29180706{tail}" for case, tail in (
              ("EY721-checksum-of-an-older-file", ".json"),
              ("EY722-total-rows-off-by-one", ".json"),
              ("EY725-sample_hash-of-another-question", ".json"),
              ("EY725-sample_hash-of-another-question", "_samples.jsonl"))),
        "mistakes/datasets/EY303-unpinned-ref.yaml", "mistakes/rubrics/EY208-numeric_version.yaml",
        "padosoft/mistakes/EY505-numeric-id.yml", "padosoft/mistakes/EY510-numeric-expected.yaml",
        "padosoft/mistakes/EY514-quoted-k.yml", "padosoft/mistakes/EY517-numeric-tag.yml"]
    assert "-version: 1.10\n+version: \"1.10.0\"\n" in diff
    run(examples, "--fix")
    after = snapshot(examples)
    assert {k for k in after if after[k] != before[k]} == set(changed)
    _, text = run(examples)
    assert "fixable with `evalyaml check --fix`" not in text
    assert run(examples, "--diff") == (0, "")
    run(examples, "--fix")
    assert snapshot(examples) == after  # a second --fix changes nothing


def test_the_sample_hash_fix_carries_into_the_aggregate_checksum(examples: Path) -> None:
    """One run: the rewritten samples file changes its checksum, written in the same run."""
    run(examples, "--fix")
    _, text = run(examples)
    assert "EY725-sample_hash" not in text and "EY721-checksum" not in text


def test_unsafe_fixes_rename(examples: Path) -> None:
    _, diff = run(examples, "--diff", "--unsafe-fixes")
    assert "-    expecteed_facts:" in diff and "+    expected_facts:" in diff
    _, safe = run(examples, "--diff")
    assert "expected_facts" not in safe


def test_line_endings_and_bom_are_kept(examples: Path) -> None:
    target = examples / "mistakes" / "rubrics" / "EY208-numeric_version.yaml"
    text = target.read_text("utf-8").replace("\n", "\r\n")
    target.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    run(examples, "--fix")
    data = target.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")
    assert data[3:].decode("utf-8") == text.replace("version: 1.10\r\n", 'version: "1.10.0"\r\n')


def test_json_output_carries_fix_edits(examples: Path) -> None:
    _, out = run(examples, "--format", "json")
    items = json.loads(out)
    quoted = next(i for i in items if i["code"] == "EY208")
    assert quoted["fixes"] == [{"title": 'Quote the version as "1.10.0"', "safe": True,
                                "edits": [{"range": {"start": {"line": 4, "character": 9},
                                                     "end": {"line": 4, "character": 13}},
                                           "newText": '"1.10.0"'}]}]
    typo = next(i for i in items if i["code"] == "EY205")
    assert [f["safe"] for f in typo["fixes"]] == [False]
    assert all("fixes" not in i for i in items if i["code"] == "EY101")


def test_statistics(examples: Path) -> None:
    code, out = run(examples, "--statistics")
    lines = out.splitlines()
    assert "    1\tEY208   \t[*] numeric-version" in lines
    assert any(line.startswith("    2\tEY205   \t    likely-typo") for line in lines)
    assert code == 1

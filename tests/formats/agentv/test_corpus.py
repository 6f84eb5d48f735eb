"""AgentV on the shared corpus: every finding on a seed-era suite (`corpus/agentv/`, e43a4d46)
is listed here with the upstream rule that makes it true; `agentv-head/` (5.x) gets one
information note per 5.x suite and nothing else; no other corpus folder is claimed.

The rules, quoted from the code at e43a4d46:
- EY622 (prompt path without `file://`): `graders/prompt-resolution.ts` resolves a prompt as a
  file only when it starts with `file://`; any other string is inline text, so the grader
  receives "../graders/refusal.md" as its criteria (`_validation_findings.json` labels all 55
  of these: `agentv_bare_prompt_paths_treated_as_inline_text`).
- EY601 (`defaults:` in autoresearch/EVAL.yaml): `eval-validator.ts` KNOWN_TOP_LEVEL_FIELDS has
  no `defaults` ("Unknown field 'defaults'. This field will be ignored.").
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus"

_RT = "examples/red-team/archetypes/"
_PII = _RT + "customer-facing-agent/suites/pii-cross-customer-disclosure.eval.yaml"
_SCREENSHOT = _RT + "coding-agent/suites/screenshot-pii-upload.eval.yaml"
EXPECTED = [
    ("examples/features/autoresearch/EVAL.yaml", 10, "EY601"),
    ("examples/features/basic/evals/dataset.eval.yaml", 83, "EY622"),
    ("examples/features/composite/evals/dataset.eval.yaml", 26, "EY622"),
    ("examples/features/composite/evals/dataset.eval.yaml", 29, "EY622"),
    ("examples/features/composite/evals/dataset.eval.yaml", 53, "EY622"),
    ("examples/features/composite/evals/dataset.eval.yaml", 56, "EY622"),
    ("examples/features/composite/evals/dataset.eval.yaml", 79, "EY622"),
    ("examples/features/composite/evals/dataset.eval.yaml", 82, "EY622"),
    ("examples/features/composite/evals/dataset.eval.yaml", 85, "EY622"),
    ("examples/features/composite/evals/dataset.eval.yaml", 107, "EY622"),
    ("examples/features/composite/evals/dataset.eval.yaml", 110, "EY622"),
    ("examples/features/composite/evals/dataset.eval.yaml", 118, "EY622"),
    ("examples/features/multi-turn-conversation/evals/dataset.eval.yaml", 57, "EY622"),
    ("examples/features/multi-turn-conversation/evals/dataset.eval.yaml", 61, "EY622"),
    ("examples/features/multi-turn-conversation/evals/dataset.eval.yaml", 65, "EY622"),
    ("examples/features/multi-turn-conversation/evals/dataset.eval.yaml", 117, "EY622"),
    ("examples/features/multi-turn-conversation/evals/dataset.eval.yaml", 121, "EY622"),
    ("examples/features/multi-turn-conversation/evals/dataset.eval.yaml", 125, "EY622"),
    ("examples/features/weighted-graders/evals/dataset.eval.yaml", 24, "EY622"),
    ("examples/features/weighted-graders/evals/dataset.eval.yaml", 29, "EY622"),
    ("examples/features/weighted-graders/evals/dataset.eval.yaml", 34, "EY622"),
    ("examples/features/weighted-graders/evals/dataset.eval.yaml", 51, "EY622"),
    ("examples/features/weighted-graders/evals/dataset.eval.yaml", 57, "EY622"),
    ("examples/features/weighted-graders/evals/dataset.eval.yaml", 75, "EY622"),
    ("examples/features/weighted-graders/evals/dataset.eval.yaml", 78, "EY622"),
    ("examples/features/weighted-graders/evals/dataset.eval.yaml", 81, "EY622"),
    (_SCREENSHOT, 167, "EY622"),
    (_PII, 41, "EY622"),
    (_PII, 57, "EY622"),
    (_PII, 76, "EY622"),
    ("examples/red-team/suites/agentic-tool-misuse.eval.yaml", 35, "EY622"),
    ("examples/red-team/suites/agentic-tool-misuse.eval.yaml", 50, "EY622"),
    ("examples/red-team/suites/agentic-tool-misuse.eval.yaml", 82, "EY622"),
    ("examples/red-team/suites/agentic-tool-misuse.eval.yaml", 107, "EY622"),
    ("examples/red-team/suites/agentic-tool-misuse.eval.yaml", 137, "EY622"),
    ("examples/red-team/suites/agentic-tool-misuse.eval.yaml", 158, "EY622"),
    ("examples/red-team/suites/llm01-prompt-injection.eval.yaml", 42, "EY622"),
    ("examples/red-team/suites/llm01-prompt-injection.eval.yaml", 57, "EY622"),
    ("examples/red-team/suites/llm01-prompt-injection.eval.yaml", 73, "EY622"),
    ("examples/red-team/suites/llm01-prompt-injection.eval.yaml", 98, "EY622"),
    ("examples/red-team/suites/llm01-prompt-injection.eval.yaml", 125, "EY622"),
    ("examples/red-team/suites/llm01-prompt-injection.eval.yaml", 148, "EY622"),
    ("examples/red-team/suites/llm01-prompt-injection.eval.yaml", 168, "EY622"),
    ("examples/red-team/suites/llm01-prompt-injection.eval.yaml", 186, "EY622"),
    ("examples/red-team/suites/llm01-prompt-injection.eval.yaml", 206, "EY622"),
    ("examples/red-team/suites/llm01-prompt-injection.eval.yaml", 221, "EY622"),
    ("examples/red-team/suites/llm10-unbounded-consumption.eval.yaml", 68, "EY622"),
    ("examples/showcase/multi-model-benchmark/evals/benchmark.eval.yaml", 30, "EY622"),
    ("examples/showcase/multi-model-benchmark/evals/benchmark.eval.yaml", 34, "EY622"),
    ("examples/showcase/multi-model-benchmark/evals/benchmark.eval.yaml", 38, "EY622"),
    ("examples/showcase/offline-grader-benchmark/evals/setup-a.eval.yaml", 18, "EY622"),
    ("examples/showcase/offline-grader-benchmark/evals/setup-a.eval.yaml", 22, "EY622"),
    ("examples/showcase/offline-grader-benchmark/evals/setup-a.eval.yaml", 26, "EY622"),
    ("examples/showcase/offline-grader-benchmark/evals/setup-b.eval.yaml", 18, "EY622"),
    ("examples/showcase/offline-grader-benchmark/evals/setup-b.eval.yaml", 22, "EY622"),
    ("examples/showcase/offline-grader-benchmark/evals/setup-b.eval.yaml", 26, "EY622"),
]
FIVE_X = [
    "examples/features/readme-quickstart/evals/my-eval.eval.yaml",
    "examples/features/rubric/evals/operators.eval.yaml",
    "examples/red-team/suites/llm10-unbounded-consumption.eval.yaml",
]


def _check(folder: Path) -> list[dict[str, object]]:
    done = subprocess.run([sys.executable, "-m", "evalyaml", "check", str(folder), "--format",
                           "json"], capture_output=True, text=True, timeout=120, check=False)
    assert done.stderr == ""
    found: list[dict[str, object]] = json.loads(done.stdout)
    return found


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is not next to this tree")
def test_every_seed_era_finding_is_one_upstream_confirms() -> None:
    found = _check(CORPUS / "agentv")
    got = [(str(f["path"]).split("/corpus/agentv/")[1],
            f["range"]["start"]["line"] + 1, f["code"])  # type: ignore[index]
           for f in found]
    assert got == EXPECTED
    assert {f["code"] for f in found} == {"EY601", "EY622"}
    assert len([f for f in found if f["code"] == "EY622"]) == 55


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is not next to this tree")
def test_five_x_suites_get_one_note_each_and_nothing_else() -> None:
    found = _check(CORPUS / "agentv-head")
    assert sorted((str(f["path"]).split("/corpus/agentv-head/")[1], f["code"], f["severity"])
                  for f in found) == [(p, "EY633", "information") for p in FIVE_X]

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
- EY621 (a named file is missing): files the corpus did not copy from the repository.
  `validation/file-reference-validator.ts` ("Referenced file not found: ...") for message
  content `{type: file, value: ...}` in a test's input (resolved from the suite's folder up the
  search roots); `validation/workspace-path-validator.ts` ("Template path not found",
  "Hook script not found") for `workspace.template` and hook arguments that look like paths
  (`./x`, `../x`, a script suffix). `agentv validate` 4.42.4 reports the same ones, and one
  more that is false: `"{{workspace_path}}/scripts/setup.mjs"` in agent-plugin-review's hook,
  which `workspace/script-executor.ts` fills in when the hook runs (evalyaml leaves hook
  arguments and templates holding `{{ }}` alone). The suite's external workspace file
  (`workspace: ../../workspace.yaml`, checked as the suite's workspace) names a template folder
  the corpus did not copy; agentv reads that file's template too (`validateWorkspacePaths`).
- EY621 in prompt-template-sdk (`prompt: {command: [bun, run, ../prompts/custom-grader.ts]}`):
  a true upstream mistake, not a corpus gap. The file is `custom-evaluator.ts` in the upstream
  tree too (the rename of #1111 changed the reference, not the file); `grader-parser.ts`
  resolves the command's last argument through the search roots and throws "prompt command
  file not found", so both tests are skipped.
- EY640 (an `input_files` entry is missing): the same `../fixtures/sales.csv` the corpus did not
  copy, named through `input_files:`; `expandInputFilesShorthand` makes it `{type: file}`
  content and `loaders/message-processor.ts` warns "File not found" and sends the input without
  it (the upstream tree at e43a4d46 has the file: no finding there).
- EY645 (a suite's target is not in its targets file): `apps/cli/src/utils/targets.ts`
  `discoverTargetsFile` takes the first `targets.yaml`/`.agentv/targets.yaml` from the suite's
  folder up, and `commands/eval/targets.ts` `resolveUseTarget` throws "Target 'x' not found".
  `gemini-llm` (multi-model-benchmark, psychotherapy): true upstream mistakes, the repository's
  only targets file on their way up is the root `.agentv/targets.yaml`, which defines `gemini`
  and no `gemini-llm`. `mock_metrics_agent`, `mock_agent`, `mock_latency_agent`,
  `static_trace`: defined in `examples/features/<example>/.agentv/targets.yaml` upstream, files
  the corpus did not copy (the upstream-tree test has no finding there).
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
    ("evals/agentic-engineering/agent-plugin-review.eval.yaml", 6, "EY621"),
    ("evals/self/eval.yaml", 12, "EY621"),
    ("evals/self/eval.yaml", 39, "EY621"),
    ("evals/self/eval.yaml", 70, "EY621"),
    ("examples/features/agent-skills-evals/csv-analyzer.EVAL.yaml", 4, "EY621"),
    ("examples/features/agent-skills-evals/csv-analyzer.EVAL.yaml", 13, "EY621"),
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
    ("examples/features/document-extraction/evals/confusion-metrics.eval.yaml", 67, "EY621"),
    ("examples/features/document-extraction/evals/confusion-metrics.eval.yaml", 93, "EY621"),
    ("examples/features/document-extraction/evals/confusion-metrics.eval.yaml", 119, "EY621"),
    ("examples/features/document-extraction/evals/confusion-metrics.eval.yaml", 145, "EY621"),
    ("examples/features/document-extraction/evals/confusion-metrics.eval.yaml", 174, "EY621"),
    ("examples/features/document-extraction/evals/field-accuracy.eval.yaml", 195, "EY621"),
    ("examples/features/document-extraction/evals/field-accuracy.eval.yaml", 256, "EY621"),
    ("examples/features/document-extraction/evals/field-accuracy.eval.yaml", 293, "EY621"),
    ("examples/features/document-extraction/evals/field-accuracy.eval.yaml", 329, "EY621"),
    ("examples/features/document-extraction/evals/field-accuracy.eval.yaml", 377, "EY621"),
    ("examples/features/document-extraction/evals/field-accuracy.eval.yaml", 416, "EY621"),
    ("examples/features/execution-metrics/evals/dataset.eval.yaml", 23, "EY645"),
    ("examples/features/file-changes-graders/evals/dataset.eval.yaml", 14, "EY621"),
    ("examples/features/file-changes-graders/evals/dataset.eval.yaml", 17, "EY645"),
    ("examples/features/input-files-shorthand/evals/dataset.eval.yaml", 44, "EY640"),
    ("examples/features/input-files-shorthand/evals/dataset.eval.yaml", 61, "EY621"),
    ("examples/features/input-files-shorthand/evals/dataset.eval.yaml", 74, "EY640"),
    ("examples/features/input-files-shorthand/evals/dataset.eval.yaml", 75, "EY640"),
    ("examples/features/latency-assertions/evals/dataset.eval.yaml", 38, "EY645"),
    ("examples/features/multi-turn-conversation/evals/dataset.eval.yaml", 57, "EY622"),
    ("examples/features/multi-turn-conversation/evals/dataset.eval.yaml", 61, "EY622"),
    ("examples/features/multi-turn-conversation/evals/dataset.eval.yaml", 65, "EY622"),
    ("examples/features/multi-turn-conversation/evals/dataset.eval.yaml", 117, "EY622"),
    ("examples/features/multi-turn-conversation/evals/dataset.eval.yaml", 121, "EY622"),
    ("examples/features/multi-turn-conversation/evals/dataset.eval.yaml", 125, "EY622"),
    ("examples/features/prompt-template-sdk/evals/dataset.eval.yaml", 30, "EY621"),
    ("examples/features/prompt-template-sdk/evals/dataset.eval.yaml", 50, "EY621"),
    ("examples/features/tool-calls-template/evals/eval.yaml", 17, "EY621"),
    ("examples/features/tool-trajectory-advanced/evals/trace-file-demo.eval.yaml", 16, "EY645"),
    ("examples/features/tool-trajectory-simple/evals/dataset.eval.yaml", 38, "EY645"),
    ("examples/features/weighted-graders/evals/dataset.eval.yaml", 24, "EY622"),
    ("examples/features/weighted-graders/evals/dataset.eval.yaml", 29, "EY622"),
    ("examples/features/weighted-graders/evals/dataset.eval.yaml", 34, "EY622"),
    ("examples/features/weighted-graders/evals/dataset.eval.yaml", 51, "EY622"),
    ("examples/features/weighted-graders/evals/dataset.eval.yaml", 57, "EY622"),
    ("examples/features/weighted-graders/evals/dataset.eval.yaml", 75, "EY622"),
    ("examples/features/weighted-graders/evals/dataset.eval.yaml", 78, "EY622"),
    ("examples/features/weighted-graders/evals/dataset.eval.yaml", 81, "EY622"),
    ("examples/features/workspace-multi-repo/evals/dataset.eval.yaml", 6, "EY621"),
    ("examples/features/workspace-shared-config/workspace.yaml", 1, "EY621"),
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
    ("examples/showcase/cw-incident-triage/evals/dataset.eval.yaml", 34, "EY621"),
    ("examples/showcase/cw-incident-triage/evals/dataset.eval.yaml", 63, "EY621"),
    ("examples/showcase/cw-incident-triage/evals/dataset.eval.yaml", 98, "EY621"),
    ("examples/showcase/cw-incident-triage/evals/dataset.eval.yaml", 131, "EY621"),
    ("examples/showcase/cw-incident-triage/evals/dataset.eval.yaml", 160, "EY621"),
    ("examples/showcase/cw-incident-triage/evals/dataset.eval.yaml", 189, "EY621"),
    ("examples/showcase/cw-incident-triage/evals/dataset.eval.yaml", 218, "EY621"),
    ("examples/showcase/cw-incident-triage/evals/dataset.eval.yaml", 247, "EY621"),
    ("examples/showcase/export-screening/evals/dataset.eval.yaml", 46, "EY621"),
    ("examples/showcase/export-screening/evals/dataset.eval.yaml", 69, "EY621"),
    ("examples/showcase/export-screening/evals/dataset.eval.yaml", 94, "EY621"),
    ("examples/showcase/export-screening/evals/dataset.eval.yaml", 117, "EY621"),
    ("examples/showcase/export-screening/evals/dataset.eval.yaml", 141, "EY621"),
    ("examples/showcase/export-screening/evals/dataset.eval.yaml", 164, "EY621"),
    ("examples/showcase/export-screening/evals/dataset.eval.yaml", 187, "EY621"),
    ("examples/showcase/export-screening/evals/dataset.eval.yaml", 210, "EY621"),
    ("examples/showcase/export-screening/evals/dataset.eval.yaml", 235, "EY621"),
    ("examples/showcase/export-screening/evals/dataset.eval.yaml", 258, "EY621"),
    ("examples/showcase/export-screening/evals/dataset.eval.yaml", 281, "EY621"),
    ("examples/showcase/export-screening/evals/dataset.eval.yaml", 305, "EY621"),
    ("examples/showcase/export-screening/evals/dataset.eval.yaml", 334, "EY621"),
    ("examples/showcase/export-screening/evals/dataset.eval.yaml", 358, "EY621"),
    ("examples/showcase/export-screening/evals/dataset.eval.yaml", 383, "EY621"),
    ("examples/showcase/export-screening/evals/dataset.eval.yaml", 407, "EY621"),
    ("examples/showcase/export-screening/evals/dataset.eval.yaml", 436, "EY621"),
    ("examples/showcase/export-screening/evals/dataset.eval.yaml", 459, "EY621"),
    ("examples/showcase/export-screening/evals/dataset.eval.yaml", 482, "EY621"),
    ("examples/showcase/export-screening/evals/dataset.eval.yaml", 505, "EY621"),
    ("examples/showcase/export-screening/evals/dataset.eval.yaml", 529, "EY621"),
    ("examples/showcase/export-screening/evals/dataset.eval.yaml", 552, "EY621"),
    ("examples/showcase/multi-model-benchmark/evals/benchmark.eval.yaml", 21, "EY645"),
    ("examples/showcase/multi-model-benchmark/evals/benchmark.eval.yaml", 30, "EY622"),
    ("examples/showcase/multi-model-benchmark/evals/benchmark.eval.yaml", 34, "EY622"),
    ("examples/showcase/multi-model-benchmark/evals/benchmark.eval.yaml", 38, "EY622"),
    ("examples/showcase/offline-grader-benchmark/evals/setup-a.eval.yaml", 18, "EY622"),
    ("examples/showcase/offline-grader-benchmark/evals/setup-a.eval.yaml", 22, "EY622"),
    ("examples/showcase/offline-grader-benchmark/evals/setup-a.eval.yaml", 26, "EY622"),
    ("examples/showcase/offline-grader-benchmark/evals/setup-b.eval.yaml", 18, "EY622"),
    ("examples/showcase/offline-grader-benchmark/evals/setup-b.eval.yaml", 22, "EY622"),
    ("examples/showcase/offline-grader-benchmark/evals/setup-b.eval.yaml", 26, "EY622"),
    ("examples/showcase/psychotherapy/evals/encouragement.eval.yaml", 7, "EY645"),
    ("examples/showcase/psychotherapy/evals/encouragement.eval.yaml", 37, "EY621"),
    ("examples/showcase/psychotherapy/evals/encouragement.eval.yaml", 69, "EY621"),
    ("examples/showcase/psychotherapy/evals/encouragement.eval.yaml", 102, "EY621"),
    ("examples/showcase/psychotherapy/evals/encouragement.eval.yaml", 134, "EY621"),
    ("examples/showcase/psychotherapy/evals/encouragement.eval.yaml", 166, "EY621"),
    ("examples/showcase/psychotherapy/evals/encouragement.eval.yaml", 202, "EY621"),
    ("examples/showcase/psychotherapy/evals/encouragement.eval.yaml", 234, "EY621"),
    ("examples/showcase/psychotherapy/evals/encouragement.eval.yaml", 267, "EY621"),
    ("examples/showcase/psychotherapy/evals/routing.eval.yaml", 5, "EY645"),
    ("examples/showcase/psychotherapy/evals/routing.eval.yaml", 31, "EY621"),
    ("examples/showcase/psychotherapy/evals/routing.eval.yaml", 78, "EY621"),
    ("examples/showcase/psychotherapy/evals/routing.eval.yaml", 125, "EY621"),
    ("examples/showcase/psychotherapy/evals/routing.eval.yaml", 173, "EY621"),
]
FIVE_X = [
    "examples/features/external-datasets/evals/suite.yaml",
    "examples/features/readme-quickstart/evals/my-eval.eval.yaml",
    "examples/features/rubric/evals/operators.eval.yaml",
    "examples/features/rubric/evals/suite.yaml",
    "examples/features/scenarios/evals/suite.yaml",
    "examples/features/suite-level-input/evals/suite.yaml",
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
    assert {f["code"] for f in found} == {"EY601", "EY621", "EY622", "EY640", "EY645"}
    assert len([f for f in found if f["code"] == "EY622"]) == 55


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is not next to this tree")
def test_five_x_suites_get_one_note_each_and_nothing_else() -> None:
    found = _check(CORPUS / "agentv-head")
    assert sorted((str(f["path"]).split("/corpus/agentv-head/")[1], f["code"], f["severity"])
                  for f in found) == [(p, "EY633", "information") for p in FIVE_X]

"""The kinds of Apastra PromptOps file: one per schema Apastra ships (55), named after it.

Kept apart from `__init__` so every module of the package can import them without a cycle.
Every kind's `schema_file` is its upstream schema, shipped unchanged under `schemas/apastra/`,
so completion and hover walk exactly what ajv validates. The kinds other files name by id
(prompts, datasets, evaluators, suites, baselines) are also exported by their role.
"""

from __future__ import annotations

from evalyaml.core.kinds import FormatKind

FORMAT_NAME = "apastra"

SCHEMA_NAMES: tuple[str, ...] = (
    "agent-skill", "approval-state", "artifact-refs", "audit-report", "automated-scan-record",
    "baseline", "canary-suite", "community-prompt-pack", "community-report-record",
    "comparison-scorecard", "consumption-manifest", "dataset-case", "dataset-manifest",
    "delivery-target-receipt", "delivery-target", "deprecation-record", "drift-report",
    "emergency-takedown-decision", "evaluator", "flake-quarantine-record", "harness-adapter",
    "mcp-server-adapter", "mcp-tool-definition", "mirror-sync-receipt",
    "moderation-approval-for-public-listing", "moderation-decision-record",
    "moderation-escalation-record", "namespace-claim-record", "observability-adapter-config",
    "ownership-dispute-record", "policy-exception-record", "promotion-record",
    "prompt-optimization-report", "prompt-package", "prompt-spec", "promptops-config",
    "provenance-attestation", "provider-artifact", "quick-eval", "regression-policy",
    "regression-report", "reject-record", "release-descriptor", "run-artifact", "run-case",
    "run-failures", "run-manifest", "run-request", "scorecard", "submission-record", "suite",
    "takedown-appeal-record", "takedown-record", "trusted-publisher-provenance",
    "vulnerability-flag-record",
)

# How messages name a kind: "Apastra prompt", "Apastra dataset"...
_WORDS = {
    "prompt-spec": "prompt",
    "dataset-manifest": "dataset",
    "dataset-case": "dataset cases file",
    "canary-suite": "canary",
    "run-case": "run cases file",
}


def _kind(name: str) -> FormatKind:
    word = _WORDS.get(name, name.replace("-", " "))
    return FormatKind(FORMAT_NAME, f"Apastra {word}", f"apastra/{name}.schema.json")


BY_SCHEMA: dict[str, FormatKind] = {name: _kind(name) for name in SCHEMA_NAMES}
SCHEMA_OF: dict[FormatKind, str] = {kind: name for name, kind in BY_SCHEMA.items()}
KINDS: tuple[FormatKind, ...] = tuple(BY_SCHEMA.values())

PROMPT = BY_SCHEMA["prompt-spec"]
DATASET = BY_SCHEMA["dataset-manifest"]
CASES = BY_SCHEMA["dataset-case"]  # a dataset's JSONL: one dataset-case per line
EVALUATOR = BY_SCHEMA["evaluator"]
SUITE = BY_SCHEMA["suite"]
QUICK_EVAL = BY_SCHEMA["quick-eval"]
CANARY = BY_SCHEMA["canary-suite"]
REGRESSION_POLICY = BY_SCHEMA["regression-policy"]
CONSUMPTION = BY_SCHEMA["consumption-manifest"]
PACKAGE = BY_SCHEMA["prompt-package"]
BASELINE = BY_SCHEMA["baseline"]
RUN_CASES = BY_SCHEMA["run-case"]
RUN_FAILURES = BY_SCHEMA["run-failures"]

# Files of these kinds hold one JSON value per line (validated line by line).
LINE_KINDS = frozenset({CASES, RUN_CASES})

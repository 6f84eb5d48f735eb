"""Recognising Apastra files: by place under promptops/ (as Apastra's hook maps it), by a
`$schema` naming an Apastra schema, and a prompt at the promptops/ root by shape; never
another project's file."""

from __future__ import annotations

import pytest

from evalyaml.formats.apastra import FORMAT
from evalyaml.formats.apastra.kinds import (
    BASELINE,
    BY_SCHEMA,
    CANARY,
    CASES,
    CONSUMPTION,
    DATASET,
    EVALUATOR,
    PACKAGE,
    PROMPT,
    QUICK_EVAL,
    REGRESSION_POLICY,
    RUN_CASES,
    SUITE,
)
from evalyaml.formats.base import Claim, Format, Tier

PROTOCOL: Format = FORMAT  # mypy checks that the format satisfies the engine's protocol


@pytest.mark.parametrize(("path", "text", "kind", "tier"), [
    ("promptops/suites/s.yaml", "id: s\n", SUITE, Tier.PATH),
    ("promptops/evaluators/e.yml", "id: e\n", EVALUATOR, Tier.PATH),
    ("promptops/evals/q.yaml", "id: q\n", QUICK_EVAL, Tier.PATH),
    ("promptops/canaries/c.yaml", "id: c\n", CANARY, Tier.PATH),
    ("promptops/datasets/d/dataset-manifest.yaml", "id: d\n", DATASET, Tier.PATH),
    ("promptops/datasets/d/dataset.jsonl", "{}\n", CASES, Tier.PATH),
    ("promptops/datasets/flat.jsonl", "{}\n", CASES, Tier.PATH),
    ("promptops/prompts/p.json", "{}", PROMPT, Tier.PATH),
    ("promptops/prompts/p/prompt.yaml", "id: p\n", PROMPT, Tier.PATH),
    ("promptops/prompts/pkg/package.yaml", "id: p\n", PACKAGE, Tier.PATH),
    ("promptops/manifests/app.yaml", "version: '1'\n", CONSUMPTION, Tier.PATH),
    ("promptops/policies/regression.yaml", "baseline: x\n", REGRESSION_POLICY, Tier.PATH),
    ("promptops/policies/prod.yaml", "baseline: x\nrules: []\n", REGRESSION_POLICY,
     Tier.PATH),
    ("promptops/runs/r1/cases.jsonl", "{}\n", RUN_CASES, Tier.PATH),
    ("promptops/runs/r1/run_request.json", "{}", BY_SCHEMA["run-request"], Tier.PATH),
    ("derived-index/baselines/b.json", "{}", BASELINE, Tier.PATH),
    ("derived-index/starter-packs/extraction/pack.json", "{}",
     BY_SCHEMA["community-prompt-pack"], Tier.PATH),
    ("derived-index/regressions/r1.json", '{"status": "pass"}', BY_SCHEMA["regression-report"],
     Tier.PATH),
    ("derived-index/regressions/d1.json", '{\n  "baseline_ref": "a",\n  "current_ref": "b"}',
     BY_SCHEMA["drift-report"], Tier.PATH),
    ("derived-index/promotions/2026-p.json", "{}", BY_SCHEMA["promotion-record"], Tier.PATH),
    ("promptops/delivery/npm-target.yaml", "type: npm\n", BY_SCHEMA["delivery-target"],
     Tier.PATH),
    ("promptops/delivery/observability.yaml", "adapters: []\n",
     BY_SCHEMA["observability-adapter-config"], Tier.PATH),
    ("promptops/harnesses/mine/adapter.yaml", "id: mine\n", BY_SCHEMA["harness-adapter"],
     Tier.PATH),
    ("promptops/datasets/flat-manifest.yaml", "id: d\n", DATASET, Tier.PATH),
    ("promptops/runs/r1/scorecard.json", "{}", BY_SCHEMA["scorecard"], Tier.PATH),
    ("app/promptops.config.yaml", "defaults: {}\n", BY_SCHEMA["promptops-config"], Tier.PATH),
    ("promptops/valid.yaml", "id: v\nvariables: {}\ntemplate: hi\n", PROMPT, Tier.SHAPE),
    ("promptops/evaluators/x.yaml", "$schema: ../schemas/evaluator.schema.json\nid: x\n",
     EVALUATOR, Tier.DIRECTIVE),
    ("x.json", '{"$schema": "https://promptops.apastra.com/schemas/suite.schema.json"}',
     SUITE, Tier.DIRECTIVE),
])
def test_claims(path: str, text: str, kind: object, tier: Tier) -> None:
    found = FORMAT.claim(text, path, None)
    assert isinstance(found, Claim)
    assert (found.kind, found.tier) == (kind, tier)


@pytest.mark.parametrize(("path", "text"), [
    ("promptops/schemas/suite.schema.json", "{}"),
    ("promptops/policies/acceptable-use.md", "# policy\n"),
    ("promptops/policies/notes.yaml", "owner: me\n"),
    ("promptops/harnesses/run.sh", "echo\n"),
    ("prompts/p.yaml", "id: p\nvariables: {}\ntemplate: hi\n"),
    ("other/x.yaml", "$schema: ../schemas/suite.schema.json\nid: x\n"),
    ("promptops/notes.yaml", "id: n\n"),
    ("promptops/datasets/d/README.txt", "hi\n"),
])
def test_not_claimed(path: str, text: str) -> None:
    assert FORMAT.claim(text, path, None) is None
    assert FORMAT.near_miss(text, path, None) is None

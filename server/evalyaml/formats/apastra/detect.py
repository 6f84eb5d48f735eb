"""Recognising Apastra files from their path and text, without a parse.

Apastra decides a file's schema by its place (`hooks/agent_hook.py` `schema_for_path`):
`promptops/evals/` quick evals, `evaluators/`, `suites/`, `canaries/`, `datasets/` (`.jsonl`
cases, anything else a manifest), `prompts/` (`package.{yaml,json}` a prompt package, anything
else a prompt spec). The other folders its docs and workflows use are read the same way
(`policies/` regression policies, `manifests/` consumption manifests, `delivery/` targets,
`harnesses/*/adapter.yaml`, `runs/<id>/` artefacts, `derived-index/baselines/`,
`starter-packs/`, `regressions/` (regression or drift reports) and `promotions/`). Strongest first:
- DIRECTIVE: a `$schema` naming one of Apastra's schema files, by an Apastra URL or, below a
  `promptops/` folder, by any path (`../schemas/evaluator.schema.json`): another project's
  `suite.schema.json` is not Apastra's.
- PATH: the folders above, below a `promptops/` (or `derived-index/`) folder; `.md` and `.sh`
  files there are never ours, and `promptops/schemas/` holds the schemas themselves.
- SHAPE: a prompt spec directly in `promptops/` (root `id`, `variables` and `template`).
`promptops.config.yaml` anywhere is the project configuration (`runtime/config.py`). Apastra's
"minimal mode" (`prompts/`, `evals/` at the repository root) is not recognised: other tools use
those folder names.
"""

from __future__ import annotations

import re
from pathlib import PurePath

from evalyaml.core.kinds import FormatKind
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
from evalyaml.formats.base import Claim, Tier
from evalyaml.syntax.lazyre import lazy_re

SUFFIXES = (".yaml", ".yml", ".json", ".jsonl")
_SCHEMA_KEY = lazy_re(
    r"""^[ \t{]*["']?\$schema["']?[ \t]*:[ \t]*["']?(?P<value>[^"'\n]*?(?P<name>[a-z-]+)"""
    r"""\.schema\.json)""", re.MULTILINE)
_ROOT_KEY = r"(?:^|\n)[ \t]{{0,8}}\"?{key}\"?[ \t]*:"
_SHAPE_KEYS = [re.compile(_ROOT_KEY.format(key=k)) for k in ("id", "variables", "template")]

_FOLDERS: dict[str, FormatKind] = {
    "evals": QUICK_EVAL,
    "evaluators": EVALUATOR,
    "suites": SUITE,
    "canaries": CANARY,
    "manifests": CONSUMPTION,
}
_RUN_FILES: dict[str, FormatKind] = {
    "run_manifest.json": BY_SCHEMA["run-manifest"],
    "run_request.json": BY_SCHEMA["run-request"],
    "scorecard.json": BY_SCHEMA["scorecard"],
    "artifact_refs.json": BY_SCHEMA["artifact-refs"],
    "cases.jsonl": RUN_CASES,
    "failures.json": BY_SCHEMA["run-failures"],
    "regression_report.json": BY_SCHEMA["regression-report"],
    "run_artifact.json": BY_SCHEMA["run-artifact"],
}
_RULES = lazy_re(r"^rules[ \t]*:", re.MULTILINE)
_BASELINE = lazy_re(r"^baseline[ \t]*:", re.MULTILINE)
_DRIFT = lazy_re(r"[\"']?(?:drift_detected|current_ref)[\"']?[ \t]*:")
_PACKAGE_NAMES = frozenset({"package.yaml", "package.yml", "package.json"})


def claim(text: str, path: str | None, root: str | None) -> Claim | None:
    suffix = PurePath(path).suffix.lower() if path else ""
    if suffix not in SUFFIXES:
        return None
    head = text[:4096]
    if suffix != ".jsonl":
        named = _SCHEMA_KEY.search(head)
        if named and named.group("name") in BY_SCHEMA and (
                "apastra" in named.group("value") or "promptops" in named.group("value")
                or (path is not None and "promptops" in PurePath(path).parts)):
            return Claim(BY_SCHEMA[named.group("name")], Tier.DIRECTIVE,
                         "its $schema names an Apastra schema")
    name = PurePath(path).name if path else ""
    if name in ("promptops.config.yaml", "promptops.config.yml"):
        return Claim(BY_SCHEMA["promptops-config"], Tier.PATH,
                     "Apastra's runtime reads promptops.config.yaml")
    parts = _parts_below(path, root)
    if parts is None:
        return None
    base, rest = parts
    kind = _by_place(base, rest, suffix, head)
    if kind is not None:
        return Claim(kind, Tier.PATH, f"its place under {base}/ names it")
    if base == "promptops" and len(rest) == 1 and suffix != ".jsonl" and all(
            p.search(head) for p in _SHAPE_KEYS):
        return Claim(PROMPT, Tier.SHAPE, "root id, variables and template")
    return None


def _parts_below(path: str | None, root: str | None) -> tuple[str, list[str]] | None:
    """The last `promptops` or `derived-index` folder of the path (below the root), and the
    parts after it."""
    if not path:
        return None
    parts = list(PurePath(path).parts)
    if root:
        root_parts = PurePath(root).parts
        if tuple(parts[:len(root_parts)]) == root_parts:
            parts = parts[len(root_parts):]
    for index in range(len(parts) - 2, -1, -1):
        if parts[index] in ("promptops", "derived-index"):
            return parts[index], parts[index + 1:]
    return None


def _by_place(base: str, rest: list[str], suffix: str, head: str) -> FormatKind | None:
    folder, name = rest[0], rest[-1]
    if len(rest) < 2:
        return None
    if base == "derived-index":
        if folder == "baselines" and suffix == ".json":
            return BASELINE
        if folder == "starter-packs" and name == "pack.json":
            return BY_SCHEMA["community-prompt-pack"]
        if folder == "regressions" and suffix == ".json":
            # runs/generate_regression_report.sh and generate_drift_report.sh both write here
            return BY_SCHEMA["drift-report"] if _DRIFT.search(head) else BY_SCHEMA[
                "regression-report"]
        if folder == "promotions" and suffix in (".json", ".yaml", ".yml"):
            return BY_SCHEMA["promotion-record"]  # setup-ci: promotion records
        return None
    if folder == "schemas":
        return None
    if suffix == ".jsonl":
        if folder == "datasets":
            return CASES
        if folder == "runs" and name == "cases.jsonl":
            return RUN_CASES
        return None
    if folder in _FOLDERS:
        return _FOLDERS[folder]
    if folder == "datasets":
        return DATASET
    if folder == "prompts":
        return PACKAGE if name in _PACKAGE_NAMES else PROMPT
    if folder == "policies" and suffix in (".yaml", ".yml") and (
            name.startswith("regression") or (_RULES.search(head) and _BASELINE.search(head))):
        return REGRESSION_POLICY
    if folder == "delivery":
        return (BY_SCHEMA["observability-adapter-config"] if name.startswith("observability")
                else BY_SCHEMA["delivery-target"])
    if folder == "harnesses" and name in ("adapter.yaml", "adapter.yml", "adapter.json"):
        return BY_SCHEMA["harness-adapter"]
    if folder == "runs" and len(rest) == 3:
        return _RUN_FILES.get(name)
    return None

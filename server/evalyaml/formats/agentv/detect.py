"""Recognition as AgentV's `validation/file-type.ts` does it, plus what `agentv eval` runs but
`agentv validate` skips: bare `EVAL.yaml` / `eval.yaml` suites.

A YAML array root is a cases file to AgentV; here it is one only when a suite names it (the
workspace adopts it), because arrays are everybody's shape.
"""

from __future__ import annotations

import re
from pathlib import PurePath

from evalyaml.formats.agentv.kinds import CONFIG, SUITE, TARGETS
from evalyaml.formats.base import Claim, Tier
from evalyaml.syntax.lazyre import lazy_re

_SCHEMA = lazy_re(
    r"""^\$schema[ \t]*:[ \t]*["']?(?P<id>[A-Za-z0-9._:/-]+)["']?[ \t]*(?:#.*)?\r?$""",
    re.MULTILINE)
_SUITE_IDS = frozenset({"agentv-eval-v2"})
_CONFIG_IDS = frozenset({"agentv-config-v2"})
_TARGETS_IDS = frozenset({"agentv-targets-v2.2"})
_TESTS_KEY = lazy_re(r"^(?:tests|eval_cases|evalcases)[ \t]*:", re.MULTILINE)
_FIVE_X_SUITE = lazy_re(r"^prompts[ \t]*:", re.MULTILINE)
_TESTS_OR_SCENARIOS = lazy_re(r"^(?:tests|scenarios)[ \t]*:", re.MULTILINE)
_SUITE_NAME = lazy_re(r"(?:^|\.)eval\.ya?ml$", re.IGNORECASE)


def claim(text: str, path: str | None) -> Claim | None:
    match = _SCHEMA.search(text[:4096])
    if match:
        ident = match.group("id")
        if ident in _SUITE_IDS:
            return Claim(SUITE, Tier.DIRECTIVE, f"$schema is {ident}")
        if ident in _CONFIG_IDS:
            return Claim(CONFIG, Tier.DIRECTIVE, f"$schema is {ident}")
        if ident in _TARGETS_IDS:
            return Claim(TARGETS, Tier.DIRECTIVE, f"$schema is {ident}")
    if path is None:
        return None
    pure = PurePath(path)
    name = pure.name
    if pure.parent.name == ".agentv" and name.lower() in ("targets.yaml", "targets.yml"):
        return Claim(TARGETS, Tier.PATH, "AgentV reads its targets from .agentv/targets.yaml")
    if pure.parent.name == ".agentv" and name.lower() in ("config.yaml", "config.yml"):
        return Claim(CONFIG, Tier.PATH, "AgentV reads .agentv/config.yaml")
    if name.lower() in ("suite.yaml", "suite.yml") and _FIVE_X_SUITE.search(text) and \
            _TESTS_OR_SCENARIOS.search(text):
        # 5.x's canonical suite name; only with a 5.x top-level `prompts:` (the EY633 note).
        return Claim(SUITE, Tier.PATH, "AgentV 5.x runs evals/suite.yaml")
    if _SUITE_NAME.search(name):
        # A bare `eval.yaml` is also Hugging Face's inspect task card: only with `tests:`.
        if name.lower() in ("eval.yaml", "eval.yml") and name[0] == "e" and \
                not _TESTS_KEY.search(text):
            return None
        return Claim(SUITE, Tier.PATH, "AgentV runs *.eval.yaml, EVAL.yaml and eval.yaml")
    return None

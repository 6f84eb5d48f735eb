"""The kinds of AgentV file evalyaml checks.

A suite is what `agentv eval` runs; a grader prompt (`prompt: file://x.md`) and an external cases
file (`tests: cases.yaml`, `- file://more.jsonl`) are checked only as what a suite that names
them says they are (adopted), never by guessing from their shape. `.agentv/config.yaml` and
`targets.yaml` are recognised so that nothing else claims them; targets files get the
structural rules of `targets-validator.ts`, config files those of `config-validator.ts`
(`config.py`).
"""

from __future__ import annotations

from evalyaml.core.kinds import FormatKind

SUITE = FormatKind("agentv", "AgentV eval suite", None)
PROMPT = FormatKind("agentv", "AgentV grader prompt", None)
CASES = FormatKind("agentv", "AgentV cases file", None)
CONFIG = FormatKind("agentv", "AgentV config file", None)
# `workspace: shared/workspace.yaml`: the suite's workspace, kept in its own file.
WORKSPACE = FormatKind("agentv", "AgentV workspace file", None)
# `.agentv/targets.yaml` (or `$schema: agentv-targets-v2.2`): the targets a suite runs against.
TARGETS = FormatKind("agentv", "AgentV targets file", None)

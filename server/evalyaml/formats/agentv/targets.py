"""`.agentv/targets.yaml`, as `validation/targets-validator.ts` checks it at e43a4d46: the file
is a mapping with a `targets` list; each target a mapping with a non-empty `name`, a `provider`
(or `use_target` delegation) that is a known provider or alias, and a string `grader_target`.
A provider that is no built-in one may be a custom provider, a script in an ancestor
`.agentv/providers/` (`provider-discovery.ts`): the cross check looks.

Each target's own settings (per provider, camelCase names, a `cli` target's command and
healthcheck) are `targetsettings.py`'s.
"""

from __future__ import annotations

from evalyaml.formats.agentv.common import Context, pairs, text_of
from evalyaml.formats.agentv.suite import SuiteFacts, SuiteRef
from evalyaml.formats.agentv.targetsettings import check_settings
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence

KNOWN_PROVIDERS = (
    "openai", "openrouter", "azure", "anthropic", "gemini", "codex", "copilot-sdk",
    "copilot-cli", "copilot-log", "pi-coding-agent", "pi-cli", "claude", "claude-cli",
    "claude-sdk", "cli", "mock", "vscode", "vscode-insiders", "agentv", "transcript")
PROVIDER_ALIASES = (
    "azure-openai", "google", "google-gemini", "codex-cli", "copilot", "copilot_sdk", "pi",
    "claude-code", "cc-mirror", "bedrock", "vertex")
_ENV = "${{"


def check_targets(ctx: Context, root: Node | None, facts: SuiteFacts) -> None:
    if not isinstance(root, Mapping):
        if root is not None and not (isinstance(root, Scalar) and root.value is None):
            ctx.add("EY641", "a targets file must hold a YAML mapping (\"File must contain a "
                    "YAML object\")", ctx.span(root))
        return
    pair = root.pair("targets")
    if pair is None or not isinstance(pair[1], Sequence):
        ctx.add("EY641", "Missing or invalid 'targets' field (must be an array)",
                ctx.at(*pair) if pair else ctx.span(pairs(root)[0][0]) if root.pairs
                else ctx.span(root))
        return
    for target in pair[1].items:
        if not isinstance(target, Mapping):
            ctx.add("EY641", "Target must be an object", ctx.span(target)
                    if target.end > target.start else ctx.point(target))
            continue
        _target(ctx, target, facts)


def _target(ctx: Context, target: Mapping, facts: SuiteFacts) -> None:
    values = {key.text: (key, value) for key, value in pairs(target)}
    head = ctx.span(pairs(target)[0][0]) if target.pairs else ctx.span(target)
    name = values.get("name")
    text = text_of(name[1]) if name else None
    if text is None or not text.strip():
        ctx.add("EY641", "Missing or invalid 'name' field (must be a non-empty string)",
                ctx.at(*name) if name else head)
    provider = values.get("provider")
    raw = text_of(provider[1]) if provider else None
    delegated = bool(text_of(values["use_target"][1])) if "use_target" in values else False
    if (raw is None or not raw.strip()) and not delegated:
        ctx.add("EY641", "Missing or invalid 'provider' field (must be a non-empty string, or "
                "use use_target for delegation)", ctx.at(*provider) if provider else head)
    elif raw is not None and provider is not None and _ENV not in raw and \
            raw not in (*KNOWN_PROVIDERS, *PROVIDER_ALIASES) and isinstance(provider[1], Scalar):
        # A custom provider (a script in an ancestor `.agentv/providers/`) is the cross
        # check's to find; the script is never read or run.
        facts.refs.append(SuiteRef("provider", raw, ctx.span(provider[1]), provider[1].style,
                                   provider[1].text))
    grader = values.get("grader_target") or values.get("judge_target")
    if grader is not None and not (isinstance(grader[1], Scalar)
                                   and isinstance(grader[1].value, str)):
        ctx.add("EY641", "Invalid 'grader_target' field (must be a string)", ctx.at(*grader))
    check_settings(ctx, target, provider[1] if provider else None)

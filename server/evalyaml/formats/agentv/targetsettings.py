"""A target's own settings, as `validation/targets-validator.ts` (e43a4d46) and the resolvers of
`providers/targets.ts` read them: the settings each provider reads (anything else is ignored
with a warning), the snake_case names that replaced camelCase ones (the resolver throws), the
settings removed for a provider (the resolver throws), and a `cli` target's `command` and
`healthcheck` (the CLI schema refuses them).

A value holding `${{ VAR }}` is filled in from the environment before upstream looks at it, so it
is never judged here; a provider given that way has no known settings.
"""

from __future__ import annotations

import math
import re

from evalyaml.core.findings import Fix
from evalyaml.formats.agentv.common import Context, pairs, rank_value, text_of
from evalyaml.syntax.text import Span
from evalyaml.syntax.tree import Mapping, Node, Scalar

_ENV = "${{"
_ENV_SPAN = re.compile(r"\$\{\{.*?\}\}")

COMMON = ("use_target", "provider_batching", "subagent_mode_allowed", "fallback_targets")
BASE = ("name", "provider", "grader_target", "judge_target", "workers", "$schema", "targets")
_RETRY = ("max_retries", "retry_initial_delay_ms", "retry_max_delay_ms", "retry_backoff_factor",
          "retry_status_codes")
_LLM = ("api_key", "model", "deployment", "variant", "temperature", "max_output_tokens")
_CLAUDE = ("executable", "command", "binary", "model", "cwd", "timeout_seconds", "log_dir",
           "log_directory", "log_format", "log_output_format", "system_prompt", "max_turns",
           "max_budget_usd")
_SETTINGS: dict[str, tuple[str, ...]] = {
    "openai": (*_RETRY, *_LLM, "endpoint", "base_url", "api_format"),
    "openrouter": (*_RETRY, *_LLM),
    "azure": (*_RETRY, "endpoint", "resource", "api_key", "deployment", "model", "version",
              "api_version", "temperature", "max_output_tokens"),
    "anthropic": (*_RETRY, *_LLM, "thinking_budget"),
    "gemini": (*_RETRY, *_LLM),
    "codex": ("model", "model_reasoning_effort", "executable", "command", "binary", "args",
              "arguments", "cwd", "timeout_seconds", "log_dir", "log_directory", "stream_log",
              "system_prompt"),
    "copilot-sdk": ("cli_url", "cli_path", "github_token", "model", "cwd", "timeout_seconds",
                    "log_dir", "log_format", "system_prompt", "byok"),
    "copilot-cli": ("executable", "command", "binary", "args", "arguments", "model", "cwd",
                    "timeout_seconds", "log_dir", "log_format", "system_prompt"),
    "vscode": ("executable", "wait", "dry_run", "subagent_root", "timeout_seconds"),
    "mock": ("response", "trace"),
    "claude": _CLAUDE,
    "cc-mirror": (*_CLAUDE, "variant"),
}
"""`getKnownSettings`: each provider's own settings (COMMON and BASE come on top). Providers not
here (`cli`, whose schema checks it, the agent providers, custom ones) are not checked."""

_SAME_AS = {"azure-openai": "azure", "google": "gemini", "google-gemini": "gemini",
            "codex-cli": "codex", "copilot_sdk": "copilot-sdk", "copilot": "copilot-cli",
            "claude-code": "claude", "claude-cli": "claude", "claude-sdk": "claude",
            "vscode-insiders": "vscode"}

CAMEL_CASE = {
    "providerBatching": "provider_batching", "subagentModeAllowed": "subagent_mode_allowed",
    "fallbackTargets": "fallback_targets", "resourceName": "endpoint", "baseUrl": "base_url",
    "apiKey": "api_key", "deploymentName": "model", "thinkingBudget": "thinking_budget",
    "maxTokens": "max_output_tokens", "apiFormat": "api_format",
    "timeoutSeconds": "timeout_seconds", "logDir": "log_dir", "logDirectory": "log_directory",
    "logFormat": "log_format", "logOutputFormat": "log_output_format",
    "systemPrompt": "system_prompt", "maxTurns": "max_turns", "maxBudgetUsd": "max_budget_usd",
    "dryRun": "dry_run", "subagentRoot": "subagent_root", "filesFormat": "files_format",
    "attachmentsFormat": "attachments_format", "cliUrl": "cli_url", "cliPath": "cli_path",
    "githubToken": "github_token", "sessionDir": "session_dir", "sessionId": "session_id",
    "sessionStateDir": "session_state_dir", "maxRetries": "max_retries",
    "retryInitialDelayMs": "retry_initial_delay_ms", "retryMaxDelayMs": "retry_max_delay_ms",
    "retryBackoffFactor": "retry_backoff_factor", "retryStatusCodes": "retry_status_codes",
    "modelReasoningEffort": "model_reasoning_effort"}
"""`DEPRECATED_TARGET_CAMEL_CASE_FIELDS`: `assertNoDeprecatedCamelCaseTargetFields` throws."""

_AZURE_FORMAT = ("'api_format' is no longer supported on Azure targets: AgentV always uses "
                 "Azure's Responses API; for a deployment with only /chat/completions, use "
                 "'provider: openai' with a deployment-scoped 'base_url'")
_CODEX_LOG = ("'{key}' is no longer supported on Codex targets: use 'stream_log: raw' for "
              "per-event logs or 'stream_log: summary' for consolidated logs")
_REMOVED = {"azure": {"api_format": _AZURE_FORMAT},
            "codex": {"log_format": _CODEX_LOG, "log_output_format": _CODEX_LOG}}
"""Settings a provider's resolver refuses (`resolveAzureConfig`, `resolveCodexConfig` throw)."""

CLI_PLACEHOLDERS = ("PROMPT", "PROMPT_FILE", "EVAL_ID", "ATTEMPT", "FILES", "OUTPUT_FILE")
_PLACEHOLDER = re.compile(r"\{([A-Z_]+)\}")


def provider_family(provider: str) -> str:
    lowered = provider.lower()
    return _SAME_AS.get(lowered, lowered)


def check_settings(ctx: Context, target: Mapping, provider: Node | None) -> None:
    """Every key of one target, then a `cli` target's command and healthcheck."""
    raw = text_of(provider)
    family = provider_family(raw.strip()) if raw is not None and _ENV not in raw else None
    own = _SETTINGS.get(family) if family is not None else None
    known = {*BASE, *COMMON, *own} if own is not None else None
    removed = _REMOVED.get(family, {}) if family is not None else {}
    present = {key.text for key, _ in pairs(target)}
    for key, _ in pairs(target):
        name = key.text
        if name in CAMEL_CASE:
            ctx.add("EY647", f"camelCase field '{name}' is no longer supported in targets.yaml: "
                    f"use '{CAMEL_CASE[name]}' (the target does not resolve)", ctx.span(key),
                    fixes=_rename(ctx, key, CAMEL_CASE[name], present))
        elif name in removed:
            ctx.add("EY647", removed[name].format(key=name) + " (the target does not resolve)",
                    ctx.span(key))
        elif name in ("workspace_template", "workspaceTemplate"):
            ctx.add("EY646", f"'{name}' has been removed from targets: it is ignored; use the "
                    "suite's workspace.template", ctx.span(key))
        elif known is not None and name not in known and raw is not None:
            ranked = rank_value(name, known - present)
            hint = f"; did you mean '{ranked[0]}'?" if ranked else ""
            ctx.add("EY646", f"Unknown setting '{name}' for {raw} provider: it is ignored{hint}",
                    ctx.span(key),
                    fixes=_rename(ctx, key, ranked[0], present) if ranked else ())
    if family == "cli":
        _cli(ctx, target, provider)


def _rename(ctx: Context, key: Scalar, name: str, present: set[str]) -> tuple[Fix, ...]:
    return () if name in present else (ctx.rename_fix(key, name),)


def _cli(ctx: Context, target: Mapping, provider: Node | None) -> None:
    pair = target.pair("command")
    command = pair[1] if pair else None
    text = text_of(command)
    if text is None or not text.strip():
        if text is None or _ENV not in text:
            where = ctx.at(*pair) if pair else ctx.span(provider) if provider else \
                ctx.span(target)
            ctx.add("EY647", "CLI provider requires 'command' as a non-empty string: the target "
                    "does not resolve", where)
    elif isinstance(command, Scalar):
        _placeholders(ctx, command, "command")
    health = target.pair("healthcheck")
    if health is not None:
        _healthcheck(ctx, *health)


def _healthcheck(ctx: Context, key: Node, value: Node) -> None:
    if not isinstance(value, Mapping):
        ctx.add("EY647", "'healthcheck' must be a mapping when given", ctx.at(key, value))
        return
    for inner, _ in pairs(value):
        if inner.text == "timeoutSeconds":
            ctx.add("EY647", "camelCase field 'timeoutSeconds' is no longer supported in "
                    "targets.yaml: use 'timeout_seconds' (the target does not resolve)",
                    ctx.span(inner), fixes=_rename(ctx, inner, "timeout_seconds",
                                                   {k.text for k, _ in pairs(value)}))
    timeout = value.pair("timeout_seconds")
    if timeout is not None and not _positive(timeout[1]):
        ctx.add("EY647", "healthcheck.timeout_seconds must be a positive number when given",
                ctx.at(*timeout))
    url, command = value.get("url"), value.get("command")
    has_url, has_command = _filled(url), _filled(command)
    if not has_url and not has_command:
        ctx.add("EY647", "healthcheck must have either 'url' (HTTP) or 'command' (a command)",
                ctx.span(key))
        return
    if has_url:
        return
    if isinstance(command, Scalar):
        _placeholders(ctx, command, "healthcheck command")
    cwd = value.pair("cwd")
    if cwd is not None and text_of(cwd[1]) is None:
        ctx.add("EY647", "healthcheck.cwd must be a string when given", ctx.at(*cwd))


def _filled(node: Node | None) -> bool:
    text = text_of(node)
    return text is not None and (bool(text.strip()) or _ENV in text)


def _positive(node: Node) -> bool:
    """JavaScript's `Number(x)` is finite and above 0 (`"5"` and `true` pass, `null` not)."""
    if not isinstance(node, Scalar):
        return False  # Number([]) is 0, Number({}) NaN (a one-item list is rare enough)
    value = node.value
    if isinstance(value, str):
        if _ENV in value:
            return True
        stripped = value.strip()
        if not stripped or "_" in stripped:
            return False  # Number("") is 0; Number("1_000") NaN
        try:
            number = float(int(stripped, 0)) if stripped[:2].lower() in ("0x", "0o", "0b") \
                else float(stripped)
        except ValueError:
            return False
        if stripped.lower().lstrip("+-") in ("inf", "infinity", "nan"):
            return False  # JavaScript spells only "Infinity"
        return math.isfinite(number) and number > 0
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return math.isfinite(value) and value > 0
    return False


def _placeholders(ctx: Context, node: Scalar, what: str) -> None:
    text = node.text
    masked = _ENV_SPAN.sub(lambda m: " " * len(m.group()), text)
    supported = ", ".join(CLI_PLACEHOLDERS)
    for match in _PLACEHOLDER.finditer(masked):
        name = match.group(1)
        if name in CLI_PLACEHOLDERS:
            continue
        ranked = rank_value(name, CLI_PLACEHOLDERS)
        hint = f"; did you mean '{{{ranked[0]}}}'?" if ranked else ""
        ctx.add("EY647", f"Unknown CLI placeholder '{{{name}}}' in the {what}: the target does "
                f"not resolve (supported: {supported}){hint}",
                _inner(ctx, node, match.group(), text[:match.start()].count(match.group())))


def _inner(ctx: Context, node: Scalar, needle: str, nth: int) -> Span:
    """The `nth` `needle` of the scalar's value in its source; the whole scalar when escapes or
    folding make the two disagree."""
    start = ctx.base + node.start
    raw = ctx.parsed.text[start:ctx.base + node.end]
    if node.text.count(needle) == raw.count(needle):
        at = -1
        for _ in range(nth + 1):
            at = raw.find(needle, at + 1)
        if at >= 0:
            return ctx.parsed.lines.span(start + at, start + at + len(needle))
    return ctx.span(node)

"""Editor settings (`workspace/configuration`, section `evalyaml`) and how they meet the file.

The editor may set `strict`, `freshnessDays`, `include`, `exclude` and the rules: `select`,
`ignore`, `extendSelect`, `extendIgnore`, `perFileIgnores` and `severity` (the kebab-case
names of the file are accepted too). Each key it sets wins over the same key in
`evalyaml.toml` / `[tool.evalyaml]`, and each key it leaves out (or sets to null) falls back to
the file, then to the default. So a team's file is the baseline and one
person can still turn on strict mode for themselves. `initializationOptions` may carry the same
object (`{"evalyaml": {...}}` or the keys directly) for clients that cannot answer
`workspace/configuration`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, fields
from typing import Any

from evalyaml.core.findings import FindingSink
from evalyaml.core.rules import Rules, parse_rules
from evalyaml.syntax.text import Span

log = logging.getLogger(__name__)

SECTION = "evalyaml"


@dataclass(frozen=True, slots=True)
class Settings:
    strict: bool | None = None
    freshness_days: int | None = None
    include: tuple[str, ...] | None = None
    exclude: tuple[str, ...] | None = None
    # The rules the editor sets, as (`Rules` field, value) pairs: each replaces the file's.
    rules: tuple[tuple[str, Any], ...] = ()

    @staticmethod
    def parse(raw: Any) -> Settings:
        """Settings from a client's answer; wrong types are ignored (and logged), never fatal."""
        if isinstance(raw, dict) and isinstance(raw.get(SECTION), dict):
            raw = raw[SECTION]
        if not isinstance(raw, dict):
            return Settings()
        strict = raw.get("strict")
        if strict is not None and not isinstance(strict, bool):
            log.warning("setting evalyaml.strict must be true or false, not %r", strict)
            strict = None
        days = raw.get("freshnessDays", raw.get("freshness_days"))
        if days is not None and (isinstance(days, bool) or not isinstance(days, (int, float))
                                 or days < 0):
            log.warning("setting evalyaml.freshnessDays must be a number of days, not %r", days)
            days = None
        return Settings(strict, int(days) if days is not None else None,
                        _globs(raw.get("include"), "include"),
                        _globs(raw.get("exclude"), "exclude"), _rules(raw))

    @property
    def empty(self) -> bool:
        return self == Settings()


def _globs(value: Any, name: str) -> tuple[str, ...] | None:
    if value is None:
        return None
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    log.warning("setting evalyaml.%s must be a list of glob patterns, not %r", name, value)
    return None


# Editor setting -> the configuration file's key (camelCase as VS Code writes settings).
_RULE_SETTINGS = {"select": "select", "ignore": "ignore", "extendSelect": "extend-select",
                  "extendIgnore": "extend-ignore", "perFileIgnores": "per-file-ignores",
                  "severity": "severity"}
_SHAPES = {"select": list, "ignore": list, "extend-select": list, "extend-ignore": list,
           "per-file-ignores": dict, "severity": dict}


def _rules(raw: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    """The rule keys the editor set, read as the configuration file's are (`parse_rules`); a
    mistake is logged and that key left to the file."""
    values: dict[str, tuple[Any, Span]] = {}
    for name, key in _RULE_SETTINGS.items():
        value = raw.get(name, raw.get(key))
        if value is None:
            continue
        if not isinstance(value, _SHAPES[key]):
            log.warning("setting evalyaml.%s must be a %s, not %r", name,
                        "list of codes" if _SHAPES[key] is list else "table", value)
            continue
        values[key] = (value, Span.point(0, 0))
    if not values:
        return ()
    sink = FindingSink(strict=False)
    parsed = parse_rules(values, sink)
    for finding in sink.findings:
        log.warning("setting evalyaml: %s", finding.message)
    chosen = {key.replace("-", "_") for key in values}
    return tuple((f.name, getattr(parsed, f.name)) for f in fields(Rules) if f.name in chosen)

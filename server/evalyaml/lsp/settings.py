"""Editor settings (`workspace/configuration`, section `evalyaml`) and how they meet the file.

The editor may set `strict`, `freshnessDays`, `include` and `exclude`; each key it sets wins
over the same key in `evalyaml.toml` / `[tool.evalyaml]`, and each key it leaves out (or sets
to null) falls back to the file, then to the default. So a team's file is the baseline and one
person can still turn on strict mode for themselves. `initializationOptions` may carry the same
object (`{"evalyaml": {...}}` or the keys directly) for clients that cannot answer
`workspace/configuration`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

SECTION = "evalyaml"


@dataclass(frozen=True, slots=True)
class Settings:
    strict: bool | None = None
    freshness_days: int | None = None
    include: tuple[str, ...] | None = None
    exclude: tuple[str, ...] | None = None

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
                        _globs(raw.get("exclude"), "exclude"))

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

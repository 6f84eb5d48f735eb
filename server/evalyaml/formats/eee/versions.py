"""Which `schema_version` values evalyaml knows, and the upstream schema each one names.

Every Eval Ever changed its schemas five times in a year and its own validator checks every file
against the newest models whatever the file declares (so every seed-era aggregate fails it).
evalyaml checks a file against the schema of the version it declares: the schemas are upstream's
own files, byte for byte (MIT), taken at the last commit that carried each version
(`schemas/eee/README.md` names the commits). The seed's instance schema is 0.2.0's. Aggregates
of 0.1.0 (the seed-era data) have their own schema; samples files began with 0.2.0.

A version we do not know is one finding naming the ones we do, and nothing else: guessing a
schema would bury the one true finding under a cascade.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from evalyaml.core.kinds import Kind
from evalyaml.formats.eee.kinds import AGGREGATE

AGGREGATE_VERSIONS: tuple[str, ...] = ("0.1.0", "0.2.0", "0.2.1", "0.2.2", "0.2.3", "0.3.0")
SAMPLES_VERSIONS: tuple[str, ...] = ("0.2.0", "0.2.1", "0.2.2", "0.2.3", "0.3.0")
NEWEST = "0.3.0"


def known(kind: Kind) -> tuple[str, ...]:
    return AGGREGATE_VERSIONS if kind is AGGREGATE else SAMPLES_VERSIONS


def schema_file(kind: Kind, version: str) -> str:
    """The path under the package's `schemas/` of one version's schema."""
    stem = "aggregate" if kind is AGGREGATE else "instance"
    return f"eee/{stem}-{version}.schema.json"


@cache
def _load(name: str) -> dict[str, Any]:
    text = (resources.files("evalyaml") / "schemas" / name).read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def schema_for(kind: Kind, version: str | None) -> dict[str, Any] | None:
    """The schema a file of `kind` declaring `version` is checked against; None when unknown."""
    if version not in known(kind):
        return None
    return _load(schema_file(kind, version))


def newest(kind: Kind) -> dict[str, Any]:
    return _load(schema_file(kind, NEWEST))

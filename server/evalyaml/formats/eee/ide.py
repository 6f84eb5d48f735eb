"""Editor data for Every Eval Ever: the schema a document is written against is the one of the
version it declares (a samples row declares its own), so completion and hover offer the keys
and values of that version (`interactions` in 0.2.0 rows, `messages` after)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from evalyaml.core.kinds import Kind
from evalyaml.formats.base import FormatIde
from evalyaml.formats.eee import versions

_VERSION = re.compile(r'"schema_version"\s*:\s*"([^"\\]{1,40})"')


def schema_of(kind: Kind, text: str) -> Mapping[str, Any] | None:
    match = _VERSION.search(text[:65536])
    found = versions.schema_for(kind, match.group(1)) if match else None
    return found if found is not None else versions.newest(kind)


IDE = FormatIde(schema_of=schema_of)

"""Everything a check may depend on besides the text: mode, clock, limits.

The clock is a plain `today` value so tests are deterministic and the CLI and server agree.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from evalyaml.syntax.record import field, record


@record
class Options:
    strict: bool = False
    freshness_days: int = 90
    today: date = field(default_factory=date.today)
    max_file_bytes: int = 20 * 1024 * 1024
    # Bundle name -> JSON Schema for that bundle's case fields (see evalyaml.workspace.bundles).
    bundles: dict[str, dict[str, Any]] = field(default_factory=dict)
    bundles_configured: bool = False
    # The workspace root: the folder convention (`rubrics/`, `judges/`) only counts folders
    # below it, never the folders the whole project happens to live in.
    root: str | None = None

"""Which codes are reported, where, and how loudly: `select`, `ignore`, `extend-select`,
`extend-ignore`, `per-file-ignores` and `severity` from the configuration.

The semantics are ruff's, so a user who knows one knows the other: a code is reported when the
most specific `select` entry matching it is more specific than the most specific `ignore` entry
(an ignore wins a tie); no `select` means everything. Entries are whole codes or prefixes
(`EY4`, `EYPF`). The rules are data here; they are applied where findings are finalised
(`workspace.suppress`), the one place the CLI and the language server share.
"""

from __future__ import annotations

from fnmatch import fnmatchcase
from typing import Any

from evalyaml.core.codes import CODES, Severity
from evalyaml.core.findings import FindingSink
from evalyaml.core.suggest import did_you_mean
from evalyaml.syntax.record import field, record
from evalyaml.syntax.text import Span

SEVERITIES = {s.label: s for s in Severity}


@record
class Rules:
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    extend_ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    severity: dict[str, Severity] = field(default_factory=dict)

    @property
    def is_default(self) -> bool:
        return (self.select is None and not self.extend_select and not self.ignore
                and not self.extend_ignore and not self.per_file_ignores and not self.severity)

    def enabled(self, code: str, relative: str | None = None) -> bool:
        """Whether findings of `code` are reported in the file at `relative` (a POSIX path
        from the workspace root)."""
        chosen = -1 if self.select is not None else 0
        for prefix in (*(self.select or ()), *self.extend_select):
            if code.startswith(prefix):
                chosen = max(chosen, len(prefix))
        dropped = -1
        for prefix in (*self.ignore, *self.extend_ignore):
            if code.startswith(prefix):
                dropped = max(dropped, len(prefix))
        if chosen < 0 or dropped >= chosen:
            return False
        if relative is not None:
            for pattern, prefixes in self.per_file_ignores:
                if fnmatchcase(relative, pattern) and any(code.startswith(p) for p in prefixes):
                    return False
        return True


def known_prefix(entry: str) -> bool:
    return any(code.startswith(entry) for code in CODES)


def _codes(key: str, value: Any, span: Span, sink: FindingSink) -> tuple[str, ...] | None:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        sink.add("EY321", f"'{key}' must be a list of codes or code prefixes (strings)", span)
        return None
    kept: list[str] = []
    for entry in value:
        if known_prefix(entry):
            kept.append(entry)
        else:
            sink.add("EY323", f"'{key}' names unknown code '{entry}'{did_you_mean(entry, CODES)}",
                     span)
    return tuple(kept)


def parse_rules(values: dict[str, tuple[Any, Span]], sink: FindingSink) -> Rules:
    """The rules from the configuration's keys (already known to be lists / tables), with
    EY321 on a value of the wrong shape and EY323 on an unknown code."""
    lists: dict[str, tuple[str, ...]] = {}
    for key in ("select", "extend-select", "ignore", "extend-ignore"):
        if key in values:
            found = _codes(key, *values[key], sink)
            if found is not None:
                lists[key.replace("-", "_")] = found
    per_file: list[tuple[str, tuple[str, ...]]] = []
    if "per-file-ignores" in values:
        table, span = values["per-file-ignores"]
        for pattern, codes in table.items():
            found = _codes(f"per-file-ignores.{pattern}", codes, span, sink)
            if found:
                per_file.append((pattern, found))
    severity: dict[str, Severity] = {}
    if "severity" in values:
        table, span = values["severity"]
        for code, level in table.items():
            if code not in CODES:
                sink.add("EY323", f"'severity' names unknown code '{code}'"
                         f"{did_you_mean(code, CODES)}", span)
            elif not isinstance(level, str) or level not in SEVERITIES:
                sink.add("EY321", f"'severity.{code}' must be one of "
                         f"{', '.join(SEVERITIES)}", span)
            else:
                severity[code] = SEVERITIES[level]
    return Rules(select=lists.get("select"), extend_select=lists.get("extend_select", ()),
                 ignore=lists.get("ignore", ()), extend_ignore=lists.get("extend_ignore", ()),
                 per_file_ignores=tuple(per_file), severity=severity)

"""Project configuration: `evalyaml.toml`, or `[tool.evalyaml]` in `pyproject.toml`.

The file is found by walking up from a path to the nearest folder that has either; that folder
is the workspace root, and include/exclude globs are relative to it. Problems in the config are
findings like any other (EY320/EY321), located on the offending key, so a typo such as
`freshnes_days` cannot silently fall back to the default.
"""

from __future__ import annotations

import math
import re
from datetime import date
from pathlib import Path
from typing import Any, cast

from evalyaml.core.findings import Finding, FindingSink
from evalyaml.core.options import Options
from evalyaml.core.rules import Rules, parse_rules
from evalyaml.core.suggest import did_you_mean
from evalyaml.formats import SUFFIXES
from evalyaml.syntax.record import field, record, replace
from evalyaml.syntax.text import LineIndex, Span

CONFIG_FILE = "evalyaml.toml"
PYPROJECT = "pyproject.toml"

# Every file name ending a format declares (`Format.suffixes`), anywhere below the root.
DEFAULT_INCLUDE = tuple(f"**/*{suffix}" for suffix in sorted(SUFFIXES))
DEFAULT_EXCLUDE = (".git", "node_modules", ".venv", "venv", "env", "__pycache__", "build",
                   "dist", ".tox", ".nox", ".mypy_cache", ".ruff_cache", ".pytest_cache",
                   "site-packages", ".eggs", ".ipynb_checkpoints")

_KEYS: dict[str, tuple[type | tuple[type, ...], str]] = {
    "strict": (bool, "true or false"),
    "freshness_days": (int, "a whole number of days"),
    "include": (list, "a list of glob patterns"),
    "exclude": (list, "a list of glob patterns"),
    "max_file_mb": ((int, float), "a number of megabytes"),
    "bundles": (dict, "a table of bundle name = schema path"),
    "bundles_dir": (str, "a folder path"),
    "select": (list, "a list of codes or code prefixes"),
    "ignore": (list, "a list of codes or code prefixes"),
    "extend-select": (list, "a list of codes or code prefixes"),
    "extend-ignore": (list, "a list of codes or code prefixes"),
    "per-file-ignores": (dict, "a table of glob = list of codes or code prefixes"),
    "severity": (dict, "a table of code = \"error\", \"warning\", \"information\" or \"hint\""),
}
_RULE_KEYS = frozenset({"select", "ignore", "extend-select", "extend-ignore", "per-file-ignores",
                        "severity"})


@record
class Config:
    root: Path
    source: Path | None = None  # the file it came from, None for defaults
    strict: bool = False
    freshness_days: int = 90
    include: tuple[str, ...] = DEFAULT_INCLUDE
    exclude: tuple[str, ...] = ()
    max_file_mb: float = 20.0
    bundles: dict[str, str] = field(default_factory=dict)
    bundles_dir: str | None = None
    rules: Rules = field(default_factory=Rules)
    findings: tuple[Finding, ...] = ()

    def options(self, *, today: date | None = None, strict: bool | None = None,
                bundles: dict[str, dict[str, Any]] | None = None) -> Options:
        return Options(
            strict=self.strict if strict is None else strict,
            freshness_days=self.freshness_days,
            today=today or date.today(),
            max_file_bytes=int(self.max_file_mb * 1024 * 1024),
            bundles=bundles or {},
            bundles_configured=bool(self.bundles or self.bundles_dir),
            root=str(self.root),
        )

    def with_overrides(self, **changes: Any) -> Config:
        return replace(self, **changes)


def find_root(start: Path) -> Path | None:
    """The nearest folder at or above `start` holding evalyaml.toml or a [tool.evalyaml]."""
    here = start if start.is_dir() else start.parent
    for folder in (here, *here.parents):
        if (folder / CONFIG_FILE).is_file():
            return folder
        pyproject = folder / PYPROJECT
        if pyproject.is_file() and _has_tool_table(pyproject):
            return folder
    return None


def _has_tool_table(pyproject: Path) -> bool:
    import tomllib  # only when there is a file to read

    try:
        return "tool" in (data := tomllib.loads(pyproject.read_text("utf-8"))) and \
            "evalyaml" in data["tool"]
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False


def load_config(root: Path) -> Config:
    """The configuration of the workspace rooted at `root` (defaults when it has none)."""
    config_path = root / CONFIG_FILE
    table_prefix = ""
    if config_path.is_file():
        source = config_path
    elif (root / PYPROJECT).is_file() and _has_tool_table(root / PYPROJECT):
        source = root / PYPROJECT
        table_prefix = "tool.evalyaml"
    else:
        return Config(root=root)
    try:
        text = source.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as err:
        sink = FindingSink(strict=False)
        sink.add("EY321", f"cannot read {source.name}: {err}", Span.point(0, 0))
        return Config(root=root, source=source, findings=tuple(sink.findings))
    return parse_config(text, root, source, table_prefix)


def parse_config(text: str, root: Path, source: Path | None, table_prefix: str = "") -> Config:
    import tomllib  # only when there is a file to read

    lines = LineIndex(text)
    sink = FindingSink(strict=_declares_strict(text, table_prefix))
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        # Python 3.11's error has no line attribute; its message ends "(at line N, column M)".
        at = re.search(r"at line (\d+)", str(err))
        line = int(at.group(1)) - 1 if at else 0
        sink.add("EY321", f"invalid TOML: {err}", lines.span(lines.line_start(line),
                                                             lines.line_end(line)))
        return Config(root=root, source=source, findings=tuple(sink.findings))
    for part in table_prefix.split(".") if table_prefix else []:
        data = data.get(part, {})
    values: dict[str, Any] = {}
    rule_values: dict[str, tuple[Any, Span]] = {}
    value: Any
    start = table_start(text, table_prefix) or 0
    for key, value in data.items():
        span = key_span(text, lines, key, start) or _table_span(text, lines, table_prefix, key)
        if key not in _KEYS:
            sink.add("EY320", f"unknown configuration key '{key}'{did_you_mean(key, _KEYS)}",
                     span)
            continue
        expected, described = _KEYS[key]
        if not isinstance(value, expected) or (isinstance(value, bool) and expected is not bool):
            sink.add("EY321", f"'{key}' must be {described}", span)
            continue
        if key == "max_file_mb" and not (0 < cast(float, value) < math.inf):
            sink.add("EY321", "'max_file_mb' must be a positive, finite number of megabytes",
                     span)
            continue
        if key == "freshness_days" and cast(int, value) < 0:
            sink.add("EY321", "'freshness_days' must be 0 or more", span)
            continue
        if key in _RULE_KEYS:
            rule_values[key] = (value, span)
            continue
        if key in ("include", "exclude"):
            patterns = cast(list[Any], value)
            if not all(isinstance(v, str) for v in patterns):
                sink.add("EY321", f"'{key}' must be a list of glob patterns (strings)", span)
                continue
            values[key] = tuple(patterns)
            continue
        values[key] = value
    if rule_values:
        values["rules"] = parse_rules(rule_values, sink)
    return Config(root=root, source=source, findings=tuple(sink.findings), **values)


def _table_span(text: str, lines: LineIndex, table_prefix: str, key: str) -> Span:
    """The name in a `[key]` (or `[tool.evalyaml.key]`) header; the file's start without one."""
    name = f"{table_prefix}.{key}" if table_prefix else key
    header = re.search(rf"^[ \t]*\[[ \t]*({re.escape(name)})[ \t]*\]", text, re.MULTILINE)
    return lines.span(header.start(1), header.end(1)) if header else Span.point(0, 0)


def _declares_strict(text: str, table_prefix: str) -> bool:
    """Whether the file itself turns strict mode on: its own findings follow that mode."""
    import tomllib  # only when there is a file to read

    try:
        data: Any = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return False
    for part in table_prefix.split(".") if table_prefix else []:
        data = data.get(part, {}) if isinstance(data, dict) else {}
    return isinstance(data, dict) and data.get("strict") is True


def table_start(text: str, table: str) -> int | None:
    """Offset where the keys of `[table]` begin (0 for the top level); None without a header
    (an inline or dotted table)."""
    if not table:
        return 0
    header = re.search(rf"^[ \t]*\[[ \t]*{re.escape(table)}[ \t]*\][ \t]*(?:#.*)?$", text,
                       re.MULTILINE)
    return header.end() if header else None


def key_span(text: str, lines: LineIndex, key: str, start: int = 0) -> Span | None:
    """The key (with its quotes, if quoted) in the table whose keys begin at `start`."""
    table_end = re.compile(r"^[ \t]*\[", re.MULTILINE).search(text, start)
    name = re.escape(key)
    match = re.compile(rf"^[ \t]*(?:{name}|\"{name}\"|'{name}')[ \t]*=", re.MULTILINE).search(
        text, start, table_end.start() if table_end else len(text))
    if not match:
        return None
    begin = match.start() + len(match.group()) - len(match.group().lstrip())
    quoted = text[begin] in "\"'"
    return lines.span(begin, begin + len(key) + (2 if quoted else 0))

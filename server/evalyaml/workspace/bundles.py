"""Bundle schemas: the extra case fields of a domain extension such as `rag` or `agent`.

A bundle is found through the configuration, never fetched: `bundles_dir` names a folder of
`<name>.schema.json` files, and `[bundles] name = "path"` names files one by one (an explicit
entry wins over the folder). Every path must stay inside the workspace root, so a config file
cannot make evalyaml read arbitrary files. A schema with a `$ref` that leaves the document is
refused too, because jsonschema would otherwise try to download it while validating.

Problems are findings on the configuration file (EY321 on the offending key), like any other
configuration mistake, and a broken bundle is left out rather than stopping the check.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from evalyaml.config import PYPROJECT, Config, key_span, table_start
from evalyaml.core.findings import Finding, FindingSink
from evalyaml.syntax.lazyre import lazy_re
from evalyaml.syntax.record import field, mutable_record
from evalyaml.syntax.text import LineIndex, Span

SUFFIX = ".schema.json"
_NAME = lazy_re(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")


@mutable_record
class Bundles:
    schemas: dict[str, dict[str, Any]] = field(default_factory=dict)
    files: dict[str, Path] = field(default_factory=dict)  # name -> the schema file
    findings: list[Finding] = field(default_factory=list)


def load_bundles(config: Config) -> Bundles:
    out = Bundles()
    if not config.bundles and not config.bundles_dir:
        return out
    sink = FindingSink(strict=False)
    text = _config_text(config)
    lines = LineIndex(text)
    table = "tool.evalyaml" if config.source is not None and config.source.name == PYPROJECT \
        else ""
    root = config.root.resolve()
    if config.bundles_dir:
        folder = _inside_root(root, config.bundles_dir)
        span = _span(text, lines, table, "bundles_dir")
        if folder is None:
            sink.add("EY321", f"bundles_dir '{config.bundles_dir}' is outside the workspace root "
                     f"{config.root}; bundle schemas must live inside it", span)
        elif not folder.is_dir():
            sink.add("EY321", f"bundles_dir '{config.bundles_dir}' is not a folder", span)
        else:
            for schema_file in sorted(folder.glob("*" + SUFFIX)):
                name = schema_file.name[: -len(SUFFIX)]
                _load_one(out, name, schema_file, root, sink=sink, span=span)
    for name, raw in config.bundles.items():
        span = _span(text, lines, f"{table}.bundles".lstrip("."), name)
        if not isinstance(raw, str):
            sink.add("EY321", f"bundle '{name}' must name a schema file (a string path)", span)
            continue
        path = _inside_root(root, raw)
        if path is None:
            sink.add("EY321", f"bundle '{name}': '{raw}' is outside the workspace root "
                     f"{config.root}; bundle schemas must live inside it", span)
            continue
        _load_one(out, name, path, root, sink=sink, span=span)
    out.findings = sink.findings
    return out


def _load_one(out: Bundles, name: str, path: Path, root: Path, *, sink: FindingSink,
              span: Span) -> None:
    if not _NAME.match(name):
        sink.add("EY321", f"'{name}' is not a usable bundle name", span)
        return
    import json  # here: a workspace without bundles never pays its import (issue #27)

    try:
        data = json.loads(path.read_text("utf-8"))
    except OSError as err:
        sink.add("EY321", f"bundle '{name}': cannot read {_show(path, root)}: "
                 f"{err.strerror or err}", span)
        return
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        sink.add("EY321", f"bundle '{name}': {_show(path, root)} is not JSON: {err}", span)
        return
    if not isinstance(data, dict):
        sink.add("EY321", f"bundle '{name}': {_show(path, root)} must hold a JSON Schema "
                 "object", span)
        return
    remote = _outside_ref(data)
    if remote is not None:
        sink.add("EY321", f"bundle '{name}': {_show(path, root)} uses $ref '{remote}', which "
                 "points outside the file; evalyaml never fetches schemas, so inline it under "
                 "$defs", span)
        return
    from jsonschema import Draft202012Validator  # only when a bundle is configured
    from jsonschema.exceptions import SchemaError

    try:
        Draft202012Validator.check_schema(data)
    except SchemaError as err:
        sink.add("EY321", f"bundle '{name}': {_show(path, root)} is not a valid JSON Schema: "
                 f"{err.message}", span)
        return
    out.schemas[name] = data
    out.files[name] = path


def _outside_ref(node: Any) -> str | None:
    """The first `$ref`/`$dynamicRef` that does not stay inside the document."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, value in item.items():
                if key in ("$ref", "$dynamicRef") and isinstance(value, str) and \
                        not value.startswith("#"):
                    return value
                stack.append(value)
        elif isinstance(item, list):
            stack.extend(item)
    return None


def _inside_root(root: Path, raw: str) -> Path | None:
    candidate = Path(raw)
    resolved = (candidate if candidate.is_absolute() else root / candidate).resolve()
    try:
        resolved.relative_to(root)
    except ValueError:
        return None
    return resolved


def _show(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def _config_text(config: Config) -> str:
    if config.source is None:
        return ""
    try:
        return config.source.read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def _span(text: str, lines: LineIndex, table: str, key: str) -> Span:
    """The key in `table` of the config file: in `bundles` a name may also be a key of the
    enclosing table (`strict`), or of another table of pyproject.toml (`name`)."""
    start = table_start(text, table)
    if start is None:  # `bundles = { ... }` inline: point at `bundles`
        parent, _, own = table.rpartition(".")
        return _span(text, lines, parent, own)
    return key_span(text, lines, key, start) or Span.point(0, 0)

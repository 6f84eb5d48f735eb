"""Target names a suite gives (`execution.target`, `execution.targets`, a test's
`execution.targets`) against the targets file the CLI would use.

`apps/cli/src/utils/targets.ts` `discoverTargetsFile`: from the suite's folder up to the
repository root, the first of `targets.yaml`, `targets.yml`, `.agentv/targets.yaml`,
`.agentv/targets.yml` in each folder. `commands/eval/targets.ts` `resolveUseTarget` then
throws "Target 'x' not found in <file>. Available targets: ..." for a name the file does not
define, and the run stops (unless `--target` overrides the suite's choice). A name holding
`${{ VAR }}` is filled in from the environment and is not checked; nor is any name when the
file has none (no file, or a file evalyaml cannot read as a `targets` list).
"""

from __future__ import annotations

import os
from pathlib import Path

from evalyaml.core.findings import FindingSink, Fix, TextEdit
from evalyaml.core.suggest import best_value
from evalyaml.formats.base import NamedFiles
from evalyaml.syntax.text import Span
from evalyaml.syntax.tree import Mapping, Scalar, Sequence
from evalyaml.syntax.yaml.parse import parse_text

CANDIDATES = ("targets.yaml", "targets.yml", os.path.join(".agentv", "targets.yaml"),
              os.path.join(".agentv", "targets.yml"))


def candidates(folders: list[Path]) -> tuple[str, ...]:
    """Every place the CLI looks, in its order (for a link from the name to the file)."""
    return tuple(str(folder / name) for folder in folders for name in CANDIDATES)


def discover(folders: list[Path], files: NamedFiles) -> Path | None:
    for folder in folders:
        for name in CANDIDATES:
            target = files.resolve(folder, name)
            if target is not None and files.exists(target):
                return target
    return None


def defined(path: Path, files: NamedFiles) -> dict[str, Span] | None:
    """The names a targets file defines, each at its `name` value; None when a name is not
    plain text (filled in from the environment) or the file is no `targets` list."""
    text = files.read_text(path)
    if text is None:
        return None
    parsed = parse_text(text, FindingSink(strict=False))
    root = parsed.documents[0] if parsed.usable and parsed.documents else None
    listed = root.get("targets") if isinstance(root, Mapping) else None
    if not isinstance(listed, Sequence):
        return None
    names: dict[str, Span] = {}
    for item in listed.items:
        node = item.get("name") if isinstance(item, Mapping) else None
        if not isinstance(node, Scalar) or not isinstance(node.value, str):
            continue
        if "${{" in node.value:
            return None
        names.setdefault(node.value.strip(), parsed.lines.span(node.start, node.end))
    return names


def check_target(name: str, span: Span, quote: str, folders: list[Path], files: NamedFiles,
                 *, sink: FindingSink, root: Path | None) -> None:
    found = discover(folders, files)
    if found is None:
        return
    names = defined(found, files)
    if not names or name in names:
        return
    shown = os.path.relpath(found, root) if root is not None else found.name
    choice = best_value(name, names)
    hint = f"; did you mean '{choice}'?" if choice else ""
    fixes: tuple[Fix, ...] = ()
    if choice:
        text = f"{quote}{choice}{quote}" if quote in ("'", '"') else choice
        fixes = (Fix(f"Change to '{choice}'", (TextEdit(span, text),), preferred=True),)
    sink.add("EY645", f"Target '{name}' not found in {shown} (available: "
             f"{', '.join(names)}): agentv stops the run unless --target names another{hint}",
             span, fixes=fixes)

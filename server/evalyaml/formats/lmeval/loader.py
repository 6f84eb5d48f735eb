"""`load_yaml` as the harness runs it (`lm_eval/tasks/_yaml_loader.py:164`), over our trees.

Includes are resolved relative to the including file, loaded depth first with one `seen` set
for the whole top-level call (so a diamond is an "Include cycle" too), merged shallowly: later
includes over earlier ones, the file's own keys over all of them; `task_list` is dropped from
each included mapping. Every merged key remembers the file it came from, for hover and for
placing findings. Files are read through `NamedFiles` (open buffers win; never outside the
workspace roots) and parsed once per text.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from evalyaml.core.findings import FindingSink
from evalyaml.formats.base import NamedFiles
from evalyaml.formats.lmeval.common import text_of, top
from evalyaml.syntax.parsed import ParsedText
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence
from evalyaml.syntax.yaml.parse import parse_text


@dataclass(frozen=True, slots=True)
class Origin:
    path: Path
    key: Scalar
    value: Node
    parsed: ParsedText


@dataclass(slots=True)
class Loaded:
    """The merged mapping (key -> where its value was written) and the first include problem,
    as the index would see it, keyed by the position of this file's include item it came
    through (None: this file itself)."""

    merged: dict[str, Origin] = field(default_factory=dict)
    problem: str | None = None
    problem_item: int | None = None  # index of this file's include entry that led to it
    # Includes outside the workspace roots (a check of one folder, `include: ../common/x`):
    # what they hold is unknown, so no key may be judged absent.
    unread: list[str] = field(default_factory=list)


# The last parses, least recently used dropped first: a tree's shared templates are read by
# hundreds of tasks, so clearing the whole table when full re-parsed them all (lm-eval's tree).
_CACHE: OrderedDict[Path, tuple[str, ParsedText | None]] = OrderedDict()
_CACHE_LIMIT = 2048


def parse_file(path: Path, files: NamedFiles) -> tuple[ParsedText | None, bool]:
    """The file's parse (None when it is not YAML that parses) and whether it exists."""
    text = files.read_text(path)
    if text is None:
        return None, files.exists(path)
    cached = _CACHE.get(path)
    if cached is not None and cached[0] == text:
        _CACHE.move_to_end(path)
        return cached[1], True
    parsed: ParsedText | None = parse_text(text, FindingSink(strict=False))
    if parsed is not None and (not parsed.ok or not parsed.documents):
        parsed = None
    _CACHE[path] = (text, parsed)
    _CACHE.move_to_end(path)
    if len(_CACHE) > _CACHE_LIMIT:
        _CACHE.popitem(last=False)
    return parsed, True


def include_items(root: Mapping) -> list[tuple[str | None, Node]]:
    pair = top(root).get("include")
    if pair is None:
        return []
    items = pair[1].items if isinstance(pair[1], Sequence) else [pair[1]]
    return [(text_of(item), item) for item in items]


def load(path: Path, parsed: ParsedText, files: NamedFiles) -> Loaded:
    out = Loaded()
    root = parsed.documents[0] if parsed.documents else None
    if not isinstance(root, Mapping):
        return out
    seen = {_real(path)}
    for index, (name, _) in enumerate(include_items(root)):
        if name is None:
            continue
        problem = _merge_include(path.parent, name, files, seen, into=out.merged, depth=0,
                                 origin=path.parent, unread=out.unread)
        if problem is not None and out.problem is None:
            out.problem, out.problem_item = problem, index
    for key, (key_node, value) in top(root).items():
        if key != "include":
            out.merged[key] = Origin(path, key_node, value, parsed)
    return out


def _shown(target: Path, origin: Path) -> str:
    """A path as the message shows it: relative to the folder of the file being checked."""
    return os.path.relpath(target, origin).replace(os.sep, "/")


def _real(path: Path) -> Path:
    return Path(os.path.realpath(path))


def _merge_include(folder: Path, name: str, files: NamedFiles, seen: set[Path], *,
                   into: dict[str, Origin], depth: int, origin: Path,
                   unread: list[str]) -> str | None:
    target = files.resolve(folder, name)
    if target is None:
        unread.append(name)
        return None  # outside the workspace roots: not ours to say
    real = _real(target)
    shown = _shown(target, origin)
    if real in seen:
        return f"the harness raises \"Include cycle at {shown}\": the file is reached twice " \
               "(a cycle, or a diamond: the loader never forgets a file it loaded)"
    seen.add(real)
    parsed, exists = parse_file(target, files)
    if not exists:
        return f"No such file or directory: '{shown}' (includes are relative to the " \
               "including file)"
    if parsed is None:
        return f"'{name}' does not parse as YAML"
    root = parsed.documents[0]
    if not isinstance(root, Mapping):
        kind = "NoneType" if isinstance(root, Scalar) and root.value is None else \
            "list" if isinstance(root, Sequence) else "str"
        return f"the harness raises \"Expected YAML dict from {shown}, got {kind}\""
    merged: dict[str, Origin] = {}
    problem = None
    if depth < 32:
        for inner, _ in include_items(root):
            if not inner:
                problem = problem or f"through {name}: an include that is not a file name " \
                    "(the harness raises \"expected str, bytes or os.PathLike object\")"
                continue
            found = _merge_include(target.parent, inner, files, seen, into=merged,
                                   depth=depth + 1, origin=origin, unread=unread)
            problem = problem or (f"through {name}: {found}" if found else None)
    for key, (key_node, value) in top(root).items():
        if key not in ("include", "task_list"):
            merged[key] = Origin(target, key_node, value, parsed)
    merged.pop("task_list", None)
    into.update(merged)
    return problem

"""AgentV's search roots for a `file://` reference, as candidate paths (no file is touched)."""

from __future__ import annotations

import os
from pathlib import PurePath


def prompt_candidates(folder: PurePath, name: str, root: str | None) -> tuple[str, ...]:
    """AgentV's search roots for a `file://` reference (`buildSearchRoots`): the absolute path
    as written, then the name (leading separators dropped) under the suite's folder and each
    ancestor up to the repository root; here the workspace root stands for the repository's."""
    out: list[str] = []
    if os.path.isabs(name):
        out.append(os.path.normpath(name))
    trimmed = name.lstrip("/\\") or name
    boundary = PurePath(root) if root else None
    current = folder
    while True:
        candidate = os.path.normpath(current / trimmed)
        if candidate not in out:
            out.append(candidate)
        if boundary is None or current in (boundary, current.parent) or \
                boundary not in current.parents:
            break
        current = current.parent
    return tuple(out)

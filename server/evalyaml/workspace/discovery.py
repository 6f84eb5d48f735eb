"""Find the YAML files under the workspace roots, without following anything dangerous.

Symbolic links to folders are not followed (a link loop cannot trap us, and nothing outside the
roots is read); vendored and generated folders are skipped; include/exclude globs from the
configuration apply to paths relative to the workspace root.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from fnmatch import fnmatchcase
from pathlib import Path, PurePosixPath

from evalyaml.config import DEFAULT_EXCLUDE, Config

YAML_SUFFIXES = (".yaml", ".yml")


def glob_match(relative: str, pattern: str) -> bool:
    """`**` spans folders, `*` does not; a pattern without a slash matches any path component,
    the way .gitignore does."""
    path = PurePosixPath(relative)
    if "/" not in pattern.rstrip("/"):
        return any(fnmatchcase(part, pattern.rstrip("/")) for part in path.parts)
    if pattern.startswith("**/"):
        return glob_match(relative, pattern[3:]) or path.match(pattern)
    if pattern.endswith("/**"):
        prefix = pattern[:-3]
        return relative == prefix or relative.startswith(prefix + "/") or \
            any(fnmatchcase("/".join(path.parts[:n]), prefix) for n in range(1, len(path.parts)))
    return fnmatchcase(relative, pattern) or path.match(pattern)


def is_excluded(relative: str, config: Config) -> bool:
    return any(glob_match(relative, pattern) for pattern in config.exclude)


def is_included(relative: str, config: Config) -> bool:
    return any(glob_match(relative, pattern) for pattern in config.include)


def discover(start: Path, config: Config) -> Iterator[Path]:
    """YAML files under `start` (a folder inside `config.root`), honouring the configuration.

    An exclude that matches `start` itself is not applied below it: a folder the user names
    explicitly is always checked.
    """
    root = config.root
    start_rel = _relative(start, root)
    excluded_start = start_rel not in ("", ".") and is_excluded(start_rel, config)
    for folder, dirnames, filenames in os.walk(start, followlinks=False, onerror=None):
        folder_path = Path(folder)
        kept = []
        for name in sorted(dirnames):
            if name in DEFAULT_EXCLUDE:
                continue
            child = folder_path / name
            if child.is_symlink():
                continue
            rel = _relative(child, root)
            if not excluded_start and is_excluded(rel, config):
                continue
            kept.append(name)
        dirnames[:] = kept
        for name in sorted(filenames):
            if not name.endswith(YAML_SUFFIXES):
                continue
            path = folder_path / name
            rel = _relative(path, root)
            if not excluded_start and is_excluded(rel, config):
                continue
            if is_included(rel, config) or excluded_start:
                yield path


def _relative(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()

"""Find the YAML files under the workspace roots, without following anything dangerous.

Symbolic links to folders are not followed (a link loop cannot trap us, and nothing outside the
roots is read); a symbolic link to a file is kept only when its target is inside the root (a
dangling or looping one is kept so that reading it reports EY311 once). Vendored, generated and
virtual-environment folders are skipped; include/exclude globs from the configuration apply to
paths relative to the workspace root. Folders that cannot be listed are passed to `on_error`,
never raised: one unreadable folder must not stop a workspace from being indexed.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from fnmatch import fnmatchcase
from pathlib import Path, PurePosixPath

from evalyaml.config import DEFAULT_EXCLUDE, DEFAULT_INCLUDE, Config
from evalyaml.formats import SUFFIXES

# What the formats declare (`Format.suffixes`); a file with any other ending is never read.
EVAL_SUFFIXES = tuple(sorted(SUFFIXES))


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
    if config.include == DEFAULT_INCLUDE:  # `**/*<suffix>` each: the same test, at C speed
        return relative.endswith(EVAL_SUFFIXES)
    return any(glob_match(relative, pattern) for pattern in config.include)


def _is_virtualenv(folder: Path) -> bool:
    """Any folder with a `pyvenv.cfg` is a virtual environment, whatever its name."""
    try:
        return (folder / "pyvenv.cfg").is_file()
    except OSError:  # an unreadable folder (EACCES): walking it reports it (EY311)
        return False


def _inside(path: Path, root: Path) -> bool:
    """Whether a file symlink's target stays inside `root`; dangling and looping links count
    as inside so that reading them reports the problem."""
    try:
        target = path.resolve(strict=True)
    except (OSError, RuntimeError):
        return True
    try:
        target.relative_to(root.resolve())
    except ValueError:
        return False
    return True


def discover(start: Path, config: Config,
             on_error: Callable[[Path, OSError], None] | None = None) -> Iterator[Path]:
    """YAML files under `start` (a folder inside `config.root`), honouring the configuration.

    An exclude that matches `start` itself is not applied below it: a folder the user names
    explicitly is always checked.
    """
    root = config.root
    start_rel = _relative(start, root)
    excluded_start = start_rel not in ("", ".") and is_excluded(start_rel, config)

    def walk_error(err: OSError) -> None:
        if on_error is not None:
            on_error(Path(err.filename) if err.filename else start, err)

    for folder, dirnames, filenames in os.walk(start, followlinks=False, onerror=walk_error):
        folder_path = Path(folder)
        kept = []
        for name in sorted(dirnames):
            if name in DEFAULT_EXCLUDE:
                continue
            child = folder_path / name
            if child.is_symlink() or _is_virtualenv(child):
                continue
            rel = _relative(child, root)
            if not excluded_start and is_excluded(rel, config):
                continue
            kept.append(name)
        dirnames[:] = kept
        for name in sorted(filenames):
            if not name.lower().endswith(EVAL_SUFFIXES):
                continue
            path = folder_path / name
            if path.is_symlink() and not _inside(path, root):
                continue
            rel = _relative(path, root)
            if not excluded_start and is_excluded(rel, config):
                continue
            if is_included(rel, config) or excluded_start:
                yield path


def _relative(path: Path, root: Path) -> str:
    """The path relative to the root, without following a symlink in its last component (a
    looping link must not raise here)."""
    absolute = Path(os.path.abspath(path))
    try:
        return absolute.relative_to(Path(os.path.abspath(root))).as_posix()
    except ValueError:
        pass
    try:
        return absolute.parent.resolve().joinpath(absolute.name).relative_to(
            root.resolve()).as_posix()
    except (ValueError, OSError, RuntimeError):
        return path.as_posix()


def in_scope(path: Path, start: Path, config: Config) -> bool:
    """Whether `discover(start, config)` would yield `path`, without walking the tree.

    The index asks this when an editor closes a file: a file the workspace would not have found
    on its own is dropped, the others are re-read from disk.
    """
    absolute = Path(os.path.abspath(path))
    start_abs = Path(os.path.abspath(start))
    try:
        inner = absolute.relative_to(start_abs)
    except ValueError:
        return False
    if not absolute.name.lower().endswith(EVAL_SUFFIXES):
        return False
    folder = start_abs
    for part in inner.parts[:-1]:
        folder = folder / part
        if part in DEFAULT_EXCLUDE or folder.is_symlink() or _is_virtualenv(folder):
            return False
    start_rel = _relative(start_abs, config.root)
    if start_rel not in ("", ".") and is_excluded(start_rel, config):
        return True
    rel = _relative(absolute, config.root)
    return not is_excluded(rel, config) and is_included(rel, config)

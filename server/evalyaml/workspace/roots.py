"""The workspace's roots, the configuration that governs each, and the options a file gets.

Each root's `evalyaml.toml` (or `[tool.evalyaml]`) is found by walking up from the root
(`config.find_root`); its include/exclude apply to discovery and its bundles are loaded
(`workspace.bundles`). Overrides win over the file: `today`, `strict` and `freshness_days` (the
CLI's flags, the editor's settings), and `globs` (the editor's `include`/`exclude` settings,
which replace the file's globs key by key). `options_for`, when given, replaces all of that for
every file: it must return complete `Options` (bundles included; see `config_options` for the
default it replaces).

Paths are absolute (`normalize`: `os.path.abspath`, symlinks not resolved) wherever they are
keys of the index or appear in `Related.path`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import Any

from evalyaml.config import Config, find_root, load_config
from evalyaml.core.findings import Finding
from evalyaml.core.options import Options
from evalyaml.syntax.record import mutable_record, replace
from evalyaml.workspace.bundles import Bundles, load_bundles
from evalyaml.workspace.discovery import discover

OnError = Callable[[Path, OSError], None]


def normalize(path: Path | str) -> Path:
    """The form every path takes inside the index: absolute, symlinks left alone."""
    return Path(os.path.abspath(path))


@mutable_record
class WorkspaceRoot:
    """A folder given to the workspace, with the configuration that governs it."""

    path: Path
    config: Config
    bundles: Bundles


@mutable_record
class Overrides:
    """What wins over every root's configuration file (see the module docstring)."""

    today: date | None = None
    strict: bool | None = None
    freshness_days: int | None = None
    options_for: Callable[[Path], Options] | None = None
    # The editor's keys that replace the file's: "include"/"exclude" -> globs, "rules" ->
    # (`Rules` field, value) pairs.
    globs: Mapping[str, Any] | None = None


class Roots:
    """The roots given to the workspace, plus one per folder outside them that an editor opened
    a file in; each with its configuration, and the options it gives files."""

    def __init__(self, paths: Sequence[Path], overrides: Overrides) -> None:
        self.overrides = overrides
        self.roots = [self.make_root(normalize(p)) for p in paths]
        self.extra: dict[Path, WorkspaceRoot] = {}
        self._options_cache: dict[Path, Options] = {}

    def make_root(self, path: Path) -> WorkspaceRoot:
        config_root = find_root(path) or (path if path.is_dir() else path.parent)
        config = load_config(config_root)
        root = WorkspaceRoot(path, config, load_bundles(config))
        if self.overrides.globs:
            changes = dict(self.overrides.globs)
            rules = changes.pop("rules", None)
            if rules:  # each rule key the editor sets replaces the file's
                changes["rules"] = replace(root.config.rules, **dict(rules))
            root.config = root.config.with_overrides(**changes)
        return root

    def root_for(self, path: Path) -> WorkspaceRoot:
        """The innermost root holding `path`; for a file outside every root (an editor may open
        one), a root made from the configuration found above the file."""
        key = normalize(path)
        text = os.path.normcase(key)
        best: WorkspaceRoot | None = None
        for root in self.roots:
            root_text = os.path.normcase(root.path)
            # `root.path in key.parents`, as text: both are normalised absolute paths (case
            # folded where the system folds it, as Path compares), and building every parent
            # as a Path cost more than the check of a file itself.
            inside = text == root_text or text.startswith(root_text.rstrip(os.sep) + os.sep)
            if inside and (best is None or len(root.path.parts) > len(best.path.parts)):
                best = root
        if best is not None:
            return best
        folder = key.parent
        found = find_root(folder) or folder
        if found not in self.extra:
            self.extra[found] = self.make_root(found)
        return self.extra[found]

    def search_roots(self, near: Path) -> list[Path]:
        """The roots, or the root of `near` when the workspace was given none."""
        return [r.path for r in self.roots] or [self.root_for(near).path]

    def config_options(self, path: Path) -> Options:
        """The options the configuration gives `path`, with the overrides."""
        root = self.root_for(path)
        today = self.overrides.today or date.today()
        cached = self._options_cache.get(root.path)
        if cached is not None and cached.today == today:
            return cached
        options = root.config.options(today=today, strict=self.overrides.strict,
                                      bundles=root.bundles.schemas)
        if self.overrides.freshness_days is not None:
            options = replace(options, freshness_days=self.overrides.freshness_days)
        self._options_cache[root.path] = options
        return options

    def options(self, path: Path) -> Options:
        if self.overrides.options_for is not None:
            return self.overrides.options_for(normalize(path))
        return self.config_options(path)

    def config_findings(self) -> list[tuple[Path, list[Finding]]]:
        """Problems in each root's configuration file, bundle schemas included."""
        out: list[tuple[Path, list[Finding]]] = []
        seen: set[Path] = set()
        for root in [*self.roots, *self.extra.values()]:
            source = root.config.source
            if source is None or source in seen:
                continue
            seen.add(source)
            findings = [*root.config.findings, *root.bundles.findings]
            if findings:
                out.append((source, findings))
        return out

    def configure(self, overrides: Overrides) -> None:
        """New overrides (editor settings); the globs stay as they were."""
        self.overrides = replace(overrides, globs=self.overrides.globs)
        self._options_cache.clear()

    def reload(self) -> None:
        """Re-read every root's configuration and bundle schemas."""
        self.roots = [self.make_root(r.path) for r in self.roots]
        self.extra.clear()
        self._options_cache.clear()


@mutable_record
class Found:
    """What discovery found under the roots and the paths the user named."""

    files: dict[Path, bool]  # path -> whether it was found through the named paths
    broken: dict[Path, str]  # folders that could not be listed -> why
    explicit: set[Path]  # files named directly: reported even if not ours
    forced: set[Path]  # what was found through the named paths (unlistable folders included)


def discover_all(roots: Roots, include: Sequence[Path]) -> Found:
    """Every file under the roots and under `include` (files or folders the user named, found
    even when the configuration excludes them)."""
    found: dict[Path, bool] = {}
    broken: dict[Path, str] = {}
    explicit: set[Path] = set()

    def on_error(folder: Path, err: OSError) -> None:
        broken.setdefault(normalize(folder), err.strerror or str(err))

    for root in roots.roots:
        if root.path.is_dir():
            for path in discover(root.path, root.config, on_error):
                found.setdefault(normalize(path), False)
        elif root.path.is_file():
            found.setdefault(root.path, False)
    for extra in include:
        if extra.is_dir():
            config = roots.root_for(extra).config
            for path in discover(extra, config, on_error):
                found[normalize(path)] = True
        else:
            found[extra] = True
            explicit.add(extra)
    forced = {p for p, was_forced in found.items() if was_forced}
    # A folder that cannot be listed under a path the user named is reported too (EY311):
    # otherwise a check would pass without saying that part of it was never read.
    named = [extra for extra in include if extra.is_dir()]
    forced |= {folder for folder in broken
               if any(folder == extra or extra in folder.parents for extra in named)}
    return Found(found, broken, explicit, forced)

"""The workspace index as the editor sees it: `evalyaml.workspace.Workspace` plus the editor's
settings.

Editor settings win over the configuration file key by key (see `settings`): `strict` and
`freshnessDays` go to the index as overrides; `include`/`exclude` replace the file's globs when
the editor sets them (`Workspace(globs=...)`, applied where each root's configuration is loaded).
"""

from __future__ import annotations

import contextlib
from datetime import date
from pathlib import Path
from typing import Any

from evalyaml.config import find_root, load_config
from evalyaml.core.incremental import CaseMapper
from evalyaml.lsp.settings import Settings
from evalyaml.workspace.discovery import discover
from evalyaml.workspace.index import Workspace
from evalyaml.workspace.loading import PARALLEL_THRESHOLD

# Index in worker processes when the workspace is large (by files, the CLI's threshold, or by
# bytes): the engine thread analysing the documents the user has open then does not compete
# with indexing for the GIL. Small workspaces are indexed in this process: starting workers
# would cost more.
PARALLEL_BYTES = 4_000_000
LARGE_FILE = 1_000_000
"""A file this large (about 1,500 cases) is worth the language server's case worker."""


def index_workers(roots: list[Path]) -> tuple[int, bool]:
    """Processes to index with, and whether some file is large (see `LARGE_FILE`)."""
    count = size = largest = 0
    for root in roots:
        if not root.is_dir():
            continue
        config = load_config(find_root(root) or root)
        for path in discover(root, config):
            count += 1
            with contextlib.suppress(OSError):
                file_size = path.stat().st_size
                size += file_size
                largest = max(largest, file_size)
            if count >= PARALLEL_THRESHOLD or size >= PARALLEL_BYTES:
                return 2, largest >= LARGE_FILE
    return 1, largest >= LARGE_FILE


class EditorWorkspace(Workspace):
    """The index with the editor's settings: `strict` and `freshnessDays` as overrides, and
    `include`/`exclude` replacing each root's globs when the editor sets them. Everything an
    editor needs beyond that (the resolution memo, adopting an analysed buffer, the reported
    files) is the index's own (`workspace.symbols`, `Workspace.adopt`)."""

    def __init__(self, roots: list[Path], settings: Settings, today: date | None = None,
                 workers: int = 1, mapper: CaseMapper | None = None) -> None:
        self.settings = settings
        globs: dict[str, Any] = {}
        if settings.include is not None:
            globs["include"] = settings.include
        if settings.exclude is not None:
            globs["exclude"] = settings.exclude
        if settings.rules:
            globs["rules"] = settings.rules
        super().__init__(roots, today=today, strict=settings.strict,
                         freshness_days=settings.freshness_days, globs=globs or None,
                         workers=workers, mapper=mapper)

"""The workspace index as the editor sees it: `evalyaml.workspace.Workspace` plus the editor's
settings.

Editor settings win over the configuration file key by key (see `settings`): `strict` and
`freshnessDays` go to the index as overrides; `include`/`exclude` replace the file's globs when
the editor sets them, which is done where each root's configuration is loaded.
"""

from __future__ import annotations

import contextlib
from datetime import date
from pathlib import Path

from evalyaml.analysis.dataset import CaseMapper
from evalyaml.analysis.kinds import Kind
from evalyaml.analysis.model import FileAnalysis, Reference
from evalyaml.config import find_root, load_config
from evalyaml.lsp.settings import Settings
from evalyaml.workspace.discovery import discover
from evalyaml.workspace.index import Workspace, WorkspaceRoot, normalize
from evalyaml.workspace.index import _Entry as Entry
from evalyaml.workspace.resolve import Resolution

ResolutionKey = tuple[Kind, str, str | None]

# Index in worker processes when the workspace is large (by files or bytes): the engine thread
# analysing the documents the user has open then does not compete with indexing for the GIL.
# Small workspaces are indexed in this process: starting workers would cost more.
PARALLEL_FILES = 400
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
            if count >= PARALLEL_FILES or size >= PARALLEL_BYTES:
                return 2, largest >= LARGE_FILE
    return 1, largest >= LARGE_FILE


RESOLVED_SLACK = 1024  # memoised resolutions beyond twice the distinct references named


class EditorWorkspace(Workspace):
    """Adds to the index what an editor needs on every keystroke in a large dataset: resolving
    a reference is memoised per (kind, id, pin) until a definition of that id changes, so
    re-checking 10,000 references that all say `rubric/factuality@1.2` resolves it once. The
    memo is bounded: ids that no file names any more are forgotten when it outgrows the index.
    (It hooks the index's private `_index`/`_unindex`; a candidate for the index itself.)
    """

    def __init__(self, roots: list[Path], settings: Settings, today: date | None = None,
                 workers: int = 1, mapper: CaseMapper | None = None) -> None:
        self.settings = settings  # read by _make_root, which the base __init__ calls
        self._generations: dict[tuple[Kind, str], int] = {}
        self._resolved: dict[ResolutionKey, tuple[int, Resolution]] = {}
        super().__init__(roots, today=today, strict=settings.strict,
                         freshness_days=settings.freshness_days, workers=workers, mapper=mapper)

    def adopt(self, path: Path, text: str, analysis: FileAnalysis | None) -> None:
        """An open buffer's text and its analysis, already computed: the index takes them as
        they are (and skips the file when indexing), instead of analysing it again."""
        with self._lock:
            self._replace(normalize(path), Entry(analysis, text=text))

    def reported_files(self) -> list[Path]:
        """What the server reports diagnostics for: the eval files, and the entries that could
        not be read (EY311: a FIFO, a broken or looping link, an unreadable file), sorted."""
        with self._lock:
            return sorted(p for p, e in self._files.items() if e.problem is not None or (
                e.analysis is not None and e.analysis.kind is not None))

    def _index(self, key: Path, entry: Entry) -> None:
        super()._index(key, entry)
        self._bump(entry)

    def _unindex(self, key: Path, entry: Entry) -> None:
        super()._unindex(key, entry)
        self._bump(entry)

    def _bump(self, entry: Entry) -> None:
        for definition in entry.analysis.definitions if entry.analysis else ():
            ident = (definition.kind, definition.id)
            self._generations[ident] = self._generations.get(ident, 0) + 1

    def _clear_caches(self) -> None:
        super()._clear_caches()
        self._resolved.clear()

    def resolve(self, ref: Reference) -> Resolution:
        if ref.id is None:
            return super().resolve(ref)
        with self._lock:
            generation = self._generations.get((ref.target, ref.id), 0)
            key = (ref.target, ref.id, ref.pin.text if ref.pin else None)
            hit = self._resolved.get(key)
            if hit is not None and hit[0] == generation:
                found = hit[1]
                if found.reference is ref:
                    return found
                return Resolution(ref, found.status, found.path, found.definition,
                                  found.candidates, found.newer)
            found = super().resolve(ref)
            if len(self._resolved) >= RESOLVED_SLACK + 2 * len(self._referrers):
                self._forget_unreferenced()
            self._resolved[key] = (generation, found)
            return found

    def _forget_unreferenced(self) -> None:
        """Typing a reference resolves every prefix of it on the way (`rubric/f`, `rubric/fa`,
        ...); a session's memo would keep them all. Keep what some file still names, and start
        over if even that is too much (many pins of one id)."""
        referenced = self._referrers
        kept = {key: hit for key, hit in self._resolved.items() if key[:2] in referenced}
        if len(kept) >= RESOLVED_SLACK // 2 + 2 * len(referenced):
            kept.clear()
        self._resolved = kept

    def _make_root(self, path: Path) -> WorkspaceRoot:  # type: ignore[override]
        root = Workspace._make_root(path)
        changes: dict[str, tuple[str, ...]] = {}
        if self.settings.include is not None:
            changes["include"] = self.settings.include
        if self.settings.exclude is not None:
            changes["exclude"] = self.settings.exclude
        if changes:
            root.config = root.config.with_overrides(**changes)
        return root

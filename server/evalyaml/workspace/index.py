"""The workspace index: every eval file under the roots, joined by their references.

Each file is analysed on its own by the core (`analyze_text`/`analyze_bytes`); the index keeps
the results in a file table and hands their definitions and references to `symbols.Symbols`,
which owns the maps built from them, the cross-file caches and the rule that decides whose
findings an update may change. Roots and configuration are `roots.Roots`; files another file
adopts as a kind are `adoption.Adoption`.

The index is guarded by a lock, so `index_all` may run in a worker thread while the editor's
thread calls `set_text`; an editor buffer always wins over the disk copy.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import date
from pathlib import Path

from evalyaml.core.findings import Finding, sort_unique
from evalyaml.core.incremental import CaseCache, CaseMapper
from evalyaml.core.kinds import Kind
from evalyaml.core.model import Definition, FileAnalysis, Reference
from evalyaml.core.options import Options
from evalyaml.dispatch import analyze_text
from evalyaml.workspace import loading
from evalyaml.workspace.adoption import Adoption, first_existing, same_adoptions
from evalyaml.workspace.crossfile import cross_findings
from evalyaml.workspace.discovery import discover, in_scope
from evalyaml.workspace.loading import Entry, Job, Pause, digest_of, entry_of, load, unreadable
from evalyaml.workspace.resolve import Resolution
from evalyaml.workspace.roots import Overrides, Roots, WorkspaceRoot, discover_all, normalize
from evalyaml.workspace.suppress import finalise_file
from evalyaml.workspace.symbols import Symbols

__all__ = ["Workspace", "WorkspaceRoot", "normalize", "sort_unique"]

Progress = Callable[[int, int], None]


class Workspace:
    """All eval files under `roots`, indexed by the definitions and references they hold.
    Configuration overrides (`today`, `strict`, `freshness_days`, `options_for`, `globs`):
    see `workspace.roots`. `include_paths` are files or folders to index even when the
    configuration excludes them (what the user named on the command line); `force_kind`
    analyses the files found through them as that kind (`evalyaml validate-rubric`).
    `workers` is the number of processes a cold index may use (None: decide from the number
    of files and processors; 1: none); `mapper` spreads a large dataset's cases over
    processes when a file is analysed in this process (`evalyaml.parallel.case_mapper()`).
    """

    def __init__(self, roots: Sequence[Path], *,
                 options_for: Callable[[Path], Options] | None = None,
                 today: date | None = None, strict: bool | None = None,
                 freshness_days: int | None = None, globs: Mapping[str, object] | None = None,
                 include_paths: Sequence[Path] = (), force_kind: Kind | None = None,
                 workers: int | None = None, mapper: CaseMapper | None = None) -> None:
        self._workers = workers
        self._mapper = mapper
        self._lock = threading.RLock()
        self._include = [normalize(p) for p in include_paths]
        self._force_kind = force_kind
        self._config = Roots(roots, Overrides(today, strict, freshness_days, options_for, globs))
        self._files: dict[Path, Entry] = {}
        self._explicit: set[Path] = set()  # files named directly: reported even if not ours
        self._forced: set[Path] = set()  # files found through include_paths
        self.symbols = Symbols()
        self._adoption = Adoption()
        self.stats_cross_computed = 0  # how many files had their cross-file findings computed
        self.skipped: set[Path] = set()  # left out of the last index as open (`load_yielding`)

    # ----------------------------------------------------------------- configuration (`Roots`)
    @property
    def roots(self) -> list[WorkspaceRoot]:
        return list(self._config.roots)

    def root_for(self, path: Path) -> WorkspaceRoot:
        return self._config.root_for(path)

    def config_options(self, path: Path) -> Options:
        return self._config.config_options(path)

    def options(self, path: Path) -> Options:
        return self._config.options(path)

    def config_findings(self) -> list[tuple[Path, list[Finding]]]:
        return self._config.config_findings()

    def configure(self, *, today: date | None = None, strict: bool | None = None,
                  freshness_days: int | None = None,
                  options_for: Callable[[Path], Options] | None = None) -> set[Path]:
        """Change the overrides (editor settings) and analyse everything again; returns every
        path, since all findings may change."""
        with self._lock:
            self._config.configure(Overrides(today, strict, freshness_days, options_for))
        return self._reindex_everything()

    def reload_config(self) -> set[Path]:
        """Re-read every root's configuration and bundle schemas, then index again."""
        with self._lock:
            self._config.reload()
        return self._reindex_everything()

    def _reindex_everything(self) -> set[Path]:
        """Disk files through `index_all` (outside the lock), then the open buffers."""
        with self._lock:
            before = set(self._files)
        self.index_all()
        with self._lock:
            for key, entry in list(self._files.items()):
                if entry.text is None:
                    continue
                fresh = self._analyse_text(key, entry.text, None)
                self.symbols.unindex(key, entry.analysis)
                self._files[key] = fresh
                self.symbols.index(key, fresh.analysis)
            self.symbols.clear_caches()
            return before | set(self._files)

    # ----------------------------------------------------------------- loading
    def _forced_kind(self, key: Path) -> Kind | None:
        adopted = self._adoption.kind_of(key)
        if adopted is not None:
            return adopted
        return self._force_kind if key in self._forced else None

    def _job(self, key: Path) -> Job:
        return Job(key, self.options(key), key in self._explicit, self._forced_kind(key))

    def _load(self, key: Path) -> Entry:
        return entry_of(load(self._job(key), self._mapper))

    def _analyse_text(self, key: Path, text: str, cache: CaseCache | None) -> Entry:
        analysis = analyze_text(text, str(key), self.options(key), cache,
                                forced_kind=self._forced_kind(key), mapper=self._mapper)
        return Entry(analysis, text=text)

    def index_all(self, progress: Progress | None = None, pause: Pause | None = None) -> None:
        """Discover and analyse every file (a cold index, or a full re-index). With `pause`,
        files open in the editor meanwhile are left out (`skipped`: see `load_yielding`).

        Files are analysed outside the lock, so an editor thread is never blocked for long;
        open editor buffers are kept as they are. The cyclic garbage collector is paused while
        analysing: it would otherwise rescan the growing index over and over (DESIGN §4).
        """
        with self._lock:
            found = discover_all(self._config, self._include)
            self._explicit |= found.explicit
            self._forced = found.forced
            jobs = [self._job(key) for key in found.files
                    if key not in self._files or self._files[key].text is None]
        total = len(found.files)
        done = total - len(jobs)

        def advance(count: int) -> None:
            nonlocal done
            done += count
            if progress is not None:
                progress(done, total)

        with loading.collector_paused():
            results, self.skipped = loading.load_yielding(jobs, pause, workers=self._workers,
                                                          progress=advance, mapper=self._mapper)
        loaded = {result.path: entry_of(result) for result in results}
        with self._lock:
            for folder, reason in found.broken.items():
                loaded[folder] = Entry(None, unreadable(
                    f"cannot list this folder ({reason}); files in it are not indexed"))
            for key in list(self._files):
                if key not in loaded and self._files[key].text is None:
                    self.symbols.unindex(key, self._files.pop(key).analysis)
            for key, entry in loaded.items():
                current = self._files.get(key)
                if current is not None and current.text is not None:
                    continue  # opened in the editor meanwhile: the buffer wins
                if current is not None:
                    self.symbols.unindex(key, current.analysis)
                self._files[key] = entry
                self.symbols.index(key, entry.analysis)
            self.symbols.clear_caches()
            self._adopt_all()

    # ----------------------------------------------------------------- updates
    def set_text(self, path: Path, text: str, cache: CaseCache | None = None) -> set[Path]:
        """An editor buffer's text; it wins over the disk until `close`. Returns the files
        whose findings may have changed (this one included)."""
        key = normalize(path)
        entry = self._analyse_text(key, text, cache)
        with self._lock:
            return self._replace(key, entry)

    def adopt(self, path: Path, text: str, analysis: FileAnalysis | None) -> set[Path]:
        """An open buffer's text and its analysis, already computed: the index takes them as
        they are (and skips the file when indexing), instead of analysing it again; unless
        another file adopts it as a kind the analysis was not made as."""
        key = normalize(path)
        with self._lock:
            forced = self._forced_kind(key)
            return self._replace(key, Entry(analysis, text=text) if forced is None or (
                analysis is not None and analysis.kind == forced) else
                self._analyse_text(key, text, None))

    def open_unchanged(self, path: Path, text: str) -> bool:
        """An editor buffer that holds exactly the disk text the index analysed: the file is
        open from now on (as after `set_text`) with the analysis it has, and nothing else
        changes. False, and nothing done, when the index has no such analysis of this text."""
        key = normalize(path)
        with self._lock:
            entry = self._files.get(key)
            if entry is None or entry.text is not None or entry.analysis is None or \
                    entry.digest is None or entry.digest != digest_of(text):
                return False
            entry.text = text
            return True

    def update(self, path: Path, text: str | None) -> set[Path]:
        """`set_text` when `text` is given, else `refresh`; for callers that hold either."""
        return self.set_text(path, text) if text is not None else self.refresh(path)

    def refresh(self, path: Path) -> set[Path]:
        """The file changed on disk (created, changed or deleted). An open buffer wins, so this
        does nothing for a file open in the editor. A folder (created, deleted or renamed: file
        watchers report folders too) refreshes every file in and under it."""
        key = normalize(path)
        if key.is_dir() or (not key.exists() and self._indexed_under(key)):
            return self._refresh_folder(key)
        with self._lock:
            current = self._files.get(key)
            if current is not None and current.text is not None:
                return set()
            if not self._wanted(key):
                return self._replace(key, None) if current is not None else \
                    self.symbols.reread(key) | self._readopt(self._adoption.watchers(key))
        entry = self._load(key) if key.exists() or key.is_symlink() else None
        with self._lock:
            current = self._files.get(key)
            if current is not None and current.text is not None:
                return set()
            if entry is None:
                return self._replace(key, None) if current is not None else \
                    self.symbols.reread(key)
            return self._replace(key, entry) | self._readopt(self._adoption.watchers(key))

    def _indexed_under(self, folder: Path) -> list[Path]:
        with self._lock:
            return [p for p in self._files if folder in p.parents]

    def _refresh_folder(self, folder: Path) -> set[Path]:
        candidates = set(self._indexed_under(folder))
        if folder.is_dir():
            candidates |= {normalize(p) for p in discover(folder, self.root_for(folder).config)}
        with self._lock:
            candidates |= {p for p in self.symbols.readers if folder in p.parents}
        touched: set[Path] = set()
        for candidate in sorted(candidates):
            touched |= self.refresh(candidate)
        with self._lock:
            if folder in self._files:  # it was an unreadable folder (EY311)
                touched |= self._replace(folder, None)
        return touched

    def close(self, path: Path) -> set[Path]:
        """The editor closed the file: go back to the disk copy (the buffer's analysis, when the
        disk holds that very text), or drop a file the workspace would not have found."""
        key = normalize(path)
        with self._lock:
            current = self._files.get(key)
            if current is not None and current.text is not None:
                text, current.text = current.text, None  # `refresh` may now replace it
                if current.analysis is not None and self._wanted(key) and \
                        (digest := loading.disk_holds(key, text, self.options(key))) is not None:
                    current.digest = digest  # the disk holds the text analysed: keep it all
                    return set()
        return self.refresh(key)

    def remove(self, path: Path) -> set[Path]:
        """Forget the file (deleted, or no longer part of the workspace)."""
        key = normalize(path)
        with self._lock:
            if key not in self._files:
                return set()
            return self._replace(key, None)

    def _wanted(self, key: Path) -> bool:
        return key in self._adoption.adopted or self._discoverable(key)

    def _discoverable(self, key: Path) -> bool:
        if key in self._explicit or key in self._forced:
            return True
        for start in [*self._include, *(r.path for r in self._config.roots)]:
            if in_scope(key, start, self.root_for(start).config):
                return True
        return False

    def _replace(self, key: Path, entry: Entry | None) -> set[Path]:
        """Swap one file's entry; returns whose findings that may change (`Symbols.swap`)."""
        old = self._files.pop(key, None)
        old_analysis = old.analysis if old else None
        new_analysis = entry.analysis if entry else None
        if entry is not None:
            self._files[key] = entry
        result = self.symbols.swap(key, old_analysis, new_analysis)
        if not same_adoptions(old_analysis, new_analysis):
            result |= self._settle(self._adoption.release(key) | self._adopt(key, new_analysis))
        return result

    # ----------------------------------------------------------------- adopted files
    def _adopt_all(self) -> None:
        """After a cold index: every file's adoptions afresh."""
        self._adoption.clear()
        pending: set[Path] = set()
        for key, entry in list(self._files.items()):
            if entry.analysis is not None and entry.analysis.file_refs:
                pending |= self._adopt(key, entry.analysis)
        self._settle(pending)

    def _adopt(self, adopter: Path, analysis: FileAnalysis | None) -> set[Path]:
        """Record what `adopter` names; returns the adopted paths to (re)load."""
        chosen = self._adoption.adopt(adopter, analysis, self._first_existing)
        return {path for path in chosen if self._needs_load(path)}

    def _needs_load(self, path: Path) -> bool:
        return self._adoption.needs_load(path, self._analysis_of(path))

    def _analysis_of(self, key: Path) -> FileAnalysis | None:
        entry = self._files.get(key)
        return entry.analysis if entry else None

    def _first_existing(self, candidates: Iterable[str], near: Path) -> Path | None:
        return first_existing(candidates, self._config.search_roots(near), self._buffered)

    def _buffered(self, key: Path) -> bool:
        entry = self._files.get(key)
        return entry is not None and entry.text is not None

    def named_file(self, candidates: Iterable[str], near: Path) -> Path | None:
        """Where a `FileRef` leads (for links and go-to-definition), or None."""
        with self._lock:
            return self._first_existing(candidates, normalize(near))

    def _readopt(self, adopters: Iterable[Path]) -> set[Path]:
        """A candidate appeared or vanished: the adopters that watch it choose again."""
        touched: set[Path] = set()
        for adopter in list(adopters):
            released = self._adoption.release(adopter)
            touched |= self._settle(released | self._adopt(adopter, self._analysis_of(adopter)))
        return touched

    def _settle(self, paths: Iterable[Path]) -> set[Path]:
        """Load each adopted path as its kind; give orphans back to discovery (or drop them)."""
        touched: set[Path] = set()
        for path in sorted(paths):
            current = self._files.get(path)
            if path in self._adoption.adopted:
                if not self._needs_load(path):
                    continue
                if current is not None and current.text is not None:
                    entry = self._analyse_text(path, current.text, None)
                else:
                    entry = self._load(path)
            elif current is None:
                continue
            elif current.text is not None:
                entry = self._analyse_text(path, current.text, None)
            elif self._discoverable(path) and path.exists():
                entry = self._load(path)
            else:
                touched |= self._replace(path, None)
                continue
            touched |= self._replace(path, entry)
        return touched

    # ----------------------------------------------------------------- queries
    def paths(self) -> list[Path]:
        """Every indexed path, eval files and unreadable ones alike, sorted."""
        with self._lock:
            return sorted(self._files)

    def eval_files(self) -> list[Path]:
        """Indexed files that are ours (a dataset, rubric or judge), sorted."""
        with self._lock:
            return sorted(p for p, e in self._files.items()
                          if e.analysis is not None and e.analysis.kind is not None)

    def reported_files(self) -> list[Path]:
        """What the server reports diagnostics for: the eval files, and the entries that could
        not be read (EY311: a FIFO, a broken or looping link, an unreadable file), sorted."""
        with self._lock:
            return sorted(p for p, e in self._files.items() if e.problem is not None or (
                e.analysis is not None and e.analysis.kind is not None))

    def included_files(self) -> list[Path]:
        """The files found through `include_paths` (what the user asked to check), sorted."""
        with self._lock:
            asked = {p for p in self._files if p in self._forced or p in self._explicit}
            # A file adopted by one the user asked for is checked with it (a grader prompt).
            asked |= {p for p, (_, adopters) in self._adoption.adopted.items()
                      if p in self._files and adopters & asked}
            return sorted(asked)

    def problem(self, path: Path) -> Finding | None:
        """Why a file (or folder) could not be read (EY311), if it could not."""
        with self._lock:
            entry = self._files.get(normalize(path))
            return entry.problem if entry else None

    def is_open(self, path: Path) -> bool:
        with self._lock:
            entry = self._files.get(normalize(path))
            return entry is not None and entry.text is not None

    def analysis(self, path: Path) -> FileAnalysis | None:
        with self._lock:
            return self._analysis_of(normalize(path))

    def findings(self, path: Path) -> list[Finding]:
        """The file's own findings and its cross-file ones, deduplicated and sorted."""
        key = normalize(path)
        with self._lock:
            entry = self._files.get(key)
            if entry is None:
                return []
            found: list[Finding] = []
            if entry.problem is not None:
                found.append(entry.problem)
            if entry.analysis is not None:
                found.extend(entry.analysis.findings)
                if entry.analysis.kind is not None:
                    found.extend(self._cross_for(key, entry.analysis))
            return finalise_file(self, key, sort_unique(found), entry.analysis, complete=True)

    def cross_file_findings(self, path: Path) -> list[Finding]:
        """Only the findings that need other files (cached until an update invalidates them)."""
        key = normalize(path)
        with self._lock:
            entry = self._files.get(key)
            if entry is None or entry.analysis is None or entry.analysis.kind is None:
                return []
            return list(self._cross_for(key, entry.analysis))

    def _cross_for(self, key: Path, analysis: FileAnalysis) -> list[Finding]:
        cached = self.symbols.cross.get(key)
        if cached is not None:
            return cached
        roots = self._config.search_roots(key)
        if not any(r == key or r in key.parents for r in roots):
            roots.append(self.root_for(key).path)  # a file the editor opened outside them
        result = cross_findings(self, key, analysis, self.options(key), roots)
        self.stats_cross_computed += 1
        self.symbols.record(key, result.findings, result.observed, result.read)
        return result.findings

    def buffer_text(self, path: Path) -> str | None:
        """The editor's text of an open file; None when it is not open."""
        with self._lock:
            entry = self._files.get(normalize(path))
            return entry.text if entry is not None else None

    def resolve(self, ref: Reference) -> Resolution:
        """What `ref` points at: the definition and its file, or why it points nowhere."""
        with self._lock:
            return self.symbols.resolve(ref)

    def edges(self, path: Path, origin: str) -> list[Resolution]:
        """The resolved references of one origin in one file (cached)."""
        key = normalize(path)
        with self._lock:
            return self.symbols.edges(key, self._analysis_of(key), origin)

    def known_ids(self, kind: Kind) -> list[str]:
        with self._lock:
            return self.symbols.known_ids(kind)

    def definitions(self) -> Iterable[tuple[Path, Definition]]:
        with self._lock:
            return self.symbols.definitions()

    def definitions_of(self, kind: Kind, id: str) -> list[tuple[Path, Definition]]:
        """Every definition of one id, newest version first (duplicates included)."""
        with self._lock:
            return self.symbols.definitions_of(kind, id)

    def references_to(self, path: Path, definition: Definition) -> list[tuple[Path, Reference]]:
        """Every reference, in open and closed files, that resolves to `definition`'s id and
        version (a duplicate definition's references count for both copies)."""
        del path  # identity is id@version, not the file (DESIGN §3)
        with self._lock:
            return self.symbols.references_to(definition, self._analysis_of)

    def referrers(self, kind: Kind, id: str) -> set[Path]:
        """Files holding any reference to the id, resolved or not."""
        with self._lock:
            return set(self.symbols.referrers.get((kind, id), set()))

    def dependents(self, path: Path) -> set[Path]:
        """Files whose findings depend on this file: naming it, reading it, adopting it."""
        key = normalize(path)
        with self._lock:
            named = self.symbols.dependents(key, self._analysis_of(key))
            return named | self._adoption.adopters_of(key)

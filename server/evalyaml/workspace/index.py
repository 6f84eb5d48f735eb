"""The workspace index: every eval file under the roots, joined by their references.

Each file is analysed on its own by the core (`analyze_text`/`analyze_bytes`); the index keeps
the results and three maps built from them:

- definers: `(kind, id)` -> the files defining that id, with their definitions;
- referrers: `(kind, id)` -> the files holding a reference to that id;
- observers: file -> the files whose composite-cycle search walked through it;
- readers: file -> the files whose format cross check read it (`Format.cross_check`), whether
  it existed then or not, indexed or not: a samples file, a grader prompt.

Cross-file findings (EY301-EY308, EY305, EY310) are computed per file on demand and cached.
An update replaces one file and returns exactly the files whose findings may have changed: the
file itself, the referrers and definers of every id whose definition changed, the observers of
every file whose composite edges may have moved, and files with an unresolved reference whose
did-you-mean may now name (or no longer name) an id that appeared or vanished, and the readers
of the file, whatever changed in it. Only those lose
their cache, so an edit to one rubric costs in proportion to its users, not to the workspace.

Paths are absolute (`os.path.abspath`, symlinks not resolved) wherever they are keys or appear
in `Related.path`. The index is guarded by a lock, so `index_all` may run in a worker thread
while the editor's thread calls `set_text`; an editor buffer always wins over the disk copy.
"""

from __future__ import annotations

import gc
import os
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from evalyaml.analysis.findings import Finding, FindingSink
from evalyaml.analysis.kinds import FileKind, Kind
from evalyaml.analysis.model import Definition, FileAnalysis, Reference
from evalyaml.analysis.options import Options
from evalyaml.analysis.suggest import rank
from evalyaml.analysis.text import Span
from evalyaml.config import Config, find_root, load_config
from evalyaml.dispatch import analyze_text
from evalyaml.workspace.bundles import Bundles, load_bundles
from evalyaml.workspace.crossfile import cross_findings
from evalyaml.workspace.discovery import discover, in_scope
from evalyaml.workspace.loading import Job, Loaded, digest_of, load, load_all
from evalyaml.workspace.resolve import Resolution, resolve_among, sort_newest_first

if TYPE_CHECKING:
    from evalyaml.analysis.dataset import CaseCache, CaseMapper

Key = tuple[Kind, str]
Progress = Callable[[int, int], None]


def normalize(path: Path | str) -> Path:
    """The form every path takes inside the index: absolute, symlinks left alone."""
    return Path(os.path.abspath(path))


@dataclass(slots=True)
class WorkspaceRoot:
    """A folder given to the workspace, with the configuration that governs it."""

    path: Path
    config: Config
    bundles: Bundles


@dataclass(slots=True)
class _Entry:
    analysis: FileAnalysis | None  # None: the file (or folder) could not be read
    problem: Finding | None = None  # EY311
    text: str | None = None  # the editor's buffer while the file is open
    digest: bytes | None = None  # `loading.digest_of` the disk text analysed, if one was


def _identity(definition: Definition) -> tuple[object, ...]:
    """What other files' findings read from a definition; a change elsewhere re-checks only
    the file itself."""
    return (definition.kind, definition.id, definition.version, definition.id_span,
            definition.version_span, definition.is_composite, definition.has_validation,
            definition.validated_at, definition.alias)


def _identities(analysis: FileAnalysis | None) -> dict[Key, list[tuple[object, ...]]]:
    out: dict[Key, list[tuple[object, ...]]] = {}
    for definition in analysis.definitions if analysis else ():
        out.setdefault((definition.kind, definition.id), []).append(_identity(definition))
    for values in out.values():
        values.sort(key=repr)
    return out


def _reference_keys(analysis: FileAnalysis) -> set[Key]:
    """The distinct targets a file names: 10,000 cases usually name a handful, and an edit
    re-indexes the file, so the index is updated per target, not per reference."""
    return {(ref.target, ref.id) for ref in analysis.references if ref.id is not None}


def _references(analysis: FileAnalysis | None) -> list[Reference]:
    return list(analysis.references) if analysis else []


def _adoptions(analysis: FileAnalysis | None) -> list[tuple[tuple[str, ...], Kind]]:
    """What a file adopts: its file references that name a kind (their spans left out, so an
    edit that moves them adopts nothing anew)."""
    if analysis is None:
        return []
    return [(ref.candidates, ref.kind) for ref in analysis.file_refs if ref.kind is not None]


def sort_unique(found: Iterable[Finding]) -> list[Finding]:
    """Findings in file order (start, end, code, message), the first of equal ones kept.

    The keys are flat tuples of ints and strings, compared and hashed in C: a dataset with
    17,000 findings is sorted on every keystroke, and tuples of `Position` objects would call
    their dataclass `__eq__`/`__lt__`/`__hash__` in Python for each comparison."""
    keyed: dict[tuple[int, int, int, int, str, str], Finding] = {}
    for finding in found:
        span = finding.span
        start, end = span.start, span.end
        keyed.setdefault((start.line, start.character, end.line, end.character, finding.code,
                          finding.message), finding)
    return [keyed[key] for key in sorted(keyed)]


def _unreadable(message: str) -> Finding:
    sink = FindingSink(strict=False)
    sink.add("EY311", message, Span.point(0, 0))
    return sink.findings[0]


class Workspace:
    """All eval files under `roots`, indexed by the definitions and references they hold.

    Configuration: each root's `evalyaml.toml` (or `[tool.evalyaml]`) is found by walking up
    from the root (`config.find_root`); its include/exclude apply to discovery and its bundles
    are loaded (`workspace.bundles`). `today`, `strict` and `freshness_days` override the
    configuration (the CLI's flags, the editor's settings). `options_for`, when given, replaces
    all of that for every file: it must return complete `Options` (bundles included; see
    `config_options` for the default it replaces).

    `include_paths` are files or folders to index even when the configuration excludes them
    (what the user named on the command line); `force_kind` analyses the files found through
    them as that kind (`evalyaml validate-rubric`). `workers` is the number of processes a
    cold index may use (None: decide from the number of files and processors; 1: none);
    `mapper` spreads a large dataset's cases over processes when a file is analysed in this
    process (the CLI passes `evalyaml.parallel.case_mapper()`).
    """

    def __init__(
        self,
        roots: Sequence[Path],
        *,
        options_for: Callable[[Path], Options] | None = None,
        today: date | None = None,
        strict: bool | None = None,
        freshness_days: int | None = None,
        include_paths: Sequence[Path] = (),
        force_kind: FileKind | None = None,
        workers: int | None = None,
        mapper: CaseMapper | None = None,
    ) -> None:
        self._workers = workers
        self._mapper = mapper
        self._lock = threading.RLock()
        self._options_for = options_for
        self._today = today
        self._strict = strict
        self._freshness_days = freshness_days
        self._include = [normalize(p) for p in include_paths]
        self._force_kind = force_kind
        self._roots = [self._make_root(normalize(r)) for r in roots]
        self._extra_roots: dict[Path, WorkspaceRoot] = {}
        self._options_cache: dict[Path, Options] = {}
        self._files: dict[Path, _Entry] = {}
        self._explicit: set[Path] = set()  # files named directly: reported even if not ours
        self._forced: set[Path] = set()  # files found through include_paths
        self._definers: dict[Key, dict[Path, list[Definition]]] = {}
        self._referrers: dict[Key, set[Path]] = {}
        self._ids: dict[Kind, set[str]] = {FileKind.RUBRIC: set(), FileKind.JUDGE: set()}
        self._cross: dict[Path, list[Finding]] = {}
        self._edges: dict[Path, list[Resolution]] = {}
        self._observers: dict[Path, set[Path]] = {}
        self._observed: dict[Path, set[Path]] = {}
        self._readers: dict[Path, set[Path]] = {}
        self._read: dict[Path, set[Path]] = {}
        # Adopted files (see `_adopt`): path -> (the kind its adopters name, the adopters);
        # adopter -> what it adopted; candidate path -> adopters whose choice it may change.
        self._adopted: dict[Path, tuple[Kind, set[Path]]] = {}
        self._adoptions: dict[Path, set[Path]] = {}
        self._candidates: dict[Path, set[Path]] = {}
        self.stats_cross_computed = 0  # how many files had their cross-file findings computed

    # ----------------------------------------------------------------- configuration
    @staticmethod
    def _make_root(path: Path) -> WorkspaceRoot:
        config_root = find_root(path) or (path if path.is_dir() else path.parent)
        config = load_config(config_root)
        return WorkspaceRoot(path, config, load_bundles(config))

    @property
    def roots(self) -> list[WorkspaceRoot]:
        return list(self._roots)

    def root_for(self, path: Path) -> WorkspaceRoot:
        """The innermost root holding `path`; for a file outside every root (an editor may open
        one), a root made from the configuration found above the file."""
        key = normalize(path)
        best: WorkspaceRoot | None = None
        for root in self._roots:
            inside = key == root.path or root.path in key.parents
            if inside and (best is None or len(root.path.parts) > len(best.path.parts)):
                best = root
        if best is not None:
            return best
        folder = key.parent
        found = find_root(folder) or folder
        if found not in self._extra_roots:
            self._extra_roots[found] = self._make_root(found)
        return self._extra_roots[found]

    def config_options(self, path: Path) -> Options:
        """The options the configuration gives `path`, with this workspace's overrides."""
        root = self.root_for(path)
        today = self._today or date.today()
        cached = self._options_cache.get(root.path)
        if cached is not None and cached.today == today:
            return cached
        options = root.config.options(today=today, strict=self._strict,
                                      bundles=root.bundles.schemas)
        if self._freshness_days is not None:
            options = replace(options, freshness_days=self._freshness_days)
        self._options_cache[root.path] = options
        return options

    def options(self, path: Path) -> Options:
        if self._options_for is not None:
            return self._options_for(normalize(path))
        return self.config_options(path)

    def config_findings(self) -> list[tuple[Path, list[Finding]]]:
        """Problems in each root's configuration file, bundle schemas included."""
        out: list[tuple[Path, list[Finding]]] = []
        seen: set[Path] = set()
        for root in [*self._roots, *self._extra_roots.values()]:
            source = root.config.source
            if source is None or source in seen:
                continue
            seen.add(source)
            findings = [*root.config.findings, *root.bundles.findings]
            if findings:
                out.append((source, findings))
        return out

    def configure(self, *, today: date | None = None, strict: bool | None = None,
                  freshness_days: int | None = None,
                  options_for: Callable[[Path], Options] | None = None) -> set[Path]:
        """Change the overrides (editor settings) and analyse everything again; returns every
        path, since all findings may change."""
        with self._lock:
            self._today, self._strict, self._freshness_days = today, strict, freshness_days
            self._options_for = options_for
            self._options_cache.clear()
        return self._reindex_everything()

    def reload_config(self) -> set[Path]:
        """Re-read every root's configuration and bundle schemas, then index again."""
        with self._lock:
            self._roots = [self._make_root(r.path) for r in self._roots]
            self._extra_roots.clear()
            self._options_cache.clear()
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
                self._unindex(key, entry)
                self._files[key] = fresh
                self._index(key, fresh)
            self._clear_caches()
            return before | set(self._files)

    # ----------------------------------------------------------------- loading
    def _discover(self) -> tuple[dict[Path, bool], dict[Path, str]]:
        """path -> whether it was found through include_paths; plus unreadable folders."""
        found: dict[Path, bool] = {}
        broken: dict[Path, str] = {}

        def on_error(folder: Path, err: OSError) -> None:
            broken.setdefault(normalize(folder), err.strerror or str(err))

        for root in self._roots:
            if root.path.is_dir():
                for path in discover(root.path, root.config, on_error):
                    found.setdefault(normalize(path), False)
            elif root.path.is_file():
                found.setdefault(root.path, False)
        for extra in self._include:
            if extra.is_dir():
                config = self.root_for(extra).config
                for path in discover(extra, config, on_error):
                    found[normalize(path)] = True
            else:
                found[extra] = True
                self._explicit.add(extra)
        self._forced = {p for p, forced in found.items() if forced}
        # A folder that cannot be listed under a path the user named is reported too (EY311):
        # otherwise a check would pass without saying that part of it was never read.
        named = [extra for extra in self._include if extra.is_dir()]
        self._forced |= {folder for folder in broken
                         if any(folder == extra or extra in folder.parents for extra in named)}
        return found, broken

    def _forced_kind(self, key: Path) -> Kind | None:
        adopted = self._adopted.get(key)
        if adopted is not None:
            return adopted[0]
        return self._force_kind if key in self._forced else None

    def _job(self, key: Path) -> Job:
        return Job(key, self.options(key), key in self._explicit, self._forced_kind(key))

    @staticmethod
    def _entry(loaded: Loaded) -> _Entry:
        if loaded.error is not None:
            return _Entry(None, _unreadable(f"cannot read this file ({loaded.error}); anything "
                                            "it defines is missing from the workspace"))
        return _Entry(loaded.analysis, digest=loaded.digest)

    def _load(self, key: Path) -> _Entry:
        return self._entry(load(self._job(key), self._mapper))

    def _analyse_text(self, key: Path, text: str, cache: CaseCache | None) -> _Entry:
        analysis = analyze_text(text, str(key), self.options(key), cache,
                                forced_kind=self._forced_kind(key), mapper=self._mapper)
        return _Entry(analysis, text=text)

    def index_all(self, progress: Progress | None = None) -> None:
        """Discover and analyse every file (a cold index, or a full re-index).

        Files are analysed outside the lock, so an editor thread is never blocked for long;
        open editor buffers are kept as they are. The cyclic garbage collector is paused while
        analysing: it would otherwise rescan the growing index over and over (DESIGN §4).
        """
        with self._lock:
            found, broken = self._discover()
            jobs = [self._job(key) for key in found
                    if key not in self._files or self._files[key].text is None]
        total = len(found)
        done = total - len(jobs)

        def advance(count: int) -> None:
            nonlocal done
            done += count
            if progress is not None:
                progress(done, total)

        collecting = gc.isenabled()
        gc.disable()
        try:
            results = load_all(jobs, workers=self._workers, progress=advance,
                               mapper=self._mapper)
        finally:
            if collecting:
                gc.enable()
        loaded = {result.path: self._entry(result) for result in results}
        with self._lock:
            for folder, reason in broken.items():
                loaded[folder] = _Entry(None, _unreadable(
                    f"cannot list this folder ({reason}); files in it are not indexed"))
            for key in list(self._files):
                if key not in loaded and self._files[key].text is None:
                    self._unindex(key, self._files.pop(key))
            for key, entry in loaded.items():
                current = self._files.get(key)
                if current is not None and current.text is not None:
                    continue  # opened in the editor meanwhile: the buffer wins
                if current is not None:
                    self._unindex(key, current)
                self._files[key] = entry
                self._index(key, entry)
            self._clear_caches()
            self._adopt_all()

    # ----------------------------------------------------------------- updates
    def set_text(self, path: Path, text: str, cache: CaseCache | None = None) -> set[Path]:
        """An editor buffer's text; it wins over the disk until `close`. Returns the files
        whose findings may have changed (this one included)."""
        key = normalize(path)
        entry = self._analyse_text(key, text, cache)
        with self._lock:
            return self._replace(key, entry)

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
                    self._reread(key) | self._readopt(self._candidates.get(key, set()))
        entry = self._load(key) if key.exists() or key.is_symlink() else None
        with self._lock:
            current = self._files.get(key)
            if current is not None and current.text is not None:
                return set()
            if entry is None:
                return self._replace(key, None) if current is not None else self._reread(key)
            return self._replace(key, entry) | self._readopt(self._candidates.get(key, set()))

    def _reread(self, key: Path) -> set[Path]:
        """A file the index does not hold changed on disk: only its readers may care."""
        readers = set(self._readers.get(key, ()))
        self._invalidate(readers)
        return readers

    def _indexed_under(self, folder: Path) -> list[Path]:
        with self._lock:
            return [p for p in self._files if folder in p.parents]

    def _refresh_folder(self, folder: Path) -> set[Path]:
        candidates = set(self._indexed_under(folder))
        if folder.is_dir():
            candidates |= {normalize(p) for p in discover(folder, self.root_for(folder).config)}
        with self._lock:
            candidates |= {p for p in self._readers if folder in p.parents}
        touched: set[Path] = set()
        for candidate in sorted(candidates):
            touched |= self.refresh(candidate)
        with self._lock:
            if folder in self._files:  # it was an unreadable folder (EY311)
                touched |= self._replace(folder, None)
        return touched

    def close(self, path: Path) -> set[Path]:
        """The editor closed the file: go back to the disk copy, or drop a file the workspace
        would not have found on its own."""
        key = normalize(path)
        with self._lock:
            current = self._files.get(key)
            if current is not None and current.text is not None:
                current.text = None  # no longer authoritative; `refresh` may now replace it
        return self.refresh(key)

    def remove(self, path: Path) -> set[Path]:
        """Forget the file (deleted, or no longer part of the workspace)."""
        key = normalize(path)
        with self._lock:
            if key not in self._files:
                return set()
            return self._replace(key, None)

    def _wanted(self, key: Path) -> bool:
        return key in self._adopted or self._discoverable(key)

    def _discoverable(self, key: Path) -> bool:
        if key in self._explicit or key in self._forced:
            return True
        for start in [*self._include, *(r.path for r in self._roots)]:
            if in_scope(key, start, self.root_for(start).config):
                return True
        return False

    def _replace(self, key: Path, entry: _Entry | None) -> set[Path]:
        """Swap one file's entry and work out whose findings that may change (see module)."""
        old = self._files.get(key)
        old_analysis = old.analysis if old else None
        new_analysis = entry.analysis if entry else None
        old_ids, new_ids = _identities(old_analysis), _identities(new_analysis)
        changed = {k for k in old_ids.keys() | new_ids.keys() if old_ids.get(k) != new_ids.get(k)}
        refs_changed = _references(old_analysis) != _references(new_analysis)
        known_before = {k: k in self._definers for k in changed}

        if old is not None:
            self._unindex(key, old)
            del self._files[key]
        if entry is not None:
            self._files[key] = entry
            self._index(key, entry)
        adoption_changed = self._adoption_changed(key, old_analysis, new_analysis)

        direct = {key}  # files whose own references may resolve differently now
        result = {key}
        for k in changed:
            direct |= self._referrers.get(k, set())
            versions = {i[2] for i in (*old_ids.get(k, ()), *new_ids.get(k, ()))} - {None}
            for other, defs in self._definers.get(k, {}).items():  # EY305 on the other copies
                if any(d.version in versions for d in defs):
                    result.add(other)
        result |= direct
        result |= self._readers.get(key, set())
        for k in changed:
            if known_before[k] != (k in self._definers):
                result |= self._suggestion_neighbours(k)
        if changed:
            for path in direct:
                result |= self._observers.get(path, set())
        elif refs_changed:
            result |= self._observers.get(key, set())
        self._invalidate(result)
        if adoption_changed:
            result |= self._settle(self._release(key) | self._adopt(key, new_analysis))
        return result

    # ----------------------------------------------------------------- adopted files
    # A file another file names as a kind of its format (a `FileRef` with a kind: a grader
    # prompt, an external cases file) is analysed as that kind, whatever its suffix or shape,
    # for as long as some indexed file names it; then it goes back to what discovery makes of it.
    @staticmethod
    def _adoption_changed(key: Path, old: FileAnalysis | None, new: FileAnalysis | None) -> bool:
        return _adoptions(old) != _adoptions(new)

    def _adopt_all(self) -> None:
        """After a cold index: every file's adoptions afresh."""
        self._adopted.clear()
        self._adoptions.clear()
        self._candidates.clear()
        pending: set[Path] = set()
        for key, entry in list(self._files.items()):
            if entry.analysis is not None and entry.analysis.file_refs:
                pending |= self._adopt(key, entry.analysis)
        self._settle(pending)

    def _adopt(self, adopter: Path, analysis: FileAnalysis | None) -> set[Path]:
        """Record what `adopter` names: of each search path, the first candidate inside the
        roots that exists (an open buffer or a file). Returns the adopted paths to (re)load."""
        chosen: set[Path] = set()
        for candidates, kind in _adoptions(analysis):
            for raw in candidates:
                self._candidates.setdefault(normalize(raw), set()).add(adopter)
            found = self._first_existing(candidates, adopter)
            if found is not None and found != adopter and found not in chosen:
                chosen.add(found)
                known = self._adopted.get(found)
                if known is None:
                    self._adopted[found] = (kind, {adopter})
                else:
                    known[1].add(adopter)
        self._adoptions[adopter] = chosen
        return {path for path in chosen if self._needs_load(path)}

    def _first_existing(self, candidates: Iterable[str], near: Path) -> Path | None:
        """The first candidate inside the workspace roots that is an open buffer or a file."""
        roots = [os.path.realpath(r.path) for r in self._roots] or \
            [os.path.realpath(self.root_for(near).path)]
        for raw in candidates:
            candidate = normalize(raw)
            real = os.path.realpath(candidate)
            if not any(real == r or real.startswith(r.rstrip(os.sep) + os.sep) for r in roots):
                continue
            current = self._files.get(candidate)
            if (current is not None and current.text is not None) or candidate.is_file():
                return candidate
        return None

    def named_file(self, candidates: Iterable[str], near: Path) -> Path | None:
        """Where a `FileRef` leads (for links and go-to-definition), or None."""
        with self._lock:
            return self._first_existing(candidates, normalize(near))

    def _needs_load(self, path: Path) -> bool:
        entry = self._files.get(path)
        adopted = self._adopted.get(path)
        return adopted is not None and (entry is None or entry.analysis is None
                                        or entry.analysis.kind is not adopted[0])

    def _release(self, adopter: Path) -> set[Path]:
        """Forget what `adopter` adopted; returns the files nobody adopts any more."""
        orphans: set[Path] = set()
        for path in self._adoptions.pop(adopter, set()):
            known = self._adopted.get(path)
            if known is None:
                continue
            known[1].discard(adopter)
            if not known[1]:
                del self._adopted[path]
                orphans.add(path)
        for watchers in self._candidates.values():
            watchers.discard(adopter)
        return orphans

    def _readopt(self, adopters: Iterable[Path]) -> set[Path]:
        """A candidate appeared or vanished: the adopters that watch it choose again."""
        touched: set[Path] = set()
        for adopter in list(adopters):
            entry = self._files.get(adopter)
            analysis = entry.analysis if entry else None
            touched |= self._settle(self._release(adopter) | self._adopt(adopter, analysis))
        return touched

    def _settle(self, paths: Iterable[Path]) -> set[Path]:
        """Load each adopted path as its kind; give orphans back to discovery (or drop them)."""
        touched: set[Path] = set()
        for path in sorted(paths):
            current = self._files.get(path)
            if path in self._adopted:
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

    def _suggestion_neighbours(self, appeared: Key) -> set[Path]:
        """Files with an unresolved reference whose did-you-mean may involve `appeared`."""
        kind, name = appeared
        out: set[Path] = set()
        for (ref_kind, ref_id), files in self._referrers.items():
            if ref_kind is kind and (ref_kind, ref_id) not in self._definers and \
                    rank(ref_id, [name]):
                out |= files
        return out

    def _index(self, key: Path, entry: _Entry) -> None:
        analysis = entry.analysis
        if analysis is None:
            return
        named = {d.kind for d in analysis.definitions if not d.alias}
        for definition in analysis.definitions:
            ident = (definition.kind, definition.id)
            files = self._definers.setdefault(ident, {})
            if not definition.alias or definition.kind not in named:
                # A file name beside the file's own id is not offered (completion, did-you-mean)
                self._ids.setdefault(definition.kind, set()).add(definition.id)
            files.setdefault(key, []).append(definition)
        for ident in _reference_keys(analysis):
            self._referrers.setdefault(ident, set()).add(key)

    def _unindex(self, key: Path, entry: _Entry) -> None:
        analysis = entry.analysis
        if analysis is None:
            return
        for definition in analysis.definitions:
            ident = (definition.kind, definition.id)
            files = self._definers.get(ident)
            if files is None:
                continue
            files.pop(key, None)
            if not files:
                del self._definers[ident]
                self._ids.get(definition.kind, set()).discard(definition.id)
        for ident in _reference_keys(analysis):
            holders = self._referrers.get(ident)
            if holders is not None:
                holders.discard(key)
                if not holders:
                    del self._referrers[ident]

    def _invalidate(self, paths: Iterable[Path]) -> None:
        for path in paths:
            self._cross.pop(path, None)
            self._edges.pop(path, None)
            for seen in self._observed.pop(path, set()):
                watchers = self._observers.get(seen)
                if watchers is not None:
                    watchers.discard(path)
                    if not watchers:
                        del self._observers[seen]
            for read in self._read.pop(path, set()):
                readers = self._readers.get(read)
                if readers is not None:
                    readers.discard(path)
                    if not readers:
                        del self._readers[read]

    def _clear_caches(self) -> None:
        self._cross.clear()
        self._edges.clear()
        self._observers.clear()
        self._observed.clear()
        self._readers.clear()
        self._read.clear()

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

    def included_files(self) -> list[Path]:
        """The files found through `include_paths` (what the user asked to check), sorted."""
        with self._lock:
            asked = {p for p in self._files if p in self._forced or p in self._explicit}
            # A file adopted by one the user asked for is checked with it (a grader prompt).
            asked |= {p for p, (_, adopters) in self._adopted.items()
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
            entry = self._files.get(normalize(path))
            return entry.analysis if entry else None

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
        return sort_unique(found)

    def cross_file_findings(self, path: Path) -> list[Finding]:
        """Only the findings that need other files (cached until an update invalidates them)."""
        key = normalize(path)
        with self._lock:
            entry = self._files.get(key)
            if entry is None or entry.analysis is None or entry.analysis.kind is None:
                return []
            return list(self._cross_for(key, entry.analysis))

    def _cross_for(self, key: Path, analysis: FileAnalysis) -> list[Finding]:
        cached = self._cross.get(key)
        if cached is not None:
            return cached
        roots = [r.path for r in self._roots] or [self.root_for(key).path]
        if not any(r == key or r in key.parents for r in roots):
            roots.append(self.root_for(key).path)  # a file the editor opened outside them
        result = cross_findings(self, key, analysis, self.options(key), roots)
        self.stats_cross_computed += 1
        self._cross[key] = result.findings
        self._observed[key] = result.observed
        for seen in result.observed:
            self._observers.setdefault(seen, set()).add(key)
        self._read[key] = result.read
        for read in result.read:
            self._readers.setdefault(read, set()).add(key)
        return result.findings

    def buffer_text(self, path: Path) -> str | None:
        """The editor's text of an open file; None when it is not open."""
        with self._lock:
            entry = self._files.get(normalize(path))
            return entry.text if entry is not None else None

    def resolve(self, ref: Reference) -> Resolution:
        """What `ref` points at: the definition and its file, or why it points nowhere."""
        with self._lock:
            if ref.id is None:
                return resolve_among(ref, [])
            files = self._definers.get((ref.target, ref.id), {})
            return resolve_among(ref, [(p, d) for p, defs in files.items() for d in defs])

    def composite_edges(self, path: Path) -> list[Resolution]:
        """The resolved composite references of one rubric file (cached)."""
        key = normalize(path)
        with self._lock:
            cached = self._edges.get(key)
            if cached is not None:
                return cached
            entry = self._files.get(key)
            refs = entry.analysis.references if entry and entry.analysis else []
            edges = [res for r in refs if r.origin == "composite" and r.id is not None
                     if (res := self.resolve(r)).ok]
            self._edges[key] = edges
            return edges

    def known_ids(self, kind: Kind) -> list[str]:
        with self._lock:
            return sorted(self._ids.get(kind, set()))

    def definitions(self) -> Iterable[tuple[Path, Definition]]:
        with self._lock:
            return [(p, d) for files in self._definers.values()
                    for p, defs in files.items() for d in defs]

    def definitions_of(self, kind: Kind, id: str) -> list[tuple[Path, Definition]]:
        """Every definition of one id, newest version first (duplicates included)."""
        with self._lock:
            files = self._definers.get((kind, id), {})
            return sort_newest_first([(p, d) for p, defs in files.items() for d in defs])

    def references_to(self, path: Path, definition: Definition) -> list[tuple[Path, Reference]]:
        """Every reference, in open and closed files, that resolves to `definition`'s id and
        version (a duplicate definition's references count for both copies)."""
        del path  # identity is id@version, not the file (DESIGN §3)
        out: list[tuple[Path, Reference]] = []
        with self._lock:
            for holder in sorted(self._referrers.get((definition.kind, definition.id), set())):
                analysis = self._files[holder].analysis
                for ref in analysis.references if analysis else ():
                    if ref.target is not definition.kind or ref.id != definition.id:
                        continue
                    resolution = self.resolve(ref)
                    if resolution.definition is not None and \
                            resolution.definition.version == definition.version:
                        out.append((holder, ref))
        return out

    def referrers(self, kind: Kind, id: str) -> set[Path]:
        """Files holding any reference to the id, resolved or not."""
        with self._lock:
            return set(self._referrers.get((kind, id), set()))

    def dependents(self, path: Path) -> set[Path]:
        """Files whose findings depend on this file's content, besides the file itself."""
        key = normalize(path)
        out: set[Path] = set()
        with self._lock:
            entry = self._files.get(key)
            for definition in entry.analysis.definitions if entry and entry.analysis else ():
                ident = (definition.kind, definition.id)
                out |= self._referrers.get(ident, set())
                out |= set(self._definers.get(ident, {}))
            out |= self._observers.get(key, set())
            out |= self._readers.get(key, set())
        out.discard(key)
        return out

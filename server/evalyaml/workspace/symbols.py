"""The index's symbol tables and the rule that decides which files' findings an update may change.

Four maps are built from the files' analyses:

- definers: `(kind, id)` -> the files defining that id, with their definitions;
- referrers: `(kind, id)` -> the files holding a reference to that id;
- observers: file -> the files whose composite-cycle search walked through it;
- readers: file -> the files whose format cross check read it (`Format.cross_check`), whether
  it existed then or not, indexed or not: a samples file, a grader prompt.

Cross-file findings (EY301-EY305, EY310 and the formats' own) are computed per file on demand
and cached here.
`swap` replaces one file's analysis and returns exactly the files whose findings may have
changed: the file itself, the referrers and definers of every id whose definition changed, the
observers of every file whose composite edges may have moved, files with an unresolved reference
whose did-you-mean may now name (or no longer name) an id that appeared or vanished, and the
readers of the file, whatever changed in it. Only those lose their cache, so an edit to one
rubric costs in proportion to its users, not to the workspace.

Resolving a reference is memoised per (kind, id, pin) until a definition of that id changes, so
re-checking 10,000 references that all say `rubric/factuality@1.2` resolves it once. The memo is
bounded: ids that no file names any more are forgotten when it outgrows the index.

Nothing here locks: the `Workspace` calls every method under its own lock.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from evalyaml.core.findings import Finding
from evalyaml.core.kinds import Kind
from evalyaml.core.model import Definition, FileAnalysis, Reference
from evalyaml.core.suggest import rank
from evalyaml.workspace.resolve import Resolution, resolve_among, sort_newest_first

Key = tuple[Kind, str]
ResolutionKey = tuple[Kind, str, str | None]

RESOLVED_SLACK = 1024  # memoised resolutions beyond twice the distinct references named


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


class Symbols:
    """Definitions, references and the cross-file caches that depend on them."""

    def __init__(self) -> None:
        self.definers: dict[Key, dict[Path, list[Definition]]] = {}
        self.referrers: dict[Key, set[Path]] = {}
        self.ids: dict[Kind, set[str]] = {}
        self.cross: dict[Path, list[Finding]] = {}
        self.edges_of: dict[Path, dict[str, list[Resolution]]] = {}
        self.observers: dict[Path, set[Path]] = {}
        self.observed: dict[Path, set[Path]] = {}
        self.readers: dict[Path, set[Path]] = {}
        self.read: dict[Path, set[Path]] = {}
        self.generations: dict[Key, int] = {}
        self.resolved: dict[ResolutionKey, tuple[int, Resolution]] = {}

    # ----------------------------------------------------------------- the maps
    def index(self, key: Path, analysis: FileAnalysis | None) -> None:
        if analysis is None:
            return
        named = {d.kind for d in analysis.definitions if not d.alias}
        for definition in analysis.definitions:
            ident = (definition.kind, definition.id)
            files = self.definers.setdefault(ident, {})
            if not definition.alias or definition.kind not in named:
                # A file name beside the file's own id is not offered (completion, did-you-mean)
                self.ids.setdefault(definition.kind, set()).add(definition.id)
            files.setdefault(key, []).append(definition)
        for ident in _reference_keys(analysis):
            self.referrers.setdefault(ident, set()).add(key)
        self._bump(analysis)

    def unindex(self, key: Path, analysis: FileAnalysis | None) -> None:
        if analysis is None:
            return
        for definition in analysis.definitions:
            ident = (definition.kind, definition.id)
            files = self.definers.get(ident)
            if files is None:
                continue
            files.pop(key, None)
            if not files:
                del self.definers[ident]
                self.ids.get(definition.kind, set()).discard(definition.id)
        for ident in _reference_keys(analysis):
            holders = self.referrers.get(ident)
            if holders is not None:
                holders.discard(key)
                if not holders:
                    del self.referrers[ident]
        self._bump(analysis)

    def _bump(self, analysis: FileAnalysis) -> None:
        """A definition of these ids appeared or vanished: their memoised resolutions are stale."""
        for definition in analysis.definitions:
            ident = (definition.kind, definition.id)
            self.generations[ident] = self.generations.get(ident, 0) + 1

    # ----------------------------------------------------------------- the affected set
    def swap(self, key: Path, old: FileAnalysis | None, new: FileAnalysis | None) -> set[Path]:
        """Replace one file's analysis in the maps; returns the files whose findings may change
        (see the module docstring), their caches already dropped."""
        old_ids, new_ids = _identities(old), _identities(new)
        changed = {k for k in old_ids.keys() | new_ids.keys() if old_ids.get(k) != new_ids.get(k)}
        refs_changed = _references(old) != _references(new)
        known_before = {k: k in self.definers for k in changed}
        self.unindex(key, old)
        self.index(key, new)

        direct = {key}  # files whose own references may resolve differently now
        result = {key}
        for k in changed:
            direct |= self.referrers.get(k, set())
            versions = {i[2] for i in (*old_ids.get(k, ()), *new_ids.get(k, ()))} - {None}
            for other, defs in self.definers.get(k, {}).items():  # EY305 on the other copies
                if any(d.version in versions for d in defs):
                    result.add(other)
        result |= direct
        result |= self.readers.get(key, set())
        for k in changed:
            if known_before[k] != (k in self.definers):
                result |= self._suggestion_neighbours(k)
        if changed:
            for path in direct:
                result |= self.observers.get(path, set())
        elif refs_changed:
            result |= self.observers.get(key, set())
        self.invalidate(result)
        return result

    def _suggestion_neighbours(self, appeared: Key) -> set[Path]:
        """Files with an unresolved reference whose did-you-mean may involve `appeared`."""
        kind, name = appeared
        out: set[Path] = set()
        for (ref_kind, ref_id), files in self.referrers.items():
            if ref_kind is kind and (ref_kind, ref_id) not in self.definers and \
                    rank(ref_id, [name]):
                out |= files
        return out

    def reread(self, key: Path) -> set[Path]:
        """A file the index does not hold changed on disk: only its readers may care."""
        readers = set(self.readers.get(key, ()))
        self.invalidate(readers)
        return readers

    # ----------------------------------------------------------------- caches
    def record(self, key: Path, findings: list[Finding], observed: set[Path],
               read: set[Path]) -> None:
        """One file's cross-file findings, and the files computing them walked or read."""
        self.cross[key] = findings
        self.observed[key] = observed
        for seen in observed:
            self.observers.setdefault(seen, set()).add(key)
        self.read[key] = read
        for path in read:
            self.readers.setdefault(path, set()).add(key)

    def invalidate(self, paths: Iterable[Path]) -> None:
        for path in paths:
            self.cross.pop(path, None)
            self.edges_of.pop(path, None)
            for seen in self.observed.pop(path, set()):
                watchers = self.observers.get(seen)
                if watchers is not None:
                    watchers.discard(path)
                    if not watchers:
                        del self.observers[seen]
            for read in self.read.pop(path, set()):
                readers = self.readers.get(read)
                if readers is not None:
                    readers.discard(path)
                    if not readers:
                        del self.readers[read]

    def clear_caches(self) -> None:
        self.cross.clear()
        self.edges_of.clear()
        self.observers.clear()
        self.observed.clear()
        self.readers.clear()
        self.read.clear()
        self.resolved.clear()

    # ----------------------------------------------------------------- resolution
    def resolve(self, ref: Reference) -> Resolution:
        """What `ref` points at (memoised; see the module docstring)."""
        if ref.id is None:
            return resolve_among(ref, [])
        generation = self.generations.get((ref.target, ref.id), 0)
        key = (ref.target, ref.id, ref.pin.text if ref.pin else None)
        hit = self.resolved.get(key)
        if hit is not None and hit[0] == generation:
            found = hit[1]
            if found.reference is ref:
                return found
            return Resolution(ref, found.status, found.path, found.definition,
                              found.candidates, found.newer)
        files = self.definers.get((ref.target, ref.id), {})
        found = resolve_among(ref, [(p, d) for p, defs in files.items() for d in defs])
        if len(self.resolved) >= RESOLVED_SLACK + 2 * len(self.referrers):
            self._forget_unreferenced()
        self.resolved[key] = (generation, found)
        return found

    def _forget_unreferenced(self) -> None:
        """Typing a reference resolves every prefix of it on the way (`rubric/f`, `rubric/fa`,
        ...); a session's memo would keep them all. Keep what some file still names, and start
        over if even that is too much (many pins of one id)."""
        referenced = self.referrers
        kept = {key: hit for key, hit in self.resolved.items() if key[:2] in referenced}
        if len(kept) >= RESOLVED_SLACK // 2 + 2 * len(referenced):
            kept.clear()
        self.resolved = kept

    # ----------------------------------------------------------------- queries
    def known_ids(self, kind: Kind) -> list[str]:
        return sorted(self.ids.get(kind, set()))

    def definitions(self) -> list[tuple[Path, Definition]]:
        return [(p, d) for files in self.definers.values()
                for p, defs in files.items() for d in defs]

    def definitions_of(self, kind: Kind, id: str) -> list[tuple[Path, Definition]]:
        files = self.definers.get((kind, id), {})
        return sort_newest_first([(p, d) for p, defs in files.items() for d in defs])

    def edges(self, key: Path, analysis: FileAnalysis | None, origin: str) -> list[Resolution]:
        """The resolved references of one origin in one file (cached until it changes)."""
        by_origin = self.edges_of.setdefault(key, {})
        cached = by_origin.get(origin)
        if cached is not None:
            return cached
        refs = analysis.references if analysis else []
        found = [res for r in refs if r.origin == origin and r.id is not None
                 if (res := self.resolve(r)).ok]
        by_origin[origin] = found
        return found

    def references_to(self, definition: Definition,
                      analysis_of: Callable[[Path], FileAnalysis | None],
                      ) -> list[tuple[Path, Reference]]:
        """Every reference that resolves to `definition`'s id and version."""
        out: list[tuple[Path, Reference]] = []
        for holder in sorted(self.referrers.get((definition.kind, definition.id), set())):
            analysis = analysis_of(holder)
            for ref in analysis.references if analysis else ():
                if ref.target is not definition.kind or ref.id != definition.id:
                    continue
                resolution = self.resolve(ref)
                if resolution.definition is not None and \
                        resolution.definition.version == definition.version:
                    out.append((holder, ref))
        return out

    def dependents(self, key: Path, analysis: FileAnalysis | None) -> set[Path]:
        out: set[Path] = set()
        for definition in analysis.definitions if analysis else ():
            ident = (definition.kind, definition.id)
            out |= self.referrers.get(ident, set())
            out |= set(self.definers.get(ident, {}))
        out |= self.observers.get(key, set())
        out |= self.readers.get(key, set())
        out.discard(key)
        return out

"""Adopted files: a file another file names as a kind of its format.

A `FileRef` with a kind (a grader prompt, an external cases file) makes the file it leads to be
analysed as that kind, whatever its suffix or shape, for as long as some indexed file names it;
then it goes back to what discovery makes of it. Of each search path the first candidate inside
the roots that exists (an open buffer or a file) is adopted; every candidate is watched, so a
candidate that appears or vanishes makes its adopters choose again.

This module keeps the bookkeeping; the `Workspace` loads what it says (`Workspace._settle`).
"""

from __future__ import annotations

import glob
import itertools
import os
from collections.abc import Callable, Iterable
from pathlib import Path

from evalyaml.core.kinds import Kind
from evalyaml.core.model import FileAnalysis
from evalyaml.workspace.roots import normalize

FirstExisting = Callable[[Iterable[str], Path], "Path | None"]


MAX_GLOB_MATCHES = 1000  # a pattern matching more adopts the first ones (sorted)


def adoptions(analysis: FileAnalysis | None) -> list[tuple[tuple[str, ...], Kind, bool]]:
    """What a file adopts: its file references that name a kind, and whether they are glob
    patterns (their spans left out, so an edit that moves them adopts nothing anew)."""
    if analysis is None:
        return []
    return [(ref.candidates, ref.kind, ref.glob) for ref in analysis.file_refs
            if ref.kind is not None]


def same_adoptions(old: FileAnalysis | None, new: FileAnalysis | None) -> bool:
    """Whether the two analyses adopt the same files. Equal file references (compared by
    identity first: a suite's unchanged tests keep their placed references after a one-test
    edit) adopt the same; only when they differ, their spans perhaps, are the adoptions built
    and compared (10,000 tuples twice, on every keystroke in a 10,000-test suite, before).
    After a line added, the references below it are equal but for their spans: compared pair
    by pair without them, the unmoved ones by identity, before building anything."""
    if old is not None and new is not None:
        before, after = old.file_refs, new.file_refs
        if before == after:
            return True
        if len(before) == len(after) and all(
                a is b or (a.candidates == b.candidates and a.kind == b.kind and
                           a.glob == b.glob) for a, b in zip(before, after, strict=True)):
            return True
    return adoptions(old) == adoptions(new)


def glob_matches(patterns: Iterable[str]) -> list[str]:
    """The files the patterns match (`**` across folders), sorted, at most MAX_GLOB_MATCHES."""
    out: list[str] = []
    for pattern in patterns:
        found = itertools.islice(glob.iglob(pattern, recursive=True), MAX_GLOB_MATCHES)
        out.extend(sorted(found))
    return out[:MAX_GLOB_MATCHES]


def first_existing(candidates: Iterable[str], roots: list[Path],
                   is_open: Callable[[Path], bool]) -> Path | None:
    """The first candidate inside `roots` that is an open buffer or a file."""
    real_roots = [os.path.realpath(r) for r in roots]
    for raw in candidates:
        candidate = normalize(raw)
        real = os.path.realpath(candidate)
        if not any(real == r or real.startswith(r.rstrip(os.sep) + os.sep) for r in real_roots):
            continue
        if is_open(candidate) or candidate.is_file():
            return candidate
    return None


class Adoption:
    """path -> (the kind its adopters name, the adopters); adopter -> what it adopted;
    candidate path -> adopters whose choice it may change."""

    def __init__(self) -> None:
        self.adopted: dict[Path, tuple[Kind, set[Path]]] = {}
        self.adoptions: dict[Path, set[Path]] = {}
        self.candidates: dict[Path, set[Path]] = {}

    def clear(self) -> None:
        self.adopted.clear()
        self.adoptions.clear()
        self.candidates.clear()

    def kind_of(self, path: Path) -> Kind | None:
        """The kind `path`'s adopters name, if some file adopts it."""
        adopted = self.adopted.get(path)
        return adopted[0] if adopted is not None else None

    def watchers(self, candidate: Path) -> set[Path]:
        """The adopters whose choice `candidate` appearing or vanishing may change."""
        return self.candidates.get(candidate, set())

    def adopters_of(self, path: Path) -> set[Path]:
        adopted = self.adopted.get(path)
        return adopted[1] if adopted is not None else set()

    def adopt(self, adopter: Path, analysis: FileAnalysis | None,
              first_existing: FirstExisting) -> set[Path]:
        """Record what `adopter` names; returns the paths it adopted."""
        chosen: set[Path] = set()
        for candidates, kind, pattern in adoptions(analysis):
            if pattern:  # every match (inside the roots); their appearing is not watched
                matches = (first_existing((m,), adopter) for m in glob_matches(candidates))
                found_all = [m for m in matches if m is not None]
            else:
                for raw in candidates:
                    self.candidates.setdefault(normalize(raw), set()).add(adopter)
                one = first_existing(candidates, adopter)
                found_all = [one] if one is not None else []
            for found in found_all:
                if found == adopter or found in chosen:
                    continue
                chosen.add(found)
                known = self.adopted.get(found)
                if known is None:
                    self.adopted[found] = (kind, {adopter})
                else:
                    known[1].add(adopter)
        self.adoptions[adopter] = chosen
        return chosen

    def needs_load(self, path: Path, analysis: FileAnalysis | None) -> bool:
        """An adopted path the index does not hold (`analysis` None) as the kind its adopters
        name."""
        adopted = self.adopted.get(path)
        return adopted is not None and (analysis is None or analysis.kind is not adopted[0])

    def release(self, adopter: Path) -> set[Path]:
        """Forget what `adopter` adopted; returns the files nobody adopts any more."""
        orphans: set[Path] = set()
        for path in self.adoptions.pop(adopter, set()):
            known = self.adopted.get(path)
            if known is None:
                continue
            known[1].discard(adopter)
            if not known[1]:
                del self.adopted[path]
                orphans.add(path)
        for watchers in self.candidates.values():
            watchers.discard(adopter)
        return orphans

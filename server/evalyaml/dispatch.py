"""The one entry point every front end calls: text (or bytes) in, a `FileAnalysis` out.

The CLI, the workspace index and the language server all go through `analyze_text` or
`analyze_bytes`, so a file gets the same findings wherever it is checked. This module owns what
is the same for every format: the size limit, undecodable bytes, choosing between the formats'
claims (`evalyaml.formats.claim`), the fallback to the contract's shapes, and the near-miss
finding for a file nobody claimed. Everything else is the claiming format's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from evalyaml.core.findings import FindingSink
from evalyaml.core.kinds import Kind
from evalyaml.core.model import FileAnalysis
from evalyaml.core.options import Options
from evalyaml.formats import FALLBACK, candidates, claim, format_of, near_miss
from evalyaml.formats.base import HEAD_BYTES, Refusal
from evalyaml.syntax.decode import decode
from evalyaml.syntax.suppress import SUPPRESSIONS, scan
from evalyaml.syntax.text import Span

if TYPE_CHECKING:
    from evalyaml.core.incremental import CaseCache, CaseMapper


def analyze_bytes(data: bytes, path: str | None, options: Options, *, explicit: bool = False,
                  forced_kind: Kind | None = None, mapper: CaseMapper | None = None,
                  size: int | None = None) -> FileAnalysis:
    """`explicit`: the user named this file, so report it even when we cannot tell its kind.
    `forced_kind`: analyse as this kind whatever the file looks like (validate-rubric etc.).
    `size`: the file's size when `data` is only its beginning (a file over the size limit)."""
    total = size if size is not None else len(data)
    if total > options.max_file_bytes:
        kind = forced_kind or _kind_of_head(data, path, options)
        if kind is None and not explicit:
            return FileAnalysis(path, None)
        sink = FindingSink(strict=options.strict)
        size_mb, limit_mb = total / (1024 * 1024), options.max_file_bytes / (1024 * 1024)
        sink.add("EY107", f"the file is {size_mb:.1f} MB, over the {limit_mb:g} MB limit; it is "
                 "not checked (raise max_file_mb in evalyaml.toml to check it)", Span.point(0, 0))
        return FileAnalysis(path, kind, sink.findings)
    text, problem = decode(data)
    if problem is not None:
        kind = forced_kind or _kind_of_head(data, path, options)
        if kind is None and not explicit:
            return FileAnalysis(path, None)
        sink = FindingSink(strict=options.strict)
        sink.add("EY100", problem, Span.point(0, 0))
        return FileAnalysis(path, kind, sink.findings)
    return analyze_text(text, path, options, forced_kind=forced_kind, mapper=mapper)


def _kind_of_head(data: bytes, path: str | None, options: Options) -> Kind | None:
    """Whose file it is, from its path and the beginning of its text (read through bad bytes)."""
    verdict = claim(data[:HEAD_BYTES].decode("utf-8", errors="replace"), path, options.root)
    return verdict.kind if verdict is not None and not isinstance(verdict, Refusal) else None


def analyze_text(text: str, path: str | None, options: Options,
                 cache: CaseCache | None = None, *,
                 forced_kind: Kind | None = None,
                 mapper: CaseMapper | None = None) -> FileAnalysis:
    """`cache` reuses unchanged items of a large file across calls (the language server keeps
    one per open document); `mapper` spreads them over processes (the CLI). The file's
    suppression comments ride along in its facts (`syntax.suppress`)."""
    analysis = _analyze_text(text, path, options, cache, forced_kind=forced_kind, mapper=mapper)
    if analysis.kind is not None:
        directives = scan(text, path)
        if directives:
            analysis.facts[SUPPRESSIONS] = directives
    return analysis


def _analyze_text(text: str, path: str | None, options: Options,
                  cache: CaseCache | None = None, *,
                  forced_kind: Kind | None = None,
                  mapper: CaseMapper | None = None) -> FileAnalysis:
    if forced_kind is not None:
        return format_of(forced_kind).analyze(text, path, forced_kind, options, forced=True,
                                              cache=cache, mapper=mapper)
    verdict = claim(text, path, options.root)
    if isinstance(verdict, Refusal):
        return FileAnalysis(path, None)
    if verdict is not None:
        return format_of(verdict.kind).analyze(text, path, verdict.kind, options, cache=cache,
                                               mapper=mapper)
    if FALLBACK in candidates(path):
        result = FALLBACK.analyze(text, path, None, options, cache=cache, mapper=mapper)
        if result.kind is not None:
            return result
    missed = near_miss(text, path, options.root)
    if missed is None:
        return FileAnalysis(path, None)
    sink = FindingSink(strict=options.strict)
    sink.add("EY312", missed.message, missed.span)
    return FileAnalysis(path, missed.kind, sink.findings)

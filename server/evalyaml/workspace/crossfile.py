"""Findings that need more than one file (EY301-EY305, EY310, and each format's own), for one
file at a time.

Everything here reads the index through `IndexView` and returns, besides the findings, the set
of files a format's reference rules walked (`observed`, through `ReferenceGraph`) and the files
its cross check read (`read`). The index keeps both so that an edit to any of them re-checks
exactly the files whose findings went through it; dependencies through ids (resolution, newer
versions) are tracked by the index itself.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from evalyaml.core.findings import Finding, FindingSink, Fix, Related, TextEdit
from evalyaml.core.kinds import Kind, is_plain_name
from evalyaml.core.model import Definition, FileAnalysis, Reference
from evalyaml.core.options import Options
from evalyaml.core.suggest import best
from evalyaml.formats import format_of
from evalyaml.formats.base import Resolved
from evalyaml.syntax.lazyre import lazy_re
from evalyaml.syntax.record import field, mutable_record
from evalyaml.syntax.text import Position, Span
from evalyaml.workspace.named import RecordingFiles
from evalyaml.workspace.resolve import Resolution, Status, newest_first

if TYPE_CHECKING:
    import logging


class IndexView(Protocol):
    def resolve(self, ref: Reference) -> Resolution: ...

    def definitions_of(self, kind: Kind, id: str) -> list[tuple[Path, Definition]]: ...

    def known_ids(self, kind: Kind) -> Iterable[str]: ...

    def edges(self, path: Path, origin: str) -> list[Resolution]: ...

    def analysis(self, path: Path) -> FileAnalysis | None: ...

    def buffer_text(self, path: Path) -> str | None: ...


@mutable_record
class CrossResult:
    findings: list[Finding]
    observed: set[Path] = field(default_factory=set)
    read: set[Path] = field(default_factory=set)  # files the format's cross check read


@mutable_record
class _Here:
    """The file being checked and what its checks share."""

    view: IndexView
    path: Path
    analysis: FileAnalysis
    options: Options
    sink: FindingSink
    observed: set[Path]
    # did-you-mean per unknown (kind, id): 7,000 cases naming a renamed rubric rank once
    suggestions: dict[tuple[Kind, str], str | None] = field(default_factory=dict)
    resolved: list[Resolved] = field(default_factory=list)  # for the format's reference rules


def cross_findings(view: IndexView, path: Path, analysis: FileAnalysis,
                   options: Options, roots: Sequence[Path] = ()) -> CrossResult:
    """`roots` confine what the format's own cross check may read (`RecordingFiles`)."""
    here = _Here(view, path, analysis, options, FindingSink(strict=options.strict), set())
    # A dataset of 10,000 cases names a handful of targets: resolve each once. (The shared
    # resolution's `reference` is the first of them; `_reference_findings` reads `ref`.)
    resolved: dict[tuple[Kind, str, str | None], Resolution] = {}
    for ref in analysis.references:
        if ref.id is None:
            continue  # malformed: EY300 comes from the core
        pin = ref.pin
        key = (ref.target, ref.id, pin.text if pin is not None else None)
        known = resolved.get(key)
        if known is None:
            known = resolved[key] = view.resolve(ref)
        if pin is not None and known.status is Status.RESOLVED and known.newer is None and \
                ref.origin == "case":
            continue  # a case pinned to the newest: the common case, and nothing to say
        _reference_findings(here, ref, known)
    for definition in analysis.definitions:
        _duplicate_definition(view, path, definition, here.sink)
        if definition.kind.id_in_file_name:
            _file_name_hint(path, definition, here.sink)
    _format_reference_findings(here)
    read = _format_cross_check(here, roots)
    return CrossResult(here.sink.findings, here.observed, read)


class _Graph:
    """`ReferenceGraph` over the index: each file walked is observed."""

    def __init__(self, view: IndexView, observed: set[Path]) -> None:
        self.view = view
        self.observed = observed

    def edges(self, path: Path, origin: str) -> list[Resolved]:
        self.observed.add(path)
        return [Resolved(path, r.reference, r.path, r.definition)
                for r in self.view.edges(path, origin)
                if r.path is not None and r.definition is not None]

    def analysis(self, path: Path) -> FileAnalysis | None:
        self.observed.add(path)
        return self.view.analysis(path)


def _format_reference_findings(here: _Here) -> None:
    """The format's rules about what its resolved references reach; a bug in them costs
    those findings, logged."""
    kind = here.analysis.kind
    if kind is None or not here.resolved:
        return
    graph = _Graph(here.view, here.observed)
    try:
        here.sink.findings.extend(format_of(kind).reference_findings(
            here.path, here.analysis, here.resolved, graph, here.options))
    except Exception:
        _logger().exception("the %s format's reference rules failed on %s", kind.format, here.path)


def _format_cross_check(here: _Here, roots: Sequence[Path]) -> set[Path]:
    """The format's own rules over other files' content; what it read is returned so that a
    change to any of those files re-runs them. A bug in a format costs its cross findings,
    logged, never the file's other findings or the server."""
    kind = here.analysis.kind
    if kind is None:
        return set()
    files = RecordingFiles(here.view, roots)
    try:
        here.sink.findings.extend(format_of(kind).cross_check(here.path, here.analysis, files,
                                                              here.options))
    except Exception:
        _logger().exception("the %s format's cross check failed on %s", kind.format, here.path)
    return files.read


def _reference_findings(here: _Here, ref: Reference, resolution: Resolution) -> None:
    view, sink = here.view, here.sink
    kind = ref.target.value
    if resolution.status is Status.UNKNOWN_ID:
        assert ref.id is not None
        if ref.target.named_by_path:
            return  # the format's cross check reads the file system and says it (EY720)
        asked = (ref.target, ref.id)
        if asked in here.suggestions:
            suggestion = here.suggestions[asked]
        else:
            suggestion = here.suggestions[asked] = best(ref.id, view.known_ids(ref.target))
        hint = f"; did you mean '{suggestion}'?" if suggestion else ""
        fixes: tuple[Fix, ...] = ()
        if suggestion:
            edit = _id_edit(ref, suggestion)
            shown = f"{kind}/{suggestion}" if ref.target.qualified_refs else suggestion
            fixes = (Fix(f"Change to '{shown}'", (edit,), preferred=True),) if edit else ()
        sink.add("EY301", f"no {kind} with {ref.target.noun} '{ref.id}' in the workspace{hint}",
                 ref.span, fixes=fixes, data={"suggestion": suggestion} if suggestion else None)
        return
    if resolution.status is Status.NO_MATCH:
        versions = newest_first(d.version for _, d in resolution.candidates if d.version)
        available = ", ".join(dict.fromkeys(versions)) or "none with a valid version"
        wanted = f"no version of {kind}/{ref.id} matches @{ref.pin.text}" if ref.pin else \
            f"{kind}/{ref.id} has no released version for an unpinned reference to take"
        sink.add("EY302", f"{wanted}; available: {available}", ref.span,
                 data={"available": ",".join(versions)})
        return
    if not resolution.ok or resolution.definition is None or resolution.path is None:
        return
    target = resolution.definition
    here.resolved.append(Resolved(here.path, ref, resolution.path, target))
    if not ref.target.versioned:
        return  # nothing to pin; a name resolves or it does not
    if ref.pin is None:
        pin = _suggested_pin(target.version or "")
        edit = _pin_edit(ref, pin)
        sink.add("EY303", f"'{ref.raw}' has no version pin; it resolves to {target.version} "
                 f"today and will follow every new version; pin it, e.g. '{kind}/{ref.id}@{pin}'",
                 ref.span,
                 fixes=(Fix(f"Pin to @{pin}", (edit,), preferred=True),) if edit else (),
                 data={"resolved": target.version or "", "pin": pin})
    elif resolution.newer is not None:
        new_pin = _same_shape_pin(ref.pin.text, resolution.newer)
        edit = _pin_edit(ref, new_pin)
        sink.add("EY304", f"a newer version of {kind}/{ref.id} exists: {resolution.newer} "
                 f"('@{ref.pin.text}' resolves to {target.version})", ref.span,
                 fixes=(Fix(f"Update pin to @{new_pin}", (edit,)),) if edit else (),
                 data={"newer": resolution.newer})


def _duplicate_definition(view: IndexView, path: Path, definition: Definition,
                          sink: FindingSink) -> None:
    versioned = definition.kind.versioned
    if (versioned and definition.version is None) or definition.alias:
        return
    others = [(p, d) for p, d in view.definitions_of(definition.kind, definition.id)
              if d.version == definition.version and not d.alias
              and not (p == path and d == definition)]
    if not others:
        return
    where = ", ".join(sorted({_show(p, path) for p, _ in others}))
    remedy = "delete one copy or give one a new version" if versioned else \
        f"delete one copy or give one a new {definition.kind.noun}"
    sink.add("EY305", f"{definition.key} is also defined in {where}; references to it are "
             f"ambiguous: {remedy}", definition.id_span,
             related=tuple(Related(None if p == path else str(p), d.id_span,
                                   f"{definition.key} is also defined here")
                           for p, d in others))


_WORD = lazy_re(r"[a-z]+|[0-9]+")
_CAMEL = lazy_re(r"(?<=[a-z0-9])(?=[A-Z])")


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(_CAMEL.sub("_", text).lower()) if not w.isdigit()}


def name_mentions_id(stem: str, definition_id: str) -> bool:
    """Generous on purpose: a single shared word is enough (`factuality-1.1` mentions
    `factuality`, `EY208-numeric_version` mentions `numeric_version`)."""
    squashed_stem = re.sub(r"[^a-z0-9]", "", stem.lower())
    squashed_id = re.sub(r"[^a-z0-9]", "", definition_id.lower())
    if squashed_id and squashed_id in squashed_stem:
        return True
    return bool(_words(stem) & _words(definition_id))


def _file_name_hint(path: Path, definition: Definition, sink: FindingSink) -> None:
    stem = path.name.split(".", 1)[0]
    if name_mentions_id(stem, definition.id):
        return
    suffix = path.name[len(stem):]
    sink.add("EY310", f"the file name '{path.name}' does not mention the id "
             f"'{definition.id}' it defines; consider naming it '{definition.id}{suffix}'",
             definition.id_span, data={"suggested_name": f"{definition.id}{suffix}"})


def _show(other: Path, here: Path) -> str:
    try:
        return os.path.relpath(other, here.parent)
    except ValueError:
        return str(other)


def _suggested_pin(version: str) -> str:
    """MAJOR.MINOR of the resolved version: it still takes patch releases."""
    parts = version.split("-", 1)[0].split("+", 1)[0].split(".")
    return ".".join(parts[:2]) if len(parts) >= 2 and "-" not in version else version


def _same_shape_pin(old_pin: str, version: str) -> str:
    """A pin to `version` written as precisely as the old one."""
    depth = old_pin.split("-", 1)[0].count(".") + 1
    parts = version.split("-", 1)[0].split("+", 1)[0].split(".")
    return ".".join(parts[:depth]) if depth < 3 else version


def _raw_start(ref: Reference) -> Position | None:
    """Where the reference text starts inside its span, for a single-line scalar."""
    span = ref.span
    if span.start.line != span.end.line:
        return None
    width = span.end.character - span.start.character
    if width == len(ref.raw):
        return span.start
    if width == len(ref.raw) + 2:  # quoted
        return Position(span.start.line, span.start.character + 1)
    return None


def _pin_edit(ref: Reference, pin: str) -> TextEdit | None:
    start = _raw_start(ref)
    if start is None:
        return None
    at = ref.raw.find("@")
    if at < 0:
        end = Position(start.line, start.character + len(ref.raw))
        return TextEdit(Span(end, end), f"@{pin}")
    return TextEdit(Span(Position(start.line, start.character + at + 1),
                         Position(start.line, start.character + len(ref.raw))), pin)


def _id_edit(ref: Reference, new_id: str) -> TextEdit | None:
    start = _raw_start(ref)
    # The contract writes `kind/id@pin`; other formats' references are the name alone.
    slash = ref.raw.find("/") if ref.target.qualified_refs else -1
    if start is None or ref.id is None or (slash < 0 and ref.target.qualified_refs):
        return None
    if not ref.target.qualified_refs and not is_plain_name(new_id):
        return None  # it would need quoting or escaping where the reference is written
    begin = start.character + slash + 1
    return TextEdit(Span(Position(start.line, begin),
                         Position(start.line, begin + len(ref.id))), new_id)


def _logger() -> logging.Logger:
    """`logging` is imported when a format's rule fails, not with every `evalyaml check`."""
    import logging

    return logging.getLogger(__name__)

"""The contract's rules about what a resolved reference reaches (DESIGN §3): a composite rubric
includes plain rubrics only, one level deep, and never itself through others (EY306, EY307);
a judge that a rubric or a jury relies on says how well it agrees with people, and recently
(EY308). The engine resolves the references (`Format.reference_findings`); these rules walk
the composite graph through `ReferenceGraph`, which records each file walked so that an edit
anywhere on a cycle re-checks every member of it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from pathlib import Path

from evalyaml.core.findings import Finding, FindingSink, Related
from evalyaml.core.model import Definition, FileAnalysis, Reference
from evalyaml.core.options import Options
from evalyaml.formats.base import ReferenceGraph, Resolved

COMPOSITE = "composite"  # a composite rubric's `rubrics:` entry
JUDGES = ("llm_judge", "jury")  # a rubric check's or a jury's judge

# A cycle of composites longer than this is reported as a cycle all the same, but the search
# stops here so that a pathological workspace cannot make one file's check walk everything.
MAX_CYCLE_SEARCH = 10_000


def reference_findings(path: Path, analysis: FileAnalysis, resolved: list[Resolved],
                       graph: ReferenceGraph, options: Options) -> Iterable[Finding]:
    sink = FindingSink(strict=options.strict)
    for found in resolved:
        if found.reference.origin == COMPOSITE:
            _composite(path, analysis, found, graph, sink)
        elif found.reference.origin in JUDGES:
            _judge_validation(found.reference, found.definition, options, sink)
    return sink.findings


def _composite(path: Path, analysis: FileAnalysis, found: Resolved, graph: ReferenceGraph,
               sink: FindingSink) -> None:
    ref, target_path, target = found.reference, found.path, found.definition
    hops = _find_cycle(graph, target_path, path)
    if hops is not None:
        names = [_label(path, analysis), target.key]
        related: list[Related] = []
        for hop in hops:
            names.append(hop.definition.key)
            related.append(Related(
                None if hop.holder == path else str(hop.holder), hop.reference.span,
                f"{_label(hop.holder, graph.analysis(hop.holder))} includes "
                f"{hop.definition.key} here"))
        cycle = " -> ".join(names)
        sink.add("EY307", f"composite cycle: {cycle}; composite rubrics must not include each "
                 "other", ref.span, related=tuple(related), data={"cycle": cycle})
        return
    if target.is_composite:
        inner = _composite_refs(graph.analysis(target_path))
        including = f" (it includes {', '.join(r.raw for r in inner)})" if inner else ""
        related_inner = tuple(
            Related(None if target_path == path else str(target_path), r.span,
                    f"{target.key} includes {r.raw} here") for r in inner)
        sink.add("EY306", f"{target.key} is itself a composite rubric{including}; composites "
                 "nest one level only: include its rubrics directly", ref.span,
                 related=related_inner)


def _find_cycle(graph: ReferenceGraph, start: Path, goal: Path) -> list[Resolved] | None:
    """The shortest chain of composite references from `start` back to `goal`, or None.

    Breadth-first, so the reported cycle is the shortest one, and the message is the same
    whichever member is checked first.
    """
    parents: dict[Path, Resolved | None] = {start: None}
    queue = deque([start])
    while queue and len(parents) <= MAX_CYCLE_SEARCH:
        node = queue.popleft()
        if node == goal:
            hops: list[Resolved] = []
            step = parents[node]
            while step is not None:
                hops.append(step)
                step = parents[step.holder]
            hops.reverse()
            return hops
        for edge in graph.edges(node, COMPOSITE):
            if edge.path in parents:
                continue
            parents[edge.path] = edge
            queue.append(edge.path)
    return None


def _composite_refs(analysis: FileAnalysis | None) -> list[Reference]:
    if analysis is None:
        return []
    return [r for r in analysis.references if r.origin == COMPOSITE]


def _label(path: Path, analysis: FileAnalysis | None) -> str:
    """A rubric file's name in a cycle: its definition's key, or the file name."""
    if analysis is not None and len(analysis.definitions) == 1:
        return analysis.definitions[0].key
    return path.name


def _judge_validation(ref: Reference, judge: Definition, options: Options,
                      sink: FindingSink) -> None:
    if not judge.has_validation:
        sink.add("EY308", f"{judge.key} has no validation figures (tpr, tnr, validated_at): "
                 "nobody has measured how well it agrees with human labels", ref.span,
                 data={"reason": "missing"})
        return
    if judge.validated_at is None:
        sink.add("EY308", f"{judge.key} has a validation block without a valid validated_at "
                 "date, so its age is unknown", ref.span, data={"reason": "undated"})
        return
    age = (options.today - judge.validated_at).days
    if age > options.freshness_days:
        sink.add("EY308", f"{judge.key} was validated {age} days ago "
                 f"({judge.validated_at.isoformat()}), more than the {options.freshness_days}-day "
                 "limit; re-validate it", ref.span,
                 data={"reason": "stale", "age_days": str(age)})

"""The reference graph, cases -> rubrics -> judges, as DOT or JSON (`evalyaml graph`, in `cli.py`).

Nodes are cases (one per case, grouped by dataset file), rubric and judge versions
(`rubric/<id>@<version>`), and unresolved references (so a dangling `rubric_ref` shows up as a
red node instead of silently vanishing). The graph starts from the files under the named paths
and follows references into the rest of the workspace, so `evalyaml graph datasets/x.yaml`
shows the rubrics and judges that dataset really depends on.

The JSON form uses the same conventions as `evalyaml check --format json`: paths relative to
the current directory where possible, 0-based lines.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evalyaml.core.model import Definition, FileAnalysis, Reference
from evalyaml.syntax.text import Span
from evalyaml.workspace.index import Workspace, normalize
from evalyaml.workspace.resolve import Resolution


@dataclass(slots=True)
class Node:
    id: str
    kind: str  # "case", "rubric", "judge" or "unresolved"
    label: str
    path: str | None = None
    line: int | None = None
    group: str | None = None  # the dataset file of a case


@dataclass(slots=True)
class Edge:
    source: str
    target: str
    ref: str
    origin: str
    path: str
    line: int
    resolved: bool


@dataclass(slots=True)
class Graph:
    nodes: dict[str, Node] = field(default_factory=dict)
    edges: list[Edge] = field(default_factory=list)

    def add(self, node: Node) -> None:
        self.nodes.setdefault(node.id, node)


Display = Callable[[Path], str]


def build_graph(workspace: Workspace, files: Sequence[Path], display: Display = str) -> Graph:
    """The graph reachable from `files` (every rubric, judge and case in them); `display`
    shows a path (the CLI's: relative to the current directory where possible)."""
    graph = Graph()
    queue = [normalize(f) for f in files]
    visited: set[Path] = set()
    drawn: set[tuple[str, str, str, str]] = set()  # one edge per node pair and reference
    while queue:
        path = queue.pop()
        if path in visited:
            continue
        visited.add(path)
        analysis = workspace.analysis(path)
        if analysis is None or analysis.kind is None:
            continue
        sources = _source_nodes(graph, path, analysis, display)
        for ref in analysis.references:
            source = sources(ref)
            resolution = workspace.resolve(ref)
            target = _target_node(graph, ref, resolution, display)
            # Every row of an Every Eval Ever samples file leads to its aggregate: one edge.
            if (source, target, ref.raw, ref.origin) not in drawn:
                drawn.add((source, target, ref.raw, ref.origin))
                graph.edges.append(Edge(source, target, ref.raw, ref.origin, display(path),
                                        ref.span.start.line, resolution.ok))
            if resolution.path is not None:
                queue.append(resolution.path)
        for file_ref in analysis.file_refs:
            # A file named by path that the format adopts as one of its kinds (an AgentV
            # suite's grader prompt, cases file, workspace file).
            if file_ref.kind is None:
                continue
            named = workspace.named_file(file_ref.candidates, path)
            if named is None:
                continue
            shown_target = display(named)
            target_id = f"file:{shown_target}"
            graph.add(Node(target_id, file_ref.kind.value, shown_target, shown_target, 0))
            graph.edges.append(Edge(sources(None), target_id, shown_target, "file",
                                    display(path), file_ref.span.start.line, True))
            queue.append(named)
    graph.edges.sort(key=lambda e: (e.source, e.target, e.path, e.line))
    return graph


def _source_nodes(graph: Graph, path: Path, analysis: FileAnalysis, display: Display
                  ) -> Callable[[Reference | None], str]:
    """Add the file's own nodes; return a function naming the node a reference starts from."""
    shown = display(path)
    if analysis.kind is not None and analysis.kind.graph_cases:
        case_nodes: list[tuple[Node, Span]] = []
        for index, case in enumerate(analysis.cases):
            name = case.id or f"#{index + 1}"
            node = Node(f"case:{shown}#{name}@{case.span.start.line}", "case", name, shown,
                        case.span.start.line, shown)
            graph.add(node)
            case_nodes.append((node, case.span))

        def case_of(ref: Reference | None) -> str:
            for node, span in case_nodes:
                if ref is not None and span.contains(ref.span.start):
                    return node.id
            return f"file:{shown}"

        return case_of
    own = f"file:{shown}"
    named = [d for d in analysis.definitions if not d.alias]
    for definition in named:
        key = _key(definition, shown)
        graph.add(Node(key, definition.kind.value, key, shown, definition.id_span.start.line))
    if named:
        own = _key(named[0], shown)
    else:
        graph.add(Node(own, analysis.kind.value if analysis.kind else "file", shown, shown, 0))
    return lambda ref: own


def _key(definition: Definition, shown: str) -> str:
    """A definition's node name; a file named by its path (Every Eval Ever) is shown by the
    path as the rest of the output shows paths, not by the absolute id the index keeps."""
    if getattr(definition.kind, "named_by_path", False):
        return f"{definition.kind.value} '{shown}'"
    return definition.key


def _target_node(graph: Graph, ref: Reference, resolution: Resolution, display: Display
                 ) -> str:
    if resolution.ok and resolution.definition is not None and resolution.path is not None:
        definition = resolution.definition
        shown = display(resolution.path)
        key = _key(definition, shown)
        graph.add(Node(key, definition.kind.value, key, shown, definition.id_span.start.line))
        return key
    node_id = f"unresolved:{ref.raw}"
    graph.add(Node(node_id, "unresolved", ref.raw))
    return node_id


def to_json(graph: Graph) -> str:
    data = {
        "nodes": [_clean({"id": n.id, "kind": n.kind, "label": n.label, "path": n.path,
                          "line": n.line, "group": n.group})
                  for n in sorted(graph.nodes.values(), key=lambda n: (n.kind, n.id))],
        "edges": [{"from": e.source, "to": e.target, "ref": e.ref, "origin": e.origin,
                   "path": e.path, "line": e.line, "resolved": e.resolved}
                  for e in graph.edges],
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _clean(item: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in item.items() if v is not None}


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


_SHAPES = {"case": "ellipse", "rubric": "box", "judge": "hexagon", "file": "note"}


def to_dot(graph: Graph) -> str:
    out = ["digraph evalyaml {", "  rankdir=LR;", "  node [fontname=\"Helvetica\"];"]
    groups: dict[str, list[Node]] = {}
    for node in sorted(graph.nodes.values(), key=lambda n: n.id):
        if node.kind == "case" and node.group:
            groups.setdefault(node.group, []).append(node)
    for number, (group, members) in enumerate(sorted(groups.items())):
        out.append(f"  subgraph cluster_{number} {{")
        out.append(f"    label={_quote(group)};")
        out.extend(f"    {_quote(n.id)} [label={_quote(n.label)}, shape=ellipse];"
                   for n in members)
        out.append("  }")
    for node in sorted(graph.nodes.values(), key=lambda n: n.id):
        if node.kind == "case" and node.group:
            continue
        if node.kind == "unresolved":
            out.append(f"  {_quote(node.id)} [label={_quote(node.label + ' (unresolved)')}, "
                       "shape=box, style=dashed, color=red, fontcolor=red];")
        else:
            out.append(f"  {_quote(node.id)} [label={_quote(node.label)}, "
                       f"shape={_SHAPES.get(node.kind, 'box')}];")
    for edge in graph.edges:
        style = "" if edge.resolved else ", style=dashed, color=red"
        out.append(f"  {_quote(edge.source)} -> {_quote(edge.target)} "
                   f"[label={_quote(edge.origin)}{style}];")
    out.append("}")
    return "\n".join(out) + "\n"

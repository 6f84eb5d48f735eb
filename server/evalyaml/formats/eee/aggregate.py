"""An aggregate (`<uuid4>.json`): its declared version's schema, and the facts its samples
file is checked against.

The facts (`evaluation_id`, `model_info.id`, `detailed_evaluation_results`) travel in
`FileAnalysis.facts` for the cross checks of both files: the aggregate's own (checksum and row
count of its samples file) and the samples file's (every row's ids).
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import PurePath

from evalyaml.core.findings import FindingSink
from evalyaml.core.model import CaseSummary, Reference
from evalyaml.core.suggest import best
from evalyaml.formats.eee import semantic, versions
from evalyaml.formats.eee.kinds import AGGREGATE, SAMPLES
from evalyaml.formats.eee.schemacheck import SchemaCheck, json_type
from evalyaml.syntax.text import LineIndex, Span
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence

UNKNOWN_VERSION = "EY700"
WHAT = "the aggregate"  # how the schema's messages name the root object


@dataclass(slots=True)
class AggregateResult:
    facts: dict[str, object] = field(default_factory=dict)
    references: list[Reference] = field(default_factory=list)
    cases: list[CaseSummary] = field(default_factory=list)  # the results, for symbols


def samples_id(aggregate: str | None, file_path: str) -> str | None:
    """What a samples file is called in the index: its own path, normalised. The aggregate
    names it from the datastore root, so two datastores in one workspace never mix."""
    if aggregate is None:
        return None
    base = datastore_root(PurePath(aggregate))
    return posixpath.normpath((base / file_path).as_posix())


def datastore_root(path: PurePath) -> PurePath:
    """The folder holding the file's `data` folder; the file's own folder when it has none."""
    for parent in path.parents:
        if parent.name == "data":
            return parent.parent
    return path.parent


def check_aggregate(root: Node, lines: LineIndex, sink: FindingSink, path: str | None = None
                    ) -> AggregateResult:
    def place(node: Node) -> Span:
        return lines.span(node.start, node.end)

    result = AggregateResult()
    if not isinstance(root, Mapping):
        sink.add("EY702", f"an aggregate must be a JSON object, not {json_type(root)}",
                 place(root))
        return result
    version_node = root.get("schema_version")
    if version_node is None:  # a misspelt key still says which version the author meant
        for key, value in root.pairs:
            if isinstance(key, Scalar) and best(key.text, ["schema_version"]):
                version_node = value
                break
    version = version_node.text if isinstance(version_node, Scalar) and version_node.style \
        else None
    schema = versions.schema_for(AGGREGATE, version)
    if schema is None and version is not None and version_node is not None:
        sink.add(UNKNOWN_VERSION, f"schema_version '{version}' is not one evalyaml knows for "
                 f"aggregates ({', '.join(versions.AGGREGATE_VERSIONS)}); the file is not "
                 "checked against a schema", place(version_node))
    else:
        SchemaCheck(schema or versions.newest(AGGREGATE), sink, place,
                    what=WHAT).check(root)
        semantic.overflowing_numbers(root, place, sink)
        semantic.score_ranges(root, place, sink)
        semantic.model_path(path, root, place, sink)
    result.facts["version"] = version
    _facts(root, place, result, path)
    return result


def _facts(root: Mapping, place: Callable[[Node], Span], result: AggregateResult,
           path: str | None) -> None:
    facts = result.facts
    results = root.get("evaluation_results")
    for item in results.items if isinstance(results, Sequence) else ():
        name = item.get("evaluation_name") if isinstance(item, Mapping) else None
        if isinstance(name, Scalar) and name.style:
            result.cases.append(CaseSummary(name.text, place(item), place(name)))
    evaluation = root.get("evaluation_id")
    if isinstance(evaluation, Scalar) and evaluation.style:
        facts["evaluation_id"] = (evaluation.text, place(evaluation))
    model_info = root.get("model_info")
    model = model_info.get("id") if isinstance(model_info, Mapping) else None
    if isinstance(model, Scalar) and model.style:
        facts["model_id"] = (model.text, place(model))
    facts["head"] = place(root).start
    detailed = root.get("detailed_evaluation_results")
    facts["has_detailed"] = detailed is not None
    if not isinstance(detailed, Mapping):
        return
    file_path = detailed.get("file_path")
    if isinstance(file_path, Scalar) and file_path.style and file_path.text:
        span = place(file_path)
        facts["file_path"] = (file_path.text, span)
        target = samples_id(path, file_path.text)
        if target is not None:
            result.references.append(Reference(SAMPLES, file_path.text, span, "file_path",
                                               "detailed_evaluation_results", target, None))
    checksum = detailed.get("checksum")
    if isinstance(checksum, Scalar) and checksum.style:
        facts["checksum"] = (checksum.text, place(checksum))
    rows = detailed.get("total_rows")
    if isinstance(rows, Scalar) and json_type(rows) == "integer":
        facts["total_rows"] = (rows.value, place(rows))
    algorithm = detailed.get("hash_algorithm")
    if isinstance(algorithm, Scalar) and algorithm.style:
        facts["hash_algorithm"] = algorithm.text


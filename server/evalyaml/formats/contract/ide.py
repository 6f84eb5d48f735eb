"""What the editor features know of the contract beyond its JSON Schemas, as data."""

from __future__ import annotations

from typing import Any

from evalyaml.core.kinds import FileKind, Kind
from evalyaml.core.model import Reference
from evalyaml.formats.base import FormatIde, KeyDoc, SchemaUnion
from evalyaml.formats.contract.references import parse_reference
from evalyaml.formats.contract.words import CHECK_KINDS, TEMPLATE_VARIABLES
from evalyaml.syntax.text import Position, Span

TEMPLATE_DOCS = {
    "input": "The case's `input`: the prompt or question sent to the system under test.",
    "output": "The answer being judged: what the system under test replied.",
    "expected": "The case's expected answer (`expected`), for reference-based judging.",
    "context": "Supplied or retrieved context (documents, tool results) the answer may use.",
}



def read_reference(raw: str, target: Kind, path: list[Any], span: Span
                   ) -> tuple[Reference, Span | None]:
    """A `rubric_ref`/`judge_prompt_ref` value at the cursor: `<kind>/<id>@<version>`."""
    assert isinstance(target, FileKind)
    parsed = parse_reference(raw, target)
    owner = "?"
    if isinstance(parsed, str):
        return Reference(target, raw, span, "case", owner, None, None), None
    ref_id, pin = parsed
    slash = raw.index("/")
    line, start = span.start.line, span.start.character
    id_span = Span(Position(line, start + slash + 1),
                   Position(line, start + slash + 1 + len(ref_id)))
    origin = "case" if target is FileKind.RUBRIC and path[:1] == ["questions"] else (
        "composite" if target is FileKind.RUBRIC else "llm_judge")
    return Reference(target, raw, span, origin, owner, ref_id, pin), id_span


IDE = FormatIde(
    template_variables={("judge", ("template",)): tuple(
        KeyDoc(name, TEMPLATE_DOCS.get(name, "")) for name in TEMPLATE_VARIABLES)},
    reference_keys={"rubric_ref": FileKind.RUBRIC, "judge_prompt_ref": FileKind.JUDGE},
    read_reference=read_reference,
    unions=(SchemaUnion(FileKind.RUBRIC, "#/$defs/check", CHECK_KINDS, "/$defs/check_{}",
                        "/$defs/check_base"),),
)

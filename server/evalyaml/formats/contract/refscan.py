"""Collect a reference from a mapping key, reporting malformed ones (EY300) where they stand."""

from __future__ import annotations

from evalyaml.core.findings import FindingSink
from evalyaml.core.kinds import FileKind
from evalyaml.core.model import Reference
from evalyaml.formats.contract.references import parse_reference
from evalyaml.syntax.parsed import ParsedText
from evalyaml.syntax.tree import Mapping, Scalar


def collect_reference(
    owner_node: Mapping,
    key: str,
    *,
    target: FileKind,
    origin: str,
    owner: str,
    parsed: ParsedText,
    sink: FindingSink,
    out: list[Reference],
) -> None:
    node = owner_node.get(key)
    if not isinstance(node, Scalar) or not isinstance(node.value, str):
        return  # absent, or the schema reports the wrong type
    span = parsed.span(node)
    parsed_ref = parse_reference(node.text, target)
    if isinstance(parsed_ref, str):
        sink.add("EY300", parsed_ref, span)
        out.append(Reference(target, node.text, span, origin, owner, None, None))
        return
    ref_id, pin = parsed_ref
    out.append(Reference(target, node.text, span, origin, owner, ref_id, pin))

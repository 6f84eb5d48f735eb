"""Case results as plain tuples, for the trip back from the language server's case worker.

Pickling a share of 250 findings-heavy cases cost the worker 12 ms against 40 to analyse them
(a third of its time): every `Position` pickles through a Python-level `__getnewargs__`, every
finding, summary and reference through a `__reduce__`. Here a result becomes nested tuples of
strings and numbers in one pass, and `marshal` writes those at C speed; the server builds the
objects again on its side (`decode`), which costs what unpickling them did, and places each on
its case's line as it goes (a line number added to each position it builds anyway). The kinds that
references name travel beside the bytes, in a short list pickled as they are (a core module
names no format's kind). Whatever does not fit (finding data that is not plain) sends the whole
share pickled instead (`encode` returns None): never a wrong result, at worst the old cost.

`tests/core/test_wire.py` holds `decode(encode(x)) == x` for every case result of the fixtures.
"""

from __future__ import annotations

import marshal
from typing import Any

from evalyaml.core.codes import Severity
from evalyaml.core.findings import Finding, Fix, FixSafety, Related, TextEdit
from evalyaml.core.incremental import CaseResult
from evalyaml.core.kinds import Kind
from evalyaml.core.model import CaseSummary, Pin, Reference
from evalyaml.syntax.text import Position, Span

_new = tuple.__new__
_SEVERITIES = {int(severity): severity for severity in Severity}
_SAFETIES = {safety.value: safety for safety in FixSafety}

Flat = Any  # nested tuples of str, int, bool and None


class _Unfit(Exception):
    """A value this encoding does not carry: the share goes pickled."""


Encoded = tuple[bytes, list[Kind]]
"""The results as marshal bytes, and the kinds their references name (by index)."""


def encode(results: list[CaseResult | None]) -> Encoded | None:
    """`results` for the trip; None when something in them does not fit."""
    kinds: list[Kind] = []
    try:
        return marshal.dumps([None if r is None else _case(r, kinds) for r in results]), kinds
    except (_Unfit, ValueError):  # ValueError: marshal met an object it cannot write
        return None


def decode(encoded: Encoded, lines: list[int] | None = None) -> list[CaseResult | None]:
    """The results again; given `lines` (one per result), each placed on its line as it is
    built (`CaseResult.at`), which costs nothing more."""
    data, kinds = encoded
    flats = marshal.loads(data)
    return [None if flat is None else _case_of(flat, kinds, line)
            for flat, line in zip(flats, lines or [0] * len(flats), strict=True)]


def _span(span: Span | None) -> Flat:
    if span is None:
        return None
    (a, b), (c, d) = span
    return a, b, c, d


def _span_of(flat: Flat, line: int) -> Span:
    a, b, c, d = flat
    span: Span = _new(Span, (_new(Position, (a + line, b)), _new(Position, (c + line, d))))
    return span


def _maybe_span_of(flat: Flat, line: int) -> Span | None:
    return None if flat is None else _span_of(flat, line)


def _case(result: CaseResult, kinds: list[Kind]) -> Flat:
    if result.line:  # the worker sends results as read, from line 0
        raise _Unfit
    return (tuple(_finding(f) for f in result.findings), _summary(result.summary),
            _reference(result.reference, kinds), result.id_text, _span(result.id_span))


def _case_of(flat: Flat, kinds: list[Kind], line: int) -> CaseResult:
    findings, summary, reference, id_text, id_span = flat
    return CaseResult(tuple(_finding_of(f, line) for f in findings), _summary_of(summary, line),
                      _reference_of(reference, kinds, line), id_text,
                      _maybe_span_of(id_span, line), line)


def _finding(finding: Finding) -> Flat:
    related = tuple((r.path, _span(r.span), r.message) for r in finding.related)
    fixes = tuple((fix.title, tuple((_span(e.span), e.new_text) for e in fix.edits),
                   fix.preferred, fix.safety.value) for fix in finding.fixes)
    data = finding.data
    if data and not all(type(k) is str and type(v) is str for k, v in data.items()):
        raise _Unfit
    return (finding.code, finding.message, _span(finding.span), int(finding.severity),
            related, fixes, dict(data) if data else None)


def _finding_of(flat: Flat, line: int) -> Finding:
    """As `Finding.shifted` moves one: a related place in another file stays where it is."""
    code, message, span, severity, related, fixes, data = flat
    return Finding(
        code, message, _span_of(span, line), _SEVERITIES[severity],
        tuple(Related(path, _span_of(s, line if path is None else 0), text)
              for path, s, text in related) if related else (),
        tuple(Fix(title, tuple(TextEdit(_span_of(s, line), new) for s, new in edits),
                  preferred, _SAFETIES[safety]) for title, edits, preferred, safety in fixes)
        if fixes else (),
        data if data is not None else {})


def _summary(summary: CaseSummary) -> Flat:
    return (summary.id, _span(summary.span), _span(summary.id_span), summary.bundle,
            _span(summary.bundle_span), summary.detail)


def _summary_of(flat: Flat, line: int) -> CaseSummary:
    case_id, span, id_span, bundle, bundle_span, detail = flat
    return CaseSummary(case_id, _span_of(span, line), _maybe_span_of(id_span, line), bundle,
                       _maybe_span_of(bundle_span, line), detail)


def _reference(reference: Reference | None, kinds: list[Kind]) -> Flat:
    if reference is None:
        return None
    target = next((i for i, kind in enumerate(kinds) if kind is reference.target), None)
    if target is None:
        target = len(kinds)
        kinds.append(reference.target)
    pin = reference.pin
    return (target, reference.raw, _span(reference.span), reference.origin,
            reference.owner, reference.id,
            None if pin is None else (pin.text, pin.major, pin.minor, pin.patch, pin.prerelease))


def _reference_of(flat: Flat, kinds: list[Kind], line: int) -> Reference | None:
    if flat is None:
        return None
    target, raw, span, origin, owner, ref_id, pin = flat
    return Reference(kinds[target], raw, _span_of(span, line), origin, owner, ref_id,
                     None if pin is None else Pin(*pin))

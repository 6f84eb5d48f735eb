"""A test's facts moved down by the fast path the Enter key takes (`bytest.TestFacts.shifted`,
every test below a line added) are each fact with its spans moved, every field of a case set,
so a field added to `CaseSummary` and forgotten there fails here; spans two facts share stay
shared."""

from __future__ import annotations

from dataclasses import fields, replace

from evalyaml.core.model import CaseSummary, FileRef
from evalyaml.formats.agentv import bytest
from evalyaml.formats.agentv.depends import Dependency
from evalyaml.formats.agentv.suitefacts import SuiteRef
from evalyaml.syntax.text import Span


def test_moved_facts_are_each_fact_moved() -> None:
    ref_span, id_span = Span.point(7, 16), Span.point(0, 8)
    case = CaseSummary("refund", Span.point(0, 4), id_span, "bundle", Span.point(1, 2), "hover")
    assert all(getattr(case, f.name) is not None for f in fields(CaseSummary))
    dep = Dependency("refund", "setup", Span.point(3, 4))
    ref = SuiteRef("prompt", "p.md", ref_span, "", "file://p.md", {"id": "refund"})
    file_ref = FileRef(ref_span, ("/w/p.md",), None)
    facts = bytest.TestFacts((ref,), (("refund", id_span),), (dep,), (case,),
                              (file_ref,))
    moved = facts.shifted(5)
    assert moved.refs == (replace(ref, span=ref_span.shifted(5)),)
    assert moved.file_refs == (replace(file_ref, span=ref_span.shifted(5)),)
    assert moved.test_ids == (("refund", id_span.shifted(5)),)
    assert moved.depends == (Dependency("refund", "setup", Span.point(8, 4)),)
    assert moved.cases == (case.shifted(5),)
    assert moved.refs[0].span is moved.file_refs[0].span
    assert moved.test_ids[0][1] is moved.cases[0].id_span
    assert facts.shifted(0) is facts

"""A test's facts moved down by the fast path the Enter key takes (`bytest._moved_test`, every
test below a line added) are what the general move (`_shift_test`) gives, every field set, so
a field added to `TestFacts` and forgotten there fails here."""

from __future__ import annotations

from dataclasses import fields

from evalyaml.core.model import CaseSummary
from evalyaml.formats.promptfoo import bytest
from evalyaml.formats.promptfoo.facts import Ref
from evalyaml.formats.promptfoo.facts import TestFacts as Facts
from evalyaml.syntax.text import Span


def _every_field_set() -> Facts:
    test = Facts(Span.point(2, 4), "test 3", {"question": Span.point(3, 6)}, True,
                     prompt_filter=True, empty=True, transformed=True,
                     prompt_refs=(("short", Span.point(4, 6)),),
                     provider_refs=(("fast", Span.point(4, 8)),),
                     scenario_vars=[None, {"tone": Span.point(5, 8)}])
    defaults = Facts(Span.point(0, 0), "", None, False)
    assert all(getattr(test, f.name) != getattr(defaults, f.name) for f in fields(Facts))
    return test


def test_a_moved_test_is_the_shifted_test() -> None:
    test = _every_field_set()
    assert bytest._moved_test(test, 3) == bytest._shift_test(test, lambda span: span.shifted(3))
    assert bytest._moved_test(test, 3).vars == {"question": Span.point(6, 6)}


def test_a_moved_item_moves_its_refs_tests_and_cases() -> None:
    item = bytest.TestItem((Ref("vars", "v.yaml", Span.point(1, 2)),), (_every_field_set(),),
                    (CaseSummary("test 3", Span.point(2, 4), Span.point(2, 6)),))
    moved = item.shifted(10)
    assert moved.refs == (Ref("vars", "v.yaml", Span.point(11, 2)),)
    assert moved.tests == (bytest._shift_test(item.tests[0], lambda span: span.shifted(10)),)
    assert moved.cases == (CaseSummary("test 3", Span.point(12, 4), Span.point(12, 6)),)
    assert item.shifted(0) is item

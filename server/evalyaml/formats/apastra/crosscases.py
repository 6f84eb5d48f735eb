"""The rules over a list of cases, read from each case's facts: a case id used twice (EY811) and
a quick eval's placeholder that some case's inputs lack (EY809). The whole document's check
(`rules`) and the case by case one (`quickcases`, `byrow`) gather the same facts and report
through these, so the two say the same."""

from __future__ import annotations

from collections.abc import Iterable

from evalyaml.core.findings import FindingSink, Related
from evalyaml.core.suggest import best
from evalyaml.formats.apastra.context import Context, string_at
from evalyaml.formats.apastra.templates import Placeholder
from evalyaml.syntax.record import record
from evalyaml.syntax.text import Span
from evalyaml.syntax.tree import Mapping, Node, Scalar


@record
class CaseInputs:
    """One case's `inputs` as EY809 reads them: the case's name, its input keys, the first
    line of its `inputs`, and which of the prompt's placeholders it lacks."""

    label: str
    keys: tuple[str, ...]
    span: Span
    missing: frozenset[str]

    def shifted(self, lines: int) -> CaseInputs:
        return CaseInputs(self.label, self.keys, self.span.shifted(lines), self.missing)


def case_inputs(ctx: Context, case: Node, names: Iterable[str]) -> CaseInputs | None:
    """None: not a mapping, or no `inputs` mapping (such a case is not asked)."""
    if not isinstance(case, Mapping):
        return None
    inputs = case.get("inputs")
    if not isinstance(inputs, Mapping):
        return None
    keys = tuple(k.text for k, _ in inputs.pairs if isinstance(k, Scalar))
    missing = frozenset(name for name in names
                        if inputs.get(name) is None and name not in keys)
    case_id = string_at(case, "case_id")
    return CaseInputs(case_id[0] if case_id else "?", keys, ctx.first_line(inputs), missing)


def placeholder_spans(ctx: Context, found: list[tuple[Placeholder, Scalar]]
                      ) -> list[tuple[str, Span]]:
    """Each unspaced placeholder of the prompt's strings, in order, and where it is."""
    out: list[tuple[str, Span]] = []
    for placeholder, node in found:
        if placeholder.spaced:
            continue
        literal = "{{" + placeholder.name + "}}"
        nth = node.text[:placeholder.start].count(literal)
        out.append((placeholder.name,
                    ctx.inner(node, placeholder.start, placeholder.end, literal, nth)))
    return out


def missing_inputs(sink: FindingSink, placeholders: list[tuple[str, Span]],
                   every_name: frozenset[str], cases: Iterable[CaseInputs | None]) -> None:
    """`placeholders`: each unspaced `{{name}}` of the prompt in order, where it is;
    `every_name`: every placeholder's name, spaced ones too (never suggested)."""
    asked = [case for case in cases if case is not None and case.missing]
    for name, span in placeholders:
        missing = [case for case in asked if name in case.missing]
        if not missing:
            continue
        literal = "{{" + name + "}}"
        names = ", ".join(f"'{c.label}'" for c in missing[:5])
        given = {key for case in missing for key in case.keys}
        near = best(name, given - every_name)
        hint = f"; did you mean '{{{{{near}}}}}'?" if near else ""
        sink.add("EY809", f"no input '{name}' in case {names}: Apastra leaves '{literal}' in "
                 f"the prompt as written{hint}", span,
                 related=tuple(Related(None, c.span, "this case's inputs") for c in missing[:5]))


def duplicate_ids(ids: Iterable[tuple[str, Span] | None], sink: FindingSink, where: str) -> None:
    """Each case id's first place, then every later use of it."""
    first: dict[str, Span] = {}
    for found in ids:
        if found is None:
            continue
        name, span = found
        other = first.get(name)
        if other is not None:
            sink.add("EY811", f"case_id '{name}' is also on line {other.start.line + 1}: each "
                     f"case of a {where} needs its own id", span,
                     related=(Related(None, other, "first used here"),))
        else:
            first[name] = span

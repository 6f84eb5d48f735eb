"""Text to YAML trees, never raising: every failure becomes an EY1xx finding.

The simple block YAML most files are is read by our fast path (`fastparse.py`); the rest by
ruamel.yaml's composers (`compose.py`: its C parser, about nine times faster than its pure
parser and carrying the same code-point offsets, or the pure parser as the fallback). ruamel is
imported with the first text the fast path declines, so a one-file check of simple YAML never
pays its import (issue #27, start-up). After a syntax error the broken lines are blanked and the
rest parsed again (`recover.py`).
"""

from __future__ import annotations

from collections.abc import Callable

from evalyaml.core.findings import Finding, FindingSink
from evalyaml.syntax.parsed import ParsedText
from evalyaml.syntax.recover import Hole, Mask, blank, hole_at, max_holes
from evalyaml.syntax.text import LineIndex
from evalyaml.syntax.tree import Mapping, Node, Sequence
from evalyaml.syntax.yaml.fastparse import fast_parse


def c_parser_available() -> bool:
    """Whether ruamel's C parser (ruamel.yaml.clib) is installed; imports ruamel."""
    from evalyaml.syntax.yaml.compose import c_parser_available as available
    return available()


FAST_PATH = True
"""Whether `parse_text` tries `fastparse.fast_parse` first; tests turn it off to compare."""


def parse_text(text: str, sink: FindingSink, *, pure: bool = False,
               recover: bool = True) -> ParsedText:
    """Parse all documents of `text`; findings go to `sink`, with spans relative to `text`.

    After a syntax error (reported as ever) the broken lines are blanked and the rest parsed
    again (`recover.py`): the result is `usable` with its `holes`, and `sink` gets the mask that
    keeps the blanks' own consequences out of the findings. `recover=False` stops at the
    error, as before."""
    first = _parse_once(text, sink, pure=pure)
    if first.ok or first.error_at is None or not recover:
        return first
    return _recover(text, first, sink, pure=pure)


def _recover(text: str, first: ParsedText, sink: FindingSink, *, pure: bool) -> ParsedText:
    holes: list[Hole] = []
    later: list[tuple[Finding, Hole]] = []  # each error a blanked text still had, its hole
    pending: Finding | None = None
    work, at = text, first.error_at
    while at is not None and len(holes) < max_holes(text):
        hole = hole_at(first.lines if work is text else LineIndex(work), at, holes)
        if hole is None:
            break
        if pending is not None:
            later.append((pending, hole))
        holes.append(hole)
        work = blank(work, hole)
        trial = FindingSink(strict=sink.strict)
        parsed = _parse_once(work, trial, pure=pure)
        if parsed.ok:
            mask = Mask(first.lines, tuple(holes), documents=parsed.documents)
            sink.mask = mask.hides
            sink.findings.extend(_apart(later, holes))
            for finding in trial.findings:  # duplicate keys, unsafe tags of the recovered tree
                if not mask.hides(finding.code, finding.message, finding.span):
                    sink.findings.append(finding)
            return ParsedText(text, first.lines, parsed.documents, ok=False,
                              holes=tuple(holes), error_at=first.error_at,
                              error_open=first.error_open)
        pending = next((f for f in trial.findings if f.code in _LATER_ERRORS), None)
        at = parsed.error_at
    return first


_LATER_ERRORS = frozenset({"EY101"})


def _apart(errors: list[tuple[Finding, Hole]], holes: list[Hole]) -> list[Finding]:
    """The further syntax errors a recovered document had (a second broken test of a suite
    parsed whole), each reported where the parser found it, so the author does not fix one and
    meet the next. Only an error on a line of its own hole, that hole clear of the earlier
    holes and of the lines next to them: an error the blanks could have caused is not
    reported."""
    out = []
    for finding, hole in errors:
        line = finding.span.start.line
        if not hole.first_line <= line <= hole.last_line:
            continue
        earlier = holes[: holes.index(hole)]
        if any(h.first_line - 1 <= hole.last_line and hole.first_line <= h.last_line + 1
               for h in earlier):
            continue
        out.append(finding)
    return out


def _parse_once(text: str, sink: FindingSink, *, pure: bool) -> ParsedText:
    lines = LineIndex(text)
    body, base = (text[1:], 1) if text.startswith("\ufeff") else (text, 0)
    if FAST_PATH and not pure and not base:  # the simple common subset: see fastparse.py
        root = fast_parse(body)  # None for anything over the depth limit too
        if root is not None:
            return ParsedText(text, lines, [root], ok=True)
    from evalyaml.syntax.yaml.compose import compose_text  # ruamel: see the module docstring
    return compose_text(text, lines, body, base, sink, pure=pure)


def parse_lone_item(text: str, sink: FindingSink) -> tuple[ParsedText, Node] | None:
    """The one item of a list written alone (`- ...`, one test of a suite split by lines):
    the parse and the item, or None when the text does not parse as written, or is not
    exactly one document holding a one-item list. The per-item analyses (`core/items.py`)
    then fall back to the whole file."""
    parsed = parse_text(text, sink)
    if not parsed.ok or len(parsed.documents) != 1:
        return None
    top = parsed.documents[0]
    if not isinstance(top, Sequence) or len(top.items) != 1:
        return None
    return parsed, top.items[0]


def read_mapping(parse: Callable[[str, FindingSink], ParsedText | None], text: str, *,
                 strict: bool) -> tuple[FindingSink, ParsedText, Mapping] | None:
    """A skeleton read by an item-by-item analysis's `parse` hook (`BlockYamlReading`,
    `syntax.jsonsplit.JsonReading`) into a sink of its own, when its one document is a mapping
    (a list cut out of a root mapping); None sends the caller to the whole file."""
    sink = FindingSink(strict=strict)
    parsed = parse(text, sink)
    if parsed is None or not isinstance(parsed.documents[0], Mapping):
        return None
    return sink, parsed, parsed.documents[0]


class BlockYamlReading:
    """The reading hooks of an item-by-item analysis (`core.items.ItemRules` with `parse` and
    `lone`) for block YAML: the skeleton as written, one document without a syntax error, and
    each item alone (`parse_lone_item`); None sends the caller to the whole file. A format
    whose file may also be JSON takes `syntax.jsonsplit.JsonReading` for that variant."""

    def parse(self, text: str, sink: FindingSink) -> ParsedText | None:
        parsed = parse_text(text, sink)
        return parsed if parsed.ok and len(parsed.documents) == 1 else None

    def lone(self, text: str, index: int, sink: FindingSink) -> tuple[ParsedText, Node] | None:
        return parse_lone_item(text, sink)

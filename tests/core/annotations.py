"""Expected findings written inside YAML fixtures, next to the text they are about.

A fixture is an ordinary YAML file. Its expectations are YAML comments, so the file parses exactly
as it would without them. Three kinds of special comment lines:

**Header** (anywhere, usually at the top)::

    #! kind: dataset              the kind the file must be detected as: dataset, rubric, judge,
                                  or none (not ours: no findings at all)
    #! path: rubrics/x.yaml       the path given to the analysis (default: the fixture's path
                                  relative to the fixtures folder, so rubrics/ and judges/ count)
    #! strict                     analyse in strict mode
    #! today: 2026-11-21          the injected date (this is the default)
    #! freshness_days: 30         judge freshness limit (default 90)

**Caret annotation**: carets under the offending text::

    questions:
      - id: reset_password
        expecteed_facts: []
       # ^^^^^^^^^^^^^^^ EY205 unknown key 'expecteed_facts' in case 'reset_password'; ...

The carets' columns (code points, counted in the annotation line) are the finding's range on the
*target line*: the nearest line above that is not itself an annotation (or header) line. Several
annotations may stack under one target line. What follows the code is the exact message.

**Explicit annotation**, for ranges carets cannot draw (zero-width, column 0, several lines)::

    #@ 4..4 EY202 'questions' must be a list, not empty       columns 4 to 4 of the target line
    #@ -2:4..9 EY104 ...                                      from 2 lines above the target line,
                                                              column 4, to the target line, col 9

Each end is ``[LINE:]COLUMN``; LINE is an offset from the target line (``-2``, ``0``, ``+1``) and
defaults to 0. Columns are code points, 0-based, as everywhere in the core.

A fixture's annotations must match its findings exactly: same code, range and message, and no
finding without an annotation.

Annotation lines are comments, so they must not be placed inside a block scalar (``|`` or ``>``),
where a ``#`` line is content: annotate such findings with an explicit annotation below the block.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from evalyaml.core.codes import CODE_PATTERN

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_HEADER = re.compile(r"^\s*#!\s*(?P<key>[a-z_]+)\s*(?::\s*(?P<value>.*?))?\s*$")
_CARET = re.compile(r"^(?P<lead>\s*#\s*)(?P<carets>\^+)\s+"
                    rf"(?P<code>{CODE_PATTERN.pattern})\s+(?P<message>.*?)\s*$")
_END = r"(?:(?P<{0}line>[+-]?\d+):)?(?P<{0}col>\d+)"
_EXPLICIT = re.compile(
    r"^\s*#@\s+" + _END.format("s") + r"\.\." + _END.format("e")
    + r"\s+(?P<code>EY(?:\d{3}|[A-Z]{2}\d{3}))\s+(?P<message>.*?)\s*$"
)
_LOOKS_LIKE_ANNOTATION = re.compile(r"^\s*#\s*(?:\^|@|!)")

KINDS = ("dataset", "rubric", "judge", "none")
DEFAULT_TODAY = date(2026, 11, 21)


class AnnotationError(ValueError):
    """A fixture's annotations are malformed (a mistake in the test data, not in evalyaml)."""


@dataclass(frozen=True, slots=True, order=True)
class Expected:
    """One expected finding: 0-based (line, code-point column) ends, code and exact message."""

    start: tuple[int, int]
    end: tuple[int, int]
    code: str
    message: str

    def render(self) -> str:
        return (f"{self.start[0]}:{self.start[1]}-{self.end[0]}:{self.end[1]} "
                f"{self.code} {self.message}")


@dataclass(slots=True)
class Fixture:
    kind: str
    path: str
    strict: bool = False
    today: date = DEFAULT_TODAY
    freshness_days: int = 90
    expected: list[Expected] = field(default_factory=list)
    annotation_lines: set[int] = field(default_factory=set)


def split_lines(text: str) -> list[str]:
    """Lines as LSP clients count them: broken at LF, CRLF and CR only (not at U+2028)."""
    return _LINE_BREAK.split(text)


def parse_fixture(text: str, default_path: str) -> Fixture:
    lines = split_lines(text)
    header: dict[str, str | None] = {}
    expected: list[Expected] = []
    annotation_lines: set[int] = set()
    target: int | None = None
    for number, line in enumerate(lines):
        header_match = _HEADER.match(line)
        caret = _CARET.match(line)
        explicit = _EXPLICIT.match(line)
        if header_match:
            key = header_match.group("key")
            if key in header:
                raise AnnotationError(f"line {number}: header '{key}' given twice")
            header[key] = header_match.group("value")
        elif caret:
            if target is None:
                raise AnnotationError(f"line {number}: a caret annotation needs a line above it")
            start = len(caret.group("lead"))
            end = start + len(caret.group("carets"))
            if end > len(lines[target]):
                raise AnnotationError(f"line {number}: carets run past the end of line {target}")
            expected.append(Expected((target, start), (target, end), caret.group("code"),
                                     caret.group("message")))
        elif explicit:
            base = target if target is not None else 0
            start_pos = (base + int(explicit.group("sline") or 0), int(explicit.group("scol")))
            end_pos = (base + int(explicit.group("eline") or 0), int(explicit.group("ecol")))
            if end_pos < start_pos:
                raise AnnotationError(f"line {number}: the range ends before it starts")
            expected.append(Expected(start_pos, end_pos, explicit.group("code"),
                                     explicit.group("message")))
        elif _LOOKS_LIKE_ANNOTATION.match(line):
            raise AnnotationError(f"line {number}: looks like an annotation but is malformed: "
                                  f"{line!r}")
        else:
            target = number
            continue
        annotation_lines.add(number)
    kind = header.get("kind")
    if kind not in KINDS:
        raise AnnotationError(f"'#! kind:' must be one of {', '.join(KINDS)}, not {kind!r}")
    unknown = set(header) - {"kind", "path", "strict", "today", "freshness_days"}
    if unknown:
        raise AnnotationError(f"unknown header keys: {', '.join(sorted(unknown))}")
    fixture = Fixture(kind=kind, path=header.get("path") or default_path,
                      strict="strict" in header, expected=sorted(expected),
                      annotation_lines=annotation_lines)
    if header.get("today"):
        fixture.today = date.fromisoformat(str(header["today"]))
    if header.get("freshness_days"):
        fixture.freshness_days = int(str(header["freshness_days"]))
    if kind == "none" and expected:
        raise AnnotationError("a fixture of kind none cannot expect findings")
    return fixture


def annotate(text: str, actual: list[Expected]) -> str:
    """The text with `actual` findings written in as annotations (for failure messages, and to
    draft a new fixture). Old annotation lines are dropped first."""
    lines = split_lines(text)
    kept = [(n, line) for n, line in enumerate(lines)
            if not (_CARET.match(line) or _EXPLICIT.match(line))]
    below: dict[int, list[str]] = {}
    for item in sorted(actual):
        (sl, sc), (el, ec) = item.start, item.end
        target_line = lines[el] if el < len(lines) else ""
        if sl == el and ec > sc >= 1:
            indent = len(target_line) - len(target_line.lstrip(" "))
            hash_col = max(0, min(indent, sc - 2))
            note = " " * hash_col + "#" + " " * (sc - hash_col - 1) + "^" * (ec - sc)
        else:
            rel_start = sl - el
            start = f"{rel_start:+d}:{sc}" if rel_start else str(sc)
            note = f"#@ {start}..{ec}"
        below.setdefault(el, []).append(f"{note} {item.code} {item.message}")
    out: list[str] = []
    for number, line in kept:
        out.append(line)
        out.extend(below.get(number, []))
    return "\n".join(out)

"""Carets in the example mistakes: a YAML comment under the mistake, drawing where evalyaml puts
its finding and saying what it prints::

    questions:
      - id: lookup_order_then_reply
        expected_tool:
      # ^^^^^^^^^^^^^ EY205 unknown key 'expected_tool' in case 'lookup_order_then_reply'; ...

The carets' columns (code points, in the comment line) are the finding's range on the nearest
line above that is not itself a caret line; what follows the code is the exact message. Unlike a
fixture's `//~` lines these stay in the file (the example is shown to people as it is), so they
are ordinary comments: the file reads the same with or without them, and one sits below the
line it is about, where it moves nothing the finding points at. Where no comment can draw the
range (column 0, inside a block scalar, JSON) the example's test keeps it in a table.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from evalyaml.core.codes import CODE_PATTERN
from evalyaml.core.findings import Finding

_CARET = re.compile(r"^(?P<lead>\s*#\s*)(?P<carets>\^+)\s+"
                    rf"(?P<code>{CODE_PATTERN.pattern})\s+(?P<message>.*?)\s*$")


@dataclass(frozen=True, slots=True, order=True)
class Caret:
    line: int  # 0-based, as the JSON output and the editor count
    start: int
    end: int
    code: str
    message: str


def read_carets(text: str) -> list[Caret]:
    lines = text.split("\n")
    found: list[Caret] = []
    target: int | None = None
    for number, line in enumerate(lines):
        match = _CARET.match(line)
        if match is None:
            target = number
            continue
        if target is None:
            raise ValueError(f"line {number}: a caret comment needs a line above it")
        start = len(match.group("lead"))
        end = start + len(match.group("carets"))
        if end > len(lines[target]):
            raise ValueError(f"line {number}: carets run past the end of line {target}")
        found.append(Caret(target, start, end, match.group("code"), match.group("message")))
    return found


class Drawn(NamedTuple):
    """A finding as a format's example test compares it: the file (relative to the examples'
    folder), its range (0-based lines, code-point columns) and its exact code and message.
    Carets and the check's JSON output both become these, so one `==` compares every finding
    of an example with everything its carets and its table promise."""

    path: str
    start_line: int
    start: int
    end_line: int
    end: int
    code: str
    message: str


def drawn_carets(root: Path, path: Path) -> list[Drawn]:
    """The carets of one file, named relative to `root`."""
    name = path.relative_to(root).as_posix()
    return [Drawn(name, c.line, c.start, c.line, c.end, c.code, c.message)
            for c in read_carets(path.read_text(encoding="utf-8"))]


def drawn_json(root: Path, item: Mapping[str, Any]) -> Drawn:
    """One finding of `check --format json`, its path resolved and named relative to `root`."""
    start, end = item["range"]["start"], item["range"]["end"]
    name = Path(str(item["path"])).resolve().relative_to(root).as_posix()
    return Drawn(name, start["line"], start["character"], end["line"], end["character"],
                 str(item["code"]), str(item["message"]))


def drawn_finding(name: str, finding: Finding) -> Drawn:
    """One finding of a format's own analysis of the file `name`."""
    span = finding.span
    return Drawn(name, span.start.line, span.start.character, span.end.line,
                 span.end.character, finding.code, finding.message)

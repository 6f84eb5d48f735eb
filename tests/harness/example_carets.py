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
from dataclasses import dataclass

from evalyaml.core.codes import CODE_PATTERN

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

"""Multi-file fixtures: a whole workspace in one file, with every expected finding written under
the text it is about, in any syntax (YAML, JSON, JSONL, Markdown).

A fixture is a sequence of files, each introduced by a `//-` line naming its path (relative to
the workspace root, so folders such as `rubrics/` count) and, optionally, the kind the file must
be read as (`kind.value`: `dataset`, `rubric`, `Padosoft dataset`...; `none`: no format claims
it). A single-file fixture is one `//-` file::

    #! today: 2026-11-21                 optional headers, before the first file: the injected
    #! strict                            date (this is the default), strict mode, the judge
    #! freshness_days: 30                freshness limit (default 90)
    //- eval/sets/smoke.json kind: Padosoft eval set
    {"schema_version": "eval-harness.eval-set.v1", "name": "smoke",
     "datasets": ["rag.factuallity"]}
    //~           ^^^^^^^^^^^^^^^^^ EY301 no Padosoft dataset with name 'rag.factuallity' ...
    //- eval/golden/factuality.yml
    schema_version: eval-harness.dataset.v1
    ...

**Annotation lines** start with `//` and are *stripped* before the files are written, so JSON
and JSONL (which have no comments) are annotated exactly like YAML, and line numbers are those of
the written file:

- `//~` carets: the carets' columns (code points, counted in the annotation line, whose `//~`
  prefix takes columns 0-2) are the finding's range on the nearest kept line above; what follows
  the code is the exact message.
- `//@ [LINE:]COL..[LINE:]COL CODE message`: an explicit range, for ranges carets cannot draw
  (columns 0-2, zero width, several lines); LINE is an offset from that kept line.

Because annotations are stripped, they may sit anywhere, inside a YAML block scalar too, and a
message that names a line ("already used on line 14") names a line of the written file.

**The cursor and editor expectations.** `$0` in a file's text marks the cursor (it is removed
before the file is written; one per fixture). `//=` lines, anywhere, say what the editor
features answer there, through the pure `ide` layer on the indexed workspace:

- `//= definition: eval/golden/faq.yml 4:6-4:24` (0-based, code points), or `//= definition:
  none`;
- `//= references: prompts.txt 0:0-0:0, promptfooconfig.yaml 2:4-2:22` every place that names
  what the cursor is about (declaration left out), in the order answered, or `none`;
- `//= hover: **refund-window**` the first line of the hover's Markdown, or `//= hover: none`;
  `//= hover includes: Answer Hi` a whole line the hover's Markdown must hold (one per line);
- `//= completion: input, expected, tags` every label offered, in the order offered (`none`
  for no item), or `//= completion includes: contains, icontains` labels that must be among
  them (for long lists).

Every file is written into a temporary folder and the folder is indexed by a real `Workspace`,
so cross-file findings (EY301 unknown name, EY305 duplicate definition...) are data too. A file
must have exactly its annotated findings, local and cross-file, and none other; a file no format
claims has none. Each fixture also runs with CRLF line breaks and with a byte-order mark on every
file (the same findings), and in strict mode (CONTRACT findings become errors, nothing else
changes): see `tests/harness/test_workspace_fixtures.py`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from evalyaml.core.codes import CODE_PATTERN

_FILE = re.compile(r"^//-\s+(?P<path>\S+)(?:\s+kind:\s*(?P<kind>\S.*?))?\s*$")
_HEADER = re.compile(r"^#!\s*(?P<key>[a-z_]+)\s*(?::\s*(?P<value>.*?))?\s*$")
_CARET = re.compile(r"^(?P<lead>//~\s*)(?P<carets>\^+)\s+"
                    rf"(?P<code>{CODE_PATTERN.pattern})\s+(?P<message>.*?)\s*$")
_END = r"(?:(?P<{0}line>[+-]?\d+):)?(?P<{0}col>\d+)"
_EXPLICIT = re.compile(r"^//@\s+" + _END.format("s") + r"\.\." + _END.format("e")
                       + rf"\s+(?P<code>{CODE_PATTERN.pattern})\s+(?P<message>.*?)\s*$")
_ANNOTATION = re.compile(r"^//[~@]")
_EXPECT = re.compile(r"^//=\s*(?P<feature>definition|references|hover(?: includes)?"
                     r"|completion(?: includes)?)\s*:\s*(?P<answer>.*?)\s*$")
CURSOR = "$0"
DEFAULT_TODAY = date(2026, 11, 21)


class FixtureError(ValueError):
    """The fixture itself is malformed (a mistake in the test data, not in evalyaml)."""


@dataclass(frozen=True, slots=True, order=True)
class Expected:
    path: str
    start: tuple[int, int]
    end: tuple[int, int]
    code: str
    message: str

    def render(self) -> str:
        return (f"{self.path}:{self.start[0]}:{self.start[1]}-{self.end[0]}:{self.end[1]} "
                f"{self.code} {self.message}")


@dataclass(slots=True)
class WorkspaceFixture:
    files: dict[str, str] = field(default_factory=dict)  # path -> text, annotations stripped
    kinds: dict[str, str] = field(default_factory=dict)  # path -> the kind it must be read as
    expected: list[Expected] = field(default_factory=list)
    today: date = DEFAULT_TODAY
    strict: bool = False
    freshness_days: int = 90
    cursor: tuple[str, int, int] | None = None  # path, line, code-point column
    ide: list[tuple[str, str]] = field(default_factory=list)  # (feature, expected answer)


def parse_workspace_fixture(text: str) -> WorkspaceFixture:
    fixture = WorkspaceFixture()
    lines = text.split("\n")
    path: str | None = None
    kept: list[str] = []
    headers: set[str] = set()

    def close() -> None:
        if path is not None:
            fixture.files[path] = "\n".join(kept)

    for number, raw in enumerate(lines, start=1):
        line = raw
        file_match = _FILE.match(line)
        if file_match:
            close()
            path, kept = file_match.group("path"), []
            if path in fixture.files:
                raise FixtureError(f"line {number}: file {path} given twice")
            if file_match.group("kind"):
                fixture.kinds[path] = file_match.group("kind")
            continue
        if path is None:
            header, expect = _HEADER.match(line), _EXPECT.match(line)
            if expect:
                fixture.ide.append((expect.group("feature"), expect.group("answer")))
            elif header:
                _apply_header(fixture, header.group("key"), header.group("value"), headers)
            elif line.strip():
                raise FixtureError(f"line {number}: text before the first '//-' file line")
            continue
        expect = _EXPECT.match(line)
        if expect:
            fixture.ide.append((expect.group("feature"), expect.group("answer")))
            continue
        if CURSOR in line and not _ANNOTATION.match(line):
            if fixture.cursor is not None:
                raise FixtureError(f"line {number}: a second cursor")
            fixture.cursor = (path, len(kept), line.index(CURSOR))
            line = line.replace(CURSOR, "", 1)
        caret, explicit = _CARET.match(line), _EXPLICIT.match(line)
        target = len(kept) - 1
        if (caret or explicit) and target < 0:
            raise FixtureError(f"line {number}: an annotation needs a line above it")
        if caret:
            start = len(caret.group("lead"))
            end = start + len(caret.group("carets"))
            if end > len(kept[target]):
                raise FixtureError(f"line {number}: carets run past the end of the line above")
            fixture.expected.append(Expected(path, (target, start), (target, end),
                                             caret.group("code"), caret.group("message")))
        elif explicit:
            start_pos = (target + int(explicit.group("sline") or 0), int(explicit.group("scol")))
            end_pos = (target + int(explicit.group("eline") or 0), int(explicit.group("ecol")))
            if end_pos < start_pos:
                raise FixtureError(f"line {number}: the range ends before it starts")
            fixture.expected.append(Expected(path, start_pos, end_pos, explicit.group("code"),
                                             explicit.group("message")))
        elif _ANNOTATION.match(line):
            raise FixtureError(f"line {number}: a malformed annotation: {line!r}")
        else:
            kept.append(line)
    close()
    if not fixture.files:
        raise FixtureError("a workspace fixture needs at least one '//- path' file")
    if fixture.ide and fixture.cursor is None:
        raise FixtureError("'//=' expectations need a '$0' cursor")
    fixture.expected.sort()
    return fixture


def draw(fixture: WorkspaceFixture, actual: list[Expected]) -> str:
    """The fixture's text with `actual` as its annotations (for a failure message, and to draft
    a new fixture: write the files, run it, paste what is right)."""
    out = [*(["#! strict"] if fixture.strict else []),
           *([f"#! today: {fixture.today.isoformat()}"] if fixture.today != DEFAULT_TODAY else []),
           *([f"#! freshness_days: {fixture.freshness_days}"]
             if fixture.freshness_days != 90 else [])]
    for path, text in fixture.files.items():
        kind = fixture.kinds.get(path)
        out.append(f"//- {path}" + (f" kind: {kind}" if kind else ""))
        lines = text.split("\n")
        below: dict[int, list[str]] = {}
        for item in sorted(e for e in actual if e.path == path):
            (start_line, start_col), (end_line, end_col) = item.start, item.end
            target = min(end_line, len(lines) - 1)
            if start_line == end_line == target and end_col > start_col >= 3:
                note = "//~" + " " * (start_col - 3) + "^" * (end_col - start_col)
            else:
                ends = [(f"{line - target:+d}:" if line != target else "") + str(col)
                        for line, col in (item.start, item.end)]
                note = f"//@ {ends[0]}..{ends[1]}"
            below.setdefault(target, []).append(f"{note} {item.code} {item.message}")
        for number, line in enumerate(lines):
            out.extend([line, *below.get(number, [])])
    return "\n".join(out)


def _apply_header(fixture: WorkspaceFixture, key: str, value: str | None,
                  seen: set[str]) -> None:
    if key in seen:
        raise FixtureError(f"header '{key}' given twice")
    seen.add(key)
    if key == "today" and value:
        fixture.today = date.fromisoformat(value)
    elif key == "strict":
        fixture.strict = True
    elif key == "freshness_days" and value:
        fixture.freshness_days = int(value)
    else:
        raise FixtureError(f"unknown header '{key}'")

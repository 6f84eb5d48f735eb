"""Single-line breakages of real files, and what recovery must keep of their findings.

Shared by the differential test (`test_recovery_differential.py`, which asserts) and
`bench/recovery_bench.py` (which prints the shares). A breakage rewrites one line so that it no
longer parses (an unquoted ': ' in a value, an unclosed flow collection or quote, a tab
indent); a breakage that still parses is not counted. Then, with the workspace's own findings of
the unbroken and the broken file compared by (code, range):

- *nothing new*: no finding may appear away from the broken line that the unbroken file lacks
  (syntax errors excepted: where the parser notices a broken line is as before);
- *kept*: findings outside the broken line's own mapping about one key or value
  (`recover.LOCAL_CODES`) must all still be reported for block YAML breakages (an unquoted
  ': ', an unclosed flow collection or quote). Other findings there may be withheld on purpose
  (a "missing key" whose key may sit on the broken line); findings under the broken line go
  with it; a tab indent blanks more (how deep it was meant is unknown).

`share` counts, over every finding of the unbroken file away from the broken line, how many
survive; `outside_share` those outside its mapping; `sibling_share` those in it.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from evalyaml.analysis.findings import Finding
from evalyaml.analysis.recover import LOCAL_CODES
from evalyaml.workspace.index import Workspace

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
SYNTAX = frozenset({"EY101", "EY103", "EY106", "EY110"})

Key = tuple[str, int, int, int, int]
_LINE_NAMED = re.compile(r"\bline (\d+)\b")
"""A finding about another line ("first at line 3"): as if it were related to it."""


def key(finding: Finding) -> Key:
    span = finding.span
    return (finding.code, span.start.line, span.start.character, span.end.line,
            span.end.character)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _content(line: str) -> int:
    """Where a line's content starts after its indentation and any `- ` indicators."""
    at = _indent(line)
    while line.startswith("- ", at) or line[at:] == "-":
        at += 1
        while at < len(line) and line[at] == " ":
            at += 1
    return at


def block_of(lines: list[str], index: int) -> range:
    """The broken line and the lines indented under it."""
    column = _content(lines[index])
    last = index
    for j in range(index + 1, len(lines)):
        stripped = lines[j].strip()
        if not stripped or stripped.startswith("#"):
            continue
        if _indent(lines[j]) <= column:
            break
        last = j
    return range(index, last + 1)


def mapping_of(lines: list[str], index: int) -> range:
    """The lines of the mapping (or list item) the broken line is a key of: its rules may read
    the broken key (a check's `kind`, a judge's `score_type`), so what they say may change."""
    column = _content(lines[index])
    first = index
    for j in range(index - 1, -1, -1):
        stripped = lines[j].strip()
        if not stripped or stripped.startswith("#"):
            continue
        if _indent(lines[j]) < column:
            if _content(lines[j]) == column:
                first = j  # `- key:` opening the item
            break
        first = j
    last = index
    for j in range(index + 1, len(lines)):
        stripped = lines[j].strip()
        if not stripped or stripped.startswith("#"):
            continue
        if _indent(lines[j]) < column:
            break
        last = j
    return range(first, last + 1)


def owners_of(lines: list[str], index: int) -> set[int]:
    """The lines that own the broken line's mapping: each shallower line above it that opens a
    block around it (`tests:`, `- id: t1` of an enclosing item), and the first line (the
    document's own findings). A "missing key" or "list too short" there may be about what the
    broken line held, so recovery withholds those (only findings about one key or value as
    written stay)."""
    column = _indent(lines[index])
    found = {0}
    for j in range(index - 1, -1, -1):
        stripped = lines[j].strip()
        if not stripped or stripped.startswith("#"):
            continue
        if _indent(lines[j]) < column:
            found.add(j)
            column = _indent(lines[j])
            if column == 0:
                break
    return found


def breakings(line: str) -> Iterator[tuple[str, str]]:
    """(name, broken line) for each way this YAML line can be broken."""
    stripped = line.strip()
    if not stripped or stripped.startswith("#") or stripped in ("---", "..."):
        return
    body = line.rstrip()
    head, sep, value = body.partition(": ")
    if sep and value and not value.startswith(("|", ">", "&", "*", "!")):
        yield "colon", f"{head}: {value.strip()}: oops: yes"
        yield "flow", f"{head}: [{value.strip()}, more"
        yield "quote", f'{head}: "{value.strip()}'
    elif body.endswith(":"):
        yield "colon", f"{body} oops: yes"
        yield "flow", f"{body} {{ oops: 1"
    elif stripped.startswith("- "):
        yield "colon", f"{body} oops: yes: no"
    yield "tab", "\t" + line.lstrip(" ")


@dataclass
class Tally:
    """Counts over many breakages of many files."""

    breakages: int = 0
    kept: int = 0  # findings outside the broken line's mapping that survived
    outside: int = 0  # findings outside the broken line's mapping (owners included)
    owner_kept: int = 0  # of those, on a line that owns the broken line's mapping
    owner: int = 0
    sibling_kept: int = 0  # findings elsewhere in that mapping (not under the line) kept
    sibling: int = 0
    near_kept: int = 0  # findings on lines under the broken line (not on it) that survived
    near: int = 0
    lost: list[str] = field(default_factory=list)  # findings outside the mapping that vanished
    withheld: list[str] = field(default_factory=list)  # in the mapping or under the line
    lost_local: list[str] = field(default_factory=list)  # lost, and about one key or value
    new: list[str] = field(default_factory=list)  # findings that appeared away from the line

    @property
    def share(self) -> float:
        """Every finding away from the broken line that survives."""
        total = self.outside + self.sibling + self.near
        return 1.0 if not total else (self.kept + self.sibling_kept + self.near_kept) / total

    @property
    def outside_share(self) -> float:
        """Findings outside the broken line's own mapping that survive (the 100% rule)."""
        return 1.0 if not self.outside else self.kept / self.outside

    @property
    def elsewhere_share(self) -> float:
        """Findings neither on, under, beside nor above the broken line (other cases, other
        checks, other keys of the document): the 100% target for block YAML."""
        whole = self.outside - self.owner
        return 1.0 if not whole else (self.kept - self.owner_kept) / whole

    @property
    def sibling_share(self) -> float:
        return 1.0 if not self.sibling else self.sibling_kept / self.sibling


def example_files() -> list[Path]:
    out = []
    for path in sorted(EXAMPLES.rglob("*")):
        if path.suffix in (".yaml", ".yml") and path.is_file():
            out.append(path)
    return out


def measure(files: list[Path], *, samples: int, seed: int, tally: Tally | None = None,
            kinds: frozenset[str] | None = None) -> Tally:
    """Break `samples` random lines of each file (every way in `kinds`, default all) and
    compare; seeded."""
    tally = tally or Tally()
    rng = random.Random(seed)
    workspace = Workspace([EXAMPLES])
    workspace.index_all()
    for path in files:
        text = path.read_text(encoding="utf-8")
        workspace.set_text(path, text)
        base = workspace.findings(path)
        if any(f.code in SYNTAX for f in base):
            workspace.close(path)
            continue  # a file that is broken already (a mistakes example)
        lines = text.split("\n")
        candidates = [i for i, line in enumerate(lines) if any(breakings(line))]
        for index in sorted(rng.sample(candidates, min(samples, len(candidates)))):
            for name, broken_line in breakings(lines[index]):
                if kinds is not None and name not in kinds:
                    continue
                broken = "\n".join([*lines[:index], broken_line, *lines[index + 1:]])
                workspace.set_text(path, broken)
                found = workspace.findings(path)
                if not any(f.code in SYNTAX for f in found):
                    continue  # it still parses: not a breakage
                tally.breakages += 1
                _compare(tally, f"{path.relative_to(EXAMPLES)}:{index + 1} {name}", base,
                         {key(f) for f in found}, block=block_of(lines, index),
                         mapping=mapping_of(lines, index), index=index,
                         owners=owners_of(lines, index))
        workspace.close(path)
    return tally


def _compare(tally: Tally, where: str, base: list[Finding], found: set[Key], *, block: range,
             mapping: range, index: int, owners: set[int]) -> None:
    base_keys = {key(f) for f in base}
    for finding in sorted(base, key=key):
        at = key(finding)
        lines = range(at[1], at[3] + 1)
        if index in lines:
            continue  # on the broken line itself: it may well go
        if any(line in block for line in lines):
            tally.near += 1
            tally.near_kept += at in found
            if at not in found:
                tally.withheld.append(f"{where}: under the line {at}")
            continue
        # In the broken line's mapping, or about the broken line (the first of two duplicates).
        related = [r.span.start.line for r in finding.related if r.path is None]
        related += [int(n) - 1 for n in _LINE_NAMED.findall(finding.message)]
        if any(line in mapping for line in lines) or any(line in block for line in related):
            tally.sibling += 1
            tally.sibling_kept += at in found
            if at not in found:
                tally.withheld.append(f"{where}: in its mapping {at}")
            continue
        tally.outside += 1
        if at[1] in owners:
            tally.owner += 1
            tally.owner_kept += at in found
        if at in found:
            tally.kept += 1
        else:
            tally.lost.append(f"{where}: lost {at}")
            if at[0] in LOCAL_CODES:
                tally.lost_local.append(f"{where}: lost {at}")
    for at in sorted(found - base_keys):
        if at[1] != index and at[0] not in SYNTAX:  # where the parser noticed: as before
            tally.new.append(f"{where}: new {at}")

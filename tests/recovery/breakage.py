"""Single-line breakages of real files, and what recovery must keep of their findings.

Shared by the differential test (`test_recovery_differential.py`, which asserts) and
`bench/recovery_bench.py` (which prints the shares). A breakage rewrites one line so that it no
longer parses (an unquoted ': ' in a value, an unclosed flow collection or quote, a tab
indent); a breakage that still parses is not counted. Then, with the workspace's own findings of
the unbroken and the broken file compared by (code, range):

- *nothing new*: no finding may appear away from the broken line that the unbroken file lacks
  (syntax errors excepted: where the parser notices a broken line is as before);
- *kept*: findings outside the broken line's own mapping about one key or value
  (codes whose `Recovery` is `Scope.LOCAL`) must all still be reported for block YAML
  breakages (an unquoted ': ', an unclosed flow collection or quote). Other findings there
  may be withheld on purpose (a "missing key" whose key may sit on the broken line); findings
  under the broken line go with it; a tab indent blanks more (how deep it was meant is unknown);
- *missing keys*: when the broken line starts with a plain key, a "missing key" finding of the
  unbroken file naming only other keys (`Recovery.missing`) is still reported beside
  and above it (`lost_missing`), except on the first line after it (a mapping's findings move
  there when the broken line was its first key).

`share` counts, over every finding of the unbroken file away from the broken line, how many
survive; `outside_share` those outside its mapping; `sibling_share` those in it.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from evalyaml.core.codes import CODES, Scope
from evalyaml.core.findings import Finding
from evalyaml.core.suggest import rank
from evalyaml.workspace.index import Workspace

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
SYNTAX = frozenset({"EY101", "EY103", "EY106", "EY110"})
LOCAL_CODES = frozenset(c for c, code in CODES.items() if code.recovery.scope is Scope.LOCAL)

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


_JSON_MEMBER = re.compile(r'^(\s*)"([^"\\]*)"(\s*:\s*)(.*?)(,?)\s*$')


def json_breakings(line: str) -> Iterator[tuple[str, str]]:
    """(name, broken line) for a line of a pretty-printed JSON document: a bare word as a
    value, a key's closing quote lost, the colon lost, the trailing comma lost (the parser
    notices on the next line)."""
    found = _JSON_MEMBER.match(line)
    if found is not None:
        indent, name, colon, value, comma = found.groups()
        if value and value[0] not in "{[":
            yield "json-value", f"{indent}\"{name}\"{colon}oops{comma}"
        yield "json-quote", f"{indent}\"{name}{colon}{value}{comma}"
        yield "json-colon", f"{indent}\"{name}\" {value}{comma}"
    elif line.strip().startswith(('"', "-", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9",
                                  "true", "false", "null")):
        yield "json-value", line[: len(line) - len(line.lstrip())] + "oops" + (
            "," if line.rstrip().endswith(",") else "")
    if line.rstrip().endswith(",") and line.rstrip()[-2:-1] in set('"el0123456789'):
        yield "json-comma", line.rstrip()[:-1]


def jsonl_breakings(line: str) -> Iterator[tuple[str, str]]:
    """(name, broken line) for one JSONL row: cut before its closing brace, its first key's
    opening quote lost."""
    body = line.rstrip()
    if body.startswith('{"') and body.endswith("}"):
        yield "row-cut", body[:-1]
        yield "row-quote", "{" + body[2:]


def breakings_for(path: Path) -> Callable[[str], Iterator[tuple[str, str]]]:
    suffix = path.suffix.lower()
    return json_breakings if suffix == ".json" else (
        jsonl_breakings if suffix == ".jsonl" else breakings)


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
    lost_elsewhere: list[str] = field(default_factory=list)  # lost, not on an owning line
    new: list[str] = field(default_factory=list)  # findings that appeared away from the line
    row_not_one: list[str] = field(default_factory=list)  # a broken JSONL row with 0 or 2+
    syntax_away: list[str] = field(default_factory=list)  # 2+ syntax errors off the line
    lost_missing: list[str] = field(default_factory=list)  # lost, a key other than the broken

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


YAML_KINDS = frozenset({"colon", "flow", "quote", "tab"})
BLOCK_KINDS = frozenset({"colon", "flow", "quote"})
JSON_KINDS = frozenset({"json-value", "json-quote", "json-colon", "json-comma"})
JSONL_KINDS = frozenset({"row-cut", "row-quote"})


def example_files(suffixes: tuple[str, ...] = (".yaml", ".yml", ".json", ".jsonl")
                  ) -> list[Path]:
    out = []
    for path in sorted(EXAMPLES.rglob("*")):
        if path.suffix.lower() in suffixes and path.is_file():
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
        base_keys = {key(f) for f in base}
        if any(f.code in SYNTAX for f in base):
            workspace.close(path)
            continue  # a file that is broken already (a mistakes example)
        lines = text.split("\n")
        ways = breakings_for(path)
        rows = path.suffix.lower() == ".jsonl"
        candidates = [i for i, line in enumerate(lines) if any(ways(line))]
        for index in sorted(rng.sample(candidates, min(samples, len(candidates)))):
            for name, broken_line in ways(lines[index]):
                if kinds is not None and name not in kinds:
                    continue
                broken = "\n".join([*lines[:index], broken_line, *lines[index + 1:]])
                workspace.set_text(path, broken)
                found = workspace.findings(path)
                if not any(f.code in SYNTAX for f in found):
                    continue  # it still parses: not a breakage
                tally.breakages += 1
                where = f"{path.relative_to(EXAMPLES)}:{index + 1} {name}"
                touched = {index}
                if name == "json-comma":  # the parser notices at the next member
                    touched.add(next((j for j in range(index + 1, len(lines))
                                      if lines[j].strip()), index))
                away = [f for f in found if f.code in SYNTAX and f.span.start.line not in touched]
                if len(away) > 1:  # the first error may land away (a quote open to the end)
                    tally.syntax_away.append(f"{where}: {[key(f) for f in away]}")
                if rows:  # a row stands alone: one finding on it, nothing owns it
                    on_row = [f for f in found if f.span.start.line == index
                              and key(f) not in base_keys]
                    if len(on_row) != 1:
                        tally.row_not_one.append(f"{where}: {[key(f) for f in on_row]}")
                    here = range(index, index + 1)
                    _compare(tally, where, base, {key(f) for f in found}, block=here,
                             mapping=here, touched=touched, owners=set())
                    continue
                block = block_of(lines, index)
                _compare(tally, where, base, {key(f) for f in found},
                         block=block, mapping=mapping_of(lines, index),
                         touched=touched, owners=owners_of(lines, index),
                         broken_key=_block_key(lines[index]),
                         after=next((j for j in range(block.stop, len(lines)) if
                                     lines[j].strip() and not lines[j].strip().startswith("#")),
                                    None))
        workspace.close(path)
    return tally


_BLOCK_KEY = re.compile(r"([A-Za-z_][\w.-]*)[ \t]*:(?:[ \t]|$)")


def _block_key(line: str) -> str | None:
    """The plain key a YAML line starts with (after its indentation and `- `), if any."""
    found = _BLOCK_KEY.match(line, _content(line)) if not line.startswith("\t") else None
    return found.group(1) if found else None


def _names_another_key(finding: Finding, broken_key: str | None) -> bool:
    """A "missing key" finding about keys none of which is, or is close to, the broken
    line's own key (or a key that would silence it): the unbroken file's finding stands."""
    recovery = CODES[finding.code].recovery
    if broken_key is None or recovery.missing is None or \
            recovery.missing.search(finding.message) is None:
        return False
    names = re.findall(r"'([^']*)'", finding.message)
    return bool(names) and not any(
        name == broken_key or rank(broken_key, [name]) or rank(name, [broken_key])
        for name in (*names, *recovery.silenced_by))


def _compare(tally: Tally, where: str, base: list[Finding], found: set[Key], *, block: range,
             mapping: range, touched: set[int], owners: set[int],
             broken_key: str | None = None, after: int | None = None) -> None:
    base_keys = {key(f) for f in base}
    for finding in sorted(base, key=key):
        at = key(finding)
        lines = range(at[1], at[3] + 1)
        if any(line in touched for line in lines):
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
                if at[1] != after and _names_another_key(finding, broken_key):
                    tally.lost_missing.append(f"{where}: lost {at} {finding.message}")
            continue
        tally.outside += 1
        if at[1] in owners:
            tally.owner += 1
            tally.owner_kept += at in found
        if at in found:
            tally.kept += 1
        else:
            tally.lost.append(f"{where}: lost {at}")
            if at[1] not in owners:
                tally.lost_elsewhere.append(f"{where}: lost {at}")
            if at[0] in LOCAL_CODES:
                tally.lost_local.append(f"{where}: lost {at}")
            if at[1] != after and _names_another_key(finding, broken_key):
                tally.lost_missing.append(f"{where}: lost {at} {finding.message}")
    for at in sorted(found - base_keys):
        if at[1] not in touched and at[0] not in SYNTAX:  # where the parser noticed: as before
            tally.new.append(f"{where}: new {at}")

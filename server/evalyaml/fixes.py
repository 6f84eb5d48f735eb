"""`evalyaml check --fix / --unsafe-fixes / --diff`: the editor's quick fixes, from the CLI.

The fixes are the findings' own (`Finding.fixes`), so the CLI writes exactly what the editor's
quick fix would. Rounds run in memory: each round's edits go into the workspace as editor
buffers (`Workspace.set_text`, which wins over the disk), and the files are checked again, so
a fix that changes what another fix computes (a checksum over a file whose rows were just
counted, a digest over a fixed file) is right after one run. Only at the end is anything
written, and only with `--fix`: `--diff` prints the change and writes nothing.

Safe fixes write a value computed from the files (checksums, digests, row counts, sample
hashes), add `file://`, quote a value, remove a JSON trailing comma, pin to what a reference
resolves to today, replace a deprecated placeholder with its exact successor, or remove an
unused suppression. Every other
fix (did-you-mean renames, "change to" a near value) changes what the file means: unsafe.
"""

from __future__ import annotations

from pathlib import Path

from evalyaml.checker import CheckResult
from evalyaml.core.findings import Finding, Fix, FixSafety, TextEdit
from evalyaml.syntax.decode import decode
from evalyaml.syntax.lazyre import lazy_re
from evalyaml.syntax.record import field, mutable_record
from evalyaml.syntax.text import LineIndex
from evalyaml.workspace.index import Workspace

MAX_ROUNDS = 10
BOM = b"\xef\xbb\xbf"
_SAFE_TITLE = lazy_re(r"^(?:Write |Quote |Add 'file://'$|Remove unused suppression$|"
                         r"Remove EY.* from the suppression$|Remove the trailing comma$|"
                         r"Replace with .*…$|Pin to @)")


def is_safe(finding: Finding, fix: Fix) -> bool:
    """What the rule said of its fix (`FixSafety`), else what the title says it does."""
    if fix.safety is not FixSafety.BY_TITLE:
        return fix.safety is FixSafety.SAFE
    return bool(_SAFE_TITLE.match(fix.title))


def chosen_fix(finding: Finding, *, unsafe: bool) -> Fix | None:
    """The fix `--fix` applies for a finding: its preferred (else only) fix, if allowed; never
    one its rule keeps for a person (`FixSafety.NEVER`), even with `--unsafe-fixes`."""
    if any(f.safety is FixSafety.NEVER for f in finding.fixes):
        return None
    fixes = [f for f in finding.fixes if f.preferred] or \
        (list(finding.fixes) if len(finding.fixes) == 1 else [])
    for fix in fixes:
        if unsafe or is_safe(finding, fix):
            return fix
    return None


@mutable_record
class Fixed:
    """The text of each changed file before and after, and how many fixes went in."""

    before: dict[Path, str] = field(default_factory=dict)
    after: dict[Path, str] = field(default_factory=dict)
    bom: set[Path] = field(default_factory=set)
    applied: int = 0
    rounds: int = 0
    refused: list[Path] = field(default_factory=list)  # outside every workspace root

    def diff(self, display: dict[Path, str]) -> str:
        import difflib  # with --diff only

        out: list[str] = []
        for path in sorted(self.after):
            name = display.get(path, str(path))
            out.extend(difflib.unified_diff(
                self.before[path].splitlines(keepends=True),
                self.after[path].splitlines(keepends=True), f"a/{name}", f"b/{name}"))
        return "".join(line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at "
                       "end of file\n" for line in out)

    def write(self) -> None:
        for path, text in self.after.items():
            data = text.encode("utf-8")
            path.write_bytes(BOM + data if path in self.bom else data)


def _apply(text: str, edits: list[TextEdit]) -> tuple[str, int]:
    """`edits` applied from the end; an edit overlapping one already taken waits for the next
    round (its file is checked again). Returns the text and how many edits went in."""
    lines = LineIndex(text)
    spans = sorted({(lines.offset(e.span.start), lines.offset(e.span.end), e.new_text)
                    for e in edits}, reverse=True)
    taken = 0
    limit = len(text) + 1
    for start, end, new in spans:
        if end > limit:
            continue
        text = text[:start] + new + text[end:]
        limit = start
        taken += 1
    return text, taken


def _inside(path: Path, workspace: Workspace) -> bool:
    return any(root.path == path or root.path in path.parents for root in workspace.roots)


def fix_workspaces(result: CheckResult, *, unsafe: bool) -> Fixed:
    """Apply the fixes of every reported file of the checked workspaces until none is left
    (or MAX_ROUNDS), in memory."""
    fixed = Fixed()
    reported = {report.path for report in result.reports}
    for workspace in result.workspaces:
        for _ in range(MAX_ROUNDS):
            progress = False
            for path in workspace.included_files():
                if path not in reported:
                    continue
                edits = [e for f in workspace.findings(path)
                         if (fix := chosen_fix(f, unsafe=unsafe)) is not None for e in fix.edits]
                if not edits:
                    continue
                if not _inside(path, workspace):
                    fixed.refused.append(path)
                    continue
                if path not in fixed.before:
                    data = path.read_bytes()
                    text, problem = decode(data)
                    if problem is not None:
                        continue
                    fixed.before[path] = text
                    if data.startswith(BOM):
                        fixed.bom.add(path)
                current = fixed.after.get(path, fixed.before[path])
                new, taken = _apply(current, edits)
                if new != current:
                    fixed.after[path] = new
                    fixed.applied += taken
                    workspace.set_text(path, new)
                    progress = True
            fixed.rounds += 1
            if not progress:
                break
    for path in [p for p, text in fixed.after.items() if text == fixed.before[p]]:
        del fixed.after[path]
    return fixed

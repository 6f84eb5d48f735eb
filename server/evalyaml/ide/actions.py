"""Quick fixes: each finding's own fixes (did-you-mean, pin, bump, quote), plus two the core
cannot know how to write: pinning to the exact resolved version and inserting missing keys.

Every action is one fix (its edits applied as one undoable step), in core spans; the LSP
handler makes each a WorkspaceEdit (`lsp/features/actions.py`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from evalyaml.core.findings import Finding, Fix, TextEdit
from evalyaml.ide.context import shape
from evalyaml.ide.ignore import ignore_fix
from evalyaml.syntax.text import LineIndex, Position, Span


def _overlaps(a: Span, b: Span) -> bool:
    return not (a.end < b.start or b.end < a.start)


def extra_fixes(finding: Finding, lines: LineIndex) -> list[Fix]:
    fixes: list[Fix] = []
    if finding.code == "EY303":
        resolved = finding.data.get("resolved")
        pin = finding.data.get("pin")
        edits = [e for f in finding.fixes for e in f.edits]
        if resolved and resolved != pin and len(edits) == 1 and edits[0].new_text.startswith("@"):
            edit = edits[0]
            fixes.append(Fix(f"Pin to exact version @{resolved}",
                             (TextEdit(edit.span, f"@{resolved}"),)))
    elif finding.data.get("insert_key"):  # a YAML mapping misses a required key
        inserted = insert_key(lines, finding.span, finding.data["insert_key"])
        if inserted is not None:
            fixes.append(Fix(f"Insert missing key '{finding.data['insert_key']}'",
                             (inserted,), preferred=True))
    return fixes


def insert_key(lines: LineIndex, owner: Span, key: str) -> TextEdit | None:
    """`key: ` as the last key of the mapping reported at `owner` (a key that owns the mapping,
    a list item's first line, or the document's first line)."""
    start_line = owner.start.line
    info = shape(lines.line_text(start_line))
    if info is None:
        return None
    eol = "\r\n" if "\r\n" in lines.text else "\n"
    owned_by_key = info.key is not None and owner.start.character == info.key_col and \
        owner.end.line == start_line and owner.end.character <= info.colon_col
    if owned_by_key:  # `key:` owning a nested mapping
        floor = info.key_col
        key_col = _child_indent(lines, start_line, info.key_col)
    elif info.dash_cols:  # a list item's mapping, starting on this line
        key_col, floor = info.key_col, info.dash_cols[-1]
    else:  # the root mapping (reported on its first line)
        key_col, floor = info.key_col, info.key_col - 1
    last = start_line
    n = start_line + 1
    while n < lines.line_count:
        text = lines.line_text(n)
        if text.strip() and not text.lstrip().startswith("#"):
            indent = len(text) - len(text.lstrip(" "))
            if indent <= floor:
                break
            last = n
        n += 1
    end = lines.line_end(last)
    position = lines.position(end)
    return TextEdit(Span(position, position), f"{eol}{' ' * key_col}{key}: ")


def _child_indent(lines: LineIndex, line: int, col: int) -> int:
    n = line + 1
    while n < lines.line_count:
        text = lines.line_text(n)
        if text.strip() and not text.lstrip().startswith("#"):
            indent = len(text) - len(text.lstrip(" "))
            return indent if indent > col else col + 2
        n += 1
    return col + 2


class ActionKind(Enum):
    """What an action is (mapped to the protocol's kinds in `lsp/convert.py`)."""

    QUICK_FIX = "quickfix"


@dataclass(frozen=True, slots=True)
class CodeAction:
    """One fix, applied as one undoable step, and the findings (their indices in the list
    asked about) it fixes."""

    fix: Fix
    findings: tuple[int, ...]
    kind: ActionKind = ActionKind.QUICK_FIX


def code_actions(findings: list[Finding], wanted: Span, lines: LineIndex,
                 path: str | None = None) -> list[CodeAction]:
    """The fixes of every finding that overlaps `wanted`, then one "Insert all missing keys"
    for each mapping that misses more than one key, then "Ignore EYnnn on this line" for each
    finding when the file at `path` can hold comments."""
    actions: list[CodeAction] = []
    missing: list[tuple[int, Finding, TextEdit]] = []
    for index, finding in enumerate(findings):
        if not _overlaps(finding.span, wanted):
            continue
        for fix in (*finding.fixes, *extra_fixes(finding, lines)):
            actions.append(CodeAction(fix, (index,)))
            if finding.data.get("insert_key"):
                missing.append((index, finding, fix.edits[0]))
    by_owner: dict[tuple[Position, Position], list[tuple[int, Finding, TextEdit]]] = {}
    for item in missing:
        by_owner.setdefault((item[1].span.start, item[1].span.end), []).append(item)
    for group in by_owner.values():
        if len(group) < 2:
            continue
        first = group[0][2]
        text = "".join(edit.new_text for _, _, edit in group)
        actions.append(CodeAction(Fix("Insert all missing keys", (TextEdit(first.span, text),)),
                                  tuple(index for index, _, _ in group)))
    if path is not None:
        for index, finding in enumerate(findings):
            ignore = ignore_fix(finding, lines, path) if _overlaps(finding.span, wanted) else None
            if ignore is not None:
                actions.append(CodeAction(ignore, (index,)))
    return actions

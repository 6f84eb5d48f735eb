"""A file or folder moved in the editor: the edits that keep every path written to it pointing
at it (the LSP's `workspace/willRenameFiles`).

Every `FileRef` in the index that leads into what moves (a prompt file a promptfoo config names,
a tests file, a script, a config a `package.json` script runs) is rewritten relative to the
folder it was written from. That folder is not kept with the reference (a format's tool knows
it: a config's own folder, a tests file's config), so it is found again: the holder's folder or
one above it from which the written path, as a whole word, leads to the old place. A path that
cannot be found written so (escaped, templated, built from parts) is left alone rather than
guessed at.
"""

from __future__ import annotations

import os
import re
from pathlib import Path, PurePosixPath

from evalyaml.syntax.text import LineIndex, Span
from evalyaml.workspace.index import Workspace, normalize

_PATH_CHAR = re.compile(r"[\w.\-/\\]")


def file_rename_edits(workspace: Workspace, moves: list[tuple[Path, Path]]
                      ) -> dict[Path, list[tuple[Span, str]]]:
    """For each (old, new) path moved, every written path leading to old (or into it, for a
    folder) rewritten to lead to new, by holder file."""
    pairs = [(normalize(old), normalize(new)) for old, new in moves]
    edits: dict[Path, list[tuple[Span, str]]] = {}
    for holder in workspace.eval_files():
        analysis = workspace.analysis(holder)
        if analysis is None or not analysis.file_refs:
            continue
        text: str | None = None
        for ref in analysis.file_refs:
            target = workspace.named_file(ref.candidates, holder)
            moved = _moved(target, pairs) if target is not None else None
            if target is None or moved is None:
                continue
            text = text if text is not None else _text(workspace, holder)
            if text is None:
                break
            root = workspace.root_for(holder).path
            edit = _rewrite(text, ref.span, (holder.parent, root), (target, moved))
            if edit is not None:
                edits.setdefault(holder, []).append(edit)
    return edits


def _moved(target: Path, pairs: list[tuple[Path, Path]]) -> Path | None:
    for old, new in pairs:
        if target == old:
            return new
        if old in target.parents:
            return new / target.relative_to(old)
    return None


def _text(workspace: Workspace, path: Path) -> str | None:
    """The text the holder's spans are in (an open buffer, else the file; a BOM kept, as the
    spans count it)."""
    buffer = workspace.buffer_text(path)
    if buffer is not None:
        return buffer
    try:
        return path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _rewrite(text: str, span: Span, folders: tuple[Path, Path], move: tuple[Path, Path]
             ) -> tuple[Span, str] | None:
    """The written path at `span` rewritten: `folders` are the holder's folder and its root,
    `move` the target's old and new place."""
    lines = LineIndex(text)
    start, end = lines.offset(span.start), lines.offset(span.end)
    written = text[start:end]
    base, root = folders
    target, moved = move
    while True:
        old_rel = _relative(target, base)
        at = _word_at(written, old_rel)
        if at is not None:
            new_rel = _relative(moved, base)
            return (Span(lines.position(start + at), lines.position(start + at + len(old_rel))),
                    new_rel)
        if base in (root, base.parent) or root not in base.parents:
            return None
        base = base.parent


def _relative(path: Path, base: Path) -> str:
    return PurePosixPath(*Path(os.path.relpath(path, base)).parts).as_posix()


def _word_at(written: str, name: str) -> int | None:
    """Where `name` stands in `written` as a whole path (not the tail of a longer one)."""
    at = written.find(name)
    while at >= 0:
        head = written[:at]
        head = head[:-2] if head.endswith("./") and not head.endswith("../") else head
        before = "" if head.endswith("://") or not head else head[-1]
        after = written[at + len(name)] if at + len(name) < len(written) else ""
        if not (before and _PATH_CHAR.match(before)) and not (after and _PATH_CHAR.match(after)):
            return at
        at = written.find(name, at + 1)
    return None

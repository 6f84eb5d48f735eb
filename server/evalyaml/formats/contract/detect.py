"""Which of the contract's three kinds a file is, if any: first match wins (DESIGN §2).

1. a `# yaml-language-server: $schema=...` modeline in the leading comments;
2. a root `$schema` key;
3. the folder convention (`rubrics/`, `judges/` anywhere in the path), when the root mapping
   has one of the kind's keys or none at all;
4. the shape of the root mapping.

A modeline or `$schema` naming somebody else's schema settles it too: the file is theirs and
we never lint it. Shapes are deliberately narrow, because other tools' YAML (Apastra prompts
have `id` and `template`, AgentV workspaces have `template`, app settings have `validation`)
must never be mistaken for ours.
"""

from __future__ import annotations

import re
from enum import Enum
from pathlib import PurePath

from evalyaml.core.kinds import FileKind, modeline_schema
from evalyaml.syntax.lazyre import lazy_re
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence

_OUR_SCHEMA = lazy_re(r"(?:^|[/\\])(dataset|rubric|judge)\.schema\.json(?:[?#].*)?$")
_FOLDERS = {"rubrics": FileKind.RUBRIC, "judges": FileKind.JUDGE}
_JUDGE_MARKERS = ("score_type", "level_names")
# A file in `rubrics/` or `judges/` is ours only when its root mapping holds one of the kind's
# own keys, or no key yet (a file being written): other tools keep a `rubrics/default.yaml` too
# (a promptfoo config, a generic settings file), and four EY201 errors on it helped nobody.
# `description` and `name` are left out: every tool's files have them.
_KIND_KEYS = {
    FileKind.RUBRIC: frozenset({"id", "version", "checks", "scoring"}),
    FileKind.JUDGE: frozenset({"id", "version", "template", "model", "validation",
                               "applicable_to", "level_names", "score_type"}),
}
_ROOT_KEY = lazy_re(
    r"""^(?:"([^"\n]+)"|'([^'\n]+)'|([^\s#:"'\-?\[{][^:\n]*?))[ \t]*:(?=[ \t\r\n]|$)""", re.M)
_VALIDATION_FIGURES = ("tpr", "tnr", "validated_at", "validated_against")


class NotOurs(Enum):
    """Why a file is left alone; None from `detect_kind` means we have no opinion yet."""

    FOREIGN_SCHEMA = "names another schema"


def schema_kind(reference: str) -> FileKind | NotOurs:
    match = _OUR_SCHEMA.search(reference.strip())
    return FileKind(match.group(1)) if match else NotOurs.FOREIGN_SCHEMA


def modeline_kind(text: str) -> FileKind | NotOurs | None:
    reference = modeline_schema(text)
    return schema_kind(reference) if reference is not None else None


def folder_kind(path: str | None, root: str | None = None) -> FileKind | None:
    """`rubrics/` or `judges/` anywhere between the workspace root and the file."""
    if not path:
        return None
    folders = PurePath(path).parts[:-1]
    if root is not None and PurePath(path).is_relative_to(root):
        # A file outside the root (named explicitly) keeps its own path: all we have.
        folders = PurePath(path).relative_to(root).parts[:-1]
    for part in reversed(folders):
        kind = _FOLDERS.get(part)
        if kind:
            return kind
    return None


def folder_fits(kind: FileKind, keys: set[str]) -> bool:
    """Whether root keys let the folder convention claim a file (see `_KIND_KEYS`)."""
    return not keys or bool(keys & _KIND_KEYS[kind])


def root_keys_of_text(text: str) -> set[str]:
    """The block keys written at column 0 (every document's), for a claim without a tree."""
    text = text.removeprefix("\ufeff")
    return {next(g for g in m.groups() if g is not None) for m in _ROOT_KEY.finditer(text)}


def folder_kind_of_text(text: str, path: str | None, root: str | None) -> FileKind | None:
    kind = folder_kind(path, root)
    return kind if kind is not None and folder_fits(kind, root_keys_of_text(text)) else None


def _folder_kind_of_tree(path: str | None, root: Node | None,
                         workspace_root: str | None) -> FileKind | None:
    kind = folder_kind(path, workspace_root)
    if kind is None or not isinstance(root, Mapping):
        return kind  # not a mapping: EY200 says what a rubric or judge must be
    return kind if folder_fits(kind, {k.text for k in root.key_nodes()}) else None


def shape_kind(root: Node | None) -> FileKind | None:
    if not isinstance(root, Mapping):
        return None
    keys = {k.text for k in root.key_nodes()}
    if "questions" in keys and isinstance(root.get("questions"), Sequence):
        return FileKind.DATASET
    if {"checks", "scoring"} <= keys:
        return FileKind.RUBRIC
    if "template" in keys and (keys.intersection(_JUDGE_MARKERS) or _has_figures(root)):
        return FileKind.JUDGE
    return None


def _has_figures(root: Mapping) -> bool:
    """`validation` alone is too common a key (app settings have one); a judge's holds rates."""
    validation = root.get("validation")
    return isinstance(validation, Mapping) and any(
        k.text in _VALIDATION_FIGURES for k in validation.key_nodes())


def root_schema_kind(root: Node | None) -> FileKind | NotOurs | None:
    if isinstance(root, Mapping):
        value = root.get("$schema")
        if isinstance(value, Scalar) and value.text:
            return schema_kind(value.text)
    return None


def named_by_folder(text: str, path: str | None, root: Node | None,
                    workspace_root: str | None = None) -> bool:
    """Whether the folder convention, not a modeline or `$schema`, made the document ours."""
    if modeline_kind(text) is not None or root_schema_kind(root) is not None:
        return False
    return _folder_kind_of_tree(path, root, workspace_root) is not None


def detect_kind(text: str, path: str | None, root: Node | None,
                workspace_root: str | None = None) -> FileKind | None:
    """The kind of a file, or None when it is not an eval file of ours."""
    for verdict in (modeline_kind(text), root_schema_kind(root)):
        if verdict is not None:
            return verdict if isinstance(verdict, FileKind) else None
    return _folder_kind_of_tree(path, root, workspace_root) or shape_kind(root)


def detect_kind_without_tree(text: str, path: str | None, workspace_root: str | None = None
                             ) -> FileKind | NotOurs | None:
    """For text that does not parse: modeline or folder only (a shape needs a tree)."""
    verdict = modeline_kind(text)
    if verdict is not None:
        return verdict
    return folder_kind_of_text(text, path, workspace_root)

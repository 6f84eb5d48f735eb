"""A tag that is also a task's or a group's name (`tasks/_index.py`, measured with 0.4.13).

Task, group and tag names share one dict per include path, filled in path order
(`sorted(root.glob("**/*.yaml"), key=as_posix)`). A tag is registered with `setdefault` when
the first task file carrying it is read: if a task or group of that name came first, the tag
silently adds nothing (`--tasks <name>` runs that task or group alone); if the tag came first,
the later task file is skipped with the WARNING "Duplicate task name ... Already registered
from: None" (a group file at DEBUG), and the name means the tag. Two tasks or groups of one
name are the engine's EY305 (the first by path is kept, as `resolve` picks it).
"""

from __future__ import annotations

import os
from pathlib import Path

from evalyaml.core.findings import FindingSink, Related
from evalyaml.core.model import Definition, FileAnalysis
from evalyaml.formats.base import NamedFiles
from evalyaml.formats.lmeval.kinds import GROUP, NAME, TASK, TEMPLATE


def check_clashes(path: Path, analysis: FileAnalysis, files: NamedFiles,
                  sink: FindingSink) -> None:
    for definition in analysis.definitions:
        if definition.kind is not NAME:
            continue
        # a task tagging itself with its own name changes nothing
        found = [(p, d) for p, d in files.definitions_of(NAME, definition.id) if p != path]
        if definition.alias:
            named = [(p, d) for p, d in found if not d.alias]
            if named:
                _at_tag(path, analysis, definition, named=named, found=found, files=files,
                        sink=sink)
        else:
            tags = [(p, d) for p, d in found if d.alias]
            if tags and analysis.kind in (TASK, GROUP):
                _at_name(path, analysis, definition, tags=tags, files=files, sink=sink)


def _order(path: Path) -> str:
    return Path(os.path.abspath(path)).as_posix()


def _shown(target: Path, here: Path) -> str:
    return os.path.relpath(target, here.parent).replace(os.sep, "/")


def _carriers(tags: list[tuple[Path, Definition]], files: NamedFiles) -> tuple[list[Path], bool]:
    """The task files that carry the tag in their own text, by path, and whether a template
    carries it too (then the tasks including it carry it, at paths not known here)."""
    known: list[Path] = []
    templated = False
    for path, _ in tags:
        analysis = files.analysis(path)
        if analysis is not None and analysis.kind is TEMPLATE:
            templated = True
        elif analysis is not None and analysis.kind is TASK:
            known.append(path)
    return sorted(known, key=_order), templated


def _what(kind: object) -> str:
    return "group" if kind is GROUP else "task"


def _at_name(path: Path, analysis: FileAnalysis, definition: Definition, *,
             tags: list[tuple[Path, Definition]], files: NamedFiles, sink: FindingSink) -> None:
    name, what = definition.id, _what(analysis.kind)
    known, templated = _carriers(tags, files)
    related = tuple(Related(None if p == path else str(p), d.id_span,
                            f"tag '{name}' is written here") for p, d in tags)
    first = known[0] if known else None
    if first is not None and _order(first) < _order(path):
        level = "WARNING" if what == "task" else "DEBUG"
        prefix = "task" if what == "task" else "group"
        sink.add("EYLM022", f"'{name}' is also a tag, registered when the index reads "
                 f"{_shown(first, path)} (its path sorts before this file's): the index then "
                 f"skips this file ({level} \"Duplicate {prefix} name '{name}' found. Already "
                 f"registered from: None\"), and --tasks {name} runs the tagged tasks, not this "
                 f"{what}; rename the {what} or the tag", definition.id_span, related=related)
        return
    if templated and (first is None or _order(first) > _order(path)):
        sink.add("EYLM022", f"'{name}' is also a tag, which tasks including a template carry: "
                 "whichever of them the index reads first by path wins, and either this file "
                 "is skipped or the tag adds nothing; rename the "
                 f"{what} or the tag", definition.id_span, related=related)
        return
    sink.add("EYLM022", f"'{name}' is also a tag: this {what} is registered first (its path "
             "sorts before the tagged tasks'), so the tag adds nothing and --tasks "
             f"{name} runs this {what} alone, not the tasks tagged '{name}'; rename the {what} "
             "or the tag", definition.id_span, related=related)


def _at_tag(path: Path, analysis: FileAnalysis, definition: Definition, *,
            named: list[tuple[Path, Definition]], found: list[tuple[Path, Definition]],
            files: NamedFiles, sink: FindingSink) -> None:
    name = definition.id
    owner, owner_def = min(named, key=lambda pd: _order(pd[0]))
    owner_analysis = files.analysis(owner)
    what = _what(owner_analysis.kind if owner_analysis is not None else TASK)
    related = (Related(str(owner), owner_def.id_span, f"the {what} '{name}' is defined here"),)
    shown = _shown(owner, path)
    if analysis.kind is TEMPLATE:
        sink.add("EYLM022", f"tag '{name}' is also the name of the {what} in {shown}: the tasks "
                 "including this template carry the tag, and whichever file the index reads "
                 f"first by path wins (the other is skipped or adds nothing); rename the tag or "
                 f"the {what}", definition.id_span, related=related)
        return
    if _order(path) < _order(owner):
        sink.add("EYLM022", f"tag '{name}' is also the name of the {what} in {shown}: this "
                 "file is read first, so the index registers the tag and skips that file "
                 f"(\"Duplicate {what} name '{name}' found. Already registered from: None\"); "
                 f"rename the tag or the {what}", definition.id_span, related=related)
        return
    known, templated = _carriers([(p, d) for p, d in found if d.alias], files)
    if templated or (known and _order(known[0]) < _order(owner)):
        return  # another carrier decides; it is reported there
    sink.add("EYLM022", f"tag '{name}' is also the name of the {what} in {shown}, which the "
             "index reads first: the tag adds nothing (the index keeps the " + what +
             f"), so --tasks {name} does not run this task; rename the tag or the {what}",
             definition.id_span, related=related)

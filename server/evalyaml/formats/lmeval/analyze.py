"""An lm-evaluation-harness file's analysis, loaded with the first such file analysed (not with
the registry in `__init__`, which discovery imports)."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import PurePath
from typing import TYPE_CHECKING

from evalyaml.core.findings import Finding, FindingSink
from evalyaml.core.kinds import Kind
from evalyaml.core.model import Definition, FileAnalysis, FileRef, Reference
from evalyaml.core.options import Options
from evalyaml.formats.base import Claim
from evalyaml.formats.lmeval import cross, detect
from evalyaml.formats.lmeval.builtin import is_builtin
from evalyaml.formats.lmeval.common import Context, text_of, top
from evalyaml.formats.lmeval.kinds import GROUP, NAME, TASK, TEMPLATE
from evalyaml.formats.lmeval.rules import Facts, check_root
from evalyaml.syntax.tree import Mapping, Node, Scalar
from evalyaml.syntax.yaml.parse import parse_text

if TYPE_CHECKING:
    from evalyaml.core.incremental import CaseCache, CaseMapper


def analyze(text: str, path: str | None, kind: Kind | None, options: Options, *,
            forced: bool = False, cache: CaseCache | None = None,
            mapper: CaseMapper | None = None) -> FileAnalysis:
    if kind not in (TASK, GROUP, TEMPLATE):
        claimed = detect.claim(text, path)
        kind = claimed.kind if isinstance(claimed, Claim) else TEMPLATE
    sink = FindingSink(strict=options.strict)
    result = FileAnalysis(path, kind)
    parsed = parse_text(text, sink)
    root = parsed.documents[0] if parsed.usable and parsed.documents else None
    if isinstance(root, Mapping):
        ctx = Context(parsed, sink)
        keys = top(root)
        group = kind is GROUP
        python = "class" in keys
        facts = Facts()
        check_root(ctx, root, group=group, python=python, facts=facts)
        name_key = keys.get("group" if kind is GROUP else "task")
        unindexed = path is not None and kind in (TASK, GROUP) and \
            PurePath(path).suffix.lower() == ".yml"
        if unindexed and name_key is not None:
            sink.add("EYLM002", "the task index reads only '*.yaml' files: this '.yml' file "
                     "is never loaded, so its task is \"not found\"; rename it to '.yaml'",
                     ctx.span(name_key[0]))
        if not unindexed:  # a '.yml' task defines no name: a '.yaml' copy is no duplicate
            _names(ctx, keys, kind, facts, result=result, path=path)
        _file_refs(ctx, facts, result, path)
        result.facts[cross.FACTS] = {"names": facts.names,
                                     "exact_match_args": facts.exact_match_args,
                                     "deferred": facts.deferred,
                                     "templates": facts.template_names,
                                     "recovered": not parsed.ok}
    result.findings = [_pyyaml_duplicate(f) for f in dict.fromkeys(sink.findings)]
    return result


def _pyyaml_duplicate(finding: Finding) -> Finding:
    """The harness loads YAML with PyYAML, where the last of duplicate keys wins (the engine's
    EY102 message says what YAML 1.2 readers do)."""
    if finding.code != "EY102" or "only the first" not in finding.message:
        return finding
    key = finding.message.split("'")[1] if finding.message.count("'") >= 2 else "it"
    return replace(finding, message=f"duplicate key '{key}': the harness's YAML loader "
                   "(PyYAML) keeps this last one and silently drops the earlier value "
                   "(lm-eval #2234); delete one")


def _names(ctx: Context, keys: dict[str, tuple[Scalar, Node]], kind: Kind, facts: Facts, *,
           result: FileAnalysis, path: str | None) -> None:
    own = "group" if kind is GROUP else "task"
    pair = keys.get(own)
    name = text_of(pair[1]) if pair is not None else None
    if name and pair is not None and kind is not TEMPLATE:
        result.definitions.append(Definition(NAME, name, None, ctx.span(pair[1]), None,
                                             description=f"{kind.value} '{name}'"))
    if kind in (TASK, TEMPLATE):  # a template's tags reach every task that includes it
        for tag, span in facts.tags:
            result.definitions.append(Definition(NAME, tag, None, span, None,
                                                 description=f"lm-eval tag '{tag}'", alias=True))
    for member, span in facts.member_refs:
        if is_builtin(member):
            continue  # the harness always indexes its own lm_eval/tasks first
        result.references.append(Reference(NAME, member, span, "group", name or "", member,
                                           None))


def _file_refs(ctx: Context, facts: Facts, result: FileAnalysis, path: str | None) -> None:
    if path is None:
        return
    folder = PurePath(path).parent
    for named in facts.names:
        if named.what == "include":
            target = os.path.normpath(folder / named.name)
            adopt = TEMPLATE if PurePath(target).suffix.lower() not in (".yaml", ".yml") \
                else None
            result.file_refs.append(FileRef(named.span, (target,), adopt))
        elif named.what == "function":
            module = named.name.rpartition(".")[0]
            result.file_refs.append(FileRef(named.span, (os.path.normpath(
                folder / (module.replace(".", "/") + ".py")),)))

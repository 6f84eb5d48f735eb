"""`.agentv/config.yaml` (or `$schema: agentv-config-v2`), as `validation/config-validator.ts`
checks it at e43a4d46: an error there is EY643 (BROKEN), a warning EY644 (CONTRACT).

The file is a mapping; `eval_patterns` a list of strings (empty: a warning); `required_version`
a non-empty string that `agentv eval` also reads as a semver range (`version-check.ts` exits on a
malformed one, so that is an error too); `results` (and each global project's `results`) a
mapping with `mode: github`, a non-empty `repo`, an absolute or home-relative `path`, a boolean
`auto_push` and a non-empty `branch_prefix`; `projects` a list of mappings with `id`, `name` and
`path`, but only in `$AGENTV_HOME/config.yaml` (a project-local file gets a warning and its
entries are not checked); `results_by_project` is deprecated; any other top-level field is
unexpected. The loader also reads `hooks` (`parseHooksConfig`), which the validator calls
unexpected: the loader wins, `hooks` is accepted.

A value holding `${{ VAR }}` is filled in from the environment (and coerced) before the
validator sees it, so it is not checked.
"""

from __future__ import annotations

import os
import re
from pathlib import Path, PurePath

from evalyaml.core.suggest import rank
from evalyaml.formats.agentv.common import Context, pairs
from evalyaml.syntax.text import Span
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence

ALLOWED_FIELDS = ("$schema", "eval_patterns", "required_version", "execution", "results",
                  "projects", "results_by_project", "dashboard", "studio", "hooks")
_ENV = "${{"


def check_config(ctx: Context, root: Node | None, path: str | None) -> None:
    if not isinstance(root, Mapping):
        if isinstance(root, Sequence) and root.items:
            # `typeof [] === 'object'`: upstream reads a list's indexes as field names.
            names = ", ".join(str(i) for i in range(len(root.items)))
            ctx.add("EY644", "a config file must hold a YAML mapping: agentv reads this list as "
                    f"the fields {names} (\"Unexpected fields: {names}\") and ignores them",
                    ctx.span(root))
        elif root is not None and not isinstance(root, Sequence):
            ctx.add("EY643", "Config file must contain a valid YAML object", ctx.span(root))
        return
    values = {key.text: (key, value) for key, value in pairs(root)}
    if "eval_patterns" in values:
        _eval_patterns(ctx, *values["eval_patterns"])
    if "required_version" in values:
        _required_version(ctx, *values["required_version"])
    if "results" in values:
        _results(ctx, *values["results"], "results")
    if "projects" in values:
        key, value = values["projects"]
        if _project_scope(path):
            ctx.add("EY644", "Field 'projects' is only valid in $AGENTV_HOME/config.yaml. "
                    "Ignoring project registry entries in project-local .agentv/config.yaml.",
                    ctx.span(key))
        elif not isinstance(value, Sequence):
            if not _env(value):
                ctx.add("EY643", "Field 'projects' must be an array", ctx.at(key, value))
        else:
            for index, project in enumerate(value.items):
                _project(ctx, project, f"projects[{index}]")
    if "results_by_project" in values:
        ctx.add("EY644", "Field 'results_by_project' is deprecated. Put per-project result repo "
                "settings under projects[].results in $AGENTV_HOME/config.yaml.",
                ctx.span(values["results_by_project"][0]))
    present = set(values)
    for key, _ in pairs(root):
        if key.text not in ALLOWED_FIELDS:
            ranked = [k for k in rank(key.text, ALLOWED_FIELDS) if k not in present]
            hint = f"; did you mean '{ranked[0]}'?" if ranked else ""
            ctx.add("EY644", f"Unexpected fields: {key.text} (agentv ignores it){hint}",
                    ctx.span(key), fixes=tuple(ctx.rename_fix(key, k) for k in ranked[:3]))


def _project_scope(path: str | None) -> bool:
    """`inferConfigScope`: the home config is global, any other file under `.agentv` local."""
    if path is None:
        return False
    home = os.environ.get("AGENTV_HOME") or ""
    try:
        config_dir = Path(home) if home and home != "undefined" else Path.home() / ".agentv"
        if Path(path).resolve() == (config_dir / "config.yaml").resolve():
            return False
    except (OSError, RuntimeError):  # no home folder to compare with
        pass
    return ".agentv" in re.split(r"[\\/]", str(PurePath(path)))


def _env(node: Node | None) -> bool:
    return isinstance(node, Scalar) and _ENV in node.text


def _string(node: Node | None) -> str | None:
    if isinstance(node, Scalar) and isinstance(node.value, str):
        return node.value
    return None


def _eval_patterns(ctx: Context, key: Scalar, value: Node) -> None:
    if not isinstance(value, Sequence):
        if not _env(value):
            ctx.add("EY643", "Field 'eval_patterns' must be an array", ctx.at(key, value))
        return
    wrong = [item for item in value.items if _string(item) is None]
    for item in wrong:
        ctx.add("EY643", "All entries in 'eval_patterns' must be strings (agentv ignores the "
                "whole config file)", ctx.span(item) if item.end > item.start
                else ctx.point(item))
    if not value.items:
        ctx.add("EY644", "Field 'eval_patterns' is empty. Consider removing it or adding "
                "patterns.", ctx.span(key))


def _required_version(ctx: Context, key: Scalar, value: Node) -> None:
    text = _string(value)
    if text is not None and _ENV in text:
        return
    if text is None or not text.strip():
        ctx.add("EY643", "Field 'required_version' must be a non-empty string (e.g. "
                "\">=3.1.0\")", ctx.at(key, value))
    elif not valid_range(text):
        ctx.add("EY643", f"Invalid required_version \"{text}\" in .agentv/config.yaml. Must be "
                "a valid semver range (e.g., \">=2.11.0\", \"^2.11.0\"): agentv eval exits",
                ctx.span(value))


def _head(ctx: Context, mapping: Mapping, key: Scalar | None) -> Span:
    if key is not None:
        return ctx.span(key)
    return ctx.span(mapping.pairs[0][0]) if mapping.pairs else ctx.span(mapping)


def _results(ctx: Context, key: Scalar | None, value: Node, where: str) -> None:
    if not isinstance(value, Mapping):
        if not _env(value):
            ctx.add("EY643", f"Field '{where}' must be an object",
                    ctx.at(key, value) if key is not None else ctx.span(value))
        return
    values = {k.text: (k, v) for k, v in pairs(value)}
    head = _head(ctx, value, key)
    mode = values.get("mode")
    if mode is None:
        ctx.add("EY643", f"Field '{where}.mode' must be 'github' (it is missing)", head)
    elif _string(mode[1]) != "github" and not _env(mode[1]):
        ctx.add("EY643", f"Field '{where}.mode' must be 'github'", ctx.at(*mode))
    _required_string(ctx, values, "repo", where, head)
    path = values.get("path")
    if path is not None and not _env(path[1]):
        text = _string(path[1])
        if text is None or not text.strip():
            ctx.add("EY643", f"Field '{where}.path' must be a non-empty string", ctx.at(*path))
        elif not _filesystem_path(text.strip()):
            ctx.add("EY643", f"'{where}.path' must be an absolute or home-relative filesystem "
                    f"path (e.g., ~/data/agentv-results). Found: '{text.strip()}'. Remove "
                    "'path' to use the default.", ctx.span(path[1]))
    push = values.get("auto_push")
    if push is not None and not (isinstance(push[1], Scalar) and
                                 isinstance(push[1].value, bool)) and not _env(push[1]):
        ctx.add("EY643", f"Field '{where}.auto_push' must be a boolean", ctx.at(*push))
    prefix = values.get("branch_prefix")
    if prefix is not None and not _env(prefix[1]):
        text = _string(prefix[1])
        if text is None or not text.strip():
            ctx.add("EY643", f"Field '{where}.branch_prefix' must be a non-empty string",
                    ctx.at(*prefix))


def _required_string(ctx: Context, values: dict[str, tuple[Scalar, Node]], name: str,
                     where: str, head: Span) -> None:
    found = values.get(name)
    if found is not None and _env(found[1]):
        return
    text = _string(found[1]) if found else None
    if text is None or not text.strip():
        ctx.add("EY643", f"Field '{where}.{name}' must be a non-empty string",
                ctx.at(*found) if found else head)


def _project(ctx: Context, project: Node, where: str) -> None:
    if not isinstance(project, Mapping):
        ctx.add("EY643", f"Field '{where}' must be an object",
                ctx.span(project) if project.end > project.start else ctx.point(project))
        return
    values = {k.text: (k, v) for k, v in pairs(project)}
    head = _head(ctx, project, None)
    for name in ("id", "name", "path"):
        _required_string(ctx, values, name, where, head)
    if "results" in values:
        _results(ctx, *values["results"], f"{where}.results")


def _filesystem_path(p: str) -> bool:
    return p.startswith(("/", "~/", "~\\")) or p == "~" or bool(re.match(r"[A-Za-z]:[/\\]", p))


# node-semver's `validRange` (strict mode), as `version-check.ts` calls it.
_NUM = r"(?:0|[1-9]\d*)"
_XR = rf"(?:{_NUM}|[xX*])"
_PRE_ID = rf"(?:{_NUM}|\d*[a-zA-Z-][a-zA-Z0-9-]*)"
_PRE = rf"(?:-{_PRE_ID}(?:\.{_PRE_ID})*)"
_BUILD = r"(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)"
_PLAIN = rf"[v=\s]*{_XR}(?:\.{_XR}(?:\.{_XR}{_PRE}?{_BUILD}?)?)?"
_HYPHEN = re.compile(rf"\s*({_PLAIN})\s+-\s+({_PLAIN})\s*")
_COMPARATOR = re.compile(rf"(?:\^|~>?|(?:<|>)?=?)\s*{_PLAIN}|(?:<|>)?=?\s*\*|")
_TRIM = re.compile(r"(<=|>=|<|>|=|~>|~|\^)\s+")


def valid_range(text: str) -> bool:
    raw = " ".join(text.split())
    for raw_part in raw.split("||"):
        part = raw_part.strip()
        if _HYPHEN.fullmatch(part):
            continue
        trimmed = _TRIM.sub(r"\1", part)
        if not all(_COMPARATOR.fullmatch(token) for token in trimmed.split(" ")):
            return False
    return True

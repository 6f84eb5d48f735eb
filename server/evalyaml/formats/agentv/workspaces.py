"""A suite's or a test's `workspace`: the template folder, setup and teardown scripts and
their paths, as the AgentV runner prepares them before a test runs."""

from __future__ import annotations

import os

from evalyaml.formats.agentv.common import Context, pairs, text_of
from evalyaml.formats.agentv.suitefacts import ENV, SuiteFacts, SuiteRef
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence

_SCRIPT_SUFFIXES = (".mjs", ".cjs", ".js", ".ts", ".sh", ".bash", ".zsh", ".py", ".rb", ".pl")


def _workspace_paths(ctx: Context, value: Mapping, facts: SuiteFacts) -> None:
    """`workspace-path-validator.ts`: the template and hook scripts must exist (relative to the
    suite's folder, a hook's `cwd` first). Checked in the cross check; never run."""
    template = value.get("template")
    name = text_of(template)
    if name and isinstance(template, Scalar) and ENV not in name and "{{" not in name:
        facts.refs.append(SuiteRef("workspace-path", name, ctx.span(template), template.style,
                                   template.text))
    hooks = value.get("hooks")
    if not isinstance(hooks, Mapping):
        return
    for hook_name in ("before_all", "before_each", "after_each", "after_all"):
        hook = hooks.get(hook_name)
        if not isinstance(hook, Mapping):
            continue
        cwd = text_of(hook.get("cwd")) or "."
        command = hook.get("command") or hook.get("script")
        if not isinstance(command, Sequence):
            continue
        for arg in command.items:
            text = text_of(arg)
            # `{{workspace_path}}` and friends are filled in when the hook runs
            # (`script-executor.ts`); `agentv validate` reports them, wrongly.
            if text is None or not isinstance(arg, Scalar) or ENV in text or "{{" in text or \
                    "{{" in cwd or \
                    not (text.startswith(("./", "../")) or text.endswith(_SCRIPT_SUFFIXES)):
                continue
            facts.refs.append(SuiteRef("workspace-path",
                                       text if cwd == "." else os.path.join(cwd, text),
                                       ctx.span(arg), arg.style, arg.text))


def check_workspace(ctx: Context, key: Scalar | None, value: Node,
                    facts: SuiteFacts | None = None) -> None:
    if isinstance(value, Scalar) and isinstance(value.value, str) and value.value.strip():
        # `workspace: shared/workspace.yaml`: the loader throws when it is missing
        # ("Workspace file not found"), agentv validate says "Failed to load".
        if facts is not None and ENV not in value.value:
            facts.refs.append(SuiteRef("workspace-file", value.value, ctx.span(value),
                                       value.style, value.text))
        return
    if not isinstance(value, Mapping):
        return
    if facts is not None:
        _workspace_paths(ctx, value, facts)
    docker = value.get("docker")
    repos = value.get("repos")
    if isinstance(repos, Sequence):
        for repo in repos.items:
            if not isinstance(repo, Mapping):
                continue
            source = repo.get("source")
            checkout = repo.get("checkout")
            clone = repo.get("clone")
            head = ctx.span(pairs(repo)[0][0]) if repo.pairs else ctx.span(repo)
            # `repo:` is the published 4.42 CLI's spelling of a source (after the seed commit).
            if not isinstance(source, Mapping) and not isinstance(docker, Mapping) and \
                    repo.get("repo") is None:
                ctx.add("EY618", "repos[].source is required for non-Docker workspaces. "
                        "Source-less repos are only valid when workspace.docker is configured "
                        "(repo exists inside the container).", head)
            if isinstance(source, Mapping) and isinstance(checkout, Mapping):
                resolve = checkout.pair("resolve")
                if text_of(source.get("type")) == "local" and resolve is not None and \
                        text_of(resolve[1]) is not None:
                    ctx.add("EY619", "checkout.resolve has no effect for a local source. Use "
                            "source.type to choose where the repo comes from; keep checkout.ref, "
                            "checkout.base_commit, or checkout.ancestor only when pinning a "
                            "local source.", ctx.span(resolve[0]))
            if isinstance(checkout, Mapping) and isinstance(clone, Mapping):
                ancestor = checkout.get("ancestor")
                depth = clone.get("depth")
                if isinstance(ancestor, Scalar) and isinstance(depth, Scalar):
                    a, d = ancestor.value, depth.value
                    if isinstance(a, (int, float)) and isinstance(d, (int, float)) and \
                            not isinstance(a, bool) and not isinstance(d, bool) and d < a + 1:
                        ctx.add("EY619", f"clone.depth ({depth.text}) may be insufficient for "
                                f"checkout.ancestor ({ancestor.text}). Recommend depth >= "
                                f"{int(a) + 1}.", ctx.span(depth))
    hooks = value.get("hooks")
    after_each = hooks.get("after_each") if isinstance(hooks, Mapping) else None
    isolation = text_of(value.get("isolation"))
    if isinstance(after_each, Mapping) and isolation == "per_test":
        reset = after_each.pair("reset")
        if reset is not None and isinstance(reset[1], Scalar) and reset[1].value not in (
                None, False, "", 0):
            ctx.add("EY619", "hooks.after_each.reset is redundant with isolation: per_test "
                    "(each test gets a fresh workspace).", ctx.span(reset[0]))

"""Redteam plugin and strategy ids (`src/validators/redteam.ts`, `RedteamConfigSchema`).

The config schema holds `redteam`, so an id outside the closed lists (`redteam_ids`) makes
`promptfoo validate` and every command loading the config refuse it. A legacy root `plugins` or
`strategies` list is checked too: validate reads the file as written (`redteam`'s lists), then
again after `readConfig` moved the root lists into `redteam`, and refuses either. Custom ids are
promptfoo's own escape hatches and never a finding: a `file://` plugin, a `file://` JavaScript
strategy, `custom`/`custom:<name>`; nor is a value promptfoo renders first (`{{ env.X }}`).
"""

from __future__ import annotations

from collections.abc import Callable

from evalyaml.core.findings import Fix, TextEdit
from evalyaml.formats.promptfoo.common import Context, is_ref, quoted_like, suggest_value
from evalyaml.formats.promptfoo.paths import templated
from evalyaml.formats.promptfoo.redteam_ids import JAVASCRIPT_SUFFIXES, PLUGINS, STRATEGIES
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence


def check_redteam(ctx: Context, found: dict[str, tuple[Scalar, Node]]) -> None:
    """The ids of `redteam`'s plugin and strategy lists, and of the legacy root ones."""
    section = found.get("redteam")
    inner = section[1] if section is not None and isinstance(section[1], Mapping) and \
        not is_ref(section[1]) else None
    for key, check in (("plugins", _plugin), ("strategies", _strategy)):
        legacy = found.get(key)
        lists = [legacy[1] if legacy is not None else None, inner.get(key) if inner else None]
        for node in lists:
            _ids(ctx, node, check)


def _ids(ctx: Context, node: Node | None, check: Callable[[Context, Scalar, str], None]
         ) -> None:
    if isinstance(node, Sequence):
        for item in node.items:
            ident = item.get("id") if isinstance(item, Mapping) and not is_ref(item) else item
            if isinstance(ident, Scalar) and isinstance(ident.value, str) and \
                    not templated(ident.value):
                check(ctx, ident, ident.value)


def _plugin(ctx: Context, node: Scalar, name: str) -> None:
    if name in PLUGINS or name.startswith("file://"):
        return
    _report(ctx, node, name, "plugin", PLUGINS,
            upstream=f"Invalid plugin id \"{name}\". Custom plugins must start with file:// "
            "or use a built-in plugin", custom="a custom plugin is a file:// path")


def _strategy(ctx: Context, node: Scalar, name: str) -> None:
    if name in STRATEGIES or name == "custom" or name.startswith("custom:"):
        return
    if name.startswith("file://"):
        if name.lower().endswith(JAVASCRIPT_SUFFIXES):
            return
        ctx.add("EYPF022", f"custom strategy '{name}' is not a JavaScript file (.js or .ts): "
                "promptfoo validate fails with \"Invalid input\"", ctx.span(node))
        return
    _report(ctx, node, name, "strategy", STRATEGIES,
            upstream="Invalid input",
            custom="a custom strategy is a file:// .js or .ts path, or custom:<name>")


def _report(ctx: Context, node: Scalar, name: str, what: str, known: frozenset[str], *,
            upstream: str, custom: str) -> None:
    guess = suggest_value(name, sorted(known))
    tail = f"; did you mean '{guess}'?" if guess else ""
    fixes = (Fix(f"Replace with '{guess}'", (TextEdit(ctx.span(node), quoted_like(node, guess)),),
                 preferred=True),) if guess else ()
    ctx.add("EYPF022", f"unknown redteam {what} '{name}': promptfoo validate fails with "
            f"\"{upstream}\" ({custom}){tail}", ctx.span(node),
            fixes=fixes)

"""Provider entries as `normalizeProviderRef` (`src/util/providerRef.ts`) sorts them and
`loadApiProvider` (`src/providers/index.ts`) resolves an id: first matching factory wins, no
match is `Could not identify provider`. The registry's prefixes are extracted heuristically
(`../shared/promptfoo-vocab.json`), so an id is reported only when its prefix is unknown *and*
a near miss of a known one (`opeanai:`), never merely for being absent from the list."""

from __future__ import annotations

import re

from evalyaml.core.findings import Fix, TextEdit
from evalyaml.core.suggest import edit_distance
from evalyaml.formats.promptfoo import vocab
from evalyaml.formats.promptfoo.common import (
    Context,
    is_ref,
    pairs,
    quoted_like,
    suggest_value,
    text_of,
)
from evalyaml.formats.promptfoo.facts import ConfigFacts, Ref
from evalyaml.formats.promptfoo.paths import split_function, templated
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence

HEADS: frozenset[str] = frozenset(p.split(":", 1)[0] for p in vocab.PROVIDER_PREFIXES
                                  if ":" in p) | frozenset(vocab.PROVIDER_IDS) | {"file"}
_ANTHROPIC_TYPES = ("messages", "completion", "claude-agent-sdk", "claude-code")
# `anthropic:<model>` shorthand: promptfoo's `looksLikeClaudeModelId` (`/^claude-[a-z0-9]/i`),
# which every id of its model list also matches; any case, but a character after the dash.
_CLAUDE_ID = re.compile(r"claude-[a-z0-9]", re.IGNORECASE)
_OPTION_KEYS = frozenset(vocab.PROVIDER_OPTION_KEYS)


def check_provider(ctx: Context, node: Node, facts: ConfigFacts) -> None:
    if isinstance(node, Scalar):
        check_id(ctx, node, facts)
    elif isinstance(node, Mapping) and not is_ref(node):
        items = pairs(node)
        found = {k.text: (k, v) for k, v in items}
        if "id" in found or any(k in _OPTION_KEYS for k in found) or len(items) != 1:
            for key, _ in items:
                if key.text not in _OPTION_KEYS:
                    ctx.unknown_key(key, vocab.PROVIDER_OPTION_KEYS, "a provider")
            if "id" in found and isinstance(found["id"][1], Scalar):
                check_id(ctx, found["id"][1], facts)
            elif "id" not in found:
                ctx.add("EYPF018", "a provider given as options has no 'id': promptfoo fails "
                        "with \"Invalid provider at index N\"", ctx.span(items[0][0] if items
                                                                          else node))
            return
        key, value = items[0]
        check_id(ctx, key, facts)
        if isinstance(value, Mapping):
            for inner, _ in pairs(value):
                if inner.text not in _OPTION_KEYS:
                    ctx.unknown_key(inner, vocab.PROVIDER_OPTION_KEYS, "a provider")


def check_id(ctx: Context, node: Scalar, facts: ConfigFacts) -> None:
    text = text_of(node)
    if not text or templated(text):
        return
    if text.startswith("file://"):
        name, function = split_function(text[7:])
        facts.refs.append(Ref("provider", name, ctx.span(node), function))
        return
    for prefix in ("python:", "golang:", "ruby:"):
        if text.startswith(prefix) and not text.startswith(prefix + "//"):
            name, function = split_function(text[len(prefix):])
            facts.refs.append(Ref("provider", name, ctx.span(node), function))
            return
    head, sep, rest = text.partition(":")
    if head == "anthropic" and sep:
        kind = rest.split(":", 1)[0]
        if kind not in _ANTHROPIC_TYPES and _CLAUDE_ID.match(kind) is None:
            ctx.add("EYPF019", f"'{text}': promptfoo fails with \"Unknown Anthropic model type or "
                    f"model name: {kind}\" (write anthropic:messages:<model>)", ctx.span(node))
        return
    if head in HEADS or text.startswith(("http://", "https://", "ws://", "wss://")):
        return
    # One edit only: the registry list is heuristic, and a real provider outside it may sit two
    # edits from a listed one.
    close = [h for h in sorted(HEADS) if edit_distance(head.lower(), h, 1) <= 1]
    guess = suggest_value(head, close) if close else None
    if guess is None or guess == head:
        return
    fixed = guess + sep + rest
    ctx.add("EYPF019", f"no provider matches '{text}': promptfoo fails with \"Could not identify "
            f"provider: {text}\"; did you mean '{fixed}'?", ctx.span(node),
            fixes=(Fix(f"Replace with '{fixed}'", (TextEdit(ctx.span(node),
                                                            quoted_like(node, fixed)),),
                       preferred=True),))


_SCRIPTED = ("file://", "python:", "exec:", "golang:", "ruby:", "http:", "https:", "ws:", "wss:")


def provider_names(node: Node) -> list[tuple[str | None, str]] | None:
    """The config's providers as (label, id) written, for a test's `providers` to name; None
    when one's id at run time is not known here: a script, file or URL provider (its class
    or file names it), a template, a `$ref`, anything not a string id."""
    items = node.items if isinstance(node, Sequence) else [node]
    out: list[tuple[str | None, str]] = []
    for item in items:
        label: Node | None = None
        if isinstance(item, Mapping) and item.get("id") is not None:
            ident, label = item.get("id"), item.get("label")
        elif isinstance(item, Mapping) and len(item.pairs) == 1 and not is_ref(item):
            ident, options = item.pairs[0]
            label = options.get("label") if isinstance(options, Mapping) else None
        else:
            ident = item
        text, shown = text_of(ident), text_of(label) if label is not None else None
        if not text or templated(text) or text.startswith(_SCRIPTED) or \
                (label is not None and not shown):
            return None
        out.append((shown, text))
    return out

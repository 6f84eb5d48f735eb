"""Editor features the JSON schema cannot give: assertion types with their documentation where
a `type:` is written, provider id prefixes, and a test's variables from the config's prompts.
Key completion and hover come from `schemas/promptfoo/config-schema.json`."""

from __future__ import annotations

import re

from evalyaml.formats.base import Cursor, FormatIde, KeyDoc, NamedFiles, Tip
from evalyaml.formats.promptfoo import vocab
from evalyaml.formats.promptfoo.asserts import known_type
from evalyaml.formats.promptfoo.complete import offers
from evalyaml.formats.promptfoo.testhover import hover_test

_DOCS = {
    "contains": "The output contains `value` (case-sensitive). Value: a string or number.",
    "icontains": "The output contains `value`, ignoring case. Value: a string or number.",
    "contains-any": "The output contains at least one of `value` (a list, or a comma string).",
    "contains-all": "The output contains every item of `value` (a list, or a comma string).",
    "icontains-any": "Case-insensitive `contains-any`.",
    "icontains-all": "Case-insensitive `contains-all`.",
    "equals": "The output equals `value` (an object is compared with the output parsed as JSON).",
    "starts-with": "The output starts with `value` (a non-empty string).",
    "regex": "The output matches the JavaScript regular expression `value`.",
    "is-json": "The output is valid JSON; `value` may be a JSON Schema it must match.",
    "contains-json": "The output contains valid JSON; `value` may be a JSON Schema.",
    "javascript": "A JavaScript expression or `file://x.js[:fn]` returning a boolean, score or "
                  "GradingResult.",
    "python": "A Python expression or `file://x.py[:fn]` (default `get_assert`).",
    "llm-rubric": "A model grades the output against the rubric in `value`.",
    "factuality": "A model checks the output against the reference fact in `value`.",
    "similar": "Embedding similarity with `value` is at least `threshold` (default 0.75).",
    "latency": "The call takes at most `threshold` milliseconds (required).",
    "cost": "The call costs at most `threshold` (required).",
    "levenshtein": "Edit distance to `value` is at most `threshold` (default 5).",
    "assert-set": "A group of assertions (`assert`) scored together with its own `threshold`.",
}

_TYPE_DOCS = tuple(KeyDoc(t, _DOCS.get(t, f"promptfoo assertion type `{t}`."))
                   for t in (*vocab.BASE_TYPES, "assert-set", "select-best", "max-score"))
_NOT_DOCS = tuple(KeyDoc("not-" + t, f"Passes when `{t}` fails.") for t in vocab.BASE_TYPES)
_PROVIDERS = tuple(KeyDoc(p, f"promptfoo provider `{p}`") for p in
                   (*vocab.PROVIDER_PREFIXES, *vocab.PROVIDER_IDS))

_TYPE_PLACES = (("tests", "*", "assert", "*", "type"), ("defaultTest", "assert", "*", "type"),
                ("*", "assert", "*", "type"))

_TYPE_LINE = re.compile(r"""^(?P<lead>\s*(?:-\s+)?type\s*:\s*)(?P<q>["']?)(?P<name>[\w:.-]+)""")


def hover(cursor: Cursor, files: NamedFiles) -> Tip | None:
    """An assertion type: what it checks and what its value must be. A test's name: its
    prompts rendered with its vars (`testhover`)."""
    return _type_hover(cursor) or hover_test(cursor, files)


def _type_hover(cursor: Cursor) -> Tip | None:
    lines = cursor.text.splitlines()
    if cursor.line >= len(lines):
        return None
    match = _TYPE_LINE.match(lines[cursor.line])
    if match is None or not match.start("name") <= cursor.character <= match.end("name"):
        return None
    name = match.group("name")
    if not known_type(name):
        return None
    base = name[4:] if name.startswith("not-") else name
    doc = _DOCS.get(base, f"promptfoo assertion type `{base}`.")
    if name != base:
        doc = f"Passes when `{base}` fails. {doc}"
    return Tip(f"**{name}** (promptfoo assertion type)\n\n{doc}", match.start("name"),
               match.end("name"))


IDE = FormatIde(
    hover=hover,
    offers=offers,
    values={
        **{("promptfoo config", place): (*_TYPE_DOCS, *_NOT_DOCS) for place in _TYPE_PLACES},
        ("promptfoo tests file", ("*", "assert", "*", "type")): (*_TYPE_DOCS, *_NOT_DOCS),
        ("promptfoo config", ("providers", "*")): _PROVIDERS,
        ("promptfoo config", ("targets", "*")): _PROVIDERS,
    },
)

"""Go-to-definition on a `!function` target (the `def` in the module beside the YAML, found
by reading it) and hover on the harness's built-in names: metrics, aggregations, filters and
output types, with what its registries say about them."""

from __future__ import annotations

import re
from pathlib import Path

from evalyaml.formats.base import Cursor, NamedFiles, Tip
from evalyaml.formats.lmeval import vocab
from evalyaml.syntax.text import Position, Span

_FUNCTION = re.compile(r"!function[ \t]+([A-Za-z_][\w.]*)")
_VALUE = re.compile(r"^(?:[ \t]*-)?[ \t]*(metric|aggregation|function|output_type)[ \t]*:"
                    r"[ \t]*['\"]?([A-Za-z_][\w+]*)")
_NEEDS = {
    "loglikelihood": "requests `(context, doc_to_target)`; scores `perplexity` and `acc`.",
    "multiple_choice": "one loglikelihood request per `doc_to_choice` option (required); "
                       "scores `acc`, `acc_norm`, `acc_bytes`, `f1`, `mcc`, `exact_match`, "
                       "`brier_score`, `likelihood`, `acc_mutual_info`.",
    "loglikelihood_rolling": "scores the whole `doc_to_target` text: `word_perplexity`, "
                             "`byte_perplexity`, `bits_per_byte`.",
    "generate_until": "generates with `generation_kwargs` (`until` stops it); every metric "
                      "in `metric_list` is called on the answer (default: `exact_match`).",
}
_LOWER_IS_BETTER = ("perplexity", "word_perplexity", "byte_perplexity", "bits_per_byte",
                    "brier_score")


def _line(cursor: Cursor) -> str:
    lines = cursor.text.splitlines()
    return lines[cursor.line] if cursor.line < len(lines) else ""


def function_definition(cursor: Cursor, files: NamedFiles) -> tuple[str, Span] | None:
    """`!function utils.process_docs` -> the `def process_docs` line of `utils.py` beside the
    YAML (the module the loader imports by file path): the first `def`, `class` or assignment
    of the name, at any depth (a `def` inside `try:` counts, as it does for the import)."""
    if cursor.path is None:
        return None
    for match in _FUNCTION.finditer(_line(cursor)):
        if not match.start(1) <= cursor.character <= match.end(1):
            continue
        module, _, name = match.group(1).rpartition(".")
        if not module:
            return None
        target = files.resolve(Path(cursor.path).parent, module.replace(".", "/") + ".py")
        text = files.read_text(target) if target is not None else None
        if target is None or text is None:
            return None
        word = re.escape(name)
        found = None
        for indent in ("", r"[ \t]+"):  # a top-level binding first, then one inside try:/if:
            found = re.search(rf"^({indent}(?:async[ \t]+)?(?:def|class)[ \t]+){word}\b",
                              text, re.MULTILINE) or \
                re.search(rf"^({indent}){word}[ \t]*(?::[^=\n]*)?=(?!=)", text, re.MULTILINE)
            if found is not None:
                break
        if found is None:
            return str(target), Span(Position(0, 0), Position(0, 0))
        line = text.count("\n", 0, found.start())
        column = len(found.group(1))
        return str(target), Span(Position(line, column), Position(line, column + len(name)))
    return None


def builtin_hover(cursor: Cursor) -> Tip | None:
    match = _VALUE.match(_line(cursor))
    if match is None or not match.start(2) <= cursor.character <= match.end(2):
        return None
    key, name = match.group(1), match.group(2)
    text = _describe(key, name)
    return Tip(text, match.start(2), match.end(2)) if text is not None else None


def _describe(key: str, name: str) -> str | None:
    if key == "metric" and name in vocab.METRICS:
        better = "lower" if name in _LOWER_IS_BETTER else "higher"
        args = ", ".join(f"`{a}`" for a in vocab.EXACT_MATCH_ARGS) \
            if name == "exact_match" else "none"
        return (f"**{name}** · registered lm-eval metric (`api/metrics.py`)\n\n"
                f"Produces a value on: {vocab.METRICS[name]}. {better.capitalize()} is better. "
                f"Keyword arguments: {args}.")
    if key == "aggregation" and name in vocab.AGGREGATIONS:
        return f"**{name}** · registered lm-eval aggregation (`api/metrics.py`)"
    if key == "function" and name in vocab.FILTERS:
        params = vocab.FILTERS[name]
        takes = "any keyword (its constructor takes `**kwargs`)" if params is None else \
            ", ".join(f"`{p}`" for p in params) if params else "no arguments"
        return f"**{name}** · registered lm-eval filter (`lm_eval/filters/`)\n\nTakes: {takes}."
    if key == "output_type" and name in _NEEDS:
        return f"**{name}** · lm-eval output type\n\n{_NEEDS[name]}"
    return None

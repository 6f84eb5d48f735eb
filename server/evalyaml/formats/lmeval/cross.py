"""The rules that read other files: includes merged as the loader merges them, `!function`
targets found by reading the module (never importing it), metrics and filters a task's own
Python registers, and what the merged config then lacks."""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path

from evalyaml.core.findings import Finding, FindingSink
from evalyaml.core.model import FileAnalysis
from evalyaml.core.options import Options
from evalyaml.core.suggest import best, best_value, edit_distance
from evalyaml.formats.base import NamedFiles
from evalyaml.formats.lmeval import jinja, vocab
from evalyaml.formats.lmeval.clash import check_clashes
from evalyaml.formats.lmeval.common import source_offsets, text_of, top
from evalyaml.formats.lmeval.kinds import TASK, TEMPLATE
from evalyaml.formats.lmeval.loader import Loaded, Origin, include_items, load
from evalyaml.formats.lmeval.pynames import module_names
from evalyaml.formats.lmeval.rules import Named
from evalyaml.syntax.text import Span
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence
from evalyaml.syntax.yaml.parse import parse_text

FACTS = "lmeval.facts"
_REGISTERED = re.compile(
    r"""register_(metric|filter)\(\s*(?:metric\s*=\s*)?["']([^"']+)["']""")
# `metric="x"` anywhere in a `register_metric(...)` call, its keywords in any order.
_METRIC_KEYWORD = re.compile(
    r"""register_metric\((?:[^()]|\([^()]*\))*?\bmetric\s*=\s*["']([^"']+)["']""")


def cross_check(path: Path, analysis: FileAnalysis, files: NamedFiles,
                options: Options) -> list[Finding]:
    facts = analysis.facts.get(FACTS)
    if not isinstance(facts, dict):
        return []
    sink = FindingSink(strict=options.strict)
    check_clashes(path, analysis, files, sink)
    names: list[Named] = facts.get("names", [])
    includes = [n for n in names if n.what == "include"]
    loaded = _own(path, files) if includes or analysis.kind is TASK else None
    if loaded is None and analysis.kind is TASK and facts.get("recovered"):
        _recovered_checks(path, files, facts, sink)
    merged = loaded.merged if loaded is not None else {}
    for named in names:
        if named.what == "function":
            _function(path, named, files, sink)
    if loaded is not None and loaded.problem is not None and loaded.problem_item is not None \
            and loaded.problem_item < len(includes):
        outcome = "every task including this template is skipped by the index" \
            if analysis.kind is TEMPLATE else "the index skips this file (logged at DEBUG), " \
            "so lm-eval reports \"Tasks not found\""
        sink.add("EYLM003", f"{loaded.problem}; {outcome}", includes[loaded.problem_item].span)
        return sink.findings
    if loaded is not None and loaded.unread:
        return sink.findings  # an include outside the roots may hold any key, `class` too
    python = "class" in merged
    if includes and not python:
        deferred = facts.get("deferred")
        sink.findings.extend(deferred if isinstance(deferred, list) else ())
    registered = _registered(list(dict.fromkeys([path.parent, *(origin.path.parent
                                                             for origin in merged.values())])),
                             names, files)
    scored_by_metrics = analysis.kind is TASK and "process_results" not in merged and not python
    for named in names:
        if named.what == "filter" or (named.what == "metric" and scored_by_metrics):
            _registry(named, registered, sink)
        elif named.what == "metric-aggregation" and not python and \
                named.name not in registered and \
                not any(f.span == named.span for f in sink.findings):  # a typo said first
            sink.add("EYLM012", f"metric '{named.name}' has no 'aggregation' and the harness "
                     f"registers no default for it: it warns \"{named.name} metric is not "
                     "assigned a default aggregation!\" and raises KeyError: None when the task "
                     "is loaded; add 'aggregation: mean' (or the aggregation meant)", named.span)
    if analysis.kind is TASK and loaded is not None:
        _merged(path, merged, includes, sink, facts)
    return sink.findings


def _own(path: Path, files: NamedFiles, *, recovered: bool = False) -> Loaded | None:
    """The file's merged config; with `recovered`, also of a tree recovered around a syntax
    error (the harness reads no such file, but what the rest of the file says still stands)."""
    text = files.read_text(path)
    if text is None:
        return None
    parsed = parse_text(text, FindingSink(strict=False))
    if not (parsed.ok or (recovered and parsed.usable)) or not parsed.documents:
        return None  # beside a syntax error the merged config is not what the harness reads
    return load(path, parsed, files)


def _recovered_checks(path: Path, files: NamedFiles, facts: dict[str, object],
                      sink: FindingSink) -> None:
    """Beside a syntax error, only what one metric entry says as written: the keys a hole may
    have held (a `task`, `doc_to_choice`, a template) are not called missing, and
    when every hole's key is known: a template field spelt differently when no template was
    blanked, `exact_match`'s keywords when the output type was not."""
    text = files.read_text(path)
    holes = parse_text(text, FindingSink(strict=False)).holes if text is not None else ()
    if not holes or any(hole.key is None for hole in holes):
        return  # what the blanks removed is unknown
    removed = {hole.key for hole in holes}
    loaded = _own(path, files, recovered=True)
    if loaded is None or loaded.unread or "class" in loaded.merged:
        return
    if not removed & set(vocab.TEMPLATE_FIELDS):
        _template_names(path, loaded.merged, sink)
    if "output_type" not in removed and "process_results" not in loaded.merged:
        _exact_match(loaded.merged, facts, sink)


def merged_config(path: Path, files: NamedFiles) -> Loaded | None:
    return _own(path, files)


def _merged(path: Path, merged: dict[str, Origin], includes: list[Named], sink: FindingSink,
            facts: dict[str, object]) -> None:
    first = includes[0].span if includes else None
    if "class" in merged:
        if "task" not in merged and first is not None:
            sink.add("EYLM001", "with its includes this Python task has no 'task:' name: the "
                     "index skips it (KeyError: 'task', logged at DEBUG)", first)
        return
    if "task" not in merged and "group" not in merged:
        if first is not None:
            sink.add("EYLM001", "with its includes this file has no 'task', 'group' or "
                     "'class' key: the index skips it (\"Unknown config shape\", logged at "
                     "DEBUG), so no task is registered", first)
        return
    if "group" in merged or text_of(merged["task"].value) is None:
        return  # a group's members are checked as tasks; a task list is EYLM001
    _output_needs(path, merged, first, sink)
    _first_document(path, merged, first, sink)
    _fewshot_pool(path, merged, sink)
    _template_names(path, merged, sink)
    if "process_results" not in merged:
        _exact_match(merged, facts, sink)
        _metric_outputs(path, merged, sink)


def _first_document(path: Path, merged: dict[str, Origin], first: Span | None,
                    sink: FindingSink) -> None:
    """What `ConfigurableTask.__init__` does to the first document before any request ("Test
    One Doc", `api/task.py:804-836`): render its text, and index the choices with an integer
    target."""
    text = merged.get("doc_to_text")
    if "use_prompt" not in merged and (text is None or (
            isinstance(text.value, Scalar) and text.value.value is None)):
        at = _here(merged["task"] if text is None else text, path, first)
        if at is not None:
            sink.add("EYLM018", "this task has no doc_to_text (with its includes): the harness "
                     "renders the first document's text when the task is loaded and raises a "
                     "bare TypeError", at)
    target, choices = merged.get("doc_to_target"), merged.get("doc_to_choice")
    if target is None or choices is None or "use_prompt" in merged or \
            not isinstance(target.value, Scalar) or not isinstance(choices.value, (Sequence,
                                                                                   Mapping)):
        return
    index = target.value.value
    count = len(choices.value.items) if isinstance(choices.value, Sequence) else \
        len(choices.value.pairs)
    if isinstance(index, bool) or not isinstance(index, int) or -count <= index < count:
        return
    if target.path == path:
        at = _written(target, target.value)
        sink.add("EYLM008", f"doc_to_target {index} is no index into the {count} options of "
                 "doc_to_choice: the harness looks the first document's target up among the "
                 "choices when the task is loaded and raises IndexError", at)


def _fewshot_pool(path: Path, merged: dict[str, Origin], sink: FindingSink) -> None:
    """`num_fewshot` drawn from a literal `fewshot_config.samples` list: both samplers need that
    many (`random.sample`, "Sample larger than population"; `first_n` asserts it), and fail
    while the requests are built (`api/samplers.py`)."""
    shots, config = merged.get("num_fewshot"), merged.get("fewshot_config")
    if shots is None or config is None or shots.path != path or \
            not isinstance(shots.value, Scalar) or not isinstance(config.value, Mapping):
        return
    fewshot = top(config.value)
    if "split" in fewshot or "fewshot_split" in merged:
        return  # a split wins over samples (`fewshot_docs`: "split will take precedence")
    samples = fewshot.get("samples")
    wanted = shots.value.value
    if samples is None or not isinstance(samples[1], Sequence) or isinstance(wanted, bool) or \
            not isinstance(wanted, int) or wanted <= len(samples[1].items):
        return
    held = len(samples[1].items)
    sink.add("EYLM018", f"num_fewshot {wanted} but fewshot_config.samples holds {held}: the "
             f"sampler cannot draw {wanted} examples from {held} and fails (\"Sample larger "
             "than population\") while the requests are built",
             _written(shots, shots.value))


def _metric_outputs(path: Path, merged: dict[str, Origin], sink: FindingSink) -> None:
    """What `ConfigurableTask.process_results` does with each registered metric, by output type:
    a loglikelihood, rolling or multiple-choice task returns only the metrics its branch
    computes (the rest are missing from the results without a word); a generate_until task
    calls each metric's function, and `acc` and its kin, which only pass on what a
    loglikelihood branch computed, get `[gold, answer]` (the `except TypeError` fallback), which
    `mean` cannot add up."""
    out = merged.get("output_type")
    output = text_of(out.value) if out is not None else "generate_until"
    metrics = merged.get("metric_list")
    if output not in vocab.OUTPUT_TYPES or metrics is None or metrics.path != path or \
            not isinstance(metrics.value, Sequence):
        return
    for entry in metrics.value.items:
        keys = top(entry) if isinstance(entry, Mapping) else {}
        metric = keys.get("metric")
        name = text_of(metric[1]) if metric is not None else None
        if metric is None or name is None or name not in vocab.METRICS:
            continue
        at = _written(metrics, metric[1])
        if output != "generate_until":
            produced = vocab.PRODUCED[output]
            if name not in produced:
                sink.add("EYLM010", f"a {output} task does not score '{name}': its "
                         f"process_results returns only {', '.join(produced)}, so '{name}' is "
                         "missing from the results without a word", at)
            continue
        aggregation = keys.get("aggregation")
        if name not in vocab.PASSTHROUGH_METRICS or (
                aggregation is not None and
                text_of(aggregation[1]) not in vocab.PASSTHROUGH_METRICS[name]):
            continue
        sink.add("EYLM010", f"'{name}' scores {vocab.METRICS[name]} answers: on a "
                 f"generate_until task its function is handed [gold, answer] and the "
                 f"'{vocab.PASSTHROUGH_METRICS[name][0]}' aggregation fails with a TypeError "
                 "after every answer is generated (with a list of targets, every answer scores "
                 "1.0); use exact_match (or a !function metric)", at)


def _written(origin: Origin, node: Node) -> Span:
    """Where `node` (the key `origin` merged, or a node of its value) is written in its file."""
    return origin.parsed.lines.span(node.start, node.end)


def _here(origin: Origin, path: Path, fallback: Span | None) -> Span | None:
    if origin.path == path:
        return _written(origin, origin.key)
    return fallback


def _output_needs(path: Path, merged: dict[str, Origin], first: Span | None,
                  sink: FindingSink) -> None:
    out = merged.get("output_type")
    output = text_of(out.value) if out is not None else "generate_until"
    if out is not None and output is None:
        return
    at = _here(out, path, first) if out is not None else None
    if output == "multiple_choice" and "doc_to_choice" not in merged and \
            "use_prompt" not in merged and at is not None:
        sink.add("EYLM008", "a multiple_choice task needs 'doc_to_choice' (the answer options): "
                 "without it the harness logs \"doc_to_choice was called but not set in config\" "
                 "and fails with a TypeError while it builds the requests", at)
    gen = merged.get("generation_kwargs")
    if output == "generate_until":
        task_at = _here(merged["task"], path, first) if "task" in merged else None
        if gen is None and task_at is not None:
            sink.add("EYLM019", "a generate_until task without generation_kwargs: the harness "
                     "warns \"No `generation_kwargs` specified in task config\" and generates "
                     "greedily (at most 256 tokens, until the fewshot_delimiter)", task_at)
        elif gen is not None and isinstance(gen.value, Mapping) and \
                "until" not in top(gen.value):
            gen_at = _here(gen, path, first)
            near = best_value("until", list(top(gen.value)))
            tail = f"; '{near}' is passed to the model as it is: did you mean 'until'?" \
                if near else ""
            if gen_at is not None:
                sink.add("EYLM019", "generation_kwargs has no 'until': the harness warns \"No "
                         "`until` specified in `generation_kwargs`! Defaulting to the "
                         f"fewshot_delimiter\"{tail}", gen_at)
    if gen is not None and output != "generate_until":
        gen_at = _here(gen, path, None)
        if gen_at is not None and output in vocab.OUTPUT_TYPES:
            sink.add("EYLM009", f"generation_kwargs is ignored by a {output} task: the harness "
                     "warns \"passed `generation_kwargs`, but not using `output_type: "
                     "generate_until`!\"", gen_at)


def _template_names(path: Path, merged: dict[str, Origin], sink: FindingSink) -> None:
    """A document field read in one template of the merged config and misspelt in another of
    this file: with StrictUndefined the misspelt one raises UndefinedError when the first
    document is rendered (lm-eval #3028). A name counts as a field when another template of the
    chain reads it; two spellings both read twice are both taken for real columns."""
    uses: dict[str, list[tuple[str, Origin, int]]] = {}
    for field in vocab.TEMPLATE_FIELDS:
        origin = merged.get(field)
        if origin is None or not isinstance(origin.value, Scalar) or \
                origin.value.tag == "!function":
            continue
        text = text_of(origin.value)
        if text is None:
            continue
        checked = jinja.check(text)
        if checked.problems:
            continue
        for name, at in checked.names.items():
            uses.setdefault(name, []).append((field, origin, at))
    for name, places in uses.items():
        if len(places) != 1:
            continue
        field, origin, at = places[0]
        if origin.path != path:
            continue
        others = [n for n, p in uses.items() if n != name and any(f != field for f, _, _ in p)]
        meant = best(name, others)
        if meant is None or _siblings(name, meant):
            continue
        if len(uses[meant]) < 2 and all(o.path == path for _, o, _ in uses[meant]):
            continue  # one spelling against one, both here: which one is meant is not known
        where = sorted({f for f, _, _ in uses[meant]})
        node = origin.value
        assert isinstance(node, Scalar)
        span = _inner_span(origin, node, at, len(name))
        sink.add("EYLM020", f"'{name}' is read only in {field}, while {', '.join(where)} read "
                 f"'{meant}': if the documents have no '{name}' the harness raises "
                 f"\"UndefinedError: '{name}' is undefined\" when it renders the first "
                 f"document; did you mean '{meant}'?", span)


def _siblings(a: str, b: str) -> bool:
    """Names that are two columns, not one misspelt: `sentence1`/`sentence2`, `choice`/`choices`,
    `label`/`labels`, or a case difference."""
    if a.lower() == b.lower():
        return True
    stem_a, stem_b = a.rstrip("0123456789"), b.rstrip("0123456789")
    if stem_a == stem_b or a.rstrip("s") == b.rstrip("s") or a.startswith(b) or \
            b.startswith(a):
        return True  # also `answer`/`answerA`, `question`/`question_en`
    # `sentence_cat_Latn`/`sentence_eus_Latn`: one whole word differs, not a letter or two.
    words_a, words_b = a.split("_"), b.split("_")
    if len(words_a) == len(words_b):
        differ = [(x, y) for x, y in zip(words_a, words_b, strict=True) if x != y]
        if len(differ) == 1:
            x, y = differ[0]
            return edit_distance(x, y, 99) * 2 > min(len(x), len(y))
    return False


def _inner_span(origin: Origin, node: Scalar, start: int, length: int) -> Span:
    where = source_offsets(origin.parsed.text[node.start:node.end], node.style, node.text)
    if where is None or start + length > len(where):
        return origin.parsed.lines.span(node.start, node.end)
    return origin.parsed.lines.span(node.start + where[start],
                                    node.start + where[start + length - 1] + 1)


def _exact_match(merged: dict[str, Origin], facts: dict[str, object],
                 sink: FindingSink) -> None:
    out = merged.get("output_type")
    output = text_of(out.value) if out is not None else "generate_until"
    if output != "generate_until":
        return
    args = facts.get("exact_match_args")
    if not isinstance(args, list):
        return
    for arg, span in args:
        hint = best_value(arg, vocab.EXACT_MATCH_ARGS)
        tail = f"; did you mean '{hint}'?" if hint else \
            f" (it takes {', '.join(vocab.EXACT_MATCH_ARGS)})"
        sink.add("EYLM011", f"exact_match takes no keyword '{arg}': on a generate_until task "
                 "both calls of the metric fail (\"exact_match_fn() takes 0 positional "
                 f"arguments\") after every answer is generated{tail}", span)


def _registered(folders: list[Path], names: list[Named], files: NamedFiles) -> set[str]:
    """Metrics and filters registered by Python beside the YAML, beside a template it includes
    (whose `!function`s are imported too), or in a module a `!function` names (imported at
    LOAD, before metrics and filters are set up)."""
    if not any(n.what in ("metric", "filter", "metric-aggregation") for n in names):
        return set()
    folder = folders[0]
    modules = {folder / "utils.py"}
    for named in names:
        if named.what == "function":
            dotted = named.name.rpartition(".")[0]
            modules.add(folder / (dotted.replace(".", "/") + ".py"))
    for each in folders:
        with contextlib.suppress(OSError):
            modules.update(each.glob("*.py"))
    found: set[str] = set()
    for module in sorted(modules):
        text = files.read_text(module)
        if text and "register_" in text:
            found.update(m.group(2) for m in _REGISTERED.finditer(text))
            found.update(m.group(1) for m in _METRIC_KEYWORD.finditer(text))
    return found


def _registry(named: Named, registered: set[str], sink: FindingSink) -> None:
    if named.name in registered:
        return
    if named.what == "metric":
        hint = best_value(named.name, list(vocab.METRICS))
        if hint is None:
            return  # perhaps a Hugging Face Evaluate metric: not ours to say
        sink.add("EYLM010", f"no metric '{named.name}' in the harness's registry: it looks "
                 "the name up in Hugging Face Evaluate and, failing that, scores nothing "
                 f"(\"{named.name} not found in the evaluate library!\"); did you mean "
                 f"'{hint}'?", named.span)
        return
    hint = best_value(named.name, list(vocab.FILTERS))
    tail = f"; did you mean '{hint}'?" if hint else \
        f" (registered: {', '.join(vocab.FILTERS)})"
    sink.add("EYLM014", f"no filter '{named.name}' is registered (none beside this file "
             f"registers it either): the harness raises \"Unknown filter '{named.name}'\" when "
             f"the task is loaded{tail}", named.span)


_DYNAMIC = re.compile(r"globals\(\)|^from[ \t]+\S+[ \t]+import[ \t]+\*|__getattr__|setattr\(",
                      re.MULTILINE)


def _package_root(path: Path) -> Path | None:
    for parent in path.parents:
        if parent.name == "lm_eval":
            return parent.parent
    return None


def _function(path: Path, named: Named, files: NamedFiles, sink: FindingSink) -> None:
    module, _, function = named.name.rpartition(".")
    target = files.resolve(path.parent, module.replace(".", "/") + ".py")
    if target is None:
        return
    text = files.read_text(target)
    if text is None and module.startswith("lm_eval."):
        # `__import__("lm_eval.tasks.x.utils")`: the harness's own package, which this
        # workspace may be (the upstream tree): find it from the folder holding lm_eval/.
        package = _package_root(path)
        if package is not None:
            target = files.resolve(package, module.replace(".", "/") + ".py")
            text = files.read_text(target) if target is not None else None
    if target is None:
        return
    if text is None:
        sink.add("EYLM005", f"no {module.replace('.', '/')}.py beside this file: the harness "
                 f"imports '{module}' by name for '{function}' (\"Cannot import module "
                 f"'{module}'\" when it is not installed)", named.span)
        return
    if _DYNAMIC.search(text):
        return  # names made at import time (`globals().update`, `import *`): not ours to say
    names = module_names(text)
    if names is not None and function not in names:
        defined = sorted(name for name in names if not name.startswith("_"))
        hint = best_value(function, defined) if defined else None
        tail = f"; did you mean '{hint}'?" if hint else ""
        shown = os.path.relpath(target, path.parent).replace(os.sep, "/")
        sink.add("EYLM004", f"{shown} has no top-level '{function}': the harness raises "
                 f"\"Module '{shown}' has no function '{function}'\" when the task is "
                 f"loaded{tail}", named.span)


__all__ = ["FACTS", "cross_check", "include_items", "merged_config"]

"""Golden datasets: `YamlDatasetLoader::validate`'s rules, every one located, and the metadata
knobs its metrics read at run time (`knobs`).

The loader (eval-harness `src/Datasets/YamlDatasetLoader.php`) throws `DatasetSchemaException`
at the first problem, so each rule here is an error with the loader's exact message. Decisions
read from its code rather than its docs:
- `samples` only has to be a PHP array: a YAML mapping passes `is_array`. Keyed 0, 1, 2... it
  loads like a list; with any other key the loader hands the key to `validateSample(int
  $index)` under `strict_types` and dies with a TypeError, so that is an error too.
- A sample that is a list passes `is_array` and then fails on its missing `id`.
- `input: {}` and `input: []` pass (an empty PHP array); a non-empty list fails.
- `expected_output` must exist; null is a value. `metadata:` with nothing after it is null,
  which is not an array: the loader refuses it.
- `isset` makes a null `name` or `id` missing; symfony/yaml makes `id: 2026-01-01` an integer.
"""

from __future__ import annotations

from evalyaml.core.findings import Fix, Related
from evalyaml.core.model import CaseSummary, Definition
from evalyaml.core.suggest import rank
from evalyaml.formats.padosoft import knobs
from evalyaml.formats.padosoft.common import Context, Typos, loop_items, typo_note
from evalyaml.formats.padosoft.kinds import DATASET, DATASET_VERSION
from evalyaml.formats.padosoft.rowhash import SHORT_LENGTH, row_hash
from evalyaml.formats.padosoft.values import (
    describe,
    is_array,
    is_assoc_or_empty,
    is_empty_array,
    is_list,
    is_numeric,
    string_of,
    value_of,
)
from evalyaml.syntax.text import Span
from evalyaml.syntax.tree import ExpansionLimit, Mapping, Node, Scalar, Sequence

LOAD = "eval-harness refuses to load the dataset"
ROOT_KEYS = ("schema_version", "name", "samples", "repetitions")
SAMPLE_KEYS = ("id", "input", "expected_output", "metadata")
# Names people use for a key that eval-harness spells otherwise (edit distance misses them).
SAMPLE_ALIASES = {"expected": "expected_output", "expected_answer": "expected_output",
                  "output": "expected_output", "ideal": "expected_output",
                  "inputs": "input", "meta": "metadata"}
SUPPORTED = (DATASET_VERSION,)


def loader(explanation: str, upstream: str, prefix: str = LOAD) -> str:
    """The message of a loader error: what it means, then the loader's own words."""
    return f'{prefix}: {explanation} (loader: "{upstream}")'


def check_schema_version(ctx: Context, root: Mapping, supported: tuple[str, ...], *,
                         label: str, prefix: str,
                         supported_word: str = "Supported versions") -> None:
    """`schema_version` is optional; present, it must be a supported non-empty string."""
    pair = root.pair("schema_version")
    if pair is None:
        return
    key, value = pair
    text = string_of(value)
    if text is None or text == "":
        ctx.add("EY500", loader(
            f"'schema_version' is {describe(value)}, not a version string",
            f"{label} YAML field 'schema_version' must be a non-empty string.", prefix),
            ctx.value_span(key, value))
        return
    if text in supported:
        return
    upstream = (f"{label} YAML field 'schema_version' has unsupported value '{text}'. "
                f"{supported_word}: {', '.join(supported)}.")
    ranked = [] if text.startswith("eval-harness.") else rank(text, supported)
    choice = ranked[0] if ranked else supported[0]
    hint = f"; did you mean '{choice}'?" if ranked else ""
    ctx.add("EY500", loader(f"this eval-harness reads only {', '.join(supported)}{hint}",
                            upstream, prefix),
            ctx.span(value), fixes=(ctx.replace_fix(value, choice),))


def check_dataset(ctx: Context, root: Node | None, *, samples_elsewhere: bool = False
                  ) -> tuple[list[Definition], list[CaseSummary]]:
    """`samples_elsewhere`: the root of a file split into its samples (`samples.py`), whose
    `samples:` has its list's lines taken out; each sample is checked on its own
    (`check_sample`), and the count in the definition is the caller's."""
    if not isinstance(root, Mapping):
        upstream = "Dataset YAML missing required string field 'name'."
        if root is None or (isinstance(root, Scalar) and value_of(root) is None):
            ctx.add("EY501", loader("the file is empty; a dataset needs 'name' and 'samples'",
                                    upstream), ctx.first_line())
        else:
            shape = "a list" if isinstance(root, Sequence) else "a single value"
            ctx.add("EY501", loader(f"the file is {shape}, not a mapping with 'name' and "
                                    "'samples'", upstream), ctx.head_span(root))
        return [], []
    typos = Typos(root, ROOT_KEYS)
    check_schema_version(ctx, root, SUPPORTED, label="Dataset", prefix=LOAD)
    name, name_node = _check_name(ctx, root, typos)
    cases = [] if samples_elsewhere else _check_samples(ctx, root, typos)
    typos.report_all_extra(ctx, "EY513", "the dataset", "its value has no effect",
                           exclude=("name", "samples"))
    definitions: list[Definition] = []
    if name is not None and name_node is not None:
        count = len(cases)
        definitions.append(Definition(
            kind=DATASET, id=name, version=None, id_span=ctx.span(name_node),
            version_span=None,
            description=samples_description(count)))
    return definitions, cases


def samples_description(count: int) -> str:
    return f"{count} sample{'s' if count != 1 else ''}"


def _check_name(ctx: Context, root: Mapping, typos: Typos) -> tuple[str | None, Node | None]:
    upstream = "Dataset YAML missing required string field 'name'."
    pair = root.pair("name")
    if pair is None:
        typo = typos.misspelt.get("name")
        if typo is not None:
            ctx.add("EY501", loader("the dataset has no 'name'" + typo_note(typo, "name"),
                                    upstream), ctx.span(typo),
                    fixes=(ctx.rename_fix(typo, "name"),))
        else:
            ctx.add("EY501", loader("the dataset has no 'name' (the name a registrar runs it "
                                    "under and an eval set lists)", upstream), ctx.head_span(root))
        return None, None
    key, value = pair
    text = string_of(value)
    if text is None or text == "":
        what = describe(value)
        why = (f"'name' is {what}, which counts as missing" if text is None and
               value_of(value) is None else f"'name' is {what}, not a non-empty string")
        ctx.add("EY501", loader(why, upstream), ctx.value_span(key, value))
        return None, None
    return text, value


def _check_samples(ctx: Context, root: Mapping, typos: Typos) -> list[CaseSummary]:
    upstream = "Dataset YAML missing required list field 'samples'."
    pair = root.pair("samples")
    if pair is None:
        typo = typos.misspelt.get("samples")
        if typo is not None:
            ctx.add("EY502", loader("the dataset has no 'samples'" + typo_note(typo, "samples"),
                                    upstream), ctx.span(typo),
                    fixes=(ctx.rename_fix(typo, "samples"),))
        else:
            ctx.add("EY502", loader("the dataset has no 'samples' list", upstream),
                    ctx.head_span(root))
        return []
    key, value = pair
    if not is_array(value):
        ctx.add("EY502", loader(f"'samples' is {describe(value)}, not a list of samples",
                                upstream), ctx.value_span(key, value))
        return []
    if is_empty_array(value):
        ctx.add("EY503", loader("'samples' is empty; a dataset needs at least one sample",
                                "Dataset YAML must declare at least one sample."),
                ctx.value_span(key, value))
        return []
    items = loop_items(ctx, value, file="dataset", key="samples", validator="validateSample")
    seen: dict[str, Node] = {}
    cases: list[CaseSummary] = []
    for index, sample in enumerate(items):
        summary = _check_sample(ctx, sample, index, seen)
        if summary is not None:
            cases.append(summary)
    return cases


def check_sample(ctx: Context, sample: Node, index: int) -> CaseSummary | None:
    """One sample on its own: every rule but the duplicate id (`duplicate_id`)."""
    return _check_sample(ctx, sample, index, {})


def _check_sample(ctx: Context, sample: Node, index: int, seen: dict[str, Node]
                  ) -> CaseSummary | None:
    if not is_array(sample):
        ctx.add("EY504", loader(f"sample {index} is {describe(sample)}, not a mapping",
                                f"Sample at index {index} is not an associative array."),
                ctx.node_span(sample))
        return None
    id_upstream = f"Sample at index {index} missing required string field 'id'."
    if not isinstance(sample, Mapping) or (is_list(sample) and sample.pairs):
        ctx.add("EY505", loader(f"sample {index} is a list, not a mapping, so it has no 'id'",
                                id_upstream), ctx.head_span(sample))
        return None
    typos = Typos(sample, SAMPLE_KEYS, SAMPLE_ALIASES)
    sample_id, id_node = _check_id(ctx, sample, index, typos, seen=seen,
                                   upstream=id_upstream)
    label = f"Sample '{sample_id if sample_id is not None else ''}' (index {index})"
    who = f"sample '{sample_id}'" if sample_id is not None else f"sample {index}"
    _check_input(ctx, sample, typos, label, who)
    expected = sample.pair("expected_output")
    if expected is None:
        upstream = f"{label} missing required field 'expected_output'."
        typo = typos.misspelt.get("expected_output")
        if typo is not None:
            ctx.add("EY508", loader(f"{who} has no 'expected_output'"
                                    + typo_note(typo, "expected_output"), upstream),
                    ctx.span(typo), fixes=(ctx.rename_fix(typo, "expected_output"),))
        else:
            ctx.add("EY508", loader(f"{who} has no 'expected_output' (write "
                                    "'expected_output: null' if no metric needs one)", upstream),
                    ctx.head_span(sample))
    else:
        _check_expected_shape(ctx, expected[1], sample_id or "")
    metadata = sample.pair("metadata")
    if metadata is not None:
        key, value = metadata
        if not is_array(value):
            what = ("empty (null)" if value_of(value) is None else describe(value))
            ctx.add("EY509", loader(f"'metadata' is {what}, not a mapping; write "
                                    "'metadata: {}' or remove the key",
                                    f"{label} field 'metadata' must be an associative array."),
                    ctx.value_span(key, value))
        elif not is_assoc_or_empty(value):
            ctx.add("EY509", loader(
                "'metadata' is a list; knobs are keys of a mapping ('tags: [...]', 'k: 10')",
                f"{label} field 'metadata' must be an associative array (got a YAML list)."),
                ctx.value_span(key, value))
        elif isinstance(value, Mapping):
            knobs.check_metadata(ctx, value, sample_id or "")
    typos.report_all_extra(ctx, "EY513", who, "its value has no effect",
                           exclude=("id", "input", "expected_output"))
    return CaseSummary(sample_id, ctx.span(sample), ctx.span(id_node) if id_node else None,
                       detail=_row_identity(sample))


def _row_identity(sample: Mapping) -> str | None:
    """Hover text on the sample's id: the hash eval-harness joins runs on (see rowhash.py)."""
    try:
        digest = row_hash(sample)
    except ExpansionLimit:
        return None
    if digest is None:
        return None
    return (f"Row identity (eval-harness `RowHash`): `{digest[:SHORT_LENGTH]}`\n\n"
            f"sha256 `{digest}` of this sample's `input` and `expected_output`; runs are "
            "joined on it, so editing either starts a new row, while renaming the id or "
            "editing metadata keeps the row's history.")


def _check_id(ctx: Context, sample: Mapping, index: int, typos: Typos, *,
              seen: dict[str, Node], upstream: str) -> tuple[str | None, Node | None]:
    pair = sample.pair("id")
    if pair is None:
        typo = typos.misspelt.get("id")
        if typo is not None:
            ctx.add("EY505", loader(f"sample {index} has no 'id'" + typo_note(typo, "id"),
                                    upstream), ctx.span(typo), fixes=(ctx.rename_fix(typo, "id"),))
        else:
            ctx.add("EY505", loader(f"sample {index} has no 'id'", upstream),
                    ctx.head_span(sample))
        return None, None
    key, value = pair
    text = string_of(value)
    if text is None or text == "":
        parsed = value_of(value)
        fixes: tuple[Fix, ...] = ()
        hint = ""
        if isinstance(value, Scalar) and value.text and parsed is not None:
            hint = f"; quote it: \"{value.text}\""
            fixes = (ctx.replace_fix(value, f'"{value.text}"', "Quote the id"),)
        why = ("'id' is null, which counts as missing" if parsed is None
               else f"the id is {describe(value)}, not a non-empty string{hint}")
        ctx.add("EY505", loader(why, upstream), ctx.value_span(key, value), fixes=fixes)
        return None, None
    first = seen.get(text)
    if first is not None:
        duplicate_id(ctx, text, index, ctx.span(value), ctx.span(first))
        return text, value
    seen[text] = value
    return text, value


def duplicate_id(ctx: Context, text: str, index: int, span: Span, first: Span) -> None:
    ctx.add("EY506", loader(f"sample id '{text}' is already used on line {first.start.line + 1}; "
                            "sample ids must be unique",
                            f"Duplicate sample id '{text}' at index {index}."),
            span, related=(Related(None, first, f"first sample '{text}'"),))


def _check_input(ctx: Context, sample: Mapping, typos: Typos, label: str, who: str) -> None:
    missing = f"{label} missing required associative-array field 'input'."
    pair = sample.pair("input")
    if pair is None:
        typo = typos.misspelt.get("input")
        if typo is not None:
            ctx.add("EY507", loader(f"{who} has no 'input'" + typo_note(typo, "input"), missing),
                    ctx.span(typo), fixes=(ctx.rename_fix(typo, "input"),))
        else:
            ctx.add("EY507", loader(f"{who} has no 'input' (the mapping of arguments handed to "
                                    "the system under test)", missing), ctx.head_span(sample))
        return
    key, value = pair
    if not is_array(value):
        ctx.add("EY507", loader(f"'input' is {describe(value)}, not a mapping of named "
                                "arguments such as 'question: ...'", missing),
                ctx.value_span(key, value))
    elif not is_assoc_or_empty(value):
        ctx.add("EY507", loader(
            "'input' is a list; the system under test gets a mapping of named arguments "
            "such as 'question: ...'",
            f"{label} field 'input' must be an associative array (got a YAML list)."),
            ctx.value_span(key, value))


def _check_expected_shape(ctx: Context, value: Node, sample_id: str) -> None:
    """Only shapes no metric family can score: a list of ids with a non-id in it, or a graded
    gain map with a gain that is not a number. A string, null or a mapping of other things
    (a judge's structured answer) is left alone: which metrics run is not in the file."""
    if isinstance(value, Sequence):
        good = [item for item in value.items if (string_of(item) or "") != ""]
        if not good:
            return
        for item in value.items:
            if (string_of(item) or "") == "":
                ctx.add("EY518", "retrieval metrics fail on this sample: expected_output lists "
                        f"relevant ids, and {describe(item)} is not a non-empty id string "
                        f"(metric: \"Sample '{sample_id}' retrieval expected_output ids must "
                        "be non-empty strings.\")", _item_span(ctx, item))
    elif isinstance(value, Mapping) and value.pairs and not is_list(value):
        gains = [v for _, v in value.pairs]
        if not any(is_numeric(g) for g in gains):
            return
        for gain_key, gain in value.pairs:
            if isinstance(gain_key, Scalar) and gain_key.text == "":
                ctx.add("EY518", "retrieval metrics fail on this sample: a graded expected_output "
                        "maps each id to a gain, and an empty key is no id "
                        f"(metric: \"Sample '{sample_id}' retrieval expected_output gain map must "
                        "be id => numeric gain.\")", ctx.span(gain_key))
            elif not is_numeric(gain):
                ctx.add("EY518", "retrieval metrics fail on this sample: a graded expected_output "
                        "maps each id to a numeric gain, and "
                        f"{describe(gain)} is not a number "
                        f"(metric: \"Sample '{sample_id}' retrieval expected_output gain map must "
                        "be id => numeric gain.\")", ctx.value_span(gain_key, gain))


def _item_span(ctx: Context, item: Node) -> Span:
    if item.end > item.start:
        return ctx.span(item)
    lines = ctx.parsed.lines
    return lines.span(item.start, lines.line_end(lines.position(item.start).line))


"""The harness's vocabulary, copied from its code at 4e7e0d47 (PyPI 0.4.13 where marked).

Each table names the upstream place it comes from; nothing here is guessed from task files.
"""

from __future__ import annotations

# `lm_eval/config/task.py:82`, `@dataclass class TaskConfig(dict)`: every field.
TASK_FIELDS: tuple[str, ...] = (
    "task", "task_alias", "tag", "custom_dataset", "dataset_path", "dataset_name",
    "dataset_kwargs", "training_split", "validation_split", "test_split", "fewshot_split",
    "process_docs", "doc_to_text", "doc_to_target", "doc_to_image", "doc_to_audio",
    "unsafe_code", "doc_to_choice", "process_results", "use_prompt", "description",
    "target_delimiter", "fewshot_delimiter", "fewshot_config", "num_fewshot", "metric_list",
    "output_type", "generation_kwargs", "repeats", "filter_list", "should_decontaminate",
    "doc_to_decontamination_query", "gen_prefix", "metadata",
)
# Popped before `TaskConfig(**cfg)` (`tasks/_factory.py:_build_task`), or consumed by the loader
# (`include`), or kept for a Python task's own constructor (`class`).
LOADER_KEYS: tuple[str, ...] = ("group", "task_list", "include", "class")

# `lm_eval/config/group.py:47`, `GroupConfig`.
GROUP_FIELDS: tuple[str, ...] = ("group", "group_alias", "task", "aggregate_metric_list",
                                 "metadata")
# `config/group.py:7`, `AggMetricConfig`.
AGG_METRIC_FIELDS: tuple[str, ...] = ("metric", "filter_list", "aggregation", "weight_by_size")

# `config/task.py:21`, `FewshotConfig`.
FEWSHOT_FIELDS: tuple[str, ...] = (
    "sampler", "split", "process_docs", "fewshot_indices", "samples", "doc_to_text",
    "doc_to_choice", "doc_to_target", "gen_prefix", "fewshot_delimiter", "target_delimiter",
)
# `api/samplers.py:124`, `SAMPLER_REGISTRY`.
SAMPLERS: tuple[str, ...] = ("default", "first_n")

# `api/task.py:51`, `ALL_OUTPUT_TYPES`.
OUTPUT_TYPES: tuple[str, ...] = ("loglikelihood", "multiple_choice", "loglikelihood_rolling",
                                 "generate_until")

# `api/metrics.py`, `@register_metric`: name -> output types that produce a value
# (`ConfigurableTask.process_results`; generate_until calls every listed metric).
METRICS: dict[str, str] = {
    "acc": "loglikelihood, multiple_choice",
    "acc_norm": "multiple_choice",
    "acc_mutual_info": "multiple_choice",
    "acc_bytes": "multiple_choice",
    "acc_all": "loglikelihood",
    "brier_score": "multiple_choice",
    "likelihood": "multiple_choice",
    "exact_match": "generate_until, multiple_choice",
    "perplexity": "loglikelihood",
    "word_perplexity": "loglikelihood_rolling",
    "byte_perplexity": "loglikelihood_rolling",
    "bits_per_byte": "loglikelihood_rolling",
    "bypass": "loglikelihood, multiple_choice, generate_until",
    "mcc": "multiple_choice",
    "f1": "multiple_choice",
    "bleu": "generate_until",
    "chrf": "generate_until",
    "chrf++": "generate_until",  # PyPI 0.4.13
    "ter": "generate_until",
}
# What `ConfigurableTask.process_results` returns for each output type but generate_until (which
# calls every metric): the only metrics such a task can report (`api/task.py:1461-1528`).
PRODUCED: dict[str, tuple[str, ...]] = {
    "loglikelihood": ("perplexity", "acc"),
    "loglikelihood_rolling": ("word_perplexity", "byte_perplexity", "bits_per_byte"),
    "multiple_choice": ("acc", "f1", "mcc", "acc_norm", "acc_bytes", "exact_match",
                        "brier_score", "likelihood", "acc_mutual_info"),
}
# Metrics whose function returns what it is given (`api/metrics.py`: `acc_fn(items)`...), scored
# by `process_results` for loglikelihood and multiple-choice requests -> the aggregations that
# fail on the `[gold, answer]` pairs a generate_until task hands them (the registered default
# first).
PASSTHROUGH_METRICS: dict[str, tuple[str, ...]] = {
    name: (default, *(a for a in ("mean", "nanmean") if a != default))
    for name, default in (("acc", "mean"), ("acc_norm", "mean"), ("acc_mutual_info", "mean"),
                          ("acc_bytes", "mean"), ("likelihood", "mean"),
                          ("perplexity", "perplexity"))
}
# Keys of a `metric_list` entry the task reads itself (`api/task.py:680-754`); every other key
# is a keyword argument of the metric function.
METRIC_ENTRY_KEYS: tuple[str, ...] = ("metric", "aggregation", "higher_is_better",
                                      "hf_evaluate")
# `api/metrics.py:210`, `exact_match_hf_evaluate`'s keyword arguments.
EXACT_MATCH_ARGS: tuple[str, ...] = ("regexes_to_ignore", "ignore_case", "ignore_punctuation",
                                     "ignore_numbers")
# `api/metrics.py`, `@register_aggregation`.
AGGREGATIONS: tuple[str, ...] = (
    "bypass", "nanmean", "mean", "median", "perplexity", "weighted_perplexity", "bits_per_byte",
    "f1", "matthews_corrcoef", "bleu", "chrf", "chrf++", "ter", "brier_score",
)
# Metrics of the Hugging Face `evaluate` library (`get_metric` falls back to
# `evaluate.load(name)` for a name the registry lacks): a name among them is not a mistake.
HF_EVALUATE_METRICS: frozenset[str] = frozenset({
    "accuracy", "bertscore", "bleu", "bleurt", "brier_score", "cer", "character", "charcut_mt",
    "chrf", "code_eval", "comet", "competition_math", "confusion_matrix", "coval", "cuad",
    "exact_match", "f1", "frugalscore", "glue", "google_bleu", "indic_glue", "mae", "mahalanobis",
    "mape", "mase", "matthews_correlation", "mauve", "mean_iou", "meteor", "mse", "nist_mt",
    "pearsonr", "perplexity", "poseval", "precision", "r_squared", "recall", "rl_reliability",
    "roc_auc", "rouge", "sacrebleu", "sari", "seqeval", "smape", "spearmanr", "squad",
    "squad_v2", "super_glue", "ter", "trec_eval", "wer", "wiki_split", "xnli", "xtreme_s",
})

# `lm_eval/filters/*.py`, `@register_filter`, imported by `filters/__init__.py`: name -> the
# keyword arguments its class takes, or None when its `__init__` takes `**kwargs`.
FILTERS: dict[str, tuple[str, ...] | None] = {
    "regex": ("regex_pattern", "group_select", "fallback"),
    "regex_pos": ("regex_pattern", "group_select", "fallback"),
    "remove_whitespace": None,
    "multi_choice_regex": ("regex_pattern", "group_select", "fallback", "ignore_case",
                           "ignore_punctuation", "regexes_to_ignore"),
    "take_first": (),
    "take_first_k": None,
    "majority_vote": (),
    "lowercase": (),
    "uppercase": (),
    "map": ("mapping_dict", "default_value"),
    "format_span": (),
    "custom": None,
}
# Arguments a filter needs (`kwargs.pop(...)` in its `__init__`).
FILTER_REQUIRED: dict[str, str] = {"take_first_k": "k", "custom": "filter_fn"}

# Jinja2's built-in filters (`jinja2/filters.py`, FILTERS) and the one the harness adds
# (`lm_eval/utils.py:614`, `env.filters["regex_replace"]`).
JINJA_FILTERS: frozenset[str] = frozenset({
    "abs", "attr", "batch", "capitalize", "center", "count", "d", "default", "dictsort", "e",
    "escape", "filesizeformat", "first", "float", "forceescape", "format", "groupby", "indent",
    "int", "items", "join", "last", "length", "list", "lower", "map", "max", "min", "pprint",
    "random", "reject", "rejectattr", "replace", "reverse", "round", "safe", "select",
    "selectattr", "slice", "sort", "string", "striptags", "sum", "title", "tojson", "trim",
    "truncate", "unique", "upper", "urlencode", "urlize", "wordcount", "wordwrap", "xmlattr",
    "regex_replace",
})
# Jinja's own tests (`jinja2.tests.TESTS`, 3.1): the harness adds none. Symbols (`==`, `<`) are
# tests too, but are not names a template can write after `is`.
JINJA_TESTS: frozenset[str] = frozenset({
    "boolean", "callable", "defined", "divisibleby", "eq", "equalto", "escaped", "even",
    "false", "filter", "float", "ge", "greaterthan", "gt", "in", "integer", "iterable", "le",
    "lessthan", "lower", "lt", "mapping", "ne", "none", "number", "odd", "sameas", "sequence",
    "string", "test", "true", "undefined", "upper",
})
# Fields rendered as Jinja templates (`api/task.py`: doc_to_text/target/choice, description and
# gen_prefix through `resolve_field`/`apply_template`), in a task and in `fewshot_config`.
TEMPLATE_FIELDS: tuple[str, ...] = ("doc_to_text", "doc_to_target", "doc_to_choice",
                                    "description", "gen_prefix")

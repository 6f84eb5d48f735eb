"""The lm-eval examples through lm-eval's own code (PyPI 0.4.13), beside `evalyaml check`.

    /work/tools/lmeval/bin/python bench/lmeval_side_by_side.py [examples/lm-eval]

Run with the interpreter of a venv where `lm-eval` is installed (it is never a dependency of
evalyaml). For each file it goes as far as the harness goes before it needs the dataset: the
index (`TaskIndex.build`: is the task registered?), `load_yaml(resolve_func=True)` (includes,
`!function` imports of the example's own `utils.py`), `TaskConfig(**cfg)` / `GroupConfig` /
`AggMetricConfig` (unknown keys, few-shot config, generation warnings), the output type, the
metric and aggregation registries, each filter's constructor, the sampler registry and the
templates compiled by the harness's Jinja environment. Nothing is downloaded or evaluated
(`HF_*_OFFLINE`); a metric the registry lacks is reported as such, not looked up in Evaluate.
The verdict printed is the first exception or warning upstream raises; evalyaml's codes for the
same file stand beside it.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
# evalyaml runs in its own environment (the repository's .venv, or $EVALYAML_PYTHON).
EVALYAML_PYTHON = Path(os.environ.get(
    "EVALYAML_PYTHON", Path(__file__).resolve().parents[1] / ".venv" / "bin" / "python"))


class _Warnings(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.seen.append(record.getMessage())


def upstream_verdict(path: Path, root: Path, index: dict[str, object]) -> str:
    from lm_eval.api import registry
    from lm_eval.api.samplers import SAMPLER_REGISTRY
    from lm_eval.api.task import ALL_OUTPUT_TYPES
    from lm_eval.config.group import AggMetricConfig, GroupConfig
    from lm_eval.config.task import TaskConfig
    from lm_eval.tasks._index import TaskIndex
    from lm_eval.tasks._yaml_loader import load_yaml
    from lm_eval.utils import env

    if path.suffix != ".yaml":
        return "not indexed (only *.yaml is read)"
    try:
        raw = load_yaml(path, resolve_func=False)
        TaskIndex._kind_of(raw)
        name = raw.get("group") if "group" in raw and "class" not in raw else raw.get("task")
        if not isinstance(name, str) or name not in index:
            return f"not indexed ({name!r} absent)"
    except Exception as error:  # the index's DEBUG skip
        return f"index skips it: {type(error).__name__}: {error}"
    catcher = _Warnings()
    logging.getLogger().addHandler(catcher)
    try:
        cfg = load_yaml(path, resolve_func=True)
        if "group" in cfg:
            fields = {"group", "group_alias", "task", "aggregate_metric_list", "metadata"}
            group = GroupConfig(**{k: v for k, v in cfg.items() if k in fields})
            for entry in group.aggregate_metric_list or []:
                if isinstance(entry, dict):
                    AggMetricConfig(**entry)
            extra = {k: v for k, v in cfg.items() if k not in fields}
            if extra:
                TaskConfig(**extra)
            if not isinstance(cfg.get("task"), list):
                return "group with no members (task is not a list)"
            return "; ".join(catcher.seen) or "ok"
        for key in ("tag", "group", "task_list"):
            cfg.pop(key, None)
        if "class" in cfg:
            return "ok (Python task)"
        task = TaskConfig(**cfg)
        if task.output_type not in ALL_OUTPUT_TYPES:
            return f"ValueError: Got invalid output_type '{task.output_type}'"
        if task.output_type == "multiple_choice" and task.doc_to_choice is None:
            return "doc_to_choice was called but not set in config"
        SAMPLER_REGISTRY[task.fewshot_config.sampler]
        for metric in task.metric_list or []:
            if "metric" not in metric:
                return "ValueError: 'metric' key not provided for an entry in 'metric_list'"
            if isinstance(metric["metric"], str) and \
                    metric["metric"] not in registry.METRIC_REGISTRY:
                return f"metric {metric['metric']!r} not registered (Evaluate lookup)"
            agg = metric.get("aggregation")
            if isinstance(agg, str) and agg not in registry.AGGREGATION_REGISTRY:
                return f"{agg} not a registered aggregation metric!"
            kwargs = {k: v for k, v in metric.items()
                      if k not in ("metric", "aggregation", "higher_is_better", "hf_evaluate")}
            if metric["metric"] == "exact_match" and kwargs:
                registry.get_metric("exact_match")(references=["a"], predictions=["a"],
                                                   **kwargs)
        for pipeline in task.filter_list or []:
            pipeline["name"]
            for step in pipeline["filter"]:
                function = step["function"]
                kwargs = {k: v for k, v in step.items() if k != "function"}
                registry.get_filter(function)(**kwargs)
        for field in ("doc_to_text", "doc_to_target", "doc_to_choice", "description",
                      "gen_prefix"):
            value = getattr(task, field)
            if isinstance(value, str):
                env.from_string(value)
        return "; ".join(catcher.seen) or "ok"
    except Exception as error:
        return f"{type(error).__name__}: {str(error)[:160]}"
    finally:
        logging.getLogger().removeHandler(catcher)


def main() -> None:
    from lm_eval.tasks._index import TaskIndex

    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "examples/lm-eval").resolve()
    logging.disable(logging.NOTSET)
    rows = []
    for part in ("tasks", "mistakes"):
        root = folder / part
        index = TaskIndex.build([root])
        for path in sorted(p for p in root.rglob("*") if p.suffix in (".yaml", ".yml")):
            done = subprocess.run([str(EVALYAML_PYTHON), "-m", "evalyaml", "check", str(path),
                                   "--format", "json"], capture_output=True, text=True,
                                  check=False)
            codes = sorted({f["code"] for f in json.loads(done.stdout or "[]")})
            rows.append((str(path.relative_to(folder)), ", ".join(codes) or "-",
                         upstream_verdict(path, root, index)))
    print("| file | evalyaml | lm-eval 0.4.13 (index, loader, configs, registries) |")
    print("| --- | --- | --- |")
    for name, codes, verdict in rows:
        print(f"| {name} | {codes} | {verdict.replace('|', '/')} |")


if __name__ == "__main__":
    main()

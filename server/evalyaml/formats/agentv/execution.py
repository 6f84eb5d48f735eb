"""A suite's and a test's `execution` block as the loader reads it at e43a4d46
(`loaders/config-loader.ts`, `yaml-parser.ts`): the values it drops without failing, and the
target names the run looks up in the targets file.

- `extractThreshold`: a suite's `execution.threshold` is used only when it is a number in
  [0, 1]; anything else logs "Invalid execution.threshold ... Ignoring." and the suite has no
  quality gate. A test's `execution.threshold` (`loadTestsFromYaml`) is dropped with no word.
- `extractWorkersFromSuite`: `execution.workers` only as a whole number from 1 to 50.
- `extractTrialsConfig`, `extractCacheConfig`, `extractBudgetUsd`, `extractFailOnError`:
  `trials.count` a whole number >= 1 (else the trials config is ignored), `trials.strategy`
  one of pass_at_k, mean, confidence_interval, `trials.cost_limit_usd` and `budget_usd`
  positive numbers, `cache` and `fail_on_error` true or false; each otherwise logs "Invalid
  execution...." and is ignored. `total_budget_usd` makes the loader throw (renamed).
- `extractTargetFromSuite` / `extractTargetRefsFromSuite` / `extractTargetsFromTestCase`: the
  names of `execution.target` (legacy top-level `target`), `execution.targets` (strings, or
  objects with `name` and `use_target`) and a test's `execution.targets`; the CLI resolves
  them in the discovered targets file (`resolveUseTarget`: "Target 'x' not found in ...").
  Those checks need the targets file and are the cross check's (`targets_of`).
"""

from __future__ import annotations

from evalyaml.core.suggest import best_value
from evalyaml.formats.agentv.common import Context, is_null, rank_value, text_of
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence

_ENV = "${{"


def check_execution(ctx: Context, value: Node, targets: list[tuple[str, Scalar]], *,
                    suite: bool, local: list[tuple[str, Scalar]] | None = None) -> None:
    """`targets` collects each target name written (for the cross check); `local` the names a
    suite's `execution.targets` object defines with `use_target` (the CLI adds them to the
    file's definitions: `selectMultipleTargets`, "synthetic definitions")."""
    if not isinstance(value, Mapping):
        return
    pair = value.pair("threshold")
    if pair is not None:
        key, raw = pair
        number = raw.value if isinstance(raw, Scalar) else None
        usable = isinstance(number, (int, float)) and not isinstance(number, bool) \
            and 0 <= number <= 1
        env = isinstance(number, str) and _ENV in number
        if not usable and not env and not is_null(raw):
            shown = (f'"{number}"' if isinstance(number, str) else raw.text) \
                if isinstance(raw, Scalar) else "this value"
            how = ("the loader logs \"Invalid execution.threshold\" and ignores it: the suite "
                   "has no pass mark") if suite else \
                "the loader drops it without a word: the suite's threshold applies"
            # a whole percentage (80 for 0.8); 1.5 is no percentage anyone writes
            hint = f"; did you mean {number / 100:g}?" if isinstance(number, (int, float)) \
                and not isinstance(number, bool) and 1 < number <= 100 \
                and number == int(number) else ""
            ctx.add("EY638", f"'threshold: {shown}' is ignored: agentv reads a number between "
                    f"0 and 1; {how}{hint}", ctx.at(key, raw))
    if suite:
        pair = value.pair("workers")
        if pair is not None:
            key, raw = pair
            number = raw.value if isinstance(raw, Scalar) else None
            whole = isinstance(number, int) and not isinstance(number, bool) \
                and 1 <= number <= 50
            if not whole and not (isinstance(number, str) and _ENV in number) \
                    and not is_null(raw):
                ctx.add("EY638", "'workers' is ignored without a word unless it is a whole "
                        "number from 1 to 50: the targets file's workers (or 5) apply",
                        ctx.at(key, raw))
    listed = value.get("targets")
    if suite and not (isinstance(listed, Sequence) and listed.items):
        _name(value.get("target"), targets)  # `execution.targets` takes precedence
    if suite:
        _suite_settings(ctx, value)
    if isinstance(listed, Sequence):
        for item in listed.items:
            if isinstance(item, Mapping) and suite:
                if item.get("use_target") is not None:
                    _name(item.get("name"), local if local is not None else [])
                    _name(item.get("use_target"), targets)
                else:
                    _name(item.get("name"), targets)
            elif isinstance(item, Scalar):
                _name(item, targets)


def legacy_target(value: Node | None, targets: list[tuple[str, Scalar]]) -> None:
    """A top-level `target:` (read when `execution.target` is absent)."""
    _name(value, targets)


def _name(node: Node | None, targets: list[tuple[str, Scalar]]) -> None:
    name = text_of(node) if node is not None else None
    if isinstance(node, Scalar) and name and name.strip() and _ENV not in name:
        targets.append((name.strip(), node))


_STRATEGIES = ("pass_at_k", "mean", "confidence_interval")


def _number(node: Node) -> float | None:
    value = node.value if isinstance(node, Scalar) else None
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _skip(node: Node) -> bool:
    """Null (the default) or a `${{ VAR }}` filled in before the loader reads it."""
    return is_null(node) or (isinstance(node, Scalar) and isinstance(node.value, str)
                             and _ENV in node.value)


def _suite_settings(ctx: Context, value: Mapping) -> None:
    for name in ("total_budget_usd", "totalBudgetUsd"):
        pair = value.pair(name)
        if pair is not None and isinstance(pair[0], Scalar):
            ctx.add("EY602", f"'{name}' has been renamed to 'budget_usd': the loader stops "
                    "(\"execution.total_budget_usd has been renamed to execution.budget_usd\")",
                    ctx.span(pair[0]), fixes=(ctx.rename_fix(pair[0], "budget_usd"),))
    for name in ("budget_usd", "budgetUsd"):
        pair = value.pair(name)
        if pair is not None and not _skip(pair[1]):
            number = _number(pair[1])
            if number is None or number <= 0:
                ctx.add("EY638", f"'{name}' is ignored unless it is a positive number (\"Invalid "
                        "execution.budget_usd ... Ignoring.\"): the run has no budget",
                        ctx.at(*pair))
    for name in ("cache", "fail_on_error"):
        pair = value.pair(name)
        if pair is not None and not _skip(pair[1]) and not (
                isinstance(pair[1], Scalar) and isinstance(pair[1].value, bool)):
            ctx.add("EY638", f"'{name}' is ignored unless it is true or false (\"Invalid "
                    f"execution.{name} ... Ignoring.\")", ctx.at(*pair))
    trials = value.get("trials")
    if not isinstance(trials, Mapping):
        return
    pair = trials.pair("count")
    if pair is not None and not _skip(pair[1]):
        count = _number(pair[1])
        if count is None or count != int(count) or count < 1:
            ctx.add("EY638", "'trials.count' must be a whole number >= 1: the loader ignores "
                    "the whole trials config (\"Invalid trials.count\")", ctx.at(*pair))
    pair = trials.pair("strategy")
    if pair is not None and not _skip(pair[1]):
        raw = pair[1]
        text = text_of(raw)
        if text not in _STRATEGIES:
            choice = best_value(text, _STRATEGIES) if text else None
            hint = f"; did you mean '{choice}'?" if choice else ""
            fixes = (ctx.rename_fix(raw, choice),) if choice and isinstance(raw, Scalar) \
                else ()
            ctx.add("EY638", f"'trials.strategy' must be one of {', '.join(_STRATEGIES)}: the "
                    f"loader uses pass_at_k (\"Invalid trials.strategy\"){hint}",
                    ctx.at(*pair), fixes=fixes)
    for name in ("cost_limit_usd", "costLimitUsd"):
        pair = trials.pair(name)
        if pair is not None and not _skip(pair[1]):
            number = _number(pair[1])
            if number is None or number <= 0:
                ctx.add("EY638", f"'trials.{name}' is ignored unless it is a positive number "
                        "(\"Invalid trials.cost_limit_usd ... Ignoring.\")", ctx.at(*pair))


Found = list[tuple[str, str, Scalar]]  # (SuiteRef role, name, node)


def suite_targets(ctx: Context, values: dict[str, tuple[Scalar, Node]]) -> Found:
    """The suite's `execution` (and legacy `target`): its findings, its target names."""
    targets: list[tuple[str, Scalar]] = []
    local: list[tuple[str, Scalar]] = []
    execution = values["execution"][1] if "execution" in values else None
    if execution is not None:
        check_execution(ctx, execution, targets, suite=True, local=local)
    if "target" in values and not (isinstance(execution, Mapping) and (
            text_of(execution.get("target")) or execution.get("targets") is not None)):
        legacy_target(values["target"][1], targets)
    return [("target-def", n, node) for n, node in local] + \
        [("target", n, node) for n, node in targets]


def ignored_values_and_targets(ctx: Context, values: dict[str, tuple[Scalar, Node]]) -> Found:
    """A test's settings the loader drops, and the targets its `execution` names."""
    _ignored_values(ctx, values)
    targets: list[tuple[str, Scalar]] = []
    if "execution" in values:
        check_execution(ctx, values["execution"][1], targets, suite=False)
    return [("target", n, node) for n, node in targets]


_CHOICES = {"aggregation": ("mean", "min", "max"), "on_turn_failure": ("continue", "stop"),
            "on_dependency_failure": ("skip", "fail", "run")}


def _ignored_values(ctx: Context, values: dict[str, tuple[Scalar, Node]]) -> None:
    """Values `yaml-parser.ts` reads only when they are one of a few words: anything else is
    dropped without a word and the default applies."""
    for name, choices in _CHOICES.items():
        if name not in values:
            continue
        key, value = values[name]
        text = text_of(value)
        if text in choices or (text is not None and _ENV in text):
            continue
        ranked = rank_value(text, choices) if text else []
        hint = f"; did you mean '{ranked[0]}'?" if ranked else ""
        shown = text if text is not None else (value.text if isinstance(value, Scalar) else "")
        ctx.add("EY638", f"'{name}: {shown}' is ignored without a word (must be one of "
                f"{', '.join(choices)}): the default applies{hint}", ctx.at(key, value),
                fixes=(ctx.rename_fix(value, ranked[0]),)
                if ranked and isinstance(value, Scalar) else ())
    if "window_size" in values:
        key, value = values["window_size"]
        number = value.value if isinstance(value, Scalar) else None
        if not (isinstance(number, (int, float)) and not isinstance(number, bool)
                and number >= 1) and not (isinstance(number, str) and _ENV in number):
            ctx.add("EY638", "'window_size' is ignored without a word unless it is a number "
                    ">= 1: the whole conversation is sent", ctx.at(key, value))



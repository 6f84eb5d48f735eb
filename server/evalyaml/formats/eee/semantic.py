"""The checks `every_eval_ever validate` (PyPI 0.3.0) runs on an aggregate beyond its models.

`validator/validation_core.py` registers them (`REGISTERED_CHECKS`) and runs them on every file
whatever its `schema_version`, so they apply to every aggregate here too:
- `check_score_metadata` (an error): a metric's `min_score` above its `max_score`, and a
  `score_details.score` outside `[min_score, max_score]`. Its other cases (a bound or score that
  is not a finite number, a continuous metric without bounds) are the schema's and strict
  JSON's findings already (EY702, EY708, EY112), so they are not said twice.
- `check_model_identity_path` (a warning): the folders `<developer>/<model>` must be the ones
  `model_info.id` files under (`helpers/io.datastore_path_components`), or the identity names
  no folder at all. Only for a file whose path already keeps the convention (upstream skips the
  others: its path check has said it).
- The byte-order mark: upstream reads every file as `utf-8` and parses it with `json.loads`,
  which refuses a text that starts with U+FEFF ("Unexpected UTF-8 BOM"): an aggregate with one
  fails whole, a samples file on its first line.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from evalyaml.core.findings import FindingSink, Related
from evalyaml.formats.eee import paths
from evalyaml.formats.eee.schemacheck import json_type
from evalyaml.syntax.text import Position, Span
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence

SCORE_RANGE, BOM, MODEL_PATH, OVERFLOW = "EY727", "EY729", "EY730", "EY112"

_UNSAFE = re.compile(r'[<>:"\\|?*\x00-\x1f]')
_RESERVED = frozenset({"CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(1, 10)),
                       *(f"LPT{i}" for i in range(1, 10))})


def bom(head: bytes, sink: FindingSink, *, samples: bool) -> None:
    """A UTF-8 byte-order mark before the first character. Read from the file's bytes: the
    text evalyaml and editors show has it dropped, so no edit of the text can remove it."""
    if not head.startswith(b"\xef\xbb\xbf"):
        return
    what = "its first line" if samples else "the whole file"
    sink.add(BOM, "the file starts with a byte-order mark (U+FEFF): every_eval_ever reads "
             f"its files as plain UTF-8 and its JSON reader refuses {what} (\"Unexpected UTF-8 "
             "BOM\"); save it as UTF-8 without a BOM", Span(Position(0, 0), Position(0, 1)))


def _number(node: Node | None) -> float | None:
    """A JSON number (never a boolean), or the strict-JSON strings for an infinite bound."""
    if not isinstance(node, Scalar):
        return None
    if json_type(node) in ("integer", "number"):
        value = float(node.value)  # type: ignore[arg-type]
        return None if math.isnan(value) else value
    if node.style and node.text in ("Infinity", "-Infinity"):
        return math.inf if node.text == "Infinity" else -math.inf
    return None


def score_ranges(root: Mapping, place: Callable[[Node], Span], sink: FindingSink) -> None:
    results = root.get("evaluation_results")
    if not isinstance(results, Sequence):
        return
    for index, result in enumerate(results.items):
        score_range(index, result, place, sink)


def score_range(index: int, result: Node, place: Callable[[Node], Span],
                sink: FindingSink) -> None:
    """One result's metric range and score: what `check_score_metadata` reads of it (nothing
    of the other results, so an aggregate read result by result says it per result)."""
    metric = result.get("metric_config") if isinstance(result, Mapping) else None
    if not isinstance(metric, Mapping):
        return
    low_node, high_node = metric.get("min_score"), metric.get("max_score")
    if not isinstance(low_node, Scalar) or not isinstance(high_node, Scalar):
        return  # upstream compares only when both bounds are there
    low, high = _number(low_node), _number(high_node)
    if low is not None and high is not None and low > high:
        sink.add(SCORE_RANGE, f"evaluation_results[{index}]: min_score {low_node.text} is "
                 f"greater than max_score {high_node.text}; every_eval_ever validate "
                 "refuses a metric whose range is upside down", place(low_node))
        return
    details = result.get("score_details") if isinstance(result, Mapping) else None
    score_node = details.get("score") if isinstance(details, Mapping) else None
    if not isinstance(score_node, Scalar) or score_node.style:
        return  # a string score is the schema's EY702
    score = _number(score_node)
    if score is None or not math.isfinite(score):
        return
    if low is not None and high is not None and (score < low or score > high):
        sink.add(SCORE_RANGE, f"evaluation_results[{index}]: score {score_node.text} is "
                 f"outside its metric's range [min_score {low_node.text}, max_score "
                 f"{high_node.text}]; every_eval_ever validate refuses it",
                 place(score_node),
                 related=(Related(None, place(low_node), "min_score is declared here"),
                          Related(None, place(high_node), "max_score is declared here")))


def overflowing_numbers(root: Node, place: Callable[[Node], Span], sink: FindingSink) -> None:
    """`_parse_finite_float`: a literal too large for a double (`1e999`) reads as infinity,
    which upstream's strict reader refuses like `Infinity` itself."""
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, Mapping):
            stack.extend(value for _, value in node.pairs)
        elif isinstance(node, Sequence):
            stack.extend(node.items)
        elif isinstance(node, Scalar) and not node.style and \
                isinstance(node.value, float) and math.isinf(node.value):
            sink.add(OVERFLOW, f"'{node.text}' is too large for a JSON number: every_eval_ever's "
                     "reader makes it infinity and refuses the file (\"non-finite JSON number\"); "
                     "write a finite number", place(node))


def folder_of(value: str | None, what: str) -> tuple[str | None, str | None]:
    """One folder name as `_required_path_component` makes it, or the reason there is none."""
    if value is None or not value.strip():
        return None, f"{what} is required"
    value = value.strip()
    if value.lower() == "unknown":
        return None, f"{what} must be known"
    value = value.replace(":", "_")
    if value in (".", "..") or "/" in value or _UNSAFE.search(value) or \
            value.endswith((".", " ")) or value.split(".", 1)[0].upper() in _RESERVED:
        return None, f"{what} is not a safe single datastore path component: '{value}'"
    if value == "data":
        return None, f"{what} cannot use the reserved datastore name \"data\""
    return value, None


def expected_folders(model_id: str, developer: str | None
                     ) -> tuple[tuple[str, str] | None, str | None]:
    """(developer folder, model folder) the identity files under, or why it files nowhere."""
    parts = model_id.strip().split("/")
    if not parts or any(not part for part in parts):
        return None, f"invalid model_info.id: '{model_id}'"
    if len(parts) >= 2:
        dev, problem = folder_of(parts[0], "model developer")
        if problem:
            return None, problem
        names: list[str] = []
        for part in parts[1:]:
            name, problem = folder_of(part, "model name")
            if problem or name is None:
                return None, problem
            names.append(name)
        assert dev is not None
        return (dev, "_".join(names)), None
    dev, problem = folder_of(developer, "model_info.developer")
    if problem or dev is None:
        return None, problem
    model, problem = folder_of(parts[0], "model name")
    if problem or model is None:
        return None, problem
    return (dev, model), None


def model_path(path: str | None, root: Mapping, place: Callable[[Node], Span],
               sink: FindingSink) -> None:
    parts = paths.datastore_parts(path)
    if parts is None or any(paths.component_problem(part) for part in parts[:3]) or \
            paths.name_problem(parts[3], samples=False):
        return
    info = root.get("model_info")
    model_id = info.get("id") if isinstance(info, Mapping) else None
    if not isinstance(info, Mapping) or not isinstance(model_id, Scalar) or \
            not model_id.style:
        return
    developer = info.get("developer")
    flat = "/" not in model_id.text
    if flat and developer is not None and not (isinstance(developer, Scalar) and
                                               developer.style):
        return  # a non-string developer is the schema's finding
    stated = developer.text if isinstance(developer, Scalar) and developer.style else None
    folders, problem = expected_folders(model_id.text, stated)
    collection, dev_folder, model_folder = parts[0], parts[1], parts[2]
    if problem is not None:
        sink.add(MODEL_PATH, f"model_info.id '{model_id.text}' names no datastore folder "
                 f"({problem}); the datastore is queried by data/<collection>/<developer>/"
                 "<model>/, so a reader who has the model cannot find this record",
                 place(model_id))
        return
    assert folders is not None
    if folders == (dev_folder, model_folder):
        return
    sink.add(MODEL_PATH, f"model_info.id '{model_id.text}' files under {collection}/"
             f"{folders[0]}/{folders[1]}/ but this file is in {collection}/{dev_folder}/"
             f"{model_folder}/; one model under two paths is two models to every reader: "
             "make the identity and the folders agree", place(model_id))

"""Recognising Padosoft eval-harness files from their path and text, without a parse.

eval-harness itself never detects anything: a registrar names the dataset file, the
`calibrate-judge` command the calibration file, the caller the eval-set JSON. So evalyaml goes
by the conventions its docs and files follow, strongest first:
- DIRECTIVE: a root `schema_version: eval-harness.dataset.v1` (or `.calibration.v1`) line in
  YAML, `"schema_version": "eval-harness.eval-set.v1"` in JSON. Any other `eval-harness.<x>`
  value in YAML is claimed too (as the kind it names, a dataset when unclear) so the analysis
  can say the version is unsupported; JSON run artefacts (`eval-set-manifest`, reports) are not.
- PATH: a `.yml`/`.yaml` file directly in an `eval/golden/` folder below the workspace root,
  where the docs keep datasets ("stored in eval/golden/*.yml next to your code"), when it has
  a root key the loader reads (`name`, `samples`, `schema_version`, `repetitions`, or one a
  typo away), sample items (`id` with `input` or `expected_output`), or nothing yet, and the
  text does not say it is somebody else's (a modeline, a root `$schema`, a root `questions`
  list). A file there with none of those keys is not claimed: the folder
  alone is no evidence.
- SHAPE (narrow): root `name:` and `samples:` lines with an item holding `id:`, `input:` and
  `expected_output:`; or, for calibration files (their `schema_version` is optional and the
  command takes any path), a root `cases:` line with a `human_verdict:` key, a name no other
  tool uses.
A near miss is a misspelt `schema_version` value or a misspelt root `samples` key next to a
dataset's other signs; both are reported only when no format claimed the file.
"""

from __future__ import annotations

import re
from pathlib import PurePath

from evalyaml.core.kinds import FormatKind
from evalyaml.core.suggest import edit_distance
from evalyaml.formats.base import Claim, NearMiss, Tier
from evalyaml.formats.padosoft.kinds import (
    CALIBRATION,
    CALIBRATION_VERSION,
    DATASET,
    DATASET_VERSION,
    EVAL_SET,
    EVAL_SET_VERSION,
)
from evalyaml.syntax.lazyre import lazy_re
from evalyaml.syntax.text import LineIndex, Span

_WINDOW = 65536
_YAML_VERSION = lazy_re(
    r"^schema_version[ \t]*:[ \t]*(?P<q>[\"']?)(?P<value>[^\s\"'#]+)(?P=q)[ \t]*(?:#.*)?\r?$",
    re.MULTILINE)
_JSON_VERSION = lazy_re(r'"schema_version"[ \t\r\n]*:[ \t\r\n]*"(?P<value>[^"\\]{1,80})"')
_EVAL_SET = lazy_re(r"eval-harness\.eval-set\.v[0-9]+")
_ROOT_NAME = lazy_re(r"^name[ \t]*:", re.MULTILINE)
_ROOT_SAMPLES = lazy_re(r"^samples[ \t]*:", re.MULTILINE)
_ROOT_CASES = lazy_re(r"^cases[ \t]*:", re.MULTILINE)
_ITEM_ID = lazy_re(r"^[ \t]*(?:-[ \t]+)?(?:\{[ \t]*)?id[ \t]*:", re.MULTILINE)
_NESTED_KEY = r"(?:^[ \t]+(?:-[ \t]+)?|[{{,][ \t]*){key}[ \t]*:"
_INPUT = lazy_re(_NESTED_KEY.format(key="input"), re.MULTILINE)
_EXPECTED = lazy_re(_NESTED_KEY.format(key="expected_output"), re.MULTILINE)
_VERDICT = lazy_re(_NESTED_KEY.format(key="human_verdict"), re.MULTILINE)
_ROOT_KEY = lazy_re(r"^(?P<key>[A-Za-z][A-Za-z_-]*)[ \t]*:[ \t]*(?:#.*)?\r?$", re.MULTILINE)
_FOREIGN = lazy_re(r"^(?:questions[ \t]*:|\$schema[ \t]*:|#[ \t]*yaml-language-server)",
                      re.MULTILINE)
_NOT_SAMPLES = frozenset({"examples", "example", "sampler", "simple", "tables", "scales"})
_YAML = (".yaml", ".yml")


def claim(text: str, path: str | None, root: str | None) -> Claim | None:
    head = text[:_WINDOW].lstrip("\ufeff")
    if _is_json(path):
        match = _JSON_VERSION.search(head)
        if match and _EVAL_SET.fullmatch(match.group("value")) and \
                _json_depth(head, match.start()) == 1:
            return Claim(EVAL_SET, Tier.DIRECTIVE, "its schema_version names an eval-harness "
                         "eval set")
        return None
    # Literal look-ups first: claims run on every keystroke of every YAML file, and a regex
    # anchored with MULTILINE `^` tries every position of the 64 KB head.
    match = _YAML_VERSION.search(head) if "schema_version" in head else None
    if match and match.group("value").startswith("eval-harness."):
        value = match.group("value")
        if value.startswith("eval-harness.calibration."):
            return Claim(CALIBRATION, Tier.DIRECTIVE,
                         "its schema_version names an eval-harness calibration file")
        return Claim(DATASET, Tier.DIRECTIVE, "its schema_version names an eval-harness "
                     "dataset" if value.startswith("eval-harness.dataset.") else
                     "its schema_version names eval-harness")
    foreign = _foreign(head)
    if _in_golden(path, root) and not foreign and _has_dataset_key(head):
        return Claim(DATASET, Tier.PATH, "it is in an eval/golden/ folder")
    if foreign:
        return None  # a modeline, a root `$schema` or a contract dataset: somebody else's
    if _starts_a_line(head, "name") and _starts_a_line(head, "samples") and \
            "expected_output" in head and _ROOT_NAME.search(head):
        samples = _ROOT_SAMPLES.search(head)
        if samples and _ITEM_ID.search(head, samples.end()) and \
                _INPUT.search(head, samples.end()) and _EXPECTED.search(head, samples.end()):
            return Claim(DATASET, Tier.SHAPE, "it has a root 'name' and a 'samples' list of "
                         "id/input/expected_output items")
    cases = _ROOT_CASES.search(head) if _starts_a_line(head, "cases") and \
        "human_verdict" in head else None
    if cases and _VERDICT.search(head, cases.end()) and _ITEM_ID.search(head, cases.end()):
        return Claim(CALIBRATION, Tier.SHAPE, "it has a root 'cases' list with human_verdict "
                     "labels")
    return None


_ANY_ROOT_KEY = lazy_re(r"^(?P<key>[A-Za-z_][A-Za-z0-9_-]*)[ \t]*:", re.MULTILINE)
_DATASET_KEYS = ("name", "samples", "schema_version", "repetitions")


def _has_dataset_key(head: str) -> bool:
    """The folder is evidence only beside content: a root key the loader reads, or one a typo
    away from it (`sampels:`). A CI snippet or another tool's file kept in eval/golden/ has
    none, and is left alone; a file with nothing in it yet (comments, document markers) is a
    dataset being started."""
    if all(not line.strip() or line.lstrip().startswith("#") or line.strip() in ("---", "...")
           for line in head.splitlines()):
        return True
    if _ITEM_ID.search(head) and (_INPUT.search(head) or _EXPECTED.search(head)):
        return True  # samples without the wrapper: the loader's own error is the finding
    for match in _ANY_ROOT_KEY.finditer(head):
        key = match.group("key").lower()
        if key in _DATASET_KEYS or any(len(key) >= 4 and edit_distance(key, known, 2) <= 2
                                       for known in _DATASET_KEYS if len(known) >= 5):
            return True
    return False


def _json_depth(head: str, at: int) -> int:
    """How deep in objects and arrays offset `at` of JSON text lies (strings skipped): an eval
    set's `schema_version` is a member of the root object, and a report that quotes one deeper
    down is not an eval set."""
    depth, pos, in_string = 0, 0, False
    while pos < at:
        char = head[pos]
        if in_string:
            if char == "\\":
                pos += 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
        pos += 1
    return depth


def _foreign(head: str) -> bool:
    """`_FOREIGN.search(head)`, its regex run only when one of its words is in the text at all
    (a `^`-anchored multiline search tries every position of the 64 KB head: about half a
    millisecond, on every keystroke of every YAML file)."""
    return ("questions" in head or "$schema" in head or "yaml-language-server" in head) and \
        _FOREIGN.search(head) is not None


def _starts_a_line(head: str, word: str) -> bool:
    return head.startswith(word) or f"\n{word}" in head or f"\r{word}" in head


def near_miss(text: str, path: str | None, root: str | None) -> NearMiss | None:
    head = text[:_WINDOW]
    lines: LineIndex | None = None
    if _is_json(path):
        match = _JSON_VERSION.search(head)
        if match and _close(match.group("value"), (EVAL_SET_VERSION,)):
            lines = LineIndex(text)
            return _version_miss(EVAL_SET, match.group("value"), EVAL_SET_VERSION,
                                 lines.span(match.start("value"), match.end("value")))
        return None
    match = _YAML_VERSION.search(head)
    if match:
        value = match.group("value")
        meant = _close(value, (DATASET_VERSION, CALIBRATION_VERSION))
        if meant is not None:
            lines = LineIndex(text)
            kind = CALIBRATION if meant == CALIBRATION_VERSION else DATASET
            return _version_miss(kind, value, meant,
                                 lines.span(match.start("value"), match.end("value")))
    if not _ROOT_NAME.search(head) or _ROOT_SAMPLES.search(head):
        return None
    for key_match in _ROOT_KEY.finditer(head):
        key = key_match.group("key")
        if key == "samples" or key.lower() in _NOT_SAMPLES:
            continue
        if edit_distance(key.lower(), "samples", 2) <= 2 and \
                _ITEM_ID.search(head, key_match.end()) and \
                _INPUT.search(head, key_match.end()) and _EXPECTED.search(head, key_match.end()):
            lines = LineIndex(text)
            return NearMiss(DATASET, "this looks like a Padosoft eval-harness dataset, but its "
                            f"root key is '{key}', not 'samples', so it was not recognised and "
                            "none of its samples were checked (eval-harness itself refuses it: "
                            "\"Dataset YAML missing required list field 'samples'.\")",
                            lines.span(key_match.start("key"), key_match.end("key")))
    return None


def _version_miss(kind: FormatKind, value: str, meant: str, span: Span) -> NearMiss:
    noun = {DATASET: "dataset", CALIBRATION: "calibration file", EVAL_SET: "eval set"}[kind]
    items = "samples" if kind is DATASET else ("cases" if kind is CALIBRATION else "datasets")
    return NearMiss(kind, f"this looks like a Padosoft eval-harness {noun}, but its "
                    f"schema_version '{value}' is not '{meant}', so it was not recognised and "
                    f"none of its {items} were checked (eval-harness itself refuses an "
                    "unsupported schema_version)", span)


def _close(value: str, supported: tuple[str, ...]) -> str | None:
    """The supported version `value` misspells, if it is within three edits of one."""
    if value in supported or value.startswith("eval-harness."):
        return None
    best: tuple[int, str] | None = None
    for candidate in supported:
        distance = edit_distance(value.lower(), candidate, 3)
        if distance <= 3 and (best is None or distance < best[0]):
            best = (distance, candidate)
    return best[1] if best else None


def _is_json(path: str | None) -> bool:
    return bool(path) and PurePath(str(path)).suffix.lower() == ".json"


def _in_golden(path: str | None, root: str | None) -> bool:
    if not path or PurePath(path).suffix.lower() not in _YAML:
        return False
    pure = PurePath(path)
    parts = pure.parts[:-1]
    if root is not None:
        if not pure.is_relative_to(root):
            return False
        parts = pure.relative_to(root).parts[:-1]
    return len(parts) >= 2 and parts[-2:] == ("eval", "golden")

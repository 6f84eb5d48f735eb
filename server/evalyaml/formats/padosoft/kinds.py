"""The three kinds of Padosoft eval-harness file evalyaml checks.

Kept apart from `__init__` so every module of the package can import them without a cycle.
A dataset's identifier is its `name` (what a registrar passes to `eval-harness:run` and what an
eval set lists), so the dataset kind's noun is "name"; nothing in eval-harness pins versions.
"""

from __future__ import annotations

from evalyaml.core.kinds import FormatKind

DATASET = FormatKind("padosoft", "Padosoft dataset", "padosoft-dataset.schema.json", noun="name")
CALIBRATION = FormatKind("padosoft", "Padosoft calibration file",
                         "padosoft-calibration.schema.json")
EVAL_SET = FormatKind("padosoft", "Padosoft eval set", "padosoft-eval-set.schema.json")

DATASET_VERSION = "eval-harness.dataset.v1"
CALIBRATION_VERSION = "eval-harness.calibration.v1"
EVAL_SET_VERSION = "eval-harness.eval-set.v1"

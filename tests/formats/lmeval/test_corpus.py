"""lm-evaluation-harness on the shared corpus: every finding on `corpus/lm-evaluation-harness/`
(19 task files copied from 4e7e0d47 without their Python modules and one template) is listed with
the upstream rule that makes it true; no other corpus folder is claimed, and the harness's output
files (`lm-evaluation-harness-outputs/`) are not lm-eval task files.

The rules, from the code at 4e7e0d47:
- EYLM005 (a `!function` module is not beside the YAML): the corpus copied the YAML files but
  not `utils.py` / `metrics.py`. `tasks/_yaml_loader.py:_import_func_in_yml` then falls back to
  `__import__("utils")`, which fails with "Cannot import module 'utils'". At the pinned commit the
  modules are there and the upstream-tree test sees no such note.
- EYLM003 (bbh/cot_fewshot/boolean_expressions.yaml includes `_cot_fewshot_template_yaml`, not
  copied): `load_yaml` opens the include relative to the including file and raises
  FileNotFoundError; `TaskIndex.build` skips the file at DEBUG.
- EYLM019 (advice: jsonschema_bench_easy and truthfulqa_gen are generate_until tasks without
  `generation_kwargs`): `config/task.py:TaskConfig.__post_init__` warns "No `generation_kwargs`
  specified in task config" and fills in its defaults; the upstream tree gives the same notes.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus"
T = "lm_eval/tasks/"
EXPECTED = [
    (T + "agieval/aqua-rat.yaml", 11, "EYLM005"),
    (T + "aime/aime24.yaml", 12, "EYLM005"),
    (T + "bbh/cot_fewshot/boolean_expressions.yaml", 4, "EYLM003"),
    (T + "hellaswag/hellaswag.yaml", 10, "EYLM005"),
    (T + "ifeval/ifeval.yaml", 14, "EYLM005"),
    (T + "ifeval/ifeval.yaml", 20, "EYLM005"),
    (T + "ifeval/ifeval.yaml", 26, "EYLM005"),
    (T + "jsonschema_bench/jsonschema_bench_easy.yaml", 3, "EYLM019"),
    (T + "jsonschema_bench/jsonschema_bench_easy.yaml", 14, "EYLM005"),
    (T + "jsonschema_bench/jsonschema_bench_easy.yaml", 17, "EYLM005"),
    (T + "truthfulqa/truthfulqa_gen.yaml", 3, "EYLM019"),
    (T + "truthfulqa/truthfulqa_gen.yaml", 28, "EYLM005"),
    (T + "truthfulqa/truthfulqa_gen.yaml", 29, "EYLM005"),
    (T + "truthfulqa/truthfulqa_mc2.yaml", 5, "EYLM005"),
]


def _check(folder: Path) -> list[dict[str, object]]:
    done = subprocess.run([sys.executable, "-m", "evalyaml", "check", str(folder), "--format",
                           "json"], capture_output=True, text=True, timeout=300, check=False)
    assert done.stderr == ""
    found: list[dict[str, object]] = json.loads(done.stdout)
    return found


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is not next to this tree")
def test_every_finding_on_the_copied_tasks_is_one_upstream_confirms() -> None:
    found = _check(CORPUS / "lm-evaluation-harness")
    got = [(str(f["path"]).split("/corpus/lm-evaluation-harness/")[1],
            f["range"]["start"]["line"] + 1, f["code"])  # type: ignore[index]
           for f in found]
    assert got == EXPECTED


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is not next to this tree")
def test_nothing_else_in_the_corpus_is_an_lm_eval_file() -> None:
    from evalyaml.formats import lmeval
    from evalyaml.formats.base import Claim

    claimed = []
    for path in sorted(CORPUS.rglob("*")):
        if not path.is_file() or path.parts[len(CORPUS.parts)] == "lm-evaluation-harness":
            continue
        try:
            text = path.read_text("utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        if isinstance(lmeval.FORMAT.claim(text, str(path), str(CORPUS)), Claim):
            claimed.append(str(path.relative_to(CORPUS)))
    assert claimed == []
    outputs = _check(CORPUS / "lm-evaluation-harness-outputs")
    assert [f for f in outputs if str(f["code"]).startswith("EYLM")] == []

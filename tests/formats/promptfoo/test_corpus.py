"""promptfoo on the shared corpus: the real configs (`corpus/promptfoo/`) and the files they name
give no finding; `multiple-configs/configs/config*.yaml` (custom names, no modeline, meant for
`-c`) are not claimed, as promptfoo itself only knows them from a command line; no other corpus
file is claimed as promptfoo."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from evalyaml.core.options import Options
from evalyaml.dispatch import analyze_text
from evalyaml.formats.promptfoo import CONFIG

CORPUS = Path(__file__).resolve().parents[3].parent / "shared" / "corpus"


def test_the_promptfoo_corpus_has_no_finding() -> None:
    done = subprocess.run([sys.executable, "-m", "evalyaml", "check",
                           str(CORPUS / "promptfoo"), "--format", "json"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert json.loads(done.stdout) == []


def test_only_default_names_and_the_modeline_are_claimed() -> None:
    claimed = []
    for path in sorted(CORPUS.rglob("*")):
        if path.suffix not in (".yaml", ".yml", ".json") or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        analysis = analyze_text(text, str(path), Options())
        if analysis.kind is CONFIG:
            claimed.append(path.relative_to(CORPUS).as_posix())
    assert claimed == ["promptfoo/examples/getting-started/promptfooconfig.yaml",
                       "promptfoo/examples/simple-csv/promptfooconfig.yaml"]

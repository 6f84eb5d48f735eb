#!/usr/bin/env python3
"""Print the code block that follows `<!-- recipe: NAME ... -->` in docs/editors.md.

The editor tests run the recipes exactly as the documentation shows them, so the doc and the
tests cannot drift apart: `extract_recipe.py neovim-0.7` prints the Lua block, `emacs-eglot`
the Emacs Lisp block. `extract_recipe.py --run-steps github-actions` prints the shell command of
each `run:` step of a workflow block, one a line, in order.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "editors.md"


def recipe(name: str, text: str) -> str:
    marker = re.compile(r"^<!--\s*recipe:\s*" + re.escape(name) + r"\b.*-->\s*$", re.M)
    m = marker.search(text)
    if m is None:
        raise SystemExit(f"docs/editors.md has no '<!-- recipe: {name} -->' marker")
    fence = re.compile(r"^(```+)[^\n]*\n(.*?)^\1\s*$", re.M | re.S)
    block = fence.search(text, m.end())
    if block is None or text[m.end() : block.start()].strip():
        raise SystemExit(f"the recipe marker '{name}' is not followed by a fenced code block")
    return block.group(2)


RUN_STEP = re.compile(r"^\s*(?:-\s+)?run:\s*(\S.*?)\s*$", re.M)


def run_steps(block: str) -> list[str]:
    """The one-line `run:` steps of a GitHub Actions workflow block."""
    steps = RUN_STEP.findall(block)
    for step in steps:
        if step[0] in "|>":
            raise SystemExit(f"a multi-line run step is not supported: {step}")
    return steps


def main(argv: list[str]) -> int:
    args = argv[1:]
    steps = args[:1] == ["--run-steps"]
    if steps:
        args = args[1:]
    if len(args) != 1:
        print("usage: extract_recipe.py [--run-steps] NAME", file=sys.stderr)
        return 2
    block = recipe(args[0], DOC.read_text(encoding="utf-8"))
    sys.stdout.write("".join(f"{s}\n" for s in run_steps(block)) if steps else block)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))

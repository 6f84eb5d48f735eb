#!/usr/bin/env python3
"""Print the code block that follows `<!-- recipe: NAME ... -->` in docs/editors.md.

The editor tests run the recipes exactly as the documentation shows them, so the doc and the
tests cannot drift apart: `extract_recipe.py neovim-0.7` prints the Lua block, `emacs-eglot`
the Emacs Lisp block.
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


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: extract_recipe.py NAME", file=sys.stderr)
        return 2
    sys.stdout.write(recipe(argv[1], DOC.read_text(encoding="utf-8")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))

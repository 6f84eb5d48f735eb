"""The kinds of promptfoo file evalyaml checks.

A config is what `promptfoo eval -c` runs (`promptfooconfig.*`, the modeline or `$schema` its
writer stamps). Everything else promptfoo reads is known only because a config names it with
`file://` (`../shared/FORMATS.md` §7.1): test files (YAML/JSON/JSONL), CSV test tables and prompt
files are adopted as that kind, never guessed from their shape. A `package.json` whose scripts
run promptfoo with `-c` is SCRIPTS: it only names configs (`scripts`).
"""

from __future__ import annotations

from evalyaml.core.kinds import FormatKind

CONFIG = FormatKind("promptfoo", "promptfoo config", "promptfoo/config-schema.json")
TESTS = FormatKind("promptfoo", "promptfoo tests file", "promptfoo/tests-schema.json")
TABLE = FormatKind("promptfoo", "promptfoo CSV test table", None)
PROMPT = FormatKind("promptfoo", "promptfoo prompt file", None)
SCRIPTS = FormatKind("promptfoo", "package.json running promptfoo", None, lists_cases=False)

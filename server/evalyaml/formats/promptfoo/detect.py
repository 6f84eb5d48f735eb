"""Recognition as promptfoo decides what a config is (`src/util/config/default.ts`,
`src/util/config/writer.ts`): the default names `promptfooconfig.{yaml,yml,json}`, and the
modeline or root `$schema` promptfoo's writer stamps on every config it writes
(`# yaml-language-server: $schema=https://promptfoo.dev/config-schema.json`). promptfoo never
sniffs content, so neither do we: a root `prompts:` is also lm-eval's and workflows' shape.
Files a config names are adopted by the workspace, not claimed here.
"""

from __future__ import annotations

import re
from pathlib import PurePath

from evalyaml.formats.base import Claim, Tier
from evalyaml.formats.promptfoo.kinds import CONFIG

DEFAULT_NAMES = frozenset({"promptfooconfig.yaml", "promptfooconfig.yml", "promptfooconfig.json"})
SCHEMA_URL = re.compile(r"promptfoo\.dev/config-schema\.json")
_MODELINE = re.compile(r"^[ \t]*#[ \t]*yaml-language-server[ \t]*:[ \t]*\$schema[ \t]*=[ \t]*"
                       r"\S*promptfoo\.dev/config-schema\.json", re.MULTILINE)
_ROOT_SCHEMA = re.compile(r"""(?:^|[{,])[ \t]*["']?\$schema["']?[ \t]*:[ \t]*["']?[^"'\s]*"""
                          r"""promptfoo\.dev/config-schema\.json""", re.MULTILINE)


def claim(text: str, path: str | None) -> Claim | None:
    head = text[:8192]
    # Both regexes need the schema's address: a literal look-up first spares every other YAML
    # file two multiline searches of its head on every keystroke.
    named = "promptfoo.dev/config-schema.json" in head
    if named and _MODELINE.search(head):
        return Claim(CONFIG, Tier.DIRECTIVE, "its modeline names promptfoo's config schema")
    if named and _ROOT_SCHEMA.search(head):
        return Claim(CONFIG, Tier.DIRECTIVE, "its $schema names promptfoo's config schema")
    if path is not None and PurePath(path).name in DEFAULT_NAMES:
        return Claim(CONFIG, Tier.PATH, "promptfoo loads promptfooconfig.* by default")
    return None

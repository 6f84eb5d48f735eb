"""How plain YAML scalars get their tags, and how deep YAML may nest: shared by both parsers.

`parse.py` (ruamel's composer) and `fastparse.py` (the pure-Python fast path) must agree node for
node, tags and limits included. They agree by construction because both take the resolver and
the depth limit from here; this module imports neither of them, so neither imports the other
for it.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ruamel.yaml.nodes import ScalarNode
from ruamel.yaml.resolver import Resolver
from ruamel.yaml.tag import Tag

MAYBE_NOT_STR = frozenset("0123456789+-.~nNtTfFyYoO<=")
"""First characters of a plain scalar that may resolve to something other than a string: a
number, a boolean, a null, a timestamp or a special float. Anything else is a string: no regexes."""


class FastResolver(Resolver):
    """The YAML 1.2 resolver, skipping its regex loop for plain scalars that must be strings.

    It answers with shared `Tag` objects, as ruamel's own defaults are: a node given a string
    builds a new `Tag` for itself, which costs as much as the rest of the node.
    """

    _tags: ClassVar[dict[str, Tag]] = {}

    def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
        if kind is ScalarNode and implicit[0] and value and value[0] not in MAYBE_NOT_STR:
            return self.DEFAULT_SCALAR_TAG
        tag = super().resolve(kind, value, implicit)
        if isinstance(tag, Tag) and tag.handle is None and isinstance(tag.suffix, str):
            return self._tags.setdefault(tag.suffix, tag)
        return tag

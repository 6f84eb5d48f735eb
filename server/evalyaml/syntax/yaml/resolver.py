"""The resolver ruamel's composers (C and pure) tag nodes with: our YAML 1.2 table (`tags.py`).

`parse.py` (ruamel's composer) and `fastparse.py` (the pure-Python fast path) must agree node for
node, tags included. They agree by construction because both take plain scalars' tags from
`tags.plain_tag`; the fast path reads it directly and never imports ruamel, the composers go
through this class.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ruamel.yaml.nodes import ScalarNode
from ruamel.yaml.resolver import Resolver
from ruamel.yaml.tag import Tag

from evalyaml.syntax.yaml.tags import MAYBE_NOT_STR, STR, plain_tag


class FastResolver(Resolver):
    """The YAML 1.2 resolver, answering plain scalars from `tags.plain_tag` (no regex for those
    that must be strings).

    It answers with shared `Tag` objects, as ruamel's own defaults are: a node given a string
    builds a new `Tag` for itself, which costs as much as the rest of the node.
    """

    _tags: ClassVar[dict[str, Tag]] = {STR: Resolver.DEFAULT_SCALAR_TAG}

    def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
        if kind is ScalarNode and implicit[0]:
            if value and value[0] not in MAYBE_NOT_STR:
                return self.DEFAULT_SCALAR_TAG
            suffix = plain_tag(value)
            tag = self._tags.get(suffix)
            if tag is None:
                tag = self._tags[suffix] = Tag(suffix=suffix)
            return tag
        return super().resolve(kind, value, implicit)

"""jsonschema's errors for a simple property schema, made without walking it.

A dataset whose every case has the same mistake (`expected: "a string"` where a mapping goes, a
reference that misses its pattern) sends every case through jsonschema for that one property:
about 40 % of such a case's analysis, most of it jsonschema's walk of a schema whose answer is
plain. For a property schema of `type` (one name jsonschema and Python agree on), `pattern`,
annotations, and keywords that only look at another type than the value's (`properties` of an
object schema, when the value is a string), the errors are those two keywords' own, and they are
made here as jsonschema makes them: the same message, keyword, value, schema and path. Anything
else (the value is of a type another keyword looks at, an unknown keyword) returns None and
jsonschema decides. `tests/core/test_precheck.py` holds the errors equal to jsonschema's on
generated cases (`contract.schemas.PropertyDescent` uses this).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jsonschema import ValidationError

QuickErrors = Callable[[Any], "list[ValidationError] | None"]

_ANNOTATIONS = frozenset({"description", "title", "examples", "default", "$comment",
                          "deprecated", "readOnly", "writeOnly"})
# JSON Schema's names whose Python test is exactly jsonschema's (not "integer" or "number":
# jsonschema counts 1.0 as an integer, and never a bool as either).
_TYPES: dict[str, type | None] = {"string": str, "object": dict, "array": list, "boolean": bool,
                                  "null": None}
# Keywords that look at a value of one type only, by that type.
_ONLY_FOR: dict[str, type] = {
    **dict.fromkeys(("minLength", "maxLength", "format"), str),
    **dict.fromkeys(("items", "prefixItems", "minItems", "maxItems", "uniqueItems",
                     "contains", "minContains", "maxContains"), list),
    **dict.fromkeys(("properties", "required", "additionalProperties", "patternProperties",
                     "minProperties", "maxProperties", "propertyNames", "dependentRequired",
                     "dependentSchemas"), dict),
}


def compile_quick(schema: Any, type_checker: object) -> QuickErrors | None:
    """The errors of `schema` on a value, each as jsonschema's own `iter_errors` gives it (its
    schema path is the keyword: the caller adds the steps above); None when the schema is not
    one this can answer for. The function returns None for a value it cannot answer for."""
    if not isinstance(schema, dict) or not isinstance(schema.get("type"), str) or \
            schema["type"] not in _TYPES:
        return None
    pattern = schema.get("pattern")
    if pattern is not None and not isinstance(pattern, str):
        return None
    looked_at: set[type] = set()  # the types some keyword other than these two looks at
    for keyword in schema:
        if keyword in _ONLY_FOR:
            looked_at.add(_ONLY_FOR[keyword])
        elif keyword not in _ANNOTATIONS and keyword not in ("type", "pattern"):
            return None
    name = schema["type"]
    wanted = _TYPES[name]
    # jsonschema runs the keywords in the schema's order: `pattern` may come before `type`.
    pattern_first = pattern is not None and list(schema).index("pattern") < \
        list(schema).index("type")
    skip = tuple(looked_at)

    def errors(value: Any) -> list[ValidationError] | None:
        if isinstance(value, skip):
            return None
        from jsonschema import ValidationError

        def error(message: str, keyword: str, keyword_value: Any) -> ValidationError:
            return ValidationError(message, validator=keyword, validator_value=keyword_value,
                                   instance=value, schema=schema, schema_path=(keyword,),
                                   type_checker=type_checker)

        unmatched = pattern is not None and isinstance(value, str) and \
            not re.search(pattern, value)
        found: list[ValidationError] = []
        if unmatched and pattern_first:
            found.append(error(f"{value!r} does not match {pattern!r}", "pattern", pattern))
        if value is not None if wanted is None else not isinstance(value, wanted):
            found.append(error(f"{value!r} is not of type {name!r}", "type", name))
        if unmatched and not pattern_first:
            found.append(error(f"{value!r} does not match {pattern!r}", "pattern", pattern))
        return found

    return errors

"""The contract's vocabulary the editor tables need (`ide`): kept apart from the rules that
use it (`judge`, `schemas`) so that loading the format, as every command does, does not load
jsonschema; the rules load with the first contract file."""

from __future__ import annotations

TEMPLATE_VARIABLES = ("input", "output", "expected", "context")

CHECK_KINDS: tuple[str, ...] = (
    "must_contain_any",
    "must_not_contain",
    "regex",
    "json_schema",
    "php_lint",
    "markdown_structure",
    "tool_usage",
    "format",
    "fact_match",
    "llm_judge",
    "composite",
)

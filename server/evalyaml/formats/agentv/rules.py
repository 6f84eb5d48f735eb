"""The vocabulary of AgentV 4.x (`agentv validate` and the loader at e43a4d46), in one place.

Lists are copied from `validation/eval-validator.ts`, `types.ts` (grader kinds),
`template-variables.ts` and `graders/rubric-operators.ts`; completion and did-you-mean use them.
"""

from __future__ import annotations

TOP_LEVEL_KEYS = (
    "$schema", "name", "description", "category", "version", "author", "tags", "license",
    "requires", "input", "input_files", "tests", "target", "execution", "assertions",
    "evaluators", "preprocessors", "workspace", "metadata", "governance")
DEPRECATED_TOP_LEVEL = {"eval_cases": "tests", "evalcases": "tests", "evaluator": "assertions",
                        "assert": "assertions"}
TEST_KEYS = (
    "id", "vars", "criteria", "input", "input_files", "expected_output", "assertions",
    "evaluators", "rubrics", "execution", "workspace", "metadata", "conversation_id", "suite",
    "depends_on", "on_dependency_failure", "mode", "turns", "aggregation", "on_turn_failure",
    "window_size")
DEPRECATED_TEST = {"evaluator": "assertions", "assert": "assertions",
                   "expected_outcome": "criteria"}
GRADER_KINDS = (
    "code-grader", "llm-grader", "rubric", "composite", "tool-trajectory", "field-accuracy",
    "latency", "cost", "token-usage", "execution-metrics", "skill-trigger", "contains",
    "contains-any", "contains-all", "icontains", "icontains-any", "icontains-all", "starts-with",
    "ends-with", "regex", "is-json", "equals", "rubrics", "inline-assert")
DEPRECATED_GRADER_KINDS = {"code-judge": "code-grader", "llm-judge": "llm-grader"}
STRING_VALUE_TYPES = frozenset({"contains", "icontains", "starts-with", "ends-with", "equals",
                                "regex"})
ARRAY_VALUE_TYPES = frozenset({"contains-any", "contains-all", "icontains-any", "icontains-all"})
ROLES = ("system", "user", "assistant")
LOADER_ROLES = ("system", "user", "assistant", "tool")
ROLE_MARKERS = ("@[System]:", "@[User]:", "@[Assistant]:", "@[Tool]:")
TEST_FILE_EXTENSIONS = (".yaml", ".yml", ".jsonl")
ASSERTION_SCRIPT_EXTENSIONS = (".ts", ".js", ".mts", ".mjs", ".cts", ".cjs")
RUBRIC_OPERATORS = ("correctness", "contradiction")
# A test runs only with one of these (the loader skips it otherwise: `hasEvaluationSpec` in
# yaml-parser.ts; the deprecated `evaluators:` does not count).
GRADED_BY = ("criteria", "expected_outcome", "expected_output", "assertions", "assert", "turns")

TEMPLATE_VARIABLES = ("input", "output", "expected_output", "criteria", "metadata",
                      "metadata_json", "rubrics", "rubrics_json", "file_changes", "tool_calls")
DEPRECATED_VARIABLES = {"input_text": "input", "output_text": "output",
                        "expected_output_text": "expected_output"}
REQUIRED_VARIABLES = ("output", "expected_output", "output_text", "expected_output_text")
VARIABLE_DOCS = {
    "input": "the test's input: plain text, or the conversation with role prefixes; an object "
             "input renders as formatted JSON",
    "output": "the agent's last assistant message as plain text",
    "expected_output": "the test's reference answer as plain text",
    "criteria": "the test's `criteria` string",
    "metadata": "the test's metadata (suite metadata merged in) as formatted JSON",
    "metadata_json": "the test's metadata as compact JSON",
    "rubrics": "the grader's rubric items as formatted JSON",
    "rubrics_json": "the grader's rubric items as compact JSON",
    "file_changes": "the diff of the files the agent changed, when available",
    "tool_calls": "a summary of the tool calls the agent made",
}
# 5.x (the unpublished July 2026 rewrite): keys no 4.x suite has.
# Top-level keys 5.x's `config-validator.ts` (58f316ca) allows and 4.x's does not: a config
# holding one is a 5.x config.
FIVE_X_CONFIG_KEYS = frozenset({"providers", "defaults", "tests", "graders", "targets",
                                "repo_resolvers", "refs", "env_path", "env_from"})
FIVE_X_KEYS = frozenset({"providers", "prompts", "default_test", "defaultTest", "scenarios",
                         "evaluate_options", "evaluateOptions", "derived_metrics", "redteam",
                         "output_path", "nunjucks_filters"})

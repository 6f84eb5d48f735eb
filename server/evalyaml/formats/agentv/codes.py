"""AgentV's codes (EY600-EY699).

Each code's class decides its severity (`core.codes.severity_of`); its `Recovery` says how
its findings behave beside a YAML syntax error; its section in `docs/diagnostics.md` says what
triggers it and how to fix it.
"""

from __future__ import annotations

import re

from evalyaml.core.codes import (
    KEY,
    LOCAL,
    WHOLE,
    Code,
    CodeClass,
    Recovery,
    Scope,
    local_when,
    missing,
    reads,
)

B, C, A, H = CodeClass.BROKEN, CodeClass.CONTRACT, CodeClass.ADVICE, CodeClass.HINT

CODES: tuple[Code, ...] = (
    Code("EY600", "agentv-not-mapping", B, "The suite is not a YAML mapping.", WHOLE),
    Code("EY601", "agentv-unknown-key", C, "A suite or test key agentv does not read.", LOCAL),
    Code("EY602", "agentv-deprecated-key", C, "A deprecated suite or test key.", LOCAL),
    Code("EY603", "agentv-name-version", B,
         "`name` does not match `^[a-z0-9-]+$`, or `version` is a number: the loader refuses.",
         LOCAL),
    Code("EY604", "agentv-input", B, "`input` is missing or not a string, mapping or messages.",
         missing(r"has no 'input'", "turns")),
    Code("EY605", "agentv-tests", B,
         "`tests` is missing, or a test is neither a mapping nor a `file://` reference.",
         missing(r"has no 'tests'", "eval_cases", "evalcases")),
    Code("EY606", "agentv-test-id", B, "A test has no non-empty string `id`.",
         missing(r"has no '")),
    Code("EY607", "agentv-duplicate-test-id", B, "Two tests of one suite share an id.", LOCAL),
    Code("EY608", "agentv-criteria", B, "`criteria` is not a non-empty string.", LOCAL),
    Code("EY609", "agentv-message", B, "A message has an invalid role or content.", WHOLE),
    Code("EY610", "agentv-role-marker", C, "Message content holds a role marker (`@[User]:`).",
         LOCAL),
    Code("EY611", "agentv-expected-output", B,
         "`expected_output` is not a string, mapping or list.", LOCAL),
    Code("EY612", "agentv-assertions", C,
         "`assertions` is not a list, or holds an unusable item.", WHOLE),
    Code("EY613", "agentv-assertion-type", C,
         "An assertion has no `type`, or one that is no grader kind and no custom assertion.",
         WHOLE),
    Code("EY614", "agentv-assertion-value", C,
         "An assertion type's `value` is missing or wrong.", WHOLE),
    Code("EY615", "agentv-regex", C,
         "A `regex` value is not a valid JavaScript regular expression.", LOCAL),
    Code("EY616", "agentv-required", C, "`required` is not a boolean or a number in (0, 1].",
         LOCAL),
    Code("EY617", "agentv-conversation", B, "Conversation-mode keys without `mode: conversation`, "
         "or a conversation without turns.",
         reads("mode", "turns", "expected_output", "aggregation", "on_turn_failure",
               "window_size")),
    Code("EY618", "agentv-workspace-repo", B, "A workspace repo has no `source` and no docker.",
         WHOLE),
    Code("EY619", "agentv-workspace-advice", C, "A workspace setting that has no effect.", WHOLE),
    Code("EY620", "agentv-tests-extension", C, "A cases file path with an unsupported extension.",
         LOCAL),
    Code("EY621", "agentv-missing-file", B, "A grader prompt or cases file that does not exist.",
         LOCAL),
    Code("EY622", "agentv-bare-prompt-path", C,
         "A prompt path without `file://`: sent to the grader as inline text.", LOCAL),
    Code("EY623", "agentv-prompt-required-variable", B,
         "A grader prompt file without `{{ output }}` or `{{ expected_output }}`.", WHOLE),
    Code("EY624", "agentv-prompt-unknown-variable", C,
         "An unknown `{{ variable }}` in a grader prompt.", WHOLE),
    Code("EY625", "agentv-prompt-deprecated-variable", C, "A deprecated grader prompt variable.",
         WHOLE),
    Code("EY626", "agentv-rubric-operator", C, "A rubric `operator` agentv ignores.", LOCAL),
    Code("EY627", "agentv-rubric-min-score", B,
         "`min_score` or `required_min_score` out of range.", LOCAL),
    Code("EY628", "agentv-rubric-required-min-score", C, "Deprecated `required_min_score`.",
         LOCAL),
    Code("EY629", "agentv-score-ranges", B,
         "`score_ranges` invalid, overlapping, or not covering every score 0-10.", WHOLE),
    Code("EY630", "agentv-rubric-criteria-dropped", C,
         "`criteria:` in a test's own `rubrics:`: the rubric is dropped silently.", LOCAL),
    Code("EY631", "agentv-rubric-missing-outcome", C, "A rubric without an outcome is skipped.",
         missing(r"has no 'outcome'", "criteria", "score_ranges")),
    Code("EY632", "agentv-test-skipped", C, "A test with nothing to grade is skipped silently.",
         WHOLE),
    Code("EY633", "agentv-5x-suite", A, "An AgentV 5.x suite: recognised, not checked.", KEY),
    Code("EY634", "agentv-composite-member", C, "A composite member the loader skips.", WHOLE),
    Code("EY635", "agentv-deprecated-type", C, "A deprecated assertion type.", LOCAL),
    Code("EY636", "agentv-grader-skipped", C,
         "A grader the loader skips (or refuses) for a missing or invalid field of its own.",
         # a value as written (a mode, an aggregator type, a weight, a match type), not a field
         # the grader lacks (which the hole may hold)
         local_when(r"^(?:invalid mode '|aggregator type '|'weight' must be "
                    r"|invalid match type ')")),
    Code("EY637", "agentv-depends-on", B,
         "`depends_on` names no test of the suite, the test itself, or makes a cycle.", WHOLE),
    Code("EY638", "agentv-ignored-value", C,
         "A conversation or dependency setting the loader ignores silently.", LOCAL),
    Code("EY639", "agentv-unknown-test-var", C,
         "A `{{ name }}` in a test's input fields that its `vars` do not hold.", WHOLE),
    Code("EY640", "agentv-input-file-missing", C,
         "An `input_files` entry that resolves to no file: the input goes without it.", LOCAL),
    Code("EY641", "agentv-targets", B,
         "`.agentv/targets.yaml` is not a `targets` list of named targets with a provider.",
         WHOLE),
    Code("EY642", "agentv-unknown-provider", C, "A target's `provider` is no known provider.",
         LOCAL),
    Code("EY643", "agentv-config", B,
         "`.agentv/config.yaml` breaks a rule `agentv validate` reports as an error.", WHOLE),
    Code("EY644", "agentv-config-warning", C,
         "`.agentv/config.yaml` has a field `agentv validate` warns about (unexpected, "
         "deprecated, misplaced or empty).", LOCAL),
    Code("EY645", "agentv-unknown-target", C,
         "A suite names a target its targets file does not define.", LOCAL),
    Code("EY646", "agentv-target-setting", C,
         "A target setting its provider does not read: ignored (`agentv validate` warns).",
         LOCAL),
    Code("EY647", "agentv-target-field", B,
         "A target field the resolver refuses: a camelCase name, a setting removed for its "
         "provider, a `cli` target's command or healthcheck.",
         # a field as written, but for a `cli` target's absent command or healthcheck source,
         # which a hole beside it may hold
         Recovery(Scope.LOCAL, hidden_when=re.compile(
             r"requires 'command'|must have either 'url'"))),
)

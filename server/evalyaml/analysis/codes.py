"""The catalogue of diagnostic codes.

Codes are a public interface: CI scripts filter on them and `docs/diagnostics.md` has a page for
each. A code never changes meaning once released; retired codes are not reused. Each code belongs
to a *class* that, together with the strict/soft mode, decides its severity in one place
(`severity_of`), so no check hard-codes a severity.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum

DOCS_URL = "https://github.com/evalyaml/evalyaml/blob/main/docs/diagnostics.md"


class Severity(IntEnum):
    """Numbered as in LSP so the adapter needs no table."""

    ERROR = 1
    WARNING = 2
    INFORMATION = 3
    HINT = 4

    @property
    def label(self) -> str:
        return self.name.lower()


class CodeClass(Enum):
    """How a code's severity follows the mode.

    BROKEN: the file or reference cannot be used at all; an error in every mode.
    CONTRACT: the file breaks the contract; a warning in soft mode, an error in strict mode.
    ADVICE: worth knowing, never blocking; information in every mode.
    HINT: a gentle nudge; a hint in every mode.
    """

    BROKEN = "broken"
    CONTRACT = "contract"
    ADVICE = "advice"
    HINT = "hint"


@dataclass(frozen=True, slots=True)
class Code:
    code: str
    name: str
    code_class: CodeClass
    summary: str

    @property
    def doc_url(self) -> str:
        return f"{DOCS_URL}#{self.code.lower()}"


def _catalogue(*codes: Code) -> dict[str, Code]:
    return {c.code: c for c in codes}


B, C, A, H = CodeClass.BROKEN, CodeClass.CONTRACT, CodeClass.ADVICE, CodeClass.HINT

CODES: dict[str, Code] = _catalogue(
    # EY1xx: the file cannot be read as YAML (or as strict JSON / JSONL: EY110-EY113).
    Code("EY100", "unreadable-file", B, "The file is not UTF-8 text."),
    Code("EY101", "yaml-syntax", B, "YAML syntax error."),
    Code("EY102", "duplicate-key", B, "A mapping has the same key twice."),
    Code("EY103", "undefined-alias", B, "An alias names an anchor that does not exist."),
    Code("EY104", "alias-expansion-limit", B, "Aliases expand to more nodes than allowed."),
    Code("EY105", "nesting-limit", B, "The document nests deeper than allowed."),
    Code("EY106", "tab-indentation", B, "A tab is used where YAML needs spaces."),
    Code("EY107", "file-too-large", B, "The file is larger than the configured limit."),
    Code("EY108", "unsafe-tag", C, "A tag asks for an object to be constructed."),
    Code("EY110", "json-syntax", B, "The text is not strict JSON (RFC 8259)."),
    Code("EY111", "json-duplicate-key", B, "A JSON object has the same member name twice."),
    Code("EY112", "json-non-finite-number", B, "NaN or Infinity where JSON needs a number."),
    Code("EY113", "json-trailing-comma", B,
         "A comma after the last item of a JSON array or object."),
    # EY2xx: the file breaks its schema.
    Code("EY200", "wrong-root", C, "The document root is not a mapping."),
    Code("EY201", "missing-key", C, "A required key is missing."),
    Code("EY202", "wrong-type", C, "A value has the wrong type."),
    Code("EY203", "invalid-enum", C, "A value is not one of the allowed values."),
    Code("EY204", "unknown-key", C, "A key is not allowed in a closed object."),
    Code("EY205", "likely-typo", C, "An unknown key is close to a known one."),
    Code("EY206", "unknown-check-kind", C, "A check `kind` is not one of the known kinds."),
    Code("EY207", "constraint", C, "A value breaks a constraint (length, range, pattern)."),
    Code("EY208", "numeric-version", C, "A version is a YAML number, not a string."),
    Code("EY209", "invalid-version", C, "A version is not a semantic version."),
    Code("EY210", "duplicate-case-id", C, "Two cases in one dataset share an id."),
    Code("EY211", "duplicate-check-id", C, "Two checks in one rubric share an id."),
    Code("EY212", "invalid-regex", C, "A `regex` check's pattern does not compile."),
    Code("EY213", "invalid-json-schema", C,
         "A `json_schema` check's schema is not a valid schema."),
    Code("EY214", "zero-weights", B, "`weighted_avg` scoring with all weights zero."),
    # EY3xx: references and the workspace.
    Code("EY300", "malformed-reference", B, "A reference does not have the form kind/id@pin."),
    Code("EY301", "unknown-reference", B, "A reference names an id that is not defined."),
    Code("EY302", "no-matching-version", B, "No version of the id matches the pin."),
    Code("EY303", "unpinned-reference", C, "A reference has no version pin."),
    Code("EY304", "newer-version", A, "A newer version exists than the one pinned."),
    Code("EY305", "duplicate-definition", B, "Two files define the same id and version."),
    Code("EY306", "nested-composite", B, "A composite check points at a composite rubric."),
    Code("EY307", "composite-cycle", B, "Composite rubrics reference each other in a cycle."),
    Code("EY308", "unvalidated-judge", C, "A referenced judge has no or stale validation."),
    Code("EY309", "unknown-bundle", C, "A case names a bundle that is not configured."),
    Code("EY310", "file-name-mismatch", H, "The file name does not mention the id it defines."),
    Code("EY311", "unreadable-workspace-file", C, "A file in the workspace could not be read."),
    Code("EY312", "unrecognised-near-miss", C,
         "A file looks like one of a format's files but one mistake kept it from being checked."),
    Code("EY320", "unknown-config-key", C, "The configuration has a key evalyaml does not know."),
    Code("EY321", "invalid-config", B, "The configuration has a value of the wrong type."),
    # EY4xx: judges and templates.
    Code("EY400", "unknown-template-variable", C, "A judge template uses an unknown variable."),
    Code("EY401", "levels-without-names", C, "`score_type: levels` without `level_names`."),
    Code("EY402", "rate-out-of-range", C, "`tpr` or `tnr` is outside 0 to 1."),
    Code("EY403", "stale-validation", C, "The judge was validated too long ago."),
    Code("EY404", "future-validation", C, "`validated_at` is in the future."),
    Code("EY405", "invalid-date", C, "`validated_at` is not a date."),
    Code("EY406", "unclosed-template-tag", C, "A `{{` in a template is never closed."),
    # EY5xx: Padosoft eval-harness (EY500-EY519)
    Code("EY500", "padosoft-schema-version", B,
         "eval-harness does not support the file's `schema_version`."),
    Code("EY501", "padosoft-name", B, "The dataset or eval set `name` is missing or invalid."),
    Code("EY502", "padosoft-missing-list", B,
         "`samples`, `cases` or `datasets` is missing or not a list."),
    Code("EY503", "padosoft-empty-list", B, "`samples`, `cases` or `datasets` is empty."),
    Code("EY504", "padosoft-item-not-mapping", B, "A sample or case is not a mapping."),
    Code("EY505", "padosoft-missing-id", B, "A sample or case has no string `id`."),
    Code("EY506", "padosoft-duplicate-id", B,
         "Two samples, two cases or two eval-set entries share an id or name."),
    Code("EY507", "padosoft-input-not-mapping", B, "`input` is missing or not a mapping."),
    Code("EY508", "padosoft-missing-expected-output", B,
         "A sample has no `expected_output` key."),
    Code("EY509", "padosoft-metadata-not-mapping", B, "`metadata` is not a mapping."),
    Code("EY510", "padosoft-calibration-text", B,
         "A calibration case's `expected` or `actual` is not a string."),
    Code("EY511", "padosoft-human-verdict", B, "`human_verdict` is not `pass` or `fail`."),
    Code("EY512", "padosoft-eval-set-dataset", B,
         "An eval-set entry is not a dataset name eval-harness accepts."),
    Code("EY513", "padosoft-ignored-key", C,
         "A key eval-harness ignores is close to one it reads."),
    Code("EY514", "padosoft-retrieval-k", C, "`metadata.k` is not a positive integer."),
    Code("EY515", "padosoft-refusal-knob", C,
         "`refusal_expected` is not a boolean, or `refusal_policy` not a string."),
    Code("EY516", "padosoft-citations", C,
         "`citations` or `citation_evidence` cannot be used by citation-groundedness."),
    Code("EY517", "padosoft-tags", C, "`tags` holds values the reports drop."),
    Code("EY518", "padosoft-expected-output-shape", C,
         "An id list or gain map in `expected_output` has an entry retrieval metrics reject."),
    Code("EY519", "padosoft-trajectory", C,
         "`metadata.trajectory` holds expectations the trajectory metrics ignore."),
    # EY6xx: AgentV eval suites (EY600-EY699)
    Code("EY600", "agentv-not-mapping", B, "The suite is not a YAML mapping."),
    Code("EY601", "agentv-unknown-key", C, "A suite or test key agentv does not read."),
    Code("EY602", "agentv-deprecated-key", C, "A deprecated suite or test key."),
    Code("EY603", "agentv-name-version", B,
         "`name` does not match `^[a-z0-9-]+$`, or `version` is a number: the loader refuses."),
    Code("EY604", "agentv-input", B, "`input` is missing or not a string, mapping or messages."),
    Code("EY605", "agentv-tests", B,
         "`tests` is missing, or a test is neither a mapping nor a `file://` reference."),
    Code("EY606", "agentv-test-id", B, "A test has no non-empty string `id`."),
    Code("EY607", "agentv-duplicate-test-id", B, "Two tests of one suite share an id."),
    Code("EY608", "agentv-criteria", B, "`criteria` is not a non-empty string."),
    Code("EY609", "agentv-message", B, "A message has an invalid role or content."),
    Code("EY610", "agentv-role-marker", C, "Message content holds a role marker (`@[User]:`)."),
    Code("EY611", "agentv-expected-output", B,
         "`expected_output` is not a string, mapping or list."),
    Code("EY612", "agentv-assertions", C,
         "`assertions` is not a list, or holds an unusable item."),
    Code("EY613", "agentv-assertion-type", C,
         "An assertion has no `type`, or one that is no grader kind and no custom assertion."),
    Code("EY614", "agentv-assertion-value", C,
         "An assertion type's `value` is missing or wrong."),
    Code("EY615", "agentv-regex", C,
         "A `regex` value is not a valid JavaScript regular expression."),
    Code("EY616", "agentv-required", C, "`required` is not a boolean or a number in (0, 1]."),
    Code("EY617", "agentv-conversation", B, "Conversation-mode keys without `mode: conversation`, "
         "or a conversation without turns."),
    Code("EY618", "agentv-workspace-repo", B, "A workspace repo has no `source` and no docker."),
    Code("EY619", "agentv-workspace-advice", C, "A workspace setting that has no effect."),
    Code("EY620", "agentv-tests-extension", C, "A cases file path with an unsupported extension."),
    Code("EY621", "agentv-missing-file", B, "A grader prompt or cases file that does not exist."),
    Code("EY622", "agentv-bare-prompt-path", C,
         "A prompt path without `file://`: sent to the grader as inline text."),
    Code("EY623", "agentv-prompt-required-variable", B,
         "A grader prompt file without `{{ output }}` or `{{ expected_output }}`."),
    Code("EY624", "agentv-prompt-unknown-variable", C,
         "An unknown `{{ variable }}` in a grader prompt."),
    Code("EY625", "agentv-prompt-deprecated-variable", C, "A deprecated grader prompt variable."),
    Code("EY626", "agentv-rubric-operator", C, "A rubric `operator` agentv ignores."),
    Code("EY627", "agentv-rubric-min-score", B,
         "`min_score` or `required_min_score` out of range."),
    Code("EY628", "agentv-rubric-required-min-score", C, "Deprecated `required_min_score`."),
    Code("EY629", "agentv-score-ranges", B,
         "`score_ranges` invalid, overlapping, or not covering every score 0-10."),
    Code("EY630", "agentv-rubric-criteria-dropped", C,
         "`criteria:` in a test's own `rubrics:`: the rubric is dropped silently."),
    Code("EY631", "agentv-rubric-missing-outcome", C, "A rubric without an outcome is skipped."),
    Code("EY632", "agentv-test-skipped", C, "A test with nothing to grade is skipped silently."),
    Code("EY633", "agentv-5x-suite", A, "An AgentV 5.x suite: recognised, not checked."),
    Code("EY634", "agentv-composite-member", C, "A composite member the loader skips."),
    Code("EY635", "agentv-deprecated-type", C, "A deprecated assertion type."),
    Code("EY636", "agentv-grader-skipped", C,
         "A grader the loader skips (or refuses) for a missing or invalid field of its own."),
    Code("EY637", "agentv-depends-on", B,
         "`depends_on` names no test of the suite, the test itself, or makes a cycle."),
    Code("EY638", "agentv-ignored-value", C,
         "A conversation or dependency setting the loader ignores silently."),
    Code("EY639", "agentv-unknown-test-var", C,
         "A `{{ name }}` in a test's input fields that its `vars` do not hold."),
    Code("EY640", "agentv-input-file-missing", C,
         "An `input_files` entry that resolves to no file: the input goes without it."),
    Code("EY641", "agentv-targets", B,
         "`.agentv/targets.yaml` is not a `targets` list of named targets with a provider."),
    Code("EY642", "agentv-unknown-provider", C, "A target's `provider` is no known provider."),
    Code("EY643", "agentv-config", B,
         "`.agentv/config.yaml` breaks a rule `agentv validate` reports as an error."),
    Code("EY644", "agentv-config-warning", C,
         "`.agentv/config.yaml` has a field `agentv validate` warns about (unexpected, "
         "deprecated, misplaced or empty)."),
    # EY700-EY799: Every Eval Ever (seed 003), aggregates and samples files.
    Code("EY700", "eee-unknown-version", C,
         "`schema_version` names a version evalyaml has no schema for."),
    Code("EY701", "eee-missing-key", B, "A key the declared version requires is missing."),
    Code("EY702", "eee-wrong-type", B, "A value has the wrong JSON type."),
    Code("EY703", "eee-invalid-enum", B, "A value is not one of the allowed values."),
    Code("EY704", "eee-unknown-key", B, "A key is not allowed in a closed object."),
    Code("EY705", "eee-misspelt-key", B, "A key is a misspelling of a required key."),
    Code("EY706", "eee-likely-typo", C, "An extra key in an open object is close to a known one."),
    Code("EY707", "eee-constraint", B,
         "A value breaks a constraint (range, pattern, length, `not`)."),
    Code("EY708", "eee-conditional", B,
         "A requirement of `interaction_type` (or `score_type`) is not met."),
    Code("EY709", "eee-token-usage", B, "`token_usage` has some of its three counts, not all."),
    Code("EY710", "eee-row-not-object", B, "A samples line is not a JSON object."),
    Code("EY711", "eee-no-rows", B, "A samples file has no row."),
    Code("EY712", "eee-row-too-long", B,
         "A row of a streamed samples file is too long to check."),
    Code("EY720", "eee-samples-file-missing", B,
         "`detailed_evaluation_results.file_path` names no file."),
    Code("EY721", "eee-checksum", B, "`checksum` is not the digest of the samples file."),
    Code("EY722", "eee-total-rows", B,
         "`total_rows` is not the samples file's number of non-blank lines."),
    Code("EY723", "eee-evaluation-id", B, "A row's `evaluation_id` is not its aggregate's."),
    Code("EY724", "eee-model-id", B, "A row's `model_id` is not its aggregate's `model_info.id`."),
    Code("EY725", "eee-sample-hash", C, "`sample_hash` matches no known recipe."),
    Code("EY726", "eee-path-convention", C, "A datastore path breaks the naming convention."),
    # Apastra PromptOps (seed 002): EY800-EY899.
    Code("EY800", "apastra-schema", B,
         "A file breaks the Apastra schema its place names (ajv rejects it)."),
    Code("EY801", "apastra-ignored-key", C,
         "A key outside an open schema object is close to a key the schema defines."),
    Code("EY802", "apastra-stale-digest", C,
         "A digest does not match what Apastra computes for the content it names."),
    Code("EY803", "apastra-placeholder-digest", C,
         "A digest is the sha256 of the empty string: a placeholder."),
    Code("EY804", "apastra-malformed-digest", C,
         "A digest is not `sha256:` and 64 lowercase hex digits."),
    Code("EY805", "apastra-digest-implementation", A,
         "A digest matches only one of Apastra's two digest implementations (non-ASCII text)."),
    Code("EY806", "apastra-digest-unreadable", C,
         "Apastra's digest tools cannot hash the file (an unquoted YAML date)."),
    Code("EY807", "apastra-threshold-metric", C,
         "A suite threshold names a metric no evaluator of the suite produces."),
    Code("EY808", "apastra-input-not-variable", C,
         "A dataset's case gives an input the suite's prompt has no variable for."),
    Code("EY809", "apastra-unsupplied-placeholder", C,
         "A `{{name}}` placeholder of a quick eval that a case gives no input for."),
    Code("EY810", "apastra-spaced-placeholder", C,
         "`{{ name }}` with spaces, which Apastra never substitutes."),
    Code("EY811", "apastra-duplicate-case-id", C,
         "Two lines of a dataset (or cases of a quick eval) share a `case_id`."),
    Code("EY812", "apastra-malformed-pin", B,
         "A consumption-manifest pin Apastra's resolver cannot resolve as written."),
    Code("EY813", "apastra-unsafe-prompt-id", B,
         "A prompt id Apastra's resolver refuses (backslash, absolute, `.`/`..` segments)."),
)


def code(code_id: str) -> Code:
    return CODES[code_id]


def severity_of(code_id: str, *, strict: bool) -> Severity:
    code_class = CODES[code_id].code_class
    if code_class is CodeClass.BROKEN:
        return Severity.ERROR
    if code_class is CodeClass.CONTRACT:
        return Severity.ERROR if strict else Severity.WARNING
    if code_class is CodeClass.ADVICE:
        return Severity.INFORMATION
    return Severity.HINT

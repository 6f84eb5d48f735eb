"""promptfoo's codes (EYPF001...).

The class follows what promptfoo 0.123.1 does with the mistake (`../shared/FORMATS.md` §7.18):
BROKEN when `promptfoo validate` or the run fails (or a test errors mid-run), CONTRACT when
promptfoo drops or ignores the thing silently, ADVICE and HINT for what runs but is probably not
meant. The `Recovery` says how a finding behaves beside a YAML syntax error.
"""

from __future__ import annotations

from evalyaml.core.codes import (
    KEY,
    LOCAL,
    UNSAFE_FIX,
    WHOLE,
    Code,
    CodeClass,
    local_when,
    missing,
    reads,
)

B, C, A, H = CodeClass.BROKEN, CodeClass.CONTRACT, CodeClass.ADVICE, CodeClass.HINT

CODES: tuple[Code, ...] = (
    Code("EYPF001", "promptfoo-unknown-key", C,
         "A key promptfoo's schema does not have: zod strips it silently.", LOCAL,
         fixes=UNSAFE_FIX),
    Code("EYPF002", "promptfoo-providers-and-targets", C,
         "Both `providers` and `targets`: targets silently replace providers.",
         # both keys as written: a hole can remove one (no finding), never add one
         LOCAL),
    Code("EYPF003", "promptfoo-no-provider", B,
         "Neither `providers` nor `targets` (or an empty list): promptfoo refuses the config.",
         missing(r"has no 'providers'", "providers", "targets")),
    Code("EYPF004", "promptfoo-assertion-type", B,
         "An assertion type no handler knows: the test errors mid-run.", LOCAL, fixes=UNSAFE_FIX),
    Code("EYPF005", "promptfoo-assertion-value", B,
         "An assertion's `value` or `threshold` is not what its type needs.",
         reads("type", "value", "threshold")),
    Code("EYPF006", "promptfoo-assertion-shape", B,
         "An assertion without `type`, or with a `threshold`/`weight`/`metric` of the wrong "
         "type: `validateAssertions` refuses it.",
         local_when(r"must be a|is not a list")),
    Code("EYPF007", "promptfoo-key-under-vars", C,
         "A test key (`assert`, `options`...) indented under `vars`: it becomes a variable.",
         KEY),  # a key's place among its siblings; it joins a hole that blanks its whole value
    Code("EYPF008", "promptfoo-no-assertion", A,
         "A test with no assertion from anywhere: it passes whatever the output.", WHOLE),
    Code("EYPF009", "promptfoo-file-not-found", B,
         "A `file://` reference (or a path promptfoo reads) names no file.", LOCAL),
    Code("EYPF010", "promptfoo-file-outside", A,
         "A referenced path leads outside the workspace: evalyaml does not follow it.", LOCAL),
    Code("EYPF011", "promptfoo-undefined-var", C,
         "A prompt uses a variable a test does not supply: it renders as an empty string.",
         WHOLE),
    Code("EYPF012", "promptfoo-unused-var", H,
         "A test variable no prompt uses.", LOCAL),
    Code("EYPF013", "promptfoo-template-syntax", B,
         "A Nunjucks syntax error in a prompt: the render throws.", LOCAL),
    Code("EYPF014", "promptfoo-csv-column", C,
         "A CSV test-table header promptfoo reads as a plain variable (a single underscore, "
         "`__metadata` with no key).", LOCAL),
    Code("EYPF015", "promptfoo-csv-expected", C,
         "An `__expected` cell promptfoo reads other than it looks: a misspelt type becomes "
         "`equals`, a threshold written as a value.", LOCAL),
    Code("EYPF016", "promptfoo-empty-test", B,
         "A test with none of the keys a test must have: promptfoo refuses it.", WHOLE),
    Code("EYPF017", "promptfoo-default-test-path", C,
         "`defaultTest` as a path without `file://`: ignored at run time.", LOCAL),
    Code("EYPF018", "promptfoo-schema", B,
         "A value of the wrong shape for its key: `promptfoo validate` refuses the config.",
         # a prompt object lacking 'raw'/'label' may have lost it to a blanked line: not local
         local_when(r"^(?!a prompt object needs).*(?:must be|is not)")),
    Code("EYPF019", "promptfoo-unknown-provider", B,
         "A provider id whose prefix no provider factory matches.", LOCAL, fixes=UNSAFE_FIX),
    Code("EYPF020", "promptfoo-prompt-as-path", B,
         "A one-line inline prompt promptfoo takes for a file path that does not exist.", LOCAL),
    Code("EYPF021", "promptfoo-csv-syntax", B,
         "A CSV test table csv-parse cannot read.", LOCAL),
    Code("EYPF022", "promptfoo-redteam-id", B,
         "A redteam plugin or strategy id outside promptfoo's closed lists: validate refuses "
         "the config.", LOCAL, fixes=UNSAFE_FIX),
    Code("EYPF023", "promptfoo-unknown-reference", B,
         "A test's `prompts` or `providers` names no prompt or provider of the config: "
         "promptfoo refuses the config.",
         LOCAL),
)

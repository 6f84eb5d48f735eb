"""An Apastra quick eval case by case (`core.items`): a keystroke in one case of 10,000
validates that case against the schema, then the two rules over every case (a case id used
twice, EY811; a placeholder of the prompt that some case's inputs lack, EY809) run over the
cases' facts (`crosscases`), as the whole document's check gives them.

The root is validated with its `cases:` lines taken out and the list read as empty
(`validate(..., emptied="cases")`); each case alone against the schema's item
(`validate_item`: its messages name `cases[3]`, so a result with findings serves that index
only). A case reads which placeholders the prompt has: they are the fingerprint its result is
keyed by, so editing the prompt's placeholders re-checks every case. A file that does not split
(anchors, a `cases:` that is not a block list) or a case that does not parse as written is
analysed whole by the caller. A quick eval written in JSON the same way, its `cases` array cut
out by `syntax.jsonsplit` (`JsonQuickCaseRules`), when the document has a cache.
"""

from __future__ import annotations

from evalyaml.core.findings import Finding, FindingSink
from evalyaml.core.items import Item, ItemState, analyze_items, shift_span
from evalyaml.core.model import Definition, FileAnalysis, Reference
from evalyaml.core.options import Options
from evalyaml.formats.apastra import crosscases, rules
from evalyaml.formats.apastra.context import Context, string_at
from evalyaml.formats.apastra.kinds import QUICK_EVAL
from evalyaml.formats.apastra.validate import validate, validate_item
from evalyaml.syntax.jsonsplit import JsonItems, JsonReading
from evalyaml.syntax.record import record
from evalyaml.syntax.text import Span
from evalyaml.syntax.yaml.parse import BlockYamlReading, read_mapping

STATE = "apastra-quick-eval-cases"
KEY = "cases"
_TOP = Span.point(0, 0)


@record
class QuickRoot:
    """What the root gives the file and the cases: its definitions and references, and the
    prompt's placeholders (each unspaced one where it is; every name)."""

    definitions: tuple[Definition, ...]
    references: tuple[Reference, ...]
    placeholders: tuple[tuple[str, Span], ...]
    names: frozenset[str]


@record
class CaseFacts:
    """One case's id and where it is (EY811), its inputs (EY809)."""

    case_id: tuple[str, Span] | None
    inputs: crosscases.CaseInputs | None

    def shifted(self, lines: int) -> CaseFacts:
        case_id = self.case_id
        return CaseFacts(None if case_id is None else (case_id[0], case_id[1].shifted(lines)),
                         None if self.inputs is None else self.inputs.shifted(lines))


class QuickCaseRules(BlockYamlReading):
    key = KEY
    uses_index = True

    def __init__(self, path: str | None) -> None:
        self.path = path

    def root(self, text: str, options: Options) -> tuple[tuple[Finding, ...], QuickRoot] | None:
        read = read_mapping(self.parse, text, strict=options.strict)
        if read is None:
            return None
        sink, parsed, root = read
        ctx = Context(parsed.text, parsed.lines, sink)
        result = FileAnalysis(self.path, QUICK_EVAL)
        flagged = validate(ctx, root, QUICK_EVAL, emptied=KEY)
        if flagged is None:
            return None
        rules.define(ctx, root, QUICK_EVAL, result)
        rules.refer(ctx, root, QUICK_EVAL, result)
        rules.check_digests(ctx, root, QUICK_EVAL, flagged, self.path)
        rules.check_templates(ctx, root, QUICK_EVAL, result)  # EY810; EY809 over the cases
        found = rules.template_placeholders(root, QUICK_EVAL)
        if result.facts or any(d.id_span != _TOP or d.version_span is not None
                               for d in result.definitions):
            return None  # what this module does not move (a quick eval defines its file name)
        return tuple(dict.fromkeys(sink.findings)), QuickRoot(
            tuple(result.definitions), tuple(result.references),
            tuple(crosscases.placeholder_spans(ctx, found)),
            frozenset(p.name for p, _ in found))

    def fingerprint(self, root: QuickRoot) -> str:
        return "\0".join(sorted({name for name, _ in root.placeholders}))

    def item(self, text: str, index: int, root: QuickRoot, options: Options
             ) -> Item[CaseFacts] | None:
        sink = FindingSink(strict=options.strict)
        lone = self.lone(text, index, sink)
        if lone is None:
            return None
        parsed, case = lone
        ctx = Context(parsed.text, parsed.lines, sink)
        flagged = validate_item(ctx, case, QUICK_EVAL, KEY, index)
        if flagged is None:
            return None
        rules.check_digests(ctx, case, QUICK_EVAL, flagged, None)
        found = string_at(case, "case_id")
        names = {name for name, _ in root.placeholders}
        return Item(tuple(dict.fromkeys(sink.findings)), CaseFacts(
            None if found is None else (found[0], ctx.span(found[1])),
            crosscases.case_inputs(ctx, case, names)))

    def shift(self, facts: CaseFacts, lines: int) -> CaseFacts:
        return facts.shifted(lines)

    def shift_root(self, root: QuickRoot, first_line: int, lines: int) -> QuickRoot:
        def move(span: Span) -> Span:
            return shift_span(span, first_line, lines)

        return QuickRoot(
            root.definitions,  # at the file's top (`root`), above the cases
            tuple(r.shifted(lines) if r.span.start.line >= first_line else r
                  for r in root.references),
            tuple((name, move(span)) for name, span in root.placeholders), root.names)


class JsonQuickCaseRules(JsonReading, QuickCaseRules):
    """A quick eval written in JSON: its `cases` array cut out by `syntax.jsonsplit`; the rest and
    each case must read with no finding (the parser's findings are the whole file's)."""

    def __init__(self, path: str | None, items: JsonItems) -> None:
        super().__init__(path)
        self.items = items


def analyze_quick_eval_by_case(text: str, path: str | None, options: Options,
                               state: ItemState | None, *, is_json: bool = False
                               ) -> FileAnalysis | None:
    """The quick eval's analysis as `analyze._analyze_document` gives it; None: read it whole."""
    if is_json:
        items = JsonItems(KEY)
        done = analyze_items(text, JsonQuickCaseRules(path, items), options, state, items)
    else:
        done = analyze_items(text, QuickCaseRules(path), options, state)
    if done is None:
        return None
    sink = FindingSink(strict=options.strict)
    sink.findings.extend(done.root_findings)
    for item in done.items:
        sink.findings.extend(item.findings)
    crosscases.missing_inputs(sink, list(done.root.placeholders), done.root.names,
                              (item.facts.inputs for item in done.items))
    crosscases.duplicate_ids((item.facts.case_id for item in done.items), sink, "quick eval")
    result = FileAnalysis(path, QUICK_EVAL)
    result.definitions = list(done.root.definitions)
    result.references = list(done.root.references)
    result.findings = list(dict.fromkeys(sink.findings))
    return result


"""The editor features as plain data: what hover, navigation, symbols, rename, code lenses,
quick fixes and completion answer, computed from a text, its analysis and the workspace index.

Like rust-analyzer's `ide` crate, nothing here knows the protocol: no pygls, no lsprotocol, no
`evalyaml.lsp` (`tests/lsp/test_layout.py` holds this). Answers are frozen dataclasses whose
positions are core `Span`s (lines broken at LF, CRLF and CR; code-point columns), and kinds are
our own enums. The handlers in `evalyaml.lsp` convert: client positions to core ones before
the call, answers to lsprotocol types after it, each span through the mapper of the text it was
computed on (`lsp/consistency.py`). So a feature can be tested on a `Workspace` over a folder,
without a server (`tests/ide/`).

- `source`: the text a feature reads (`Source`; an open `Document` is one, `Text` another).
- `context`, `schema_nav`: the YAML context at a cursor, read from the lines alone, and the
  shipped schemas walked along it.
- `lookup`: what is under the cursor (a reference, a definition's id); the edited file's kind.
- `describe`: Markdown about a rubric or judge, a template variable.
- `hover` (`HoverInfo`), `navigation` (`NavTarget`, `Link`, `Symbol`, `WorkspaceSymbol`,
  `RenameTarget`, `Lens`), `actions` (`CodeAction`), `completion` (`Completion`): the features.
  Their kinds (`SymbolKind`, `ActionKind`, `CompletionKind`) meet the protocol's in one place,
  `lsp/convert.py`.
"""

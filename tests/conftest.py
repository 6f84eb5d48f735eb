"""The registry of formats is imported before any test is collected: it adds every format's
codes to the catalogue (`core.codes.register`), which tests parametrize over and which the
contract's rules (`formats/contract/`) report into."""

import evalyaml.formats  # noqa: F401

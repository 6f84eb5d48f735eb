"""The registry of formats is imported before any test is collected: it adds every format's
codes to the catalogue (`analysis.codes.register`), which tests parametrize over and which the
contract's rules (still under `analysis/`) report into."""

import evalyaml.formats  # noqa: F401

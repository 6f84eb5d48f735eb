"""`lazy_re` (`syntax/lazyre.py`) answers as the compiled pattern does, from its first use on."""

from __future__ import annotations

import re

from evalyaml.syntax.lazyre import lazy_re

TEXT = "id: a1\n  - key: Value 12\nother: x\n"


def test_every_method_answers_as_the_compiled_pattern() -> None:
    source, flags = r"^(?P<indent> *)(?:- )?(?P<key>[a-z]+):", re.MULTILINE
    compiled = re.compile(source, flags)
    for method, args in [("match", (TEXT,)), ("match", (TEXT, 7)), ("search", (TEXT, 1)),
                         ("fullmatch", ("id:",)), ("findall", (TEXT,)), ("split", (TEXT,)),
                         ("sub", (r"\g<key>=", TEXT)), ("subn", ("", TEXT))]:
        lazy = lazy_re(source, flags)  # a fresh one: each method may be the first use
        got, want = getattr(lazy, method)(*args), getattr(compiled, method)(*args)
        if isinstance(want, re.Match):
            assert isinstance(got, re.Match)
            assert (got.span(), got.groupdict()) == (want.span(), want.groupdict())
        else:
            assert got == want, method
    lazy = lazy_re(source, flags)
    assert [m.span() for m in lazy.finditer(TEXT)] == [m.span() for m in
                                                       compiled.finditer(TEXT)]
    assert (lazy.pattern, lazy.flags, lazy.groups, lazy.groupindex) == (
        compiled.pattern, compiled.flags, compiled.groups, compiled.groupindex)


def test_attributes_first_then_methods() -> None:
    lazy = lazy_re("a(b)?")
    assert lazy.groups == 1
    assert lazy.search("xab") is not None and lazy.search("xy") is None

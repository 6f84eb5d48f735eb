"""`record` / `mutable_record` (`syntax/record.py`) behave as `dataclass(frozen=True, slots=True)`
and `dataclass(slots=True)` do: the same constructor, repr text, equality, hashes, frozen
errors, pickling, `dataclasses.replace`, `fields` and `is_dataclass`. Each shape is built both
ways from the same class body (each with its own `field`) and the instances compared side by
side.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from dataclasses import FrozenInstanceError, dataclass, field, fields, is_dataclass, replace
from typing import Any

import pytest

from evalyaml.syntax import record as ours
from evalyaml.syntax.record import mutable_record, record

Decorator = Callable[[type], type]
FROZEN: list[Decorator] = [dataclass(frozen=True, slots=True), record]
MUTABLE: list[Decorator] = [dataclass(slots=True), mutable_record]
FieldFunction = Callable[..., Any]


def plain_body(field: FieldFunction) -> type:
    class Point:
        """A point."""
        x: int
        y: str = "a"
        tags: tuple[str, ...] = ()
        items: list[int] = field(default_factory=list)
        note: str = field(default="n", compare=False, repr=False)
        cache: dict[str, int] = field(default_factory=dict, compare=False, hash=False)
        hidden: int = field(default=7, init=False)
    return Point


def post_init_body(field: FieldFunction) -> type:
    class Scaled:
        value: int
        double: int = field(init=False, default=0)

        def __post_init__(self) -> None:
            object.__setattr__(self, "double", self.value * 2)
    return Scaled


def own_methods_body(field: FieldFunction) -> type:
    class Own:  # noqa: PLW1641 - the hash a class with its own __eq__ gets is under test
        name: str

        def __repr__(self) -> str:
            return f"<{self.name}>"

        def __eq__(self, other: object) -> bool:
            return type(other) is type(self) and other.name.lower() == self.name.lower()
    return Own


def empty_body(field: FieldFunction) -> type:
    class Empty:
        pass
    return Empty


def build(body: Callable[[FieldFunction], type], decorator: Decorator, prefix: str = ""
          ) -> Any:
    """The class of `body` under `decorator`, as a module global `prefix + its name` (pickle
    finds classes by name)."""
    cls = body(ours.field if decorator in (record, mutable_record) else field)
    base = cls.__name__
    if prefix:
        cls.__name__ = cls.__qualname__ = prefix + base
    built = decorator(cls)
    built.base_name = base
    if prefix:
        globals()[prefix + base] = built
    return built


def samples(cls: Any) -> list[Any]:
    name = cls.base_name
    if name == "Point":
        return [cls(1), cls(1, "b", ("t",), [1, 2], "m", {"k": 1}), cls(x=2, items=[3]),
                cls(1, note="other"), cls(1, cache={"z": 2})]
    if name == "Scaled":
        return [cls(3), cls(value=4)]
    if name == "Own":
        return [cls("A"), cls("a"), cls("b")]
    return [cls()]


BODIES = [plain_body, post_init_body, own_methods_body, empty_body]


def _observe(instance: Any, others: list[Any]) -> list[Any]:
    seen: list[Any] = [repr(instance), [instance == other for other in others],
                       [instance != other for other in others], instance == 1,
                       [(f.name, getattr(instance, f.name)) for f in fields(instance)],
                       type(instance).__match_args__, hasattr(instance, "__dict__")]
    try:
        seen.append(hash(instance))
    except TypeError as err:
        seen.append(f"TypeError: {err}")
    return [str(seen).replace("Our", "Ref")]  # the two classes' names


@pytest.mark.parametrize("body", BODIES)
@pytest.mark.parametrize("frozen", [True, False])
def test_a_record_behaves_as_the_dataclass(body: Callable[[FieldFunction], type],
                                           frozen: bool) -> None:
    reference, built = (build(body, decorator, f"{who}{int(frozen)}_") for who, decorator
                        in zip(("Ref", "Our"), FROZEN if frozen else MUTABLE, strict=True))
    ref_items, our_items = samples(reference), samples(built)
    for ref, our in zip(ref_items, our_items, strict=True):
        assert _observe(our, our_items) == _observe(ref, ref_items)
        assert pickle.loads(pickle.dumps(our)) == our
        assert _observe(pickle.loads(pickle.dumps(our)), our_items) == _observe(our, our_items)
        assert is_dataclass(our)
        if fields(our):
            first = fields(our)[0].name
            for replacer in (replace, ours.replace):
                changed = replacer(our, **{first: getattr(our, first)})
                assert changed == our and changed is not our
            other = type(getattr(our, first))()  # 0 or ""
            assert _observe(ours.replace(our, **{first: other}), our_items) == _observe(
                replace(ref, **{first: other}), ref_items)
        for name in [f.name for f in fields(our)] + ["unknown"]:
            if frozen:
                with pytest.raises(ours.FrozenInstanceError) as raised:
                    setattr(our, name, 1)
                if name != "unknown":
                    with pytest.raises(FrozenInstanceError) as expected:
                        setattr(ref, name, 1)
                    assert str(raised.value) == str(expected.value)
                    assert isinstance(raised.value, AttributeError)
                with pytest.raises(ours.FrozenInstanceError, match="cannot delete field"):
                    delattr(our, name)
    assert [(f.name, f.init, f.repr, f.compare, f.hash) for f in fields(built)] == [
        (f.name, f.init, f.repr, f.compare, f.hash) for f in fields(reference)]
    assert built.__slots__ == reference.__slots__


def test_mutable_records_assign_and_are_unhashable() -> None:
    point = build(plain_body, mutable_record)(1)
    point.x = 5
    assert point.x == 5
    assert point.items is not build(plain_body, mutable_record)(1).items  # a list each
    with pytest.raises(TypeError, match="unhashable type: 'Point'"):
        hash(point)
    with pytest.raises(AttributeError):
        point.unknown = 1


def test_constructor_errors_are_the_dataclass_ones() -> None:
    for decorator in (record, mutable_record):
        cls = build(plain_body, decorator)
        with pytest.raises(TypeError, match="missing 1 required positional argument: 'x'"):
            cls()
        with pytest.raises(TypeError, match="unexpected keyword argument 'hidden'"):
            cls(1, hidden=3)
        assert cls(1).hidden == 7


def test_a_recursive_record_repr_stops() -> None:
    cls = build(plain_body, mutable_record)
    point = cls(1)
    point.items.append(point)
    assert repr(point) == ("plain_body.<locals>.Point(x=1, y='a', tags=(), items=[...], "
                           "cache={}, hidden=7)")


def test_respanned_is_replace_of_the_span() -> None:
    """`respanned` (the cheap copy that moves an item's references) gives what `replace(...,
    span=)` gives, for frozen and mutable records and for classes it does not know."""
    from evalyaml.core.model import CaseSummary, FileRef
    from evalyaml.formats.agentv.suitefacts import SuiteRef
    from evalyaml.syntax.text import Span

    moved = Span.point(9, 2)
    ref = SuiteRef("prompt", "p.md", Span.point(1, 2), "'", "file://p.md", {"id": "a"})
    file_ref = FileRef(Span.point(1, 2), ("/w/p.md",), None, True)

    @dataclass(frozen=True, slots=True)
    class Plain:
        span: Span
        name: str = "x"

    for value in (ref, file_ref, Plain(Span.point(1, 2), "y")):
        got = ours.respanned(value, moved)
        assert type(got) is type(value)
        assert got == replace(value, span=moved)
        assert got.span is moved
    assert ours.respanned(CaseSummary("a", Span.point(1, 0), None), moved) == \
        CaseSummary("a", moved, None)

    @record
    class Named:
        name: str

    with pytest.raises(TypeError):  # no `span` field: `replace`'s own error
        ours.respanned(Named("a"), moved)

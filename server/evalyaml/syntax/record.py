"""`record` and `mutable_record`: dataclasses with slots whose methods cost nothing at import.

Why: Python 3.11's `dataclass` compiles its generated methods one `exec` at a time, six for a
frozen class (`__init__`, `__repr__`, `__eq__`, `__hash__`, `__setattr__`, `__delattr__`),
about 1 ms a class on this project's machine; the sixty-odd classes a one-file `evalyaml check`
imports cost it 60 ms of a 100 ms budget (issue #27, start-up). These decorators ask `dataclass`
only for what generates no code (the fields, `__slots__`, `__match_args__`: `dataclasses.fields`
and `dataclasses.replace` keep working) and supply the rest: `__eq__`, `__hash__`, `__repr__`,
the frozen `__setattr__` / `__delattr__` and the frozen-slots pickling pair are shared closures
over the class's field names, and `__init__`, which must be a real function with the class's
own signature (some classes are built per case of a dataset), is compiled when the class is
first instantiated, so a class the run never builds never pays for it.

Each method behaves as `dataclass(frozen=True, slots=True)` (`record`) or
`dataclass(slots=True)` (`mutable_record`) writes it: the same repr text, equality on the same
field tuples, the same hashes, `FrozenInstanceError` on assignment, a method the class defines
itself kept; `tests/core/test_record.py` holds each against the standard decorator.
"""

from __future__ import annotations

import _thread
from collections.abc import Callable
from dataclasses import MISSING, FrozenInstanceError, dataclass, field, fields
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def record(cls: type[T]) -> type[T]:
    """A frozen dataclass with slots (`@dataclass(frozen=True, slots=True)`)."""
    return _build(cls, frozen=True)


@dataclass_transform(field_specifiers=(field,))
def mutable_record(cls: type[T]) -> type[T]:
    """A dataclass with slots (`@dataclass(slots=True)`)."""
    return _build(cls, frozen=False)


def _build(cls: type[T], *, frozen: bool) -> type[T]:
    own = cls.__dict__
    if frozen and ("__setattr__" in own or "__delattr__" in own):
        raise TypeError(f"Cannot overwrite attribute __setattr__ or __delattr__ in class "
                        f"{cls.__name__}")
    class_hash = own.get("__hash__", MISSING)
    explicit_hash = not (class_hash is MISSING or (class_hash is None and "__eq__" in own))
    defines = {name for name in ("__eq__", "__repr__", "__init__") if name in own}
    if not cls.__doc__:  # what `dataclass` would compute with `inspect.signature`, unpaid
        cls.__doc__ = f"{cls.__name__}({', '.join(own.get('__annotations__', {}))})"
    built: Any = dataclass(init=False, repr=False, eq=False, slots=True)(cls)
    every = fields(built)
    if "__repr__" not in defines:
        built.__repr__ = _repr_method(tuple(f.name for f in every if f.repr))
    if "__eq__" not in defines:
        built.__eq__ = _eq_method(_getter(tuple(f.name for f in every if f.compare)))
    if not explicit_hash:  # as dataclass's hash table has it for eq=True
        built.__hash__ = _hash_method(_getter(tuple(
            f.name for f in every if (f.compare if f.hash is None else f.hash)))) \
            if frozen else None
    if frozen:
        names = frozenset(f.name for f in every)
        built.__setattr__, built.__delattr__ = _frozen_methods(built, names)
        built.__getstate__, built.__setstate__ = _state_methods(tuple(f.name for f in every))
    if "__init__" not in defines:
        built.__init__ = _lazy_init(built, frozen=frozen)
    result: type[T] = built
    return result


def _getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The tuple of an instance's `names`, as dataclass methods compare and hash it."""
    if not names:
        return lambda _: ()
    if len(names) == 1:
        name = names[0]
        return lambda obj: (getattr(obj, name),)
    def get(obj: Any) -> tuple[Any, ...]:
        return tuple([getattr(obj, name) for name in names])
    return get


_repr_running: set[tuple[int, int]] = set()


def _repr_method(names: tuple[str, ...]) -> Callable[[Any], str]:
    def __repr__(self: Any) -> str:
        key = id(self), _thread.get_ident()
        if key in _repr_running:
            return "..."  # a record inside itself, as dataclass's recursion guard writes it
        _repr_running.add(key)
        try:
            inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        finally:
            _repr_running.discard(key)
        return f"{self.__class__.__qualname__}({inner})"
    return __repr__


def _eq_method(get: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any, Any], Any]:
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return get(self) == get(other)
        return NotImplemented
    return __eq__


def _hash_method(get: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any], int]:
    def __hash__(self: Any) -> int:
        return hash(get(self))
    return __hash__


def _frozen_methods(cls: Any, names: frozenset[str]
                    ) -> tuple[Callable[[Any, str, Any], None], Callable[[Any, str], None]]:
    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)
    return __setattr__, __delattr__


def _state_methods(names: tuple[str, ...]
                   ) -> tuple[Callable[[Any], list[Any]], Callable[[Any, list[Any]], None]]:
    """Pickling a frozen class with slots (the language server's worker processes do)."""
    def __getstate__(self: Any) -> list[Any]:
        return [getattr(self, name) for name in names]

    def __setstate__(self: Any, state: list[Any]) -> None:
        for name, value in zip(names, state, strict=False):
            object.__setattr__(self, name, value)
    return __getstate__, __setstate__


def _lazy_init(cls: Any, *, frozen: bool) -> Callable[..., None]:
    """An `__init__` that compiles the class's real one, puts it in its place and runs it."""
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        real = _compile_init(cls, frozen=frozen)
        cls.__init__ = real
        real(self, *args, **kwargs)
    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


class _HasFactory:
    def __repr__(self) -> str:
        return "<factory>"


_HAS_FACTORY = _HasFactory()


def _compile_init(cls: Any, *, frozen: bool) -> Callable[..., None]:
    """The `__init__` dataclass would write: parameters in field order with their defaults,
    factories called per instance, `__post_init__` last."""
    scope: dict[str, Any] = {"__set": object.__setattr__, "__HAS_FACTORY": _HAS_FACTORY}
    params, body = ["self"], []
    for f in fields(cls):
        name = f.name
        if f.default_factory is not MISSING:
            scope[f"__factory_{name}"] = f.default_factory
            if f.init:
                params.append(f"{name}=__HAS_FACTORY")
                value = f"__factory_{name}() if {name} is __HAS_FACTORY else {name}"
            else:
                value = f"__factory_{name}()"
        elif f.default is not MISSING:
            scope[f"__default_{name}"] = f.default
            if f.init:
                params.append(f"{name}=__default_{name}")
                value = name
            else:
                value = f"__default_{name}"
        elif f.init:
            params.append(name)
            value = name
        else:
            continue
        body.append(f"__set(self, {name!r}, {value})" if frozen else f"self.{name} = {value}")
    if hasattr(cls, "__post_init__"):
        body.append("self.__post_init__()")
    source = f"def __init__({', '.join(params)}):\n    " + "\n    ".join(body or ["pass"])
    namespace: dict[str, Any] = {}
    exec(source, scope, namespace)  # our own source text, written from field names
    init: Callable[..., None] = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init

"""`record` and `mutable_record`: dataclasses with slots that cost next to nothing at import.

Why: Python 3.11's `dataclass` compiles its generated methods one `exec` at a time, six for a
frozen class (`__init__`, `__repr__`, `__eq__`, `__hash__`, `__setattr__`, `__delattr__`),
about 1 ms a class on this project's machine, and `import dataclasses` loads `inspect` with
`ast`, `dis` and `tokenize` (10 ms more). The sixty-odd classes a one-file `evalyaml check`
imports cost it 70 ms of a 100 ms budget (issue #27, start-up). These decorators build the
same classes without either: the fields come from the class's annotations (`field(...)` as
in dataclasses), `__eq__`, `__hash__`, `__repr__`, the frozen `__setattr__` / `__delattr__`
and the frozen-slots pickling pair are shared closures over the field names, and `__init__`,
which must be a real function with the class's own signature (some classes are built per case
of a dataset), is compiled when the class is first instantiated: a class the run never builds
never pays for it.

Each method behaves as `dataclass(frozen=True, slots=True)` (`record`) or
`dataclass(slots=True)` (`mutable_record`) writes it: the same repr text, equality on the same
field tuples, the same hashes, an `AttributeError` (`FrozenInstanceError`) on assignment, a
method the class defines itself kept. `dataclasses.fields`, `replace` and `is_dataclass` work
on them (`__dataclass_fields__` is built, importing dataclasses, when first read); `replace`
here does the same without that import. mypy sees dataclasses' own `field` and `replace`.
`tests/core/test_record.py` holds each class shape against the standard decorator.
"""

from __future__ import annotations

import _thread
from collections.abc import Callable
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, dataclass_transform

__all__ = ["MISSING", "Field", "FrozenInstanceError", "field", "mutable_record", "record",
           "replace", "respanned"]

T = TypeVar("T")


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


class FrozenInstanceError(AttributeError):
    """Assignment to a field of a frozen record (dataclasses' error of the same name)."""


class Field:
    """One field: as `dataclasses.Field` has it, for the parameters records support."""

    __slots__ = ("compare", "default", "default_factory", "hash", "init", "name", "repr",
                 "type")

    def __init__(self, default: Any = MISSING, *, default_factory: Any = MISSING,
                 init: bool = True, repr: bool = True,
                 hash: bool | None = None, compare: bool = True) -> None:
        if default is not MISSING and default_factory is not MISSING:
            raise ValueError("cannot specify both default and default_factory")
        self.name = ""
        self.type: Any = None
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr
        self.hash = hash
        self.compare = compare

    def named(self, name: str, annotation: Any) -> Field:
        out = Field(self.default, default_factory=self.default_factory, init=self.init,
                    repr=self.repr, hash=self.hash, compare=self.compare)
        out.name, out.type = name, annotation
        return out


if TYPE_CHECKING:
    from dataclasses import field, replace
else:
    def field(*, default=MISSING, default_factory=MISSING, init=True, repr=True,
              hash=None, compare=True):
        """A field's options, as `dataclasses.field` takes them."""
        return Field(default, default_factory=default_factory, init=init, repr=repr,
                     hash=hash, compare=compare)

    def replace(obj, /, **changes):
        """`dataclasses.replace`, for records without importing dataclasses."""
        specs = getattr(type(obj), "__record_fields__", None)
        if specs is None:
            import dataclasses

            return dataclasses.replace(obj, **changes)
        for spec in specs:
            if not spec.init:
                if spec.name in changes:
                    raise ValueError(f"field {spec.name} is declared with init=False, it "
                                     "cannot be specified with replace()")
                continue
            if spec.name not in changes:
                changes[spec.name] = getattr(obj, spec.name)
        return obj.__class__(**changes)


_RESPAN: dict[type, tuple[Callable[[Any], Any], int]] = {}


def respanned(obj: T, span: object) -> T:
    """`replace(obj, span=span)` for a record whose every field is an `__init__` argument, at the
    cost of one positional constructor call: an item's references are moved this way, every
    item below a line added, on each Enter (issue #27)."""
    cls = type(obj)
    known = _RESPAN.get(cls)
    if known is None:
        specs = getattr(cls, "__record_fields__", ())
        names = [spec.name for spec in specs]
        if len(names) < 2 or "span" not in names or not all(spec.init for spec in specs):
            return replace(obj, span=span)  # type: ignore[type-var]
        known = _RESPAN[cls] = (attrgetter(*names), names.index("span"))
    values = list(known[0](obj))
    values[known[1]] = span
    return cls(*values)


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def record(cls: type[T]) -> type[T]:
    """A frozen dataclass with slots (`@dataclass(frozen=True, slots=True)`)."""
    return _build(cls, frozen=True)


@dataclass_transform(field_specifiers=(field,))
def mutable_record(cls: type[T]) -> type[T]:
    """A dataclass with slots (`@dataclass(slots=True)`)."""
    return _build(cls, frozen=False)


def _is_class_var(annotation: Any) -> bool:
    if isinstance(annotation, str):
        return annotation.startswith(("ClassVar", "typing.ClassVar"))
    return getattr(annotation, "__origin__", annotation) is ClassVar


def _fields_of(cls: type) -> tuple[Field, ...]:
    """Base records' fields first, then this class's annotations in order, as dataclasses."""
    found: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        for spec in base.__dict__.get("__record_fields__", ()):
            found[spec.name] = spec
    own = cls.__dict__
    for name, annotation in own.get("__annotations__", {}).items():
        if _is_class_var(annotation):
            continue
        value = own.get(name, MISSING)
        spec = (value if isinstance(value, Field) else Field(value)).named(name, annotation)
        if spec.default is not MISSING and type(spec.default).__hash__ is None:
            raise ValueError(f"mutable default {type(spec.default)} for field {name} is not "
                             "allowed: use default_factory")
        found[name] = spec
    seen_default = False
    for spec in found.values():
        if not spec.init:
            continue
        if spec.default is MISSING and spec.default_factory is MISSING:
            if seen_default:
                raise TypeError(f"non-default argument {spec.name!r} follows default argument")
        else:
            seen_default = True
    return tuple(found.values())


def _build(cls: type[T], *, frozen: bool) -> type[T]:
    own = cls.__dict__
    if "__slots__" in own:
        raise TypeError(f"{cls.__name__} already specifies __slots__")
    if frozen and ("__setattr__" in own or "__delattr__" in own):
        raise TypeError(f"Cannot overwrite attribute __setattr__ or __delattr__ in class "
                        f"{cls.__name__}")
    specs = _fields_of(cls)
    names = tuple(spec.name for spec in specs)
    inherited = {slot for base in cls.__mro__[1:-1]
                 for slot in base.__dict__.get("__slots__", ())}
    body = {key: value for key, value in own.items()
            if key not in names and key not in ("__dict__", "__weakref__")}
    body["__slots__"] = tuple(name for name in names if name not in inherited)
    body["__record_fields__"] = specs
    body["__dataclass_fields__"] = _DataclassFields()
    body.setdefault("__match_args__", tuple(spec.name for spec in specs if spec.init))
    if not own.get("__doc__"):
        body["__doc__"] = f"{cls.__name__}({', '.join(names)})"
    if "__repr__" not in own:
        body["__repr__"] = _repr_method(tuple(s.name for s in specs if s.repr))
    if "__eq__" not in own:
        body["__eq__"] = _eq_method(_getter(tuple(s.name for s in specs if s.compare)))
    class_hash = own.get("__hash__", MISSING)
    if class_hash is MISSING or (class_hash is None and "__eq__" in own):  # not explicit
        body["__hash__"] = _hash_method(_getter(tuple(
            s.name for s in specs if (s.compare if s.hash is None else s.hash)))) \
            if frozen else None
    if frozen:
        body.setdefault("__getstate__", _getstate_method(names))
        body.setdefault("__setstate__", _setstate_method(names))
    metaclass: Any = type(cls)
    built: Any = metaclass(cls.__name__, cls.__bases__, body)
    built.__qualname__ = cls.__qualname__
    if frozen:
        built.__setattr__, built.__delattr__ = _frozen_methods(built, frozenset(names))
    if "__init__" not in own:
        built.__init__ = _lazy_init(built, frozen=frozen)
    result: type[T] = built
    return result


class _DataclassFields:
    """`__dataclass_fields__`, built from the record's fields when first read (by
    `dataclasses.fields`, `replace`, `is_dataclass`), with dataclasses' own `Field` objects."""

    def __get__(self, obj: Any, owner: type) -> dict[str, Any]:
        import dataclasses

        out: dict[str, Any] = {}
        for spec in owner.__dict__["__record_fields__"]:
            made: Any = dataclasses.field(
                default=dataclasses.MISSING if spec.default is MISSING else spec.default,
                default_factory=dataclasses.MISSING if spec.default_factory is MISSING
                else spec.default_factory,
                init=spec.init, repr=spec.repr, hash=spec.hash, compare=spec.compare)
            made.name, made.type = spec.name, spec.type
            made._field_type = dataclasses._FIELD  # type: ignore[attr-defined]  # as _get_field
            out[spec.name] = made
        type.__setattr__(owner, "__dataclass_fields__", out)
        return out


def _getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The tuple of an instance's `names`, as dataclass methods compare and hash it."""
    if not names:
        return lambda _: ()
    if len(names) == 1:
        name = names[0]
        return lambda obj: (getattr(obj, name),)
    getter: Callable[[Any], tuple[Any, ...]] = attrgetter(*names)  # a tuple, at C speed
    return getter


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


def _getstate_method(names: tuple[str, ...]) -> Callable[[Any], list[Any]]:
    """Pickling a frozen class with slots (the language server's worker processes do)."""
    def __getstate__(self: Any) -> list[Any]:
        return [getattr(self, name) for name in names]
    return __getstate__


def _setstate_method(names: tuple[str, ...]) -> Callable[[Any, list[Any]], None]:
    def __setstate__(self: Any, state: list[Any]) -> None:
        for name, value in zip(names, state, strict=False):
            object.__setattr__(self, name, value)
    return __setstate__


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
    for spec in cls.__record_fields__:
        name = spec.name
        if spec.default_factory is not MISSING:
            scope[f"__factory_{name}"] = spec.default_factory
            if spec.init:
                params.append(f"{name}=__HAS_FACTORY")
                value = f"__factory_{name}() if {name} is __HAS_FACTORY else {name}"
            else:
                value = f"__factory_{name}()"
        elif spec.default is not MISSING:
            scope[f"__default_{name}"] = spec.default
            if spec.init:
                params.append(f"{name}=__default_{name}")
                value = name
            else:
                value = f"__default_{name}"
        elif spec.init:
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

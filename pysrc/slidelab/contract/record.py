"""Frozen records with described fields, what request.py's classes are made of: declared as frozen dataclasses are
(annotated fields, defaults or `field(...)`), with `fields`, `replace` and `is_record` as dataclasses has them. Not
the dataclasses module itself: its import (inspect, ast, dis, tokenize) and the code it compiles for each class took
an easy solve as long again as a bare Python start (docs/benchmarks.md)."""

from __future__ import annotations

from typing import Any, dataclass_transform


class _Missing:
    def __repr__(self):
        return "MISSING"


MISSING: Any = _Missing()  # no default


class FrozenInstanceError(AttributeError):
    """A record's field was assigned or deleted."""


class Field:
    """One field of a record: its name, default (or default_factory), whether it counts in == and repr, and its
    metadata (request.py: the JSON key and what it means)."""

    __slots__ = ("name", "default", "default_factory", "compare", "repr", "metadata")

    def __init__(self, default=MISSING, default_factory=MISSING, compare=True, repr=True, metadata=None):
        self.name = ""
        self.default = default
        self.default_factory = default_factory
        self.compare = compare
        self.repr = repr
        self.metadata = dict(metadata or {})


def field(*, default: Any = MISSING, default_factory: Any = MISSING, compare: bool = True, repr: bool = True,
          metadata: dict | None = None) -> Any:
    """A field's default and what is said of it, as dataclasses.field."""
    return Field(default, default_factory, compare, repr, metadata)


@dataclass_transform(frozen_default=True, field_specifiers=(field, Field))
def record(cls):
    """Make `cls` a frozen record of its annotated fields, in their order: an __init__ taking them by position or
    name, == and hash over the compared ones, a repr, and no assignment after __init__."""
    made = []
    for name in cls.__dict__.get("__annotations__", {}):
        given = cls.__dict__.get(name, MISSING)
        one = given if isinstance(given, Field) else Field(default=given)
        one.name = name
        if one.default is not MISSING:
            setattr(cls, name, one.default)
        elif name in cls.__dict__:
            delattr(cls, name)
        made.append(one)
    cls.__record_fields__ = tuple(made)
    cls.__init__, cls.__eq__, cls.__hash__, cls.__repr__ = _init, _eq, _hash, _repr
    cls.__setattr__ = cls.__delattr__ = _frozen
    return cls


def _init(self, *args, **kwargs):
    named = type(self).__name__
    fields_ = self.__record_fields__
    if len(args) > len(fields_):
        raise TypeError(f"{named}() takes {len(fields_)} values, {len(args)} given")
    for i, f in enumerate(fields_):
        if i < len(args):
            if f.name in kwargs:
                raise TypeError(f"{named}() got two values for '{f.name}'")
            value = args[i]
        elif f.name in kwargs:
            value = kwargs.pop(f.name)
        elif f.default is not MISSING:
            value = f.default
        elif f.default_factory is not MISSING:
            value = f.default_factory()
        else:
            raise TypeError(f"{named}() needs '{f.name}'")
        object.__setattr__(self, f.name, value)
    if kwargs:
        raise TypeError(f"{named}() has no field '{next(iter(kwargs))}'")


def _key(value) -> tuple:
    return tuple(getattr(value, f.name) for f in value.__record_fields__ if f.compare)


def _eq(self, other):
    return _key(self) == _key(other) if other.__class__ is self.__class__ else NotImplemented


def _hash(self):
    return hash(_key(self))


def _repr(self):
    shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in self.__record_fields__ if f.repr)
    return f"{type(self).__qualname__}({shown})"


def _frozen(self, name, *value):
    raise FrozenInstanceError(f"cannot {'assign to' if value else 'delete'} field '{name}'")


def is_record(value) -> bool:
    """Whether `value` is a record or a record class."""
    return hasattr(value, "__record_fields__")


def fields(value) -> tuple[Field, ...]:
    """The fields of a record or record class, in order."""
    return value.__record_fields__


def replace(value, **changes):
    """A copy of the record `value` with `changes`."""
    return type(value)(**{**{f.name: getattr(value, f.name) for f in fields(value)}, **changes})

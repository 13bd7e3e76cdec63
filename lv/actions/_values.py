"""The base of the decision classes and the decorator that names their kind, kept in a module mypyc leaves alone.

A decision class is a frozen attrs class with a class-level ``kind`` (``Build.kind == "build"``). In a module mypyc
compiles, every assignment in a class body (``kind = "build"``, even ``kind: ClassVar[str] = ...``) is written into
the class's ``__annotations__``, where attrs would take it for a field; so a family module sets it from outside
the body: ``@kinded("build")`` above ``@attrs.frozen``, on a subclass of ``DecisionValue`` (which declares it for
the type checker). (Events are plain classes, native where compiled, not attrs classes: their ``kind``
stays in the body; see lv/events.py.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, TypeVar

D = TypeVar("D", bound=type["DecisionValue"])


class DecisionValue:
    """The base of every decision class: ``kind`` names it (``build``, ``money``, ...)."""

    __slots__ = ()
    kind: ClassVar[str] = ""


def kinded(kind: str) -> Callable[[D], D]:
    """Give a decision class its ``kind`` (put it above ``@attrs.frozen``)."""

    def name(cls: D) -> D:
        cls.kind = kind
        return cls

    return name

"""Command-line values converted without pydantic, for the plain parameter types lv's commands use.

Typer (0.2x) converts the value of every parameter that is not a bool flag through a pydantic ``TypeAdapter`` it
builds on first use, so any command with an argument imports pydantic: about 355 M instructions, over a quarter of
``lv replay``'s whole run. lv's parameters are all ``str``, ``int`` (one with a minimum), ``Optional`` of those,
``List[str]`` and bool flags. For those, when the value is one whose conversion is certain (a ``str`` or a
``bool``; an ``int``, or ASCII digits with an optional minus sign, within the parameter's range; a list or tuple
of ``str``), the commands of :class:`LvGroup` and :class:`LvCommand` give the result pydantic would give (the
same object, ``int(text)``, a list) without importing it. Anything else (``--until abc``, ``--until 0``, a type
lv does not use) goes to Typer's own conversion, so every error reads exactly as before.

This leans on two Typer internals (``_TyperParameter._runtime_param`` and ``type_descriptor``); with a Typer
that lacks them the group does nothing and Typer converts every value itself, as it always did.
"""

from __future__ import annotations

import re
import typing
from typing import Any

import typer.core

_INT = re.compile(r"-?[0-9]{1,18}")  # what int() and pydantic read alike (pydantic reads more: it gets the rest)
_MISS = object()


def _plain(value: Any, param: Any) -> Any:
    """The converted value when it is certain without pydantic, else ``_MISS``."""
    descriptor = param.type_descriptor
    info = descriptor.parameter_info
    if descriptor.file_annotation is not None or info.parser is not None:
        return _MISS
    multiple = param.multiple or param.nargs == -1
    if value is None:  # what Typer's RuntimeParam.coerce returns for a value not given
        return () if multiple else None
    annotation = descriptor.annotation
    if multiple:
        if (typing.get_origin(annotation) is list and typing.get_args(annotation) == (str,)
                and isinstance(value, (list, tuple)) and all(type(v) is str for v in value)):
            return list(value)
        return _MISS
    if (annotation is str and type(value) is str) or (annotation is bool and type(value) is bool):
        return value
    if annotation is int and not info.clamp:
        if type(value) is int:
            number = value
        elif type(value) is str and _INT.fullmatch(value):
            number = int(value)
        else:
            return _MISS
        if (info.min is not None and number < info.min) or (info.max is not None and number > info.max):
            return _MISS  # Typer's conversion says why, in its own words
        return number
    return _MISS


class _PlainRuntimeParam:
    """Stands in for Typer's runtime parameter: the plain values here, the rest through Typer's own."""

    def __init__(self) -> None:
        self._typer: Any = None

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        result = _plain(value, param)
        if result is not _MISS:
            return result
        if self._typer is None:
            from typer._coercion import build_runtime_param

            self._typer = build_runtime_param(param.type_descriptor)
        return self._typer.coerce(value, param=param, ctx=ctx)


def _install(param: Any) -> None:
    if getattr(param, "_runtime_param", _MISS) is None and hasattr(param, "type_descriptor"):
        param._runtime_param = _PlainRuntimeParam()


class _PlainValues:
    """Gives each parameter of a command, the help option included (click makes it on first use), the
    conversion above before the command reads its arguments."""

    def get_params(self, ctx: Any) -> Any:
        params = super().get_params(ctx)  # type: ignore[misc]
        for param in params:
            _install(param)
        return params


class LvGroup(_PlainValues, typer.core.TyperGroup):
    """Typer's group, converting plain values without pydantic: ``typer.Typer(cls=LvGroup)``."""


class LvCommand(_PlainValues, typer.core.TyperCommand):
    """Typer's command, converting plain values without pydantic: ``app.command(cls=LvCommand)``."""

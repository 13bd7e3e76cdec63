"""The public API's arguments checked once, at its edge, with the same refusal in both builds (issue 28.6).

The compiled build checks a typed argument as C does, at the call (``TypeError`` from mypyc, in its words), the
pure build not at all (``seed=1.5`` played on; ``Build(lot=1.5)`` met the rules as a lot nobody knows). Here,
before either: ``lv.new_game``'s profile, players and seed (lv/newgame.py), and every decision given to ``Game.apply``,
``why_not`` and ``push`` (each field of an ``lv.actions`` value against its annotation). A wrong type is an
``ArgumentError`` (an ``LvError`` and a ``TypeError``) naming the call, the argument and what it takes. Not
compiled: it runs beside the engine in both builds, so both answer alike.
"""

from __future__ import annotations

from typing import Any, Callable

import attrs

from .actions._values import DecisionValue
from .errors import LvError
from .yamlsource import one_line


class ArgumentError(LvError, TypeError):
    """An argument of the wrong type given to lv's Python API: ``new_game(seed=1.5)``, ``Build(lot=1.5)``."""


def is_whole(v: Any) -> bool:
    """An int, not a bool (True is no number of dollars)."""
    return isinstance(v, int) and not isinstance(v, bool)


def _is_pair(v: Any) -> bool:
    return isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], str) and is_whole(v[1])


# the annotations the decision classes use, as attrs keeps them (text: the modules use postponed annotations)
_KINDS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "str": (lambda v: isinstance(v, str), "a text"),
    "int": (is_whole, "a whole number"),
    "bool": (lambda v: isinstance(v, bool), "True or False"),
    "bool|None": (lambda v: v is None or isinstance(v, bool), "True, False or None (None: the boss is asked)"),
    "int|None": (lambda v: v is None or is_whole(v), "a whole number or None"),
    "tuple[str,...]": (lambda v: isinstance(v, tuple) and all(isinstance(x, str) for x in v), "a tuple of texts"),
    "tuple[int,...]": (lambda v: isinstance(v, tuple) and all(is_whole(x) for x in v),
                       "a tuple of whole numbers"),
    "tuple[tuple[str,int],...]": (lambda v: isinstance(v, tuple) and all(_is_pair(x) for x in v),
                                  "a tuple of (text, whole number) pairs"),
    "tuple[Any,...]": (lambda v: isinstance(v, tuple), "a tuple of decisions"),
}
_CHECKS: dict[type, tuple[tuple[str, Callable[[Any], bool], str], ...]] = {}
# The fields whose declared type the compiled build does not keep: mypyc leaves attrs a bare ``tuple`` for
# ``tuple[...]`` and ``type`` for a union, so their types are written here as the pure build reads them
# (tests/test_arguments.py checks this table against every decision class's annotations, in the pure build).
DECLARED: dict[tuple[str, str], str] = {
    ("lv.actions.draw.Draw", "cards"): "tuple[str,...]", ("lv.actions.draw.Draw", "player"): "int|None",
    ("lv.actions.draw.Reroll", "values"): "tuple[tuple[str,int],...]",
    ("lv.actions.gamble.Gamble", "lay_off"): "bool|None",
    ("lv.actions.trade.Trade", "steps"): "tuple[Any,...]", ("lv.actions.trade.Trade", "by"): "tuple[int,...]",
}


def _type_text(t: Any) -> str:
    """A field's declared type as the text ``_KINDS`` knows: ``'bool | None'`` in the pure build (postponed
    annotations), the class itself (``str``) or a typing object in the compiled one."""
    if isinstance(t, type) and not getattr(t, "__args__", None):
        text = t.__name__
    else:
        text = str(t).replace("typing.", "")
    return text.replace(" ", "")


def _checks(cls: type) -> tuple[tuple[str, Callable[[Any], bool], str], ...]:
    found = _CHECKS.get(cls)
    if found is None:
        fields = attrs.fields(cls) if attrs.has(cls) else ()
        kinds = ((f.name, _KINDS.get(DECLARED.get((f"{cls.__module__}.{cls.__name__}", f.name)) or _type_text(f.type))) for f in fields)
        found = _CHECKS[cls] = tuple((name, kind[0], kind[1]) for name, kind in kinds if kind is not None)
    return found


def check_action(call: str, action: Any) -> Any:
    """``action`` itself if it is an ``lv.actions`` decision whose fields have the types they are declared with,
    else ArgumentError naming ``call`` and the field. A trade's steps are the trade rule's to refuse, one by one
    in its own words ("trade step 1 fails: ..."), as a record's are."""
    # an lv.actions value, or a house rule's (docs/house-rules.md: an attrs class whose ``kind`` names it)
    if not isinstance(action, DecisionValue) and not (attrs.has(type(action)) and isinstance(
            getattr(type(action), "kind", None), str)):
        raise ArgumentError(f"{call}: {one_line(repr(action))[:80]} is not a decision: give an lv.actions value "
                            "(lv.parse_action('build A2 gold', game.player_names) makes one)")
    for name, ok, what in _checks(type(action)):
        value = getattr(action, name)
        if not ok(value):
            raise ArgumentError(f"{call}: {type(action).__name__}.{name} {one_line(repr(value))[:80]}: "
                                f"{what}")
    return action

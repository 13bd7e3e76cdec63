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

from .actions import _values as V
from .actions._values import DecisionValue, FrozenDecision, is_whole
from .errors import ArgumentError
from .yamlsource import one_line


__all__ = ["ArgumentError", "check_action", "is_whole"]


# the annotations a house rule's attrs decision uses, as attrs keeps them (text: postponed annotations), and the
# check of each: the core's decisions check their fields with the same functions when they are made
_KINDS: dict[str, Callable[[object, str, Any], object]] = {
    "str": V.as_text, "int": V.as_whole, "bool": V.as_flag, "bool|None": V.as_flag_or_none, "int|None": V.as_whole_or_none,
    "tuple[str,...]": V.as_texts, "tuple[int,...]": V.as_wholes, "tuple[tuple[str,int],...]": V.as_lot_faces,
    "tuple[Any,...]": V.as_decisions,
}
_CHECKS: dict[type, tuple[tuple[str, Callable[[object, str, Any], object]], ...]] = {}


def _type_text(t: Any) -> str:
    """A field's declared type as the text ``_KINDS`` knows: ``'bool | None'`` in the pure build (postponed
    annotations), the class itself (``str``) or a typing object in the compiled one."""
    if isinstance(t, type) and not getattr(t, "__args__", None):
        text = t.__name__
    else:
        text = str(t).replace("typing.", "")
    return text.replace(" ", "")


def _checks(cls: type) -> tuple[tuple[str, Callable[[object, str, Any], object]], ...]:
    found = _CHECKS.get(cls)
    if found is None:
        fields = attrs.fields(cls) if attrs.has(cls) else ()
        kinds = ((f.name, _KINDS.get(_type_text(f.type))) for f in fields)
        found = _CHECKS[cls] = tuple((name, check) for name, check in kinds if check is not None)
    return found


def check_action(call: str, action: Any) -> Any:
    """``action`` itself if it is an ``lv.actions`` decision whose fields have the types they are declared with,
    else ArgumentError naming ``call`` and the field. A trade's steps are the trade rule's to refuse, one by one
    in its own words ("trade step 1 fails: ..."), as a record's are. The core's decisions checked their fields
    when they were made (lv/actions/_values.py); a house rule's attrs decision is checked here."""
    if isinstance(action, FrozenDecision):
        return action
    # an lv.actions value, or a house rule's (docs/house-rules.md: an attrs class whose ``kind`` names it)
    if not isinstance(action, DecisionValue) and not (attrs.has(type(action)) and isinstance(
            getattr(type(action), "kind", None), str)):
        raise ArgumentError(f"{call}: {one_line(repr(action))[:80]} is not a decision: give an lv.actions value "
                            "(lv.parse_action('build A2 gold', game.player_names) makes one)")
    for name, check in _checks(type(action)):
        try:
            check(action, name, getattr(action, name))
        except ArgumentError as err:
            raise ArgumentError(f"{call}: {err}") from None
    return action

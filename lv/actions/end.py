"""End: the player ends their turn; the next player draws and the casinos are paid (``end``).

The game's turn machinery carries it out (``Game.apply``): the engine refuses it (``by_game``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from ._family import Decision, Family, Moment, Words
from ._values import DecisionValue, kinded


@kinded("end")
@attrs.frozen
class EndTurn(DecisionValue):
    """End the turn: the next player draws and the casinos are paid (``end``)."""



def parse(w: Words) -> EndTurn:
    w.expect(1, "end")
    return EndTurn()


def format(a: EndTurn, names: Sequence[str]) -> str:
    return "end"


def structured(a: EndTurn, names: Sequence[str]) -> dict[str, Any]:
    return {"action": "end"}


def from_record(d: dict[str, Any]) -> str:
    return "end"


_END = EndTurn()


def generate(m: Moment, out: list[Decision]) -> None:
    """Ending the turn is always legal in the action step, and listed last."""
    out.append(_END)


FAMILY = Family(
    name="end", order=80, decisions=(EndTurn,), verbs=("end",), parse=parse, format=format, structured=structured,
    record_kinds=("end",), from_record=from_record, by_game=(EndTurn,), cost=lambda engine, s, a: 0,
    generate_after=generate)

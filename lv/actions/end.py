"""End: the player ends their turn; the next player draws and the casinos are paid (``end``).

The game's turn machinery carries it out (``Game.apply``): the engine refuses it (``by_game``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Final

from mypy_extensions import mypyc_attr

from ._family import Decision, Family, Moment, Words
from ._values import FrozenDecision, set_once


@mypyc_attr(acyclic=True)
class EndTurn(FrozenDecision):
    """End the turn: the next player draws and the casinos are paid (``end``)."""

    kind: ClassVar[str] = "end"
    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        set_once(self, name, value)


_END: Final = EndTurn()  # (Final: compiled, a C static, not a lookup in the module's dict each list)


class EndFamily(Family):
    """Ending the turn: its notation, always legal in the action step."""

    def parse(self, w: Words) -> EndTurn:
        w.expect(1, "end")
        return EndTurn()

    def format(self, a: EndTurn, names: Sequence[str]) -> str:
        return "end"

    def structured(self, a: EndTurn, names: Sequence[str]) -> dict[str, Any]:
        return {"action": "end"}

    def from_record(self, d: dict[str, Any]) -> str:
        return "end"

    def generate_after(self, m: Moment, out: list[Decision]) -> None:
        """Ending the turn is always legal in the action step, and listed last."""
        out.append(_END)

    def count_after(self, m: Moment) -> int:
        return 1

    def fixed_after(self) -> int:
        """Always the one decision: the pure pick need not ask ``count_after``."""
        return 1

    def make_after(self, m: Moment, i: int) -> Decision:
        return _END


FAMILY = EndFamily(
    name="end", order=80, decisions=(EndTurn,), verbs=("end",), record_kinds=("end",), by_game=(EndTurn,),
    generates_after=True, applies=False)

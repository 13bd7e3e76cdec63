"""Events: the single record of what happened. Narrative, JSON, replay, diff and metrics read these.

An event is a kind plus plain data (player indices, lots, amounts), so it serialises to the same JSON bytes
every time. Kinds and their fields:

setup:        dealt(player, lots, money), card_skipped(player, card, why), end_card_placed(under),
              first_player(player, rolls)
draw step:    turn_started(turn, player), card_drawn(player, card, pays), marker_placed(player, lot, moved_from),
              die_taken_over(player, lot, value, previous, moved_from), paid(player, amount, why, lots),
              scored(player, lots, award, before, after)
actions:      built(player, lot, color, cost, value, moved_from), sprawled(player, lot, source, color, height,
              cost, value, moved_from), remodeled(player, lots, before, color, cost), reorganized(player, lots,
              cost, values), raised(player, lots, height, cost), gambled(player, lot, boss, bet, dice, total,
              outcome, lay_off, gambler_gets, boss_gets)
trades:       money_given(giver, receiver, amount), lot_given(lot, giver, receiver, moved_from),
              die_given(lot, giver, receiver, value, moved_from), trade_step_failed(step, reason, rule)
consequences: tie_rerolled(lots, values), merged(lots, color, height), boss_changed(lots, previous, boss),
              marker_moved(player, lot), die_moved(player, lot)
end:          turn_ended(player), game_ended(reason, winner, ranking, scores, money)
"""

from __future__ import annotations

from typing import Any


class Event:
    """A kind and its data; never changed once made. A plain slotted class rather than a frozen attrs class:
    hundreds are made in every game, and a frozen class's constructor costs 3% of a simulated game."""

    __slots__ = ("kind", "data")

    def __init__(self, kind: str, data: dict[str, Any]) -> None:
        self.kind = kind
        self.data = data

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Event) and self.kind == other.kind and self.data == other.data

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Event(kind={self.kind!r}, data={self.data!r})"

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def get(self, key: str, default: Any = None) -> Any:
        """The value of ``key`` in the event's data, or ``default``."""
        return self.data.get(key, default)

    def to_dict(self) -> dict[str, Any]:
        """The event as plain data: its kind and its data (players as seat numbers)."""
        return {"kind": self.kind, **self.data}


def event(kind: str, **data: Any) -> Event:
    return Event(kind, data)

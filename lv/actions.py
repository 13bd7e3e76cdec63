"""Decisions a player takes in the action step, and the steps of a trade. Plain frozen values.

Players are named by their index in seating order inside the engine; the notation (``notation.py``) and
records use player names.
"""

from __future__ import annotations

import attrs


@attrs.frozen
class Build:
    lot: str
    color: str
    kind = "build"


@attrs.frozen
class Sprawl:
    lot: str
    source: str  # any lot of the sprawling casino
    kind = "sprawl"


@attrs.frozen
class Remodel:
    lot: str  # any lot of the casino
    color: str
    kind = "remodel"


@attrs.frozen
class Reorganize:
    lot: str
    kind = "reorganize"


@attrs.frozen
class Raise:
    lot: str
    kind = "raise"


@attrs.frozen
class Gamble:
    lot: str
    bet: int
    lay_off: bool = False  # the boss's choice, where the profile allows it
    kind = "gamble"


@attrs.frozen
class GiveMoney:
    giver: int
    receiver: int
    amount: int
    kind = "money"


@attrs.frozen
class GiveLot:
    lot: str
    giver: int
    receiver: int
    kind = "lot"


@attrs.frozen
class GiveDie:
    lot: str
    giver: int
    receiver: int
    kind = "die"


@attrs.frozen
class Trade:
    """Steps carried out in order: transfers between any players, and the current player's actions."""

    steps: tuple
    kind = "trade"


@attrs.frozen
class EndTurn:
    kind = "end"


ACTIONS = (Build, Sprawl, Remodel, Reorganize, Raise, Gamble)
TRANSFERS = (GiveMoney, GiveLot, GiveDie)
Action = Build | Sprawl | Remodel | Reorganize | Raise | Gamble | Trade | EndTurn

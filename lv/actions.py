"""Decisions a player takes in the action step, and the steps of a trade. Plain frozen values.

Players are named by their index in seating order inside the engine; the notation (``notation.py``) and
records use player names.
"""

from __future__ import annotations

import attrs


@attrs.frozen
class Build:
    """Build a casino tile of ``color`` on ``lot``, a lot the player has a marker on: ``build A2 gold``."""

    lot: str
    color: str
    kind = "build"


@attrs.frozen
class Sprawl:
    """Sprawl the casino that holds ``source`` onto the empty neighbouring ``lot``: ``sprawl A3 from A2``."""

    lot: str
    source: str  # any lot of the sprawling casino
    kind = "sprawl"


@attrs.frozen
class Remodel:
    """Replace every tile of the casino at ``lot`` with tiles of ``color``: ``remodel A2 silver``."""

    lot: str  # any lot of the casino
    color: str
    kind = "remodel"


@attrs.frozen
class Reorganize:
    """Reroll the dice of the casino at ``lot``: ``reorg A2``."""

    lot: str
    kind = "reorganize"


@attrs.frozen
class Raise:
    """Put a riser under every tile of the casino at ``lot`` (where the profile has risers): ``raise A2``."""

    lot: str
    kind = "raise"


@attrs.frozen
class Gamble:
    """Bet ``bet`` at the casino at ``lot`` (``gamble A2 5``); ``lay_off``: the boss's choice where allowed."""

    lot: str
    bet: int
    lay_off: bool = False  # the boss's choice, where the profile allows it
    kind = "gamble"


@attrs.frozen
class GiveMoney:
    """A step of a trade: ``amount`` of money from seat ``giver`` to seat ``receiver``."""

    giver: int
    receiver: int
    amount: int
    kind = "money"


@attrs.frozen
class GiveLot:
    """A step of a trade: the marker on ``lot`` (a parking lot) from seat ``giver`` to seat ``receiver``."""

    lot: str
    giver: int
    receiver: int
    kind = "lot"


@attrs.frozen
class GiveDie:
    """A step of a trade: the die on the tile at ``lot`` from seat ``giver`` to seat ``receiver``."""

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
    """End the turn: the next player draws and the casinos are paid (``end``)."""

    kind = "end"


ACTIONS = (Build, Sprawl, Remodel, Reorganize, Raise, Gamble)
TRANSFERS = (GiveMoney, GiveLot, GiveDie)
Action = Build | Sprawl | Remodel | Reorganize | Raise | Gamble | Trade | EndTurn

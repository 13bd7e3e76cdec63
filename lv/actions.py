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


# Elements a trade may name but the rulebooks forbid (000 "At Any Time: Trading" L226; 003 "Trading" L827-832).
# They parse, so that the rules (rules.py) refuse them with the rule, not the notation with a syntax error.


@attrs.frozen
class GivePoints:
    giver: int
    receiver: int
    amount: int
    kind = "points"


@attrs.frozen
class GiveTile:
    lot: str
    giver: int
    receiver: int
    kind = "tile"


@attrs.frozen
class GiveRiser:
    lot: str
    giver: int
    receiver: int
    kind = "riser"


@attrs.frozen
class Promise:
    """A promise of a future action or transfer: ``text`` is what was promised, as written."""

    giver: int
    receiver: int
    text: str
    kind = "promise"


@attrs.frozen
class ActAs:
    """An action step that names who takes it (``as black build A2 gold``): legal only for the current player."""

    player: int
    action: object
    kind = "as"


@attrs.frozen
class Trade:
    """Steps carried out in order: transfers between any players, and the current player's actions.

    ``by``: the players to the trade, the proposer first (``trade ... by green, black``); empty when the record
    does not say (then the current player proposes, and the parties are the players the steps name)."""

    steps: tuple
    by: tuple = ()
    kind = "trade"


@attrs.frozen
class EndTurn:
    """End the turn: the next player draws and the casinos are paid (``end``)."""

    kind = "end"


@attrs.frozen
class Draw:
    """The draw step as a decision: turn over the next card. ``cards``: the cards the player says were turned
    over (``draw D5``; an F card skipped in a 2-player game and the card after it: ``draw F3 D5``), checked
    against the deck, or at a table, the cards themselves. Empty: whatever is on top."""

    cards: tuple = ()
    player: int | None = None  # who says they draw (``draw D5 by blue``): only the current player may
    kind = "draw"


@attrs.frozen
class Reroll:
    """At a table, the dice of a tie reroll the draw waits for: ``values`` ((lot, face), ...) in the order asked.
    003 "Settling Who's the Boss" L426-445; 000 "Reroll if Tied" L203-209."""

    values: tuple = ()
    kind = "reroll"


@attrs.frozen
class Choose:
    """At a table, which of the drawer's pieces moves when none is left: ``what`` is "marker_from" or "die_from".
    003 "Available Player Markers" L266-271, "Available Dice" L251-262."""

    what: str
    lot: str
    kind = "move"


ACTIONS = (Build, Sprawl, Remodel, Reorganize, Raise, Gamble)
TRANSFERS = (GiveMoney, GiveLot, GiveDie)
FORBIDDEN = (GivePoints, GiveTile, GiveRiser, Promise)
DRAW_CHOICES = (Reroll, Choose)  # the draw's own decisions, asked for after the card is known
Action = Build | Sprawl | Remodel | Reorganize | Raise | Gamble | Trade | EndTurn | Draw | Reroll | Choose

"""A fixed numbering of lv's decisions and chance outcomes, for OpenSpiel and PettingZoo (docs/openspiel.md).

Every decision a player can take is one whole number (an *action id*), the same under every profile and in
every version: an agent trained under one profile reads the same ids under another. The ids, with ``L`` a lot's
place in board order (``A1`` = 0 ... ``F9`` = 47, ``Board.order``) and ``C`` a colour's place in
``Board.colors`` (aqua 0, brown 1, gold 2, purple 3, silver 4):

===========  ==============================  ==============================================================
id           decision                        notes
===========  ==============================  ==============================================================
0            ``end``                         end the turn
1-240        ``build L C``                   1 + 5L + C
241-432      ``sprawl L from <neighbour>``   241 + 4L + D: D is the side of L where the sprawling casino's
                                             tile lies (0 north, 1 east, 2 south, 3 west: board rows, cols)
433-672      ``remodel L C``                 433 + 5L + C; L names the casino by its first lot (board order)
673-720      ``reorg L``                     673 + L (the casino by its first lot)
721-768      ``raise L``                     721 + L (the casino by its first lot)
769-816      ``sell L``                      769 + L (the house rule of variants/house-sell-back.yaml)
817, 818     the boss: no lay-off, lay off   where ``gamble.lay_off`` lets the boss lay off half (000 L194)
819-         ``gamble L S``                  819 + 48 (S - 1) + L: stake S from $1 to the profile's most
===========  ==============================  ==============================================================

So ``num_distinct_actions`` is 819 + 48 times the largest stake the profile allows at any casino
(``max_stake``: ``gamble.bet_per_tile`` times the most tiles a casino can count). The stake runs last so that a
profile with bigger bets only adds ids; the rest never move.

Chance outcomes (``CHANCE_OUTCOMES`` = 55): 0-47 the lot card ``L``, 48 the end card, 49-54 a die showing 1-6.

Trades are left out: a trade is open-ended (any lots, dice, money and promises between any players) and lv
does not list them either (``Game.legal_actions``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from . import actions as A
from .board import END_CARD, Board
from .errors import LvError

if TYPE_CHECKING:
    from .game import Game
    from .profile import Profile

LOTS: Final = 48
COLORS: Final = 5
END: Final = 0
BUILD: Final = 1
SPRAWL: Final = BUILD + LOTS * COLORS  # 241
REMODEL: Final = SPRAWL + LOTS * 4  # 433
REORGANIZE: Final = REMODEL + LOTS * COLORS  # 673
RAISE: Final = REORGANIZE + LOTS  # 721
SELL: Final = RAISE + LOTS  # 769
NO_LAY_OFF: Final = SELL + LOTS  # 817
LAY_OFF: Final = NO_LAY_OFF + 1  # 818
GAMBLE: Final = LAY_OFF + 1  # 819

END_OUTCOME: Final = LOTS  # 48: the end card
DIE: Final = LOTS + 1  # 49 + face - 1
CHANCE_OUTCOMES: Final = DIE + 6  # 55

SIDES: Final = ((-1, 0), (0, 1), (1, 0), (0, -1))  # north, east, south, west as (row, col) steps
SIDE_NAMES: Final = ("north", "east", "south", "west")
# the house rule's decision class (lv/actions/sell.py), found through the families' table like any other
_SELL: Any = A.FAMILY_OF_VERB["sell"].decisions[0] if "sell" in A.FAMILY_OF_VERB else None


class ActionSpace:
    """The numbering for one profile and board: ``encode`` a decision, ``decode`` an id, ``size``."""

    def __init__(self, profile: Profile, players: int, board: Board) -> None:
        if len(board.order) != LOTS or len(board.colors) != COLORS:
            raise LvError(f"the action numbering is made for 48 lots and 5 colours; this board has "
                          f"{len(board.order)} lots and {len(board.colors)} colours")
        self.board = board
        self.lot_index = {lot: i for i, lot in enumerate(board.order)}
        self.color_index = {c: i for i, c in enumerate(board.colors)}
        # the lot on each side of each lot, if any (a neighbour shares an edge, inside the block: board.yaml)
        self.side_lot: list[list[str | None]] = []
        for lot in board.order:
            here = board.lots[lot]
            sides: list[str | None] = [None] * 4
            for n in here.neighbours:
                there = board.lots[n]
                sides[SIDES.index((there.row - here.row, there.col - here.col))] = n
            self.side_lot.append(sides)
        self.max_stake = max_stake(profile, players, board)
        self.size = GAMBLE + LOTS * self.max_stake

    # ------------------------------------------------------------------ decisions
    def encode(self, decision: Any, game: Game) -> int:
        """The id of a decision of lv's legal list (a gamble with its stake); ``game`` finds a sprawl's side."""
        kind = type(decision)
        if kind is A.EndTurn:
            return END
        if kind is A.Build:
            return BUILD + COLORS * self.lot_index[decision.lot] + self.color_index[decision.color]
        if kind is A.Sprawl:
            casino = game.casino_at(decision.source)
            lots = casino.lots if casino is not None else (decision.source,)
            i = self.lot_index[decision.lot]
            for side, n in enumerate(self.side_lot[i]):
                if n is not None and n in lots:
                    return SPRAWL + 4 * i + side
            raise LvError(f"sprawl {decision.lot} from {decision.source}: no tile of that casino next to the lot")
        if kind is A.Remodel:
            return REMODEL + COLORS * self.lot_index[decision.lot] + self.color_index[decision.color]
        if kind is A.Reorganize:
            return REORGANIZE + self.lot_index[decision.lot]
        if kind is A.Raise:
            return RAISE + self.lot_index[decision.lot]
        if kind is _SELL:
            return SELL + self.lot_index[decision.lot]
        if kind is A.Gamble:
            bet: int = decision.bet
            if not 1 <= bet <= self.max_stake:
                raise LvError(f"gamble {decision.lot} {bet}: stakes run from $1 to ${self.max_stake}")
            return GAMBLE + LOTS * (bet - 1) + self.lot_index[decision.lot]
        raise LvError(f"no action id for {decision!r}: a decision of a family this numbering does not know")

    def gambles(self, listed: Any) -> range:
        """The ids of every stake of a gamble lv lists once, at its largest bet (``Game.legal_actions``)."""
        first = GAMBLE + self.lot_index[listed.lot]
        return range(first, first + LOTS * listed.bet, LOTS)

    def decode(self, action: int) -> Any:
        """The decision of a player's id (a lay-off id: True or False, the boss's answer)."""
        order = self.board.order
        if action == END:
            return A.EndTurn()
        if BUILD <= action < SPRAWL:
            lot, color = divmod(action - BUILD, COLORS)
            return A.Build(order[lot], self.board.colors[color])
        if SPRAWL <= action < REMODEL:
            lot, side = divmod(action - SPRAWL, 4)
            source = self.side_lot[lot][side]
            if source is None:
                raise LvError(f"action {action}: {order[lot]} has no lot on its {SIDE_NAMES[side]} side")
            return A.Sprawl(order[lot], source)
        if REMODEL <= action < REORGANIZE:
            lot, color = divmod(action - REMODEL, COLORS)
            return A.Remodel(order[lot], self.board.colors[color])
        if REORGANIZE <= action < RAISE:
            return A.Reorganize(order[action - REORGANIZE])
        if RAISE <= action < SELL:
            return A.Raise(order[action - RAISE])
        if SELL <= action < NO_LAY_OFF:
            if _SELL is None:
                raise LvError(f"action {action}: this lv has no sell action")
            return _SELL(order[action - SELL])
        if action in (NO_LAY_OFF, LAY_OFF):
            return action == LAY_OFF
        if GAMBLE <= action < self.size:
            stake, lot = divmod(action - GAMBLE, LOTS)
            return A.Gamble(order[lot], stake + 1)
        raise LvError(f"action {action} is not an action id (0 to {self.size - 1})")

    def text(self, action: int) -> str:
        """An id in lv's notation (the lay-off answers as words)."""
        decision = self.decode(action)
        if isinstance(decision, bool):
            return "lay off" if decision else "no lay-off"
        return A.format_decision(decision, [])

    # ------------------------------------------------------------------ chance
    def card_outcome(self, card: str) -> int:
        return END_OUTCOME if card == END_CARD else self.lot_index[card]

    def outcome_card(self, outcome: int) -> str:
        return END_CARD if outcome == END_OUTCOME else self.board.order[outcome]

    def outcome_text(self, outcome: int) -> str:
        if not 0 <= outcome < CHANCE_OUTCOMES:  # 10**9 read as a die showing 999999952 (issue 28.7)
            raise LvError(f"chance outcome {outcome} is not an outcome id (0 to {CHANCE_OUTCOMES - 1})")
        if outcome >= DIE:
            return f"die {outcome - DIE + 1}"
        return f"card {self.outcome_card(outcome)}"


def max_stake(profile: Profile, players: int, board: Board) -> int:
    """The largest bet any casino can take under ``profile``: ``gamble.bet_per_tile`` times the most tiles it
    counts (the largest block's lots, times the highest a casino may be raised when risers count)."""
    g = profile.gamble
    spaces = max(len(lots) for lots in board.blocks.values())
    tiles = spaces * profile.max_height(players) if g.tiles_counted == "physical_tiles" else spaces
    return max(1, g.bet_per_tile * tiles)

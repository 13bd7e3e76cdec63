"""A game in progress: setup, turns, decisions; the Python API most callers want.

    >>> import lv
    >>> g = lv.new_game("revised", ["red", "blue", "green"], seed=7)
    >>> g.legal_actions()[:2]
    >>> events = g.apply(lv.parse("end", g))        # end the turn; the next player draws and is paid

Everything random comes from ``Dice`` (chance.py): recorded values first, else generated from the seed and the
step's identity. ``history`` holds what a record needs (turns, cards, decisions with the dice they used).
"""

from __future__ import annotations

from typing import Any

import attrs

from . import actions as A
from .board import END_CARD, Board, load_board
from .casinos import Casino, boss
from .chance import Dice, rng_for
from .errors import IllegalAction, LvError, RecordError
from .events import Event, event
from .legal import legal_actions
from .profile import Profile, load_profile
from .rules import Engine, _restore
from .state import GameState, PlayerState


@attrs.define
class Decision:
    action: Any
    dice: dict = attrs.field(factory=dict)  # the dice it used, keyed by meaning
    choices: dict = attrs.field(factory=dict)  # die_from / marker_from where pieces ran out
    generated: list[str] = attrs.field(factory=list)  # which dice the record did not have
    events: list[Event] = attrs.field(factory=list)


@attrs.define
class Turn:
    number: int
    player: int
    cards: list[str] = attrs.field(factory=list)
    draw_dice: dict = attrs.field(factory=dict)
    draw_generated: list[str] = attrs.field(factory=list)
    draw_choices: dict = attrs.field(factory=dict)  # marker_from / die_from of the draw, kept for the record
    draw_events: list[Event] = attrs.field(factory=list)
    decisions: list[Decision] = attrs.field(factory=list)


@attrs.frozen
class CasinoView:
    lots: tuple[str, ...]
    color: str
    height: int
    spaces: int
    points: int
    boss: int | None
    dice: tuple[tuple[str, int | None, int | None], ...]  # (lot, owner, value)
    strip: bool


def shuffled_deck(board: Board, seed: int | str) -> list[str]:
    deck = list(board.order)
    rng_for(seed, "deck").shuffle(deck)
    return deck


class Game:
    def __init__(self, profile: Profile, players: list[str], seed: int | str = 0, *, deck: list[str] | None = None,
                 under_end_card: int | None = None, first_player: int | str | None = None,
                 starting_rolls: list[dict] | None = None, draw_dice: dict | None = None,
                 draw_choices: dict | None = None, board: Board | None = None, setup: bool = True):
        self.profile = profile
        self.board = board or load_board()
        self.engine = Engine(profile, self.board)
        self.seed = seed
        n = len(players)
        p = profile.players
        if not p.min <= n <= p.max:
            raise RecordError(f"{n} players: profile '{profile.name}' allows {p.min} to {p.max}")
        if len(set(players)) != n:
            raise RecordError(f"player names must differ: {players}")
        self.state = GameState(players=[PlayerState(name) for name in players])
        self.history: list[Turn] = []
        self.setup_events: list[Event] = []
        self.deck = list(deck) if deck is not None else shuffled_deck(self.board, seed)
        self.under_end_card: int | None = None
        self.starting_rolls: list[dict] = []
        self.first_player: int | None = None
        if setup:
            self._setup(under_end_card, first_player, starting_rolls)
            self._begin_turn(self.first_player, draw_dice, draw_choices)

    # ------------------------------------------------------------------ setup
    def _setup(self, under_end_card, first_player, starting_rolls) -> None:
        board, s, p = self.board, self.state, self.profile
        if sorted(self.deck) != sorted(board.order):
            missing = sorted(set(board.order) - set(self.deck))
            extra = sorted(set(self.deck) - set(board.order))
            dup = sorted({c for c in self.deck if self.deck.count(c) > 1})
            raise RecordError("the deck must hold each of the 48 lot cards once"
                              + (f"; missing {', '.join(missing)}" if missing else "")
                              + (f"; unknown {', '.join(map(str, extra))}" if extra else "")
                              + (f"; repeated {', '.join(dup)}" if dup else ""))
        pile = list(self.deck)
        events = self.setup_events
        dealt: dict[int, list[str]] = {i: [] for i in range(len(s.players))}
        # 000 L37-41 / 003 L178-199: deal 2 cards each; 003 L901-902: F cards dealt in a 2-player game are
        # discarded and replaced
        for _ in range(p.setup.starting_cards):
            for i in range(len(s.players)):
                while True:
                    if not pile:
                        raise RecordError("the deck ran out while dealing")
                    card = pile.pop(0)
                    s.discards.append(card)
                    if self.engine.f_closed(s, card):
                        events.append(event("card_skipped", player=i, card=card, why="f_block.closed_when"))
                        continue
                    dealt[i].append(card)
                    s.markers[card] = i
                    break
        for i, cards in dealt.items():
            if p.setup.starting_money == "sum_card_values":  # 000 L39
                money = sum(board.lots[c].card_money for c in cards)
            else:  # 003 L186-190: $20 minus the two dice (10 per card)
                money = 10 * len(cards) - sum(board.lots[c].die for c in cards)
            s.players[i].money = money
            events.append(event("dealt", player=i, lots=cards, money=money))
        # 000 L43 / 003 L170-176: the end card on top of the 4th of four stacks
        if under_end_card is None:
            under_end_card = len(pile) // 4 if p.deck.end_card_depth == "quarter" else 0
        if not isinstance(under_end_card, int) or not 0 <= under_end_card <= len(pile):
            raise RecordError(f"under_end_card {under_end_card!r}: must be 0 to {len(pile)} (cards left after dealing)")
        self.under_end_card = under_end_card
        pile.insert(len(pile) - under_end_card, END_CARD)
        s.deck = pile
        events.append(event("end_card_placed", under=under_end_card))
        self.first_player = self._first_player(first_player, starting_rolls)
        s.current = self.first_player

    def _first_player(self, first_player, starting_rolls) -> int:
        """000 L57 / 003 L279-281: each rolls 2 dice, highest starts; ties roll again (rulebooks silent)."""
        s = self.state
        names = [pl.name for pl in s.players]
        if first_player is not None:
            if isinstance(first_player, str):
                if first_player not in names:
                    raise RecordError(f"first player '{first_player}' is not one of the players {names}")
                first_player = names.index(first_player)
            if not isinstance(first_player, int) or not 0 <= first_player < len(names):
                raise RecordError(f"first player {first_player!r} is not a seat")
            self.setup_events.append(event("first_player", player=first_player, rolls=[]))
            return first_player
        rolls_given = list(starting_rolls or [])
        contenders = list(range(len(names)))
        rounds: list[dict] = []
        dice = Dice(self.seed, ("start",))
        while len(contenders) > 1:
            if rolls_given:
                given = rolls_given.pop(0)
                try:
                    roll = {names.index(k): tuple(v) for k, v in given.items()}
                except (ValueError, TypeError, AttributeError):
                    raise RecordError(f"starting_rolls: {given!r} is not a mapping of player to two dice") from None
                if set(roll) != set(contenders) or any(len(v) != 2 or not all(1 <= x <= 6 for x in v)
                                                       for v in roll.values()):
                    raise RecordError(f"starting_rolls: round {len(rounds) + 1} must give two dice for each of "
                                      f"{[names[c] for c in contenders]}")
            else:
                roll = dice.start(contenders)
            rounds.append({names[i]: list(v) for i, v in roll.items()})
            best = max(sum(v) for v in roll.values())
            contenders = [i for i in contenders if sum(roll[i]) == best]
        self.starting_rolls = rounds
        self.setup_events.append(event("first_player", player=contenders[0], rolls=rounds))
        return contenders[0]

    @classmethod
    def from_position(cls, profile: Profile, players: list[str], position: dict, seed: int | str = 0, *,
                      draw_dice: dict | None = None, draw_choices: dict | None = None,
                      board: Board | None = None) -> Game:
        """A game that starts from a position (see ``position.py``) instead of the standard setup."""
        from .position import apply_position

        game = cls(profile, players, seed, board=board, setup=False)
        draw_first = apply_position(game, position)
        if draw_first:
            game.state.turn -= 1
            game._begin_turn(game.state.current, draw_dice, draw_choices)
        else:
            game.history.append(Turn(number=game.state.turn, player=game.state.current))
        return game

    # ------------------------------------------------------------------ turns
    def _begin_turn(self, player: int, draw_dice: dict | None = None, choices: dict | None = None) -> None:
        s = self.state
        turn = Turn(number=s.turn + 1, player=player)
        self.history.append(turn)
        dice = Dice(self.seed, ("turn", s.turn + 1, "draw"), draw_dice)
        self.engine.begin_turn(s, player, dice, turn.draw_events, choices)
        turn.cards = list(s.drawn)
        turn.draw_dice = dice.used
        turn.draw_generated = dice.generated
        turn.draw_choices = dict(choices or {})

    @property
    def current_turn(self) -> Turn:
        return self.history[-1]

    def apply(self, action, dice: dict | None = None, choices: dict | None = None,
              next_draw_dice: dict | None = None, next_draw_choices: dict | None = None) -> list[Event]:
        """Apply the current player's decision and return its events; ``EndTurn`` also draws for the next player.
        Raises IllegalAction (the state is unchanged)."""
        s = self.state
        if s.phase == "over":
            raise IllegalAction("the game is over", "end")
        turn = self.current_turn
        # recorded dice and choices can fail after the state began to change (a tie die that is no die face, a
        # marker_from naming no marker of the drawer): keep a copy to put back, so an error leaves no trace
        given = (next_draw_dice or next_draw_choices) if isinstance(action, A.EndTurn) else dice
        saved, turns, decided = (s.copy() if given else None), len(self.history), len(turn.decisions)
        try:
            if isinstance(action, A.EndTurn):
                events = [event("turn_ended", player=s.current)]
                turn.decisions.append(Decision(action, events=events))
                self._begin_turn((s.current + 1) % len(s.players), next_draw_dice, next_draw_choices)
                return events + self.current_turn.draw_events
            index = len(turn.decisions)
            d = Dice(self.seed, ("turn", s.turn, "decision", index), dice)
            events: list[Event] = []
            self.engine.apply(s, action, d, events, choices)
        except LvError:
            if saved is not None:
                del self.history[turns:], turn.decisions[decided:]
                _restore(s, saved)
            raise
        turn.decisions.append(Decision(action, dice=d.used, choices=dict(choices or {}), generated=d.generated,
                                       events=events))
        return events

    # ------------------------------------------------------------------ reading the game
    def legal_actions(self) -> list:
        return legal_actions(self.engine, self.state)

    def why_not(self, action) -> str | None:
        """The reason ``action`` is illegal now, or None: tried on a copy of the state."""
        trial = self.state.copy()
        try:
            self.engine.apply(trial, action, Dice(self.seed, ("probe",)), [])
        except IllegalAction as err:
            return str(err)
        return None

    @property
    def over(self) -> bool:
        return self.state.phase == "over"

    @property
    def result(self):
        return self.state.result

    @property
    def player_names(self) -> list[str]:
        return [p.name for p in self.state.players]

    def pieces(self, player: int) -> dict[str, int]:
        c = self.profile.components
        return {"markers_in_hand": c.markers_per_player - len(self.state.markers_on_board(player)),
                "dice_in_hand": c.dice_per_player - len(self.state.dice_on_board(player))}

    def casinos(self) -> list[CasinoView]:
        s, lots = self.state, self.board.lots
        out = []
        for c in self.engine.casinos(s):
            out.append(CasinoView(lots=c.lots, color=c.color, height=c.height, spaces=c.spaces,
                                  points=self.engine.points(s, c), boss=boss(s, c),
                                  dice=tuple((lot, s.tiles[lot].owner, s.tiles[lot].value) for lot in c.lots),
                                  strip=any(lots[x].strip for x in c.lots)))
        return out

    def casino_at(self, lot: str) -> Casino | None:
        return self.engine.casino_at(self.state, lot)

    def events(self) -> list[Event]:
        out = list(self.setup_events)
        for turn in self.history:
            out.extend(turn.draw_events)
            for d in turn.decisions:
                out.extend(d.events)
        return out


def new_game(profile: Profile | str, players: list[str] | int, seed: int | str = 0, **kwargs) -> Game:
    """Create a game: a profile (object or spec such as ``"original+f-block"``), player names or a count
    (names then come from the profile's colours), a seed; keyword arguments as for ``Game``."""
    if isinstance(profile, str):
        profile = load_profile(profile)
    if isinstance(players, int):
        if not profile.players.min <= players <= profile.players.max:
            raise RecordError(f"{players} players: profile '{profile.name}' allows "
                              f"{profile.players.min} to {profile.players.max}")
        players = list(profile.players.colors[:players])
    return Game(profile, list(players), seed, **kwargs)

"""A game in progress: setup, turns, decisions; the Python API most callers want.

    >>> import lv
    >>> g = lv.new_game("revised", ["red", "blue", "green"], seed=7)
    >>> g.legal_actions()[:2]
    >>> events = g.apply(lv.parse("end", g))        # end the turn; the next player draws and is paid

The draw may also be a decision of its own (``new_game(..., draw_first=False)`` rests at "X is to draw" after the
deal; ``g.apply(EndTurn(), draw=False)``, then ``g.apply(Draw())``), so trades can come before it. A trade may be
made by any players on anybody's turn. At a table (``table=True``) the deal is given, each card is named as it is
drawn, and with ``ask`` set a draw waits for its tie rerolls and pieces to move (``Reroll``, ``Choose``).

Everything random comes from ``Dice`` (chance.py): recorded values first, else generated from the seed and the
step's identity. ``history`` holds what a record needs (turns, cards, decisions with the dice they used).
"""

from __future__ import annotations

import copy
import random
from typing import Any, Final, cast

from mypy_extensions import mypyc_attr

from . import actions as A
from .arguments import check_action
from .actions import Choose, Draw, EndTurn, Gamble, Reroll
from .actions import layoff
from .actions.layoff import LAY_OFF_PHASE, LayOff
from .board import END_CARD, STRIP, Board, load_board
from .casinos import Casino, boss
from .chance import Dice, gambles, generated_of, rng_for, shuffle
from .errors import IllegalAction, LvError, RecordError
from .events import CardSkipped, Dealt, EndCardPlaced, Event, FirstPlayer, TurnEnded
from .legal import legal_actions, legal_count, random_pick, staked
from .notation import check_names, new_name_problem
from .profile import Profile, load_profile
from .ruleids import Rule
from .rules import APPLIED, DRAW_FIRST, DRAW_ONCE, DRAW_TURN, Engine, applied_family
from .state import GameState, PlayerState, Result, Undo


# acyclic (out of the cyclic collector in the compiled build): holds a decision value (plain data), dicts of dice and
# choices (strings, ints and lists and dicts of them), a list of strings and a list of events (acyclic): never a
# Decision or anything that holds one
@mypyc_attr(acyclic=True)
class Decision:
    """One applied decision of a turn: the action, the dice and choices it used, and the events it caused.
    (A plain class, not attrs: game.py is compiled, and a native class is made and read in C.)"""

    # pure, no instance dict: made without one, its fields stored and read in their slots
    __slots__ = ("action", "_dice", "_choices", "_generated", "_pair", "_gen", "_events", "_one")

    def __init__(self, action: Any, dice: dict[str, Any] | None = None, choices: dict[str, Any] | None = None,
                 generated: list[str] | None = None, events: list[Event] | None = None) -> None:
        self.action = action
        # the dice, choices and dice generated, each None until given or read (``dice``, ``choices``, ``generated``
        # make it then): most decisions have no choices and generate no dice, and a game keeps every decision, so
        # no empty dict or list is made, freed and walked by the cyclic collector for each
        self._dice = dice
        self._choices = choices
        self._generated = generated
        # as a game keeps them (``_decided``): a gamble's generated dice as d1 * 8 + d2 (0: none; ``dice`` writes it
        # into the dict when read), and which dice were generated as ``Dice._gen``'s digits (``generated`` makes the
        # list when read, unless one was given): numbers, where a dict and two lists were kept for each gamble
        self._pair = 0
        self._gen = 0
        # the events: the list given (None: none given), or (``_one``, set by ``_decided``) the one event of a decision
        # that caused one, as most do: a game keeps every decision, so no list is kept for each (nor made, freed and
        # walked by the cyclic collector); ``events`` makes the list when read
        self._events = events
        self._one: Event | None = None

    @property
    def events(self) -> list[Event]:
        """The events it caused, in order."""
        events = self._events
        if events is None:
            one = self._one
            events = self._events = [] if one is None else [one]
            self._one = None
        return events

    @events.setter
    def events(self, value: list[Event]) -> None:
        self._events = value
        self._one = None

    def _listed(self) -> list[Event]:
        """The events as a list, without keeping it (``==``, ``repr``)."""
        events = self._events
        if events is not None:
            return events
        one = self._one
        return [] if one is None else [one]

    @property
    def dice(self) -> dict[str, Any]:
        """The dice it used, keyed by meaning (a gamble's ``"gamble"``: [d1, d2])."""
        dice = self._dice
        if dice is None:
            dice = self._dice = {}
        pair = self._pair
        if pair:  # (after any other dice: it was rolled after them)
            self._pair = 0
            dice["gamble"] = [pair >> 3, pair & 7]
        return dice

    @dice.setter
    def dice(self, value: dict[str, Any]) -> None:
        self._dice = value
        self._pair = 0

    @property
    def choices(self) -> dict[str, Any]:
        """Where pieces came from when a player had run out (``die_from``, ``marker_from``)."""
        choices = self._choices
        if choices is None:
            choices = self._choices = {}
        return choices

    @choices.setter
    def choices(self, value: dict[str, Any]) -> None:
        self._choices = value

    @property
    def generated(self) -> list[str]:
        """Which of its dice the record did not have (``"gamble"``, ``"reorg"``, ``"ties"``)."""
        generated = self._generated
        if generated is None:
            generated = self._generated = generated_of(self._gen)
        return generated

    @generated.setter
    def generated(self, value: list[str]) -> None:
        self._generated = value

    def _noted(self) -> tuple[str, ...]:
        """``tuple(self.generated)``, without making the list (a replay's note of the dice generated)."""
        generated = self._generated
        if generated is not None:
            return tuple(generated)
        return tuple(generated_of(self._gen)) if self._gen else ()

    def copy(self) -> Decision:
        """A decision whose lists and dicts are its own (events are shared: nothing changes them once made)."""
        dice, choices, generated, events = self._dice, self._choices, self._generated, self._events
        twin = Decision(self.action, None if dice is None else dict(dice), None if choices is None else dict(choices),
                        None if generated is None else list(generated), None if events is None else list(events))
        twin._one, twin._pair, twin._gen = self._one, self._pair, self._gen
        return twin

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Decision):
            return NotImplemented
        return (self.action == other.action and self.dice == other.dice and self.choices == other.choices
                and self.generated == other.generated and self._listed() == other._listed())

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"Decision(action={self.action!r}, dice={self.dice!r}, choices={self.choices!r}, "
                f"generated={self.generated!r}, events={self._listed()!r})")


def _decided(action: Any, dice: Dice, choices: dict[str, Any] | None, events: list[Event]) -> Decision:
    """``Decision(action, dice.used or None, choices, dice.generated or None, events)`` (``choices`` copied, None if
    empty) as a game keeps it: a generated gamble's dice and the names of the dice generated as numbers, the one event
    of a decision that caused one without its list (``Decision`` makes each when read). An empty ``used`` stays the
    Dice's (``Dice.again`` makes a new one only for one taken)."""
    used = dice._used
    one = len(events) == 1
    decision = Decision(action, used if used else None, None if not choices else dict(choices), None,
                        None if one else events)
    if one:
        decision._one = events[0]
    decision._pair = dice._pair
    decision._gen = dice._gen
    return decision


# acyclic (out of the cyclic collector in the compiled build): holds ints, lists of strings, dicts of dice and choices
# (as a Decision's), a list of events and a list of Decisions (all acyclic): never a Turn or anything that holds one
@mypyc_attr(acyclic=True)
class Turn:
    """One turn as played: whose it was, the cards drawn and their events, then the decisions in order."""

    def __init__(self, number: int, player: int, cards: list[str] | None = None,
                 draw_dice: dict[str, Any] | None = None, draw_generated: list[str] | None = None,
                 draw_choices: dict[str, Any] | None = None, draw_events: list[Event] | None = None,
                 decisions: list[Decision] | None = None) -> None:
        self.number = number
        self.player = player
        # the cards drawn: the list given (None: none given), or (``_card``) the one card of a turn that drew one, as
        # most do, kept without its list (``cards`` makes the list when read), as a Decision's one event
        self._cards = cards
        self._card: str | None = None
        # the draw's dice, dice generated and marker_from / die_from (kept for the record): each None until given or
        # read (``draw_dice``, ``draw_generated``, ``draw_choices`` make it then), as a Decision's
        self._draw_dice = draw_dice
        self._draw_generated = draw_generated
        self._draw_choices = draw_choices
        self.draw_events: list[Event] = [] if draw_events is None else draw_events
        self.decisions: list[Decision] = [] if decisions is None else decisions

    @property
    def cards(self) -> list[str]:
        """The cards drawn this turn, in order."""
        cards = self._cards
        if cards is None:
            card = self._card
            cards = self._cards = [] if card is None else [card]
            self._card = None
        return cards

    @cards.setter
    def cards(self, value: list[str]) -> None:
        self._cards = value
        self._card = None

    def _drawn(self) -> tuple[str, ...]:
        """``tuple(self.cards)``, without making the list (a replay's snapshot of each turn)."""
        cards = self._cards
        if cards is not None:
            return tuple(cards)
        card = self._card
        return () if card is None else (card,)

    @property
    def draw_dice(self) -> dict[str, Any]:
        """The draw's dice (tie rerolls), keyed by meaning."""
        dice = self._draw_dice
        if dice is None:
            dice = self._draw_dice = {}
        return dice

    @draw_dice.setter
    def draw_dice(self, value: dict[str, Any]) -> None:
        self._draw_dice = value

    @property
    def draw_generated(self) -> list[str]:
        """Which of the draw's dice the record did not have."""
        generated = self._draw_generated
        if generated is None:
            generated = self._draw_generated = []
        return generated

    @draw_generated.setter
    def draw_generated(self, value: list[str]) -> None:
        self._draw_generated = value

    @property
    def draw_choices(self) -> dict[str, Any]:
        """Where the draw's pieces came from when the drawer had run out (``marker_from``, ``die_from``)."""
        choices = self._draw_choices
        if choices is None:
            choices = self._draw_choices = {}
        return choices

    @draw_choices.setter
    def draw_choices(self, value: dict[str, Any]) -> None:
        self._draw_choices = value

    def copy(self) -> Turn:
        """A turn whose lists and dicts are its own, its decisions' too (events are shared: nothing changes them
        once made)."""
        dice, generated, choices, cards = self._draw_dice, self._draw_generated, self._draw_choices, self._cards
        twin = Turn(self.number, self.player, None if cards is None else list(cards), None if dice is None else dict(dice),
                    None if generated is None else list(generated), None if choices is None else dict(choices),
                    list(self.draw_events), [d.copy() for d in self.decisions])
        twin._card = self._card
        return twin

    def restore(self, saved: Turn) -> None:
        """Be ``saved`` again, field by field (``Game.pop``: the same Turn object, as it was)."""
        self.number, self.player, self._cards, self._card = saved.number, saved.player, saved._cards, saved._card
        self._draw_dice, self._draw_generated, self._draw_choices = saved._draw_dice, saved._draw_generated, \
            saved._draw_choices
        self.draw_events, self.decisions = saved.draw_events, saved.decisions

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Turn):
            return NotImplemented
        return (self.number == other.number and self.player == other.player and self._drawn() == other._drawn()
                and self.draw_dice == other.draw_dice and self.draw_generated == other.draw_generated
                and self.draw_choices == other.draw_choices and self.draw_events == other.draw_events
                and self.decisions == other.decisions)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"Turn(number={self.number!r}, player={self.player!r}, cards={list(self._drawn())!r}, "
                f"draw_dice={self.draw_dice!r}, draw_generated={self.draw_generated!r}, "
                f"draw_choices={self.draw_choices!r}, draw_events={self.draw_events!r}, "
                f"decisions={self.decisions!r})")


# acyclic (out of the cyclic collector in the compiled build): holds strings, ints, a bool, None and tuples of them
@mypyc_attr(acyclic=True)
class CasinoView:
    """A casino as a reader sees it (``Game.casinos()``): its lots, colour, height, size, points, the boss's
    seat (None: no die on it) and each tile's die as (lot, owner seat, value)."""

    def __init__(self, lots: tuple[str, ...], color: str, height: int, spaces: int, points: int, boss: int | None,
                 dice: tuple[tuple[str, int | None, int | None], ...], strip: bool) -> None:
        self.lots = lots
        self.color = color
        self.height = height
        self.spaces = spaces
        self.points = points
        self.boss = boss
        self.dice = dice  # (lot, owner, value)
        self.strip = strip

    def _key(self) -> tuple[Any, ...]:
        return (self.lots, self.color, self.height, self.spaces, self.points, self.boss, self.dice, self.strip)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CasinoView):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"CasinoView(lots={self.lots!r}, color={self.color!r}, height={self.height!r}, "
                f"spaces={self.spaces!r}, points={self.points!r}, boss={self.boss!r}, dice={self.dice!r}, "
                f"strip={self.strip!r})")


class _Pushed:
    """What ``Game.pop`` needs to take back one ``push``: the action, the state's checkpoint, how many turns the
    history had, and of the last of them how many decisions, the last decision and its cards (the turn is taken
    back in place: a draw as a decision replaces its cards, a boss's answer its gamble)."""

    def __init__(self, action: Any, undo: Undo, turns: int, decided: int, last: Decision | None,
                 cards: list[str] | None, card: str | None, legal: list[Any] | None = None) -> None:
        self.start(action, undo, turns, decided, last, cards, card, legal)

    def start(self, action: Any, undo: Undo, turns: int, decided: int, last: Decision | None,
              cards: list[str] | None, card: str | None, legal: list[Any] | None) -> None:
        """Be what ``pop`` needs to take back this push (``__init__``; again in one popped: ``Game.push``)."""
        self.action = action
        self.undo = undo
        self.turns = turns
        self.decided = decided
        self.last = last
        self.cards = cards  # the turn's cards as it kept them (``Turn._cards``, ``_card``)
        self.card = card
        self.legal = legal  # the game's legal list of the state then (Game._kept), or None


def _faces(values: Any) -> bool:
    """Is ``values`` a list or tuple of die faces (1-6, not True), each what ``Dice`` accepts as a recorded die?"""
    if not isinstance(values, (list, tuple)):
        return False
    for v in values:
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 6:
            return False
    return True


def _given_dicts(**given: object) -> None:
    """``Game.apply``'s dice and choices are dicts or None: anything else is a TypeError naming the argument (the
    compiled build's own check at the call says the same in its words; without it the pure build would fail later
    with an AttributeError from deep inside)."""
    for name, value in given.items():
        if value is not None and not isinstance(value, dict):
            raise TypeError(f"Game.apply: {name} must be a dict keyed by meaning (for example "
                            f"{_EXAMPLES[name]}) or None, not {type(value).__name__}")



_EXAMPLES: Final = {"dice": "{'gamble': [3, 5]}", "next_draw_dice": "{'ties': {'A2': [4]}}",
                    "choices": "{'die_from': 'A2'}", "next_draw_choices": "{'marker_from': 'B3'}"}


def _sound(dice: dict[str, Any] | None) -> bool:
    """Are these recorded dice ones ``Dice`` reads without a RecordError (every gamble a pair of faces, every
    reorganized and rerolled die a face)? Only dice that are not can fail after the state began to change, so only
    they make ``Game.apply`` keep a copy of the state to put back."""
    if not dice:
        return True
    gamble = dice.get("gamble")
    if gamble is not None:
        for pair in gambles(gamble):
            if not _faces(pair) or len(pair) != 2:
                return False
    reorg = dice.get("reorg")
    if reorg is not None and not (isinstance(reorg, dict) and _faces(list(reorg.values()))):
        return False
    ties = dice.get("ties")
    if ties is not None:
        if not isinstance(ties, dict):
            return False
        for rerolls in ties.values():
            if not _faces(rerolls):
                return False
    return True


_COMPILED: Final = not __file__.endswith(".py")  # a module compiled by mypyc loads from a .so/.pyd
# pure, a Decision (or a Turn) made without its ``__init__`` (``Game.apply``, ``_begin_turn`` store each field)
_new_decision: Final = object.__new__
_GOOD_NAMES: Final[set[tuple[str, ...]]] = set()  # players' names ``check_names`` found good (at most 256 kept)
# the choices given with a vouched decision (none): ``Engine.carry_out``'s, one dict for all, never written
_NO_CHOICES: Final[dict[str, str]] = {}
# each seat's ``turn_ended`` event (a value: one a seat, handed out at each end of its turn, not one a turn)
_ENDED: Final[list[TurnEnded]] = []


def _ended(player: int) -> TurnEnded:
    """``TurnEnded(player)``, the one made before (``_ENDED``)."""
    while len(_ENDED) <= player:
        _ENDED.append(TurnEnded(len(_ENDED)))
    return _ENDED[player]


def _one_decision(action: Any, event: Event) -> Decision:
    """``Decision(action)`` with ``event`` its one event (as ``_decided`` keeps it): an end of turn's, compiled (pure,
    ``Game.apply`` makes it without ``__init__``'s frame and without a call)."""
    decision = Decision(action)
    decision._one = event
    return decision


def _check_players(players: list[str]) -> None:
    """``check_names(players, RecordError)``, remembered for names found good: a simulation makes every game with the
    same names, and the check (Python, a character class per character) took ~45,000 instructions a game."""
    names: tuple[object, ...] = tuple(players)
    for name in names:
        if type(name) is not str:  # (not kept: the check says what is wrong)
            check_names(players, RecordError)
            return
    key = cast(tuple[str, ...], names)
    if key in _GOOD_NAMES:
        return
    check_names(players, RecordError)
    if len(_GOOD_NAMES) >= 256:
        _GOOD_NAMES.clear()
    _GOOD_NAMES.add(key)


def shuffled_deck(board: Board, seed: int | str) -> list[str]:
    """The 48 lot cards in the order ``rng_for(seed, "deck").shuffle`` gives them (``chance.shuffle``: the same
    order, without random.py's Python frames)."""
    deck = list(board.order)
    shuffle(rng_for(seed, "deck"), deck)
    return deck


class Game:
    """A game of Lords of Vegas under one rule profile: the state, the history, and the two calls that play it,
    ``legal_actions()`` and ``apply(action)``. ``push(action)`` applies a decision that ``pop()`` takes back, and
    ``copy()`` makes an independent game in the same position (python-chess's names), for a script or a search.

    Make one with ``lv.new_game(profile, players, seed)``; replay a record with ``lv.replay.replay(record)``.
    The keyword arguments fix what the seed would otherwise choose (the deck order, the end card's depth, the
    first player, the starting rolls, the first draw's dice), as a record does. In Jupyter a game shows its
    board (``_repr_svg_``). Players are seats 0..n-1 in the order given; ``player(name)`` and
    ``seat(name)`` find them by name.
    """

    # compiled only (see __init__)
    _key: tuple[str | int, ...]
    _key_turn: int
    _key_at: int
    _legal_of: list[A.Action] | None
    _legal_at: int

    def __init__(self, profile: Profile, players: list[str], seed: int | str = 0, *, deck: list[str] | None = None,
                 under_end_card: int | None = None, first_player: int | str | None = None,
                 starting_rolls: list[dict[str, Any]] | None = None, draw_dice: dict[str, Any] | None = None,
                 draw_choices: dict[str, Any] | None = None, board: Board | None = None, setup: bool = True,
                 table: bool = False, deal: dict[str, Any] | None = None, draw_first: bool = True,
                 engine: Engine | None = None, quiet: bool = False):
        self.profile = profile
        self.board = board or load_board()
        # ``engine``: another game's under the same profile and board (``copy``; an engine serves one game at a time)
        # ``quiet``: the events only a record or the narrative reads are not made (``Engine.quiet``): a simulation
        # that keeps no record and reads only the metrics (``metrics.summarize`` reads scored and built)
        self.engine = engine if engine is not None else Engine(profile, self.board, quiet)
        self.seed = seed
        n = len(players)
        p = profile.players
        if not p.min <= n <= p.max:
            raise RecordError(f"{n} players: profile '{profile.name}' allows {p.min} to {p.max}")
        _check_players(players)
        self.state = GameState([PlayerState(name) for name in players])  # (positional: see ``_begin_turn``)
        self.history: list[Turn] = []
        self.setup_events: list[Event] = []
        # at a table the cards come from the table: no deck order, each card is named as it is drawn
        self.table = table
        self.deal = deal  # {player name: [cards]} when the record gives the deal instead of a deck
        # the draw is a decision of its own ("draw D5") rather than part of ending the previous turn
        self.explicit_draws = table or not draw_first
        # at a table, a draw's tie rerolls and pieces to move that were not given are asked for as the next
        # decisions (phase "reroll" / "choice"); set by whoever enters or strictly replays the table's game
        self.ask = False
        # the decision ``random_legal`` just drew from the engine's own generator: the next ``apply`` carries it
        # out without the referee's checks if it is that very object (any other decision is checked)
        self._vouched: Any = None
        # the dice of a decision (``apply``), made ready again for each (``Dice.again``): one a game, not one a
        # decision; the decision takes the dice it used (none: its own made when read)
        self._dice = Dice(seed, ("start",))
        # compiled, the key of the last decision's dice, and its turn and place in the turn (``apply``). Pure, not
        # made: four attributes more cost a pure reference game +0.12 M (an instance with more attributes than its
        # class's shared keys hold reads each of them the slow way)
        if _COMPILED:
            self._key = ()
            self._key_turn = self._key_at = -1
        # the decision ``push`` has just checked (``check_action``): the ``apply`` it calls does not check it again
        self._checked: Any = None
        # what pop() takes back, the last push last: its first ``_depth`` entries; those past them were popped and
        # are written over by the next pushes (a push/pop pair allocates and frees no note, and the list neither
        # grows nor shrinks: CPython reallocates a list's storage as it goes from empty to one item and back)
        self._pushed: list[_Pushed] = []
        self._depth = 0
        # the last legal list and what the state was then (``_keep``): a decision of it is the engine's own for the
        # state, so ``push`` carries it out without the checks, as ``apply`` does ``random_legal``'s. Any ``apply``
        # forgets it; ``pop`` gives back the one of its push. Native fields, not a tuple: nothing boxed per list
        self._legal: list[A.Action] | None = None
        self._legal_stamp = self._legal_markers = self._legal_dice = self._legal_index = self._legal_turn = 0
        self._legal_money = 0
        self._legal_phase = ""
        # compiled, the list the stamps above were taken for (``_keep``) and where ``push`` looks for its decision in
        # the list first (after the last found); pure, not made (see ``_key``)
        if _COMPILED:
            self._legal_of = None
            self._legal_at = 0
        if deal is not None and deck is None and not table:
            raise RecordError("a deal without a deck: give the deck too, or play at a table (table: true), "
                              "where each card is named as it is drawn")
        if table and deck is not None:
            raise RecordError("at a table the cards are named as they are drawn: give the deal, not a deck")
        if table and deal is None and setup:
            raise RecordError("at a table, give the deal: the two cards each player was dealt")
        # a deck shuffled here holds each lot card once (``_setup_deck`` checks only a deck given)
        shuffled = not table and deck is None
        self.deck = [] if table else list(deck) if deck is not None else shuffled_deck(self.board, seed)
        self.under_end_card: int | None = None
        self.starting_rolls: list[dict[str, Any]] = []
        self.first_player: int | None = None
        if setup:
            self._setup(under_end_card, first_player, starting_rolls, shuffled)
            self._begin_turn(self.state.current, draw_dice, draw_choices, draw=not self.explicit_draws)

    # ------------------------------------------------------------------ setup
    def _setup(self, under_end_card: int | None, first_player: str | int | None,
               starting_rolls: list[dict[str, Any]] | None, shuffled: bool = False) -> None:
        board, s, p = self.board, self.state, self.profile
        if self.deal is not None:
            self._setup_dealt(under_end_card)
        else:
            self._setup_deck(under_end_card, shuffled)
        self.first_player = self._first_player(first_player, starting_rolls)
        s.current = self.first_player

    def _setup_dealt(self, under_end_card: int | None) -> None:
        """The deal as given (a table, or a record that gives the deal): each player's cards in the order dealt,
        an F card a 2-player game discards included (003 L901-902)."""
        board, s, p, names = self.board, self.state, self.profile, [pl.name for pl in self.state.players]
        deal = self.deal
        if not isinstance(deal, dict) or set(deal) != set(names):
            raise RecordError(f"deal: give the cards dealt to each of {', '.join(names)}", key=("deal",))
        seen: set[str] = set()
        events = self.setup_events
        for i, name in enumerate(names):
            cards = deal[name]
            if not isinstance(cards, list):
                raise RecordError(f"deal: {name}: a list of lot cards", key=("deal",))
            kept: list[str] = []
            for card in cards:
                card = str(card).upper()
                if card not in board.lots:
                    raise RecordError(f"deal: {name}: unknown lot card {card!r}", key=("deal",))
                if card in seen:
                    raise RecordError(f"deal: {card} is dealt twice", key=("deal",))
                seen.add(card)
                s.discards.append(card)
                if self.engine.f_closed(s, card):
                    events.append(CardSkipped(player=i, card=card, why="f_block.closed_when"))
                    continue
                kept.append(card)
                s.put_marker(card, i)
            if len(kept) != p.setup.starting_cards:
                raise RecordError(f"deal: {name} keeps {len(kept)} cards, the game deals {p.setup.starting_cards}",
                                  key=("deal",))
            self._starting_money(i, kept)
        if self.table:
            if under_end_card is not None:
                raise RecordError("under_end_card: at a table the end card is in the deck, unseen",
                                  key=("under_end_card",))
            s.deck = [lot for lot in board.order if lot not in seen] + [END_CARD]
            events.append(EndCardPlaced(under=None))
            return
        rest = [c for c in self.deck if c not in seen]
        if sorted(rest + sorted(seen)) != sorted(board.order):
            raise RecordError("deck: with a deal, the deck holds the other lot cards, each once", key=("deck",))
        self.deck = rest
        self._place_end_card(rest, under_end_card)

    def _starting_money(self, i: int, cards: list[str]) -> None:
        lots = self.board.lots
        # (loops, not ``sum`` of a generator: a generator is a call and a frame)
        if self.profile.setup.starting_money == "sum_card_values":  # 000 L39
            money = 0
            for c in cards:
                money += lots[c].card_money
        else:  # 003 L186-190: $20 minus the two dice (10 per card)
            money = 10 * len(cards)
            for c in cards:
                money -= lots[c].die
        self.state.players[i].money = money
        self.setup_events.append(Dealt(i, cards, money))  # (positional: a call with keywords costs more)

    def _place_end_card(self, pile: list[str], under_end_card: int | None) -> None:
        # 000 L43 / 003 L170-176: the end card on top of the 4th of four stacks
        pile = list(pile)
        if under_end_card is None:
            under_end_card = len(pile) // 4 if self.profile.deck.end_card_depth == "quarter" else 0
        if not isinstance(under_end_card, int) or not 0 <= under_end_card <= len(pile):
            raise RecordError(f"under_end_card {under_end_card!r}: must be 0 to {len(pile)} (cards left after dealing)",
                              key=("under_end_card",))
        self.under_end_card = under_end_card
        pile.insert(len(pile) - under_end_card, END_CARD)
        self.state.deck = pile
        self.setup_events.append(EndCardPlaced(under_end_card))

    def _setup_deck(self, under_end_card: int | None, shuffled: bool = False) -> None:
        """Deal from the deck (``shuffled``: by ``shuffled_deck``, a permutation of the board's cards unchecked)."""
        board, s, p = self.board, self.state, self.profile
        if not shuffled and sorted(self.deck) != sorted(board.order):
            missing = sorted(set(board.order) - set(self.deck))
            extra = sorted(set(self.deck) - set(board.order))
            dup = sorted({c for c in self.deck if self.deck.count(c) > 1})
            raise RecordError("the deck must hold each of the 48 lot cards once"
                              + (f"; missing {', '.join(missing)}" if missing else "")
                              + (f"; unknown {', '.join(map(str, extra))}" if extra else "")
                              + (f"; repeated {', '.join(dup)}" if dup else ""))
        pile = list(self.deck)
        events = self.setup_events
        seats = len(s.players)
        dealt: list[list[str]] = []
        for i in range(seats):  # (a loop: a comprehension is a call)
            dealt.append([])
        # the closed block's lots read once (``f_closed`` without a call a card)
        closed, bit = self.engine.closed_mask(seats), board.bit
        # 000 L37-41 / 003 L178-199: deal 2 cards each; 003 L901-902: F cards dealt in a 2-player game are
        # discarded and replaced
        for _ in range(p.setup.starting_cards):
            for i in range(seats):
                while True:
                    if not pile:
                        raise RecordError("the deck ran out while dealing")
                    card = pile.pop(0)
                    s.discards.append(card)
                    if closed and bit[card] & closed:
                        events.append(CardSkipped(player=i, card=card, why="f_block.closed_when"))
                        continue
                    dealt[i].append(card)
                    s.put_marker(card, i)
                    break
        for i in range(seats):
            self._starting_money(i, dealt[i])
        self._place_end_card(pile, under_end_card)

    def _first_player(self, first_player: str | int | None, starting_rolls: list[dict[str, Any]] | None) -> int:
        """000 L57 / 003 L279-281: each rolls 2 dice, highest starts; ties roll again (rulebooks silent)."""
        s = self.state
        names: list[str] = []
        for pl in s.players:  # (loops below, not comprehensions: each a call)
            names.append(pl.name)
        if first_player is not None:
            if isinstance(first_player, str):
                if first_player not in names:
                    raise RecordError(f"first player '{first_player}' is not one of the players {names}",
                                      key=("first_player",))
                first_player = names.index(first_player)
            if not isinstance(first_player, int) or not 0 <= first_player < len(names):
                raise RecordError(f"first player {first_player!r} is not a seat", key=("first_player",))
            self.setup_events.append(FirstPlayer(player=first_player, rolls=[]))
            return first_player
        rolls_given = list(starting_rolls or [])
        contenders = list(range(len(names)))
        rounds: list[dict[str, Any]] = []
        dice = self._dice  # (made with the key of the starting rolls)
        while len(contenders) > 1:
            if rolls_given:
                given = rolls_given.pop(0)
                try:
                    roll = {names.index(k): tuple(v) for k, v in given.items()}
                except (ValueError, TypeError, AttributeError):
                    raise RecordError(f"starting_rolls: {given!r} is not a mapping of player to two dice",
                                      key=("starting_rolls",)) from None
                if set(roll) != set(contenders) or any(len(v) != 2 or not all(1 <= x <= 6 for x in v)
                                                       for v in roll.values()):
                    raise RecordError(f"starting_rolls: round {len(rounds) + 1} must give two dice for each of "
                                      f"{[names[c] for c in contenders]}", key=("starting_rolls",))
            elif self.table and not rounds:  # the table rolled these dice: lv does not invent them
                raise RecordError("at a table, give who starts (first_player, --first) or the starting rolls "
                                  "(starting_rolls, --rolls)")
            elif self.table:
                tied = " and ".join(names[c] for c in contenders)
                raise RecordError(f"starting roll: {tied} tie: give their reroll too (another round of "
                                  f"--rolls, or of starting_rolls): at a table every die is rolled there")
            else:
                roll = dice.start(contenders)
            shown: dict[str, Any] = {}
            for i, v in roll.items():
                shown[names[i]] = list(v)
            rounds.append(shown)
            # the highest of the two dice's sums (two each, checked above: ``v[0] + v[1]`` is ``sum(v)``), by loops
            # (compiled, ``max`` of a generator and ``sum`` are generic calls)
            best: Any = None
            for v in roll.values():
                total = v[0] + v[1]
                if best is None or total > best:
                    best = total
            highest: list[int] = []
            for i in contenders:
                if roll[i][0] + roll[i][1] == best:
                    highest.append(i)
            contenders = highest
        self.starting_rolls = rounds
        self.setup_events.append(FirstPlayer(contenders[0], rounds))
        return contenders[0]

    @classmethod
    def from_position(cls, profile: Profile, players: list[str], position: dict[str, Any], seed: int | str = 0, *,
                      draw_dice: dict[str, Any] | None = None, draw_choices: dict[str, Any] | None = None,
                      board: Board | None = None, table: bool = False, draw_first: bool = True) -> Game:
        """A game that starts from a position (see ``position.py``) instead of the standard setup.
        ``draw_first=False``: a position in the draw phase rests there, for a ``draw`` decision."""
        from .position import apply_position

        game = cls(profile, players, seed, board=board, setup=False, table=table, draw_first=draw_first)
        draw_phase = apply_position(game, position, table=table)
        if draw_phase:
            game.state.turn -= 1
            game._begin_turn(game.state.current, draw_dice, draw_choices, draw=draw_first)
        else:
            game.history.append(Turn(number=game.state.turn, player=game.state.current))
        return game

    # ------------------------------------------------------------------ turns
    def _begin_turn(self, player: int, draw_dice: dict[str, Any] | None = None, choices: dict[str, Any] | None = None,
                    draw: bool = True) -> None:
        """Start ``player``'s turn; ``draw``: turn over the card now (else the game rests at "X is to draw")."""
        s = self.state
        number = s.turn + 1
        dice = self._dice  # made ready for the draw: ``again`` only where it has something to do (as in ``apply``)
        dice.key = ("turn", number, "draw")
        if dice._spent or draw_dice:
            dice.again(self.seed, dice.key, draw_dice)
        events: list[Event] = []
        # (positional: a call with keywords is not inlined by CPython 3.11's eval loop, ~600 instructions more)
        self.engine.begin_turn(s, player, dice, events, choices, draw, self.table)
        # the turn made once it is known (no empty lists and dicts made to be replaced); an error above leaves none
        if draw:
            drawn = s.drawn
            if _COMPILED:
                used = dice.used if dice._pair else dice._used  # (the property's call only for a gamble kept as
                #                                                  numbers; an empty dict stays the Dice's, as in ``apply``)
                one = len(drawn) == 1  # (most turns: the card kept without a list)
                turn = Turn(number, player, None if one else list(drawn), used if used else None,
                            generated_of(dice._gen) if dice._gen else None, None if not choices else dict(choices),
                            events)
                if one:
                    turn._card = drawn[0]
            else:  # pure: the same Turn without its ``__init__``'s frame (8 parameters; one a turn), its fields in
                #    ``__init__``'s order (the instance's values in its class's shared keys)
                turn = _new_decision(Turn)
                turn.number = number
                turn.player = player
                if len(drawn) == 1:  # (most turns: the card kept without a list)
                    turn._cards = None
                    turn._card = drawn[0]
                else:
                    turn._cards = list(drawn)
                    turn._card = None
                if dice._spent:  # (the draw rolled a die, or was given dice: most roll, write and are given none)
                    used = dice.used if dice._pair else dice._used  # (as above)
                    turn._draw_dice = used if used else None
                    turn._draw_generated = generated_of(dice._gen) if dice._gen else None
                else:
                    turn._draw_dice = turn._draw_generated = None
                turn._draw_choices = None if not choices else dict(choices)
                turn.draw_events = events
                turn.decisions = []
            self.history.append(turn)
        else:
            self.history.append(Turn(number, player, draw_events=events))

    @property
    def current_turn(self) -> Turn:
        """The turn being played (the last one once the game is over)."""
        return self.history[-1]

    def apply(self, action: A.Action, dice: dict[str, Any] | None = None, choices: dict[str, Any] | None = None,
              next_draw_dice: dict[str, Any] | None = None, next_draw_choices: dict[str, Any] | None = None,
              draw: bool | None = None) -> list[Event]:
        """Apply a decision and return its events. ``EndTurn`` also draws for the next player (a convenience for
        bots and simulation; ``draw=False`` leaves the game at "X is to draw", for a ``Draw`` decision). By
        default (``draw=None``) it draws unless the game's draws are decisions of their own (``draw_first=False``
        or a table), whose record says so: there it rests at "X is to draw", and ``draw=True`` makes the draw as a
        ``Draw`` decision. A trade may be made by any players, on anybody's turn.

        ``action`` is an ``lv.actions`` object (``lv.parse_action("build A2 gold", game.player_names)`` makes
        one). ``dice`` gives dice rolled at the table, keyed by meaning (a gamble's ``"gamble"``: [d1, d2]),
        instead of the seeded ones; ``choices`` says where a piece comes from when a player has run out
        (``{"die_from": "A2"}``); ``next_draw_dice``/``next_draw_choices`` do the same for the draw an
        ``EndTurn`` starts. Raises ``IllegalAction`` (with the rule's parameter) and leaves the state
        unchanged; raises it with "the game is over" once it is."""
        s = self.state
        vouched = self._vouched
        turn: Turn
        saved: GameState | None
        if (vouched is not None and action is vouched and dice is None and choices is None
                and next_draw_dice is None and next_draw_choices is None and s.phase == "actions"):
            # the simulation's case: the engine's own decision for this state (``random_legal``, a listed ``push``),
            # no dice and no choices given, in the action step: none of the checks below can refuse it, nor is it a
            # draw, a reroll, a choice or a lay-off (the action step's legal list has none; vouched all the same, the
            # engine refuses them as always). Pure, ~50 bytecodes fewer a decision. All but the end of the turn:
            # ``_apply_own``
            self._vouched = self._legal = None  # (``_checked`` is None: push sets it for a decision not vouched)
            if type(action) is not EndTurn:
                return self._apply_own(action)
            turn = self.history[-1]
            if not _COMPILED and draw is None:  # pure, the simulation's end of the turn (``bots.play``'s): the end
                #   below written out for no draw given, nothing to put back (no ``try``), no draw as a decision
                p = s.current
                try:  # (a seat past the list's end is rare: no length compared each time)
                    ended = _ENDED[p]
                except IndexError:
                    ended = _ended(p)
                decision = _new_decision(Decision)
                decision.action = action
                decision._dice = decision._choices = decision._generated = decision._events = None
                decision._pair = decision._gen = 0
                decision._one = ended
                turn.decisions.append(decision)
                self._begin_turn((p + 1) % len(s.players), None, None, not self.explicit_draws)
                return [ended, *self.history[-1].draw_events]  # (``current_turn``, without its call; one list display)
            end = True
            saved = None  # (nothing to put back: ``turns`` and ``decided`` are not read)
        else:
            self._vouched = None
            checked, self._checked = self._checked, None
            self._legal = None
            # from outside: its types checked alike in both builds (once: push checked its own)
            if (checked is None or action is not checked) and (vouched is None or action is not vouched):
                check_action("apply", action)
            plain = True  # no dice and no choices given (the simulation's case)
            if dice is not None or choices is not None or next_draw_dice is not None or next_draw_choices is not None:
                plain = False
                if not ((dice is None or isinstance(dice, dict)) and (choices is None or isinstance(choices, dict))
                        and (next_draw_dice is None or isinstance(next_draw_dice, dict))
                        and (next_draw_choices is None or isinstance(next_draw_choices, dict))):
                    # (only then: its keywords made a dict, a generic call compiled, for each decision a record gives
                    # dice)
                    _given_dicts(dice=dice, choices=choices, next_draw_dice=next_draw_dice,
                                 next_draw_choices=next_draw_choices)
            phase = s.phase
            if phase == "over":
                raise IllegalAction("the game is over", "end")
            turn = self.history[-1]  # ``current_turn``
            # exact-class tests: the cheapest on this path (mypy cannot narrow through ``kind``); the classes are this
            # module's names, not attributes of ``A`` (a compiled module reads those by a generic lookup each time)
            kind = type(action)
            if kind is Draw:
                return self._draw(action, dice, choices)
            if kind is Reroll or kind is Choose:
                return self._resume(action)
            if kind is LayOff:
                return self._answer(action, dice)
            if kind is Gamble and action.lay_off is None:  # chosen without the boss's answer
                return self._ask(action, dice, choices)
            if phase != "actions":  # the draw not made yet, or waiting at a table
                refused = self._why_not_now(kind is EndTurn)
                if refused is not None:
                    raise IllegalAction(refused[1], refused[0])
            # recorded dice and choices can fail after the state began to change (a tie die that is no die face, a
            # marker_from naming no marker of the drawer): keep a copy to put back, so an error leaves no trace
            # (dice whose every die is a face cannot fail: only other dice need the copy, which costs what a decision
            # does; no dice or choices given, none)
            end = isinstance(action, EndTurn)
            saved = None
            turns = decided = 0
            if not plain and ((next_draw_choices or not _sound(next_draw_dice)) if end else not _sound(dice)):
                saved, turns, decided = s.copy(), len(self.history), len(turn.decisions)
        try:
            if end:
                p = s.current
                ended = _ENDED[p] if p < len(_ENDED) else _ended(p)
                # asked to draw in a game whose draws are decisions of their own (its record says so): the draw is
                # made as one, the same cards and dice (the same key), so the record replays
                as_decision = bool(draw) and self.explicit_draws
                if as_decision and saved is None:  # a draw refused takes the end back too
                    saved, turns, decided = s.copy(), len(self.history), len(turn.decisions)
                # (its one event kept without a list: ``_decided``; pure, the simulation's end of the turn is made
                #   above without a call)
                turn.decisions.append(_one_decision(action, ended))
                self._begin_turn((s.current + 1) % len(s.players), None if as_decision else next_draw_dice,
                                 None if as_decision else next_draw_choices,
                                 draw=not self.explicit_draws if draw is None else draw and not as_decision)
                out: list[Event] = [ended]
                out.extend(self._draw(Draw(), next_draw_dice, next_draw_choices) if as_decision
                           else self.history[-1].draw_events)  # (``current_turn``, without its call)
                return out
            # the dice's key: the last one made if it is this step's (a push after a pop: the same step again), so
            # that a search's push/pop pair makes and frees no tuple for it
            if _COMPILED:
                number, key = len(turn.decisions), self._key
                if self._key_turn != s.turn or self._key_at != number:
                    key = self._key = ("turn", s.turn, "decision", number)
                    self._key_turn, self._key_at = s.turn, number
            else:  # (pure, fewer bytecodes: a new key)
                key = ("turn", s.turn, "decision", len(turn.decisions))
            d = self._dice  # made ready for the step: ``again`` where the step before left something (``Dice._spent``)
            d.key = key  # or dice are given, else only its key (most steps: no call)
            if d._spent or dice:
                d.again(self.seed, key, dice)
            events: list[Event] = []
            self.engine.apply(s, action, d, events, choices, action is vouched)  # (positional: no keyword names)
        except LvError:
            if saved is not None:
                del self.history[turns:], turn.decisions[decided:]
                s.restore(saved)
            raise
        decision = _decided(action, d, choices, events)  # (pure, the simulation's is made in ``_apply_own``)
        turn.decisions.append(decision)
        return events

    def _apply_own(self, action: A.Action) -> list[Event]:
        """``apply(action)`` for the engine's own decision for this state in the action step but the end of the turn
        (``random_pick``'s, vouched for), no dice and no choices given: none of ``apply``'s checks can refuse it
        (see there). ``bots.play`` calls it for the uniform bot's picks, without ``apply``'s tests of its keywords
        (pure: ~30 bytecodes a decision); ``apply`` calls it for a vouched decision. Nothing is vouched for and no
        legal list kept when it is called (``apply`` clears them first; ``bots.play`` leaves none: each decision it
        gives ``apply`` clears them), so it clears neither."""
        kind = type(action)
        if kind is Gamble and action.lay_off is None:  # chosen without the boss's answer
            return self._ask(action, None, None)
        s = self.state
        decisions = self.history[-1].decisions  # (the turn's: its length read, then appended to)
        # its family, carried out by ``Engine.carry_out`` at once (None: not one of the action step's own, a trade's:
        # ``Engine.apply``, as ``apply`` would), looked up in the one test of the build below
        if _COMPILED:  # (as ``apply``: the dice's key kept for a push after a pop)
            family = applied_family(kind)
            number, key = len(decisions), self._key
            if self._key_turn != s.turn or self._key_at != number:
                key = self._key = ("turn", s.turn, "decision", number)
                self._key_turn, self._key_at = s.turn, number
            d = self._dice
            d.key = key
        else:  # (the key stored at once: no local for it)
            family = APPLIED(kind)
            d = self._dice
            d.key = ("turn", s.turn, "decision", len(decisions))
        if d._spent:
            d.again(self.seed, d.key, None)
        events: list[Event] = []
        if family is None:
            self.engine.apply(s, action, d, events, None, True)
        elif kind is not Gamble or _COMPILED:
            self.engine.carry_out(s, family, action, d, events, _NO_CHOICES)
        else:  # pure, a gamble: it changes no tile and no die, so where the index is current, none of its casinos
            #    stale or tied, ``Engine.carry_out`` would find nothing to settle or tell after it: its family's
            #    ``carry_out`` at once (the bosses before it not made, ~45 bytecodes and a frame fewer a gamble)
            engine = self.engine
            index = s._casinos
            if (index is None or index.dirty or index._stale or index._tied
                    or index.join_rule != engine._join_rule):
                engine.carry_out(s, family, action, d, events, _NO_CHOICES)
            else:
                family.carry_out(engine, s, s.current, action, d, events, _NO_CHOICES)
        if _COMPILED:
            decision = _decided(action, d, None, events)
        else:  # (``_decided`` written out, as in ``apply``; no locals for what is read once)
            decision = _new_decision(Decision)
            decision.action = action
            decision._dice = d._used or None
            decision._choices = decision._generated = None
            decision._pair = d._pair
            decision._gen = d._gen
            if len(events) == 1:
                decision._events = None
                decision._one = events[0]
            else:
                decision._events = events
                decision._one = None
        decisions.append(decision)
        return events

    # ------------------------------------------------------------------ the boss's lay-off (lv/actions/layoff.py)
    def _ask(self, action: Gamble, dice: dict[str, Any] | None, choices: dict[str, Any] | None) -> list[Event]:
        """A gamble chosen without the boss's answer: where the profile lets the boss lay off (000 L194), the game
        waits for it (the legal list is the boss's two answers; its dice come with the answer); elsewhere it is the
        gamble without a lay-off. The gamble is kept as the turn's last decision meanwhile (``lay_off: ask`` in a
        record saved now)."""
        s = self.state
        if not layoff.asks_boss(self.profile):
            return self.apply(Gamble(action.lot, action.bet, False), dice, choices)
        refused = self._why_not_now(False)
        if refused is None and dice:
            refused = (Rule.DICE, "the boss answers before the roll (000 L194): give the gamble's dice with the "
                                  "answer")
        if refused is None:
            refused = layoff.ask(self.engine, s, s.current, action.lot, action.bet)
        if refused is not None:
            raise IllegalAction(refused[1], refused[0])
        self.current_turn.decisions.append(Decision(action))
        return []

    def _answer(self, answer: LayOff, dice: dict[str, Any] | None) -> list[Event]:
        """The boss's answer to the gamble that waits for it: the gamble is carried out with it (``dice``: its
        roll, as for the gamble), and recorded as if the answer had been given with it (the same decision, the
        same dice: the key of the gamble's place in the turn)."""
        s, turn = self.state, self.current_turn
        if layoff.waiting_gamble(s) is None:
            raise IllegalAction(f"no gamble waits for its boss's answer: '{layoff.FAMILY.format(answer, ())}' is "
                                f"only legal then", Rule.GAMBLE_LAY_OFF)
        if dice is not None:
            _given_dicts(dice=dice)
        saved = s.copy()
        asked = turn.decisions.pop()
        gamble = layoff.answered(s, answer)
        d = Dice(self.seed, ("turn", s.turn, "decision", len(turn.decisions)), dice)
        events: list[Event] = []
        try:
            self.engine.apply(s, gamble, d, events)
        except LvError:
            s.restore(saved)
            turn.decisions.append(asked)
            raise
        turn.decisions.append(_decided(gamble, d, None, events))
        return events

    @property
    def to_move(self) -> int:
        """The seat that decides now: the player whose turn it is, or while a gamble waits for its boss's answer
        (``gamble.lay_off``), that boss."""
        waiting = layoff.waiting_gamble(self.state)
        return self.state.current if waiting is None else waiting[2]

    # ------------------------------------------------------------------ push, pop, copy (python-chess's names)
    def push(self, action: A.Action, dice: dict[str, Any] | None = None, choices: dict[str, Any] | None = None,
             next_draw_dice: dict[str, Any] | None = None, next_draw_choices: dict[str, Any] | None = None,
             draw: bool | None = None) -> list[Event]:
        """``apply(action, dice, choices, ...)`` that ``pop()`` can take back: for a script or a search that tries
        a decision and returns. Takes what ``apply`` takes and returns its events; a refused decision raises
        ``IllegalAction``, changes nothing and leaves nothing to pop. A push copies nothing: it opens a checkpoint
        of the state (``GameState.checkpoint``: the changes are noted as they are made) and notes how long the
        history and its last turn were."""
        vouched = self._vouched
        legal = self._kept()
        listed = vouched is not None and action is vouched
        if legal is not None and not listed and not _COMPILED:
            for a in legal:
                if a is action:  # one of the list's decisions, the very object
                    listed = True
                    break
        elif legal is not None and not listed:
            # one of the list's decisions, the very object: looked for from the one after the last found (a search
            # that tries the list's decisions in turn finds each at once), then from the start
            n = len(legal)
            at = self._legal_at
            for k in range(at, n):
                if legal[k] is action:
                    listed = True
                    self._legal_at = k + 1
                    break
            if not listed:
                for k in range(min(at, n)):
                    if legal[k] is action:
                        listed = True
                        self._legal_at = k + 1
                        break
        if not listed:
            check_action("push", action)
        s, history = self.state, self.history
        turn = history[-1]
        decisions = turn.decisions
        undo = s.checkpoint()
        last = decisions[-1] if decisions else None
        depth, pushed = self._depth, self._pushed
        if depth < len(pushed):  # one popped, written over
            saved = pushed[depth]
            saved.start(action, undo, len(history), len(decisions), last, turn._cards, turn._card, legal)
        else:
            saved = _Pushed(action, undo, len(history), len(decisions), last, turn._cards, turn._card, legal)
        if listed:  # the engine's own decision for this state: carried out without the checks
            self._vouched = action
        else:
            self._checked = action
        # (``apply``'s arguments named, not ``**options``, none keyword-only: compiled, a call given the decision alone
        # is parsed without the keyword parser and no dict is made for the options)
        try:
            events = self.apply(action, dice, choices, next_draw_dice, next_draw_choices, draw)
        except BaseException:
            self._back(saved)
            self._relist(saved.legal)  # the state as it was: so is its list
            raise
        if depth == len(pushed):
            pushed.append(saved)
        self._depth = depth + 1
        return events

    def pop(self) -> A.Action:
        """Take back the last ``push``: the game is as it was before it (anything ``apply`` did since is taken back
        with it). Returns the action pushed; ``IndexError`` if nothing is pushed."""
        depth = self._depth - 1
        if depth < 0:
            raise IndexError("pop: no decision was pushed")
        saved = self._pushed[depth]
        self._depth = depth  # (the note stays in the list, written over by the next push: see __init__)
        self._back(saved)
        self._vouched = None
        self._relist(saved.legal)
        return saved.action

    def _relist(self, legal: list[A.Action] | None) -> None:
        """The legal list of the state as it was at a push (None: none was kept for it), the state as it was again."""
        if legal is None:
            self._legal = None
        elif _COMPILED and legal is self._legal_of:  # the stamps are still this list's, and the state is as it was then
            self._legal = legal
        else:
            self._keep(legal)

    def _keep(self, legal: list[A.Action]) -> None:
        """Keep ``legal``, the legal list of the state as it is, with what the state is: its tiles' stamp, markers,
        dice, casino index's version, turn and player, gambles, money and phase (every decision changes one; ``apply``
        and ``pop`` keep the list right, this guards against a state changed by hand in between)."""
        s = self.state
        index = s._casinos
        self._legal = legal
        if _COMPILED:
            self._legal_of = legal
        self._legal_stamp, self._legal_markers, self._legal_dice = s.structure, s.markers_mask, s.dice_mask
        self._legal_index = -1 if index is None else index.changes
        self._legal_turn = (s.turn * 8 + s.current) * 64 + s.gambles
        self._legal_money, self._legal_phase = s.players[s.current].money, s.phase

    def _kept(self) -> list[A.Action] | None:
        """The last legal list, if it was made for the state as it is (else None)."""
        legal = self._legal
        if legal is None:
            return None
        s = self.state
        index = s._casinos
        if (s.structure != self._legal_stamp or s.markers_mask != self._legal_markers
                or s.dice_mask != self._legal_dice or (-1 if index is None else index.changes) != self._legal_index
                or (s.turn * 8 + s.current) * 64 + s.gambles != self._legal_turn
                or s.players[s.current].money != self._legal_money or s.phase != self._legal_phase):
            return None
        return legal

    def _back(self, saved: _Pushed) -> None:
        """The state rolled back to the push's checkpoint, the history to its length then, the last turn's
        decisions and cards as they were."""
        self.state.rollback(saved.undo)
        history = self.history
        if len(history) != saved.turns:  # (a slice deleted is a generic call compiled: only if there is one)
            del history[saved.turns:]
        turn = history[-1]
        decisions = turn.decisions
        n = saved.decided
        while len(decisions) > n:  # (most pushes add one decision: popped, not a slice deleted, a generic call compiled)
            decisions.pop()
        if n and decisions[n - 1] is not saved.last:  # a boss's answer took the place of the gamble asked
            last = saved.last
            assert last is not None
            decisions[n - 1] = last
        turn._cards, turn._card = saved.cards, saved.card

    @property
    def pushed(self) -> list[A.Action]:
        """The actions ``pop()`` can take back, the first pushed first (python-chess's ``move_stack``)."""
        return [p.action for p in self._pushed[:self._depth]]

    def copy(self) -> Game:
        """An independent game in the same position: the state, the history and what ``pop()`` can take back are
        copied; the profile, board and engine (read-only) are shared. Play either without touching the other."""
        # made by __init__ (a compiled class runs it whatever makes it) without the setup, on this game's engine
        twin = Game(self.profile, self.player_names, self.seed, deck=None if self.table else self.deck,
                    board=self.board, setup=False, table=self.table, deal=self.deal,
                    draw_first=not self.explicit_draws, engine=self.engine)
        twin.ask = self.ask
        s = self.state
        t = twin.state = s.copy()
        twin.history = [turn.copy() for turn in self.history]
        twin.setup_events = list(self.setup_events)
        twin.deal = None if self.deal is None else {k: list(v) for k, v in self.deal.items()}
        # the checkpoints, oldest first, each for the twin's state (its casino index worked out again after its
        # rollback); a turn's cards and last decision its own
        parent: Undo | None = None
        for p in self._pushed[:self._depth]:
            u = p.undo.moved(s, t)
            u.parent = parent
            parent = u
            last = None if p.last is None else p.last.copy()
            cards = p.cards
            twin._pushed.append(_Pushed(p.action, u, p.turns, p.decided, last, None if cards is None else list(cards),
                                        p.card))
        twin._depth = len(twin._pushed)
        t._undo = parent
        twin.under_end_card, twin.first_player = self.under_end_card, self.first_player
        twin.starting_rolls = [dict(r) for r in self.starting_rolls]
        return twin

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        """``copy()`` with the profile, board and engine deep-copied too and the state's pending draw (a compiled
        class has no default deep copy)."""
        twin = self.copy()
        memo[id(self)] = twin
        twin.profile = copy.deepcopy(self.profile, memo)
        twin.board = copy.deepcopy(self.board, memo)
        twin.engine = Engine(twin.profile, twin.board, self.engine.quiet)
        twin.state = copy.deepcopy(self.state, memo)
        return twin

    def why_not_draw(self, action: A.Draw) -> tuple[str, str] | None:
        """(rule, reason) a draw is refused now, or None."""
        s = self.state
        if s.phase == "over":
            return ("end", "the game is over")
        if action.player is not None and action.player != s.current:
            who = s.players[action.player].name if 0 <= action.player < len(s.players) else action.player
            return (DRAW_TURN, f"it is {s.players[s.current].name}'s turn: {who} cannot draw")
        if s.phase != "draw":
            return (DRAW_ONCE, f"{s.players[s.current].name} has drawn this turn already "
                               f"({', '.join(s.drawn) or 'the position starts after the draw'})")
        return None

    def _draw(self, action: A.Draw, dice: dict[str, Any] | None, choices: dict[str, Any] | None) -> list[Event]:
        """The draw step as a decision of its own."""
        reason = self.why_not_draw(action)
        if reason is not None:
            raise IllegalAction(reason[1], reason[0])
        s, turn = self.state, self.current_turn
        saved = s.copy()
        # the key of a draw made with the end of a turn
        d = Dice(self.seed, ("turn", s.turn, "draw"), dice, ask=self.table and self.ask)
        events: list[Event] = []
        try:
            self.engine.draw_step(s, d, events, choices, named=tuple(action.cards), table=self.table)
        except LvError:
            s.restore(saved)
            raise
        turn.cards = list(s.drawn)
        turn.decisions.append(_decided(A.Draw(tuple(s.drawn)), d, choices, events))
        return events

    def _resume(self, action: A.Reroll | A.Choose) -> list[Event]:
        """A tie reroll or a piece to move that a draw at a table waits for."""
        s, turn = self.state, self.current_turn
        if s.phase == LAY_OFF_PHASE:
            refused = self.engine.why_waiting(s)
            assert refused is not None
            raise IllegalAction(refused[1], refused[0])
        saved = s.copy()
        index = len(turn.decisions)
        d = Dice(self.seed, ("turn", s.turn, "decision", index), None, ask=self.table and self.ask)
        events: list[Event] = []
        try:
            self.engine.resume_draw(s, action, d, events)
        except LvError:
            s.restore(saved)
            raise
        turn.decisions.append(_decided(action, d, None, events))
        return events

    # ------------------------------------------------------------------ reading the game
    def legal_actions(self) -> list[A.Action]:
        """Every decision the player to move may make now, as ``lv.actions`` objects (``EndTurn`` included;
        trades, which are open-ended, are not listed). Empty once the game is over. The game keeps a copy until the
        next decision: ``push`` carries out one of its decisions without the checks (it is the engine's own for
        this state; a copy, so that a decision the caller puts in the list it was given is checked)."""
        found = legal_actions(self.engine, self.state)
        self._keep(found[:])
        return found

    def legal_count(self) -> int:
        """``len(legal_actions())``, without making the list."""
        return legal_count(self.engine, self.state)

    def random_legal(self, rng: random.Random, counts: list[int] | None = None) -> A.Action | None:
        """A uniformly random legal decision, drawn from ``rng`` exactly as ``rng.choice(game.legal_actions())``
        would draw it, then for a gamble a stake ``rng.randint(1, cap)`` (the uniform bot, ``bots.uniform_bot``),
        without making the list. ``counts``, if given, gets the number of legal decisions. None once the game is
        over. The decision comes from the engine's own generator, so if the next ``apply`` is given this very
        object, it is carried out without the referee's checks (the simulation's fast path); anything else
        given to ``apply`` is checked as always."""
        action, n = random_pick(self.engine, self.state, rng)
        if counts is not None:
            counts.append(n)
        if isinstance(action, Gamble):
            action = staked(action, rng)  # rng.randint(1, action.bet)
        self._vouched = action  # (``bots.play`` writes this method out: the same there)
        return action

    def _vouch(self, action: A.Action) -> None:
        """The next ``apply``, if given this very object, carries it out without the referee's checks, as it does
        ``random_legal``'s: for lv's own players, whose pick the engine's generators listed for this state
        (``bots.play``: ``GreedyBot.pick``'s, when it says so). Any other decision is checked as always."""
        self._vouched = action

    def _why_not_now(self, end: bool) -> tuple[str, str] | None:
        """(rule, reason) nothing but a draw, a reroll or a choice may be made now (the draw not made, or waiting at
        a table), or for ``end`` the turn cannot end yet (not drawn); else None."""
        s = self.state
        if s.phase == "over":
            return ("end", "the game is over")
        waiting = self.engine.why_waiting(s)
        if waiting is not None:
            return waiting
        if end and s.phase == "draw":
            return (DRAW_FIRST, f"{s.players[s.current].name} has not drawn yet: draw, then end the turn")
        return None

    def why_not(self, action: A.Action) -> str | None:
        """The reason ``action`` is illegal now, or None: tried on a copy of the state (ending the turn, which the
        game carries out and not the rules, by the game's own checks)."""
        check_action("why_not", action)
        if isinstance(action, EndTurn):
            refused = self._why_not_now(True)
            return None if refused is None else str(IllegalAction(refused[1], refused[0]))
        if isinstance(action, LayOff):
            if layoff.waiting_gamble(self.state) is None:
                return str(IllegalAction("no gamble waits for its boss's answer", Rule.GAMBLE_LAY_OFF))
            return None
        trial = self.state.copy()
        try:
            self.engine.apply(trial, action, Dice(self.seed, ("probe",)), [])
        except IllegalAction as err:
            return str(err)
        return None

    @property
    def over(self) -> bool:
        """Has the game ended?"""
        return self.state.phase == "over"

    @property
    def result(self) -> Result | None:
        """How the game ended (``Result``: reason, winner, ranking, ``winner_name``), or None while it goes on."""
        return self.state.result

    @property
    def player_names(self) -> list[str]:
        """The players' names in seat order."""
        return [p.name for p in self.state.players]

    def seat(self, name: str) -> int:
        """The seat number of the player called ``name``; LvError if nobody is."""
        names = self.player_names
        if name not in names:
            raise LvError(f"no player is called {name!r}: the players are {', '.join(names)}")
        return names.index(name)

    def player(self, who: str | int) -> PlayerState:
        """A player's state (name, money, score) by name or seat number."""
        return self.state.players[self.seat(who) if isinstance(who, str) else who]

    @property
    def current_player(self) -> str:
        """The name of the player to move (of the last player to move once the game is over)."""
        return self.state.players[self.state.current].name

    def _repr_svg_(self) -> str:
        """The board as SVG, for Jupyter and IPython (as python-chess's ``Board`` shows itself)."""
        from .render import svg

        return svg(self)

    def pieces(self, player: int) -> dict[str, int]:
        """The markers and dice ``player`` (a seat number) still has in hand."""
        c = self.profile.components
        return {"markers_in_hand": c.markers_per_player - len(self.state.markers_on_board(player)),
                "dice_in_hand": c.dice_per_player - len(self.state.dice_on_board(player))}

    def casinos(self) -> list[CasinoView]:
        """Every casino on the board, as ``CasinoView``."""
        s, lots = self.state, self.board.lots
        out = []
        for c in self.engine.casinos(s):
            out.append(CasinoView(lots=c.lots, color=c.color, height=c.height, spaces=c.spaces,
                                  points=self.engine.points(s, c), boss=boss(s, c),
                                  dice=tuple((lot, s.tiles[lot].owner, s.tiles[lot].value) for lot in c.lots),
                                  strip=any(lots[x].strip for x in c.lots)))
        return out

    def casino_at(self, lot: str) -> Casino | None:
        """The casino that holds ``lot``, or None when no tile is there."""
        return self.engine.casino_at(self.state, lot)

    def boss_at(self, lot: str) -> int | None:
        """The seat of the boss of the casino at ``lot``; None when there is no casino there or it has no boss
        (no die in it, or a tie not rerolled yet)."""
        self.engine.lot_check(lot)
        casino = self.casino_at(lot)
        return boss(self.state, casino) if casino is not None else None

    def tiles_left(self) -> dict[str, int]:
        """Casino tiles not on the board, per colour (components.tiles_per_color minus those placed)."""
        return {c: self.engine.available_tiles(self.state, c) for c in self.board.colors}

    def cards_before_end(self) -> int | None:
        """Cards in the draw pile above the end card; None at a table (the pile's order is unknown) or once the
        end card is gone."""
        deck = self.state.deck
        if self.table or END_CARD not in deck:
            return None
        return deck.index(END_CARD)

    @property
    def discards(self) -> list[str]:
        """Cards dealt or drawn, in order (the end card last once drawn)."""
        return list(self.state.discards)

    def discard_piles(self) -> dict[str, list[str]]:
        """The discards on their company's pile (000 L114: "discard your card into the appropriate discard
        pile"), in the order they went there; the end card on none."""
        piles: dict[str, list[str]] = {c: [] for c in (*self.board.colors, STRIP)}  # Strip cards pay the Strip
        for card in self.state.discards:
            if card != END_CARD:
                piles.setdefault(self.board.card_color(card), []).append(card)
        return piles

    def events(self) -> list[Event]:
        """Every event of the game so far, in order: the setup, then each turn's draw and decisions."""
        out = list(self.setup_events)
        for turn in self.history:
            out.extend(turn.draw_events)
            for d in turn.decisions:
                events = d._events  # (a decision's one event read without making its list)
                if events is not None:
                    out.extend(events)
                elif d._one is not None:
                    out.append(d._one)
        return out


def new_game(profile: Profile | str, players: list[str] | int, seed: int | str = 0, **kwargs: Any) -> Game:
    """Create a game: a profile (object or spec such as ``"original+f-block"``), player names or a count
    (names then come from the profile's colours), a seed; keyword arguments as for ``Game``."""
    if isinstance(profile, str):
        profile = load_profile(profile)
    if isinstance(players, int):
        if not profile.players.min <= players <= profile.players.max:
            raise RecordError(f"{players} players: profile '{profile.name}' allows "
                              f"{profile.players.min} to {profile.players.max}")
        players = list(profile.players.colors[:players])
    else:  # names given: one word each, for a new game only (a record is read through Game: it still loads)
        problem = next((p for p in map(new_name_problem, players) if p), None)
        if problem:
            raise RecordError(problem)
    return Game(profile, list(players), seed, **kwargs)

"""The protocol of an action family (``Family``), what its parser is given (``Words``) and what its generator
is given (``Moment``). See the package's docstring (``lv/actions/__init__.py``) for how a family module uses them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

from ..errors import IllegalAction, LvError, NotationError
from ..yamlsource import MAX_DIGITS, one_line

if TYPE_CHECKING:
    from ..board import Board
    from ..casinos import Casino, CasinoIndex, DiceFacts
    from ..chance import Dice
    from ..events import Event
    from ..profile import Profile
    from ..rules import Engine
    from ..state import GameState

T = TypeVar("T")

Reason = tuple[str, str]
"""Why a decision is refused: (rule id, message). Rule ids: ``lv/ruleids.py``."""

Decision = Any
"""A decision: an instance of one of the families' classes (frozen attrs classes with a ``kind``)."""

Parse = Callable[["Words"], Decision]
Format = Callable[[Decision, Sequence[str]], str]
Structured = Callable[[Decision, Sequence[str]], dict[str, Any]]
WhyNot = Callable[["Engine", "GameState", int, Decision], "Reason | None"]
Cost = Callable[["Engine", "GameState", Decision], int]
Apply = Callable[["Engine", "GameState", int, Decision, "Dice", "list[Event]", "dict[str, str]"], None]
Generate = Callable[["Moment", "list[Decision]"], None]
PerCasino = Callable[["Moment", "list[int]"], None]
"""(moment, positions): for each position ``i``, ``moment.casinos[i]`` is (casino, dice facts) and its decisions
go into ``moment.slots[i]`` (see ``Family.generate_casinos``)."""
Active = Callable[["Profile"], bool]

# who a per-casino generator is asked about, relative to the player to move (``Family.casinos``)
BOSSED = "bossed"  # casinos the player is the boss of
DICED = "diced"  # casinos the player has a die in (bossed or not)
RIVALS = "rivals"  # casinos another player is the boss of
EVERY = "every"  # every casino
ROLES = (BOSSED, DICED, RIVALS, EVERY)


@attrs.frozen
class Family:
    """One action family: everything lv knows about an action, found through the table (``lv.actions.FAMILIES``).

    Required: ``name``, ``order``, ``decisions``, ``verbs``, ``parse``, ``format``, ``structured``. The rest is
    optional: a family without ``apply`` is carried out by the game's turn machinery (the draw, the end of a
    turn) or is a trade (``anytime``); without generators it lists nothing (trades are open-ended)."""

    name: str  # "raise": the family's name, and the word of its structured record form (``action: raise``)
    order: int  # where it comes in the table: the order of verbs in help, of ``lv legal``'s groups
    decisions: tuple[type, ...]  # its decision classes; the first is its main one
    verbs: tuple[str, ...]  # words of the notation it parses; the first of each decision class is its group
    parse: Parse  # Words -> decision (raises NotationError)
    format: Format  # decision, names -> text in the notation; format(parse(text)) == text
    structured: Structured  # decision, names -> its structured record form (what the engine writes)
    aliases: tuple[str, ...] = ()  # other spellings of its first verb that it parses (``reorganize``)
    record_kinds: tuple[str, ...] = ()  # ``action:`` words of a structured record decision it reads
    from_record: Callable[[dict[str, Any]], str] | None = None  # a structured record decision -> notation text
    group: Callable[[Decision], str] | None = None  # a decision -> its ``lv legal`` group (default verbs[0])
    listed: bool = True  # its decisions are listed by ``lv legal`` (a trade is not: any exchange may be proposed)
    in_trade: bool = False  # its decisions may be steps of a trade (the current player's actions)
    why_not: WhyNot | None = None  # (engine, state, player, decision) -> Reason or None: the referee's check
    cost: Cost | None = None  # (engine, state, decision) -> dollars a legal decision costs its player now
    apply: Apply | None = None  # carries out a decision the referee has checked (it checks again: keep the safety)
    carry_out: Apply | None = None  # ``apply`` without its checks: for decisions of the family's own generator
    anytime: bool = False  # applied in the draw step as well as the action step, by anyone (a trade)
    by_game: tuple[type, ...] = ()  # decisions the game's turn machinery carries out, refused by the engine
    main_event: str | None = None  # the kind of the event that tells what it did (narrative.py)
    rolls: str | None = None  # the key of its dice in a record's ``dice`` mapping
    table_dice: Callable[[Any, Decision, list[int]], Any] | None = None
    # ^ (game, decision, faces) -> its ``dice`` value, taking the faces it rolls from the front of the list given
    #   at a table (raises IllegalAction naming the rule ``dice`` when too few are given)
    active: Active | None = None  # profile -> does the profile have this action at all (default: yes)
    generate_before: Generate | None = None  # legal decisions listed before the casinos' (builds)
    casinos: str | None = None  # which casinos ``generate_casinos`` is given (ROLES)
    generate_casinos: PerCasino | None = None  # legal decisions at each casino: (moment, rows); see lv/actions
    generate_after: Generate | None = None  # legal decisions listed after the casinos' (end)
    generate_waiting: Callable[["Engine", "GameState", "list[Decision]"], None] | None = None
    # ^ legal decisions outside the action step (the draw)
    legal_order: int | None = None  # its place among the generators, when not ``order`` (see lv/actions)
    profile_keys: tuple[str, ...] = ()  # profile parameters it reads (a house rule's new keys go here)
    parameters: type | None = None
    # ^ a house rule's own profile section, named after the family (``sell:``): an attrs class with a default for
    #   every key and validators like the profile's sections; lv/profile.py loads it strictly, and the family reads
    #   it as ``profile.extension(name)`` (the defaults where a profile does not name the section)
    rules: type | None = None
    # ^ a house rule's own rule ids: a class of constants like lv/ruleids.py's ``Rule`` (dotted ids are its
    #   parameters); ``lv.actions.rule_ids()`` lists them with lv/ruleids.py's
    effect: Callable[["Event", Sequence[str]], str] | None = None
    # ^ (its main event, names) -> what it did, written after its notation (``build A2 gold: -$6, die 2``); the
    #   narrative words only the core's events itself and asks the families for the rest
    told: Callable[["Event", Sequence[str]], "str | None"] | None = None
    # ^ (event, names) -> one of its events as a sentence (``red builds gold on A2: ...``), None for an event not
    #   its own
    effect_sep: str = ": "
    # ^ what comes between its notation and its effect (a gamble's is a space: ``gamble B3 4 at blue's casino: ...``)
    listing: Callable[["Profile", Decision], dict[str, Any]] | None = None
    # ^ (profile, a decision of its generator) -> the decisions it stands for, as ``lv legal`` shows them, where one
    #   listed decision stands for several (a gamble, listed at its largest bet: ``{lot, min, max, lay_off}``)
    listing_text: Callable[[dict[str, Any]], str] | None = None
    # ^ that listing as text (``gamble B3 1..15 [layoff]``); goes with ``listing``
    prepare: Callable[["Profile", "Board"], Any] | None = None
    # ^ tables it computes once per profile and board (costs by size), read by its predicate and its generator
    #   alike as ``engine.tables[name]``: one formula, written once, and no call per casino

    def __attrs_post_init__(self) -> None:
        if self.casinos is not None and self.casinos not in ROLES:
            raise ValueError(f"action family {self.name}: casinos={self.casinos!r}, not one of {ROLES}")
        if (self.casinos is None) != (self.generate_casinos is None):
            raise ValueError(f"action family {self.name}: generate_casinos and casinos go together")
        if (self.listing is None) != (self.listing_text is None):
            raise ValueError(f"action family {self.name}: listing and listing_text go together")

    @property
    def position(self) -> int:
        """Its place among the generators of the legal list."""
        return self.order if self.legal_order is None else self.legal_order


class Words:
    """A decision as words, with the board and the players' names: what a family's ``parse`` reads. Its
    helpers raise NotationError naming the word that is wrong."""

    __slots__ = ("text", "words", "names", "board")

    def __init__(self, text: str, words: list[str], names: Sequence[str], board: Board) -> None:
        self.text = text  # the decision as written, spaces normalised (for messages)
        self.words = words  # text.split(" "): words[0] is the verb, as written
        self.names = names
        self.board = board

    def __len__(self) -> int:
        return len(self.words)

    def word(self, i: int) -> str:
        return self.words[i]

    def fail(self, what: str) -> NotationError:
        return NotationError(f"'{self.text}': {what}")

    def expect(self, n: int, usage: str) -> None:
        if len(self.words) != n:
            raise self.fail(f"expected '{usage}'")

    def lot(self, i: int) -> str:
        word = self.words[i]
        lot = word.upper()
        if lot not in self.board.lots:
            raise self.fail(f"unknown lot '{word}' (lots are A1-A6, B1-B6, C1-C12, D1-D9, E1-E6, F1-F9)")
        return lot

    def color(self, i: int) -> str:
        word = self.words[i]
        color = word.lower()
        if color not in self.board.colors:
            raise self.fail(f"unknown colour '{word}' (colours: {', '.join(self.board.colors)})")
        return color

    def player(self, i: int) -> int:
        word = self.words[i]
        for seat, name in enumerate(self.names):
            if name.lower() == word.lower():
                return seat
        raise self.fail(f"unknown player '{word}' (players: {', '.join(self.names)})")

    def amount(self, i: int) -> int:
        word = self.words[i]
        amount = whole_number(word.lstrip("$"))
        if amount is None:
            raise self.fail(f"'{word}' is not a whole number of dollars")
        return amount

    def sub(self, text: str) -> Words:
        """Other words (a step of a trade) read against the same board and players."""
        return Words(text, text.split(" "), self.names, self.board)


def whole_number(word: str, error: type[LvError] = NotationError) -> int | None:
    """``word`` as a whole number if it is ASCII digits (``str.isdigit`` also takes '²' and Arabic-Indic
    digits), else None; more than MAX_DIGITS digits is ``error``."""
    if not (word.isascii() and word.isdigit()):
        return None
    if len(word) > MAX_DIGITS:
        raise error(f"{one_line(word[:20])}...: number too large (more than {MAX_DIGITS} digits)")
    return int(word)


class Moment:
    """What every generator of the legal list reads, computed once per list: the player to move, their money,
    the tiles left per colour, the closed F block. Generators read the profile and board from here too."""

    __slots__ = ("engine", "state", "profile", "board", "lots", "player", "money", "markers", "closed", "left",
                 "open_colors", "colors_with", "index", "max_height", "tables", "casinos", "slots")

    def __init__(self, engine: Engine, s: GameState) -> None:
        p = engine.profile
        self.engine = engine
        self.profile = p
        self.board = engine.board
        self.lots = engine.board.lots
        self.tables = engine.tables
        self.casinos: list[tuple[Casino, DiceFacts]] = []  # every casino with its dice facts, in board order
        self.slots: list[list[Decision]] = []  # the decisions at each casino, in family order
        self.moment(s)

    def moment(self, s: GameState) -> Moment:
        """This moment of ``s``: what depends on the state worked out again (an engine keeps one ``Moment`` and
        renews it for each list, since the profile, board and tables stay)."""
        self.state = s
        self.player = player = s.current
        self.money: int = s.players[player].money
        self.markers = s.markers
        engine = self.engine
        n = len(s.players)
        per = engine.per_players.get(n)
        if per is None:
            per = engine.per_players[n] = (closed_block(self.profile, n), self.profile.max_height(n))
        self.closed, self.max_height = per  # the closed block, the highest a casino may be raised in this game
        facts: TileFacts | None = s.structure_memo().get("tile_facts")  # tile_facts, no call when it is kept
        self.left, self.open_colors, self.colors_with = facts if facts is not None else tile_facts(engine, s)
        self.index: CasinoIndex = engine.index(s)
        return self

    def colors_with_at_least(self, needed: int) -> tuple[str, ...]:
        """The colours with at least ``needed`` tiles left (``tiles_left(...) >= needed``, in bulk)."""
        colors: tuple[str, ...] | None = self.colors_with.get(needed)
        if colors is None:
            left = self.left
            colors = self.colors_with[needed] = tuple(c for c in self.board.colors if left[c] >= needed)
        return colors


# ------------------------------------------------------------------------------ conditions shared by the
# predicates and the generators (each written once)

def closed_block(profile: Profile, players: int) -> str | None:
    """The block nobody may build on (the F block in a 2-player game, where the profile closes it), or None.
    003 "2-Player Rules" L893-907."""
    return profile.f_block.block if profile.f_block_closed(players) else None


def tiles_left(engine: Engine, s: GameState, color: str) -> int:
    """Tiles of ``color`` still off the board (``components.tiles_per_color``)."""
    return engine.profile.components.tiles_per_color - s.tiles_on_board(color)


TileFacts = tuple[dict[str, int], tuple[str, ...], dict[int, tuple[str, ...]]]


def tile_facts(engine: Engine, s: GameState) -> TileFacts:
    """``tiles_left`` of every colour in bulk, kept until the tiles change: tiles left per colour, the colours
    with any left, and the colours with at least N left, filled in per N on demand."""
    memo = s.structure_memo()
    found = memo.get("tile_facts")
    if found is None:
        per_color, on_board = engine.profile.components.tiles_per_color, s.tile_counts()
        colors = engine.board.colors
        left = {c: per_color - on_board.get(c, 0) for c in colors}
        found = memo["tile_facts"] = left, tuple(c for c in colors if left[c] > 0), {}
    return found


K = TypeVar("K")
V = TypeVar("V")


class Lazy(dict[K, V]):
    """A table of ``formula(key)`` (a cost by number of spaces, by pips): ``keys`` computed at once, any other
    key on first use."""

    def __init__(self, formula: Callable[[K], V], keys: Iterable[K] = ()) -> None:
        super().__init__((k, formula(k)) for k in keys)
        self.formula = formula

    def __missing__(self, key: K) -> V:
        value = self[key] = self.formula(key)
        return value


def not_boss(s: GameState, b: int | None, lot: str) -> str:
    """Why the player is not the boss: nobody is (no die, or a tie), or someone else is."""
    if b is None:
        return f"nobody is the boss of the casino at {lot}"
    return f"you are not the boss of the casino at {lot} ({s.players[b].name} is)"


def refuse(reason: Reason | None) -> None:
    """Raise the refusal ``reason`` as IllegalAction (nothing if None)."""
    if reason is not None:
        raise IllegalAction(reason[1], reason[0])


# ------------------------------------------------------------------------------ wording shared by the families'
# events (``Family.effect``, ``Family.told``) and the narrative (lv/narrative.py)

def casino_text(lots: Iterable[str]) -> str:
    """A casino by its lots: ``C4+C5+C8``."""
    return "+".join(lots)


def dice_text(values: dict[str, int]) -> str:
    """Dice by lot: ``B2 3, B3 5``."""
    return ", ".join(f"{lot} {v}" for lot, v in values.items())


def new_die_text(value: int | None) -> str:
    """The die a new tile got (a build's, a sprawl's): ``die 2``, or none when the player had none left."""
    return f"die {value}" if value is not None else "no die left: the tile has none"

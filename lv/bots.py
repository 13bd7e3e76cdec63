"""Bots: a function from (game, legal decisions, its own generator) to a decision.

A bot reads the game and the legal decisions of the moment and returns one of them (a gamble at any stake from
$1 to the cap listed). It draws its choices from its own generator, which ``play`` seeds from (game seed, seat):
the same seed gives the same bot choices under any profile, so paired games differ only where the rules do.

``uniform``: uniform over the legal decisions of the moment (ending the turn is one of them; a gamble counts once
per casino, at a uniformly random stake from $1 to the cap). The reference workload of the benchmarks.
``random``: ends the turn with probability ``end_bias``, otherwise uniform over the other legal decisions, so
turns are neither all-pass nor all-spend whatever the length of the list.
``random-kind``: a uniformly random kind of decision among those available (build, sprawl, remodel, reorganize,
raise, gamble, end), then a uniformly random one of that kind. Still random and legal, but a remodel no longer
crowds out the rest just because it comes in five colours, so its games use every action (``lv selfplay``).
``greedy``: a sensible player (see ``greedy_bot``).
``mcts``: searches (Monte Carlo tree search over imagined games played by ``greedy``; see mcts.py).
``value``: one decision ahead, judged by a model learned from self-play (``value:FILE``; see evaluate.py).
``value-mcts``: the search of ``mcts``, its positions judged by the ``value`` model instead of played out, the
root's decisions tried in the order ``value`` ranks them (``value_mcts``).

Every bot answers the boss's lay-off (000 L194) where the profile lets the boss lay off (``gamble.lay_off:
boss_option``): ``play`` asks the boss's bot, whose legal list is then the two answers (``LayOff(False)``,
``LayOff(True)``; lv/actions/layoff.py). ``uniform``, ``random`` and ``random-kind`` pick one uniformly; ``greedy``
lays off when the worst roll for the boss would leave it under its reserve (``GreedyBot.lays_off``); ``mcts``
and ``value-mcts`` answer as ``greedy`` does (their imagined games do not ask the lay-off: every imagined gamble is not
laid off).
No built-in bot trades (trades are not in the legal list): a report on games they played can say the trade rules
were not exercised.

A bot is named on the command line as ``NAME`` or ``NAME:PARAM`` (``random:0.3`` ends the turn 30% of the time,
``mcts:100`` searches with 100 playouts per decision).

What each never takes (``never_takes``, as data; a report says which kinds a run never exercised): no built-in bot
ever trades (trades are open-ended, never in the legal list the bots choose from); ``greedy`` never remodels
either, nor takes a house rule's action (it values only build, sprawl, raise, reorganize and gamble). ``uniform``,
``random``, ``random-kind``, ``mcts``, ``value`` and ``value-mcts`` take any kind that is listed (``mcts`` rarely
remodels: it tries first what ``greedy`` likes).

A restricted player (Jaffe et al. 2012, "Evaluating Competitive Game Balance with Restricted Play") is any bot
spec followed by ``/no-KIND[,KIND...]``: ``greedy/no-gamble``, ``mcts:200/no-raise``, ``random/no-build,sprawl``
(``no-`` may be repeated before each kind). The kinds are the action families' names (lv/actions: build, sprawl,
remodel, reorganize, raise, gamble, trade, and a house rule's, such as sell); the draw and the end of the turn are
never restricted. The bot is shown the legal list without those kinds (``Restricted``).
"""

from __future__ import annotations

import importlib
import os
import random
import sys
from typing import TYPE_CHECKING, Callable, Final, Protocol, cast

from . import actions as A
from .board import Board, Lot
from .casinos import Casino, CasinoIndex, DiceFacts, dice_facts
from .chance import below, rng_for
from .errors import IllegalAction, LvError
from .legal import Plan, empty, fill, legal_actions, plan_of, random_pick, staked
from .collector import fewer_collections
from .actions.gamble import gamble_of
from .actions.raise_ import raise_price
from .actions.sprawl import sprawl_cost
from .actions.layoff import LAY_OFF_PHASE, LayOff, asks_boss, waiting_gamble
from .mcts import Mcts, Picker, _View
from .rules import Engine
from .state import GameState

if TYPE_CHECKING:
    from .game import Game
    from .profile import Profile

Bot = Callable[["Game", list[A.Decision], random.Random], A.Decision]


class GameView(Protocol):
    """What the built-in bots read of a game: a ``Game``, or the search's view of an imagined state
    (``mcts._View``). A protocol, not ``Game``: compiled, a parameter typed ``Game`` would refuse the view."""

    @property
    def state(self) -> GameState: ...

    @property
    def engine(self) -> Engine: ...

    @property
    def board(self) -> Board: ...


def random_bot(game: GameView, legal: list[A.Decision], rng: random.Random) -> A.Decision:
    """``uniform``: any legal decision, all equally likely. Never trades (a trade is never listed)."""
    action = rng.choice(legal)
    if isinstance(action, A.Gamble):
        return gamble_of(action.lot, rng.randint(1, action.bet))
    return action


uniform_bot = random_bot


_NO_SLOTS: Final[list[list[A.Decision]]] = []  # ``GreedyBot._scan`` of a joined list: no slots, nothing after it
_NOTHING: Final[list[A.Decision]] = []
_NO_PAIRS: Final[list[tuple[Casino, DiceFacts]]] = []  # ``GreedyBot._scan`` without slots: no casinos of theirs
_GAMBLE: Final = "gamble"  # the gamble family's name (``Plan.without``)


_GREEDY_PLAN: Final = "legal plan/greedy"  # where ``_greedy_plan`` keeps it, with the families' tables


def _greedy_plan(engine: Engine) -> Plan:
    """``plan_of(engine, GREEDY_TAKES)``, kept with the families' tables of the engine's profile under a key of
    its own (``plan_of`` makes its key from the kinds, sorted and joined, at each call)."""
    plan: Plan | None = engine.tables.get(_GREEDY_PLAN)
    if plan is None:
        plan = engine.tables[_GREEDY_PLAN] = plan_of(engine, GREEDY_TAKES)
    return plan


def _drawn(choices: list[A.Decision], rng: random.Random) -> A.Decision:
    """``rng.choice(choices)``: the same draw (``below``), without random.py's Python frames (one choice: no draw)."""
    return choices[0] if len(choices) == 1 else choices[below(rng, len(choices))]


def _end_turn(legal: list[A.Decision]) -> A.Decision:
    """The ``EndTurn`` among the legal decisions (always one while the game goes on)."""
    for action in legal:
        if isinstance(action, A.EndTurn):
            return action
    raise ValueError("no end of turn among the legal decisions")


class RandomBot:
    """``random``: end the turn with probability ``end_bias``, else any other legal decision, equally likely.
    Never trades (a trade is never listed). A value: compared and hashed by its parameter, never changed once
    made."""

    def __init__(self, end_bias: float = 0.25) -> None:
        self.end_bias: Final = end_bias

    def __call__(self, game: GameView, legal: list[A.Decision], rng: random.Random) -> A.Decision:
        others = [a for a in legal if not isinstance(a, A.EndTurn)]
        if len(others) == len(legal):  # no end among them (the boss's lay-off answers): any, equally likely
            return random_bot(game, legal, rng)
        if not others or rng.random() < self.end_bias:
            return _end_turn(legal)
        return random_bot(game, others, rng)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RandomBot) and self.end_bias == other.end_bias

    def __hash__(self) -> int:
        return hash(("random", self.end_bias))

    def __repr__(self) -> str:
        return f"RandomBot(end_bias={self.end_bias!r})"


def random_kind_bot(game: GameView, legal: list[A.Decision], rng: random.Random) -> A.Decision:
    """``random-kind``: a uniformly random kind among the legal decisions, then a random one of it. Never trades
    (a trade is never listed)."""
    kinds: dict[str, list[A.Decision]] = {}
    for action in legal:
        kinds.setdefault(type(action).__name__, []).append(action)
    return random_bot(game, kinds[rng.choice(sorted(kinds))], rng)


REORGANIZE_VALUE: Final = 10  # what ``greedy`` gives a reorganization worth making (``GreedyBot._value``)


class GreedyBot(Picker):
    """``greedy``: plays like a sensible person, one decision at a time, the best-looking first:

    - sprawls and raises casinos it bosses (more points when they score), and builds on its lots where it can
      afford to, in a colour that joins a casino it bosses or that it would take over, never one that hands
      points to a rival;
    - reorganizes a casino where its best die is within ``reorg_gap`` of the boss's (close to taking it);
    - gambles when short of cash (under ``short``), betting half its money up to the cap;
    - keeps ``reserve`` dollars in hand, and otherwise ends the turn;
    - as a casino's boss asked to lay off a gamble (``gamble.lay_off: boss_option``), lays off when the worst roll
      for it would leave it under its reserve (``lays_off``).

    It never remodels, never trades, and never takes a house rule's action (it values none of them: ``never_takes``,
    ``GREEDY_TAKES``). Ties between equally good decisions are broken by its generator. The parameter on the command line
    (``greedy:N``) is the reserve. A value: compared and hashed by its parameters, never changed once made.
    A plain class with precise types (a native one where the bots are compiled): it judges every legal decision
    of every decision of a simulation.
    """

    def __init__(self, reserve: int = 5, short: int = 10, reorg_gap: int = 1) -> None:
        self.reserve: Final = reserve
        self.short: Final = short
        self.reorg_gap: Final = reorg_gap

    def __call__(self, game: GameView, legal: list[A.Decision], rng: random.Random) -> A.Decision:
        if type(legal[0]) is LayOff:  # the boss's answer to a gamble (lv/actions/layoff.py)
            return legal[1] if self.lays_off(game.state) else legal[0]
        if isinstance(game, _View):  # a search's view (most calls): native reads, where the protocol's are lookups
            s, engine = game.state, game.engine
        else:
            s, engine = game.state, game.engine
        choices: list[A.Decision] = []
        end = self._scan(s, engine, legal, _NO_SLOTS, 0, _NOTHING, None, choices)
        if not choices:
            if end is None:
                return _end_turn(legal)  # (raises: no end among them)
            return end
        action = _drawn(choices, rng)
        return self._stake(s, action) if isinstance(action, A.Gamble) else action

    def pick(self, engine: Engine, s: GameState, plan: Plan | None, rng: random.Random) -> tuple[A.Decision, bool]:
        """``Picker.pick``: ``self(view, legal_actions_of(engine, s, plan), rng)`` (the families of ``GREEDY_TAKES``
        when ``plan`` is None: the same decision as from the whole list), the same decision from the same draws, found in the parts of the list (``legal.fill``: before the
        casinos, the slots, after them) without joining them; and whether ``step`` may apply it trusted. It always
        may: the decision is one of the listed objects, or a gamble at a stake from $1 to the one listed at its
        casino (``gamble_of``, not laid off, as the generator lists it; else it is checked). The list leaves out the
        purchases that would leave it less than its reserve (``fill``'s ``keep``): each is worth 0 to it (``_value``),
        so the same decisions are drawn among, in the same order."""
        if plan is None:  # the families of the kinds it values (``GREEDY_TAKES``): a remodel or a house rule's
            #   decision is worth 0 to it (``_value``), never drawn, so none is listed (the same pick)
            plan = _greedy_plan(engine)
        if s.players[s.current].money >= self.short:  # a gamble is worth nothing to it now (``_value``): none
            #   listed (the same pick: a decision valued 0 is never drawn, and the end of the turn is listed after)
            plan = plan.without(engine, _GAMBLE)
        out: list[A.Decision] = []
        after: list[A.Decision] = []
        n = fill(engine, s, out, after, plan, self.reserve)  # (a purchase leaving less than the reserve: worth 0)
        choices: list[A.Decision] = []
        try:
            end = self._scan(s, engine, out, engine.slots, n, after, None, choices)
        except BaseException:
            empty(engine.slots)
            raise
        if not choices:
            if end is None:
                raise ValueError("no end of turn among the legal decisions")
            return end, True
        action = _drawn(choices, rng)
        if isinstance(action, A.Gamble):
            listed: A.Gamble = action
            made = self._stake(s, listed)
            return made, made is listed or made.lay_off is listed.lay_off
        return action, True

    def _stake(self, s: GameState, listed: A.Gamble) -> A.Gamble:
        """The gamble greedy makes at the casino of ``listed`` (listed at its cap): half its money, from $1 up to
        the cap."""
        money = s.players[s.current].money
        return gamble_of(listed.lot, max(1, min(listed.bet, money // 2)))

    def lays_off(self, s: GameState) -> bool:
        """The boss's answer to the gamble that waits for it (000 L194): lay off half of it to the bank when a 2 or
        a 12 (the gambler wins twice the bet) would leave the boss less than its ``reserve``; else keep the whole
        bet. By expected value the boss never lays off (the field bet's edge, 5.6% of the bet, is the boss's;
        laid off, half of it): the lay-off is insurance, bought when a loss would cost the boss its next build."""
        waiting = waiting_gamble(s)
        assert waiting is not None  # asked only while a gamble waits
        _, bet, boss = waiting
        return s.players[boss].money - 2 * bet < self.reserve

    def values(self, game: GameView, legal: list[A.Decision]) -> list[float]:
        """``value`` of each legal decision, in their order. Most of them are builds, each lot in every colour
        with a tile left: what a build's value reads of its lot (can the bot pay for it and keep its reserve,
        the casinos beside it and their dice) is read once a lot, the tiles left once a colour."""
        if isinstance(game, _View):  # a search's view (most calls): native reads, where the protocol's are lookups
            s, engine = game.state, game.engine
        else:
            s, engine = game.state, game.engine
        out: list[float] = []
        self._scan(s, engine, legal, _NO_SLOTS, 0, _NOTHING, out, [])
        return out

    def _scan(self, s: GameState, engine: Engine, first: list[A.Decision], slots: list[list[A.Decision]], count: int,
              last_part: list[A.Decision], out: list[float] | None, choices: list[A.Decision]) -> A.Decision | None:
        """``values`` into ``out`` (when not None), and the decisions of the largest value above 0 in their order
        into ``choices`` (what ``__call__`` draws among; none: every value is 0 or less): one pass, no list of values
        made for a decision. The decisions: ``first``, then those of ``slots[i]`` for ``i`` below ``count`` (each slot
        emptied once read), then ``last_part`` (``legal.fill``'s parts; a joined list is ``first`` alone). Returns
        the first end of the turn among them (None: none)."""
        board = engine.board
        index, lots = engine.index(s), board.lots
        bit_of, near, printed = board.index, board.neighbour_bits, board.printed_dice
        at_bit = index.at_bit
        # the casinos of the slots, with their dice facts (``legal.fill``'s list: slot ``i`` holds the decisions at
        # casino ``i``)
        pairs = _NO_PAIRS
        if count:
            moment = engine.moment
            assert moment is not None  # made by the fill whose slots these are
            pairs = moment.casinos
        me = s.current
        money = s.players[me].money
        reserve = self.reserve
        # a gamble's value (``_value``: the same for every casino), once
        gamble_value = 5.0 if money < self.short else 0.0
        # the lot of the builds last seen (a lot's builds are listed together, one per colour) and what was read of
        # it: the casinos beside it (None: too dear) and its die; a lot seen again is read again, which is the same
        last: str | None = None
        beside: list[tuple[str, DiceFacts]] | None = None
        die = 0
        # a build's colour is found among the board's by identity (the legal list names the board's own strings: a few
        # pointer compares, where a dict by colour is a hash lookup), its tiles on the board by its number (one not
        # found is asked of the engine)
        palette, counts, per_color, prices = board.colors, s.color_counts, engine.tiles_per_color, board.prices
        best = 0.0
        end: A.Decision | None = None
        part = first
        at = -1  # the part read: -1 ``first``, then slot ``at`` below ``count``, then ``last_part`` at ``count``
        while True:
            for action in part:
                if isinstance(action, A.Build):
                    lot, color = action.lot, action.color
                    if lot is not last:  # (the same lot is the same string, the board's: a pointer compare; another
                        #   string of the same lot is read again, the same)
                        last = lot
                        beside = None
                        i = bit_of[lot]
                        if money - prices[i] >= reserve:  # (a build's cost: its lot's price, by bit)
                            beside, die = _beside_bits(s, index, near[i]), printed[i]
                    if beside is None:
                        value = 0.0
                    else:
                        k = 0
                        n = len(palette)
                        while k < n and palette[k] is not color:
                            k += 1
                        # the tiles left of the colour: by its number, as ``tiles_left`` counts them
                        tiles = per_color - counts[k] if k < n else engine.available_tiles(s, color)
                        # (no casino beside: the colour with the most tiles left, ``_colour_value`` without its call)
                        value = 20 + (_colour_value(me, die, tiles, beside, color) if beside else tiles / 10)
                elif isinstance(action, A.Gamble):
                    value = gamble_value
                elif isinstance(action, A.EndTurn):
                    if end is None:
                        end = action
                    value = 0.0
                elif isinstance(action, A.Reorganize):
                    if out is None and best > REORGANIZE_VALUE:
                        continue  # worth REORGANIZE_VALUE at most, less than the best so far: changes nothing
                    if 0 <= at < count:  # a slot's: its casino and dice facts as the list has them, no lookup
                        pair = pairs[at]
                        casino, facts = pair[0], pair[1]
                    else:
                        found = at_bit[bit_of[action.lot]]
                        assert found is not None  # a legal reorganize is of a casino
                        casino, facts = found, dice_facts(s, found)
                    value = self._reorganize_value(s, engine, casino, facts, action, me, money)
                elif isinstance(action, A.Sprawl):  # ``_value``'s, its cost last: worth less than the best so far
                    #   if it is affordable, it changes nothing whatever it costs
                    grown = pairs[at][0] if 0 <= at < count else at_bit[bit_of[action.source]]  # (a slot's casino)
                    assert grown is not None  # a legal sprawl grows a casino
                    value = float(30 + grown.spaces + lots[action.lot].die)
                    if value < best and out is None:
                        continue
                    if money - sprawl_cost(engine, action.lot, grown.height) < reserve:  # (its ``cost``: no lookup)
                        value = 0.0
                elif isinstance(action, A.Raise):  # the same
                    raised = pairs[at][0] if 0 <= at < count else at_bit[bit_of[action.lot]]
                    assert raised is not None  # a legal raise is of a casino
                    value = float(25 + raised.spaces)
                    if value < best and out is None:
                        continue
                    if money - raise_price(engine, raised) < reserve:
                        value = 0.0
                else:
                    value = self._value(s, engine, index, lots, action)
                if out is not None:
                    out.append(value)
                if value > best:
                    best = value
                    if len(choices) == 1:  # (written over: a list emptied frees its array, the next append mallocs)
                        choices[0] = action
                    else:
                        choices.clear()
                        choices.append(action)
                elif value == best and value > 0:
                    choices.append(action)
            if at >= 0 and part and at < count:
                part.clear()  # a slot read: emptied for the next list (``legal.fill``; an empty one is left as it is)
            at += 1
            if at < count:
                part = slots[at]
            elif at == count:
                part = last_part
            else:
                return end

    def value(self, game: GameView, action: A.Decision) -> float:
        """How much the bot likes ``action`` now; 0 or less: not worth it."""
        s, engine = game.state, game.engine
        return self._value(s, engine, engine.index(s), game.board.lots, action)

    def _value(self, s: GameState, engine: Engine, index: CasinoIndex, lots: dict[str, Lot],
               action: A.Decision) -> float:
        """``value``, given what it reads (``index``: the state's casino index, current)."""
        me = s.current
        money = s.players[me].money
        # the casinos read by bit (``index.at_bit``; ``index.at`` is the same by lot id, a call more)
        bit_of, at_bit = engine.board.index, index.at_bit
        if isinstance(action, A.Sprawl):
            if money - engine.action_cost(s, action) < self.reserve:
                return 0
            grown = at_bit[bit_of[action.source]]
            assert grown is not None  # a legal sprawl grows a casino
            return 30 + grown.spaces + lots[action.lot].die
        if isinstance(action, A.Raise):
            if money - engine.action_cost(s, action) < self.reserve:
                return 0
            raised = at_bit[bit_of[action.lot]]
            assert raised is not None  # a legal raise is of a casino
            return 25 + raised.spaces
        if isinstance(action, A.Build):
            if money - engine.action_cost(s, action) < self.reserve:
                return 0
            return 20 + self._colour_value(s, engine, index, lots, action.lot, action.color)
        if isinstance(action, A.Reorganize):
            casino = at_bit[bit_of[action.lot]]
            assert casino is not None  # a legal reorganize is of a casino
            return self._reorganize_value(s, engine, casino, dice_facts(s, casino), action, me, money)
        if isinstance(action, A.Gamble):
            return 5 if money < self.short else 0
        return 0

    def _reorganize_value(self, s: GameState, engine: Engine, casino: Casino, facts: DiceFacts, action: A.Reorganize,
                          me: int, money: int) -> float:
        """``_value`` of a reorganization of ``casino`` (whose dice facts are ``facts``) by ``me``, who has ``money``:
        worth making when its best die there is within ``reorg_gap`` of the top and it keeps its reserve."""
        b = facts.boss  # (tested for None first: compiled, native compares of ints, not generic ones)
        if b is not None and b == me:
            return 0.0
        # my best die there (a legal reorganize: I have one), from the state's flat lists of dice
        owners, values = s.die_owners, s.die_values
        mine = 0
        for i in casino.bits:
            o = owners[i]
            if o is not None and o == me and values[i] > mine:
                mine = values[i]
        assert facts.top is not None  # my die is there
        # (the cost last: most reorganizations are too far from the top to be worth it, whatever they cost)
        if facts.top - mine > self.reorg_gap or money - engine.action_cost(s, action) < self.reserve:
            return 0.0
        return REORGANIZE_VALUE

    def _colour_value(self, s: GameState, engine: Engine, index: CasinoIndex, lots: dict[str, Lot], lot: str,
                      color: str) -> float:
        """Joining a casino it bosses is good, taking one over better, handing points to a rival bad; else
        the colour with the most tiles left (small)."""
        return _colour_value(s.current, lots[lot].die, engine.available_tiles(s, color), _beside(s, index, lots[lot]),
                             color)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, GreedyBot) and self.reserve == other.reserve and self.short == other.short
                and self.reorg_gap == other.reorg_gap)

    def __hash__(self) -> int:
        return hash(("greedy", self.reserve, self.short, self.reorg_gap))

    def __repr__(self) -> str:
        return f"GreedyBot(reserve={self.reserve!r}, short={self.short!r}, reorg_gap={self.reorg_gap!r})"


def _beside(s: GameState, index: CasinoIndex, lot: Lot) -> list[tuple[str, DiceFacts]]:
    """The casinos a tile built on ``lot`` would join, by its neighbours (a casino beside it on two sides comes
    twice): each one's colour and dice. Where casinos join by colour and height, only those of height 1."""
    out: list[tuple[str, DiceFacts]] = []
    by_height = index.by_height
    for n in lot.neighbours:
        casino = index.at.get(n)
        if casino is None or (by_height and casino.height != 1):
            continue
        out.append((casino.color, dice_facts(s, casino)))
    return out


def _beside_bits(s: GameState, index: CasinoIndex, near: tuple[int, ...]) -> list[tuple[str, DiceFacts]]:
    """``_beside`` of the lot whose neighbours' bit positions are ``near`` (``board.neighbour_bits``, in the order
    of the lot's neighbours): the casinos read by bit, no lookup by lot id."""
    out: list[tuple[str, DiceFacts]] = []
    by_height, at_bit = index.by_height, index.at_bit
    for j in near:
        casino = at_bit[j]
        if casino is None or (by_height and casino.height != 1):
            continue
        out.append((casino.color, dice_facts(s, casino)))
    return out


def _colour_value(me: int, die: int, tiles: int, beside: list[tuple[str, DiceFacts]], color: str) -> float:
    """A build's worth in ``color`` (``GreedyBot._colour_value``), from what ``_beside`` read of its lot."""
    value = tiles / 10
    for casino_color, facts in beside:
        if casino_color != color:
            continue
        b, top = facts.boss, facts.top  # (tested for None first: compiled, native compares of ints)
        if b is not None and b == me:
            value += 5
        elif top is None or die > top:
            value += 8
        else:
            return -100
    return value


greedy_bot = GreedyBot()

GREEDY_TAKES: Final = frozenset({"build", "sprawl", "raise", "reorganize", "gamble"})
"""The kinds ``GreedyBot._value`` gives a value above 0 (every other kind is worth nothing to it)."""

BOTS: dict[str, Bot] = {"uniform": uniform_bot, "random": RandomBot(), "random-kind": random_kind_bot,
                        "greedy": greedy_bot,
                        "mcts": Mcts(greedy_bot, greedy_bot.value, greedy_bot.values, policy_kinds=GREEDY_TAKES)}


def bot_named(spec: str) -> Bot:
    """``NAME`` or ``NAME:PARAM``: ``random:0.3`` (end bias), ``greedy:10`` (reserve), ``mcts:200`` (playouts)
    or ``mcts:0.5s`` (seconds per decision); or a user's bot, ``MODULE:FUNCTION`` (``user_bot``); any of them
    followed by a restriction, ``/no-KIND[,KIND...]`` (``Restricted``)."""
    base, kinds = split_restriction(spec)
    if kinds:
        return Restricted(_bot_named(base), kinds)
    return _bot_named(base)


def _bot_named(spec: str) -> Bot:
    """``bot_named`` without a restriction."""
    name, _, param = spec.strip().partition(":")
    if name == "value":  # value:MODEL, a model made by lv train (evaluate.py); value alone: the shipped one
        from .evaluate import value_bot
        return value_bot(param)
    if name == "value-mcts":  # value-mcts[:N[:MODEL]]: the search with the value model (``value_mcts``)
        return value_mcts(param)
    if name not in BOTS:
        if param:
            return user_bot(spec.strip())
        raise LvError(f"bot '{spec}': known bots are {', '.join(BOTS)}, value:MODEL, value-mcts:N:MODEL, or "
                      f"MODULE:FUNCTION for your own")
    if not param:
        return BOTS[name]
    try:
        if not param.isascii():  # float() and int() also read Arabic-Indic digits
            raise ValueError
        if name == "random":
            bias = float(param)
            if not 0 <= bias <= 1:
                raise ValueError
            return RandomBot(bias)
        if name == "greedy":
            return GreedyBot(reserve=int(param))
        if name == "mcts":
            return _mcts(param)
    except ValueError:
        raise LvError(f"bot '{spec}': random takes an end-turn probability from 0 to 1 (random:0.25), greedy a "
                      f"reserve in dollars (greedy:5), mcts playouts per decision (mcts:200) or seconds per "
                      f"decision (mcts:0.5s)") from None
    raise LvError(f"bot '{spec}': {name} takes no parameter")


def restrictable_kinds() -> tuple[str, ...]:
    """The kinds of decision a restriction may name, in the table's order: the name of every action family of
    lv/actions that a player takes (``Family.applies``: not the draw, not the end of the turn), a house rule's
    family included. Read from the table, so a new family is restrictable without a change here."""
    return tuple(f.name for f in A.FAMILIES if f.applies)


def split_restriction(spec: str) -> tuple[str, frozenset[str]]:
    """``greedy/no-gamble,raise`` -> (``greedy``, {gamble, raise}); a spec without ``/`` -> (spec, {}). A bad
    restriction (no ``no-``, an unknown kind, two ``/``) is a one-line LvError naming the known kinds."""
    text = spec.strip()
    base, slash, rest = text.rpartition("/")
    # a '/' inside a bot's parameter is a path (value:models/revised.model), not a restriction
    in_param = ":" in text.partition("/")[0]
    if not slash or (in_param and not rest.startswith("no-")):
        return text, frozenset()
    known = restrictable_kinds()
    if ":" in rest and not in_param:
        raise LvError(f"bot '{spec}': a bot of your own is MODULE:FUNCTION, a module on the Python path or in the "
                      f"current folder (my_bot:choose), not a file's path")
    if ("/" in base and not in_param) or not rest.startswith("no-"):
        raise LvError(f"bot '{spec}': a restriction is /no-KIND[,KIND...] after the bot, e.g. greedy/no-gamble or "
                      f"mcts:200/no-raise,remodel; the kinds are {', '.join(known)}")
    kinds: set[str] = set()
    for word in rest[3:].split(","):
        kind = word.strip()
        if kind.startswith("no-"):
            kind = kind[3:].strip()
        if kind not in known:
            never = " (the draw and the end of the turn are never restricted)" if kind in ("end", "draw") else ""
            raise LvError(f"bot '{spec}': unknown kind of decision '{kind}'{never}; the kinds are {', '.join(known)}")
        kinds.add(kind)
    if not base.strip():
        raise LvError(f"bot '{spec}': name the bot before the restriction, e.g. greedy/no-gamble")
    return base.strip(), frozenset(kinds)


class Restricted:
    """``SPEC/no-KIND[,KIND...]``: ``bot``, never taking a decision of the ``kinds`` (action families' names).

    It is shown the legal list without them (so a random bot draws uniformly among the rest, and greedy takes its
    best of the rest); ending the turn is always among them. A decision it returns of a restricted kind anyway (a
    user's bot that does not choose from the list) is refused in one line, and so is a decision point that offers
    nothing but restricted kinds (none does in lv's games: the turn may always end).

    ``mcts``: the restriction holds at the root, over the decisions the bot plays. Its search still imagines its
    own later decisions unrestricted (in the tree and in the ``greedy`` playouts): it plans as a player who could
    take the kind later, which makes a restricted searcher slightly weaker than the best restricted play, so a
    balance study that finds a kind "matters" may overstate it a little, never understate it.
    A value: compared and hashed by the bot and the kinds."""

    def __init__(self, bot: Bot, kinds: frozenset[str]) -> None:
        self.bot: Final = bot
        self.kinds: Final = kinds
        # the decision classes of the restricted families (a decision's family is found by its exact type)
        self.types: Final = frozenset(cls for f in A.FAMILIES if f.name in kinds for cls in f.decisions)

    def check_profile(self, profile: Profile) -> None:
        """``lv ladder``'s question before any game, asked of the bot restricted (``ValueBot.check_profile``)."""
        check = getattr(self.bot, "check_profile", None)
        if callable(check):
            check(profile)

    def __call__(self, game: GameView, legal: list[A.Decision], rng: random.Random) -> A.Decision:
        types = self.types
        allowed = [a for a in legal if type(a) not in types]
        if not allowed:
            raise LvError(f"a bot restricted from {', '.join(sorted(self.kinds))} is offered nothing else")
        decision = self.bot(game, allowed, rng)  # type: ignore[arg-type]  # the bot reads a game as a GameView
        if type(decision) in types:
            raise LvError(f"a bot restricted from {', '.join(sorted(self.kinds))} chose {decision!r}")
        return decision

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Restricted) and self.bot == other.bot and self.kinds == other.kinds

    def __hash__(self) -> int:
        return hash(("restricted", self.bot, self.kinds))

    def __repr__(self) -> str:
        return f"Restricted({self.bot!r}, no={sorted(self.kinds)!r})"


def split_specs(text: str) -> list[str]:
    """A comma-separated list of bot specs (``--bot``), a restriction's kinds kept with their bot:
    ``random/no-build,sprawl,greedy`` -> [``random/no-build,sprawl``, ``greedy``] (a piece that is a kind, or
    ``no-KIND``, after a restricted spec is one of its kinds: no bot is named like a kind)."""
    kinds = set(restrictable_kinds())
    out: list[str] = []
    for piece in text.split(","):
        word = piece.strip()
        if not word:
            continue
        if out and "/" in out[-1] and (word in kinds or word.startswith("no-")):
            out[-1] += "," + word
        else:
            out.append(word)
    return out


def never_takes(spec: str) -> frozenset[str]:
    """The kinds of decision (``restrictable_kinds``) the bot ``spec`` never takes, whatever the game: its
    restriction's, trades for every built-in bot (they choose from the legal list, which never lists a trade: a
    family that is not ``listed``), and for ``greedy`` every kind it does not value (remodel, a house rule's
    action). Nothing for a user's bot (lv cannot tell). Checks the spec as ``bot_named`` does."""
    bot_named(spec)
    base, kinds = split_restriction(spec)
    name = base.partition(":")[0]
    if name not in BOTS and name not in ("value", "value-mcts"):  # they choose from the legal list, as the
        # built-in bots do
        return kinds
    unlisted = {f.name for f in A.FAMILIES if f.applies and not f.listed}
    if name == "greedy":
        unlisted |= set(restrictable_kinds()) - GREEDY_TAKES
    return frozenset(kinds | unlisted)


def user_bot(spec: str) -> Bot:
    """``MODULE:FUNCTION``: a function with the signature of the built-in bots, ``(game, legal, rng) ->
    decision``, imported from a module on the Python path or in the current directory (as ``python -m``
    finds it)."""
    module_name, _, function = spec.partition(":")
    if not module_name or not function.isidentifier():
        raise LvError(f"bot '{spec}': a bot of your own is MODULE:FUNCTION, e.g. my_bot:choose")
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except ImportError as err:
        raise LvError(f"bot '{spec}': cannot import module '{module_name}' ({err})") from None
    except Exception as err:  # the user's module failed while loading: say so in one line
        raise LvError(f"bot '{spec}': importing '{module_name}' failed: {type(err).__name__}: {err}") from None
    bot = getattr(module, function, None)
    if not callable(bot):
        raise LvError(f"bot '{spec}': module '{module_name}' has no function '{function}'")
    return cast(Bot, bot)  # callable, as checked; its signature is the user's promise (the docstring's)


VALUE_MCTS_ITERATIONS = 100  # ``value-mcts`` alone: iterations per decision


def value_mcts(param: str) -> Mcts:
    """``value-mcts``, ``value-mcts:N`` or ``value-mcts:N:MODEL``: the search of ``mcts`` with N iterations a
    decision (``VALUE_MCTS_ITERATIONS``), each judging the position it reaches by the ``value`` model (MODEL as
    ``value:MODEL`` reads it; none: the shipped one for the game's profile) instead of playing it out, the root's
    decisions tried in the order the ``value`` player ranks them (its look one decision ahead); deeper in the tree,
    ``greedy`` orders them as in ``mcts``, and it answers the boss's lay-off as ``greedy`` does. LvError for a
    count that is not a whole number from 1 to 1,000,000, or a MODEL that cannot be read."""
    from .evaluate import value_bot

    count, _, source = param.partition(":")
    try:
        if not count.isascii():  # int() also reads Arabic-Indic digits
            raise ValueError
        iterations = int(count) if count else VALUE_MCTS_ITERATIONS
        if not 1 <= iterations <= 1_000_000:
            raise ValueError
    except ValueError:
        raise LvError(f"bot 'value-mcts:{param}': value-mcts takes the iterations per decision, a whole number from 1 "
                      f"to 1,000,000, then optionally a model (value-mcts:100:my.model)") from None
    valued = value_bot(source)
    return Mcts(greedy_bot, greedy_bot.value, greedy_bot.values, policy_kinds=GREEDY_TAKES, playouts=iterations,
                horizon=0, leaf=valued.leaf, root=valued.ranked)


def _mcts(param: str) -> Mcts:
    """``200``: playouts per decision; ``0.5s``: seconds per decision."""
    if param.endswith("s"):
        seconds = float(param[:-1])
        if not 0 < seconds <= 3600:
            raise ValueError
        return Mcts(greedy_bot, greedy_bot.value, greedy_bot.values, policy_kinds=GREEDY_TAKES, seconds=seconds)
    playouts = int(param)
    if not 1 <= playouts <= 1_000_000:
        raise ValueError
    return Mcts(greedy_bot, greedy_bot.value, greedy_bot.values, policy_kinds=GREEDY_TAKES,
                playouts=playouts)


def play(game: Game, bots: list[Bot], seed: int | str = 0, max_decisions: int = 100_000,
         legal_counts: list[int] | None = None) -> Game:
    """Play ``game`` to its end, seat i using ``bots[i]``, each with its own generator seeded from (seed, i).
    ``legal_counts``, if given, gets the number of legal decisions at each decision point (the branching
    factor, metrics.summarize)."""
    rngs = [rng_for(seed, "bot", i) for i in range(len(bots))]
    uniform = uniform_bot  # read once (compiled, a module-level function is a dict lookup each time it is read)
    asks = asks_boss(game.profile)  # a gamble waits for its boss's answer (000 L194), which the boss's bot gives
    gamble, end_turn = A.Gamble, A.EndTurn
    # nothing vouched for and no legal list kept from before (``random_legal``, ``legal_actions`` called on this game
    # by its caller): ``Game._apply_own``, which the uniform seats' decisions go through, clears neither
    game._vouched = game._legal = None
    with fewer_collections():  # the cyclic collector less often while the game is played
        for _ in range(max_decisions):
            s = game.state
            phase = s.phase
            if phase != "actions":
                if phase == "over":  # ``game.over``, without its call
                    return game
                if phase == LAY_OFF_PHASE:
                    _answer_lay_off(game, bots, seed, legal_counts)
                    continue
            seat = s.current
            bot = bots[seat]
            if bot is uniform:  # the fast path: the same draw from the generator, no list made; ``Game.random_legal``
                #   written out (a frame fewer a decision): the pick, the stake of a gamble, the decision vouched for
                rng = rngs[seat]
                decision, n = random_pick(game.engine, s, rng)
                if legal_counts is not None:
                    legal_counts.append(n)
                kind = type(decision)
                if kind is gamble:
                    decision = staked(decision, rng)  # type: ignore[arg-type]  # (mypy does not narrow by ``kind``)
                # the engine's own decision in the action step, applied as such (``Game._apply_own``, without
                #   ``apply``'s tests of its keywords), but the end of the turn (vouched for) and a gamble whose boss is
                #   asked (below)
                if phase == "actions" and kind is not end_turn and not (asks and kind is gamble):
                    try:
                        game._apply_own(decision)
                    except IllegalAction as err:
                        raise _illegal(game, seat, decision, err) from None
                    continue
                game._vouched = decision
            elif type(bot) is GreedyBot and legal_counts is None:  # greedy's pick from the parts of the list, the
                #   same decision from the same draws (``GreedyBot.pick``): no list joined, none it would not value
                greedy: GreedyBot = bot
                decision, trusted = greedy.pick(game.engine, s, None, rngs[seat])
                if trusted:  # the engine's own decision for this state: applied without the checks
                    game._vouch(decision)
            else:
                legal = legal_actions(game.engine, s)  # (not the game's method: it keeps a copy for push)
                if legal_counts is not None:
                    legal_counts.append(len(legal))
                decision = bot(game, legal, rngs[seat])
            if asks and type(decision) is gamble:  # the boss answers, not the gambler: the boss is asked
                decision = gamble(decision.lot, decision.bet, None)
            try:
                game.apply(decision)
            except IllegalAction as err:
                raise _illegal(game, seat, decision, err) from None
    raise RuntimeError(f"game did not end within {max_decisions} decisions")


def _illegal(game: Game, seat: int, decision: object, err: IllegalAction) -> LvError:
    """The error of a bot's decision the game refused (``play``)."""
    return LvError(f"turn {game.state.turn}: the bot of {game.player_names[seat]} chose an illegal decision "
                   f"({decision!r}): {err}")


def _answer_lay_off(game: Game, bots: list[Bot], seed: int | str, legal_counts: list[int] | None) -> None:
    """The boss's bot answers the gamble that waits for it (``play``). Each answer is drawn from a generator of its
    own, seeded from (seed, "lay-off", turn, the gamble's place in the turn), not from the boss's: the bots' other
    choices are drawn as in the same game under ``gamble.lay_off: none``, so paired games differ only where a
    boss lays off."""
    s = game.state
    boss = game.to_move
    legal = legal_actions(game.engine, s)
    if legal_counts is not None:
        legal_counts.append(len(legal))
    answer = bots[boss](game, legal, rng_for(seed, "lay-off", s.turn, len(game.current_turn.decisions)))
    try:
        game.apply(answer)
    except IllegalAction as err:
        raise LvError(f"turn {s.turn}: the bot of {game.player_names[boss]} gave an illegal answer to the lay-off "
                      f"({answer!r}): {err}") from None

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

A bot is named on the command line as ``NAME`` or ``NAME:PARAM`` (``random:0.3`` ends the turn 30% of the time,
``mcts:100`` searches with 100 playouts per decision).
"""

from __future__ import annotations

import importlib
import os
import random
import sys
from typing import TYPE_CHECKING, Callable, cast

import attrs

from . import actions as A
from .casinos import dice_facts
from .chance import rng_for
from .errors import IllegalAction, LvError
from .mcts import Mcts, fewer_collections

if TYPE_CHECKING:
    from .game import Game

Bot = Callable[["Game", list[A.Decision], random.Random], A.Decision]


def random_bot(game: Game, legal: list[A.Decision], rng: random.Random) -> A.Decision:
    """``uniform``: any legal decision, all equally likely."""
    action = rng.choice(legal)
    if isinstance(action, A.Gamble):
        return A.Gamble(action.lot, rng.randint(1, action.bet))
    return action


uniform_bot = random_bot


@attrs.frozen
class RandomBot:
    """``random``: end the turn with probability ``end_bias``, else any other legal decision, equally likely."""

    end_bias: float = 0.25

    def __call__(self, game: Game, legal: list[A.Decision], rng: random.Random) -> A.Decision:
        others = [a for a in legal if not isinstance(a, A.EndTurn)]
        if not others or rng.random() < self.end_bias:
            return next(a for a in legal if isinstance(a, A.EndTurn))
        return random_bot(game, others, rng)


def random_kind_bot(game: Game, legal: list[A.Decision], rng: random.Random) -> A.Decision:
    kinds: dict[str, list[A.Decision]] = {}
    for action in legal:
        kinds.setdefault(type(action).__name__, []).append(action)
    return random_bot(game, kinds[rng.choice(sorted(kinds))], rng)


@attrs.frozen
class GreedyBot:
    """``greedy``: plays like a sensible person, one decision at a time, the best-looking first:

    - sprawls and raises casinos it bosses (more points when they score), and builds on its lots where it can
      afford to, in a colour that joins a casino it bosses or that it would take over, never one that hands
      points to a rival;
    - reorganizes a casino where its best die is within ``reorg_gap`` of the boss's (close to taking it);
    - gambles when short of cash (under ``short``), betting half its money up to the cap;
    - keeps ``reserve`` dollars in hand, and otherwise ends the turn.

    Ties between equally good decisions are broken by its generator. The parameter on the command line
    (``greedy:N``) is the reserve.
    """

    reserve: int = 5
    short: int = 10
    reorg_gap: int = 1

    def __call__(self, game: Game, legal: list[A.Decision], rng: random.Random) -> A.Decision:
        best, choices = 0.0, []
        for action in legal:
            value = self.value(game, action)
            if value > best:
                best, choices = value, [action]
            elif value == best and value > 0:
                choices.append(action)
        if not choices:
            return next(a for a in legal if isinstance(a, A.EndTurn))
        action = choices[0] if len(choices) == 1 else rng.choice(choices)
        if isinstance(action, A.Gamble):
            money = game.state.players[game.state.current].money
            return A.Gamble(action.lot, max(1, min(action.bet, money // 2)))
        return action

    def value(self, game: Game, action: A.Decision) -> float:
        """How much the bot likes ``action`` now; 0 or less: not worth it."""
        s, engine, lots = game.state, game.engine, game.board.lots
        me = s.current
        money = s.players[me].money
        if isinstance(action, A.Sprawl):
            if money - engine.action_cost(s, action) < self.reserve:
                return 0
            grown = engine.casino_at(s, action.source)
            assert grown is not None  # a legal sprawl grows a casino
            return 30 + grown.spaces + lots[action.lot].die
        if isinstance(action, A.Raise):
            if money - engine.action_cost(s, action) < self.reserve:
                return 0
            raised = engine.casino_at(s, action.lot)
            assert raised is not None  # a legal raise is of a casino
            return 25 + raised.spaces
        if isinstance(action, A.Build):
            if money - engine.action_cost(s, action) < self.reserve:
                return 0
            return 20 + self.colour_value(game, action.lot, action.color, lots[action.lot].die)
        if isinstance(action, A.Reorganize):
            casino = engine.casino_at(s, action.lot)
            assert casino is not None  # a legal reorganize is of a casino
            facts = dice_facts(s, casino)
            if facts.boss == me or money - engine.action_cost(s, action) < self.reserve:
                return 0
            # a tile with an owner has its die (Tile: owner and face together); a legal reorganize: one of mine
            mine = max(cast(int, s.tiles[lot].value) for lot in casino.lots if s.tiles[lot].owner == me)
            assert facts.top is not None  # my die is there
            return 10 if facts.top - mine <= self.reorg_gap else 0
        if isinstance(action, A.Gamble):
            return 5 if money < self.short else 0
        return 0

    def colour_value(self, game: Game, lot: str, color: str, die: int) -> float:
        """Joining a casino it bosses is good, taking one over better, handing points to a rival bad; else
        the colour with the most tiles left (small)."""
        s, engine = game.state, game.engine
        value = engine.available_tiles(s, color) / 10
        by_height = engine.profile.casino.join_rule == "color_and_height"
        for n in game.board.lots[lot].neighbours:
            casino = engine.casino_at(s, n)
            if casino is None or casino.color != color or (by_height and casino.height != 1):
                continue
            facts = dice_facts(s, casino)
            if facts.boss == s.current:
                value += 5
            elif facts.top is None or die > facts.top:
                value += 8
            else:
                return -100
        return value


greedy_bot = GreedyBot()

BOTS: dict[str, Bot] = {"uniform": uniform_bot, "random": RandomBot(), "random-kind": random_kind_bot,
                        "greedy": greedy_bot, "mcts": Mcts(greedy_bot, greedy_bot.value)}


def bot_named(spec: str) -> Bot:
    """``NAME`` or ``NAME:PARAM``: ``random:0.3`` (end bias), ``greedy:10`` (reserve), ``mcts:200`` (playouts)
    or ``mcts:0.5s`` (seconds per decision); or a user's bot, ``MODULE:FUNCTION`` (``user_bot``)."""
    name, _, param = spec.strip().partition(":")
    if name not in BOTS:
        if param:
            return user_bot(spec.strip())
        raise LvError(f"bot '{spec}': known bots are {', '.join(BOTS)}, or MODULE:FUNCTION for your own")
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


def _mcts(param: str) -> Mcts:
    """``200``: playouts per decision; ``0.5s``: seconds per decision."""
    if param.endswith("s"):
        seconds = float(param[:-1])
        if not 0 < seconds <= 3600:
            raise ValueError
        return Mcts(greedy_bot, greedy_bot.value, seconds=seconds)
    playouts = int(param)
    if not 1 <= playouts <= 1_000_000:
        raise ValueError
    return Mcts(greedy_bot, greedy_bot.value, playouts=playouts)


def play(game: Game, bots: list[Bot], seed: int | str = 0, max_decisions: int = 100_000,
         legal_counts: list[int] | None = None) -> Game:
    """Play ``game`` to its end, seat i using ``bots[i]``, each with its own generator seeded from (seed, i).
    ``legal_counts``, if given, gets the number of legal decisions at each decision point (the branching
    factor, metrics.summarize)."""
    rngs = [rng_for(seed, "bot", i) for i in range(len(bots))]
    with fewer_collections():  # the cyclic collector less often while the game is played
        for _ in range(max_decisions):
            if game.over:
                return game
            seat = game.state.current
            bot = bots[seat]
            if bot is uniform_bot:  # the fast path: the same draw from the generator, no list made
                decision = game.random_legal(rngs[seat], legal_counts)
            else:
                legal = game.legal_actions()
                if legal_counts is not None:
                    legal_counts.append(len(legal))
                decision = bot(game, legal, rngs[seat])
            try:
                game.apply(decision)
            except IllegalAction as err:
                raise LvError(f"turn {game.state.turn}: the bot of {game.player_names[seat]} chose an illegal "
                              f"decision ({decision!r}): {err}") from None
    raise RuntimeError(f"game did not end within {max_decisions} decisions")

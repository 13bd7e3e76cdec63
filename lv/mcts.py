"""``mcts``: a bot that searches, by determinized (information-set) Monte Carlo tree search over lv's decisions.

The bot knows what a player at the table knows: the board, the money, the cards drawn so far. It does not know
the order of the draw pile, nor where exactly the end card lies in it: 000 L43 and 003 L170-176 put it on top
of the 4th of "4 roughly equal stacks", so each imagined game (a *determinization*) shuffles the unseen cards
anew and puts the end card at a depth drawn uniformly within ``END_CARD_SPREAD`` cards of a quarter of the
cards left after dealing, among the depths that agree with the end card not having come up yet (a profile that
puts it at the bottom of the pile says exactly where it is). Dice are chance: every roll of an imagined game
comes from the bot's own generator, never from the game's seed, so it cannot know the dice the game will roll.

One search, per decision (SO-ISMCTS, Cowling, Powley and Whitehouse 2012): a tree of decisions (the bot's and
the other players', each node's reward counted for the player who took the decision), shared by all the
determinizations; each iteration determinizes, walks down the tree choosing among the decisions legal in its
own determinization by UCB1 with availability counts, adds one decision, plays the imagined game to its end
(the ``greedy`` bot for every player for ``HORIZON`` turns, then only the draws: what the board scores by the
end, at a fraction of the cost of playing greedily to the end), and backs up the result. The reward of each player is half
the win (1 for the winner, 0 for the others) and half its share of the points, so a playout that loses still
says by how much. A gamble is offered at two stakes, the cap and half of it (rounded up), not at every stake
from $1, to keep the branching factor sane. The decision played is the most visited one. A node whose state is
the same in every determinization that reaches it (the root, and the nodes reached from such a node by decisions
that drew no card and rolled no die: ``_Node.fixed``) lists its decisions and orders them once, not at each visit.

Budget: ``mcts:200`` is 200 playouts per decision (the default); ``mcts:0.5s`` searches for half a second per
decision, which depends on the machine and its load, so it does not give the same game twice. The generator
of each decision is seeded by (game seed, "mcts", seat, turn, decision number), never global state: with a
playout budget, the same seed gives the same game.

Imagined games run on copies of the ``GameState`` (``GameState.copy``: plain containers, tiles shared since they
are frozen) with the ``Engine`` directly, no ``Game``: no history, no records, events thrown away.
"""

from __future__ import annotations

import math
import random
import time
from typing import TYPE_CHECKING, Any, Callable, Final

import attrs

from . import actions as A
from .actions.gamble import gamble_of
from .board import END_CARD, Board
from .chance import Dice, below, rng_for, shuffle
from .collector import fewer_collections
from .legal import Plan, legal_actions, legal_actions_of, plan_of
from .rules import Engine
from .state import GameState

if TYPE_CHECKING:
    from .game import Game
    from .profile import Profile

Action = Any  # a decision (lv.actions); the search only compares and applies them

END_CARD_SPREAD: Final = 2  # "roughly equal stacks": the bot believes the end card lies within 2 cards of a quarter
WIN_WEIGHT: Final = 0.5  # reward = WIN_WEIGHT * won + (1 - WIN_WEIGHT) * share of the points
HORIZON: Final = 8  # turns of each imagined game played by the policy; then the players only draw, to the end
WIDENING: Final = 4  # a node visited N times chooses among its 1 + floor(sqrt(N / WIDENING)) best-liked decisions
EXPLORATION: Final = 0.7  # UCB1's constant for rewards in [0, 1] (sqrt(2)/2)
MAX_PLAYOUT_DECISIONS: Final = 20_000  # a policy that never ends its turns is a bug, not a long game
_END = A.EndTurn()
_GAMBLE: Final = A.Gamble  # (compiled, a C static: ``A.Gamble`` outside an isinstance is a lookup in the package)


@attrs.frozen
class Mcts:
    """``mcts:N`` (N playouts per decision) or ``mcts:Xs`` (X seconds per decision)."""

    policy: Callable[[Any, list[Action], random.Random], Action]  # plays the imagined games (bots.greedy_bot)
    prior: Callable[[Any, Any], float] | None = None  # how much the policy likes a decision (GreedyBot.value)
    # the same for every decision of a list at once (GreedyBot.values: what it reads of a lot is read once)
    priors: Callable[[Any, list[Action]], list[float]] | None = None
    playouts: int = 200
    # the kinds of decision (action families' names) the policy may take: its imagined games list only those
    # (``legal_actions_of``), the draw and the end always; None: all. For a policy that values nothing else, the
    # same choices (bots.GREEDY_TAKES)
    policy_kinds: frozenset[str] | None = None
    seconds: float | None = None  # a time budget instead of a number of playouts (not reproducible)
    # judges an imagined game's position once the policy has played ``horizon`` turns, each player's value, instead
    # of its draws to the end (the ``value`` model: ``value-mcts``)
    leaf: Callable[[Engine, GameState], list[float]] | None = None
    # orders the root's decisions, best first, before the search (the widening admits the first ones): the
    # ``value`` model's look one decision ahead (``value-mcts``); None: as ``prior`` orders them
    root: Callable[[Any, list[Action], random.Random], list[Action]] | None = None
    exploration: float = EXPLORATION
    horizon: int = HORIZON
    widening: int = WIDENING

    def check_profile(self, profile: Profile) -> None:
        """``lv ladder``'s question before any game, asked of the bot whose model judges the leaves
        (``value-mcts``: ``ValueBot.check_profile``); a search without one plays any profile."""
        check = getattr(getattr(self.leaf, "__self__", None), "check_profile", None)
        if callable(check):
            check(profile)

    def __call__(self, game: Game, legal: list[Action], rng: random.Random) -> Action:
        """The most visited decision after the search; ``rng`` is used only by ``root`` (the search seeds its
        own generator)."""
        if len(legal) == 1:
            return legal[0]
        if type(legal[0]) is A.LayOff:  # the boss's lay-off, not searched: the policy's answer (bots.py)
            return self.policy(game, legal, rng)
        s = game.state
        key = rng_for(game.seed, "mcts", s.current, s.turn, len(game.current_turn.decisions))
        engine, quiet, mute = game.engine, game.engine.quiet, game.engine.mute
        engine.quiet = engine.mute = True  # the imagined games' events are thrown away: none is made
        try:
            order: list[Action] | None = None
            if self.root is not None:
                order = self.root(game, legal, rng)
                if len(order) == 1:
                    return order[0]
            with fewer_collections():
                search = _Search(self, game, key)
                search.root_order = order
                return search.run(legal)
        finally:
            engine.quiet, engine.mute = quiet, mute


class Picker:
    """A playout policy that picks without the legal list being joined (``bots.GreedyBot``): an ``Mcts`` whose
    ``policy`` is one plays its imagined games by ``pick`` rather than by the policy's call on the joined list."""

    def pick(self, engine: Engine, s: GameState, plan: Plan | None, rng: random.Random) -> tuple[Action, bool]:
        """What the policy would choose, with the same draws, among ``legal_actions_of(engine, s, plan)`` (all the
        families when ``plan`` is None); and True if ``_Search.step`` may apply it trusted (``_listed``)."""
        raise NotImplementedError


# The search itself: plain classes with precise types (native classes where this module is compiled: the tree's
# nodes, the view and the search's settings are C structs, its loops C). ``Mcts`` stays an attrs value (the API).

class _Node:
    def __init__(self) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.reward = 0.0  # summed over visits, for the player who took the decision leading here
        self.avail = 1  # iterations in which this decision was legal (ISMCTS availability)
        # its state is the same in every iteration that reaches it, but for the draw pile: the root's, and a node
        # reached from such a node by a decision that drew no card and rolled no die (``_Search.step``). Its legal
        # list and their order, made once, are then its list and order in every iteration
        self.fixed = False
        self.legal: list[Action] | None = None
        self.order: list[Action] | None = None


class _View:
    """What a bot reads of a game (``state``, ``engine``, ``board``), over an imagined state."""

    def __init__(self, state: GameState, engine: Engine, board: Board) -> None:
        self.state = state
        self.engine = engine
        self.board = board


def choices(legal: list[Action]) -> list[Action]:
    """The decisions the search tells apart: a gamble at its cap and at half of it (rounded up)."""
    out: list[Action] = []
    for action in legal:
        if isinstance(action, A.Gamble) and action.bet > 1:
            out.append(action)
            out.append(gamble_of(action.lot, (action.bet + 1) // 2))
        else:
            out.append(action)
    return out


class _Search:
    def __init__(self, bot: Mcts, game: Game, rng: random.Random) -> None:
        # the bot's settings, read once (compiled: native fields, not an attrs object's attributes)
        self.policy: Callable[[Any, list[Action], random.Random], Action] = bot.policy
        # the policy's pick from the parts of the legal list, where it has one (compiled: a native call)
        policy: object = bot.policy  # (as an object: ``isinstance`` of a Callable narrows to no type mypyc keeps)
        self.picker: Picker | None = policy if isinstance(policy, Picker) else None
        self.prior: Callable[[Any, Any], float] | None = bot.prior
        self.priors: Callable[[Any, list[Action]], list[float]] | None = bot.priors
        kinds = bot.policy_kinds
        # what the imagined games list for the policy (its kinds' families), found once
        self.plan: Plan | None = None if kinds is None else plan_of(game.engine, kinds)
        self.playouts: int = bot.playouts
        self.seconds: float | None = bot.seconds
        self.exploration: float = bot.exploration
        self.horizon: int = bot.horizon
        self.widening: int = bot.widening
        self.leaf: Callable[[Engine, GameState], list[float]] | None = bot.leaf
        self.rng = rng
        self.engine: Engine = game.engine
        self.board: Board = game.board
        self.root_state: GameState = game.state
        self.players = len(game.state.players)
        self.depths = self._end_card_depths(game)
        s = game.state
        # the unseen cards in board order, once: each determinization shuffles a copy of this list
        index = self.board.index
        self.unseen: list[str] = sorted((c for c in s.deck if c != END_CARD), key=index.__getitem__)
        self.end_unseen = END_CARD in s.deck  # the end card is in the pile (every determinization's: the root's)
        self.root_order: list[Action] | None = None  # the root's decisions as ``ordered`` sorts them, made once
        self.dice = Dice.sampled(rng)  # the dice of every step of the imagined games (``step``), made once
        self.events: list[Any] = []  # what the steps tell (nothing: the engine is mute), one list for all of them

    def _end_card_depths(self, game: Game) -> tuple[int, int]:
        """The depths (cards under it) the end card may lie at, as far as a player can know: within the
        spread of a quarter of the cards left after dealing (exactly 0 under ``end_card_depth: bottom``), at most
        the cards left unseen."""
        s = game.state
        unseen = sum(1 for c in s.deck if c != END_CARD)
        if END_CARD not in s.deck:
            return 0, 0
        if game.profile.deck.end_card_depth != "quarter":
            return 0, 0
        drawn_in_play = sum(len(t.cards) for t in game.history)
        after_dealing = len(s.deck) - 1 + drawn_in_play
        nominal = after_dealing // 4
        low, high = max(0, nominal - END_CARD_SPREAD), min(unseen, nominal + END_CARD_SPREAD)
        return (low, high) if low <= high else (unseen, unseen)

    def determinize(self) -> GameState:
        s = self.root_state.copy()
        # in board order before shuffling: what the search imagines depends on which cards are unseen, never
        # on their true order
        unseen = list(self.unseen)
        rng = self.rng
        shuffle(rng, unseen)
        if self.end_unseen:
            low, high = self.depths
            under = low + below(rng, high - low + 1)  # rng.randint(low, high): the same number
            unseen.insert(len(unseen) - under, END_CARD)
        s.deck = unseen
        return s

    def run(self, legal: list[Action]) -> Action:
        root = _Node()
        root.fixed = True
        seconds = self.seconds
        if seconds is not None:
            deadline = time.perf_counter() + seconds
            self.iterate(root, legal)
            while time.perf_counter() < deadline:
                self.iterate(root, legal)
        else:
            for _ in range(max(1, self.playouts)):
                self.iterate(root, legal)
        best: Action = None
        most = -1
        for action in choices(legal):  # in the order listed: ties go to the first
            child = root.children.get(action)
            if child is not None and child.visits > most:
                best, most = action, child.visits
        return best

    def step(self, s: GameState, action: Action, legal: list[Action] | None = None, trusted: bool = False) -> bool:
        """Take ``action`` in the imagined game ``s``; ``legal``: the list the families' generator made for ``s``,
        whose very objects the engine applies without the referee's checks (``Engine.apply``'s ``trusted``: they
        would all pass), and so a gamble at a lower stake than one listed at its casino (a gamble at half its
        listed stake, greedy's bet: ``_listed``); any other decision is checked. True: no chance came into it (no
        card drawn, no die rolled), so the state it leads to follows from ``s`` and ``action`` alone. ``trusted``:
        applied trusted without ``legal`` (a ``Picker``'s pick, which says it may be)."""
        dice = self.dice  # rolled from the search's generator, as one Dice.sampled a step would be
        dice.forget()
        events = self.events  # (none is made: the engine is mute; one list for every step, not one each)
        if isinstance(action, A.EndTurn):
            self.engine.begin_turn(s, (s.current + 1) % self.players, dice, events)
            drawn = True
        else:
            self.engine.apply(s, action, dice, events, None, trusted or (legal is not None and _listed(action, legal)))
            drawn = False
        if events:
            events.clear()
        # chance: a card drawn (the turn ended), or a die rolled (a gamble, a reorganization, a tie: each roll is
        # noted in ``dice.used``)
        return not drawn and not dice.used

    def ordered(self, view: _View, legal: list[Action], first: int = -1) -> list[Action]:
        """The decisions to tell apart, best-liked by the policy first (``prior``), ending the turn right after
        the ones it likes, the rest in the order listed; with ``first`` >= 0, only the first ``first`` of them
        (what the widening admits: picked out, not the whole list sorted)."""
        prior, priors = self.prior, self.priors
        values: list[float] = []
        if priors is not None:  # the values of the listed decisions at once; a gamble's half stake as its cap
            listed = priors(view, legal)
            options: list[Action] = []  # ``choices(legal)``, made in the same pass
            i = 0
            for a in legal:
                value = listed[i]
                i += 1
                options.append(a)
                values.append(value)
                if isinstance(a, A.Gamble) and a.bet > 1:
                    options.append(gamble_of(a.lot, (a.bet + 1) // 2))
                    values.append(value)
        elif prior is not None:
            options = choices(legal)
            for a in options:
                values.append(prior(view, a))
        else:
            return choices(legal)
        if 0 <= first < len(options):
            return _best_first(options, values, first)
        keyed: list[tuple[float, bool, int]] = []
        for i, a in enumerate(options):
            end = isinstance(a, A.EndTurn)
            keyed.append((-(0.0 if end else values[i]), not end, i))
        keyed.sort()  # the keys are unique (their index): the same order as sorting by them with the decisions
        return [options[k[2]] for k in keyed]

    def iterate(self, root: _Node, legal: list[Action]) -> None:
        engine, c, widening = self.engine, self.exploration, self.widening
        s = self.determinize()
        view = _View(s, engine, self.board)
        node = root
        path: list[_Node] = [root]  # each node, and who took the decision into it (``takers``; -1: none)
        takers: list[int] = [-1]
        while s.phase != "over":
            player = s.current
            # progressive unpruning (Chaslot et al. 2008): the more visits, the more of the best-liked decisions.
            # The root's order is the same in every determinization (the policy does not read the draw pile), and so
            # is its list: no family's generator or check reads the deck, the one thing a determinization changes
            admitted = _admitted(node.visits, widening)
            if node is root:
                order = self.root_order
                if order is None:
                    order = self.root_order = self.ordered(view, legal)
                allowed = order[:admitted]
            elif node.fixed:  # the same list as every time, valued the same (``_Node.fixed``): ordered once
                order = node.order
                if order is None:
                    order = node.order = self.ordered(view, legal)
                allowed = order[:admitted]
            else:
                allowed = self.ordered(view, legal, admitted)
            children = node.children
            untried: Action = None
            found = False
            kids: list[_Node] = []  # the children of ``allowed``, in its order: each looked up once
            for a in allowed:
                child = children.get(a)
                if child is None:
                    if not found:
                        untried, found = a, True
                else:
                    child.avail += 1
                    kids.append(child)
            if found:
                child = _Node()
                children[untried] = child
                quiet = self.step(s, untried, legal)
                child.fixed = node.fixed and quiet
                path.append(child)
                takers.append(player)
                break
            best: Action = None
            best_child = node
            best_value = -math.inf
            i = 0
            for a in allowed:  # (every one has its child here, in ``kids``)
                ch = kids[i]
                i += 1
                # (math.log of a float: compiled, a C call; of an int, a Python one. The same number, n < 2**1023)
                value = ch.reward / ch.visits + c * math.sqrt(math.log(float(ch.avail)) / ch.visits)
                if value > best_value:
                    best, best_child, best_value = a, ch, value
            node = best_child
            self.step(s, best, legal)
            path.append(node)
            takers.append(player)
            if node.fixed:  # its list, made once (the same every time)
                kept = node.legal
                if kept is None:
                    kept = node.legal = legal_actions(engine, s)
                legal = kept
            else:
                legal = legal_actions(engine, s)
        reward = self.playout(s) if s.phase != "over" else _reward(s)
        i = 0
        for n in path:
            n.visits += 1
            who = takers[i]
            i += 1
            if who >= 0:
                n.reward += reward[who]

    def playout(self, s: GameState) -> list[float]:
        """Play the imagined game to its end: the policy for ``horizon`` turns, then every player ends the turn
        at once (the draws still pay and score), so the board is judged by what it scores by the end of the
        game; each player's reward."""
        policy, rng, engine, plan, leaf, picker = self.policy, self.rng, self.engine, self.plan, self.leaf, self.picker
        view = _View(s, engine, self.board)
        horizon = s.turn + self.horizon
        for _ in range(MAX_PLAYOUT_DECISIONS):
            if s.phase == "over":
                return _reward(s)
            if s.turn >= horizon:
                if leaf is not None:
                    return leaf(engine, s)
                self.step(s, _END)
            elif picker is not None:  # no list joined, no check of the pick against it
                action, trusted = picker.pick(engine, s, plan, rng)
                self.step(s, action, None, trusted)
            else:
                legal = legal_actions(engine, s) if plan is None else legal_actions_of(engine, s, plan)
                self.step(s, policy(view, legal, rng), legal)
        raise RuntimeError(f"an imagined game did not end within {MAX_PLAYOUT_DECISIONS} decisions")


def _admitted(visits: int, widening: int) -> int:
    """``1 + math.isqrt(visits // widening)``, natively (compiled, ``math.isqrt`` is a Python call)."""
    n = visits // widening
    r = 0
    while (r + 1) * (r + 1) <= n:
        r += 1
    return 1 + r


def _listed(action: Action, legal: list[Action]) -> bool:
    """``action`` is one of the very objects of ``legal`` (not merely equal to one), or a gamble at a stake from $1
    to that of a gamble listed at the same casino: the generator lists a casino's gamble at its cap (``bet_cap``),
    and a bet passes the gamble's checks (``why_not_bet``) whatever its stake from $1 to the cap, so it would pass
    them too."""
    for a in legal:
        if a is action:
            return True
    if type(action) is not _GAMBLE:
        return False
    gamble: A.Gamble = action
    lot, bet, lay_off = gamble.lot, gamble.bet, gamble.lay_off
    if bet < 1:
        return False
    for a in legal:
        if type(a) is _GAMBLE:
            listed: A.Gamble = a
            # (``is``: True, False and None are one object each; compiled, a pointer compare, not a generic one)
            if listed.lot == lot and listed.lay_off is lay_off and bet <= listed.bet:
                return True
    return False


def _best_first(options: list[Action], values: list[float], first: int) -> list[Action]:
    """The first ``first`` decisions of ``_Search.ordered``'s order, found without sorting the list: the largest
    value first, ending the turn (valued 0) before another decision of the same value, then the order listed.
    One pass keeps the best ``first`` seen so far in that order (``ordered``'s keys are unique: the same start as
    the sorted list's)."""
    kept: list[int] = []  # indexes of the best so far, best first
    kept_values: list[float] = []
    kept_ends: list[bool] = []
    i = 0
    for a in options:
        end = isinstance(a, A.EndTurn)
        value = 0.0 if end else values[i]
        # where it goes among those kept: after every one at least as good (a larger value; the same value and
        # an end, or not an end itself: listed before it)
        k = len(kept)
        while k > 0:
            v = kept_values[k - 1]
            if v > value or (v == value and (kept_ends[k - 1] or not end)):
                break
            k -= 1
        if k < first:
            kept.insert(k, i)
            kept_values.insert(k, value)
            kept_ends.insert(k, end)
            if len(kept) > first:
                kept.pop()
                kept_values.pop()
                kept_ends.pop()
        i += 1
    return [options[j] for j in kept]


def _reward(s: GameState) -> list[float]:
    """Each player's reward at the end of a game: ``WIN_WEIGHT`` for the winner, the rest shared by points."""
    players = s.players
    n = len(players)
    total = 0
    for p in players:
        total += p.score
    result = s.result
    winner = result.winner if result is not None else -1
    out: list[float] = []
    for i in range(n):
        # (the same sums as WIN_WEIGHT * (i == winner) + ...: 0.5 * True is 0.5, 0.5 * False is 0.0)
        won = WIN_WEIGHT if i == winner else 0.0
        out.append(won + (1 - WIN_WEIGHT) * (players[i].score / total if total else 1 / n))
    return out

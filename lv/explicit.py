"""Lords of Vegas with every chance event an explicit node: the game OpenSpiel and PettingZoo play.

    >>> from lv.explicit import ExplicitGame
    >>> g = ExplicitGame("original+f-block", 2)
    >>> while not g.over:
    ...     if g.is_chance:
    ...         outcome = g.chance_outcomes()[0][0]     # or sample by the probabilities
    ...         g.apply(outcome)
    ...     else:
    ...         g.apply(g.legal()[0])
    >>> g.returns(), g.to_record()["format"]

The game is played at a table (``lv.Game(table=True)``): lv deals, draws and rolls nothing itself, every card
and die comes from outside, here from a chance node with its true probabilities:

- the deal: each card dealt is one node, uniform over the lot cards not dealt yet (in a 2-player game under the
  F-block rule an F card is dealt, discarded and replaced, 003 L901-902);
- the first player: each die of the starting rolls is a node (2d6 each, the tied highest roll again);
- each card drawn: uniform over the lot cards not seen, except where the end card may lie. The end card is
  placed with floor(N/4) cards under it (``deck.end_card_depth: quarter``; ``bottom``: under none), N the cards
  left after the deal, so it comes up exactly when those above it are drawn. ``spread`` reads "4 roughly equal
  stacks" (000 L43, 003 L170-176) less strictly: the depth is uniform within ``spread`` cards of that, and each
  draw turns up the end card with its probability given that it has not come up yet;
- each die rolled: a gamble's two, a reorganize's one per die in the casino (placed in board order of their
  lots, as lv places generated rolls), and every tie reroll the decision or the draw causes, one node each.

A player's decision is one action id (``lv.actionspace``); a gamble's stake is part of it; where the profile
lets the casino's boss lay off half the bet (``gamble.lay_off``), the boss answers in a decision node of its own
before the dice: lv's game waits for that answer as at any table (lv/actions/layoff.py), and the node is that
wait. Where a player has run out of markers or dice, the piece moved is lv's default (the cheapest
lot, the lowest die: ``resources.*``), since lv's legal list does not offer the choice either. Trades are left
out. Nothing is hidden: 003 L236 "There is no hidden information", and the deck has no order before it is drawn,
so every player has seen the same history (``information_state``) and the position says all a player needs.

``to_record()`` is the lv-game/1 record of the game (``lv check`` verifies it): a table game, its deal, its
starting rolls, each draw's cards and every die.
"""

from __future__ import annotations

import random
from typing import Any, Final

from . import actions as A
from .actions.layoff import LayOff, asks_boss, waiting_gamble
from .actionspace import DIE, LAY_OFF, NO_LAY_OFF, ActionSpace
from .board import END_CARD, Board, load_board
from .errors import IllegalAction, LvError
from .events import TieRerolled
from .game import Game
from .profile import Profile, load_profile
from .record import record_of
from .ruleids import Rule
from .yamlsource import one_line

CHANCE: Final = -1  # who moves at a chance node (OpenSpiel's kChancePlayerId)
TERMINAL: Final = -4  # who moves once the game is over (OpenSpiel's kTerminalPlayerId)

# what the game waits for (``ExplicitGame.node``)
DEAL: Final = "deal"  # a card dealt (chance)
ROLL: Final = "roll"  # a die of the starting rolls (chance)
DRAW: Final = "draw"  # a card turned over by the draw (chance)
DICE: Final = "dice"  # a die a decision or the draw rolls (chance)
BOSS: Final = "boss"  # the casino's boss: lay off half the bet or not (a decision)
ACT: Final = "act"  # the player to move: an action of lv's legal list (a decision)
OVER: Final = "over"
NODES: Final = (DEAL, ROLL, DRAW, DICE, BOSS, ACT, OVER)

_DRAW_NAMED: Final = Rule.DRAW_NAMED


class ExplicitGame:
    """A game under ``profile`` (a ``Profile`` or any spec: ``"revised"``, ``"original+f-block"``, a variant
    file) for ``players`` players named after the profile's colours. ``spread``: see the module docstring."""

    def __init__(self, profile: Profile | str, players: int, *, spread: int = 0, board: Board | None = None,
                 space: ActionSpace | None = None, seed: int | str = 0):
        if isinstance(profile, str):
            profile = load_profile(profile)
        if not isinstance(profile, Profile):  # the API's callers (PettingZoo, OpenSpiel) pass what they are given
            raise LvError(f"profile {one_line(repr(profile))}: give a Profile or a profile spec "
                          "(a variant's name or file, as 'lv variants list' shows)")
        for what, value in (("players", players), ("spread", spread)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise LvError(f"{what} {one_line(repr(value))}: a whole number")
        p = profile.players
        if not p.min <= players <= p.max:
            raise LvError(f"{players} players: profile '{profile.label}' allows {p.min} to {p.max}")
        if spread < 0:
            raise LvError(f"spread {spread}: the end card's spread is 0 or more cards")
        self.board = board or (space.board if space is not None else load_board())
        if spread > len(self.board.order):  # the depths are counted one by one: 10**9 would take minutes
            raise LvError(f"spread {spread}: at most {len(self.board.order)}, the lot cards in the deck")
        self.profile = profile
        self.space = space or ActionSpace(profile, players, self.board)
        self.names = list(p.colors[:players])
        self.spread = spread
        self.seed = seed  # lv's game's seed: its record's, and what lv's own bots seed their searches with
        block = profile.f_block.block if profile.f_block_closed(players) else None
        self.skipped = frozenset(lot for lot, info in self.board.lots.items() if info.block == block)
        # the setup, before lv's game exists
        self.dealt: list[str] = []  # every card dealt, in order (skipped F cards too)
        self.deal: dict[str, list[str]] = {name: [] for name in self.names}
        self.kept = [0] * players
        self.rounds: list[dict[str, list[int]]] = []  # the starting rolls, round by round
        self.contenders = list(range(players))
        self.game: Game | None = None
        self.pile = 0  # the cards left after the deal
        self.depths: tuple[int, ...] = ()  # the end card's possible depths (cards under it)
        self.drawn = 0  # cards turned over from the pile since the deal
        # a step under way: a draw waiting for its next card, a decision waiting for dice or the boss's answer
        self.step: Any = None
        self.waiting: str | None = None  # DRAW or DICE while ``step`` waits (BOSS: lv's game waits, ``node``)
        self.faces: list[int] = []  # the dice rolled for ``step`` so far (or for the starting rolls' round)
        self.log: list[int] = []  # every id applied, chance outcomes and decisions alike: the history
        self._legal: list[int] | None = None

    # ------------------------------------------------------------------ where the game stands
    @property
    def node(self) -> str:
        """What the game waits for: one of ``NODES``."""
        if self.game is None:
            return DEAL if min(self.kept) < self.profile.setup.starting_cards else ROLL
        if self.waiting is not None:
            return self.waiting
        if waiting_gamble(self.game.state) is not None:  # lv's game waits for the boss's answer
            return BOSS
        if self.game.over:
            return OVER
        return DRAW if self.game.state.phase == "draw" else ACT

    @property
    def over(self) -> bool:
        return self.node == OVER

    @property
    def is_chance(self) -> bool:
        return self.node in (DEAL, ROLL, DRAW, DICE)

    @property
    def current_player(self) -> int:
        """The seat to decide, ``CHANCE`` at a chance node, ``TERMINAL`` once the game is over."""
        node = self.node
        if node == ACT:
            assert self.game is not None
            return self.game.state.current
        if node == BOSS:
            assert self.game is not None
            return self.game.to_move  # the boss the gamble waits for
        return TERMINAL if node == OVER else CHANCE

    def legal(self) -> list[int]:
        """The ids the player to move may choose, ascending: lv's legal list, each gamble at every stake."""
        if self._legal is None:
            node = self.node
            if node == BOSS:
                self._legal = [NO_LAY_OFF, LAY_OFF]
            elif node == ACT:
                game, space = self._live(), self.space
                ids: list[int] = []
                for decision in game.legal_actions():
                    if type(decision) is A.Gamble:
                        ids.extend(space.gambles(decision))
                    else:
                        ids.append(space.encode(decision, game))
                self._legal = sorted(ids)
            else:
                self._legal = []
        return list(self._legal)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(outcome, probability) of the chance node, ascending; empty elsewhere."""
        node = self.node
        if node in (ROLL, DICE):
            return [(DIE + face, 1 / 6) for face in range(6)]
        if node == DEAL:
            seen = set(self.dealt)
            left = [i for i, lot in enumerate(self.board.order) if lot not in seen]
            return [(i, 1 / len(left)) for i in left]
        if node == DRAW:
            unseen = self.unseen()
            turned = self.drawn + (len(self.step.cards) if self.step is not None else 0)
            # the end card lies after pile - depth cards; those depths not turned up yet remain possible
            depths = [d for d in self.depths if self.pile - d >= turned]
            now = sum(1 for d in depths if self.pile - d == turned)
            end = now / len(depths) if depths else 1.0
            if not unseen:
                end = 1.0
            out = [(self.space.lot_index[lot], (1 - end) / len(unseen)) for lot in unseen] if end < 1 else []
            return out + ([(self.space.card_outcome(END_CARD), end)] if end > 0 else [])
        return []

    def unseen(self) -> list[str]:
        """The lot cards nobody has seen (not dealt, not drawn), in board order."""
        seen = set(self.game.discards) if self.game is not None else set(self.dealt)
        if self.step is not None and self.waiting == DRAW:
            seen.update(self.step.cards)
        return [lot for lot in self.board.order if lot not in seen]

    def returns(self) -> list[float]:
        """Each player's return: 0 until the game is over, then by lv's ranking (the winner first, then points,
        money, the earlier seat): the winner 1, the last -1, evenly between (rank r of n: 1 - 2r/(n-1)); they
        sum to 0."""
        n = len(self.names)
        if self.game is None or self.game.result is None:
            return [0.0] * n
        out = [0.0] * n
        for rank, seat in enumerate(self.game.result.ranking):
            out[seat] = 1 - 2 * rank / (n - 1)
        return out

    # ------------------------------------------------------------------ playing
    def apply(self, action: int) -> None:
        """Apply a chance outcome or a decision (an id); LvError if it is not one of the node's."""
        node = self.node
        if node == OVER:
            raise LvError("the game is over")
        chance = node in (DEAL, ROLL, DRAW, DICE)
        allowed = [o for o, _ in self.chance_outcomes()] if chance else self.legal()
        if action not in allowed:
            raise LvError(f"{action} is not a legal {'outcome' if chance else 'action'} here ({node})")
        self._legal = None
        self.log.append(action)
        if node == DEAL:
            self._deal(self.board.order[action])
        elif node == ROLL:
            self._roll(action - DIE + 1)
        elif node == DRAW:
            cards = self.step.cards if self.step is not None else ()
            self.step, self.waiting = A.Draw((*cards, self.space.outcome_card(action))), None
            self._settle()
        elif node == DICE:
            self.faces.append(action - DIE + 1)
            self.waiting = None
            self._settle()
        elif node == BOSS:  # the gamble with the boss's answer, which its dice follow
            self.step = A.Gamble(self.step.lot, self.step.bet, action == LAY_OFF)
            self._settle()
        else:
            self.step = self.space.decode(action)
            if type(self.step) is A.Gamble and asks_boss(self.profile):
                # 000 L194: the boss's option, before the roll: lv's game asks the boss
                self._live().apply(A.Gamble(self.step.lot, self.step.bet, None))
                return
            self._settle()

    def random_play(self, rng: random.Random) -> None:
        """Play to the end: chance by its probabilities, decisions uniformly among the legal ids."""
        while not self.over:
            if self.is_chance:
                outcomes = self.chance_outcomes()
                self.apply(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
            else:
                self.apply(rng.choice(self.legal()))

    def _live(self) -> Game:
        if self.game is None:
            raise LvError("the game is still being set up")
        return self.game

    def _deal(self, card: str) -> None:
        seat = self.kept.index(min(self.kept))  # round by round, in seat order (003 L178-199)
        self.dealt.append(card)
        self.deal[self.names[seat]].append(card)
        if card not in self.skipped:
            self.kept[seat] += 1

    def _roll(self, face: int) -> None:
        """000 L57 / 003 L279-281: 2d6 each, the tied highest roll again."""
        self.faces.append(face)
        if len(self.faces) < 2 * len(self.contenders):
            return
        rolls = {self.names[c]: self.faces[2 * i:2 * i + 2] for i, c in enumerate(self.contenders)}
        self.rounds.append(rolls)
        self.faces = []
        best = max(sum(v) for v in rolls.values())
        self.contenders = [c for c in self.contenders if sum(rolls[self.names[c]]) == best]
        if len(self.contenders) == 1:
            self.game = game = Game(self.profile, self.names, self.seed, board=self.board, table=True, deal=self.deal,
                                    starting_rolls=self.rounds)
            self.pile = len(self.board.order) - len(self.dealt)
            if self.profile.deck.end_card_depth == "quarter":
                middle = self.pile // 4
                self.depths = tuple(d for d in range(middle - self.spread, middle + self.spread + 1)
                                    if 0 <= d <= self.pile)
            else:
                self.depths = (0,)
            assert game.state.phase == "draw"

    def _settle(self) -> None:
        """Carry out ``step`` with the dice rolled so far, or find what it still waits for: another card (the
        draw turned over an F card it skips), another die (its own, or a tie's reroll)."""
        game, step = self._live(), self.step
        faces = list(self.faces)
        dice: dict[str, Any] = {}
        family = A.FAMILY_OF[type(step)]
        if family.rolls is not None:
            try:
                dice[family.rolls] = family.table_dice(game, step, faces)
            except IllegalAction:
                self.waiting = DICE
                return
        ties: dict[str, list[int]] = {}
        given = 0
        while True:
            if ties:
                dice["ties"] = ties
            saved = game.state.copy(), len(game.history), len(game.current_turn.decisions)
            try:
                if type(step) is A.EndTurn:
                    events = game.apply(step, draw=False)
                elif waiting_gamble(game.state) is not None:  # the boss's answer, then the gamble's dice
                    events = game.apply(LayOff(step.lay_off is True), dice=dice)
                else:
                    events = game.apply(step, dice=dice)
            except IllegalAction as err:
                if type(step) is A.Draw and err.rule == _DRAW_NAMED:  # an F card skipped: the next card too
                    self.waiting = DRAW
                    return
                raise
            rolled = [lot for e in events if isinstance(e, TieRerolled) for lot in e.lots]
            if len(rolled) <= given:
                break
            _undo(game, saved)  # a tie reroll lv rolled itself: roll it here, as a chance node
            if not faces:
                self.waiting = DICE
                return
            ties.setdefault(rolled[given], []).append(faces.pop(0))
            given += 1
        if type(step) is A.Draw:
            self.drawn += len(step.cards)
        self.step, self.waiting, self.faces = None, None, []

    # ------------------------------------------------------------------ reading
    def action_text(self, action: int) -> str:
        """A decision in lv's notation (``gamble C5 12``), the boss's answer, or a chance outcome."""
        return self.space.text(action)

    def outcome_text(self, outcome: int) -> str:
        return self.space.outcome_text(outcome)

    def history_text(self) -> str:
        """The public history: every chance outcome and decision so far, as ids."""
        return " ".join(map(str, self.log))

    def to_record(self) -> dict[str, Any]:
        """The game as an lv-game/1 record (plain data; ``lv.record.dumps`` writes it): a game at a table, its
        deal, its starting rolls, each draw's cards, the dice of every decision."""
        if self.waiting is not None or self.node == BOSS:
            raise LvError(f"a {self.node} is under way: finish it before writing the record")
        return record_of(self._live(), self.profile.label)

    def __deepcopy__(self, memo: dict[int, Any]) -> ExplicitGame:
        """A copy as cheap as the state allows: the profile, board and numbering are shared (never changed),
        lv's game copied with ``Game.copy``."""
        twin: ExplicitGame = object.__new__(ExplicitGame)
        twin.__dict__.update(self.__dict__)
        twin.dealt, twin.kept, twin.contenders = list(self.dealt), list(self.kept), list(self.contenders)
        twin.deal = {k: list(v) for k, v in self.deal.items()}
        twin.rounds = [{k: list(v) for k, v in r.items()} for r in self.rounds]
        twin.faces, twin.log = list(self.faces), list(self.log)
        twin.game = self.game.copy() if self.game is not None else None
        return twin

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as the profile, the players, the spread and the history: replayed when loaded."""
        return (replayed, (self.profile, len(self.names), self.spread, list(self.log), self.seed))


def replayed(profile: Profile | str, players: int, spread: int, log: list[int], seed: int | str = 0) -> ExplicitGame:
    """The game after the ids of ``log``."""
    game = ExplicitGame(profile, players, spread=spread, seed=seed)
    for action in log:
        game.apply(action)
    return game


def _undo(game: Game, saved: tuple[Any, int, int]) -> None:
    """Put ``game`` back as it was before a decision (the state, and its turns and decisions)."""
    state, turns, decisions = saved
    game.state.restore(state)
    del game.history[turns:]
    del game.history[turns - 1].decisions[decisions:]

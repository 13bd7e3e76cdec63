"""The legal decisions of the current player, from the action families' generators (``lv/actions``).

A gamble is listed once per casino, with the largest bet allowed (any bet from $1 up to it is legal; the
boss may lay off where the profile allows). Trades are not enumerated: any combination can be proposed.

Each family's generator is its predicate (``why_not``) evaluated in bulk, built from the same helpers: one pass
over the casinos with each casino's boss, dice and frontier looked up once, because bots ask for the list before
every decision. The order is fixed, since the uniform bot picks by index: the families' ``generate_before``
(builds), then for each casino in board order the ``generate_casinos`` of each family asked about it (sprawl,
remodel, raise, reorganize, gamble), then ``generate_after`` (end). ``tests/test_legal_agrees.py`` checks, over
random games and random positions under every profile, that each listed decision passes its predicate and
every other candidate fails it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final, cast

from . import actions as A
from .actions._family import BOSSED, DICED, NO_COST, RIVALS, ROLES, Decision, Family, Moment
from .board import Board
from .casinos import Casino, DiceFacts
from .chance import below
from .profile import Profile
from .rules import Engine
from .state import GameState


class _Plan:
    """The families of one profile that generate, in order, for each part of the list; the casino generators with
    the role of the casinos they take (its place in ``ROLES``: compiled, an int compare); whether their
    decisions may be kept per block (every one of them has ``thresholds``)."""

    __slots__ = ("before", "after", "waiting", "casinos", "keep")

    def __init__(self, profile: Profile) -> None:
        families = sorted((f for f in A.FAMILIES if f.active(profile)), key=lambda f: f.position)
        self.before: tuple[Family, ...] = tuple(f for f in families if f.generates_before)
        self.after: tuple[Family, ...] = tuple(f for f in families if f.generates_after)
        self.waiting: tuple[Family, ...] = tuple(f for f in families if f.generates_waiting)
        self.casinos: tuple[tuple[int, Family], ...] = tuple((ROLES.index(f.casinos), f) for f in families
                                                             if f.casinos)
        self.keep: bool = all(f.thresholds for _, f in self.casinos)


# the roles' places in ROLES (``_Plan.casinos``); Final: compiled, C constants
_BOSSED: Final = 0
_DICED: Final = 1
_RIVALS: Final = 2
assert (ROLES[_BOSSED], ROLES[_DICED], ROLES[_RIVALS]) == (BOSSED, DICED, RIVALS)


def _plan(engine: Engine) -> _Plan:
    """The plan of the engine's profile, kept with the families' tables of the profile (shared by its games)."""
    plan = engine.tables["legal plan"] = _Plan(engine.profile)
    return plan


class _Block:
    """One block's legal decisions (at its casinos, in board order, each casino's in family order) and what they
    were made from: the casino index's list of the block's casinos with their dice (``block_pairs``: the same
    list, the same tiles and dice), the markers and the locked dice on the block, the costs the mover's money
    was tested against (it covered ``paid``, not ``unpaid``), the tiles left per colour and the most of a colour
    asked for, and where it has a rival's casino, the gambles and the bosses' money (``_Kept.bets``)."""

    __slots__ = ("pairs", "markers", "locks", "paid", "unpaid", "left", "need", "bets", "made")

    def __init__(self) -> None:
        self.pairs: list[tuple[Casino, DiceFacts]] | None = None  # None: nothing kept
        self.markers = 0
        self.locks = 0
        self.paid = 0
        self.unpaid = 0
        self.left: dict[str, int] = {}
        self.need = 0
        self.bets = -1  # ``_Kept.bets`` when made, -1: no rival's casino on the block (no bet asked about)
        self.made: list[Decision] = []


class _Kept:
    """The blocks' decisions kept from list to list (``Moment.kept``), for one turn of one player. ``bets``
    counts the changes of the turn's gambles and the other players' money (a boss's money caps a bet)."""

    __slots__ = ("turn", "player", "gambles", "money", "bets", "locks", "blocks")

    def __init__(self, blocks: int) -> None:
        self.turn = -1
        self.player = -1
        self.gambles = -1
        self.money: list[int] = []
        self.bets = 0
        self.locks = [0] * blocks  # locked dice per block, in this list
        self.blocks = [_Block() for _ in range(blocks)]

    def renew(self, s: GameState, player: int, board: Board) -> None:
        """Forget every block's decisions unless they were made in this turn of this player; count a change of
        the gambles or the other players' money; count the locked dice per block."""
        players = s.players
        if self.turn != s.turn or self.player != player or len(self.money) != len(players):
            self.turn, self.player = s.turn, player
            for block in self.blocks:
                block.pairs = None
        same = self.gambles == s.gambles
        money = self.money
        if same and len(money) == len(players):
            seat = 0
            for p in players:
                if seat != player and money[seat] != p.money:
                    same = False
                    break
                seat += 1
        else:
            same = False
        if not same:
            self.gambles = s.gambles
            self.money = [p.money for p in players]
            self.bets += 1
        locks = self.locks
        for n in range(len(locks)):
            locks[n] = 0
        if s.reorganized:  # locks only come with new dice in play, but a position may be made by hand
            index, number = board.index, board.block_number
            for lot in s.reorganized:
                locks[number[index[lot]]] += 1


def _same_left(was: dict[str, int], now: dict[str, int], need: int) -> bool:
    """Do ``was`` and ``now`` (tiles left per colour) agree on which colours have at least k left, every k up to
    ``need``?"""
    if need:
        for color, n in now.items():
            m = was[color]
            if m != n and (m < need or n < need):
                return False
    return True


def _fill(engine: Engine, s: GameState, out: list[Decision], after: list[Decision], keep: bool = True
          ) -> list[list[Decision]]:
    """The legal decisions, in three parts: before the casinos into ``out`` (builds; in the draw step, the
    draw), the casinos' returned, one list per block (do not change them: they may be kept for the next list),
    after them into ``after`` (end). ``keep``: a block's decisions may be the ones kept from an earlier list
    where nothing they depend on changed (``_Block``); else all are made anew (and nothing is kept)."""
    plan: _Plan | None = engine.tables.get("legal plan")  # typed: compiled, native reads of its attributes
    if plan is None:
        plan = _plan(engine)
    if s.phase != "actions":  # resting at "X is to draw": the draw (and trades, never listed)
        for waiting in plan.waiting:
            waiting.generate_waiting(engine, s, out)
        return []
    m = engine.moment
    m = Moment(engine, s) if m is None else m.moment(s)
    engine.moment = m
    for before in plan.before:
        before.generate_before(m, out)
    index = m.index
    blocks = index.block_pairs()
    player, money, left = m.player, m.money, m.left
    m.casinos = casinos = index.with_dice(s.tiles)
    n = len(blocks)
    kept: _Kept | None = None
    if keep and plan.keep:
        kept = m.kept
        if kept is None:
            kept = m.kept = _Kept(n)
        kept.renew(s, player, m.board)
    slots = engine.slots  # kept from list to list (emptied after use): no new lists
    block_at = m.block_at
    while len(slots) < len(casinos):
        slots.append([])
        block_at.append(0)
    m.slots = slots
    paid, unpaid, need = m.paid, m.unpaid, m.need
    while len(paid) < n:
        paid.append(0)
        unpaid.append(NO_COST)
        need.append(0)
    markers, block_masks = s.markers_mask, m.board.block_masks
    bets = kept.bets if kept is not None else 0
    locks = kept.locks if kept is not None else []
    lists: list[list[Decision] | None] = []  # None: the block's to make
    # the positions of the casinos of each role (Family.casinos) in the blocks to make
    bossed: list[int] = []
    diced: list[int] = []
    rivals: list[int] = []
    every: list[int] = []
    fresh = 0  # the blocks to make, as a mask of their numbers
    rival = 0  # those with a rival's casino
    start = number = 0
    for pairs in blocks:
        end = start + len(pairs)
        block = kept.blocks[number] if kept is not None else None
        if (block is not None and block.pairs is pairs and block.markers == markers & block_masks[number]
                and block.paid <= money < block.unpaid and (block.bets < 0 or block.bets == bets)
                and block.locks == locks[number] and (block.left is left or _same_left(block.left, left, block.need))):
            block.left = left
            lists.append(block.made)
        elif start == end:
            lists.append(_NONE)
        else:
            lists.append(None)
            fresh |= 1 << number
            paid[number], unpaid[number], need[number] = 0, NO_COST, 0
            for i in range(start, end):
                block_at[i] = number
                every.append(i)
                facts = casinos[i][1]
                b = facts.boss
                if b is not None and b == player:
                    bossed.append(i)
                    diced.append(i)
                else:
                    for owner in facts.owners:  # ``player in facts.owners``: compiled, native compares
                        if owner == player:
                            diced.append(i)
                            break
                    if b is not None:
                        rivals.append(i)
                        rival |= 1 << number
        start = end
        number += 1
    if fresh:
        _make(plan, m, bossed, diced, rivals, every)
        start = number = 0
        for pairs in blocks:
            end = start + len(pairs)
            if fresh >> number & 1:
                made: list[Decision] = []
                for i in range(start, end):  # each casino's decisions, in board order
                    slot = slots[i]
                    if slot:
                        made.extend(slot)
                        slot.clear()
                lists[number] = made
                if kept is not None:
                    block = kept.blocks[number]
                    block.pairs, block.markers, block.left, block.made = pairs, markers & block_masks[number], left, made
                    block.paid, block.unpaid, block.need = paid[number], unpaid[number], need[number]
                    block.bets = bets if rival >> number & 1 else -1
                    block.locks = locks[number]
            start = end
            number += 1
    for last in plan.after:
        last.generate_after(m, after)
    return cast(list[list[Decision]], lists)


_NONE: list[Decision] = []  # a block without a casino (never changed)


def _make(plan: _Plan, m: Moment, bossed: list[int], diced: list[int], rivals: list[int], every: list[int]) -> None:
    """Ask the families about the casinos of each role, each family once (the decisions go into ``m.slots``)."""
    try:
        for role, family in plan.casinos:
            if role == _BOSSED:
                mine = bossed
            elif role == _DICED:
                mine = diced
            elif role == _RIVALS:
                mine = rivals
            else:  # EVERY
                mine = every
            if mine:  # a family with no casino to look at is not asked
                family.generate_casinos(m, mine)
    except BaseException:
        for slot in m.slots:  # leave nothing behind for the next list
            slot.clear()
        raise


def legal_actions(engine: Engine, s: GameState, keep: bool = True) -> list[Decision]:
    """Every legal decision of the player to move, in the list's order. ``keep=False``: every block's decisions
    made anew (what the kept ones are checked against, tests/test_legal_kept.py)."""
    out: list[Decision] = []
    after: list[Decision] = []
    for made in _fill(engine, s, out, after, keep):
        out.extend(made)
    out.extend(after)
    return out


def _at(out: list[Decision], lists: list[list[Decision]], after: list[Decision], i: int) -> Decision:
    """The ``i``-th decision of ``out``, then the lists, then ``after``, without joining them."""
    if i < len(out):
        return out[i]
    i -= len(out)
    for made in lists:
        if i < len(made):
            return made[i]
        i -= len(made)
    return after[i]


def _joined(engine: Engine, s: GameState) -> tuple[list[Decision], list[list[Decision]], list[Decision], int]:
    """The legal decisions as (those before the casinos, the casinos' per block, those after, how many in all)."""
    out: list[Decision] = []
    after: list[Decision] = []
    lists = _fill(engine, s, out, after)
    total = len(out) + len(after)
    for made in lists:
        total += len(made)
    return out, lists, after, total


def legal_pick(engine: Engine, s: GameState, choose: Callable[[int], int]) -> tuple[Decision | None, int]:
    """``(legal_actions(engine, s)[choose(n)], n)`` where ``n`` is the number of legal decisions. ``choose`` is
    given ``n`` (0 when there is none: the game is over; the decision is then None and ``choose`` is not
    called) and returns an index below it. The list's parts are not joined."""
    out, lists, after, total = _joined(engine, s)
    if not total:
        return None, 0
    return _at(out, lists, after, choose(total)), total


def random_pick(engine: Engine, s: GameState, rng: random.Random) -> tuple[Decision | None, int]:
    """``legal_pick`` choosing ``rng.choice(range(n))`` (the uniform bot's draw, ``below``)."""
    out, lists, after, total = _joined(engine, s)
    if not total:
        return None, 0
    return _at(out, lists, after, below(rng, total)), total


def legal_count(engine: Engine, s: GameState) -> int:
    """``len(legal_actions(engine, s))``, without building the list."""
    return _joined(engine, s)[3]

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
from typing import Final

from . import actions as A
from .actions._family import BOSSED, DICED, RIVALS, ROLES, Decision, Family, Moment
from .chance import below
from .profile import Profile
from .rules import Engine
from .state import GameState


class _Plan:
    """The families of one profile that generate, in order, for each part of the list; the casino generators with
    the role of the casinos they take (its place in ``ROLES``: compiled, an int compare)."""

    __slots__ = ("before", "after", "waiting", "casinos")

    def __init__(self, profile: Profile) -> None:
        families = sorted((f for f in A.FAMILIES if f.active(profile)), key=lambda f: f.position)
        self.before: tuple[Family, ...] = tuple(f for f in families if f.generates_before)
        self.after: tuple[Family, ...] = tuple(f for f in families if f.generates_after)
        self.waiting: tuple[Family, ...] = tuple(f for f in families if f.generates_waiting)
        self.casinos: tuple[tuple[int, Family], ...] = tuple((ROLES.index(f.casinos), f) for f in families
                                                             if f.casinos)


# the roles' places in ROLES (``_Plan.casinos``); Final: compiled, C constants
_BOSSED: Final = 0
_DICED: Final = 1
_RIVALS: Final = 2
assert (ROLES[_BOSSED], ROLES[_DICED], ROLES[_RIVALS]) == (BOSSED, DICED, RIVALS)


def _plan(engine: Engine) -> _Plan:
    """The plan of the engine's profile, kept with the families' tables of the profile (shared by its games)."""
    plan = engine.tables["legal plan"] = _Plan(engine.profile)
    return plan


def _fill(engine: Engine, s: GameState, out: list[Decision], after: list[Decision]) -> int:
    """The legal decisions, in three parts: before the casinos into ``out`` (builds; in the draw step, the
    draw), each casino's into ``engine.slots[i]`` for ``i`` below the number returned, after them into
    ``after`` (end). The caller reads the slots and empties them (``_empty``): every slot is empty between
    lists, so a caller may read them all rather than the first ones."""
    plan: _Plan | None = engine.tables.get("legal plan")  # typed: compiled, native reads of its attributes
    if plan is None:
        plan = _plan(engine)
    if s.phase != "actions":  # resting at "X is to draw": the draw (and trades, never listed)
        for waiting in plan.waiting:
            waiting.generate_waiting(engine, s, out)
        return 0
    m = engine.moment
    m = Moment(engine, s) if m is None else m.moment(s)
    engine.moment = m
    for before in plan.before:
        before.generate_before(m, out)
    # each casino's decisions go into its own slot, so the list keeps board order of casinos, then family order
    player = m.player
    m.casinos = casinos = m.index.with_dice(s.tiles)
    n = len(casinos)
    slots = engine.slots  # kept from list to list (emptied after use): no new lists
    while len(slots) < n:
        slots.append([])
    m.slots = slots
    # the positions of the casinos of each role (Family.casinos), in the moment's lists (emptied, not made anew)
    bossed, diced, rivals = m.bossed, m.diced, m.rivals
    bossed.clear()
    diced.clear()
    rivals.clear()
    i = 0
    for _, facts in casinos:
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
        i += 1
    try:
        for role, family in plan.casinos:
            if role == _BOSSED:
                mine = bossed
            elif role == _DICED:
                mine = diced
            elif role == _RIVALS:
                mine = rivals
            else:  # EVERY
                mine = list(range(n))
            if mine:  # a family with no casino to look at is not asked
                family.generate_casinos(m, mine)
    except BaseException:
        _empty(slots)
        raise
    for last in plan.after:
        last.generate_after(m, after)
    return n


def _empty(slots: list[list[Decision]]) -> None:
    for slot in slots:  # leave nothing behind for the next list
        slot.clear()


def legal_actions(engine: Engine, s: GameState) -> list[Decision]:
    out: list[Decision] = []
    after: list[Decision] = []
    _fill(engine, s, out, after)
    for slot in engine.slots:  # those past the casinos of this list are empty: no slice made
        if slot:
            out.extend(slot)
            slot.clear()
    out.extend(after)
    return out


def _joined(engine: Engine, s: GameState) -> tuple[list[Decision], list[Decision], int]:
    """The legal decisions as (those before and at the casinos, those after, how many in all)."""
    out: list[Decision] = []
    after: list[Decision] = []
    _fill(engine, s, out, after)
    for slot in engine.slots:  # those past the casinos of this list are empty: no slice made
        if slot:
            out.extend(slot)
            slot.clear()
    return out, after, len(out) + len(after)


def legal_pick(engine: Engine, s: GameState, choose: Callable[[int], int]) -> tuple[Decision | None, int]:
    """``(legal_actions(engine, s)[choose(n)], n)`` where ``n`` is the number of legal decisions. ``choose`` is
    given ``n`` (0 when there is none: the game is over; the decision is then None and ``choose`` is not
    called) and returns an index below it. The decisions before and after the casinos' are not joined to
    theirs."""
    out, after, total = _joined(engine, s)
    if not total:
        return None, 0
    i = choose(total)
    return (out[i] if i < len(out) else after[i - len(out)]), total


def random_pick(engine: Engine, s: GameState, rng: random.Random) -> tuple[Decision | None, int]:
    """``legal_pick`` choosing ``rng.choice(range(n))`` (the uniform bot's draw, ``below``)."""
    out, after, total = _joined(engine, s)
    if not total:
        return None, 0
    i = below(rng, total)
    return (out[i] if i < len(out) else after[i - len(out)]), total


def legal_count(engine: Engine, s: GameState) -> int:
    """``len(legal_actions(engine, s))``, without building the list."""
    return legal_pick(engine, s, lambda n: 0)[1]

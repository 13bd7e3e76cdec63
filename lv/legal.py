"""The legal decisions of the current player, from the action families' generators (``lv/actions``).

A gamble is listed once per casino, with the largest bet allowed (any bet from $1 up to it is legal; the
boss may lay off where the profile allows). Trades are not enumerated: any combination can be proposed.

Each family's generator is its predicate (``why_not``) evaluated in bulk, built from the same helpers: one pass
over the casinos with each casino's boss, dice and frontier looked up once, because bots ask for the list before
every decision. The order is fixed, since the uniform bot picks by index: the families' ``generate_before``
(builds), then for each casino in board order the ``generate_per_casino`` of each family asked about it (sprawl,
remodel, raise, reorganize, gamble), then ``generate_after`` (end). ``tests/test_legal_agrees.py`` checks, over
random games and random positions under every profile, that each listed decision passes its predicate and
every other candidate fails it.
"""

from __future__ import annotations

from collections.abc import Callable

from . import actions as A
from .actions._family import BOSSED, DICED, EVERY, RIVALS, Decision, Generate, Moment, PerCasino
from .profile import Profile
from .rules import Engine
from .state import GameState


class _Plan:
    """The generators of one profile, in order, and per-casino generators grouped by who they are asked about."""

    __slots__ = ("before", "after", "waiting", "by_role")

    def __init__(self, profile: Profile) -> None:
        families = sorted((f for f in A.FAMILIES if f.active is None or f.active(profile)), key=lambda f: f.position)
        self.before: tuple[Generate, ...] = tuple(f.generate_before for f in families if f.generate_before)
        self.after: tuple[Generate, ...] = tuple(f.generate_after for f in families if f.generate_after)
        self.waiting: tuple[Callable[[Engine, GameState, list[Decision]], None], ...] = tuple(
            f.generate_waiting for f in families if f.generate_waiting)
        per = [(f.casinos, f.generate_per_casino) for f in families if f.generate_per_casino is not None]
        # (the player bosses it, has a die in it, another player bosses it) -> the generators to ask, in order
        self.by_role: dict[tuple[bool, bool, bool], tuple[PerCasino, ...]] = {}
        for bossed in (False, True):
            for diced in (False, True):
                for rival in (False, True):
                    roles = {EVERY} | ({BOSSED} if bossed else set()) | ({DICED} if diced else set()) | (
                        {RIVALS} if rival else set())
                    self.by_role[bossed, diced, rival] = tuple(g for role, g in per if role in roles)


_PLANS: dict[int, tuple[Profile, _Plan]] = {}


def _plan(profile: Profile) -> _Plan:
    found = _PLANS.get(id(profile))
    if found is None or found[0] is not profile:
        found = _PLANS[id(profile)] = (profile, _Plan(profile))
    return found[1]


def legal_actions(engine: Engine, s: GameState) -> list[Decision]:
    plan = _plan(engine.profile)
    out: list[Decision] = []
    if s.phase != "actions":  # resting at "X is to draw": the draw (and trades, never listed)
        for waiting in plan.waiting:
            waiting(engine, s, out)
        return out
    m = Moment(engine, s)
    for before in plan.before:
        before(m, out)
    player, by_role = m.player, plan.by_role
    for casino, facts in m.index.with_dice(s.tiles):
        b = facts.boss
        generators = by_role[b == player, player in facts.owners, b is not None and b != player]
        for generate in generators:
            generate(m, casino, facts, out)
    for after in plan.after:
        after(m, out)
    return out

"""Sprawl's reaches (``sprawl._reach``): a casino's sprawls onto some of the lots around it are the parts of its
ring (``sprawl._ring``: every lot around it, made once a casino's lots and height and kept in the casino's table by
lots free, under 0), in the order of its frontier (``Casino.frontier_lots``), with their costs, the dearest and the
cheapest (the generator lists all of them at the dearest, none below the cheapest, else tests each cost)."""

import random

import pytest

from lv import legal
from lv.actions import sprawl
from lv.actions._family import tiles_left
from lv.actions.sprawl import Reach, SprawlTable, _frontier_reach, _reach

from test_legal_agrees import random_position


def _table(game) -> SprawlTable:
    return game.engine.family_tables.sprawl


def _expected(table, casino, free):
    """What the reach onto ``free`` is, read lot by lot: the frontier's lots of ``free`` and their costs."""
    lots = casino.frontier_lots(free)
    costs = tuple(table.costs[casino.height][n] for n in lots)
    return lots, costs


def _subsets(rng, around):
    """Some non-empty parts of ``around``: all of it, each lot alone, and random ones."""
    bits = [1 << j for j in range(around.bit_length()) if around >> j & 1]
    out = [around] + bits
    for _ in range(6):
        mask = 0
        for b in bits:
            if rng.random() < 0.5:
                mask |= b
        if mask:
            out.append(mask)
    return out


@pytest.mark.parametrize("spec,players", [("revised", 4), ("original", 3), ("revised", 2)])
def test_a_reach_is_the_lots_free_in_frontier_order_with_their_costs(spec, players):
    """Every casino of random positions, onto all the lots around it, each one alone and random parts: the same
    lots in the same order, their costs, the dearest of those (not of the ring), the lots free; with a table by
    lots free shared by the calls (the ring kept under 0 and used again) and with a new one each call."""
    rng = random.Random(f"reach {spec} {players}")
    met = 0
    parts = 0
    for _ in range(25):
        game = random_position(spec, players, rng)
        table = _table(game)
        for casino, _facts in game.engine.index(game.state).with_dice():
            if not casino.around:
                continue
            met += 1
            kept: dict[int, Reach] = {}
            for free in _subsets(rng, casino.around):
                for by_free in (kept, {}):
                    got = _reach(table, casino, free, by_free)
                    lots, costs = _expected(table, casino, free)
                    assert [a.lot for a in got.sprawls] == list(lots), (casino, free)
                    assert all(a.source == casino.name for a in got.sprawls)
                    assert got.costs == costs
                    assert got.dearest == max(costs)
                    assert got.cheapest == min(costs)
                    assert got.free == free
                    ring = by_free[0]  # the ring, kept for the next part
                    assert ring.free == casino.around
                    assert [a.lot for a in ring.sprawls] == list(casino.frontier_lots(casino.around))
                    assert len(ring.bits) == len(ring.sprawls)
                    parts += free != casino.around
                    other = _frontier_reach(table, casino, free)  # (the compiled build's way: the same reach)
                    assert (other.costs, other.sprawls, other.dearest, other.cheapest, other.free) == \
                        (got.costs, got.sprawls, got.dearest, got.cheapest, got.free)
    assert met > 50 and parts > 200


def test_the_dearest_of_a_part_is_its_own():
    """A part without the ring's dearest lot says its own dearest (the player who can pay that, and not the
    ring's dearest, gets every sprawl of the part, in one list), and its own cheapest."""
    rng = random.Random("reach dearest")
    seen = 0
    for _ in range(40):
        game = random_position("revised", 4, rng)
        table = _table(game)
        for casino, _facts in game.engine.index(game.state).with_dice():
            around = casino.around
            if not around:
                continue
            ring = _reach(table, casino, around, {})
            for bit in _subsets(rng, around):
                got = _reach(table, casino, bit, {0: ring})
                lots, costs = _expected(table, casino, bit)
                assert got.dearest == max(costs) and got.cheapest == min(costs)
                seen += got.dearest < ring.dearest
    assert seen > 20


def test_the_listed_sprawls_are_the_reaches_the_player_can_pay():
    """``generate_casinos`` at budgets around each cost of each casino's reach (the kept reaches met again, the
    rings made anew): the sprawls of the lots free the player can pay for, in frontier order."""
    rng = random.Random("reach listed")
    checked = 0
    for _ in range(30):
        game = random_position("revised", 4, rng)
        e, s = game.engine, game.state
        legal.fill(e, s, [], [])
        legal.empty(e.slots)
        m = e.moment
        taken = s.tile_mask | s.markers_mask
        bossed = [i for i, (casino, facts) in enumerate(m.casinos) if facts.boss == m.player]
        table = _table(game)
        costs = {c for i in bossed for c in table.costs[m.casinos[i][0].height].values()}
        for budget in sorted({0, 1, 5, 10, 20, 60} | costs | {c - 1 for c in costs}):
            m.budget = budget
            sprawl.FAMILY.generate_casinos(m, bossed)
            for i in bossed:
                casino = m.casinos[i][0]
                free = casino.around & ~taken
                want = []
                if free and budget >= table.least and tiles_left(e, s, casino.color) >= 1:
                    lots, costs = _expected(table, casino, free)
                    want = [n for n, c in zip(lots, costs) if c <= budget]
                assert [a.lot for a in m.slots[i]] == want, (casino, budget)
                checked += bool(want)
            legal.empty(m.slots)
    assert checked > 50

"""Pure Python's uniform pick asks a casino family only where the player's budget reaches its ``least_budget``
(``legal._bands``: the plan's casino families by budget): below it the family's generator lists nothing at any
casino, and the pick draws every listed decision at budgets around each family's least."""

import random

import pytest

from lv import legal
from lv.actions._family import Family

from test_legal_agrees import random_position
from test_legal_counted import SPECS
from test_legal_pure import _ways


@pytest.fixture(autouse=True)
def pure(monkeypatch):
    """Pure Python's way of listing and picking (in the pure build; compiled code reads its own constant)."""
    monkeypatch.setattr(legal, "_COMPILED", False)


def _renewed(game):
    """The game's moment renewed for its state (a list made and its slots emptied), and the engine's plan."""
    e, s = game.engine, game.state
    legal.fill(e, s, [], [])
    legal.empty(e.slots)
    return e.moment, legal.whole_plan(e)


@pytest.mark.parametrize("spec,players", SPECS)
def test_a_family_lists_nothing_below_its_least_budget(spec, players):
    """At one dollar below a family's least budget nothing at any casino of its role; at its least, something at
    some position (the least is the family's own first test, not merely a bound)."""
    rng = random.Random(f"bands {spec}")
    listed_at_least = set()
    asked = set()
    for _ in range(40):
        game = random_position(spec, players, rng)
        if game.state.phase != "actions":
            continue
        m, plan = _renewed(game)
        for family, role in plan.pairs:
            least = family.least_budget(m)
            if least <= 0:
                continue
            asked.add(family.name)
            rows = list(m.by_role[role])
            for budget, below in ((least - 1, True), (least, False)):
                m.budget = budget
                family.generate_casinos(m, rows)
                got = [d for i in rows for d in m.slots[i]]
                legal.empty(m.slots)
                if below:
                    assert not got, (family.name, least, got)
                elif got:
                    listed_at_least.add(family.name)
    assert listed_at_least == asked, (asked, listed_at_least)  # (a free profile: every least 0, none asked)


class _Anytime(Family):
    """A house rule's casino family that says nothing of its budget (``least_budget`` 0: always asked)."""

    def __init__(self):
        super().__init__(name="anytime", order=999, decisions=(tuple,), verbs=("anytime",), casinos="bossed",
                         applies=False)

    def generate_casinos(self, m, rows):
        for i in rows:
            m.slots[i].append(("anytime", m.casinos[i][0].name))


@pytest.mark.parametrize("spec,players", [("revised", 4), ("original", 3), ("house-sell-back", 2)])
def test_the_bands_are_the_families_that_reach_each_budget(spec, players):
    """Band ``b``: the plan's casino families (in its order, each as its bound ``generate_casinos``) whose least is
    ``b`` or less; the last band every family; the eager bands the same without the counted last family; a family
    of least 0 in every band."""
    game = random_position(spec, players, random.Random(spec))
    m, whole = _renewed(game)
    for plan in (legal.Plan(game.engine.profile), _plus(game, _Anytime())):
        bands = legal._bands(plan, m)
        assert plan.bands is bands
        leasts = [family.least_budget(m) for family, _ in plan.pairs]
        assert len(bands) == max(leasts) + 1 > 1
        bound = [(family.generate_casinos, role) for family, role in plan.pairs]
        for b, band in enumerate(bands):
            assert band == [pair for pair, least in zip(bound, leasts) if least <= b]
            want = band if plan.last is None else [pair for pair in band if pair[0].__self__ is not plan.last]
            assert plan.eager_bands[b] == want
        assert bands[-1] == bound
        plan.set_casinos(plan.casinos)  # the families set again: the bands worked out again when next asked
        assert plan.bands is None


def _plus(game, family):
    plan = legal.Plan(game.engine.profile)
    plan.set_casinos(plan.casinos + [family])
    return plan


@pytest.mark.parametrize("spec,players", SPECS)
def test_the_pick_draws_each_decision_at_budgets_around_each_least(spec, players):
    """The player's money set to each family's least, one below and one above (and 0, and a budget past every
    band): every index of the list drawn by the pick is the listed decision."""
    rng = random.Random(f"bands pick {spec}")
    for _ in range(12):
        game = random_position(spec, players, rng)
        if game.state.phase != "actions":
            continue
        m, plan = _renewed(game)
        leasts = {family.least_budget(m) for family, _ in plan.pairs}
        moneys = {0, max(leasts) + 1, 200} | {x + d for x in leasts for d in (-1, 0, 1) if x + d >= 0}
        player = game.state.players[game.state.current]
        for money in sorted(moneys):
            player.money = money
            _ways(game)


def _every_family(engine):
    """The engine's whole plan asking every casino family at any budget (one band: every family)."""
    plan = legal.Plan(engine.profile)
    plan.bands = [[(family.generate_casinos, role) for family, role in plan.pairs]]
    plan.eager_bands = [[(family.generate_casinos, role) for family, role in plan.eager]]
    return plan


@pytest.mark.parametrize("spec,players", SPECS)
def test_the_list_with_a_reserve_at_budgets_around_each_least(spec, players):
    """``fill`` (pure Python's, as greedy lists with its reserve): at the player's money around each family's least,
    less reserves of 0, 3 and more than the money, the same list as a plan asking every family."""
    rng = random.Random(f"bands fill {spec}")
    for _ in range(10):
        game = random_position(spec, players, rng)
        if game.state.phase != "actions":
            continue
        e, s = game.engine, game.state
        m, plan = _renewed(game)
        every = _every_family(e)
        leasts = {family.least_budget(m) for family, _ in plan.pairs}
        player = s.players[s.current]
        for money in sorted({0, 200} | {x + d for x in leasts for d in (-1, 0, 1, 3) if x + d >= 0}):
            player.money = money
            for keep in (0, 3, money + 1):
                lists = []
                for p in (plan, every):
                    out, after = [], []
                    lists.append(legal._joined(e, out, after, legal.fill(e, s, out, after, p, keep)))
                assert lists[0] == lists[1], (money, keep)

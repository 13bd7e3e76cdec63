"""Pure Python's pick (``legal.random_pick``) without the calls that answer the same every list: the decisions after
the casinos added up from ``Family.fixed_after`` (the end of the turn: 1), worked out again for another list of
families after the casinos (a plan's ``after`` replaced between two picks) and counted where a family says nothing;
the index drawn by ``below`` written out (the same number from a ``random.Random`` as ``below`` draws, any other
generator asked itself); the casino index's list read where it is kept."""

import random

import pytest

import lv
from lv import legal
from lv.actions._family import Family
from lv.chance import below

from test_legal_agrees import random_position
from test_legal_counted import _using
from test_legal_pure import _Drawn
from test_pick_moment import _same_as_new


@pytest.fixture(autouse=True)
def pure(monkeypatch):
    """Pure Python's way (in the pure build; compiled code reads its own constant)."""
    monkeypatch.setattr(legal, "_COMPILED", False)


PURE = legal.__file__.endswith(".py")


class _After(Family):
    """A house rule's family listed after the casinos, before the end of the turn: ``k`` decisions; it says so
    (``fixed_after``) where ``fixed``; how often its ``count_after`` was asked (``asked``)."""

    def __init__(self, k, fixed):
        super().__init__(name="after", order=79, decisions=(tuple,), verbs=("after",), generates_after=True,
                         legal_order=79, applies=False)
        self.k, self.fixed = k, fixed
        self.asked = 0

    def generate_after(self, m, out):
        out.extend([("after", m.player, j) for j in range(self.k)])

    def count_after(self, m):
        self.asked += 1
        return self.k

    def fixed_after(self):
        return self.k if self.fixed else -1


def _every_index(game):
    """Each index of the list drawn by the pick: the listed decision, the count the list's length."""
    e, s = game.engine, game.state
    listed = legal.legal_actions(e, s)
    for i in range(len(listed)):
        got, n = legal.random_pick(e, s, _Drawn(i))
        assert got == listed[i] and n == len(listed), (i, listed[i], got)
    return len(listed)


def test_the_end_of_the_turn_says_its_one_decision():
    end = legal.Plan(lv.load_profile("revised")).after
    assert [f.name for f in end] == ["end"] and end[0].fixed_after() == 1
    assert Family.fixed_after(end[0]) == -1  # the protocol's default: asked


@pytest.mark.parametrize("k,fixed", [(0, True), (2, True), (3, False)])
def test_the_decisions_after_the_casinos_follow_the_plans_list_between_picks(k, fixed):
    """One plan picked from, then its families after the casinos replaced (a house rule's first, then the end
    alone again) between picks of the same position: every index drawn is the list's each time, the number said
    by ``fixed_after`` added up without asking, else asked."""
    rng = random.Random(f"after between picks {k} {fixed}")
    drawn = 0
    for spec, players in (("revised", 4), ("original", 3)):
        for _ in range(5):
            game = random_position(spec, players, rng)
            if game.state.phase != "actions":
                continue
            plan = legal.Plan(game.engine.profile)
            end = plan.after
            with _using(game, plan):
                n = _every_index(game)
                family = _After(k, fixed)
                plan.after = [family] + end
                assert _every_index(game) == n + k
                # each pick asks a family that says nothing; one that says is asked only where one of the two
                #   families' decisions is drawn (its count then tells which)
                assert not PURE or (family.asked <= k + 1 if fixed else family.asked >= n + k)
                plan.after = end
                assert _every_index(game) == n
            drawn += 1
    assert drawn > 4


def test_the_index_drawn_is_belows_from_the_same_generator():
    """From a ``random.Random``: the pick's decision is the list's at ``below``'s index, and the generator is left
    where ``below`` leaves it (the next draw the same), over every size of list met in random positions."""
    rng = random.Random("below written out")
    sizes = set()
    for k in range(30):
        spec, players = (("revised", 4), ("original", 3), ("revised", 2))[k % 3]
        game = random_position(spec, players, rng)
        e, s = game.engine, game.state
        listed = legal.legal_actions(e, s)
        if not listed:
            continue
        for seed in range(8):
            mine, theirs = random.Random(seed), random.Random(seed)
            got, n = legal.random_pick(e, s, mine)
            assert n == len(listed) and got == listed[below(theirs, n)]
            assert mine.random() == theirs.random()
        sizes.add(len(listed))
    assert len(sizes) > 10


def test_one_engine_serving_games_of_two_numbers_of_players():
    """Two games on one engine (``Game(engine=...)``: another game's), 4 players and 2 (the revised rules close the F
    block in a 2-player game, and a casino is raised less high), picked from in turn: each pick leaves the moment a
    new moment of its state would be, and draws the list's decision at every index."""
    four = lv.new_game("revised", 4, 91)
    two = lv.new_game("revised", 2, 92, engine=four.engine)
    e = four.engine
    rngs = {id(four): random.Random(91), id(two): random.Random(92)}
    picks = 0
    while picks < 60 and not four.over and not two.over:
        for game in (four, two):
            s = game.state
            got, n = legal.random_pick(e, s, random.Random(picks))
            if s.phase == "actions":
                _same_as_new(e, s)
                picks += 1
            listed = legal.legal_actions(e, s)
            assert n == len(listed) and got == listed[below(random.Random(picks - (s.phase == "actions")), n)]
            game.apply(listed[below(rngs[id(game)], n)])
    assert picks >= 60

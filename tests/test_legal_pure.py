"""Pure Python's way of listing (``legal.fill`` with ``_COMPILED`` false, patched so; the compiled build reads its own
constant, so there the same tests check the compiled way):
each casino family is given the moment's own list of the positions of its role (``Moment.by_role``, by the role's
place in ROLES), a family asking about every casino (EVERY) every position of the list, however the number of
casinos changes from list to list; the roles' positions are those of the casinos of that role for the player at
every list of whole games (one moment renewed list after list); and ``random_pick`` draws what ``below`` draws on
the joined list."""

import random

import pytest

import lv
from lv import bots, legal
from lv.actions._family import DICED, EVERY, RIVALS, Family
from lv.chance import below

from test_legal_agrees import random_position
from test_legal_counted import SPECS, _using, plain_role


@pytest.fixture(autouse=True)
def pure(monkeypatch):
    """Pure Python's way of listing and picking (in the pure build; compiled code reads its own constant)."""
    monkeypatch.setattr(legal, "_COMPILED", False)


class _Every(Family):
    """A house rule's family asked about every casino (EVERY): one decision at each casino it is given, after the
    built-in families' there; it keeps the positions it was given and the number of casinos then."""

    def __init__(self, position):
        super().__init__(name="every", order=position, decisions=(tuple,), verbs=("every",), casinos=EVERY,
                         legal_order=position, applies=False)
        self.given = []

    def generate_casinos(self, m, rows):
        self.given.append((list(rows), len(m.casinos)))
        for i in rows:
            m.slots[i].append(("every", m.casinos[i][0].name))


def _with(engine, family):
    """The engine's whole plan with ``family`` last among the casino families."""
    plan = legal.Plan(engine.profile)
    plan.set_casinos(plan.casinos + [family])
    return plan


@pytest.mark.parametrize("spec,players,seed", [("revised", 4, 41), ("original", 3, 42), ("revised", 2, 43)])
def test_a_family_of_every_casino_is_given_every_position(spec, players, seed):
    """Over a whole game, as casinos are made and merged (the number of casinos grows and shrinks): every position,
    in order, each list, and its decision at each casino right after the built-in families' there."""
    game = lv.new_game(spec, players, seed)
    rng = random.Random(seed)
    family = _Every(1000)
    plan = _with(game.engine, family)
    sizes = set()
    while not game.over:
        listed = game.legal_actions()
        e, s = game.engine, game.state
        if s.phase == "actions":
            out, after = [], []
            n = legal.fill(e, s, out, after)  # the built-in families: each casino's part of the list
            parts = [list(slot) for slot in e.slots[:n]]
            legal.empty(e.slots)
            want = out + [d for i, part in enumerate(parts) for d in part + [("every", e.moment.casinos[i][0].name)]]
            out, after2 = [], []
            assert legal.fill(e, s, out, after2, plan) == n
            if n:
                assert family.given[-1] == (list(range(n)), n)
                sizes.add(n)
            joined = legal._joined(e, out, after2, n)
            assert joined == want + after
            assert [d for d in joined if not isinstance(d, tuple)] == listed  # the rest: the list without it
            assert all(not slot for slot in e.slots)
        game.apply(bots.uniform_bot(game, listed, rng))
    assert len(sizes) > 3  # lists with many different numbers of casinos were met


@pytest.mark.parametrize("spec,players,seed", [("revised", 4, 44), ("original", 3, 45), ("revised", 2, 46)])
def test_the_positions_of_each_role_are_the_casinos_of_that_role(spec, players, seed):
    """At every list of a whole game, the moment's list by role holds its own three lists of positions (the very
    same objects), and each holds exactly the casinos of that role for the player, in board order."""
    game = lv.new_game(spec, players, seed)
    rng = random.Random(seed)
    seen = 0
    while not game.over:
        listed = game.legal_actions()
        m = game.engine.moment
        if game.state.phase == "actions":
            assert m.by_role[0] is m.bossed_rows and m.by_role[1] is m.diced_rows and m.by_role[2] is m.rivals_rows
            for r in range(3):
                want = [i for i, (_, facts) in enumerate(m.casinos) if plain_role(facts, m.player) >> r & 1]
                assert m.by_role[r] == want, (r, m.by_role[r], want)
                seen += len(want)
        game.apply(bots.uniform_bot(game, listed, rng))
    assert seen > 100


def test_the_pure_pick_draws_what_the_list_draws_over_whole_games():
    """``random_pick`` (the joined parts, ``_count`` and ``_take`` written out) against ``below`` on the list."""
    for spec, players, seed in (("revised", 4, 51), ("original", 3, 52), ("house-sell-back", 2, 53)):
        game = lv.new_game(spec, players, seed)
        r1, r2 = random.Random(seed), random.Random(seed)
        while not game.over:
            listed = game.legal_actions()
            got, n = legal.random_pick(game.engine, game.state, r2)
            want = listed[below(r1, len(listed))]
            assert got == want and type(got) is type(want) and n == len(listed)
            assert all(not slot for slot in game.engine.slots)
            game.apply(bots.uniform_bot(game, listed, random.Random(n)))
        assert r1.random() == r2.random()


def test_the_ways_alternated_on_one_moment_list_the_same(monkeypatch):
    """The compiled way (masks; positions written only for a list made) and the pure way (positions) taking turns
    on one game's moment, list after list: the pure way's positions are the casinos of each role even where the
    compiled way left only its masks, and both pick what the list holds."""
    game = lv.new_game("revised", 4, 61)
    rng, draw = random.Random(61), random.Random(62)
    k = 0
    while not game.over:
        compiled = k % 3 == 1
        monkeypatch.setattr(legal, "_COMPILED", compiled)
        e, s = game.engine, game.state
        n = legal.legal_count(e, s)  # the compiled way counts (masks), the pure way lists
        monkeypatch.setattr(legal, "_COMPILED", False)
        listed = game.legal_actions()
        assert n == len(listed)
        m = e.moment
        if s.phase == "actions":
            for r in range(3):
                assert m.by_role[r] == [i for i, (_, facts) in enumerate(m.casinos)
                                        if plain_role(facts, m.player) >> r & 1]
        monkeypatch.setattr(legal, "_COMPILED", compiled)
        seed = draw.random()
        got, _ = legal.random_pick(e, s, random.Random(seed))
        assert got == listed[below(random.Random(seed), len(listed))]
        game.apply(bots.uniform_bot(game, listed, rng))
        k += 1


# ---------------------------------------------------------------------------------------------- the counted pick
# Pure Python's ``random_pick`` asks ``fill`` to count the plan's last casino family where it says how many
# decisions it has at each casino of its role (``Family.each_casino``: gamble, one at each rival's casino), and
# then finds the drawn decision without joining the list. Every index of the list is drawn.


PURE = legal.__file__.endswith(".py")  # compiled, the pick counts its own way: the ways below are pure Python's


class _Drawn:
    """A generator that draws ``i`` (``below`` asks any generator but ``random.Random`` for ``choice``)."""

    def __init__(self, i):
        self.i = i

    def choice(self, seq):
        return seq[self.i]


def _ways(game):
    """Each index of the list drawn by ``random_pick``: the listed decision, the count the list's length, the slots
    left empty; the way it went (None: the last family asked, else how many it has at each casino)."""
    e, s = game.engine, game.state
    listed = game.legal_actions()
    way = None
    for i in range(len(listed)):
        got, n = legal.random_pick(e, s, _Drawn(i))
        assert got == listed[i] and type(got) is type(listed[i]) and n == len(listed), (i, listed[i], got)
        assert all(not slot for slot in e.slots)
        if s.phase == "actions" and e.moment.casinos:
            last = e.tables["legal plan"].last  # (the way the pick went: the counted family's ``each``)
            each = -1 if last is None else last.each_casino(e.moment)
            way = None if each < 0 else each
    if not listed:
        assert legal.random_pick(e, s, _Drawn(0)) == (None, 0)
    return way, len(listed)


@pytest.mark.parametrize("spec,players", SPECS)
def test_the_counted_pick_draws_each_listed_decision_in_random_positions(spec, players):
    """Random positions (players with no money, the turn's gamble made, locks, tall casinos): every index, and
    each way met (gambles counted, none at any casino, and where the boss's money caps a bet, asked where a boss
    has none)."""
    rng = random.Random(f"counted pure {spec}")
    ways = set()
    for k in range(40):
        game = random_position(spec, players, rng)
        if k % 4 == 3:  # another player with no money (a boss of theirs caps no bet, where the boss's money caps)
            s = game.state
            s.players[(s.current + 1 + rng.randrange(players - 1)) % players].money = 0
        way, _ = _ways(game)
        ways.add(way)
    assert not PURE or ({None, 0, 1} if game.engine.family_tables.gamble.at_boss else {0, 1}) <= ways, ways


@pytest.mark.parametrize("spec,players,seed", [("revised", 4, 71), ("original", 3, 72), ("house-sell-back", 2, 73)])
def test_the_counted_pick_draws_each_listed_decision_over_whole_games(spec, players, seed):
    """One moment renewed list after list over a whole game: every index at every list."""
    game = lv.new_game(spec, players, seed)
    rng = random.Random(seed)
    ways = set()
    while not game.over:
        ways.add(_ways(game)[0])
        game.apply(bots.uniform_bot(game, game.legal_actions(), rng))
    assert not PURE or {0, 1} <= ways, ways


class _Pairs(Family):
    """A house rule's casino family: ``k`` decisions at each casino of its role, after the others' there;
    ``each_casino`` says so (``says``) or not (the protocol's default: it is asked)."""

    def __init__(self, role, position, k, says):
        super().__init__(name=f"pairs {role}", order=position, decisions=(tuple,), verbs=("pairs",), casinos=role,
                         legal_order=position, applies=False)
        self.k, self.says = k, says

    def generate_casinos(self, m, rows):
        for i in rows:
            name = m.casinos[i][0].name
            m.slots[i].extend([(self.name, name, j) for j in range(self.k)])

    def make_casino(self, m, row, i):
        return (self.name, m.casinos[row][0].name, i)

    def each_casino(self, m):
        return self.k if self.says else -1


@pytest.mark.parametrize("role,k,says,where,counted", [
    (EVERY, 2, True, "instead", True),  # two at every casino, counted (after the diced casinos' slots)
    (EVERY, 0, True, "instead", True),  # none at any
    (RIVALS, 1, False, "instead", False),  # says nothing: asked
    (RIVALS, 2, True, "instead", True),  # two at every rival's casino, counted (the rivals' casinos not listed)
    (RIVALS, 0, True, "instead", True),  # none at any
    (RIVALS, 1, True, "before", False),  # before gamble: a family before the last asks about rivals' casinos
    (DICED, 1, True, "after", False),  # after gamble: the same
])
def test_a_house_rule_family_is_counted_only_where_it_says_and_comes_last(role, k, says, where, counted):
    """A house rule's casino family in the plan (instead of gamble, last; before gamble; after it): the pick draws
    each listed decision, counting the last family only where it says how many it has at each casino and the
    families before it ask about the player's casinos alone."""
    rng = random.Random(f"pairs {role} {k} {says} {where}")
    met = 0
    for spec, players in (("revised", 4), ("original", 3)):
        for _ in range(12):
            game = random_position(spec, players, rng)
            plan = legal.Plan(game.engine.profile)
            gamble = plan.casinos[-1]
            assert gamble.name == "gamble" and plan.last is gamble
            family = _Pairs(role, 59 if where == "before" else 1000, k, says)
            plan.set_casinos(plan.casinos[:-1] + {"instead": [family], "before": [family, gamble],
                                                  "after": [gamble, family]}[where])
            assert plan.last is (family if where == "instead" else None)
            with _using(game, plan):
                way, n = _ways(game)
            assert not PURE or (way is not None) == counted or not game.engine.moment.casinos
            met += way == k
    assert met or not counted or not PURE


@pytest.mark.parametrize("money", [0, 3, 9, 15, 24, 100])
def test_no_build_is_counted_on_a_closed_f_block_even_under_a_marker(money):
    """003 L893-903 ("In a 2-player game, you can't build on F block"): a marker of the player's on an F lot (no play
    puts one there, its card is drawn again: a position written by hand) gives no build, in the list and in the
    pick's count alike, at any money (the pick reads its lots by price up to the dearest lot's, every lot from there,
    the closed block's left out both ways)."""
    game = lv.new_game("revised", 2, 7)
    rng = random.Random(7)
    while game.state.phase != "actions":
        game.apply(bots.uniform_bot(game, game.legal_actions(), rng))
    s, board = game.state, game.board
    p = s.current
    f_lots = [lot for lot in board.order if board.lots[lot].block == "F" and lot not in s.markers
              and lot not in s.tiles]
    assert game.profile.f_block_closed(2) and len(f_lots) >= 2
    for lot in f_lots[:2]:
        s.put_marker(lot, p)
    s.players[p].money = money
    listed = game.legal_actions()
    assert not any(isinstance(a, lv.actions.Build) and a.lot in f_lots for a in listed)
    for seed in range(5):
        got, n = legal.random_pick(game.engine, s, random.Random(seed))
        assert n == len(listed) and got == listed[below(random.Random(seed), n)]

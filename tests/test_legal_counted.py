"""Picking without listing (issue 31 item 4): ``legal_pick``, ``random_pick`` and ``legal_count`` count each
family's decisions (``Family.count_before``, ``count_casinos``, ``count_after``) and make only the one picked
(``make_before``, ``make_after``, or the one casino's decisions generated alone). In random positions under
every profile, for every index ``i``, the counted pick ``i`` is ``legal_actions()[i]`` and the
count is the list's length; so it is for a family written with the generators alone (the protocol's defaults,
which count what the generators list: a house rule's family). In the pure build a pick joins the list's parts
instead (cheaper there): the tests run the counting way here too (``legal._COMPILED`` set)."""

import random
from contextlib import contextmanager

import pytest

from lv import legal
from lv.actions._family import BOSSED, DICED, EVERY, RIVALS, Family
from lv.legal import legal_count, legal_pick

from test_legal_agrees import FREE, random_position

@pytest.fixture(autouse=True)
def counting(monkeypatch):
    """The compiled build's way of picking (counting), also in the pure build."""
    monkeypatch.setattr(legal, "_COMPILED", True)


SPECS = [("original", 4), ("revised", 4), ("revised", 2), ("original+f-block", 2),
         ("revised,casino.join_rule=color", 3), (FREE, 3), ("house-sell-back", 4), ("revised", 6)]


def agrees(game):
    """Every index of the list picked by counting is the listed decision; the count is the list's length."""
    e, s = game.engine, game.state
    listed = game.legal_actions()
    assert legal_count(e, s) == len(listed)
    with pytest.raises(ZeroDivisionError):  # a choice that fails leaves nothing behind for the next pick
        legal_pick(e, s, lambda n: 1 // 0)
    if listed:
        assert legal_pick(e, s, lambda n: n - 1) == (listed[-1], len(listed))
    for i in range(len(listed)):
        got, n = legal_pick(e, s, lambda n, i=i: i)
        assert got == listed[i] and type(got) is type(listed[i]) and n == len(listed), (i, listed[i], got)
    assert all(not slot for slot in e.slots)  # the slots left empty for the next list
    assert e.moment is None or not any(e.moment.counts)  # and the counts at the casinos 0
    return len(listed)


@pytest.mark.parametrize("spec,players", SPECS)
def test_the_counted_pick_is_the_listed_decision_in_random_positions(spec, players):
    rng = random.Random(f"counted {spec}")
    sizes = [agrees(random_position(spec, players, rng)) for _ in range(30)]
    assert max(sizes) > 20  # positions with many decisions were met


class _Generic(Family):
    """A family's generators with the protocol's default counts (generated into scratch space and counted): what
    a house rule's family written against the generators alone has."""

    def __init__(self, family):
        # a Family itself (compiled, the plan's lists hold Family objects only), with the wrapped one's flags and
        # none of its count_*/make_* methods: the protocol's defaults, through the generators
        super().__init__(name=family.name, order=family.order, decisions=family.decisions, verbs=family.verbs,
                         listed=family.listed, applies=family.applies, generates_before=family.generates_before,
                         casinos=family.casinos, generates_after=family.generates_after,
                         generates_waiting=family.generates_waiting, legal_order=family.position)
        self.family = family

    def generate_before(self, m, out):
        self.family.generate_before(m, out)

    def generate_casinos(self, m, rows):
        self.family.generate_casinos(m, rows)

    def generate_after(self, m, out):
        self.family.generate_after(m, out)


@contextmanager
def _using(game, plan):
    """The game's engine lists with ``plan`` meanwhile (the plan is kept in the families' tables, which the
    profile's games share: the one there before is put back, or none)."""
    tables = game.engine.tables
    kept = tables.get("legal plan")
    tables["legal plan"] = plan
    try:
        yield
    finally:
        if kept is None:
            del tables["legal plan"]
        else:
            tables["legal plan"] = kept


@pytest.mark.parametrize("spec,players", [("revised", 4), ("original+f-block", 2), (FREE, 3)])
def test_a_family_with_the_generators_alone_is_counted_through_them(spec, players, monkeypatch):
    """Every family's counts replaced by the protocol's defaults: the same picks and counts (and so the same
    decisions as the families' own counts give, checked above)."""
    rng = random.Random(f"generic {spec}")
    for _ in range(15):
        game = random_position(spec, players, rng)
        plan = legal.Plan(game.engine.profile)
        plan.before = [_Generic(f) for f in plan.before]
        plan.set_casinos([_Generic(f) for f in plan.casinos])
        plan.after = [_Generic(f) for f in plan.after]
        with _using(game, plan):
            agrees(game)


@pytest.mark.parametrize("spec,players", [("revised", 4), ("original", 3), (FREE, 3)])
def test_whichever_family_comes_last_at_a_casino_is_made_right(spec, players):
    """The casino families in every rotation of their order (the list's order changes with them, counted and
    listed alike): the pick's last family asked about the chosen casino, made without being counted
    (``_made_at``), is whichever comes last, one with several decisions a casino (sprawl, remodel) too."""
    rng = random.Random(f"last family {spec}")
    for _ in range(8):
        game = random_position(spec, players, rng)
        whole = legal.Plan(game.engine.profile)
        for k in range(len(whole.casinos)):
            plan = legal.Plan(game.engine.profile)
            plan.set_casinos(whole.casinos[k:] + whole.casinos[:k])
            with _using(game, plan):
                agrees(game)


class _RowsCounted(Family):
    """A family written to the protocol before round 18: ``generate_casinos`` and ``count_casinos`` given the
    positions of the casinos (``rows``), no ``count_in``: the count reaches its ``count_casinos`` through the
    protocol's default ``count_in`` (its positions from the mask, ``Moment.rows_of``). Its counts are the wrapped
    family's, asked one casino at a time (so a position given wrong is counted wrong)."""

    def __init__(self, family):
        super().__init__(name=family.name, order=family.order, decisions=family.decisions, verbs=family.verbs,
                         listed=family.listed, applies=family.applies, casinos=family.casinos,
                         legal_order=family.position)
        self.family = family
        self.asked = 0

    def generate_casinos(self, m, rows):
        assert isinstance(rows, list) and rows == sorted(set(rows)), rows
        self.family.generate_casinos(m, rows)

    def count_casinos(self, m, rows, counts):
        assert isinstance(rows, list) and rows == sorted(set(rows)), rows
        self.asked += 1
        return sum(self.family.count_in(m, 1 << i, counts) for i in rows)

    def make_casino(self, m, row, i):
        return self.family.make_casino(m, row, i)


@pytest.mark.parametrize("spec,players", [("revised", 4), ("original+f-block", 2), (FREE, 3)])
def test_a_family_written_to_the_rows_protocol_lists_and_counts_the_same(spec, players):
    """Every casino family replaced by one written to the protocol before round 18 (positions, not masks): the
    same list, counts and picks as the built-in families give (checked above against their list), through its own
    ``count_casinos``."""
    rng = random.Random(f"rows protocol {spec}")
    for _ in range(15):
        game = random_position(spec, players, rng)
        before = game.legal_actions()
        plan = legal.Plan(game.engine.profile)
        plan.set_casinos([_RowsCounted(f) for f in plan.casinos])
        with _using(game, plan):
            assert agrees(game) == len(before)
            assert game.legal_actions() == before
        assert game.state.phase != "actions" or any(f.asked for f in plan.casinos)


def test_the_counted_pick_draws_what_the_list_draws_over_whole_games():
    """``random_pick`` along whole games (the draw step, lay-offs, the end), against ``below`` on the list."""
    import lv
    from lv import bots
    from lv.chance import below

    for spec, players, seed in (("revised", 4, 21), ("original", 3, 22), ("house-sell-back", 2, 23)):
        game = lv.new_game(spec, players, seed)
        r1, r2 = random.Random(seed), random.Random(seed)
        while not game.over:
            listed = game.legal_actions()
            got, n = legal.random_pick(game.engine, game.state, r2)
            assert got == listed[below(r1, len(listed))] and n == len(listed)
            game.apply(bots.uniform_bot(game, listed, random.Random(n)))
        assert r1.random() == r2.random()


def plain_role(facts, player):
    """The roles of a casino with these dice facts for ``player``, as bits: bossed 1, diced 2, rivals 4."""
    return ((facts.boss == player) | (player in facts.owners) << 1
            | (facts.boss is not None and facts.boss != player) << 2)


def moment_masks(m):
    """The moment's masks of each role (``bossed``, ``diced``, ``rivals``), where pure Python listed only the positions
    (``masks_stale``) the masks of those positions; and the positions, where kept, are those of the masks' bits."""
    assert not (m.masks_stale and m.rows_stale)
    rows = (m.bossed_rows, m.diced_rows, m.rivals_rows)
    if m.masks_stale:
        return tuple(sum(1 << i for i in r) for r in rows)
    masks = (m.bossed, m.diced, m.rivals)
    if not m.rows_stale:
        assert [m.rows_of(mask) for mask in masks] == list(rows)
    return masks


def roles_agree(game):
    """After a count of the list, the moment's masks of each role (``bossed``, ``diced``, ``rivals``: what ``fill``
    and ``_tally`` give each family, by ``Plan.roles``) have the bits of the casinos of that role for the player, and
    ``rows_of`` gives their positions; the list, and the number of casinos in some role."""
    e, s = game.engine, game.state
    listed = game.legal_actions()
    if s.phase != "actions":
        return listed, 0
    assert legal_count(e, s) == len(listed)
    m = e.moment
    masks = moment_masks(m)
    assert all(0 <= mask < 1 << len(m.casinos) for mask in masks)  # no bit past the last casino
    seen = 0
    for position in range(len(m.casinos)):
        role = plain_role(m.casinos[position][1], m.player)
        assert [bool(masks[r] >> position & 1) for r in range(3)] == [bool(role >> r & 1) for r in range(3)]
        seen += role > 0
    for mask in masks:
        assert m.rows_of(mask) == [p for p in range(len(m.casinos)) if mask >> p & 1]
    return listed, seen


@pytest.mark.parametrize("spec,players", [("revised", 4), ("original", 3), ("revised", 2)])
def test_the_rows_of_each_role_are_the_casinos_of_that_role(spec, players):
    """In random positions and at every list of a whole game (one moment renewed list after list, the masks kept
    while the casinos and the player are the same), each role's mask holds the casinos of that role for the
    player."""
    import lv
    from lv import bots

    rng = random.Random(f"rows {spec}")
    seen = 0
    for _ in range(15):
        seen += roles_agree(random_position(spec, players, rng))[1]
    game = lv.new_game(spec, players, 7)
    while not game.over:
        listed, found = roles_agree(game)
        seen += found
        game.apply(bots.uniform_bot(game, listed, rng))
    assert seen > 20


def test_the_families_with_one_decision_a_casino_say_where_it_is():
    """A family made with ``one_each`` (gamble, raise, reorganize) counts at most one decision at a casino, and its
    ``ones_in`` is the mask of the casinos where ``count_in`` counts one and ``generate_casinos`` lists one, in
    casinos of its role and at each of them alone; the protocol's default ``ones_in`` (from ``count_in``) gives the
    same mask."""
    rng = random.Random("ones")
    met = 0
    for spec, players in SPECS:
        for _ in range(12):
            game = random_position(spec, players, rng)
            e, s = game.engine, game.state
            if s.phase != "actions":
                continue
            legal_count(e, s)
            m = e.moment
            n = len(m.casinos)
            roles = {BOSSED: m.bossed, DICED: m.diced, RIVALS: m.rivals, EVERY: (1 << n) - 1}
            for family in legal.whole_plan(e).casinos:
                if not family.one_each:
                    continue
                mine = roles[family.casinos]  # its casinos, and each alone (as ``_made_at`` asks)
                for mask in [mine] + [1 << i for i in range(n) if mine >> i & 1]:
                    got = family.ones_in(m, mask)
                    counts = [0] * n
                    total = family.count_in(m, mask, counts)
                    assert max(counts, default=0) <= 1 and got == sum(1 << i for i in range(n) if counts[i])
                    assert total == bin(got).count("1") and not got & ~mask
                    assert Family.ones_in(family, m, mask) == got
                    rows = m.rows_of(mask)
                    family.generate_casinos(m, rows)
                    listed = 0
                    for i in rows:
                        listed |= len(m.slots[i]) << i
                        m.slots[i].clear()
                    assert listed == got, family.name
                    met += bin(got).count("1")
    assert met > 50


class _Again(Family):
    """A built-in family with one decision a casino asked again, its own ``count_in``, ``make_casino`` and
    generators but not its ``ones_in``: the protocol's default (from ``count_in``) is asked."""

    def __init__(self, family):
        super().__init__(name=family.name + " again", order=family.order, decisions=family.decisions,
                         verbs=family.verbs, listed=family.listed, applies=family.applies, casinos=family.casinos,
                         legal_order=family.position, one_each=True)
        self.family = family

    def generate_casinos(self, m, rows):
        self.family.generate_casinos(m, rows)

    def count_in(self, m, mask, counts):
        return self.family.count_in(m, mask, counts)

    def make_casino(self, m, row, i):
        return self.family.make_casino(m, row, i)


@pytest.mark.parametrize("spec,players", [("revised", 4), ("revised", 3), ("revised", 2)])
def test_more_families_with_one_decision_than_the_bit_planes_hold(spec, players):
    """The families with one decision a casino asked twice over (six of them; each casino's count of them kept in
    two bit planes, 0-3): the first three are counted as bits (``Plan.ones``), the others at the casinos as
    the rest are, and every index of the list is picked right, also at casinos with four or more of them (the
    player's, with a raise and a reorganization; the original rules have no raise)."""
    rng = random.Random(f"again {spec}")
    crowded = 0
    for _ in range(12):
        game = random_position(spec, players, rng)
        whole = legal.Plan(game.engine.profile)
        again = [_Again(f) for f in whole.casinos if f.one_each]
        plan = legal.Plan(game.engine.profile)
        plan.set_casinos(whole.casinos + again)
        seen = []  # the first three with one decision a casino, in the plan's order, are counted as bits
        for f in plan.casinos:
            seen.append(f.one_each and sum(seen) < 3)
        assert plan.ones == seen and sum(seen) == 3 and sum(f.one_each for f in plan.casinos) > 3
        with _using(game, plan):
            agrees(game)
            listed = game.legal_actions()
        kinds = {}  # the decisions of the one-decision families at each casino
        for a in listed:
            if a.kind in ("raise", "reorganize", "gamble"):
                kinds[a.lot] = kinds.get(a.lot, 0) + 1
        crowded += any(k >= 4 for k in kinds.values())
    assert crowded

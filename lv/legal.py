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
from typing import TYPE_CHECKING, Final, cast

from mypy_extensions import i64

from . import actions as A
from .actions._family import BOSSED, DICED, EVERY, RIVALS, ROLES, Decision, Family, Moment
from .actions.gamble import Gamble, gamble_of
from .casinos import casino_index
from .chance import below
from .profile import Profile
from .rules import Engine
from .state import GameState

if TYPE_CHECKING:
    from .casinos import Casino, DiceFacts


# a family's ``generate_casinos``, bound (``Plan.bands``)
Generator = Callable[[Moment, list[int]], None]


class Plan:
    """The families of one profile that generate, in order, for each part of the list; the casino generators
    (``casinos``) with the role of the casinos each takes (``roles``: its place in ``ROLES``, compiled an int
    compare). Lists, not tuples: compiled, a loop over a list is native indexing. ``kinds``: only these families
    of those a player takes, the draw and the end of the turn always (None: all)."""

    def __init__(self, profile: Profile, kinds: frozenset[str] | None = None) -> None:
        families = sorted((f for f in A.FAMILIES if f.active(profile)
                           and (kinds is None or not f.applies or f.name in kinds)), key=lambda f: f.position)
        self.kinds = kinds
        self.before: list[Family] = [f for f in families if f.generates_before]
        self.after: list[Family] = [f for f in families if f.generates_after]
        self.waiting: list[Family] = [f for f in families if f.generates_waiting]
        self.casinos: list[Family] = []
        self.roles: list[int] = []
        self.pairs: list[tuple[Family, int]] = []
        self.ones: list[bool] = []
        self.ones_mask = 0
        self.every = False
        self.last: Family | None = None
        self.eager: list[tuple[Family, int]] = []
        self.last_role = 0
        self.filled_role = 0
        # (pure Python's pick) the number of decisions after the casinos where each family there says it never
        #   changes (``Family.fixed_after``), and the list of families it is for (``after``; None: not worked out,
        #   or one of them says nothing: ``count_after`` asked)
        self.after_count = -1
        self.after_of: list[Family] | None = None
        # (pure Python's pick) ``pairs`` and ``eager`` by budget (``_bands``; None: not yet worked out)
        #   (each family as its ``generate_casinos``, bound once: one call site asks every family, and a method
        #   looked up there on families of several classes is looked up the slow way each time; round 25)
        self.bands: list[list[tuple[Generator, int]]] | None = None
        self.banded = 0  # (``len(bands)``: a budget from it up has the last band, every family)
        self.eager_bands: list[list[tuple[Generator, int]]] = []
        self.set_casinos([f for f in families if f.casinos])
        self.names: frozenset[str] = frozenset(f.name for f in families)
        # ``without``'s last answer, and the family it left out
        self.lesser: Plan | None = None
        self.left_out = ""

    def set_casinos(self, casinos: list[Family]) -> None:
        """The casino families to ask, in this order, and what is read from them: each one's role's place in
        ROLES (``roles``: the compiled ``fill`` and ``_tally``), each family with it (``pairs``: pure Python's
        ``fill``) and whether one asks about every casino (``every``). The one way to change them, so that both
        builds ask the same families."""
        self.casinos = casinos
        self.roles = [ROLES.index(f.casinos) for f in casinos]
        self.pairs = list(zip(casinos, self.roles))
        self.every = ROLES.index(EVERY) in self.roles
        # which are counted by ``ones_in`` (``_tally``): those with one decision at a casino (``one_each``), three
        # at most (two bit planes hold 0-3)
        ones: list[bool] = []
        for f in casinos:
            ones.append(f.one_each and sum(ones) < _ONES_AT_MOST)
        self.ones = ones
        self.ones_mask = sum(1 << j for j in range(len(ones)) if ones[j])  # the same, bit ``j`` ``ones[j]``
        # (pure Python's pick) the family asked last at each casino, which may be counted rather than asked
        # (``Family.each_casino``), when the others ask only about the player's casinos (bossed or diced: their
        # decisions are then in the slots of the diced casinos, ``filled_role``) and it is last at every casino
        self.last = None
        self.eager = self.pairs
        self.bands = None
        others = self.roles[:-1]
        if casinos and all(role == _BOSSED or role == _DICED for role in others):
            self.last, self.last_role = casinos[-1], self.roles[-1]
            self.eager = self.pairs[:-1]
            self.filled_role = _DICED if _DICED in others else _BOSSED

    def without(self, engine: Engine, name: str) -> Plan:
        """This plan without the family ``name`` (the draw and the end of the turn kept), the last one asked
        kept here: a bot that knows it would value none of a family's decisions now (greedy's gambles when it
        is not short of cash) picks from the rest of the list (issue 31 item 4: picking without listing)."""
        lesser = self.lesser
        if lesser is not None and self.left_out == name:
            return lesser
        kinds = (self.names if self.kinds is None else self.kinds) - {name}
        lesser = self.lesser = plan_of(engine, kinds)
        self.left_out = name
        return lesser


_COMPILED: Final = not __file__.endswith(".py")  # a module compiled by mypyc loads from a .so/.pyd

_RANDOM: Final = random.Random  # (pure Python's pick: ``below`` written out, as chance.py's)
_GETRANDBITS: Final = random.Random.getrandbits
_NOWHERE: Final[list[int]] = []  # (pure Python's pick) no casino's slot to empty: never changed
_NO_FACTS: Final[list[DiceFacts | None]] = []  # (``Moment.roles_facts``) none listed: never changed
_UNLISTED: Final[list[int]] = []  # (``Moment.by_role``) the rivals' casinos not listed (the pick's): never changed

# the roles' places in ROLES (``Plan.roles``); Final: compiled, C constants
_BOSSED: Final = 0
_DICED: Final = 1
_RIVALS: Final = 2
_EVERY: Final = 3
_MOST_BANDS: Final = 1000  # (``_bands``) the largest least budget given a list of its own
_MOST_BUDGET: Final = 5000  # (``_band_at``) the largest budget the bands are grown to
_ONES_AT_MOST: Final = 3  # families counted as bits of a casino (``Plan.ones``): two bit planes
assert (ROLES[_BOSSED], ROLES[_DICED], ROLES[_RIVALS], ROLES[_EVERY]) == (BOSSED, DICED, RIVALS, EVERY)


def _bands(plan: Plan, m: Moment) -> list[list[tuple[Generator, int]]]:
    """(Pure Python's pick.) The plan's casino families (``pairs``) by budget, each list without the families that
    list nothing at that budget (``Family.least_budget``), from budget 0 up to the largest of those (the last
    list: every family), into ``plan.bands``, and the same without the last family (``eager``) into
    ``plan.eager_bands``: a family with nothing to list is not called (most lists: a sprawl's or a raise's
    cheapest is more than the player has). Read from the tables of the moment's profile and board, as the plan
    is kept with them. A largest least budget over 1,000: one list, every family (no band)."""
    leasts = [family.least_budget(m) for family, _ in plan.pairs]
    top = max([0, *leasts])
    if top > _MOST_BANDS:
        top = 0
        leasts = [0] * len(leasts)
    pairs = plan.pairs
    eager = len(plan.eager)  # (``eager``: the first of ``pairs``, all but the last where that one is counted; by
    #   place, not identity: compiled, a pair read from a list is a new tuple)
    bound: list[tuple[Generator, int]] = [(family.generate_casinos, role) for family, role in pairs]
    bands = [[bound[k] for k in range(len(pairs)) if leasts[k] <= budget] for budget in range(top + 1)]
    plan.eager_bands = [[bound[k] for k in range(eager) if leasts[k] <= budget] for budget in range(top + 1)]
    plan.bands = bands
    plan.banded = top + 1
    return bands


def _band_at(plan: Plan, budget: int) -> int:
    """(Pure Python's pick.) The place in the plan's bands (``_bands``) of a budget past them: the bands and the
    eager ones grown to it with their last (every family), up to a budget of ``_MOST_BUDGET``, so that a pick at it
    reads its band by the budget; past that the last band (a budget below 0: the first)."""
    bands, eager = plan.bands, plan.eager_bands
    assert bands is not None
    if budget < 0:
        return 0
    if budget > _MOST_BUDGET:
        return -1
    while len(bands) <= budget:
        bands.append(bands[-1])
    while len(eager) <= budget:
        eager.append(eager[-1])
    return budget


def _plan(engine: Engine) -> Plan:
    """The plan of the engine's profile, kept with the families' tables of the profile (shared by its games)."""
    plan = engine.tables["legal plan"] = Plan(engine.profile)
    return plan


def whole_plan(engine: Engine) -> Plan:
    """The plan of all the families of the engine's profile (``fill``'s when given None)."""
    # typed (a read of the tables is Any, which would make ``plan`` Any): compiled, native reads of its attributes
    whole: Plan | None = engine.tables.get("legal plan")
    return _plan(engine) if whole is None else whole


def plan_of(engine: Engine, kinds: frozenset[str]) -> Plan:
    """The plan of the engine's profile for only the families ``kinds`` (``legal_actions_of``), kept with the
    families' tables of the profile under a key of its own. A caller that lists often (a search) keeps it."""
    key = "legal plan/" + ",".join(sorted(kinds))
    plan: Plan | None = engine.tables.get(key)
    if plan is None:
        plan = engine.tables[key] = Plan(engine.profile, kinds)
    return plan


def fill(engine: Engine, s: GameState, out: list[Decision], after: list[Decision],
          plan: Plan | None = None, keep: int = 0) -> int:
    """The legal decisions, in three parts: before the casinos into ``out`` (builds; in the draw step, the
    draw), each casino's into ``engine.slots[i]`` for ``i`` below the number returned, after them into
    ``after`` (end). The caller reads the slots and empties them (``empty``): every slot is empty between
    lists, so a caller may read them all rather than the first ones. ``plan``: the families to ask (the
    profile's, all of them, when None). ``keep``: dollars the player keeps: no purchase is listed that would leave
    it less (``Moment.budget``; greedy's reserve: it values none of them). (Pure Python's pick, ``random_pick``,
    writes this out, counting what it can rather than listing it.)"""
    if plan is None:  # (``whole_plan``, written out: in the pure build, a call a list costs)
        whole: Plan | None = engine.tables.get("legal plan")
        plan = _plan(engine) if whole is None else whole
    if s.phase != "actions":  # resting at "X is to draw": the draw (and trades, never listed)
        for waiting in plan.waiting:
            waiting.generate_waiting(engine, s, out)
        return 0
    m = engine.moment
    m = Moment(engine, s) if m is None else m.moment(engine, s)
    engine.moment = m
    if keep > 0:  # (a negative reserve lists no more than the player can pay)
        m.budget = m.money - keep
    for before in plan.before:
        before.generate_before(m, out)
    # each casino's decisions go into its own slot, so the list keeps board order of casinos, then family order
    if not _COMPILED:  # ``_casino_rows`` written out (a call a list fewer); each family's casinos read from the
        #   moment's list by its role's place: one subscript (the switch below costs pure Python 6-12 bytecodes a
        #   family, ``enumerate`` and ``roles[i]`` four more)
        player = m.player
        m.casinos = casinos = m.index.with_dice()
        n = len(casinos)
        slots = engine.slots
        while len(slots) < n:
            slots.append([])
        m.slots = slots
        if casinos is not m.roles_of or player != m.roles_player:
            _list_roles(m, casinos, player)
        elif m.by_role[_RIVALS] is _UNLISTED:  # (the pick's roles, the rivals left out)
            _list_rivals(m, casinos, player)
        if m.rows_stale:  # (only where a test ran the compiled way on this moment: its masks, no positions)
            _write_rows(m)
        by_role = m.by_role
        if plan.every:
            every = by_role[_EVERY]
            if len(every) != n:  # (every position: a list as long is 0 ... n - 1 already)
                every[:] = range(n)
        bands = plan.bands  # the casino families with something to list at this budget (``_bands``)
        if bands is None:
            bands = _bands(plan, m)
        budget = m.budget
        try:
            for generate, role in bands[-1 if budget >= len(bands) else budget if budget >= 0 else 0]:
                mine = by_role[role]
                if mine:  # a family with no casino to look at is not asked
                    generate(m, mine)
        except BaseException:
            empty(engine.slots)
            raise
        for last in plan.after:
            last.generate_after(m, after)
        return n
    n = _casino_rows(engine, m)
    if m.rows_stale:  # (compiled: the roles as masks only, since the last list that was made)
        _write_rows(m)
    elif m.by_role[_RIVALS] is _UNLISTED:  # (only where a test runs this way after pure Python's pick)
        _list_rivals(m, m.casinos, m.player)
    bossed, diced, rivals = m.bossed_rows, m.diced_rows, m.rivals_rows
    roles = plan.roles
    try:
        for i, family in enumerate(plan.casinos):
            role = roles[i]
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
        empty(engine.slots)
        raise
    for last in plan.after:
        last.generate_after(m, after)
    return n


def _casino_rows(engine: Engine, m: Moment) -> int:
    """The casinos of the list (``m.casinos``, with their dice facts), a slot for each (``m.slots``: the engine's,
    kept from list to list, emptied after use: no new lists) and the roles of the player's casinos (``_roles``),
    for ``fill`` and ``_tally``: the number of casinos."""
    player = m.player
    m.casinos = casinos = m.index.with_dice()
    n = len(casinos)
    slots = engine.slots
    while len(slots) < n:
        slots.append([])
    m.slots = slots
    if casinos is not m.roles_of or player != m.roles_player:  # the roles depend on nothing else (see _roles)
        _roles(m, casinos, player)
    return n


def _list_roles(m: Moment, casinos: list[tuple[Casino, DiceFacts]], player: int) -> None:
    """(Pure Python's ``fill`` and pick.) The positions of each role's casinos (``Family.casinos``) for ``player``
    listed at once into the moment's own lists, emptied first (``m.bossed_rows``, ``diced_rows``, ``rivals_rows``),
    kept with the list and the player they are for (as ``_roles``). Fewer bytecodes than ``_roles``' masks:
    ``None == player`` is false, ``in`` is one C call, and no mask is made (each bit a new int: +0.8 M a game)."""
    m.roles_facts = _NO_FACTS  # (the pick's: not these roles' unless it sets them again)
    bossed_rows, diced_rows, rivals_rows = m.bossed_rows, m.diced_rows, m.rivals_rows
    bossed_rows.clear()
    diced_rows.clear()
    rivals_rows.clear()
    i = 0  # (a count kept, not ``enumerate``: two bytecodes more a casino but less time, round 25)
    for _, facts in casinos:
        if player in facts.owners:  # (the boss has a die there: a casino without the player's die is a rival's
            #   where it has a boss, tested first, in fewer bytecodes; most casinos)
            b = facts.boss
            diced_rows.append(i)
            if b == player:
                bossed_rows.append(i)
            elif b is not None:
                rivals_rows.append(i)
        elif facts.boss is not None:
            rivals_rows.append(i)
        i += 1
    m.masks_stale = True  # (nothing of pure Python's reads them: ``_masks`` when asked)
    m.rows_stale = False
    m.by_role[_RIVALS] = rivals_rows
    m.roles_of, m.roles_player = casinos, player


def _list_rivals(m: Moment, casinos: list[tuple[Casino, DiceFacts]], player: int) -> None:
    """The positions of the rivals' casinos into ``m.rivals_rows`` (emptied first), where the pick left them out
    (``random_pick``): for a list made, a family asked about them, or casinos without a boss."""
    rivals_rows = m.rivals_rows
    rivals_rows.clear()
    i = 0
    for _, facts in casinos:
        b = facts.boss
        if b is not None and b != player:
            rivals_rows.append(i)
        i += 1
    m.by_role[_RIVALS] = rivals_rows


def _roles(m: Moment, casinos: list[tuple[Casino, DiceFacts]], player: int) -> None:
    """The casinos of each role (``Family.casinos``) for ``player`` as masks, bit ``i`` the casino ``casinos[i]``,
    into ``m.bossed``, ``m.diced`` and ``m.rivals``, kept with the list and the player they are for: ``with_dice``
    gives the very same list until a tile or a die changes (it is never changed, and its casinos and dice facts
    are values), so the same list and player have the same roles (``m.roles_of`` holds the list: its id is not
    reused meanwhile). Compiled, another list as long for the same player (after most decisions) keeps the roles of
    the pairs that are the very same objects (``with_dice`` keeps the pairs of the casinos no tile or die changed)
    and works out the others' (``_role``); else a few int operations a casino; no list written (the positions, which
    only a list made needs, are written from the masks by ``fill``: ``_write_rows``). (Pure Python's ``fill`` lists
    the positions itself, in its own fewer bytecodes, and ``_masks`` sums the masks from them where asked.)"""
    m.roles_facts = _NO_FACTS  # (the positions pure Python's ``_list_roles`` listed are not these roles')
    old = m.roles_of
    if _COMPILED and old is not None and player == m.roles_player and len(old) == len(casinos) \
            and not m.masks_stale:
        was = cast("list[object]", old)  # (the pairs as objects: compiled, a pointer compare each, no tuple unboxed)
        now = cast("list[object]", casinos)
        bossed: i64 = m.bossed
        diced: i64 = m.diced
        rivals: i64 = m.rivals
        bit: i64 = 1
        k = 0
        for kept in now:  # (the new list walked, the old one read by index; its own name: ``pair`` below is a
            #   tuple, which compiled would box each pair as a new tuple object again)
            if was[k] is not kept:
                role = _role(casinos[k][1], player)
                bossed = bossed | bit if role & 1 else bossed & ~bit
                diced = diced | bit if role & 2 else diced & ~bit
                rivals = rivals | bit if role & 4 else rivals & ~bit
            bit <<= 1
            k += 1
        if bossed != m.bossed or diced != m.diced or rivals != m.rivals:  # (the same roles: the positions too)
            m.bossed, m.diced, m.rivals = bossed, diced, rivals
            m.rows_stale = True
        m.roles_of = casinos
        return
    bossed = diced = rivals = 0
    bit = 1
    for pair in casinos:
        facts = pair[1]
        b = facts.boss
        if b is not None:
            if b == player:  # the boss has a die: bossed is part of diced
                bossed |= bit
                diced |= bit
            else:
                rivals |= bit
                for owner in facts.owners:  # (``player in facts.owners``: native compares)
                    if owner == player:
                        diced |= bit
                        break
        else:
            for owner in facts.owners:
                if owner == player:
                    diced |= bit
                    break
        bit <<= 1
    if bossed != m.bossed or diced != m.diced or rivals != m.rivals or m.masks_stale:
        m.bossed, m.diced, m.rivals = bossed, diced, rivals
        m.rows_stale = True
        m.masks_stale = False
    m.roles_of, m.roles_player = casinos, player


def _write_rows(m: Moment) -> None:
    """(Compiled, for ``fill``.) The positions of the set bits of each role's mask into the moment's lists, written
    over in place and cut (a list emptied frees its array, and the next append mallocs it)."""
    _write_mask(m.bossed_rows, m.bossed)
    _write_mask(m.diced_rows, m.diced)
    _write_mask(m.rivals_rows, m.rivals)
    m.rows_stale = False
    m.by_role[_RIVALS] = m.rivals_rows


def _masks(m: Moment) -> None:
    """The masks of each role from the positions pure Python's ``_roles`` listed (``_tally`` with its ``_COMPILED``
    patched, as tests do)."""
    if m.by_role[_RIVALS] is _UNLISTED:
        _list_rivals(m, m.casinos, m.player)
    m.bossed = sum([1 << i for i in m.bossed_rows])
    m.diced = sum([1 << i for i in m.diced_rows])
    m.rivals = sum([1 << i for i in m.rivals_rows])
    m.masks_stale = False


def _write_mask(rows: list[int], mask: int) -> None:
    bits: i64 = mask
    k = 0
    i = 0
    while bits:
        if bits & 1:
            if k < len(rows):
                rows[k] = i
            else:
                rows.append(i)
            k += 1
        bits >>= 1
        i += 1
    while len(rows) > k:
        rows.pop()


def _role(facts: DiceFacts, player: int) -> int:
    """The roles of a casino with these dice facts for ``player`` (``_roles``), as bits: bossed 1, diced 2,
    rivals 4."""
    b = facts.boss
    if b is not None and b == player:
        return 3
    role = 0
    for owner in facts.owners:
        if owner == player:
            role = 2
            break
    return role + 4 if b is not None else role


def empty(slots: list[list[Decision]]) -> None:
    for slot in slots:  # leave nothing behind for the next list
        slot.clear()


def legal_actions(engine: Engine, s: GameState) -> list[Decision]:
    out: list[Decision] = []
    after: list[Decision] = []
    return _joined(engine, out, after, fill(engine, s, out, after))


def legal_actions_of(engine: Engine, s: GameState, kinds: frozenset[str] | Plan) -> list[Decision]:
    """``legal_actions`` with only the decisions of the families named in ``kinds`` (``Family.name``; or their
    ``plan_of``, kept by a caller that lists often), the draw and the end of the turn always: the same decisions
    in the same order as ``[a for a in legal_actions(engine, s) if its family is in kinds or is not taken by a
    player]``, without making the others. For a bot that values only some kinds (a search's ``greedy``
    playouts: ``bots.GREEDY_TAKES``)."""
    plan = kinds if isinstance(kinds, Plan) else plan_of(engine, kinds)
    out: list[Decision] = []
    after: list[Decision] = []
    return _joined(engine, out, after, fill(engine, s, out, after, plan))


def _joined(engine: Engine, out: list[Decision], after: list[Decision], n: int) -> list[Decision]:
    """``out``, then the decisions of the first ``n`` slots (emptied; the others are empty), then ``after``: the
    list ``fill`` made."""
    slots = engine.slots
    if _COMPILED:  # a slot holds a few decisions: appended one by one, natively (an extend is a slice assignment)
        for i in range(n):
            slot = slots[i]
            k = len(slot)
            if k:
                for j in range(k):
                    out.append(slot[j])
                slot.clear()
        for d in after:
            out.append(d)
        return out
    for i in range(n):
        slot = slots[i]
        if slot:
            out.extend(slot)
            slot.clear()
    out.extend(after)
    return out


def _tally(engine: Engine, s: GameState, plan: Plan) -> int:
    """The number of legal decisions in the action step, counted without making them (``Family.count_*``): of each
    family before and after the casinos into the moment's ``before_counts`` and ``after_counts`` (in the plan's
    order), at each casino: of the families with one decision at a casino (``Plan.ones``) as the casinos that have
    it (``ones_in``), added up as bits (``m.ones_low``, ``m.ones_high``: no boxed count written at a casino), of the
    others into ``counts`` (the first ``len(m.casinos)``; all 0 between lists), at the casinos ``m.written``.
    ``_made`` then makes the one picked and sets the counts back to 0 (``legal_count``: ``_zero``). The slots stay
    empty."""
    m = engine.moment
    m = Moment(engine, s) if m is None else m.moment(engine, s)
    engine.moment = m
    total = 0
    counted = m.before_counts
    k = 0
    for before in plan.before:
        c = before.count_before(m)
        if k < len(counted):
            counted[k] = c
        else:
            counted.append(c)
        total += c
        k += 1
    n = _casino_rows(engine, m)  # (the slots empty: a family's default count generates into them and empties them)
    counts = m.counts
    while len(counts) < n:
        counts.append(0)
    if m.masks_stale:
        _masks(m)
    # (machine ints, compiled: native operations, where tagged ints test their tags at each)
    bossed: i64 = m.bossed
    diced: i64 = m.diced
    rivals: i64 = m.rivals
    roles = plan.roles
    kinds: i64 = plan.ones_mask  # bit ``j``: ``plan.ones[j]`` (no list read)
    low: i64 = 0  # the one-decision families' counts as two bit planes; the casinos the others count at
    high: i64 = 0
    written: i64 = 0
    try:
        for j, family in enumerate(plan.casinos):
            role = roles[j]
            mask: i64
            if role == _BOSSED:
                mask = bossed
            elif role == _DICED:
                mask = diced
            elif role == _RIVALS:
                mask = rivals
            else:  # EVERY
                mask = (1 << n) - 1
            if mask:  # a family with no casino to look at is not asked
                if kinds >> j & 1:  # its casinos as a mask, added to the planes (no count written at a casino)
                    got: i64 = family.ones_in(m, mask)
                    if got:
                        high |= low & got
                        low ^= got
                        while got:  # (its bits counted: a native loop)
                            got &= got - 1
                            total += 1
                else:
                    total += family.count_in(m, mask, counts)
                    written |= mask
    except BaseException:
        empty(engine.slots)
        m.written = (1 << n) - 1  # (any of them may have been written)
        _zero(m)
        raise
    m.ones_low, m.ones_high, m.written = low, high, written
    counted = m.after_counts
    k = 0
    for last in plan.after:
        c = last.count_after(m)
        if k < len(counted):
            counted[k] = c
        else:
            counted.append(c)
        total += c
        k += 1
    return total


def _zero(m: Moment) -> None:
    """Every count at a casino 0 again (``_tally``'s, after use): those it may have written (``m.written``)."""
    counts = m.counts
    bits: i64 = m.written
    i: i64 = 0
    while bits:
        if bits & 1 and counts[i]:
            counts[i] = 0
        bits >>= 1
        i += 1
    m.written = 0


def _made(engine: Engine, plan: Plan, i: int) -> Decision:
    """``legal_actions(engine, s)[i]`` of the list ``_tally`` counted, its counts at the casinos set back to 0:
    the family before or after the casinos whose decision it is makes it (``make_before``, ``make_after``); at a
    casino, ``_made_at``: the casinos walked in board order, those with a decision only (a bit in the planes or in
    ``m.written``)."""
    m = engine.moment
    assert m is not None  # the one ``_tally`` renewed
    counted = m.before_counts
    k = 0
    for before in plan.before:
        c = counted[k]
        if i < c:
            _zero(m)
            return before.make_before(m, i)
        i -= c
        k += 1
    counts = m.counts
    written: i64 = m.written
    low: i64 = m.ones_low
    high: i64 = m.ones_high
    bits: i64 = written | low | high
    r: i64 = 0
    while bits:  # the casino of the decision found: each casino with a decision, in board order, its count 0 again
        if bits & 1:
            single = (low >> r & 1) + (high >> r & 1) * 2
            multi = 0
            if written >> r & 1:
                multi = counts[r]
                if multi:
                    counts[r] = 0
            c = single + multi
            if i < c:
                m.written = written >> r >> 1 << r << 1  # (those after it: still to be set back to 0)
                _zero(m)
                return _made_at(m, plan, r, i, multi, single)
            i -= c
        bits >>= 1
        r += 1
    m.written = 0
    counted = m.after_counts
    k = 0
    for last in plan.after:
        c = counted[k]
        if i < c:
            return last.make_after(m, i)
        i -= c
        k += 1
    raise IndexError(f"no decision {i} past the end of the list")


def _made_at(m: Moment, plan: Plan, row: int, i: int, multi: int, single: int) -> Decision:
    """The ``i``-th decision at the casino at position ``row`` of ``m.casinos``, which has ``multi`` decisions of
    the families counted into ``counts`` and ``single`` of those counted as bits (``Plan.ones``): the families asked
    about it, in the plan's order, counted at it alone (into ``m.counts[row]``, 0 when asked and left 0; a family
    of ``Plan.ones`` by ``ones_in``) until the one whose decision it is, which makes it (``make_casino``). Not
    counted: the last family of each kind asked (it has what the others of its kind left), and none of a kind with
    nothing left (at the player's casino: a raise or a reorganization counts neither sprawl nor remodel there; a
    remodel counts sprawl alone; a gamble at a rival's casino counts nothing)."""
    counts = m.counts
    # (machine ints, compiled: native shifts and tests, where tagged ints call a C function for a shift)
    at: i64 = row
    one: i64 = 1 << at
    bossed: i64 = m.bossed
    diced: i64 = m.diced
    rivals: i64 = m.rivals
    # its roles as bits, bit ``1 << role`` (_BOSSED ... _RIVALS): bossed 1, diced 2, rivals 4
    mine: i64 = (bossed >> at & 1) | (diced >> at & 1) << 1 | (rivals >> at & 1) << 2
    roles = plan.roles
    asked: i64 = 0  # the families asked about the casino, bit ``j`` the plan's ``casinos[j]``: one pass over roles
    bit: i64 = 1
    for role in roles:
        if role > _RIVALS or mine >> role & 1:  # EVERY, or a role the casino has
            asked |= bit
        bit <<= 1
    kinds: i64 = plan.ones_mask
    singles: i64 = asked & kinds  # those asked of each kind, shifted along with ``asked``
    multis: i64 = asked & ~kinds
    families = plan.casinos
    j = 0
    while asked:
        if asked & 1:
            family = families[j]
            if singles & 1:  # one of ``Plan.ones``
                if single == 0 or singles == 1:  # none left, or the last of its kind: what is left
                    c = single
                else:
                    c = 1 if family.ones_in(m, one) else 0
                single -= c
            else:
                if multi == 0 or multis == 1:
                    c = multi
                else:
                    c = family.count_in(m, one, counts)
                    counts[row] = 0
                multi -= c
            if i < c:
                return family.make_casino(m, row, i)
            i -= c
        asked >>= 1
        singles >>= 1
        multis >>= 1
        j += 1
    raise IndexError(f"no decision {i} past the last at the casino at {m.casinos[row][0].name}")


def _waiting(engine: Engine, s: GameState, plan: Plan) -> list[Decision]:
    """The legal decisions outside the action step (the draw): ``fill``'s, as a list."""
    out: list[Decision] = []
    for waiting in plan.waiting:
        waiting.generate_waiting(engine, s, out)
    return out


def _count(engine: Engine, s: GameState, out: list[Decision], after: list[Decision]) -> int:
    """(Pure Python's pick.) ``fill``, the slots joined into ``out`` (``list.extend``, one C call a slot) and
    emptied, then the number of legal decisions in all: ``_take`` takes one."""
    fill(engine, s, out, after)
    for slot in engine.slots:
        if slot:
            out.extend(slot)
            slot.clear()
    return len(out) + len(after)


def _take(out: list[Decision], after: list[Decision], i: int) -> Decision:
    """``legal_actions(engine, s)[i]`` of the list ``_count`` counted: ``out``, then ``after``."""
    return out[i] if i < len(out) else after[i - len(out)]


def legal_pick(engine: Engine, s: GameState, choose: Callable[[int], int]) -> tuple[Decision | None, int]:
    """``(legal_actions(engine, s)[choose(n)], n)`` where ``n`` is the number of legal decisions. ``choose`` is
    given ``n`` (0 when there is none: the game is over; the decision is then None and ``choose`` is not
    called) and returns an index below it. Compiled, the decisions are counted and only the one chosen is made
    (``_tally``, ``_made``); in pure Python the list is made in its parts and not joined (``_count``, ``_take``:
    there a generator's append costs less than a count kept by casino and the chosen decision made again)."""
    if not _COMPILED:
        out: list[Decision] = []
        after: list[Decision] = []
        total = _count(engine, s, out, after)
        if not total:
            return None, 0
        return _take(out, after, choose(total)), total
    whole: Plan | None = engine.tables.get("legal plan")
    plan = _plan(engine) if whole is None else whole
    if s.phase != "actions":
        waiting = _waiting(engine, s, plan)
        if not waiting:
            return None, 0
        return waiting[choose(len(waiting))], len(waiting)
    total = _tally(engine, s, plan)
    if not total:
        return None, 0
    try:
        i = choose(total)
    except BaseException:
        m = engine.moment
        assert m is not None
        _zero(m)
        raise
    return _made(engine, plan, i), total


def random_pick(engine: Engine, s: GameState, rng: random.Random) -> tuple[Decision | None, int]:
    """``legal_pick`` choosing ``rng.choice(range(n))`` (the uniform bot's draw, ``below``)."""
    plan: Plan | None = engine.tables.get("legal plan")
    if plan is None:
        plan = _plan(engine)
    if not _COMPILED:  # ``_count`` and ``_take`` written out (two calls a list fewer), the list counted rather than
        #   joined: the decisions before the casinos counted (``count_before``, asked again where one is drawn), the
        #   plan's last casino family too where it says how many it has at each casino (``Family.each_casino``),
        #   the others' in their slots (``plan.filled_role``'s casinos), then ``after``; the drawn decision found
        #   where it is (made by its family before the casinos, ``make_before``; at a casino, walked in board order:
        #   each casino's slot, then the counted family's ``each``, made by its ``make_casino``; or in ``after``),
        #   the slots emptied: no decision made but those listed in the slots and the one drawn
        if s.phase != "actions":  # resting at "X is to draw": the draw (and trades, never listed)
            out: list[Decision] = []
            for draw in plan.waiting:
                draw.generate_waiting(engine, s, out)
            if not out:
                return None, 0
            return out[below(rng, len(out))], len(out)
        # ``fill``'s pure path written out (a call a list fewer), counting where it can: the decisions before the
        #   casinos counted (``count_before``); the roles as ``fill`` lists them; the last casino family counted
        #   where it says how many (``each_casino``)
        m = engine.moment
        if m is None:
            m = engine.moment = Moment(engine, s)
        # (``Moment.moment`` written out, a call a list fewer, unless a colour has no tile left or the number of
        #   players is another; the same state with the same stamp has the same tiles and players)
        stamp = s.structure
        if stamp != m.structure or s is not m.state:  # the tiles moved: their facts, where every colour is open now
            #   and was at the last renewal (most of a game): the tiles left by colour made only if read
            #   (``Moment.left``), the colours with at least 1 left every colour (the board's own tuple)
            colors = m.board.colors
            # (every colour below its supply: none at it, one ``in``, where a state never has more on the board,
            #   position.py; ``max`` was a C call with its arguments parsed, fewer bytecodes but more time, round 25)
            if m.open_colors is colors and len(s.players) == m.players and m.per_color not in s.color_counts:
                with_ = m._with
                if len(with_) != 1:
                    with_.clear()
                with_[1] = colors
                m.colors_with = with_
                m._left = None
                m.structure = stamp
                m.state = s
            else:  # (the player, their money, ... read below)
                m.renew(engine, s, stamp)
                m.state = s
        # the player, their money, the state's casino index: the last list's where it is the state's and current
        #   (its join rule then the moment's), else as ``Engine.index``
        m.player = player = s.current
        m.money = m.budget = band = s.players[player].money  # (the place of its band: the budget, ``_bands``)
        m.markers = s.markers
        index = s._casinos
        if index is not m.index or index.dirty:
            m.index = index = index if index is not None and not index.dirty and index.join_rule == m.join_rule \
                else casino_index(m.board, s, m.join_rule)
        kb = 0  # (no family's own count kept: asked again where a decision before the casinos is drawn)
        for before in plan.before:
            kb += before.count_before(m)
        casinos = index._with_dice  # (``with_dice``, a call fewer where it is kept: after a gamble, a turn's start)
        if casinos is None:
            casinos = index.with_dice()
        m.casinos = casinos
        slots = m.slots  # (the engine's: ``Moment`` takes them when made)
        if casinos is not m.roles_of or player != m.roles_player:
            # the roles are read from the casinos' dice facts alone, and the index keeps each current casino's by its
            #   first lot (``CasinoIndex._facts``: forgotten where a casino's lots or dice change, so a new object
            #   then): where those are the very ones (or equal ones) of the roles the pick listed last, for the same
            #   player, the casinos are the same in the same order with the same dice (a remodel's or a raise's
            #   list: new casinos, the same dice), and so are the positions (``m.roles_facts``; one compare in C)
            facts = index._facts
            if player != m.roles_player or facts != m.roles_facts or m.rows_stale:
                # listed again, as ``_list_roles`` (written out: a call a list fewer) but for the rivals' casinos where
                #   every casino has a boss (a tie or a tile without a die has none: then listed too, ``_list_rivals``):
                #   those the player does not boss, counted (``m.rivals_count``; ``_UNLISTED`` in their place in
                #   ``by_role``) and walked as the gaps between the player's below; no append a rival's casino (most)
                bossed_rows, diced_rows = m.bossed_rows, m.diced_rows
                bossed_rows.clear()
                diced_rows.clear()
                unbossed = 0
                i = 0
                for _, dice in casinos:
                    if player in dice.owners:
                        b = dice.boss
                        diced_rows.append(i)
                        if b == player:
                            bossed_rows.append(i)
                        elif b is None:
                            unbossed += 1
                    elif dice.boss is None:
                        unbossed += 1
                    i += 1
                m.masks_stale = True  # (nothing of pure Python's reads them: ``_masks`` when asked)
                m.rows_stale = False
                m.roles_of, m.roles_player, m.roles_facts = casinos, player, facts[:]
                if unbossed:
                    _list_rivals(m, casinos, player)
                else:
                    m.by_role[_RIVALS] = _UNLISTED
                    m.rivals_count = i - len(bossed_rows)
                while len(slots) < i:  # (another list: a slot each; the roles kept, the list is as long)
                    slots.append([])
            else:
                m.roles_of = casinos
        elif m.rows_stale:  # (the roles kept, as masks only where a test ran the compiled way on this moment)
            _write_rows(m)
        by_role = m.by_role
        if plan.every:
            every = by_role[_EVERY]
            if len(every) != len(casinos):
                every[:] = range(len(casinos))
        # the casino families with something to list at this budget (``_bands``), by the budget (past the last:
        #   grown to it, ``_band_at``)
        bands = plan.bands
        if bands is None:
            bands = _bands(plan, m)
        try:
            pairs = bands[band]
        except IndexError:
            band = _band_at(plan, band)
            pairs = bands[band]
        last = plan.last
        each = -1 if last is None else last.each_casino(m)
        lazy: list[int] | None
        if each >= 0:
            pairs = plan.eager_bands[band]
            lazy = by_role[plan.last_role]
        else:
            lazy = None
            if by_role[_RIVALS] is _UNLISTED:  # (every family asked: those of the rivals' casinos given them)
                _list_rivals(m, casinos, player)
        try:
            for generate, role in pairs:
                mine = by_role[role]
                if mine:  # a family with no casino to look at is not asked
                    generate(m, mine)
        except BaseException:
            empty(slots)
            raise
        # the decisions after the casinos (made where drawn: ``make_after``): their number where it never changes
        #   (the end of the turn's 1: ``Family.fixed_after``), not asked; else counted (``count_after``)
        ka = plan.after_count if plan.after_of is plan.after else _count_after(plan, m)
        if lazy is not None:  # (no casino: every role's list empty, the count 0)
            filled = by_role[plan.filled_role] if pairs else _NOWHERE  # (no family asked: no slot filled)
            # (the rivals' casinos not listed, above: their number)
            c = (m.rivals_count if lazy is _UNLISTED else len(lazy)) * each
            for p in filled:
                c += len(slots[p])
        else:  # the casinos' decisions joined (every family asked)
            filled = _NOWHERE
            each = 0
            out = []
            for slot in slots:
                if slot:
                    out.extend(slot)
                    slot.clear()
            c = len(out)
        total = kb + c + ka
        if not total:
            return None, 0
        if type(rng) is _RANDOM:  # (``below`` written out: a call a pick fewer)
            k = total.bit_length()
            i = _GETRANDBITS(rng, k)
            while i >= total:
                i = _GETRANDBITS(rng, k)
        else:
            i = below(rng, total)
        if i < kb:  # before the casinos: made by its family (its count asked again, where there are others)
            found = None
            befores = plan.before
            for before in befores:
                c = kb if len(befores) == 1 else before.count_before(m)
                if i < c:
                    found = before.make_before(m, i)
                    break
                i -= c
        else:
            i -= kb
            if i >= c:  # after the casinos: made by its family (its count asked again, where there are others)
                i -= c
                afters = plan.after
                for family in afters:
                    k = ka if len(afters) == 1 else family.count_after(m)
                    if i < k:
                        found = family.make_after(m, i)
                        break
                    i -= k
            elif lazy is _UNLISTED:  # at a casino: the player's casinos in board order (``diced``: the slots are theirs), the
                #   counted family's ``each`` at every other casino (a rival's) and after the slot at theirs they do
                #   not boss. ``x``: ``i`` less the slots' decisions passed, plus ``each`` a casino of theirs passed
                #   that they boss, so that the decisions of the casinos up to the one at position ``p`` are ``p *
                #   each`` of ``x`` (the counted family's at the casino ``x // each`` where it is below)
                assert last is not None
                found = None
                bossed = m.bossed_rows
                x = i
                for p in m.diced_rows:
                    at = p * each
                    if x < at:  # at a rival's casino before this one
                        break
                    slot = slots[p]
                    if slot:
                        j = len(slot)
                        if x < at + j:
                            found = slot[x - at]
                            break
                        x -= j
                    if p in bossed:  # (theirs: none of the counted family's there)
                        x += each
                if found is None:  # at a rival's casino: the one before the player's casino the walk stopped at
                    found = last.make_casino(m, x // each, x % each)
            elif lazy is None:
                found = out[i]
            else:  # at a casino: the counted family's casinos in board order, each after the slots of the others'
                #   casinos up to it (few: the player's), then the slots after the last
                found = None
                f = 0  # the next of ``filled``, at the position ``at`` (``n`` past the last)
                nf = len(filled)
                n = len(casinos)
                at = filled[0] if nf else n
                for q in lazy if each else ():
                    while at <= q:  # the slots of the casinos up to this one
                        slot = slots[at]
                        j = len(slot)
                        if i < j:
                            found = slot[i]
                            break
                        i -= j
                        f += 1
                        at = filled[f] if f < nf else n
                    else:  # (not in those slots) the counted family's at this casino, or on to the next
                        if i < each:
                            assert last is not None
                            found = last.make_casino(m, q, i)
                            break
                        i -= each
                        continue
                    break
                else:  # (``i`` is below ``c``: in one of the slots left)
                    while i >= len(slots[filled[f]]):
                        i -= len(slots[filled[f]])
                        f += 1
                    found = slots[filled[f]][i]
        for p in filled:
            slots[p].clear()
        return found, total
    if s.phase != "actions":
        waiting = _waiting(engine, s, plan)
        if not waiting:
            return None, 0
        return waiting[below(rng, len(waiting))], len(waiting)
    total = _tally(engine, s, plan)
    if not total:
        return None, 0
    return _made(engine, plan, below(rng, total)), total


def staked(gamble: Gamble, rng: random.Random) -> Gamble:
    """``gamble`` (a pick's: listed at its largest bet) at a stake drawn as the uniform bot draws it after the
    pick, ``rng.randint(1, gamble.bet)`` (``Game.random_legal``; ``bots.play``, which writes that out)."""
    return gamble_of(gamble.lot, 1 + below(rng, gamble.bet))


def _count_after(plan: Plan, m: Moment) -> int:
    """(Pure Python's pick.) The number of decisions after the casinos where ``plan.after_count`` is not for
    ``plan.after`` (``plan.after_of``): worked out again for that list (``Family.fixed_after`` of each family; -1
    where one says nothing, and then ``after_of`` None: this is asked each list), else each family's
    ``count_after`` added up."""
    afters = plan.after
    if plan.after_of is not afters:
        fixed = 0
        for family in afters:
            k = family.fixed_after()
            if k < 0:
                fixed = -1
                break
            fixed += k
        plan.after_count = fixed
        plan.after_of = afters if fixed >= 0 else None  # (None: asked each list)
    total = plan.after_count
    if total < 0:
        total = 0
        for family in afters:
            total += family.count_after(m)
    return total


def legal_count(engine: Engine, s: GameState) -> int:
    """``len(legal_actions(engine, s))``, without making the list (compiled: counted, ``_tally``)."""
    if not _COMPILED:
        total = _count(engine, s, [], [])
        empty(engine.slots)
        return total
    whole: Plan | None = engine.tables.get("legal plan")
    plan = _plan(engine) if whole is None else whole
    if s.phase != "actions":
        return len(_waiting(engine, s, plan))
    total = _tally(engine, s, plan)
    m = engine.moment
    assert m is not None
    _zero(m)
    return total

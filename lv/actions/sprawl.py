"""Sprawl: your casino spreads onto an empty neighbouring lot nobody owns. 000 "Action - Sprawl" L140-147;
003 "Action - Sprawl" L485-515, L555-568.

``sprawl A3 from A2``: pay the lot's price times ``sprawl.cost_multiplier`` (plus ``sprawl.riser_cost`` per
level above the first), put a tile of the casino's colour and height on it and your die showing its value.

Events: sprawled(player, lot, source, color, height, cost, value, moved_from): ``value`` None when the player had
no die left.
"""

from __future__ import annotations

from collections.abc import Sequence
from sys import maxsize
from typing import TYPE_CHECKING, Any, ClassVar, Final

from mypy_extensions import i64, mypyc_attr

from ..board import popcount
from ..casinos import boss
from ..events import Event, register
from ..ruleids import Rule
from ._family import (BOSSED, Decision, Family, Lazy, Moment, Reason, Words, closed_block, new_die_text, not_boss,
                      refuse, tiles_left)
from ._values import COMPILED, FrozenDecision, as_text, new_event, set_once

if TYPE_CHECKING:
    from ..board import Board
    from ..casinos import Casino, DiceFacts
    from ..chance import Dice
    from ..profile import Profile
    from ..rules import Engine
    from ..state import GameState


@mypyc_attr(acyclic=True)
class Sprawl(FrozenDecision):
    """Sprawl the casino that holds ``source`` onto the empty neighbouring ``lot``: ``sprawl A3 from A2``."""

    kind: ClassVar[str] = "sprawl"
    _keys: ClassVar[tuple[str, ...]] = ("lot", "source")
    __slots__ = _keys

    def __init__(self, lot: Any, source: Any) -> None:
        self.lot: Final[str] = as_text(self, "lot", lot)
        self.source: Final[str] = as_text(self, "source", source)  # any lot of the sprawling casino

    def _values(self) -> tuple[Any, ...]:
        return (self.lot, self.source)

    def __setattr__(self, name: str, value: object) -> None:
        set_once(self, name, value)


@mypyc_attr(acyclic=True)
class Sprawled(Event):
    kind: ClassVar[str] = "sprawled"
    _keys: ClassVar[tuple[str, ...]] = ("player", "lot", "source", "color", "height", "cost", "value",
                                        "moved_from")
    __slots__ = _keys

    def __init__(self, player: int, lot: str, source: str, color: str, height: int, cost: int, value: int | None,
                 moved_from: str | None) -> None:
        self.player = player
        self.lot = lot
        self.source = source
        self.color = color
        self.height = height
        self.cost = cost
        self.value = value
        self.moved_from = moved_from


register(Sprawled)


@mypyc_attr(acyclic=True)
class Reach:
    """A casino's sprawls onto some free lots (``_reach``): their costs, the sprawls, the dearest cost, and those
    lots (``free``). A plain class: compiled, kept in lists and dicts as it is (a tuple of fixed length is unboxed
    when read and made anew, its ints boxed, when stored)."""

    __slots__ = ("costs", "sprawls", "dearest", "free", "bits", "cheapest")

    def __init__(self, costs: tuple[int, ...], sprawls: tuple[Sprawl, ...], dearest: int, free: int,
                 bits: tuple[int, ...] = (), cheapest: int = 0) -> None:
        self.costs = costs
        self.sprawls = sprawls
        self.dearest = dearest
        self.free = free
        self.bits = bits  # a ring's (``_ring``): each lot's bit, in the same order; else empty
        self.cheapest = cheapest  # the least of ``costs``: a player with less makes none of them


_NO_REACH: Final = Reach((), (), 0, 0)  # ``SprawlTable.last_found`` before a casino is first looked up


class SprawlTable:
    """Sprawl's tables for one profile and board (``prepare``): ``costs`` by height of the sprawling casino, by
    lot; ``reach``: the sprawls a casino may make, by the casino's lots and height (its mask, the height above
    the board's bits), by the lots it may sprawl onto (a mask: empty, unowned, not on the closed block), as
    ``Reach`` (costs, sprawls, the dearest) in the order of its frontier, so the generator tests only the money
    (compiled: int keys, no lookups by lot name). ``seen`` and ``last``: by casino (its first lot's bit,
    ``Casino.first``), the casino and ``reach`` entry it had last (a casino keeps its lots and height for many
    lists, and a ``Casino`` is made once: an identity test and a list read instead of a key and a hash lookup);
    ``last_found``: the ``Reach`` it had last, whose lots free (``Reach.free``) half the casinos asked again
    still have (compiled: an int compare, no int key boxed and hashed)."""

    __slots__ = ("costs", "least", "reach", "seen", "last", "last_found", "bit", "afford")

    def __init__(self, costs: Lazy[int, dict[str, int]], lots: int, bit: dict[str, int] | None = None) -> None:
        self.costs = costs
        self.bit: dict[str, int] = {} if bit is None else bit  # the board's lot -> 1 << its position
        # by height: the lots a sprawl onto costs at most ``money``, as a mask, by money (``affordable``)
        self.afford: list[list[int] | None] = [None] * 64
        # the cheapest sprawl of all (a 1-high casino's, the risers' cost being >= 0): a player with less makes none
        self.least: int = min(costs[1].values())
        self.reach: dict[int, dict[int, Reach]] = {}
        self.seen: list[Casino | None] = [None] * lots
        self.last: list[dict[int, Reach]] = [{} for _ in range(lots)]
        self.last_found: list[Reach] = [_NO_REACH] * lots  # (no lot free: a casino hemmed in is not looked up)

    def affordable(self, height: int, money: int) -> int:
        """The lots a casino ``height`` high may sprawl onto for at most ``money`` (``costs``), as a mask (the
        counted sprawls: ``count_casinos``), worked out once per height for every sum up to the dearest."""
        by_money = self.afford[height] if height < 64 else None
        if by_money is None:
            cost_of, bit = self.costs[height], self.bit
            top = max(cost_of.values())
            at: list[int] = [0] * (top + 1)  # the lots costing exactly k (at least nothing)
            for lot, cost in cost_of.items():
                k = cost if cost > 0 else 0
                at[k] = at[k] | bit[lot]
            by_money = []
            mask = 0
            for k in range(top + 1):
                mask = mask | at[k]
                by_money.append(mask)
            if height < 64:
                self.afford[height] = by_money
        if money >= len(by_money):
            return by_money[len(by_money) - 1]
        if money >= 0:
            return by_money[money]
        mask = 0  # (less than nothing: only a sprawl that pays the player)
        for lot, cost in self.costs[height].items():
            if cost <= money:
                mask |= self.bit[lot]
        return mask


def sprawl_cost(engine: Engine, lot: str, height: int) -> int:
    tables = engine.family_tables  # (the engine's typed field: no lookup by name)
    by_bit = tables.sprawl_by_bit  # the table's costs by height and bit, where it has the height
    if 0 < height < len(by_bit):
        costs = by_bit[height]
        if costs:
            return costs[engine.board.index[lot]]
    return tables.sprawl.costs[height][lot]


# each decision made once: by source casino, by lot
_SPRAWLS: Final[dict[str, dict[str, Sprawl]]] = {}  # (Final: compiled, a C static)


def _sprawls_from(source: str) -> dict[str, Sprawl]:
    made = _SPRAWLS.get(source)
    if made is None:
        made = _SPRAWLS[source] = {}
    return made


def _taken(m: Moment) -> int:
    """The lots no sprawl of this moment may go onto, as a mask: those with a tile or a marker, and the closed block
    (what ``why_not`` refuses lot by lot; the list and its count read it alike)."""
    taken = m.state.tile_mask | m.state.markers_mask
    closed = m.closed
    if closed is not None:
        taken |= m.board.block_mask[closed]
    return taken


def _ring(table: SprawlTable, casino: Casino) -> Reach:
    """The sprawls of ``casino`` onto every lot around it (``around``), in the order of its frontier
    (``frontier``), with their costs, the dearest, and each lot's bit: what ``_reach`` takes its parts from."""
    lots = casino.frontier_lots(casino.around)
    cost_of, bit = table.costs[casino.height], table.bit
    made = _sprawls_from(casino.name)
    sprawls: list[Sprawl] = []
    costs: list[int] = []
    bits: list[int] = []
    for n in lots:
        sprawl = made.get(n)
        if sprawl is None:
            sprawl = made[n] = Sprawl(n, casino.name)
        sprawls.append(sprawl)
        costs.append(cost_of[n])
        bits.append(bit[n])
    return Reach(tuple(costs), tuple(sprawls), max(costs), casino.around, tuple(bits), min(costs))


def _frontier_reach(table: SprawlTable, casino: Casino, free: int) -> Reach:
    """``_reach`` read from the casino's frontier (``frontier_lots``, kept by the casino): the compiled build's
    (there the frontier's native loops cost less than a ring's parts, whose ints are boxed in tuples)."""
    lots = casino.frontier_lots(free)
    cost_of = table.costs[casino.height]
    made = _sprawls_from(casino.name)
    sprawls: list[Sprawl] = []
    costs: list[int] = []
    dearest, cheapest = -maxsize - 1, maxsize
    for n in lots:
        sprawl = made.get(n)
        if sprawl is None:
            sprawl = made[n] = Sprawl(n, casino.name)
        sprawls.append(sprawl)
        cost = cost_of[n]
        costs.append(cost)
        if cost > dearest:
            dearest = cost
        if cost < cheapest:
            cheapest = cost
    return Reach(tuple(costs), tuple(sprawls), dearest, free, (), cheapest)


def _reach(table: SprawlTable, casino: Casino, free: int, by_free: dict[int, Reach]) -> Reach:
    """The sprawls of ``casino`` onto the lots of ``free`` (a part of its ``around``) in the order of its
    frontier (``frontier``), with their costs, the dearest of them and ``free``: the parts of its ring
    (``_ring``, kept in ``by_free``, the casino's table by lots free, under 0, which no casino asks for: one
    ``frontier_lots`` a casino's lots and height, not one a set of lots free)."""
    ring = by_free.get(0)
    if ring is None:
        ring = by_free[0] = _ring(table, casino)
    if free == ring.free:
        return ring
    all_costs, all_sprawls = ring.costs, ring.sprawls
    costs: list[int] = []
    sprawls: list[Sprawl] = []
    k = 0
    for bit in ring.bits:
        if free & bit:
            costs.append(all_costs[k])
            sprawls.append(all_sprawls[k])
        k += 1
    # (the dearest and the cheapest by ``max`` and ``min``, as ``_ring``'s: once a miss, no compares a lot; ``free``
    #   is some of the ring's lots, so ``costs`` is not empty)
    if COMPILED:
        return Reach(tuple(costs), tuple(sprawls), max(costs), free, (), min(costs))
    made: Reach = new_event(Reach)  # (pure: without ``__init__``'s frame, as ``new_event``'s events)
    made.costs, made.sprawls, made.dearest, made.free, made.bits, made.cheapest = \
        tuple(costs), tuple(sprawls), max(costs), free, (), min(costs)
    return made


class SprawlFamily(Family):
    """Sprawl's rules: its notation, predicate, generator and application."""

    def effect(self, ev: Event, names: Sequence[str]) -> str:
        """``-$12, gold tile, 2 high, die 4`` (after ``sprawl A3 from A2: ``)."""
        assert isinstance(ev, Sprawled)
        high = f", {ev.height} high" if ev.height > 1 else ""
        return f"-${ev.cost}, {ev.color} tile{high}, {new_die_text(ev.value)}"

    def told(self, ev: Event, names: Sequence[str]) -> str | None:
        if not isinstance(ev, Sprawled):
            return None
        return f"{names[ev.player]} sprawls into {ev.lot}: {self.effect(ev, names)}"

    def parse(self, w: Words) -> Sprawl:
        w.expect(4, "sprawl LOT from LOT")
        if w.word(2).lower() != "from":
            raise w.fail("expected 'sprawl LOT from LOT'")
        return Sprawl(w.lot(1), w.lot(3))

    def format(self, a: Sprawl, names: Sequence[str]) -> str:
        return f"sprawl {a.lot} from {a.source}"

    def structured(self, a: Sprawl, names: Sequence[str]) -> dict[str, Any]:
        return {"action": "sprawl", "lot": a.lot, "from": a.source}

    def from_record(self, d: dict[str, Any]) -> str:
        return f"sprawl {d.get('lot')} from {d.get('from')}"

    def prepare(self, profile: Profile, board: Board) -> SprawlTable:
        """The cost of a sprawl, by height of the sprawling casino, by lot (000 L140-147 / 003 L555-568): the lot's
        price times ``sprawl.cost_multiplier``, plus ``sprawl.riser_cost`` per level above the first."""
        p = profile.sprawl
        return SprawlTable(Lazy(lambda height: {lot: info.price * p.cost_multiplier + p.riser_cost * (height - 1)
                                                for lot, info in board.lots.items()},
                                range(1, profile.max_height(profile.players.max) + 1)), len(board.order), board.bit)

    def cost(self, engine: Engine, s: GameState, a: Sprawl) -> int:
        casino = engine.casino_at(s, a.source)
        if casino is None:
            raise engine.no_casino(a.lot)
        return sprawl_cost(engine, a.lot, casino.height)

    def why_not(self, engine: Engine, s: GameState, player: int, a: Sprawl) -> Reason | None:
        lot, source = a.lot, a.source
        casino = engine.casino_at(s, source)
        if casino is None:
            return (Rule.SPRAWL_FROM_CASINO, f"{source} has no casino")
        b = boss(s, casino)
        if b != player:
            return (Rule.SPRAWL_BOSS, not_boss(s, b, source))
        if lot in s.tiles:
            return (Rule.SPRAWL_EMPTY, f"{lot} already has a tile")
        if lot in s.markers:
            return (Rule.SPRAWL_UNOWNED, f"{lot} is owned ({s.players[s.markers[lot]].name} has a marker on it)")
        lots = engine.board.lots
        if not any(lot in lots[c].neighbours for c in casino.lots):
            return (Rule.SPRAWL_ADJACENT, f"{lot} does not share an edge with the casino at {source}")
        closed = closed_block(engine.profile, len(s.players))
        if closed is not None and lots[lot].block == closed:
            return (Rule.F_BLOCK_CLOSED_WHEN, f"no building on {closed} block in a 2-player game")
        if tiles_left(engine, s, casino.color) < 1:
            return (Rule.COMPONENTS_TILES_PER_COLOR, f"all {casino.color} tiles are on the board")
        price = sprawl_cost(engine, lot, casino.height)
        if s.players[player].money < price:
            return (Rule.SPRAWL_COST_MULTIPLIER,
                    f"sprawling into {lot} costs ${price}, you have ${s.players[player].money}")
        return None

    def least_budget(self, m: Moment) -> int:
        """``generate_casinos`` lists nothing below its table's ``least`` (its first test)."""
        return m.family_tables.sprawl.least

    def generate_casinos(self, m: Moment, rows: list[int]) -> None:
        """``why_not`` in bulk for the casinos the player bosses: each one's frontier (the empty lots that share an
        edge with it) less the owned lots and the closed block (as a mask: ``SprawlTable.reach``), where the
        player can pay ``sprawl_cost``."""
        table: SprawlTable = m.family_tables.sprawl  # typed: compiled, native reads and compares
        money = m.budget
        if money < table.least:  # most lists: no sprawl affordable, no casino looked at
            return
        seen, last_found = table.seen, table.last_found  # (the rest of the table read where a casino misses)
        # a tile of every colour left (most lists: the board's own tuple, ``Moment.moment``): no colour looked up
        #   (else the open colours, those with a tile left: the moment's, no dict of the tiles left made)
        opened: tuple[str, ...] | None = m.open_colors
        if opened is m.board.colors:
            opened = None
        taken = m.state.tile_mask | m.state.markers_mask  # ``_taken``, written out (a call a list fewer)
        closed = m.closed
        if closed is not None:
            taken |= m.board.block_mask[closed]
        untaken = ~taken  # (once a list, not a casino: pure, a new int of several digits each)
        casinos, slots = m.casinos, m.slots
        for i in rows:
            casino = casinos[i][0]
            free = casino.around & untaken
            if not free or opened is not None and casino.color not in opened:  # the int tests first: no colour
                #   looked up for a casino hemmed in, or when every colour has a tile left
                continue
            first = casino.first
            found = last_found[first]
            if seen[first] is not casino or found.free != free:  # not the same casino with the same lots free
                last, reach = table.last, table.reach
                if seen[first] is casino:  # the same lots, colour and height as last time (a casino is made once)
                    by_free = last[first]
                else:
                    shift = len(m.board.order)
                    key = casino.mask | casino.height << shift  # the casino's lots and height
                    found_by = reach.get(key)
                    if found_by is None:
                        found_by = reach[key] = {}
                    by_free = last[first] = found_by
                    seen[first] = casino
                got = by_free.get(free)
                if got is None:
                    if len(reach) > 100_000:  # a long run of many games: start again rather than grow without end
                        reach.clear()
                        for j in range(len(seen)):  # forget what each casino had last too
                            seen[j] = None
                            last[j] = {}
                            last_found[j] = _NO_REACH
                        by_free = reach[casino.mask | casino.height << len(m.board.order)] = last[first] = {}
                        seen[first] = casino
                    got = by_free[free] = _frontier_reach(table, casino, free) if COMPILED else \
                        _reach(table, casino, free, by_free)
                found = last_found[first] = got
            if money >= found.dearest:  # all of them (most often): one extend
                slots[i].extend(found.sprawls)
                continue
            if money < found.cheapest:  # none of them (most of the rest)
                continue
            slot, sprawls = slots[i], found.sprawls
            j = 0
            for cost in found.costs:
                if money >= cost:
                    slot.append(sprawls[j])
                j += 1

    def make_casino(self, m: Moment, row: int, i: int) -> Decision:
        """The ``i``-th sprawl ``generate_casinos`` lists at the casino: of its lots free (``_taken``), in the order
        of its frontier (``Casino.frontier_lots``, the generator's key), the ``i``-th the player can pay for
        (``SprawlTable.affordable``, as counted); none generated."""
        table: SprawlTable = m.family_tables.sprawl
        casino = m.casinos[row][0]
        free = casino.around & ~_taken(m)
        lots = casino.frontier_lots(free)
        afford = table.affordable(casino.height, m.budget)
        if free & afford != free:  # (most often every lot free is affordable: the i-th of them)
            bit = m.board.bit
            lots = tuple([lot for lot in lots if afford & bit[lot]])
        lot = lots[i]
        made = _sprawls_from(casino.name)
        sprawl = made.get(lot)
        if sprawl is None:
            sprawl = made[lot] = Sprawl(lot, casino.name)
        return sprawl

    def count_in(self, m: Moment, mask: int, counts: list[int]) -> int:
        """``generate_casinos`` counted at the casinos of ``mask``: each casino's lots free (its frontier less the
        owned lots and the closed block) that the player can pay to sprawl onto (``SprawlTable.affordable``), none
        made."""
        total = 0
        table: SprawlTable = m.family_tables.sprawl
        money = m.budget
        if money < table.least:
            return 0
        left = None if len(m.open_colors) == len(m.board.colors) else m.left
        taken = _taken(m)
        casinos = m.casinos
        height = 0  # the height of the casino before, and the lots affordable at it (most casinos are as high)
        afford = 0
        bits: i64 = mask  # (machine ints, compiled: a native shift and test a casino)
        i: i64 = -1
        while bits:  # each set bit
            i += 1
            bit = bits & 1
            bits >>= 1
            if not bit:
                continue
            casino = casinos[i][0]
            free = casino.around & ~taken
            if not free or left is not None and left[casino.color] < 1:
                continue
            if casino.height != height:
                height = casino.height
                afford = table.affordable(height, money)
            k = popcount(free & afford)
            if k:
                counts[i] = counts[i] + k
                total += k
        return total

    def apply(self, engine: Engine, s: GameState, player: int, a: Sprawl, dice: Dice, events: list[Event],
              choices: dict[str, str]) -> None:
        engine.lot_check(a.lot)
        engine.lot_check(a.source)
        refuse(self.why_not(engine, s, player, a))
        self.carry_out(engine, s, player, a, dice, events, choices)

    def carry_out(self, engine: Engine, s: GameState, player: int, a: Sprawl, dice: Dice, events: list[Event],
                  choices: dict[str, str]) -> None:
        """``apply`` without the referee's checks: only for a decision the engine's own generator made now."""
        # (``casino_at``, without its call: the index current, as ``gamble``'s)
        index = s._casinos
        assert index is not None
        casino = index.at_bit[engine.board.index[a.source]]
        assert casino is not None
        price = sprawl_cost(engine, a.lot, casino.height)
        ok, moved = engine.free_die(s, player, a.lot, events, choices.get("die_from"))
        die = engine.board.lots[a.lot].die
        s.players[player].money -= price
        # 003 L509-511: tile and risers go down at once, so no two adjacent same-colour casinos of different heights
        s.place_tile(a.lot, casino.color, casino.height, player if ok else None, die if ok else None)
        if not engine.mute:  # (a search's imagined games read no event)
            events.append(Sprawled(player, a.lot, a.source, casino.color, casino.height, price, die if ok else None,
                                   moved))  # positional, in field order (see build.py)


FAMILY = SprawlFamily(
    name="sprawl", order=20, decisions=(Sprawl,), verbs=("sprawl",), record_kinds=("sprawl",), in_trade=True,
    main_event="sprawled", casinos=BOSSED,
    profile_keys=("sprawl.cost_multiplier", "sprawl.riser_cost", "components.tiles_per_color",
                  "f_block.closed_when", "f_block.block"))

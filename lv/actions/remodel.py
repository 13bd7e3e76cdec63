"""Remodel: every tile of your casino replaced by tiles of another colour. 000 "Action - Remodel" L154-156 (per
tile); 003 "Action - Remodel" L574-590 (per space, top tiles only): ``remodel.cost_per_unit`` per
``remodel.counts``.

``remodel A2 silver``.

Events: remodeled(player, lots, before, color, cost): ``before`` the casino's colour before.
"""

from __future__ import annotations

from collections.abc import Sequence
from sys import maxsize
from typing import TYPE_CHECKING, Any, ClassVar, Final

from mypy_extensions import i64, mypyc_attr

from ..casinos import boss
from ..events import Event, LotsEvent, register
from ..ruleids import Rule
from ._family import (BOSSED, Counted, Decision, Family, Moment, Reason, Words, casino_text, not_boss, refuse,
                      tiles_left)
from ._values import COMPILED, FrozenDecision, as_text, new_event, set_once

if TYPE_CHECKING:
    from ..board import Board
    from ..casinos import Casino, DiceFacts
    from ..chance import Dice
    from ..profile import Profile
    from ..rules import Engine
    from ..state import GameState


@mypyc_attr(acyclic=True)
class Remodel(FrozenDecision):
    """Replace every tile of the casino at ``lot`` with tiles of ``color``: ``remodel A2 silver``."""

    kind: ClassVar[str] = "remodel"
    _keys: ClassVar[tuple[str, ...]] = ("lot", "color")
    __slots__ = _keys

    def __init__(self, lot: Any, color: Any) -> None:
        self.lot: Final[str] = as_text(self, "lot", lot)  # any lot of the casino
        self.color: Final[str] = as_text(self, "color", color)

    def _values(self) -> tuple[Any, ...]:
        return (self.lot, self.color)

    def __setattr__(self, name: str, value: object) -> None:
        set_once(self, name, value)


@mypyc_attr(acyclic=True)
class Remodeled(LotsEvent):
    kind: ClassVar[str] = "remodeled"
    _keys: ClassVar[tuple[str, ...]] = ("player", "lots", "before", "color", "cost")
    __slots__ = ("player", "before", "color", "cost")  # and LotsEvent's _lots

    def __init__(self, player: int, lots: Sequence[str], before: str, color: str, cost: int) -> None:
        self.player = player
        self._lots = tuple(lots)
        self.before = before
        self.color = color
        self.cost = cost


register(Remodeled)


def remodel_cost(engine: Engine, casino: Casino) -> tuple[int, int]:
    """(cost, tiles needed)."""
    table = engine.family_tables.remodel  # (the engine's typed field: no lookup by name)
    needed = casino.spaces if table.by_space else casino.physical_tiles
    return table.costs.formula(needed), needed


ByFirst = list[dict[str, tuple[Remodel, ...]] | None]
"""The remodels made for a set of colours, by casino (its first lot's bit, ``Casino.first``), by colour of the
casino."""
_NO_FIRST: Final[ByFirst] = []  # (``generate_casinos``'s before its first casino: never read nor changed)


# each decision made once, by lot, by new colour (two lookups by a string, whose hash is kept: no key tuple made
# and hashed)
_REMODEL: Final[dict[str, dict[str, Remodel]]] = {}  # (Final: compiled, a C static)


def _remodel(lot: str, color: str) -> Remodel:
    by_color = _REMODEL.get(lot)
    if by_color is None:
        by_color = _REMODEL[lot] = {}
    found = by_color.get(color)
    if found is None:
        found = by_color[color] = Remodel(lot, color)
    return found


class RemodelTable:
    """Remodel's table (``prepare``): whether it counts spaces, the cost by tiles needed, and the remodels of a
    casino made so far, by the colours with enough tiles left (``ByFirst``): plain dicts and lists, compiled, a
    call to an lru_cache costs more than the rest of the generator; no key tuple made per casino, and a list
    read by casino where a dict by lot name costs a hash lookup."""

    __slots__ = ("by_space", "costs", "per", "lots", "made", "every", "every_first", "by_lot")

    def __init__(self, by_space: bool, per: int, top: int, lots: int, every: tuple[str, ...],
                 order: tuple[str, ...]) -> None:
        self.by_space = by_space
        self.costs = Counted(lambda units: per * units, top)
        self.per = per
        self.lots = lots
        self.made: dict[tuple[str, ...], ByFirst] = {}  # by the colours with enough tiles left
        # the board's colours (the moment's own tuple where every colour has enough left: most lists) and their
        # remodels by casino, found by identity (no tuple of colours hashed)
        self.every = every
        self.every_first: ByFirst = [None] * lots
        self.made[every] = self.every_first
        # each lot's remodels by new colour (``_remodel``'s, read without a call where some colours are short),
        # and every casino's remodels to every other colour made at once (``order``: the board's lots, by bit
        # position): the generator meets no casino without them while every colour has enough tiles left
        self.by_lot: list[dict[str, Remodel]] = []
        for k in range(len(order)):
            row = {c: _remodel(order[k], c) for c in every}
            self.by_lot.append(row)
            self.every_first[k] = {color: tuple([row[c] for c in every if c != color]) for color in every}


def _by_first(table: RemodelTable, colors: tuple[str, ...]) -> ByFirst:
    """(Pure Python's generator.) The table's remodels for ``colors`` (``RemodelTable.made``), made where none yet."""
    found = table.made.get(colors)
    if found is None:
        found = table.made[colors] = [None] * table.lots
    return found


def _remodels(table: RemodelTable, by_first: ByFirst, casino: Casino, colors: tuple[str, ...]) -> tuple[Remodel, ...]:
    """(Pure Python's generator, where it misses.) The remodels of ``casino`` to the other colours of ``colors``,
    made and kept in ``by_first`` (the table's remodels for those colours), read from the lot's (``by_lot``)."""
    first = casino.first
    by_color = by_first[first]
    if by_color is None:
        by_color = by_first[first] = {}
    color, row = casino.color, table.by_lot[first]
    found = by_color[color] = tuple([row[c] for c in colors if c != color])
    return found


class RemodelFamily(Family):
    """Remodel's rules: its notation, predicate, generator and application."""

    def effect(self, ev: Event, names: Sequence[str]) -> str:
        """``-$15, A2+A3 gold -> silver`` (after ``remodel A2 silver: ``)."""
        assert isinstance(ev, Remodeled)
        return f"-${ev.cost}, {casino_text(ev.lots)} {ev.before} -> {ev.color}"

    def told(self, ev: Event, names: Sequence[str]) -> str | None:
        if not isinstance(ev, Remodeled):
            return None
        return f"{names[ev.player]} remodels: {self.effect(ev, names)}"

    def parse(self, w: Words) -> Remodel:
        w.expect(3, "remodel LOT COLOUR")
        return Remodel(w.lot(1), w.color(2))

    def format(self, a: Remodel, names: Sequence[str]) -> str:
        return f"remodel {a.lot} {a.color}"

    def structured(self, a: Remodel, names: Sequence[str]) -> dict[str, Any]:
        return {"action": "remodel", "lot": a.lot, "color": a.color}

    def from_record(self, d: dict[str, Any]) -> str:
        return f"remodel {d.get('lot')} {d.get('color')}"

    def prepare(self, profile: Profile, board: Board) -> RemodelTable:
        """Whether a remodel takes one tile of the new colour per space (else one per tile including the risers:
        ``remodel.counts``), and the cost by tiles needed, ``remodel.cost_per_unit`` each."""
        r = profile.remodel
        lots = len(board.order)
        return RemodelTable(r.counts == "spaces", r.cost_per_unit, lots * profile.max_height(profile.players.max) + 1,
                            lots, board.colors, board.order)

    def cost(self, engine: Engine, s: GameState, a: Remodel) -> int:
        casino = engine.casino_at(s, a.lot)
        if casino is None:
            raise engine.no_casino(a.lot)
        table = engine.family_tables.remodel  # ``remodel_cost``, read from its table
        return table.costs.at(casino.spaces if table.by_space else casino.physical_tiles)

    def why_not(self, engine: Engine, s: GameState, player: int, a: Remodel) -> Reason | None:
        lot, color = a.lot, a.color
        casino = engine.casino_at(s, lot)
        if casino is None:
            return (Rule.REMODEL_CASINO, f"{lot} has no casino")
        b = boss(s, casino)
        if b != player:
            return (Rule.REMODEL_BOSS, not_boss(s, b, lot))
        if color == casino.color:
            return (Rule.REMODEL_NEW_COLOR, f"the casino at {lot} is already {color}")
        price, needed = remodel_cost(engine, casino)
        left = tiles_left(engine, s, color)
        if left < needed:
            return (Rule.REMODEL_COUNTS, f"remodelling needs {needed} {color} tiles, {left} are left")
        if s.players[player].money < price:
            return (Rule.REMODEL_COST_PER_UNIT, f"remodelling costs ${price}, you have ${s.players[player].money}")
        return None

    def least_budget(self, m: Moment) -> int:
        """``generate_casinos`` lists nothing below its table's ``per`` (its first test)."""
        return m.family_tables.remodel.per

    def generate_casinos(self, m: Moment, rows: list[int]) -> None:
        """``why_not`` in bulk for the casinos the player bosses: where they can pay, every other colour with
        enough tiles left."""
        table: RemodelTable = m.family_tables.remodel  # typed: compiled, native reads and compares
        money, per = m.budget, table.per
        if money < per:  # not even a 1-tile remodel affordable, no casino looked at
            return
        units = money // per if per else maxsize  # the most tiles the player can pay for (``remodel_cost``)
        colors: tuple[str, ...]  # the colours with as many tiles left as the casino before needs
        if not COMPILED:  # (pure: a casino's remodels read at once, by casino and colour, in one line, and a miss
            #   caught rather than tested, None or a colour not met yet: most casinos are found, every one while
            #   every colour has enough tiles left, ``RemodelTable.every_first``; a dozen bytecodes a casino fewer;
            #   only what it reads read)
            by_space = table.by_space
            casinos, slots, colors_with = m.casinos, m.slots, m.colors_with
            # a casino needing 1 tile (three in four): the open colours' remodels, read once a list (the moment
            # always has them: ``colors_with[1]``), the board's colours' while none is shut; then no lookup of
            # the colours by the tiles needed a casino (the others': the last casino's kept, as compiled)
            ones = colors_with[1]
            one: Any = table.every_first if ones is table.every else _by_first(table, ones)
            last = 0  # (no casino needs 0 tiles: the first one affordable needing more sets ``colors`` and ``kept``)
            kept: Any  # (``by_first``, as Any: subscripted through its None)
            for i in rows:
                casino = casinos[i][0]
                if casino.spaces == 1 and (by_space or casino.height == 1):  # 1 tile needed (affordable: the
                    #   player has ``per`` at least; its spaces read first, no tiles needed worked out)
                    try:
                        slots[i].extend(one[casino.first][casino.color])
                    except (TypeError, KeyError):  # (no remodels of this casino's lot, or colour, for these colours)
                        slots[i].extend(_remodels(table, one, casino, ones))
                    continue
                needed = casino.spaces if by_space else casino.physical_tiles
                if needed <= units:
                    if needed != last:
                        colors = colors_with.get(needed) or m.colors_with_at_least(needed)
                        kept = table.every_first if colors is table.every else _by_first(table, colors)
                        last = needed
                    try:
                        slots[i].extend(kept[casino.first][casino.color])
                    except (TypeError, KeyError):
                        slots[i].extend(_remodels(table, kept, casino, colors))
            return
        by_space, made = table.by_space, table.made
        casinos, slots, colors_with = m.casinos, m.slots, m.colors_with
        last = 0  # the tiles needed of the casino before, and its remodels by casino (most casinos need as many)
        by_first: ByFirst = _NO_FIRST  # (not read before it is set: no list made a call)
        colors = ()
        for i in rows:
            casino = casinos[i][0]
            needed = casino.spaces if by_space else casino.physical_tiles  # as remodel_cost
            if needed <= units:
                if needed != last:
                    colors = colors_with.get(needed) or m.colors_with_at_least(needed)
                    found_by = table.every_first if colors is table.every else made.get(colors)
                    if found_by is None:
                        found_by = made[colors] = [None] * table.lots
                    by_first = found_by
                    last = needed
                color = casino.color
                by_color = by_first[casino.first]
                if by_color is None:
                    by_color = by_first[casino.first] = {}
                found = by_color.get(color)
                if found is None:
                    name = casino.name
                    found = by_color[color] = tuple([_remodel(name, c) for c in colors if c != color])
                slots[i].extend(found)

    def make_casino(self, m: Moment, row: int, i: int) -> Decision:
        """The ``i``-th of ``count_casinos``'s colours at the casino (the order of ``generate_casinos``)."""
        table: RemodelTable = m.family_tables.remodel
        casino = m.casinos[row][0]
        needed = casino.spaces if table.by_space else casino.physical_tiles
        color = casino.color
        for c in m.colors_with.get(needed) or m.colors_with_at_least(needed):
            if c != color:
                if not i:
                    return _remodel(casino.name, c)
                i -= 1
        raise IndexError(f"no remodel {i} past the last at {casino.name}")

    def count_in(self, m: Moment, mask: int, counts: list[int]) -> int:
        """``generate_casinos`` counted at the casinos of ``mask``: where the player can pay, the colours with
        enough tiles left but the casino's own (none made, no table of remodels looked up)."""
        total = 0
        table: RemodelTable = m.family_tables.remodel
        money, per = m.budget, table.per
        if money < per:
            return 0
        units = money // per if per else maxsize
        by_space = table.by_space
        casinos, colors_with = m.casinos, m.colors_with
        most = 0  # the most tiles of a colour on the board
        for n in m.state.color_counts:
            if n > most:
                most = n
        # a casino needing at most the fewest tiles left of any colour (most casinos, most of a game) has every
        # colour but its own: no colours looked up and compared
        fewest, others = m.per_color - most, len(m.board.colors) - 1
        last = 0
        colors: tuple[str, ...] = ()
        bits: i64 = mask  # (machine ints, compiled: a native shift and test a casino)
        i: i64 = -1
        while bits:  # each set bit
            i += 1
            bit = bits & 1
            bits >>= 1
            if not bit:
                continue
            casino = casinos[i][0]
            needed = casino.spaces if by_space else casino.physical_tiles
            if needed <= units:
                if needed <= fewest:
                    k = others
                else:
                    if needed != last:
                        colors = colors_with.get(needed) or m.colors_with_at_least(needed)
                        last = needed
                    k = len(colors)
                    color = casino.color
                    for c in colors:
                        if c == color:
                            k -= 1
                            break
                counts[i] = counts[i] + k
                total += k
        return total

    def apply(self, engine: Engine, s: GameState, player: int, a: Remodel, dice: Dice, events: list[Event],
              choices: dict[str, str]) -> None:
        engine.lot_check(a.lot)
        engine.color_check(a.color)
        refuse(self.why_not(engine, s, player, a))
        self.carry_out(engine, s, player, a, dice, events, choices)

    def carry_out(self, engine: Engine, s: GameState, player: int, a: Remodel, dice: Dice, events: list[Event],
                  choices: dict[str, str]) -> None:
        """``apply`` without the referee's checks: only for a decision the engine's own generator made now."""
        # (``casino_at``, without its call: the index current, as ``gamble``'s)
        index = s._casinos
        assert index is not None
        casino = index.at_bit[engine.board.index[a.lot]]
        assert casino is not None
        table = engine.family_tables.remodel  # ``remodel_cost``, its table's ``per`` a unit (no call of the formula)
        price = table.per * (casino.spaces if table.by_space else casino.physical_tiles)
        s.players[player].money -= price
        s.recolor(casino.lots, a.color, casino.bits)
        if COMPILED:
            events.append(Remodeled(player, casino.lots, casino.color, a.color, price))  # positional (build.py)
        else:  # (pure: without ``__init__``'s frame, see ``new_event``)
            told = new_event(Remodeled)
            told.player, told._lots, told.before = player, casino.lots, casino.color
            told.color, told.cost = a.color, price
            events.append(told)


FAMILY = RemodelFamily(
    name="remodel", order=30, decisions=(Remodel,), verbs=("remodel",), record_kinds=("remodel",), in_trade=True,
    main_event="remodeled", casinos=BOSSED, profile_keys=("remodel.cost_per_unit", "remodel.counts",
    "components.tiles_per_color"))

"""Build: a casino tile on a lot you own. 000 "Action - Build" L128-133; 003 "Action - Build" L526-540.

``build A2 gold``: pay the lot's price, put a tile of that colour on it and your die showing the lot's value.

Events: built(player, lot, color, cost, value, moved_from): ``value`` None when the player had no die left.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final

from mypy_extensions import mypyc_attr

from ..board import popcount
from ..events import Event, register
from ..ruleids import Rule
from ._family import Decision, Family, Moment, Reason, Words, closed_block, new_die_text, refuse, tiles_left
from ._values import COMPILED, FrozenDecision, as_text, new_event, set_once

if TYPE_CHECKING:
    from ..board import Board
    from ..chance import Dice
    from ..rules import Engine
    from ..state import GameState


@mypyc_attr(acyclic=True)
class Build(FrozenDecision):
    """Build a casino tile of ``color`` on ``lot``, a lot the player has a marker on: ``build A2 gold``."""

    kind: ClassVar[str] = "build"
    _keys: ClassVar[tuple[str, ...]] = ("lot", "color")
    __slots__ = _keys

    def __init__(self, lot: Any, color: Any) -> None:
        self.lot: Final[str] = as_text(self, "lot", lot)
        self.color: Final[str] = as_text(self, "color", color)

    def _values(self) -> tuple[Any, ...]:
        return (self.lot, self.color)

    def __setattr__(self, name: str, value: object) -> None:
        set_once(self, name, value)


@mypyc_attr(acyclic=True)
class Built(Event):
    kind: ClassVar[str] = "built"
    _keys: ClassVar[tuple[str, ...]] = ("player", "lot", "color", "cost", "value", "moved_from")
    __slots__ = _keys

    def __init__(self, player: int, lot: str, color: str, cost: int, value: int | None, moved_from: str | None) -> None:
        self.player = player
        self.lot = lot
        self.color = color
        self.cost = cost
        self.value = value
        self.moved_from = moved_from


register(Built)


class _Builds:
    """The builds on each lot of ``board`` in the colours ``colors`` (made once each), by the lot's bit position
    (``board.index``): compiled, a list read where a lot's name costs a hash lookup."""

    __slots__ = ("colors", "board", "by_index")

    def __init__(self, colors: tuple[str, ...], board: Board) -> None:
        self.colors = colors
        self.board = board
        self.by_index: list[tuple[Build, ...] | None] = [None] * len(board.order)

    def at(self, i: int) -> tuple[Build, ...]:
        """The builds on the lot at bit position ``i``, made the first time they are asked for."""
        lot = self.board.order[i]
        found = self.by_index[i] = tuple([_build(lot, c) for c in self.colors])
        return found


# the builds by the colours with a tile left and the board (a plain dict: compiled, a call to an lru_cache costs
# more than the rest of the generator; a list by board, each a ``Board`` kept, so tested by identity)
_BUILDS: Final[dict[tuple[str, ...], list[_Builds]]] = {}


# the colours asked last (this very tuple) and their ``_Builds``: ``Moment.open_colors`` stays the same tuple while
# the same colours are open, so most calls find it by identity (a key costs the tuple hashed and compared). Final:
# compiled, a C static, not a lookup in the module's dict.
_LAST: Final[list[tuple[tuple[str, ...], _Builds | None]]] = [((), None)]


def _builds(colors: tuple[str, ...], board: Board) -> _Builds:
    last_colors, last = _LAST[0]
    if last_colors is colors and last is not None and last.board is board:
        return last
    by_board = _BUILDS.get(colors)
    if by_board is None:
        by_board = _BUILDS[colors] = []
    made: _Builds | None = None
    for each in by_board:
        if each.board is board:
            made = each
    if made is None:
        made = _Builds(colors, board)
        by_board.append(made)
    _LAST[0] = (colors, made)  # one reference replaced: a thread reads a pair that belongs together
    return made


_COMPILED: Final = not __file__.endswith(".py")  # a module compiled by mypyc loads from a .so/.pyd

# each decision made once, by lot, by colour (two lookups by a string, whose hash is kept: no key tuple made and
# hashed)
_BUILD: Final[dict[str, dict[str, Build]]] = {}


def _buildable(m: Moment) -> int:
    """The player's lots they can build on now, as a mask: a marker of theirs, off the closed block, affordable,
    and a tile of some colour left (0: none)."""
    player, closed = m.player, m.closed
    masks = m.state.marker_masks
    if not m.open_colors or player >= len(masks) or not masks[player]:  # no tile left, or no lot of the player's
        return 0
    # the player's lots they can pay for, off the closed block, as a mask: compiled, an int test a marker
    # instead of two attribute reads of its lot
    ok = masks[player] & m.board.price_at_most(m.budget)
    if closed is not None:
        ok &= ~m.board.block_mask[closed]
    return ok


def _build(lot: str, color: str) -> Build:
    by_color = _BUILD.get(lot)
    if by_color is None:
        by_color = _BUILD[lot] = {}
    found = by_color.get(color)
    if found is None:
        found = by_color[color] = Build(lot, color)
    return found


class BuildFamily(Family):
    """Build's rules: its notation, predicate, generator and application."""

    def effect(self, ev: Event, names: Sequence[str]) -> str:
        """``-$6, die 2`` (after ``build A2 gold: ``)."""
        assert isinstance(ev, Built)
        return f"-${ev.cost}, {new_die_text(ev.value)}"

    def told(self, ev: Event, names: Sequence[str]) -> str | None:
        if not isinstance(ev, Built):
            return None
        return f"{names[ev.player]} builds {ev.color} on {ev.lot}: {self.effect(ev, names)}"

    def parse(self, w: Words) -> Build:
        w.expect(3, "build LOT COLOUR")
        return Build(w.lot(1), w.color(2))

    def format(self, a: Build, names: Sequence[str]) -> str:
        return f"build {a.lot} {a.color}"

    def structured(self, a: Build, names: Sequence[str]) -> dict[str, Any]:
        return {"action": "build", "lot": a.lot, "color": a.color}

    def from_record(self, d: dict[str, Any]) -> str:
        return f"build {d.get('lot')} {d.get('color')}"

    def cost(self, engine: Engine, s: GameState, a: Build) -> int:
        """The lot's price."""
        return engine.board.lots[a.lot].price

    def why_not(self, engine: Engine, s: GameState, player: int, a: Build) -> Reason | None:
        lot, color = a.lot, a.color
        if s.markers.get(lot) != player:
            return (Rule.BUILD_OWN_LOT, f"you have no marker on {lot}")
        closed = closed_block(engine.profile, len(s.players))
        if closed is not None and engine.board.lots[lot].block == closed:
            return (Rule.F_BLOCK_CLOSED_WHEN, f"no building on {closed} block in a 2-player game")
        if tiles_left(engine, s, color) < 1:
            return (Rule.COMPONENTS_TILES_PER_COLOR, f"all {color} tiles are on the board")
        price = engine.board.lots[lot].price
        if s.players[player].money < price:
            return (Rule.BUILD_PRICE, f"building {lot} costs ${price}, you have ${s.players[player].money}")
        return None

    def generate_before(self, m: Moment, out: list[Decision]) -> None:
        """``why_not`` in bulk: each lot the player has a marker on, off the closed block, affordable; every colour
        with a tile left (``tile_facts``)."""
        ok = _buildable(m)
        if not ok:
            return
        player, board = m.player, m.board
        made = _builds(m.open_colors, board)
        if not ok & (ok - 1):  # one lot: its builds by its bit position, the markers not walked
            i = ok.bit_length() - 1
            lone = made.by_index[i]
            if lone is None:
                lone = made.at(i)
            out.extend(lone)
            return
        bit, by_index = board.bit, made.by_index
        for lot, owner in m.markers.items():  # in the markers' order: the list's
            if owner == player:
                b = bit[lot]
                if b & ok:
                    i = b.bit_length() - 1
                    builds = by_index[i]  # (compiled, a list read where a key costs a lookup)
                    if builds is None:
                        builds = made.at(i)
                    out.extend(builds)
                    ok ^= b
                    if not ok:  # the player's last lot listed: the other markers are not looked at
                        break

    def count_before(self, m: Moment) -> int:
        """Every open colour on each lot of ``_buildable``."""
        if _COMPILED:
            ok = _buildable(m)
            if not ok:
                return 0
            return popcount(ok) * len(m.open_colors)
        # (pure: ``_buildable`` and ``Board.price_at_most`` written out, two calls a list fewer, the closed block's
        # lots out of the moment's masks by price already, ``Moment.build_masks``; the int's own ``bit_count``, one C
        # call; no tile left, no colour: 0 by the product)
        try:  # (no length compared: a try costs nothing where nothing is raised)
            ok = m.state.marker_masks[m.player]
        except IndexError:  # (a player with no mask of markers)
            return 0
        money = m.budget
        if money < m.build_top:  # (from the dearest lot's price up, every lot but the closed block's)
            if money < 0:
                return 0
            ok &= m.build_masks[money]
            if not ok:  # (half the lists: none of the player's lots affordable)
                return 0
        elif m.closed is not None:
            ok &= m.build_masks[-1]
        return ok.bit_count() * len(m.open_colors)

    def make_before(self, m: Moment, i: int) -> Decision:
        """The ``i``-th of ``generate_before``'s list: on the lot ``i // colours`` of the player's buildable lots in
        the markers' order, the colour ``i % colours``."""
        if not _COMPILED:  # (pure: the lots as ``count_before`` counts them, the build made by its lot's name and
            #   colour: no call of ``_buildable``, no table of builds by colours looked up)
            money = m.budget
            ok = m.state.marker_masks[m.player] & m.build_masks[money if money < m.build_top else -1]
            colors = m.open_colors
            nc = len(colors)
            target, color = i // nc, i % nc
            if ok & (ok - 1):  # more than one lot: the target-th of them in the markers' order
                player, bit = m.player, m.board.bit
                for lot, owner in m.markers.items():
                    if owner == player and bit[lot] & ok:
                        if not target:
                            return _build(lot, colors[color])
                        target -= 1
            return _build(m.board.order[ok.bit_length() - 1], colors[color])
        ok = _buildable(m)
        colors = m.open_colors
        nc = len(colors)
        target, color = i // nc, i % nc
        board = m.board
        bit = board.bit
        if ok & (ok - 1):  # more than one lot: the target-th of them in the markers' order
            player = m.player
            for lot, owner in m.markers.items():
                if owner == player:
                    b = bit[lot]
                    if b & ok:
                        if not target:
                            ok = b
                            break
                        target -= 1
        made = _builds(colors, board)
        k = ok.bit_length() - 1
        builds = made.by_index[k]
        if builds is None:
            builds = made.at(k)
        return builds[color]

    def apply(self, engine: Engine, s: GameState, player: int, a: Build, dice: Dice, events: list[Event],
              choices: dict[str, str]) -> None:
        engine.lot_check(a.lot)
        engine.color_check(a.color)
        refuse(self.why_not(engine, s, player, a))
        self.carry_out(engine, s, player, a, dice, events, choices)

    def carry_out(self, engine: Engine, s: GameState, player: int, a: Build, dice: Dice, events: list[Event],
                  choices: dict[str, str]) -> None:
        """``apply`` without the referee's checks: only for a decision the engine's own generator made now."""
        lot = engine.board.lots[a.lot]
        if COMPILED:
            ok, moved = engine.free_die(s, player, a.lot, events, choices.get("die_from"))
        else:  # (pure: ``free_die``'s first test, ``dice_count``'s, written out: a die left, as the builder mostly has,
            #     without two calls)
            masks = s.dice_masks
            if player >= len(masks) or masks[player].bit_count() < engine._dice_per_player:
                ok, moved = True, None
            else:
                ok, moved = engine.free_die(s, player, a.lot, events, choices.get("die_from"))
        s.players[player].money -= lot.price
        s.remove_marker(a.lot)
        s.place_tile(a.lot, a.color, 1, player if ok else None, lot.die if ok else None)
        if not engine.mute:  # (a search's imagined games read no event)
            # positional, in field order (keywords cost more in the pure build)
            if COMPILED:
                events.append(Built(player, a.lot, a.color, lot.price, lot.die if ok else None, moved))
            else:  # (pure: without ``__init__``'s frame, see ``new_event``)
                built = new_event(Built)  # (a field a statement: no tuple packed and unpacked)
                built.player = player
                built.lot = a.lot
                built.color = a.color
                built.cost = lot.price
                built.value, built.moved_from = lot.die if ok else None, moved
                events.append(built)


FAMILY = BuildFamily(
    name="build", order=10, decisions=(Build,), verbs=("build",), record_kinds=("build",), in_trade=True,
    main_event="built", profile_keys=("components.tiles_per_color", "f_block.closed_when", "f_block.block"),
    generates_before=True)

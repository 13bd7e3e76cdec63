"""Starting positions: a board set up by hand to pose a rules question in a few lines.

    position:
      current: red            # whose turn it is
      phase: actions          # or "draw": the current player draws first
      turn: 5                 # optional
      players: {red: {money: 40, score: 8}, yellow: {money: 30}}
      markers: {A3: yellow}
      tiles:
        A2: gold red 2        # colour, owner, die value; or "gold h2 red 3" (2 high); or "aqua" (no die)
        A5: {color: gold, height: 1, owner: red, value: 3}
      deck: [D8, A1, END]     # optional draw pile, top first ("END" is the end card)
      discards: [C3, B2]      # optional: cards drawn or dealt already, not in the draw pile
      reorganized: [A2]       # optional: lots already reorganized this turn
      gambles: 0              # optional: gambles already taken this turn

Without ``deck`` the pile is the cards of every lot without a marker and not discarded, shuffled by the seed, with
the end card placed as in a standard setup. At a table (``table: true`` in the record) the pile's order is
unknown: it holds those cards and the end card, and each is named as it is drawn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, TypeGuard

from .board import END_CARD
from .chance import rng_for
from .errors import RecordError
from .notation import whole_number
from .yamlsource import plain

if TYPE_CHECKING:
    from .game import Game

KEYS = {"current", "phase", "turn", "players", "markers", "tiles", "deck", "discards", "reorganized", "gambles"}


SHAPES: dict[str, tuple[type, str]] = {
    "players": (dict, "a mapping of player to {money, score}"), "markers": (dict, "a mapping of lot to owner"),
    "tiles": (dict, "a mapping of lot to tile"), "deck": (list, "a list of cards, top first"),
    "reorganized": (list, "a list of lots"), "current": (str, "a player"), "phase": (str, "actions or draw"),
    "turn": (int, "a whole number"), "gambles": (int, "a whole number")}


def kind_of(value: Any) -> str:
    """What a wrongly typed value is, for a message (never the value itself, which may be long)."""
    return {dict: "a mapping", list: "a list", str: "text", bool: "true/false", type(None): "empty"}.get(
        type(value), "a number" if isinstance(value, (int, float)) else type(value).__name__)


def check_shape(position: dict[str, Any], fail: Callable[[tuple[str, ...], str], Exception]) -> None:
    """The types of a position's sections and player entries, before anything reads them: ``fail(key path
    inside the position, message)`` makes the error (``record.py`` adds the line)."""
    for key, value in position.items():
        kind, what = SHAPES.get(key, (object, ""))
        if value is not None and (not isinstance(value, kind) or isinstance(value, bool)):
            raise fail((key,), f"position: {key}: {what}, not {kind_of(value)}")
    for who, values in (position.get("players") or {}).items():
        if values is not None and not isinstance(values, dict):
            raise fail(("players", who), f"position: players.{plain(who)}: a mapping such as "
                                         f"{{money: 30, score: 8}}, not {kind_of(values)}")
        for key, value in (values or {}).items():
            if key in ("money", "score") and not _whole(value):
                raise fail(("players", who, key),
                           f"position: players.{plain(who)}.{key}: a whole number, not {kind_of(value)}")


def _whole(value: Any) -> TypeGuard[int]:
    """A whole number, and not a bool (YAML's ``true`` is an int to Python)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _tile(lot: str, spec: Any, names: list[str], colors: tuple[str, ...]) -> tuple[str, int, int | None, int | None]:
    key = ("position", "tiles", lot)
    if isinstance(spec, str):
        words = spec.split()
        spec = {"color": words[0] if words else ""}
        rest = words[1:]
        if rest and rest[0].lower().startswith("h") and whole_number(rest[0][1:], RecordError) is not None:
            spec["height"] = int(rest.pop(0)[1:])
        if len(rest) == 2:
            value = whole_number(rest[1], RecordError)
            spec["owner"], spec["value"] = rest[0], rest[1] if value is None else value
        elif rest:
            raise RecordError(f"position: tile {lot}: '{' '.join(words)}' is not 'COLOUR [hN] [OWNER VALUE]'", key=key)
    if not isinstance(spec, dict):
        raise RecordError(f"position: tile {lot}: give 'COLOUR [hN] [OWNER VALUE]' or a mapping", key=key)
    unknown = set(spec) - {"color", "height", "owner", "value"}
    if unknown:
        raise RecordError(f"position: tile {lot}: unknown field(s) {', '.join(sorted(map(plain, unknown)))}", key=key)
    color = spec.get("color")
    if color not in colors:
        raise RecordError(f"position: tile {lot}: unknown colour {color!r} (colours: {', '.join(colors)})", key=key)
    height = spec.get("height", 1)
    if not _whole(height) or height < 1:
        raise RecordError(f"position: tile {lot}: height {height!r} must be a whole number >= 1", key=key)
    owner, value = spec.get("owner"), spec.get("value")
    if (owner is None) != (value is None):
        raise RecordError(f"position: tile {lot}: give both the die's owner and its value, or neither", key=key)
    if owner is not None:
        if owner not in names:
            raise RecordError(f"position: tile {lot}: unknown player {owner!r} (players: {', '.join(names)})", key=key)
        if not _whole(value) or not 1 <= value <= 6:
            raise RecordError(f"position: tile {lot}: die value {value!r} is not 1-6", key=key)
        owner = names.index(owner)
    return color, height, owner, value


def apply_position(game: Game, position: dict[str, Any], table: bool = False) -> bool:
    """Set ``game.state`` from ``position``; return True if the current player's draw comes first."""
    if not isinstance(position, dict):
        raise RecordError("position: must be a mapping", key=("position",))
    check_shape(position, lambda path, message: RecordError(message, key=("position", *path[:2])))
    unknown = set(position) - KEYS
    if unknown:
        raise RecordError(f"position: unknown key(s) {', '.join(sorted(map(plain, unknown)))} "
                          f"(known: {', '.join(sorted(KEYS))})", key=("position",))
    s, board, profile = game.state, game.board, game.profile
    names = [p.name for p in s.players]

    def lot_id(lot: Any, where: str) -> str:
        lot_s = str(lot).upper()
        if lot_s not in board.lots:
            raise RecordError(f"position: {where}: unknown lot {lot!r}", key=("position", where))
        return lot_s

    def player(name: Any, where: str) -> int:
        if name not in names:
            raise RecordError(f"position: {where}: unknown player {name!r} (players: {', '.join(names)})",
                              key=("position", *where.split(".", 1)))
        return names.index(name)

    for name, values in (position.get("players") or {}).items():
        i = player(name, "players")
        values = values or {}
        extra = set(values) - {"money", "score"}
        if extra:
            raise RecordError(f"position: players.{name}: unknown field(s) {', '.join(sorted(map(plain, extra)))}",
                              key=("position", "players", name))
        money, score = values.get("money", 0), values.get("score", 0)
        if not _whole(money) or money < 0:
            raise RecordError(f"position: players.{name}.money {money!r} must be a whole number >= 0",
                              key=("position", "players", name))
        if score not in board.track:
            raise RecordError(f"position: players.{name}.score {score!r} is not a space of the score track",
                              key=("position", "players", name))
        s.players[i].money, s.players[i].score = money, score
    def open_lot(lot: str, where: str) -> str:
        # 003 "2-Player Rules" L893-903: no marker or tile can stand on a closed F block
        if game.engine.f_closed(s, lot):
            raise RecordError(f"position: {where}: {lot} is on the closed {profile.f_block.block} block "
                              f"(f_block.closed_when: {profile.f_block.closed_when})", key=("position", where))
        return lot

    given: dict[str, tuple[str, Any]] = {}  # lot -> (section, how it was spelled), so "a2" and "A2" are not both taken

    def once(lot: Any, where: str) -> str:
        lot_s = open_lot(lot_id(lot, where), where)
        if lot_s in given and given[lot_s][0] == where:
            raise RecordError(f"position: {where}: lot {lot_s} is given twice ({given[lot_s][1]!r} and {lot!r})",
                              key=("position", where))
        given[lot_s] = (where, lot)
        return lot_s

    for lot, owner in (position.get("markers") or {}).items():
        s.put_marker(once(lot, "markers"), player(owner, f"markers.{lot}"))
    for lot, spec in (position.get("tiles") or {}).items():
        lot = once(lot, "tiles")
        if lot in s.markers:
            raise RecordError(f"position: {lot} has both a marker and a tile", key=("position",))
        color, height, owner, value = _tile(lot, spec, names, board.colors)
        if height > profile.max_height(len(names)):
            raise RecordError(f"position: tile {lot} is {height} high; profile '{profile.name}' allows "
                              f"{profile.max_height(len(names))}", key=("position", "tiles", lot))
        s.place_tile(lot, color, height, owner, value)
    c = profile.components
    for color in board.colors:
        if s.tiles_on_board(color) > c.tiles_per_color:
            raise RecordError(f"position: {s.tiles_on_board(color)} {color} tiles; there are {c.tiles_per_color}",
                              key=("position",))
    for i, name in enumerate(names):
        if len(s.dice_on_board(i)) > c.dice_per_player:
            raise RecordError(f"position: {name} has more than {c.dice_per_player} dice on the board",
                              key=("position",))
        if len(s.markers_on_board(i)) > c.markers_per_player:
            raise RecordError(f"position: {name} has more than {c.markers_per_player} markers on the board",
                              key=("position",))
    current = position.get("current", names[0])
    s.current = player(current, "current")
    turn = position.get("turn", 1)
    if not _whole(turn) or turn < 1:
        raise RecordError(f"position: turn {turn!r} must be a whole number >= 1", key=("position", "turn"))
    s.turn = turn
    phase: str = position.get("phase", "actions")
    if phase not in ("actions", "draw"):
        raise RecordError(f"position: phase {phase!r} must be 'actions' or 'draw'", key=("position", "phase"))
    discards = position.get("discards") or []
    if not isinstance(discards, list):
        raise RecordError("position: discards: a list of the cards drawn or dealt already",
                          key=("position", "discards"))
    discards = [lot_id(card, "discards") for card in discards]
    if len(set(discards)) != len(discards):
        raise RecordError("position: discards: a card appears twice", key=("position", "discards"))
    s.discards = discards
    deck = position.get("deck")
    if table:
        if deck is not None:
            raise RecordError("position: deck: at a table the draw pile is unseen; give the discards instead",
                              key=("position", "deck"))
        deck = [lot for lot in board.order if lot not in s.markers and lot not in discards] + [END_CARD]
    elif deck is None:
        deck = [lot for lot in board.order if lot not in s.markers and lot not in discards]
        rng_for(game.seed, "position-deck").shuffle(deck)
        under = len(deck) // 4 if profile.deck.end_card_depth == "quarter" else 0
        deck.insert(len(deck) - under, END_CARD)
    else:
        deck = [END_CARD if str(card).upper() == END_CARD else lot_id(card, "deck") for card in deck]
        if len(set(deck)) != len(deck):
            raise RecordError("position: deck: a card appears twice", key=("position", "deck"))
        marked = [card for card in deck if card in s.markers]
        if marked:  # 000 L47 / 003 L211-214: a marker goes on a lot when its card is drawn, so that card is gone
            raise RecordError(f"position: deck: {', '.join(marked)} has a marker, so its card was drawn already",
                              key=("position", "deck"))
        both = [card for card in deck if card in discards]
        if both:
            raise RecordError(f"position: deck: {', '.join(both)} is in the discards too", key=("position", "deck"))
    s.deck = deck
    s.reorganized = {lot_id(lot, "reorganized") for lot in position.get("reorganized") or []}
    for lot in sorted(s.reorganized):
        if lot not in s.tiles or s.tiles[lot].owner is None:
            raise RecordError(f"position: reorganized: {lot} has no die to have been reorganized",
                              key=("position", "reorganized"))
    gambles = position.get("gambles", 0)
    if not _whole(gambles) or gambles < 0:
        raise RecordError(f"position: gambles {gambles!r} must be a whole number >= 0", key=("position", "gambles"))
    s.gambles = gambles
    s.phase = "actions"
    return phase == "draw"

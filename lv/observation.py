"""What a player sees of an ``ExplicitGame``, as numbers (a flat tensor of fixed size) and as text.

Nothing in Lords of Vegas is hidden (003 L236), so every player sees the same facts; the tensor is written from
the observer's seat: player planes run from the observer (plane 0), then the next seats in turn order. With
``n`` players, ``H`` the highest a casino may be raised (``Profile.max_height``, 1 without risers) and the 48
lots in board order (A1 ... F9), the tensor is, in this order (``layout`` gives the names and sizes):

per lot, one plane of 48 values each (3n + H + 15 planes, so 48 (3n + H + 15) values):

- ``marker``: n planes, 1 where that player's marker stands (a parking lot);
- ``color``: 5 planes, the tile's colour (aqua, brown, gold, purple, silver);
- ``height``: H planes, the tile's height (1 to H);
- ``die_owner``: n planes, whose die is on the tile;
- ``die``: 6 planes, the die's face;
- ``boss``: n planes, the boss of the casino the lot belongs to (none while a tie is unresolved);
- ``seen``: 1 plane, the lot's card has been dealt or drawn (the unseen cards are what the pile holds);
- ``reorganized``: 1 plane, the die was reorganized this turn (it may not be again: 003 L624-627);
- ``pending``: 1 plane, the lot of a decision waiting for its dice or for the boss's answer;
- ``drawn``: 1 plane, the cards drawn this turn;

then the numbers of the game (5n + 24 values):

- ``money``: n, each player's money in millions, as is; ``points``: n, each player's points;
- ``markers_left``, ``dice_left``: n each, the pieces still in hand;
- ``to_move``: n, 1 for the player deciding now (none at a chance node);
- ``node``: 7, what the game waits for (deal, roll, draw, dice, boss, act, over: ``lv.explicit.NODES``);
- ``tiles_left``: 5, the casino tiles of each colour off the board;
- ``pile``: 3, the cards turned over since the deal, and the fewest and most that may still come before the
  end card;
- ``turn``: 2, the turn number and the gambles made this turn;
- ``stake``: 1, the bet of a gamble waiting for the boss's answer or its dice;
- ``faces``: 6, the dice rolled so far for the step under way, counted by face.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .explicit import ACT, BOSS, NODES, ExplicitGame

if TYPE_CHECKING:
    from .game import Game

LOTS = 48
COLORS = 5


def layout(players: int, height: int) -> list[tuple[str, int]]:
    """(name, size) of each part of the tensor, in order."""
    lot = [("marker", players), ("color", COLORS), ("height", height), ("die_owner", players), ("die", 6),
           ("boss", players), ("seen", 1), ("reorganized", 1), ("pending", 1), ("drawn", 1)]
    out = [(name, planes * LOTS) for name, planes in lot]
    out += [("money", players), ("points", players), ("markers_left", players), ("dice_left", players),
            ("to_move", players), ("node", len(NODES)), ("tiles_left", COLORS), ("pile", 3), ("turn", 2),
            ("stake", 1), ("faces", 6)]
    return out


def size(players: int, height: int) -> int:
    return sum(n for _, n in layout(players, height))


def tensor(eg: ExplicitGame, player: int) -> list[float]:
    """The observation of ``player`` (a seat) as a flat list of ``size(players, height)`` numbers."""
    n = len(eg.names)
    out = [0.0] * size(n, eg.profile.max_height(n))
    write(eg, player, out)
    return out


def write(eg: ExplicitGame, player: int, out: Any) -> None:
    """Write the observation of ``player`` into ``out`` (a list or a NumPy vector of zeros, of the size)."""
    n = len(eg.names)
    height = eg.profile.max_height(n)
    at: dict[str, int] = {}
    i = 0
    for name, count in layout(n, height):
        at[name] = i
        i += count
    seat = {s: (s - player) % n for s in range(n)}  # the observer's plane first
    index = eg.space.lot_index

    def put(name: str, plane: int, lot: str, value: float = 1.0) -> None:
        out[at[name] + plane * LOTS + index[lot]] = value

    game = eg.game
    seen = game.discards if game is not None else eg.dealt
    if game is None:  # the deal under way: the markers of the cards kept so far
        for p, name in enumerate(eg.names):
            for lot in eg.deal[name]:
                if lot not in eg.skipped:
                    put("marker", seat[p], lot)
    for lot in seen:
        if lot in index:
            put("seen", 0, lot)
    pending = getattr(eg.step, "lot", None)
    if pending is not None:
        put("pending", 0, pending)
    if game is not None:
        s = game.state
        for lot, owner in s.markers.items():
            put("marker", seat[owner], lot)
        colors = eg.space.color_index
        for lot, tile in s.tiles.items():
            put("color", colors[tile.color], lot)
            put("height", min(tile.height, height) - 1, lot)
            if tile.owner is not None and tile.value is not None:
                put("die_owner", seat[tile.owner], lot)
                put("die", tile.value - 1, lot)
        for casino in game.casinos():
            if casino.boss is not None:
                for lot in casino.lots:
                    put("boss", seat[casino.boss], lot)
        for lot in s.reorganized:
            put("reorganized", 0, lot)
        for lot in s.drawn:
            if lot in index:
                put("drawn", 0, lot)
        for p in range(n):
            k = seat[p]
            out[at["money"] + k] = s.players[p].money
            out[at["points"] + k] = s.players[p].score
            pieces = game.pieces(p)
            out[at["markers_left"] + k] = pieces["markers_in_hand"]
            out[at["dice_left"] + k] = pieces["dice_in_hand"]
        for c, left in game.tiles_left().items():
            out[at["tiles_left"] + colors[c]] = left
        out[at["turn"]] = s.turn
        out[at["turn"] + 1] = s.gambles
        out[at["pile"]] = eg.drawn
        before = [eg.pile - d - eg.drawn for d in eg.depths if eg.pile - d >= eg.drawn]
        if before:
            out[at["pile"] + 1], out[at["pile"] + 2] = min(before), max(before)
    else:
        for i in range(COLORS):
            out[at["tiles_left"] + i] = float(eg.profile.components.tiles_per_color)
    node = eg.node
    if node in (ACT, BOSS):
        out[at["to_move"] + seat[eg.current_player]] = 1
    out[at["node"] + NODES.index(node)] = 1
    bet = getattr(eg.step, "bet", None)
    if bet is not None:
        out[at["stake"]] = bet
    for face in eg.faces:
        out[at["faces"] + face - 1] += 1


def text(eg: ExplicitGame, player: int) -> str:
    """The observation as one line of text: the node, the players, the board, the step under way."""
    names, game = eg.names, eg.game
    parts = [f"{names[player]} sees", eg.node]
    if eg.current_player >= 0:
        parts.append(f"{names[eg.current_player]} to move")
    if game is None:
        parts.append("deal " + " ".join(f"{k}:{','.join(v)}" for k, v in eg.deal.items()))
        parts.append("rolls " + " ".join(f"{k}:{v}" for r in eg.rounds for k, v in r.items()))
    else:
        parts.append(_position(game))
        parts.append(f"pile {eg.drawn}/{eg.pile}")
    if eg.step is not None:
        parts.append(f"step {eg.step!r}")
    if eg.faces:
        parts.append(f"faces {eg.faces}")
    return " | ".join(parts)


def _position(game: Game) -> str:
    s = game.state
    players = " ".join(f"{p.name}:${p.money}:{p.score}pt" for p in s.players)
    markers = " ".join(f"{lot}={s.markers[lot]}" for lot in sorted(s.markers))
    tiles = " ".join(f"{lot}={t.color[:2]}{t.height}/{_die(t.owner, t.value)}" for lot, t in sorted(s.tiles.items()))
    return (f"turn {s.turn} gambles {s.gambles} | {players} | markers {markers} | tiles {tiles} | "
            f"reorganized {','.join(sorted(s.reorganized))} | drawn {','.join(s.drawn)} | "
            f"seen {','.join(sorted(game.discards))}")


def _die(owner: Any, value: Any) -> str:
    return "-" if owner is None else f"{owner}:{value}"

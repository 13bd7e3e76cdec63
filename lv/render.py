"""The board drawn for people: as terminal text (Rich) for ``lv show`` and as SVG/HTML for ``lv render``.

Pure functions of a game's state and the board geometry (``lv.load_board()``); nothing here knows a rule. The six
blocks stand on either side of the Strip: A, C, E to the west and B, D, F to the east. Each side is stacked
north to south with a street between blocks; both sides hold 8 rows and 2 inner streets, so with rows of one
height A/B are level, C (4 rows) faces D (3 rows), F row 1 sits between C row 4 and E row 1 and E is level with
F rows 2-3, as on the playmat (reference/board-data.yaml, ``vertical_alignment_note``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from xml.sax import saxutils

from rich.console import Group
from rich.text import Text

from .board import END_CARD, Board
from .errors import LvError
from .printable import printable
from .state import ending
from .tables import Table

if TYPE_CHECKING:
    from .game import CasinoView, Game
    from .state import Tile

WEST, EAST = ("A", "C", "E"), ("B", "D", "F")
# Street names are flavour, read off the playmat (reference/board-data.yaml, blocks: north/south streets).
NORTH_STREET = "Sahara Ave"
SOUTH_STREET = "Tropicana Ave"
STREETS_BETWEEN = {("A", "C"): "Flamingo Rd", ("C", "E"): "Rue de Monte Carlo",
                   ("B", "D"): "Flamingo Rd", ("D", "F"): "Harmon Ave"}
OUTER_STREETS = ("Frank Sinatra Dr", "Koval Ln")

CASINO_HEX = {"aqua": "#35b8c4", "brown": "#8b5a36", "gold": "#e2b33b", "purple": "#7d4ea3", "silver": "#b9bfc7"}
CASINO_ABBR = {"aqua": "AQU", "brown": "BRN", "gold": "GLD", "purple": "PUR", "silver": "SLV"}
PLAYER_HEX = {"black": "#26282b", "blue": "#2f6fd6", "green": "#2f9e4f", "purple": "#9b4dca", "red": "#d63a3a",
              "yellow": "#f2c81d", "orange": "#ef7f1a", "white": "#f4f4f4", "pink": "#e86aa6", "brown": "#7a4b2a"}
SPARE_HEX = ("#d63a3a", "#2f6fd6", "#2f9e4f", "#f2c81d", "#9b4dca", "#26282b", "#ef7f1a", "#e86aa6")
FONT = "DejaVu Sans, Verdana, Helvetica, Arial, sans-serif"


# ---------------------------------------------------------------------------------------------- shared views


def player_colors(names: list[str]) -> list[str]:
    """A colour per seat: the player's own colour when the name is one, else a spare one not taken."""
    taken = {PLAYER_HEX[n.lower()] for n in names if n.lower() in PLAYER_HEX}
    spare = [c for c in SPARE_HEX if c not in taken]
    out = []
    for name in names:
        if name.lower() in PLAYER_HEX:
            out.append(PLAYER_HEX[name.lower()])
        else:
            out.append(spare.pop(0) if spare else "#777777")
    return out


def die_codes(names: list[str]) -> list[str]:
    """Short owner codes for dice: the initial when it is unique; black takes ``k`` (as in CMYK) when another
    name shares its initial; other clashes take initial + last letter, else initial + seat number."""
    initials = [n[:1].lower() for n in names]
    codes = ["k" if n.lower() == "black" and initials.count(initials[i]) > 1 and "k" not in initials else initials[i]
             for i, n in enumerate(names)]
    out = []
    for i, name in enumerate(names):
        code = codes[i]
        if codes.count(code) > 1:
            code = (name[:1] + name[-1:]).lower()
            if code in out or code in codes or sum(1 for n in names if (n[:1] + n[-1:]).lower() == code) > 1:
                code = f"{name[:1].lower()}{i + 1}"
        out.append(code)
    return out


def casino_abbr(color: str) -> str:
    return CASINO_ABBR.get(color, color[:3].upper())


def status_line(game: Game) -> str:
    """``Turn 4 · blue to play · drew E1 (pays brown)`` or the result."""
    s, names = game.state, game.player_names
    if game.over:
        r = game.result
        assert r is not None  # over: there is a result
        return f"Game over after turn {s.turn} ({ending(r.reason)}): {names[r.winner]} wins"
    if s.phase == "draw":
        return f"Turn {s.turn} · {names[s.current]} to draw"
    pending = s.pending or {}  # what a draw at a table waits for (phase reroll or choice)
    if s.phase == "reroll":
        return f"Turn {s.turn} · {names[s.current]}'s draw: tie reroll on {', '.join(pending['lots'])}"
    if s.phase == "choice":
        what = "marker" if pending["what"] == "marker_from" else "die"
        return f"Turn {s.turn} · {names[s.current]}'s draw: which {what} to move"
    if s.phase == "lay_off":  # a gamble waits for its boss's answer (lv/actions/layoff.py)
        return (f"Turn {s.turn} · {names[s.current]} bets ${pending['bet']} at {pending['lot']}: "
                f"{names[pending['boss']]} to answer (layoff or no-layoff)")
    drawn = ", ".join(f"{c} (pays {game.board.card_color(c)})" for c in s.drawn)
    return f"Turn {s.turn} · {names[s.current]} to play" + (f" · drew {drawn}" if drawn else "")


def track_space(board: Board, score: int) -> int:
    """The score track space a score stands on: the highest space not above it (the track has breaks)."""
    return max((i for i, value in enumerate(board.track) if value <= score), default=0)


def drawn_lots(game: Game) -> list[str]:
    """The lots whose cards were just drawn (the end card is no lot)."""
    return [c for c in game.state.drawn if c in game.board.lots]


def players_data(game: Game) -> list[dict[str, Any]]:
    s = game.state
    out = []
    for i, p in enumerate(s.players):
        pieces = game.pieces(i)
        out.append({"name": p.name, "money": p.money, "points": p.score,
                    "track_space": track_space(game.board, p.score),
                    "lots": sorted(s.markers_on_board(i), key=game.board.index.__getitem__),
                    "markers_in_hand": pieces["markers_in_hand"], "dice_in_hand": pieces["dice_in_hand"],
                    "current": i == s.current and not game.over})
    return out


def casinos_data(game: Game) -> list[dict[str, Any]]:
    names = game.player_names
    return [{"lots": list(c.lots), "color": c.color, "spaces": c.spaces, "height": c.height,
             "boss": names[c.boss] if c.boss is not None else None,
             "dice": [{"lot": lot, "owner": names[o] if o is not None else None, "value": v}
                      for lot, o, v in c.dice],
             "points": c.points, "strip": c.strip} for c in game.casinos()]


def state_data(game: Game) -> dict[str, Any]:
    """The state as plain data (``lv show --json``)."""
    s, names = game.state, game.player_names
    lots: dict[str, Any] = {}
    for lot in game.board.order:
        if lot in s.tiles:
            t = s.tiles[lot]
            b = game.boss_at(lot)
            lots[lot] = {"tile": {"color": t.color, "height": t.height,
                                  "owner": names[t.owner] if t.owner is not None else None, "value": t.value},
                         "boss": names[b] if b is not None else None}
        elif lot in s.markers:
            lots[lot] = {"marker": names[s.markers[lot]]}
        else:
            lots[lot] = {"price": game.board.lots[lot].price, "die": game.board.lots[lot].die}
    result = None
    if game.over:
        r = game.result
        assert r is not None  # over: there is a result
        result = {"reason": r.reason, "winner": names[r.winner], "ranking": [names[i] for i in r.ranking]}
    return {"profile": game.profile.label, "seed": game.seed, "turn": s.turn,
            "player": names[s.current], "phase": s.phase, "drawn": list(s.drawn),
            "cards_left": sum(1 for c in s.deck), "cards_before_end": game.cards_before_end(),
            "discards": game.discards, "discard_piles": game.discard_piles(), "tiles_left": game.tiles_left(),
            "table": game.table,
            "over": game.over, "result": result,
            "players": players_data(game), "casinos": casinos_data(game), "lots": lots}


# ---------------------------------------------------------------------------------------------- terminal
# Names and other text from a file pass through printable() (lv/printable.py) and into Text, never Rich markup.


CELL = 13
CASINO_STYLE = {"aqua": "black on #35b8c4", "brown": "white on #8b5a36", "gold": "black on #e2b33b",
                "purple": "white on #7d4ea3", "silver": "black on #b9bfc7"}


def _rgb(hex_color: str) -> tuple[int, int, int]:
    r, g, b = (int(hex_color[i:i + 2], 16) for i in (1, 3, 5))
    return r, g, b


def _luma(hex_color: str) -> float:
    r, g, b = _rgb(hex_color)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _player_style(hex_color: str) -> str:
    dark = _luma(hex_color) < 60
    return f"bold white on {hex_color}" if dark else f"bold {hex_color}"


def _side_slots(board: Board, blocks: tuple[str, ...]) -> list[tuple[Any, ...]]:
    """The rows of one side, north to south: ("lots", block, row) or ("street", name)."""
    rows = _block_rows(board)
    out: list[tuple[Any, ...]] = []
    for i, block in enumerate(blocks):
        if i:
            out.append(("street", STREETS_BETWEEN.get((blocks[i - 1], block), "")))
        out.extend(("lots", block, r) for r in range(1, rows[block] + 1))
    return out


def _block_rows(board: Board) -> dict[str, int]:
    rows: dict[str, int] = {}
    for lot in board.lots.values():
        rows[lot.block] = max(rows.get(lot.block, 0), lot.row)
    return rows


def _grid(board: Board) -> dict[tuple[str, int, int], str]:
    return {(lot.block, lot.row, lot.col): lot.id for lot in board.lots.values()}


COMPACT_CELL = 10
COMPACT_WIDTH = 20 + 6 * CELL  # the full board's width: below it, ``show`` draws the compact one


def _shown_names(game: Game) -> list[str]:
    """The player names as the terminal shows them: control characters escaped."""
    return [printable(n) for n in game.player_names]


def _cell(game: Game, lot: str, names: list[str], codes: list[str], styles: list[str], compact: bool = False) -> Text:
    s = game.state
    cell = COMPACT_CELL if compact else CELL
    text = Text(f"{lot}*".ljust(4), "bold reverse") if lot in s.drawn else Text(f"{lot:<4}")
    if lot in s.tiles:
        t = s.tiles[lot]
        abbr = casino_abbr(t.color)[:1] if compact else casino_abbr(t.color)
        label = abbr + (f"^{t.height}" if t.height > 1 else "")
        text.append(label, CASINO_STYLE.get(t.color, "reverse"))
        text.append(" ")
        if t.owner is None:
            text.append("--")
        else:
            text.append(f"{codes[t.owner]}{t.value}", styles[t.owner])
    elif lot in s.markers:
        owner = s.markers[lot]
        text.append("[")
        text.append(names[owner][:4 if compact else 6], styles[owner])
        text.append("]")
    else:
        text.append(f"${game.board.lots[lot].price}", "dim")
    text.truncate(cell)
    text.pad_right(cell - len(text))
    return text


def board_text(game: Game, compact: bool = False) -> Text:
    """The board as text: west blocks, the Strip as a vertical band, east blocks; one line per row of lots.

    Cells: ``A2 $6`` an empty lot and its price, ``A2 [red]`` a marker, ``A2 GLD r2`` a gold tile with red's die
    showing 2, ``A2 GLD^2 r5`` two high, ``A2 GLD --`` a tile without a die. ``compact`` (78 columns instead
    of 98): a casino's colour by its initial (``A2 G r2``), markers with 4 letters of the name."""
    board = game.board
    names = _shown_names(game)
    codes = die_codes(names)
    styles = [_player_style(c) for c in player_colors(names)]
    grid = _grid(board)
    west, east = _side_slots(board, WEST), _side_slots(board, EAST)
    cell = COMPACT_CELL if compact else CELL
    width = 3 * cell + 2
    band = "THE STRIP"
    out = Text()

    def street(name: str) -> Text:
        return Text(f"── {name} ".ljust(width, "─") if name else " " * width, "dim")

    def side(slot: tuple[Any, ...]) -> Text:
        if slot[0] == "street":
            return street(slot[1])
        _, block, row = slot
        line = Text()
        for col in (1, 2, 3):
            if col > 1:
                line.append(" ")
            lot = grid.get((block, row, col))
            line.append_text(_cell(game, lot, names, codes, styles, compact) if lot else Text(" " * cell))
        return line

    def label(slot: tuple[Any, ...], west_side: bool) -> str:
        first = slot[0] == "lots" and slot[2] == 1
        return (slot[1] if first else " ")

    def strip(i: int) -> Text:
        letter = band[i] if 0 <= i < len(band) else " "
        return Text(f"║ {letter} ║", "bold white on #3a3d42")

    def street_row(name: str) -> None:
        out.append(" " * 4)
        out.append_text(street(name))
        out.append("  ")
        out.append_text(strip(-1))
        out.append("  ")
        out.append_text(street(name))
        out.append("\n")

    street_row(NORTH_STREET)
    for i in range(max(len(west), len(east))):
        w = west[i] if i < len(west) else ("street", "")
        e = east[i] if i < len(east) else ("street", "")
        out.append(f" {label(w, True)}  ")
        out.append_text(side(w))
        out.append("  ")
        out.append_text(strip(i))
        out.append("  ")
        out.append_text(side(e))
        out.append(f"  {label(e, False)}".rstrip())
        out.append("\n")
    street_row(SOUTH_STREET)
    legend = Text("dice: ")
    for i, name in enumerate(names):
        legend.append(codes[i], styles[i])
        legend.append(f"={name}  ")
    abbr = (lambda c: casino_abbr(c)[:1]) if compact else casino_abbr
    legend.append("· tiles: " + ", ".join(f"{abbr(c)} {c}" for c in board.colors) + "; ^2 = 2 high · "
                  "[name] marker · $N price of an empty lot · A2* the lot just drawn")
    out.append_text(legend)
    return out


def players_table(game: Game) -> Table:
    styles = [_player_style(c) for c in player_colors(game.player_names)]
    table = Table("", "player", "money", "points", "lots (markers)", "markers in hand", "dice in hand",
                  box=None, pad_edge=False)
    for i, p in enumerate(players_data(game)):
        table.add_row("▶" if p["current"] else "", Text(printable(p["name"]), styles[i]), f"${p['money']}",
                      str(p["points"]),
                      " ".join(p["lots"]) or "-", str(p["markers_in_hand"]), str(p["dice_in_hand"]))
    return table


def casinos_table(game: Game) -> Table:
    names = _shown_names(game)
    codes = die_codes(names)
    table = Table("casino", "colour", "spaces", "height", "boss", "dice", "points", "strip", box=None, pad_edge=False)
    for c in game.casinos():
        dice = " ".join(f"{lot}:{codes[o]}{v}" if o is not None else f"{lot}:--" for lot, o, v in c.dice)
        table.add_row(" ".join(c.lots), c.color, str(c.spaces), str(c.height),
                      Text(names[c.boss] if c.boss is not None else "-"), Text(dice), str(c.points),
                      "yes" if c.strip else "")
    return table


def track_text(game: Game) -> Text:
    """The score track on one line, a character per space: each player's die code where they stand, a digit
    where several stand together."""
    names, track = _shown_names(game), game.board.track
    codes = die_codes(names)
    styles = [_player_style(c) for c in player_colors(names)]
    at: dict[int, list[int]] = {}
    for i, p in enumerate(game.state.players):
        at.setdefault(track_space(game.board, p.score), []).append(i)
    out = Text(f"score track {track[0]} ▕")
    for space in range(len(track)):
        seats = at.get(space, [])
        if len(seats) == 1:
            out.append(codes[seats[0]][:1], styles[seats[0]])
        else:
            out.append(str(len(seats)) if seats else "·", "bold" if seats else "dim")
    out.append(f"▏ {track[-1]}")
    return out


def end_card_text(game: Game) -> str:
    """Where the end card is: so many cards above it, drawn, or (at a table, where the pile's order is unknown)
    still in the pile, unseen."""
    left = game.cards_before_end()
    if left is not None:
        return f"{left} card{'s' if left != 1 else ''} before the end card"
    if game.table and END_CARD in game.state.deck:
        return "the end card is in the deck, unseen"
    return "the end card is drawn"


def supply_text(game: Game) -> Text:
    """Cards before the end card and the tiles left of each colour."""
    return Text(f"{end_card_text(game)} · tiles left: "
                + ", ".join(f"{c} {n}" for c, n in game.tiles_left().items()))


def show(game: Game, width: int | None = None) -> Group:
    """What ``lv show`` prints: the status line, the score track and supplies, the players, the casinos, the
    board (compact when ``width`` is below the full board's)."""
    parts: list[Any] = [Text(printable(status_line(game)), "bold"), track_text(game), supply_text(game), Text(""),
                   players_table(game), Text("")]
    if game.state.tiles:
        parts += [casinos_table(game), Text("")]
    else:
        parts += [Text("no casinos yet", "dim"), Text("")]
    parts.append(board_text(game, compact=width is not None and width < COMPACT_WIDTH))
    return Group(*parts)


# ---------------------------------------------------------------------------------------------- SVG


def escape(text: str) -> str:
    """XML character data, control characters shown as escapes (XML 1.0 cannot hold them; lv/printable.py)."""
    return saxutils.escape(printable(text))


def quoteattr(text: str) -> str:
    return saxutils.quoteattr(printable(text))


LOT, GAP, PAD, STREET, STRIP_W, MARGIN, TOP = 80, 6, 9, 44, 112, 46, 44
# the texts of a scalable board (svg(scalable=True)) by class, with the size each is drawn at
SCALABLE_LABELS = {"lot-id": 12, "price": 20, "owned-price": 11, "marker-name": 9, "height": 11, "boss": 15,
                   "street": 12, "strip-name": 19, "block-label": 22}
SCALABLE_TOP = 19  # the baseline of a scalable lot's top labels (lower: room for letters that grow upwards)
RISER = 5  # pixels of each riser seen under a tile
PANEL_W = 360


def layout(board: Board) -> tuple[dict[str, tuple[int, int]], dict[str, tuple[int, int, int, int]], dict[str, Any]]:
    """Pixel positions: the top-left corner of each lot, the rectangle of each block, and the sizes of the
    board (width, height, strip x, street label positions)."""
    rows = _block_rows(board)
    block_w = 3 * LOT + 2 * GAP
    west_x = MARGIN + PAD
    strip_x = west_x + block_w + PAD + 18
    east_x = strip_x + STRIP_W + 18 + PAD
    lots: dict[str, tuple[int, int]] = {}
    blocks: dict[str, tuple[int, int, int, int]] = {}
    streets: list[tuple[int, int, int, str]] = []  # x, y (centre line), width, name
    bottom = 0
    for blocks_of_side, x in ((WEST, west_x), (EAST, east_x)):
        y = TOP + PAD
        for i, block in enumerate(blocks_of_side):
            if i:
                name = STREETS_BETWEEN.get((blocks_of_side[i - 1], block), "")
                streets.append((x - PAD, y - STREET // 2 - PAD, block_w + 2 * PAD, name))
            h = rows[block] * LOT + (rows[block] - 1) * GAP
            blocks[block] = (x - PAD, y - PAD, block_w + 2 * PAD, h + 2 * PAD)
            for lot in board.lots.values():
                if lot.block == block:
                    lots[lot.id] = (x + (lot.col - 1) * (LOT + GAP), y + (lot.row - 1) * (LOT + GAP))
            y += h + 2 * PAD + STREET
        bottom = max(bottom, y - STREET - PAD)
    width = east_x + block_w + PAD + MARGIN
    height = bottom + PAD + TOP
    return lots, blocks, {"width": width, "height": height, "strip_x": strip_x, "west_x": west_x,
                          "east_x": east_x, "block_w": block_w, "streets": streets}


def _shade(hex_color: str, factor: float) -> str:
    return "#%02x%02x%02x" % tuple(max(0, min(255, int(v * factor))) for v in _rgb(hex_color))


def _light(hex_color: str) -> bool:
    return _luma(hex_color) > 150


PIPS = {1: [(2, 2)], 2: [(1, 1), (3, 3)], 3: [(1, 1), (2, 2), (3, 3)], 4: [(1, 1), (3, 1), (1, 3), (3, 3)],
        5: [(1, 1), (3, 1), (2, 2), (1, 3), (3, 3)], 6: [(1, 1), (3, 1), (1, 2), (3, 2), (1, 3), (3, 3)]}


def _die(x: float, y: float, size: float, value: int, fill: str, stroke: str, pip: str, cls: str = "",
         attrs: str = "") -> str:
    r = size / 9
    parts = [f'<g{f" class={quoteattr(cls)}" if cls else ""}{attrs}>',
             f'<rect x="{x:.1f}" y="{y:.1f}" width="{size:.1f}" height="{size:.1f}" rx="{size / 5:.1f}" '
             f'fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>']
    for px, py in PIPS.get(value, []):
        parts.append(f'<circle cx="{x + px * size / 4:.1f}" cy="{y + py * size / 4:.1f}" r="{r:.1f}" fill="{pip}"/>')
    parts.append("</g>")
    return "".join(parts)


def _text(x: float, y: float, text: str, size: float = 12, fill: str = "#222", anchor: str = "start",
          weight: str = "normal", extra: str = "") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" fill="{fill}" text-anchor="{anchor}" '
            f'font-weight="{weight}"{extra}>{escape(text)}</text>')


def svg(game: Game, title: str | None = None, *, panel: bool = True, scalable: bool = False) -> str:
    """The board as a standalone SVG: blocks and streets, the Strip as a road, tiles in their casino colours
    with risers as stacked edges, dice in their owners' colours, markers as discs, empty lots with price and
    printed die; beside it (``panel``) the status, the score board, the casinos and a legend. One element a
    line: the viewer (lv/view.py) stores each distinct line once.

    ``scalable`` (the viewer's boards): every board text carries a class naming what it is (SCALABLE_LABELS)
    and sits where it has room to grow, so that a page's CSS can enlarge the labels as the board is drawn
    smaller (lv/view.py keeps them at 12 CSS px or more); a tile's height is a haloed text in its bottom right
    corner, not a fixed pill."""
    board, s, names = game.board, game.state, game.player_names
    colors = player_colors(names)
    lots_xy, blocks, size = layout(board)
    board_w, height = size["width"], size["height"]
    width = board_w + (PANEL_W if panel else 0)
    casino_of = {lot: c for c in game.casinos() for lot in c.lots}
    grid = _grid(board)
    street = ' class="street"' if scalable else ""
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="{FONT}">',
        f'<title>{escape(title or "Lords of Vegas: " + status_line(game))}</title>',
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#f3efe6"/>',
        # the town: asphalt everywhere streets run
        f'<rect id="streets" x="8" y="8" width="{board_w - 16}" height="{height - 16}" rx="18" fill="#3c3f44"/>',
    ]
    # street names
    out.append(_text(size["west_x"] + size["block_w"] / 2, TOP / 2 + 12, NORTH_STREET, 12, "#d9d9d9", "middle",
                     extra=street))
    out.append(_text(size["east_x"] + size["block_w"] / 2, TOP / 2 + 12, NORTH_STREET, 12, "#d9d9d9", "middle",
                     extra=street))
    out.append(_text(size["west_x"] + size["block_w"] / 2, height - TOP / 2 + 4, SOUTH_STREET, 12, "#d9d9d9",
                     "middle", extra=street))
    out.append(_text(size["east_x"] + size["block_w"] / 2, height - TOP / 2 + 4, SOUTH_STREET, 12, "#d9d9d9",
                     "middle", extra=street))
    for x, y, w, name in size["streets"]:
        out.append(_text(x + w / 2, y + 4, name, 12, "#d9d9d9", "middle", extra=street))
    mid = height / 2
    out.append(_text(MARGIN / 2 + 4, mid, OUTER_STREETS[0], 12, "#d9d9d9", "middle",
                     extra=f'{street} transform="rotate(-90 {MARGIN / 2 + 4:.1f} {mid:.1f})"'))
    out.append(_text(board_w - MARGIN / 2 - 4, mid, OUTER_STREETS[1], 12, "#d9d9d9", "middle",
                     extra=f'{street} transform="rotate(90 {board_w - MARGIN / 2 - 4:.1f} {mid:.1f})"'))
    strip_name = ' class="strip-name"' if scalable else ""
    # the Strip: a wide road with lane markings down the middle
    sx = size["strip_x"]
    cx = sx + STRIP_W / 2
    out.append(f'<g id="strip" class="strip"><rect x="{sx}" y="8" width="{STRIP_W}" height="{height - 16}" '
               f'fill="#25272b"/>'
               f'<line x1="{sx + 4}" y1="8" x2="{sx + 4}" y2="{height - 8}" stroke="#f2f2f2" stroke-width="2"/>'
               f'<line x1="{sx + STRIP_W - 4}" y1="8" x2="{sx + STRIP_W - 4}" y2="{height - 8}" stroke="#f2f2f2" '
               f'stroke-width="2"/>'
               f'<line x1="{cx - 3}" y1="8" x2="{cx - 3}" y2="{height - 8}" stroke="#f2c81d" stroke-width="2"/>'
               f'<line x1="{cx + 3}" y1="8" x2="{cx + 3}" y2="{height - 8}" stroke="#f2c81d" stroke-width="2"/>'
               f'<line x1="{sx + STRIP_W / 4}" y1="16" x2="{sx + STRIP_W / 4}" y2="{height - 16}" stroke="#bbb" '
               f'stroke-width="2" stroke-dasharray="14 12"/>'
               f'<line x1="{sx + 3 * STRIP_W / 4}" y1="16" x2="{sx + 3 * STRIP_W / 4}" y2="{height - 16}" '
               f'stroke="#bbb" stroke-width="2" stroke-dasharray="14 12"/>'
               # the name twice, a wide dark outline under the fill, to hide the lane lines behind it (as
               # paint-order="stroke" would, which not every renderer, e.g. CairoSVG for PNG, supports)
               + _text(cx, mid, "THE  STRIP  ·  LAS VEGAS BLVD", 19, "#25272b", "middle", "bold",
                       f'{strip_name} letter-spacing="3" transform="rotate(-90 {cx:.1f} {mid:.1f})"'
                       f' stroke="#25272b" stroke-width="6"')
               + _text(cx, mid, "THE  STRIP  ·  LAS VEGAS BLVD", 19, "#f6e7a1", "middle", "bold",
                       f'{strip_name} letter-spacing="3" transform="rotate(-90 {cx:.1f} {mid:.1f})"')
               + '</g>')
    # blocks: the pavement around the lots, with their letter
    for block, (x, y, w, h) in blocks.items():
        out.append(f'<g class="block" id="block-{block}"><rect x="{x}" y="{y}" width="{w}" height="{h}" rx="8" '
                   f'fill="#cdbf9f" stroke="#a8977a" stroke-width="1.5"/></g>')
        west = block in WEST
        lx = x - MARGIN / 2 + 2 if west else x + w + MARGIN / 2 - 2
        out.append(_text(lx, y + 26, block, 22, "#f3efe6", "middle", "bold", ' class="block-label"'))
    for lot_id in board.order:
        out.append(_lot_svg(game, lot_id, lots_xy[lot_id], colors, casino_of, scalable))
    # joins between tiles of one casino, over the gap and the tiles' edges, so a casino reads as one building
    for lot, casino in casino_of.items():
        x, y = lots_xy[lot]
        fill = CASINO_HEX.get(casino.color, "#999")
        top_h = LOT - RISER * (s.tiles[lot].height - 1)
        for n in board.lots[lot].neighbours:
            if casino_of.get(n) is casino and board.index[n] > board.index[lot]:
                nx, ny = lots_xy[n]
                if ny == y:
                    out.append(f'<rect class="join" x="{x + LOT - 3}" y="{y + 1.5}" width="{nx - x - LOT + 6}" '
                               f'height="{top_h - 3}" fill="{fill}"/>')
                else:
                    shade = fill if s.tiles[lot].height == 1 else _shade(fill, 0.72)
                    out.append(f'<rect class="join" x="{x + 1.5}" y="{y + LOT - 3}" width="{LOT - 3}" '
                               f'height="{ny - y - LOT + 6}" fill="{shade}"/>')
        # four tiles of the casino around a corner: fill the crossing too
        here = board.lots[lot]
        square = [grid.get((here.block, here.row + dr, here.col + dc)) for dr, dc in ((0, 1), (1, 0), (1, 1))]
        if all(n is not None and casino_of.get(n) is casino for n in square):
            out.append(f'<rect class="join" x="{x + LOT - 3}" y="{y + LOT - 3}" width="{GAP + 6}" '
                       f'height="{GAP + 6}" fill="{fill}"/>')
    # the lots just drawn: a bright frame over everything on them
    for lot in drawn_lots(game):
        x, y = lots_xy[lot]
        out.append(f'<rect class="drawn" data-lot="{lot}" x="{x - 4}" y="{y - 4}" width="{LOT + 8}" '
                   f'height="{LOT + 8}" rx="8" fill="none" stroke="#ff2d55" stroke-width="4"/>')
    if panel:
        out.append(_panel(game, board_w + 6, colors))
    out.append("</svg>")
    return "\n".join(out) + "\n"


MARK_STEP = "#1565ff"  # the lots a decision touched: a blue frame round the lot
# a lot that differs from the other board: a black frame with pale pink dashes on it, inside the lot. No one
# colour stands out on both a gold and a purple casino (WCAG contrast 3:1 needs a luminance above 0.46 against
# purple and below 0.14 against gold); the black edge does on every casino's top, the pink on the dark risers
# (tests/test_view.py measures both)
MARK_DIFFERS = ("#000000", "#ff9ee0")


def mark(board: Board, lot: str, kind: str) -> str:
    """A frame around ``lot`` (an SVG element for the board of ``svg()``): ``step`` for a lot the shown
    decision changed, ``differs`` for a lot that differs from the other profile's board; both can frame a lot."""
    x, y = layout(board)[0][lot]
    if kind == "step":  # round the lot
        return (f'<rect class="mark mark-step" data-lot="{lot}" x="{x - 3}" y="{y - 3}" width="{LOT + 6}" '
                f'height="{LOT + 6}" rx="9" fill="none" stroke="{MARK_STEP}" stroke-width="5"/>')
    if kind != "differs":
        raise ValueError(f"a mark is 'step' or 'differs', not {kind!r}")
    edge, dash = MARK_DIFFERS  # just inside the lot, so that both frames can show
    box = f'x="{x + 3}" y="{y + 3}" width="{LOT - 6}" height="{LOT - 6}" rx="8"'
    return (f'<g class="mark mark-{kind}" data-lot="{lot}" fill="none"><rect {box} stroke="{edge}" stroke-width="5"/>'
            f'<rect {box} stroke="{dash}" stroke-width="2.5" stroke-dasharray="9 6"/></g>')


def _lot_svg(game: Game, lot_id: str, xy: tuple[int, int], colors: list[str], casino_of: dict[str, CasinoView],
             scalable: bool = False) -> str:
    s, lot = game.state, game.board.lots[lot_id]
    names = game.player_names
    x, y = xy
    top = SCALABLE_TOP if scalable else 15

    def cls(name: str) -> str:
        return f' class="{name}"' if scalable else ""

    tile = s.tiles.get(lot_id)
    kind = "tile" if tile else "marker" if lot_id in s.markers else "empty"
    parts = [f'<g class="lot" id="lot-{lot_id}" data-lot="{lot_id}" data-state="{kind}">']
    if tile is None:
        parts.append(f'<rect x="{x}" y="{y}" width="{LOT}" height="{LOT}" rx="5" fill="#f7f2e6" stroke="#9c8f74" '
                     f'stroke-width="1"/>')
        parts.append(_text(x + 6, y + top, lot_id, 12, "#6b6252", weight="bold", extra=cls("lot-id")))
        if lot.strip:
            parts.append(f'<rect x="{x + (LOT - 5 if lot.block in WEST else 1)}" y="{y + 4}" width="4" '
                         f'height="{LOT - 8}" rx="2" fill="#f2c81d" opacity="0.7"/>')
        if kind == "marker":
            owner = s.markers[lot_id]
            c = colors[owner]
            parts.append(_text(x + LOT - 6, y + top, f"${lot.price}", 11, "#8a806c", "end", extra=cls("owned-price")))
            parts.append(f'<circle class="marker" data-player={quoteattr(names[owner])} cx="{x + LOT / 2}" '
                         f'cy="{y + LOT / 2 + 6}" r="17" fill="{c}" stroke="#ffffff" stroke-width="3"/>')
            parts.append(f'<circle cx="{x + LOT / 2}" cy="{y + LOT / 2 + 6}" r="19" fill="none" stroke="#3c3f44" '
                         f'stroke-width="1"/>')
            parts.append(_text(x + LOT / 2, y + LOT - (2 if scalable else 4), names[owner][:9], 9, "#4a4437", "middle",
                               extra=cls("marker-name")))
        else:
            parts.append(_text(x + LOT / 2 - 10, y + LOT / 2 + 12, f"${lot.price}", 20, "#3d3a33", "middle", "bold",
                               ' class="price"'))
            parts.append(_die(x + LOT - 28, y + LOT - 28, 22, lot.die, "#ffffff", "#6b6252", "#2b2b2b",
                              "printed-die", f' data-value="{lot.die}"'))
        parts.append("</g>")
        return "".join(parts)
    fill = CASINO_HEX.get(tile.color, "#999999")
    risers = tile.height - 1
    step = RISER
    top_h = LOT - step * risers
    # risers: one darker layer per tile under the top one, seen from the south
    for k in range(risers):
        ly = y + top_h + k * step
        parts.append(f'<rect class="riser" x="{x}" y="{ly - 3}" width="{LOT}" height="{step + 3}" rx="3" '
                     f'fill="{_shade(fill, 0.72 - 0.06 * k)}" stroke="{_shade(fill, 0.45)}" stroke-width="1"/>')
    parts.append(f'<rect class="tile" data-color="{tile.color}" data-height="{tile.height}" x="{x}" y="{y}" '
                 f'width="{LOT}" height="{top_h}" rx="5" fill="{fill}" stroke="{_shade(fill, 0.55)}" '
                 f'stroke-width="1.5"/>')
    ink = "#1d1d1d" if _light(fill) else "#ffffff"
    parts.append(_text(x + 6, y + top, lot_id, 12, ink, weight="bold", extra=cls("lot-id")))
    if tile.height > 1 and scalable:  # bottom right, under the die (beside a long id it would not fit); a halo
        parts.append(_text(x + LOT - 5, y + LOT - 4, f"×{tile.height}", 11, "#222", "end", "bold",
                           ' class="height" stroke="#ffffff" stroke-width="4" stroke-linejoin="round"'
                           ' paint-order="stroke"'))
    elif tile.height > 1:
        parts.append(f'<rect x="{x + LOT - 30}" y="{y + 4}" width="26" height="16" rx="8" fill="#ffffff" '
                     f'opacity="0.85"/>')
        parts.append(_text(x + LOT - 17, y + 16, f"×{tile.height}", 11, "#222", "middle", "bold",
                           ' class="height"'))
    dsize = 32
    dx, dy = x + (LOT - dsize) / 2, y + (top_h - dsize) / 2 + 6
    if tile.owner is None:
        parts.append(f'<rect class="no-die" x="{dx}" y="{dy}" width="{dsize}" height="{dsize}" rx="6" fill="none" '
                     f'stroke="{ink}" stroke-width="1.5" stroke-dasharray="4 3" opacity="0.7"/>')
    else:
        assert tile.value is not None  # a die has a value
        c = colors[tile.owner]
        pip = "#1d1d1d" if _light(c) else "#ffffff"
        # a white halo and a dark edge keep every die colour readable on every tile colour
        parts.append(f'<rect x="{dx - 3}" y="{dy - 3}" width="{dsize + 6}" height="{dsize + 6}" rx="{dsize / 5 + 2:.1f}" '
                     f'fill="#ffffff" opacity="0.9"/>')
        parts.append(_die(dx, dy, dsize, tile.value, c, "#2b2b2b", pip, "die",
                          f' data-owner={quoteattr(names[tile.owner])} data-value="{tile.value}"'))
        casino = casino_of.get(lot_id)
        if casino is not None and len(casino.lots) > 1 and casino.boss == tile.owner and _is_top(casino, tile):
            # scalable: a little lower, clear of the lot's id above it when the labels grow
            parts.append(_text(dx - 3, dy + (8 if scalable else 4), "★", 15, "#fff6b0", "middle", "bold",
                               ' class="boss" stroke="#3a3a3a" stroke-width="0.8"'))
    parts.append("</g>")
    return "".join(parts)


def _track_svg(game: Game, x: float, y: float, colors: list[str]) -> str:
    """The score track: a cell per space with its value, each player's token on the space they stand on."""
    track, board = game.board.track, game.board
    cell = (PANEL_W - 36) / len(track)
    parts = ['<g id="score-track">']
    at: dict[int, list[int]] = {}
    for i, p in enumerate(game.state.players):
        at.setdefault(track_space(board, p.score), []).append(i)
    for k, value in enumerate(track):
        cx = x + k * cell
        parts.append(f'<rect x="{cx:.1f}" y="{y + 44:.1f}" width="{cell - 1:.1f}" height="12" rx="2" '
                     f'fill="{"#e6dcc4" if k % 2 else "#d8cfbb"}"/>')
        if k % 4 == 0 or k == len(track) - 1:
            parts.append(_text(cx + cell / 2, y + 68, str(value), 9, "#6b6252", "middle"))
        for n, seat in enumerate(at.get(k, [])):
            parts.append(f'<circle class="track-token" data-player={quoteattr(game.player_names[seat])} '
                         f'data-points="{game.state.players[seat].score}" cx="{cx + cell / 2:.1f}" '
                         f'cy="{y + 37 - n * 9:.1f}" r="4.5" fill="{colors[seat]}" stroke="#2b2b2b" '
                         f'stroke-width="1"/>')
    parts.append(_text(x, y + 6, "score track", 11, "#6b6252", weight="bold"))
    parts.append("</g>")
    return "".join(parts)


def _is_top(casino: CasinoView, tile: Tile) -> bool:
    """The die on ``tile`` shows its casino's (a CasinoView's) highest value."""
    return tile.value == max(value for _, owner, value in casino.dice if owner is not None and value is not None)


def _panel(game: Game, x0: int, colors: list[str]) -> str:
    s, names, board = game.state, game.player_names, game.board
    parts = ['<g id="panel">']
    y = 40
    parts.append(_text(x0 + 14, y, "Lords of Vegas", 26, "#2b2b2b", weight="bold"))
    y += 22
    parts.append(_text(x0 + 14, y, f"{game.profile.title} · seed {game.seed}", 12, "#6b6252"))
    y += 28
    if game.over:
        r = game.result
        assert r is not None  # over: there is a result
        parts.append(_text(x0 + 14, y, f"Game over: {names[r.winner]} wins", 16, "#2b2b2b", weight="bold"))
        y += 18
        parts.append(_text(x0 + 14, y, f"after turn {s.turn} ({ending(r.reason)})", 12, "#6b6252"))
    else:
        parts.append(_text(x0 + 14, y, f"Turn {s.turn}: {names[s.current]} to play", 16, "#2b2b2b", weight="bold"))
        if s.drawn:
            y += 18
            drawn = ", ".join(f"{c} (pays {board.card_color(c)})" for c in s.drawn)
            parts.append(_text(x0 + 14, y, f"drew {drawn}", 12, "#ff2d55" if drawn_lots(game) else "#6b6252",
                               weight="bold"))
    y += 18
    parts.append(_text(x0 + 14, y, end_card_text(game), 12, "#6b6252", extra=' class="cards-before-end"'))
    y += 16
    parts.append(_track_svg(game, x0 + 14, y, colors))
    y += 92
    # the score board
    parts.append(f'<g id="scoreboard">')
    cols = [(x0 + 40, "player", "start"), (x0 + 178, "money", "end"), (x0 + 232, "points", "end"),
            (x0 + 290, "markers", "end"), (x0 + 336, "dice", "end")]
    for cx, label, anchor in cols:
        parts.append(_text(cx, y, label, 11, "#6b6252", anchor, "bold"))
    y += 8
    for i, p in enumerate(players_data(game)):
        y += 24
        if p["current"]:
            parts.append(f'<rect x="{x0 + 8}" y="{y - 17}" width="{PANEL_W - 16}" height="23" rx="5" '
                         f'fill="#e6dcc4"/>')
        parts.append(f'<circle cx="{x0 + 24}" cy="{y - 5}" r="8" fill="{colors[i]}" stroke="#ffffff" '
                     f'stroke-width="2"/>')
        row = [p["name"][:14], f"${p['money']}", str(p["points"]), str(p["markers_in_hand"]), str(p["dice_in_hand"])]
        for (cx, _, anchor), value in zip(cols, row):
            parts.append(_text(cx, y, value, 13, "#2b2b2b", anchor, "bold" if p["current"] else "normal"))
    parts.append("</g>")
    y += 14
    parts.append(_text(x0 + 14, y + 4, "markers and dice: in hand", 10, "#8a806c"))
    y += 30
    # casinos
    casinos = game.casinos()
    parts.append(_text(x0 + 14, y, f"Casinos ({len(casinos)})" if casinos else "Casinos: none yet", 14, "#2b2b2b",
                       weight="bold"))
    shown = sorted(casinos, key=lambda c: (-c.points, board.index[c.lots[0]]))[:10]
    for c in shown:
        y += 19
        fill = CASINO_HEX.get(c.color, "#999")
        parts.append(f'<rect x="{x0 + 16}" y="{y - 11}" width="14" height="14" rx="3" fill="{fill}" '
                     f'stroke="{_shade(fill, 0.55)}"/>')
        lots = " ".join(c.lots) if len(c.lots) <= 4 else " ".join(c.lots[:3]) + f" +{len(c.lots) - 3}"
        boss = names[c.boss] if c.boss is not None else "no boss"
        height = f" ×{c.height}" if c.height > 1 else ""
        parts.append(_text(x0 + 38, y, f"{lots}{height}", 12, "#2b2b2b"))
        parts.append(_text(x0 + 250, y, boss[:10], 12, "#2b2b2b", "end"))
        parts.append(_text(x0 + 336, y, f"{c.points} pt" + ("s" if c.points != 1 else ""), 12, "#2b2b2b", "end"))
    if len(casinos) > len(shown):
        y += 17
        parts.append(_text(x0 + 38, y, f"… and {len(casinos) - len(shown)} more", 11, "#8a806c"))
    y += 34
    # legend
    parts.append('<g id="legend">')
    parts.append(_text(x0 + 14, y, "Legend · tiles left of each colour", 14, "#2b2b2b", weight="bold"))
    left_of = game.tiles_left()
    y += 12
    for i, color in enumerate(board.colors):
        cx = x0 + 16 + (i % 3) * 112
        cy = y + (i // 3) * 24
        fill = CASINO_HEX.get(color, "#999")
        parts.append(f'<rect x="{cx}" y="{cy}" width="18" height="18" rx="3" fill="{fill}" '
                     f'stroke="{_shade(fill, 0.55)}"/>')
        parts.append(_text(cx + 24, cy + 14, f"{color} {left_of[color]}", 12, "#2b2b2b",
                           extra=f' class="tiles-left" data-color="{color}" data-left="{left_of[color]}"'))
    y += 24 * ((len(board.colors) + 2) // 3) + 10
    parts.append(f'<circle cx="{x0 + 25}" cy="{y + 9}" r="9" fill="{colors[0]}" stroke="#ffffff" stroke-width="2"/>')
    parts.append(_text(x0 + 42, y + 14, "marker: a lot the player owns", 12, "#2b2b2b"))
    y += 26
    pip = "#1d1d1d" if _light(colors[0]) else "#ffffff"
    parts.append(_die(x0 + 16, y, 18, 5, colors[0], "#ffffff", pip))
    parts.append(_text(x0 + 42, y + 14, "die in its owner's colour; ★ the boss", 12, "#2b2b2b"))
    y += 26
    parts.append(f'<rect x="{x0 + 16}" y="{y}" width="18" height="12" rx="2" fill="{CASINO_HEX["gold"]}"/>'
                 f'<rect x="{x0 + 16}" y="{y + 11}" width="18" height="5" rx="1" '
                 f'fill="{_shade(CASINO_HEX["gold"], 0.7)}"/>')
    parts.append(_text(x0 + 42, y + 14, "×2: a casino two tiles high (risers)", 12, "#2b2b2b"))
    y += 26
    parts.append(_text(x0 + 16, y + 14, "$9", 13, "#3d3a33", weight="bold"))
    parts.append(_die(x0 + 40, y + 1, 16, 3, "#ffffff", "#6b6252", "#2b2b2b"))
    parts.append(_text(x0 + 62, y + 14, "empty lot: price and printed die", 12, "#2b2b2b"))
    y += 26
    parts.append(f'<rect x="{x0 + 22}" y="{y}" width="5" height="18" rx="2" fill="#f2c81d"/>')
    parts.append(_text(x0 + 42, y + 14, "lot on the Strip (paid by Strip cards)", 12, "#2b2b2b"))
    parts.append("</g></g>")
    return "".join(parts)


def png(game: Game, title: str | None = None) -> bytes:
    """The SVG board as PNG bytes, drawn by CairoSVG: the optional extra ``lv[png]``."""
    try:
        import cairosvg
    except ImportError:
        raise LvError("writing a PNG needs the optional extra lv[png] (pip install 'lv[png]', which installs "
                      "cairosvg); or write board.svg or board.html") from None
    except OSError as exc:  # cairosvg is there but the cairo library is not
        raise LvError(f"writing a PNG needs the cairo library, which cairosvg could not load ({exc}); install "
                      f"it (Debian: apt-get install libcairo2) or write board.svg") from None
    data: bytes = cairosvg.svg2png(bytestring=svg(game, title).encode("utf-8"))
    return data


# ---------------------------------------------------------------------------------------------- HTML


def html(game: Game, title: str | None = None) -> str:
    """A page: the SVG board, then the players and casinos as tables."""
    names = game.player_names
    colors = player_colors(names)
    heading = escape(title or "Lords of Vegas")
    rows = []
    for i, p in enumerate(players_data(game)):
        rows.append(f'<tr{" class=current" if p["current"] else ""}><td><span class="dot" '
                    f'style="background:{colors[i]}"></span>{escape(p["name"])}</td><td>${p["money"]}</td>'
                    f'<td>{p["points"]}</td><td>{escape(" ".join(p["lots"]) or "-")}</td>'
                    f'<td>{p["markers_in_hand"]}</td><td>{p["dice_in_hand"]}</td></tr>')
    crow = []
    for c in casinos_data(game):
        dice = ", ".join(f'{d["lot"]}: {escape(d["owner"])} {d["value"]}' if d["owner"] else f'{d["lot"]}: no die'
                         for d in c["dice"])
        crow.append(f'<tr><td><span class="sw" style="background:{CASINO_HEX.get(c["color"], "#999")}"></span>'
                    f'{c["color"]}</td><td>{" ".join(c["lots"])}</td><td>{c["spaces"]}</td><td>{c["height"]}</td>'
                    f'<td>{escape(c["boss"] or "-")}</td><td>{dice}</td><td>{c["points"]}</td>'
                    f'<td>{"yes" if c["strip"] else ""}</td></tr>')
    casinos = ("<table><tr><th>colour</th><th>lots</th><th>spaces</th><th>height</th><th>boss</th><th>dice</th>"
               "<th>points</th><th>strip</th></tr>" + "".join(crow) + "</table>") if crow else "<p>No casinos yet.</p>"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{heading}: {escape(status_line(game))}</title>
<style>
body {{ font-family: {FONT}; background: #f3efe6; color: #2b2b2b; margin: 24px; }}
h1 {{ margin: 0 0 4px 0; }} .status {{ color: #6b6252; margin-bottom: 16px; }}
table {{ border-collapse: collapse; margin: 8px 0 24px 0; }}
th, td {{ padding: 4px 12px; text-align: left; border-bottom: 1px solid #d8cfbb; }}
tr.current td {{ font-weight: bold; background: #e6dcc4; }}
.dot {{ display: inline-block; width: 12px; height: 12px; border-radius: 6px; margin-right: 6px; }}
.sw {{ display: inline-block; width: 12px; height: 12px; border-radius: 2px; margin-right: 6px; }}
svg {{ max-width: 100%; height: auto; }}
</style></head>
<body>
<h1>{heading}</h1>
<div class="status">{escape(status_line(game))} · {escape(game.profile.title)} · seed {escape(str(game.seed))}</div>
{svg(game, title)}
<h2>Players</h2>
<table><tr><th>player</th><th>money</th><th>points</th><th>lots (markers)</th><th>markers in hand</th>
<th>dice in hand</th></tr>{"".join(rows)}</table>
<h2>Casinos</h2>
{casinos}
</body></html>
"""

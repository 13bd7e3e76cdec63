"""The board drawn for people (lv/render.py): the terminal text of ``lv show`` and the SVG/HTML of ``lv render``.

Geometry from reference/board-data.yaml: west blocks A, C, E and east blocks B, D, F on either side of the Strip;
A/B level, C (4 rows) faces D (3 rows), F row 1 between C row 4 and E row 1, E level with F rows 2-3.
"""

from __future__ import annotations

import glob
import json
import os
import re
import xml.etree.ElementTree as ET

import pytest
from typer.testing import CliRunner

from lv import cli
import lv
from lv import render, session

BOARD = lv.load_board()
SVG_NS = "{http://www.w3.org/2000/svg}"
EXAMPLES = sorted(glob.glob(os.path.join(os.path.dirname(__file__), "..", "examples", "*.yaml")))


BUSY = """\
format: lv-game/1
profile: revised
players: [red, blue, green]
seed: 5
position:
  current: blue
  phase: actions
  players: {red: {money: 20, score: 3}, blue: {money: 14, score: 1}, green: {money: 9}}
  markers: {E3: red, B6: green, F1: blue}
  tiles: {A2: gold red 2, A5: gold blue 3, C12: silver h2 red 5, D4: aqua}
"""


@pytest.fixture(scope="module")
def busy_file(tmp_path_factory):
    """A revised 3-player position with every kind of lot: empty, markers, tiles 1 and 2 high, a tile without a
    die, a two-tile casino with a boss."""
    path = tmp_path_factory.mktemp("busy") / "busy.yaml"
    path.write_text(BUSY, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def busy(busy_file):
    return session.open_game(busy_file).game


def cells(text: str) -> list[str]:
    return text.splitlines()


# ---------------------------------------------------------------------------------------------- terminal


def test_board_text_cells_say_what_is_on_each_lot(busy):
    """Empty lots show their price (board data: A1 $9, B2 $6), markers the owner, tiles colour/height/die."""
    text = render.board_text(busy).plain
    for lot in BOARD.order:
        assert re.search(rf"(^|\s){lot}\s", text, re.M), lot
    assert "A1  $9" in text and "B2  $6" in text and "C10 $9" in text
    assert "E3  [red]" in text and "B6  [green]" in text and "F1  [blue]" in text
    assert "A2  GLD r2" in text and "A5  GLD b3" in text
    assert "C12 SLV^2 r5" in text
    assert "D4  AQU --" in text  # a tile without a die
    assert "\x1b[" not in text


def test_board_text_layout_follows_the_playmat(busy):
    """One line per row: west lots left of the Strip band, east lots right; A1/B1, C1/D1, E1/F4 share lines;
    F1 is on the line of the street between C and E."""
    lines = cells(render.board_text(busy).plain)

    def line_of(lot):
        hits = [i for i, line in enumerate(lines) if re.search(rf"(^|\s){lot}\s", line)]
        assert len(hits) == 1, lot
        return hits[0]

    band = {line.index("║") for line in lines if "║" in line}
    assert len(band) == 1  # the Strip is one straight vertical band
    strip_col = band.pop()
    for lot in BOARD.lots.values():
        col = re.search(rf"(^|\s)({lot.id})\s", lines[line_of(lot.id)]).start(2)
        assert (col < strip_col) == (lot.block in render.WEST), lot.id
    assert line_of("A1") == line_of("B1") and line_of("A4") == line_of("B4")
    assert line_of("C1") == line_of("D1") and line_of("C7") == line_of("D7")
    assert line_of("E1") == line_of("F4") and line_of("E4") == line_of("F7")
    assert line_of("C10") < line_of("F1") < line_of("E1")
    assert "Rue de Monte Carlo" in lines[line_of("F1")]
    for row in ("A1", "A4", "C1", "C4", "C7", "C10", "E1", "E4"):  # the three lots of a row on one line
        n = int(row[1:])
        assert line_of(row) == line_of(f"{row[0]}{n + 1}") == line_of(f"{row[0]}{n + 2}")


def test_die_codes_are_unique_and_black_takes_k():
    assert render.die_codes(["red", "blue", "green"]) == ["r", "b", "g"]
    assert render.die_codes(["black", "blue", "green", "purple", "red", "yellow"]) == ["k", "b", "g", "p", "r", "y"]
    for names in (["bob", "bill", "ann"], ["alice", "anna", "al"], ["black", "blue", "bk"]):
        codes = render.die_codes(names)
        assert len(set(codes)) == len(codes), codes


def test_lv_show_prints_status_players_casinos_and_board(busy_file):
    res = CliRunner().invoke(cli.app, ["show", str(busy_file)])
    assert res.exit_code == 0, res.stderr
    out = res.stdout
    assert "\x1b[" not in out  # captured output is plain text
    first = out.splitlines()[0]
    assert first.startswith("Turn") and "blue to play" in first
    assert re.search(r"▶\s+blue\s+\$14\s+1\s", out)  # the player to move, money, points
    assert re.search(r"red\s+\$20\s+3\s+E3\s+9\s+10", out)  # red: 1 marker (of 10) and 2 dice (of 12) out
    assert re.search(r"A2 A5\s+gold\s+2\s+1\s+blue\s+A2:r2 A5:b3\s+2", out)  # blue's 3 beats red's 2
    assert re.search(r"C12\s+silver\s+1\s+2\s+red\s+C12:r5\s+2\s+yes", out)  # 1 space 2 high = 2 points (003 L411)
    assert "C12 SLV^2 r5" in out and "║ S ║" in out  # the board, with the Strip band


def test_lv_show_json_has_every_lot(busy_file):
    res = CliRunner().invoke(cli.app, ["show", str(busy_file), "--json"])
    assert res.exit_code == 0, res.stderr
    data = json.loads(res.stdout)
    assert list(data["lots"]) == list(BOARD.order)
    assert data["lots"]["A1"] == {"price": 9, "die": 3}
    assert data["lots"]["E3"] == {"marker": "red"}
    assert data["lots"]["C12"] == {"tile": {"color": "silver", "height": 2, "owner": "red", "value": 5},
                                   "boss": "red"}
    assert data["lots"]["A2"]["boss"] == "blue"  # blue's 3 beats red's 2 in the A2-A5 casino (003 L420-425)
    assert data["player"] == "blue" and data["over"] is False
    assert {c["boss"] for c in data["casinos"] if c["lots"] == ["A2", "A5"]} == {"blue"}


def test_lv_show_turn_looks_back(tmp_path):
    path = tmp_path / "g.yaml"
    runner = CliRunner()
    assert runner.invoke(cli.app, ["new", "--players", "red,blue,green", "--seed", "7", "-o", str(path)]).exit_code == 0
    for decision in ("build D6 purple", "end", "build C12 gold"):  # seed 7: green starts, red is next
        assert runner.invoke(cli.app, ["move", str(path), decision]).exit_code == 0
    now = json.loads(runner.invoke(cli.app, ["show", str(path), "--json"]).stdout)
    then = json.loads(runner.invoke(cli.app, ["show", str(path), "--turn", "1", "--json"]).stdout)
    assert (now["turn"], now["player"], then["turn"], then["player"]) == (2, "red", 1, "green")
    assert "tile" in now["lots"]["C12"] and "tile" not in then["lots"]["C12"] and "tile" in then["lots"]["D6"]


# ---------------------------------------------------------------------------------------------- SVG


def parse_svg(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == SVG_NS + "svg"
    return root


def by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def test_svg_draws_all_48_lots_the_strip_and_every_tile(busy):
    root = parse_svg(render.svg(busy))
    lots = by_class(root, "lot")
    assert [g.get("data-lot") for g in lots] == list(BOARD.order)
    assert root.find(f".//{SVG_NS}g[@id='strip']") is not None
    state = {g.get("data-lot"): g.get("data-state") for g in lots}
    assert {k for k, v in state.items() if v == "tile"} == set(busy.state.tiles)
    assert {k for k, v in state.items() if v == "marker"} == set(busy.state.markers)
    tiles = {t: g for g in lots for t in [g.get("data-lot")] if state[t] == "tile"}
    for lot, tile in busy.state.tiles.items():
        rect = by_class(tiles[lot], "tile")[0]
        assert rect.get("data-color") == tile.color and rect.get("fill") == render.CASINO_HEX[tile.color]
        assert rect.get("data-height") == str(tile.height)
        assert len(by_class(tiles[lot], "riser")) == tile.height - 1
        dice = by_class(tiles[lot], "die")
        if tile.owner is None:
            assert not dice and by_class(tiles[lot], "no-die")
        else:
            assert dice[0].get("data-owner") == busy.player_names[tile.owner]
            assert dice[0].get("data-value") == str(tile.value)
            face = dice[0].find(f"{SVG_NS}rect")
            assert face.get("fill") == render.player_colors(busy.player_names)[tile.owner]
            assert len(dice[0].findall(f"{SVG_NS}circle")) == tile.value  # the pips


def test_svg_markers_and_empty_lots(busy):
    root = parse_svg(render.svg(busy))
    colors = dict(zip(busy.player_names, render.player_colors(busy.player_names)))
    markers = {m.get("data-player"): m for m in by_class(root, "marker")}
    assert sorted(markers) == ["blue", "green", "red"]
    for name, m in markers.items():
        assert m.get("fill") == colors[name]
    for g in by_class(root, "lot"):
        if g.get("data-state") != "empty":
            continue
        lot = BOARD.lots[g.get("data-lot")]
        assert by_class(g, "price")[0].text == f"${lot.price}"
        die = by_class(g, "printed-die")[0]
        assert die.get("data-value") == str(lot.die) and len(die.findall(f"{SVG_NS}circle")) == lot.die


def test_svg_layout_west_strip_east_and_vertical_alignment():
    lots, blocks, size = render.layout(BOARD)
    x = {k: v[0] for k, v in lots.items()}
    y = {k: v[1] for k, v in lots.items()}
    for lot in BOARD.lots.values():
        if lot.block in render.WEST:
            assert x[lot.id] + render.LOT < size["strip_x"]
        else:
            assert x[lot.id] > size["strip_x"] + render.STRIP_W
    assert y["A1"] == y["B1"] and y["C1"] == y["D1"]
    assert y["E1"] == y["F4"] and y["E4"] == y["F7"]
    assert y["C10"] < y["F1"] < y["E1"]
    boxes = [(x[k], y[k]) for k in lots]
    for i, (ax, ay) in enumerate(boxes):  # no two lots overlap
        for bx, by in boxes[i + 1:]:
            assert abs(ax - bx) >= render.LOT or abs(ay - by) >= render.LOT


def test_svg_is_deterministic_and_escapes_names():
    game = lv.new_game("revised", ["<Ann&co>", "Bo"], seed=3)
    text = render.svg(game)
    assert text == render.svg(game)
    root = parse_svg(text)
    assert "<Ann&co>" in "".join(root.itertext())


def test_lv_render_writes_svg_and_html(tmp_path):
    runner = CliRunner()
    game = tmp_path / "g.yaml"
    res = runner.invoke(cli.app, ["new", "--players", "red,blue,green", "--seed", "7", "-o", str(game)])
    assert res.exit_code == 0, res.stderr
    svg = tmp_path / "board.svg"
    res = runner.invoke(cli.app, ["render", str(game), "-o", str(svg)])
    assert res.exit_code == 0, res.stderr
    root = parse_svg(svg.read_text(encoding="utf-8"))
    assert len(by_class(root, "lot")) == 48
    page = tmp_path / "board.html"
    res = runner.invoke(cli.app, ["render", str(game), "-o", str(page)])
    assert res.exit_code == 0, res.stderr
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and "<table>" in html
    embedded = html[html.index("<svg"):html.index("</svg>") + len("</svg>")]
    assert len(by_class(parse_svg(embedded), "lot")) == 48
    res = runner.invoke(cli.app, ["render", str(game)])  # no -o: SVG on stdout
    assert res.exit_code == 0 and len(by_class(parse_svg(res.stdout), "lot")) == 48


@pytest.mark.parametrize("example", EXAMPLES, ids=os.path.basename)
def test_shipped_examples_render(example):
    game = session.open_game(example).game
    root = parse_svg(render.svg(game))
    assert len(by_class(root, "lot")) == 48
    assert len(by_class(root, "tile")) == len(game.state.tiles)
    assert len(by_class(root, "marker")) == len(game.state.markers)
    assert all(lot in render.board_text(game).plain for lot in BOARD.order)

"""The replay viewer: one self-contained HTML page per record (``lv view``), for a browser, without a server.

Modelled on the game replays people know (lichess, BoardGameArena): the board beside a move list that holds
every decision of the game grouped by turn, the list always in view in a scroll box of its own. A position is a
turn's draw (step 0) or one of its decisions (step k): its board (render.svg, the lots that step touched
framed), what happened (narrative), the standings and casinos then. The arrow keys step decision by decision;
"play" (the space bar) steps on by itself; the address follows (``#turn=12&d=3``), so a copied link opens where
it was copied. The result shows only at the last position (or behind "Show the result").

With a second profile (``--diff``) both replays move together, position by position, the lots that differ
between the two boards framed on both, the standings side by side in seat order with the cells that differ
highlighted; ``lv diff``'s report beside them links each turn it names.

Everything is inline (CSS, script, boards): no network. The boards are stored once per distinct SVG line
(render.svg draws an element a line), so a page of a hundred positions stays small. Every text from a file
(names, the record's path, the narrative) is HTML-escaped and the boards' data can hold no ``</script>``: a
player called ``<script>`` is shown, not run.
"""

from __future__ import annotations

import json
import math
import re
from html import escape
from typing import Any

import attrs

from . import render
from .diff import compare
from .game import Game
from .narrative import INDENT, decision_lines, draw_lines, setup_lines, turn_header
from .record import Record
from .replay import Illegal, Replay, TurnPlay, replay, standings
from .state import ending

Key = tuple[int, int]  # a position: (turn, step); step 0 is the turn's draw, k its k-th decision
LotState = tuple[Any, ...]  # what stands on a lot: ("tile", colour, height, die owner, face) or ("marker", owner)


@attrs.frozen(eq=False)
class Frame:
    """One position as the viewer shows it."""

    turn: int
    step: int
    player: str
    board: tuple[str, ...]  # the SVG's lines (render.svg), without the marks
    lots: dict[str, LotState]
    touched: tuple[str, ...]  # the lots this step changed or acted on
    lines: tuple[str, ...]  # what happened at this step
    status: str
    standings: tuple[dict[str, Any], ...]  # rank, player, points, money, markers and dice in hand
    casinos: tuple[dict[str, Any], ...]  # render.casinos_data
    supply: str

    @property
    def key(self) -> Key:
        return (self.turn, self.step)


def lot_states(game: Game) -> dict[str, LotState]:
    """What stands on each lot that is not empty: the tile (colour, height, die) or the marker."""
    s = game.state
    out: dict[str, LotState] = {lot: ("marker", owner) for lot, owner in s.markers.items()}
    out.update((lot, ("tile", t.color, t.height, t.owner, t.value)) for lot, t in s.tiles.items())
    return out


def differing_lots(a: dict[str, LotState], b: dict[str, LotState]) -> set[str]:
    """The lots whose tile, height, die or marker differ between two boards."""
    return {lot for lot in a.keys() | b.keys() if a.get(lot) != b.get(lot)}


def frames_of(record: Record, profile: str | None = None, *, on_illegal: str = "skip") -> tuple[Replay, list[Frame]]:
    """Replay ``record`` (under ``profile``, default the recorded one) and draw a frame per position: each turn's
    draw and each of its decisions."""
    frames: list[Frame] = []
    names = record.players

    def on_step(game: Game, play: TurnPlay) -> None:
        k = len(play.steps)
        lots = lot_states(game)
        touched = differing_lots(frames[-1].lots, lots) if frames else set()
        if k == 0:
            lines = [turn_header(play.turn, names)] + [INDENT + line for line in draw_lines(play.turn.draw_events, names)]
            touched -= set(render.drawn_lots(game))  # already framed in red
        else:
            step = play.steps[-1]
            lines = decision_lines(step, names)
            acted_on = None if isinstance(step, Illegal) else getattr(step.action, "lot", None)
            if acted_on in game.board.lots:  # a gamble changes no lot: the casino played at is the one
                touched.add(acted_on)
        seat = {p["name"]: p for p in render.players_data(game)}
        rows = tuple({**r, "markers": seat[r["player"]]["markers_in_hand"], "dice": seat[r["player"]]["dice_in_hand"]}
                     for r in standings(game))
        frames.append(Frame(turn=play.turn.number, step=k, player=names[play.turn.player],
                            board=tuple(render.svg(game, panel=False, scalable=True).rstrip("\n").split("\n")),
                            lots=lots,
                            touched=tuple(sorted(touched, key=game.board.index.__getitem__)), lines=tuple(lines),
                            status=render.status_line(game), standings=rows, casinos=tuple(render.casinos_data(game)),
                            supply=render.supply_text(game).plain))

    rep = replay(record, profile, on_illegal=on_illegal, on_step=on_step)
    return rep, frames


@attrs.frozen
class Side:
    """One replay on the page: its label, the replay and its frames."""

    label: str
    replay: Replay
    frames: list[Frame]

    def at(self, key: Key) -> Frame:
        """The frame at ``key``, or the last one before it (the game ended or the replay stopped earlier)."""
        best = self.frames[0]
        for f in self.frames:
            if f.key > key:
                break
            best = f
        return best


def _move_text(frame: Frame) -> str:
    """The move list's words for a position: the draw without its turn's number, a decision's first line."""
    if frame.step == 0:
        return frame.lines[0].removeprefix(f"Turn {frame.turn} - ")
    return frame.lines[0]


def _hash(key: Key) -> str:
    return f"#turn={key[0]}" + (f"&amp;d={key[1]}" if key[1] else "")


def _standings_table(rows: tuple[dict[str, Any], ...], colors: dict[str, str], other: Frame | None,
                    seats: tuple[str, ...] | None = None) -> str:
    """The standings, by rank; with ``other`` (the other profile's frame) in seat order (``seats``), so that the
    two tables' rows line up by player, and each cell that differs from the other's marked."""
    theirs = {r["player"]: r for r in other.standings} if other is not None else {}
    if seats is not None:
        rows = tuple(sorted(rows, key=lambda r: seats.index(r["player"])))

    def cell(r: dict[str, Any], key: str, text: str) -> str:
        there = theirs.get(r["player"])
        if there is not None and there[key] != r[key]:
            prefix = "$" if key == "money" else ""
            return f'<td class="differs" title="{prefix}{there[key]} under the other profile">{text}</td>'
        return f"<td>{text}</td>"

    body = "".join(f'<tr data-player="{escape(r["player"])}">{cell(r, "rank", str(r["rank"]))}'
                   f'<td><span class="dot" style="background:{colors[r["player"]]}"></span>'
                   f'<span class="name" title="{escape(r["player"])}">{escape(r["player"])}</span></td>'
                   f'{cell(r, "points", str(r["points"]))}{cell(r, "money", "$" + str(r["money"]))}'
                   f'{cell(r, "markers", str(r["markers"]))}{cell(r, "dice", str(r["dice"]))}</tr>'
                   for r in rows)
    return ('<table class="standings"><tr><th title="rank">#</th><th>player</th><th>points</th><th>money</th>'
            f'<th title="markers in hand">markers</th><th title="dice in hand">dice</th></tr>{body}</table>')


def _casinos(casinos: tuple[dict[str, Any], ...]) -> str:
    if not casinos:
        return '<p class="casinos">No casinos yet.</p>'
    items = []
    for c in sorted(casinos, key=lambda c: -int(c["points"])):
        height = f" ×{c['height']}" if c["height"] > 1 else ""
        boss = escape(c["boss"]) if c["boss"] is not None else "no boss"
        items.append(f'<li><span class="sw" style="background:{render.CASINO_HEX.get(c["color"], "#999999")}">'
                     f'</span>{" ".join(c["lots"])}{height} · {boss} · {c["points"]} pt'
                     f'{"" if c["points"] == 1 else "s"}</li>')
    return f'<ul class="casinos">{"".join(items)}</ul>'


def _panel(key: Key, side: Side, colors: dict[str, str], other: Frame | None,
           seats: tuple[str, ...] | None) -> list[str]:
    """One side's parts of a position: whether its game is over already, its status, what happened, the
    standings, the supply, the casinos."""
    f = side.at(key)
    late = ""
    if f.key != key:
        late = f'This game {"ended" if side.replay.game.over else "stopped"} on turn {f.turn}.'
    return [f'<p class="over">{late}</p>', f'<p class="status">{escape(f.status)}</p>',
            f'<pre class="narrative">{escape(chr(10).join(f.lines))}</pre>',
            _standings_table(f.standings, colors, other, seats), f'<p class="supply">{escape(f.supply)}</p>',
            _casinos(f.casinos)]


def _position(key: Key, sides: list[Side], colors: dict[str, str], seats: tuple[str, ...]) -> str:
    """The panel of one position. Two profiles: the two sides' parts interleaved, a row of the panel's grid
    each (.a, .b), so that the standings of both start at the same height and their rows line up by player."""
    if len(sides) == 1:
        return f'<div class="pside">{"".join(_panel(key, sides[0], colors, None, None))}</div>'
    a, b = (_panel(key, side, colors, sides[1 - n].at(key), seats) for n, side in enumerate(sides))
    cells = [f'<h3 class="a">{escape(sides[0].label)}</h3>', f'<h3 class="b">{escape(sides[1].label)}</h3>']
    for x, y in zip(a, b):
        cells += [f'<div class="a">{x}</div>', f'<div class="b">{y}</div>']
    return "".join(cells)


def _boards(keys: list[Key], sides: list[Side], two: bool) -> dict[str, Any]:
    """The boards of every position as indices into one table of distinct SVG lines, with the marks: the lots
    the step touched, and (two profiles) the lots that differ between the two boards."""
    table: dict[str, int] = {}
    boards: list[list[list[int]]] = []
    for n, side in enumerate(sides):
        board = side.replay.game.board
        rows = []
        for key in keys:
            f = side.at(key)
            marks = [render.mark(board, lot, "step") for lot in f.touched] if f.key == key else []
            if two:
                differs = differing_lots(f.lots, sides[1 - n].at(key).lots)
                marks += [render.mark(board, lot, "differs") for lot in sorted(differs, key=board.index.__getitem__)]
            lines = [*f.board[:-1], *marks, f.board[-1]]
            rows.append([table.setdefault(line, len(table)) for line in lines])
        boards.append(rows)
    return {"lines": list(table), "boards": boards, "keys": [list(k) for k in keys]}


def _differs(key: Key, sides: list[Side]) -> bool:
    """Do the two profiles' positions at ``key`` differ (a lot, someone's money or points)?"""
    a, b = sides[0].at(key), sides[1].at(key)
    return bool(differing_lots(a.lots, b.lots)) or {(r["player"], r["points"], r["money"]) for r in a.standings} \
        != {(r["player"], r["points"], r["money"]) for r in b.standings}


def _move_list(keys: list[Key], sides: list[Side], two: bool) -> str:
    """Every position, grouped by turn: the draw as the turn's heading, its decisions below; each a link."""
    groups: list[str] = []
    decisions: list[str] = []
    head = ""

    def close() -> None:
        if head:
            groups.append(f'<li>{head}<ol class="steps">{"".join(decisions)}</ol></li>' if decisions
                          else f"<li>{head}</li>")

    for i, key in enumerate(keys):
        f = next((s.at(key) for s in sides if s.at(key).key == key), sides[0].at(key))
        cls = "mv differs" if two and _differs(key, sides) else "mv"
        link = f'<a class="{cls}" href="{_hash(key)}" data-pos="{i}">'
        if key[1] == 0:
            close()
            head = f'{link}<span class="tn">{key[0]}</span> {escape(_move_text(f))}</a>'
            decisions = []
        else:
            decisions.append(f"<li>{link}{escape(_move_text(f))}</a></li>")
    close()
    return f'<ol id="moves">{"".join(groups)}</ol>'


def _link_turns(line: str, last: dict[int, int]) -> str:
    """An escaped line of ``lv diff``'s report with each "turn N, decision K" it names a link there, and each
    "turn N" alone a link to the end of that turn (``last``: each turn's last step), which it compares."""
    return re.sub(r"\bturn (\d+)(, decision (\d+))?",
                  lambda m: f'<a href="{_hash((int(m[1]), int(m[3]) if m[3] else last.get(int(m[1]), 0)))}">{m[0]}</a>',
                  line)


def _result(side: Side) -> str:
    game = side.replay.game
    if game.result is None:
        return f"{side.label}: not over after turn {game.state.turn}"
    return (f"{side.label}: ended on turn {game.state.turn} ({ending(game.result.reason)}): "
            f"{game.result.winner_name} wins")


def page(record: Record, other: str | None = None, *, profile: str | None = None,
         on_illegal: str = "skip") -> str:
    """The viewer page for ``record``: its replay under ``profile`` (default: the recorded one) and, with
    ``other``, its replay under that profile beside it.

    Laid out as lichess lays out a game: the board (or both boards) on the left, and on the right, always in
    view, the controls and the move list in a scroll box of its own; one profile: what happened and the
    standings between them, two: under the boards, side by side. A narrow window (a phone) stacks it all, the
    board as wide as the screen, the controls at the bottom of the screen."""
    rep_a, frames_a = frames_of(record, profile, on_illegal=on_illegal)
    sides = [Side((profile or record.profile) + (" (recorded)" if rep_a.strict else ""), rep_a, frames_a)]
    summary = ""
    if other is not None:
        rep_b, frames_b = frames_of(record, other, on_illegal=on_illegal)
        sides.append(Side(other + (" (recorded)" if rep_b.strict else ""), rep_b, frames_b))
    two = len(sides) == 2
    keys = sorted({f.key for s in sides for f in s.frames})
    if two:
        diff = compare(rep_a, sides[1].replay, profile or record.profile, other)
        last = dict(keys)  # each turn's last step (the keys are sorted)
        summary = ('<details class="diff"><summary>What differs (lv diff; a turn it names opens there)</summary>'
                   f'<pre>{chr(10).join(_link_turns(escape(line), last) for line in diff.lines())}</pre></details>')
    colors = dict(zip(record.players, render.player_colors(list(record.players))))
    data = json.dumps(_boards(keys, sides, two), separators=(",", ":"))
    data = data.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")  # no </script> in it
    boards = "".join(f'<section class="side">{f"<h2>{escape(s.label)}</h2>" if two else ""}'
                     f'<div class="board" role="img" aria-label="the board"></div></section>' for s in sides)
    seats = tuple(record.players)
    positions = ('<div id="positions">' + "".join(
        f'<div class="pos" data-turn="{k[0]}" data-d="{k[1]}" hidden>{_position(k, sides, colors, seats)}</div>'
        for k in keys) + "</div>")
    setup = "".join(f'<pre>{escape(chr(10).join(setup_lines(s.replay.game.setup_events, list(record.players))))}</pre>'
                    for s in sides[:1])
    result = "".join(f"<p>{escape(_result(s))}</p>" for s in sides)
    names = ", ".join(record.players)
    title = f"Lords of Vegas: {record.path}"
    head = f"{record.path} · {record.profile} · {len(record.players)} players ({names}) · seed {record.seed}"
    comment = (f'<details class="comment" open><summary>The record\'s comment</summary><pre>'
               f'{escape(record.comment.rstrip())}</pre></details>' if record.comment else "")
    width, height = render.layout(rep_a.game.board)[2]["width"], render.layout(rep_a.game.board)[2]["height"]
    css = (CSS.replace("BOARD_RATIO", f"{width / height:.4f}").replace("BOARD_WIDTH", f"{width}px")
           .replace("BOARD_MIN", f"{math.ceil(width / MAX_SCALE)}px") + label_css())
    speeds = "".join(f'<option value="{ms}"{" selected" if ms == PLAY_MS else ""}>{ms / 1000:g} s</option>'
                     for ms in PLAY_SPEEDS)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<style>{css}</style></head>
<body class="{'two' if two else 'one'}">
<main>
<div class="stage">
<header><h1>Lords of Vegas</h1> <span class="meta" title="{escape(head)}">{escape(head)}</span></header>
<div class="boards">{boards}</div>
{positions if two else ''}
</div>
<aside>
<nav id="controls">
<button id="prev" type="button" title="previous decision (left arrow)" aria-label="previous">&#9664;</button>
<button id="play" type="button" aria-pressed="false"
  title="play the game on, a position every few seconds (space)">play</button>
<button id="next" type="button" title="next decision (right arrow)" aria-label="next">&#9654;</button>
<select id="speed" aria-label="autoplay: seconds a position"
  title="autoplay: seconds a position (+ and - keys)">{speeds}</select>
<button id="zoom" type="button" aria-pressed="false" title="the board at the size it is drawn (scroll it)">1:1</button>
<input id="slider" type="range" min="0" max="{max(len(keys) - 1, 0)}" value="0" aria-label="position">
<span id="label"></span>
</nav>
{summary}{'' if two else positions}
<section class="movebox"><h2>Moves</h2>
{_move_list(keys, sides, two)}
</section>
<div class="hints">
<p class="hint keys">&larr; &rarr; decision · &uarr; &darr; turn · Home / End · space: play / pause · + -: faster /
slower · the address is a link to here</p>
<p class="hint marks"><span class="key step"></span> what the decision touched · <span class="key drawn"></span> the
lot drawn{' · <span class="key differs"></span> differs from the other profile' if two else ''}</p>
</div>
</aside>
<div class="extras">
{comment}
<details class="setup"><summary>Setup</summary>{setup}</details>
<details class="legend"><summary>How to read the board</summary><p>A disc: a marker, the lot its player owns. A die
in its owner's colour on a casino tile; &#9733; the casino's boss. &#215;2: a casino two tiles high. An empty lot shows
its price and printed die; a yellow edge, a lot on the Strip.</p></details>
<details class="result"><summary>Show the result</summary>{result}</details>
</div>
</main>
<script type="application/json" id="lv-data">{data}</script>
<script>{SCRIPT.replace("TIGHT_SCALE", str(TIGHT_SCALE)).replace("NAME_ROOM", str(render.LOT - 4))}</script>
</body></html>
"""


# The boards' labels stay at MIN_LABEL_PX CSS pixels or more however small a board is drawn: the script sets
# --k, the board's units per CSS pixel, and each label is drawn at max(its own size, MIN_LABEL_PX * k) units
# (render.svg(scalable=True) leaves them room to grow). Above TIGHT_SCALE an owned lot's price no longer fits
# beside the lot's id: it moves under the marker, in place of the player's name (the disc's colour names the
# player, as in the standings), and a boss's star moves down, clear of the grown id. A board is drawn no narrower
# than its width / MAX_SCALE (340 px: a phone's screen), up to which the labels fit, and scrolls sideways in its
# own box in a still narrower window.
MIN_LABEL_PX = 12.1  # a hair above 12: the rounding of the scale cannot take a label below 12
TIGHT_SCALE = 1.35
MAX_SCALE = 2.3
PLAY_SPEEDS = (250, 500, 1000, 2000, 4000)  # autoplay: milliseconds a position
PLAY_MS = 1000


def label_css() -> str:
    """The rules that size and place the boards' labels (render.SCALABLE_LABELS) by the scale --k."""
    sizes = "".join(f".board svg .{name} {{ font-size: max({size}px, calc(var(--k, 1) * {MIN_LABEL_PX}px)); }}\n"
                    for name, size in render.SCALABLE_LABELS.items())
    # an owned lot's price, from beside the id (top right) to under the marker (bottom centre)
    below = f"translate({-(render.LOT / 2 - 6):g}px, {render.LOT - 2 - render.SCALABLE_TOP}px)"
    return (sizes + ".board.tight .marker-name, .board.no-names .marker-name { display: none; }\n"
            f".board.tight .owned-price {{ transform: {below}; text-anchor: middle; }}\n"
            ".board.tight .boss { transform: translate(0px, 7px); }\n")


def _narrow(body: str, width: int) -> str:
    """The layout of a window narrower than ``width`` (body.one or body.two): one column, the board as wide as
    the window, then what happened, the moves and the rest; the controls at the bottom of the screen, in reach as
    in phone apps (the page keeps room for them below its end: the script sets --bar, their height)."""
    b = f"body.{body}"
    return f"""
@media (max-width: {width - 1}px) {{
  {b} main {{ display: flex; flex-direction: column; padding: 0 8px; }}
  {b} .stage, {b} aside {{ display: contents; }}
  {b} header {{ order: 1; white-space: normal; flex-wrap: wrap; }}
  {b} .boards {{ order: 2; }}
  {b} #positions, {b} .diff {{ order: 3; }}
  {b} .movebox {{ order: 4; margin-top: 8px; }}
  {b} .hints {{ order: 5; }}
  {b} .extras {{ order: 6; }}
  {b} #positions, {b} .movebox {{ flex: none; overflow: visible; }}
  {b} #moves {{ flex: none; max-height: 50vh; }}
  {b} .board svg {{ width: 100%; }}
  {b} #controls {{ position: fixed; bottom: 0; left: 0; right: 0; z-index: 2; padding: 6px 8px;
    border-top: 1px solid #d8cfbb; box-shadow: 0 -2px 6px rgba(0, 0, 0, 0.12); }}
  {b} {{ padding-bottom: var(--bar, 120px); }}
}}"""


EDGE, DASH = render.MARK_DIFFERS
CSS = f"""
html {{ font-size: 15px; scroll-padding-bottom: var(--bar, 0px); }}
body {{ font-family: {render.FONT}; background: #f3efe6; color: #2b2b2b; margin: 0; line-height: 1.35; }}
header {{ display: flex; align-items: baseline; gap: 12px; padding: 8px 0; white-space: nowrap; min-width: 0; }}
h1 {{ margin: 0; font-size: 20px; flex: none; }} h2 {{ margin: 12px 0 4px 0; font-size: 17px; }}
.meta {{ overflow: hidden; text-overflow: ellipsis; min-width: 0; }}
h3 {{ margin: 8px 0 2px 0; font-size: 15px; }}
.meta, .status, .supply, .hint {{ color: #5d5545; margin: 2px 0 6px 0; }}
.hint {{ font-size: 13px; margin: 2px 0; }}
pre {{ white-space: pre-wrap; overflow-wrap: anywhere; font-size: 13px; background: #fbf8f1; padding: 6px 8px; border: 1px solid #e0d7c4;
  margin: 4px 0; }}
details {{ margin: 4px 0; }} summary {{ cursor: pointer; }}
[hidden] {{ display: none !important; }}
/* the board on the left, as high as the window; on the right, always in view, the controls, what happened, the
   moves in a scroll box of their own (lichess's layout) */
main {{ display: grid; grid-template-columns: minmax(0, calc((100vh - 60px) * BOARD_RATIO)) minmax(330px, 1fr);
  grid-template-rows: auto 1fr; column-gap: 20px; padding: 0 16px; margin: 0 auto;
  max-width: calc((100vh - 60px) * BOARD_RATIO + 32rem + 20px); }}
.stage {{ grid-column: 1; grid-row: 1; min-width: 0; }}
.extras {{ grid-column: 1; grid-row: 2; min-width: 0; padding-bottom: 16px; }}
aside {{ grid-column: 2; grid-row: 1 / span 2; align-self: start; position: sticky; top: 0; height: 100vh;
  box-sizing: border-box; padding: 8px 0; display: flex; flex-direction: column; gap: 6px; min-width: 0; }}
aside > * {{ flex: none; margin: 0; }}
body.one #positions {{ flex: 6 1 0; min-height: 0; overflow-y: auto; }}
.movebox {{ flex: 5 1 0; min-height: 140px; display: flex; flex-direction: column; }}
.movebox h2 {{ margin: 0 0 2px 0; font-size: 15px; }}
.diff pre {{ max-height: 30vh; overflow-y: auto; }}
.boards {{ display: grid; grid-template-columns: minmax(0, 1fr); gap: 12px; }}
body.two main {{ grid-template-columns: minmax(calc(2 * BOARD_MIN + 12px), 1fr) minmax(250px, 22rem);
  max-width: none; }}
body.two .boards {{ grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); }}
.side h2 {{ margin: 0 0 4px 0; font-size: 16px; }}
.board {{ overflow-x: auto; }}
.board svg {{ display: block; margin: 0 auto; height: auto; min-width: BOARD_MIN;
  width: min(100%, calc((100vh - 60px) * BOARD_RATIO)); }}
body.two .board svg {{ width: min(100%, calc((100vh - 96px) * BOARD_RATIO)); }}
#controls {{ display: flex; gap: 6px 8px; align-items: center; flex-wrap: wrap; background: #f3efe6; }}
#controls button, #controls select {{ font-size: 16px; padding: 3px 10px; }}
#controls #zoom, #controls #play, #controls select {{ font-size: 15px; }}
#play {{ min-width: 4.2em; }}
#slider {{ flex: 1 1 120px; min-width: 100px; }}
#label {{ font-weight: bold; flex-basis: 100%; }}
.pside {{ margin-bottom: 8px; }}
.pos .over {{ color: #8a806c; font-style: italic; margin: 2px 0; }}
.pos .over:empty {{ margin: 0; }}
/* two profiles: the parts of both sides a row each, side by side, so that the standings line up by player */
body.two .pos:not([hidden]) {{ display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); column-gap: 12px;
  align-items: start; }}
body.two .pos h3 {{ margin: 8px 0 0 0; }}
table {{ border-collapse: collapse; font-size: 14px; }}
th, td {{ padding: 2px 8px; text-align: left; border-bottom: 1px solid #d8cfbb; overflow-wrap: anywhere; }}
body.two table {{ width: 100%; font-size: 13px; }} body.two th, body.two td {{ padding: 2px 4px; }}
/* the standings as wide as their box at most: the numbers' columns fixed, a long name cut (its title shows it) */
th, .standings td:nth-child(2) {{ white-space: nowrap; }}
.standings {{ table-layout: fixed; width: 100%; max-width: 30em; }}
.standings th:nth-child(1) {{ width: 1.6em; }} .standings th:nth-child(3) {{ width: 3.4em; }}
.standings th:nth-child(4) {{ width: 3.8em; }} .standings th:nth-child(5) {{ width: 4.4em; }}
.standings th:nth-child(6) {{ width: 2.4em; }}
.standings .name {{ display: inline-block; max-width: calc(100% - 20px); overflow: hidden; text-overflow: ellipsis;
  vertical-align: bottom; }}
.standings {{ font-size: 13px; }} .standings th, .standings td {{ padding: 2px 6px; }}
td.differs {{ background: #ffd6ea; font-weight: bold; outline: 2px solid #e0007a; outline-offset: -2px; }}
.dot, .sw {{ display: inline-block; width: 12px; height: 12px; border-radius: 6px; margin-right: 6px;
  vertical-align: -1px; border: 1px solid #555; }}
.sw {{ border-radius: 2px; }}
ul.casinos {{ list-style: none; padding: 0; margin: 4px 0; font-size: 14px; columns: 2 12em; }}
#moves {{ position: relative; list-style: none; padding: 0 4px 0 0; margin: 0; flex: 1 1 0; min-height: 0;
  overflow-y: auto; font-size: 14px; border: 1px solid #e0d7c4; background: #fbf8f1; }}
#moves ol.steps {{ list-style: decimal; margin: 0; padding-left: 2.4em; }}
#moves a {{ display: block; color: #2b2b2b; text-decoration: none; padding: 2px 4px; border-radius: 3px;
  overflow-wrap: anywhere; }}
#moves > li > a {{ font-weight: bold; background: #ece4d2; margin-top: 2px; }}
#moves a:hover {{ background: #e0d7c4; }}
#moves a.current {{ background: #1565ff; color: #ffffff; }}
#moves a.differs {{ border-left: 4px solid #e0007a; }}
.key {{ display: inline-block; width: 12px; height: 12px; border-radius: 3px; vertical-align: -3px; }}
.key.step {{ border: 3px solid {render.MARK_STEP}; }} .key.drawn {{ border: 3px solid #ff2d55; }}
.key.differs {{ border: 3px dashed {DASH}; box-shadow: 0 0 0 2px {EDGE}, inset 0 0 0 2px {EDGE}; }}
.tn {{ display: inline-block; min-width: 2em; }}
.diff pre a {{ color: #1565ff; }}
@media (max-width: 699px) {{  /* two boards: one above the other, each side's panel under the other's */
  body.two .boards {{ grid-template-columns: minmax(0, 1fr); }}
  body.two .pos:not([hidden]) {{ grid-template-columns: minmax(0, 1fr); }}
  body.two .pos .b {{ order: 1; }}
}}
{_narrow("one", 820)}
{_narrow("two", 1024)}
#controls #zoom {{ font-size: 15px; }}
body.zoom .board svg, body.zoom.two .board svg {{ width: BOARD_WIDTH; }}
"""

SCRIPT = """
(function () {
  var data = JSON.parse(document.getElementById('lv-data').textContent);
  var keys = data.keys;
  var boards = Array.prototype.slice.call(document.querySelectorAll('.side .board'));
  var positions = document.querySelectorAll('.pos');
  var links = document.querySelectorAll('#moves a');
  var moves = document.getElementById('moves');
  var slider = document.getElementById('slider');
  var label = document.getElementById('label');
  var controls = document.getElementById('controls');
  var play = document.getElementById('play');
  var speed = document.getElementById('speed');
  var shown = -1, timer = null;
  function hash(i) { return '#turn=' + keys[i][0] + (keys[i][1] ? '&d=' + keys[i][1] : ''); }
  function steps(turn) { var n = 0; keys.forEach(function (k) { if (k[0] === turn) { n = Math.max(n, k[1]); } });
    return n; }
  function find(turn, d) {  // the last position at or before (turn, d)
    var best = 0;
    for (var i = 0; i < keys.length; i++) {
      if (keys[i][0] < turn || (keys[i][0] === turn && keys[i][1] <= d)) { best = i; }
    }
    return best;
  }
  function fit() {  // the labels' scale (lv/view.py, label_css): --k, the board's units per CSS pixel
    boards.forEach(function (board) {
      var svg = board.querySelector('svg');
      var k = svg.viewBox.baseVal.width / svg.getBoundingClientRect().width;
      board.style.setProperty('--k', String(k));
      board.classList.toggle('tight', k > TIGHT_SCALE);
      board.classList.remove('no-names');  // the names shown if each fits its lot, else none
      var long = Array.prototype.some.call(board.querySelectorAll('.marker-name'),
        function (t) { return t.getComputedTextLength() > NAME_ROOM; });
      board.classList.toggle('no-names', long);
    });
  }
  function bar() {  // the controls at the bottom of the screen (a narrow window): the page keeps room for them
    var fixed = getComputedStyle(controls).position === 'fixed';
    var height = Math.ceil(controls.getBoundingClientRect().height);  // not offsetHeight: rounded, maybe down
    document.documentElement.style.setProperty('--bar', fixed ? height + 'px' : '0px');
  }
  // the boards' size follows the window and the scroll bar: measured again whenever a board changes size
  var watch = window.ResizeObserver ? new ResizeObserver(fit) : null;
  function show(i) {
    i = Math.max(0, Math.min(keys.length - 1, i));
    if (i !== shown) {
      boards.forEach(function (board, s) {
        board.innerHTML = data.boards[s][i].map(function (k) { return data.lines[k]; }).join('\\n');
      });
      fit();
      if (watch) {
        watch.disconnect();
        boards.forEach(function (board) { watch.observe(board.querySelector('svg')); });
      }
      if (shown >= 0) {
        positions[shown].hidden = true;
        links[shown].classList.remove('current');
        links[shown].removeAttribute('aria-current');
      }
      positions[i].hidden = false;
      links[i].classList.add('current');
      links[i].setAttribute('aria-current', 'step');
      shown = i;
    }
    var k = keys[i], n = steps(k[0]);
    slider.value = String(i);
    label.textContent = 'Turn ' + k[0] + ' \\u00b7 ' + (k[1] ? 'decision ' + k[1] + ' of ' + n : 'the draw' +
      (n ? ' (' + n + ' decision' + (n > 1 ? 's' : '') + ')' : ', no decision')) +
      ' \\u00b7 ' + (i + 1) + ' / ' + keys.length;
    // the move list scrolls in its own box (never the page) to keep the current move in view; measured last,
    // once the label (which can take a second line, and the list's room with it) says where we are
    var link = links[i];
    if (link.offsetTop < moves.scrollTop || link.offsetTop + link.offsetHeight > moves.scrollTop + moves.clientHeight) {
      moves.scrollTop = link.offsetTop - moves.clientHeight / 3;
    }
    document.body.setAttribute('data-shown', String(i));
    try { history.replaceState(null, '', hash(i)); } catch (e) { /* a browser that refuses: the link stays */ }
  }
  // autoplay: a position every speed.value ms, until the last or pause
  function tick() {
    timer = setTimeout(function () {
      show(shown + 1);
      if (shown >= keys.length - 1) { pause(); } else { tick(); }
    }, Number(speed.value));
  }
  function pause() {
    if (timer !== null) { clearTimeout(timer); timer = null; }
    play.textContent = 'play';
    play.setAttribute('aria-pressed', 'false');
    document.body.removeAttribute('data-playing');
  }
  function start() {
    if (shown >= keys.length - 1) { show(0); }  // from the end: again from the start
    play.textContent = 'pause';
    play.setAttribute('aria-pressed', 'true');
    document.body.setAttribute('data-playing', '');
    tick();
  }
  function toggle() { if (timer === null) { start(); } else { pause(); } }
  function faster(by) {  // by -1: the next shorter time a position, +1: the next longer
    speed.selectedIndex = Math.max(0, Math.min(speed.options.length - 1, speed.selectedIndex + by));
    speed.dispatchEvent(new Event('change'));
  }
  speed.addEventListener('change', function () { if (timer !== null) { clearTimeout(timer); tick(); } });
  play.addEventListener('click', toggle);
  function fromHash() {
    var t = /turn=(\\d+)/.exec(window.location.hash), d = /[&;]d=(\\d+)/.exec(window.location.hash);
    return t ? find(Number(t[1]), d ? Number(d[1]) : 0) : 0;
  }
  function turnStart(i, delta) {  // the draw of the turn delta turns away (-1 from a decision: its own draw)
    var turn = keys[i][0] + delta;
    if (delta < 0 && keys[i][1] > 0) { turn = keys[i][0]; }
    return find(turn, 0);
  }
  slider.addEventListener('input', function () { show(Number(slider.value)); });
  document.getElementById('prev').addEventListener('click', function () { show(shown - 1); });
  document.getElementById('next').addEventListener('click', function () { show(shown + 1); });
  var zoom = document.getElementById('zoom');
  zoom.addEventListener('click', function () {
    zoom.setAttribute('aria-pressed', String(document.body.classList.toggle('zoom')));
  });
  if (!watch) { window.addEventListener('resize', fit); }
  window.addEventListener('resize', bar);
  if (window.ResizeObserver) { new ResizeObserver(bar).observe(controls); }
  document.addEventListener('click', function (e) {
    var a = e.target.closest ? e.target.closest('a[href^="#turn="]') : null;
    if (!a || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) { return; }
    e.preventDefault();
    var pos = a.getAttribute('data-pos');
    if (pos !== null) { show(Number(pos)); return; }
    var t = /turn=(\\d+)/.exec(a.getAttribute('href')), d = /d=(\\d+)/.exec(a.getAttribute('href'));
    show(find(Number(t[1]), d ? Number(d[1]) : 0));
  });
  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.target === slider || e.target === speed) { return; }
    if (e.key === ' ' && e.target.closest && e.target.closest('button, summary, a')) { return; }  // its own
    if (e.key === 'ArrowRight') { show(shown + 1); }
    else if (e.key === 'ArrowLeft') { show(shown - 1); }
    else if (e.key === 'ArrowDown' || e.key === 'PageDown') { show(turnStart(shown, 1)); }
    else if (e.key === 'ArrowUp' || e.key === 'PageUp') { show(turnStart(shown, -1)); }
    else if (e.key === 'Home') { show(0); }
    else if (e.key === 'End') { show(keys.length - 1); }
    else if (e.key === ' ') { toggle(); }
    else if (e.key === '+' || e.key === '=') { faster(-1); }
    else if (e.key === '-' || e.key === '_') { faster(1); }
    else { return; }
    e.preventDefault();
  });
  window.addEventListener('hashchange', function () { show(fromHash()); });
  bar();
  show(fromHash());
})();
"""

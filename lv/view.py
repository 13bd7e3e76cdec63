"""The replay viewer: one self-contained HTML page per record (``lv view``), for a browser, without a server.

Each turn is a frame: the board at the end of the turn (render.svg), the turn's narrative (narrative.turn_lines)
and the standings then (replay.standings). A slider and the arrow keys move between turns. With a second
profile the page holds both replays side by side, with the differences ``lv diff`` lists. Everything is inline
(CSS, script, SVG): no network, nothing fetched. Every text from a file (names, the record's path, the
narrative) is HTML-escaped, so a player called ``<script>`` is shown, not run.
"""

from __future__ import annotations

from html import escape
from typing import Any

import attrs

from . import render
from .diff import compare
from .game import Game
from .narrative import ending, setup_lines, turn_lines
from .record import Record
from .replay import Replay, TurnPlay, replay, standings


@attrs.frozen
class Frame:
    """One turn as the viewer shows it."""

    turn: int
    player: str
    svg: str
    lines: tuple[str, ...]
    standings: tuple[dict[str, Any], ...]
    status: str


def frames_of(record: Record, profile: str | None = None, *, on_illegal: str = "skip") -> tuple[Replay, list[Frame]]:
    """Replay ``record`` (under ``profile``, default the recorded one) and draw every turn's frame."""
    frames: list[Frame] = []
    names = record.players

    def on_turn(game: Game, play: TurnPlay) -> None:
        status = [(p.name, p.score, p.money) for p in game.state.players]
        frames.append(Frame(turn=play.turn.number, player=names[play.turn.player], svg=render.svg(game),
                            lines=tuple(turn_lines(play.turn, names, play.steps, status)),
                            standings=tuple(standings(game)), status=render.status_line(game)))

    rep = replay(record, profile, on_illegal=on_illegal, on_turn=on_turn)
    return rep, frames


def _standings_table(rows: tuple[dict[str, Any], ...]) -> str:
    body = "".join(f"<tr><td>{r['rank']}</td><td>{escape(r['player'])}</td><td>{r['points']}</td>"
                   f"<td>${r['money']}</td></tr>" for r in rows)
    return ('<table class="standings"><tr><th>rank</th><th>player</th><th>points</th><th>money</th></tr>'
            f"{body}</table>")


def _side(label: str, rep: Replay, frames: list[Frame]) -> str:
    """One replay's column: a heading, the setup, then a hidden section per turn."""
    game = rep.game
    names = rep.record.players
    if game.result is not None:
        end = f"ended on turn {game.state.turn} ({ending(game.result.reason)}): {game.result.winner_name} wins"
    else:
        end = f"not over after turn {game.state.turn}"
    parts = [f'<section class="side"><h2>{escape(label)}</h2><p class="end">{escape(end)}</p>',
             f'<details class="setup"><summary>Setup</summary><pre>'
             f'{escape(chr(10).join(setup_lines(game.setup_events, names)))}</pre></details>']
    for i, f in enumerate(frames):
        parts.append(f'<div class="frame" data-index="{i}" data-turn="{f.turn}" hidden>'
                     f'<div class="board">{f.svg}</div>'
                     f'<div class="turn-text"><h3>Turn {f.turn}: {escape(f.player)}</h3>'
                     f'<p class="status">{escape(f.status)}</p>'
                     f'<pre class="narrative">{escape(chr(10).join(f.lines))}</pre>'
                     f'<h3>Standings</h3>{_standings_table(f.standings)}</div></div>')
    parts.append(f'<p class="over" hidden>This game ended on turn {frames[-1].turn if frames else 0}.</p>')
    parts.append("</section>")
    return "".join(parts)


def page(record: Record, other: str | None = None, *, profile: str | None = None,
         on_illegal: str = "skip") -> str:
    """The viewer page for ``record``: its replay under ``profile`` (default: the recorded one) and, with
    ``other``, its replay under that profile beside it."""
    rep_a, frames_a = frames_of(record, profile, on_illegal=on_illegal)
    label_a = (profile or record.profile) + (" (recorded)" if rep_a.strict else "")
    sides = [_side(label_a, rep_a, frames_a)]
    summary = ""
    count = len(frames_a)
    if other is not None:
        rep_b, frames_b = frames_of(record, other, on_illegal=on_illegal)
        label_b = other + (" (recorded)" if rep_b.strict else "")
        sides.append(_side(label_b, rep_b, frames_b))
        count = max(count, len(frames_b))
        diff = compare(rep_a, rep_b, profile or record.profile, other)
        summary = (f'<details class="diff"><summary>What differs (lv diff)</summary>'
                   f'<pre>{escape(chr(10).join(diff.lines()))}</pre></details>')
    names = ", ".join(record.players)
    title = f"Lords of Vegas: {record.path}"
    head = (f"{record.path} · {record.profile} · {len(record.players)} players ({names}) · seed {record.seed}")
    comment = f'<pre class="comment">{escape(record.comment.rstrip())}</pre>' if record.comment else ""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<style>{CSS}</style></head>
<body class="{'two' if other is not None else 'one'}">
<header><h1>Lords of Vegas</h1><p class="meta">{escape(head)}</p>{comment}</header>
<nav id="controls">
<button id="prev" type="button" title="previous turn (left arrow)">&#9664;</button>
<input id="slider" type="range" min="0" max="{max(count - 1, 0)}" value="0" aria-label="turn">
<button id="next" type="button" title="next turn (right arrow)">&#9654;</button>
<span id="label"></span>
<span class="hint">&larr; &rarr; previous / next turn · Home / End first / last</span>
</nav>
{summary}
<main>{"".join(sides)}</main>
<script>{SCRIPT}</script>
</body></html>
"""


CSS = f"""
body {{ font-family: {render.FONT}; background: #f3efe6; color: #2b2b2b; margin: 16px 24px; }}
h1 {{ margin: 0; }} h2 {{ margin: 8px 0 2px 0; }} h3 {{ margin: 10px 0 4px 0; font-size: 15px; }}
.meta, .end, .status {{ color: #6b6252; margin: 2px 0 6px 0; }}
#controls {{ position: sticky; top: 0; background: #f3efe6; padding: 8px 0; display: flex; gap: 10px;
  align-items: center; z-index: 2; border-bottom: 1px solid #d8cfbb; }}
#controls button {{ font-size: 18px; padding: 2px 12px; }}
#slider {{ flex: 1; max-width: 640px; }}
#label {{ font-weight: bold; min-width: 10em; }} .hint {{ color: #8a806c; font-size: 12px; }}
main {{ display: grid; gap: 24px; grid-template-columns: 1fr; }}
body.two main {{ grid-template-columns: 1fr 1fr; }}
[hidden] {{ display: none !important; }}
.frame {{ display: grid; grid-template-columns: minmax(0, 3fr) minmax(260px, 2fr); gap: 16px; }}
body.two .frame {{ grid-template-columns: 1fr; }}
.board svg {{ width: 100%; height: auto; }}
pre {{ white-space: pre-wrap; font-size: 13px; background: #fbf8f1; padding: 8px; border: 1px solid #e0d7c4; }}
table {{ border-collapse: collapse; }} th, td {{ padding: 3px 10px; text-align: left; border-bottom: 1px solid #d8cfbb; }}
.over {{ color: #8a806c; font-style: italic; }}
"""

SCRIPT = """
(function () {
  var slider = document.getElementById('slider');
  var label = document.getElementById('label');
  var sides = Array.prototype.slice.call(document.querySelectorAll('.side'));
  function show(i) {
    var max = Number(slider.max);
    i = Math.max(0, Math.min(max, i));
    slider.value = String(i);
    var turns = [];
    sides.forEach(function (side) {
      var frames = side.querySelectorAll('.frame');
      var k = Math.min(i, frames.length - 1);
      for (var j = 0; j < frames.length; j++) { frames[j].hidden = (j !== k); }
      side.querySelector('.over').hidden = (i < frames.length);
      if (frames.length) { turns.push(frames[k].getAttribute('data-turn')); }
    });
    label.textContent = 'Turn ' + turns.join(' | ') + ' (' + (i + 1) + ' of ' + (max + 1) + ')';
    document.body.setAttribute('data-shown', String(i));
  }
  slider.addEventListener('input', function () { show(Number(slider.value)); });
  document.getElementById('prev').addEventListener('click', function () { show(Number(slider.value) - 1); });
  document.getElementById('next').addEventListener('click', function () { show(Number(slider.value) + 1); });
  document.addEventListener('keydown', function (e) {
    var i = Number(slider.value);
    if (e.key === 'ArrowRight' || e.key === 'ArrowDown' || e.key === 'PageDown') { show(i + 1); }
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp' || e.key === 'PageUp') { show(i - 1); }
    else if (e.key === 'Home') { show(0); }
    else if (e.key === 'End') { show(Number(slider.max)); }
    else { return; }
    e.preventDefault();
  });
  var m = /turn=(\\d+)/.exec(window.location.hash);
  show(m ? Number(m[1]) - 1 : 0);
})();
"""

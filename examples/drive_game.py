"""Drive a game of Lords of Vegas through the Python API, as a play-by-email server or a bot would.

    python examples/drive_game.py [DIR]      # writes DIR/game.yaml and DIR/board.svg (default: a temporary dir)

It creates a 3-player revised game file, plays three rounds with a simple strategy (build on the cheapest lot
it owns, bet a little against someone else's casino, then end the turn), shows how an illegal decision is
refused, saves after every turn, reloads the file to check it, and draws the board as text and as SVG.
The same file can then be continued from the shell: ``lv move DIR/game.yaml end``.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

try:
    import lv
except ImportError:  # run from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import lv

from lv import render, session


def turn_plan(s: session.Session) -> list[str]:
    """This turn's decisions: build on the cheapest lot we own (in the colour its property card pays, or gold),
    a $1 bet if someone else's casino is open, then end the turn."""
    legal = s.legal()
    board = s.game.board
    plan = []
    if legal["build"]:
        lot = min({d.split()[1] for d in legal["build"]}, key=lambda x: (board.lots[x].price, board.index[x]))
        color = board.lots[lot].card if board.lots[lot].card in board.colors else "gold"
        wanted = f"build {lot} {color}"
        plan.append(wanted if wanted in legal["build"] else next(d for d in legal["build"] if d.split()[1] == lot))
    if legal["gamble"]:
        plan.append(f"gamble {legal['gamble'][0]['lot']} 1")
    return plan + ["end"]


def main(argv: list[str]) -> int:
    folder = Path(argv[1]) if len(argv) > 1 else Path(tempfile.mkdtemp(prefix="lv-"))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "game.yaml"

    s = session.create(path, "revised", ["red", "blue", "green"], seed=7)
    print(f"created {path}: {render.status_line(s.game)}")

    # a refused decision: MoveError says why (and which rule), the game is unchanged
    try:
        s.play("build A1 gold")
    except session.MoveError as err:
        print(f"refused: {err}")
        print(f"  legal now: {', '.join(err.nearest)}")

    for _ in range(9):  # three rounds of three players
        for decision in turn_plan(s):
            played = s.play(decision)
            for line in played.lines:
                print(f"  {line}")
        s.save()  # atomic: the file is the old game or the new one, never half written

    # the file is an ordinary lv-game/1 record: loading it replays every decision strictly
    again = session.open_game(path)
    assert session.fingerprint(again.game) == session.fingerprint(s.game)
    print()
    print(render.board_text(again.game).plain)
    svg = folder / "board.svg"
    svg.write_text(render.svg(again.game), encoding="utf-8")
    print(f"\n{render.status_line(again.game)}; wrote {svg} (open it in a browser)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""A bot against copies of another, seat-rotated, one JSON line per game as it ends (a long run can be read, or
stopped, at any point), and the win rate with its interval from such lines.

    PYTHONPATH=$PWD python benchmarks/versus.py value mcts:200 --games 40 > value-mcts.jsonl
    PYTHONPATH=$PWD python benchmarks/versus.py --summary value-mcts.jsonl

Game i (from ``--start``) has the seed ``lv simulate --seed 7`` gives it (7000000 + i) and puts the bot in seat
i mod players; each line: the game, the seat, whether the bot won, its share of the points, the game's CPU s.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

try:
    import lv  # noqa: F401
except ImportError:  # run from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from lv import bots, metrics, new_game
from lv.simulate import game_seed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bot", nargs="?")
    ap.add_argument("against", nargs="?")
    ap.add_argument("--variant", default="revised")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--summary", help="a file of such lines: print the win rate and the share of the points")
    args = ap.parse_args(argv)
    if args.summary:
        rows = [json.loads(line) for line in Path(args.summary).read_text().splitlines() if line.strip()]
        out = {"games": len(rows), "win_rate": metrics.estimate([float(r["won"]) for r in rows], share=True).to_dict(),
               "points_share": metrics.estimate([r["share"] for r in rows]).to_dict(),
               "cpu_seconds": round(sum(r["cpu"] for r in rows), 1)}
        print(json.dumps(out, indent=1))
        return 0
    if not args.bot or not args.against:
        ap.error("give BOT and AGAINST, or --summary FILE")
    for i in range(args.start, args.start + args.games):
        seat = i % args.players
        seed = game_seed(7, i)
        game = new_game(args.variant, args.players, seed, quiet=True)
        line = [bots.bot_named(args.against) for _ in range(args.players)]
        line[seat] = bots.bot_named(args.bot)
        start = time.process_time()
        bots.play(game, line, seed)
        s = game.state
        assert game.result is not None
        print(json.dumps({"i": i, "seat": seat, "won": game.result.winner == seat,
                          "share": s.players[seat].score / max(1, sum(p.score for p in s.players)),
                          "cpu": round(time.process_time() - start, 1)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

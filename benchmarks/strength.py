"""How strong is a bot? Its win rate in seat order 1 (the first player listed) against three copies of another
bot, next to the win rate of a reference bot in the same seat over the same seeds (paired), with 95% intervals.

    PYTHONPATH=$PWD python benchmarks/strength.py --bot mcts:50 --against greedy --games 40 --seed 1
    PYTHONPATH=$PWD python benchmarks/strength.py --bot mcts:50 --against random --games 40 --seed 1 --json

Game i is played with the seed that ``lv simulate --seed S`` gives it (S * 1000000 + i), once with the bot in
the first place and once with the reference bot there (by default the opponents' bot itself), so both see the
same deck, starting roll and (while the games agree) dice. The difference of the two win rates is paired, game
by game (lv.metrics.paired). Games per second are those of the tested bot's games, in one process.
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

from lv import metrics, simulate


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bot", default="mcts:50", help="the bot measured (first player in seating order)")
    ap.add_argument("--against", default="greedy", help="the bot of the three other players")
    ap.add_argument("--reference", default=None, help="the bot played in the first place for the paired "
                                                        "comparison (default: the --against bot)")
    ap.add_argument("--variant", default="revised")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--no-reference", action="store_true", help="play only the bot's games (when the reference "
                    "is the opponents' bot, its win rate is 1/players by symmetry): half the cost; prints JSON")
    ap.add_argument("--rotate", action="store_true", help="the bot in every seat in turn (an equal share of the "
                    "games in each, seeds --seed*100+seat), not only the first")
    args = ap.parse_args(argv)
    reference = args.reference or args.against
    others = [args.against] * (args.players - 1)
    rows = {}
    for bot in (args.bot,) if args.no_reference else (args.bot, reference):
        wins: list[float] = []
        shares: list[float] = []
        start = time.perf_counter()
        cpu = time.process_time()
        seats = range(args.players) if args.rotate else range(1)
        for seat in seats:  # --rotate: a quarter of the games (with 4 players) in each seat, other seeds each
            games: list[dict] = []
            count = args.games // len(seats) + (seat < args.games % len(seats))
            seed = args.seed if not args.rotate else args.seed * 100 + seat
            simulate.play([args.variant], args.players, count, seed, others[:seat] + [bot] + others[seat:],
                          args.workers, on_game=lambda pair: games.append(pair[0]))
            wins += [float(g["winner"] == seat) for g in games]
            shares += [g["scores"][seat] / max(1, sum(g["scores"])) for g in games]
        rows[bot] = (wins, time.perf_counter() - start, shares, time.process_time() - cpu)
    wins, seconds, shares, cpu_seconds = rows[args.bot]
    if args.no_reference:  # the bot's own figures only; the reference's are its own (three copies: 1/players)
        print(json.dumps({"variant": args.variant, "players": args.players, "games": args.games, "seed": args.seed,
                          "bot": args.bot, "against": args.against, "rotate": args.rotate,
                          "win_rate": metrics.estimate(wins, share=True).to_dict(),
                          "points_share": metrics.estimate(shares).to_dict(), "cpu_seconds": cpu_seconds},
                         indent=1))
        return 0
    ref_wins, _, ref_shares, _ = rows[reference]
    out = {
        "variant": args.variant, "players": args.players, "games": args.games, "seed": args.seed,
        "bot": args.bot, "against": args.against, "reference": reference,
        "win_rate": metrics.estimate(wins, share=True).to_dict(),
        "reference_win_rate": metrics.estimate(ref_wins, share=True).to_dict(),
        "difference": metrics.paired(ref_wins, wins).to_dict(),
        "points_share": metrics.estimate(shares).to_dict(),
        "reference_points_share": metrics.estimate(ref_shares).to_dict(),
        "points_share_difference": metrics.paired(ref_shares, shares).to_dict(),
        "games_per_second": args.games / seconds, "workers": args.workers, "rotate": args.rotate,
        "cpu_seconds": cpu_seconds,
    }
    if args.json:
        print(json.dumps(out, indent=1))
        return 0

    def cell(e: dict) -> str:
        return f"{e['mean']:.3f} [{e['low']:.3f}, {e['high']:.3f}]"

    print(f"{args.variant}, {args.players} players, {args.games} games, seed {args.seed}; the others: {args.against}")
    print(f"win rate of {args.bot}" + (" (every seat)" if args.rotate else " in the first place") + ": "
          f"{cell(out['win_rate'])}")
    print(f"win rate of {reference} in its place: "
          f"{cell(out['reference_win_rate'])}")
    print(f"paired difference: {cell(out['difference'])}")
    print(f"share of the points: {cell(out['points_share'])} against {cell(out['reference_points_share'])}, "
          f"difference {cell(out['points_share_difference'])}")
    print(f"{out['games_per_second']:.3f} games/s with {args.bot} ({args.workers} process(es)), "
          f"{cpu_seconds:.1f} CPU s in this process" + ("; seats rotated" if args.rotate else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())

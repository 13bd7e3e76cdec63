"""CPU time of one ``mcts:200`` decision, mid-game: prints figures, asserts nothing (not a timed test).

    python benchmarks/mcts_decision.py                  # this checkout's lv
    python benchmarks/mcts_decision.py --installed      # the lv installed in this interpreter (a compiled build)
    python benchmarks/mcts_decision.py --playouts 200 --turn 12 --tries 3
    python benchmarks/mcts_decision.py --bot value     # the learned player at the same decision

Issue 18's target: one ``mcts:200`` decision of a 4-player revised game, mid-game, in 0.5 s or less (compiled);
issue 29's (item 5): 0.05 s. Instructions of one decision, which the machine's load does not change: the
callgrind count of ``--tries 1`` less that of ``--tries 0`` (the same position, no decision asked)::

    PYTHONHASHSEED=0 valgrind --tool=callgrind python benchmarks/mcts_decision.py --installed --tries 1
The position: a game of four greedy bots from seed 1, played until turn ``--turn`` begins and its player has
drawn. The decision is asked ``--tries`` times from that same position, each with a fresh bot (the same seed, so
the same search); printed is the CPU time of each (``time.process_time()``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--installed", action="store_true", help="the installed lv, not this checkout's")
    ap.add_argument("--playouts", type=int, default=200, help="playouts per decision (default 200)")
    ap.add_argument("--turn", type=int, default=12, help="the turn the decision is made in (default 12)")
    ap.add_argument("--tries", type=int, default=3, help="times the decision is asked (default 3)")
    ap.add_argument("--profile", action="store_true", help="also where one search spends (cProfile: shares of "
                    "its time, inflated alike by the profiler)")
    ap.add_argument("--bot", default=None, help="another bot to time at the same decision (value, value:FILE, value-mcts)")
    args = ap.parse_args()
    if not args.installed:
        sys.path.insert(0, str(ROOT))
    import lv
    from lv import bots
    from lv.chance import rng_for

    game = lv.new_game(lv.load_profile("revised"), 4, 1)
    greedy = bots.bot_named("greedy")
    rngs = [rng_for(1, "bot", i) for i in range(4)]
    while not game.over and game.state.turn < args.turn:
        seat = game.state.current
        game.apply(greedy(game, game.legal_actions(), rngs[seat]))
    if game.over:
        raise SystemExit(f"the game ended before turn {args.turn}")
    build = getattr(lv, "build_name", lambda: "pure Python")()
    legal = game.legal_actions()
    times = []
    for _ in range(args.tries):
        bot = bots.bot_named(args.bot or f"mcts:{args.playouts}")
        start = time.process_time()
        bot(game, legal, rng_for(1, "mcts"))
        times.append(time.process_time() - start)
    print(f"lv ({build}): one {args.bot or f'mcts:{args.playouts}'} decision, 4 players, revised, turn {game.state.turn} of a greedy "
          f"game (seed 1), {len(legal)} legal decisions: "
          + ", ".join(f"{t:.3f}" for t in times) + " CPU s")
    if args.profile:
        _profile(bots.bot_named(args.bot or f"mcts:{args.playouts}"), game, legal, rng_for(1, "mcts"))


# where a search spends: (label, file ending, function name), cumulative time of each as a share of the whole
PARTS = [("the imagined games (playouts)", "mcts.py", "playout"),
         ("  the greedy policy's choices", "bots.py", "__call__"),
         ("  the legal decisions listed", "legal.py", "legal_actions"),
         ("  the engine's steps (decisions and draws)", "mcts.py", "step"),
         ("state copies (determinize)", "mcts.py", "determinize"),
         ("  of which GameState.copy", "state.py", "copy"),
         ("the tree's order of decisions (priors)", "mcts.py", "ordered")]


def _profile(bot, game, legal, rng) -> None:
    import cProfile
    import pstats

    profiler = cProfile.Profile()
    profiler.enable()
    bot(game, legal, rng)
    profiler.disable()
    stats = pstats.Stats(profiler).stats  # (file, line, name) -> (calls, primitive, tottime, cumtime, callers)
    whole = max(v[3] for v in stats.values())
    for label, file, name in PARTS:
        cum = sum(v[3] for k, v in stats.items() if k[0].endswith(file) and k[2] == name)
        print(f"{label}: {100 * cum / whole:.1f}%")


if __name__ == "__main__":
    main()

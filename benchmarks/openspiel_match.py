"""lv's ``mcts`` against OpenSpiel's ``MCTSBot``, at the same number of playouts per decision, in the OpenSpiel
game ``python_lords_of_vegas`` (lv.openspiel; needs ``pip install 'lv[openspiel]'``).

    PYTHONPATH=$PWD python benchmarks/openspiel_match.py --playouts 20 --pairs 6 --variant revised
    PYTHONPATH=$PWD python benchmarks/openspiel_match.py --pairs 6 --out match.jsonl   # a line per game, as played

Two players. Pair i is two games with the chance generator seeded i: lv's bot first, then OpenSpiel's first, so
both orders meet the same deal, rolls and draws as long as the games agree. lv's ``mcts:N`` searches N
determinized playouts (its own generator, the greedy bot for 8 turns then only the draws); OpenSpiel's
``MCTSBot`` runs N simulations, each a random rollout to the end of the game (``RandomRolloutEvaluator``), UCT
constant 2. Chance comes from the game's own probabilities (lv.explicit). Where a profile lets the boss lay
off, lv's bot answers "no" (it has no policy for the boss's answer). The score of a pair is lv's bot's wins
over its two games, halved; the report gives its mean over the pairs with a 95% interval (lv.metrics), and
the seconds per decision of each bot.

OpenSpiel's ISMCTSBot is not played: it asserts an imperfect-information game, and Lords of Vegas has no hidden
information (003 L236; lv.openspiel declares it a perfect-information game with chance, as backgammon is).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

try:
    import lv  # noqa: F401
except ImportError:  # run from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import lv.openspiel  # noqa: F401  (registers the game)
from lv import actions as A
from lv import bots, metrics
from lv.actionspace import NO_LAY_OFF
from lv.explicit import BOSS


def play(game: Any, seed: int, lv_seat: int, playouts: int, clock: dict[str, list[float]]) -> dict[str, Any]:
    """One game: lv's mcts in ``lv_seat``, OpenSpiel's MCTSBot in the other."""
    state = game.new_initial_state()
    state.lv.seed = seed  # lv's game seed: lv's bot seeds its search with it
    chance = random.Random(seed)
    ours = bots.bot_named(f"mcts:{playouts}")
    rng = np.random.RandomState(seed)
    theirs = mcts.MCTSBot(game, 2.0, playouts, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(chance.choices(outcomes, probs)[0])
            continue
        start = time.perf_counter()
        if state.current_player() == lv_seat:
            eg = state.lv
            if eg.node == BOSS:
                action = NO_LAY_OFF
            else:
                decision = ours(eg.game, eg.game.legal_actions(), random.Random(seed))
                action = eg.space.encode(decision, eg.game)
            clock["lv"].append(time.perf_counter() - start)
        else:
            action = theirs.step(state)
            clock["openspiel"].append(time.perf_counter() - start)
        state.apply_action(action)
    result = state.lv.game.result
    assert result is not None
    return {"seed": seed, "lv_seat": lv_seat, "winner": result.winner, "lv_won": result.winner == lv_seat,
            "reason": result.reason, "turns": state.lv.game.state.turn,
            "scores": [p.score for p in state.lv.game.state.players]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="revised")
    ap.add_argument("--playouts", type=int, default=20)
    ap.add_argument("--pairs", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1, help="the first pair's seed (then +1 for each pair)")
    ap.add_argument("--out", default=None, help="append a JSON line per game to this file as it ends")
    ap.add_argument("--summarize", default=None, metavar="FILE",
                    help="only report the games of FILE (lines written by --out): a match stopped part-way")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.summarize:
        rows = [json.loads(line) for line in Path(args.summarize).read_text().splitlines() if line.strip()]
        by_seed: dict[int, list[dict[str, Any]]] = {}
        for row in rows:
            by_seed.setdefault(row["seed"], []).append(row)
        done = [r for r in by_seed.values() if len(r) == 2]
        scores = [(float(a["lv_won"]) + float(b["lv_won"])) / 2 for a, b in done]
        e = metrics.estimate(scores, share=True).to_dict()
        print(f"{len(done)} complete pairs ({2 * len(done)} games): lv mcts scores {_cell(e)} against OpenSpiel "
              f"MCTSBot (0.5 = even); lv won {sum(r['lv_won'] for r in rows)} of {len(rows)} games")
        return 0
    game = pyspiel.load_game("python_lords_of_vegas", {"profile": args.variant, "players": 2})
    clock: dict[str, list[float]] = {"lv": [], "openspiel": []}
    pairs = []
    for i in range(args.pairs):
        seed = args.seed + i
        both = []
        for lv_seat in (0, 1):
            row = play(game, seed, lv_seat, args.playouts, clock)
            both.append(row)
            if args.out:
                with open(args.out, "a") as f:
                    f.write(json.dumps(row) + "\n")
            if not args.json:
                print(json.dumps(row), flush=True)
        pairs.append((float(both[0]["lv_won"]) + float(both[1]["lv_won"])) / 2)
    out = {"variant": args.variant, "players": 2, "playouts": args.playouts, "pairs": args.pairs,
           "games": 2 * args.pairs, "lv_mcts_score": metrics.estimate(pairs, share=True).to_dict(),
           "seconds_per_decision": {k: sum(v) / max(1, len(v)) for k, v in clock.items()}}
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        print(f"{args.variant}, 2 players, {args.pairs} pairs ({2 * args.pairs} games), {args.playouts} playouts "
              f"a decision: lv mcts scores {_cell(out['lv_mcts_score'])} against OpenSpiel "
              f"MCTSBot (0.5 = even); seconds a decision: lv {out['seconds_per_decision']['lv']:.3f}, "
              f"OpenSpiel {out['seconds_per_decision']['openspiel']:.3f}")
    return 0


def _cell(e: dict[str, Any]) -> str:
    """``mean [low, high]`` (no interval from fewer than two pairs)."""
    if e["low"] is None:
        return f"{e['mean']:.3f} (no interval: one pair)"
    return f"{e['mean']:.3f} [{e['low']:.3f}, {e['high']:.3f}]"


if __name__ == "__main__":
    sys.exit(main())

"""Engine speed: prints figures, asserts nothing (not a timed test). Run from the repository root:

    python benchmarks/bench.py            # the full set, about a minute
    python benchmarks/bench.py --quick    # fewer games

Reference workload (``uniform`` bot): 4 players, every decision drawn uniformly from all legal decisions of the
moment (ending the turn is one of them; a gamble counts once per casino, at a random stake), one process, the
profile loaded once. Targets (issue 11): at least 450 such games per second under the revised profile, and a
complete 4-player record parsed and replayed in 5 ms or less (printed as parse, replay and both; the records of
the uniform games above and examples/revised-4p.yaml). ``instructions.py`` counts the same work under callgrind,
``simulate.py`` times the 10,000-game simulation.

Each figure is the best of several rounds (the least disturbed by other work on the machine), in wall-clock
time; the CPU time of the same round is shown beside it.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import lv  # noqa: E402
from lv import bots  # noqa: E402
from lv.record import Record, dumps, parse_record, record_of  # noqa: E402
from lv.replay import replay  # noqa: E402


def best_of(rounds: int, work: Callable[[], int]) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds, units of work) of the fastest round."""
    best: tuple[float, float, int] | None = None
    for _ in range(max(1, rounds)):
        wall, cpu = time.perf_counter(), time.process_time()
        units = work()
        took = (time.perf_counter() - wall, time.process_time() - cpu, units)
        if best is None or took[0] < best[0]:
            best = took
    assert best is not None
    return best


def play_games(profile: Any, players: int, bot: Any, seeds: range) -> tuple[int, int]:
    """Play a game per seed; (games, decisions including turn ends)."""
    decisions = 0
    for seed in seeds:
        game = lv.new_game(profile, players, seed)
        bots.play(game, [bot] * players, seed)
        decisions += sum(len(t.decisions) for t in game.history)
    return len(seeds), decisions


def line(label: str, wall: float, cpu: float, count: int, unit: str, extra: str = "") -> None:
    print(f"{label:<44} {count / wall:9.1f} {unit}/s   (cpu {count / cpu:7.1f}/s){extra}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer games per round")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    games = 10 if args.quick else 40
    rounds = 3 if args.quick else args.rounds
    print(f"lv {lv.__version__}, Python {sys.version.split()[0]}; best of {rounds} rounds of {games} games\n")
    # one untimed round first: one-time costs (caches of decisions, modules loaded on first use) stay out
    play_games(lv.load_profile("revised"), 4, bots.uniform_bot, range(games))

    for spec, players in (("revised", 4), ("original", 4), ("revised", 2), ("revised", 6)):
        profile = lv.load_profile(spec)
        counts: dict[str, int] = {}

        def work(profile: Any = profile, players: int = players) -> int:
            n, d = play_games(profile, players, bots.uniform_bot, range(games))
            counts["decisions"] = d
            return n

        wall, cpu, n = best_of(rounds, work)
        per_game = counts["decisions"] / n
        line(f"uniform random games, {spec}, {players}p", wall, cpu, n, "games",
             f"   {counts['decisions'] / wall:8.0f} decisions/s, {per_game:.0f} a game")

    for spec in ("revised", "original"):
        profile = lv.load_profile(spec)

        def greedy(profile: Any = profile) -> int:
            return play_games(profile, 4, bots.greedy_bot, range(games))[0]

        wall, cpu, n = best_of(rounds, greedy)
        line(f"greedy games, {spec}, 4p", wall, cpu, n, "games")

    # replay: records of uniform random games, parsed from YAML and re-applied under their own profile
    texts = []
    profile = lv.load_profile("revised")
    for seed in range(games):
        game = lv.new_game(profile, 4, seed)
        bots.play(game, [bots.uniform_bot] * 4, seed)
        texts.append(dumps(record_of(game, "revised")))
    records = [parse_record(t, f"game-{i}.yaml") for i, t in enumerate(texts)]
    decisions = sum(len(t.decisions) + 1 for r in records for t in r.turns)

    def replay_all() -> int:
        for r in records:
            replay(r)
        return decisions

    wall, cpu, _ = best_of(rounds, replay_all)
    line("replayed decisions (parsed records), revised", wall, cpu, decisions, "decisions")
    example = (ROOT / "examples" / "revised-4p.yaml").read_text(encoding="utf-8")
    for label, sources in ((f"uniform random games ({len(texts)})", texts), ("examples/revised-4p.yaml", [example])):
        print(f"complete 4-player record, {label}: parse + replay (target 5 ms)")
        record_times(sources, rounds)


def record_times(texts: list[str], rounds: int) -> None:
    """Parse, replay (of records parsed but never replayed) and both in one, each in ms a record, best round."""
    repeat = max(1, 20 // len(texts))  # a round is at least 20 records
    fresh: list[Record] = []

    def parse() -> int:
        fresh[:] = [parse_record(t, "g.yaml") for t in texts * repeat]
        return len(fresh)

    def replay_fresh() -> int:
        for r in fresh:
            replay(r)
        return len(fresh)

    def both() -> int:
        for t in texts * repeat:
            replay(parse_record(t, "g.yaml"))
        return len(texts) * repeat

    timed = []
    for _ in range(rounds):  # each round replays records of its own, fresh from the parser
        timed.append(best_of(1, parse) + best_of(1, replay_fresh) + best_of(1, both))
    for name, at in (("parse", 0), ("replay", 3), ("parse + replay", 6)):
        wall, cpu, n = min((t[at:at + 3] for t in timed), key=lambda t: t[0])
        print(f"  {name:<42} {1000 * wall / n:9.2f} ms a record (cpu {1000 * cpu / n:.2f} ms)")

if __name__ == "__main__":
    main()

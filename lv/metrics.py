"""Figures of finished games, and their comparison across rule profiles with 95% confidence intervals.

``summarize(game)`` reads one game (its events, turns and final state, never the rules) into a plain dict: the
unit of a simulation, cheap to send between processes and to store. ``compare`` turns the summaries of paired
games (game i under every profile came from the same seed) into estimates per profile and paired differences.
The definitions are in docs/simulation.md.

Confidence intervals are written here by hand (no numpy): the mean with Student's t (a table up to 30 degrees of
freedom, the Cornish-Fisher expansion beyond); Balance, a max/min of win rates, with a seeded percentile
bootstrap, so the same run always gives the same interval.
"""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter
from typing import Any, Callable, Sequence

import attrs

KINDS = ("build", "sprawl", "remodel", "reorganize", "raise", "gamble", "trade", "end")

# ---------------------------------------------------------------------------------------------- one game


def summarize(game, legal_counts: Sequence[int] | None = None) -> dict[str, Any]:
    """One game's figures (see docs/simulation.md for each). ``legal_counts``: the number of legal decisions at
    each decision point, as the bot driver saw them (``bots.play``); without it the branching factor is None."""
    s = game.state
    n = len(s.players)
    turns = [(list(t.draw_events) + [e for d in t.decisions for e in d.events], t.decisions) for t in game.history]
    # the scores the game started from (0, or a position's): the first ``before`` of each player, else the final
    scores = [p.score for p in s.players]
    for ev in reversed([e for events, _ in turns for e in events if e.kind == "scored"]):
        scores[ev["player"]] = ev["before"]
    by_kind = Counter()
    built = 0
    leader, changes = _leader(scores, None), 0
    result = s.result
    winner = result.winner if result else None
    leaders = [leader]  # the points leader before the first turn and after each turn
    drama = max(scores) - scores[winner] if winner is not None else None
    for events, decisions in turns:
        for d in decisions:
            by_kind[d.action.kind] += 1
        for ev in events:
            if ev.kind == "scored":
                scores[ev["player"]] = ev["after"]
            elif ev.kind == "built":
                built += 1
        now = _leader(scores, leader)
        changes += leader is not None and now != leader
        leader = now
        leaders.append(now)
        if winner is not None and drama is not None:
            drama = max(drama, max(scores) - scores[winner])
    casinos = game.casinos()
    final_scores = [p.score for p in s.players]
    money = [p.money for p in s.players]
    first = game.history[0].player if game.history else 0
    return {
        "players": n,
        "first_player": first,
        "reason": result.reason if result else None,
        "winner": result.winner if result else None,
        # seats count in turn order from the player who took the first turn (seat 1)
        "winner_seat": (result.winner - first) % n + 1 if result else None,
        "turns": len(game.history),
        "decisions": sum(v for k, v in by_kind.items() if k != "end"),
        "by_kind": {k: by_kind.get(k, 0) for k in KINDS},
        "scores": final_scores,
        "money": money,
        "winner_score": final_scores[result.winner] if result else None,
        "winner_money": money[result.winner] if result else None,
        "score_spread": max(final_scores) - min(final_scores),
        "lead_changes": changes,
        "casinos_built": built,
        "casinos": len(casinos),
        "largest_casino": max((c.spaces for c in casinos), default=0),
        "average_height": sum(c.height for c in casinos) / len(casinos) if casinos else 0.0,
        "branching": math.fsum(legal_counts) / len(legal_counts) if legal_counts else None,
        "decisiveness": _decisiveness(leaders, winner),
        "drama": drama,
    }


def _decisiveness(leaders: list[int | None], winner: int | None) -> float | None:
    """The share of the game's turns played before the winner took the points lead for good: t/T for the first
    t after which it leads after every turn to the last (1 when it does not lead after the last turn)."""
    turns = len(leaders) - 1
    if winner is None or turns == 0:
        return None
    if leaders[turns] != winner:
        return 1.0
    t = turns
    while t > 0 and leaders[t - 1] == winner:
        t -= 1
    return t / turns


def _leader(scores: list[int], leader: int | None) -> int | None:
    """The one player with the most points; while players tie for the most, the leader stays who it was."""
    top = max(scores)
    leaders = [i for i, x in enumerate(scores) if x == top]
    return leaders[0] if top > 0 and len(leaders) == 1 else leader


# ---------------------------------------------------------------------------------------------- the metrics

# name -> (what it means, the per-game value); a game that did not end gives None and is left out.
# Shares (0/1 per game) have their intervals clipped to [0, 1].
SHARES = {"end_card", "instant_win", "advantage_p1", "balance"}
METRICS: dict[str, tuple[str, Callable[[dict], float | None]]] = {
    "turns": ("game length in turns", lambda g: g["turns"]),
    "decisions": ("game length in decisions (turn ends not counted)", lambda g: g["decisions"]),
    "winner_score": ("the winner's points", lambda g: g["winner_score"]),
    "winner_money": ("the winner's money", lambda g: g["winner_money"]),
    "score_spread": ("most points minus fewest points", lambda g: g["score_spread"]),
    "end_card": ("share of games ended by the end card", lambda g: float(g["reason"] == "end_card")),
    "instant_win": ("share of games ended by the instant win", lambda g: float(g["reason"] == "instant_win")),
    "lead_change": ("changes of the points leader per turn", lambda g: g["lead_changes"] / g["turns"]),
    "casinos_built": ("builds (new casino tiles on owned lots)", lambda g: g["casinos_built"]),
    "largest_casino": ("spaces of the largest casino at the end", lambda g: g["largest_casino"]),
    "average_height": ("mean height of the casinos at the end", lambda g: g["average_height"]),
    "branching": ("branching factor: mean number of legal decisions per decision point",
                  lambda g: g.get("branching")),
    "decisiveness": ("share of the turns played before the winner took the points lead for good",
                     lambda g: g.get("decisiveness")),
    "drama": ("drama: the most points the winner was behind the leader, after any turn", lambda g: g.get("drama")),
}
for _kind in KINDS:
    METRICS[f"decisions.{_kind}"] = (f"{_kind} decisions per game", lambda g, k=_kind: g["by_kind"][k])


def seat_metrics(players: int) -> dict[str, tuple[str, Callable[[dict], float | None]]]:
    """Win rates by seat in turn order (seat 1 took the first turn), AdvantageP1 (seat 1's win rate), and win
    rates by player in seating order (the player a ``--bot`` list names: for mixed bots)."""
    out = {"advantage_p1": ("AdvantageP1: the win rate of the player who took the first turn",
                            lambda g: float(g["winner_seat"] == 1))}
    for seat in range(1, players + 1):
        out[f"win.seat{seat}"] = (f"win rate of seat {seat} in turn order", lambda g, i=seat: float(g["winner_seat"] == i))
    for i in range(players):
        out[f"win.player{i + 1}"] = (f"win rate of player {i + 1} in seating order",
                                     lambda g, i=i: float(g["winner"] == i))
    return out


# Figures of a set of games, not of one game: name -> (what it means, the per-game value, the statistic of the
# values). Their intervals, and those of their paired differences, are percentile bootstraps like Balance's.
def _sd(xs: Sequence[float]) -> float | None:
    """Standard deviation over the games, dividing by n (Ludii's DurationTurnsStdDev)."""
    if not xs:
        return None
    mean = math.fsum(xs) / len(xs)
    return math.sqrt(math.fsum((x - mean) ** 2 for x in xs) / len(xs))


def _iqr(xs: Sequence[float]) -> float | None:
    """Interquartile range, quartiles interpolated linearly between the sorted values (numpy's default)."""
    if len(xs) < 2:
        return None
    q1, _, q3 = statistics.quantiles(xs, n=4, method="inclusive")
    return q3 - q1


SPREADS: dict[str, tuple[str, Callable[[dict], float], Callable[[Sequence[float]], float | None]]] = {
    "turns_sd": ("game length spread: standard deviation of the turns", lambda g: g["turns"], _sd),
    "turns_iqr": ("game length spread: interquartile range of the turns", lambda g: g["turns"], _iqr),
}


# ---------------------------------------------------------------------------------------------- statistics

_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
         2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
         2.045, 2.042)
_Z975 = 1.959964


def t975(df: int) -> float:
    """The 97.5% quantile of Student's t: a table to 30 degrees of freedom, then Cornish-Fisher in 1/df."""
    if df < 1:
        return math.inf
    if df <= len(_T975):
        return _T975[df - 1]
    z = _Z975
    g1 = (z ** 3 + z) / 4
    g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96
    g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384
    return z + g1 / df + g2 / df ** 2 + g3 / df ** 3


@attrs.frozen
class Estimate:
    mean: float | None
    low: float | None
    high: float | None
    n: int

    def to_dict(self) -> dict[str, Any]:
        return {"mean": self.mean, "low": self.low, "high": self.high, "n": self.n}


def estimate(values: Sequence[float | None], share: bool = False) -> Estimate:
    """Mean and 95% confidence interval (t); values of None (games that did not end) are left out. For a
    ``share`` (values 0 or 1) the interval is clipped to [0, 1]."""
    xs = [float(v) for v in values if v is not None]
    n = len(xs)
    if n == 0:
        return Estimate(None, None, None, 0)
    mean = math.fsum(xs) / n
    if n == 1:
        return Estimate(mean, None, None, 1)
    var = math.fsum((x - mean) ** 2 for x in xs) / (n - 1)
    half = t975(n - 1) * math.sqrt(var / n)
    if share:
        return Estimate(mean, max(0.0, mean - half), min(1.0, mean + half), n)
    return Estimate(mean, mean - half, mean + half, n)


def paired(a: Sequence[float | None], b: Sequence[float | None]) -> Estimate:
    """The paired difference b - a, game by game (both games of a pair must have a value)."""
    return estimate([None if x is None or y is None else y - x for x, y in zip(a, b)])


def balance(seats: Sequence[int | None], players: int) -> float | None:
    """1 - the largest gap between two seats' win rates (1: every seat wins as often). ``seats``: the winning
    seat (1-based) of each game."""
    ws = [w for w in seats if w is not None]
    if not ws:
        return None
    counts = Counter(ws)
    rates = [counts.get(i, 0) / len(ws) for i in range(1, players + 1)]
    return 1 - (max(rates) - min(rates))


def bootstrap(stat: Callable[[list[int]], float | None], n: int, rng: random.Random, resamples: int = 1000
              ) -> tuple[float | None, float | None]:
    """Percentile 95% interval of ``stat`` over resampled game indices."""
    if n < 2:
        return None, None
    population = range(n)
    values = sorted(v for v in (stat(rng.choices(population, k=n)) for _ in range(resamples)) if v is not None)
    if not values:
        return None, None
    lo = values[int(0.025 * (len(values) - 1))]
    hi = values[int(math.ceil(0.975 * (len(values) - 1)))]
    return lo, hi


# ---------------------------------------------------------------------------------------------- comparison


def compare(profiles: list[str], games: dict[str, list[dict]], players: int, seed: int | str = 0,
            resamples: int = 1000) -> dict[str, Any]:
    """Estimates per profile and paired differences of each later profile against the first.

    ``games[profile][i]`` is the summary of game i under that profile; game i must have the same seed under
    every profile (paired). Plain data, ready for JSON."""
    metrics = dict(METRICS)
    metrics.update(seat_metrics(players))
    values = {p: {m: [fn(g) if g["winner"] is not None else None for g in games[p]] for m, (_, fn) in metrics.items()}
              for p in profiles}
    winners = {p: [g["winner_seat"] for g in games[p]] for p in profiles}
    out: dict[str, Any] = {"metrics": {m: text for m, (text, _) in metrics.items()}, "estimates": {}, "differences": {}}
    out["metrics"]["balance"] = "Balance: 1 - the largest gap between two seats' win rates"
    out["metrics"].update({name: text for name, (text, _, _) in SPREADS.items()})
    for p in profiles:
        row = {m: estimate(values[p][m], m in SHARES or m.startswith("win.")).to_dict() for m in metrics}
        w = winners[p]
        rng = random.Random(f"lv/{seed}/bootstrap/{p}")
        lo, hi = bootstrap(lambda idx: balance([w[i] for i in idx], players), len(w), rng, resamples)
        ended = sum(x is not None for x in w)
        row["balance"] = {"mean": balance(w, players), "low": lo, "high": hi, "n": ended}
        for name, (_, fn, stat) in SPREADS.items():
            xs = [fn(g) for g in games[p] if g["winner"] is not None]
            rng = random.Random(f"lv/{seed}/bootstrap/{p}/{name}")
            lo, hi = bootstrap(lambda idx: stat([xs[i] for i in idx]), len(xs), rng, resamples)
            row[name] = {"mean": stat(xs), "low": lo, "high": hi, "n": len(xs)}
        out["estimates"][p] = row
    base = profiles[0]
    for p in profiles[1:]:
        row = {m: paired(values[base][m], values[p][m]).to_dict() for m in metrics}
        wa, wb = winners[base], winners[p]
        pairs = [i for i in range(len(wa)) if wa[i] is not None and wb[i] is not None]

        def diff(idx, wa=wa, wb=wb, pairs=pairs):
            a = balance([wa[pairs[i]] for i in idx], players)
            b = balance([wb[pairs[i]] for i in idx], players)
            return None if a is None or b is None else b - a

        rng = random.Random(f"lv/{seed}/bootstrap/{base}/{p}")
        lo, hi = bootstrap(diff, len(pairs), rng, resamples)
        full = diff(range(len(pairs)))
        row["balance"] = {"mean": full, "low": lo, "high": hi, "n": len(pairs)}
        for name, (_, fn, stat) in SPREADS.items():
            xa = [fn(games[base][i]) for i in pairs]
            xb = [fn(games[p][i]) for i in pairs]

            def spread_diff(idx, xa=xa, xb=xb, stat=stat):
                a, b = stat([xa[i] for i in idx]), stat([xb[i] for i in idx])
                return None if a is None or b is None else b - a

            rng = random.Random(f"lv/{seed}/bootstrap/{base}/{p}/{name}")
            lo, hi = bootstrap(spread_diff, len(pairs), rng, resamples)
            row[name] = {"mean": spread_diff(range(len(pairs))), "low": lo, "high": hi, "n": len(pairs)}
        out["differences"][f"{p} - {base}"] = row
    return out

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
from array import array
from collections import Counter
from fractions import Fraction
from itertools import chain, repeat
from typing import TYPE_CHECKING, Any, Callable, Sequence

import attrs

from .actions import FAMILIES, EndTurn, Family, families_of
from .actions.build import Built
from .events import Scored
from .resample import resampled_counts

if TYPE_CHECKING:
    from .game import Game
    from .profile import Profile

# the kinds of decision counted per game (``by_kind``; the ``decisions.KIND`` metrics): the main decision of each
# action family of the action step (the draw's decisions are not counted), in the table's order. A house rule's
# action (a family with a profile section of its own) is counted in the games of a profile that names its section.
def _decision_kind(family: Family) -> str:
    """The ``kind`` of a family's main decision (``reorganize``): what ``summarize`` counts."""
    kind: str = getattr(family.decisions[0], "kind")
    return kind


KINDS = tuple(_decision_kind(f) for f in FAMILIES if not f.generates_waiting and f.parameters is None)


def kinds_of(profile: Profile) -> tuple[str, ...]:
    """The kinds of decision counted in a game under ``profile``: ``KINDS`` and a house rule's it names."""
    return tuple(_decision_kind(f) for f in families_of(profile) if not f.generates_waiting)


# ---------------------------------------------------------------------------------------------- one game


def summarize(game: Game, legal_counts: Sequence[int] | None = None) -> dict[str, Any]:
    """One game's figures (see docs/simulation.md for each). ``legal_counts``: the number of legal decisions at
    each decision point, as the bot driver saw them (``bots.play``); without it the branching factor is None."""
    s = game.state
    n = len(s.players)
    history = game.history
    # one pass over the events: each turn's Scored, the builds, the decisions by kind, and the scores the game
    # started from (0, or a position's): the first ``before`` of each player, else the final
    scores = [p.score for p in s.players]
    seen = [False] * n
    by_kind: dict[str, int] = {}
    built = 0
    turns: list[list[Scored]] = []
    for t in history:
        scored: list[Scored] = []
        for e in t.draw_events:
            if isinstance(e, Scored):
                scored.append(e)
            elif isinstance(e, Built):
                built += 1
        for d in t.decisions:
            kind = d.action.kind
            by_kind[kind] = by_kind.get(kind, 0) + 1
            for e in d.events:
                if isinstance(e, Scored):
                    scored.append(e)
                elif isinstance(e, Built):
                    built += 1
        for e in scored:
            if not seen[e.player]:
                scores[e.player], seen[e.player] = e.before, True
        turns.append(scored)
    leader, changes = _leader(scores, None), 0
    result = s.result
    winner = result.winner if result else None
    leaders = [leader]  # the points leader before the first turn and after each turn
    drama = max(scores) - scores[winner] if winner is not None else None
    for scored in turns:
        for e in scored:
            scores[e.player] = e.after
        now = _leader(scores, leader)
        changes += leader is not None and now != leader
        leader = now
        leaders.append(now)
        if winner is not None and drama is not None:
            drama = max(drama, max(scores) - scores[winner])
    casinos = game.engine.casinos(s)
    final_scores = [p.score for p in s.players]
    money = [p.money for p in s.players]
    first = history[0].player if history else 0
    return {
        "players": n,
        "first_player": first,
        "reason": result.reason if result else None,
        "winner": result.winner if result else None,
        # seats count in turn order from the player who took the first turn (seat 1)
        "winner_seat": (result.winner - first) % n + 1 if result else None,
        "turns": len(game.history),
        "decisions": sum(v for k, v in by_kind.items() if k != EndTurn.kind),
        "by_kind": {k: by_kind.get(k, 0) for k in kinds_of(game.profile)},
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
    return scores.index(top) if top > 0 and scores.count(top) == 1 else leader


# ---------------------------------------------------------------------------------------------- the metrics

# name -> (what it means, the per-game value); a game that did not end gives None and is left out.
# Shares (0/1 per game) have their intervals clipped to [0, 1].
SHARES = {"end_card", "instant_win", "advantage_p1", "balance"}
Row = dict[str, Any]  # one game's figures, as summarize() gives them
Metric = Callable[[Row], float | None]

METRICS: dict[str, tuple[str, Metric]] = {
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


def _decisions_of(kind: str) -> Metric:
    return lambda g: g["by_kind"][kind]


def _winner_is(key: str, value: int) -> Metric:
    return lambda g: float(g[key] == value)


for _kind in KINDS:
    METRICS[f"decisions.{_kind}"] = (f"{_kind} decisions per game", _decisions_of(_kind))


def seat_metrics(players: int) -> dict[str, tuple[str, Metric]]:
    """Win rates by seat in turn order (seat 1 took the first turn), AdvantageP1 (seat 1's win rate), and win
    rates by player in seating order (the player a ``--bot`` list names: for mixed bots)."""
    out: dict[str, tuple[str, Metric]] = {
        "advantage_p1": ("AdvantageP1: the win rate of the player who took the first turn", _winner_is("winner_seat", 1))}
    for seat in range(1, players + 1):
        out[f"win.seat{seat}"] = (f"win rate of seat {seat} in turn order", _winner_is("winner_seat", seat))
    for i in range(players):
        out[f"win.player{i + 1}"] = (f"win rate of player {i + 1} in seating order",
                                     _winner_is("winner", i))
    return out


# Figures of a set of games, not of one game: name -> (what it means, the per-game value, the statistic of the
# values). Their intervals, and those of their paired differences, are percentile bootstraps like Balance's.
def _sd(xs: Sequence[float]) -> float | None:
    """Standard deviation over the games, dividing by n (Ludii's DurationTurnsStdDev)."""
    if not xs:
        return None
    mean = math.fsum(xs) / len(xs)
    # fsum is exactly rounded, so the order of its terms does not matter: each distinct value's term, repeated
    terms = chain.from_iterable(repeat((x - mean) ** 2, k) for x, k in Counter(xs).items())
    return math.sqrt(math.fsum(terms) / len(xs))


def _iqr(xs: Sequence[float]) -> float | None:
    """Interquartile range, quartiles interpolated linearly between the sorted values (numpy's default)."""
    if len(xs) < 2:
        return None
    q1, _, q3 = statistics.quantiles(xs, n=4, method="inclusive")
    return q3 - q1


SPREADS: dict[str, tuple[str, Callable[[Row], float], Callable[[Sequence[float]], float | None]]] = {
    "turns_sd": ("game length spread: standard deviation of the turns", lambda g: g["turns"], _sd),
    "turns_iqr": ("game length spread: interquartile range of the turns", lambda g: g["turns"], _iqr),
}


def _sd_of_counts(counts: Sequence[int]) -> float | None:
    """``_sd`` of the whole numbers that ``counts`` counts (``counts[v]`` games had the value v), the same float
    without listing them: the report takes a spread of every resample of its bootstrap (a thousand per interval),
    and listing 10,000 games to count them again was most of a report's time. ``fsum`` is correctly rounded, and
    so is the division of two ints: the exact sums, divided once, give its very floats."""
    n = sum(counts)
    if not n:
        return None
    mean = float(sum(v * c for v, c in enumerate(counts) if c)) / n
    return math.sqrt(_exact_sum([((v - mean) ** 2, c) for v, c in enumerate(counts) if c]) / n)


def _exact_sum(terms: list[tuple[float, int]]) -> float:
    """``math.fsum`` of each float repeated its count of times (each ``(x, k)``: x, k times), correctly rounded
    as fsum is, from the floats' exact ratios (their denominators are powers of 2) in one int division."""
    ratios = [(x.as_integer_ratio(), k) for x, k in terms]
    den = max((q for (_, q), _ in ratios), default=1)
    return sum(p * k * (den // q) for (p, q), k in ratios) / den


def _iqr_of_counts(counts: Sequence[int]) -> float | None:
    """``_iqr`` of the whole numbers ``counts`` counts, the same float without listing them: the quartiles of
    ``statistics.quantiles(method="inclusive")``, read off the running counts."""
    n = sum(counts)
    if n < 2:
        return None
    m = n - 1
    q = []
    for i in (1, 3):
        j, delta = divmod(i * m, 4)
        q.append((_nth(counts, j) * (4 - delta) + _nth(counts, j + 1) * delta) / 4)
    return q[1] - q[0]


def _nth(counts: Sequence[int], j: int) -> int:
    """The value at position ``j`` (from 0) of the sorted values ``counts`` counts."""
    seen = 0
    for v, c in enumerate(counts):
        seen += c
        if seen > j:
            return v
    raise IndexError(j)


# each spread's statistic of counted values (``SPREADS``' statistic, the same floats): what the report computes
SPREAD_OF_COUNTS: dict[str, Callable[[Sequence[int]], float | None]] = {
    "turns_sd": _sd_of_counts, "turns_iqr": _iqr_of_counts}


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


class Tally:
    """The values of one metric over many games, kept as running sums instead of a list.

    It keeps each distinct value with its count (exact, and small: a metric takes few distinct values, such as
    turns or points), so its mean and interval are computed from the exact sums of the values and of the squared
    deviations, rounded once: the same floats, bit for bit, as ``math.fsum`` over the full list (which is
    correctly rounded too). A metric with more than ``DISTINCT`` distinct values switches to exact moment sums
    (``Fraction``): the same mean, and a variance that may differ from the two-pass formula in its last bits."""

    DISTINCT = 4096

    def __init__(self) -> None:
        self.n = 0
        self.counts: dict[float, int] | None = {}
        self.s1 = Fraction(0)  # used once ``counts`` is given up
        self.s2 = Fraction(0)

    def add(self, value: float | None) -> None:
        """One game's value (None: the game did not end, left out)."""
        if value is None:
            return
        x = float(value)
        self.n += 1
        if self.counts is not None:
            self.counts[x] = self.counts.get(x, 0) + 1
            if len(self.counts) > self.DISTINCT:
                for v, c in self.counts.items():
                    self.s1 += Fraction(v) * c
                    self.s2 += Fraction(v) ** 2 * c
                self.counts = None
        else:
            f = Fraction(x)
            self.s1 += f
            self.s2 += f * f

    def estimate(self, share: bool = False) -> Estimate:
        """Mean and 95% confidence interval (t); for a ``share`` (values 0 or 1) the interval is clipped to
        [0, 1]."""
        n = self.n
        if n == 0:
            return Estimate(None, None, None, 0)
        if self.counts is not None:
            mean = float(sum(Fraction(v) * c for v, c in self.counts.items())) / n
        else:
            mean = float(self.s1) / n
        if n == 1:
            return Estimate(mean, None, None, 1)
        if self.counts is not None:  # the sum of the rounded squared deviations, as fsum over the list gives it
            squares = float(sum(Fraction((v - mean) ** 2) * c for v, c in self.counts.items()))
        else:
            m = Fraction(mean)
            squares = float(self.s2 - 2 * m * self.s1 + n * m * m)
        var = squares / (n - 1)
        half = t975(n - 1) * math.sqrt(var / n)
        if share:
            return Estimate(mean, max(0.0, mean - half), min(1.0, mean + half), n)
        return Estimate(mean, mean - half, mean + half, n)

    def distribution(self) -> dict[float, int] | None:
        """Each value and how many games had it, in increasing order (None once there were too many values)."""
        return None if self.counts is None else dict(sorted(self.counts.items()))


def estimate(values: Sequence[float | None], share: bool = False) -> Estimate:
    """Mean and 95% confidence interval (t) of a list; values of None (games that did not end) are left out. For
    a ``share`` (values 0 or 1) the interval is clipped to [0, 1]."""
    tally = Tally()
    for v in values:
        tally.add(v)
    return tally.estimate(share)


def difference(x: float | None, y: float | None) -> float | None:
    """The paired difference of one game: y - x (None unless both games of the pair have a value)."""
    return None if x is None or y is None else y - x


def paired(a: Sequence[float | None], b: Sequence[float | None]) -> Estimate:
    """The paired difference b - a, game by game (both games of a pair must have a value)."""
    return estimate([difference(x, y) for x, y in zip(a, b)])


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


def balance_of_counts(counts: Sequence[int], players: int) -> float | None:
    """``balance`` from the number of wins of each seat (``counts[seat]``, seats 1..players; ``counts[0]``: games
    that did not end), with the same arithmetic, so the same float."""
    total = sum(counts[1:players + 1])
    if not total:
        return None
    rates = [counts[i] / total for i in range(1, players + 1)]
    return 1 - (max(rates) - min(rates))


def resample_counts(codes: Sequence[int], size: int, rng: random.Random) -> list[int]:
    """How often each code turns up in one resample of the games (``codes[i]``: game i's code, below ``size``).
    It draws the very numbers ``rng.choices(range(n), k=n)`` draws (``floor(random() * n)``, n a float), so the
    interval is the one ``bootstrap`` gives, but counts them instead of listing n indices: no memory per game."""
    counts = [0] * size
    draw, n, floor = rng.random, float(len(codes)), math.floor
    for _ in range(len(codes)):
        counts[codes[floor(draw() * n)]] += 1
    return counts


def bootstrap_counts(stat: Callable[[list[int]], float | None], codes: Sequence[int], size: int,
                     rng: random.Random, resamples: int = 1000) -> tuple[float | None, float | None]:
    """``bootstrap`` of a statistic of the code counts (``resample_counts``): the same interval, in flat memory."""
    if len(codes) < 2:
        return None, None
    # resampled_counts: the counts resample_counts gives, resample after resample, drawn in bulk (lv/resample.py)
    values = sorted(v for v in map(stat, resampled_counts(codes, size, rng, resamples)) if v is not None)
    if not values:
        return None, None
    return values[int(0.025 * (len(values) - 1))], values[int(math.ceil(0.975 * (len(values) - 1)))]


# ---------------------------------------------------------------------------------------------- comparison


def metric_table(players: int) -> dict[str, tuple[str, Metric]]:
    """Every metric of a run with ``players`` players: name -> (what it means, the per-game value)."""
    metrics = dict(METRICS)
    metrics.update(seat_metrics(players))
    return metrics


class Aggregate:
    """Paired games under several profiles, summed up as they come: a ``Tally`` per profile and metric and per
    paired difference and metric, and the winning seat of each game (one byte a game and profile: Balance's
    bootstrap resamples games). ``add`` takes game i under every profile; ``report`` gives what ``compare``
    gives for the same games, byte for byte."""

    def __init__(self, profiles: list[str], players: int,
                 metrics: dict[str, tuple[str, Metric]] | None = None) -> None:
        """``metrics``: the per-game metrics to sum up (default ``metric_table(players)``)."""
        self.profiles = list(profiles)
        self.players = players
        self.metrics = metric_table(players) if metrics is None else metrics
        self.games = 0
        self.tallies = {p: {m: Tally() for m in self.metrics} for p in self.profiles}
        self.diffs = {p: {m: Tally() for m in self.metrics} for p in self.profiles[1:]}
        self.seats = {p: array("B") for p in self.profiles}  # 0: the game did not end
        # the per-game value of each spread (the turns: two bytes a game and profile), for its bootstrap
        self.spreads = {p: {name: array("H") for name in SPREADS} for p in self.profiles}

    def add(self, games: Sequence[Row]) -> None:
        """The summaries of one game index, one per profile in order (paired: the same seed)."""
        if len(games) != len(self.profiles):
            raise ValueError(f"{len(games)} summaries for {len(self.profiles)} profiles")
        self.games += 1
        values = [{m: fn(g) if g["winner"] is not None else None for m, (_, fn) in self.metrics.items()}
                  for g in games]
        for p, g, vals in zip(self.profiles, games, values):
            tallies = self.tallies[p]
            for m, v in vals.items():
                tallies[m].add(v)
            self.seats[p].append(g["winner_seat"] or 0)
            for name, (_, fn, _) in SPREADS.items():
                self.spreads[p][name].append(int(fn(g)))
        base = values[0]
        for p, vals in zip(self.profiles[1:], values[1:]):
            diffs = self.diffs[p]
            for m, v in vals.items():
                diffs[m].add(difference(base[m], v))

    def winners(self, profile: str) -> list[int | None]:
        return [w or None for w in self.seats[profile]]

    def report(self, seed: int | str = 0, resamples: int = 1000) -> dict[str, Any]:
        """Estimates per profile and paired differences of each later profile against the first. Plain data.

        Balance and its paired difference are bootstrapped from the winning seats by counting
        (``bootstrap_counts``): the intervals ``bootstrap`` gives over the lists, without the lists."""
        players, metrics, profiles = self.players, self.metrics, self.profiles
        size = players + 1
        out: dict[str, Any] = {"metrics": {m: text for m, (text, _) in metrics.items()}, "estimates": {},
                               "differences": {}}
        out["metrics"]["balance"] = "Balance: 1 - the largest gap between two seats' win rates"
        out["metrics"].update({name: text for name, (text, _, _) in SPREADS.items()})
        for p in profiles:
            row = {m: self.tallies[p][m].estimate(m in SHARES or m.startswith("win.")).to_dict() for m in metrics}
            seats = self.seats[p]  # 0: the game did not end
            rng = random.Random(f"lv/{seed}/bootstrap/{p}")
            lo, hi = bootstrap_counts(lambda c: balance_of_counts(c, players), seats, size, rng, resamples)
            whole = [0] * size
            for w in seats:
                whole[w] += 1
            row["balance"] = {"mean": balance_of_counts(whole, players), "low": lo, "high": hi,
                              "n": len(seats) - whole[0]}
            for name in SPREADS:
                xs = array("H", (x for x, w in zip(self.spreads[p][name], seats) if w))
                row[name] = _spread_estimate(SPREAD_OF_COUNTS[name], xs, random.Random(f"lv/{seed}/bootstrap/{p}/{name}"), resamples)
            out["estimates"][p] = row
        base = profiles[0]
        for p in profiles[1:]:
            row = {m: self.diffs[p][m].estimate().to_dict() for m in metrics}
            # the pairs where both games ended, each as one code: seat under base * size + seat under p
            pairs = array("H", (a * size + b for a, b in zip(self.seats[base], self.seats[p]) if a and b))

            def diff(counts: list[int]) -> float | None:
                a = balance_of_counts([sum(counts[i * size:(i + 1) * size]) for i in range(size)], players)
                b = balance_of_counts([sum(counts[i::size]) for i in range(size)], players)
                return None if a is None or b is None else b - a

            rng = random.Random(f"lv/{seed}/bootstrap/{base}/{p}")
            lo, hi = bootstrap_counts(diff, pairs, size * size, rng, resamples)
            whole = [0] * (size * size)
            for code in pairs:
                whole[code] += 1
            row["balance"] = {"mean": diff(whole) if pairs else None, "low": lo, "high": hi, "n": len(pairs)}
            ended = [a and b for a, b in zip(self.seats[base], self.seats[p])]
            for name in SPREADS:
                xa = [x for x, e in zip(self.spreads[base][name], ended) if e]
                xb = [x for x, e in zip(self.spreads[p][name], ended) if e]
                rng = random.Random(f"lv/{seed}/bootstrap/{base}/{p}/{name}")
                row[name] = _spread_difference(SPREAD_OF_COUNTS[name], xa, xb, rng, resamples)
            out["differences"][f"{p} - {base}"] = row
        return out


def _spread_estimate(stat: Callable[[Sequence[int]], float | None], xs: Sequence[int], rng: random.Random,
                     resamples: int) -> dict[str, Any]:
    """A spread (``SPREAD_OF_COUNTS``) of the games' values with its bootstrap interval, resampled by counting."""
    size = max(xs, default=0) + 1
    lo, hi = bootstrap_counts(stat, xs, size, rng, resamples)
    whole = [0] * size
    for x in xs:
        whole[x] += 1
    return {"mean": stat(whole), "low": lo, "high": hi, "n": len(xs)}


def _spread_difference(stat: Callable[[Sequence[int]], float | None], xa: Sequence[int], xb: Sequence[int],
                       rng: random.Random, resamples: int) -> dict[str, Any]:
    """The paired difference of a spread (b - a) with its bootstrap interval: pairs resampled by counting, each
    pair one code ``a * size + b``."""
    size = max(max(xa, default=0), max(xb, default=0)) + 1

    def diff(counts: Sequence[int]) -> float | None:
        a = stat([sum(counts[i * size:(i + 1) * size]) for i in range(size)])
        b = stat([sum(counts[i::size]) for i in range(size)])
        return None if a is None or b is None else b - a

    codes = array("L", (a * size + b for a, b in zip(xa, xb)))
    lo, hi = bootstrap_counts(diff, codes, size * size, rng, resamples)
    whole = [0] * (size * size)
    for code in codes:
        whole[code] += 1
    return {"mean": diff(whole) if codes else None, "low": lo, "high": hi, "n": len(codes)}


def compare(profiles: list[str], games: dict[str, list[Row]], players: int, seed: int | str = 0,
            resamples: int = 1000) -> dict[str, Any]:
    """Estimates per profile and paired differences of each later profile against the first.

    ``games[profile][i]`` is the summary of game i under that profile; game i must have the same seed under
    every profile (paired). Plain data, ready for JSON. (``Aggregate`` does the same without the lists.)"""
    agg = Aggregate(profiles, players)
    for pair in zip(*(games[p] for p in profiles)):
        agg.add(pair)
    return agg.report(seed, resamples)

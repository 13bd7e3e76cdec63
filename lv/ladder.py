"""The ladder (``lv ladder``): bots play each other on the same deals, every bot in every seat, and are rated.

**Deals and line-ups.** A ladder of G games is played as ``ceil(G / N)`` deals of N games each (N players): deal d
has the game seed ``S * 1_000_000 + d`` (``simulate.game_seed``, as ``lv simulate``: the same deck, starting roll
and dice for every game of the deal), and its N games are its line-up's N cyclic rotations, so that over a deal
every bot of the line-up sits in every seat once (a seat's advantage, the first player's, cancels).

- B bots, B <= N: every deal's line-up is the bots in the order given, repeated to fill the seats (``greedy mcts
  random`` at 4 players: greedy, mcts, random, greedy): every bot plays every deal, in every seat; a bot given
  earlier may hold one seat more (its copies are both rated as it).
- B > N: each deal takes N of the bots. The line-ups are the C(B, N) sets of N bots (each in the order given),
  in an order shuffled by the seed and then cycled: over a multiple of C(B, N) deals every bot plays as many
  deals as every other, every pair of bots meets as often as every other, and every bot sits in every seat
  equally often.

**Ratings.** A Plackett-Luce model made for multiplayer rankings (openskill's ``PlackettLuce``, Weng and Lin
2011: the ``ladder`` extra): each game's final ranking (points, then money: ``Result.ranking``) updates the
ratings, game after game, with no drift between games (tau 0: a bot does not learn). An online model's ratings
depend on the order of the games (two copies of one bot came out 4 points apart in one order of 20 deals): the
rating is the mean over ``ORDERS`` orders of the deals (the order played, then orders shuffled by the seed). A bot
holding two seats of a game is updated once per seat, each seat rated as the bot before the game, the changes
added up (its mean moves by the sum of the two seats' moves, its variance shrinks by both factors). The 95%
interval is a percentile bootstrap over deals (``resamples`` resamples of the deals, with replacement, each rated
anew in the order drawn: it accounts for the games of a deal sharing its cards and dice, and for the order); with
``resamples=0``, the model's own mean +- 1.96 sigma, which treats every game as independent evidence.

**Pairs, luck, cost.** For each pair of bots, over the games where both sat: how often one finished ahead of the other
(per pair of their seats) and its share of the two seats' points, each with a 95% t interval over deals
(``metrics.estimate``, share; where every deal gave the same share, every one won or lost or every one split evenly, the
exact binomial interval over the deals, the share as the rate, instead of a t interval of width 0). The luck line: how
often the lowest-rated bot won a game it played, against the chance its seats gave it (1/N per seat). Each bot's CPU
seconds per decision: ``time.process_time`` around every call of the bot in the game loop (the bot's own thinking; the
legal list it is handed is the game's work), summed per bot over its seats and divided by its calls. The CPU figures are
the only ones that differ between two runs of one seed.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
import time
from typing import Any, Callable, Iterator

from . import actions as A
from . import bots as B
from .chance import rng_for
from .collector import fewer_collections
from .errors import LvError
from .game import new_game
from .metrics import estimate
from .profile import Profile
from .simulate import DEFAULT_BATCH, MAX_GAMES, _profile, game_seed, resolved, run_batches

EXTRA_ERROR = "lv ladder needs openskill: pip install 'lv[ladder]'"
RESAMPLES = 200  # bootstrap resamples of the ratings' interval (each rates every game anew)
ORDERS = 16  # orders of the deals the ratings are averaged over


def model() -> Any:
    """openskill's Plackett-Luce model, with no drift between games (the ``ladder`` extra; one line if missing)."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise LvError(EXTRA_ERROR) from None
    return PlackettLuce(tau=0.0)


def labels(specs: list[str]) -> list[str]:
    """Each bot's name in the report: its spec, and for a spec given twice, ``#2``, ``#3`` after the later ones."""
    seen: dict[str, int] = {}
    out = []
    for spec in specs:
        seen[spec] = seen.get(spec, 0) + 1
        out.append(spec if seen[spec] == 1 else f"{spec} #{seen[spec]}")
    return out


def check(specs: list[str], variant: str, players: int, games: int) -> Profile:
    """Refuse a ladder that cannot be played, in one line, before any game; the profile."""
    if len(specs) < 2:
        raise LvError(f"give at least 2 bots to rank (given {len(specs)}), e.g. lv ladder random greedy")
    if not 1 <= games <= MAX_GAMES:
        raise LvError(f"--games {games}: give 1 to {MAX_GAMES}")
    profile = _profile(variant)
    if not profile.players.min <= players <= profile.players.max:
        raise LvError(f"--players {players}: profile '{variant}' allows {profile.players.min} to "
                      f"{profile.players.max}")
    for spec in specs:
        bot = B.bot_named(spec)
        # a bot made for one profile (a trained model) says whether it plays this one: check_profile(profile)
        check_profile = getattr(bot, "check_profile", None)
        if callable(check_profile):
            check_profile(profile)
    model()
    return profile


def deals_for(games: int, players: int) -> int:
    """The deals a ladder of ``games`` games plays: N games each (``games`` rounded up to a multiple of N)."""
    return -(-games // players)


def lineups(bots: int, players: int, deals: int, seed: int) -> list[tuple[int, ...]]:
    """Each deal's line-up: bot indices for seats 0..N-1 of its first game (module docstring)."""
    if bots <= players:
        return [tuple(i % bots for i in range(players))] * deals
    sets = list(itertools.combinations(range(bots), players))
    rng_for(seed, "ladder", "line-ups").shuffle(sets)
    return [sets[d % len(sets)] for d in range(deals)]


def rotation(lineup: tuple[int, ...], r: int) -> tuple[int, ...]:
    """The line-up turned by ``r`` seats: seat s holds ``lineup[(s - r) % N]``."""
    n = len(lineup)
    return tuple(lineup[(s - r) % n] for s in range(n))


def schedule(bots: int, players: int, games: int, seed: int) -> list[tuple[int, int, tuple[int, ...]]]:
    """Every game of the ladder, in the order played: (deal, rotation, the bot of each seat)."""
    return [(d, r, rotation(lineup, r))
            for d, lineup in enumerate(lineups(bots, players, deals_for(games, players), seed))
            for r in range(players)]


# ---------------------------------------------------------------------------------------------- playing


class Timed:
    """A bot, with the CPU seconds of its calls (``time.process_time``), their number and the kinds it took."""

    def __init__(self, bot: B.Bot) -> None:
        self.bot = bot
        self.seconds = 0.0
        self.calls = 0
        self.kinds: dict[str, int] = {}

    def __call__(self, game: Any, legal: list[A.Decision], rng: random.Random) -> A.Decision:
        start = time.process_time()
        decision = self.bot(game, legal, rng)
        self.seconds += time.process_time() - start
        self.calls += 1
        family = A.family_of(decision)
        kind = family.name if family is not None else type(decision).__name__
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
        return decision


def tasks(profile: Profile, label: str, specs: list[str], players: int, games: int, seed: int, size: int,
          skip: frozenset[tuple[int, int]] = frozenset()) -> Iterator[dict[str, Any]]:
    """The ladder as tasks of about ``size`` games (whole deals), plain dicts as ``simulate.batches`` makes them:
    the resolved profile, the bots and the games to play; the games ``skip`` names (deal, rotation) are left out
    (already played: a journal's)."""
    resolved = {"name": profile.name, "title": profile.title, "values": profile.values(), "label": label}
    plan = [g for g in schedule(len(specs), players, games, seed) if (g[0], g[1]) not in skip]
    per_task = max(1, size // players) * players
    for start in range(0, len(plan), per_task):
        yield {"profile": resolved, "players": players, "bots": list(specs), "seed": seed,
               "games": [[d, r, list(seats)] for d, r, seats in plan[start:start + per_task]]}


def play_batch(task: dict[str, Any]) -> list[dict[str, Any]]:
    """Play a task of ``tasks``: each game's result (module-level, so a pool or Dask worker can import it)."""
    profile = resolved(task["profile"])
    out = []
    with fewer_collections():
        for deal, r, seats in task["games"]:
            out.append(play_game(profile, task["players"], task["seed"], deal, r, seats, task["bots"]))
    return out


def play_game(profile: Profile, players: int, seed: int, deal: int, r: int, seats: list[int],
              specs: list[str]) -> dict[str, Any]:
    """One game of the ladder: deal ``deal``'s seed, seat s played by bot ``seats[s]``; its result as plain data."""
    game_seed_ = game_seed(seed, deal)
    game = new_game(profile, players, game_seed_, quiet=True)
    timed = [Timed(B.bot_named(specs[b])) for b in seats]
    B.play(game, list(timed), game_seed_)
    result = game.state.result
    assert result is not None  # bots.play plays to the end
    return {"deal": deal, "rotation": r, "seats": list(seats), "ranking": list(result.ranking),
            "winner": result.winner, "scores": [pl.score for pl in game.state.players],
            "turns": len(game.history), "cpu": [t.seconds for t in timed], "calls": [t.calls for t in timed],
            "kinds": [dict(sorted(t.kinds.items())) for t in timed]}


def play(specs: list[str], variant: str, players: int, games: int, seed: int = 0, workers: int = 1,
         client: Any = None, progress: Callable[[int], None] | None = None, batch: int | None = None,
         journal: Journal | None = None) -> list[dict[str, Any]]:
    """Play the ladder (``simulate.run_batches``: here, in a pool of ``workers`` or on Dask): every game's result,
    in the order of ``schedule``. With a ``journal``, the games it holds are not played again, and each task's
    games are added to it as the task ends."""
    profile = check(specs, variant, players, games)
    total = deals_for(games, players) * players
    if batch is None:  # small enough tasks that the progress (and a journal) moves often: about 20 a worker
        batch = DEFAULT_BATCH if client is not None else max(players, min(DEFAULT_BATCH, total // (workers * 20)))
    done = journal.results if journal is not None else {}
    if progress and done:
        progress(len(done))
    out = list(done.values())
    for results in run_batches(tasks(profile, variant, specs, players, games, seed, batch, frozenset(done)),
                               workers, client, play_batch):
        if journal is not None:
            journal.add(results)
        out.extend(results)
        if progress:
            progress(len(results))
    order = {(d, r): i for i, (d, r, _) in enumerate(schedule(len(specs), players, games, seed))}
    return sorted(out, key=lambda g: order[g["deal"], g["rotation"]])


def _models(specs: list[str], profile: Profile, players: int) -> dict[str, str]:
    """Each bot spec that plays by a value model, and the model's digest (``evaluate.model_digest``)."""
    from .evaluate import model_digest, model_of

    out = {}
    for spec in specs:
        model = model_of(B.bot_named(spec), profile, players)
        if model is not None:
            out[spec] = model_digest(model)
    return out


class Journal:
    """A ladder's games kept in a file as they are played (``lv ladder --journal FILE``), a JSON line each, after a
    first line that says which ladder they are of (its bots and their value models, profile, player count and seed):
    a run stopped part-way and started again with the same file plays only the games it lacks, and gives the report
    the whole run would have given. Lines are appended whole, under the file's lock, and synced; a last line cut
    short (the process killed while writing) is dropped when the file is read. A file of another ladder, or a line
    that is not one of this ladder's games, is a one-line error naming the file and line."""

    FORMAT = "lv-ladder-journal-1"
    MAX_LINE = 1 << 16  # bytes: a game's line is a few hundred

    def __init__(self, path: str, specs: list[str], variant: str, players: int, games: int, seed: int) -> None:
        self.path = path
        from .evaluate import profile_hash  # a journal of a profile file since edited is refused

        self.players = players
        profile = _profile(variant)
        self.header = {"format": self.FORMAT, "bots": list(specs), "variant": variant,
                       "values": profile_hash(profile), "players": players, "seed": seed}
        models = _models(specs, profile, players)
        if models:  # a journal of value players names their models: another model's games are not mixed in
            self.header["models"] = models
        self.plan = {(d, r): list(seats) for d, r, seats in schedule(len(specs), players, games, seed)}
        self.results: dict[tuple[int, int], dict[str, Any]] = {}
        self._read()

    def _read(self) -> None:
        from .files import check_destination, locked

        check_destination(self.path)
        with locked(self.path):  # a run writing to it meanwhile is seen between two of its whole appends
            self._read_locked()

    def _read_locked(self) -> None:
        limit = max(1 << 26, self.MAX_LINE * (len(self.plan) + 2))  # a longer run's journal may be read too
        try:
            with open(self.path, "rb") as f:
                data = f.read(limit + 1)
        except FileNotFoundError:
            data = b""
        except OSError as exc:
            raise LvError(f"{self.path}: {exc.strerror or exc}") from None
        if len(data) > limit:
            raise LvError(f"{self.path}: larger than {limit >> 20} MiB: not a ladder's journal")
        lines = data.split(b"\n")
        cut = lines.pop()  # what follows the last newline: b"" unless a kill cut the last line short
        if not lines:  # a new file, or one cut short in its first line: its header written (again)
            if not self._header_line().startswith(cut):
                raise LvError(f"{self.path}: not a ladder's journal (its first line is not one)")
            self._write_header()
            return
        first = self._parse(lines[0], 1)
        if first != self.header:
            differ = sorted(k for k in self.header if not isinstance(first, dict) or first.get(k) != self.header[k])
            raise LvError(f"{self.path}: the journal of another ladder (its {', '.join(differ) or 'format'} differ); "
                          f"give a new file, or the same bots (and models), --variant, --players and --seed")
        if cut:
            self._truncate(len(data) - len(cut))
        for n, line in enumerate(lines[1:], start=2):
            g = self._game(self._parse(line, n), n)
            if g is not None:
                self.results[g["deal"], g["rotation"]] = g

    def _header_line(self) -> bytes:
        import json

        return (json.dumps(self.header, separators=(",", ":")) + "\n").encode()

    def _write_header(self) -> None:
        from .files import write_atomic

        write_atomic(self.path, self._header_line())

    def _parse(self, line: bytes, n: int) -> Any:
        import json

        if len(line) > self.MAX_LINE:
            raise LvError(f"{self.path}, line {n}: longer than {self.MAX_LINE} bytes: not a ladder's game")
        try:
            return json.loads(line)
        except (ValueError, RecursionError) as exc:
            raise LvError(f"{self.path}, line {n}: not JSON ({str(exc).splitlines()[0][:80]})") from None

    def _game(self, g: Any, n: int) -> dict[str, Any] | None:
        """A journal's game, checked against the plan; None for a game past this run's --games (kept in the file)."""
        players = self.players
        bad = f"{self.path}, line {n}: not a game of this ladder"
        if not isinstance(g, dict) or not _ints(g.get("deal"), g.get("rotation"), g.get("winner"), g.get("turns")):
            raise LvError(bad)
        if not (0 <= g["deal"] and 0 <= g["rotation"] < players):
            raise LvError(bad)
        seats = self.plan.get((g["deal"], g["rotation"]))
        if seats is None:
            return None
        ranking = g.get("ranking")
        if g.get("seats") != seats or not isinstance(ranking, list) or not _ints(*ranking) \
                or sorted(ranking) != list(range(players)) or g["winner"] != ranking[0]:
            raise LvError(bad)
        for key, kind in (("scores", int), ("cpu", (int, float)), ("calls", int), ("kinds", dict)):
            value = g.get(key)
            if not isinstance(value, list) or len(value) != players \
                    or not all(isinstance(v, kind) and not isinstance(v, bool) for v in value):
                raise LvError(bad)
        if not all(isinstance(k, str) and _ints(v) for kinds in g["kinds"] for k, v in kinds.items()):
            raise LvError(bad)
        return {k: g[k] for k in ("deal", "rotation", "seats", "ranking", "winner", "scores", "turns", "cpu",
                                  "calls", "kinds")}

    def add(self, results: list[dict[str, Any]]) -> None:
        """Append a task's games."""
        self._append(results)
        for g in results:
            self.results[g["deal"], g["rotation"]] = g

    def _append(self, rows: list[dict[str, Any]]) -> None:
        import json

        from .files import append

        append(self.path, "".join(json.dumps(row, separators=(",", ":")) + "\n" for row in rows).encode())

    def _truncate(self, size: int) -> None:
        from .files import truncate

        truncate(self.path, size)


def _ints(*values: Any) -> bool:
    return all(isinstance(v, int) and not isinstance(v, bool) for v in values)


# ---------------------------------------------------------------------------------------------- rating


def rate(results: list[dict[str, Any]], bots: int, order: list[int] | None = None,
         by_deal: dict[int, list[dict[str, Any]]] | None = None) -> list[tuple[float, float]]:
    """Each bot's (mu, sigma) after rating the games (``results``: each with ``seats`` and ``ranking``) one by one
    with the Plackett-Luce model; ``order``: the deals to rate, in this order (a bootstrap resample), their games
    from ``by_deal``. A bot holding several seats of a game: one update per seat, the changes added up."""
    pl = model()
    mu = [pl.mu] * bots
    sigma = [pl.sigma] * bots
    games = results if order is None else [g for d in order for g in (by_deal or {})[d]]
    for g in games:
        seats, ranking = g["seats"], g["ranking"]
        ranks = [0] * len(seats)
        for place, seat in enumerate(ranking):
            ranks[seat] = place + 1
        teams = [[pl.rating(mu=mu[b], sigma=sigma[b])] for b in seats]
        rated = pl.rate(teams, ranks=ranks)
        new_mu, shrink = list(mu), [1.0] * bots
        for b, team in zip(seats, rated):
            new_mu[b] += team[0].mu - mu[b]
            shrink[b] *= (team[0].sigma / sigma[b]) ** 2
        mu = new_mu
        sigma = [s * math.sqrt(k) for s, k in zip(sigma, shrink)]
    return list(zip(mu, sigma))


def ratings(results: list[dict[str, Any]], bots: int, seed: int, orders: int = ORDERS) -> list[tuple[float, float]]:
    """Each bot's (mu, sigma): their means over ``orders`` orders of the deals, shuffled by the seed (the first the
    order played). An online model's ratings depend on the order of the games (by a few points over a few dozen
    deals); their mean over orders does not, much."""
    by_deal: dict[int, list[dict[str, Any]]] = {}
    for g in results:
        by_deal.setdefault(g["deal"], []).append(g)
    deals = sorted(by_deal)
    rng = rng_for(seed, "ladder", "orders")
    sums = [[0.0, 0.0] for _ in range(bots)]
    for k in range(orders):
        order = list(deals)
        if k:
            rng.shuffle(order)
        for b, (m, s) in enumerate(rate(results, bots, order, by_deal)):
            sums[b][0] += m
            sums[b][1] += s
    return [(m / orders, s / orders) for m, s in sums]


def bootstrap_ratings(results: list[dict[str, Any]], bots: int, seed: int, resamples: int
                      ) -> list[tuple[float | None, float | None]]:
    """Each bot's 95% percentile interval of its rating over ``resamples`` resamples of the deals."""
    by_deal: dict[int, list[dict[str, Any]]] = {}
    for g in results:
        by_deal.setdefault(g["deal"], []).append(g)
    deals = sorted(by_deal)
    if len(deals) < 2 or resamples < 1:
        return [(None, None)] * bots
    rng = rng_for(seed, "ladder", "bootstrap")
    samples: list[list[float]] = [[] for _ in range(bots)]
    for _ in range(resamples):
        order = rng.choices(deals, k=len(deals))
        for b, (m, _s) in enumerate(rate(results, bots, order, by_deal)):
            samples[b].append(m)
    out: list[tuple[float | None, float | None]] = []
    for values in samples:
        values.sort()
        out.append((values[int(0.025 * (len(values) - 1))], values[int(math.ceil(0.975 * (len(values) - 1)))]))
    return out


# ---------------------------------------------------------------------------------------------- the report


def _per_deal(results: list[dict[str, Any]], value: Callable[[dict[str, Any]], float | None]) -> list[float | None]:
    """The mean of ``value`` over each deal's games (None where no game of the deal has one): the unit of the
    intervals, since a deal's games share its cards and dice."""
    sums: dict[int, list[float]] = {}
    for g in results:
        v = value(g)
        bucket = sums.setdefault(g["deal"], [])
        if v is not None:
            bucket.append(v)
    return [math.fsum(vs) / len(vs) if vs else None for _, vs in sorted(sums.items())]


def _ahead(g: dict[str, Any], i: int, j: int) -> float | None:
    """Over the pairs of seats (one of bot i, one of bot j) of game ``g``: the share where i finished ahead."""
    place = {seat: k for k, seat in enumerate(g["ranking"])}
    pairs = [(s, t) for s, b in enumerate(g["seats"]) if b == i for t, c in enumerate(g["seats"]) if c == j]
    if not pairs:
        return None
    return sum(place[s] < place[t] for s, t in pairs) / len(pairs)


def _share(g: dict[str, Any], i: int, j: int) -> float | None:
    """Over the pairs of seats of bots i and j in game ``g``: i's share of the two seats' points (half if none)."""
    scores, seats = g["scores"], g["seats"]
    pairs = [(s, t) for s, b in enumerate(seats) if b == i for t, c in enumerate(seats) if c == j]
    if not pairs:
        return None
    return math.fsum(scores[s] / (scores[s] + scores[t]) if scores[s] + scores[t] else 0.5
                     for s, t in pairs) / len(pairs)


def _won(g: dict[str, Any], i: int) -> float | None:
    """1 if a seat of bot i won game ``g``, 0 if it lost, None if it did not play."""
    if i not in g["seats"]:
        return None
    return float(g["seats"][g["winner"]] == i)


def _chance(g: dict[str, Any], i: int) -> float | None:
    """The share of the seats bot i held in game ``g`` (its chance of winning if the game were a draw of lots)."""
    n = g["seats"].count(i)
    return n / len(g["seats"]) if n else None


def _est(values: list[float | None]) -> dict[str, Any]:
    e = estimate(values, share=True).to_dict()
    seen = [v for v in values if v is not None]
    if seen and e["low"] == e["high"]:
        # every deal the same share (all won, all lost, all split): not a t interval of width 0 but the exact
        # binomial one over the deals, the share as the rate (a deal's share counts as that part of a success)
        from .stats import clopper_pearson

        e["low"], e["high"] = clopper_pearson(math.fsum(seen), len(seen))
    return e


def _widened(end: float | None, rating: float, pick: Callable[[float, float], float]) -> float | None:
    """An end of a rating's interval, moved to the rating if rounding left it just past it."""
    return None if end is None else pick(end, rating)


def report(results: list[dict[str, Any]], specs: list[str], variant: str, players: int, seed: int,
           resamples: int = RESAMPLES) -> dict[str, Any]:
    """What a ladder says, as plain data (``lv ladder --json``): the bots by rating, each pair, the luck line."""
    names = labels(specs)
    n = len(specs)
    rated = ratings(results, n, seed)
    intervals = bootstrap_ratings(results, n, seed, resamples) if resamples else \
        [(m - 1.959964 * s, m + 1.959964 * s) for m, s in rated]
    cpu, calls = [0.0] * n, [0] * n
    kinds: list[dict[str, int]] = [{} for _ in range(n)]
    for g in results:
        for seat, b in enumerate(g["seats"]):
            cpu[b] += g["cpu"][seat]
            calls[b] += g["calls"][seat]
            for kind, count in g["kinds"][seat].items():
                kinds[b][kind] = kinds[b].get(kind, 0) + count
    profile = _profile(variant)
    offered = [f.name for f in A.families_of(profile) if f.applies and f.active(profile)]
    order = sorted(range(n), key=lambda b: (-rated[b][0], b))
    bots = []
    for rank, b in enumerate(order, 1):
        played = [g for g in results if b in g["seats"]]
        bots.append({
            "rank": rank, "bot": names[b], "spec": specs[b], "rating": rated[b][0],
            # the rating is a mean over orders, each resample one order: rounding must not put it outside
            "low": _widened(intervals[b][0], rated[b][0], min), "high": _widened(intervals[b][1], rated[b][0], max),
            "sigma": rated[b][1], "games": len(played),
            "seats": sum(g["seats"].count(b) for g in results),
            "wins": _est(_per_deal(results, functools.partial(_won, i=b))),
            "chance": math.fsum(g["seats"].count(b) / players for g in played) / len(played) if played else None,
            "decisions": calls[b], "cpu_seconds": cpu[b], "cpu_per_decision": cpu[b] / calls[b] if calls[b] else None,
            "took": {k: kinds[b].get(k, 0) for k in offered},
            "never_takes": [k for k in offered if k in B.never_takes(specs[b])],
        })
    pairs = []
    for x, y in itertools.combinations(order, 2):  # the higher-rated first
        pairs.append({"bot": names[x], "other": names[y],
                      "ahead": _est(_per_deal(results, functools.partial(_ahead, i=x, j=y))),
                      "points_share": _est(_per_deal(results, functools.partial(_share, i=x, j=y)))})
    low = order[-1]
    played = [g for g in results if low in g["seats"]]
    luck = {"bot": names[low], "wins": _est(_per_deal(results, functools.partial(_won, i=low))),
            "chance": math.fsum(_chance(g, low) or 0.0 for g in played) / len(played) if played else None}
    took_any = {k for b in range(n) for k, c in kinds[b].items() if c}
    interval = (f"percentile bootstrap over deals, {resamples} resamples" if resamples
                else "the model's mean +- 1.96 sigma")
    return {"variant": variant, "players": players, "games": len(results), "deals": len({g["deal"] for g in results}),
            "seed": seed, "bots": names, "specs": list(specs),
            "model": {"name": "Plackett-Luce (openskill, Weng-Lin; tau 0)", "interval": interval},
            "ratings": bots, "pairs": pairs, "luck": luck,
            "not_exercised": [k for k in offered if k not in took_any]}


# ---------------------------------------------------------------------------------------------- presenting


def _pct(e: dict[str, Any]) -> str:
    if e["mean"] is None:
        return "-"
    text = f"{100 * e['mean']:.1f}%"
    if e["low"] is not None:
        text += f" [{100 * e['low']:.1f}, {100 * e['high']:.1f}]"
    return text


def _cpu(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    return f"{seconds * 1000:.3g} ms" if seconds < 1 else f"{seconds:.3g} s"


def rating_rows(result: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """A row per bot, best first: its rating and interval, its wins against the chance its seats gave it, its
    CPU per decision and the kinds it never took."""
    header = ["rank", "bot", "rating [95%]", "wins [95%]", "chance", "cpu/decision", "never took"]
    rows = []
    for r in result["ratings"]:
        rating = f"{r['rating']:.2f}"
        if r["low"] is not None:
            rating += f" [{r['low']:.2f}, {r['high']:.2f}]"
        never = [k for k, c in r["took"].items() if not c]
        rows.append([str(r["rank"]), r["bot"], rating, _pct(r["wins"]),
                     f"{100 * r['chance']:.1f}%" if r["chance"] is not None else "-",
                     _cpu(r["cpu_per_decision"]), ", ".join(never) or "-"])
    return header, rows


def pair_rows(result: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """A row per pair of bots, the higher-rated first: how often it finished ahead, and its share of the points."""
    header = ["bot", "against", "ahead [95%]", "points share [95%]"]
    return header, [[p["bot"], p["other"], _pct(p["ahead"]), _pct(p["points_share"])] for p in result["pairs"]]


def luck_line(result: dict[str, Any]) -> str:
    luck = result["luck"]
    chance = f"{100 * luck['chance']:.1f}%" if luck["chance"] is not None else "-"
    return (f"luck: the lowest-rated bot, {luck['bot']}, won {_pct(luck['wins'])} of the games it played "
            f"(chance, by its seats: {chance})")


def csv_rows(result: dict[str, Any]) -> list[list[Any]]:
    """Long form: one row per (bot, metric) and per (pair, metric): section, bot, other, metric, value, low, high,
    n."""
    rows: list[list[Any]] = [["section", "bot", "other", "metric", "value", "low", "high", "n"]]
    for r in result["ratings"]:
        rows.append(["rating", r["bot"], "", "rating", r["rating"], r["low"], r["high"], r["games"]])
        rows.append(["rating", r["bot"], "", "sigma", r["sigma"], "", "", r["games"]])
        w = r["wins"]
        rows.append(["rating", r["bot"], "", "wins", w["mean"], w["low"], w["high"], w["n"]])
        rows.append(["rating", r["bot"], "", "chance", r["chance"], "", "", r["games"]])
        rows.append(["rating", r["bot"], "", "cpu_per_decision", r["cpu_per_decision"], "", "", r["decisions"]])
    for p in result["pairs"]:
        for metric in ("ahead", "points_share"):
            e = p[metric]
            rows.append(["pair", p["bot"], p["other"], metric, e["mean"], e["low"], e["high"], e["n"]])
    luck = result["luck"]
    rows.append(["luck", luck["bot"], "", "wins", luck["wins"]["mean"], luck["wins"]["low"], luck["wins"]["high"],
                 luck["wins"]["n"]])
    rows.append(["luck", luck["bot"], "", "chance", luck["chance"], "", "", ""])
    return rows

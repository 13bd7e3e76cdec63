"""Which rule does what (``lv explain A B``): the difference between two rule profiles taken apart into changes,
each measured over paired games.

A *change* is one rulebook point: the parameters that differ between A and B and only make sense together
(``POINTS``, one table: the Raise action with its cost and height, ...); a differing parameter in no point is a
change of its own. Each change is measured over paired games (game i has the same seed under every profile, as
in ``lv simulate``):

- *alone*: A with the change against A; *removed*: B against B without the change. The two differ where the
  change interacts with others (risers in sprawls do nothing without the Raise action); the per-game difference
  of the two is the *interaction*, with its interval;
- *Shapley share*: the change's average effect over the orders in which the changes can be made, A to B, so the
  shares add up to the whole difference B - A, game by game. Exact over all 2^k subsets of the k changes up to
  ``EXACT_UP_TO`` changes; beyond, over the subsets along sampled orders (antithetic pairs: an order and its
  reverse), and the report says so;
- *did it matter*: the share of pairs (alone, removed) whose two games differ at all, and the first step where
  they do (``diff.turn_digests``): a change that changed no game is flagged, whatever the metrics say.

Every profile of the run plays the same seeds, in the tasks of ``lv.simulate`` (a pool or Dask, results in task
order); a worker plays one game under every profile (``explain_batch``), reduces it to the few summaries and
per-game Shapley values the report needs, and the parent sums them up as they come (``metrics.Aggregate``,
``metrics.Tally``): the same seed gives the same report, byte for byte, however it was played.
"""

from __future__ import annotations

import json
import math
import random
import shlex
import textwrap
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import attrs

from . import simulate, stats
from .diff import first_difference
from .errors import LvError, ProfileError
from .files import make_folder
from .collector import fewer_collections
from .metrics import SHARES, Aggregate, Metric, Tally, difference, metric_table
from .profile import Profile, _split_spec, amount, known_parameter, load_profile, parse_value, unread

# The rulebook points whose parameters only make sense together (shared/reference/rules-diff.md, by row): each
# is one change, made or left as a whole. (name, what it is, its parameters.) A differing parameter in no point is
# a change of its own, named by the parameter.
POINTS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("players", "player count and colours (row 1)", ("players.min", "players.max", "players.colors")),
    ("starting_money", "how the starting money is counted (row 7)", ("setup.starting_money",)),
    ("join_rule", "casinos join by colour and height (row 14)", ("casino.join_rule",)),
    ("scoring_order", "the order the casinos score in (row 20)", ("scoring.order",)),
    ("riser_cost", "risers in sprawls (row 24)", ("sprawl.riser_cost",)),
    ("remodel", "what a remodel counts and costs (row 26)", ("remodel.cost_per_unit", "remodel.counts")),
    ("raise", "the Raise action, its cost and height (row 29)",
     ("raise.enabled", "raise.cost_per_space", "raise.max_height")),
    ("bet_cap", "the gamble's bet cap (row 31)",
     ("gamble.bet_per_tile", "gamble.tiles_counted", "gamble.cap_at_boss_money")),
    ("odds", "the gamble's odds (row 32)", ("gamble.win_even", "gamble.win_double", "gamble.lose")),
    ("lay_off", "the boss's lay-off (row 34)", ("gamble.lay_off", "gamble.lay_off_double_basis")),
    ("instant_win", "the instant win (row 43)", ("end.instant_win_points", "end.instant_win_mode")),
    ("f_block", "the 2-player F-block rule (row 44)", ("f_block.closed_when", "f_block.block")),
)

EXACT_UP_TO = 8  # exact Shapley shares up to this many changes (2^8 = 256 profiles)
PERMUTATIONS = 16  # sampled orders beyond it
MAX_PERMUTATIONS = 100_000  # sampling more orders only repeats them, and would hold up the run before a game
MAX_EXACT = 20  # 2^20 profiles: more is no run anyone can wait for
# what a designer reads first (issue 30): the winner's score and margin, builds, decisions per game, seat 1's
# advantage, then the winner's money (it only breaks ties)
DEFAULT_METRICS = ("winner_score", "winner_margin", "casinos_built", "decisions", "advantage_p1", "winner_money")
MAX_PROFILES = 1000  # profiles in one run of a player count and line-up, unless --force (as lv simulate's grid)

# The kind of decision a rulebook point is about (its ``POINTS`` name): a change that changed no game and whose
# decision no player was offered, or took, was "not exercised" by these players. A change outside ``POINTS`` is
# about the decision of its section (``DECISION_OF_KEY``, else the section's name: ``raise.x`` -> raise). The kinds
# are matched as the games count them (``simulate._counting``), by prefix, without case, ``_`` or ``-``: a lay-off
# the boss is asked counts whatever it is called (lay_off, layoff, lay_off_accept, ...).
DECISIONS: dict[str, str] = {"riser_cost": "sprawl", "remodel": "remodel", "raise": "raise", "bet_cap": "gamble",
                             "odds": "gamble", "lay_off": "lay_off"}
DECISION_OF_KEY: dict[str, str] = {"gamble.lay_off": "lay_off", "gamble.lay_off_double_basis": "lay_off",
                                   "reorg": "reorganize", "sprawl": "sprawl", "remodel": "remodel",
                                   "raise": "raise", "gamble": "gamble", "build": "build", "sell": "sell",
                                   "trade": "trade"}
SET_METRICS = ("balance", "turns_sd", "turns_iqr")  # statistics of a set of games: no per-game Shapley value


def _winner_margin(g: dict[str, Any]) -> float | None:
    scores, w = g["scores"], g["winner"]
    others = [s for i, s in enumerate(scores) if i != w]
    return float(scores[w] - max(others)) if others else None


def game_metrics(players: int) -> dict[str, tuple[str, Metric]]:
    """The per-game metrics of an explanation: lv simulate's (``metrics.metric_table``) and the winner's margin."""
    table = metric_table(players)
    table["winner_margin"] = ("the winner's margin: the winner's points minus the best other player's",
                              _winner_margin)
    return table


def check_metrics(metrics: Sequence[str], players: int) -> None:
    """Refuse a metric lv does not measure, in one line."""
    every = list(game_metrics(players)) + list(SET_METRICS)
    for m in metrics:
        if m not in every:
            raise LvError(f"--metric {m}: unknown (known: {', '.join(every)})")


# ---------------------------------------------------------------------------------------------- the changes


@attrs.frozen
class Change:
    """One change from A to B: a rulebook point's parameters that differ (``keys``), with their values."""

    name: str
    title: str
    keys: tuple[str, ...]
    a: tuple[Any, ...]  # the values under A, in the order of ``keys``
    b: tuple[Any, ...]


def changes(pa: Profile, pb: Profile, groups: Sequence[Sequence[str]] = (), each_parameter: bool = False
            ) -> list[Change]:
    """The differences of two profiles as changes, in the order of their first parameter: by rulebook point
    (``POINTS``), the ``groups`` given first (each a list of parameters moved together), or with
    ``each_parameter`` one per parameter. An action family's section that a profile does not name is compared
    at its defaults, as ``lv variants diff`` does."""
    va, vb = pa.values(every=True), pb.values(every=True)
    differ = [k for k in va if va[k] != vb[k]]
    seen: set[str] = set()
    table: list[tuple[str, str, tuple[str, ...]]] = []
    for group in groups:
        keys = tuple(k.strip() for k in group if k.strip())
        for k in keys:
            if not known_parameter(k):
                raise LvError(f"--group {','.join(keys)}: unknown parameter '{k}' (see 'lv variants show')")
            if k in seen:
                raise LvError(f"--group: {k} is in two groups")
            seen.add(k)
        if not any(k in differ for k in keys):
            raise LvError(f"--group {','.join(keys)}: none of these parameters differs between the profiles")
        table.append(("+".join(k.rsplit(".", 1)[-1] for k in keys if k in differ), "a group given with --group",
                      keys))
    if not each_parameter:
        table += [p for p in POINTS if not seen.intersection(p[2])]
    found: dict[str, tuple[str, str, list[str]]] = {}
    for k in differ:
        point = next((p for p in table if k in p[2]), None)
        name, title = (point[0], point[1]) if point else (k, k)
        found.setdefault(name, (name, title, []))[2].append(k)
    return [Change(name, title, tuple(keys), tuple(va[k] for k in keys), tuple(vb[k] for k in keys))
            for name, title, keys in found.values()]


def value_text(value: Any) -> str:
    """A parameter's value as a profile spec writes it (``[black, blue]``, ``true``, ``15``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(value_text(v) for v in value) + "]"
    text = str(value)
    return text if parse_value(text) == value else json.dumps(value)


def with_values(spec: str, values: dict[str, Any]) -> str:
    """``spec`` with ``values`` set (``original,raise.enabled=true``): an override of the same key it already
    has is replaced."""
    head, *assignments = [part.strip() for part in _split_spec(spec)]
    kept = [x for x in assignments if x.split("=", 1)[0].strip() not in values]
    return ",".join([head, *kept, *(f"{k}={value_text(v)}" for k, v in values.items())])


@attrs.frozen
class Plan:
    """What an explanation plays: the changes, and the subsets of them (bit i: change i made, from A) with the
    profile spec of each; ``orders``: the sampled orders of the changes (empty unless ``method`` is sampled)."""

    a: str
    b: str
    changes: tuple[Change, ...]
    labels: dict[int, str]  # subset -> profile spec, in the order played
    method: str  # "exact", "sampled" or "none" (no Shapley shares)
    orders: tuple[tuple[int, ...], ...] = ()

    @property
    def full(self) -> int:
        return (1 << len(self.changes)) - 1


def plan(a: str, b: str, groups: Sequence[Sequence[str]] = (), each_parameter: bool = False,
         permutations: int = PERMUTATIONS, exact_up_to: int = EXACT_UP_TO, seed: int = 0) -> Plan:
    """The changes from ``a`` to ``b`` and the profiles to play. ``permutations``: sampled orders when there
    are more than ``exact_up_to`` changes (0: no Shapley shares, only alone and removed)."""
    if not 0 <= permutations <= MAX_PERMUTATIONS:
        raise LvError(f"--permutations {permutations}: give 0 (no Shapley shares) to {MAX_PERMUTATIONS:,}")
    if not 0 <= exact_up_to <= MAX_EXACT:
        raise LvError(f"--exact-up-to {exact_up_to}: give 0 (always sample) to {MAX_EXACT}")
    pa, pb = load_profile(a), load_profile(b)
    found = changes(pa, pb, groups, each_parameter)
    if not found:
        raise LvError(f"{a} and {b} have the same parameters: nothing to explain")
    k = len(found)
    full = (1 << k) - 1
    subsets = {0, full} | {1 << i for i in range(k)} | {full ^ (1 << i) for i in range(k)}
    orders: list[tuple[int, ...]] = []
    if permutations == 0:
        method = "none"
    elif k <= exact_up_to:
        method = "exact"
        subsets = set(range(full + 1))
    else:
        method = "sampled"
        subsets, orders = _sampled_subsets(k, permutations, seed)
    labels = {}
    for mask in sorted(subsets, key=lambda m: (bin(m).count("1"), m)):
        labels[mask] = _spec(a, b, found, mask, full)
    _check(labels, found, pa.values(every=True), pb.values(every=True))
    return Plan(a, b, tuple(found), labels, method, tuple(orders))


def _spec(a: str, b: str, found: list[Change], mask: int, full: int) -> str:
    if mask == 0:
        return a
    if mask == full:
        return b
    if bin(mask).count("1") == len(found) - 1:  # B without one change: B's spec, that change's keys as A has them
        return with_values(b, {k: v for i, c in enumerate(found) if not mask >> i & 1 for k, v in zip(c.keys, c.a)})
    return with_values(a, {k: v for i, c in enumerate(found) if mask >> i & 1 for k, v in zip(c.keys, c.b)})


def _check(labels: dict[int, str], found: list[Change], va: dict[str, Any], vb: dict[str, Any]) -> None:
    """Every subset's spec loads and has the values it should: else one line naming the changes."""
    for mask, spec in labels.items():
        names = [c.name for i, c in enumerate(found) if mask >> i & 1] or ["none"]
        try:
            got = load_profile(spec).values(every=True)
        except ProfileError as err:
            raise LvError(f"the changes {', '.join(names)} made alone do not give a valid profile ({err}); "
                          f"move parameters that only work together as one change with --group") from None
        want = {k: (vb if any(mask >> i & 1 and k in c.keys for i, c in enumerate(found)) else va)[k] for k in va}
        if got != want:
            bad = next(k for k in want if got.get(k) != want[k])
            raise LvError(f"the profile spec {spec!r} does not give {bad}={value_text(want[bad])} (a value that "
                          f"a spec cannot write)")


# ---------------------------------------------------------------------------------------------- the worker


def explain_batch(task: dict[str, Any]) -> list[dict[str, Any]]:
    """Play a task (``simulate.batches`` of the plan's profiles, with ``explain``: the subsets in order, the
    number of changes, the method and the sampled orders) and reduce each game to what the report needs: the
    summaries under A, B, each A + change and each B - change; for each change the first step where the games
    of its alone and removed pairs differ; and each change's Shapley value of every per-game metric."""
    info = task["explain"]
    k, masks, method = info["k"], info["masks"], info["method"]
    orders = [tuple(o) for o in info["orders"]]
    full = (1 << k) - 1
    fns = [fn for _, fn in game_metrics(task["players"]).values()]
    weights = [math.factorial(s) * math.factorial(k - 1 - s) / math.factorial(k) for s in range(k)]
    out = []
    with fewer_collections():  # for the whole task, as simulate.play_batch
        for summaries in simulate.play_games(task):
            games = dict(zip(masks, summaries))
            digests = {m: g.pop("digests") for m, g in games.items()}
            first = [[first_difference(digests[0], digests[1 << i]), first_difference(digests[full ^ (1 << i)],
                                                                                      digests[full])]
                     for i in range(k)]
            shapley: list[list[float | None]] | None = None
            if method != "none":
                values = {m: [fn(g) if g["winner"] is not None else None for fn in fns] for m, g in games.items()}
                shapley = [_shapley(values, i, k, method, weights, orders) for i in range(k)]
            row = {"a": games[0], "b": games[full], "alone": [games[1 << i] for i in range(k)],
                   "removed": [games[full ^ (1 << i)] for i in range(k)], "first": first, "shapley": shapley}
            if info.get("all"):  # every profile's game (--games-out), in the order of ``masks``
                row["all"] = summaries
            out.append(row)
    return out


def _shapley(values: dict[int, list[float | None]], i: int, k: int, method: str, weights: list[float],
             orders: list[tuple[int, ...]]) -> list[float | None]:
    """Change i's Shapley value of each metric in one game: its marginal effects v(S + i) - v(S), weighted over
    all subsets S without it (exact) or averaged over the sampled orders (S: the changes before i)."""
    bit = 1 << i
    if method == "exact":
        terms = [(weights[bin(s).count("1")], s) for s in range(1 << k) if not s & bit]
    else:
        prefixes = []
        for order in orders:
            mask = 0
            for j in order:
                if j == i:
                    break
                mask |= 1 << j
            prefixes.append(mask)
        terms = [(1 / len(orders), s) for s in prefixes]
    out: list[float | None] = []
    for m in range(len(values[0])):
        total = 0.0
        for w, s in terms:
            x, y = values[s][m], values[s | bit][m]
            if x is None or y is None:
                total = math.nan
                break
            total += w * (y - x)
        out.append(None if math.isnan(total) else total)
    return out


# ---------------------------------------------------------------------------------------------- the run


def explain(a: str, b: str, players: int, games: int, seed: int = 0, bots: list[str] | None = None,
            workers: int = 1, client: Any = None, groups: Sequence[Sequence[str]] = (),
            each_parameter: bool = False, permutations: int = PERMUTATIONS, exact_up_to: int = EXACT_UP_TO,
            metrics: Sequence[str] = DEFAULT_METRICS, progress: Callable[[int], None] | None = None,
            batch: int | None = None, resamples: int = 1000, the_plan: Plan | None = None,
            on_game: Callable[[list[dict[str, Any]]], None] | None = None) -> dict[str, Any]:
    """Take the difference from ``a`` to ``b`` apart (see the module's docstring) at one player count, for one
    line-up of bots. Plain data, ready for JSON; the same arguments give the same data, however the games were
    played. ``on_game``: called with every profile's summary of each game (``--games-out``), in the plan's order."""
    p = the_plan or plan(a, b, groups, each_parameter, permutations, exact_up_to, seed)
    labels = list(p.labels.values())
    bots = simulate.check_run(labels, players, games, bots or ["greedy"])
    table = game_metrics(players)
    check_metrics(metrics, players)
    if workers < 1:
        raise LvError(f"--workers {workers}: give at least 1")
    k, full = len(p.changes), p.full
    if batch is None:  # a task plays its games under every profile: about 200 games a task, so progress shows
        batch = max(1, min(25, games // (workers * 4), 200 // len(labels))) if client is None else 25
    info = {"k": k, "masks": list(p.labels), "method": p.method, "orders": [list(o) for o in p.orders],
            "all": on_game is not None}
    tasks = ({**task, "digests": True, "decisions": True, "explain": info}
             for task in simulate.batches(labels, players, games, seed, bots, None, batch))
    whole = Aggregate([a, b], players, table)
    alone = Aggregate([a] + [p.labels[1 << i] for i in range(k)], players, table)
    removed = [Aggregate([p.labels[full ^ (1 << i)], b], players, table) for i in range(k)]
    shares = [{m: Tally() for m in table} for _ in range(k)]
    interaction = [{m: Tally() for m in table} for _ in range(k)]
    firsts: list[list[Counter[int]]] = [[Counter(), Counter()] for _ in range(k)]
    examples: list[list[tuple[int, int] | None]] = [[None, None] for _ in range(k)]  # (game, first turn)
    winners = [[[0, 0], [0, 0]] for _ in range(k)]  # per change and side: [pairs both ended, winner changed]
    offered: dict[str, Counter[str]] = {label: Counter() for label in labels}  # kind -> decision points
    taken: dict[str, Counter[str]] = {label: Counter() for label in labels}
    fns = list(table.items())
    for results in simulate.run_batches(tasks, workers, client, explain_batch):
        for g in results:
            whole.add([g["a"], g["b"]])
            alone.add([g["a"], *g["alone"]])
            va = _values(g["a"], fns)
            vb = _values(g["b"], fns)
            for game in (g["a"], g["b"], *g["alone"], *g["removed"]):
                offered[game["profile"]].update(game.get("offered", {}))
                taken[game["profile"]].update(game.get("taken", {}))
            for i in range(k):
                removed[i].add([g["removed"][i], g["b"]])
                v_alone, v_removed = _values(g["alone"][i], fns), _values(g["removed"][i], fns)
                for m, _ in fns:
                    effect_alone = difference(va[m], v_alone[m])
                    effect_removed = difference(v_removed[m], vb[m])
                    interaction[i][m].add(difference(effect_alone, effect_removed))
                if g["shapley"] is not None:
                    for (m, _), v in zip(fns, g["shapley"][i]):
                        shares[i][m].add(v)
                for half, (x, y) in enumerate(((g["a"], g["alone"][i]), (g["removed"][i], g["b"]))):
                    turn = g["first"][i][half]
                    if turn is not None:
                        firsts[i][half][turn] += 1
                        if examples[i][half] is None:
                            examples[i][half] = (g["a"]["index"], turn)
                    if x["winner"] is not None and y["winner"] is not None:
                        winners[i][half][0] += 1
                        winners[i][half][1] += x["winner"] != y["winner"]
            if on_game is not None:
                on_game(g["all"])
        if progress:
            progress(len(results) * len(labels))
    whole_report = whole.report(seed, resamples)
    alone_report = alone.report(seed, resamples)
    out: dict[str, Any] = {
        "a": a, "b": b, "players": players, "games": games, "seed": seed, "bots": bots,
        "ranked_by": list(metrics),
        "shapley": cost_note(p, games),
        "metrics": whole_report["metrics"],
        "estimates": whole_report["estimates"],
        "whole": whole_report["differences"][f"{b} - {a}"],
        "decisions": {label: {"offered": dict(sorted(offered[label].items())),
                              "taken": dict(sorted(taken[label].items()))} for label in (a, b)},
        "changes": [],
    }
    out["metrics"]["winner_margin"] = table["winner_margin"][0]
    _refine(out["whole"], whole.diffs[b], f"{seed}/whole", metrics)
    pa, pb = load_profile(a), load_profile(b)
    va_all, vb_all = pa.values(), pb.values()
    for i, c in enumerate(p.changes):
        with_c, without_c = p.labels[1 << i], p.labels[full ^ (1 << i)]
        entry: dict[str, Any] = {
            "name": c.name, "title": c.title,
            "parameters": [{"key": key, "a": x, "b": y,
                            "a_source": pa.sources.get(key, "" if key in va_all else "not set: the default"),
                            "b_source": pb.sources.get(key, "" if key in vb_all else "not set: the default")}
                           for key, x, y in zip(c.keys, c.a, c.b)],
            "profiles": {"alone": with_c, "removed": without_c},
            "alone": alone_report["differences"][f"{with_c} - {a}"],
            "removed": removed[i].report(seed, resamples)["differences"][f"{b} - {without_c}"],
            "interaction": {m: t.estimate().to_dict() for m, t in interaction[i].items()},
            "shapley": ({m: t.estimate().to_dict() for m, t in shares[i].items()} if p.method != "none" else None),
            "mattered": {side: _mattered(firsts[i][s], games, examples[i][s])
                         for s, side in enumerate(("alone", "removed"))},
        }
        _refine(entry["alone"], alone.diffs[with_c], f"{seed}/{c.name}/alone", metrics)
        _refine(entry["removed"], removed[i].diffs[b], f"{seed}/{c.name}/removed", metrics)
        _refine(entry["interaction"], interaction[i], f"{seed}/{c.name}/interaction", metrics)
        if entry["shapley"] is not None:
            _refine(entry["shapley"], shares[i], f"{seed}/{c.name}/shapley", metrics)
        entry["interacts"] = [m for m, e in entry["interaction"].items()
                              if e["low"] is not None and (e["low"] > 0 or e["high"] < 0)]
        entry["outcome"] = {}
        entry["verdict"] = {}
        for s, (side, (x, y)) in enumerate((("alone", (a, with_c)), ("removed", (without_c, b)))):
            pairs, changed = winners[i][s]
            low, high = stats.clopper_pearson(changed, pairs)
            path = entry["mattered"][side]
            p_low, p_high = stats.clopper_pearson(path["changed"], games)
            entry["outcome"][side] = {
                "winner_changed": {"changed": changed, "pairs": pairs, "share": changed / pairs if pairs else None,
                                   "low": low if pairs else None, "high": high if pairs else None},
                "path_changed": {"changed": path["changed"], "pairs": games, "share": path["share"], "low": p_low,
                                 "high": p_high},
                "seats": {f"seat{n}": entry[side].get(f"win.seat{n}") for n in range(1, players + 1)},
            }
            entry["verdict"][side] = verdict(c, load_profile(x), load_profile(y), players, path["changed"], games,
                                             offered[x] + offered[y], taken[x] + taken[y], bots)
        entry["note"] = _matter_note(entry, games, pb)
        out["changes"].append(entry)
    if p.method != "none":
        out["shapley_sum"] = {m: _sum(e["shapley"][m]["mean"] for e in out["changes"]) for m in table}
    out["changes"] = _ranked(out["changes"], list(metrics))
    out["statistics"] = {m: holm_table(out, m) for m in metrics if m in table}
    return out


def report(a: str, b: str, players: Sequence[int], lineups: Sequence[list[str]], games: int, seed: int = 0,
           workers: int = 1, client: Any = None, groups: Sequence[Sequence[str]] = (), each_parameter: bool = False,
           permutations: int = PERMUTATIONS, exact_up_to: int = EXACT_UP_TO, metrics: Sequence[str] = DEFAULT_METRICS,
           progress: Callable[[int], None] | None = None, batch: int | None = None, resamples: int = 1000,
           the_plan: Plan | None = None, on_game: Callable[[int, list[str], list[dict[str, Any]]], None] | None = None
           ) -> dict[str, Any]:
    """The explanation at each player count and for each line-up of bots, side by side: a run of ``explain``
    per (count, line-up), the same seeds within a count, and a summary in plain words over them all
    (``summary``). ``on_game(players, bots, summaries)``: every profile's summary of each game (--games-out)."""
    if not players:
        raise LvError("--players: give at least one player count")
    if not lineups:
        raise LvError("--bot: give at least one line-up")
    if len(set(players)) != len(players):
        raise LvError(f"--players {','.join(map(str, players))}: each count once")
    p = the_plan or plan(a, b, groups, each_parameter, permutations, exact_up_to, seed)
    runs = []
    for n in players:
        for lineup in lineups:
            sink = None
            if on_game is not None:
                bots_now = lineup * n if len(lineup) == 1 else list(lineup)
                sink = (lambda n_, b_: lambda games_: on_game(n_, b_, games_))(n, bots_now)  # noqa: E731
            runs.append(explain(a, b, n, games, seed, list(lineup), workers, client, metrics=metrics,
                                progress=progress, batch=batch, resamples=resamples, the_plan=p, on_game=sink))
    out: dict[str, Any] = {"a": a, "b": b, "games": games, "seed": seed, "players": list(players),
                           "lineups": [r["bots"] for r in runs[:len(lineups)]], "ranked_by": list(metrics),
                           "shapley": runs[0]["shapley"], "runs": runs}
    out["summary"] = summary(out)
    return out


def game_row(summary: dict[str, Any], players: int, bots: Sequence[str], made: str, widest: int) -> dict[str, Any]:
    """One game under one profile of an explanation as a ``--games-out`` row: ``gamerows.row`` (the game, its
    seed, the profile's spec, how it ended, every per-game metric) with the player count, the line-up and the
    changes made from A (``made``: ``raise+lay_off``, ``(none)``); the per-player columns (``scores.1``...) run
    to ``widest`` players so that every row of a run of several counts has the same columns."""
    from .gamerows import row

    g = {k: v for k, v in summary.items() if k not in ("digests", "offered", "taken")}
    for key, value in g.items():
        if isinstance(value, list) and len(value) == players:
            g[key] = value + [None] * (widest - players)
    return row(g, {"players": players, "bots": ",".join(bots), "changes": made})


def run_title(run: dict[str, Any]) -> str:
    """``4 players, greedy`` (a line-up of one bot named once)."""
    bots = list(dict.fromkeys(run["bots"]))
    return f"{run['players']} players, {','.join(bots) if len(bots) == 1 else ','.join(run['bots'])}"


def category(e: dict[str, Any]) -> str:
    """A change's verdict over both sides: ``changed`` if it changed games either way, else the most telling of
    the two (cannot apply both ways, else not exercised on a side, else not reached)."""
    sides = [e["verdict"][s]["verdict"] for s in ("alone", "removed")]
    if "changed" in sides:
        return "changed"
    if sides == ["cannot_apply", "cannot_apply"]:
        return "cannot_apply"
    return "not_exercised" if "not_exercised" in sides else "not_reached"


def _reason(e: dict[str, Any], verdict_name: str) -> dict[str, Any]:
    return next(e["verdict"][s] for s in ("alone", "removed") if e["verdict"][s]["verdict"] == verdict_name)


def summary(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The report's opening in plain words, generated from the figures: per run, what the whole difference is
    and which change accounts for most of it, which change alters the winner most often, which changes cannot
    apply, were not exercised or were not reached, and what the run could detect. Each sentence names the rows
    that back it (``backed_by``: run, table, change, effect), and quotes their figures as the tables print them."""
    out: list[dict[str, Any]] = []
    several = len(result["runs"]) > 1
    for r_i, run in enumerate(result["runs"]):
        m = run["ranked_by"][0]
        head = f"At {run_title(run)}" if several else f"At {run['players']} players"
        what = run["metrics"].get(m, m)
        whole = interval(run["whole"][m], m)
        a, b = (run["a"], run["b"]) if len(run["a"]) <= 24 and len(run["b"]) <= 24 else ("A", "B")
        text = f"{head}, {b} - {a} changes {what} by {whole}"
        backed: list[dict[str, Any]] = [{"run": r_i, "table": m, "change": "(whole)", "effect": "whole"}]
        changed = [e for e in run["changes"] if category(e) == "changed"]
        if changed:
            top = changed[0]  # ranked by the first metric
            effect = "shapley" if top["shapley"] is not None else "alone"
            text += (f"; the {top['name']} change accounts for {interval(top[effect][m], m)} of it "
                     f"({'its Shapley share' if effect == 'shapley' else 'alone'})")
            backed.append({"run": r_i, "table": m, "change": top["name"], "effect": effect})
        out.append({"text": text + ".", "backed_by": backed})
        if changed:
            pairs = [(e, side) for e in changed for side in ("alone", "removed")]
            most, side = max(pairs, key=lambda x: x[0]["outcome"][x[1]]["winner_changed"]["share"] or 0)
            o = most["outcome"][side]
            if o["winner_changed"]["changed"]:
                out.append({"text": f"The {most['name']} change ({side}) changes the winner of "
                                    f"{share_text(o['winner_changed'])} of the games and the path of "
                                    f"{share_text(o['path_changed'])}.",
                            "backed_by": [{"run": r_i, "table": "outcome", "change": most["name"], "effect": side}]})
            else:
                out.append({"text": f"No change, alone or removed, changed the winner of any of the {run['games']} "
                                    f"games.",
                            "backed_by": [{"run": r_i, "table": "outcome", "change": e["name"]} for e in changed]})
        for verdict_name, words in (("cannot_apply", f"These changes cannot apply at {run['players']} players"),
                                    ("not_exercised", f"These were not exercised by these players "
                                                      f"({','.join(dict.fromkeys(run['bots']))})"),
                                    ("not_reached", f"These were not reached in {run['games']} games")):
            named = [e for e in run["changes"] if category(e) == verdict_name]
            if not named:
                continue
            if verdict_name == "not_reached":
                bound = _reason(named[0], "not_reached")["upper_bound"]
                parts = [e["name"] for e in named]
                tail = f" (each changes fewer than {_percent(bound)} of games, exact binomial bound, 95%)"
            else:
                parts = [f"{e['name']} ({_short_reason(_reason(e, verdict_name))})" for e in named]
                tail = ""
            out.append({"text": f"{words}: {', '.join(parts)}{tail}.",
                        "backed_by": [{"run": r_i, "table": "verdicts", "change": e["name"]} for e in named]})
        st = run["statistics"].get(m)
        if st:
            text = (f"Of the {st['intervals']} intervals of the {m} table, {st['holm']} survive Holm's correction "
                    f"({st['significant']} at p < 0.05 uncorrected)")
            if st["mde_alone"] is not None:
                text += (f"; with {run['games']} games an effect alone smaller than "
                         f"{_amount(st['mde_alone'], m)} is missed more than 20% of the time")
            out.append({"text": text + ".", "backed_by": [{"run": r_i, "table": m, "change": "(statistics)"}]})
    return out


def _short_reason(v: dict[str, Any]) -> str:
    if v["verdict"] == "cannot_apply":
        return str(v["why"])
    if v.get("offered"):
        return f"offered {v['offered']} times, never taken"
    return f"no player was offered a {v['decision']} decision"


def share_text(x: dict[str, Any]) -> str:
    """``28% [24%, 33%]``: a share of pairs with its exact 95% interval."""
    if x["share"] is None:
        return "-"
    return f"{100 * x['share']:.0f}% [{100 * x['low']:.0f}%, {100 * x['high']:.0f}%]"


def _amount(x: float, metric: str) -> str:
    return f"{100 * x:.1f} points" if _is_rate(metric) else f"{x:.2f}"


def _refine(estimates: dict[str, dict[str, Any]], tallies: dict[str, Tally], key: str,
            metrics: Sequence[str]) -> None:
    """Give each paired difference its p-value; where fewer than ``stats.SPARSE`` pairs differ (a change that
    altered few games), replace its t interval by the sparse one (``stats.sparse_interval``: a paired bootstrap,
    its p-value by sign flips) and say on how many pairs it rests (``sparse``: k)."""
    for m in metrics:
        e, t = estimates.get(m), tallies.get(m)
        if e is None or t is None or e.get("mean") is None:
            continue
        dist = t.distribution()
        values = stats.nonzero(dist) if dist is not None else None
        if values is not None and not values:  # no pair differs: nothing to test, the interval is [0, 0]
            e["p"] = None
        elif values is not None and len(values) < stats.SPARSE and t.n >= 2:
            low, high, p = stats.sparse_interval(values, t.n, random.Random(f"lv/{key}/{m}/sparse"))
            e.update({"low": low, "high": high, "p": p, "sparse": len(values), "method": "paired bootstrap"})
        else:
            e["p"] = stats.t_p_value(e["mean"], e["low"], e["high"], e["n"])


def holm_table(result: dict[str, Any], metric: str) -> dict[str, Any]:
    """The intervals one table reads (the whole difference, and each change's alone, removed and Shapley share),
    each marked ``holm`` when it survives Holm's correction over them all; the table's counts; and the minimum
    detectable effect (80% power, 5%) of the whole difference and, the median, of the changes' effects alone."""
    cells: list[dict[str, Any]] = [result["whole"][metric]]
    for e in result["changes"]:
        for side in ("alone", "removed", "shapley"):
            est = (e[side] or {}).get(metric)
            if est is not None:
                cells.append(est)
    pvalues = [c.get("p") for c in cells]
    for c, survives in zip(cells, stats.holm(pvalues)):
        c["holm"] = survives
    alone = sorted(x for x in (stats.mde(e["alone"][metric]["low"], e["alone"][metric]["high"],
                                         e["alone"][metric]["n"])
                               for e in result["changes"] if metric in e["alone"]
                               and not e["alone"][metric].get("sparse")) if x)
    w = result["whole"][metric]
    return {"intervals": sum(p is not None for p in pvalues), "significant": sum(p is not None and p < stats.ALPHA
                                                                               for p in pvalues),
            "holm": sum(c["holm"] for c in cells), "sparse": sum(bool(c.get("sparse") is not None) for c in cells),
            "mde_whole": stats.mde(w["low"], w["high"], w["n"]) if not w.get("sparse") else None,
            "mde_alone": alone[(len(alone) - 1) // 2] if alone else None}


def _kind_matches(decision: str, kind: str) -> bool:
    def norm(text: str) -> str:
        return text.lower().replace("_", "").replace("-", "")

    return norm(kind).startswith(norm(decision))


def decision_of(c: Change) -> str | None:
    """The kind of decision a change is about (``DECISIONS``, ``DECISION_OF_KEY``), or None (a rule no player
    decides: the scoring order, the instant win)."""
    if c.name in DECISIONS:
        return DECISIONS[c.name]
    kinds = {DECISION_OF_KEY.get(k, DECISION_OF_KEY.get(k.split(".", 1)[0])) for k in c.keys}
    kinds.discard(None)
    return sorted(k for k in kinds if k)[0] if kinds else None


VERDICTS = {"changed": "changed games", "cannot_apply": "cannot apply here", "not_exercised": "not exercised",
            "not_reached": "not reached"}


def verdict(c: Change, without: Profile, with_: Profile, players: int, changed: int, games: int,
            offered: Counter[str], taken: Counter[str], bots: Sequence[str]) -> dict[str, Any]:
    """Why a change did, or did not, change the games of one pair of profiles (``without`` and ``with_`` it):

    - ``changed``: it changed ``changed`` of the ``games`` pairs;
    - ``cannot_apply``: every parameter of it amounts to the same under both (``profile.AMOUNTS``: the rule is
      for other player counts, or the two values give the same amounts) or no rule reads it (``profile.UNREAD``);
    - ``not_exercised``: the decision it is about (``decision_of``) was offered to no player, or taken by none,
      in these games (``offered``, ``taken``: decision points per kind, over both profiles' games);
    - ``not_reached``: none of these, in ``games`` games: ``upper_bound`` is its rate's exact 95% upper bound."""
    out: dict[str, Any] = {"verdict": "changed", "changed": changed, "games": games}
    if changed:
        out["reason"] = f"changed {changed} of {games} games"
        return out
    reasons = []
    for key in c.keys:
        why = unread(without, key, players) if unread(with_, key, players) else None
        if why:
            reasons.append({"key": key, "kind": "unread", "text": f"{key}: {why}"})
            continue
        x, y = amount(without, key, players), amount(with_, key, players)
        if x is not None and y is not None and x[2] == y[2]:
            reasons.append({"key": key, "kind": x[0], "text": f"{key}: both values give the same {x[1]}"
                            if x[0] == "same" else f"{key}: {x[1]}"})
            continue
        break
    else:
        kinds = {r["kind"] for r in reasons}
        head = ("the rule is for other player counts" if "players" in kinds else
                "the two values give the same amounts" if "same" in kinds else "no rule reads it here")
        out.update({"verdict": "cannot_apply", "why": head, "reasons": reasons,
                    "reason": f"{head}: " + "; ".join(r["text"] for r in reasons)})
        return out
    decision = decision_of(c)
    if decision is not None:
        n_offered = sum(v for kind, v in offered.items() if _kind_matches(decision, kind))
        n_taken = sum(v for kind, v in taken.items() if _kind_matches(decision, kind))
        who = ",".join(dict.fromkeys(bots))
        if not n_offered or not n_taken:
            text = (f"no player was offered a {decision} decision in {games} games (bots: {who})" if not n_offered
                    else f"{decision} was offered {n_offered} times and no player took it in {games} games "
                         f"(bots: {who})")
            out.update({"verdict": "not_exercised", "decision": decision, "offered": n_offered, "taken": n_taken,
                        "bots": list(dict.fromkeys(bots)), "reason": text})
            return out
        out.update({"decision": decision, "offered": n_offered, "taken": n_taken})
    bound = stats.binomial_upper(0, games)
    out.update({"verdict": "not_reached", "upper_bound": bound,
                "reason": f"not reached in {games} games: it changes fewer than {_percent(bound)} of games "
                          f"(exact binomial bound, 95%)"})
    return out


def _percent(x: float) -> str:
    """A small share as a percentage with two significant figures (0.75%, 1.5%, 12%)."""
    value = 100 * x
    return f"{value:.2g}%" if value < 10 else f"{value:.0f}%"


def _values(g: dict[str, Any], fns: list[tuple[str, tuple[str, Metric]]]) -> dict[str, float | None]:
    ended = g["winner"] is not None
    return {m: fn(g) if ended else None for m, (_, fn) in fns}


def _sum(values: Iterable[float | None]) -> float | None:
    xs = list(values)
    return None if any(x is None for x in xs) else math.fsum(x for x in xs if x is not None)


def _mattered(turns: Counter[int], games: int, example: tuple[int, int] | None) -> dict[str, Any]:
    changed = sum(turns.values())
    median = None
    if changed:
        ordered = sorted(turns.elements())
        median = ordered[(changed - 1) // 2]  # the lower median: a turn that happened
    return {"games": games, "changed": changed, "share": changed / games, "median_first_turn": median,
            "example_game": example[0] if example else None, "example_turn": example[1] if example else None}


def _matter_note(entry: dict[str, Any], games: int, pb: Profile) -> str | None:
    """The verdict of a change that changed no game, alone or removed (``verdict``), in a sentence; None when
    it changed games both ways."""
    v = entry["verdict"]
    alone, removed = v["alone"], v["removed"]
    if alone["verdict"] == removed["verdict"] == "changed":
        return None
    label = {side: VERDICTS[v[side]["verdict"]] for side in ("alone", "removed")}
    if alone["verdict"] != "changed" and removed["verdict"] != "changed":
        if alone.get("reason") == removed.get("reason"):
            return f"{label['alone']} (alone and removed): {alone['reason']}"
        return f"alone {label['alone']}: {alone['reason']}; removed {label['removed']}: {removed['reason']}"
    if alone["verdict"] != "changed":
        return (f"alone {label['alone']}: {alone['reason']}; it works only with other changes (removed from "
                f"{pb.spec or pb.name} it changed {removed['changed']} of {games})")
    return (f"removed from {pb.spec or pb.name}, {label['removed']}: {removed['reason']}; other changes make it "
            f"moot (alone it changed {alone['changed']} of {games})")


def _ranked(entries: list[dict[str, Any]], metrics: list[str]) -> list[dict[str, Any]]:
    """By the size of the change's effect on the first metric named: its Shapley share, else its effect alone."""
    m = metrics[0]

    def size(e: dict[str, Any]) -> float:
        est = e["shapley"][m] if e["shapley"] is not None and m in e["shapley"] else e["alone"][m]
        return -abs(est["mean"]) if est["mean"] is not None else 0.0

    ranked = sorted(entries, key=size)
    for n, e in enumerate(ranked, start=1):
        e["rank"] = n
    return ranked


def cost(a: str, b: str, games: int, runs: int = 1, groups: Sequence[Sequence[str]] = (),
         each_parameter: bool = False, permutations: int = PERMUTATIONS, exact_up_to: int = EXACT_UP_TO,
         seed: int = 0) -> dict[str, Any]:
    """What a run costs, before any planning: the changes (two profiles loaded), the profiles a run of one
    player count and line-up plays, and the games over ``runs`` such runs. Sampled orders are counted when that
    is quick, else bounded (``exact``: false). ``note``: a sentence for the user, printed first."""
    if not 0 <= permutations <= MAX_PERMUTATIONS:
        raise LvError(f"--permutations {permutations}: give 0 (no Shapley shares) to {MAX_PERMUTATIONS:,}")
    if not 0 <= exact_up_to <= MAX_EXACT:
        raise LvError(f"--exact-up-to {exact_up_to}: give 0 (always sample) to {MAX_EXACT}")
    found = changes(load_profile(a), load_profile(b), groups, each_parameter)
    if not found:
        raise LvError(f"{a} and {b} have the same parameters: nothing to explain")
    k = len(found)
    singles = len({0, (1 << k) - 1} | {1 << i for i in range(k)} | {((1 << k) - 1) ^ (1 << i) for i in range(k)})
    exact = True
    if permutations == 0:
        n, how = singles, "no Shapley shares"
    elif k <= exact_up_to:
        n, how = 1 << k, f"exact Shapley shares (2^{k})"
    elif permutations * k <= 20_000:  # quick: the very orders the plan samples
        n, how = len(_sampled_subsets(k, permutations, seed)[0]), f"{permutations} sampled orders"
    else:
        n, how, exact = min(1 << k, singles + permutations * (k - 1)), f"{permutations:,} sampled orders", False
    total = n * games * runs
    about = "" if exact else "at most "
    note = (f"{k} change{'' if k == 1 else 's'}, {how}: {about}{n:,} profiles x {games:,} games"
            + (f" x {runs} runs (player counts and line-ups)" if runs > 1 else "") + f" = {about}{total:,} games")
    return {"changes": k, "profiles": n, "exact": exact, "runs": runs, "games": total, "note": note}


def _sampled_subsets(k: int, permutations: int, seed: int) -> tuple[set[int], list[tuple[int, ...]]]:
    """The subsets the sampled orders visit (with the empty and full sets, each change alone and removed) and the
    orders: an order and its reverse, drawn from a generator seeded by the run's seed and k."""
    full = (1 << k) - 1
    subsets = {0, full} | {1 << i for i in range(k)} | {full ^ (1 << i) for i in range(k)}
    rng = random.Random(f"lv/{seed}/shapley/{k}")
    orders: list[tuple[int, ...]] = []
    while len(orders) < permutations:
        order = tuple(rng.sample(range(k), k))
        orders += [order, order[::-1]][: permutations - len(orders)]
    for order in orders:
        mask = 0
        for i in order:
            mask |= 1 << i
            subsets.add(mask)
    return subsets, orders


def cost_note(p: Plan, games: int) -> dict[str, Any]:
    """How the Shapley shares are found (or that they are not) and what that costs: the profiles and games played;
    ``note`` says it in a sentence that stands alone."""
    k = len(p.changes)
    n = len(p.labels)
    out: dict[str, Any] = {"method": p.method, "changes": k, "profiles": n, "games_played": n * games}
    if p.method == "exact":
        out["note"] = (f"Shapley shares exact: every subset of the {k} change{'' if k == 1 else 's'} played (2^{k} = {n} "
                       f"profiles), {n * games:,} games")
    elif p.method == "sampled":
        out["permutations"] = len(p.orders)
        out["note"] = (f"Shapley shares sampled: {len(p.orders)} orders of the {k} changes (each with its reverse); exact "
                       f"would need 2^{k} = {1 << k:,} profiles; {n} profiles played, {n * games:,} games. "
                       f"The intervals cover the games' noise, not the choice of orders")
    else:
        out["note"] = f"no Shapley shares (--permutations 0): {n} profiles, {n * games:,} games"
    return out


# ---------------------------------------------------------------------------------------------- examples


def save_examples(result: dict[str, Any], folder: str) -> list[dict[str, Any]]:
    """Play again, for each change that mattered, the first game in which it did (alone if it did alone, else
    removed) under both profiles of the pair, and save the two records in ``folder/NN-NAME/``: ``without.yaml``
    and ``with.yaml``. ``lv diff without.yaml -v WITH`` and ``lv view without.yaml --diff WITH`` show what the
    change does to the decisions of the game without it; where the change altered what the bots chose rather
    than what a decision does, they find no divergence, and the two records show the two games from the turn
    where they part (``turn``). The entries also go into ``result`` (``example``)."""
    out = []
    top = make_folder(folder)  # the user's folder, made if missing (its parent must exist)
    for n, e in enumerate(sorted(result["changes"], key=lambda e: e["rank"]), start=1):
        side = "alone" if e["mattered"]["alone"]["example_game"] is not None else "removed"
        index = e["mattered"][side]["example_game"]
        if index is None:
            e["example"] = None
            continue
        spec_with = e["profiles"]["alone"] if side == "alone" else result["b"]
        spec_without = result["a"] if side == "alone" else e["profiles"]["removed"]
        where = make_folder(top / f"{n:02d}-{simulate.slug(e['name'])}", named_by_user=False)
        files = {}
        for key, spec in (("without", spec_without), ("with", spec_with)):
            path = str(where / f"{key}.yaml")
            simulate.play_unit(simulate.Unit(index, simulate.game_seed(result["seed"], index), spec,
                                             result["players"], tuple(result["bots"]), path))
            files[key] = path
        e["example"] = {"game": index, "pair": side, "turn": e["mattered"][side]["example_turn"],
                        "without": files["without"], "with": files["with"],
                        "with_profile": spec_with, "without_profile": spec_without,
                        "diff": f"lv diff {shlex.quote(files['without'])} -v {shlex.quote(spec_with)}",
                        "view": f"lv view {shlex.quote(files['without'])} --diff {shlex.quote(spec_with)} "
                                f"-o {shlex.quote(str(where / 'diff.html'))}"}
        out.append(e["example"])
    return out


def write_example_pages(result: dict[str, Any]) -> list[str]:
    """``lv view --diff`` of each saved example pair, beside its records (``diff.html``): what the report links."""
    from .files import write_atomic
    from .record import load_record
    from .view import page

    written = []
    for e in result["changes"]:
        ex = e.get("example")
        if not ex:
            continue
        path = str(Path(ex["without"]).parent / "diff.html")
        write_atomic(path, page(load_record(ex["without"]), ex["with_profile"]))
        ex["page"] = path
        written.append(path)
    return written


# ---------------------------------------------------------------------------------------------- presenting


def _is_rate(metric: str) -> bool:
    return metric in SHARES or metric.startswith("win.")


def interval(e: dict[str, Any] | None, metric: str) -> str:
    """``+1.23 [+0.50,+1.96]``: rates and shares in percentage points, amounts with 2 decimals (1 from 10)."""
    if e is None or e["mean"] is None:
        return "-"
    scale = 100.0 if _is_rate(metric) else 1.0
    xs = [x * scale for x in (e["mean"], e["low"], e["high"]) if x is not None]
    top = max(abs(x) for x in xs)
    digits = 1 if _is_rate(metric) or top >= 10 else 2 if top < 100 else 0
    text = f"{e['mean'] * scale:+.{digits}f}"
    if e["low"] is not None:
        text += f" [{e['low'] * scale:+.{digits}f},{e['high'] * scale:+.{digits}f}]"
    return text


def _wrap(text: str, width: int, indent: str = "", first: str = "") -> list[str]:
    return textwrap.wrap(text, width=width, initial_indent=first or indent, subsequent_indent=indent,
                         break_long_words=True, break_on_hyphens=False) or [first.rstrip()]


SIDE_NOTE = ("Each change's Shapley share of {m} (else its effect alone) where it changed games, and w: the share "
             "of the games whose winner it changed alone; else its verdict.")
_SHORT = {"cannot_apply": "cannot apply", "not_exercised": "not exercised", "not_reached": "not reached"}


def single(run: dict[str, Any]) -> dict[str, Any]:
    """One run of ``explain`` as a report of one run (what ``report`` gives for one count and line-up)."""
    rep = {"a": run["a"], "b": run["b"], "games": run["games"], "seed": run["seed"], "players": [run["players"]],
           "lineups": [run["bots"]], "ranked_by": run["ranked_by"], "shapley": run["shapley"], "runs": [run]}
    rep["summary"] = summary(rep)
    return rep


def side_by_side(rep: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """The runs side by side: a row per change (in the first run's order), a column per run (``SIDE_NOTE``)."""
    m = rep["ranked_by"][0]
    runs = rep["runs"]
    head = ["change"] + [run_title(r) for r in runs]
    rows = []
    for e0 in runs[0]["changes"]:
        row = [e0["name"]]
        for r in runs:
            e = next(x for x in r["changes"] if x["name"] == e0["name"])
            cat = category(e)
            if cat != "changed":
                row.append(_SHORT[cat])
                continue
            est = e["shapley"][m] if e["shapley"] is not None else e["alone"][m]
            wc = e["outcome"]["alone"]["winner_changed"]
            mean = interval({"mean": est["mean"], "low": None, "high": None}, m)
            row.append(f"{mean}{marks(est)} w{_pct(wc)}")
        rows.append(row)
    return head, rows


def lines(result: dict[str, Any], width: int = 80, citations: bool = True) -> list[str]:
    """The report for people (``report``, or one run of ``explain``): the summary in plain words, the runs side
    by side, then each run's tables. Every line fits ``width`` (at least 60)."""
    width = max(60, width)
    rep = result if "runs" in result else single(result)
    runs = rep["runs"]
    out = _wrap(f"lv explain {rep['a']} -> {rep['b']}: {', '.join(run_title(r) for r in runs)}; {rep['games']} "
                f"paired games, seed {rep['seed']}", width)
    if len(rep["a"]) > 24 or len(rep["b"]) > 24:  # long specs are named once, then called A and B
        out += _wrap(f"(A = {rep['a']}, B = {rep['b']})", width)
    out += ["", "Summary:"]
    for x in rep["summary"]:
        out += _wrap(x["text"], width, "    ", "  - ")
    if len(runs) > 1:
        head, rows = side_by_side(rep)
        out += [""] + _wrap("Side by side. " + SIDE_NOTE.format(m=rep["ranked_by"][0]), width)
        name_w = min(16, max(len(r[0]) for r in rows))
        cell_w = max(10, (width - name_w - 1) // (len(head) - 1) - 1)
        titles = head[1:]
        for n, t in enumerate(titles):  # long titles are numbered, then named below the table
            if len(t) > cell_w:
                titles[n] = f"({n + 1})"
        out.append(f"{'change':<{name_w}} " + " ".join(f"{t[:cell_w]:<{cell_w}}" for t in titles).rstrip())
        for row in rows:
            name = row[0]
            if len(name) > name_w:
                out.append(name)
                name = ""
            out.append(f"{name:<{name_w}} " + " ".join(f"{c:<{cell_w}}" for c in row[1:]).rstrip())
        for n, t in enumerate(head[1:]):
            if titles[n] != t:
                out += _wrap(f"({n + 1}) {t}", width, "    ", "  ")
    for n, run in enumerate(runs):
        out += ["", "=" * min(width, 8) + f" {run_title(run)}"]
        out += run_lines(run, width, citations and n == 0)
    return out


def run_lines(result: dict[str, Any], width: int = 80, citations: bool = True) -> list[str]:
    """One run's report: the changes with their citations, a table per ranked metric (alone, removed, Shapley
    share, with Holm marks and power), the outcome changes, then whether each change mattered and the verdict
    on each that did not. Every line fits ``width`` (at least 60)."""
    width = max(60, width)
    a, b = result["a"], result["b"]
    entries = result["changes"]
    count = f"{len(entries)} change{'' if len(entries) == 1 else 's'}"
    out = _wrap(f"lv explain {a} -> {b}: {count}; {result['players']} players, {result['games']} "
                f"paired games, seed {result['seed']}, bots {','.join(result['bots'])}", width)
    if len(a) > 24 or len(b) > 24:  # long specs are named once, then called A and B
        out += _wrap(f"(A = {a}, B = {b})", width)
        a, b = "A", "B"
    out += _wrap(f"{result['shapley']['note']}.", width)
    out += ["", "The changes, with the citations of each side:"]
    for e in entries:
        out += _wrap(e["name"] if e["title"] == e["name"] else f"{e['name']}: {e['title']}", width, "    ", "  ")
        for prm in e["parameters"]:
            out += _wrap(f"{prm['key']}: {value_text(prm['a'])} -> {value_text(prm['b'])}", width, "      ",
                         "    ")
            if citations:
                out += _wrap(f"{a}: {prm['a_source']}", width, "        ", "      ")
                out += _wrap(f"{b}: {prm['b_source']}", width, "        ", "      ")
    name_w = min(16, max(len(e["name"]) for e in entries))
    cell_w = (width - name_w - 1) // 3 - 1
    for m in result["ranked_by"]:
        rate = _is_rate(m)
        out += [""]
        out += _wrap(f"{m}: {result['metrics'].get(m, m)}" + (" (percentage points)" if rate else ""), width)
        whole = interval(result["whole"][m], m)
        total = result.get("shapley_sum", {}).get(m)
        out += _wrap(f"{b} - {a}: {whole}" + (f"; the Shapley shares add up to "
                                                f"{interval({'mean': total, 'low': None, 'high': None}, m)}"
                                                if total is not None else ""), width, "  ", "  ")
        out.append(f"{'change':<{name_w}} {'alone':<{cell_w}} {'removed':<{cell_w}} {'Shapley share':<{cell_w}}"
                   .rstrip())
        for e in entries:
            share = e["shapley"][m] if e["shapley"] is not None and m in e["shapley"] else None
            cells = [interval(e["alone"].get(m), m) + marks(e["alone"].get(m)) + ("*" if m in e["interacts"] else ""),
                     interval(e["removed"].get(m), m) + marks(e["removed"].get(m)),
                     interval(share, m) + marks(share)]
            name = e["name"]
            if len(name) > name_w:
                out.append(name)
                name = ""
            row = f"{name:<{name_w}} " + " ".join(f"{c:<{cell_w}}" for c in cells).rstrip()
            if len(row) > width:  # a cell wider than its column (intervals of a few games): a line each
                if name:
                    out.append(name)
                row = "\n".join(f"{'':<{name_w}} {head}: {c}" for head, c in
                                 zip(("alone", "removed", "Shapley share"), cells))
            out.extend(row.split("\n"))
        starred = [e for e in entries if m in e["interacts"]]
        if starred:
            out += _wrap("* alone and removed differ (the change interacts with others): " + "; ".join(
                f"{e['name']} {interval(e['interaction'][m], m)}" for e in starred), width, "  ", "")
        st = result.get("statistics", {}).get(m)
        if st:
            out += _wrap(statistics_note(st, result["games"], m), width, "  ", "  ")
    if entries and "outcome" in entries[0]:
        out += [""]
        out += _wrap("Outcome: the share of the paired games whose winner changed, beside the share whose path "
                     "changed at all (exact 95% intervals), alone and removed:", width)
        out.append(f"{'change':<{name_w}} {'winner alone':<{cell_w}} {'winner removed':<{cell_w}} path alone/removed"
                   .rstrip())
        for e in entries:
            o = e["outcome"]
            cells = [share_text(o["alone"]["winner_changed"]), share_text(o["removed"]["winner_changed"]),
                     f"{_pct(o['alone']['path_changed'])} / {_pct(o['removed']['path_changed'])}"]
            name = e["name"]
            if len(name) > name_w:
                out.append(name)
                name = ""
            out.append(f"{name:<{name_w}} " + " ".join(f"{c:<{cell_w}}" for c in cells).rstrip())
        seats = result["players"]
        out += [""] + _wrap("Each seat's win-rate change alone (percentage points, seat 1 took the first turn):",
                            width)
        seat_w = max(6, (width - name_w - 1) // seats - 1)
        out.append(f"{'change':<{name_w}} " + " ".join(f"{'seat ' + str(n):<{seat_w}}" for n in range(1, seats + 1))
                   .rstrip())
        for e in entries:
            cells = [_mean_pp(e["outcome"]["alone"]["seats"].get(f"seat{n}")) for n in range(1, seats + 1)]
            name = e["name"]
            if len(name) > name_w:
                out.append(name)
                name = ""
            out.append(f"{name:<{name_w}} " + " ".join(f"{c:<{seat_w}}" for c in cells).rstrip())
    out += [""]
    out += _wrap("Did each change matter? The share of the paired games it changed at all, and the turn where "
                 "they first differed (median; 0: the setup); below, the verdict on each that did not:", width)
    out.append(f"{'change':<{name_w}} {'alone':<{cell_w}} removed")
    for e in entries:
        cells = []
        for side in ("alone", "removed"):
            d = e["mattered"][side]
            cell = f"{100 * d['share']:.0f}% of {d['games']}"
            if d["median_first_turn"] is not None:
                cell += f" (turn {d['median_first_turn']})"
            cells.append(cell)
        name = e["name"]
        if len(name) > name_w:
            out.append(name)
            name = ""
        out.append(f"{name:<{name_w}} " + " ".join(f"{c:<{cell_w}}" for c in cells).rstrip())
    for e in entries:
        if e["note"]:
            out += _wrap(f"{e['name']}: {e['note']}.", width, "    ", "  ")
    shown = [e for e in entries if e.get("example")]
    if shown:
        out += [""] + _wrap("An example pair per change (the first game it changed), as records:", width)
        for e in shown:
            ex = e["example"]
            out += _wrap(f"{e['name']}: game {ex['game']} ({ex['pair']}), the games part at {_step(ex['turn'])}: "
                         f"{ex['diff']}", width, "    ", "  ")
    return out


def marks(e: dict[str, Any] | None) -> str:
    """``#`` an interval that survives Holm's correction over its table, ``~`` a sparse one (few pairs)."""
    if not e:
        return ""
    return ("#" if e.get("holm") else "") + ("~" if e.get("sparse") is not None else "")


def statistics_note(st: dict[str, Any], games: int, metric: str) -> str:
    """The table's line on multiplicity, sparse data and power."""
    text = (f"{st['intervals']} intervals read, {st['significant']} at p < 0.05; # survives Holm's correction over "
            f"them ({st['holm']})")
    if st["sparse"]:
        text += (f"; ~ rests on fewer than {stats.SPARSE} changed pairs: a paired bootstrap interval ({st['sparse']}"
                 f"; JSON 'sparse': the pairs)")
    if st["mde_alone"] is not None:
        text += (f". Power: with {games} games an effect alone under {_amount(st['mde_alone'], metric)} (median of "
                 f"the changes) is detected less than 80% of the time")
        if st["mde_whole"] is not None:
            text += f"; B - A under {_amount(st['mde_whole'], metric)}"
    elif st["mde_whole"] is not None:
        text += (f". Power: with {games} games a difference B - A under {_amount(st['mde_whole'], metric)} is "
                 f"detected less than 80% of the time")
    else:
        text += (f". Power: every effect here rests on fewer than {stats.SPARSE} changed pairs; play more games to "
                 f"say what the run could detect")
    return text + "."


def _pct(x: dict[str, Any]) -> str:
    return "-" if x["share"] is None else f"{100 * x['share']:.0f}%"


def _mean_pp(e: dict[str, Any] | None) -> str:
    return "-" if not e or e["mean"] is None else f"{100 * e['mean']:+.1f}"


def _step(turn: int) -> str:
    return "the setup" if turn == 0 else f"turn {turn}"


CSV_HEADER = ["players", "bots", "change", "effect", "metric", "mean", "low", "high", "n", "p", "holm", "sparse",
              "verdict"]


def csv_rows(result: dict[str, Any]) -> list[list[Any]]:
    """Long form: one row per (run, change, effect, metric); a run is a player count (``players``) and line-up
    (``bots``). ``effect`` is alone, removed, interaction, shapley, or for the change ``(whole)`` the whole
    difference B - A, each with its p-value, ``holm`` (survives Holm's correction over its table) and ``sparse``
    (the pairs a sparse interval rests on); ``changed_alone`` and ``changed_removed`` give the share of the games
    the change changed (n: the games) and ``verdict`` the verdict on that side (changed, cannot_apply,
    not_exercised, not_reached); ``winner_changed_alone`` and ``_removed`` the share of the pairs whose winner
    changed (n: the pairs where both games ended) with its exact interval. ``result``: a ``report`` or a run."""
    rep = result if "runs" in result else single(result)
    rows: list[list[Any]] = [list(CSV_HEADER)]
    for run in rep["runs"]:
        lead = [run["players"], ",".join(run["bots"])]

        def est(change: str, effect: str, m: str, e: dict[str, Any]) -> list[Any]:
            return [*lead, change, effect, m, e["mean"], e["low"], e["high"], e["n"], e.get("p", ""),
                    "" if "holm" not in e else e["holm"], "" if e.get("sparse") is None else e["sparse"], ""]

        for m, e in run["whole"].items():
            rows.append(est("(whole)", "whole", m, e))
        for c in run["changes"]:
            for effect in ("alone", "removed", "interaction", "shapley"):
                for m, e in (c[effect] or {}).items():
                    rows.append(est(c["name"], effect, m, e))
            for side in ("alone", "removed"):
                d = c["mattered"][side]
                rows.append([*lead, c["name"], f"changed_{side}", "", d["share"], "", "", d["games"], "", "", "",
                             c["verdict"][side]["verdict"]])
                w = c["outcome"][side]["winner_changed"]
                rows.append([*lead, c["name"], f"winner_changed_{side}", "", w["share"], w["low"], w["high"],
                             w["pairs"], "", "", "", ""])
    return rows


# ---------------------------------------------------------------------------------------------- the HTML page

_SIDES = (("alone", "#1f77b4"), ("removed", "#ff7f0e"), ("shapley", "#2b2b2b"))


def _forest_svg(result: dict[str, Any], metric: str) -> str:
    """A forest plot of one metric as inline SVG: a row per change, its effect alone, removed and its Shapley
    share, each with its 95% interval, against 0."""
    entries = result["changes"]
    scale = 100.0 if _is_rate(metric) else 1.0
    points: list[tuple[int, int, str, float, float, float]] = []
    for row, e in enumerate(entries):
        for k, (side, colour) in enumerate(_SIDES):
            est = (e[side] or {}).get(metric)
            if est is None or est["mean"] is None:
                continue
            lo = est["low"] if est["low"] is not None else est["mean"]
            hi = est["high"] if est["high"] is not None else est["mean"]
            points.append((row, k, colour, est["mean"] * scale, lo * scale, hi * scale))
    xs = [0.0] + [x for p in points for x in p[3:]]
    left, right = min(xs), max(xs)
    if right - left < 1e-9:
        left, right = left - 1, right + 1
    pad = (right - left) * 0.05
    left, right = left - pad, right + pad
    w, label_w, row_h = 720, 150, 30
    h = 30 + row_h * len(entries)

    def x(v: float) -> float:
        return label_w + (v - left) / (right - left) * (w - label_w - 20)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
             f'font-family="sans-serif" font-size="12">',
             f'<line x1="{x(0):.1f}" y1="5" x2="{x(0):.1f}" y2="{h - 20}" stroke="#888"/>',
             f'<text x="{x(left):.1f}" y="{h - 5}">{left:+.3g}</text>',
             f'<text x="{x(right):.1f}" y="{h - 5}" text-anchor="end">{right:+.3g}</text>']
    for row, e in enumerate(entries):
        parts.append(f'<text x="4" y="{20 + row * row_h}">{_esc(e["name"][:22])}</text>')
    for row, k, colour, mean, lo, hi in points:
        y = 12 + row * row_h + k * 7
        parts.append(f'<line x1="{x(lo):.1f}" y1="{y}" x2="{x(hi):.1f}" y2="{y}" stroke="{colour}"/>'
                     f'<circle cx="{x(mean):.1f}" cy="{y}" r="3" fill="{colour}"/>')
    parts.append("</svg>")
    return "".join(parts)


def _esc(text: object) -> str:
    from html import escape

    return escape(str(text))


def _run_html(result: dict[str, Any], here: str, prefix: str = "", changes_table: bool = True) -> list[str]:
    """One run's sections of the page; ids start with ``prefix``; the changes' table with the first run only."""
    import os

    entries = result["changes"]
    body: list[str] = []
    if changes_table:
        body.append("<h2>The changes</h2><table><tr><th>change</th><th>parameter</th><th>A</th><th>B</th>"
                    "<th>citations</th></tr>")
    for e in entries if changes_table else []:
        for n, prm in enumerate(e["parameters"]):
            head = (f'<td rowspan="{len(e["parameters"])}" id="change-{_esc(e["name"])}"><b>{_esc(e["name"])}</b>'
                    f'<br><small>{_esc(e["title"])}</small></td>') if n == 0 else ""
            body.append(f"<tr>{head}<td>{_esc(prm['key'])}</td><td>{_esc(value_text(prm['a']))}</td>"
                        f"<td>{_esc(value_text(prm['b']))}</td><td><small>A: {_esc(prm['a_source'])}<br>"
                        f"B: {_esc(prm['b_source'])}</small></td></tr>")
    if changes_table:
        body.append("</table>")
    for m in result["ranked_by"]:
        unit = " (percentage points)" if _is_rate(m) else ""
        total = result.get("shapley_sum", {}).get(m)
        body.append(f"<h3 id=\"{prefix}{_esc(m)}\">{_esc(m)}</h3><p>{_esc(result['metrics'].get(m, m))}{unit}. B - A: "
                    f"<b>{_esc(interval(result['whole'][m], m))}</b>"
                    + (f"; the Shapley shares add up to {_esc(interval({'mean': total, 'low': None, 'high': None}, m))}"
                       if total is not None else "") + "</p>")
        body.append("<table><tr><th>change</th><th>alone (A + change - A)</th><th>removed (B - (B - change))</th>"
                    "<th>Shapley share</th><th>interaction (removed - alone)</th></tr>")
        for e in entries:
            share = e["shapley"][m] if e["shapley"] is not None and m in e["shapley"] else None
            flag = " <b>interacts</b>" if m in e["interacts"] else ""
            body.append(f"<tr><td><a href=\"#change-{_esc(e['name'])}\">{_esc(e['name'])}</a></td>"
                        f"<td>{_esc(interval(e['alone'].get(m), m) + marks(e['alone'].get(m)))}</td>"
                        f"<td>{_esc(interval(e['removed'].get(m), m) + marks(e['removed'].get(m)))}</td>"
                        f"<td>{_esc(interval(share, m) + marks(share))}</td>"
                        f"<td>{_esc(interval(e['interaction'].get(m), m))}{flag}</td></tr>")
        body.append("</table>")
        st = result.get("statistics", {}).get(m)
        if st:
            body.append(f"<p class=\"meta\">{_esc(statistics_note(st, result['games'], m))}</p>")
        body.append(f"<p class=\"meta\">Mean and 95% interval: <span style=\"color:#1f77b4\">alone</span>, "
                    f"<span style=\"color:#ff7f0e\">removed</span>, Shapley share.</p>{_forest_svg(result, m)}")
    body.append("<h3>Outcome</h3><p>The share of the paired games whose winner changed, beside the share whose "
                "path changed at all (exact 95% intervals); each seat's win-rate change alone (percentage points, "
                "seat 1 took the first turn).</p><table><tr><th>change</th><th>winner changed alone</th>"
                "<th>removed</th><th>path changed alone</th><th>removed</th>"
                + "".join(f"<th>seat {n}</th>" for n in range(1, result["players"] + 1)) + "</tr>")
    for e in entries:
        o = e["outcome"]
        body.append(f"<tr><td>{_esc(e['name'])}</td>"
                    + "".join(f"<td>{_esc(share_text(o[side][key]))}</td>" for key in ("winner_changed",
                                                                                         "path_changed")
                              for side in ("alone", "removed"))
                    + "".join(f"<td>{_esc(interval(o['alone']['seats'].get(f'seat{n}'), 'win.seat'))}</td>"
                              for n in range(1, result["players"] + 1)) + "</tr>")
    body.append("</table>")
    body.append("<h3>Did each change matter?</h3><p>The share of the paired games it changed at all, and the turn "
                "where they first differed (median; 0: the setup); the verdict on each that changed none: "
                "<i>cannot apply here</i>, <i>not exercised</i> by these players, or <i>not reached</i> in these "
                "games.</p><table><tr><th>change</th><th>alone</th><th>removed</th><th>verdict</th>"
                "<th>example pair</th></tr>")
    for e in entries:
        cells = []
        for side in ("alone", "removed"):
            d = e["mattered"][side]
            turn = f" (turn {d['median_first_turn']})" if d["median_first_turn"] is not None else ""
            cells.append(f"{100 * d['share']:.0f}% of {d['games']}{turn}")
        ex = e.get("example")
        link = ""
        if ex:
            target = ex.get("page")
            text = f"game {ex['game']} ({ex['pair']}), the games part at {_step(ex['turn'])}"
            at = f"#turn={ex['turn']}" if ex["turn"] else ""
            link = (f'<a href="{_esc(os.path.relpath(os.path.abspath(target), here) + at)}">{_esc(text)}</a>'
                    if target else _esc(text))
            link += f"<br><small><code>{_esc(ex['diff'])}</code></small>"
        body.append(f"<tr><td>{_esc(e['name'])}</td><td>{cells[0]}</td><td>{cells[1]}</td>"
                    f"<td><b>{_esc(VERDICTS[category(e)])}</b> {_esc(e['note'] or '')}</td><td>{link}</td></tr>")
    body.append("</table>")
    return body


def html_page(result: dict[str, Any], path: str | None = None) -> str:
    """The report as one self-contained page in the style of ``lv view``: the summary in plain words, the
    changes with their citations, the runs side by side, then per run (player count and line-up) per ranked
    metric a table with its Holm marks and power and a forest plot, the outcome changes, whether each change
    mattered with its verdict, and a link to each change's example pair (``write_example_pages``, relative to
    ``path``, the page's own file). ``result``: a ``report`` or one run of ``explain``."""
    import os

    from .view import CSS

    rep = result if "runs" in result else single(result)
    a, b = rep["a"], rep["b"]
    runs = rep["runs"]
    here = os.path.dirname(os.path.abspath(path)) if path else os.getcwd()
    body = [f"<header><h1>Which rule does what</h1><p class=\"meta\">A = {_esc(a)} · B = {_esc(b)} · "
            f"{_esc(', '.join(run_title(r) for r in runs))} · {rep['games']} paired games · seed {rep['seed']}</p>"
            f"<p class=\"meta\">{_esc(rep['shapley']['note'])}.</p></header>"]
    body.append("<h2 id=\"summary\">Summary</h2><ul>" + "".join(f"<li>{_esc(x['text'])}</li>"
                                                                for x in rep["summary"]) + "</ul>")
    if len(runs) > 1:
        head, rows = side_by_side(rep)
        body.append(f"<h2>Side by side</h2><p>{_esc(SIDE_NOTE.format(m=rep['ranked_by'][0]))}</p><table><tr>"
                    + "".join(f"<th>{_esc(h)}</th>" for h in head) + "</tr>"
                    + "".join("<tr>" + "".join(f"<td>{_esc(c)}</td>" for c in row) + "</tr>" for row in rows)
                    + "</table>")
    for n, run in enumerate(runs):
        body.append(f"<h2 id=\"run-{n}\">{_esc(run_title(run))}</h2>")
        body += _run_html(run, here, f"run{n}-", changes_table=n == 0)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_esc(f"lv explain {a} -> {b}")}</title>
<style>{CSS}</style></head>
<body class="one">
{"".join(body)}
</body></html>
"""

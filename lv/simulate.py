"""Paired self-play across rule profiles: many games, each an independent unit (seed in, summary out).

Game i of a run with seed S is played with the game seed ``S * 1_000_000 + i`` under every profile: the same
deck, the same starting roll, the same generated dice for the same step of the game, and bots whose generators
are seeded from (game seed, seat). So the games of a pair differ only where the rules make them differ, and the
differences between profiles are measured game by game (paired), which needs far fewer games than comparing
two independent samples.

A ``Unit`` is plain data and ``play_unit`` a pure function of it: the units can be played in any order, in this
process, in a pool of processes (``run(workers=W)``, results identical to a serial run since they are put back
in unit order), or handed to a distributed engine (docs/simulation.md says how).
"""

from __future__ import annotations

import functools
import re
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Callable, Iterable

import attrs

from . import bots as B
from .errors import LvError
from .game import new_game
from .metrics import compare, summarize
from .profile import Profile, load_profile
from .record import record_of, dumps, write_atomic

MAX_GAMES = 1_000_000


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` in a run seeded ``seed`` (``lv selfplay --seed`` plays it again)."""
    return seed * MAX_GAMES + index


@attrs.frozen
class Unit:
    """One game to play: everything it needs, as plain data."""

    index: int  # the game's number in the run (paired across profiles)
    seed: int  # the game seed
    profile: str  # a profile spec
    players: int
    bots: tuple[str, ...]  # a bot spec per player, in seating order
    save: str | None = None  # write the game's record here (lv-game/1)

    def to_dict(self) -> dict[str, Any]:
        return attrs.asdict(self)


def units(profiles: list[str], players: int, games: int, seed: int, bots: list[str],
          save_dir: str | None = None) -> list[Unit]:
    """The units of a paired run: game i of every profile shares its seed. Ordered by profile, then game."""
    if not 1 <= games <= MAX_GAMES:
        raise LvError(f"--games {games}: give 1 to {MAX_GAMES}")
    if len(bots) == 1:
        bots = bots * players
    if len(bots) != players:
        raise LvError(f"--bot: give one bot for all players or one per player ({players}), not {len(bots)}")
    for b in bots:
        B.bot_named(b)
    for p in profiles:
        profile = _profile(p)
        if not profile.players.min <= players <= profile.players.max:
            raise LvError(f"--players {players}: profile '{p}' allows {profile.players.min} to "
                          f"{profile.players.max}")
    out = []
    for p in profiles:
        for i in range(games):
            save = str(Path(save_dir) / slug(p) / f"game-{i + 1:05d}.yaml") if save_dir else None
            out.append(Unit(i, game_seed(seed, i), p, players, tuple(bots), save))
    return out


def slug(spec: str) -> str:
    """A profile spec as a folder name: ``revised,raise.cost_per_space=10`` stays readable."""
    return re.sub(r"[^A-Za-z0-9.,+=_-]", "_", spec)


@functools.lru_cache(maxsize=64)
def _profile(spec: str) -> Profile:
    """Profiles are frozen: each process loads a spec once."""
    return load_profile(spec)


def play_unit(unit: Unit | dict) -> dict[str, Any]:
    """Play one game to its end: its summary (metrics.summarize) with the unit's index, seed and profile."""
    if isinstance(unit, dict):
        unit = Unit(**{**unit, "bots": tuple(unit["bots"])})
    game = new_game(_profile(unit.profile), unit.players, unit.seed)
    legal_counts: list[int] = []
    B.play(game, [B.bot_named(b) for b in unit.bots], unit.seed, legal_counts=legal_counts)
    if unit.save:
        Path(unit.save).parent.mkdir(parents=True, exist_ok=True)
        comment = (f"lv simulate: game {unit.index + 1}, seed {unit.seed}, bots {','.join(unit.bots)}")
        write_atomic(unit.save, dumps(record_of(game, unit.profile, comment=comment)))
    return {"index": unit.index, "seed": unit.seed, "profile": unit.profile, **summarize(game, legal_counts)}


def run(todo: list[Unit], workers: int = 1, progress: Callable[[int], None] | None = None) -> list[dict]:
    """Play the units, in this process or ``workers`` processes; the summaries come back in unit order, so a
    parallel run gives exactly what a serial run gives. ``progress(k)`` is told of every k games done."""
    if workers < 1:
        raise LvError(f"--workers {workers}: give at least 1")
    if workers == 1 or len(todo) < 2:
        results: Iterable[dict] = map(play_unit, todo)
        return _collect(results, progress)
    chunk = max(1, min(50, len(todo) // (workers * 8)))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return _collect(pool.map(play_unit, todo, chunksize=chunk), progress)


def _collect(results: Iterable[dict], progress) -> list[dict]:
    out = []
    for r in results:
        out.append(r)
        if progress:
            progress(1)
    return out


def sweep_profiles(variants: list[str], setting: str | None) -> list[str]:
    """``--set key=v1,v2,v3``: each variant with each value, in that order; without it, the variants."""
    if not setting:
        return list(variants)
    key, eq, values = setting.partition("=")
    vals = [v.strip() for v in values.split(",") if v.strip()]
    if not eq or not key.strip() or not vals:
        raise LvError(f"--set {setting!r}: give one parameter and its values, e.g. raise.cost_per_space=10,15,20")
    return [f"{v},{key.strip()}={val}" for v in variants for val in vals]


def simulate(profiles: list[str], players: int, games: int, seed: int = 0, bots: list[str] | None = None,
             workers: int = 1, save_dir: str | None = None, progress: Callable[[int], None] | None = None,
             resamples: int = 1000) -> dict[str, Any]:
    """Play ``games`` paired games under each profile and compare them (metrics.compare). Plain data."""
    if not profiles:
        raise LvError("give at least one --variant")
    if len(set(profiles)) != len(profiles):
        raise LvError(f"--variant: each profile once ({', '.join(profiles)})")
    bots = bots or ["greedy"]
    todo = units(profiles, players, games, seed, bots, save_dir)
    results = run(todo, workers, progress)
    by_profile: dict[str, list[dict]] = {p: [] for p in profiles}
    for r in results:
        by_profile[r["profile"]].append(r)
    out = {"players": players, "games": games, "seed": seed, "bots": list(todo[0].bots), "profiles": profiles}
    out.update(compare(profiles, by_profile, players, seed, resamples))
    return out


# ---------------------------------------------------------------------------------------------- presenting

SWEEP_COLUMNS = ("turns", "winner_score", "score_spread", "instant_win", "advantage_p1", "balance", "lead_change",
                 "largest_casino")


def cell(e: dict, metric: str) -> str:
    """``31.2 [30.9, 31.5]``: the mean and its 95% interval."""
    if e["mean"] is None:
        return "-"
    digits = 3 if metric in ("end_card", "instant_win", "lead_change", "balance", "advantage_p1", "decisiveness") \
        or metric.startswith("win.") else 2
    text = f"{e['mean']:.{digits}f}"
    if e["low"] is not None:
        text += f" [{e['low']:.{digits}f}, {e['high']:.{digits}f}]"
    return text


def shown_metrics(result: dict) -> list[str]:
    """The metrics a table shows: all but the per-player win rates, which only matter when the bots differ."""
    mixed = len(set(result["bots"])) > 1
    return [m for m in result["metrics"] if mixed or not m.startswith("win.player")]


def comparison_rows(result: dict) -> tuple[list[str], list[list[str]]]:
    """A row per metric: each profile's estimate, then each paired difference against the first profile."""
    header = ["metric"] + result["profiles"] + list(result["differences"])
    rows = []
    for m in shown_metrics(result):
        rows.append([m] + [cell(result["estimates"][p][m], m) for p in result["profiles"]]
                    + [cell(d[m], m) for d in result["differences"].values()])
    return header, rows


def sweep_rows(result: dict, setting: str) -> tuple[list[str], list[list[str]]]:
    """A row per value of the swept parameter (per variant and value), the main metrics as columns."""
    key = setting.partition("=")[0].strip()
    variants = {p.rpartition(f",{key}=")[0] for p in result["profiles"]}
    header = [key] + list(SWEEP_COLUMNS)
    rows = []
    for p in result["profiles"]:
        variant, _, value = p.rpartition(f",{key}=")
        label = value if len(variants) == 1 else f"{variant} {value}"
        rows.append([label] + [cell(result["estimates"][p][m], m) for m in SWEEP_COLUMNS])
    return header, rows


def csv_rows(result: dict) -> list[list[Any]]:
    """Long form: one row per (profile or difference, metric)."""
    rows: list[list[Any]] = [["profile", "metric", "mean", "low", "high", "n"]]
    for name, table in list(result["estimates"].items()) + list(result["differences"].items()):
        for m, e in table.items():
            rows.append([name, m, e["mean"], e["low"], e["high"], e["n"]])
    return rows

"""Paired self-play across rule profiles: many games, each an independent unit (seed in, summary out).

Game i of a run with seed S is played with the game seed ``S * 1_000_000 + i`` under every profile: the same
deck, the same starting roll, the same generated dice for the same step of the game, and bots whose generators
are seeded from (game seed, seat). So the games of a pair differ only where the rules make them differ, and the
differences between profiles are measured game by game (paired), which needs far fewer games than comparing
two independent samples.

The games are played in tasks (``batches``: plain dicts carrying the resolved profiles, ``play_batch`` a pure
function of one) in this process, in a pool of processes or on Dask (``run_batches``); the results are taken in
task order and summed up as they come (``metrics.Aggregate``), so every way gives the same report, byte for byte,
and the parent never holds the games. ``Unit``/``play_unit`` play one game.
"""

from __future__ import annotations

import functools
import gc
import hashlib
import itertools
import json
import math
import os
import re
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, TypeVar

import attrs

from . import bots as B
from . import progress
from .diff import turn_digests
from .errors import LvError
from .game import new_game
from .collector import fewer_collections
from .metrics import Aggregate, summarize
from .profile import Profile, _split_spec, from_values, load_profile, parameter_names, parse_value, unread
from .files import is_yaml, make_folder, write_atomic
from .record import dumps, record_of

MAX_GAMES = 1_000_000
T = TypeVar("T")


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


def check_run(profiles: list[str], players: int, games: int, bots: list[str]) -> list[str]:
    """Refuse a run that cannot be played, in one line; the bots, one per player."""
    if not profiles:
        raise LvError("give at least one --variant")
    if len(set(profiles)) != len(profiles):
        raise LvError(f"--variant: each profile once ({', '.join(profiles)})")
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
    return list(bots)


def units(profiles: list[str], players: int, games: int, seed: int, bots: list[str],
          save_dir: str | None = None) -> list[Unit]:
    """The units of a paired run: game i of every profile shares its seed. Ordered by profile, then game."""
    bots = check_run(profiles, players, games, bots)
    folders = folder_names(profiles)
    out = []
    for p in profiles:
        for i in range(games):
            # game-NNNNN is game NNNNN of the run, seed SEED*1000000+NNNNN: the number is the seed's tail
            save = str(Path(save_dir) / folders[p] / f"game-{i:05d}.yaml") if save_dir else None
            out.append(Unit(i, game_seed(seed, i), p, players, tuple(bots), save))
    return out


def slug(spec: str) -> str:
    """A profile spec as a folder name: ``revised,raise.cost_per_space=10`` stays readable, a .yaml file is
    named by its stem (``../my.yaml`` -> ``my``), other characters become ``_``, and the name never starts with a
    dot (a hidden folder) or a dash. Two specs of one run that would share a name are told apart by
    ``folder_names``."""
    head, sep, rest = spec.partition(",")
    parts = [Path(n.strip()).stem if is_yaml(n.strip()) else n.strip()
             for n in head.split("+")]
    text = re.sub(r"[^A-Za-z0-9.,+=_-]", "_", "+".join(parts) + sep + rest)[:80]
    return text.lstrip("._-") or "profile"


def folder_names(specs: list[str]) -> dict[str, str]:
    """Each spec's ``--save-dir`` folder: its slug, and where two specs share a slug (``F?`` and ``F_``, or
    ``Revised`` and ``revised`` on a disk that ignores case) the first 8 hex digits of the spec's SHA-256 after it,
    so different specs never share a folder."""
    names = {spec: slug(spec) for spec in specs}
    count: dict[str, int] = {}
    for name in names.values():
        count[name.lower()] = count.get(name.lower(), 0) + 1
    return {spec: name if count[name.lower()] == 1 else
            f"{name}-{hashlib.sha256(spec.encode('utf-8', 'surrogatepass')).hexdigest()[:8]}"
            for spec, name in names.items()}


def check_save_dir(save_dir: str, profiles: list[str], games: int, overwrite: bool = False) -> None:
    """Before any game: ``save_dir`` made if missing (its parent must exist), no profile folder in it a link, and
    no record of an earlier run that this one would replace unless ``overwrite`` (records are games: replaced only
    when asked, as ``lv new --force``)."""
    try:
        folder = make_folder(save_dir)
    except LvError as exc:
        raise LvError(f"--save-dir {exc}") from None
    for name in folder_names(profiles).values():
        sub = folder / name
        if sub.is_symlink():
            raise LvError(f"--save-dir {sub}: a symbolic link: lv writes only into folders it makes itself there")
        if not overwrite and sub.is_dir():
            for i in range(games):
                if os.path.lexists(sub / f"game-{i:05d}.yaml"):
                    raise LvError(f"--save-dir {sub / f'game-{i:05d}.yaml'}: the file exists, a game of an earlier "
                                  "run (use --force to replace them, or another folder)")


def cpu_count() -> int:
    """The CPUs this process may run on (its affinity where the system has one)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


@functools.lru_cache(maxsize=64)
def _profile(spec: str) -> Profile:
    """Profiles are frozen: each process loads a spec once."""
    return load_profile(spec)


def play_unit(unit: Unit | dict[str, Any]) -> dict[str, Any]:
    """Play one game to its end: its summary (metrics.summarize) with the unit's index, seed and profile."""
    if isinstance(unit, dict):
        unit = Unit(**{**unit, "bots": tuple(unit["bots"])})
    return _play(_profile(unit.profile), unit.profile, unit.index, unit.seed, unit.players, unit.bots, unit.save)


def _counting(bot: B.Bot, offered: dict[str, int], taken: dict[str, int]) -> B.Bot:
    """``bot``, counting at each of its decision points the kinds of decision offered (each kind once a point)
    and the kind it took: what ``lv explain`` reads to tell a rule no player was asked about ("not
    exercised"). The bot chooses as it would: the same draws from its generator."""

    def counted(game: Any, legal: Any, rng: Any) -> Any:
        for kind in {a.kind for a in legal}:
            offered[kind] = offered.get(kind, 0) + 1
        decision = bot(game, legal, rng)
        taken[decision.kind] = taken.get(decision.kind, 0) + 1
        return decision

    return counted


def _play(profile: Profile, label: str, index: int, seed: int, players: int, bots: Iterable[str],
          save: str | None, digests: bool = False, decisions: bool = False) -> dict[str, Any]:
    """One game's summary; ``digests``: with its per-turn digests; ``decisions``: with the kinds of decision
    offered and taken (``offered``, ``taken``: kind -> decision points, over every player)."""
    # no record kept and no digests: the events only a record or the narrative reads are not made
    game = new_game(profile, players, seed, quiet=not save and not digests)
    bots = tuple(bots)
    legal_counts: list[int] = []  # the legal decisions at each decision point: the branching factor
    offered: dict[str, int] = {}
    taken: dict[str, int] = {}
    players_ = [B.bot_named(b) for b in bots]
    if decisions:
        players_ = [_counting(b, offered, taken) for b in players_]
    if progress.listening():  # each decision ticks the run's progress (a searched one takes seconds)
        players_ = [b if b is B.uniform_bot else progress.counted(b) for b in players_]
    B.play(game, players_, seed, legal_counts=legal_counts)
    progress.tick(games=1, finished_decisions=len(legal_counts))
    if save:
        make_folder(Path(save).parent, named_by_user=False)
        comment = f"lv simulate: game {index}, seed {seed}, bots {','.join(bots)}"
        write_atomic(save, dumps(record_of(game, label, comment=comment)), follow=False)
    out = {"index": index, "seed": seed, "profile": label, **summarize(game, legal_counts)}
    if digests:  # to tell whether two games of a pair differ at all, and from which turn (diff.turn_digests)
        out["digests"] = turn_digests(game)
    if decisions:
        out["offered"], out["taken"] = dict(sorted(offered.items())), dict(sorted(taken.items()))
    return out


# ---------------------------------------------------------------------------------------------- tasks

DEFAULT_BATCH = 200


def batches(profiles: list[str], players: int, games: int, seed: int, bots: list[str],
            save_dir: str | None = None, size: int = DEFAULT_BATCH) -> Iterator[dict[str, Any]]:
    """The run as tasks, made one at a time: each a plain dict (JSON) playing games ``start`` to ``stop`` - 1
    under every profile. A task carries each profile's resolved parameters, not its spec or file, so whoever
    plays it needs no profile files."""
    if size < 1:
        raise LvError(f"--batch {size}: give at least 1")
    resolved = {}
    for p in profiles:
        prof = _profile(p)
        resolved[p] = {"name": prof.name, "title": prof.title, "values": prof.values()}
    folders = folder_names(profiles) if save_dir else None
    for start in range(0, games, size):
        yield {"profiles": resolved, "players": players, "bots": list(bots), "seed": seed, "start": start,
               "stop": min(games, start + size), "save_dir": save_dir, "folders": folders}


# the profiles of the last task played in this process, by (label, name, title, values): the next task of the
# same run plays under the very same objects (their prepared tables, ``actions.tables_for``, shared), however
# many profiles the run has; a task of another run releases them (their tables go with them)
_KEPT: dict[tuple[str, str, str, str], Profile] = {}


def task_profiles(task: dict[str, Any]) -> dict[str, Profile]:
    """Each profile of a task (``batches``) by its label, resolved from its values, shared with the last task."""
    global _KEPT
    keys = {label: (label, p["name"], p["title"], json.dumps(p["values"], sort_keys=True))
            for label, p in task["profiles"].items()}
    kept = {key: _KEPT.get(key) or from_values(json.loads(key[3]), key[1], key[2], key[0]) for key in keys.values()}
    _KEPT = kept
    return {label: kept[key] for label, key in keys.items()}


def resolved(p: dict[str, Any]) -> Profile:
    """One resolved profile of a task (``{name, title, values, label}``, as ``lv.ladder`` and ``lv.balance`` send
    them), shared with the last task as ``task_profiles`` shares them."""
    return task_profiles({"profiles": {p["label"]: p}})[p["label"]]


def play_batch(task: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """Play a task of ``batches``: for each game, its summary under every profile (in the task's order). The
    collector runs less often for the whole task: put back after each game, its threshold set off a collection."""
    with fewer_collections():
        return list(play_games(task))


def play_games(task: dict[str, Any]) -> Iterator[list[dict[str, Any]]]:
    """``play_batch`` one game at a time: each game's summaries under every profile, as they are played. A task
    with ``"digests": true`` adds to each summary the game's per-turn digests (``diff.turn_digests``)."""
    profiles = task_profiles(task)
    save_dir, folders = task.get("save_dir"), task.get("folders") or {}
    digests = bool(task.get("digests"))
    decisions = bool(task.get("decisions"))
    for i in range(task["start"], task["stop"]):
        seed = game_seed(task["seed"], i)
        # game-NNNNN is game NNNNN of the run, seed SEED*1000000+NNNNN: the number is the seed's tail
        yield [_play(profile, label, i, seed, task["players"], task["bots"],
                     str(Path(save_dir) / folders.get(label, slug(label)) / f"game-{i:05d}.yaml")
                     if save_dir else None, digests, decisions)
               for label, profile in profiles.items()]


def _in_order(submit: Callable[[dict[str, Any]], Any], tasks: Iterable[dict[str, Any]], window: int) -> Iterator[Any]:
    """Submit tasks keeping at most ``window`` in flight and yield their results in task order (whatever order
    they finish in), so that only the window is ever held."""
    pending: deque[Any] = deque()
    for task in tasks:
        pending.append(submit(task))
        if len(pending) >= window:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


def run_batches(tasks: Iterable[dict[str, Any]], workers: int = 1, client: Any = None,
                play: Callable[[dict[str, Any]], T] = play_batch) -> Iterator[T]:  # type: ignore[assignment]
    """Play the tasks in this process, in ``workers`` processes, or on a Dask cluster (``client``, a
    ``dask.distributed.Client``); the results come in task order, so every way gives the same. ``play``: what
    plays a task (a module-level function, so that a worker can import it; default ``play_batch``)."""
    if client is not None:
        window = 2 * max(1, len(client.scheduler_info().get("workers", {}))) + 2
        yield from _in_order(lambda t: client.submit(play, t, pure=False), tasks, window)
    elif workers <= 1:
        yield from map(play, tasks)
    else:
        with ProcessPoolExecutor(max_workers=workers, initializer=progress.share,
                                 initargs=(progress.shared(),)) as pool:  # the games tick the run's progress
            yield from _in_order(lambda t: pool.submit(play, t), tasks, 2 * workers + 2)


def dask_client(scheduler: str | None = None, workers: int = 1) -> Any:
    """A Dask client: to the scheduler at ``scheduler``, else to a new local cluster of ``workers`` processes.
    Needs the ``dask`` extra.

    The local cluster speaks TLS with a key and certificate made for this run only
    (``Security.temporary()``): its scheduler, workers and client all need that certificate, so another account on
    the machine cannot connect to the ports it listens on and run code as this one (a plain tcp:// cluster on
    127.0.0.1 lets it); and it serves no HTTP (lv/cluster.py). A ``scheduler`` address is used as given, with the credentials in Dask's configuration
    (``distributed.comm.tls.*``, docs/simulation.md): ``tls://`` needs them, ``tcp://`` has no authentication."""
    try:
        from dask.distributed import Client, Security
    except ImportError:
        raise LvError("--cluster dask needs Dask: pip install 'lv[dask]'") from None
    if scheduler:
        try:
            return Client(scheduler, timeout="10s")  # type: ignore[no-untyped-call]
        except TypeError:  # distributed's way of saying a tls:// address came without an SSL context
            problem = ("no TLS credentials; set distributed.comm.tls.ca-file, .client.cert and .client.key in "
                       "Dask's configuration (docs/simulation.md)")
        except (OSError, TimeoutError, ValueError) as exc:
            problem = f"cannot reach it ({exc})"
        # the refused client is left in reference cycles, and its ``__del__`` closes it, which takes distributed's
        # loop lock: collected later, inside another client's start (which holds that lock), it would hang that
        # start for ever. Collected here, where no lock is held.
        gc.collect()
        raise LvError(f"--scheduler {scheduler}: {problem}")
    try:
        security = Security.temporary()  # type: ignore[no-untyped-call]
    except ImportError:
        raise LvError("--cluster dask needs the cryptography package for its TLS credentials: "
                      "pip install 'lv[dask]'") from None
    from .cluster import local_cluster

    return Client(local_cluster(workers, security), security=security)  # type: ignore[no-untyped-call]


def play(profiles: list[str], players: int, games: int, seed: int = 0, bots: list[str] | None = None,
         workers: int = 1, save_dir: str | None = None, progress: Callable[[int], None] | None = None,
         on_game: Callable[[list[dict[str, Any]]], None] | None = None, batch: int | None = None,
         client: Any = None, overwrite: bool = False, unchanged: Unchanged | None = None) -> Aggregate:
    """Play ``games`` paired games under each profile, summing them up as they come (metrics.Aggregate): the
    parent keeps running sums, never the list of games. ``on_game`` sees each game's summaries (one per
    profile) in game order, whatever order they were played in; ``progress(k)`` is told of every k games.
    ``overwrite``: the records of an earlier run in ``save_dir`` may be replaced (else refused before any game).
    ``unchanged`` (a sweep's ``Unchanged``) is shown every game, to tell which swept values changed nothing."""
    if workers < 1:
        raise LvError(f"--workers {workers}: give at least 1")
    bots = check_run(profiles, players, games, bots or ["greedy"])
    if save_dir:
        check_save_dir(save_dir, profiles, games, overwrite)
    if batch is None:
        batch = DEFAULT_BATCH if client is not None else max(1, min(DEFAULT_BATCH, games // (workers * 4)))
    agg = Aggregate(profiles, players)
    tasks = batches(profiles, players, games, seed, bots, save_dir, batch)
    if unchanged is not None:
        tasks = ({**task, "digests": True} for task in tasks)
    for results in run_batches(tasks, workers, client, play_batch):
        for pair in results:
            if unchanged is not None:
                unchanged.add(pair)
            agg.add(pair)
            if on_game:
                on_game(pair)
        if progress:
            progress(len(results) * len(profiles))
    return agg


def report(agg: Aggregate, seed: int, bots: list[str], resamples: int = 1000,
           sweep: Grid | None = None) -> dict[str, Any]:
    """What a run says, as plain data (``lv simulate --json``); a sweep adds its parameters' values last."""
    out = {"players": agg.players, "games": agg.games, "seed": seed, "bots": bots, "profiles": agg.profiles}
    out.update(agg.report(seed, resamples))
    if sweep is not None and sweep.keys:
        out["sweep"] = sweep.to_dict()
    return out


def simulate(profiles: list[str], players: int, games: int, seed: int = 0, bots: list[str] | None = None,
             workers: int = 1, save_dir: str | None = None, progress: Callable[[int], None] | None = None,
             resamples: int = 1000, batch: int | None = None, client: Any = None) -> dict[str, Any]:
    """Play ``games`` paired games under each profile and compare them (metrics.Aggregate). Plain data."""
    bots = check_run(profiles, players, games, bots or ["greedy"])
    agg = play(profiles, players, games, seed, bots, workers, save_dir, progress, batch=batch, client=client)
    return report(agg, seed, bots, resamples)


# ---------------------------------------------------------------------------------------------- sweeps


@attrs.frozen
class Grid:
    """A sweep: each variant with every combination of several parameters' values. ``profiles`` maps each
    combination's profile spec (``revised,raise.cost_per_space=10,gamble.bet_per_tile=4``) to its variant and
    its values, read as YAML (``10`` a number)."""

    keys: tuple[str, ...]
    profiles: dict[str, dict[str, Any]]  # label -> {"variant": ..., key: value, ...}

    def labels(self) -> list[str]:
        return list(self.profiles)

    def to_dict(self) -> dict[str, Any]:
        return {"keys": list(self.keys), "profiles": self.profiles}


MAX_GRID = 1000  # profiles in one run (variants times the combinations of --set) unless --force-grid


def grid(variants: list[str], settings: list[str] | str | None, limit: int | None = MAX_GRID) -> Grid:
    """``--set key=v1,v2 --set other=a,b``: each variant with every combination of the values (their product),
    in the order given; without any, the variants. An unknown or repeated parameter is refused, and so is a grid
    of more than ``limit`` profiles (None: no limit), counted before any is built: each is a profile loaded and
    games played."""
    if isinstance(settings, str):
        settings = [settings]
    settings = list(settings or [])
    if not settings:
        return Grid((), {v: {"variant": v} for v in variants})
    keys: list[str] = []
    choices: list[list[str]] = []
    known = parameter_names()
    for setting in settings:
        key, eq, values = setting.partition("=")
        key = key.strip()
        texts = [v.strip() for v in _split_spec(values) if v.strip()]
        if not eq or not key or not texts:
            raise LvError(f"--set {setting!r}: give a parameter and its values, e.g. raise.cost_per_space=10,15,20")
        if key not in known:
            hint = f"lv variants show {variants[0]}" if variants else "lv variants show PROFILE"
            raise LvError(f"--set {key}: unknown parameter (see '{hint}')")
        if key in keys:
            raise LvError(f"--set {key}: given twice; give its values once, comma-separated")
        keys.append(key)
        choices.append(texts)
    size = len(variants) * math.prod(len(c) for c in choices)
    if limit is not None and size > limit:
        counts = " x ".join([f"{len(variants)} variant{'s' if len(variants) != 1 else ''}"]
                            + [f"{len(c)} {k}" for k, c in zip(keys, choices)])
        raise LvError(f"--set: {size:,} profiles ({counts}); a run takes at most {limit:,}: give fewer values, "
                      "or --force-grid to play them all")
    profiles: dict[str, dict[str, Any]] = {}
    for v in variants:
        for combo in itertools.product(*choices):
            label = ",".join([v] + [f"{k}={t}" for k, t in zip(keys, combo)])
            profiles[label] = {"variant": v, **{k: parse_value(t) for k, t in zip(keys, combo)}}
    return Grid(tuple(keys), profiles)


def sweep_profiles(variants: list[str], settings: list[str] | str | None) -> list[str]:
    """The profile specs of a sweep (``grid``): each variant with each combination of values."""
    return grid(variants, settings).labels()


def unread_warnings(sweep: Grid, players: int) -> list[str]:
    """A line for each swept parameter that no rule of a profile reads (its values give the same games there)."""
    out = []
    for key in sweep.keys:
        for label, row in sweep.profiles.items():
            why = unread(_profile(label), key, players)
            if why:
                out.append(f"--set {key}: no rule of '{row['variant']}' reads it in {players}-player games ({why}); "
                           f"its values give the same games")
                break
    return out


class Unchanged:
    """Which swept values changed no game (``lv simulate --set``): for each combination of a sweep, each swept
    value is compared, game by game, with the key's first value, the rest of the combination the same. A value
    whose games are all the same as the first value's (every draw, decision and event: ``diff.turn_digests``)
    never mattered in the games played, whatever the metrics say."""

    def __init__(self, sweep: Grid) -> None:
        self.sweep = sweep
        self.games = 0
        # (key, label, the label with the key at its first value): still the same in every game so far?
        self.same: dict[tuple[str, str, str], bool] = {}
        by_values = {json.dumps(row, sort_keys=True): label for label, row in sweep.profiles.items()}
        for key in sweep.keys:
            first = next(iter(sweep.profiles.values()))[key]
            for label, row in sweep.profiles.items():
                if row[key] != first:
                    self.same[(key, label, by_values[json.dumps({**row, key: first}, sort_keys=True)])] = True

    def add(self, games: list[dict[str, Any]]) -> None:
        """One game index's summaries, one per profile of the sweep in order, each with its ``digests`` (taken out
        here, so that what follows sees the summaries it always saw)."""
        digests = {g["profile"]: g.pop("digests") for g in games}
        self.games += 1
        for (key, label, other), same in self.same.items():
            if same and digests[label] != digests[other]:
                self.same[(key, label, other)] = False

    def warnings(self) -> list[str]:
        """A line for each variant and swept value that changed no game (under every combination of the other
        swept values)."""
        first = next(iter(self.sweep.profiles.values()))
        verdict: dict[tuple[str, str, str], bool] = {}
        for (key, label, _), same in self.same.items():
            row = self.sweep.profiles[label]
            where = (key, row["variant"], _text(row[key]))
            verdict[where] = verdict.get(where, True) and same
        return [f"--set {key}={value}: never mattered in {self.games} games under '{variant}': every game is the "
                f"same as with {key}={_text(first[key])}"
                for (key, variant, value), same in verdict.items() if same]


def _text(value: Any) -> str:
    """A swept value as --set takes it (YAML): ``true``, ``[3, 4]``, ``boss_option``."""
    return value if isinstance(value, str) else json.dumps(value)


# ---------------------------------------------------------------------------------------------- presenting

SWEEP_COLUMNS = ("turns", "winner_score", "score_spread", "instant_win", "advantage_p1", "balance", "lead_change",
                 "largest_casino")


def cell(e: dict[str, Any], metric: str) -> str:
    """``31.2 [30.9, 31.5]``: the mean and its 95% interval."""
    if e["mean"] is None:
        return "-"
    digits = 3 if metric in ("end_card", "instant_win", "lead_change", "balance", "advantage_p1", "decisiveness") \
        or metric.startswith("win.") else 2
    text = f"{e['mean']:.{digits}f}"
    if e["low"] is not None:
        text += f" [{e['low']:.{digits}f}, {e['high']:.{digits}f}]"
    return text


def shown_metrics(result: dict[str, Any]) -> list[str]:
    """The metrics a table shows: all but the per-player win rates, which only matter when the bots differ."""
    mixed = len(set(result["bots"])) > 1
    return [m for m in result["metrics"] if mixed or not m.startswith("win.player")]


def comparison_rows(result: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """A row per metric: each profile's estimate, then each paired difference against the first profile."""
    header = ["metric"] + result["profiles"] + list(result["differences"])
    rows = []
    for m in shown_metrics(result):
        rows.append([m] + [cell(result["estimates"][p][m], m) for p in result["profiles"]]
                    + [cell(d[m], m) for d in result["differences"].values()])
    return header, rows


def sweep_rows(result: dict[str, Any]) -> tuple[list[str], list[list[Any]]]:
    """A row per combination of the swept values (per variant, when there are several), the main metrics as
    columns."""
    sweep = result["sweep"]
    keys = sweep["keys"]
    several = len({row["variant"] for row in sweep["profiles"].values()}) > 1
    header = (["variant"] if several else []) + keys + list(SWEEP_COLUMNS)
    rows = []
    for p in result["profiles"]:
        values = sweep["profiles"][p]
        rows.append(([values["variant"]] if several else []) + [values[k] for k in keys]
                    + [cell(result["estimates"][p][m], m) for m in SWEEP_COLUMNS])
    return header, rows


def csv_rows(result: dict[str, Any]) -> list[list[Any]]:
    """Long form: one row per (profile or difference, metric); a sweep adds its variant and swept values after
    the profile (empty on the rows of differences)."""
    sweep = result.get("sweep")
    extra = ["variant"] + sweep["keys"] if sweep else []
    rows: list[list[Any]] = [["profile"] + extra + ["metric", "mean", "low", "high", "n"]]
    for name, table in list(result["estimates"].items()) + list(result["differences"].items()):
        values = sweep["profiles"].get(name, {}) if sweep else {}
        for m, e in table.items():
            rows.append([name] + [values.get(k, "") for k in extra] + [m, e["mean"], e["low"], e["high"], e["n"]])
    return rows

"""Shared fixtures: profiles, a small helper to set up a position in a few lines, and the pieces of the random
game drivers (an independent flood fill for casinos, random trades)."""

from __future__ import annotations

import os
import random
import tracemalloc

import pytest
from hypothesis import HealthCheck, settings

import lv
from lv import EndTurn, GiveDie, GiveLot, GiveMoney, Trade

BOARD = lv.load_board()

# The width lv lays out for is the terminal's, $COLUMNS's when set (lv/cli.py ``_width``), else 200 when output goes
# to a pipe, as it does under pytest. A shell or a CI runner that exports COLUMNS, or pytest-xdist's workers (which
# set COLUMNS=80), would fold the tables and the paths of the tests that expect a pipe's 200: every test starts
# without it, and a test that means a width sets it (tests/test_terminal_width.py).
os.environ.pop("COLUMNS", None)
os.environ.pop("LINES", None)

# No test depends on the machine's speed (issue 28.1): a loaded 2-core machine (CI, a shared workstation, mutation
# testing) makes an example slow, not wrong. So no per-example deadline and no "input generation is slow" health
# check, for every Hypothesis test: the "lv" profile is loaded here, before any test module is imported, so a
# test's own @settings(max_examples=...) inherits it; pytest_collection_modifyitems below refuses a test that
# sets either back. Hypothesis's other health checks count examples, not seconds, and stay on. The fuzz suite's
# profiles (tests/fuzz/hostile.py) agree. "mutation" is the name tools/mutate_diff.py asks for: the same profile.
settings.register_profile("lv", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("mutation", parent=settings.get_profile("lv"))
settings.load_profile("lv")


def timed_settings(test: object) -> str | None:
    """Why the Hypothesis test ``test`` would depend on the machine's speed (None if it does not, or is no
    Hypothesis test): a deadline, or the too_slow health check switched back on."""
    given = getattr(test, "hypothesis", None)
    chosen = getattr(test, "_hypothesis_internal_use_settings", None)
    if given is None or chosen is None:
        return None
    if chosen.deadline is not None:
        return f"deadline={chosen.deadline}"
    if HealthCheck.too_slow not in chosen.suppress_health_check:
        return "the too_slow health check is on"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    timed = [(item.nodeid, why) for item in items if (why := timed_settings(getattr(item, "obj", None)))]
    if timed:
        raise pytest.UsageError("Hypothesis tests that depend on the machine's speed (tests/conftest.py's 'lv' "
                                "profile is the rule): " + "; ".join(f"{n}: {w}" for n, w in timed))


def pytest_configure(config: pytest.Config) -> None:
    # here, not in pyproject.toml, so that a copy of tests/ outside the checkout knows it too (CI's compiled stage)
    config.addinivalue_line("markers", "slow: seconds or more (a subprocess, a long hypothesis run, simulation, "
                                       "dask, plot, mypy)")


class PeakMemory:
    """The most memory Python held at once inside a ``with peak_memory() as peak:`` block, above what it held when
    the block began, in bytes (``peak.bytes``; tracemalloc). What a test of "refused before it is built" or "stays
    small" bounds: the work that explodes (a table per height, an alias bomb's nodes) is memory, the same on any
    machine, where CPU or wall time depends on the machine and its load (issue 28.1: no test may). A hang that
    waits rather than builds is for a subprocess timeout to stop."""

    def __init__(self) -> None:
        self.bytes = 0
        self._started = False
        self._base = 0

    def __enter__(self) -> "PeakMemory":
        self._started = not tracemalloc.is_tracing()
        if self._started:
            tracemalloc.start()
        tracemalloc.reset_peak()
        self._base = tracemalloc.get_traced_memory()[0]
        return self

    def __exit__(self, *exc: object) -> None:
        self.bytes = tracemalloc.get_traced_memory()[1] - self._base
        if self._started:
            tracemalloc.stop()


def peak_memory() -> PeakMemory:
    return PeakMemory()


@pytest.fixture
def action_checks(monkeypatch) -> list[str]:
    """The calls ``lv.game`` makes of ``check_action`` (the referee's check of a decision's types) while the test
    runs, each by its ``call`` ("apply", "push"): a decision the engine vouches for is not checked."""
    import lv.game as game_module

    calls: list[str] = []
    real = game_module.check_action

    def counted(call, action):
        calls.append(call)
        return real(call, action)

    monkeypatch.setattr(game_module, "check_action", counted)
    return calls


@pytest.fixture(scope="session")
def original():
    return lv.load_profile("original")


@pytest.fixture(scope="session")
def revised():
    return lv.load_profile("revised")


def position(profile, players, **pos):
    """A game at ``pos`` (see lv/position.py): ``position(revised, ["red", "yellow"], tiles={...}, ...)``."""
    if isinstance(profile, str):
        profile = lv.load_profile(profile)
    return lv.Game.from_position(profile, list(players), pos)


# ---- rule tests (worked examples, rule points): small readers of a game's state and events


def at(spec, names, seed=0, draw_dice=None, draw_choices=None, **pos):
    """Like ``position`` but takes a profile spec or object and the dice/choices of a first draw step."""
    profile = lv.load_profile(spec) if isinstance(spec, str) else spec
    return lv.Game.from_position(profile, list(names), pos, seed, draw_dice=draw_dice, draw_choices=draw_choices)


def money(game):
    """{name: money} of every player."""
    return {p.name: p.money for p in game.state.players}


def scores(game):
    """{name: score} of every player."""
    return {p.name: p.score for p in game.state.players}


def casino_of(game, lot):
    """The CasinoView holding ``lot`` (None if the lot has no tile)."""
    return next((c for c in game.casinos() if lot in c.lots), None)


def boss_name(game, lot):
    c = casino_of(game, lot)
    return None if c is None or c.boss is None else game.player_names[c.boss]


def kinds(events):
    return [e.kind for e in events]


def of_kind(events, kind):
    return [e for e in events if e.kind == kind]


def draw_events(game):
    """The events of the current turn's draw step."""
    return game.current_turn.draw_events


def illegal(game, action, rule=None, **kw):
    """Assert ``action`` is refused and changes nothing; return the error."""
    before = game.state.copy()
    with pytest.raises(lv.IllegalAction) as err:
        game.apply(action, **kw)
    if rule is not None:
        assert err.value.rule == rule, err.value
    assert game.state.players == before.players and game.state.tiles == before.tiles
    assert game.state.markers == before.markers
    return err.value


# ---- random game drivers (test_invariants, test_casino_index)


def flood_casinos(tiles: dict, by_height: bool) -> list[tuple[tuple[str, ...], str, int]]:
    """(lots in board order, colour, tallest height) of every casino, in board order of the first lot: a flood
    fill over the board's neighbour lists, written independently of lv/casinos.py."""
    seen: set[str] = set()
    out = []
    for lot in BOARD.order:
        if lot not in tiles or lot in seen:
            continue
        t = tiles[lot]
        group, todo = {lot}, [lot]
        while todo:
            here = todo.pop()
            for n in BOARD.lots[here].neighbours:
                u = tiles.get(n)
                if (n not in group and u is not None and u.color == t.color
                        and (not by_height or u.height == t.height)):
                    group.add(n)
                    todo.append(n)
        seen |= group
        lots = tuple(sorted(group, key=BOARD.index.__getitem__))
        out.append((lots, t.color, max(tiles[x].height for x in lots)))
    return out


def random_engine_step(engine, s, rng: random.Random) -> None:
    """One decision drawn uniformly from the legal list, applied to the state ``s`` by ``engine`` directly (no Game):
    the end of the turn begins the next player's turn, with sampled dice."""
    from lv import EndTurn
    from lv.chance import Dice
    from lv.legal import legal_actions

    legal = legal_actions(engine, s)
    action = legal[rng.randrange(len(legal))]
    if isinstance(action, EndTurn):
        engine.begin_turn(s, (s.current + 1) % len(s.players), Dice.sampled(rng), [])
    else:
        engine.apply(s, action, Dice.sampled(rng), [])


def random_trade(game, rng: random.Random, pick, overdraw: int = 0) -> Trade:
    """1-3 random steps: money, lots and dice given between random players, and actions of the current player
    (``pick(game, rng)``; an EndTurn it returns is left out). ``overdraw``: money steps may ask for up to that
    much more than the giver has, so that some steps fail."""
    s = game.state
    n = len(s.players)
    steps = []
    for _ in range(rng.randint(1, 3)):
        kind = rng.choice(["money", "lot", "die", "action"])
        giver = rng.randrange(n)
        receiver = rng.choice([i for i in range(n) if i != giver])
        if kind == "money":
            steps.append(GiveMoney(giver, receiver, rng.randint(1, max(1, s.players[giver].money + overdraw))))
        elif kind == "lot" and s.markers:
            lot = rng.choice(sorted(s.markers))
            owner = s.markers[lot]
            steps.append(GiveLot(lot, owner, rng.choice([i for i in range(n) if i != owner])))
        elif kind == "die" and any(t.owner is not None for t in s.tiles.values()):
            lot = rng.choice(sorted(x for x, t in s.tiles.items() if t.owner is not None))
            owner = s.tiles[lot].owner
            steps.append(GiveDie(lot, owner, rng.choice([i for i in range(n) if i != owner])))
        else:
            action = pick(game, rng)
            if not isinstance(action, EndTurn):
                steps.append(action)
    return Trade(tuple(steps) or (GiveMoney(0, 1, 1),))


def positions(spec: str, players: int, seed: int, pick=None):
    """Every decision point of the game of ``spec`` seeded ``seed``, played to its end: yields ``(game, legal,
    rng)`` (the generator of that seed, ``random.Random(seed)``); once the caller has looked (it may push and pop,
    or draw from ``rng``), the game goes on with ``pick(game, legal, rng)`` (default: ``bots.random_bot``)."""
    from lv import bots

    chooser = bots.random_bot if pick is None else pick
    game = lv.new_game(spec, players, seed=seed)
    rng = random.Random(seed)
    while not game.over:
        legal = game.legal_actions()
        yield game, legal, rng
        game.apply(chooser(game, legal, rng))

"""A game dropped is freed by reference counting: nothing it made is left in a reference cycle for the cyclic
collector (whose collections, at the default threshold, took a tenth of a compiled game's time; a cycle through the
engine kept each game's engine, state, casino index and lists alive until the next collection)."""

from __future__ import annotations

import gc
from typing import Callable, Iterator

import pytest

import lv
from lv import bots
from lv.chance import rng_for


@pytest.fixture
def no_collector() -> Iterator[None]:
    """The cyclic collector off meanwhile, after a collection (what is unreachable then is the test's)."""
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _left_in_cycles(make: Callable[[], object]) -> list[str]:
    """The types of the objects that ``make``'s work leaves unreachable but not freed (in a cycle)."""
    make()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        left = sorted({type(o).__name__ for o in gc.garbage})
        gc.garbage.clear()
    finally:
        gc.set_debug(0)
    return left


def _forward(game: lv.Game, decisions: int) -> None:
    """``decisions`` decisions of ``game`` picked at random."""
    rng = rng_for(1, "test")
    for _ in range(decisions):
        game.apply(game.random_legal(rng))


def _played(bot: bots.Bot, profile: str, players: int, seed: int) -> None:
    game = lv.new_game(lv.load_profile(profile), players, seed)
    bots.play(game, [bot] * players, seed)
    assert game.state.phase == "over"


@pytest.mark.parametrize("profile", ["revised", "original"])
@pytest.mark.parametrize("bot", ["random_bot", "greedy_bot"])
def test_a_game_played_and_dropped_leaves_nothing_in_a_cycle(no_collector: None, profile: str, bot: str) -> None:
    seat = getattr(bots, bot)
    assert _left_in_cycles(lambda: _played(seat, profile, 4, 3)) == []


def test_a_game_listed_copied_and_its_copy_listed_leave_nothing_in_a_cycle(no_collector: None) -> None:
    def work() -> None:
        game = lv.new_game(lv.load_profile("revised"), 3, 5)
        _forward(game, 30)
        twin = game.copy()
        assert twin.legal_actions() == game.legal_actions()

    assert _left_in_cycles(work) == []


def test_a_searched_decision_leaves_nothing_in_a_cycle(no_collector: None) -> None:
    def work() -> None:
        game = lv.new_game(lv.load_profile("revised"), 2, 7)
        _forward(game, 20)
        bots.bot_named("mcts:20")(game, game.legal_actions(), rng_for(7, "test"))

    assert _left_in_cycles(work) == []

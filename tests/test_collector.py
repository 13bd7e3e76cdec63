"""lv.collector.fewer_collections: the threshold raised meanwhile and put back; the way out sets off no collection
(the young objects moved to the oldest generation unexamined); memory stays bounded (a full collection after
``PROMOTED_LIMIT`` objects moved so); a caller's frozen objects and a disabled collector left as they are."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

import lv
from lv import bots, collector
from lv.collector import GC_THRESHOLD, fewer_collections


@pytest.fixture
def collections(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The generations of the collections run meanwhile (``gc.callbacks``), nothing moved before."""
    monkeypatch.setattr(collector, "_promoted", 0)
    seen: list[int] = []

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            seen.append(info["generation"])

    gc.callbacks.append(watch)
    try:
        yield seen
    finally:
        gc.callbacks.remove(watch)


class _Node:
    other: object


def test_the_way_out_sets_off_no_collection(collections: list[int]) -> None:
    before = gc.get_threshold()
    with fewer_collections():
        assert gc.get_threshold()[0] == max(before[0], GC_THRESHOLD)
        kept = [[] for _ in range(2 * before[0] + 10)]  # more young containers than the threshold put back allows
        assert gc.get_count()[0] > before[0]
    assert gc.get_threshold() == before
    assert gc.get_count()[0] == 0  # nothing young left to walk
    more = [[] for _ in range(before[0] // 2)]  # the allocations after it: no collection
    assert collections == [] and len(kept) > len(more)
    assert collector._promoted >= len(kept)  # counted towards the next full collection


def test_a_played_game_leaves_nothing_young(collections: list[int]) -> None:
    """bots.play's way out (a finished game held by its caller, as a benchmark's loop holds it) and the next game's
    set-up set off no collection."""
    game = bots.play(lv.new_game("revised", 4, seed=5), [bots.uniform_bot] * 4, 5)
    assert gc.get_count()[0] == 0
    collections.clear()  # (a pure game may pass the raised threshold while it is played)
    again = lv.new_game("revised", 4, seed=6)
    assert collections == [] and game.over and not again.over


def test_a_cycle_left_inside_is_freed_within_the_limit(collections: list[int],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Cycles moved unexamined to the oldest generation are freed by the full collection that comes after at
    most ``PROMOTED_LIMIT`` objects moved: memory does not grow without end."""
    monkeypatch.setattr(collector, "PROMOTED_LIMIT", 3_000)
    cycles: list[weakref.ref[_Node]] = []
    for _ in range(300):  # up to about 100 young objects a time, past the limit
        with fewer_collections():
            a, b = _Node(), _Node()
            a.other, b.other = b, a  # a cycle, dropped: only the cyclic collector frees it
            cycles.append(weakref.ref(a))
            del a, b
            young = [[] for _ in range(100)]
        del young
    assert 2 in collections and 0 not in collections  # only full collections, the ones the limit asked for
    assert cycles[0]() is None and cycles[20]() is None
    assert sum(1 for c in cycles if c() is not None) < len(cycles) // 2  # those since the last full collection


def test_a_callers_frozen_objects_stay_frozen(collections: list[int]) -> None:
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with fewer_collections():
            young = [[] for _ in range(100)]
        assert gc.get_freeze_count() == frozen and young
    finally:
        gc.unfreeze()


def test_a_disabled_collector_is_left_alone(collections: list[int]) -> None:
    gc.disable()
    try:
        with fewer_collections():
            young = [[] for _ in range(100)]
        assert gc.get_count()[0] >= len(young)  # nothing moved
        assert collections == [] and collector._promoted == 0
    finally:
        gc.enable()

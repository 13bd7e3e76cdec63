"""The cyclic garbage collector while games are played: ``fewer_collections``, for whatever plays games (the bots'
driver, the search's imagined games, a simulation's or an explanation's whole task). Below every module that
plays games, so each can use it; it imports nothing of lv."""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator

GC_THRESHOLD = 10_000  # the cyclic collector's first threshold while games are played (Python's default: 700)
PROMOTED_LIMIT = 100_000  # objects moved to the oldest generation unexamined before a full collection instead

_promoted = 0  # objects moved to the oldest generation by ``_promote`` since its last full collection


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Run the cyclic garbage collector less often meanwhile (its first threshold raised to ``GC_THRESHOLD``,
    put back after): a game makes and drops hundreds of small containers a turn, none in a cycle, and at the
    default threshold the collector took about a tenth of a compiled game's time. On the way out the young objects
    are moved to the oldest generation unexamined (``_promote``), so the threshold put back sets off no
    collection (the finished game, still held, and the tables the games filled would be walked for nothing).
    Nothing else changes. (What the collector still walks at the end of a compiled game is mostly lists, tuples
    and dicts: the core's events and plain-value classes, Decision, Turn, Casino, Tile ..., are acyclic native
    classes it never sees.)"""
    old = gc.get_threshold()
    gc.set_threshold(max(old[0], GC_THRESHOLD), old[1], old[2])
    try:
        yield
    finally:
        _promote()
        gc.set_threshold(*old)


def _promote() -> None:
    """The young generation moved to the oldest unexamined (``gc.freeze`` then ``gc.unfreeze``: two list splices,
    and the young count back to 0): with the threshold put back, the count a game left would set off a collection
    at the next allocation or soon after (a third of the reference benchmark's games did, each walking the
    finished game its caller still holds and the tables the game filled). Memory stays bounded: after
    ``PROMOTED_LIMIT`` objects moved so, a full collection instead (a cycle left among them is freed there).
    Nothing is done while the collector is disabled or a caller keeps objects frozen (``gc.freeze``: they
    would be unfrozen)."""
    global _promoted
    young = gc.get_count()[0]
    if not young or not gc.isenabled() or gc.get_freeze_count():
        return
    _promoted += young
    if _promoted > PROMOTED_LIMIT:
        _promoted = 0
        gc.collect()
        return
    gc.freeze()
    gc.unfreeze()

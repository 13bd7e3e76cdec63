"""The cyclic garbage collector while games are played: ``fewer_collections``, for whatever plays games (the bots'
driver, the search's imagined games, a simulation's or an explanation's whole task). Below every module that
plays games, so each can use it; it imports nothing of lv."""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator

GC_THRESHOLD = 10_000  # the cyclic collector's first threshold while games are played (Python's default: 700)


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Run the cyclic garbage collector less often meanwhile (its first threshold raised to ``GC_THRESHOLD``,
    put back after): a game makes and drops hundreds of small containers a turn, none in a cycle, and at the
    default threshold the collector took about a tenth of a compiled game's time. Nothing else changes. (What the
    collector still walks at the end of a compiled game is mostly lists, tuples and dicts: the core's events and
    plain-value classes, Decision, Turn, Casino, Tile ..., are acyclic native classes it never sees.)"""
    old = gc.get_threshold()
    gc.set_threshold(max(old[0], GC_THRESHOLD), old[1], old[2])
    try:
        yield
    finally:
        gc.set_threshold(*old)

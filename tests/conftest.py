"""Shared fixtures: profiles, and a small helper to set up a position in a few lines."""

from __future__ import annotations

import pytest

import lv


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

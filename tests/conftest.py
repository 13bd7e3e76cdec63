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

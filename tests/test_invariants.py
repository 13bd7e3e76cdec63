"""Properties that hold after every step of any game: complete random games (random legal decisions and now and
then a random trade) under every profile and player count, checked after each decision and draw, then replayed
from their record to the same bytes.

The casinos are recomputed here from the board's neighbour lists, independently of lv/casinos.py.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lv
from lv import EndTurn
from lv.record import dumps, parse_record, record_of
from lv.replay import replay

from conftest import flood_casinos, random_trade

CONFIGS = ([("original", n) for n in (2, 3, 4)] + [("revised", n) for n in (2, 3, 4, 5, 6)]
           + [("original+f-block", 2)])
BOARD = lv.load_board()


class Checker:
    def __init__(self, game):
        self.game = game
        self.scores = [p.score for p in game.state.players]

    def __call__(self, where: str) -> None:
        g, s, p = self.game, self.game.state, self.game.profile
        for color in BOARD.colors:
            assert s.tiles_on_board(color) <= p.components.tiles_per_color, (where, color)
            assert s.tiles_on_board(color) == sum(1 for t in s.tiles.values() if t.color == color), (where, color)
        for i, pl in enumerate(s.players):
            assert len(s.dice_on_board(i)) <= p.components.dice_per_player, where
            assert len(s.markers_on_board(i)) <= p.components.markers_per_player, where
            assert pl.money >= 0, (where, pl)
            assert pl.score in BOARD.track, (where, pl)
            assert pl.score >= self.scores[i], (where, pl, self.scores[i])
        self.scores = [pl.score for pl in s.players]
        assert not set(s.markers) & set(s.tiles), where
        for lot, t in s.tiles.items():
            assert (t.owner is None) == (t.value is None), (where, lot)
            assert t.value is None or 1 <= t.value <= 6
            assert 1 <= t.height <= p.max_height(len(s.players))
        views = g.casinos()
        by_height = p.casino.join_rule == "color_and_height"
        assert [(c.lots, c.color, c.height) for c in views] == flood_casinos(s.tiles, by_height), where
        # the boss is the owner of the single highest die (000 "Who owns what"; 003 L426-445), as the dice are now
        for c in views:
            dice = [(value, owner) for _, owner, value in c.dice if owner is not None]
            top_owners = {owner for value, owner in dice if value == max(dice)[0]} if dice else set()
            assert c.boss == (top_owners.pop() if len(top_owners) == 1 else None), (where, c)
        if p.ties.check == "immediate":  # ties are settled at once: every casino with dice has one boss
            for c in views:
                if any(o is not None for _, o, _ in c.dice):
                    assert c.boss is not None, (where, c)
        if p.f_block_closed(len(s.players)):
            assert not any(BOARD.lots[x].block == p.f_block.block for x in list(s.markers) + list(s.tiles)), where
        # the game ends exactly when the end card is drawn or a player reaches the instant-win score
        end_drawn = lv.END_CARD in s.discards
        reached = max(pl.score for pl in s.players) >= p.end.instant_win_points
        assert g.over == (end_drawn or reached), (where, end_drawn, reached)
        if g.over:
            # the end card ends the game even when its payout reaches the target (docs/rules.md, rows 42/43)
            assert g.result.reason == ("end_card" if end_drawn else "instant_win"), where
            assert g.legal_actions() == []


def random_action(game, rng: random.Random):
    """Any legal decision but ending the turn, all equally likely; a gamble at a random stake."""
    actions = [a for a in game.legal_actions() if not isinstance(a, EndTurn)] or [EndTurn()]
    action = rng.choice(actions)
    return lv.Gamble(action.lot, rng.randint(1, action.bet)) if isinstance(action, lv.Gamble) else action


def play_checked(spec: str, players: int, seed: int):
    game = lv.new_game(spec, players, seed=seed)
    rng = random.Random(seed)
    check = Checker(game)
    check("setup")
    for step in range(5000):
        if game.over:
            return game
        if rng.random() < 0.08:
            before = game.state.copy()
            try:
                game.apply(random_trade(game, rng, random_action))
            except lv.IllegalAction:  # a refused trade leaves no trace
                s = game.state
                assert (s.players, s.markers, s.tiles, s.gambles, s.reorganized) == (
                    before.players, before.markers, before.tiles, before.gambles, before.reorganized)
            check(f"step {step} (trade)")
            continue
        legal = game.legal_actions()
        action = rng.choice(legal)
        if isinstance(action, lv.Gamble):
            action = lv.Gamble(action.lot, rng.randint(1, action.bet))
        game.apply(action)
        check(f"step {step} ({action})")
    raise AssertionError("the game did not end")


def state_of(game):
    s = game.state
    return ([(p.name, p.money, p.score) for p in s.players], dict(s.markers),
            {lot: (t.color, t.height, t.owner, t.value) for lot, t in s.tiles.items()}, list(s.deck),
            s.turn, s.phase, game.result)


@pytest.mark.slow
@pytest.mark.parametrize("spec,players", CONFIGS)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_random_games_keep_every_invariant_and_replay_to_the_same_bytes(spec, players, seed):
    game = play_checked(spec, players, seed)
    assert game.over
    data = record_of(game, spec)
    for fmt in ("yaml", "json"):
        text = dumps(data, fmt)
        again = replay(parse_record(text, f"<{fmt}>"))
        assert again.illegal == [] and again.result_mismatch == []
        assert state_of(again.game) == state_of(game)
        assert dumps(record_of(again.game, spec), fmt) == text
        assert dumps(record_of(again.game, spec), "json" if fmt == "yaml" else "yaml") == \
            dumps(data, "json" if fmt == "yaml" else "yaml")

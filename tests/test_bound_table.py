"""Issue 32: every bounded profile parameter at both of its bounds and one past each, from a table written here by
hand (tests/test_bounds.py reads the bounds from their definitions, so a bound changed there moves its test with
it); the one parameter that takes a number or a word (``raise.max_height``) given other words and ``true``; player
colours that differ only in case."""

from __future__ import annotations

import pytest

import lv
from lv.errors import ProfileError
from lv.profile import bounds, load_profile

BASE = "house-sell-back"  # revised with the house rule's section (sell) on

# section.key: (lowest, highest) allowed, as docs/profiles.md and the definitions' comments give them
TABLE = {
    "components.dice_per_player": (1, 48),
    "components.markers_per_player": (1, 48),
    "components.tiles_per_color": (1, 576),
    "end.instant_win_points": (1, 1000),
    "gamble.bet_per_tile": (1, 1000),
    "gamble.per_turn": (0, 100),
    "payout.lot_income": (0, 1000),
    "payout.money_per_pip": (0, 1000),
    "players.max": (2, 6),
    "players.min": (2, 6),
    "raise.cost_per_space": (0, 1000),
    "raise.max_height": (1, 12),
    "remodel.cost_per_unit": (0, 1000),
    "reorg.cost_per_pip": (0, 1000),
    "sell.refund_percent": (0, 100),
    "setup.starting_cards": (0, 8),
    "sprawl.cost_multiplier": (0, 100),
    "sprawl.riser_cost": (0, 1000),
}
# what must come with a value for the profile to hold together (players.min 6 needs max 6; max 2 needs min 2)
WITH = {("players.min", 6): ",players.max=6", ("players.max", 2): ",players.min=2"}


def value_of(profile: lv.Profile, key: str):
    section, name = key.split(".")
    if section == "sell":  # an action family's section
        return getattr(profile.extension(section), name)
    return getattr(getattr(profile, section if section != "raise" else "raise_"), name)


def test_the_table_names_every_bounded_parameter():
    assert sorted(TABLE) == sorted(bounds())


@pytest.mark.parametrize("key", sorted(TABLE))
def test_both_bounds_are_taken_and_one_past_each_is_refused(key):
    low, high = TABLE[key]
    for value in (low, high):
        profile = load_profile(f"{BASE},{key}={value}{WITH.get((key, value), '')}")
        assert value_of(profile, key) == value
    words = ", or 'players'" if key == "raise.max_height" else ""
    for value in (low - 1, high + 1):
        with pytest.raises(ProfileError) as info:
            load_profile(f"{BASE},{key}={value}{WITH.get((key, value), '')}")
        assert f"{key}: must be a whole number from {low} to {high}{words}, not {value}" in str(info.value)
        assert "\n" not in str(info.value)


def test_the_lowest_starting_cards_deal_none_and_the_game_plays():
    """``setup.starting_cards: 0``: nobody is dealt a card, the only marker is the first draw's; 8 each for 6
    players deals the 48 cards, and the first draw turns over the end card: the game is over at once."""
    game = lv.new_game(f"{BASE},setup.starting_cards=0", 3, seed=2)
    assert list(game.state.markers) == game.state.drawn == game.state.discards and len(game.state.drawn) == 1
    game = lv.new_game(f"{BASE},setup.starting_cards=2", 3, seed=2)
    assert len(game.state.markers) == 7 and len(game.state.discards) == 7  # 2 each, and the draw
    game = lv.new_game(f"{BASE},setup.starting_cards=8", 6, seed=2)
    assert len(game.state.markers) == 48 and game.state.drawn == ["END"] and game.over


@pytest.mark.parametrize("word", ["tall", "Players", "player", "none", "true", "True", "yes", "1.5", "''"])
def test_raise_max_height_takes_a_number_or_the_word_players_and_nothing_else(word):
    with pytest.raises(ProfileError) as info:
        load_profile(f"{BASE},raise.max_height={word}")
    assert "raise.max_height: must be a whole number from 1 to 12, or 'players', not" in str(info.value)


def test_raise_max_height_players_is_the_number_of_players():
    profile = load_profile(f"{BASE},raise.max_height=players")
    assert [profile.max_height(n) for n in (2, 3, 6)] == [2, 3, 6]
    assert load_profile(f"{BASE},raise.max_height=5").max_height(2) == 5


def test_raise_max_height_true_in_a_profile_file_is_refused(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text("extends: revised\nraise:\n  max_height: true\n")
    with pytest.raises(ProfileError) as info:
        load_profile(str(path))
    assert str(info.value) == (f"{path}:3: raise.max_height: must be a whole number from 1 to 12, or 'players', "
                               "not True")


@pytest.mark.parametrize("colors", ["[Red, red, blue]", "[red, blue, BLUE]", "[Aqua, aQua, gold]"])
def test_colours_differing_only_in_case_are_one_colour_twice(colors):
    with pytest.raises(ProfileError, match="colours: each once"):
        load_profile(f"revised,players.max=3,players.colors={colors}")


def test_colours_of_different_letters_are_taken():
    profile = load_profile("revised,players.max=3,players.colors=[Red, blue, Green]")
    assert profile.players.colors == ("Red", "blue", "Green")

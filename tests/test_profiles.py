"""The rule-profile loader is strict and says where: file and line for every mistake in a profile file, the spec
for every mistake in an override. Every shipped parameter cites its rulebook passage.

DESIGN.md "Rule profiles": "An unknown key, a wrong type or an impossible value is an error naming the file, the
key and the line"; "A profile may extend another ... Small overlays ... combine with either edition".
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import lv
from lv.profile import profile_names


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def load_error(spec) -> str:
    with pytest.raises(lv.ProfileError) as err:
        lv.load_profile(str(spec))
    message = str(err.value)
    assert "\n" not in message and "Traceback" not in message
    return message


# ----------------------------------------------------------------------------------------------- strictness


def test_unknown_key_in_a_section(tmp_path):
    path = write(tmp_path, "p.yaml", "extends: revised\ngamble:\n  per_turn: 1\n  fee: 3\n")
    assert load_error(path).startswith(f"{path}:4: unknown key 'gamble.fee'")


def test_unknown_section(tmp_path):
    path = write(tmp_path, "p.yaml", "extends: revised\n\ncolour: red\n")
    assert load_error(path).startswith(f"{path}:3: unknown key 'colour'")


def test_unknown_field_beside_value(tmp_path):
    path = write(tmp_path, "p.yaml", "extends: revised\nraise:\n  enabled: {value: true, sauce: 003}\n")
    message = load_error(path)
    assert message.startswith(f"{path}:3: raise.enabled:") and "sauce" in message


@pytest.mark.parametrize("text,line,key,found", [
    ("gamble:\n  bet_per_tile: 1.5\n", 3, "gamble.bet_per_tile", "float 1.5"),
    ("raise:\n  enabled: 1\n", 3, "raise.enabled", "int 1"),
    ("components:\n  dice_per_player: '12'\n", 3, "components.dice_per_player", "str '12'"),
    ("ties:\n  check: 3\n", 3, "ties.check", "int 3"),
    ("players:\n  colors: red\n", 3, "players.colors", "str 'red'"),
    ("gamble:\n  win_even: [3, 4.5, 9, 10, 11]\n", 3, "gamble.win_even", "float 4.5"),
])
def test_wrong_type(tmp_path, text, line, key, found):
    path = write(tmp_path, "p.yaml", "extends: revised\n" + text)
    message = load_error(path)
    assert message.startswith(f"{path}:{line}: {key}: expected ") and found in message


@pytest.mark.parametrize("text,line,key,words", [
    ("gamble:\n  lay_off: sometimes\n", 3, "gamble.lay_off", "sometimes"),
    ("raise:\n  max_height: 0\n", 3, "raise.max_height", "0"),
    ("components:\n  dice_per_player: 0\n", 3, "components.dice_per_player", "1"),
    ("players:\n  max: 9\n", 3, "players.max", "6"),
    ("casino:\n  join_rule: colour\n", 3, "casino.join_rule", "colour"),
])
def test_impossible_value(tmp_path, text, line, key, words):
    path = write(tmp_path, "p.yaml", "extends: revised\n" + text)
    message = load_error(path)
    assert message.startswith(f"{path}:{line}: {key}:") and words in message


def test_impossible_combination_names_the_section(tmp_path):
    """The three gamble outcome lists must share 2..12 exactly once; min players above max."""
    path = write(tmp_path, "p.yaml", "extends: revised\ngamble:\n  win_even: [3, 4, 9, 10]\n")
    message = load_error(path)
    assert re.match(rf"{re.escape(str(path))}:3: gamble: .*2\.\.12", message)
    path = write(tmp_path, "q.yaml", "extends: original\nplayers:\n  min: 5\n")
    assert load_error(path).startswith(f"{path}:3: players: min (5) is greater than max (4)")


def test_missing_parameter_in_a_standalone_profile(tmp_path):
    path = write(tmp_path, "p.yaml", "name: bare\ngamble:\n  per_turn: 1\n")
    message = load_error(path)
    assert str(path) in message and "players.min: missing" in message


def test_unknown_profile():
    assert load_error("nosuch").startswith("unknown profile 'nosuch'")
    assert "unknown profile 'nosuch'" in load_error("original+nosuch")


def test_overlay_used_alone():
    message = load_error("f-block")
    assert "'f-block' is an overlay" in message


def test_extends_cycle(tmp_path):
    a = write(tmp_path, "a.yaml", "extends: b.yaml\n")
    b = write(tmp_path, "b.yaml", "name: b\nextends: a.yaml\n")
    message = load_error(a)
    assert message.startswith(f"{b}:2: extends") and "leads back" in message


def test_extends_itself(tmp_path):
    a = write(tmp_path, "a.yaml", "# a comment\nextends: a.yaml\n")
    assert load_error(a).startswith(f"{a}:2: extends")


def test_extends_an_unknown_profile(tmp_path):
    a = write(tmp_path, "a.yaml", "extends: nosuch\n")
    message = load_error(a)
    assert message.startswith(f"{a}:1: extends: unknown profile 'nosuch'")


def test_malformed_yaml(tmp_path):
    path = write(tmp_path, "p.yaml", "extends: revised\ngamble: {lay_off: none\n")
    assert re.match(rf"{re.escape(str(path))}:\d+: malformed YAML", load_error(path))
    path = write(tmp_path, "q.yaml", "extends: revised\ngamble:\n  lay_off: none\n  lay_off: boss_option\n")
    assert load_error(path).startswith(f"{path}:4: duplicate key 'lay_off'")


def test_bad_overrides_name_the_spec():
    assert load_error("revised,gamble.fee=1") == (
        "profile spec 'revised,gamble.fee=1': unknown parameter 'gamble.fee' (see 'lv variants show revised')")
    assert load_error("revised,raise.enabled=1").endswith("raise.enabled: expected bool, got int 1")
    assert "not section.key=value" in load_error("revised,raise")
    assert load_error("revised,gamble.win_even=[3]").startswith("profile spec 'revised,gamble.win_even=[3]': gamble:")


# ------------------------------------------------------------------------------------------------ citations


@pytest.mark.parametrize("name", ["original", "revised"])
def test_every_parameter_cites_the_rulebook(name):
    profile = lv.load_profile(name)
    values = profile.values()
    assert len(values) >= 40
    for key in values:
        source = profile.sources.get(key, "")
        assert re.match(r"(Original|Revised) rules[,:]", source), f"{name}: {key} has no rulebook citation: {source!r}"


def test_shipped_profiles():
    assert {"original", "revised", "f-block"} <= set(profile_names())


# -------------------------------------------------------------------------------- extends, overlays, overrides


def test_extends_and_overlay_combine(tmp_path):
    """A house variant that extends the revised rules, plus the f-block overlay, plus an override."""
    path = write(tmp_path, "house.yaml",
                 "name: house\nextends: revised\nraise:\n"
                 "  cost_per_space: {value: 10, source: 'house rule: cheaper risers'}\n")
    house = lv.load_profile(str(path))
    revised = lv.load_profile("revised")
    assert house.raise_.cost_per_space == 10 and house.sources["raise.cost_per_space"] == "house rule: cheaper risers"
    changed = {k for k, v in house.values().items() if revised.values()[k] != v}
    assert changed == {"raise.cost_per_space"}
    assert house.sources["gamble.lay_off"] == revised.sources["gamble.lay_off"]  # inherited citations
    combo = lv.load_profile(f"original+{path}")  # a later profile overrides an earlier one, key by key
    assert combo.raise_.cost_per_space == 10 and combo.casino.join_rule == "color_and_height"
    over = lv.load_profile(f"{path}+f-block,gamble.per_turn=2")
    assert over.raise_.cost_per_space == 10 and over.gamble.per_turn == 2 and over.f_block.closed_when == "two_players"


def test_original_plus_f_block_differs_only_in_the_f_block():
    original, combo = lv.load_profile("original"), lv.load_profile("original+f-block")
    changed = {k for k, v in combo.values().items() if original.values()[k] != v}
    assert changed == {"f_block.closed_when"}
    assert combo.f_block.closed_when == "two_players" and combo.sources["f_block.closed_when"].startswith("Revised rules, \"2-Player Rules\"")


def test_overrides_from_a_spec():
    p = lv.load_profile("revised,gamble.lay_off=boss_option, raise.max_height=3,gamble.win_even=[3, 4, 9, 10, 11]")
    assert (p.gamble.lay_off, p.raise_.max_height, p.gamble.win_even) == ("boss_option", 3, (3, 4, 9, 10, 11))
    assert p.sources["gamble.lay_off"].startswith("override")
    assert p.max_height(6) == 3 and lv.load_profile("revised").max_height(6) == 6
    assert lv.load_profile("revised", {"trade.failed_step": "undo_all"}).trade.failed_step == "undo_all"


def test_revised_turns_the_f_block_rule_on_by_itself_in_two_player_games():
    """003:L893 "In a 2-player game, you can't build on F block"; the original has no such rule."""
    revised, original = lv.load_profile("revised"), lv.load_profile("original")
    assert [revised.f_block_closed(n) for n in (2, 3, 6)] == [True, False, False]
    assert [original.f_block_closed(n) for n in (2, 3, 4)] == [False, False, False]
    assert lv.load_profile("original+f-block").f_block_closed(2) is True
    game = lv.new_game("revised", 2, seed=5)
    assert not any(lot.startswith("F") for lot in game.state.markers)


def test_profiles_are_frozen_and_comparable():
    p = lv.load_profile("revised")
    with pytest.raises(AttributeError):
        p.gamble = None
    assert p == lv.load_profile("revised") and p != lv.load_profile("original")


# ---- issue 17.11: what mutation testing found unchecked in lv/profile.py


def test_a_chain_of_32_profiles_loads_and_33_are_refused(tmp_path):
    """MAX_EXTENDS counts the profiles in one chain of 'extends', the shipped one at its root included: 31 files
    over revised load, 32 do not; the error names the first profile of the chain."""
    def chain(files):
        for i in range(files):
            write(tmp_path, f"p{i}.yaml", f"extends: p{i + 1}.yaml\n" if i < files - 1 else "extends: revised\n")
        return tmp_path / "p0.yaml"

    assert lv.load_profile(str(chain(31))).raise_.enabled is True
    assert load_error(chain(32)) == f"profile '{tmp_path / 'p0.yaml'}': a chain of more than 32 profiles through 'extends'"


def test_a_value_restated_unchanged_keeps_its_citation_and_a_changed_one_cites_its_file(tmp_path):
    revised = lv.load_profile("revised")
    mine = write(tmp_path, "mine.yaml", "extends: revised\nraise:\n  cost_per_space: 15\n  max_height: 4\n"
                                        "gamble:\n  per_turn: {value: 2, source: 'house rule'}\n")
    p = lv.load_profile(str(mine))
    assert revised.raise_.cost_per_space == 15 and p.sources["raise.cost_per_space"] == revised.sources[
        "raise.cost_per_space"]
    assert p.sources["raise.max_height"] == f"set by mine, {mine}:4"
    assert p.sources["gamble.per_turn"] == "house rule"


def test_a_note_is_added_to_the_source_or_stands_alone(tmp_path):
    mine = write(tmp_path, "mine.yaml", "extends: revised\nraise:\n  cost_per_space: {value: 12, source: S, note: N}"
                                        "\n  max_height: {value: 3, note: only a note}\n")
    p = lv.load_profile(str(mine))
    assert (p.sources["raise.cost_per_space"], p.sources["raise.max_height"]) == ("S - N", "only a note")
    bad = write(tmp_path, "bad.yaml", "extends: revised\nraise:\n  cost_per_space: {value: 12, notes: N}\n")
    assert load_error(bad) == f"{bad}:3: raise.cost_per_space: unknown field(s) ['notes'] beside value"


def test_a_record_profile_extends_only_files_in_its_folder(tmp_path):
    """``folder`` (a profile named by a record): every .yaml file of the chain is read relative to the file that
    names it and never outside the folder, at any depth."""
    game = tmp_path / "game"
    (game / "sub").mkdir(parents=True)
    write(tmp_path, "outside.yaml", "extends: revised\n")
    write(game, "sub/inner.yaml", "extends: revised\nraise:\n  cost_per_space: 11\n")
    write(game, "mine.yml", "extends: sub/inner.yaml\n")
    write(game, "a.yaml", "extends: mine.yml\n")
    p = lv.load_profile("a.yaml", folder=game)
    assert p.raise_.cost_per_space == 11
    write(game, "sub/deep.yaml", "\nextends: ../../outside.yaml\n")
    write(game, "b.yaml", "extends: sub/deep.yaml\n")
    with pytest.raises(lv.ProfileError) as err:
        lv.load_profile("b.yaml", folder=game)
    assert str(err.value) == (f"{(game / 'sub' / 'deep.yaml').resolve()}:2: extends: profile file "
                              "'../../outside.yaml': a record names its profile file relative to its own folder, "
                              "inside it (give another file with --variant)")
    for name in ("../outside.yaml", str(tmp_path / "outside.yaml")):
        with pytest.raises(lv.ProfileError, match="a record names its profile file relative to its own folder"):
            lv.load_profile(name, folder=game)
    assert lv.load_profile(str(tmp_path / "outside.yaml")).name == "outside"  # given by the user: any path


def test_a_yml_file_beside_the_extending_file_is_found_from_anywhere(tmp_path, monkeypatch):
    write(tmp_path, "base.yml", "extends: revised\nraise:\n  cost_per_space: 13\n")
    a = write(tmp_path, "a.yaml", "extends: base.yml\n")
    monkeypatch.chdir(tmp_path.parent)
    assert lv.load_profile(str(a)).raise_.cost_per_space == 13


@pytest.mark.slow
def test_override_values_are_yaml_or_kept_as_text():
    from lv.profile import parse_value

    assert parse_value("[5, 6]") == [5, 6] and parse_value("true") is True and parse_value("10") == 10
    assert parse_value("a: b: c") == "a: b: c" and parse_value("[oops") == "[oops"  # not YAML: the text
    with pytest.raises(lv.ProfileError):
        parse_value("[" * 2000 + "]" * 2000)  # YAML, but too deep: refused, not kept as text


@pytest.mark.parametrize("spec,message", [
    ("", "empty profile spec"),
    ("revised,foo", "profile spec 'revised,foo': 'foo' is not section.key=value"),
    ("revised,f_block.block=x=y",
     "profile spec 'revised,f_block.block=x=y': f_block.block: 'x=y' is not a block of the board (A, B, C, D, E, F)"),
    ("revised,gamble.win_even=[3, 4, 9, 10, 13]",
     "profile spec 'revised,gamble.win_even=[3, 4, 9, 10, 13]': gamble.win_even: 13 is not a 2d6 total (2..12)"),
    ("revised,players.colors=[red, red, blue, green, yellow, black]",
     "profile spec 'revised,players.colors=[red, red, blue, green, yellow, black]': players: colours: each once, "
     "['red', 'red', 'blue', 'green', 'yellow', 'black'] repeats one"),
    ("revised,players.colors=[red, blue]",
     "profile spec 'revised,players.colors=[red, blue]': players: 2 colours for up to 6 players"),
    ("revised,gamble.lose=[2, 3, 12, 7]", "profile spec 'revised,gamble.lose=[2, 3, 12, 7]': gamble: win_even, "
                                          "win_double and lose must share the totals 2..12 between them, once each"),
])
def test_spec_errors_say_exactly_what_is_wrong(spec, message):
    assert load_error(spec) == message


def test_players_min_may_equal_max_but_not_exceed_it():
    assert lv.load_profile("revised,players.min=6").players.min == 6
    assert load_error("original,players.min=5").endswith("min (5) is greater than max (4)")
    assert load_error("revised,players.min=7").endswith("must be a whole number from 2 to 6, not 7")  # the bound


@pytest.mark.parametrize("length,shown", [(198, "'" + "x" * 198 + "'"),
                                          (199, "'" + "x" * 130 + "..." + "x" * 65 + "' (199 characters)")])
def test_an_unknown_profile_name_is_cut_in_the_middle_past_200_characters(length, shown):
    # 198 characters and their quotes are 200: whole; one more is cut in the middle to 200 with its length said
    assert load_error("x" * length).startswith(f"unknown profile {shown} (known: ")


def test_a_file_that_is_not_yaml_or_the_board_is_no_profile():
    assert "board" not in profile_names() and "revised" in profile_names()
    for name in ("README.md", "board"):
        assert load_error(name).startswith(f"unknown profile '{name}' (known: ")


def test_variants_list_rows_name_overlays_and_player_ranges():
    from lv.profile import profile_info

    assert profile_info() == [
        {"name": "f-block", "overlay": True, "players": "", "title": "2-player F-block rule"},
        {"name": "house-sell-back", "overlay": False, "players": "2-6",
         "title": 'Lords of Vegas (revised) with the house rule "sell a lot back to the bank"'},
        {"name": "original", "overlay": False, "players": "2-4", "title": "Lords of Vegas (original 2010 edition)"},
        {"name": "revised", "overlay": False, "players": "2-6", "title": "Lords of Vegas (revised edition)"}]


def test_a_parameter_no_rule_reads_says_why():
    from lv.profile import unread

    revised, original = lv.load_profile("revised"), lv.load_profile("original")
    assert unread(original, "raise.cost_per_space", 2) == unread(original, "raise.max_height", 2) == \
        "raise.enabled is false"
    assert unread(revised, "raise.cost_per_space", 2) is None and unread(revised, "gamble.per_turn", 2) is None
    assert unread(original, "sprawl.riser_cost", 2) == \
        "no casino is ever more than 1 high (raise.enabled, raise.max_height)"
    assert unread(revised, "sprawl.riser_cost", 2) is None
    assert unread(lv.load_profile("revised,raise.max_height=1"), "sprawl.riser_cost", 4) is not None
    assert unread(revised, "gamble.lay_off_double_basis", 2) == "gamble.lay_off is none"
    assert unread(original, "gamble.lay_off_double_basis", 2) is None
    assert unread(original, "f_block.block", 2) == "no block is closed (f_block.closed_when)"
    assert unread(revised, "f_block.block", 2) is None and unread(revised, "f_block.block", 3) is not None


SECTION_NAMES = ("players, components, setup, deck, payout, casino, scoring, sprawl, remodel, reorg, raise, gamble, "
                 "ties, resources, end, f_block, trade")


@pytest.mark.parametrize("text,line,message", [
    ("- a\n- b\n", 1, "a profile must be a mapping of sections"),
    ("\n\ntitle: x\nfoo: 1\n", 3, f"not a rule profile: no section ({SECTION_NAMES}) and no 'extends'"),
    ("extends: 5\n", 1, "extends: a profile name or path, or a list of them"),
    ("# a game\n\nformat: lv-game/1\nprofile: revised\nplayers: [red, blue]\n", 3,
     "a game record, not a rule profile (a record's own profile is its 'profile' line)"),
    ("\nextends: [revised, 3]\n", 2, "extends: a profile name or path, or a list of them"),
    ("extends: revised\nname: 5\n", 2, "name: text"),
    ("extends: revised\n\ntitle: [x]\n", 3, "title: text"),
    ("extends: revised\noverlay: 'no'\n", 2, "overlay: true or false"),
    ("extends: revised\ndescription: d\nbogus: 1\n", 3, f"unknown key 'bogus' (sections are: {SECTION_NAMES}, sell)"),
    ("extends: revised\nraise: 3\n", 2, "'raise' must be a mapping"),
    ("extends: revised\nraise:\n  nope: 1\n", 3, "unknown key 'raise.nope' (known: cost_per_space, enabled, max_height)"),
])
def test_a_malformed_profile_file_is_refused_at_its_line(tmp_path, text, line, message):
    bad = write(tmp_path, "bad.yaml", text)
    assert load_error(bad) == f"{bad}:{line}: {message}"


def test_a_profile_file_is_named_after_itself_unless_it_says_and_an_overlay_goes_second(tmp_path):
    p = lv.load_profile(str(write(tmp_path, "plain.yaml", "extends: revised\ndescription: anything\n")))
    assert (p.name, p.title) == ("plain", "plain")
    p = lv.load_profile(str(write(tmp_path, "t.yaml", "name: mine\ntitle: My rules\nextends: revised\n")))
    assert (p.name, p.title) == ("mine", "My rules")
    over = write(tmp_path, "over.yaml", "overlay: true\nraise:\n  cost_per_space: 3\n")
    p = lv.load_profile(f"revised+{over}")
    assert (p.title, p.raise_.cost_per_space) == ("Lords of Vegas (revised edition) + over", 3)
    assert load_error(over) == (f"'{over}' is an overlay: put it after a full profile, as in 'PROFILE+{over}' "
                                "(see 'lv variants list')")


def test_a_stored_profile_reads_back_equal_and_says_where_it_came_from(tmp_path, monkeypatch):
    from lv.profile import from_stored, from_values, stored_form

    monkeypatch.chdir(tmp_path)
    write(tmp_path, "mine.yml", "extends: revised\nraise:\n  cost_per_space: 11\n")
    write(tmp_path, "top.yaml", "extends: mine.yml\n")
    p = lv.load_profile("top.yaml")
    assert (p.name, p.base, p.spec) == ("top", "revised", "top.yaml")  # the shipped profile at the chain's root
    stored = stored_form(p)
    assert stored == {"name": "top", "title": "top", "base": "revised", "values": {"raise.cost_per_space": 11}}
    q = from_stored(stored, "top.yaml")
    assert q == p and (q.name, q.title, q.base, q.spec) == ("top", "top", "revised", "top.yaml")
    assert q.sources["raise.cost_per_space"] == "top.yaml, stored in the record"
    assert q.sources["raise.max_height"] == lv.load_profile("revised").sources["raise.max_height"]
    no_base = from_stored({"values": lv.load_profile("original").values()}, "old.yaml")
    assert no_base.values() == lv.load_profile("original").values()
    assert (no_base.name, no_base.title, no_base.base) == ("old.yaml", "old.yaml", "")
    revised = lv.load_profile("revised")
    made = from_values(revised.values(), "sent")
    assert made.values() == revised.values() and (made.name, made.title, made.spec, made.base) == (
        "sent", "sent", "sent", "")
    assert from_values(revised.values(), "sent", "Title", "a-spec").spec == "a-spec"
    assert lv.profile.describe_parameters(made)[0] == ("players.min", 2, "")  # no citation: an empty one


@pytest.mark.parametrize("make,message", [
    (lambda s: s.from_stored({"base": "nope", "values": {}}, "x"),
     "profile: base 'nope': give a shipped profile (known: f-block, house-sell-back, original, revised)"),
    (lambda s: s.from_stored({"base": "revised", "values": {"foo.bar": 1}}, "x"),
     "profile: values: unknown parameter 'foo.bar' (see 'lv variants show revised')"),
    (lambda s: s.from_stored({"values": {"foo.bar": 1}}, "lbl"),
     "profile: values: unknown parameter 'foo.bar' (see 'lv variants show lbl')"),
    (lambda s: s.from_stored({"base": "revised", "values": {"raise.cost_per_space": "x"}}, "lbl"),
     "profile: values: raise.cost_per_space: expected int, got str 'x'"),
    (lambda s: s.from_values({"foo.bar": 1}, "nm"), "profile 'nm': unknown parameter 'foo.bar'"),
    (lambda s: s.from_values({"foo.bar": 1}, "nm", spec="sp"), "profile 'sp': unknown parameter 'foo.bar'"),
    (lambda s: s.load_profile("revised,gamble.win_even=3"),
     "profile spec 'revised,gamble.win_even=3': gamble.win_even: expected a list of int, got int 3"),
    (lambda s: s.load_profile("revised,players.colors=red"),
     "profile spec 'revised,players.colors=red': players.colors: expected a list of str, got str 'red'"),
    (lambda s: s.load_profile("revised,raise.cost_per_space=3,raise.cost_per_space=4"),
     "profile spec 'revised,raise.cost_per_space=3,raise.cost_per_space=4': raise.cost_per_space is given twice"),
])
def test_stored_and_sent_profiles_are_checked_like_files(make, message):
    with pytest.raises(lv.ProfileError) as err:
        make(lv.profile)
    assert str(err.value) == message


def test_names_and_bases_of_shipped_specs_and_of_a_full_profile_file(tmp_path):
    from lv.profile import from_values, stored_form

    p = lv.load_profile("original+f-block")
    assert (p.name, p.base) == ("original+f-block", "original+f-block")
    full = {k: v for k, v in __import__("yaml").safe_load((lv.board.variants_dir() / "revised.yaml").read_text(
        encoding="utf-8")).items() if k not in ("name", "title")}
    q = lv.load_profile(str(write(tmp_path, "full.yaml", __import__("yaml").safe_dump(full))))
    assert (q.name, q.base) == ("full", "")  # no shipped profile under it: a record stores every value
    assert stored_form(q) == {"name": "full", "title": "full", "values": q.values()}
    values = dict(lv.load_profile("revised").values(), **{"raise.cost_per_space": "x"})
    with pytest.raises(lv.ProfileError) as err:
        from_values(values, "nm")
    assert str(err.value) == "profile 'nm': raise.cost_per_space: expected int, got str 'x'"


def test_a_record_profile_reads_its_chain_relative_to_each_file_and_confines_yml_too(tmp_path):
    game = tmp_path / "game"
    (game / "sub").mkdir(parents=True)
    write(tmp_path, "outside.yml", "extends: revised\n")
    write(game, "sub/x.yaml", "extends: y.yaml\n")  # beside x.yaml, not in the record's folder
    write(game, "sub/y.yaml", "extends: revised\nraise:\n  cost_per_space: 9\n")
    write(game, "c.yaml", "extends: sub/x.yaml\n")
    assert lv.load_profile("c.yaml", folder=game).raise_.cost_per_space == 9
    write(game, "d.yaml", "extends: ../outside.yml\n")
    with pytest.raises(lv.ProfileError, match="a record names its profile file relative to its own folder"):
        lv.load_profile("d.yaml", folder=game)
    with pytest.raises(lv.ProfileError, match="a record names its profile file relative to its own folder"):
        lv.load_profile("../outside.yml", folder=game)


def test_a_profile_in_a_deep_folder_is_named_whole_and_a_huge_name_keeps_its_file(tmp_path, monkeypatch):
    # an error named a path of more than 80 characters by its first 77 ("/tmp/.../p.y..."): a deep folder's file,
    # or pytest's own folders under pytest-xdist, lost the name of the file the error is about. Relative paths
    # here, 128 and 311 characters whatever the temporary folder's length
    monkeypatch.chdir(tmp_path)
    deep = Path("d" * 60) / ("e" * 60)
    deep.mkdir(parents=True)
    path = write(deep, "p.yaml", "name: bare\ngamble:\n  per_turn: 1\n")
    assert 80 < len(str(path)) < 190
    assert str(path) in load_error(path)
    message = load_error("x" * 300 + "/q.yaml")
    assert "/q.yaml" in message and "..." in message and len(message) < 400

"""``lv diff``'s report, pinned line by line and key by key (issue 17.11: a planted change in the report went
unnoticed): the first divergence (different cards drawn, an illegal decision), boss changes (a casino on one side
only), cards that differ from the record, dice generated, decisions illegal on one side, and whether the winner is
the same."""

from __future__ import annotations

import json
from pathlib import Path

from lv.diff import diff_records
from lv.record import load_record, parse_record

ROOT = Path(__file__).resolve().parent.parent

# Under the F-block rule red's F3 is set aside and D5 comes; under the original without it red draws F3, so red's
# 'build D5 aqua' is illegal there, blue draws D5 instead of the end card, and that game is not over. The reorg's
# dice are generated (seed 0): A2 5, A3 1 make red the boss of A2+A3 on both sides.
F_BLOCK = """format: lv-game/1
profile: original+f-block
players: [red, blue]
position:
  current: red
  phase: draw
  players: {red: {money: 30, score: 8}, blue: {money: 30, score: 8}}
  markers: {B2: red}
  tiles: {A2: gold red 3, A3: gold blue 4, B1: silver red 6}
  deck: [F3, D5, END]
turns:
- player: red
  cards: [F3, D5]
  decisions:
  - reorg A2
  - build B2 silver
  - build D5 aqua
- player: blue
  cards: [END]
result: {reason: end_card, winner: blue}
"""

F_BLOCK_DIFF = """fb.yaml: original+f-block (recorded) vs original, 2 players (red, blue)

First divergence: turn 1, draw: different cards are drawn
  original+f-block: F3, D5
  original:         F3

Dice generated under original+f-block (the record lacks them):
  turn 1, decision 1 'reorg A2': reorg

Decisions illegal under original:
  turn 1, decision 3 'build D5 aqua': you have no marker on D5 [build: a lot you own]
    skipped: the turn went on without it; under original+f-block: build D5 aqua: -$8, die 1

Cards drawn under original that differ from the record:
  turn 1: record F3, D5, drawn F3
  turn 2: record END, drawn D5

Dice generated under original (the record lacks them):
  turn 1, decision 1 'reorg A2': reorg

Turn by turn (only what differs; original+f-block | original):
  turn 1 (red): money red $24 | $22, blue $38 | $34; points blue 12 | 10; bosses D5 red | (no such casino)
  turn 2 (blue): money red $37 | $36, blue $39 | $36; points blue 12 | 10; bosses D5 red | (no such casino)

Result
           original+f-block      original
  end      the end card, turn 2  not over after turn 2
  red      #2 12 pts $37         #1 12 pts $36
  blue     #1 12 pts $39         #2 10 pts $36
  leading  blue                  red
Only the game under original+f-block is over (blue wins); the record ends before the other does.
Under original+f-block, blue wins on money: tied with red on 12 points, $39 to $37."""

F_BLOCK_REVERSED = """fb.yaml: original vs original+f-block (recorded), 2 players (red, blue)

First divergence: turn 1, draw: different cards are drawn
  original:         F3
  original+f-block: F3, D5

Decisions illegal under original:
  turn 1, decision 3 'build D5 aqua': you have no marker on D5 [build: a lot you own]
    skipped: the turn went on without it; under original+f-block: build D5 aqua: -$8, die 1

Cards drawn under original that differ from the record:
  turn 1: record F3, D5, drawn F3
  turn 2: record END, drawn D5

Dice generated under original (the record lacks them):
  turn 1, decision 1 'reorg A2': reorg

Dice generated under original+f-block (the record lacks them):
  turn 1, decision 1 'reorg A2': reorg

Turn by turn (only what differs; original | original+f-block):
  turn 1 (red): money red $22 | $24, blue $34 | $38; points blue 10 | 12; bosses D5 (no such casino) | red
  turn 2 (blue): money red $36 | $37, blue $36 | $39; points blue 10 | 12; bosses D5 (no such casino) | red

Result
           original               original+f-block
  end      not over after turn 2  the end card, turn 2
  red      #1 12 pts $36          #2 12 pts $37
  blue     #2 10 pts $36          #1 12 pts $39
  leading  red                    blue
Only the game under original+f-block is over (blue wins); the record ends before the other does.
Under original+f-block, blue wins on money: tied with red on 12 points, $39 to $37."""

RAISE_DIFF = """examples/question-raise.yaml: revised (recorded) vs original, 3 players (purple, red, yellow)

First divergence: turn 1, decision 1 'raise C1': illegal under original: this profile has no Raise action [raise.enabled]
  revised:  raise C1: -$30, C1+C2 now 2 high
  original: raise C1: ILLEGAL: this profile has no Raise action [raise.enabled]; skipped

Decisions illegal under original:
  turn 1, decision 1 'raise C1': this profile has no Raise action [raise.enabled: Original rules, "Step 2: Play": the actions are build, sprawl, remodel, reorganize and gamble; no risers]
    skipped: the turn went on without it; under revised: raise C1: -$30, C1+C2 now 2 high
  turn 1, decision 2 'raise C1': this profile has no Raise action [raise.enabled: Original rules, "Step 2: Play": the actions are build, sprawl, remodel, reorganize and gamble; no risers]
    skipped: the turn went on without it; under revised: raise C1: -$30, C1+C2 now 3 high

Turn by turn (only what differs; revised | original):
  turn 1 (purple): money purple $0 | $60
  turn 2 (red): money purple $8 | $68; points purple 6 | 2

Result
           revised                original
  end      not over after turn 2  not over after turn 2
  purple   #1 6 pts $8            #1 2 pts $68
  red      #2 0 pts $31           #2 0 pts $31
  yellow   #3 0 pts $30           #3 0 pts $30
  leading  purple                 purple"""


def test_the_report_of_different_cards_a_casino_on_one_side_and_one_game_over():
    d = diff_records(parse_record(F_BLOCK, "fb.yaml"), None, "original")
    assert "\n".join(d.lines()) == F_BLOCK_DIFF
    assert d.to_dict() == {'file': 'fb.yaml',
     'players': ['red', 'blue'],
     'a': {'profile': 'original+f-block',
           'recorded': True,
           'illegal': [],
           'generated': [{'turn': 1, 'index': 1, 'decision': 'reorg A2', 'dice': ['reorg']}],
           'card_mismatches': [],
           'stopped': False,
           'unplayed_turns': 0,
           'over': True,
           'last_turn': 2,
           'result': {'reason': 'end_card',
                      'winner': 'blue',
                      'scores': {'red': 12, 'blue': 12},
                      'money': {'red': 37, 'blue': 39}},
           'standings': [{'rank': 1, 'player': 'blue', 'points': 12, 'money': 39},
                         {'rank': 2, 'player': 'red', 'points': 12, 'money': 37}],
           'winner_decided_by': 'money'},
     'b': {'profile': 'original',
           'recorded': False,
           'illegal': [{'turn': 1,
                        'index': 3,
                        'decision': 'build D5 aqua',
                        'reason': 'you have no marker on D5',
                        'rule': 'build: a lot you own',
                        'handled': 'skipped'}],
           'generated': [{'turn': 1, 'index': 1, 'decision': 'reorg A2', 'dice': ['reorg']}],
           'card_mismatches': [{'turn': 1, 'recorded': ['F3', 'D5'], 'drawn': ['F3']},
                               {'turn': 2, 'recorded': ['END'], 'drawn': ['D5']}],
           'stopped': False,
           'unplayed_turns': 0,
           'over': False,
           'last_turn': 2,
           'result': None,
           'standings': [{'rank': 1, 'player': 'red', 'points': 12, 'money': 36},
                         {'rank': 2, 'player': 'blue', 'points': 10, 'money': 36}],
           'winner_decided_by': None},
     'first_divergence': {'turn': 1, 'step': 'draw', 'what': 'different cards are drawn', 'a': 'F3, D5', 'b': 'F3'},
     'turns': [{'turn': 1,
                'player': 'red',
                'money': {'red': [24, 22], 'blue': [38, 34]},
                'points': {'blue': [12, 10]},
                'bosses': [{'lots': ['D5'], 'a': 'red', 'b': None, 'present': 'a'}],
                'ended': None},
               {'turn': 2,
                'player': 'blue',
                'money': {'red': [37, 36], 'blue': [39, 36]},
                'points': {'blue': [12, 10]},
                'bosses': [{'lots': ['D5'], 'a': 'red', 'b': None, 'present': 'a'}],
                'ended': None}],
     'illegal': [{'side': 'b',
                  'profile': 'original',
                  'turn': 1,
                  'index': 3,
                  'decision': 'build D5 aqua',
                  'reason': 'you have no marker on D5',
                  'rule': 'build: a lot you own',
                  'handled': 'skipped',
                  'source': '',
                  'instead': 'build D5 aqua: -$8, die 1'}],
     'same_winner': False}


def test_the_report_the_other_way_round():
    d = diff_records(parse_record(F_BLOCK, "fb.yaml"), "original", "original+f-block")
    assert "\n".join(d.lines()) == F_BLOCK_REVERSED
    t = d.to_dict()
    assert [b for turn in t["turns"] for b in turn["bosses"]] == [{"lots": ["D5"], "a": None, "b": "red",
                                                                   "present": "b"}] * 2
    assert t["a"]["recorded"] is False and t["b"]["recorded"] is True and t["same_winner"] is False
    assert t["illegal"][0]["side"] == "a" and t["illegal"][0]["profile"] == "original"
    assert t == mirrored(diff_records(parse_record(F_BLOCK, "fb.yaml"), None, "original").to_dict())


def test_the_report_of_an_illegal_raise():
    d = diff_records(load_record(ROOT / "examples" / "question-raise.yaml"), None, "original")
    assert "\n".join(d.lines()).replace(str(ROOT / "examples") + "/", "examples/") == RAISE_DIFF
    t = json.loads(json.dumps(d.to_dict()))
    t["file"] = "examples/question-raise.yaml"
    assert t == {'file': 'examples/question-raise.yaml',
     'players': ['purple', 'red', 'yellow'],
     'a': {'profile': 'revised',
           'recorded': True,
           'illegal': [],
           'generated': [],
           'card_mismatches': [],
           'stopped': False,
           'unplayed_turns': 0,
           'over': False,
           'last_turn': 2,
           'result': None,
           'standings': [{'rank': 1, 'player': 'purple', 'points': 6, 'money': 8},
                         {'rank': 2, 'player': 'red', 'points': 0, 'money': 31},
                         {'rank': 3, 'player': 'yellow', 'points': 0, 'money': 30}],
           'winner_decided_by': None},
     'b': {'profile': 'original',
           'recorded': False,
           'illegal': [{'turn': 1,
                        'index': 1,
                        'decision': 'raise C1',
                        'reason': 'this profile has no Raise action',
                        'rule': 'raise.enabled',
                        'handled': 'skipped'},
                       {'turn': 1,
                        'index': 2,
                        'decision': 'raise C1',
                        'reason': 'this profile has no Raise action',
                        'rule': 'raise.enabled',
                        'handled': 'skipped'}],
           'generated': [],
           'card_mismatches': [],
           'stopped': False,
           'unplayed_turns': 0,
           'over': False,
           'last_turn': 2,
           'result': None,
           'standings': [{'rank': 1, 'player': 'purple', 'points': 2, 'money': 68},
                         {'rank': 2, 'player': 'red', 'points': 0, 'money': 31},
                         {'rank': 3, 'player': 'yellow', 'points': 0, 'money': 30}],
           'winner_decided_by': None},
     'first_divergence': {'turn': 1,
                          'step': "decision 1 'raise C1'",
                          'what': 'illegal under original: this profile has no Raise action [raise.enabled]',
                          'a': 'raise C1: -$30, C1+C2 now 2 high',
                          'b': 'raise C1: ILLEGAL: this profile has no Raise action [raise.enabled]; skipped'},
     'turns': [{'turn': 1,
                'player': 'purple',
                'money': {'purple': [0, 60]},
                'points': {},
                'bosses': [],
                'ended': None},
               {'turn': 2,
                'player': 'red',
                'money': {'purple': [8, 68]},
                'points': {'purple': [6, 2]},
                'bosses': [],
                'ended': None}],
     'illegal': [{'side': 'b',
                  'profile': 'original',
                  'turn': 1,
                  'index': 1,
                  'decision': 'raise C1',
                  'reason': 'this profile has no Raise action',
                  'rule': 'raise.enabled',
                  'handled': 'skipped',
                  'source': 'Original rules, "Step 2: Play": the actions are build, sprawl, remodel, reorganize '
                            'and gamble; no risers',
                  'instead': 'raise C1: -$30, C1+C2 now 2 high'},
                 {'side': 'b',
                  'profile': 'original',
                  'turn': 1,
                  'index': 2,
                  'decision': 'raise C1',
                  'reason': 'this profile has no Raise action',
                  'rule': 'raise.enabled',
                  'handled': 'skipped',
                  'source': 'Original rules, "Step 2: Play": the actions are build, sprawl, remodel, reorganize '
                            'and gamble; no risers',
                  'instead': 'raise C1: -$30, C1+C2 now 3 high'}],
     'same_winner': True}


# The same reorganization costs more under B, where the game ends at once (blue is on the lowered target): the
# divergence is a decision's effect, three recorded turns are not played there, the winner changes; C1's casino
# has no die and so no boss.
ENDS = """format: lv-game/1
profile: revised
players: [red, blue]
position:
  current: red
  phase: actions
  players: {red: {money: 40, score: 18}, blue: {money: 40, score: 20}}
  tiles: {A2: gold red 3, A3: gold blue 4, D1: silver red 6, D2: silver blue 5, D3: silver blue 1, C1: aqua}
  deck: [D4, A4, B1, END]
turns:
- player: red
  cards: []
  decisions:
  - {do: reorg A2, dice: {reorg: {A2: 6, A3: 1}}}
- player: blue
  cards: [D4]
- player: red
  cards: [A4]
  decisions:
  - build A4 gold
- player: blue
  cards: [B1]
- player: red
  cards: [END]
"""
LOWER = "revised,reorg.cost_per_pip=2,end.instant_win_points=20"

ENDS_DIFF = """ends.yaml: revised (recorded) vs revised,reorg.cost_per_pip=2,end.instant_win_points=20, 2 players (red, blue)

First divergence: turn 1, decision 1 'reorg A2': the decision has a different effect
  revised:                                                red reorganizes: -$7, new dice A2 6, A3 1
  revised,reorg.cost_per_pip=2,end.instant_win_points=20: red reorganizes: -$14, new dice A2 6, A3 1

Under revised,reorg.cost_per_pip=2,end.instant_win_points=20 the game ended before the record did: 3 recorded turns not played.

Turn by turn (only what differs; revised | revised,reorg.cost_per_pip=2,end.instant_win_points=20):
  turn 1 (red): money red $33 | $26
  turn 2 (blue): money red $33 | $26
  turn 3 (red): played only under revised (the other game is over)
  turn 4 (blue): played only under revised (the other game is over)
  turn 5 (red): played only under revised (the other game is over)

Result
          revised               revised,reorg.cost_per_pip=2,end.instant_win_points=20
  end     the end card, turn 5  an instant win, turn 2
  red     #1 23 pts $50         #2 18 pts $26
  blue    #2 20 pts $55         #1 20 pts $41
  winner  red                   blue
The winner changes: red under revised, blue under revised,reorg.cost_per_pip=2,end.instant_win_points=20."""

ENDS_REVERSED = """ends.yaml: revised,reorg.cost_per_pip=2,end.instant_win_points=20 vs revised (recorded), 2 players (red, blue)

First divergence: turn 1, decision 1 'reorg A2': the decision has a different effect
  revised,reorg.cost_per_pip=2,end.instant_win_points=20: red reorganizes: -$14, new dice A2 6, A3 1
  revised:                                                red reorganizes: -$7, new dice A2 6, A3 1

Under revised,reorg.cost_per_pip=2,end.instant_win_points=20 the game ended before the record did: 3 recorded turns not played.

Turn by turn (only what differs; revised,reorg.cost_per_pip=2,end.instant_win_points=20 | revised):
  turn 1 (red): money red $26 | $33
  turn 2 (blue): money red $26 | $33
  turn 3 (red): played only under revised (the other game is over)
  turn 4 (blue): played only under revised (the other game is over)
  turn 5 (red): played only under revised (the other game is over)

Result
          revised,reorg.cost_per_pip=2,end.instant_win_points=20  revised
  end     an instant win, turn 2                                  the end card, turn 5
  red     #2 18 pts $26                                           #1 23 pts $50
  blue    #1 20 pts $41                                           #2 20 pts $55
  winner  blue                                                    red
The winner changes: blue under revised,reorg.cost_per_pip=2,end.instant_win_points=20, red under revised."""


def test_the_report_of_a_different_effect_and_a_game_that_ends_first():
    d = diff_records(parse_record(ENDS, "ends.yaml"), None, LOWER)
    assert "\n".join(d.lines()) == ENDS_DIFF
    t = d.to_dict()
    assert {k: t[k] for k in ("first_divergence", "turns", "illegal", "same_winner")} == {'first_divergence': {'turn': 1,
                          'step': "decision 1 'reorg A2'",
                          'what': 'the decision has a different effect',
                          'a': 'red reorganizes: -$7, new dice A2 6, A3 1',
                          'b': 'red reorganizes: -$14, new dice A2 6, A3 1'},
     'turns': [{'turn': 1, 'player': 'red', 'money': {'red': [33, 26]}, 'points': {}, 'bosses': [], 'ended': None},
               {'turn': 2, 'player': 'blue', 'money': {'red': [33, 26]}, 'points': {}, 'bosses': [], 'ended': None},
               {'turn': 3, 'player': 'red', 'money': {}, 'points': {}, 'bosses': [], 'ended': 'b'},
               {'turn': 4, 'player': 'blue', 'money': {}, 'points': {}, 'bosses': [], 'ended': 'b'},
               {'turn': 5, 'player': 'red', 'money': {}, 'points': {}, 'bosses': [], 'ended': 'b'}],
     'illegal': [],
     'same_winner': False}
    assert (t["a"]["over"], t["b"]["over"], t["a"]["last_turn"], t["b"]["last_turn"], t["b"]["unplayed_turns"]) == \
        (True, True, 5, 2, 3)


def mirrored(t: dict) -> dict:
    """A diff's data with its two sides swapped: what the diff the other way round must give."""
    swap = {"a": "b", "b": "a"}
    first = dict(t["first_divergence"], a=t["first_divergence"]["b"], b=t["first_divergence"]["a"])
    turns = [dict(turn, money={k: v[::-1] for k, v in turn["money"].items()},
                  points={k: v[::-1] for k, v in turn["points"].items()},
                  bosses=[dict(b, a=b["b"], b=b["a"], present=swap.get(b["present"], b["present"]))
                          for b in turn["bosses"]],
                  ended=swap.get(turn["ended"])) for turn in t["turns"]]
    return {**t, "a": t["b"], "b": t["a"], "first_divergence": first, "turns": turns,
            "illegal": [dict(i, side=swap[i["side"]]) for i in t["illegal"]]}


def test_the_report_of_a_game_that_ends_first_the_other_way_round():
    d = diff_records(parse_record(ENDS, "ends.yaml"), LOWER, "revised")
    assert "\n".join(d.lines()) == ENDS_REVERSED
    assert d.to_dict() == mirrored(diff_records(parse_record(ENDS, "ends.yaml"), None, LOWER).to_dict())


def test_a_replay_that_stopped_is_not_called_over():
    """A side whose replay stopped at an illegal decision (--on-illegal stop) has stopped, not ended: its missing
    turns and the result say so (round 6's note: they said "the other game is over")."""
    d = diff_records(parse_record(ENDS, "ends.yaml"), None, "revised,reorg.cost_per_pip=100", on_illegal="stop")
    lines = d.lines()
    assert "  turn 2 (blue): played only under revised (the other game stopped after turn 1)" in lines
    assert not any("is over)" in line for line in lines)
    assert lines[-1] == ("Only the game under revised is over (red wins); the other replay stopped before its end "
                         "(above).")
    d = diff_records(parse_record(ENDS, "ends.yaml"), None, LOWER)  # a game that did end: still "is over"
    assert "  turn 3 (red): played only under revised (the other game is over)" in d.lines()

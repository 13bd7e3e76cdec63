"""Fuzz: game records mutated from the shipped examples, and random bytes, through the command line (check,
replay, show, legal, diff, move, render) and the Python API (parse_record, replay, the narrative, JSON).
The rule is in hostile.py."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hostile import EXAMPLES, call, fuzz_settings, load_data, mutated, run_cli, to_text
from hostile import tally  # noqa: F401 - the fixture
from lv import narrative, record, replay

BASES = [load_data(p) for p in EXAMPLES]
SMALL = [load_data(p) for p in EXAMPLES if p.stat().st_size < 2000]  # the question-* records: fast to replay
COMMANDS = [["check"], ["check", "--json"], ["replay"], ["replay", "--json"], ["show"], ["legal", "--json"],
            ["legal"], ["diff", "-v", "original"], ["move", "end"], ["render"]]


@pytest.mark.slow
def test_mutated_records_through_the_cli(tally, tmp_path):
    @fuzz_settings(70)
    @given(st.data())
    def case(data):
        base = data.draw(st.sampled_from(SMALL if data.draw(st.integers(0, 3)) else BASES))
        text = to_text(data.draw(mutated(base)), as_json=data.draw(st.booleans()))
        path = tmp_path / "r.yaml"
        path.write_text(text, encoding="utf-8")
        command = data.draw(st.sampled_from(COMMANDS))
        run_cli(tally, [command[0], str(path), *command[1:]])

    case()
    tally.settle()


@pytest.mark.slow
def test_mutated_records_through_the_api(tally):
    @fuzz_settings(50)
    @given(st.data())
    def case(data):
        text = to_text(data.draw(mutated(data.draw(st.sampled_from(SMALL)))), as_json=data.draw(st.booleans()))
        rec = call(tally, record.parse_record, text, "fuzz.yaml")
        if rec is None:
            return
        for profile, on_illegal in ((None, "stop"), ("original", "skip")):
            rep = call(tally, replay.replay, rec, profile, on_illegal=on_illegal)
            if rep is not None:
                call(tally, narrative.replay_lines, rep)
                call(tally, lambda: json.dumps(rep.to_dict()))

    case()
    tally.settle()


@pytest.mark.slow
def test_random_bytes_as_a_record(tally, tmp_path):
    header = b"format: lv-game/1\nprofile: revised\nplayers: [red, blue]\n"

    @fuzz_settings(40)
    @given(st.binary(max_size=200), st.sampled_from([b"", header]), st.sampled_from([["check"], ["replay"],
                                                                                      ["show", "--json"]]))
    def case(blob, head, command):
        path = tmp_path / "bytes.yaml"
        path.write_bytes(head + blob)
        run_cli(tally, [command[0], str(path), *command[1:]])

    case()
    tally.settle()


@pytest.mark.slow
def test_random_text_as_a_record(tally, tmp_path):
    @fuzz_settings(30)
    @given(st.text(max_size=200))
    def case(text):
        path = tmp_path / "text.yaml"
        path.write_text(text, encoding="utf-8")
        run_cli(tally, ["replay", str(path)])

    case()
    tally.settle()

"""The replay viewer (issue 13, point 6): ``lv view game.yaml -o game.html`` writes one self-contained page with
the board of every turn, a slider and arrow keys, the turn's narrative and the standings; ``--diff`` and
``lv diff --html`` put two profiles side by side. Text from files is escaped.

The browser tests drive a real headless Chromium (the system's package) over the DevTools protocol on a pipe:
real key presses, the page's own script. They are skipped, with the reason, where no Chromium is installed.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lv import cli
import lv
from lv import record, view
from lv.narrative import turn_lines
from lv.record import load_record

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "revised-4p.yaml"
HOSTILE = ["<script>window.pwned=1</script>", "<b>bold</b>", "amp&quot"]


def invoke(*args: str):
    return CliRunner().invoke(cli.app, [str(a) for a in args])


@pytest.fixture(scope="module")
def page_path(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("view") / "game.html"
    res = invoke("view", EXAMPLE, "-o", out)
    assert res.exit_code == 0, res.stderr
    return out


@pytest.fixture(scope="module")
def hostile_path(tmp_path_factory) -> Path:
    """A short game whose players are named with HTML."""
    game = lv.new_game("revised", HOSTILE, seed=3)
    _play_turns(game, 4)
    folder = tmp_path_factory.mktemp("hostile")
    rec = folder / "hostile.yaml"
    rec.write_text(record.dumps(record.record_of(game, "revised")), encoding="utf-8")
    out = folder / "hostile.html"
    res = invoke("view", rec, "-o", out)
    assert res.exit_code == 0, res.stderr
    return out


def _play_turns(game, turns: int) -> None:
    import random

    rng = random.Random(3)
    while game.state.turn < turns and not game.over:
        game.apply(rng.choice(game.legal_actions()))


# ---------------------------------------------------------------------------------------------- the page


def test_the_page_is_self_contained(page_path):
    html = page_path.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>")
    # nothing to fetch: no links, scripts or images from elsewhere; the only URL is the SVG namespace name
    assert re.findall(r"https?://[^\s\"'<>]+", html) == ["http://www.w3.org/2000/svg"] * html.count("<svg ")
    for fetching in ("<link", " src=", "@import", "url(", "<iframe", "<img"):
        assert fetching not in html, fetching
    assert html.count("<script>") == 1 and html.count("<style>") == 1


def test_a_frame_per_turn_with_its_board_narrative_and_standings(page_path):
    html = page_path.read_text(encoding="utf-8")
    rep, frames = view.frames_of(load_record(EXAMPLE))
    assert len(frames) == len(rep.turns) == 31 == html.count('class="frame"')
    assert [f.turn for f in frames] == list(range(1, 32))
    for f in frames:
        ET.fromstring(f.svg)  # each board is well-formed SVG
    names = rep.record.players
    twelfth = rep.turns[11]
    status = list(zip(names, rep.snapshots[11].scores, rep.snapshots[11].money))
    assert list(frames[11].lines) == turn_lines(twelfth.turn, names, twelfth.steps, status)
    # the last frame's standings are the final ones: green wins (the record's result)
    assert frames[-1].standings[0]["player"] == "green" == rep.game.result.winner_name
    assert 'max="30"' in html


def test_text_from_the_file_is_escaped(hostile_path):
    html = hostile_path.read_text(encoding="utf-8")
    assert "<script>window.pwned" not in html and "<b>bold</b>" not in html
    assert "&lt;script&gt;window.pwned=1&lt;/script&gt;" in html
    assert html.count("<script>") == 1  # the page's own


@pytest.fixture(scope="module")
def diff_path(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("diff") / "diff.html"
    res = invoke("view", EXAMPLE, "--diff", "original", "-o", out)
    assert res.exit_code == 0, res.stderr
    return out


def test_diff_view_puts_both_profiles_side_by_side(diff_path, tmp_path):
    html = diff_path.read_text(encoding="utf-8")
    assert html.count('class="side"') == 2 and "<h2>revised (recorded)</h2>" in html and "<h2>original</h2>" in html
    assert "First divergence: turn 14" in html  # what lv diff says (examples/revised-4p.yaml: the first raise)
    again = tmp_path / "again.html"
    res = invoke("diff", EXAMPLE, "-v", "original", "--html", again)
    assert res.exit_code == 0 and again.read_text(encoding="utf-8") == html


def test_view_refuses_a_file_that_is_not_html(tmp_path):
    res = invoke("view", EXAMPLE, "-o", tmp_path / "game.svg")
    assert res.exit_code == 2 and "give a file ending in .html" in res.stderr
    assert not (tmp_path / "game.svg").exists()


# ---------------------------------------------------------------------------------------------- in a browser

CHROMIUM = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)),
                None)
needs_browser = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed (Debian: apt-get install "
                                                           "chromium): the viewer's browser tests need one")


class Browser:
    """Headless Chromium driven over the DevTools protocol on a pipe (fds 3 and 4): no extra package."""

    def __init__(self) -> None:
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()

        def fds() -> None:
            os.dup2(to_chrome_r, 3)
            os.dup2(from_chrome_w, 4)

        self.proc = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             "--no-first-run", "--disable-extensions", "--window-size=1400,1000", "about:blank"],
            preexec_fn=fds, close_fds=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buffer = b""
        self._id = 0
        self.session: str | None = None

    def send(self, method: str, **params) -> dict:
        self._id += 1
        message = {"id": self._id, "method": method, "params": params}
        if self.session and not method.startswith("Target."):
            message["sessionId"] = self.session
        os.write(self._to_chrome, json.dumps(message).encode() + b"\0")
        while True:
            while b"\0" not in self._buffer:
                chunk = os.read(self._from_chrome, 1 << 16)
                if not chunk:
                    raise RuntimeError("Chromium closed the pipe")
                self._buffer += chunk
            raw, self._buffer = self._buffer.split(b"\0", 1)
            reply = json.loads(raw)
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]

    def open(self, url: str) -> None:
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.send("Page.enable")
        self.send("Page.navigate", url=url)
        for _ in range(200):
            if self.js("document.readyState") == "complete" and self.js("!!document.body.dataset.shown"):
                return
            subprocess.run(["sleep", "0.05"])
        raise RuntimeError(f"{url} did not load")

    def js(self, expression: str):
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(result["exceptionDetails"])
        return result["result"].get("value")

    def key(self, key: str, code: int) -> None:
        for kind in ("rawKeyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", type=kind, key=key, code=key, windowsVirtualKeyCode=code)

    def screenshot(self, path: Path) -> None:
        path.write_bytes(base64.b64decode(self.send("Page.captureScreenshot", format="png")["data"]))

    def close(self) -> None:
        try:
            self.send("Browser.close")
        except (RuntimeError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        os.close(self._to_chrome)
        os.close(self._from_chrome)


@pytest.fixture(scope="module")
def browser():
    b = Browser()
    yield b
    b.close()


VISIBLE = ("Array.from(document.querySelectorAll('.frame')).filter(f => f.offsetParent !== null)"
           ".map(f => f.dataset.turn)")


@needs_browser
def test_arrow_keys_and_the_slider_move_between_turns(browser, page_path, tmp_path):
    browser.open(page_path.as_uri())
    assert browser.js(VISIBLE) == ["1"]
    assert browser.js("document.getElementById('label').textContent") == "Turn 1 (1 of 31)"
    browser.key("ArrowRight", 39)
    browser.key("ArrowRight", 39)
    assert browser.js(VISIBLE) == ["3"] and browser.js("document.getElementById('slider').value") == "2"
    browser.key("ArrowLeft", 37)
    assert browser.js(VISIBLE) == ["2"]
    browser.key("End", 35)
    assert browser.js(VISIBLE) == ["31"]
    browser.key("ArrowRight", 39)  # past the last turn: stays
    assert browser.js(VISIBLE) == ["31"]
    # the slider, as a user drags it
    browser.js("const s = document.getElementById('slider'); s.value = '11'; "
               "s.dispatchEvent(new Event('input'))")
    assert browser.js(VISIBLE) == ["12"]
    shown = browser.js("document.querySelector('.frame:not([hidden]) .narrative').textContent")
    assert shown.startswith("Turn 12 - purple draws E5 (brown)")
    assert browser.js("document.querySelector('.frame:not([hidden]) .standings').rows.length") == 5
    assert browser.js("document.querySelectorAll('.frame:not([hidden]) svg .lot').length") == 48
    # the board is drawn: its SVG has a real size on the page
    assert browser.js("document.querySelector('.frame:not([hidden]) svg').getBoundingClientRect().width") > 400
    browser.screenshot(Path(os.environ.get("LV_VIEW_SCREENSHOT", tmp_path / "view.png")))


@needs_browser
def test_a_hostile_name_is_shown_not_run(browser, hostile_path):
    browser.open(hostile_path.as_uri())
    assert browser.js("typeof window.pwned") == "undefined"
    assert browser.js("document.querySelectorAll('b').length") == 0
    text = browser.js("document.querySelector('.frame:not([hidden]) .standings').textContent")
    assert HOSTILE[0] in text and HOSTILE[1] in text


@needs_browser
def test_the_diff_view_moves_both_sides_together(browser, diff_path):
    browser.open(diff_path.as_uri())
    browser.key("End", 35)
    assert browser.js(VISIBLE) == ["31", "31"]
    assert browser.js("document.getElementById('label').textContent") == "Turn 31 | 31 (31 of 31)"

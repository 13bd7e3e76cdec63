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
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lv import cli
import lv
from lv import record, render, view
from lv.narrative import turn_lines
from lv.record import load_record

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "revised-4p.yaml"
HOSTILE = ["<script>window.pwned++</script>", "<b>bold</b>", "amp&quot"]


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
    # nothing to fetch: no links, scripts or images from elsewhere; the only URL is the SVG namespace name, in
    # the boards' data (each distinct line of the boards once)
    assert re.findall(r"https?://[^\s\"'<>\\]+", html) == ["http://www.w3.org/2000/svg"]
    for fetching in ("<link", " src=", "@import", "url(", "<iframe", "<img"):
        assert fetching not in html, fetching
    assert html.count("<script>") == 1 and html.count("<style>") == 1
    # the data is inert (JSON, not a script) and holds no markup that could end its element
    data = html[html.index('<script type="application/json" id="lv-data">'):]
    data = data[data.index(">") + 1:data.index("</script>")]
    assert "<" not in data and ">" not in data and json.loads(data)["lines"]


def test_a_frame_per_draw_and_per_decision_with_its_board_narrative_and_standings(page_path):
    html = page_path.read_text(encoding="utf-8")
    rep, frames = view.frames_of(load_record(EXAMPLE))
    decisions = sum(len(p.steps) for p in rep.turns)
    assert len(frames) == len(rep.turns) + decisions == 31 + 73 == html.count('class="pos"')
    assert [f.key for f in frames] == sorted(f.key for f in frames) and frames[0].key == (1, 0)
    assert [f.key for f in frames if f.turn == 14] == [(14, 0), (14, 1), (14, 2), (14, 3), (14, 4)]
    for f in frames[:3]:
        ET.fromstring("\n".join(f.board))  # each board is well-formed SVG
    # a turn's frames tell the turn as lv replay does: the draw, then each decision
    names = rep.record.players
    for play in rep.turns:
        told = [line for f in frames if f.turn == play.turn.number
                for line in (f.lines if f.step == 0 else ["  " + x for x in f.lines])]
        assert told == turn_lines(play.turn, names, play.steps)
    # the last frame's standings are the final ones: blue wins (the record's result)
    assert frames[-1].standings[0]["player"] == "blue" == rep.game.result.winner_name
    assert 'max="103"' in html


def test_a_decision_frames_the_lots_it_touched():
    frames = {f.key: f for f in view.frames_of(load_record(EXAMPLE))[1]}
    assert frames[(14, 1)].lines[0].startswith("build B5 brown") and frames[(14, 1)].touched == ("B5",)
    assert frames[(20, 3)].lines[0] == "raise D2: -$30, D2+D3 now 2 high"
    assert frames[(20, 3)].touched == ("D2", "D3")  # the casino raised, both its lots
    assert frames[(20, 1)].lines[0] == "reorg D2: -$4, new dice D2 2, D3 3" and frames[(20, 1)].touched == ("D2", "D3")
    # the lot played at, not its casino's other lots (F6+F7+F8+F9)
    assert frames[(14, 2)].lines[0].startswith("gamble F6 8") and frames[(14, 2)].touched == ("F6",)
    assert frames[(14, 0)].touched == ()  # the drawn lot is framed in red already (render.drawn_lots)


def test_the_page_stores_each_board_line_once(page_path):
    html = page_path.read_text(encoding="utf-8")
    assert len(html) < 600_000  # 104 boards of ~50 kB each, drawn whole, would be 5.2 MB
    data = json.loads(re.search(r'<script type="application/json" id="lv-data">(.*?)</script>', html, re.S)[1])
    lines = data["lines"]
    assert len(lines) == len(set(lines)) and len(data["keys"]) == len(data["boards"][0]) == 104
    frames = view.frames_of(load_record(EXAMPLE))[1]
    f = frames[data["keys"].index([20, 3])]
    board = [lines[i] for i in data["boards"][0][data["keys"].index([20, 3])]]
    assert board[:-1] == [*f.board[:-1], *[render.mark(lv.load_board(), lot, "step") for lot in ("D2", "D3")]]
    assert board[-1] == "</svg>"


def test_every_board_label_is_one_the_page_sizes(page_path):
    """The viewer's boards (render.svg scalable): each text has a class of render.SCALABLE_LABELS, which the
    page's CSS keeps at 12 px or more (the browser test measures it); lv render's SVG is drawn as before."""
    game = lv.new_game("revised", ["black", "blue", "green", "purple"], seed=7)
    _play_turns(game, 20)
    assert game.state.tiles and game.state.markers
    ns = "{http://www.w3.org/2000/svg}"
    texts = ET.fromstring(render.svg(game, panel=False, scalable=True)).iter(ns + "text")
    classes = {t.get("class") for t in texts}
    assert classes <= set(render.SCALABLE_LABELS) and {"lot-id", "price", "owned-price", "street"} <= classes
    plain = render.svg(game, panel=False)
    assert 'class="lot-id"' not in plain and 'class="street"' not in plain
    css = page_path.read_text(encoding="utf-8")
    for name, size in render.SCALABLE_LABELS.items():
        assert f".board svg .{name} {{ font-size: max({size}px, calc(var(--k, 1) * 12.1px)); }}" in css


def test_no_spoiler_before_the_last_position(page_path):
    html = page_path.read_text(encoding="utf-8")
    positions = re.findall(r'<div class="pos".*?(?=<div class="pos"|<h2>Moves)', html, re.S)
    assert len(positions) == 104
    assert all("blue wins" not in p and "Game over" not in p and "game ends" not in p for p in positions[:-1])
    assert "Game over after turn 31 (the end card): blue wins" in positions[-1]
    # above the board, only what the record says before play; the result waits behind its toggle
    top = html[:html.index('<div id="positions">')]
    assert " wins" not in top and "blue wins" in html[html.index('<details class="result">'):]


def test_text_from_the_file_is_escaped(hostile_path):
    html = hostile_path.read_text(encoding="utf-8")
    assert "<script>window.pwned" not in html and "<b>bold</b>" not in html
    assert "&lt;script&gt;window.pwned++&lt;/script&gt;" in html
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
    # what lv diff says (examples/revised-4p.yaml: the first raise), each turn it names a link there
    assert 'First divergence: <a href="#turn=6&amp;d=3">turn 6, decision 3</a>' in html
    assert '<a href="#turn=7&amp;d=3">turn 7</a> (blue): money' in html  # the end of the turn, compared
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
        # a profile of its own: a Chromium already running on the default one would take the pipe's place
        self._profile = tempfile.TemporaryDirectory(prefix="lv-chromium-")
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()

        def fds() -> None:
            # copies first, so that neither end is closed by the other's dup2 when it sits on 3 or 4; then
            # inheritable, which dup2 onto the same number leaves as it was (pipes are made close-on-exec)
            into, out = os.dup(to_chrome_r), os.dup(from_chrome_w)
            os.dup2(into, 3)
            os.dup2(out, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)

        self.proc = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             "--no-first-run", "--disable-extensions", "--disable-quic", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--window-size=1400,1000",
             f"--user-data-dir={self._profile.name}", "about:blank"],
            preexec_fn=fds, close_fds=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buffer = b""
        self._id = 0
        self.session: str | None = None
        self.size = (1400, 1000)

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
        self._emulate()
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

    def resize(self, width: int, height: int) -> None:
        """The window's inner size in CSS pixels (a phone's when narrow), for this page and those opened next."""
        self.size = (width, height)
        if self.session:
            self._emulate()

    def _emulate(self) -> None:
        width, height = self.size
        self.send("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1,
                  mobile=width < 600)

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
        self._profile.cleanup()


@pytest.fixture(scope="module")
def browser():
    b = Browser()
    yield b
    b.close()


SHOWN = ("Array.from(document.querySelectorAll('.pos')).filter(p => p.offsetParent !== null)"
         ".map(p => p.dataset.turn + '.' + p.dataset.d)")
LABEL = "document.getElementById('label').textContent"
CURRENT = "document.querySelector('#moves a.current').textContent"
RIGHT, LEFT, UP, DOWN = ("ArrowRight", 39), ("ArrowLeft", 37), ("ArrowUp", 38), ("ArrowDown", 40)
# the smallest font size in CSS pixels of any text: of the page (hidden positions included) and of the boards
# shown (an SVG text at its drawn size: its font size in the board's units times the board's scale)
SMALLEST_FONT = """(() => { let min = 1000, what = '';
  for (const el of document.querySelectorAll('body *')) {
    if (['SCRIPT', 'STYLE', 'title'].includes(el.tagName)) continue;
    if (![...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
    let size = parseFloat(getComputedStyle(el).fontSize);
    if (el.closest('svg')) {
      if (!el.checkVisibility()) continue;
      const m = el.getScreenCTM();
      size *= Math.hypot(m.a, m.b);
    }
    if (size < min) { min = size; what = el.tagName + ': ' + el.textContent.trim().slice(0, 40); }
  }
  return [min, what]; })()"""
# the boards' texts shown that overlap another: the letters' boxes (the em box less the space above the capitals
# and below the baseline, DejaVu Sans: ascent 0.928, descent 0.236 of the size)
OVERLAPS = """(() => { const out = [];
  for (const board of document.querySelectorAll('.board')) {
    const boxes = [...board.querySelectorAll('svg text')].filter(t => t.checkVisibility()).map(t => {
      const r = t.getBoundingClientRect(), em = r.height / 1.164;
      return [t.textContent, r.left, r.right, r.top + 0.2 * em, r.bottom - 0.236 * em]; });
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
      const [a, al, ar, at, ab] = boxes[i], [b, bl, br, bt, bb] = boxes[j];
      if (a === b && al === bl && at === bt) continue;  // the Strip's name over its outline
      if (Math.min(ar, br) - Math.max(al, bl) > 0.5 && Math.min(ab, bb) - Math.max(at, bt) > 0.5) out.push([a, b]);
    }
  }
  return out; })()"""


def shots_dir(tmp_path: Path) -> Path:
    """Where the screenshots go: $LV_VIEW_SHOTS (to look at them) or the test's own folder."""
    folder = Path(os.environ.get("LV_VIEW_SHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.mark.slow
@needs_browser
def test_arrow_keys_step_decision_by_decision_and_the_address_follows(browser, page_path):
    browser.resize(1280, 800)
    browser.open(page_path.as_uri())
    assert browser.js(SHOWN) == ["1.0"] and browser.js(LABEL) == "Turn 1 · the draw (1 decision) · 1 / 104"
    browser.key(*RIGHT)
    assert browser.js(SHOWN) == ["1.1"] and browser.js("location.hash") == "#turn=1&d=1"
    assert browser.js(LABEL) == "Turn 1 · decision 1 of 1 · 2 / 104"
    assert browser.js(CURRENT) == "build F2 brown: -$9, die 3"
    assert browser.js("[...document.querySelectorAll('#moves [aria-current]')].map(a => a.dataset.pos)") == ["1"]
    # the board shows the state after that decision, the lot built framed
    assert browser.js("document.querySelector('#lot-F2').dataset.state") == "tile"
    assert browser.js("[...document.querySelectorAll('.board .mark-step')].map(m => m.dataset.lot)") == ["F2"]
    browser.key(*LEFT)
    assert browser.js(SHOWN) == ["1.0"] and browser.js("document.querySelector('#lot-F2').dataset.state") == "marker"
    browser.key(*RIGHT)
    browser.key(*RIGHT)
    assert browser.js(SHOWN) == ["2.0"] and browser.js("location.hash") == "#turn=2"
    assert browser.js(LABEL) == "Turn 2 · the draw, no decision · 3 / 104"
    browser.key(*RIGHT)  # turn 2 has no decision: on to turn 3's draw
    assert browser.js(SHOWN) == ["3.0"] and browser.js("location.hash") == "#turn=3"
    browser.key(*DOWN)  # the next turn's draw
    assert browser.js(SHOWN) == ["4.0"]
    browser.key(*UP)
    assert browser.js(SHOWN) == ["3.0"]
    browser.key("End", 35)
    assert browser.js(SHOWN) == ["31.0"] and browser.js("location.hash") == "#turn=31"
    browser.key(*RIGHT)  # past the last position: stays
    assert browser.js(SHOWN) == ["31.0"]
    browser.key("Home", 36)
    assert browser.js(SHOWN) == ["1.0"]
    # the slider, as a user drags it
    browser.js("const s = document.getElementById('slider'); s.value = '10'; s.dispatchEvent(new Event('input'))")
    assert browser.js(SHOWN) == ["6.3"] and browser.js("location.hash") == "#turn=6&d=3"
    shown = browser.js("document.querySelector('.pos:not([hidden]) .narrative').textContent")
    assert shown == "raise C12: -$15, C12 now 2 high"
    assert browser.js("document.querySelector('.pos:not([hidden]) .standings').rows.length") == 5
    assert browser.js("document.querySelectorAll('.board svg .lot').length") == 48
    assert browser.js("document.querySelector('#lot-C12 .tile').dataset.height") == "2"
    # the board is drawn: its SVG has a real size on the page
    assert browser.js("document.querySelector('.board svg').getBoundingClientRect().width") > 400


@pytest.mark.slow
@needs_browser
def test_every_decision_in_the_move_list_opens_its_position(browser, page_path):
    browser.open(page_path.as_uri())
    links = browser.js("document.querySelectorAll('#moves a').length")
    assert links == 104 == browser.js("document.querySelectorAll('#moves > li').length") + 73
    # as a user clicks each in turn: each opens its position
    shown = browser.js("[...document.querySelectorAll('#moves a')].map(a => (a.click(), document.body.dataset.shown))")
    assert shown == [str(i) for i in range(links)]
    assert browser.js(SHOWN) == ["31.0"] and browser.js(CURRENT).startswith("31 ")
    browser.js("[...document.querySelectorAll('#moves > li > a')].find(a => a.textContent.startsWith('20 '))"
               ".parentNode.querySelectorAll(':scope ol a')[2].click()")
    assert browser.js(SHOWN) == ["20.3"] and browser.js(CURRENT) == "raise D2: -$30, D2+D3 now 2 high"
    assert browser.js("[...document.querySelectorAll('.board .mark-step')].map(m => m.dataset.lot)") == ["D2", "D3"]
    assert browser.js("location.hash") == "#turn=20&d=3"


@pytest.fixture(scope="module")
def original_path(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("view") / "original.html"
    res = invoke("view", ROOT / "examples" / "original-4p.yaml", "-o", out)
    assert res.exit_code == 0, res.stderr
    return out


@pytest.mark.slow
@needs_browser
def test_a_copied_link_opens_where_it_was_copied(browser, original_path, page_path):
    # examples/original-4p.yaml: turn 18 has five decisions
    browser.open(original_path.as_uri() + "#turn=18&d=3")
    assert browser.js(SHOWN) == ["18.3"] and browser.js("location.hash") == "#turn=18&d=3"
    assert browser.js(LABEL).startswith("Turn 18 · decision 3 of 5 ·")
    third = [line for line in view.frames_of(load_record(ROOT / "examples" / "original-4p.yaml"))[1]
             if line.key == (18, 3)][0].lines[0]
    assert browser.js(CURRENT) == third == "sprawl F6 from F3: -$12, brown tile, die 2"
    browser.open(original_path.as_uri() + "#turn=18")
    assert browser.js(SHOWN) == ["18.0"]
    # examples/revised-4p.yaml: turn 26 has nine decisions, its third link opens at the third
    browser.open(page_path.as_uri() + "#turn=26&d=3")
    assert browser.js(SHOWN) == ["26.3"] and browser.js("location.hash") == "#turn=26&d=3"
    assert browser.js(LABEL).startswith("Turn 26 · decision 3 of 9 ·")
    assert browser.js(CURRENT) == "build C8 brown: -$8, die 1"
    # turn 12 has one decision; a link past it opens at the turn's last, and says so
    browser.open(page_path.as_uri() + "#turn=12&d=3")
    assert browser.js(SHOWN) == ["12.1"] and browser.js("location.hash") == "#turn=12&d=1"
    # the address typed over: the page follows
    browser.js("location.hash = '#turn=20&d=2'")
    for _ in range(40):
        if browser.js(SHOWN) == ["20.2"]:
            break
        subprocess.run(["sleep", "0.05"])
    assert browser.js(SHOWN) == ["20.2"]


SIZES = ((1280, 800), (1024, 768), (390, 844))


def rect(browser: "Browser", selector: str) -> dict:
    """The element's box in CSS pixels of the window (getBoundingClientRect)."""
    return json.loads(browser.js(f"JSON.stringify(document.querySelector({json.dumps(selector)})"
                                 ".getBoundingClientRect())"))


@pytest.mark.slow
@needs_browser
def test_readable_at_a_laptops_and_a_phones_size(browser, page_path, diff_path, tmp_path):
    """Every text shown, the boards' labels included, at 12 CSS px or more, none over another (turn 20's board
    holds every kind of label: ids, prices, marker names, a casino's height, a boss's star, the streets), and
    every board inside the window: as wide as a phone's screen at most, no sideways scrolling."""
    shots = shots_dir(tmp_path)
    for width, height in SIZES:
        browser.resize(width, height)
        browser.open(page_path.as_uri() + "#turn=20&d=3")
        smallest, what = browser.js(SMALLEST_FONT)
        assert smallest >= 12, (width, what)
        assert browser.js(OVERLAPS) == [], width
        board, box, aside = rect(browser, ".board svg"), rect(browser, ".board"), rect(browser, "#moves")
        assert board["left"] >= 0 and board["right"] <= box["right"] <= width and board["bottom"] <= height + 1
        assert browser.js("document.documentElement.scrollWidth") <= width
        if width < 800:  # reflowed: the board above the panel, as wide as the screen less its margins
            assert aside["width"] > width - 40 and board["width"] >= width - 20
            assert rect(browser, "#positions")["top"] >= board["bottom"]
        else:  # the panel beside the board, the whole board in view
            assert aside["left"] >= board["right"] and aside["width"] >= 320
        browser.screenshot(shots / f"view-{width}.png")
    # 1:1 shows the board at the size it is drawn, its labels at their size (scroll it in its own box)
    browser.js("document.getElementById('zoom').click()")
    assert browser.js("document.querySelector('.board svg').getBoundingClientRect().width") == 780
    assert browser.js("document.documentElement.scrollWidth") <= 390
    # two boards: side by side at 1600, 1280 and 1024 px, the move list beside them; one above the other on a
    # phone. Each whole in the window, neither scrolling sideways in its box (the issue: they filled the window)
    for width, height in ((1600, 900), *SIZES):
        browser.resize(width, height)
        browser.open(diff_path.as_uri() + "#turn=6&d=3")
        smallest, what = browser.js(SMALLEST_FONT)
        assert smallest >= 12, (width, what)
        assert browser.js(OVERLAPS) == [], width
        a, b = rect(browser, ".side:nth-child(1) svg"), rect(browser, ".side:nth-child(2) svg")
        moves, controls = rect(browser, "#moves"), rect(browser, "#controls")
        assert controls["bottom"] <= height and controls["top"] >= 0
        assert browser.js("document.documentElement.scrollWidth") <= width
        assert browser.js("[...document.querySelectorAll('.board')].map(b => b.scrollWidth - b.clientWidth)") == [0, 0]
        assert a["left"] >= 0 and b["right"] <= width
        if width >= 1024:
            assert a["top"] == b["top"] and a["right"] <= b["left"] and moves["left"] >= b["right"]
            assert a["bottom"] <= height and moves["bottom"] <= height
        else:
            assert b["top"] >= a["bottom"] and a["width"] >= width - 20
        browser.screenshot(shots / f"diff-{width}.png")


@needs_browser
def test_a_hostile_name_is_shown_not_run(browser, hostile_path):
    browser.open(hostile_path.as_uri())
    assert browser.js("typeof window.pwned") == "undefined"
    assert browser.js("document.querySelectorAll('b').length") == 0
    text = browser.js("document.querySelector('.pos:not([hidden]) .standings').textContent")
    assert HOSTILE[0] in text and HOSTILE[1] in text
    browser.key("End", 35)
    assert browser.js("typeof window.pwned") == "undefined"
    # the boards hold the names as text too (a marker's name under it, cut to 9 letters), never as markup
    assert HOSTILE[0][:9] in browser.js("document.querySelector('.board svg').textContent")
    assert browser.js("document.querySelectorAll('.board script, .board b').length") == 0


@pytest.mark.slow
@needs_browser
def test_the_diff_view_moves_both_sides_together_and_marks_what_differs(browser, diff_path):
    browser.resize(1280, 800)
    browser.open(diff_path.as_uri())
    browser.key("End", 35)
    assert browser.js(SHOWN) == ["31.0"]
    assert browser.js("document.querySelectorAll('.board svg').length") == 2
    # the first divergence, opened from the report's link: the raise of C12, illegal under the original rules
    browser.js("document.querySelector('.diff').open = true")
    browser.js("[...document.querySelectorAll('.diff a')].find(a => a.textContent === 'turn 6, decision 3').click()")
    assert browser.js(SHOWN) == ["6.3"] and browser.js("location.hash") == "#turn=6&d=3"
    differs = "[...document.querySelectorAll('.board')].map(b => [...b.querySelectorAll('.mark-differs')]" \
              ".map(m => m.dataset.lot))"
    assert browser.js(differs) == [["C12"], ["C12"]]  # 2 high under revised, 1 high under original: on both
    assert browser.js("[...document.querySelectorAll('.board #lot-C12 .tile')].map(t => t.dataset.height)") \
        == ["2", "1"]
    # the money that differs is highlighted on both sides (black paid $15 for the raise under revised only)
    # (and so its rank: fourth under revised, third under original, where blue is fourth)
    cells = browser.js("[...document.querySelectorAll('.pos:not([hidden]) td.differs')]"
                       ".map(td => td.parentNode.cells[1].textContent + ' ' + td.textContent)")
    assert cells == ["black 4", "black $4", "blue 3", "black 3", "black $19", "blue 4"]
    browser.key(*LEFT)  # one step back, before the raise: nothing differs
    assert browser.js(differs) == [[], []] and browser.js("document.querySelectorAll('.pos:not([hidden]) td.differs').length") == 0
    # the move list marks where the two games differ
    assert browser.js("document.querySelector('#moves a.current').classList.contains('differs')") is False
    browser.key(*RIGHT)
    assert browser.js("document.querySelector('#moves a.current').classList.contains('differs')") is True


# ---------------------------------------------------------------------------------------------- the layout (issue 28)

# the current move of the list: inside the list's own box and inside the window
CURRENT_IN_VIEW = """(() => { const r = document.querySelector('#moves a.current').getBoundingClientRect(),
  m = document.getElementById('moves').getBoundingClientRect();
  return r.top >= Math.max(0, m.top) - 0.5 && r.bottom <= Math.min(innerHeight, m.bottom) + 0.5
    && r.left >= 0 && r.right <= innerWidth; })()"""


@pytest.mark.slow
@needs_browser
def test_the_move_list_stays_beside_the_board_its_current_move_in_view(browser, page_path, diff_path):
    """At 1024 px and wider, as in lichess: the move list beside the board, in the window whatever is shown and
    however far the page is scrolled, scrolled in its own box to the current move; what happened and the
    standings beside it too. The issue: at 1280x800 the list started 540 px down, under the panel."""
    for width, height in SIZES[:2]:
        browser.resize(width, height)
        browser.open(page_path.as_uri() + "#turn=20&d=3")
        board, moves = rect(browser, ".board svg"), rect(browser, "#moves")
        assert moves["left"] >= board["right"] and moves["top"] >= 0 and moves["bottom"] <= height
        assert moves["height"] >= 150, moves  # room for a turn or two
        assert browser.js(CURRENT_IN_VIEW) and browser.js("scrollY") == 0
        for part in (".pos:not([hidden]) .narrative", ".pos:not([hidden]) .standings"):
            shown = rect(browser, part)
            assert shown["left"] >= board["right"] and 0 <= shown["top"] and shown["bottom"] <= height, (width, part)
        for key in (("End", 35), ("Home", 36), *[DOWN] * 14, *[RIGHT] * 5, ("End", 35), *[UP] * 3, LEFT):
            browser.key(*key)
            assert browser.js(CURRENT_IN_VIEW), (width, key, browser.js(LABEL))
        assert browser.js("scrollY") == 0  # the page never scrolled: only the list, in its box
        browser.js("document.querySelector('#moves a[data-pos=\"40\"]').click()")
        assert browser.js(CURRENT_IN_VIEW)
        browser.js("scrollTo(0, 5000)")  # the page scrolled to its end (the comment, the setup): the list stays
        assert browser.js("scrollY") > 0
        moves = rect(browser, "#moves")
        assert moves["top"] >= 0 and moves["bottom"] <= height and browser.js(CURRENT_IN_VIEW)
    # two profiles: the list beside both boards, in view however far the page (the two panels) is scrolled
    browser.resize(1280, 800)
    browser.open(diff_path.as_uri() + "#turn=31")
    assert browser.js(CURRENT_IN_VIEW)
    assert rect(browser, "#moves")["left"] >= rect(browser, ".side:nth-child(2) svg")["right"]
    browser.js("scrollTo(0, 5000)")
    assert browser.js("scrollY") > 0 and browser.js(CURRENT_IN_VIEW)
    # a phone: the list under the panel, its current move in its own box (the page scrolls to it)
    browser.resize(390, 844)
    browser.open(page_path.as_uri() + "#turn=28&d=2")
    browser.js("document.getElementById('moves').scrollIntoView({block: 'nearest'})")
    assert browser.js(CURRENT_IN_VIEW)


STANDINGS_ROWS = """[...document.querySelectorAll('.pos:not([hidden]) .standings')].map(t => [...t.rows].slice(1)
  .map(r => [r.dataset.player, r.getBoundingClientRect().top,
             [...r.cells].map(c => [c.textContent, c.classList.contains('differs')])]))"""


@pytest.mark.slow
@needs_browser
def test_the_diff_standings_line_up_by_player_and_mark_each_cell_that_differs(browser, diff_path):
    """Both standings in seat order (the record's players), each player's rows at the same height on both sides
    beside each other, and a cell marked exactly where the two sides' texts differ (the issue: sorted by rank on
    each side, the rows did not line up)."""
    seats = list(load_record(EXAMPLE).players)
    marked = 0
    for width, height in SIZES:
        browser.resize(width, height)
        for where in ("#turn=6&d=3", "#turn=20&d=3", "#turn=31"):
            browser.open(diff_path.as_uri() + where)
            a, b = browser.js(STANDINGS_ROWS)
            assert [r[0] for r in a] == [r[0] for r in b] == seats, where
            if width >= 1024:
                assert all(abs(x[1] - y[1]) < 0.5 for x, y in zip(a, b)), (width, where)
            for x, y in zip(a, b):
                for (text_a, differs_a), (text_b, differs_b) in zip(x[2], y[2]):
                    assert differs_a == differs_b == (text_a != text_b), (where, x[0], text_a, text_b)
                    marked += differs_a
    assert marked > 0


def contrast(a: str, b: str) -> float:
    """WCAG 2's contrast ratio of two colours (#rrggbb)."""
    def luminance(c: str) -> float:
        lin = [(v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4)
               for v in (int(c[i:i + 2], 16) / 255 for i in (1, 3, 5))]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_diff_frame_stands_out_on_every_casino_colour(diff_path):
    """The frame of a lot that differs, at WCAG's 3:1 for graphics: its black edge against every casino tile's
    colour; against every colour a casino is drawn in on the page (its risers too, darker) and an empty lot, its
    edge or its dashes; and the dashes against the edge. The issue: the magenta dashes were lost on a purple
    casino (1.3:1; no single colour reaches 3:1 on both gold and purple)."""
    frame = render.mark(lv.load_board(), "C12", "differs")
    edge, dash = re.findall(r'stroke="(#[0-9a-f]{6})"', frame)
    data = json.loads(re.search(r'<script type="application/json" id="lv-data">(.*?)</script>',
                                diff_path.read_text(encoding="utf-8"), re.S)[1])
    assert any(frame == line for line in data["lines"])  # the page's frames are these
    drawn = set(re.findall(r'class="(?:tile|riser)"[^>]*? fill="(#[0-9a-f]{6})"', "\n".join(data["lines"])))
    assert len(drawn) > len(render.CASINO_HEX)  # the tiles and the risers of this game's casinos
    for colour in render.CASINO_HEX.values():
        assert contrast(edge, colour) >= 3, colour
    for colour in drawn | set(render.CASINO_HEX.values()) | {"#f7f2e6"}:
        assert max(contrast(edge, colour), contrast(dash, colour)) >= 3, colour
    assert contrast(edge, dash) >= 3
    assert contrast("#e0007a", render.CASINO_HEX["purple"]) < 3  # the old frame, as the issue found it
    # the legend shows the frame in the same colours
    assert f".key.differs {{ border: 3px dashed {dash}; box-shadow: 0 0 0 2px {edge}" in diff_path.read_text()


# each hint line, brought into view as a reader scrolls to it: inside the window and on top (no control bar over
# any of its corners)
HINTS_SEEN = """[...document.querySelectorAll('.hint')].map(h => { h.scrollIntoView({block: 'nearest'});
  const r = h.getBoundingClientRect();
  const points = [[r.left + 1, r.top + 1], [r.right - 1, r.top + 1], [r.left + 1, r.bottom - 1],
                  [r.right - 1, r.bottom - 1], [(r.left + r.right) / 2, (r.top + r.bottom) / 2]];
  return r.top >= 0 && r.bottom <= innerHeight && points.every(([x, y]) => h.contains(document.elementFromPoint(x, y)));
})"""


@pytest.mark.slow
@needs_browser
def test_the_hint_lines_are_never_behind_the_controls(browser, page_path, diff_path):
    """The keys' and the marks' hints whole on screen at each size, one profile or two; at 1024 px and wider
    without scrolling the page (the issue: in --diff at 1280x800 the key hint was half behind the control bar)."""
    for width, height in SIZES:
        browser.resize(width, height)
        for path in (page_path, diff_path):
            browser.open(path.as_uri() + "#turn=6&d=3")
            assert browser.js(HINTS_SEEN) == [True, True], (width, path.name)
            if width >= 1024:
                assert browser.js("scrollY") == 0, (width, path.name)


@pytest.mark.slow
@needs_browser
def test_autoplay_plays_the_game_on_and_pauses(browser, page_path):
    """The play button (or the space bar) steps on by itself, a position every 0.25 to 4 s (the + and - keys),
    until paused or at the last position."""
    browser.resize(1280, 800)
    browser.open(page_path.as_uri() + "#turn=20&d=3")
    speed = "document.getElementById('speed').value"
    assert browser.js(speed) == "1000" and browser.js("document.getElementById('play').textContent") == "play"
    for _ in range(6):
        browser.key("+", 187)
    assert browser.js(speed) == "250"  # the fastest
    browser.key("-", 189)
    assert browser.js(speed) == "500"
    browser.key("+", 187)
    start = int(browser.js("document.body.dataset.shown"))
    browser.key(" ", 32)
    assert browser.js("document.getElementById('play').getAttribute('aria-pressed')") == "true"
    assert browser.js("document.getElementById('play').textContent") == "pause"

    def wait_for(expression: str) -> None:
        for _ in range(1200):  # no timing asserted: only that it happens, however loaded the machine
            if browser.js(expression):
                return
            subprocess.run(["sleep", "0.05"])
        raise AssertionError(expression)

    wait_for(f"Number(document.body.dataset.shown) >= {start + 2}")
    assert browser.js(CURRENT_IN_VIEW)  # the list follows
    browser.key(" ", 32)  # pause
    assert browser.js("document.body.hasAttribute('data-playing')") is False
    stopped = browser.js("document.body.dataset.shown")
    subprocess.run(["sleep", "0.8"])  # three positions' time at this speed: none shown
    assert browser.js("document.body.dataset.shown") == stopped
    # the button too; played to the end, it stops there, and plays again from the start
    browser.key("End", 35)
    browser.key(*LEFT)
    browser.js("document.getElementById('play').click()")
    wait_for("!document.body.hasAttribute('data-playing')")
    assert browser.js(SHOWN) == ["31.0"] and browser.js("document.getElementById('play').textContent") == "play"
    browser.js("document.getElementById('play').click()")
    assert browser.js("document.body.dataset.shown") == "0"
    browser.js("document.getElementById('play').click()")

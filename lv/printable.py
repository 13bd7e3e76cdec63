"""Text from a file made safe to print on a terminal: the one place that escapes control characters.

A player name, a record's comment, a profile's title or a lot name in an error message comes from a file that
anyone may have written. Printed raw, ``ESC ] 0 ;`` sets the window title, ``ESC ] 52 ;`` writes the clipboard,
``ESC [ 2 J`` clears the screen, a bidi override (U+202E) reverses what follows, and a newline breaks the
one-line promise of an error message. :func:`printable` shows each such character as a visible escape
(``\\x1b``, ``\\u202e``, ``\\n``) and leaves every other character (accents, CJK, emoji, box drawing) as it is.

The command line applies it at its output edges (the lines it prints, table cells, error messages; ``lv show``'s
board through ``render``). JSON output is not passed through here: ``json.dumps`` escapes C0 controls itself and
:func:`json_text` escapes the rest the same way (``\\u009b``), so the decoded values stay exact.
"""

from __future__ import annotations

import re

# C0 controls but tab, DEL, C1 controls; the bidi embeddings/overrides/isolates and marks; the line and paragraph
# separators (str.splitlines() breaks on them, a terminal may too); lone surrogates (YAML's "\ud800" makes one,
# and printing it raises UnicodeEncodeError).
_BIDI_AND_SEPARATORS = "\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff"
# and the characters that show as nothing and join no script (zero-width space, word joiner, BOM): pasted into a
# decision, 'build E4 gold<U+200B>' was refused as "unknown colour 'gold'" (ZWJ and ZWNJ are left: scripts and
# emoji use them)
_INVISIBLE = "\u200b\u2060\ufeff"
UNSAFE = re.compile(f"[\x00-\x08\x0a-\x1f\x7f-\x9f{_BIDI_AND_SEPARATORS}{_INVISIBLE}]")
# the same but newline, for a block of lines
_UNSAFE_IN_LINES = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI_AND_SEPARATORS}{_INVISIBLE}]")
# what json.dumps(ensure_ascii=False) leaves raw inside a string (it escapes C0 itself)
_UNSAFE_IN_JSON = re.compile(f"[\x7f-\x9f{_BIDI_AND_SEPARATORS}]")
_NAMED = {"\n": "\\n", "\r": "\\r"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    return _NAMED.get(char) or (f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}")


def printable(text: object) -> str:
    """``text`` on one line with every control, bidi, line-separator and invisible character shown as an escape:
    ``printable("red\\x1b[2J")`` is ``'red\\\\x1b[2J'``. Tabs are kept; a newline becomes ``\\n``."""
    return UNSAFE.sub(_escape, str(text))


def printable_lines(text: object) -> str:
    """Like :func:`printable` but newlines are kept: for a block of lines that is printed as it is."""
    return _UNSAFE_IN_LINES.sub(_escape, str(text))


def json_text(text: str) -> str:
    """JSON text (from ``json.dumps(..., ensure_ascii=False)``) with DEL, the C1 controls, the bidi and line
    separator characters and lone surrogates written as ``\\uXXXX``: the same JSON values, nothing a terminal
    acts on. Such characters can only stand inside JSON strings, where ``\\uXXXX`` means the same character."""
    return _UNSAFE_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)

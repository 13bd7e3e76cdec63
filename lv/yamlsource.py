"""YAML loading that remembers where each key was written, so errors can name the file and line.

Three ways to the same result (``load_located``):

- the **layout reader** (``_load_layout``), tried first: the block layout lv's own dumper writes (a record: keys
  and "- " items one a line, plain or single-quoted scalars, flow collections such as ``{action: build, lot: A2}``)
  read line by line with string operations, without the Python object libyaml's parser makes for every event
  (most of the time a record took to read). Any other text (a comment, a tab, a double quote, an anchor, a plain
  scalar over two lines, a colon inside a flow word, non-ASCII ...) and it gives up, to the fast path;
- the **fast path** (``_load_events``; ``_load_plain`` tries the layout reader, then it) builds the data straight
  from libyaml's parser events in one pass, for the plain files lv writes and reads most (records, profiles
  without anchors): no anchors, aliases, tags, merge keys, duplicate keys, mappings or lists as keys, nor nesting
  deeper than MAX_DEPTH, and every scalar one that reads as plain data. Anything else, or any error, and it gives
  up;
- the **general path** (``_compose`` and ``_walk``) builds the node tree with its bounds, then the data: every
  feature lv accepts, and every message. It is the reference: the fast path gives the same data, the same lines,
  in the same order, or gives the file to it (tests/test_yamlsource.py compares the three).
"""

from __future__ import annotations

import datetime
import os
import re
import stat
import functools
from pathlib import Path
from typing import Any, Callable, Final, NoReturn

import yaml
from yaml.events import (AliasEvent, DocumentStartEvent, MappingEndEvent, MappingStartEvent, ScalarEvent,
                         SequenceEndEvent, SequenceStartEvent, StreamEndEvent)

from .errors import LvError, clip

Path_ = tuple[Any, ...]  # a key path such as ("gamble", "lay_off") or ("turns", 3, "decisions", 0)


# libyaml's parser when PyYAML has it: the same events and marks, several times faster on a game record
_Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
try:  # the bare event parser of libyaml, without the constructor and resolver a CSafeLoader also sets up
    from yaml._yaml import CParser as _CParser
    _EventParser: Any = _CParser
except ImportError:  # PyYAML without libyaml: its pure-Python parser gives the same events, slower
    _EventParser = yaml.SafeLoader

# Limits on what a file may make the loader build (docs/design.md, "Limits on input"). A record nests about 6
# levels deep and uses no aliases; a profile may share a few values through anchors and merge keys (``<<: *base``).
MAX_DEPTH: Final = 64  # mappings and lists inside one another, counting the levels an alias brings in
MAX_ALIAS_NODES = 10_000  # nodes reached through aliases, each time an alias is used ("billion laughs")
MAX_DIGITS: Final = 100  # digits of a whole number (Python refuses to print more than 4,300)

_MAP, _SEQ, _MERGE = "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:merge"


# ---------------------------------------------------------------------------------------------- fast path

_PLAIN_TAGS: Final = frozenset("tag:yaml.org,2002:" + t for t in ("null", "bool", "int", "float", "str", "timestamp"))
_SCALAR_TYPES: Final = (type(None), str, int, float, datetime.date)  # immutable: one value may serve every file
_MISS: Final[Any] = object()
# compiled by mypyc (it loads from a .so/.pyd): ``_nest`` reads a sparse one-row flow collection with collections
# anywhere inside; interpreted, the pattern split's reader costs less (0.70 M to 0.90 M for revised-4p's six such rows)
_COMPILED: Final = not __file__.endswith(".py")
_plain_values: Final[dict[str, Any]] = {}  # plain (unquoted, untagged) scalar text -> its value, for short texts
_PLAIN_CACHE_SIZE: Final = 4096
_PLAIN_CACHE_TEXT: Final = 64  # longer texts are read each time (the cache stays small whatever the files hold)
_resolver = yaml.SafeLoader("")  # its resolver (plain text -> implicit tag) and scalar constructors; no state
_resolve: Callable[[type[yaml.Node], str, tuple[bool, bool]], str] = _resolver.resolve


def _plain_value(text: str) -> Any:
    """The value of a plain scalar (``12``, ``true``, ``~``, ``2026-11-23``, ``gold``) as SafeLoader reads it, or
    _MISS for one the fast path leaves to the general one (a merge key ``<<``, ``=``, a bad or huge number)."""
    tag = _resolve(yaml.ScalarNode, text, (True, False))
    if tag not in _PLAIN_TAGS:
        return _MISS
    try:
        value = _resolver.yaml_constructors[tag](_resolver, yaml.ScalarNode(tag, text))
    except Exception:  # int() of more than 4,300 digits, a date such as 2024-13-40: the general path says why
        return _MISS
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** MAX_DIGITS:
        return _MISS
    _remember(_plain_values, text, value)
    return value


def _remember(cache: dict[str, Any], text: str, value: Any) -> None:
    """Keep a short text's value in ``cache`` if it is immutable (one value may serve every file); the cache is
    emptied when full, so it stays small whatever the files hold."""
    if len(text) <= _PLAIN_CACHE_TEXT and isinstance(value, _SCALAR_TYPES):
        if len(cache) >= _PLAIN_CACHE_SIZE:
            cache.clear()
        cache[text] = value


# The block layout lv's own dumper writes (records, profiles): keys and "- " items, one a line, with plain or
# single-quoted scalars and flow collections ([...], {...}) as values. ``_load_layout`` reads exactly that, line by
# line, without libyaml's events (each a Python object); any other text, and it gives up, to the event loop below.

# the characters it reads: a line break and printable ASCII with no meaning the layout reader would have to know (not
# comments, double quotes, anchors, aliases, tags, block scalars, directives, complex keys, escapes). A text refused
# is one not ASCII or with anything left when these are deleted from its bytes (``bytes.translate``: a table look-up
# a byte, 3x faster than ``str.translate``'s, itself 4x faster than a pattern's search)
_LAYOUT_CHARS: Final = (b"\n $'()+,-./0123456789:;<=ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_"
                        b"abcdefghijklmnopqrstuvwxyz{}~")
# the characters of a key the layout reader reads (``name``, ``gamble.lay_off``, ``A2``): str.translate deletes them
_KEY_CHARS: Final = str.maketrans("", "", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
_PLAIN = r"[^\s\[\]{},:'\-][^\[\]{},:'\n]*?|-[^\s\[\]{},:'][^\[\]{},:'\n]*?"
_BLOCK_SCALAR: Final = re.compile(r"(" + _PLAIN + r")|'((?:[^'\n]|'')*)'")


def _key_colon(content: str) -> int:
    """Where the colon after the key that starts ``content`` is (``key: value``, ``key:``), or -1 for none: a key
    is a letter, digit or "_", then letters, digits, "_", "." and "-" (what ``[A-Za-z0-9_][A-Za-z0-9_.-]*:``
    matches). A find and a test (isalnum of ASCII: A-Z, a-z, 0-9): no pattern's match and groups."""
    colon = content.find(":")
    if colon <= 0 or content[0] in ".-":
        return -1
    key = content[:colon]
    # most keys are letters, digits and "_" (a quick test); the others by deleting what a key may hold
    if not (key.isascii() and key.replace("_", "").isalnum()) and key.translate(_KEY_CHARS):
        return -1
    return colon


class _GiveUp(Exception):
    """The layout reader met something it does not read: the event loop reads the text instead."""


def _scalar(plain: str | None, quoted: str | None) -> Any:
    if plain is None:
        return (quoted or "").replace("''", "'")
    value = _plain_values.get(plain, _MISS)
    if value is _MISS:
        value = _plain_value(plain)
        if value is _MISS:
            raise _GiveUp
    return value


def _load_layout(text: str, sparse: bool = False) -> tuple[Any, dict[Path_, int]] | None:
    """(data, lines) of a text in the layout lv writes, as the general path gives them; None for any other.
    ``sparse``: without the entries of a flow collection on its own line (``load_located``)."""
    if not text.endswith("\n") or not text.isascii() or text.encode("ascii").translate(None, _LAYOUT_CHARS) \
            or "---" in text or "..." in text:
        return None
    # (line, indent, content) of each line with more than spaces: the text is ASCII with no whitespace but " " and
    # the line breaks it is split at, so ``lstrip(" ")`` and ``rstrip(" ")`` are ``strip()`` (one new string a row)
    rows: list[tuple[int, int, str]] = []
    n = 0
    for line in text.split("\n"):
        n += 1
        content = line.lstrip(" ")
        if content:
            rows.append((n, len(line) - len(content), content.rstrip(" ")))
    if not rows or rows[0][1] != 0:
        return None
    lines: dict[Path_, int] = {}
    try:
        data, end = _block(rows, 0, 0, (), lines, sparse)
    except (_GiveUp, IndexError):
        return None
    return (data, lines) if end == len(rows) else None


def _block(rows: list[tuple[int, int, str]], i: int, indent: int, path: Path_,
           lines: dict[Path_, int], sparse: bool) -> tuple[Any, int]:
    """The block mapping or list whose first row is ``rows[i]`` (at ``indent``): (its data, the next row)."""
    number, _, content = rows[i]
    if len(path) >= MAX_DEPTH or content == "-":
        raise _GiveUp
    lines[path] = number
    if content.startswith("- "):
        items: list[Any] = []
        while i < len(rows) and rows[i][1] == indent and rows[i][2].startswith("- "):
            number, _, content = rows[i]
            item = path + (len(items),)
            rest = content[2:].lstrip(" ")
            inner = indent + len(content) - len(rest)
            if rest[0] not in "[{" and _key_colon(rest) > 0:  # a mapping starts in the item: its keys at ``inner``
                rows[i] = (number, inner, rest)
                value, i = _block(rows, i, inner, item, lines, sparse)
            else:
                value, i = _inline(rows, i, rest, indent, item, lines, number, sparse)
            items.append(value)
        return items, i
    out: dict[Any, Any] = {}
    while i < len(rows) and rows[i][1] == indent and not rows[i][2].startswith("- "):
        number, _, content = rows[i]
        colon = _key_colon(content)
        end = colon + 1
        if colon < 0 or (end < len(content) and content[end] != " "):
            raise _GiveUp  # not "key: " or "key:" at the end of the line
        key = _scalar(content[:colon], None)
        if isinstance(key, (dict, list)) or key in out:
            raise _GiveUp
        sub = path + (key,)
        rest = content[end + 1:]
        if rest:
            out[key], i = _inline(rows, i, rest, indent, sub, lines, number, sparse)
            continue
        i += 1
        if i < len(rows) and (rows[i][1] > indent or (rows[i][1] == indent and rows[i][2].startswith("- "))):
            out[key], i = _block(rows, i, rows[i][1], sub, lines, sparse)
        else:
            out[key] = None
        lines[sub] = number
    if i < len(rows) and rows[i][1] > indent:
        raise _GiveUp
    return out, i


def _inline(rows: list[tuple[int, int, str]], i: int, rest: str, indent: int, path: Path_,
            lines: dict[Path_, int], number: int, sparse: bool) -> tuple[Any, int]:
    """A value written after its key or "- " on row ``i``: a scalar, or a flow collection that may go on over the
    rows after (more indented than ``indent``). (Its data, the next row.)"""
    if rest[0] not in "[{":
        if rest.isalnum():  # a word of letters and digits (ASCII): the pattern's plain scalar, without a match
            value = _scalar(rest, None)
        else:
            found = _BLOCK_SCALAR.fullmatch(rest)
            if found is None:
                raise _GiveUp
            value = _scalar(found.group(1), found.group(2))
        lines[path] = number
        i += 1
        if i < len(rows) and rows[i][1] > indent:
            raise _GiveUp  # a plain scalar continued on the next line
        return value, i
    i += 1
    if i >= len(rows) or rows[i][1] <= indent:
        # on this row alone (most): no brackets counted, ``_flow`` gives up a row whose brackets do not close
        return _flow(rest, path, lines, [number], sparse), i
    parts, numbers = [rest], [number]
    depth = rest.count("[") + rest.count("{") - rest.count("]") - rest.count("}")
    while depth > 0:
        if i >= len(rows) or rows[i][1] <= indent:
            raise _GiveUp
        parts.append(rows[i][2])
        numbers.append(rows[i][0])
        depth += rows[i][2].count("[") + rows[i][2].count("{") - rows[i][2].count("]") - rows[i][2].count("}")
        i += 1
    if depth < 0 or (i < len(rows) and rows[i][1] > indent):
        raise _GiveUp
    value = _flow("\n".join(parts), path, lines, numbers, sparse)
    return value, i


def _flow(text: str, path: Path_, lines: dict[Path_, int], numbers: list[int], sparse: bool) -> Any:
    """The flow collection ``text`` (its rows joined by "\n", row k on line ``numbers[k]``), split at its
    brackets and commas: plain scalars only, each mapping entry "key: value". ``sparse``: a collection on one row
    (a leaf or a chain) leaves out the lines of what it holds (all on its line)."""
    if "'" in text:
        raise _GiveUp
    inner = text[1:-1]
    if "[" not in inner and "{" not in inner and "]" not in inner and "}" not in inner:
        return _leaf(text, inner, path, lines, numbers, True, sparse and len(numbers) == 1)
    if len(numbers) == 1 and _is_chain(text):
        return _chain(text, path, lines, numbers[0], True, sparse)
    if sparse and len(numbers) == 1 and _COMPILED:  # any other shape on one row (starting rolls, a result, dice)
        lines[path] = numbers[0]
        return _nest(text, 0, len(text), path)
    pieces: list[str] = _FLOW_SPLIT.split(text)  # "", a mark, the text after it, a mark, ..., a mark, ""
    if pieces[0] or pieces[-1]:
        raise _GiveUp
    known = _flow_words
    row, line, rows = 0, numbers[0], len(numbers) > 1  # on one row (most), every line is that row's
    keep = rows or not sparse  # sparse, one row: only its own line (``_nest``'s, the pure build's way)
    root: Any = None
    # each open collection: [it, its path, is a mapping, a comma just read, the key waiting for its collection]
    stack: list[list[Any]] = []
    for k in range(1, len(pieces), 2):
        mark, piece = pieces[k], pieces[k + 1]
        frame = stack[-1] if stack else None
        if mark == "," or mark == "]" or mark == "}":
            if frame is None or frame[4] is not _MISS or frame[3]:
                raise _GiveUp  # "key:" with no value, two commas, a comma before the end
            if mark == ",":
                if not frame[0]:
                    raise _GiveUp
                frame[3] = True
            else:
                if frame[2] != (mark == "}"):
                    raise _GiveUp
                stack.pop()
                frame = stack[-1] if stack else None
        else:
            made: Any = {} if mark == "{" else []
            if frame is None:
                if root is not None:
                    raise _GiveUp
                root, sub = made, path
                lines[sub] = numbers[row]
            elif frame[2]:
                if frame[4] is _MISS:
                    raise _GiveUp  # a collection as a key
                sub = frame[1] + (frame[4],)
                frame[0][frame[4]] = made
                frame[4] = _MISS
            else:
                if frame[0] and not frame[3]:
                    raise _GiveUp  # two values without a comma
                sub = frame[1] + (len(frame[0]),)
                frame[0].append(made)
                frame[3] = False
                if keep:
                    lines[sub] = numbers[row]
            if len(sub) >= MAX_DEPTH:
                raise _GiveUp
            frame = [made, sub, mark == "{", False, _MISS]
            stack.append(frame)
        word = piece.strip(" \n")
        if not word:
            if rows:
                row += piece.count("\n")
            continue
        if rows:
            line = numbers[row + piece.count("\n", 0, len(piece) - len(piece.lstrip(" \n")))]
            row += piece.count("\n")
        if frame is None or (frame[0] and not frame[3]):
            raise _GiveUp
        frame[3] = False
        if not frame[2]:
            value = known.get(word, _MISS)
            if keep:
                lines[frame[1] + (len(frame[0]),)] = line
            frame[0].append(_flow_scalar(word) if value is _MISS else value)
            continue
        key_text, colon, value_text = word.partition(": ")
        if not colon:
            if word[-1] != ":":
                raise _GiveUp
            key_text = word[:-1]
        key = known.get(key_text, _MISS)
        if key is _MISS:
            key = _flow_scalar(key_text)
        if key in frame[0]:
            raise _GiveUp
        if keep:
            lines[frame[1] + (key,)] = line
        value_text = value_text.lstrip(" ")
        if value_text:
            value = known.get(value_text, _MISS)
            frame[0][key] = _flow_scalar(value_text) if value is _MISS else value
        else:  # the value is the collection that follows
            frame[4] = key
    if stack or root is None:
        raise _GiveUp
    return root


def _first_open(inner: str) -> int:
    """Where the first collection inside ``inner`` opens, or -1."""
    square, curly = inner.find("["), inner.find("{")
    return square if curly < 0 or 0 <= square < curly else curly


def _is_chain(text: str) -> bool:
    """Is the flow collection ``text`` (on one row) a chain: its only collection inside is its last entry, and so on
    down (``{action: gamble, lot: B3, bet: 4, dice: {gamble: [3, 5]}}``, a turn's ``{player: red, cards: [A2]}``)?
    The brackets only: ``_chain`` reads the words. Each collection is ``text[start:end]`` (no slice made)."""
    start, end = 0, len(text)
    while True:
        if text[end - 1] != ("}" if text[start] == "{" else "]"):
            return False
        square, curly = text.find("[", start + 1, end - 1), text.find("{", start + 1, end - 1)
        first = square if curly < 0 or 0 <= square < curly else curly
        head = end - 1 if first < 0 else first
        if text.find("]", start + 1, head) >= 0 or text.find("}", start + 1, head) >= 0:
            return False
        if first < 0:
            return True
        start, end = first, end - 1


def _slot_key(slot: str, out: dict[Any, Any]) -> Any:
    """The key of an inner collection in a one-row mapping: ``slot`` (the text before it, stripped) is "key:";
    ``_GiveUp`` (the general path's to answer) when it is not, or when ``out`` has the key already."""
    if not slot or slot[-1] != ":":
        raise _GiveUp  # no "key:" before the collection (a collection as a key, or a value before it)
    key = _flow_words.get(slot[:-1], _MISS)
    if key is _MISS:
        key = _flow_scalar(slot[:-1])
    if key in out:
        raise _GiveUp
    return key


def _chain(text: str, path: Path_, lines: dict[Path_, int], line: int, own: bool, sparse: bool) -> Any:
    """``_flow`` of a chain (``_is_chain``) on ``line``: the entries before its inner collection split at their commas
    as ``_leaf`` splits them, then that collection (its key the last entry's, "key:"), read the same way; the data
    and lines ``_flow``'s pieces give, without its pattern's split and a frame per collection. ``own``: the chain's
    own line is kept (``sparse``: only the outermost's; what it holds is on the same line)."""
    if len(path) >= MAX_DEPTH:
        raise _GiveUp
    inner = text[1:-1]
    first = _first_open(inner)
    if first < 0:
        return _leaf(text, inner, path, lines, [line], own, sparse)
    mapping = text[0] == "{"
    if own:
        lines[path] = line
    entries = None if sparse else lines
    out: Any = {} if mapping else []
    items = inner[:first].split(",")
    slot = items.pop().strip(" ")  # before the inner collection: its key and a colon, or (in a list) nothing
    for item in items:
        _entry(item.strip(" "), mapping, out, path, entries, line)
    if mapping:
        key = _slot_key(slot, out)
        out[key] = _chain(inner[first:], path + (key,), lines, line, not sparse, sparse)  # (its line: set there)
    else:
        if slot:
            raise _GiveUp  # a value, then the collection without a comma between them
        out.append(_chain(inner[first:], path + (len(out),), lines, line, not sparse, sparse))
    return out


def _nest(text: str, start: int, end: int, path: Path_) -> Any:
    """``_flow`` of the collection ``text[start:end]`` on one row, with sparse lines (only the outermost's, set by the
    caller: what it holds is on its line), whatever collections it holds where: the entries between them split at
    their commas as ``_leaf`` splits them, each collection inside read the same way (its key the "key:" before it),
    without ``_flow``'s pattern split and a frame per collection. Gives up where ``_flow`` does (two commas, a
    comma before the end, a collection as a key, a value and a collection without a comma between them). Compiled
    only (``_COMPILED``): ~2x cheaper than the pattern split's reader there, dearer interpreted."""
    if len(path) >= MAX_DEPTH:
        raise _GiveUp
    mapping = text[start] == "{"
    stop = end - 1  # its closing bracket
    if text[stop] != ("}" if mapping else "]"):
        raise _GiveUp
    out: Any = {} if mapping else []
    pos = start + 1
    if not text[pos:stop].strip(" "):
        return out
    while True:
        square, curly = text.find("[", pos, stop), text.find("{", pos, stop)
        first = square if curly < 0 or 0 <= square < curly else curly
        head = stop if first < 0 else first
        if text.find("]", pos, head) >= 0 or text.find("}", pos, head) >= 0:
            raise _GiveUp
        items = text[pos:head].split(",")
        if first < 0:
            for item in items:
                _entry(item.strip(" "), mapping, out, path, None, 0)
            return out
        slot = items.pop().strip(" ")  # before the collection: its key and a colon, or (in a list) nothing
        for item in items:
            _entry(item.strip(" "), mapping, out, path, None, 0)
        close = _close(text, first, stop)
        if mapping:
            key = _slot_key(slot, out)
            out[key] = _nest(text, first, close + 1, path + (key,))
        else:
            if slot:
                raise _GiveUp  # a value, then the collection without a comma between them
            out.append(_nest(text, first, close + 1, path + (len(out),)))
        after = text.find(",", close + 1, stop)
        if after < 0:  # the collection was the last entry
            if text[close + 1:stop].strip(" "):
                raise _GiveUp
            return out
        if text[close + 1:after].strip(" "):
            raise _GiveUp  # a value after the collection without a comma between them
        pos = after + 1  # (a comma before the end: the empty entry after it gives up)


def _close(text: str, first: int, stop: int) -> int:
    """Where the collection opening at ``text[first]`` closes (before ``stop``), its brackets counted by ``find`` (their
    kinds are checked where it is read); _GiveUp if it does not close. (Four finds a bracket inside: fewer calls than a
    loop by character.)"""
    depth, pos = 1, first + 1
    while True:
        square, curly = text.find("]", pos, stop), text.find("}", pos, stop)
        close = square if curly < 0 or 0 <= square < curly else curly
        if close < 0:
            raise _GiveUp
        square, curly = text.find("[", pos, close), text.find("{", pos, close)
        opened = square if curly < 0 or 0 <= square < curly else curly
        if opened < 0:
            depth -= 1
            if not depth:
                return close
            pos = close + 1
        else:
            depth += 1
            pos = opened + 1


def _leaf(text: str, inner: str, path: Path_, lines: dict[Path_, int], numbers: list[int], own: bool,
          sparse: bool) -> Any:
    """``_flow`` of a collection with none inside it (most of a record's): split at its commas. ``own``: its own
    line is kept; ``sparse`` (a collection on one row): its entries' lines are not (the same)."""
    mapping = text[0] == "{"
    if text[-1] != ("}" if mapping else "]"):
        raise _GiveUp
    if own:
        lines[path] = numbers[0]
    entries = None if sparse else lines
    out: Any = {} if mapping else []
    if not inner.strip(" \n"):
        return out
    row, line, rows = 0, numbers[0], len(numbers) > 1
    for item in inner.split(","):
        word = item.strip(" \n")
        if rows:
            line = numbers[row + item.count("\n", 0, len(item) - len(item.lstrip(" \n")))]
            row += item.count("\n")
        _entry(word, mapping, out, path, entries, line)
    return out


def _entry(word: str, mapping: bool, out: Any, path: Path_, lines: dict[Path_, int] | None, line: int) -> None:
    """One entry of a flow collection, ``key: value`` into a mapping or a value onto a list, with its line (into
    ``lines``; None: not kept, the collection's own is the same)."""
    known = _flow_words
    if mapping:
        key_text, colon, value_text = word.partition(": ")
        key = known.get(key_text, _MISS)
        if key is _MISS:
            key = _flow_scalar(key_text)
        if not colon or key in out:
            raise _GiveUp
        if lines is not None:
            lines[path + (key,)] = line
        value_text = value_text.lstrip(" ")
        value = known.get(value_text, _MISS)
        out[key] = _flow_scalar(value_text) if value is _MISS else value
    else:
        value = known.get(word, _MISS)
        if lines is not None:
            lines[path + (len(out),)] = line
        out.append(_flow_scalar(word) if value is _MISS else value)


_FLOW_SPLIT: Final = re.compile(r"([\[\]{},])")
# a plain scalar a flow collection may hold here: words of no space, colon, comma, bracket or quote, one space
# between them, not starting with "-" and a space (the other characters YAML gives a meaning are refused above)
_FLOW_WORD: Final = re.compile(r"-?[^\s\[\]{},:'\-][^\s\[\]{},:]*(?: [^\s\[\]{},:]+)*")
_flow_words: Final[dict[str, Any]] = {}  # a word _FLOW_WORD reads -> its value (immutable: strings, numbers, dates)


def _flow_scalar(word: str) -> Any:
    """The value of a plain scalar in a flow collection, as SafeLoader reads it; _GiveUp for any it may not be."""
    if _FLOW_WORD.fullmatch(word) is None:
        raise _GiveUp
    value = _scalar(word, None)
    _remember(_flow_words, word, value)
    return value


def _load_plain(text: str, sparse: bool = False) -> tuple[Any, dict[Path_, int]] | None:
    """(data, lines) as the general path gives them, built in one pass over the parser's events; None when the
    text needs the general path (see the module's docstring), which then reads it from the start."""
    layout = _load_layout(text, sparse)
    if layout is not None:
        return layout
    return _load_events(text)


def _load_events(text: str) -> tuple[Any, dict[Path_, int]] | None:
    """``_load_plain`` by libyaml's events (see the module's docstring)."""
    lines: dict[Path_, int] = {}
    known = _plain_values
    # each open mapping or list: [container, its path, is a mapping, pending key (or _MISS), the key's line]
    stack: list[list[Any]] = []
    root: Any = None
    documents = 0
    parser = _EventParser(text)
    get = parser.get_event
    try:
        while True:
            ev = get()
            kind = type(ev)
            if kind is ScalarEvent:
                if ev.anchor is not None or ev.tag is not None:
                    return None
                value = ev.value
                if ev.implicit[0]:  # plain: its text decides its type; quoted or a block (|, >): a string
                    value = known.get(value, _MISS)
                    if value is _MISS:
                        value = _plain_value(ev.value)
                        if value is _MISS:
                            return None
                opens = False
            elif kind is MappingStartEvent or kind is SequenceStartEvent:
                if ev.anchor is not None or ev.tag is not None or len(stack) >= MAX_DEPTH:
                    return None
                value = {} if kind is MappingStartEvent else []
                opens = True
            elif kind is MappingEndEvent or kind is SequenceEndEvent:
                stack.pop()
                continue
            elif kind is DocumentStartEvent:
                documents += 1
                if documents > 1:
                    return None
                continue
            elif kind is StreamEndEvent:
                break
            elif kind is AliasEvent:
                return None
            else:  # the stream's start, a document's end
                continue
            if not stack:
                root = value
                path: Path_ = ()
                lines[path] = ev.start_mark.line + 1
            else:
                frame = stack[-1]
                parent = frame[0]
                if frame[2]:  # a mapping: a key, or the value of the pending key (on the key's line)
                    key = frame[3]
                    if key is _MISS:
                        if opens or value in parent:  # a mapping or list as a key, a duplicate: general path
                            return None
                        frame[3], frame[4] = value, ev.start_mark.line + 1
                        continue
                    path = frame[1] + (key,)
                    parent[key] = value
                    lines[path] = frame[4]
                    frame[3] = _MISS
                else:
                    path = frame[1] + (len(parent),)
                    parent.append(value)
                    lines[path] = ev.start_mark.line + 1
            if opens:
                stack.append([value, path, kind is MappingStartEvent, _MISS, 0])
    except yaml.YAMLError:
        return None  # the general path reads it again and says where and what
    finally:
        parser.dispose()
    return root, lines


# ---------------------------------------------------------------------------------------------- general path

def _compose(text: str, fail: Callable[[Any, str], NoReturn], loader: Any = _Loader) -> Any:
    """The node tree of one YAML document, built from the parser's events without recursion, refusing
    (``fail(mark, message)``) nesting deeper than MAX_DEPTH and aliases that reach more than MAX_ALIAS_NODES
    nodes before anything big is built."""
    resolve = functools.lru_cache(maxsize=None)(yaml.SafeLoader("").resolve)  # implicit tags: int, bool, null
    anchors: dict[str, tuple[yaml.Node, int, int] | None] = {}  # anchor -> (node, size, height); None while open
    # each open mapping or list: [node, children, size (nodes in it), height (levels in it), anchor]
    stack: list[list[Any]] = [[None, [], 0, 0, None]]  # the bottom frame holds the document's root
    aliased = documents = 0
    node: yaml.Node
    parser = loader(text)
    try:
        while (ev := parser.get_event()) is not None:
            kind = type(ev)
            if kind is yaml.ScalarEvent:
                tag = ev.tag
                if tag is None or tag == "!":
                    tag = resolve(yaml.ScalarNode, ev.value, ev.implicit)
                node = yaml.ScalarNode(tag, ev.value, ev.start_mark, ev.end_mark, style=ev.style)
                if ev.anchor is not None:
                    anchors[ev.anchor] = (node, 1, 0)
                size, height = 1, 0
            elif kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
                if len(stack) > MAX_DEPTH:
                    fail(ev.start_mark, f"nesting deeper than {MAX_DEPTH} levels")
                node_kind = yaml.MappingNode if kind is yaml.MappingStartEvent else yaml.SequenceNode
                tag = ev.tag
                if tag is None or tag == "!":
                    tag = resolve(node_kind, None, ev.implicit)
                if ev.anchor is not None:
                    anchors[ev.anchor] = None
                stack.append([node_kind(tag, [], ev.start_mark, None, flow_style=ev.flow_style), [], 1, 1,
                              ev.anchor])
                continue
            elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
                node, children, size, height, anchor = stack.pop()
                node.end_mark = ev.end_mark
                node.value = children if kind is yaml.SequenceEndEvent else list(zip(children[::2], children[1::2]))
                if anchor is not None:
                    anchors[anchor] = (node, size, height)
            elif kind is yaml.AliasEvent:
                if ev.anchor not in anchors:
                    fail(ev.start_mark, f"alias *{one_line(ev.anchor)} names no anchor defined before it")
                target = anchors[ev.anchor]
                if target is None:
                    fail(ev.start_mark, f"alias *{one_line(ev.anchor)} is inside its own anchor (a loop)")
                node, size, height = target
                aliased += size
                if aliased > MAX_ALIAS_NODES:
                    fail(ev.start_mark, f"aliases expand to more than {MAX_ALIAS_NODES:,} nodes")
                if len(stack) - 1 + height > MAX_DEPTH:
                    fail(ev.start_mark, f"nesting deeper than {MAX_DEPTH} levels (through alias "
                                        f"*{one_line(ev.anchor)})")
            else:
                if kind is yaml.DocumentStartEvent:
                    documents += 1
                    if documents > 1:
                        fail(ev.start_mark, "expected one YAML document, found another")
                continue
            frame = stack[-1]
            frame[1].append(node)
            frame[2] += size
            if height >= frame[3]:
                frame[3] = height + 1
    finally:
        parser.dispose()
    children = stack[0][1]
    return children[0] if children else None


def load_located(text: str, filename: str, error: type[LvError] = LvError,
                 sparse: bool = False) -> tuple[Any, dict[Path_, int]]:
    """Parse YAML (or JSON, a subset) and return (data, {key path: 1-based line}).

    Safe: only plain data (no ``!!python/...`` tags), bounded (MAX_DEPTH, MAX_ALIAS_NODES, MAX_DIGITS), and
    every problem is ``error`` with one line naming the file and line. Merge keys (``<<: *base``) are applied.
    ``sparse`` (a record, read for its lines by ``line_of`` only): the lines may leave out what a flow collection
    on one row holds (``{action: build, lot: A2}``: its keys' lines are its own), which ``line_of`` gives the same;
    every other key path keeps its line (tests/test_yamlsource.py)."""
    fast = _load_plain(text, sparse)
    return fast if fast is not None else _load_general(text, filename, error)


def _load_general(text: str, filename: str, error: type[LvError] = LvError) -> tuple[Any, dict[Path_, int]]:
    """``load_located`` by the general path: the node tree with its bounds (``_compose``), then the data."""

    def fail(mark: yaml.Mark | None, message: str) -> NoReturn:
        raise error(message, path=filename, line=mark.line + 1 if mark is not None else None)

    try:
        try:
            node = _compose(text, fail)
        except yaml.YAMLError:
            # libyaml's scanner looks ahead, and refuses by its own limits (PyYAML 6.0.4: "exceeded maximum
            # nesting depth" at 1,000 levels) before lv's bounds see the events: read the file again with the
            # pure-Python parser, which has no limit of its own, so lv's bounds refuse first where they apply and
            # any other error is worded the same whatever libyaml PyYAML bundles
            node = _compose(text, fail, yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        fail(mark, f"malformed YAML: {one_line(problem)}")
    lines: dict[Path_, int] = {}
    if node is None:
        return None, lines
    constructor = yaml.SafeLoader("")  # only used for its scalar constructors and merge keys
    known_scalars: dict[tuple[str, str], Any] = {}  # (tag, text) -> value of the immutable scalars seen so far

    def scalar(n: yaml.Node) -> Any:
        if not isinstance(n, yaml.ScalarNode):
            fail(n.start_mark, "a key must be a plain value")
        known = known_scalars.get((n.tag, n.value), known_scalars)
        if known is not known_scalars:
            return known
        if n.tag not in constructor.yaml_constructors:  # SafeLoader's tags only: never !!python/...
            fail(n.start_mark, f"YAML tag '{_tag(n.tag)}' is not allowed (plain data only)")
        try:
            value = constructor.construct_object(n, deep=True)
        except ValueError as exc:  # int() of more than 4,300 digits, a date such as 2024-13-40
            fail(n.start_mark, f"number too large (more than {MAX_DIGITS} digits)" if "digits" in str(exc)
                 else f"bad value {one_line(repr(n.value))}: {one_line(str(exc))}")
        except yaml.YAMLError as exc:
            fail(n.start_mark, f"malformed YAML: {one_line(getattr(exc, 'problem', None) or str(exc))}")
        except Exception:  # a tag on text it cannot read: "!!bool maybe", "!!timestamp ", "!!float " ...
            fail(n.start_mark, f"bad value {one_line(repr(n.value))} for YAML tag '{_tag(n.tag)}'")
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** MAX_DIGITS:
            fail(n.start_mark, f"number too large (more than {MAX_DIGITS} digits)")
        if value is None or isinstance(value, (str, int, float)):
            known_scalars[n.tag, n.value] = value
        return value

    def walk(n: yaml.Node, path: Path_) -> Any:
        lines[path] = n.start_mark.line + 1
        if isinstance(n, yaml.MappingNode):
            if n.tag != _MAP:
                fail(n.start_mark, f"YAML tag '{_tag(n.tag)}' is not allowed on a mapping (plain data only)")
            own = len([k for k, _ in n.value if k.tag != _MERGE])
            if own != len(n.value):
                try:
                    constructor.flatten_mapping(n)  # the merged pairs first, then the mapping's own
                except yaml.YAMLError as exc:
                    fail(getattr(exc, "problem_mark", None) or n.start_mark,
                         f"malformed merge key: {one_line(getattr(exc, 'problem', None) or str(exc))}")
            merged = len(n.value) - own
            out: dict[Any, Any] = {}
            own_keys: set[Any] = set()
            for i, (key_node, value_node) in enumerate(n.value):
                key = scalar(key_node)
                if i >= merged:
                    if key in own_keys:
                        fail(key_node.start_mark, f"duplicate key {one_line(repr(key))}")
                    own_keys.add(key)
                out.pop(key, None)  # a later pair wins: the mapping's own keys over merged ones
                out[key] = walk(value_node, path + (key,))
                lines[path + (key,)] = key_node.start_mark.line + 1
            return out
        if isinstance(n, yaml.SequenceNode):
            if n.tag != _SEQ:
                fail(n.start_mark, f"YAML tag '{_tag(n.tag)}' is not allowed on a list (plain data only)")
            return [walk(item, path + (i,)) for i, item in enumerate(n.value)]
        return scalar(n)

    return walk(node, ()), lines


def _tag(tag: str) -> str:
    return one_line(tag.replace("tag:yaml.org,2002:", "!!"))


def plain(key: Any) -> str:
    """A key or word from a file, shown in a message: escaped like repr (no line break, no ESC), no quotes."""
    text = repr(key)
    return one_line(text[1:-1] if isinstance(key, str) else text)


ONE_LINE = 200  # characters of a word or path from a file in a message: a deep folder's path whole


def one_line(text: str) -> str:
    """Text from a file, for a one-line message: no line breaks or control characters (escaped), not too long:
    cut in the middle, so that a long path keeps its folder's start and its file's name."""
    text = " ".join(str(text).split())
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return clip(text, ONE_LINE)


MAX_FILE_BYTES = 8 * 1024 * 1024  # a game record or a profile is kilobytes; anything bigger is refused unread


def read_bytes(path: str | Path, error: type[LvError] = LvError) -> bytes:
    """A regular file's bytes, at most MAX_FILE_BYTES, or ``error`` naming the file.

    The file is opened without blocking and checked with ``fstat`` before any read, so a FIFO, a device such
    as /dev/zero or a folder is refused at once instead of hanging or filling the memory."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise error(f"{path}: no such file") from None
    except IsADirectoryError:
        raise error(f"{path}: a folder, not a file") from None
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise error(f"{path}: a folder, not a file")
        if not stat.S_ISREG(mode):
            raise error(f"{path}: not a regular file (a pipe or a device): lv reads only regular files")
        chunks, size = [], 0
        while size <= MAX_FILE_BYTES:
            chunk = os.read(fd, min(1 << 20, MAX_FILE_BYTES + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if size > MAX_FILE_BYTES:
        raise error(f"{path}: too large: lv reads files of at most {MAX_FILE_BYTES >> 20} MiB")
    return b"".join(chunks)


def decode(data: bytes, name: str, error: type[LvError] = LvError) -> str:
    """``data`` as UTF-8 text, or ``error``: not a text file, with where (a picture, a zip, a file in another
    encoding), in lv's words rather than Python's codec message. A leading byte-order mark (Windows Notepad
    writes one) is dropped: kept, a moves file's first line read '\ufeffbuild E4 gold', an unknown decision."""
    skip = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    try:
        return (data[skip:] if skip else data).decode("utf-8")
    except UnicodeDecodeError as exc:
        at = skip + exc.start
        raise error(f"{name}: not a text file (UTF-8): byte 0x{data[at]:02x} at offset {at}") from None


def read_text(path: str | Path, error: type[LvError] = LvError) -> str:
    """A regular file's text (UTF-8, at most MAX_FILE_BYTES), or ``error`` naming the file."""
    return decode(read_bytes(path, error), str(path), error)


def read_located(path: str | Path, error: type[LvError] = LvError) -> tuple[Any, dict[Path_, int]]:
    return load_located(read_text(path, error), str(path), error)


def line_of(lines: dict[Path_, int], path: Path_) -> int | None:
    """The line of ``path`` or of its nearest ancestor that has one."""
    path = tuple(path)
    while path:
        if path in lines:
            return lines[path]
        path = path[:-1]
    return lines.get(())

#!/usr/bin/env python3
"""Hostile AEI sessions against an engine binary, every verdict checked
against pyrimaa.board (the AEI reference board from the PyPI `aei` package).

Run with a venv that has `aei` (for example the tests' own):

    target/tmp/aei-venv/bin/python scripts/aei_fuzz.py target/release/aamir \
        --sessions 500 --seed 1

Two parts, both against a fresh engine process each:

* hand-written cases (CASES below): every AEI message with good and bad
  arguments, one small session per case;
* N fuzzed sessions, session i seeded with SEED+i: the handshake, `newgame`,
  setups (good, handicap and broken), a game driven by legal moves from
  pyrimaa.board and by the engine's own answers, interleaved with hostile
  lines: malformed messages, illegal moves (mutations of legal ones), bad
  `setposition` strings, unknown options and out-of-range values, control
  characters, invalid UTF-8, very long lines, `go` with a small `depth`,
  `isready`, `stop`, `go ponder`, `newgame`/`setposition`/`makemove` in the
  middle of a search; each session ends by `quit`, end of input or an
  unrecognised message (which AEI asks the engine to exit on).

What is checked:

* the process never dies (its output never ends before the session does;
  exit status 0 after `quit` or end of input, non-zero after an
  unrecognised message) and never panics (stderr has no `panicked`);
* every `isready` gets a `readyok` (the harness sends one after nearly
  every line, so that each answer belongs to the line before it);
* every `makemove` is accepted exactly when pyrimaa.board finds the move
  legal (steps checked one by one with its `check_step`, piece letters and
  capture tokens against its own notation, no unfinished push, no
  unchanged board, no third repetition of the game given so far; setups by
  the placement rules, handicaps allowed as the engine documents);
* every `bestmove` is legal in pyrimaa.board's view of the position the
  engine was given, written as pyrimaa writes it (capture tokens included),
  and a setup is a full 16-piece setup of the side to set up; `go` in a
  finished game gets `log Error` naming the winner and rule pyrimaa finds,
  and no `bestmove`;
* a refused line leaves the engine's game unchanged: the harness's model
  is left as it was, so the next legal move must be accepted and the next
  `bestmove` must be legal in the unchanged position;
* every refusal is one `log Error:` (a `log Warning:` for unknown options,
  negative times and a `stop` with nothing to stop) naming the message or
  option concerned; any other error or warning is a failure;
* every output line is an AEI message (`protocol-version`, `id`, `aeiok`,
  `readyok`, `bestmove`, `info`, `log`) and holds no raw control character.

Tolerances: warnings that the engine answered for a search that overran
its time are counted as timing notes, not failures (a loaded machine or a
clock with no time left causes them); the move sent must still be legal.
Any search may end by itself before the `stop` or `makemove` meant to end
it (a goal at hand is answered at once, a clock may be set), so for a
search interrupted by a line exactly one of "its bestmove" and "the
engine's word that it was abandoned" must come, and a `stop` that finds
nothing to stop must come after the answer.

Searches stay tiny (the `depth` option at 2-4, or no limit and a `stop`
within a fraction of a second). `eval_tempo` is fuzzed up to +-10000, which
used to make a depth-limited search never end; they are now in the
default set, and `--extreme` adds `goal_extensions` 8.

Exit status: 0 when nothing failed, 1 when something did (each failure is
printed with its seed and a transcript file), 2 for a usage error.
`--replay FILE` sends the lines of a transcript again and prints what the
engine answers.
"""

import argparse
from collections import Counter
import os
import queue
import random
import re
import subprocess
import sys
import threading
import time
import traceback
import unicodedata

try:
    from pyrimaa.board import BLANK_BOARD, Color, Piece, Position, neighbors_of
except ImportError:
    sys.exit(
        "aei_fuzz.py needs pyrimaa.board from the PyPI package `aei`: run it "
        "with a venv that has it (e.g. target/tmp/aei-venv/bin/python)"
    )

GOLD, SILVER = Color.GOLD, Color.SILVER
COLOR_NAME = {GOLD: "gold", SILVER: "silver"}
FULL = {"R": 8, "C": 2, "D": 2, "H": 2, "M": 1, "E": 1}
ARMY = "EMHHDDCCRRRRRRRR"
TRAPS = (18, 21, 42, 45)
TOKEN = re.compile(r"^([RCDHMErcdhme])([a-h][1-8])([nsewx]?)$")
OPENING_CELLS = "rrrrrrrrhdcemcdh" + " " * 32 + "HDCMECDHRRRRRRRR"
OPENING = "setposition g [" + OPENING_CELLS + "]"
REPLIES = ("protocol-version", "id", "aeiok", "readyok", "bestmove", "info", "log")
# A search answered for by the session itself (loaded machine): noted only.
TIMING_NOTE = "answering with the best move known"
ABANDONED = "the search was abandoned"
STOP_IDLE = "`stop`: no search is running"
ALREADY = ("already searching", "already pondering")

# Whitespace as Rust's `char::is_whitespace` (the engine's `trim` and
# `split_whitespace`); Python's own also counts \x1c-\x1f.
RUST_WS = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680"
    + "".join(chr(c) for c in range(0x2000, 0x200B))
    + "\u2028\u2029\u202f\u205f\u3000"
)
WS_RUN = re.compile("[" + re.escape(RUST_WS) + "]+")

# Waits, in seconds (multiplied by --timeout-scale).
T_READY = 30.0
T_SEARCH = 60.0
T_EXIT = 10.0


def rust_trim(s):
    return s.strip(RUST_WS)


def rust_words(s):
    return [w for w in WS_RUN.split(s) if w]


def command_parts(line):
    """The message word and its trimmed arguments, as the engine splits them."""
    s = rust_trim(line)
    m = WS_RUN.search(s)
    if not m:
        return s, ""
    return s[: m.start()], rust_trim(s[m.end() :])


def show(data):
    """Bytes as printable text for transcripts: backslash escapes."""
    out = []
    for b in data:
        if b == 0x5C:
            out.append("\\\\")
        elif 0x20 <= b < 0x7F:
            out.append(chr(b))
        else:
            out.append(f"\\x{b:02x}")
    return "".join(out)


def unshow(text):
    out = bytearray()
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\" and text[i + 1 : i + 2] == "\\":
            out.append(0x5C)
            i += 2
        elif c == "\\" and text[i + 1 : i + 2] == "x":
            out.append(int(text[i + 2 : i + 4], 16))
            i += 4
        else:
            out.append(ord(c))
            i += 1
    return bytes(out)


def short(data, n=120):
    s = show(data if isinstance(data, bytes) else data.encode("utf-8", "replace"))
    return s if len(s) <= n else s[:n] + f"... ({len(s)} chars)"


# ------------------------------------------------------------------ rules


def sq_name(ix):
    return "abcdefgh"[ix % 8] + "12345678"[ix // 8]


def sq_index(name):
    return "abcdefgh".index(name[0]) + 8 * (int(name[1]) - 1)


def cell_square(i):
    """Square index of the i-th character of an AEI board (a8 first)."""
    return (7 - i // 8) * 8 + i % 8


def position_from_cells(color, cells):
    boards = list(BLANK_BOARD)
    for i, c in enumerate(cells):
        if c in " .xX":
            continue
        bit = 1 << cell_square(i)
        boards[Piece.PCHARS.index(c)] |= bit
        boards[Piece.EMPTY] &= ~bit
    return Position(color, 4, boards)


def letter_at(pos, ix):
    return Piece.PCHARS[pos.piece_at(1 << ix)]


def cells_of(pos):
    return "".join(letter_at(pos, cell_square(i)) for i in range(64))


def key(pos):
    return (pos.color, pos.bitBoards)


def unsupported_on_trap(pos):
    for t in TRAPS:
        bit = 1 << t
        p = pos.piece_at(bit)
        if p and not neighbors_of(bit) & pos.placement[(p & Piece.COLOR) >> 3]:
            return True
    return False


def random_turn(pos, rng):
    """Random steps to a complete legal turn (pyrimaa's get_rnd_step_move
    with our own generator), or None when the side cannot move."""
    start = cur = pos
    taken = []
    deadends = set()
    for _ in range(500):
        if cur.color != start.color:
            break
        steps = [s for s in cur.get_steps() if s[1] not in deadends]
        if cur.bitBoards != start.bitBoards and not cur.inpush:
            steps.append(((), cur.get_null_move()))
        if cur.stepsLeft == 1:
            steps = [s for s in steps if s[1].bitBoards != start.bitBoards]
        if not steps:
            if not taken:
                return None
            deadends.add(cur)
            cur, taken = start, []
            continue
        step, cur = rng.choice(steps)
        taken.append(step)
    else:
        return None
    if taken and not taken[-1]:
        taken.pop()
    return taken


class Verdict:
    def __init__(self, kind, reason="", after=None, canonical=None, placed=0):
        self.kind = kind  # "legal" or "illegal"
        self.reason = reason
        self.after = after
        self.canonical = canonical
        self.placed = placed


def illegal(reason):
    return Verdict("illegal", reason)


class Model:
    """The game as the engine should have it: pyrimaa's position, whose
    setup or turn it is, and the history repetition is judged against."""

    def __init__(self):
        self.newgame()

    def newgame(self):
        self.phase = "setup"
        self.setup_color = GOLD
        self.pos = Position(GOLD, 4, BLANK_BOARD)
        self.counts = {}
        self.known = True
        self._over = None
        self._over_done = False

    def copy(self):
        m = Model.__new__(Model)
        m.__dict__.update(self.__dict__)
        m.counts = dict(self.counts)
        return m

    def _touch(self):
        self._over_done = False

    def side(self):
        return self.setup_color if self.phase == "setup" else self.pos.color

    def describe(self):
        side = "gs"[self.side()]
        what = f"{self.phase} ({COLOR_NAME[self.side()]} to {'set up' if self.phase == 'setup' else 'move'})"
        return f"{what}, position `{side} [{cells_of(self.pos)}]`"

    def set_position(self, color, cells):
        """`setposition`, as the engine documents it: a side with no pieces
        is still to set up; a position in play counts once for repetition."""
        pos = position_from_cells(color, cells)
        self.pos = pos
        self.counts = {}
        self.known = not unsupported_on_trap(pos)
        self._touch()
        if not pos.placement[GOLD] and not pos.placement[SILVER]:
            self.phase, self.setup_color = "setup", GOLD
        elif color == SILVER and not pos.placement[SILVER]:
            self.phase, self.setup_color = "setup", SILVER
        else:
            self.phase = "play"
            self.counts[key(pos)] = 1

    def over(self):
        """None, or (winner, rule word) when the game has ended."""
        if self.phase != "play":
            return None
        if not self._over_done:
            self._over = self._compute_over()
            self._over_done = True
        return self._over

    def _compute_over(self):
        pos = self.pos
        g = pos.is_goal()
        if g:
            return ("gold" if g > 0 else "silver", "goal")
        r = pos.is_rabbit_loss()
        if r:
            return ("gold" if r > 0 else "silver", "elimination")
        loser_wins = COLOR_NAME[pos.color ^ 1]
        if not pos.get_steps():
            return (loser_wins, "immobili")
        if self._every_turn_repeats():
            return (loser_wins, "immobili")
        return None

    def _every_turn_repeats(self):
        mover = self.pos.color
        twice = {k for k, n in self.counts.items() if n >= 2 and k[0] != mover}
        if not twice:
            return False
        # Each one-step turn ends on a board of its own: more of them than
        # positions seen twice means one of them is no third repetition.
        singles = {
            p.bitBoards
            for _, p in self.pos.get_steps()
            if not p.inpush and p.bitBoards != self.pos.bitBoards
        }
        if len(singles) > len(twice):
            return False
        return all(key(p) in twice for p in self.pos.get_moves())

    # -- moves

    def classify(self, text):
        """pyrimaa's verdict on `makemove <text>` in this game."""
        tokens = rust_words(text)
        if not tokens:
            return illegal("no move")
        parsed = []
        for t in tokens:
            m = TOKEN.match(t)
            if not m:
                return illegal(f"`{t}` is no step, capture or placement")
            parsed.append(m.groups())
        places = [p[2] == "" for p in parsed]
        if any(places) and not all(places):
            return illegal("placements mixed with steps")
        if self.phase == "setup":
            if not all(places):
                return illegal("steps during the setup")
            return self._classify_setup(parsed)
        if self.over():
            return illegal("the game is over")
        if all(places):
            return illegal("a placement during play")
        return self._classify_steps(tokens, parsed)

    def _classify_setup(self, parsed):
        color = self.setup_color
        lo, hi = (0, 16) if color == GOLD else (48, 64)
        boards = list(self.pos.bitBoards)
        have = dict.fromkeys(FULL, 0)
        for ix in range(64):
            c = letter_at(self.pos, ix)
            if c != " " and c.isupper() == (color == GOLD):
                have[c.upper()] += 1
        for letter, sq, _ in parsed:
            if letter.isupper() != (color == GOLD):
                return illegal(f"`{letter}{sq}` is not {COLOR_NAME[color]}'s piece")
            ix = sq_index(sq)
            if not lo <= ix < hi:
                return illegal(f"{sq} is outside the setup area")
            bit = 1 << ix
            if not boards[Piece.EMPTY] & bit:
                return illegal(f"{sq} is taken")
            k = letter.upper()
            if have[k] >= FULL[k]:
                return illegal(f"too many {k}")
            have[k] += 1
            boards[Piece.PCHARS.index(letter)] |= bit
            boards[Piece.EMPTY] &= ~bit
        if have["R"] == 0:
            return illegal("no rabbit")
        new = Position(color ^ 1, 4, boards)
        return Verdict("legal", after=("setup", color, new), placed=len(parsed))

    def _classify_steps(self, tokens, parsed):
        start = cur = self.pos
        color = start.color
        if parsed[0][2] == "x":
            return illegal("a capture token before any step")
        steps, given, canon = [], [], []
        for tok, (letter, sq, d) in zip(tokens, parsed):
            if d == "x":
                given[-1].append(tok)
                continue
            if len(steps) == 4:
                return illegal("more than four steps")
            frm = sq_index(sq)
            f, r = frm % 8, frm // 8
            to = {
                "n": frm + 8 if r < 7 else None,
                "s": frm - 8 if r > 0 else None,
                "e": frm + 1 if f < 7 else None,
                "w": frm - 1 if f > 0 else None,
            }[d]
            if to is None:
                return illegal(f"`{tok}` leaves the board")
            if letter_at(cur, frm) != letter:
                return illegal(f"no `{letter}` on {sq}")
            ok = cur.check_step((frm, to))
            if not ok:
                return illegal(f"`{tok}`: {ok}")
            canon.append(cur.steps_to_str([(frm, to)]).split())
            cur = cur.do_step((frm, to))
            steps.append((frm, to))
            given.append([])
        if cur.inpush:
            return illegal("an unfinished push")
        final = Position(color ^ 1, 4, cur.bitBoards)
        if final.bitBoards == start.bitBoards:
            return illegal("the board is unchanged")
        if self.counts.get(key(final), 0) >= 2:
            return illegal("a third repetition")
        for g, c in zip(given, canon):
            # Each token names a capture of the step just before it, once.
            if Counter(g) - Counter(c[1:]):
                return illegal("a wrong or repeated capture token")
        canonical = " ".join(t for c in canon for t in c)
        return Verdict("legal", after=("play", final), canonical=canonical)

    def commit(self, v):
        if v.after[0] == "setup":
            _, color, new = v.after
            self.pos = new
            if color == GOLD:
                self.setup_color = SILVER
            else:
                self.phase = "play"
                self.counts[key(new)] = self.counts.get(key(new), 0) + 1
        else:
            final = v.after[1]
            self.pos = final
            self.counts[key(final)] = self.counts.get(key(final), 0) + 1
        self._touch()

    def bestmove_problem(self, text):
        """Why `bestmove <text>` is wrong here, or None."""
        v = self.classify(text)
        if v.kind != "legal":
            return f"illegal: {v.reason}"
        if self.phase == "setup":
            if v.placed != 16:
                return f"a setup of {v.placed} pieces, not 16"
            return None
        if rust_words(text) != v.canonical.split():
            return f"legal, but pyrimaa writes it `{v.canonical}`"
        return None

    def random_legal(self, rng):
        """(text, verdict) of a random legal move or setup, or None."""
        if self.phase == "setup":
            text = random_setup(self, rng)
            v = self.classify(text)
            return (text, v) if v.kind == "legal" else None
        if self.over():
            return None
        for _ in range(20):
            steps = random_turn(self.pos, rng)
            if not steps:
                return None
            text = self.pos.steps_to_str(steps)
            v = self.classify(text)
            if v.kind == "legal":
                return text, v
            if v.reason != "a third repetition":
                raise HarnessError(
                    f"pyrimaa's own random turn `{text}` classified {v.reason}"
                )
        return None


def random_setup(model, rng, handicap=False):
    color = model.setup_color
    lo = 0 if color == GOLD else 48
    free = [
        ix
        for ix in range(lo, lo + 16)
        if model.pos.bitBoards[Piece.EMPTY] & (1 << ix)
    ]
    pieces = list(ARMY)
    if handicap:
        keep = rng.randint(1, 15)
        officers = pieces[:8]
        rng.shuffle(officers)
        pieces = officers[: max(0, keep - 1)] + ["R"] * rng.randint(1, 8)
    rng.shuffle(free)
    pieces = pieces[: len(free)]
    if "R" not in pieces and pieces:
        pieces[-1] = "R"
    toks = []
    for p, ix in zip(pieces, free):
        toks.append((p if color == GOLD else p.lower()) + sq_name(ix))
    rng.shuffle(toks)
    return " ".join(toks)


def random_position(rng):
    """(side letter, 64 cells) of a position worth setting: one reached by
    random play from random setups, or pieces scattered over the board
    (rabbits near goal, frozen pieces, few pieces) with no piece left
    unsupported on a trap."""
    if rng.random() < 0.5:
        m = Model()
        for _ in range(2):
            m.commit(m.classify(random_setup(m, rng)))
        for _ in range(rng.randint(0, 40)):
            mv = m.random_legal(rng)
            if mv is None:
                break
            m.commit(mv[1])
        color, cells = m.pos.color, list(cells_of(m.pos))
    else:
        cells = [" "] * 64
        free = list(range(64))
        rng.shuffle(free)
        for color in (GOLD, SILVER):
            for kind, full in FULL.items():
                if kind == "R":
                    n = rng.randint(1, full) if rng.random() < 0.97 else 0
                else:
                    n = rng.randint(0, full)
                for _ in range(n):
                    # A rabbit on its goal rank only now and then (a won game).
                    goal_row = 0 if color == GOLD else 7
                    for j, i in enumerate(free):
                        if kind != "R" or i // 8 != goal_row or rng.random() < 0.03:
                            break
                    else:
                        continue
                    free.pop(j)
                    cells[i] = kind if color == GOLD else kind.lower()
        color = rng.choice((GOLD, SILVER))
        pos = position_from_cells(color, cells)
        for t in TRAPS:
            bit = 1 << t
            p = pos.piece_at(bit)
            if p and not neighbors_of(bit) & pos.placement[(p & Piece.COLOR) >> 3]:
                cells[[cell_square(i) for i in range(64)].index(t)] = " "
    side = "gs"[color] if rng.random() < 0.85 else "wb"[color]
    return side, "".join(cells)


def setposition_verdict(arg):
    """(color, cells) when `setposition <arg>` should be accepted, else a
    string saying why not."""
    if arg == "":
        return "no arguments"
    side, _, rest = arg.partition(" ")
    if len(side) != 1 or side not in "gswb":
        return f"side `{side}`"
    board = rust_trim(rest)
    if len(board) < 2 or board[0] != "[" or board[-1] != "]":
        return "no [board]"
    inner = board[1:-1]
    if len(inner) != 64:
        return f"{len(inner)} squares"
    counts = {}
    for c in inner:
        if c in " .xX":
            continue
        if c not in "RCDHMErcdhme":
            return f"`{c}` is no piece"
        counts[c] = counts.get(c, 0) + 1
    for c, n in counts.items():
        if n > FULL[c.upper()]:
            return f"{n} of `{c}`"
    color = GOLD if side in "gw" else SILVER
    cells = "".join(" " if c in ".xX" else c for c in inner)
    if color == SILVER and not cells.strip():
        return "silver to move on an empty board"
    return color, cells


# ----------------------------------------------------------------- session


class Failure(Exception):
    """The engine did something the checks refuse."""


class HarnessError(Exception):
    """The harness itself is wrong (a bug here, not in the engine)."""


class Expect:
    def __init__(self, kind, words=(), readies=0):
        self.kind = kind  # ok, err, warn, log (err or warn)
        self.words = tuple(words)
        self.readies = readies


OK = Expect("ok")
READY = Expect("ok", readies=1)


def ERR(*words):
    return Expect("err", words)


def WARN(*words):
    return Expect("warn", words)


def LOG(*words):
    return Expect("log", words)


class Item:
    def __init__(self, data, expect):
        self.data = data.encode("utf-8") if isinstance(data, str) else data
        self.expect = expect


def partition(lines):
    best = [(i, l[len("bestmove ") :]) for i, l in enumerate(lines) if l.startswith("bestmove ")]
    logs, timing = [], []
    for i, l in enumerate(lines):
        if l.startswith("log Error:") or l.startswith("log Warning:"):
            (timing if TIMING_NOTE in l else logs).append((i, l))
    return best, logs, timing


class Stats:
    FIELDS = (
        "sessions",
        "lines",
        "moves_legal",
        "moves_refused",
        "bestmoves_setup",
        "bestmoves_move",
        "go_over",
        "setpositions",
        "options",
        "logs_checked",
        "searches_interrupted",
        "ponders",
        "timing_notes",
    )

    def __init__(self):
        for f in self.FIELDS:
            setattr(self, f, 0)

    def add(self, other):
        for f in self.FIELDS:
            setattr(self, f, getattr(self, f) + getattr(other, f))


class Session:
    """One engine process, its transcript and the model of its game."""

    def __init__(self, binary, name, rng, scale=1.0):
        self.name = name
        self.rng = rng
        self.scale = scale
        self.stats = Stats()
        self.model = Model()
        self.depth = 0
        self.t0 = time.monotonic()
        self.transcript = []
        self.stderr = []
        self.closed_input = False
        # The engine warns once when a game is played before `newgame`
        # (or a `setposition` it accepts): allowed once, and never after a
        # plain `newgame` was sent.
        self.began = False
        self.aei_sent = False
        self.warned_before_newgame = False
        self.proc = subprocess.Popen(
            [binary],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.out = queue.Queue()
        threading.Thread(target=self._read_out, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read_out(self):
        for raw in iter(self.proc.stdout.readline, b""):
            self.out.put(raw)
        self.out.put(None)

    def _read_err(self):
        for raw in iter(self.proc.stderr.readline, b""):
            self.stderr.append(raw)

    def stamp(self):
        return time.monotonic() - self.t0

    # -- input

    def send(self, data):
        if isinstance(data, str):
            data = data.encode("utf-8")
        self.transcript.append((self.stamp(), ">", data))
        self.stats.lines += 1
        if data.strip() == b"aei":
            self.aei_sent = True
        elif data.strip() == b"newgame" and self.aei_sent:
            self.began = True
        try:
            self.proc.stdin.write(data + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise Failure(
                f"the engine stopped reading its input ({e}; exit status {self.proc.poll()})"
            ) from None

    def close_input(self):
        self.transcript.append((self.stamp(), ">", b"<end of input>"))
        self.closed_input = True
        try:
            self.proc.stdin.close()
        except OSError:
            pass

    # -- output

    def next_line(self, timeout):
        try:
            raw = self.out.get(timeout=timeout * self.scale)
        except queue.Empty:
            return None
        if raw is None:
            self.out.put(None)
            self.transcript.append((self.stamp(), "<", b"<end of output>"))
            raise Failure(f"the engine's output ended (exit status {self.wait_exit(2)})")
        body = raw[:-1] if raw.endswith(b"\n") else raw
        self.transcript.append((self.stamp(), "<", body))
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            raise Failure(f"output line is not UTF-8: {short(body)}") from None
        if any(unicodedata.category(c) == "Cc" for c in text):
            raise Failure(f"raw control character in output line: {short(body)}")
        if text.split(" ", 1)[0] not in REPLIES:
            raise Failure(f"output line is no AEI message: {short(body)}")
        if text.startswith("log Warning: `") and "before `newgame`" in text:
            if self.began:
                raise Failure(f"`{text}` after `newgame` was sent")
            if self.warned_before_newgame:
                raise Failure(f"`{text}` a second time")
            self.warned_before_newgame = True
            return self.next_line(timeout)
        return text

    def read_until(self, pred, timeout, what):
        got = []
        end = time.monotonic() + timeout * self.scale
        while True:
            left = end - time.monotonic()
            line = self.next_line(max(0.0, left) / self.scale) if left > 0 else None
            if line is None:
                raise Failure(f"no {what} within {timeout * self.scale:.0f} s")
            got.append(line)
            if pred(line):
                return got

    def collect_ready(self, n, what="`readyok` for `isready`"):
        got = []
        seen = 0
        while seen < n:
            got.extend(self.read_until(lambda l: l == "readyok", T_READY, what))
            seen += 1
        return got

    def wait_exit(self, timeout):
        try:
            return self.proc.wait(timeout=timeout * self.scale)
        except subprocess.TimeoutExpired:
            return None

    # -- exchanges

    def exchange(self, items):
        """Sends the items and `isready`; checks what came back to `readyok`
        against the items' expectations, in order. Returns, per item,
        whether the engine accepted it (no `log Error` for it)."""
        for it in items:
            self.send(it.data)
        self.send("isready")
        lines = self.collect_ready(1 + sum(it.expect.readies for it in items))
        best, logs, timing = partition(lines)
        self.stats.timing_notes += len(timing)
        sent = "; ".join(f"`{short(it.data, 80)}`" for it in items) or "`isready`"
        if best:
            raise Failure(f"unexpected `bestmove {best[0][1]}` after {sent}")
        return self.match(items, [l for _, l in logs], sent)

    def match(self, items, logs, sent):
        logs = list(logs)
        accepted = []
        for it in items:
            e = it.expect
            what = f"`{short(it.data, 80)}`"
            if e.kind == "ok":
                accepted.append(True)
                continue
            want = {"err": "log Error:", "warn": "log Warning:", "log": "log "}[e.kind]
            if not logs:
                raise Failure(
                    f"{what} got no `{want.strip()}` (expected one naming {list(e.words)})"
                )
            l = logs.pop(0)
            if not l.startswith(want):
                raise Failure(f"{what} got `{l}`, expected a `{want.strip()}` line")
            low = l.lower()
            missing = [w for w in e.words if w.lower() not in low]
            if missing:
                raise Failure(f"{what} got `{l}`, which does not name {missing}")
            self.stats.logs_checked += 1
            accepted.append(not l.startswith("log Error:"))
        if logs:
            raise Failure(f"unexpected `{logs[0]}` after {sent}")
        return accepted

    def sync(self):
        self.exchange([])

    def line(self, data, expect):
        """One line and its check; applies `newgame` and `depth` to the model."""
        acc = self.exchange([Item(data, expect)])[0]
        text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
        word, rest = command_parts(text)
        if acc and word == "newgame" and rest == "":
            self.model.newgame()
        if acc and word == "setoption":
            self.note_option(rest)
        return acc

    def note_option(self, rest):
        m = re.match(r"name\s+(\S+)\s+value\s+(.*)$", rest)
        if m and m.group(1).lower() == "depth":
            try:
                self.depth = max(0, int(float(m.group(2))))
            except ValueError:
                pass

    def move(self, text, raw=None, want=None):
        """`makemove`: accepted exactly when pyrimaa finds it legal."""
        v = self.model.classify(text)
        if want and v.kind != want:
            raise HarnessError(f"`{text}` should be {want}, pyrimaa: {v.kind} {v.reason}")
        data = raw if raw is not None else f"makemove {text}"
        expect = OK if v.kind == "legal" else ERR("makemove")
        try:
            acc = self.exchange([Item(data, expect)])[0]
        except Failure as f:
            raise Failure(f"{f} [pyrimaa: {v.kind} {v.reason}; {self.model.describe()}]") from None
        if v.kind == "legal":
            self.stats.moves_legal += 1
            self.model.commit(v)
        else:
            self.stats.moves_refused += 1
        return acc

    def setpos_arg(self, arg, raw=None, want=None):
        """`setposition <arg>`: refused exactly when malformed; warns when
        the game it gives is already over."""
        v = setposition_verdict(rust_trim(arg))
        if want and (want == "legal") != isinstance(v, tuple):
            raise HarnessError(f"setposition `{arg}` should be {want}: {v}")
        data = raw if raw is not None else f"setposition {arg}"
        if isinstance(v, tuple):
            trial = self.model.copy()
            trial.set_position(*v)
            over = trial.over()
            expect = WARN("already over", f"{over[0]} won") if over else OK
        else:
            expect = ERR("setposition")
        self.line(data, expect)
        self.stats.setpositions += 1
        if isinstance(v, tuple):
            self.model.set_position(*v)
        return isinstance(v, tuple)

    def setpos(self, side, cells):
        return self.setpos_arg(f"{side} [{cells}]")

    def ensure_depth(self, depth=None):
        if depth is None and 1 <= self.depth <= 5:
            return
        d = depth if depth is not None else self.rng.choice((2, 3, 4))
        self.line(f"setoption name depth value {d}", OK)

    def check_bestmove(self, mv, model=None):
        model = model or self.model
        if not model.known:
            return
        problem = model.bestmove_problem(mv)
        if problem:
            raise Failure(f"`bestmove {mv}` is {problem}; {model.describe()}")
        if model.phase == "setup":
            self.stats.bestmoves_setup += 1
        else:
            self.stats.bestmoves_move += 1

    def go(self):
        """`go`: a legal bestmove, or the game-over error and none."""
        over = self.model.over()
        if over:
            self.line("go", ERR("game is over", f"{over[0]} won", over[1]))
            self.stats.go_over += 1
            return None
        self.ensure_depth()
        self.send("go")
        got = self.read_until(
            lambda l: l.startswith("bestmove ") or l.startswith("log Error:"),
            T_SEARCH,
            "`bestmove` for `go`",
        )
        _, logs, timing = partition(got)
        self.stats.timing_notes += len(timing)
        if got[-1].startswith("log Error:"):
            raise Failure(f"`go` got `{got[-1]}`; pyrimaa: game not over; {self.model.describe()}")
        if logs:
            raise Failure(f"unexpected `{logs[0][1]}` during `go`")
        mv = got[-1][len("bestmove ") :]
        self.check_bestmove(mv)
        self.sync()
        return mv

    # -- endings

    def finish(self, how):
        """Ends the session: `quit`, end of input or an unrecognised line."""
        if how == "quit":
            self.send("quit")
            code = self.wait_exit(T_EXIT)
            if code != 0:
                raise Failure(f"exit status {code} after `quit`")
        elif how == "eof":
            self.close_input()
            code = self.wait_exit(T_EXIT)
            if code != 0:
                raise Failure(f"exit status {code} after the end of input")
        else:
            data, word = how
            self.send(data)
            got = self.read_until(lambda l: l.startswith("log Error:"), T_READY, "`log Error` for an unrecognised message")
            l = got[-1]
            for w in ("unrecognised", word):
                if w.lower() not in l.lower():
                    raise Failure(f"`{short(data)}` got `{l}`, which does not name `{w}`")
            self.stats.logs_checked += 1
            code = self.wait_exit(T_EXIT)
            if code is None or code == 0:
                raise Failure(f"exit status {code} after an unrecognised message (expected non-zero)")
            # Nothing but log/info lines may follow before the output ends.
            while True:
                try:
                    raw = self.out.get(timeout=2)
                except queue.Empty:
                    raise Failure("output still open after the engine exited") from None
                if raw is None:
                    break
                self.transcript.append((self.stamp(), "<", raw.rstrip(b"\n")))

    def open(self, pre=()):
        """The handshake, after lines sent before `aei` (each refused)."""
        for line in pre:
            self.send(line)
        self.send("aei")
        got = self.read_until(lambda l: l == "aeiok", T_READY, "`aeiok` for `aei`")
        for line, l in zip(pre, got):
            if not (l.startswith("log Error:") and "before `aei`" in l):
                raise Failure(f"`{line}` before `aei` got `{l}`")
            self.stats.logs_checked += 1
        rest = got[len(pre) :]
        if not rest or rest[0] != "protocol-version 1":
            raise Failure(f"the first line after `aei` is not `protocol-version 1`: {rest[:1]}")
        ids = rest[1:-1]
        if not any(l.startswith("id name ") for l in ids) or any(
            not l.startswith("id ") for l in ids
        ):
            raise Failure(f"between `protocol-version 1` and `aeiok`: {ids}")

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except OSError:
                pass

    def check_stderr(self):
        # The reader thread ends with the process; give it a moment.
        for _ in range(50):
            if self.proc.poll() is not None:
                break
            time.sleep(0.01)
        err = b"".join(self.stderr)
        if b"panicked" in err:
            i = err.index(b"panicked")
            raise Failure(f"stderr: {short(err[max(0, i - 60) : i + 200], 300)}")

    def write_transcript(self, path, header):
        with open(path, "w", encoding="utf-8") as f:
            f.write(header)
            for t, d, data in self.transcript:
                f.write(f"{t:9.3f} {d} {show(data)}\n")
            f.write("# stderr of the engine:\n")
            for raw in self.stderr:
                f.write("# " + show(raw.rstrip(b"\n")) + "\n")


# ------------------------------------------------------------------ fuzzing

TIME_OPTIONS = (
    "tcmove", "tcreserve", "tcmax", "tctotal", "tcturntime", "greserve",
    "sreserve", "gused", "sused", "lastmoveused", "moveused", "wreserve",
    "breserve", "wused", "bused", "tcmoveused", "tclastmoveused",
)
BAD_NUMBERS = ("fast", "", "nan", "inf", "-inf", "1e999", "5s", "0x10", "1,5", "--1", "1e10")
# (name, good values, refused values): the engine's own options (`aamir params`).
RANGED = (
    ("hash", ("1", "8", "16", "64"), ("0", "-1", "1048577", "lots", "")),
    ("threads", ("1", "2"), ("0", "257", "many", "")),
    ("depth", ("2", "3", "4"), ("121", "2.5", "deep", "", "1e999")),
    ("aspiration", ("0", "40", "10000"), ("10001", "-1", "wide")),
    ("pvs", ("0", "1", "on", "false"), ("2", "-1", "maybe")),
    ("history", ("0", "1"), ("2",)),
    ("qsearch", ("0", "1", "2"), ("5", "-1")),
    # The range's ends too: from about 7500 per step the static score used
    # to reach the win-score band and a depth-limited search never ended (an
    # engine defect this harness found; the evaluation is now clamped).
    ("eval_tempo", ("-10000", "-1000", "0", "3", "1000", "10000"), ("10001", "-10001", "x")),
    ("tcpercent", ("0", "50", "100", "72.5"), ("-1", "10001", "x")),
    ("tcturns", ("0", "40", "200"), ("2.5", "-1", "x")),
    ("opponent_rating", ("1500", "-3.5"), ("x", "inf", "")),
    ("rating", ("2100",), ("strong", "nan")),
    ("rated", ("1", "0", "true", "false", "yes", "off", "2.5"), ("maybe", "")),
    ("seed", ("0", "42", "18446744073709551615", "none", "random"), ("-1", "x", "18446744073709551616", "1.5")),
)
EXTREME = (("goal_extensions", ("8",)),)
UNKNOWN_OPTIONS = ("colour", "tcmove2", "hash_mb", "multipv", "ponder", "Skill Level", "weight", "tc_move")
MALFORMED = (
    ("go sideways", ERR("go")),
    ("go ponder now", ERR("go")),
    ("go 5", ERR("go")),
    ("isready now", ERR("isready")),
    ("newgame please", ERR("newgame")),
    ("stop now", ERR("stop")),
    ("quit now", ERR("quit")),
    ("aei", ERR("aei")),
    ("aei 1", ERR("aei")),
    ("makemove", ERR("makemove")),
    ("makemove    ", ERR("makemove")),
    ("setposition", ERR("setposition")),
    ("setposition g", ERR("setposition")),
    ("setoption", ERR("setoption")),
    ("setoption tcmove 5", ERR("setoption")),
    ("setoption name", ERR("setoption")),
    ("setoption names tcmove value 5", ERR("setoption")),
    ("setoption value 5", ERR("setoption")),
    ("setoption name value 5", LOG("value")),
    ("setoption name tcmove value 5 value 6", ERR("tcmove")),
)
CONTROL = (
    (b"makemove Ee2n \x1b[2J\x07\x00", ERR("makemove")),
    (b"setoption name \x1b]0;x\x07 value 1", WARN("unrecognised")),
    (b"setoption name event value \x1b[31mred\x00", OK),
    (b"go \x07", ERR("go")),
    (b"isready \x7f", ERR("isready")),
    (b"newgame \x1b", ERR("newgame")),
    (b"makemove \xff\xfe", ERR("makemove")),
    (b"makemove Ee2n\x1cEe3n", ERR("makemove")),
    (b"setoption name tcmove value 5\x00", ERR("tcmove")),
    (b"stop \x00", ERR("stop")),
    (b"setposition g [\x00" + b" " * 63 + b"]", ERR("setposition")),
    (b"setoption name opponent value \xc3\xa9\xe2\x80\x8b\xc2\x85x", OK),
)
LONG = (
    (b"makemove " + b"Ee2n Ee3s " * 7000, ERR("longer than")),
    (b"x" * 100000, ERR("longer than")),
    (b"setoption name event value " + b"y" * 60000, OK),
    (b"makemove " + b"Ee2n " * 10000, ERR("makemove")),
    (b"setposition g [" + b" " * 30000 + b"]", ERR("setposition")),
    (b"setoption name " + b"z" * 50000 + b" value 1", WARN("unrecognised")),
    (b"setoption name event value " + b"w" * (65536 - 27), OK),
    (b"setoption name event value " + b"w" * (65537 - 27), ERR("longer than")),
)
BLANK = (b"", b"   ", b"\t", b" \r", b"\r")
UNKNOWN_LINES = (
    (b"fly away", "fly"),
    (b"ISREADY", "ISREADY"),
    (b"Makemove Ee2n", "Makemove"),
    (b"isready\x07", "isready"),
    (b"go\x1bponder", "go"),
    (b"\x00", "\\0"),
    (b"hello", "hello"),
    (b"position startpos", "position"),
    (b"uci", "uci"),
    (b"\xff\xfeisready", "isready"),
)


def option_line(rng):
    """(line, expectation) of a `setoption`, good or bad."""
    r = rng.random()
    name_case = (lambda n: n.upper()) if rng.random() < 0.1 else (lambda n: n)
    if r < 0.35:
        name = rng.choice(TIME_OPTIONS)
        s = rng.random()
        if s < 0.55:
            v = rng.choice(("0", "1", "2.5", "30", str(rng.randint(0, 600)), f"{rng.uniform(0, 100):.3f}", "+5", " 7 "))
            return f"setoption name {name_case(name)} value {v}", OK
        if s < 0.7:
            v = rng.choice(("-1", "-0.5", f"-{rng.randint(1, 1000)}"))
            return f"setoption name {name} value {v}", WARN(name, "negative")
        if s < 0.9:
            return f"setoption name {name} value {rng.choice(BAD_NUMBERS)}", ERR(name)
        return f"setoption name {name}", ERR(name, "needs a value")
    if r < 0.75:
        name, good, bad = rng.choice(RANGED)
        if name == "depth":
            good = good + ("0", "-3")
        if rng.random() < 0.55 or not bad:
            return f"setoption name {name_case(name)} value {rng.choice(good)}", OK
        if rng.random() < 0.9:
            return f"setoption name {name} value {rng.choice(bad)}", ERR(name)
        return f"setoption name {name}", ERR(name, "needs a value")
    if r < 0.85:
        v = rng.choice(("", "bot_Clueless 2009", "World Championship", "x" * 300, "é ü \u3000 ok"))
        return f"setoption name {rng.choice(('opponent', 'event'))} value {v}", OK
    name = rng.choice(UNKNOWN_OPTIONS)
    if rng.random() < 0.3:
        name = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz_") for _ in range(rng.randint(1, 12)))
        while name in ("value", "name") or name.lower() in {o for o in TIME_OPTIONS}:
            name += "z"
    first = name.split()[0]
    return f"setoption name {name} value {rng.randint(0, 9)}", WARN(first)


def mutate_move(model, rng):
    """A move text close to a legal one, or plainly wrong; may turn out
    legal (it is classified, not assumed)."""
    base = model.random_legal(rng)
    toks = base[0].split() if base else ["Ee2n"]
    steps = [t for t in toks if not t.endswith("x")]
    kind = rng.randrange(14)
    t = list(toks)
    i = rng.randrange(len(t))
    if kind == 0:  # another direction
        t[i] = t[i][:3] + rng.choice("nsew")
    elif kind == 1:  # another square
        t[i] = t[i][0] + rng.choice("abcdefgh") + rng.choice("12345678") + t[i][3:]
    elif kind == 2:  # another piece letter
        t[i] = rng.choice("RCDHMErcdhme") + t[i][1:]
    elif kind == 3:  # a step dropped
        del t[i]
    elif kind == 4:  # five steps or more
        t = steps + [rng.choice(steps)[:3] + rng.choice("nsew") for _ in range(5 - len(steps) + rng.randint(0, 2))]
    elif kind == 5:  # order reversed
        t.reverse()
    elif kind == 6:  # a bogus capture token
        t.insert(i + 1, rng.choice("RCDHMErcdhme") + rng.choice(("c3", "f3", "c6", "f6", "d4")) + "x")
    elif kind == 7:  # a step and its return: unchanged board
        s = steps[0]
        back = {"n": "s", "s": "n", "e": "w", "w": "e"}[s[3]]
        to = sq_name(sq_index(s[1:3]) + {"n": 8, "s": -8, "e": 1, "w": -1}[s[3]])
        t = [s, s[0] + to + back]
    elif kind == 8:  # the other side's move
        flipped = Model()
        flipped.phase, flipped.pos = "play", Position(model.pos.color ^ 1, 4, model.pos.bitBoards)
        other = random_turn(flipped.pos, rng)
        t = flipped.pos.steps_to_str(other).split() if other else ["ed7s"]
    elif kind == 9:  # placements during play
        t = [s[:3] for s in steps]
    elif kind == 10:  # a bad token
        t[i] = rng.choice(("Ee2", "Ee2nn", "Xe2n", "Ei2n", "Ee9n", "Ee2q", "E2en", "ee", "Ee2N", "e", "Ee0n"))
    elif kind == 11:  # capture tokens dropped (still legal)
        t = steps
    elif kind == 12:  # a step repeated
        t.insert(i, t[i])
    else:  # random steps
        t = [rng.choice("RCDHMErcdhme") + rng.choice("abcdefgh") + rng.choice("12345678") + rng.choice("nsew") for _ in range(rng.randint(1, 4))]
    return " ".join(t) if t else "Ee2n"


def broken_setup(model, rng):
    good = random_setup(model, rng).split()
    kind = rng.randrange(9)
    i = rng.randrange(len(good))
    g = list(good)
    if kind == 0:  # outside the area
        g[i] = g[i][0] + rng.choice("abcdefgh") + rng.choice("3456")
    elif kind == 1:  # too many of a kind
        letter = g[i][0]
        more = {"R": "E", "r": "e"}.get(letter, "R" if letter.isupper() else "r")
        g[i] = more + g[i][1:]
    elif kind == 2:  # a square twice
        g[i] = g[i][0] + g[(i + 1) % len(g)][1:]
    elif kind == 3:  # the other side's piece
        g[i] = g[i][0].swapcase() + g[i][1:]
    elif kind == 4:  # a step in a setup
        g[i] = g[i] + rng.choice("nsew")
    elif kind == 5:  # no rabbit
        g = [t for t in g if t[0] not in "Rr"]
    elif kind == 6:  # a bad square
        g[i] = g[i][0] + rng.choice(("i1", "a9", "a0", "11", "aa"))
    elif kind == 7:  # a step only
        g = [rng.choice(("Ee2n", "ed7s"))]
    else:  # handicap: fewer pieces (legal when a rabbit is left)
        g = random_setup(model, rng, handicap=True).split()
    return " ".join(g) if g else "Ra1"


def broken_setposition(rng):
    side, cells = random_position(rng)
    kind = rng.randrange(10)
    if kind == 0:
        side = rng.choice(("x", "G", "S", "gs", "1", "white", "-"))
    elif kind == 1:
        n = rng.choice((-5, -1, 1, 2, 10))
        cells = cells[:n] if n < 0 else cells + " " * n
    elif kind == 2:
        i = rng.randrange(64)
        cells = cells[:i] + rng.choice("Z1*?é#-") + cells[i + 1 :]
    elif kind == 3:
        return f"{side} {cells}]"
    elif kind == 4:
        return f"{side} [{cells}"
    elif kind == 5:
        return f"{side} [{cells}] extra"
    elif kind == 6:  # a ninth rabbit or a second elephant
        extra = rng.choice("RrEeMm")
        cells = extra * 9 + cells[9:] if extra in "Rr" else extra * 2 + cells[2:]
    elif kind == 7:
        return f"s [{' ' * 64}]"
    elif kind == 8:
        return f"{side}\t[{cells}]"
    else:
        return f"[{cells}]"
    return f"{side} [{cells}]"


class Fuzzer:
    def __init__(self, s, rng):
        self.s = s
        self.rng = rng

    def run(self):
        s, rng = self.s, self.rng
        pre = []
        if rng.random() < 0.15:
            pre = rng.sample(["isready", "newgame", "go", "makemove Ee2n", "setoption name depth value 3", "stop"], rng.randint(1, 3))
        s.open(pre)
        s.line(f"setoption name seed value {rng.randrange(2**32)}", OK)
        s.ensure_depth()
        for _ in range(rng.randint(15, 60)):
            self.step()
        self.ending()

    def step(self):
        s, rng, m = self.s, self.rng, self.s.model
        if not m.known:
            return self.setposition_good()
        if m.phase == "setup":
            acts = [(self.setup_good, 30), (self.setup_bad, 20), (self.go_and_play, 25), (self.option, 5),
                    (self.malformed, 4), (self.setposition_good, 4), (self.setposition_bad, 3),
                    (self.ponder_setup, 3), (self.newgame, 2), (self.control, 2), (self.blank, 1), (self.stop_idle, 1)]
        elif m.over():
            acts = [(self.go_and_play, 10), (self.setposition_good, 20), (self.newgame, 15), (self.bad_move, 10),
                    (self.option, 4), (self.malformed, 3), (self.ponder_over, 3)]
        else:
            acts = [(self.legal_move, 30), (self.bad_move, 16), (self.go_and_play, 18), (self.option, 8),
                    (self.malformed, 4), (self.setposition_good, 3), (self.setposition_bad, 3), (self.control, 3),
                    (self.long_line, 1), (self.blank, 2), (self.isready_burst, 2), (self.stop_idle, 2),
                    (self.newgame, 1), (self.ponder, 5), (self.interfere, 6), (self.burst, 4)]
        total = sum(w for _, w in acts)
        r = rng.uniform(0, total)
        for act, w in acts:
            r -= w
            if r <= 0:
                return act()
        return acts[-1][0]()

    # -- lines that change the game

    def decorate(self, line, spaces=True):
        r = self.rng.random()
        if r < 0.05:
            return "  " + line
        if r < 0.1:
            return line + "\r"
        if r < 0.13:
            return line.replace(" ", "\t", 1)
        if r < 0.16 and spaces:
            return line.replace(" ", "   ")
        return line

    def legal_move(self):
        mv = self.s.model.random_legal(self.rng)
        if mv is None:
            return self.newgame()
        text = mv[0]
        if self.rng.random() < 0.3:
            text = " ".join(t for t in text.split() if not t.endswith("x"))
        self.s.move(text, raw=self.decorate(f"makemove {text}"))

    def bad_move(self):
        m = self.s.model
        text = mutate_move(m, self.rng) if m.phase == "play" else broken_setup(m, self.rng)
        self.s.move(text)

    def setup_good(self):
        m = self.s.model
        text = random_setup(m, self.rng, handicap=self.rng.random() < 0.1)
        self.s.move(text, raw=self.decorate(f"makemove {text}"))

    def setup_bad(self):
        self.s.move(broken_setup(self.s.model, self.rng))

    def go_and_play(self):
        mv = self.s.go()
        if mv is not None and self.rng.random() < 0.7:
            self.s.move(mv)

    def newgame(self):
        self.s.line(self.decorate("newgame"), OK)

    def setposition_good(self):
        rng, m = self.rng, self.s.model
        if m.phase == "play" and rng.random() < 0.2:
            side, cells = "gs"[m.pos.color], cells_of(m.pos)
        else:
            side, cells = random_position(rng)
        if rng.random() < 0.1:
            cells = "".join(("x" if c == " " and cell_square(i) in TRAPS else "." if c == " " and rng.random() < 0.2 else c) for i, c in enumerate(cells))
        arg = f"{side} [{cells}]"
        self.s.setpos_arg(arg, raw=self.decorate(f"setposition {arg}", spaces=False))

    def setposition_bad(self):
        self.s.setpos_arg(broken_setposition(self.rng))

    # -- lines that must not change it

    def option(self):
        line, expect = option_line(self.rng)
        self.s.line(line, expect)
        self.s.stats.options += 1

    def malformed(self):
        line, expect = self.rng.choice(MALFORMED)
        self.s.line(line, expect)

    def control(self):
        data, expect = self.rng.choice(CONTROL)
        self.s.line(data, expect)

    def long_line(self):
        data, expect = self.rng.choice(LONG)
        self.s.line(data, expect)

    def blank(self):
        self.s.line(self.rng.choice(BLANK), OK)

    def isready_burst(self):
        n = self.rng.randint(2, 5)
        self.s.exchange([Item(self.decorate("isready"), READY) for _ in range(n)])

    def stop_idle(self):
        self.s.line("stop", WARN("stop"))

    def burst(self):
        """Several lines at once, then `isready`: answers in order."""
        rng, s, m = self.rng, self.s, self.s.model
        items = []
        for _ in range(rng.randint(2, 6)):
            r = rng.random()
            if r < 0.3:
                text = mutate_move(m, rng)
                v = m.classify(text)
                if v.kind == "illegal":
                    items.append(Item(f"makemove {text}", ERR("makemove")))
                    s.stats.moves_refused += 1
            elif r < 0.55:
                line, expect = option_line(rng)
                if "depth" not in line.lower():
                    items.append(Item(line, expect))
            elif r < 0.75:
                items.append(Item(*rng.choice(MALFORMED)))
            elif r < 0.85:
                items.append(Item("isready", READY))
            elif r < 0.95:
                items.append(Item(rng.choice(BLANK), OK))
            else:
                items.append(Item(*rng.choice(CONTROL)))
        last = None
        if rng.random() < 0.5:
            last = m.random_legal(rng)
            if last:
                items.append(Item(f"makemove {last[0]}", OK))
        s.exchange(items)
        if last:
            m.commit(last[1])
            s.stats.moves_legal += 1

    # -- searches

    def harmless_bad(self, n):
        """Lines that are refused (or ignored) whatever the game."""
        items = []
        for _ in range(n):
            r = self.rng.random()
            if r < 0.25:
                items.append(Item("isready", READY))
            elif r < 0.5:
                line, expect = self.rng.choice(MALFORMED[:7] + MALFORMED[9:])
                items.append(Item(line, expect))
            elif r < 0.7:
                items.append(Item(*self.rng.choice(CONTROL[:2] + CONTROL[3:8])))
            elif r < 0.85:
                items.append(Item("makemove Ee2n Ee2s Ee2n Ee2s Ee2n", ERR("makemove")))
            else:
                items.append(Item(f"setoption name opponent value x{self.rng.randint(0, 99)}", OK))
        return items

    def interfere(self):
        """A `go` with no depth, lines sent while it runs, then what ends it."""
        rng, s, m = self.rng, self.s, self.s.model
        s.ensure_depth(0)
        before = m.copy()
        s.send("go")
        time.sleep(rng.uniform(0, 0.2))
        items = self.harmless_bad(rng.randint(0, 3))
        for it in items:
            s.send(it.data)
            if rng.random() < 0.3:
                time.sleep(rng.uniform(0, 0.05))
        fin = rng.choice(("stop", "stop", "makemove", "newgame", "setposition", "go", "goponder"))
        change = None
        if fin == "stop":
            s.send("stop")
        elif fin == "makemove":
            change = m.random_legal(rng)
            if change is None:
                fin = "stop"
                s.send("stop")
            else:
                items.append(Item(f"makemove {change[0]}", OK))
                s.send(items[-1].data)
        elif fin == "newgame":
            items.append(Item("newgame", OK))
            s.send("newgame")
        elif fin == "setposition":
            side, cells = random_position(rng)
            change = setposition_verdict(f"{side} [{cells}]")
            trial = m.copy()
            trial.set_position(*change)
            over = trial.over()
            items.append(Item(f"setposition {side} [{cells}]", WARN("already over") if over else OK))
            s.send(items[-1].data)
        else:
            s.send("go" if fin == "go" else "go ponder")
            time.sleep(rng.uniform(0, 0.1))
            s.send("stop")
        s.send("isready")
        lines = s.collect_ready(1 + sum(it.expect.readies for it in items))
        best, logs, timing = partition(lines)
        s.stats.timing_notes += len(timing)
        abandoned = [(i, l) for i, l in logs if ABANDONED in l]
        idle = [(i, l) for i, l in logs if STOP_IDLE in l]
        already = [(i, l) for i, l in logs if any(a in l for a in ALREADY)]
        search = {i for i, _ in abandoned + idle + already}
        s.match(items, [l for i, l in logs if i not in search], f"lines during a search ({fin})")
        nb = len(best)
        desc = f"`go` ended by {fin}: {nb} bestmove, {len(abandoned)} abandoned, {len(idle)} stop-idle, {len(already)} already-searching"
        if fin == "stop":
            ok = nb == 1 and not abandoned and not already and len(idle) <= 1
            ok = ok and (not idle or best[0][0] < idle[0][0])
        elif fin in ("makemove", "newgame", "setposition"):
            ok = nb + len(abandoned) == 1 and not idle and not already
            if abandoned and fin not in abandoned[0][1]:
                raise Failure(f"the abandon warning does not name `{fin}`: {abandoned[0][1]}")
        else:
            # Any search may end by itself (a goal at hand is answered at
            # once, a clock may be set): `stop` then finds nothing to stop.
            if already:
                ok = len(already) == 1 and nb == 1 and len(idle) <= 1 and not abandoned
            else:
                ok = not abandoned and (
                    (nb == 2 and len(idle) <= 1) or (fin == "goponder" and nb == 1 and len(idle) == 1)
                )
            ok = ok and (not idle or best[0][0] < idle[0][0])
        if not ok:
            raise Failure(desc)
        for _, mv in best:
            s.check_bestmove(mv, before)
        s.stats.searches_interrupted += 1
        if fin == "makemove":
            m.commit(change[1])
            s.stats.moves_legal += 1
        elif fin == "newgame":
            m.newgame()
        elif fin == "setposition":
            m.set_position(*change)
            s.stats.setpositions += 1

    def ponder(self):
        rng, s, m = self.rng, self.s, self.s.model
        if rng.random() < 0.5:
            s.ensure_depth()
        else:
            s.ensure_depth(0)
        s.send("go ponder")
        time.sleep(rng.uniform(0, 0.15))
        s.stats.ponders += 1
        fin = rng.choice(("makemove", "stop", "go"))
        if fin == "makemove":
            mv = m.random_legal(rng)
            if mv is None:
                fin = "stop"
            else:
                # A ponder ended by the opponent's move: no bestmove, no word.
                s.exchange([Item(f"makemove {mv[0]}", OK)])
                m.commit(mv[1])
                s.stats.moves_legal += 1
                return
        if fin == "stop":
            s.send("stop")
            s.send("isready")
            lines = s.collect_ready(1)
            best, logs, timing = partition(lines)
            s.stats.timing_notes += len(timing)
            idle = [l for _, l in logs if STOP_IDLE in l]
            other = [l for _, l in logs if STOP_IDLE not in l]
            if other or len(best) + len(idle) != 1:
                raise Failure(f"`go ponder` then `stop`: {len(best)} bestmove, logs {[l for _, l in logs]}")
            for _, mv in best:
                s.check_bestmove(mv)
            return
        # `go` while pondering: a real search of the same position.
        s.send("go")
        stopped = s.depth == 0
        if stopped:
            time.sleep(rng.uniform(0, 0.1))
            s.send("stop")
        got = s.read_until(lambda l: l.startswith("bestmove "), T_SEARCH, "`bestmove` for `go` after `go ponder`")
        s.send("isready")
        got += s.collect_ready(1)
        best, logs, timing = partition(got)
        s.stats.timing_notes += len(timing)
        # The search may have ended before `stop` (a goal at hand).
        idle = [l for _, l in logs if STOP_IDLE in l]
        other = [l for _, l in logs if STOP_IDLE not in l]
        if other or len(best) != 1 or len(idle) > int(stopped):
            raise Failure(f"`go ponder`, `go`{', `stop`' if stopped else ''}: {len(best)} bestmove, logs {[l for _, l in logs]}")
        s.check_bestmove(best[0][1])

    def ponder_setup(self):
        # Nothing to ponder in the setup phase: no answer, and `stop` has
        # nothing to stop.
        self.s.exchange([Item("go ponder", OK), Item("stop", WARN("stop"))])

    def ponder_over(self):
        over = self.s.model.over()
        self.s.line("go ponder", ERR("game is over", f"{over[0]} won"))

    def ending(self):
        rng, s = self.rng, self.s
        r = rng.random()
        if r < 0.15 and s.model.phase == "play" and not s.model.over():
            # `quit` or end of input during a search.
            s.ensure_depth(0)
            s.send("go")
            time.sleep(rng.uniform(0, 0.2))
            s.finish("quit" if rng.random() < 0.5 else "eof")
        elif r < 0.5:
            s.finish("quit")
        elif r < 0.7:
            s.finish("eof")
        else:
            s.finish(rng.choice(UNKNOWN_LINES))


# ------------------------------------------------------------ hand-written

CASES = []


def case(name):
    def deco(f):
        CASES.append((name, f))
        return f

    return deco


# A position in play: gold can push the silver cat on c4 onto the trap c3
# with its elephant on d4 (`cc4s cc3x Ed4w`), silver's rabbits far away.
CAPTURE = "g [" + "rrr     " + " " * 8 + " " * 8 + " " * 8 + "  cE    " + " " * 8 + "RR      " + "    D   " + "]"


def opened(s):
    s.open()
    s.ensure_depth(3)


@case("aei: the handshake; protocol-version first, id lines, aeiok; isready")
def _(s):
    s.open()
    s.exchange([Item("isready", READY)])
    s.finish("quit")


@case("aei: lines before aei are each refused, then the session opens")
def _(s):
    s.open(pre=["isready", "newgame", "go", "makemove Ee2n", "setoption name depth value 3"])
    s.finish("quit")


@case("aei: a second aei, and aei with arguments, are refused")
def _(s):
    opened(s)
    s.line("aei", ERR("aei", "already"))
    s.line("aei 1", ERR("aei"))
    s.finish("quit")


@case("isready: several in a row each answered; with arguments refused")
def _(s):
    opened(s)
    s.exchange([Item("isready", READY)] * 4)
    s.line("isready now", ERR("isready"))
    s.line("  isready \r", READY)
    s.finish("quit")


@case("newgame: accepted mid-game (gold sets up next); with arguments refused")
def _(s):
    opened(s)
    s.setpos_arg(OPENING[len("setposition ") :], want="legal")
    s.move("Ee2n Ee3n", want="legal")
    s.line("newgame please", ERR("newgame"))
    s.move("ed7s", want="legal")
    s.line("newgame", OK)
    s.move("ed7s", want="illegal")
    s.go()
    s.finish("quit")


@case("setposition: the opening, old side letters w/b, '.' and 'x' for empty")
def _(s):
    opened(s)
    s.setpos("g", OPENING_CELLS)
    s.go()
    s.setpos("b", OPENING_CELLS)
    s.go()
    s.setpos("w", OPENING_CELLS.replace(" ", ".", 16))
    s.move("Ee2n", want="legal")
    s.setpos("g", "".join("x" if c == " " and cell_square(i) in TRAPS else c for i, c in enumerate(OPENING_CELLS)))
    s.go()
    s.finish("quit")


@case("setposition: malformed strings refused, the game kept")
def _(s):
    opened(s)
    s.setpos("g", OPENING_CELLS)
    for arg in (
        "",
        "g",
        f"x [{OPENING_CELLS}]",
        f"G [{OPENING_CELLS}]",
        f"gs [{OPENING_CELLS}]",
        f"g [{OPENING_CELLS[:-1]}]",
        f"g [{OPENING_CELLS}  ]",
        f"g [{OPENING_CELLS}",
        f"g {OPENING_CELLS}]",
        f"g [{OPENING_CELLS}] 12",
        f"g [Z{OPENING_CELLS[1:]}]",
        f"[{OPENING_CELLS}]",
        f"g\t[{OPENING_CELLS}]",
    ):
        s.setpos_arg(arg, want="illegal")
    s.move("Ee2n Ee3n", want="legal")
    s.finish("quit")


@case("setposition: more pieces of a kind than a side owns refused")
def _(s):
    opened(s)
    s.setpos("g", OPENING_CELLS)
    s.setpos_arg(f"g [{'r' * 9}{OPENING_CELLS[9:]}]", want="illegal")
    s.setpos_arg(f"g [{OPENING_CELLS[:48]}EE{OPENING_CELLS[50:]}]", want="illegal")
    s.move("Ee2n", want="legal")
    s.finish("quit")


@case("setposition: silver to move on an empty board refused (F3)")
def _(s):
    opened(s)
    s.setpos_arg(f"s [{' ' * 64}]", want="illegal")
    s.go()  # still gold's setup
    s.finish("quit")


@case("setposition: a finished game warns; go and go ponder then name winner and rule")
def _(s):
    opened(s)
    s.setpos_arg("s [R       rrrrrrrr" + " " * 40 + "E       ]", want="legal")
    s.go()
    s.line("go ponder", ERR("game is over"))
    s.move("ra7s", want="illegal")
    s.setpos_arg("s [       e" + " " * 40 + "RRRRRRRRE       ]", want="legal")
    s.go()
    s.finish("quit")


@case("setposition: gold's pieces only: silver sets up next; go answers a silver setup")
def _(s):
    opened(s)
    s.setpos("s", " " * 48 + OPENING_CELLS[48:])
    s.go()
    s.move("ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 ed7 me7 cf7 dg7 hh7", want="legal")
    s.go()
    s.finish("quit")


@case("setoption: every standard option with a good value, old names too")
def _(s):
    opened(s)
    for name in TIME_OPTIONS:
        s.line(f"setoption name {name} value 5", OK)
    for line in ("setoption name tcpercent value 100", "setoption name tcturns value 0",
                 "setoption name opponent value bot_Clueless", "setoption name opponent_rating value 1800",
                 "setoption name rating value 2000", "setoption name rated value 0",
                 "setoption name event value Casual game", "setoption name event value",
                 "setoption name hash value 16", "setoption name threads value 1",
                 "setoption name depth value 3", "setoption name seed value none"):
        s.line(line, OK)
    s.setpos("g", OPENING_CELLS)
    s.go()
    s.finish("quit")


@case("setoption: names are matched without case; extra spaces are fine")
def _(s):
    opened(s)
    s.line("setoption name TCMOVE value 3", OK)
    s.line("setoption name Depth value 2", OK)
    s.line("setoption   name   tcmove   value   4  ", OK)
    s.setpos("g", OPENING_CELLS)
    s.go()
    s.finish("quit")


@case("setoption: unknown options get a warning naming them")
def _(s):
    opened(s)
    for name in UNKNOWN_OPTIONS:
        s.line(f"setoption name {name} value 1", WARN(name.split()[0]))
    s.line("setoption name colour", WARN("colour"))
    s.finish("quit")


@case("setoption: out-of-range and unreadable values refused, naming the option")
def _(s):
    opened(s)
    for name, _, bad in RANGED:
        for v in bad:
            s.line(f"setoption name {name} value {v}", ERR(name))
    for v in BAD_NUMBERS:
        s.line(f"setoption name tcmove value {v}", ERR("tcmove"))
    s.setpos("g", OPENING_CELLS)
    s.go()  # depth still 3
    s.finish("quit")


@case("setoption: negative times read as 0 with a warning; negative depth is none")
def _(s):
    opened(s)
    s.line("setoption name greserve value -3", WARN("greserve", "negative"))
    s.line("setoption name tcmove value -0.5", WARN("tcmove", "negative"))
    s.line("setoption name depth value -1", OK)
    s.ensure_depth(2)
    s.setpos("g", OPENING_CELLS)
    s.go()
    s.finish("quit")


@case("setoption: a missing value and malformed lines refused")
def _(s):
    opened(s)
    for name in ("tcmove", "depth", "hash", "rated", "seed"):
        s.line(f"setoption name {name}", ERR(name, "needs a value"))
    for line, expect in MALFORMED[14:]:
        s.line(line, expect)
    s.finish("quit")


@case("makemove: full setups for both sides, then moves; go in play")
def _(s):
    opened(s)
    s.line("newgame", OK)
    s.move("Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2", want="legal")
    s.move("ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 ed7 me7 cf7 dg7 hh7", want="legal")
    s.move("Ee2n Ee3n Ee4n Md2n", want="legal")
    s.move("ed7s ed6s", want="legal")
    s.go()
    s.finish("quit")


@case("makemove: broken setups refused, the setup phase kept")
def _(s):
    opened(s)
    for text in (
        "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee3 Cf2 Dg2 Hh2",  # e3
        "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ra2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2",  # 9 rabbits
        "Ra1 Ra1",  # a square twice
        "ra1 Rb1",  # silver's piece
        "ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 ed7 me7 cf7 dg7 hh7",  # silver first
        "Ee2 Md2 Ha2 Hh2",  # no rabbit
        "Ra1 Ee2n",  # mixed
        "Ee2n",  # a step
        "Ri1",  # no such square
        "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2 Ca3",  # 17
    ):
        s.move(text, want="illegal")
    s.move("Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2", want="legal")
    s.move("Ee2n", want="illegal")
    s.go()
    s.finish("quit")


@case("makemove: a handicap setup (a rabbit and a few officers) accepted")
def _(s):
    opened(s)
    s.move("Ra1 Ee2 Md2", want="legal")
    s.go()
    s.finish("quit")


@case("makemove: illegal moves refused, the game kept, then a legal move accepted")
def _(s):
    opened(s)
    s.setpos("g", OPENING_CELLS)
    for text in (
        "Ea1n",  # wrong piece
        "Ee4n",  # empty square
        "Ra1s",  # off the board
        "Rb2s",  # empty square again
        "Ee2n Ee3n Ee4n Ee5n Ee6n",  # five steps
        "Ee2n Ee3s",  # unchanged board
        "Ra2n",  # no rabbit there
        "ed7s",  # silver's move
        "Ee2",  # a placement
        "Ee2n Ee3n Ee4n Ee5n ed7x",  # a wrong capture token
        "Ee2x",  # a capture token alone
        "Ee2q",  # a bad direction
    ):
        s.move(text, want="illegal")
    s.move("Ee2n Ee3n Ee4n Ee5n", want="legal")
    s.move("Ee5n", want="illegal")  # silver's turn
    s.move("ed7s ed6s Ee5w", want="illegal")  # an unfinished push and a wrong piece
    s.move("ed7s ed6s ed5e", want="legal")
    s.go()
    s.finish("quit")


@case("makemove: a frozen piece, a rabbit backwards and an unfinished push refused")
def _(s):
    opened(s)
    # Gold rabbit d4 frozen by the silver cat d5; gold rabbit a3 alone.
    s.setpos("g", "rrr     " + " " * 8 + " " * 8 + "   c    " + "   R    " + "R       " + " " * 8 + "    E   ")
    s.move("Rd4w", want="illegal")  # frozen
    s.move("Ra3s", want="illegal")  # a rabbit backwards
    s.move("Ee1n Ee2n Ee3n dd5n", want="illegal")  # not next to the cat
    s.move("Ra3n", want="legal")
    s.go()
    s.finish("quit")


@case("makemove: capture tokens optional, where pyrimaa writes them; a push capture")
def _(s):
    opened(s)
    s.setpos_arg(CAPTURE, want="legal")
    s.move("cc4s Ed4w cc3x", want="illegal")  # the token after the wrong step
    s.move("cc4s cc3x Ed4w", want="legal")
    s.setpos_arg(CAPTURE, want="legal")
    s.move("cc4s Ed4w", want="legal")
    s.go()
    s.finish("quit")


@case("makemove: a third repetition refused; another move accepted")
def _(s):
    opened(s)
    s.setpos("g", OPENING_CELLS)  # the opening stands once
    for mv in ("Ee2n", "ed7s", "Ee3s", "ed6n"):  # and twice
        s.move(mv, want="legal")
    for mv in ("Ee2n", "ed7s", "Ee3s"):
        s.move(mv, want="legal")
    s.move("ed6n", want="illegal")  # a third time
    s.move("ed6s", want="legal")
    s.go()
    s.finish("quit")


@case("makemove: the move that wins by goal ends the game; go and makemove refused")
def _(s):
    opened(s)
    s.setpos("g", "    rrrr" + "R       " + " " * 32 + "    E   " + " " * 8)
    s.move("Ra7n", want="legal")
    s.go()
    s.move("re8s", want="illegal")
    s.finish("quit")


@case("go: answers a setup at once for both sides; go ponder in setup does nothing")
def _(s):
    opened(s)
    s.line("newgame", OK)
    s.exchange([Item("go ponder", OK), Item("stop", WARN("stop"))])
    mv = s.go()
    s.move(mv, want="legal")
    mv = s.go()
    s.move(mv, want="legal")
    s.go()
    s.finish("quit")


@case("go: malformed arguments refused; no search started")
def _(s):
    opened(s)
    s.setpos("g", OPENING_CELLS)
    for line in ("go sideways", "go ponder now", "go 5", "go infinite"):
        s.line(line, ERR("go"))
    s.go()
    s.finish("quit")


@case("go: isready while searching, then stop answers with a legal move")
def _(s):
    opened(s)
    s.setpos("g", OPENING_CELLS)
    s.ensure_depth(0)
    s.send("go")
    time.sleep(0.1)
    s.exchange([Item("isready", READY)] * 2)
    s.send("stop")
    got = s.read_until(lambda l: l.startswith("bestmove "), T_SEARCH, "`bestmove` after `stop`")
    s.check_bestmove(got[-1][len("bestmove ") :])
    s.sync()
    s.finish("quit")


@case("go: a second go or go ponder while searching refused; stop answers once")
def _(s):
    opened(s)
    s.setpos("g", OPENING_CELLS)
    s.ensure_depth(0)
    s.send("go")
    time.sleep(0.05)
    s.send("go")
    s.send("go ponder")
    s.send("stop")
    s.send("isready")
    lines = s.collect_ready(1)
    best, logs, _ = partition(lines)
    if len(best) != 1 or len(logs) != 2 or not all("already searching" in l for _, l in logs):
        raise Failure(f"second go: {lines}")
    s.stats.logs_checked += 2
    s.check_bestmove(best[0][1])
    s.finish("quit")


@case("go ponder: makemove ends it silently; stop then has nothing to stop")
def _(s):
    opened(s)
    s.setpos("g", OPENING_CELLS)
    s.move("Ee2n Ee3n Ee4n Ee5n", want="legal")
    s.ensure_depth(0)
    s.send("go ponder")
    time.sleep(0.1)
    s.move("ed7s ed6s ed5s", want="legal")
    s.line("stop", WARN("stop"))
    s.ensure_depth(3)
    s.go()
    s.finish("quit")


@case("go ponder: stop answers with a legal move for the position pondered")
def _(s):
    opened(s)
    s.setpos("g", OPENING_CELLS)
    s.ensure_depth(0)
    s.send("go ponder")
    time.sleep(0.1)
    s.send("stop")
    got = s.read_until(lambda l: l.startswith("bestmove "), T_SEARCH, "`bestmove` after `go ponder`, `stop`")
    s.check_bestmove(got[-1][len("bestmove ") :])
    s.sync()
    s.finish("quit")


@case("go: makemove during the search abandons it with a warning, no bestmove (F1)")
def _(s):
    opened(s)
    s.setpos("g", OPENING_CELLS)
    s.ensure_depth(0)
    s.send("go")
    time.sleep(0.2)
    v = s.model.classify("Ee2n Ee3n")
    s.exchange([Item("makemove Ee2n Ee3n", WARN("makemove", "abandoned", "no bestmove"))])
    s.model.commit(v)
    s.line("stop", WARN("stop"))
    s.move("ed7s", want="legal")
    s.ensure_depth(2)
    s.go()
    s.finish("quit")


@case("go: newgame or setposition during the search abandons it, naming the line (F1)")
def _(s):
    opened(s)
    for line in ("newgame", OPENING):
        s.setpos("g", OPENING_CELLS)
        s.ensure_depth(0)
        s.send("go")
        time.sleep(0.2)
        s.send(line)
        s.send("isready")
        lines = s.collect_ready(1)
        best, logs, _ = partition(lines)
        word = line.split()[0]
        if best or len(logs) != 1 or ABANDONED not in logs[0][1] or word not in logs[0][1]:
            raise Failure(f"`{word}` during a search: {lines}")
        s.stats.logs_checked += 1
        s.line("stop", WARN("stop"))
    s.finish("quit")


@case("stop: with nothing running warns; with arguments refused")
def _(s):
    opened(s)
    s.line("stop", WARN("stop", "no search"))
    s.line("stop now", ERR("stop"))
    s.finish("quit")


@case("control characters: refused, echoed escaped, never raw (F4)")
def _(s):
    opened(s)
    s.setpos("g", OPENING_CELLS)
    for data, expect in CONTROL:
        s.line(data, expect)
    s.move("Ee2n", want="legal")
    s.finish("quit")


@case("long lines: up to 64 KiB read, longer refused; the game kept")
def _(s):
    opened(s)
    s.setpos("g", OPENING_CELLS)
    for data, expect in LONG:
        s.line(data, expect)
    s.move("Ee2n Ee3n", want="legal")
    s.go()
    s.finish("quit")


@case("blank lines ignored; CRLF endings and tabs accepted")
def _(s):
    opened(s)
    for data in BLANK:
        s.line(data, OK)
    s.setpos_arg(OPENING[len("setposition ") :], raw=OPENING + "\r")
    s.move("Ee2n Ee3n", raw="makemove\tEe2n Ee3n\r")
    s.exchange([Item("isready\r", READY), Item(" \t", OK)])
    s.send("go\tponder")  # then ended silently by the opponent's move
    s.move("ed7s", raw="makemove ed7s\r")
    s.go()
    s.finish("quit")


@case("quit: exits 0; quit with arguments is refused and the session goes on")
def _(s):
    opened(s)
    s.line("quit now", ERR("quit"))
    s.finish("quit")


@case("quit during a search exits 0")
def _(s):
    opened(s)
    s.setpos("g", OPENING_CELLS)
    s.ensure_depth(0)
    s.send("go")
    time.sleep(0.2)
    s.finish("quit")


@case("end of input exits 0, also during a ponder")
def _(s):
    opened(s)
    s.setpos("g", OPENING_CELLS)
    s.ensure_depth(0)
    s.send("go ponder")
    time.sleep(0.2)
    s.finish("eof")


@case("unrecognised message: log Error naming it, then exit non-zero")
def _(s):
    opened(s)
    s.finish((b"fly away", "fly"))


@case("unrecognised message with control characters or bad UTF-8: escaped, exit non-zero")
def _(s):
    opened(s)
    s.finish((b"isready\x07\x1b[2J", "isready"))


# ----------------------------------------------------------------- running


def run_one(binary, label, seed, body, scale, out_dir, keep):
    """Runs one session; returns (stats, failure message or None, transcript)."""
    rng = random.Random(seed)
    s = Session(binary, label, rng, scale)
    failure = None
    try:
        body(s)
        s.check_stderr()
    except Failure as f:
        failure = str(f)
    except HarnessError as e:
        failure = f"harness error (a bug in aei_fuzz.py): {e}"
    except Exception:
        failure = "harness error (a bug in aei_fuzz.py):\n" + traceback.format_exc()
    finally:
        if failure:
            try:
                s.check_stderr()
            except Failure as f:
                failure += f"; and {f}"
        s.close()
    path = None
    if failure or keep:
        os.makedirs(out_dir, exist_ok=True)
        safe = re.sub(r"[^A-Za-z0-9_.-]+", "-", label)[:60]
        path = os.path.join(out_dir, f"{safe}.txt")
        header = (
            f"# aei_fuzz transcript: {label}\n# binary: {binary}\n# seed: {seed}\n"
            f"# result: {failure or 'ok'}\n"
            "# lines: seconds since start, `>` sent / `<` received, bytes escaped\n"
        )
        s.write_transcript(path, header)
    return s.stats, failure, path


def replay(binary, path):
    """Sends the `>` lines of a transcript and prints what comes back."""
    sent = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split(" ", 2)
            if line.startswith("#") or len(parts) < 3:
                continue
            t, d, data = line.rstrip("\n").lstrip().split(" ", 2)
            if d == ">":
                sent.append((float(t), unshow(data)))
    proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)

    def pump():
        for raw in iter(proc.stdout.readline, b""):
            print("<", show(raw.rstrip(b"\n")), flush=True)

    threading.Thread(target=pump, daemon=True).start()
    start = time.monotonic()
    for t, data in sent:
        delay = t - (time.monotonic() - start)
        if delay > 0:
            time.sleep(delay)
        print(">", short(data, 200), flush=True)
        if data == b"<end of input>":
            proc.stdin.close()
            break
        try:
            proc.stdin.write(data + b"\n")
            proc.stdin.flush()
        except OSError:
            print("# the engine stopped reading")
            break
    try:
        code = proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        code = "killed after 10 s"
    time.sleep(0.2)
    print(f"# exit status {code}")


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Hostile AEI sessions against an engine, checked against pyrimaa.board."
    )
    ap.add_argument("binary", help="the engine (speaks AEI on stdin/stdout)")
    ap.add_argument("--sessions", type=int, default=20, help="fuzzed sessions (default 20)")
    ap.add_argument("--seed", type=int, default=1, help="session i is seeded SEED+i (default 1)")
    ap.add_argument("--no-cases", action="store_true", help="skip the hand-written cases")
    ap.add_argument("--cases-only", action="store_true", help="only the hand-written cases")
    ap.add_argument("--case", help="only the hand-written cases whose name contains this")
    ap.add_argument("--out", default=os.path.join("target", "tmp", "aei-fuzz"), help="folder for transcripts")
    ap.add_argument("--keep", action="store_true", help="write every session's transcript, not only failures'")
    ap.add_argument("--timeout-scale", type=float, default=1.0, help="multiply every wait (a slow machine)")
    ap.add_argument("--extreme", action="store_true", help="also fuzz extreme search settings (goal_extensions 8)")
    ap.add_argument("--replay", metavar="TRANSCRIPT", help="send a transcript's lines again and print the answers")
    args = ap.parse_args(argv)
    if not os.path.exists(args.binary):
        ap.error(f"no such binary: {args.binary}")
    if args.replay:
        replay(args.binary, args.replay)
        return 0
    if args.extreme:
        global RANGED
        RANGED = tuple(
            (n, good + sum((g for m, g in EXTREME if m == n), ()), bad) for n, good, bad in RANGED
        ) + tuple((n, g, ()) for n, g in EXTREME if n not in {r[0] for r in RANGED})

    start = time.monotonic()
    total = Stats()
    failures = []
    cases_run = 0
    if not args.no_cases:
        for name, body in CASES:
            if args.case and args.case not in name:
                continue
            stats, failure, path = run_one(args.binary, "case " + name, 0, body, args.timeout_scale, args.out, args.keep)
            total.add(stats)
            cases_run += 1
            if failure:
                failures.append((f"case `{name}`", failure, path, None))
                print(f"FAIL case `{name}`: {failure}", flush=True)
    sessions = 0 if args.cases_only else args.sessions
    for i in range(sessions):
        seed = args.seed + i
        stats, failure, path = run_one(
            args.binary, f"session seed {seed}", seed, lambda s: Fuzzer(s, s.rng).run(), args.timeout_scale, args.out, args.keep
        )
        stats.sessions = 1
        total.add(stats)
        if failure:
            failures.append((f"session seed {seed}", failure, path, seed))
            print(f"FAIL session seed {seed}: {failure}", flush=True)
        if (i + 1) % 50 == 0:
            print(f"... {i + 1}/{sessions} sessions, {len(failures)} failures, {time.monotonic() - start:.0f} s", flush=True)

    t = total
    print()
    print(f"aei_fuzz: {args.binary}")
    print(f"hand-written cases: {cases_run} run, {sum(1 for f in failures if f[3] is None)} failed")
    print(f"fuzzed sessions: {sessions} (seeds {args.seed}..{args.seed + sessions - 1})" if sessions else "fuzzed sessions: 0")
    print(f"lines sent: {t.lines}")
    print(f"makemove verdicts checked against pyrimaa: {t.moves_legal + t.moves_refused} ({t.moves_legal} legal accepted, {t.moves_refused} illegal refused)")
    print(f"bestmoves checked against pyrimaa: {t.bestmoves_setup + t.bestmoves_move} ({t.bestmoves_setup} setups, {t.bestmoves_move} moves); `go` in finished games: {t.go_over}")
    print(f"setpositions: {t.setpositions}; setoptions fuzzed: {t.options}; error/warning lines checked: {t.logs_checked}")
    print(f"searches interrupted: {t.searches_interrupted}; ponders: {t.ponders}; timing notes (answered-for searches): {t.timing_notes}")
    print(f"failures: {len(failures)}")
    for what, failure, path, seed in failures:
        print(f"  {what}: {failure}")
        print(f"    transcript: {path}")
        if seed is not None:
            print(f"    reproduce: {sys.executable} {sys.argv[0]} {args.binary} --no-cases --sessions 1 --seed {seed}")
        print(f"    replay: {sys.executable} {sys.argv[0]} {args.binary} --replay {path}")
    print(f"time: {time.monotonic() - start:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

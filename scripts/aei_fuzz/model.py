"""The expected behaviour of an AEI session's game: pyrimaa.board's
position, whose setup or turn it is and the history repetition is judged
against, with its verdict on every `makemove`, `setposition` and
`bestmove`; and random legal setups, turns and positions to play."""

from collections import Counter
import re
import sys

from .common import HarnessError, rust_trim, rust_words

try:
    from pyrimaa.board import BLANK_BOARD, Color, Piece, Position, neighbors_of
except ImportError:
    sys.exit(
        "aei_fuzz needs pyrimaa.board from the PyPI package `aei`: run it "
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

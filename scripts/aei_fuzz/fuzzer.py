"""Random hostile sessions: the lines a fuzzed session is made of (good and
bad options, mutated moves and setups, broken positions, control
characters, long and blank lines, interrupted searches and ponders), drawn
by weight from what the game's phase allows."""

import time

from .common import Failure
from .harness import ABANDONED, ALREADY, ERR, LOG, OK, READY, STOP_IDLE, T_SEARCH, WARN, Item, partition
from .model import (
    TRAPS, Model, Position, cell_square, cells_of, random_position, random_setup,
    random_turn, setposition_verdict, sq_index, sq_name,
)

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


def allow_extreme():
    """`--extreme`: EXTREME's values join the good values fuzzed."""
    global RANGED
    RANGED = tuple(
        (n, good + sum((g for m, g in EXTREME if m == n), ()), bad) for n, good, bad in RANGED
    ) + tuple((n, g, ()) for n, g in EXTREME if n not in {r[0] for r in RANGED})

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
        before = m.copy()
        s.search("go", rng.uniform(0, 0.2))
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
        _, best, logs = s.settle(1 + sum(it.expect.readies for it in items))
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
            _, best, logs = s.settle()
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
            s.search("go", rng.uniform(0, 0.2))
            s.finish("quit" if rng.random() < 0.5 else "eof")
        elif r < 0.5:
            s.finish("quit")
        elif r < 0.7:
            s.finish("eof")
        else:
            s.finish(rng.choice(UNKNOWN_LINES))

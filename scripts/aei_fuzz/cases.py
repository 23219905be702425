"""The hand-written cases: every AEI message with good and bad arguments,
one small session each, in the order they run."""

from . import fuzzer
from .common import Failure
from .fuzzer import BAD_NUMBERS, BLANK, CONTROL, LONG, MALFORMED, TIME_OPTIONS, UNKNOWN_OPTIONS
from .harness import ABANDONED, ERR, OK, READY, WARN, Item
from .model import OPENING, OPENING_CELLS, TRAPS, cell_square

# (name, run): run(session) plays the case.
CASES = []


def case(name, opened=True, at=None, end="quit"):
    """Registers the case `name`, whose body runs in a session opened (the
    handshake, then `depth` 3) unless `opened` is False, set to the cells
    `at` with gold to move when given, and ended after the body by `end`
    (`quit`, `eof` or an unrecognised line: see `Session.finish`)."""

    def deco(body):
        def run(s):
            if opened:
                s.open()
                s.ensure_depth(3)
            if at is not None:
                s.setpos("g", at)
            body(s)
            s.finish(end)

        CASES.append((name, run))
        return body

    return deco


# A position in play: gold can push the silver cat on c4 onto the trap c3
# with its elephant on d4 (`cc4s cc3x Ed4w`), silver's rabbits far away.
CAPTURE = "g [" + "rrr     " + " " * 8 + " " * 8 + " " * 8 + "  cE    " + " " * 8 + "RR      " + "    D   " + "]"


@case("aei: the handshake; protocol-version first, id lines, aeiok; isready", opened=False)
def _(s):
    s.open()
    s.exchange([Item("isready", READY)])


@case("aei: lines before aei are each refused, then the session opens", opened=False)
def _(s):
    s.open(pre=["isready", "newgame", "go", "makemove Ee2n", "setoption name depth value 3"])


@case("aei: a second aei, and aei with arguments, are refused")
def _(s):
    s.line("aei", ERR("aei", "already"))
    s.line("aei 1", ERR("aei"))


@case("isready: several in a row each answered; with arguments refused")
def _(s):
    s.exchange([Item("isready", READY)] * 4)
    s.line("isready now", ERR("isready"))
    s.line("  isready \r", READY)


@case("newgame: accepted mid-game (gold sets up next); with arguments refused")
def _(s):
    s.setpos_arg(OPENING[len("setposition ") :], want="legal")
    s.move("Ee2n Ee3n", want="legal")
    s.line("newgame please", ERR("newgame"))
    s.move("ed7s", want="legal")
    s.line("newgame", OK)
    s.move("ed7s", want="illegal")
    s.go()


@case("setposition: the opening, old side letters w/b, '.' and 'x' for empty", at=OPENING_CELLS)
def _(s):
    s.go()
    s.setpos("b", OPENING_CELLS)
    s.go()
    s.setpos("w", OPENING_CELLS.replace(" ", ".", 16))
    s.move("Ee2n", want="legal")
    s.setpos("g", "".join("x" if c == " " and cell_square(i) in TRAPS else c for i, c in enumerate(OPENING_CELLS)))
    s.go()


@case("setposition: malformed strings refused, the game kept", at=OPENING_CELLS)
def _(s):
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


@case("setposition: more pieces of a kind than a side owns refused", at=OPENING_CELLS)
def _(s):
    s.setpos_arg(f"g [{'r' * 9}{OPENING_CELLS[9:]}]", want="illegal")
    s.setpos_arg(f"g [{OPENING_CELLS[:48]}EE{OPENING_CELLS[50:]}]", want="illegal")
    s.move("Ee2n", want="legal")


@case("setposition: silver to move on an empty board refused (F3)")
def _(s):
    s.setpos_arg(f"s [{' ' * 64}]", want="illegal")
    s.go()  # still gold's setup


@case("setposition: a finished game warns; go and go ponder then name winner and rule")
def _(s):
    s.setpos_arg("s [R       rrrrrrrr" + " " * 40 + "E       ]", want="legal")
    s.go()
    s.line("go ponder", ERR("game is over"))
    s.move("ra7s", want="illegal")
    s.setpos_arg("s [       e" + " " * 40 + "RRRRRRRRE       ]", want="legal")
    s.go()


@case("setposition: gold's pieces only: silver sets up next; go answers a silver setup")
def _(s):
    s.setpos("s", " " * 48 + OPENING_CELLS[48:])
    s.go()
    s.move("ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 ed7 me7 cf7 dg7 hh7", want="legal")
    s.go()


@case("setoption: every standard option with a good value, old names too")
def _(s):
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


@case("setoption: names are matched without case; extra spaces are fine")
def _(s):
    s.line("setoption name TCMOVE value 3", OK)
    s.line("setoption name Depth value 2", OK)
    s.line("setoption   name   tcmove   value   4  ", OK)
    s.setpos("g", OPENING_CELLS)
    s.go()


@case("setoption: unknown options get a warning naming them")
def _(s):
    for name in UNKNOWN_OPTIONS:
        s.line(f"setoption name {name} value 1", WARN(name.split()[0]))
    s.line("setoption name colour", WARN("colour"))


@case("setoption: out-of-range and unreadable values refused, naming the option")
def _(s):
    for name, _, bad in fuzzer.RANGED:
        for v in bad:
            s.line(f"setoption name {name} value {v}", ERR(name))
    for v in BAD_NUMBERS:
        s.line(f"setoption name tcmove value {v}", ERR("tcmove"))
    s.setpos("g", OPENING_CELLS)
    s.go()  # depth still 3


@case("setoption: negative times read as 0 with a warning; negative depth is none")
def _(s):
    s.line("setoption name greserve value -3", WARN("greserve", "negative"))
    s.line("setoption name tcmove value -0.5", WARN("tcmove", "negative"))
    s.line("setoption name depth value -1", OK)
    s.ensure_depth(2)
    s.setpos("g", OPENING_CELLS)
    s.go()


@case("setoption: a missing value and malformed lines refused")
def _(s):
    for name in ("tcmove", "depth", "hash", "rated", "seed"):
        s.line(f"setoption name {name}", ERR(name, "needs a value"))
    for line, expect in MALFORMED[14:]:
        s.line(line, expect)


@case("makemove: full setups for both sides, then moves; go in play")
def _(s):
    s.line("newgame", OK)
    s.move("Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2", want="legal")
    s.move("ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 ed7 me7 cf7 dg7 hh7", want="legal")
    s.move("Ee2n Ee3n Ee4n Md2n", want="legal")
    s.move("ed7s ed6s", want="legal")
    s.go()


@case("makemove: broken setups refused, the setup phase kept")
def _(s):
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


@case("makemove: a handicap setup (a rabbit and a few officers) accepted")
def _(s):
    s.move("Ra1 Ee2 Md2", want="legal")
    s.go()


@case("makemove: illegal moves refused, the game kept, then a legal move accepted", at=OPENING_CELLS)
def _(s):
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


@case("makemove: a frozen piece, a rabbit backwards and an unfinished push refused")
def _(s):
    # Gold rabbit d4 frozen by the silver cat d5; gold rabbit a3 alone.
    s.setpos("g", "rrr     " + " " * 8 + " " * 8 + "   c    " + "   R    " + "R       " + " " * 8 + "    E   ")
    s.move("Rd4w", want="illegal")  # frozen
    s.move("Ra3s", want="illegal")  # a rabbit backwards
    s.move("Ee1n Ee2n Ee3n dd5n", want="illegal")  # not next to the cat
    s.move("Ra3n", want="legal")
    s.go()


@case("makemove: capture tokens optional, where pyrimaa writes them; a push capture")
def _(s):
    s.setpos_arg(CAPTURE, want="legal")
    s.move("cc4s Ed4w cc3x", want="illegal")  # the token after the wrong step
    s.move("cc4s cc3x Ed4w", want="legal")
    s.setpos_arg(CAPTURE, want="legal")
    s.move("cc4s Ed4w", want="legal")
    s.go()


@case("makemove: a third repetition refused; another move accepted")
def _(s):
    s.setpos("g", OPENING_CELLS)  # the opening stands once
    for mv in ("Ee2n", "ed7s", "Ee3s", "ed6n"):  # and twice
        s.move(mv, want="legal")
    for mv in ("Ee2n", "ed7s", "Ee3s"):
        s.move(mv, want="legal")
    s.move("ed6n", want="illegal")  # a third time
    s.move("ed6s", want="legal")
    s.go()


@case("makemove: the move that wins by goal ends the game; go and makemove refused")
def _(s):
    s.setpos("g", "    rrrr" + "R       " + " " * 32 + "    E   " + " " * 8)
    s.move("Ra7n", want="legal")
    s.go()
    s.move("re8s", want="illegal")


@case("go: answers a setup at once for both sides; go ponder in setup does nothing")
def _(s):
    s.line("newgame", OK)
    s.exchange([Item("go ponder", OK), Item("stop", WARN("stop"))])
    mv = s.go()
    s.move(mv, want="legal")
    mv = s.go()
    s.move(mv, want="legal")
    s.go()


@case("go: malformed arguments refused; no search started", at=OPENING_CELLS)
def _(s):
    for line in ("go sideways", "go ponder now", "go 5", "go infinite"):
        s.line(line, ERR("go"))
    s.go()


@case("go: isready while searching, then stop answers with a legal move", at=OPENING_CELLS)
def _(s):
    s.search("go", 0.1)
    s.exchange([Item("isready", READY)] * 2)
    s.send("stop")
    s.answer("`bestmove` after `stop`")


@case("go: a second go or go ponder while searching refused; stop answers once", at=OPENING_CELLS)
def _(s):
    s.search("go", 0.05)
    s.send("go")
    s.send("go ponder")
    s.send("stop")
    lines, best, logs = s.settle()
    if len(best) != 1 or len(logs) != 2 or not all("already searching" in l for _, l in logs):
        raise Failure(f"second go: {lines}")
    s.stats.logs_checked += 2
    s.check_bestmove(best[0][1])


@case("go ponder: makemove ends it silently; stop then has nothing to stop", at=OPENING_CELLS)
def _(s):
    s.move("Ee2n Ee3n Ee4n Ee5n", want="legal")
    s.search("go ponder", 0.1)
    s.move("ed7s ed6s ed5s", want="legal")
    s.line("stop", WARN("stop"))
    s.ensure_depth(3)
    s.go()


@case("go ponder: stop answers with a legal move for the position pondered", at=OPENING_CELLS)
def _(s):
    s.search("go ponder", 0.1)
    s.send("stop")
    s.answer("`bestmove` after `go ponder`, `stop`")


@case("go: makemove during the search abandons it with a warning, no bestmove (F1)", at=OPENING_CELLS)
def _(s):
    s.search("go", 0.2)
    v = s.model.classify("Ee2n Ee3n")
    s.exchange([Item("makemove Ee2n Ee3n", WARN("makemove", "abandoned", "no bestmove"))])
    s.model.commit(v)
    s.line("stop", WARN("stop"))
    s.move("ed7s", want="legal")
    s.ensure_depth(2)
    s.go()


@case("go: newgame or setposition during the search abandons it, naming the line (F1)")
def _(s):
    for line in ("newgame", OPENING):
        s.setpos("g", OPENING_CELLS)
        s.search("go", 0.2)
        s.send(line)
        lines, best, logs = s.settle()
        word = line.split()[0]
        if best or len(logs) != 1 or ABANDONED not in logs[0][1] or word not in logs[0][1]:
            raise Failure(f"`{word}` during a search: {lines}")
        s.stats.logs_checked += 1
        s.line("stop", WARN("stop"))


@case("stop: with nothing running warns; with arguments refused")
def _(s):
    s.line("stop", WARN("stop", "no search"))
    s.line("stop now", ERR("stop"))


@case("control characters: refused, echoed escaped, never raw (F4)", at=OPENING_CELLS)
def _(s):
    for data, expect in CONTROL:
        s.line(data, expect)
    s.move("Ee2n", want="legal")


@case("long lines: up to 64 KiB read, longer refused; the game kept", at=OPENING_CELLS)
def _(s):
    for data, expect in LONG:
        s.line(data, expect)
    s.move("Ee2n Ee3n", want="legal")
    s.go()


@case("blank lines ignored; CRLF endings and tabs accepted")
def _(s):
    for data in BLANK:
        s.line(data, OK)
    s.setpos_arg(OPENING[len("setposition ") :], raw=OPENING + "\r")
    s.move("Ee2n Ee3n", raw="makemove\tEe2n Ee3n\r")
    s.exchange([Item("isready\r", READY), Item(" \t", OK)])
    s.send("go\tponder")  # then ended silently by the opponent's move
    s.move("ed7s", raw="makemove ed7s\r")
    s.go()


@case("quit: exits 0; quit with arguments is refused and the session goes on")
def _(s):
    s.line("quit now", ERR("quit"))


@case("quit during a search exits 0", at=OPENING_CELLS)
def _(s):
    s.search("go", 0.2)


@case("end of input exits 0, also during a ponder", at=OPENING_CELLS, end="eof")
def _(s):
    s.search("go ponder", 0.2)


@case("unrecognised message: log Error naming it, then exit non-zero", end=(b"fly away", "fly"))
def _(s):
    pass


@case("unrecognised message with control characters or bad UTF-8: escaped, exit non-zero", end=(b"isready\x07\x1b[2J", "isready"))
def _(s):
    pass

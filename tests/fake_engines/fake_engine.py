#!/usr/bin/env python3
"""A misbehaving AEI engine for the `aamir match` tests.

It plays random legal moves (with pyrimaa.board from the `aei` package)
and, with --fault, misbehaves on purpose at its --at'th move of every game
(0 = the setup, 1 = its first move after the setups):

  illegal       sends a step from an empty square
  unchanged     sends a step and its reverse (the board does not change)
  badsetup      sends a setup with only 15 pieces (use --at 0)
  repeat        moves its elephant forward and back every turn (fixed
                setup), so one side eventually makes a third repetition
  crash         writes to stderr and exits with status 3
  exitquiet     prints an info line and exits with status 0, no bestmove
  hang          stops answering (sleeps) when asked to move
  slow          sleeps --sleep seconds, then answers
  garbage       prints a line that is not AEI instead of bestmove
  stale         sends its bestmove twice
  hangready     stops answering at the --at'th `isready` after `newgame`
  handshakehang never answers `aei`

--delay S makes it think S seconds before every move (not setups).

Older bots that AEI's roundrobin plays, imitated:

  --handshake noversion  answers `aei` with `id` lines and `aeiok` but no
                         `protocol-version` line (as akimot does)
  --handshake logfirst   prints a `log` line before `protocol-version 1`
                         (as Yeti does)
  --old-clock            a pre-2009 clock: ignores greserve, sreserve and
                         moveused; before every `go` it needs wreserve,
                         breserve (whole seconds) and tcmoveused, checks its
                         own reserve against the one it keeps from its own
                         move times (exit 3 with a `fatal:` line on stderr if
                         either is missing or wrong), and thinks for half of
                         the reserve it was told
  --strict-options       answers an option it does not know with
                         `log Warning` and a `depth` that is not a whole
                         number with `log Error`
"""

import argparse
import random
import sys
import time

from pyrimaa.board import (
    BASIC_SETUP,
    BLANK_BOARD,
    Color,
    Piece,
    Position,
    index_to_alg,
)


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def empty_square(pos):
    empty = pos.bitBoards[Piece.EMPTY]
    for ix in range(64):
        if empty & (1 << ix):
            return index_to_alg(ix)
    return "d4"


def unchanged_move(pos):
    for step, npos in pos.get_steps():
        for back, bpos in npos.get_steps():
            if back == (step[1], step[0]) and bpos.bitBoards == pos.bitBoards:
                return pos.steps_to_str([step, back])
    return None


def random_move(pos):
    steps, _ = pos.get_rnd_step_move()
    if steps is None:
        return ""
    return pos.steps_to_str(steps)


KNOWN_OPTIONS = {
    "tcmove", "tcreserve", "tcpercent", "tcmax", "tctotal", "tcturns",
    "tcturntime", "greserve", "sreserve", "wreserve", "breserve", "moveused",
    "tcmoveused", "opponent", "depth",
}


def fatal(text):
    sys.stderr.write("fatal: " + text + "\n")
    sys.stderr.flush()
    sys.exit(3)


def reserve_after(tc, reserve, used):
    change = tc["tcmove"] - used
    if change > 0:
        change *= tc["tcpercent"] / 100.0
    reserve = max(0.0, reserve + change)
    if tc["tcmax"]:
        reserve = min(reserve, tc["tcmax"])
    return reserve


def check_old_clock(told, me, expected):
    """The thinking time from the pre-2009 clock options, or exit."""
    for name in ("wreserve", "breserve", "tcmoveused"):
        if name not in told:
            fatal(f"no {name} before go (got {sorted(told)})")
        if not told[name].isdigit():
            fatal(f"{name} {told[name]} is not whole seconds")
    mine = int(told["wreserve" if me == Color.GOLD else "breserve"])
    # The controller's clock runs a little longer than this engine's (the
    # pipe), and it sends whole seconds rounded down.
    if not expected - 1.3 <= mine <= expected + 0.3:
        fatal(f"told reserve {mine}, expected about {expected:.3f}")
    return mine / 2.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fault", default="none")
    ap.add_argument("--at", type=int, default=1)
    ap.add_argument("--sleep", type=float, default=0.0)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--delay", type=float, default=0.0)
    ap.add_argument("--handshake", default="standard")
    ap.add_argument("--old-clock", action="store_true")
    ap.add_argument("--strict-options", action="store_true")
    args = ap.parse_args()
    random.seed(args.seed)
    fault = args.fault

    position = Position(Color.GOLD, 4, BLANK_BOARD)
    insetup = True
    moves_made = 0
    games = 0
    tc = {"tcmove": 0.0, "tcreserve": 0.0, "tcpercent": 100.0, "tcmax": 0.0}
    # The old clock: what the controller said since the last `go`, and the
    # reserve this engine expects from its own move times.
    told = {}
    my_reserve = None

    for raw in sys.stdin:
        msg = raw.strip()
        if msg == "aei":
            if fault == "handshakehang":
                time.sleep(3600)
            if args.handshake == "logfirst":
                send("log Fake engine starting up")
            if args.handshake != "noversion":
                send("protocol-version 1")
            send("id name Fake " + fault)
            send("id author aamir tests")
            send("aeiok")
        elif msg == "isready":
            if fault == "hangready" and games >= 1 and games == args.at:
                time.sleep(3600)
            send("readyok")
        elif msg == "newgame":
            position = Position(Color.GOLD, 4, BLANK_BOARD)
            insetup = True
            moves_made = 0
            games += 1
            my_reserve = tc["tcreserve"]
        elif msg.startswith("setoption"):
            words = msg.split()
            name = words[2] if len(words) > 2 else ""
            value = " ".join(words[4:]) if len(words) > 4 else ""
            if name in tc:
                tc[name] = float(value)
            if name in ("wreserve", "breserve", "tcmoveused"):
                told[name] = value
            if args.strict_options:
                if name not in KNOWN_OPTIONS:
                    send("log Warning: unknown option " + name)
                elif name == "depth" and not value.isdigit():
                    send("log Error: depth " + value + " is not a whole number")
        elif msg.startswith("makemove"):
            move = msg.split(None, 1)[1]
            position = position.do_move_str(move)
            if insetup and position.color == Color.GOLD:
                insetup = False
        elif msg == "go":
            started = time.monotonic()
            me = position.color
            think = 0.0
            if args.old_clock:
                think = check_old_clock(told, me, my_reserve)
                told = {}
            n = 0 if insetup else moves_made + 1
            if not insetup:
                moves_made += 1
            hit = n == args.at
            if insetup:
                setup = Position(Color.GOLD, 4, BASIC_SETUP).to_placing_move()[me][2:]
                if hit and fault == "badsetup":
                    setup = " ".join(setup.split()[:-1])
                move = setup
            elif fault == "repeat":
                forward = moves_made % 2 == 1
                if me == Color.GOLD:
                    move = "Ee2n" if forward else "Ee3s"
                else:
                    move = "ed7s" if forward else "ed6n"
            else:
                move = random_move(position)
            if hit:
                if fault == "illegal":
                    letter = "R" if me == Color.GOLD else "r"
                    move = letter + empty_square(position) + "n"
                elif fault == "unchanged":
                    move = unchanged_move(position) or move
                elif fault == "crash":
                    sys.stderr.write(f"fatal: simulated crash at move {n}\n")
                    sys.stderr.flush()
                    sys.exit(3)
                elif fault == "exitquiet":
                    send("info depth 1")
                    sys.exit(0)
                elif fault == "hang":
                    time.sleep(3600)
                elif fault == "slow":
                    time.sleep(args.sleep)
                elif fault == "garbage":
                    send("the quick brown fox jumps over the lazy dog")
                    continue
                elif fault == "stale":
                    send("bestmove " + move)
            if args.delay and not insetup:
                time.sleep(args.delay)
            if not insetup:
                time.sleep(think)
            send("info score 0")
            send("bestmove " + move)
            if not insetup and my_reserve is not None:
                my_reserve = reserve_after(tc, my_reserve, time.monotonic() - started)
        elif msg == "stop":
            pass
        elif msg == "quit":
            return
        elif msg.startswith("go"):
            pass
        else:
            send("log Error: unknown message " + msg)
            return


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Differential fixture for aamir's rules core, made with the AEI reference
board `pyrimaa.board`.

Plays seeded random games from the standard setup and from random (and some
reduced) setups with a few step-choosing policies, samples turn-start
positions, and records for each what pyrimaa says:

- `pyrimaa_turns`: distinct turns (`len(get_moves())`, the unchanged board
  excluded),
- `steps`: the legal single steps at turn start (`get_steps()`: ordinary
  steps and the first steps of pushes), as `Pa2n` tokens, sorted,
- `goal`, `rabbit_loss`, `end_state`: `is_goal()`, `is_rabbit_loss()`,
  `is_end_state()`, as `g` (gold wins), `s` (silver wins) or `-`.

Repetition rows add a history: a start position and the moves played from
it, cycling pieces back and forth so some positions stand twice. pyrimaa has
no repetition rule, so this script computes `turns`: pyrimaa's turns minus
those whose resulting position (board and side to move) already stood twice.
For other rows `turns` equals `pyrimaa_turns` and the history is `-`.

Run with the venv that holds the `aei` package, e.g.

    $VENV/bin/python scripts/make_pyrimaa_fixture.py \
        --out tests/data/pyrimaa-fixture.tsv

Output is deterministic for a given seed and pyrimaa version.
"""

import argparse
import random
import sys
import time

from pyrimaa import board
from pyrimaa.board import BASIC_SETUP, BLANK_BOARD, Color, Piece, Position

PCHARS = Piece.PCHARS
GOLD_PIECES = "EMHHDDCCRRRRRRRR"
TRAP_IXS = (18, 21, 42, 45)


def sq_name(ix):
    return "abcdefgh"[ix % 8] + "12345678"[ix // 8]


def dir_char(frm, to):
    return {8: "n", -8: "s", 1: "e", -1: "w"}[to - frm]


def piece_at(pos, ix):
    return pos.piece_at(1 << ix)


def position_from_pieces(side, placed):
    """placed: dict index -> piece char."""
    bbs = list(BLANK_BOARD)
    for ix, ch in placed.items():
        p = PCHARS.index(ch)
        bbs[p] |= 1 << ix
        bbs[Piece.EMPTY] &= ~(1 << ix)
    return Position(side, 4, bbs)


def random_setup(rng, reduced):
    """A random arrangement of both sides on their home ranks; `reduced`
    leaves out some pieces (never all rabbits) for sparser positions."""
    placed = {}
    for color in (Color.GOLD, Color.SILVER):
        pieces = list(GOLD_PIECES if color == Color.GOLD else GOLD_PIECES.lower())
        if reduced:
            keep_rabbits = rng.randint(1, 8)
            others = [p for p in pieces if p.upper() != "R"]
            rng.shuffle(others)
            others = others[: rng.randint(1, len(others))]
            rabbit = "R" if color == Color.GOLD else "r"
            pieces = others + [rabbit] * keep_rabbits
        squares = list(range(0, 16)) if color == Color.GOLD else list(range(48, 64))
        rng.shuffle(squares)
        for p, sq in zip(pieces, squares):
            placed[sq] = p
    return position_from_pieces(Color.GOLD, placed)


def is_rabbit(piece):
    return piece & Piece.DECOLOR == Piece.GRABBIT


def step_weight(pos, step, policy):
    frm, to = step
    piece = piece_at(pos, frm)
    color = (piece & Piece.COLOR) >> 3
    w = 1.0
    if is_rabbit(piece) and color == pos.color:
        forward = 8 if color == Color.GOLD else -8
        if to - frm == forward:
            w += policy["rabbit"]
    if color != pos.color:
        w += policy["displace"]
    if any(to == t or abs(to - t) in (1, 8) for t in TRAP_IXS):
        w += policy["trap"]
    return w


def random_turn(rng, pos, policy):
    """A random legal turn by weighted random steps; None if the side to move
    has no step. Returns (steps, position after)."""
    start = pos
    for _attempt in range(50):
        cur = start
        taken = []
        while cur.color == start.color:
            options = cur.get_steps()
            if not options:
                break
            can_stop = (not cur.inpush) and cur.bitBoards != start.bitBoards and taken
            if can_stop and rng.random() < policy["stop"]:
                break
            weights = [step_weight(cur, s, policy) for s, _ in options]
            step, nxt = rng.choices(options, weights)[0]
            taken.append(step)
            cur = nxt
        if not taken:
            return None
        if cur.color == start.color:
            if cur.inpush:
                continue
            cur = cur.get_null_move()
        if cur.bitBoards != start.bitBoards:
            return taken, cur
    return None


def status(value):
    if not value:
        return "-"
    return "g" if value > 0 else "s"


def step_tokens(pos):
    toks = set()
    for (frm, to), _ in pos.get_steps():
        toks.add(PCHARS[piece_at(pos, frm)] + sq_name(frm) + dir_char(frm, to))
    return sorted(toks)


def features(pos):
    """Tags saying why a position is interesting, for the quotas."""
    tags = []
    gr = pos.bitBoards[Piece.GRABBIT]
    sr = pos.bitBoards[Piece.SRABBIT]
    # Gold rabbits on ranks 6-8 or silver rabbits on ranks 1-3.
    if gr & 0xFFFFFF0000000000 or sr & 0x0000000000FFFFFF:
        tags.append("near_goal")
    occ = pos.placement[0] | pos.placement[1]
    for t in TRAP_IXS:
        if bin(board.neighbors_of(1 << t) & occ).count("1") >= 3 or occ & (1 << t):
            tags.append("crowded_trap")
            break
    for ix in range(64):
        if occ & (1 << ix) and pos.is_frozen_at(1 << ix):
            tags.append("frozen")
            break
    if bin(occ).count("1") <= 12:
        tags.append("sparse")
    return tags


def row_for(label, pos, turns=None, history="-", counts=None):
    t0 = time.time()
    moves = pos.get_moves()
    elapsed = time.time() - t0
    pyr_turns = len(moves)
    if counts is not None:
        excluded = sum(1 for m in moves if counts.get((m.bitBoards, m.color), 0) >= 2)
        turns = pyr_turns - excluded
    elif turns is None:
        turns = pyr_turns
    fields = [
        label,
        "gs"[pos.color],
        pos.board_to_str("short"),
        str(pyr_turns),
        str(turns),
        " ".join(step_tokens(pos)) or "-",
        status(pos.is_goal()),
        status(pos.is_rabbit_loss()),
        status(pos.is_end_state()),
        history,
    ]
    return "\t".join(fields), elapsed


def make_policy(rng):
    return {
        "rabbit": rng.choice([0.0, 0.0, 1.0, 4.0]),
        "displace": rng.choice([0.0, 1.0, 3.0]),
        "trap": rng.choice([0.0, 0.5, 2.0]),
        "stop": rng.choice([0.0, 0.1, 0.3]),
    }


# Hand-made positions for the rules' corner cases and the places where
# pyrimaa was suspected to differ (side to move, placements).
CRAFTED = [
    ("pull-by-captured-puller", "g", "Hc4 Rh2 rc5 eh8"),
    ("no-push-and-pull-at-once", "g", "Ed4 Rh2 rd5 rc4 eh8"),
    ("elephants-face-to-face", "g", "Ed4 Rh2 ed5 rh7"),
    ("camels-face-to-face", "g", "Md4 Rh2 md5 rh7 ea8"),
    ("push-onto-goal-and-freeze", "g", "Eb2 Rh2 ra2"),
    ("freeze-the-last-piece", "g", "Eb4 Rh2 ra5"),
    ("push-onto-goal-unguarding-last-rabbit", "g", "Eb3 Rc3 rb2 eh8"),
    ("both-last-rabbits-on-traps", "g", "Eh3 Rc3 Dc2 rg3 ea8"),
    ("lose-last-rabbit-and-freeze", "g", "Eb4 Rc3 Dc2 ra5"),
    ("silver-pushes-onto-gold-goal", "s", "Rh7 eg7 rb7"),
    ("frozen-horse", "g", "Hd4 Ra1 ed5 rh7"),
    ("frozen-pusher", "g", "Hd4 Ra1 ed5 rc4 rh7"),
    ("push-onto-trap", "g", "Hb2 Ra1 rb3 eh8 rh7"),
    ("friend-leaves-trap", "g", "Rc3 Dc2 Ra1 eh8 rh7"),
    ("pull-victim-onto-trap", "g", "Ec3 Rc2 rc4 eh8"),
    ("shuttle-gold", "g", "Da7 Dc8 Rc7 Rb6 Eh1 da8 rb7"),
    ("shuttle-silver", "s", "Da7 Dc8 Rc7 Rb6 Eh1 da8 rb7"),
    ("pusher-thawed-by-its-victims-square", "g", "Hd4 Dc4 Ra1 ed5 cc5 rh7"),
    ("crowded-trap-c3", "g", "Cc3 Dc2 Hb3 Md3 rc4 db4 hd4 Ra1 eh8 rh7"),
    ("crowded-trap-f6", "s", "cf6 df7 he6 mg6 Rf5 Ee5 Dg5 rh8 Ra1"),
    ("rabbits-one-step-from-goal", "g", "Ra7 Rh7 ra2 rh2 Eb1 eg8"),
    ("rabbit-blocked-below-goal", "g", "Ra7 ra8 Ed4 eh6"),
    ("only-frozen-rabbits", "s", "ra5 rb6 Ea4 Mb5 Ra1"),
    ("no-rabbits-left", "g", "Ed4 eh6"),
]


def crafted_rows(out, log):
    n = 0
    for name, side, pieces in CRAFTED:
        placed = {board.alg_to_index(t[1:]): t[0] for t in pieces.split()}
        pos = position_from_pieces(Color.GOLD if side == "g" else Color.SILVER, placed)
        line, _ = row_for(f"crafted-{name}", pos)
        out.write(line + "\n")
        n += 1
    log(f"{n} crafted rows")
    return n


def play_games(rng, want, budget, out, log):
    """Random games; samples positions until `want` rows or the time budget."""
    rows = 0
    spent = 0.0
    game_no = 0
    quotas = {"near_goal": 0, "crowded_trap": 0, "frozen": 0, "sparse": 0}
    while rows < want and (budget <= 0 or spent < budget):
        game_no += 1
        kind = rng.choice(["standard", "random", "random", "reduced"])
        if kind == "standard":
            pos = Position(Color.GOLD, 4, BASIC_SETUP)
        else:
            pos = random_setup(rng, kind == "reduced")
        policy = make_policy(rng)
        sample_p = rng.choice([0.1, 0.2, 0.35])
        for ply in range(400):
            tags = features(pos)
            rare = any(quotas[t] < rows // 4 for t in tags)
            if ply == 0 and kind != "standard" or rng.random() < sample_p or rare:
                label = f"g{game_no}-{kind}-p{ply}"
                line, dt = row_for(label, pos)
                out.write(line + "\n")
                rows += 1
                spent += dt
                for t in tags:
                    quotas[t] += 1
                if rows % 100 == 0:
                    log(f"{rows} rows, {spent:.0f}s in get_moves, tags {quotas}")
            if pos.is_goal() or pos.is_rabbit_loss():
                break
            res = random_turn(rng, pos, policy)
            if res is None:
                break
            pos = res[1]
        # Always record how the game ended: goal, elimination and
        # immobilisation positions are rare otherwise.
        if pos.is_end_state():
            line, dt = row_for(f"g{game_no}-{kind}-end", pos)
            out.write(line + "\n")
            rows += 1
            spent += dt
    return rows


def one_step_moves(pos):
    """Single ordinary steps of the side to move that capture nothing."""
    out = []
    for (frm, to), nxt in pos.get_steps():
        piece = piece_at(pos, frm)
        if (piece & Piece.COLOR) >> 3 != pos.color:
            continue
        if bin(nxt.placement[pos.color]).count("1") != bin(pos.placement[pos.color]).count("1"):
            continue
        out.append((frm, to))
    return out


def apply_turn(pos, steps):
    """Plays steps with pyrimaa's strict checks; None if illegal."""
    try:
        return pos.do_move(steps)
    except (board.IllegalMove, ValueError):
        return None


def repetition_rows(rng, want, out, log):
    """Back-and-forth cycles: gold A, silver B, gold A', silver B', twice,
    cut at every ply of the second cycle so that some rows exclude a third
    repetition and some exclude nothing."""
    rows = 0
    attempts = 0
    while rows < want and attempts < want * 200:
        attempts += 1
        kind = rng.choice(["standard", "random"])
        pos = Position(Color.GOLD, 4, BASIC_SETUP) if kind == "standard" else random_setup(rng, False)
        policy = make_policy(rng)
        for _ in range(rng.randint(2, 30)):
            res = random_turn(rng, pos, policy)
            if res is None or res[1].is_goal() or res[1].is_rabbit_loss():
                break
            pos = res[1]
        if pos.is_end_state() or pos.is_goal() or pos.is_rabbit_loss():
            continue
        start = pos
        a_moves = one_step_moves(pos)
        if not a_moves:
            continue
        a = rng.choice(a_moves)
        q = apply_turn(pos, [a])
        b_moves = one_step_moves(q)
        if not b_moves:
            continue
        b = rng.choice(b_moves)
        r = apply_turn(q, [b])
        s = apply_turn(r, [(a[1], a[0])])
        if s is None:
            continue
        p2 = apply_turn(s, [(b[1], b[0])])
        if p2 is None or p2.bitBoards != start.bitBoards:
            continue
        cycle = [[a], [b], [(a[1], a[0])], [(b[1], b[0])]]
        plies = cycle + cycle[:3]
        cut = rng.choice([4, 5, 6, 7, 7, 7])
        history_pos = [start]
        counts = {(start.bitBoards, start.color): 1}
        notation = []
        cur = start
        for steps in plies[:cut]:
            notation.append(cur.steps_to_str(steps))
            cur = apply_turn(cur, steps)
            key = (cur.bitBoards, cur.color)
            counts[key] = counts.get(key, 0) + 1
            history_pos.append(cur)
        history = "|".join(["gs"[start.color] + " " + start.board_to_str("short")] + notation)
        line, _ = row_for(f"rep{rows + 1}-{kind}-cut{cut}", cur, history=history, counts=counts)
        out.write(line + "\n")
        rows += 1
        if rows % 50 == 0:
            log(f"{rows} repetition rows")
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=20260301)
    ap.add_argument("--positions", type=int, default=2400)
    ap.add_argument("--repetitions", type=int, default=200)
    ap.add_argument(
        "--budget",
        type=float,
        default=0.0,
        help="stop sampling games after this many seconds in get_moves (0: no limit; "
        "a limit makes the output depend on the machine's speed)",
    )
    args = ap.parse_args()
    rng = random.Random(args.seed)
    t0 = time.time()

    def log(msg):
        print(f"[{time.time() - t0:7.0f}s] {msg}", file=sys.stderr, flush=True)

    with open(args.out, "w") as out:
        out.write("# Differential fixture from pyrimaa.board (aei package); made by\n")
        out.write(f"# scripts/make_pyrimaa_fixture.py --seed {args.seed} "
                  f"--positions {args.positions} --repetitions {args.repetitions}\n")
        out.write("# Status columns: g = gold wins, s = silver wins, - = no.\n")
        out.write("# turns excludes turns that would be a third repetition of the history\n")
        out.write("# (start position | moves); pyrimaa_turns ignores repetition.\n")
        out.write("label\tside\tboard\tpyrimaa_turns\tturns\tsteps\tgoal\trabbit_loss\tend_state\thistory\n")
        crafted_rows(out, log)
        n = play_games(rng, args.positions, args.budget, out, log)
        m = repetition_rows(rng, args.repetitions, out, log)
    log(f"done: {n} positions, {m} repetition rows")


if __name__ == "__main__":
    main()

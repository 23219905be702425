#!/usr/bin/env python3
"""Every candidate of a gauntlet set beside one base candidate, read from
`aamir match`'s summary.json: each arm's score against the reference and
its paired line against the base (pairs only the arm won, only the base
won, the mean score difference a pair with its 95% interval, the Elo from
the discordant pairs, McNemar's z), all signed arm minus base, so a
positive z says the arm did better. This is how issue 80's switch-off
runs (scripts/switch_off.sh) are read: the base is `whole`, each arm the
design with one part off.

    scripts/arms_table.py SUMMARY [BASE] [--reference NAME]

BASE defaults to the first candidate; with several references the row
over all of them is used unless --reference names one. Prints a Markdown
table.
"""

import argparse
import json
import signal
import sys


def flip(p):
    """The paired row as seen from its second candidate."""
    c = p["counts"]
    low, high = p.get("score_diff_low"), p.get("score_diff_high")
    return {
        "both_won": c["both_won"],
        "arm_only": c["second_only"],
        "base_only": c["first_only"],
        "both_lost": c["both_lost"],
        "pairs": p["pairs"],
        "diff": None if p.get("score_diff") is None else -p["score_diff"],
        "low": None if high is None else -high,
        "high": None if low is None else -low,
        "elo": None if p.get("elo") is None else -p["elo"],
        "z": None if p.get("z") is None else -p["z"],
        "p": p.get("p_value"),
    }


def same(p):
    c = p["counts"]
    return {
        "both_won": c["both_won"],
        "arm_only": c["first_only"],
        "base_only": c["second_only"],
        "both_lost": c["both_lost"],
        "pairs": p["pairs"],
        "diff": p.get("score_diff"),
        "low": p.get("score_diff_low"),
        "high": p.get("score_diff_high"),
        "elo": p.get("elo"),
        "z": p.get("z"),
        "p": p.get("p_value"),
    }


def num(x, fmt):
    # + 0.0 turns a negated zero into zero, so no "-0.00" is printed
    return "-" if x is None else format(x + 0.0, fmt)


def main():
    # Piped into `head`, end quietly instead of a broken-pipe traceback.
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("summary")
    ap.add_argument("base", nargs="?")
    ap.add_argument("--reference")
    a = ap.parse_args()
    try:
        with open(a.summary) as f:
            s = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"arms_table: cannot read {a.summary}: {e}")
    paired = s.get("paired") or []
    if not paired:
        sys.exit(f"arms_table: {a.summary} has no paired comparisons (not a gauntlet with two or more candidates)")
    refs = {p["reference"] for p in paired}
    ref = a.reference or ("all" if "all" in refs else next(iter(refs)))
    if ref not in refs:
        sys.exit(f"arms_table: no reference {ref!r}; the summary has {sorted(refs)}")
    paired = [p for p in paired if p["reference"] == ref]
    cands = []
    for p in paired:
        for n in (p["first"], p["second"]):
            if n not in cands:
                cands.append(n)
    base = a.base or cands[0]
    if base not in cands:
        sys.exit(f"arms_table: no candidate {base!r}; the candidates are {cands}")
    engines = {e["name"]: e for e in s.get("engines", [])}

    def score(n):
        e = engines.get(n, {})
        g = e.get("games", 0)
        return f"{e.get('wins', 0)}/{g}"

    print(f"base `{base}` ({score(base)} against {ref}); every figure is the arm minus the base")
    print()
    print("| arm | score | pairs | both won | only arm | only base | both lost | diff a pair [95%] | Elo | z | p |")
    print("|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|")
    for p in paired:
        if p["first"] == base:
            arm, r = p["second"], flip(p)
        elif p["second"] == base:
            arm, r = p["first"], same(p)
        else:
            continue
        print(
            f"| {arm} | {score(arm)} | {r['pairs']} | {r['both_won']} | {r['arm_only']} | {r['base_only']} "
            f"| {r['both_lost']} | {num(r['diff'], '+.3f')} [{num(r['low'], '+.3f')}, {num(r['high'], '+.3f')}] "
            f"| {num(r['elo'], '+.0f')} | {num(r['z'], '+.2f')} | {num(r['p'], '.3f')} |"
        )


if __name__ == "__main__":
    main()

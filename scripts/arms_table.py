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


def arm_minus_base(p, base_first):
    """The paired row signed arm minus base; the summary signs it first
    candidate minus second, so it is negated when the base came first."""
    c = p["counts"]
    arm, base = ("second_only", "first_only") if base_first else ("first_only", "second_only")
    sign = -1 if base_first else 1
    low, high = p.get("score_diff_low"), p.get("score_diff_high")
    if base_first:
        low, high = high, low

    def signed(x):
        return None if x is None else sign * x

    return {
        "both_won": c["both_won"],
        "arm_only": c[arm],
        "base_only": c[base],
        "both_lost": c["both_lost"],
        "pairs": p["pairs"],
        "diff": signed(p.get("score_diff")),
        "low": signed(low),
        "high": signed(high),
        "elo": signed(p.get("elo")),
        "z": signed(p.get("z")),
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
        if base not in (p["first"], p["second"]):
            continue
        base_first = p["first"] == base
        arm = p["second"] if base_first else p["first"]
        r = arm_minus_base(p, base_first)
        print(
            f"| {arm} | {score(arm)} | {r['pairs']} | {r['both_won']} | {r['arm_only']} | {r['base_only']} "
            f"| {r['both_lost']} | {num(r['diff'], '+.3f')} [{num(r['low'], '+.3f')}, {num(r['high'], '+.3f')}] "
            f"| {num(r['elo'], '+.0f')} | {num(r['z'], '+.2f')} | {num(r['p'], '.3f')} |"
        )


if __name__ == "__main__":
    main()

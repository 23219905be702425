//! `aamir bench`: a fixed set of positions searched to a fixed depth on one
//! thread with a fresh table each, printing speed and, last, a total node
//! count that is the same on every run and machine (the search has no
//! randomness and no time checks at a fixed depth). A change that should not
//! alter the search must keep that number.

use crate::board::notation::parse_side_and_board;
use crate::board::{Game, Position};
use crate::search::{EngineConfig, Limits, Searcher};
use crate::{out, outln};
use anyhow::Result;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The bench positions: the usual opening and positions from real games
/// of the February 2026 archive (game id and move index in the comment).
pub const POSITIONS: &[&str] = &[
    "g [rrrrrrrrdhcemchd                                DHCMECHDRRRRRRRR]",
    // 669182, after the setups
    "g [rrrrrrrrdhcmcehd                                RHDMEDHRRRRCCRRR]",
    // 669261 move 99
    "s [rrrc  rr           ch d  Dr    d m     r    e  E      hR    R   ]",
    // 669155 move 10
    "g [r rr rrrrcrddchh m    eH      E          M HR     RR RR CCRRRDD ]",
    // 669216 move 15
    "s [  rccrr   dhedh          m EH   D M   rDR     H   C  C   RRRRRRR]",
    // 669243 move 62
    "g [ r  rr rr rr  d  hRE      e     R        D D  MR  C  C  RR RR  R]",
    // 669138 move 53
    "s [  rrr  rrcr  rc R  dd h H     H  Em     h De RCR CRDM     R R  R]",
    // 669125 move 94
    "g [       r   HdM c    rhrR r  CDRC D   RR  E      Rre  R   RR     ]",
    // 669242 move 18
    "g [rrrccrrrrdm  d r h E  h      e R         D  C   R HMCDH RRR  RRR]",
    // 669188 move 43
    "s [    rr   cr  r        c    rd  rdr   e M H DE ChrR  mRR CRRRDR R]",
    // 669263 move 56
    "g [  r rrrrrcr drc    h     mH    H    EC     Me  R RR DCh R  R  D ]",
    // 669181 move 19
    "s [rrr rrrr  d     cM r  Hd       C  H  E  CD  eh  R    D   RRRRRRR]",
    // 669171 move 55
    "s [r  r  r  rD rr  r     c  HE  e r      hR   R  R dCR  D  R   R   ]",
];

/// Default bench depth in steps.
pub const DEFAULT_DEPTH: u32 = 8;

/// Runs the bench with `config` (its thread count and depth option are
/// ignored: one thread, `depth`) and returns the total node count.
pub fn run(depth: u32, config: &EngineConfig, verbose: bool) -> Result<u64> {
    let mut config = config.clone();
    config.engine.threads = 1;
    let stop = AtomicBool::new(false);
    let mut total_nodes = 0u64;
    let t0 = Instant::now();
    for (i, text) in POSITIONS.iter().enumerate() {
        let pos = parse_side_and_board(text)?;
        let game = Game::from_position(pos, 1);
        let mut searcher = Searcher::new(&config);
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let t = Instant::now();
        let r = searcher.search(&game, &limits, &stop, &mut |_| {});
        let dt = t.elapsed().as_secs_f64();
        let (nodes, best, score) = match r {
            Some(r) => (r.nodes, r.best.notation(game.position())?, r.score),
            None => (0, "-".to_string(), 0),
        };
        total_nodes += nodes;
        if verbose {
            outln!(
                "{:2} nodes {:>11} time {:>7.3}s nps {:>9.0} score {:>6} best {}",
                i + 1,
                nodes,
                dt,
                nodes as f64 / dt.max(1e-9),
                score,
                best
            )?;
        }
    }
    let secs = t0.elapsed().as_secs_f64();
    outln!(
        "depth {depth}, {} positions, {:.3}s, {:.0} nodes/s",
        POSITIONS.len(),
        secs,
        total_nodes as f64 / secs.max(1e-9)
    )?;
    outln!("nodes {total_nodes}")?;
    Ok(total_nodes)
}

/// `aamir bench --variants`: the same positions searched to depths
/// 1..=max_depth with each textbook variant and with the engine; prints the
/// mean nodes per position per depth and effective branching factors.
/// Minimax, alpha-beta and fail-soft must agree on every value; any
/// disagreement is printed and makes the command fail.
pub fn run_variants(max_depth: u32, positions: usize, node_cap: u64) -> Result<()> {
    use crate::eval::Evaluator;
    use crate::search::tt::TranspositionTable;
    use crate::search::variants::{Variant, VariantSearch};
    let eval = Evaluator::default();
    let positions: Vec<_> = POSITIONS
        .iter()
        .take(positions.clamp(1, POSITIONS.len()))
        .map(|t| parse_side_and_board(t))
        .collect::<Result<_, _>>()?;
    let names: Vec<&str> = Variant::ALL
        .iter()
        .map(|v| v.name())
        .chain(["engine"])
        .collect();
    // nodes[variant][depth-1] summed over positions; None once capped.
    let mut nodes: Vec<Vec<Option<u64>>> = vec![vec![Some(0); max_depth as usize]; names.len()];
    let mut disagreements = 0;
    for pos in &positions {
        for d in 1..=max_depth {
            let di = d as usize - 1;
            let mut values: Vec<(Variant, i32)> = Vec::new();
            for (vi, &v) in Variant::ALL.iter().enumerate() {
                if nodes[vi][di].is_none() || (di > 0 && nodes[vi][di - 1].is_none()) {
                    nodes[vi][di] = None;
                    continue;
                }
                let tt = TranspositionTable::new(64);
                let mut s = VariantSearch::new(v, &eval, Some(&tt), node_cap);
                let value = s.root(pos, d as i32);
                if s.capped {
                    nodes[vi][di] = None;
                    continue;
                }
                nodes[vi][di] = nodes[vi][di].map(|n| n + s.nodes);
                values.push((v, value));
            }
            let exact: Vec<_> = values
                .iter()
                .filter(|(v, _)| *v != Variant::FailSoftTt)
                .collect();
            if exact.windows(2).any(|w| w[0].1 != w[1].1) {
                disagreements += 1;
                outln!(
                    "DISAGREE depth {d} on {}: {exact:?}",
                    crate::board::notation::board_string(pos)
                )?;
            }
            let ei = names.len() - 1;
            if nodes[ei][di].is_some() {
                let game = Game::from_position(pos.clone(), 1);
                let mut searcher = Searcher::new(&EngineConfig::default());
                let stop = AtomicBool::new(false);
                let limits = Limits {
                    depth: Some(d),
                    nodes: Some(node_cap),
                    ..Limits::default()
                };
                let r = searcher.search(&game, &limits, &stop, &mut |_| {});
                match r {
                    Some(r) if r.depth == d => nodes[ei][di] = nodes[ei][di].map(|n| n + r.nodes),
                    _ => nodes[ei][di] = None,
                }
            }
        }
    }
    let np = positions.len() as f64;
    out!("{:<14}", "depth")?;
    for d in 1..=max_depth {
        out!("{d:>12}")?;
    }
    outln!("{:>8}", "EBF")?;
    for (vi, name) in names.iter().enumerate() {
        out!("{name:<14}")?;
        let means: Vec<Option<f64>> = nodes[vi].iter().map(|n| n.map(|n| n as f64 / np)).collect();
        for m in &means {
            match m {
                Some(m) => out!("{m:>12.0}")?,
                None => out!("{:>12}", "-")?,
            }
        }
        // Effective branching factor: geometric mean of the ratio of
        // successive depths over the last three depths that finished (the
        // engine's first four depths all cost one full-turn root).
        let done: Vec<f64> = means.iter().map_while(|m| *m).collect();
        let from = done.len().saturating_sub(3);
        let ebf = if done.len() - from >= 2 {
            (done[done.len() - 1] / done[from]).powf(1.0 / (done.len() - 1 - from) as f64)
        } else {
            f64::NAN
        };
        outln!("{ebf:>8.2}")?;
    }
    outln!(
        "{} positions, node cap {node_cap} per search ('-': over the cap)",
        positions.len()
    )?;
    if disagreements > 0 {
        anyhow::bail!("{disagreements} disagreements between minimax, alpha-beta and fail-soft");
    }
    outln!("minimax, alpha-beta and fail-soft agree at every depth shown")?;
    Ok(())
}

/// Positions for `bench --eval`: from each bench position, seeded random
/// walks of one to eight legal actions (turns end when their steps run
/// out), so that mid-turn positions and both sides to move are covered as
/// in a search.
fn eval_positions(per_start: usize) -> Result<Vec<crate::board::Position>> {
    use crate::board::stepgen::{ActionList, generate_actions};
    use crate::rng::SplitMix;
    let mut out = Vec::new();
    for (i, text) in POSITIONS.iter().enumerate() {
        let start = parse_side_and_board(text)?;
        let mut rng = SplitMix::new(1, i as u64);
        for _ in 0..per_start {
            let mut pos = start.clone();
            let mut list = ActionList::new();
            for _ in 0..1 + rng.below(8) {
                if pos.steps_left() == 0 {
                    pos.pass_turn();
                }
                list.clear();
                generate_actions(&pos, &mut list);
                if list.is_empty() {
                    break;
                }
                pos.apply_action(list.as_slice()[rng.below(list.len())]);
            }
            out.push(pos);
        }
    }
    Ok(out)
}

/// Nanoseconds per static evaluation of `positions` with each of
/// `evals`: the best of `rounds` timed passes each, the evaluators taking
/// turns within every round, so that a slow spell of a shared machine
/// does not fall on one of them alone.
fn eval_ns(
    evals: &[crate::eval::Evaluator],
    positions: &[crate::board::Position],
    rounds: usize,
) -> Vec<f64> {
    let mut best = vec![f64::INFINITY; evals.len()];
    for _ in 0..rounds {
        for (e, b) in evals.iter().zip(best.iter_mut()) {
            let t = Instant::now();
            let mut sum = 0i64;
            for p in positions {
                sum += i64::from(e.evaluate(std::hint::black_box(p)));
            }
            std::hint::black_box(sum);
            *b = b.min(t.elapsed().as_nanos() as f64 / positions.len() as f64);
        }
    }
    best
}

/// `aamir bench --eval`: the cost of the static evaluation with `config`'s
/// weights, of material alone (every term's weights at 0), and of each
/// term of [`crate::eval::TERMS`] that has weights and is on (the time it
/// adds over the same evaluation without it), in nanoseconds per
/// evaluation on seeded random positions around the bench positions.
pub fn run_eval(config: &EngineConfig) -> Result<()> {
    use crate::eval::{Evaluator, TERMS};
    let positions = eval_positions(400)?;
    let rounds = 40;
    let full = Evaluator {
        w: config.eval.clone(),
        net: None,
    };
    let mut bare = full.clone();
    // The terms that are on, each with the evaluation that lacks it.
    let mut terms = Vec::new();
    for t in TERMS.iter().filter(|t| !t.weights.is_empty()) {
        let without = without_term(&full, t.weights)?;
        bare = without_term(&bare, t.weights)?;
        let on = without.w != full.w;
        terms.push((t.name, on.then_some(without)));
    }
    let mut evals = vec![full, bare];
    evals.extend(terms.iter().filter_map(|(_, e)| e.clone()));
    // Warm the material table and caches before timing anything.
    eval_ns(&evals, &positions, 1);
    let t = eval_ns(&evals, &positions, rounds);
    outln!(
        "{} positions, best of {rounds} interleaved passes",
        positions.len()
    )?;
    outln!("{:<32} {:>9.1} ns", "evaluation", t[0])?;
    outln!("{:<32} {:>9.1} ns", "  material alone", t[1])?;
    let mut i = 2;
    for (name, without) in &terms {
        if without.is_none() {
            outln!("{:<32} {:>9}", format!("  {name}"), "off")?;
            continue;
        }
        outln!("{:<32} {:>+9.1} ns", format!("  {name}"), t[0] - t[i])?;
        i += 1;
    }
    net_ns(config, &positions, rounds)
}

/// The learned evaluation's costs: a refresh of the accumulators, the
/// layers above them, and one action made and unmade with them kept.
fn net_ns(config: &EngineConfig, positions: &[Position], rounds: usize) -> Result<()> {
    use crate::board::ActionList;
    use crate::board::stepgen::generate_actions;
    use crate::eval::nnue::{Accumulators, Network};
    use std::hint::black_box;
    let net = config
        .net_file
        .as_ref()
        .map_or_else(Network::embedded, |f| f.net.clone());
    // The first legal action of each position, for the update's cost.
    let actions: Vec<_> = positions
        .iter()
        .map(|p| {
            let mut l = ActionList::new();
            generate_actions(p, &mut l);
            l.as_slice().first().copied()
        })
        .collect();
    let accs: Vec<_> = positions.iter().map(|p| net.refresh(p)).collect();
    let mut best = [f64::INFINITY; 3];
    for _ in 0..rounds {
        let t = Instant::now();
        for p in positions {
            black_box(net.refresh(black_box(p)));
        }
        best[0] = best[0].min(t.elapsed().as_nanos() as f64 / positions.len() as f64);
        let t = Instant::now();
        for (p, a) in positions.iter().zip(&accs) {
            black_box(net.output(black_box(a), p.side()));
        }
        best[1] = best[1].min(t.elapsed().as_nanos() as f64 / positions.len() as f64);
        let (mut total, mut count) = (0u128, 0u32);
        for (p, a) in positions.iter().zip(&actions) {
            let Some(a) = a else { continue };
            let mut pos = p.clone();
            let mut acc = Accumulators::new(net.clone(), &pos);
            let t = Instant::now();
            for _ in 0..16 {
                let u = acc.make(&mut pos, *a);
                acc.unmake(&mut pos, u);
            }
            total += t.elapsed().as_nanos();
            count += 16;
        }
        best[2] = best[2].min(total as f64 / f64::from(count.max(1)));
    }
    outln!(
        "{:<32} {:>9.1} ns",
        "net: accumulators from scratch",
        best[0]
    )?;
    outln!("{:<32} {:>9.1} ns", "net: layers above them", best[1])?;
    outln!("{:<32} {:>9.1} ns", "net: action made and unmade", best[2])?;
    Ok(())
}

/// `eval` with every weight named in `weights` at 0 (an array's name
/// stands for all its elements).
fn without_term(eval: &crate::eval::Evaluator, weights: &[&str]) -> Result<crate::eval::Evaluator> {
    use crate::eval::Weights;
    use crate::settings::Table;
    let mut out = eval.clone();
    for i in 0..Weights::len() {
        if weights.contains(&line_of(i)) {
            out.w.set(i, 0)?;
        }
    }
    Ok(out)
}

/// The name of the table line (`rabbit_rank`, or a scalar's own name)
/// that flat weight `i` belongs to.
fn line_of(i: usize) -> &'static str {
    use crate::eval::Weights;
    use crate::settings::Table;
    Weights::spec(i).expect("index in range").name
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Table;

    #[test]
    fn every_term_names_real_weights_that_switch_it_off() {
        use crate::eval::{Evaluator, TERMS, Weights};
        let pos = parse_side_and_board(POSITIONS[6]).unwrap();
        let full = Evaluator::default();
        let material = {
            let mut e = full.clone();
            for t in TERMS {
                e = without_term(&e, t.weights).unwrap();
            }
            e
        };
        // Every weight belongs to exactly one term.
        for i in 0..Weights::len() {
            let owners = TERMS
                .iter()
                .filter(|t| t.weights.contains(&line_of(i)))
                .count();
            assert_eq!(owners, 1, "{}", Weights::name(i).unwrap());
        }
        for t in TERMS.iter().filter(|t| !t.weights.is_empty()) {
            // On by default, and off with its weights at 0: its line of
            // `explain` reads 0 then, and the other lines do not change
            // (the odds read the runners and the sum above them, so they
            // move when another term does, and are left out here).
            let off = without_term(&full, t.weights).unwrap();
            assert_ne!(off.w, full.w, "{}", t.name);
            let (a, b) = (full.explain(&pos), off.explain(&pos));
            let line =
                |ls: &[crate::eval::TermLine]| ls.iter().find(|l| l.name == t.name).unwrap().net;
            assert_eq!(line(&b), 0, "{}", t.name);
            for (x, y) in a.iter().zip(&b) {
                if x.name != t.name && !x.name.starts_with("runners as odds") {
                    assert_eq!(x, y, "{} off changed {}", t.name, x.name);
                }
            }
        }
        // Material alone is what the material term says.
        assert_eq!(
            material.evaluate(&pos),
            crate::eval::material::material(&pos, pos.side())
        );
        assert_ne!(full.evaluate(&pos), material.evaluate(&pos));
    }

    #[test]
    fn the_timed_positions_are_seeded_and_varied() {
        let a = eval_positions(20).unwrap();
        let b = eval_positions(20).unwrap();
        assert_eq!(a.len(), 20 * POSITIONS.len());
        assert!(a.iter().zip(&b).all(|(x, y)| x.hash() == y.hash()));
        let sides: std::collections::HashSet<_> = a.iter().map(|p| p.side()).collect();
        assert_eq!(sides.len(), 2);
        let distinct: std::collections::HashSet<_> = a.iter().map(|p| p.hash()).collect();
        assert!(distinct.len() > a.len() / 2, "{}", distinct.len());
    }
}

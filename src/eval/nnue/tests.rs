//! The network's invariants: incremental updates equal a refresh, the
//! SIMD loops equal the portable ones, integers follow the floats, a
//! position and its colour-mirrored twin score the same, and bad files
//! are refused by name.

use super::float::FloatNet;
use super::*;
use crate::board::stepgen::generate_actions;
use crate::board::{ActionList, Position};
use crate::rng::SplitMix;

fn random_net(seed: u64) -> Network {
    let mut r = SplitMix::new(seed, 0);
    let mut f = FloatNet::random(300.0, || r.unit() as f32);
    // Biases too, so that clipping matters on both sides.
    let mut r2 = SplitMix::new(seed ^ 7, 0);
    for b in
        f.b1.iter_mut()
            .chain(f.b2.iter_mut())
            .chain(f.b3.iter_mut())
    {
        *b = (r2.unit() as f32 - 0.3) * 0.8;
    }
    f.quantize("test")
}

fn opening() -> Position {
    Position::standard_opening()
}

/// Random legal actions from the opening, passing the turn when the steps
/// run out, undoing some of them on the way.
#[test]
fn incremental_equals_refresh_along_random_paths() {
    let net = Arc::new(random_net(1));
    let mut rng = SplitMix::new(42, 0);
    let mut captures = 0;
    let mut multi = 0;
    for game in 0..40 {
        let mut pos = opening();
        let mut acc = Accumulators::new(net.clone(), &pos);
        let mut undos = Vec::new();
        for _ in 0..300 {
            if pos.steps_left() == 0 || (pos.steps_left() < 4 && rng.below(4) == 0) {
                pos.pass_turn();
                acc.push_same();
                assert_eq!(acc.top(), &net.refresh(&pos));
                if pos.outcome().is_some() {
                    break;
                }
                undos.clear();
                acc.reset(&pos);
                continue;
            }
            let mut list = ActionList::new();
            generate_actions(&pos, &mut list);
            if list.is_empty() {
                break;
            }
            if !undos.is_empty() && rng.below(5) == 0 {
                let u = undos.pop().unwrap();
                acc.unmake(&mut pos, u);
            } else {
                let a = list.as_slice()[rng.below(list.len())];
                multi += usize::from(a.second().is_some());
                let u = acc.make(&mut pos, a);
                captures += u.captures().iter().flatten().count();
                undos.push(u);
            }
            assert_eq!(acc.top(), &net.refresh(&pos), "game {game}");
            assert_eq!(
                acc.evaluate(pos.side(), pos.steps_left()),
                net.evaluate(&pos)
            );
        }
    }
    eprintln!("captures {captures} multi {multi}");
    assert!(captures > 20, "the paths took {captures} pieces");
    assert!(multi > 100, "the paths made {multi} pushes and pulls");
}

#[test]
fn simd_loops_equal_portable_ones() {
    let mut r = SplitMix::new(3, 0);
    let mut v = || (r.below(4000) as i32 - 2000) as i16;
    for _ in 0..50 {
        let mut acc = [0i16; L1];
        acc.iter_mut().for_each(|x| *x = v());
        let row: [i16; L1] = std::array::from_fn(|_| v());
        let row2: [i16; L1] = std::array::from_fn(|_| v());
        let (mut a, mut b) = (acc, acc);
        simd::add_row(&mut a, &row);
        simd::portable::add_row(&mut b, &row);
        assert_eq!(a, b);
        simd::sub_add_row(&mut a, &row, &row2);
        simd::portable::sub_add_row(&mut b, &row, &row2);
        assert_eq!(a, b);
        let (mut c, mut d) = ([0i16; L1], [0i16; L1]);
        simd::clip_into(&mut c, &a);
        simd::portable::clip_into(&mut d, &a);
        assert_eq!(c, d);
        assert!(c.iter().all(|&x| (0..=QA as i16).contains(&x)));
        let w: Vec<i16> = (0..L1).map(|_| v()).collect();
        assert_eq!(simd::dot(&c, &w), simd::portable::dot(&d, &w));
    }
}

#[test]
fn integer_scores_follow_the_float_network() {
    let mut r = SplitMix::new(9, 0);
    let mut f = FloatNet::random(300.0, || r.unit() as f32);
    let mut r2 = SplitMix::new(10, 0);
    for b in f.b1.iter_mut() {
        *b = (r2.unit() as f32 - 0.3) * 0.8;
    }
    let net = f.quantize("test");
    let mut pos = opening();
    let mut rng = SplitMix::new(5, 0);
    let mut worst = 0f32;
    for _ in 0..400 {
        let mut list = ActionList::new();
        generate_actions(&pos, &mut list);
        if list.is_empty() {
            pos = opening();
            continue;
        }
        let a = list.as_slice()[rng.below(list.len())];
        pos.make_action(a);
        if pos.steps_left() == 0 {
            pos.pass_turn();
            if pos.outcome().is_some() {
                pos = opening();
            }
        }
        let int = net.output(&net.refresh(&pos), pos.side());
        let diff = (int as f32 - f.evaluate(&pos)).abs();
        worst = worst.max(diff);
    }
    // The rounding of 768x256 + 512x16 + 16x32 + 32 weights at the scales
    // of the module doc: a few centi-rabbits at a scale of 300 per logit.
    assert!(
        worst <= 6.0,
        "integer and float differ by {worst} centi-rabbits"
    );
}

/// The board turned upside down with the colours swapped, the other side
/// to move: the same position for the other player.
fn colour_mirror(pos: &Position) -> Position {
    let mut m = Position::empty(pos.side().opp());
    for sq in crate::board::Square::all() {
        if let Some(p) = pos.piece_at(sq) {
            let flipped = Piece::new(p.color().opp(), p.kind());
            m.put(flipped, crate::board::Square::new(sq.raw() ^ 56));
        }
    }
    m.set_steps_left(pos.steps_left());
    m
}

#[test]
fn a_position_and_its_colour_mirror_score_the_same() {
    let net = random_net(4);
    let mut pos = opening();
    let mut rng = SplitMix::new(6, 0);
    for _ in 0..300 {
        let mut list = ActionList::new();
        generate_actions(&pos, &mut list);
        if list.is_empty() {
            pos = opening();
            continue;
        }
        pos.make_action(list.as_slice()[rng.below(list.len())]);
        if pos.steps_left() == 0 {
            pos.pass_turn();
            if pos.outcome().is_some() {
                pos = opening();
            }
        }
        let m = colour_mirror(&pos);
        assert_eq!(net.evaluate(&pos), net.evaluate(&m), "{pos:?}");
    }
}

#[test]
fn a_net_file_round_trips_and_bad_files_are_refused_by_name() {
    let net = random_net(2);
    let bytes = file::to_bytes(&net);
    assert_eq!(file::from_bytes(&bytes).unwrap(), net);
    let err = |b: &[u8]| format!("{:#}", file::from_bytes(b).unwrap_err());
    assert!(err(&bytes[..bytes.len() - 100]).contains("truncated"));
    assert!(err(&bytes[..5]).contains("truncated"));
    assert!(err(b"NOTANETFILE.....").contains("not an aamir net file"));
    let mut damaged = bytes.clone();
    damaged[1000] ^= 1;
    assert!(err(&damaged).contains("checksum"));
    let mut version = bytes.clone();
    version[8] = 9;
    assert!(err(&version).contains("version 9"));
    let mut shape = bytes.clone();
    shape[16] = 1;
    assert!(err(&shape).contains("shape"));
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(err(&longer).contains("after the checksum"));
    let dir = std::env::temp_dir().join(format!("aamir-nnue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let missing = dir.join("missing.nnue");
    let e = format!("{:#}", file::load(missing.to_str().unwrap()).unwrap_err());
    assert!(e.contains("missing.nnue"), "{e}");
    let path = dir.join("net.nnue");
    file::save(&net, path.to_str().unwrap()).unwrap();
    assert_eq!(file::load(path.to_str().unwrap()).unwrap(), net);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_embedded_net_loads() {
    let net = Network::embedded();
    assert!(net.scale > 0);
    let pos = opening();
    // Gold and silver set up alike here: the colour mirror is the same
    // position with the other side to move.
    let _ = net.evaluate(&pos);
}

#[test]
fn classes_follow_the_stronger_enemies() {
    assert_eq!(class(Kind::Elephant, 0), 5);
    assert_eq!(class(Kind::Camel, 1), 4);
    assert_eq!(
        class(Kind::Horse, 1),
        4,
        "a horse with only the elephant above"
    );
    assert_eq!(class(Kind::Horse, 2), 3);
    assert_eq!(class(Kind::Cat, 6), 1);
    assert_eq!(class(Kind::Rabbit, 0), 0);
}

#[test]
fn mid_turn_scores_lean_toward_the_passed_turn() {
    let net = random_net(8);
    let mut pos = opening();
    let mut rng = SplitMix::new(11, 0);
    let mut seen = 0;
    for _ in 0..200 {
        let mut list = ActionList::new();
        generate_actions(&pos, &mut list);
        if list.is_empty() {
            pos = opening();
            continue;
        }
        pos.make_action(list.as_slice()[rng.below(list.len())]);
        if pos.steps_left() == 0 {
            pos.pass_turn();
            if pos.outcome().is_some() {
                pos = opening();
            }
            continue;
        }
        let acc = net.refresh(&pos);
        let (me, steps) = (pos.side(), pos.steps_left());
        let full = net.output(&acc, me);
        let passed = -net.output(&acc, me.opp());
        assert_eq!(net.score(&acc, me, 4), full);
        assert_eq!(net.score(&acc, me, 0), passed);
        let s = net.evaluate(&pos);
        assert!(s >= full.min(passed) && s <= full.max(passed));
        seen += usize::from(full != passed && steps < 4);
    }
    assert!(seen > 20);
}
#[test]
fn accumulators_from_a_nearby_position_equal_a_refresh() {
    // Whole random turns from one root, captures (and the classes they
    // change) included: each child's sums from the root's equal its own.
    let net = random_net(16);
    let ev = crate::eval::Evaluator {
        w: Default::default(),
        net: Some(Arc::new(net.clone())),
    };
    let mut rng = SplitMix::new(17, 0);
    let mut captured = 0;
    for _ in 0..30 {
        let mut root = opening();
        // Some turns in, so that pieces are loose enough to be taken.
        for _ in 0..rng.below(40) * 4 {
            let mut list = ActionList::new();
            generate_actions(&root, &mut list);
            if list.is_empty() {
                break;
            }
            root.make_action(list.as_slice()[rng.below(list.len())]);
            if root.steps_left() == 0 {
                root.pass_turn();
            }
        }
        root.set_steps_left(STEPS_PER_TURN);
        let root_acc = net.refresh(&root);
        for _ in 0..20 {
            let mut child = root.clone();
            while child.steps_left() > 0 {
                let mut list = ActionList::new();
                generate_actions(&child, &mut list);
                if list.is_empty() {
                    break;
                }
                let u = child.make_action(list.as_slice()[rng.below(list.len())]);
                captured += u.captures().iter().flatten().count();
            }
            let acc = net.update_from(&root, &root_acc, &child);
            assert_eq!(acc, net.refresh(&child));
            assert_eq!(ev.evaluate_with(Some(&acc), &child), ev.evaluate(&child));
        }
    }
    assert!(captured > 20, "the turns took {captured} pieces");
}

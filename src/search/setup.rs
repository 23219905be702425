//! Setups: the engine's answer to `go` in the setup phase, chosen without
//! searching.
//!
//! Every setup comes from one family of sound layouts. On the front rank
//! (rank 2 for gold, 7 for silver): the elephant on a central file (d or e);
//! the camel and the two horses on the other central square and the b and g
//! squares; a cat or a dog on each trap-guarding square (c and f). The other
//! cat and dog stand behind the elephant or on the outer front squares, and
//! the eight rabbits fill the rest: the back rank and, at most, the a and h
//! front squares.
//!
//! Gold picks any layout with the camel beside its elephant. Silver has seen
//! gold's setup and scores each layout against it:
//! - its elephant off gold's elephant's file (no head-on standoff that
//!   lets gold choose the side of the fight), and preferably facing gold's
//!   camel, which it can then harass;
//! - its camel as far from gold's elephant as the layout allows (a camel
//!   near the enemy elephant is the classic hostage target);
//! - no horse facing gold's camel (within a file of it) unless it stands
//!   beside its own elephant, which defends it.
//!
//! Among the best-scoring layouts the choice is random, so setups vary
//! between games unless the session's `seed` option fixes the generator.
//!
//! With the learned evaluation on (`evalnet=1`) the net chooses among the
//! same sound layouts instead ([`choose_setup`]): silver takes the
//! layouts whose whole board the net likes best for silver, gold those
//! whose worst silver answer leaves gold best off, each at random among
//! those within [`NET_MARGIN`] of the best.

use crate::board::notation::format_setup;
use crate::board::{Bitboard, Color, Kind, Piece, Position, Square};
use crate::eval::Evaluator;
use rand::Rng;
use rand::seq::IndexedRandom;

/// Where the camel stands in a layout.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CamelSlot {
    /// The central square beside the elephant.
    Center,
    /// The b-file square.
    West,
    /// The g-file square.
    East,
}

/// Where the cat and dog that do not guard traps stand.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Reserves {
    /// On the back rank behind the elephant and camel (d and e); two
    /// rabbits take the a and h front squares.
    Back,
    /// On the a and h front squares; all rabbits on the back rank.
    Flanks,
}

/// One sound layout, for either colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// 3 (d) or 4 (e).
    pub elephant_file: u8,
    pub camel: CamelSlot,
    /// The pieces on the c and f trap-guarding squares (cats or dogs).
    pub guards: [Kind; 2],
    pub reserves: Reserves,
    /// Swaps the two reserve pieces' squares.
    pub swap_reserves: bool,
}

impl Layout {
    /// Every layout of the family.
    pub fn all() -> Vec<Layout> {
        let mut v = Vec::new();
        for elephant_file in [3, 4] {
            for camel in [CamelSlot::Center, CamelSlot::West, CamelSlot::East] {
                for guards in [
                    [Kind::Cat, Kind::Dog],
                    [Kind::Dog, Kind::Cat],
                    [Kind::Dog, Kind::Dog],
                    [Kind::Cat, Kind::Cat],
                ] {
                    for reserves in [Reserves::Back, Reserves::Flanks] {
                        for swap_reserves in [false, true] {
                            v.push(Layout {
                                elephant_file,
                                camel,
                                guards,
                                reserves,
                                swap_reserves,
                            });
                        }
                    }
                }
            }
        }
        v
    }

    /// File of the camel and of the two horses.
    fn strong_files(&self) -> (u8, [u8; 2]) {
        let other = 7 - self.elephant_file;
        match self.camel {
            CamelSlot::Center => (other, [1, 6]),
            CamelSlot::West => (1, [other, 6]),
            CamelSlot::East => (6, [1, other]),
        }
    }

    /// The 16 placements for `color`.
    pub fn placements(&self, color: Color) -> Vec<(Piece, Square)> {
        let (front, back) = match color {
            Color::Gold => (1, 0),
            Color::Silver => (6, 7),
        };
        let mut kinds: [[Option<Kind>; 8]; 2] = [[None; 8]; 2];
        let (camel, horses) = self.strong_files();
        kinds[0][self.elephant_file as usize] = Some(Kind::Elephant);
        kinds[0][camel as usize] = Some(Kind::Camel);
        for h in horses {
            kinds[0][h as usize] = Some(Kind::Horse);
        }
        kinds[0][2] = Some(self.guards[0]);
        kinds[0][5] = Some(self.guards[1]);
        // The cat and dog left after the guards: two of each in all.
        let mut left: Vec<Kind> = [Kind::Cat, Kind::Cat, Kind::Dog, Kind::Dog].to_vec();
        for g in self.guards {
            if let Some(i) = left.iter().position(|&k| k == g) {
                left.remove(i);
            }
        }
        if self.swap_reserves {
            left.reverse();
        }
        let (row, files) = match self.reserves {
            Reserves::Back => (1, [3, 4]),
            Reserves::Flanks => (0, [0, 7]),
        };
        for (k, f) in left.into_iter().zip(files) {
            kinds[row][f] = Some(k);
        }
        let mut out = Vec::with_capacity(16);
        for (row, rank) in [(0, front), (1, back)] {
            for file in 0..8u8 {
                let kind = kinds[row][file as usize].unwrap_or(Kind::Rabbit);
                out.push((Piece::new(color, kind), Square::from_coords(file, rank)));
            }
        }
        out
    }

    /// How well a silver layout answers gold's pieces on `pos`.
    pub fn silver_score(&self, pos: &Position) -> i32 {
        let file_of = |kind: Kind| {
            pos.kind_bb(Color::Gold, kind)
                .into_iter()
                .next()
                .map(|sq: Square| sq.file() as i32)
        };
        let gold_elephant = file_of(Kind::Elephant);
        let gold_camel = file_of(Kind::Camel);
        let e = self.elephant_file as i32;
        let (camel, horses) = self.strong_files();
        let mut score = 0;
        if let Some(ge) = gold_elephant {
            if e == ge {
                score -= 4;
            }
            score += (camel as i32 - ge).abs();
        }
        if let Some(gm) = gold_camel {
            if (e - gm).abs() <= 1 {
                score += 1;
            }
            for h in horses {
                let h = h as i32;
                if (h - gm).abs() <= 1 && (h - e).abs() != 1 {
                    score -= 1;
                }
            }
        }
        score
    }
}

/// Centi-rabbits within which the net's choices count as equally good.
pub const NET_MARGIN: i32 = 10;

/// Gold's score of the board `pos` holds plus both layouts, gold to move.
fn net_score(net: &Evaluator, pos: &Position, gold: Option<&Layout>, silver: &Layout) -> i32 {
    let mut board = Position::empty(Color::Gold);
    for sq in pos.occupied() {
        if let Some(p) = pos.piece_at(sq) {
            board.put(p, sq);
        }
    }
    let gold = gold.map(|l| l.placements(Color::Gold)).unwrap_or_default();
    for (p, sq) in gold.into_iter().chain(silver.placements(Color::Silver)) {
        if board.piece_at(sq).is_none() {
            board.put(p, sq);
        }
    }
    net.evaluate(&board)
}

/// The net's choice among `candidates` for `color` (see the module doc).
fn net_choice(net: &Evaluator, pos: &Position, color: Color, candidates: &[Layout]) -> Vec<Layout> {
    let scores: Vec<i32> = match color {
        Color::Silver => candidates
            .iter()
            .map(|l| -net_score(net, pos, None, l))
            .collect(),
        Color::Gold => {
            let replies = Layout::all();
            candidates
                .iter()
                .map(|g| {
                    replies
                        .iter()
                        .map(|s| net_score(net, pos, Some(g), s))
                        .min()
                        .unwrap_or(0)
                })
                .collect()
        }
    };
    let Some(&top) = scores.iter().max() else {
        return Vec::new();
    };
    candidates
        .iter()
        .zip(&scores)
        .filter(|&(_, &s)| s >= top - NET_MARGIN)
        .map(|(l, _)| *l)
        .collect()
}

/// A full, legal setup for `color` on `pos` (whose setup area must be
/// empty), in notation. Without an evaluator, gold's choice is any
/// camel-beside-elephant layout and silver's the best answer to gold's
/// pieces on `pos` by the rules of the module doc; with one (the learned
/// evaluation's), its choice among the same layouts.
pub fn choose_setup<R: Rng + ?Sized>(
    pos: &Position,
    color: Color,
    rng: &mut R,
    net: Option<&Evaluator>,
) -> String {
    let free = |l: &Layout| {
        l.placements(color)
            .iter()
            .all(|&(_, sq)| pos.piece_at(sq).is_none())
    };
    let candidates: Vec<Layout> = Layout::all().into_iter().filter(free).collect();
    let best: Vec<Layout> = match color {
        _ if net.is_some() => net_choice(net.expect("checked"), pos, color, &candidates),
        Color::Gold => candidates
            .iter()
            .copied()
            .filter(|l| l.camel == CamelSlot::Center)
            .collect(),
        Color::Silver => {
            let top = candidates.iter().map(|l| l.silver_score(pos)).max();
            candidates
                .iter()
                .copied()
                .filter(|l| Some(l.silver_score(pos)) == top)
                .collect()
        }
    };
    match best.choose(rng) {
        Some(l) => format_setup(&l.placements(color)),
        None => fill_setup(pos, color),
    }
}

/// Only for a setup area a strange `setposition` left partly occupied:
/// strongest pieces first on the free front squares, rabbits behind.
fn fill_setup(pos: &Position, color: Color) -> String {
    let area = Bitboard::setup_area(color) & !pos.occupied();
    let mut squares: Vec<Square> = area.into_iter().collect();
    // Front rank first, central files first.
    let front = if color == Color::Gold { 1 } else { 6 };
    squares.sort_by_key(|sq| {
        (
            sq.rank() != front,
            (2 * sq.file() as i32 - 7).abs(),
            sq.file(),
        )
    });
    let mut kinds = Vec::with_capacity(16);
    for k in Kind::ALL.iter().rev() {
        for _ in 0..k.full_count() {
            kinds.push(*k);
        }
    }
    let placements: Vec<(Piece, Square)> = kinds
        .into_iter()
        .zip(squares)
        .map(|(k, sq)| (Piece::new(color, k), sq))
        .collect();
    format_setup(&placements)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Game;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    fn square(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn every_layout_is_a_full_legal_setup_for_both_colours() {
        for l in Layout::all() {
            let mut g = Game::new();
            let gold = format_setup(&l.placements(Color::Gold));
            let silver = format_setup(&l.placements(Color::Silver));
            g.play(&gold)
                .unwrap_or_else(|e| panic!("{l:?} gold {gold}: {e}"));
            g.play(&silver)
                .unwrap_or_else(|e| panic!("{l:?} silver {silver}: {e}"));
            for c in Color::BOTH {
                assert_eq!(g.position().occupied_by(c).count(), 16);
            }
        }
    }

    #[test]
    fn layouts_follow_the_principles() {
        for l in Layout::all() {
            let p = l.placements(Color::Gold);
            let at = |s: &str| p.iter().find(|&&(_, sq)| sq == square(s)).unwrap().0;
            let e = p
                .iter()
                .find(|(pc, _)| pc.kind() == Kind::Elephant)
                .unwrap()
                .1;
            assert!(e == square("d2") || e == square("e2"), "{l:?}");
            for guard in ["c2", "f2"] {
                assert!(matches!(at(guard).kind(), Kind::Cat | Kind::Dog), "{l:?}");
            }
            let rabbits: Vec<Square> = p
                .iter()
                .filter(|(pc, _)| pc.kind() == Kind::Rabbit)
                .map(|&(_, sq)| sq)
                .collect();
            assert_eq!(rabbits.len(), 8);
            for r in rabbits {
                assert!(r.rank() == 0 || r.file() == 0 || r.file() == 7, "{l:?} {r}");
            }
        }
    }

    fn play_both(seed: u64) -> (Game, String, String) {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut g = Game::new();
        let gold = choose_setup(g.position(), Color::Gold, &mut rng, None);
        g.play(&gold)
            .unwrap_or_else(|e| panic!("seed {seed} gold {gold}: {e}"));
        let silver = choose_setup(g.position(), Color::Silver, &mut rng, None);
        g.play(&silver)
            .unwrap_or_else(|e| panic!("seed {seed} silver {silver}: {e}"));
        (g, gold, silver)
    }

    /// With the net, silver's layout is among the net's best answers to
    /// gold's and gold's among the best by the worst answer; both legal.
    #[test]
    fn the_net_chooses_among_the_layouts_it_likes_best() {
        let net = Evaluator {
            w: Default::default(),
            net: Some(crate::eval::nnue::Network::embedded()),
        };
        let mut rng = StdRng::seed_from_u64(3);
        let mut g = Game::new();
        let gold = choose_setup(g.position(), Color::Gold, &mut rng, Some(&net));
        g.play(&gold).unwrap();
        let silver = choose_setup(g.position(), Color::Silver, &mut rng, Some(&net));
        let mut done = g.clone();
        done.play(&silver).unwrap();
        let silver_scores: Vec<(String, i32)> = Layout::all()
            .iter()
            .map(|l| {
                let mut t = g.clone();
                let text = format_setup(&l.placements(Color::Silver));
                t.play(&text).unwrap();
                assert_eq!(t.position().side(), Color::Gold);
                (text, -net.evaluate(t.position()))
            })
            .collect();
        let best = silver_scores.iter().map(|x| x.1).max().unwrap();
        let worst = silver_scores.iter().map(|x| x.1).min().unwrap();
        let chosen = -net.evaluate(done.position());
        assert!(chosen >= best - NET_MARGIN, "{chosen} of {worst}..{best}");
        assert!(best - worst > NET_MARGIN, "the net tells the layouts apart");
        let gold_choices = net_choice(
            &net,
            &Position::empty(Color::Gold),
            Color::Gold,
            &Layout::all(),
        );
        assert!(!gold_choices.is_empty() && gold_choices.len() < Layout::all().len());
    }

    #[test]
    fn many_seeds_give_legal_full_setups() {
        let mut golds = std::collections::HashSet::new();
        for seed in 0..300 {
            let (g, gold, _) = play_both(seed);
            assert_eq!(g.position().occupied().count(), 32, "seed {seed}");
            golds.insert(gold);
        }
        // Varied: many different gold setups over the seeds.
        assert!(golds.len() >= 10, "only {} gold setups", golds.len());
    }

    #[test]
    fn same_seed_same_setup() {
        let (a, b) = (play_both(7), play_both(7));
        assert_eq!((a.1, a.2), (b.1, b.2));
    }

    #[test]
    fn silver_answers_gold() {
        for seed in 0..100 {
            let (g, _, _) = play_both(seed);
            let pos = g.position();
            let file = |c: Color, k: Kind| {
                pos.kind_bb(c, k)
                    .into_iter()
                    .next()
                    .map(|s: Square| s.file() as i32)
                    .unwrap()
            };
            let ge = file(Color::Gold, Kind::Elephant);
            let se = file(Color::Silver, Kind::Elephant);
            assert_ne!(ge, se, "seed {seed}: silver elephant on gold's file");
            let sm = file(Color::Silver, Kind::Camel);
            // The camel goes to the wing away from gold's elephant.
            assert!(
                (sm - ge).abs() >= 3,
                "seed {seed}: camel {sm} vs elephant {ge}"
            );
        }
    }

    #[test]
    fn silver_answers_a_handmade_gold_setup() {
        // Gold's elephant on the e-file, camel on d: silver's elephant goes
        // to d7 (facing the camel), its camel to the b-file.
        let mut g = Game::new();
        g.play("Ra1 Rb1 Rc1 Dd1 Ce1 Rf1 Rg1 Rh1 Ra2 Hb2 Cc2 Md2 Ee2 Df2 Hg2 Rh2")
            .unwrap();
        for seed in 0..20 {
            let mut rng = StdRng::seed_from_u64(seed);
            let s = choose_setup(g.position(), Color::Silver, &mut rng, None);
            assert!(s.contains("ed7"), "{s}");
            assert!(s.contains("mb7"), "{s}");
            g.clone().play(&s).unwrap();
        }
    }

    #[test]
    fn fills_a_partly_taken_setup_area() {
        // A setposition can leave gold pieces in silver's area.
        let mut pos = Position::empty(Color::Silver);
        pos.put(Piece::GRabbit, square("d7"));
        pos.put(Piece::GElephant, square("e2"));
        let mut g = Game::from_position(pos.clone(), 1);
        g.set_allow_handicap(true);
        let mut rng = StdRng::seed_from_u64(1);
        let s = choose_setup(&pos, Color::Silver, &mut rng, None);
        g.play(&s).unwrap_or_else(|e| panic!("{s}: {e}"));
        // Every free square used, the strongest pieces in front.
        assert_eq!(g.position().occupied_by(Color::Silver).count(), 15);
        assert!(s.contains("ee7"), "{s}");
        assert_eq!(g.position().count(Color::Silver, Kind::Rabbit), 7);
    }
}

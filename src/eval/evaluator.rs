//! The machinery that turns [`super::TERMS`] into a score: what a term is
//! ([`Term`], [`Score`]), the per-position facts the terms share
//! ([`Facts`]), and the [`Evaluator`] that sums the list
//! ([`Evaluator::evaluate`]) or prints it line by line
//! ([`Evaluator::explain`]).

use std::cell::OnceCell;

use super::geometry::Context;
use super::{EVAL_LIMIT, TERMS, Weights, trapcontrol};
use crate::board::{Color, Position};

/// One term of the evaluation: a line of [`super::TERMS`].
pub struct Term {
    /// As `aamir eval` and `aamir bench --eval` print it.
    pub name: &'static str,
    /// The weights it reads, by their names in [`Weights`] (an array by
    /// its bare name); all of them at 0 switch it off. `bench --eval`
    /// prices a term by zeroing these.
    pub weights: &'static [&'static str],
    /// How it is scored, and from what.
    pub score: Score,
}

/// How a [`Term`] is scored. Every function gets the position's
/// [`Facts`] (the position itself and the shared facts, computed on
/// first use) and the weights.
#[derive(Clone, Copy)]
pub enum Score {
    /// One score for gold, scored for both sides at once (material).
    Gold(fn(&Facts, &Weights) -> i32),
    /// Each side's own part, good for it when positive; the term is gold's
    /// part minus silver's.
    Sides(fn(&Facts, Color, &Weights) -> i32),
    /// Like [`Score::Sides`], and these parts are each side's rabbit
    /// runners, which [`Score::Odds`] reads.
    Runners(fn(&Facts, Color, &Weights) -> i32),
    /// A part for the side to move alone (tempo, captures in hand).
    Mover(fn(&Facts, &Weights) -> i32),
    /// What reading the runners as odds adds to the side to move's score
    /// so far (`before`, every term above it summed), given each side's
    /// runners (the [`Score::Runners`] parts by colour index). It must
    /// come after every other term.
    Odds(fn(i32, [i32; 2], &Weights) -> i32),
}

/// What the terms may read of one position: the position, and the facts
/// several terms share ([`Context`], trap control filled in), computed
/// once, the first time a term asks.
pub struct Facts<'a> {
    pub pos: &'a Position,
    ctx: OnceCell<Context>,
}

impl<'a> Facts<'a> {
    pub fn new(pos: &'a Position) -> Facts<'a> {
        Facts {
            pos,
            ctx: OnceCell::new(),
        }
    }

    /// The shared facts, trap control included.
    #[inline]
    pub fn ctx(&self) -> &Context {
        self.ctx.get_or_init(|| {
            let mut ctx = Context::new(self.pos);
            ctx.trap = trapcontrol::raw_control(self.pos, &ctx);
            ctx
        })
    }
}

/// The evaluator: the hand-weighted terms' weights, or a learned network
/// in their place; shared freely between threads.
#[derive(Clone, Debug, Default)]
pub struct Evaluator {
    pub w: Weights,
    /// When set, the static score is the network's ([`super::nnue`]).
    pub net: Option<std::sync::Arc<super::nnue::Network>>,
}

impl Evaluator {
    /// Score of `pos` for its side to move: the sum of [`super::TERMS`],
    /// clamped to [`EVAL_LIMIT`].
    pub fn evaluate(&self, pos: &Position) -> i32 {
        if let Some(net) = &self.net {
            return self.with_base(net, net.evaluate(pos), pos);
        }
        self.evaluate_terms(pos)
    }

    /// The network's score from accumulators kept by the caller (the
    /// search's), as [`Evaluator::evaluate`] would give it.
    #[inline]
    pub fn evaluate_net(&self, acc: &super::nnue::Accumulators, pos: &Position) -> i32 {
        self.with_base(acc.net(), acc.evaluate(pos.side(), pos.steps_left()), pos)
    }

    /// The score of `pos` with the net's first-layer sums `acc` given (a
    /// caller that has them from a nearby position's,
    /// [`super::nnue::Network::update_from`]); without a net, the terms'.
    pub fn evaluate_with(&self, acc: Option<&super::nnue::Accumulator>, pos: &Position) -> i32 {
        match (&self.net, acc) {
            (Some(net), Some(acc)) => {
                self.with_base(net, net.score(acc, pos.side(), pos.steps_left()), pos)
            }
            _ => self.evaluate(pos),
        }
    }

    /// A net's score `e` of `pos` with what the net is added to.
    #[inline]
    fn with_base(&self, net: &super::nnue::Network, e: i32, pos: &Position) -> i32 {
        let base = match net.base {
            super::nnue::Base::None => 0,
            super::nnue::Base::Terms => self.evaluate_terms(pos),
        };
        (e + base).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// The hand-weighted terms' score, whether or not a net is set.
    pub fn evaluate_terms(&self, pos: &Position) -> i32 {
        let f = Facts::new(pos);
        let mut sum = Sum {
            me: pos.side(),
            s: 0,
            run: [0, 0],
        };
        // The list, unrolled: each term's function is a constant here, so
        // it is called directly (and inlined) rather than through a
        // pointer on every evaluation.
        macro_rules! each {
            ($($i:literal)*) => { $( sum.add::<$i>(&f, &self.w); )* };
        }
        each!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31);
        sum.s.clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// The static score of `pos` term by term, as `aamir eval` prints it:
    /// each line's score for gold (gold's part minus silver's), with each
    /// side's own part where the term has one. The lines add up to
    /// [`Evaluator::evaluate`] seen from gold, before the clamp.
    pub fn explain(&self, pos: &Position) -> Vec<TermLine> {
        let f = Facts::new(pos);
        let me = pos.side();
        let mut lines: Vec<TermLine> = Vec::with_capacity(TERMS.len());
        let mut run = [0, 0];
        for t in TERMS {
            let mut mover = [0, 0];
            let line = match t.score {
                Score::Gold(g) => TermLine::net(t.name, g(&f, &self.w)),
                Score::Sides(side) => TermLine::sides(
                    t.name,
                    side(&f, Color::Gold, &self.w),
                    side(&f, Color::Silver, &self.w),
                ),
                Score::Runners(side) => {
                    run = [
                        side(&f, Color::Gold, &self.w),
                        side(&f, Color::Silver, &self.w),
                    ];
                    TermLine::sides(t.name, run[0], run[1])
                }
                Score::Mover(m) => {
                    mover[me.index()] = m(&f, &self.w);
                    TermLine::sides(t.name, mover[0], mover[1])
                }
                Score::Odds(odds) => {
                    let before = lines.iter().map(|l| l.net).sum::<i32>() * sign(me);
                    mover[me.index()] = odds(before, by_mover(run, me), &self.w);
                    TermLine::sides(t.name, mover[0], mover[1])
                }
            };
            lines.push(line);
        }
        debug_assert_eq!(
            (lines.iter().map(|l| l.net).sum::<i32>() * sign(me)).clamp(-EVAL_LIMIT, EVAL_LIMIT),
            self.evaluate(pos),
        );
        lines
    }
}

/// [`Evaluator::evaluate`]'s running sum.
struct Sum {
    me: Color,
    /// The side to move's score so far.
    s: i32,
    /// Each side's rabbit runners, by colour index, once their term is in.
    run: [i32; 2],
}

/// The most terms [`Evaluator::evaluate`] unrolls.
const MAX_TERMS: usize = 32;
const _: () = assert!(
    TERMS.len() <= MAX_TERMS,
    "raise MAX_TERMS and the unrolled list"
);

impl Sum {
    /// Adds term `I` of [`TERMS`] (nothing past the end of the list).
    #[inline(always)]
    fn add<const I: usize>(&mut self, f: &Facts, w: &Weights) {
        if I >= TERMS.len() {
            return;
        }
        let me = self.me;
        self.s += match TERMS[I].score {
            Score::Gold(g) => sign(me) * g(f, w),
            Score::Sides(side) => side(f, me, w) - side(f, me.opp(), w),
            Score::Runners(side) => {
                self.run = [side(f, Color::Gold, w), side(f, Color::Silver, w)];
                self.run[me.index()] - self.run[me.opp().index()]
            }
            Score::Mover(m) => m(f, w),
            Score::Odds(odds) => odds(self.s, by_mover(self.run, me), w),
        };
    }
}

/// +1 for gold, -1 for silver: turns a score for gold into `c`'s.
#[inline(always)]
fn sign(c: Color) -> i32 {
    if c == Color::Gold { 1 } else { -1 }
}

/// `by_color` (indexed by colour) reordered as the side to move's, then
/// its opponent's.
#[inline(always)]
fn by_mover(by_color: [i32; 2], me: Color) -> [i32; 2] {
    [by_color[me.index()], by_color[me.opp().index()]]
}

/// One line of [`Evaluator::explain`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TermLine {
    pub name: &'static str,
    /// Gold's and silver's own parts, each good for its side when
    /// positive; `None` for a term scored for both at once.
    pub sides: Option<(i32, i32)>,
    /// The term's score for gold.
    pub net: i32,
}

impl TermLine {
    fn sides(name: &'static str, gold: i32, silver: i32) -> TermLine {
        TermLine {
            name,
            sides: Some((gold, silver)),
            net: gold - silver,
        }
    }

    fn net(name: &'static str, net: i32) -> TermLine {
        TermLine {
            name,
            sides: None,
            net,
        }
    }
}

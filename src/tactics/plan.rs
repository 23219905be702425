//! The plan search goal and capture detection share: which preparatory
//! actions can matter to a plan ([`Needs`], expanded level by level into
//! what those actions need first), what an action does to the friendly
//! piece it moves and the enemy piece it displaces ([`ActionParts`]), and
//! the table of (position, budget) queries already known to fail
//! ([`FailTable`]).
//!
//! The detectors name their obstacles in these terms, let [`Needs::expand`]
//! find the preconditions, and play the matching actions out on the board,
//! so every side effect is judged by the rules themselves.

use crate::board::bitboard::{NEAR_TRAP, NO_TRAP, adjacent};
use crate::board::{Action, ActionKind, Bitboard, Color, Position, Square};

/// Preparatory actions that could matter, as square sets. An action matches
/// when it moves a friendly piece off `vacate`, ends with the friendly piece
/// it moves on `arrive`, or displaces an enemy piece standing on `displace`.
#[derive(Copy, Clone, Default, Debug, PartialEq, Eq)]
pub(super) struct Needs {
    pub vacate: Bitboard,
    pub displace: Bitboard,
    pub arrive: Bitboard,
}

impl Needs {
    #[inline(always)]
    pub fn union(&mut self, o: &Needs) {
        self.vacate |= o.vacate;
        self.displace |= o.displace;
        self.arrive |= o.arrive;
    }

    #[inline(always)]
    pub fn matches(&self, a: Action) -> bool {
        let p = ActionParts::of(a);
        self.vacate.contains(p.from)
            || self.arrive.contains(p.to)
            || p.victim.is_some_and(|(v, _)| self.displace.contains(v))
    }

    /// The preconditions of the actions these needs ask for, one level
    /// down: what must happen first so that they can be played.
    pub fn expand(&self, pos: &Position, us: Color) -> Needs {
        let them = us.opp();
        let own = pos.occupied_by(us);
        let en = pos.occupied_by(them);
        let mut out = Needs::default();
        // A friend that is to move must be unfrozen: another friend arrives
        // next to it, or its stronger neighbours are displaced or captured.
        // Its leaving must not strand a friend on the trap next to it, or
        // another guard has to come first.
        let mover = |out: &mut Needs, sq: Square| {
            let kind = pos.kind_at(sq);
            let freezers = adjacent(sq) & pos.stronger_enemies(us, kind);
            if freezers.any() {
                out.arrive |= adjacent(sq);
                out.displace |= freezers | trap_guards(freezers, en);
            }
            let t = NEAR_TRAP[sq.index()];
            if t != NO_TRAP && own.contains(Square::new(t)) {
                out.arrive |= adjacent(Square::new(t));
            }
        };
        for x in self.vacate & own {
            mover(&mut out, x);
            // Room to step into, or to push a weaker neighbour into.
            out.vacate |= adjacent(x) & own;
            out.displace |= adjacent(x) & en;
            let weaker = adjacent(x) & pos.weaker_enemies(us, pos.kind_at(x));
            out.vacate |= weaker.neighbors() & own;
        }
        for y in self.displace & en {
            let attackers = adjacent(y) & pos.stronger_enemies(them, pos.kind_at(y));
            for z in attackers {
                mover(&mut out, z);
                // Room for the attacker to pull into.
                out.vacate |= adjacent(z) & own;
                out.displace |= adjacent(z) & en & !Bitboard::from_square(y);
            }
            // Room to push into, an attacker brought next to it, and its
            // guards if it stands on a trap.
            out.vacate |= adjacent(y) & own;
            out.arrive |= adjacent(y);
            if Bitboard::TRAPS.contains(y) {
                out.displace |= adjacent(y) & en;
            }
        }
        for a in self.arrive {
            // The square must be free for the friend that is to come.
            if en.contains(a) {
                out.displace |= Bitboard::from_square(a);
            }
            if own.contains(a) {
                out.vacate |= Bitboard::from_square(a);
            }
            for z in adjacent(a) & own {
                mover(&mut out, z);
            }
            // A friend two steps away, or a supporter for a trap.
            out.arrive |= adjacent(a);
        }
        out
    }
}

/// Enemy guards of the enemy pieces of `set` that stand on traps: moving
/// them away captures the piece.
#[inline(always)]
pub(super) fn trap_guards(set: Bitboard, en: Bitboard) -> Bitboard {
    let mut g = Bitboard::EMPTY;
    for t in set & Bitboard::TRAPS {
        g |= adjacent(t) & en;
    }
    g
}

/// What an action does: the friendly piece it moves (from, to) and, for a
/// push or pull, the enemy piece it displaces (from, to).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct ActionParts {
    pub from: Square,
    pub to: Square,
    pub victim: Option<(Square, Square)>,
}

impl ActionParts {
    #[inline(always)]
    pub fn of(a: Action) -> ActionParts {
        let s1 = a.first();
        // A push moves the enemy first and the pusher into its square; a
        // pull moves the puller first and the enemy into its square.
        match a.kind() {
            ActionKind::Single => ActionParts {
                from: s1.from,
                to: s1.to,
                victim: None,
            },
            ActionKind::Push => {
                let s2 = a.second().expect("a push has two steps");
                ActionParts {
                    from: s2.from,
                    to: s2.to,
                    victim: Some((s1.from, s1.to)),
                }
            }
            ActionKind::Pull => {
                let s2 = a.second().expect("a pull has two steps");
                ActionParts {
                    from: s1.from,
                    to: s1.to,
                    victim: Some((s2.from, s2.to)),
                }
            }
        }
    }
}

/// A direct-mapped set of query keys known to fail, so that transposed
/// preparations are searched once. `SLOTS` is a power of two.
pub(super) struct FailTable<const SLOTS: usize> {
    keys: [u64; SLOTS],
}

impl<const SLOTS: usize> FailTable<SLOTS> {
    const SHIFT: u32 = 64 - SLOTS.trailing_zeros();

    pub fn new() -> Self {
        FailTable { keys: [0; SLOTS] }
    }

    /// The key of a query about `pos` with budget `n`; `salt` names what
    /// else the query is about (0 when nothing). Never 0, which marks an
    /// empty slot.
    #[inline(always)]
    pub fn key(pos: &Position, n: u8, salt: u64) -> u64 {
        (pos.hash() ^ (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ salt) | 1
    }

    #[inline(always)]
    fn slot(key: u64) -> usize {
        (key >> Self::SHIFT) as usize
    }

    #[inline(always)]
    pub fn failed(&self, key: u64) -> bool {
        self.keys[Self::slot(key)] == key
    }

    #[inline(always)]
    pub fn mark_failed(&mut self, key: u64) {
        self.keys[Self::slot(key)] = key;
    }
}

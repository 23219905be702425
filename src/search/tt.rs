//! The transposition table: shared by all search threads without locks.
//!
//! Each entry is two 64-bit words, the data and the key XOR the data; a
//! reader accepts an entry only if the XOR gives back its key, so a torn
//! write from another thread reads as a miss, never as a wrong entry.
//! Buckets of two entries: one slot keeps the deepest result, the other the
//! newest, so deep results survive without blocking new ones.
//!
//! Keys are `Position::search_key`: board, side to move and steps left, so
//! mid-turn entries never collide with start-of-turn ones. Win scores are
//! stored relative to the node (distance from it) and converted back to the
//! root's frame on probe, so they stay correct at any depth.
//!
//! [`KeptTable`] is the table's life across a process: reserved, its
//! memory brought in on a thread of its own, replaced by a fresh one for
//! a new game or a new size, the old one freed in the background, so that
//! none of it holds up the AEI loop.

use super::bigtable::{HUGE_LIMIT, ZeroedTable};
use crate::board::Action;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, AtomicUsize, Ordering};

/// Scores at or beyond this magnitude are wins/losses, `WIN - distance`.
pub const WIN: i32 = 30_000;
pub const WIN_BOUND: i32 = WIN - 1_000;
// A static score must never read as a win or a loss.
const _: () = assert!(crate::eval::EVAL_LIMIT < WIN_BOUND);

/// How an entry's score bounds the true value.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Bound {
    /// True value >= score (a fail-high).
    Lower,
    /// True value <= score (a fail-low).
    Upper,
    Exact,
}

impl Bound {
    /// The bound a fail-soft result `best` gives for the window
    /// (`alpha`, `beta`).
    #[inline]
    pub fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// A probed entry, scores already in the caller's frame.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Best action found (raw, may be the search's pass marker), 0 if none.
    pub action: u32,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

impl Entry {
    /// Whether this entry settles a search of `depth` with the window
    /// (`alpha`, `beta`) by itself.
    #[inline]
    pub fn cuts(&self, depth: i32, alpha: i32, beta: i32) -> bool {
        self.depth >= depth
            && match self.bound {
                Bound::Exact => true,
                Bound::Lower => self.score >= beta,
                Bound::Upper => self.score <= alpha,
            }
    }
}

/// The raw action value the search uses for "end the turn here".
pub const PASS: u32 = 3 << 24;

/// Converts a score for storage at a node `ply` steps from the root.
#[inline]
pub fn score_to_tt(score: i32, ply: i32) -> i32 {
    if score >= WIN_BOUND {
        score + ply
    } else if score <= -WIN_BOUND {
        score - ply
    } else {
        score
    }
}

/// Converts a stored score back for a node `ply` steps from the root.
#[inline]
pub fn score_from_tt(score: i32, ply: i32) -> i32 {
    if score >= WIN_BOUND {
        score - ply
    } else if score <= -WIN_BOUND {
        score + ply
    } else {
        score
    }
}

pub struct TranspositionTable {
    /// Zeroed memory on 2 MiB pages where the system allows
    /// ([`super::bigtable`]).
    words: ZeroedTable<AtomicU64>,
    buckets: usize,
    generation: AtomicU8,
    /// Bytes from the start whose pages the system has already provided
    /// ([`TranspositionTable::prepare`]).
    prepared: AtomicUsize,
}

/// Bytes [`TranspositionTable::prepare`] has provided between two looks
/// at whether to go on: one huge page, a few milliseconds.
const PREPARE_CHUNK: usize = 2 << 20;

const WORDS_PER_BUCKET: usize = 4;

fn pack(action: u32, score: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    let b = match bound {
        Bound::Lower => 1u64,
        Bound::Upper => 2,
        Bound::Exact => 3,
    };
    (action as u64 & 0x3FF_FFFF)
        | ((score as i16 as u16 as u64) << 26)
        | ((depth.clamp(0, 255) as u64) << 42)
        | (b << 50)
        | (((generation & 63) as u64) << 52)
}

fn unpack(d: u64) -> (Entry, u8) {
    let bound = match (d >> 50) & 3 {
        1 => Bound::Lower,
        2 => Bound::Upper,
        _ => Bound::Exact,
    };
    (
        Entry {
            action: (d & 0x3FF_FFFF) as u32,
            score: ((d >> 26) & 0xFFFF) as u16 as i16 as i32,
            depth: ((d >> 42) & 0xFF) as i32,
            bound,
        },
        ((d >> 52) & 63) as u8,
    )
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket).
    ///
    /// When the system refuses that much memory the size is halved until
    /// it agrees ([`TranspositionTable::megabytes`] tells what was had):
    /// a mistyped `hash` option must not abort the engine mid-game.
    ///
    /// The memory is only reserved here, never written: the system hands
    /// out zeroed pages as the search first stores into them, so a table
    /// of any size is made in microseconds (an AEI `setoption name hash`
    /// answers `isready` at once) and only the part a search used costs
    /// anything to free.
    pub fn new(mb: usize) -> TranspositionTable {
        let bytes = mb.clamp(1, usize::MAX / (2 * 1024 * 1024)) * 1024 * 1024;
        // Any count works: a key picks its bucket by a multiply-high, not
        // by masking, so the table is as large as asked.
        let mut buckets = (bytes / (WORDS_PER_BUCKET * 8)).max(1);
        loop {
            if let Some(t) = TranspositionTable::with_buckets(buckets) {
                return t;
            }
            if buckets == 1 {
                // Not even 32 bytes: the process cannot go on anyway.
                std::alloc::handle_alloc_error(std::alloc::Layout::new::<
                    [AtomicU64; WORDS_PER_BUCKET],
                >());
            }
            buckets /= 2;
        }
    }

    /// A table of exactly `buckets` buckets, or `None` if the system
    /// refuses the memory.
    fn with_buckets(buckets: usize) -> Option<TranspositionTable> {
        Some(TranspositionTable {
            words: ZeroedTable::new(buckets.checked_mul(WORDS_PER_BUCKET)?)?,
            buckets,
            generation: AtomicU8::new(0),
            prepared: AtomicUsize::new(0),
        })
    }

    /// An empty table of the same size and generation (what [`clear`]
    /// leaves) made without writing a byte, or `None` if the system
    /// refuses the memory while this table still holds its own.
    ///
    /// [`clear`]: TranspositionTable::clear
    pub fn emptied(&self) -> Option<TranspositionTable> {
        let t = TranspositionTable::with_buckets(self.buckets)?;
        t.generation
            .store(self.generation.load(Ordering::Relaxed), Ordering::Relaxed);
        Some(t)
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.words.bytes()
    }

    /// Size in whole megabytes (at least 1; a tiny table rounds up).
    pub fn megabytes(&self) -> usize {
        self.bytes().div_ceil(1024 * 1024)
    }

    pub fn clear(&self) {
        for w in self.words.iter() {
            w.store(0, Ordering::Relaxed);
        }
        // Every page has been written now.
        self.prepared.store(self.bytes(), Ordering::Relaxed);
    }

    /// Has the system provide the memory of a table on huge pages before
    /// a search stores into it, one huge page (2 MiB) at a time while
    /// `go_on()` says so; `false` when it stopped early.
    ///
    /// A fresh table's pages come zeroed at their first store, 2 MiB at a
    /// time on huge pages: the first 1,024 nodes of a game's first search
    /// store into nearly all of a 64 MiB table, and spent about 0.15 s on
    /// a virtual machine with the kernel zeroing it (`perf record`), all
    /// that while deaf to `stop`. Here the same work is done between
    /// looks at the stop flag and the clock. A larger table is on small
    /// pages, where each first store costs only 4 KiB of zeroing, and is
    /// left to the search.
    pub fn prepare(&self, go_on: impl Fn() -> bool) -> bool {
        let len = self.bytes();
        if len > HUGE_LIMIT {
            return true;
        }
        let mut at = self.prepared.load(Ordering::Relaxed);
        let mut done = true;
        while at < len {
            if !go_on() {
                done = false;
                break;
            }
            let end = (at + PREPARE_CHUNK).min(len);
            if !self.words.populate(at, end) {
                // The system cannot: the first stores fault the pages in.
                at = len;
                break;
            }
            at = end;
        }
        self.prepared.store(at, Ordering::Relaxed);
        done
    }

    /// Whether [`TranspositionTable::prepare`] has nothing left to do.
    pub fn is_prepared(&self) -> bool {
        self.bytes() > HUGE_LIMIT || self.prepared.load(Ordering::Relaxed) >= self.bytes()
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        ((key as u128 * self.buckets as u128) >> 64) as usize * WORDS_PER_BUCKET
    }

    /// Looks `key` up; the score comes back in the frame of a node `ply`
    /// steps from the root.
    #[inline]
    pub fn probe(&self, key: u64, ply: i32) -> Option<Entry> {
        let b = self.bucket(key);
        for slot in 0..2 {
            let k = self.words[b + 2 * slot].load(Ordering::Relaxed);
            let d = self.words[b + 2 * slot + 1].load(Ordering::Relaxed);
            if d != 0 && k ^ d == key {
                let (mut e, _) = unpack(d);
                e.score = score_from_tt(e.score, ply);
                return Some(e);
            }
        }
        None
    }

    /// Stores a result for `key` found at a node `ply` steps from the root.
    #[inline]
    pub fn store(&self, key: u64, ply: i32, action: u32, score: i32, depth: i32, bound: Bound) {
        let generation = self.generation.load(Ordering::Relaxed);
        let b = self.bucket(key);
        // Slot 0 keeps the deepest (of this search), slot 1 always takes new
        // results; the same key is updated where it is.
        let mut target = 1;
        let mut keep_action = 0;
        for slot in 0..2 {
            let k = self.words[b + 2 * slot].load(Ordering::Relaxed);
            let d = self.words[b + 2 * slot + 1].load(Ordering::Relaxed);
            if d != 0 && k ^ d == key {
                let (old, _) = unpack(d);
                // Do not let a shallow bound wipe a deeper exact result.
                if slot == 0
                    && old.depth > depth
                    && old.bound == Bound::Exact
                    && bound != Bound::Exact
                {
                    return;
                }
                target = slot;
                keep_action = old.action;
                break;
            }
            if slot == 0 {
                let (old, g) = unpack(d);
                if d == 0 || g != generation & 63 || old.depth <= depth {
                    target = 0;
                }
            }
        }
        let action = if action == 0 { keep_action } else { action };
        let d = pack(action, score_to_tt(score, ply), depth, bound, generation);
        // A zero data word marks an empty slot; real data always has a bound.
        self.words[b + 2 * target].store(key ^ d, Ordering::Relaxed);
        self.words[b + 2 * target + 1].store(d, Ordering::Relaxed);
    }

    /// Per mille of the first slots used by this search (AEI `hashfull`).
    pub fn fill_permille(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        let n = self.buckets.min(1000);
        let used = (0..n)
            .filter(|&i| {
                let d = self.words[i * WORDS_PER_BUCKET + 1].load(Ordering::Relaxed);
                d != 0 && unpack(d).1 == generation
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

/// The action stored in an entry, if it is a real action (not none or pass).
#[inline]
pub fn entry_action(raw: u32) -> Option<Action> {
    (raw != 0 && raw != PASS).then(|| Action::from_raw(raw))
}

/// The searcher's table across games: which table is in use, whether a
/// search has written to it, and the thread bringing in a new one's
/// memory.
pub struct KeptTable {
    tt: Arc<TranspositionTable>,
    /// Whether a search has stored into `tt`: an unused table is already
    /// as empty as a new one.
    used: bool,
    /// Tells the thread bringing in the table's memory (see
    /// [`KeptTable::install`]) to give up.
    preparing: Option<Arc<AtomicBool>>,
}

impl KeptTable {
    /// A table of `mb` megabytes (see [`TranspositionTable::new`]), its
    /// memory brought in in the background.
    pub fn new(mb: usize) -> KeptTable {
        let mut kept = KeptTable {
            tt: Arc::new(TranspositionTable::new(mb)),
            used: false,
            preparing: None,
        };
        kept.prepare_in_background();
        kept
    }

    /// The table in use, to look at.
    pub fn table(&self) -> &TranspositionTable {
        &self.tt
    }

    /// The table in use, for a search that will write to it.
    pub fn for_search(&mut self) -> &TranspositionTable {
        self.used = true;
        &self.tt
    }

    /// Replaces the table by one of `mb` megabytes at once: the new one is
    /// only reserved (the system provides its pages as the search first
    /// writes them) and the old one is freed on a thread of its own, so
    /// that neither holds up the AEI loop whatever the size.
    pub fn resize(&mut self, mb: usize) {
        self.install(TranspositionTable::new(mb));
    }

    /// Forgets everything learned (AEI `newgame`): an empty table of the
    /// same size takes the old one's place, which is freed in the
    /// background (writing zeros over a large table would hold up the AEI
    /// loop for seconds). A table no search has used is kept: it is empty,
    /// and the handshake's table is still being prepared when the first
    /// `newgame` comes.
    pub fn new_game(&mut self) {
        if !self.used {
            return;
        }
        match self.tt.emptied() {
            Some(fresh) => self.install(fresh),
            None => {
                self.tt.clear();
                self.used = false;
            }
        }
    }

    fn stop_preparing(&mut self) {
        if let Some(flag) = self.preparing.take() {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// Puts `fresh` in the old table's place, frees the old one on a
    /// thread of its own and starts bringing in the new one's memory.
    fn install(&mut self, fresh: TranspositionTable) {
        self.stop_preparing();
        free_in_background(std::mem::replace(&mut self.tt, Arc::new(fresh)));
        self.used = false;
        self.prepare_in_background();
    }

    /// Brings a new table's memory in on a thread of its own (see
    /// [`TranspositionTable::prepare`]), so that a game's first search
    /// does not spend its first tenths of a second on it: a 64 MiB table
    /// cost about 0.15 s, which at a fast time control is half a move.
    /// A search that starts sooner prepares what is left itself; the two
    /// may bring in the same pages, which does no harm.
    fn prepare_in_background(&mut self) {
        let tt = self.tt.clone();
        let flag = Arc::new(AtomicBool::new(false));
        let give_up = flag.clone();
        // Without a thread the search prepares the table itself.
        match std::thread::Builder::new()
            .name("prepare-table".into())
            .spawn(move || tt.prepare(|| !give_up.load(Ordering::Relaxed)))
        {
            Ok(_) => self.preparing = Some(flag),
            Err(e) => log::debug!("no thread to prepare the table: {e}"),
        }
    }
}

impl Drop for KeptTable {
    /// The table's preparer has no more reason to go on.
    fn drop(&mut self) {
        self.stop_preparing();
    }
}

/// Frees a table on a thread of its own: returning a large table's pages
/// to the system takes a while, and the caller is the AEI loop. (A table
/// still being prepared is freed when its preparer lets go of it.)
fn free_in_background(table: Arc<TranspositionTable>) {
    // When no thread can be had, free it here rather than keep it.
    if let Err(e) = std::thread::Builder::new()
        .name("free-table".into())
        .spawn(move || drop(table))
    {
        log::debug!("freeing the table on this thread: {e}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preparing_goes_a_huge_page_at_a_time_and_can_be_stopped() {
        let t = TranspositionTable::new(8);
        t.store(0xDEAD_BEEF, 0, 5, 17, 3, Bound::Exact);
        let looks = std::cell::Cell::new(0);
        assert!(!t.prepare(|| false), "told to stop at once");
        assert!(t.prepare(|| {
            looks.set(looks.get() + 1);
            true
        }));
        // 8 MiB in 2 MiB pieces, a look before each (one, where the
        // system cannot provide pages ahead).
        let can = t.words.populate(0, 4096);
        assert_eq!(looks.get(), if can { 4 } else { 1 });
        assert!(t.prepare(|| false), "nothing is left to do");
        assert!(t.is_prepared());
        assert_eq!(t.probe(0xDEAD_BEEF, 0).map(|e| e.score), Some(17));
        let fresh = t.emptied().unwrap();
        assert!(!fresh.prepare(|| false), "a new table is new memory");
        assert!(!fresh.is_prepared());
        assert!(fresh.probe(0xDEAD_BEEF, 0).is_none());
    }

    #[test]
    fn the_table_is_as_large_as_asked() {
        // Powers of two and others alike: `hash 64` must not give 32 MB.
        for mb in [1, 3, 64, 100] {
            let tt = TranspositionTable::new(mb);
            assert_eq!(tt.bytes(), mb * 1024 * 1024, "{mb} MB");
            assert_eq!(tt.megabytes(), mb);
        }
    }

    #[test]
    fn stores_and_probes() {
        let tt = TranspositionTable::new(1);
        tt.store(0xDEAD_BEEF, 0, 1234, -57, 9, Bound::Lower);
        let e = tt.probe(0xDEAD_BEEF, 0).unwrap();
        assert_eq!(
            e,
            Entry {
                action: 1234,
                score: -57,
                depth: 9,
                bound: Bound::Lower
            }
        );
        assert!(tt.probe(0xDEAD_BEE0, 0).is_none());
        tt.store(0xDEAD_BEEF, 0, PASS, 12, 10, Bound::Exact);
        assert_eq!(tt.probe(0xDEAD_BEEF, 0).unwrap().action, PASS);
    }

    #[test]
    fn win_scores_are_relative_to_the_node() {
        let tt = TranspositionTable::new(1);
        // Found at ply 6: a win 3 steps further, so WIN - 9 from the root.
        tt.store(42, 6, 0, WIN - 9, 5, Bound::Exact);
        // Reached again at ply 10 by another path: still 3 steps from there.
        assert_eq!(tt.probe(42, 10).unwrap().score, WIN - 13);
        assert_eq!(tt.probe(42, 6).unwrap().score, WIN - 9);
        tt.store(43, 4, 0, -(WIN - 7), 5, Bound::Upper);
        assert_eq!(tt.probe(43, 2).unwrap().score, -(WIN - 5));
        // Ordinary scores are untouched.
        tt.store(44, 4, 0, 250, 5, Bound::Upper);
        assert_eq!(tt.probe(44, 9).unwrap().score, 250);
    }

    #[test]
    fn torn_entries_read_as_misses() {
        let tt = TranspositionTable::new(1);
        tt.store(77, 0, 5, 1, 1, Bound::Exact);
        let b = tt.bucket(77);
        // A new key lands in slot 0; change its data word without its key
        // word, as a concurrent writer might.
        tt.words[b + 1].fetch_xor(1 << 30, Ordering::Relaxed);
        assert!(tt.probe(77, 0).is_none());
    }
}

//! Zero-filled tables for the search's large random-access memory: the
//! transposition table and each thread's static-score and goal caches.
//!
//! Every probe of these tables lands on a random line of megabytes. With
//! the system's 4 KiB pages nearly every probe also misses the processor's
//! address cache (the TLB) and walks the page tables, in a virtual machine
//! two sets of them. Linux can back such a table with 2 MiB pages instead
//! (transparent huge pages), so that a few dozen TLB entries cover it; but
//! in its `madvise` mode, the default of many distributions, it does so
//! only for memory that asks. So the tables are mapped here on 2 MiB
//! boundaries and ask. The request is a hint: where the kernel declines, a
//! table works exactly as before, only slower.
//!
//! The memory comes straight from the system, which zeroes each page when
//! it is first touched; nothing here writes to it, so a table of any size
//! is made in microseconds. The first store into a huge page zeroes all
//! 2 MiB of it, so a search's first few thousand stores zero the whole
//! table: 13 searches of 65 ms, each with a fresh 64 MiB table (`aamir
//! bench --depth 4`, five runs), took 3.15 s of processor time against
//! 3.27 s on small pages. That zeroing is not free, though: 64 MiB took
//! about 0.15 s of kernel time on a virtual machine (`perf record` of a
//! game's first search), and a 2 GiB table on huge pages made
//! the first search of a game zero 2 GiB, 3,353 nodes in half a second
//! (test `a_large_hash_holds_up_no_answer`). So a search does it first,
//! in pieces, between looks at the stop flag
//! ([`ZeroedTable::populate`], `TranspositionTable::prepare`), and tables
//! over [`HUGE_LIMIT`] stay on small pages, where a search zeroes only the
//! pages it stores into.

use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// Types whose all-zero bytes are a valid value, so that a table of them
/// can start as fresh zeroed memory.
///
/// # Safety
/// Implement only for types for which the all-zero bit pattern is a valid
/// value.
pub unsafe trait Zeroable {}

// SAFETY: zero is a valid integer, and a valid atomic integer.
unsafe impl Zeroable for u64 {}
unsafe impl Zeroable for i32 {}
unsafe impl Zeroable for std::sync::atomic::AtomicU64 {}
// SAFETY: a tuple of zeroable fields is zeroable (padding may hold anything).
unsafe impl<A: Zeroable, B: Zeroable> Zeroable for (A, B) {}

/// The huge-page size the tables are aligned to and advised for.
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

/// The largest table asked to go on huge pages (the default hash table is
/// 64 MiB): one whose zeroing a search can afford before it starts.
pub const HUGE_LIMIT: usize = 256 << 20;

/// A fixed-size table of `len` values of `T`, all zero at first; it reads
/// and writes as a slice.
pub struct ZeroedTable<T: Zeroable> {
    ptr: NonNull<T>,
    len: usize,
    memory: Memory,
}

/// Where a table's memory came from, to give it back the same way.
enum Memory {
    /// An anonymous mapping of `size` bytes at `base` (the table starts at
    /// the first 2 MiB boundary in it).
    #[cfg(target_os = "linux")]
    Mapped {
        base: *mut libc::c_void,
        size: usize,
    },
    /// The global allocator, with this layout.
    #[cfg(not(target_os = "linux"))]
    Heap(std::alloc::Layout),
}

// SAFETY: the table owns its memory like a `Box<[T]>` does; sharing or
// sending it is as safe as sharing or sending the values.
unsafe impl<T: Zeroable + Send> Send for ZeroedTable<T> {}
unsafe impl<T: Zeroable + Sync> Sync for ZeroedTable<T> {}

impl<T: Zeroable> ZeroedTable<T> {
    /// A table of `len` zeroed values, or `None` when `len` is 0 or the
    /// system refuses the memory.
    pub fn new(len: usize) -> Option<ZeroedTable<T>> {
        let bytes = len.checked_mul(std::mem::size_of::<T>())?;
        if bytes == 0 {
            return None;
        }
        Self::map(len, bytes)
    }

    /// A table of `len` (at least 1) zeroed values; like a `Vec`, the
    /// process aborts if the system refuses the memory.
    pub fn zeroed(len: usize) -> ZeroedTable<T> {
        Self::new(len).unwrap_or_else(|| {
            std::alloc::handle_alloc_error(
                std::alloc::Layout::array::<T>(len.max(1))
                    .unwrap_or(std::alloc::Layout::new::<T>()),
            )
        })
    }

    #[cfg(target_os = "linux")]
    fn map(len: usize, bytes: usize) -> Option<ZeroedTable<T>> {
        const _: () = assert!(HUGE_PAGE.is_power_of_two());
        if std::mem::align_of::<T>() > HUGE_PAGE {
            return None;
        }
        // Whole huge pages, plus one of slack to start on a boundary.
        let span = bytes.checked_next_multiple_of(HUGE_PAGE)?;
        let size = span.checked_add(HUGE_PAGE)?;
        // SAFETY: a fresh private anonymous mapping; no existing memory is
        // touched. The result is checked before use.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                size,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return None;
        }
        let start = (base as usize).next_multiple_of(HUGE_PAGE);
        if span <= HUGE_LIMIT {
            // SAFETY: `start..start + span` lies inside the mapping just
            // made (at most one huge page of slack is skipped). The advice
            // only changes how the kernel backs it, so its failure is
            // harmless.
            unsafe {
                libc::madvise(start as *mut libc::c_void, span, libc::MADV_HUGEPAGE);
            }
        }
        Some(ZeroedTable {
            // `start` is non-null: it is at or past a successful mapping.
            ptr: NonNull::new(start as *mut T)?,
            len,
            memory: Memory::Mapped { base, size },
        })
    }

    #[cfg(not(target_os = "linux"))]
    fn map(len: usize, _bytes: usize) -> Option<ZeroedTable<T>> {
        let layout = std::alloc::Layout::array::<T>(len).ok()?;
        // SAFETY: the layout has a non-zero size (checked by `new`); zeroed
        // bytes are valid values of `T` (`Zeroable`).
        let p = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<T>();
        Some(ZeroedTable {
            ptr: NonNull::new(p)?,
            len,
            memory: Memory::Heap(layout),
        })
    }

    /// Has the system provide now, as if written, the pages that hold
    /// bytes `from..to` of the values, without changing a byte (the values
    /// stay as they are, so this may run while other threads use the
    /// table). `false` where the system cannot (Linux before 5.14, other
    /// systems): the pages then come with the first store into each, as
    /// before.
    #[cfg(target_os = "linux")]
    pub fn populate(&self, from: usize, to: usize) -> bool {
        const PAGE: usize = 4096;
        let to = to.min(self.bytes());
        // The table starts on a huge-page boundary, so page offsets from
        // its start are page addresses.
        let from = from - from % PAGE;
        if from >= to {
            return true;
        }
        // SAFETY: `from..to` lies inside the mapping this table owns; the
        // advice fills in page tables and never writes the memory.
        unsafe {
            libc::madvise(
                self.ptr.as_ptr().cast::<u8>().add(from).cast(),
                to - from,
                libc::MADV_POPULATE_WRITE,
            ) == 0
        }
    }

    /// See the Linux version: elsewhere the pages come with the first
    /// store into each.
    #[cfg(not(target_os = "linux"))]
    pub fn populate(&self, _from: usize, _to: usize) -> bool {
        false
    }

    /// Size in bytes of the values (not of the memory reserved for them).
    pub fn bytes(&self) -> usize {
        self.len * std::mem::size_of::<T>()
    }
}

impl<T: Zeroable> Drop for ZeroedTable<T> {
    fn drop(&mut self) {
        // The values need no drop of their own: every `Zeroable` here is
        // plain data.
        match self.memory {
            #[cfg(target_os = "linux")]
            // SAFETY: the mapping made in `map`, unmapped once.
            Memory::Mapped { base, size } => unsafe {
                libc::munmap(base, size);
            },
            #[cfg(not(target_os = "linux"))]
            // SAFETY: allocated in `map` with this very layout.
            Memory::Heap(layout) => unsafe {
                std::alloc::dealloc(self.ptr.as_ptr().cast(), layout);
            },
        }
    }
}

impl<T: Zeroable> Deref for ZeroedTable<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `len` values of `T` at `ptr`, inside memory this table
        // owns, each valid (zeroed at first, then written through `&mut`).
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> DerefMut for ZeroedTable<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, borrowed uniquely through `&mut self`.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    #[test]
    fn a_table_starts_zeroed_and_keeps_what_is_written() {
        let mut t: ZeroedTable<(u64, i32)> = ZeroedTable::zeroed(100_000);
        assert_eq!(t.len(), 100_000);
        assert!(t.iter().all(|&e| e == (0, 0)));
        t[0] = (7, -3);
        t[99_999] = (u64::MAX, i32::MIN);
        assert_eq!(t[0], (7, -3));
        assert_eq!(t[99_999], (u64::MAX, i32::MIN));
        assert_eq!(t.iter().filter(|&&e| e != (0, 0)).count(), 2);
        assert_eq!(t.bytes(), 100_000 * std::mem::size_of::<(u64, i32)>());
    }

    #[test]
    fn an_empty_or_impossible_table_is_refused() {
        assert!(ZeroedTable::<u64>::new(0).is_none());
        assert!(ZeroedTable::<u64>::new(usize::MAX / 4).is_none());
    }

    /// The process's virtual size in KiB (Linux), to see tables given back.
    #[cfg(target_os = "linux")]
    fn virtual_kib() -> u64 {
        let s = std::fs::read_to_string("/proc/self/status").unwrap();
        let line = s.lines().find(|l| l.starts_with("VmSize:")).unwrap();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    }

    #[test]
    fn tables_are_shared_between_threads_and_given_back() {
        #[cfg(target_os = "linux")]
        let before = virtual_kib();
        // 64 tables of 64 MiB made and dropped in turn, their atomics
        // written from two threads as the transposition table's are.
        for round in 0..64u64 {
            let t: ZeroedTable<AtomicU64> = ZeroedTable::zeroed(8 << 20);
            std::thread::scope(|s| {
                for k in 0..2u64 {
                    let t = &t;
                    s.spawn(move || t[(k as usize) << 22].store(round + k + 1, Ordering::Relaxed));
                }
            });
            assert_eq!(t[0].load(Ordering::Relaxed), round + 1);
            assert_eq!(t[1 << 22].load(Ordering::Relaxed), round + 2);
            assert_eq!(t[(8 << 20) - 1].load(Ordering::Relaxed), 0);
        }
        // Kept mappings would have grown the address space by over 4 GiB;
        // 1 GiB leaves room for what other tests hold meanwhile.
        #[cfg(target_os = "linux")]
        {
            let grown = virtual_kib().saturating_sub(before);
            assert!(grown < 1 << 20, "address space grew by {grown} KiB");
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_table_starts_on_a_huge_page_boundary() {
        let t: ZeroedTable<u64> = ZeroedTable::zeroed(3);
        assert_eq!(t.as_ptr() as usize % HUGE_PAGE, 0);
    }

    /// How many of the 4 KiB pages holding `t`'s values are in memory.
    #[cfg(target_os = "linux")]
    fn resident_pages(t: &ZeroedTable<AtomicU64>) -> usize {
        let pages = t.bytes().div_ceil(4096);
        let mut flags = vec![0u8; pages];
        // SAFETY: the range is the table's own mapping (page-aligned), and
        // `flags` has one byte per page of it.
        let r = unsafe { libc::mincore(t.as_ptr() as *mut _, t.bytes(), flags.as_mut_ptr()) };
        assert_eq!(r, 0);
        flags.iter().filter(|&&f| f & 1 != 0).count()
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn populating_brings_the_memory_in_and_keeps_the_values() {
        let t: ZeroedTable<AtomicU64> = ZeroedTable::zeroed(4 << 20);
        t[12345].store(99, Ordering::Relaxed);
        // One huge page or one small page, depending on the system.
        assert!(resident_pages(&t) <= 512);
        if !t.populate(0, t.bytes()) {
            // A kernel without MADV_POPULATE_WRITE (before 5.14).
            return;
        }
        assert_eq!(resident_pages(&t), 8192, "all 32 MiB are in");
        assert_eq!(t[12345].load(Ordering::Relaxed), 99);
        assert_eq!(
            t.iter().filter(|w| w.load(Ordering::Relaxed) != 0).count(),
            1
        );
    }
}

//! Leaving the process at once after `quit`, whatever the table's size.
//!
//! When a process exits, the kernel frees every page it touched before the
//! parent can see it gone. After a game with a table of many GB that is
//! millions of pages, and it took 0.3-0.5 s at 16 GB after only a few
//! seconds of search (more after a whole game), while controllers time
//! `quit`. On Linux the address space is therefore handed to a helper
//! process that shares it (`clone` with `CLONE_VM` but not `CLONE_THREAD`,
//! so the engine's exit does not take it along): the engine's exit then
//! leaves the memory in use, and the helper, waiting for the engine to be
//! gone (the engine's end of a pipe closes when it exits), exits in turn
//! and frees the memory after the controller has seen the engine leave.
//! The helper runs no Rust code that could touch the engine's state: it
//! closes descriptors, reads a pipe and exits, all by plain system calls.
//! Anywhere else, or when the helper cannot be made, the exit is the plain
//! one.

/// Ends the process with `code` (stdout must be flushed already), leaving
/// the freeing of its memory to a helper where that is possible.
pub fn exit_now(code: i32) -> ! {
    #[cfg(target_os = "linux")]
    hand_memory_to_helper();
    std::process::exit(code)
}

/// Bytes of the helper's stack: it calls `close`, `read` and `exit` only.
#[cfg(target_os = "linux")]
const HELPER_STACK: usize = 64 * 1024;

/// The helper: `arg` packs the pipe's read end (high half) and write end
/// (low half).
#[cfg(target_os = "linux")]
extern "C" fn helper(arg: *mut libc::c_void) -> libc::c_int {
    let v = arg as usize;
    let (read_end, write_end) = ((v >> 32) as libc::c_int, (v & 0xFFFF_FFFF) as libc::c_int);
    // SAFETY: plain system calls on descriptors of this process's own
    // descriptor table (a copy: no CLONE_FILES) and on a byte of its own
    // stack.
    unsafe {
        // The controller's pipes must close when the engine exits, not
        // when the helper does.
        for fd in [write_end, 0, 1, 2] {
            libc::close(fd);
        }
        let mut byte = 0u8;
        // Returns 0 (end of file) once the engine, the last writer, is
        // gone; a signal may interrupt it, a few times at most.
        for _ in 0..64 {
            if libc::read(read_end, (&raw mut byte).cast::<libc::c_void>(), 1) >= 0 {
                break;
            }
        }
        libc::syscall(libc::SYS_exit, 0);
    }
    0
}

/// Starts the helper that keeps the address space alive past this
/// process's exit; does nothing when any step fails.
#[cfg(target_os = "linux")]
fn hand_memory_to_helper() {
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: `fds` has room for the two descriptors `pipe` writes.
    if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
        return;
    }
    let (read_end, write_end) = (fds[0], fds[1]);
    // The helper's stack lives until the helper exits: leaked on purpose,
    // as the process is about to end.
    let stack: &'static mut [u8] = Vec::leak(vec![0u8; HELPER_STACK]);
    let top = (stack.as_mut_ptr() as usize + HELPER_STACK) & !15;
    let arg = ((read_end as usize) << 32) | (write_end as u32 as usize);
    // SAFETY: `helper` only makes system calls, on its own 16-byte-aligned
    // stack that nothing else uses; CLONE_VM shares the memory, which is
    // what keeps it; exit signal 0: nobody is told when the helper ends.
    let pid = unsafe {
        libc::clone(
            helper,
            top as *mut libc::c_void,
            libc::CLONE_VM,
            arg as *mut libc::c_void,
        )
    };
    if pid < 0 {
        log::debug!(
            "no helper to free the memory: {}",
            std::io::Error::last_os_error()
        );
    }
    // SAFETY: our copy of the read end is not used again; the write end
    // stays open until this process exits, which is the helper's signal.
    unsafe {
        libc::close(read_end);
    }
}

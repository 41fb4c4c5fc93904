//! Giving freed memory back to the OS after a flood. glibc keeps what large buffers freed in
//! its arenas (one per thread that allocated, and a terminal has several threads), so a
//! session whose buffers were released still counted megabytes of resident memory.

/// Returns the free memory at the tops and in the middle of glibc's arenas to the OS.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
pub(crate) fn release_free_memory() {
    // SAFETY: `malloc_trim` takes no pointer and only releases memory the allocator holds
    // free; it is safe to call from any thread at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Other allocators give memory back themselves.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub(crate) fn release_free_memory() {}

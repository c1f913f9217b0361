//! What a large verification leaves behind (the trace index, the plan,
//! the checks' tables) is freed on a thread of its own: freeing a million
//! regions' worth of small allocations keeps a core busy for tens of
//! milliseconds the verdict need not wait for. A small one is freed in
//! place, where starting a thread would cost more than it saves.

/// Regions from which what a verification leaves is freed on another thread.
pub const LARGE: usize = 1 << 14;

/// Drops `value` on a thread of its own when `large`, in place otherwise.
pub fn later<T: Send + 'static>(value: T, large: bool) {
    if large {
        // Should no thread start, the closure, `value` with it, is dropped here.
        let _ = std::thread::Builder::new()
            .name("ctxguard-free".into())
            .spawn(move || drop(value));
    }
}

//! A background search of one game's page (its analysis, its review): the flag that stops
//! it, the generation that tells its reports from a newer worker's, and its thread.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// One background worker's handle.
#[derive(Default)]
pub(super) struct Worker {
    /// Set while the worker runs.
    pub(super) stop: Option<Arc<AtomicBool>>,
    /// Bumped by every new start or cancel; a thread of another value reports nothing.
    pub(super) generation: u64,
    pub(super) thread: Option<std::thread::JoinHandle<()>>,
}

impl Worker {
    /// Stops the running thread (it ends at its next look at the flag) and makes whatever it
    /// would still report stale.
    pub(super) fn halt(&mut self) {
        if let Some(s) = self.stop.take() {
            s.store(true, Ordering::Relaxed);
        }
        self.generation += 1;
    }
}

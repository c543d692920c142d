//! The engine's search for a game, on a thread of its own.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use crate::search::Searcher;

use super::*;
use super::{state::*, table::*};

/// Lowers the calling thread's scheduling priority, so that searches never slow the answers
/// to requests.
pub(super) fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority only reads its arguments; on Linux, `who = 0` is the calling thread.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 19);
    }
}

/// Starts the engine when it is to move and idle.
pub(super) fn maybe_start_engine(sess_arc: &Arc<Mutex<Table>>, force: bool) {
    let mut s = lock(sess_arc);
    if s.closed || s.asleep || s.thinking() || s.over() || s.searching {
        return;
    }
    let side = s.game.side_to_move();
    if !force && (s.paused || s.players[side.index()] != Player::Engine) {
        return;
    }
    let mut searcher = match s.searcher.take() {
        Some(x) => x,
        None => Searcher::new(s.game.rules(), HASH_MB),
    };
    s.paused = false;
    let stop = Arc::new(AtomicBool::new(false));
    searcher.set_stop_flag(stop.clone());
    s.play_when_stopped = false;
    s.report = EngineReport {
        searched_for: Some(side),
        ..EngineReport::default()
    };
    let generation = s.generation;
    let rules_at_start = s.game.rules().clone();
    let limits = s.limits();
    let mut pos = s.game.position().clone();
    let arc = sess_arc.clone();
    let thread_stop = stop.clone();
    // Spawned under the session's lock, so that whoever retires the game finds this thread.
    let spawned = std::thread::Builder::new()
        .name("engine".into())
        .spawn(move || {
            lower_priority();
            let stop = thread_stop;
            // While the generation holds, the game's position is the one searched. This
            // thread's work is done before it takes the game's lock, which it holds as
            // briefly as it can: at its low priority, it may wait long for a core meanwhile,
            // and so would every request of the game.
            let searched = pos.clone();
            let r = searcher.search(&mut pos, &limits, |info| {
                let pv = pv_san_from(&searched, &info.pv);
                let mut s = lock(&arc);
                if s.generation != generation {
                    return;
                }
                s.report.depth = info.depth;
                s.report.score = Some(info.score);
                s.report.nodes = info.nodes;
                s.report.pv = pv;
            });
            let pv = (r.depth > 0).then(|| pv_san_from(&searched, &r.pv));
            let mut s = lock(&arc);
            s.searching = false;
            // The searcher goes back unless the game changed to another variant meanwhile (then
            // the new game makes its own), or went to sleep or away (then it is freed).
            let keep = s.searcher.is_none()
                && !s.closed
                && !s.asleep
                && Arc::ptr_eq(&rules_at_start, s.game.rules());
            let spare = if keep {
                s.searcher = Some(searcher);
                None
            } else {
                Some(searcher)
            };
            if s.generation != generation {
                // The game changed meanwhile; perhaps the engine is to move in the new one.
                drop(s);
                drop(spare);
                maybe_start_engine(&arc, false);
                return;
            }
            let stopped = stop.load(Ordering::Relaxed);
            s.stop = None;
            if stopped && !s.play_when_stopped {
                s.paused = true;
                return;
            }
            s.report.nodes = r.nodes;
            if let Some(pv) = pv {
                s.report.depth = r.depth;
                s.report.score = Some(r.score);
                s.report.pv = pv;
            }
            // The time is charged, and the move refused when the engine's flag fell.
            s.check_flag();
            if let Some(mv) = r.best
                && s.game.play(mv).is_ok()
            {
                s.generation += 1;
            }
            drop(s);
            drop(spare);
            maybe_start_engine(&arc, false);
        });
    match spawned {
        Ok(handle) => {
            s.stop = Some(stop);
            s.searching = true;
            // The previous thread, if any, has handed its searcher back and is ending.
            s.thread = Some(handle);
        }
        // No thread to be had: the engine waits for `go` (the searcher was moved into the
        // closure that failed to start, so a new one is made next time).
        Err(_) => s.paused = true,
    }
}

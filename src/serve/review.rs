//! Game review: every position of the game searched to a fixed depth by a worker of its own
//! (one per game; a new review, a new game or a cancel stops it, and the new review's thread
//! waits for the one stopped to end; a third asked meanwhile is refused with 409), the
//! evaluation after each move, and the moves that lost the most marked.
//!
//! A move's loss is the fall of the evaluation from the mover's side between the position
//! before it and the one after it, each capped at ±[`CAP`] centipawns (so a mate found late is
//! not a blunder of thousands): [`INACCURACY`], [`MISTAKE`] and [`BLUNDER`] are the least
//! losses marked.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

use crate::geometry::Color;
use crate::moves::Move;
use crate::search::{Limits, Searcher};
use crate::session::Session;

use super::*;
use super::{analysis::white_cp, engine::lower_priority, table::*, worker::Worker};

/// The least loss, in centipawns, of an inaccuracy.
pub const INACCURACY: i64 = 50;
/// The least loss of a mistake.
pub const MISTAKE: i64 = 100;
/// The least loss of a blunder.
pub const BLUNDER: i64 = 300;
/// Evaluations are capped at this many centipawns either way before losses are taken.
pub const CAP: i64 = 1000;
/// The depth of each position's search when the request gives none.
pub const DEPTH: u32 = 6;

/// The review of a game.
#[derive(Default)]
pub(super) struct ReviewState {
    /// The moves reviewed.
    pub(super) moves: Vec<Move>,
    /// White's evaluation of each position, the start first, as far as searched.
    pub(super) evals: Vec<i64>,
    pub(super) depth: u32,
    /// The search behind it.
    pub(super) worker: Worker,
    /// Whether the latest review thread has seen the one before it end (and so works).
    pub(super) joined: Arc<AtomicBool>,
}

impl ReviewState {
    /// Stops the worker; with `forget`, the review goes too.
    pub(super) fn cancel(&mut self, forget: bool) {
        self.worker.halt();
        if forget {
            self.moves.clear();
            self.evals.clear();
        }
    }
}

/// What a loss makes of a move: `blunder`, `mistake`, `inaccuracy`, or nothing.
pub fn judge(loss: i64) -> Option<&'static str> {
    match loss {
        l if l >= BLUNDER => Some("blunder"),
        l if l >= MISTAKE => Some("mistake"),
        l if l >= INACCURACY => Some("inaccuracy"),
        _ => None,
    }
}

/// The review for the page: `total` moves, `done` of them evaluated, `points` (White's
/// evaluation after each move, in centipawns), and the marked moves (`ply` from 1).
pub(super) fn review_json(s: &Table) -> Value {
    let r = &s.review;
    if r.moves.is_empty() {
        return Value::Null;
    }
    let start = s.game.start_position().side();
    let cap = |v: i64| v.clamp(-CAP, CAP);
    let mut marks = Vec::new();
    for (i, w) in r.evals.windows(2).enumerate() {
        let white_moved = (i % 2 == 0) == (start == Color::White);
        let sign = if white_moved { 1 } else { -1 };
        let loss = sign * (cap(w[0]) - cap(w[1]));
        if let Some(kind) = judge(loss) {
            marks.push(json!({"ply": i + 1, "loss": loss, "kind": kind}));
        }
    }
    json!({
        "total": r.moves.len(),
        "done": r.evals.len().saturating_sub(1),
        "running": r.worker.stop.is_some(),
        "depth": r.depth,
        "points": r.evals.iter().skip(1).collect::<Vec<_>>(),
        "marks": marks,
        "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER},
    })
}

/// Starts (or, with `"off": true`, stops) the review of the game (`/api/review`:
/// `{sid, depth?, off?}`); the review before it, if any, is stopped and forgotten.
pub(super) fn review(arc: &Arc<Mutex<Table>>, body: &Value) -> Result<(), ApiError> {
    let mut s = lock(arc);
    if body.get("off") == Some(&Value::Bool(true)) {
        s.review.cancel(false);
        return Ok(());
    }
    let depth = match body.get("depth") {
        None | Some(Value::Null) => DEPTH,
        Some(v) => v
            .as_u64()
            .filter(|n| (1..=20).contains(n))
            .ok_or_else(|| bad("`depth` must be a whole number from 1 to 20"))?
            as u32,
    };
    if s.game.moves().is_empty() {
        return Err(bad("no moves to review"));
    }
    s.review.cancel(true);
    // A new review's thread waits for the one stopped to end; but where that one is itself
    // still waiting so, the request is refused: two review threads a game at most.
    if s.review
        .worker
        .thread
        .as_ref()
        .is_some_and(|t| !t.is_finished())
        && !s.review.joined.load(Ordering::Relaxed)
    {
        return Err(conflict(
            "the review before is still stopping: ask again in a moment",
        ));
    }
    let stop = Arc::new(AtomicBool::new(false));
    s.review.worker.stop = Some(stop.clone());
    s.review.moves = s.game.moves().to_vec();
    s.review.depth = depth;
    let generation = s.review.worker.generation;
    let rules = s.game.rules().clone();
    let mut pos = s.game.start_position().clone();
    let moves = s.review.moves.clone();
    let old = s.review.worker.thread.take();
    let joined = Arc::new(AtomicBool::new(old.is_none()));
    s.review.joined = joined.clone();
    let arc2 = arc.clone();
    let spawned = std::thread::Builder::new()
        .name("review".into())
        .spawn(move || {
            if let Some(t) = old {
                let _ = t.join();
            }
            joined.store(true, Ordering::Relaxed);
            lower_priority();
            let mut searcher = Searcher::new(&rules, HASH_MB / 2);
            searcher.set_stop_flag(stop.clone());
            for ply in 0..=moves.len() {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let side = pos.side();
                let mut at = Session::from_position(pos.clone());
                let cp = if at.legal_moves().is_empty() {
                    // No move: mated (lost), or whatever the game says it is.
                    match at.verdict().map(|v| v.result.pgn()) {
                        Some("1-0") => 100_000,
                        Some("0-1") => -100_000,
                        _ => 0,
                    }
                } else {
                    let mut score = None;
                    searcher.search(&mut pos, &Limits::depth(depth), |info| {
                        score = Some(info.score);
                    });
                    score.map_or(0, |sc| white_cp(sc, side))
                };
                let mut s = lock(&arc2);
                if s.review.worker.generation != generation {
                    s.freed.store(true, Ordering::Relaxed);
                    return;
                }
                s.review.evals.push(cp);
                drop(s);
                if let Some(&m) = moves.get(ply) {
                    pos.make(m);
                }
            }
            let mut s = lock(&arc2);
            if s.review.worker.generation == generation {
                s.review.worker.stop = None;
            }
            s.freed.store(true, Ordering::Relaxed);
        });
    match spawned {
        Ok(h) => s.review.worker.thread = Some(h),
        Err(_) => s.review.cancel(true),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn losses_are_judged_by_the_thresholds() {
        assert_eq!(judge(49), None);
        assert_eq!(judge(50), Some("inaccuracy"));
        assert_eq!(judge(100), Some("mistake"));
        assert_eq!(judge(299), Some("mistake"));
        assert_eq!(judge(300), Some("blunder"));
    }
}

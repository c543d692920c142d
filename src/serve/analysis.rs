//! Analysis lines for the page: the best few moves of a position, each with its score and
//! principal variation, found by the engine's MultiPV search on a thread of their own; the
//! analysis a game keeps, the request that starts it (`/api/analyse`) and its JSON.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

use crate::geometry::Color;
use crate::moves::Move;
use crate::position::{Position, Ruleset};
use crate::search::{Info, Limits, Score, Searcher};
use crate::session::Session;

use super::*;
use super::{engine::*, state::*, table::*, worker::Worker};

/// Lines shown by default.
pub const LINES: usize = 3;
/// The deepest analysis when no depth is asked for.
pub const MAX_DEPTH: u32 = 64;
/// How long a game's analysis worker waits for new work before it ends (and frees its
/// engine).
pub const WORKER_IDLE: Duration = Duration::from_secs(5);

/// Searches `pos` for its best `n` lines, calling `on_line(line, info)` (line 1-based, best
/// first) for every line of every finished iteration. Stops at `limits.depth` (else
/// [`MAX_DEPTH`]), at the other limits, or when `stop` (the searcher's stop flag) is raised.
pub fn search_lines(
    searcher: &mut Searcher,
    pos: &mut Position,
    limits: &Limits,
    n: usize,
    stop: &AtomicBool,
    mut on_line: impl FnMut(usize, &Info),
) {
    let limits = Limits {
        depth: Some(limits.depth.unwrap_or(MAX_DEPTH)),
        ..*limits
    };
    searcher.set_multipv(n);
    searcher.search(pos, &limits, |info| {
        if !stop.load(Ordering::Relaxed) {
            on_line(info.multipv, info);
        }
    });
    searcher.set_multipv(1);
}

/// One analysis line, from the analysed position's side to move.
#[derive(Clone, Debug)]
pub(super) struct LineReport {
    pub(super) depth: u32,
    pub(super) score: Score,
    pub(super) pv: Vec<Move>,
}

/// The analysis of one position of the game.
#[derive(Default)]
pub(super) struct AnalysisState {
    /// The ply analysed (0: the start position).
    pub(super) ply: Option<usize>,
    /// The lines shown: a whole set, all of one depth.
    pub(super) lines: Vec<LineReport>,
    /// The lines of the depth being searched, shown once all [`AnalysisState::want`] are in.
    pub(super) pending: Vec<LineReport>,
    /// How many lines make a whole set: those asked for, or fewer when the position has
    /// fewer legal moves.
    pub(super) want: usize,
    /// The search behind it.
    pub(super) worker: Worker,
    /// The position handed to the worker, until it takes it.
    pub(super) job: Option<Job>,
    /// Wakes the worker when a job is handed to it or the game goes.
    pub(super) wake: Arc<Condvar>,
    /// Whether the game's worker thread is running (it takes every new job: one a game).
    pub(super) alive: bool,
}

/// A position handed to the game's analysis worker.
pub(super) struct Job {
    rules: Arc<Ruleset>,
    pos: Position,
    limits: Limits,
    lines: usize,
    stop: Arc<AtomicBool>,
    generation: u64,
}

impl AnalysisState {
    /// Stops the analysis and forgets it.
    pub(super) fn cancel(&mut self) {
        self.worker.halt();
        self.job = None;
        self.ply = None;
        self.lines.clear();
        self.pending.clear();
    }
}

/// A score from White's side, for the evaluation bar: centipawns (mates as ±100000).
pub(super) fn white_cp(score: Score, side: Color) -> i64 {
    let cp = match score {
        Score::Cp(c) => c as i64,
        Score::Mate(m) if m > 0 => 100_000 - m as i64,
        Score::Mate(m) => -100_000 - m as i64,
    };
    if side == Color::White { cp } else { -cp }
}

/// The analysis for the page: the ply analysed and its lines, scores from White's side.
pub(super) fn analysis_json(s: &Table) -> Value {
    let Some((ply, pos)) = s
        .analysis
        .ply
        .and_then(|ply| Some((ply, s.game.position_at(ply)?)))
    else {
        return Value::Null;
    };
    let g = pos.rules().geometry;
    let side = pos.side();
    let at = Session::from_position(pos);
    let lines: Vec<Value> = s
        .analysis
        .lines
        .iter()
        .map(|l| {
            let white = if side == Color::White {
                l.score
            } else {
                negate(l.score)
            };
            json!({
                "depth": l.depth,
                "score": score_text(white),
                "cp": white_cp(l.score, side),
                "pv": pv_san(&at, &l.pv),
                "from": l.pv.first().map(|m| sq_name(g, m.from)),
                "to": l.pv.first().map(|m| sq_name(g, m.to)),
            })
        })
        .collect();
    json!({"ply": ply, "running": s.analysis.worker.stop.is_some(), "lines": lines})
}

/// Starts (or, with `"off": true`, stops) the analysis of a position of the game
/// (`/api/analyse`: `{sid, ply?, lines?, depth?, off?}`; the ply defaults to the current one).
pub(super) fn analyse(arc: &Arc<Mutex<Table>>, body: &Value) -> Result<(), ApiError> {
    let mut s = lock(arc);
    s.analysis.cancel();
    if body.get("off") == Some(&Value::Bool(true)) {
        return Ok(());
    }
    let plies = s.game.moves().len();
    let number = |key: &str, max: u64, default: u64| -> Result<u64, ApiError> {
        match body.get(key) {
            None | Some(Value::Null) => Ok(default),
            Some(v) => v
                .as_u64()
                .filter(|n| (1..=max).contains(n))
                .ok_or_else(|| bad(format!("`{key}` must be a whole number from 1 to {max}"))),
        }
    };
    let ply = match body.get("ply") {
        None | Some(Value::Null) => plies,
        Some(v) => v
            .as_u64()
            .filter(|&p| p as usize <= plies)
            .ok_or_else(|| bad(format!("`ply` must be a whole number from 0 to {plies}")))?
            as usize,
    };
    let lines = number("lines", 5, analysis::LINES as u64)? as usize;
    // Without a depth, an analysis runs for [`ANALYSIS_TIME`] (or until stopped).
    let depth = match body.get("depth") {
        None | Some(Value::Null) => None,
        Some(_) => Some(number("depth", analysis::MAX_DEPTH as u64, 1)? as u32),
    };
    let pos = s
        .game
        .position_at(ply)
        .ok_or_else(|| bad(format!("`ply` must be a whole number from 0 to {plies}")))?;
    let legal = Session::from_position(pos.clone()).legal_moves().len();
    s.analysis.want = lines.min(legal).max(1);
    let stop = Arc::new(AtomicBool::new(false));
    s.analysis.ply = Some(ply);
    s.analysis.worker.stop = Some(stop.clone());
    let generation = s.analysis.worker.generation;
    let limits = Limits {
        depth,
        movetime: depth.is_none().then_some(ANALYSIS_TIME),
        ..Limits::default()
    };
    s.analysis.job = Some(Job {
        rules: s.game.rules().clone(),
        pos,
        limits,
        lines,
        stop,
        generation,
    });
    // The game's worker, if it runs, takes the job as soon as the search it is on stops (its
    // flag was raised above): one analysis thread a game, however many requests.
    if s.analysis.alive {
        s.analysis.wake.notify_all();
        return Ok(());
    }
    // A worker that ended has no more to say; its handle goes.
    drop(s.analysis.worker.thread.take());
    let wake = s.analysis.wake.clone();
    let arc2 = arc.clone();
    let spawned = std::thread::Builder::new()
        .name("analysis".into())
        .spawn(move || work(&arc2, &wake));
    match spawned {
        Ok(h) => {
            s.analysis.alive = true;
            s.analysis.worker.thread = Some(h);
        }
        Err(_) => s.analysis.cancel(),
    }
    Ok(())
}

/// A game's analysis worker: takes the job handed to it, searches it (stopped by its flag),
/// and waits for the next one; ends once the game goes or after [`WORKER_IDLE`] without work.
fn work(arc: &Arc<Mutex<Table>>, wake: &Condvar) {
    lower_priority();
    let mut engine: Option<(Arc<Ruleset>, Searcher)> = None;
    loop {
        let mut job = {
            let mut s = lock(arc);
            loop {
                if s.closed {
                    s.analysis.alive = false;
                    s.freed.store(true, Ordering::Relaxed);
                    return;
                }
                if let Some(j) = s.analysis.job.take() {
                    break j;
                }
                let (g, waited) = wake
                    .wait_timeout(s, WORKER_IDLE)
                    .unwrap_or_else(|e| e.into_inner());
                s = g;
                if waited.timed_out() && s.analysis.job.is_none() {
                    s.analysis.alive = false;
                    s.freed.store(true, Ordering::Relaxed);
                    return;
                }
            }
        };
        if job.stop.load(Ordering::Relaxed) {
            continue;
        }
        // The engine is kept from job to job of the same rules.
        if !engine
            .as_ref()
            .is_some_and(|(r, _)| Arc::ptr_eq(r, &job.rules))
        {
            // The old engine's memory goes before the new one's is taken.
            drop(engine.take());
            engine = Some((job.rules.clone(), Searcher::new(&job.rules, HASH_MB / 2)));
        }
        let Some((_, searcher)) = engine.as_mut() else {
            continue;
        };
        searcher.set_stop_flag(job.stop.clone());
        let generation = job.generation;
        search_lines(
            searcher,
            &mut job.pos,
            &job.limits,
            job.lines,
            &job.stop,
            |k, info| {
                let mut s = lock(arc);
                if s.analysis.worker.generation != generation {
                    return;
                }
                let line = LineReport {
                    depth: info.depth,
                    score: info.score,
                    pv: info.pv.clone(),
                };
                // A deeper iteration's lines replace the shallower ones when all are in, so
                // that the page always shows the same number of lines, all of one depth.
                let a = &mut s.analysis;
                if k == 1 && !a.pending.is_empty() {
                    // The iteration before ranked fewer lines than counted (the search had
                    // fewer moves to rank): that many make a set.
                    a.want = a.pending.len();
                    a.lines = std::mem::take(&mut a.pending);
                }
                if k == a.pending.len() + 1 {
                    a.pending.push(line);
                }
                if a.pending.len() >= a.want {
                    a.lines = std::mem::take(&mut a.pending);
                }
            },
        );
        let mut s = lock(arc);
        if s.analysis.worker.generation == generation {
            s.analysis.worker.stop = None;
            // Lines of a search that ended before any set was whole are better than none.
            if s.analysis.lines.is_empty() {
                s.analysis.lines = std::mem::take(&mut s.analysis.pending);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Ruleset;
    use crate::variant::Variant;

    #[test]
    fn three_lines_best_first_with_different_first_moves() {
        let v = Variant::load("chess").unwrap();
        let rules = Ruleset::new(&v, None).unwrap();
        // White to move wins the Queen with Rxd8 (or Qxd8): those lead.
        let mut pos =
            Position::from_fen(&rules, "3q2k1/5ppp/8/8/8/8/5PPP/3RQ1K1 w - - 0 1").unwrap();
        let mut searcher = Searcher::new(&rules, 1);
        let stop = AtomicBool::new(false);
        let mut last: Vec<(usize, u32, Info)> = Vec::new();
        search_lines(
            &mut searcher,
            &mut pos,
            &Limits::depth(3),
            3,
            &stop,
            |k, info| {
                last.push((k, info.depth, info.clone()));
            },
        );
        let deepest = last.iter().map(|l| l.1).max().unwrap();
        let lines: Vec<&Info> = last
            .iter()
            .filter(|l| l.1 == deepest)
            .map(|l| &l.2)
            .collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(
            lines.iter().map(|l| l.multipv).collect::<Vec<_>>(),
            [1, 2, 3]
        );
        let firsts: std::collections::HashSet<_> = lines.iter().map(|l| l.pv[0]).collect();
        assert_eq!(firsts.len(), 3, "three different first moves");
        assert_eq!(searcher.multipv(), 1, "one line again afterwards");
    }
}

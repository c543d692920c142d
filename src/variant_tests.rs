//! Running a variant file's `[[test]]` tables: each position's perft counts, legal moves and
//! verdict compared with the numbers the file gives (which come from other programs), for
//! `polymachy check` and the test suite.
//!
//! The tests describe the file's default start (no setup choice): run them with a ruleset
//! compiled without one.

use std::sync::Arc;

use crate::moves::MoveList;
use crate::perft::Perft;
use crate::position::{Outcome, Termination};
use crate::position::{Position, Ruleset};
use crate::variant::VariantTest;

/// One comparison of a test: what was compared, what the file says, what the engine gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// `perft 3`, `moves`, `result` or `ending`.
    pub what: String,
    /// The file's value.
    pub expected: String,
    /// The engine's.
    pub got: String,
    /// Whether they agree.
    pub pass: bool,
    /// For `moves`, the moves the engine lists that the file does not, and those the file
    /// lists that the engine does not (as written there).
    pub extra: Vec<String>,
    /// See [`Comparison::extra`].
    pub missing: Vec<String>,
}

/// What one test gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestReport {
    /// The test's index in the file, from 0.
    pub index: usize,
    /// Its name.
    pub name: String,
    /// Where its numbers come from.
    pub source: String,
    /// Its comparisons, in order: perft by depth, moves, result, ending.
    pub comparisons: Vec<Comparison>,
    /// The perft depths not run, because their count is over the node budget.
    pub skipped: Vec<u32>,
    /// The FEN cannot be read (the test then compares nothing).
    pub error: Option<String>,
}

impl TestReport {
    /// Whether the test passed (its FEN read and every comparison agreed; skipped depths do
    /// not fail it).
    pub fn passed(&self) -> bool {
        self.error.is_none() && self.comparisons.iter().all(|c| c.pass)
    }

    /// The depths of `perft` comparisons that failed.
    pub fn failed_depths(&self) -> Vec<u32> {
        self.comparisons
            .iter()
            .filter(|c| !c.pass)
            .filter_map(|c| c.what.strip_prefix("perft ")?.parse().ok())
            .collect()
    }

    /// One line: `ok    test "NAME": ...` or `FAIL  test "NAME": ...`, each comparison with
    /// the file's value and, where it differs, the engine's.
    pub fn line(&self) -> String {
        let mark = if self.passed() { "ok  " } else { "FAIL" };
        let mut parts: Vec<String> = Vec::new();
        if let Some(e) = &self.error {
            parts.push(format!("FEN: {e}"));
        }
        // Passing perft depths in one run: `perft 1-3 20 400 8902`.
        let perfts: Vec<&Comparison> = self
            .comparisons
            .iter()
            .filter(|c| c.what.starts_with("perft "))
            .collect();
        let ok: Vec<&&Comparison> = perfts.iter().filter(|c| c.pass).collect();
        if !ok.is_empty() {
            let depths: Vec<u32> = ok
                .iter()
                .filter_map(|c| c.what["perft ".len()..].parse().ok())
                .collect();
            let contiguous = depths.windows(2).all(|w| w[1] == w[0] + 1);
            let range = if depths.len() == 1 {
                depths[0].to_string()
            } else if contiguous {
                format!("{}-{}", depths[0], depths[depths.len() - 1])
            } else {
                let d: Vec<String> = depths.iter().map(|d| d.to_string()).collect();
                d.join(",")
            };
            let counts: Vec<&str> = ok.iter().map(|c| c.got.as_str()).collect();
            parts.push(format!("perft {range} {}", counts.join(" ")));
        }
        for c in perfts.iter().filter(|c| !c.pass) {
            parts.push(format!("{} expected {}, got {}", c.what, c.expected, c.got));
        }
        if !self.skipped.is_empty() {
            let d: Vec<String> = self.skipped.iter().map(|d| d.to_string()).collect();
            parts.push(format!(
                "perft {} skipped (over the node budget)",
                d.join(",")
            ));
        }
        for c in self
            .comparisons
            .iter()
            .filter(|c| !c.what.starts_with("perft "))
        {
            if c.pass {
                parts.push(format!("{} {}", c.what, c.got));
                continue;
            }
            let mut s = format!("{} expected {}, got {}", c.what, c.expected, c.got);
            if !c.extra.is_empty() {
                s.push_str(&format!(" (not in the file: {})", c.extra.join(" ")));
            }
            if !c.missing.is_empty() {
                s.push_str(&format!(" (not legal here: {})", c.missing.join(" ")));
            }
            parts.push(s);
        }
        format!("{mark}  test \"{}\": {}", self.name, parts.join("; "))
    }
}

/// The FEN problems of the tests of `rules`' variant, each located at the test's `fen`
/// (`file:line:column: test "NAME": the FEN: ...`); empty when every FEN reads.
pub fn fen_errors(rules: &Arc<Ruleset>) -> Vec<String> {
    let v = &rules.variant;
    let mut out = Vec::new();
    for (i, t) in v.tests.iter().enumerate() {
        let Some(fen) = &t.fen else { continue };
        if let Err(e) = Position::from_fen(rules, fen) {
            let at = v.locations.tests.get(i).and_then(|l| l.fen);
            out.push(format!(
                "{}test \"{}\": the FEN is not a position of this variant: {}\n  hint: give a legal position of {} (or leave `fen` out for the start position)",
                v.locations.prefix(at),
                t.name,
                e.messages().join("; "),
                v.title
            ));
        }
    }
    out
}

/// How an ending is named in a test: `checkmate`, `stalemate`, `repetition`, `move-limit`,
/// `counting`, or a rule's own ending in its words made a name (`Bare King`: `bare-king`).
pub fn ending_name(o: Option<Outcome>) -> String {
    match o.map(|o| o.reason) {
        None => "none".into(),
        Some(Termination::Checkmate) => "checkmate".into(),
        Some(Termination::Stalemate) => "stalemate".into(),
        Some(Termination::Repetition | Termination::RepetitionLoss) => "repetition".into(),
        Some(Termination::MoveLimit) => "move-limit".into(),
        Some(Termination::Counting) => "counting".into(),
        Some(Termination::Rule(w)) => w.to_ascii_lowercase().replace(' ', "-"),
    }
}

/// Runs test `index` of `rules`' variant. Perft depths whose expected count is over `budget`
/// nodes are skipped (listed in [`TestReport::skipped`]); `None` runs them all.
pub fn run(rules: &Arc<Ruleset>, index: usize, budget: Option<u64>) -> TestReport {
    let t: &VariantTest = &rules.variant.tests[index];
    let mut report = TestReport {
        index,
        name: t.name.clone(),
        source: t.source.clone(),
        comparisons: Vec::new(),
        skipped: Vec::new(),
        error: None,
    };
    let mut pos = match &t.fen {
        None => Position::start(rules),
        Some(f) => match Position::from_fen(rules, f) {
            Ok(p) => p,
            Err(e) => {
                report.error = Some(e.messages().join("; "));
                return report;
            }
        },
    };
    let mut perft = Perft::new();
    for (i, &expected) in t.perft.iter().enumerate() {
        let depth = i as u32 + 1;
        if budget.is_some_and(|b| expected > b) {
            report.skipped.push(depth);
            continue;
        }
        let got = perft.count(&mut pos, depth);
        report.comparisons.push(Comparison {
            what: format!("perft {depth}"),
            expected: expected.to_string(),
            got: got.to_string(),
            pass: got == expected,
            extra: Vec::new(),
            missing: Vec::new(),
        });
    }
    if let Some(expected) = &t.moves {
        report.comparisons.push(compare_moves(&mut pos, expected));
    }
    if t.result.is_some() || t.ending.is_some() {
        let verdict = pos.verdict();
        if let Some(r) = &t.result {
            let got = verdict.map_or("*", |o| o.result.pgn()).to_string();
            report.comparisons.push(plain("result", r, got));
        }
        if let Some(e) = &t.ending {
            report
                .comparisons
                .push(plain("ending", e, ending_name(verdict)));
        }
    }
    report
}

fn plain(what: &str, expected: &str, got: String) -> Comparison {
    Comparison {
        what: what.into(),
        expected: expected.into(),
        pass: got == expected,
        got,
        extra: Vec::new(),
        missing: Vec::new(),
    }
}

/// The legal moves of `pos` (none where a rule has ended the game, as perft counts them)
/// against the file's list, each move of the list read as the engine reads a typed move.
fn compare_moves(pos: &mut Position, expected: &[String]) -> Comparison {
    let rules = pos.rules().clone();
    let mut list = MoveList::new();
    if pos.final_ending().is_none() {
        pos.legal_moves(&mut list);
    }
    let got: std::collections::BTreeSet<String> = list
        .iter()
        .map(|&m| crate::text::coord(&rules, m))
        .collect();
    let mut named = std::collections::BTreeSet::new();
    let mut missing = Vec::new();
    for m in expected {
        let as_listed = if got.contains(m.as_str()) {
            Some(m.clone())
        } else if list.is_empty() {
            None
        } else {
            crate::text::san::parse_move(pos, m)
                .ok()
                .map(|mv| crate::text::coord(&rules, mv))
        };
        match as_listed {
            Some(c) => {
                named.insert(c);
            }
            None => missing.push(m.clone()),
        }
    }
    let extra: Vec<String> = got.difference(&named).cloned().collect();
    let count = named.len() + missing.len();
    Comparison {
        what: "moves".into(),
        expected: count.to_string(),
        got: got.len().to_string(),
        pass: extra.is_empty() && missing.is_empty(),
        extra,
        missing,
    }
}

/// Runs every test of `rules`' variant (see [`run`]).
pub fn run_all(rules: &Arc<Ruleset>, budget: Option<u64>) -> Vec<TestReport> {
    (0..rules.variant.tests.len())
        .map(|i| run(rules, i, budget))
        .collect()
}

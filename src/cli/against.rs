//! `check --against fairy-stockfish[:VARIANT]`: the legal moves of many positions compared
//! with another engine's (Fairy-Stockfish's `go perft 1`, over UCI).
//!
//! With `:VARIANT` the engine plays one of its built-in games (`fairy-stockfish:courier`:
//! where does this file differ from the Courier chess that engine knows?); without it, the
//! file's own `export --fsf` section is loaded into it (where does the engine read the rules
//! otherwise?). The positions: those along random games from the start, and short random
//! games from random positions (`--cases`, `--plies`, `--seed`, as for the invariants). A
//! position whose game a rule has ended at once (a bare King, a goal reached) has no legal
//! move, as in Fairy-Stockfish.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use proptest::strategy::{Strategy, ValueTree};

use super::UserError;
use crate::moves::MoveList;
use crate::position::{Position, Ruleset};
use crate::referee::engine::{EngineProc, EngineSpec, Protocol};
use crate::selfplay::Rng;

/// One position where the two lists differ.
#[derive(Debug)]
pub struct Difference {
    /// The position.
    pub fen: String,
    /// Moves only Polymachy lists.
    pub only_here: Vec<String>,
    /// Moves only the other engine lists.
    pub only_there: Vec<String>,
}

/// What the comparison found.
#[derive(Debug)]
pub struct Comparison {
    /// How the other side was named (`fairy-stockfish:courier`).
    pub against: String,
    /// Positions compared.
    pub positions: usize,
    /// Where the lists differ (all of them).
    pub differences: Vec<Difference>,
    /// What the export to the engine leaves out (a comparison with the file's own section).
    pub gaps: Vec<String>,
}

/// A program named without a folder: found on the `PATH`, or in `/usr/games` where Debian puts
/// Fairy-Stockfish.
fn find(program: &str) -> PathBuf {
    if program.contains('/') {
        return PathBuf::from(program);
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/games")])
        .map(|d| d.join(program))
        .find(|p| p.is_file())
        .unwrap_or_else(|| PathBuf::from(program))
}

/// Never set: nothing stops a comparison but its end.
static NEVER: AtomicBool = AtomicBool::new(false);

/// How long the engine may take to list one position's moves.
const PER_POSITION: Duration = Duration::from_secs(30);

/// Starts `program` (a shell word: a path with spaces is quoted) as a UCI engine.
fn start(program: &str) -> Result<EngineProc, UserError> {
    let path = find(program).display().to_string();
    let spec = EngineSpec {
        cmd: format!("'{}'", path.replace('\'', "'\\''")),
        protocol: Some(Protocol::Uci),
        options: Vec::new(),
        interrupt: &NEVER,
        limit: None,
    };
    EngineProc::start(&spec).map_err(|e| {
        UserError(format!(
            "cannot start `{program}`: {e} (install Fairy-Stockfish, or name its path: --against /path/to/fairy-stockfish:VARIANT)"
        ))
    })
}

/// The engine's legal moves in `fen` (its `go perft 1`), sorted.
fn their_moves(engine: &mut EngineProc, fen: &str) -> Result<Vec<String>, UserError> {
    let position = format!("position fen {fen}");
    let lines = engine
        .exchange(
            &[&position, "go perft 1"],
            |l| l.starts_with("Nodes searched"),
            PER_POSITION,
        )
        .map_err(|e| UserError(format!("the engine, listing the moves of {fen}: {e}")))?;
    let mut moves: Vec<String> = lines
        .iter()
        .filter_map(|l| l.strip_suffix(": 1"))
        .map(str::to_string)
        .collect();
    moves.sort();
    Ok(moves)
}

/// Polymachy's legal moves in `pos`, sorted (none where a rule ended the game at once).
fn our_moves(rules: &Ruleset, pos: &mut Position) -> Vec<String> {
    if pos.final_ending().is_some() {
        return Vec::new();
    }
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut moves: Vec<String> = list
        .iter()
        .map(|&m| crate::session::coord(rules, m))
        .collect();
    moves.sort();
    moves
}

/// Plays a random game of up to `plies` from `pos`, handing each position to `visit`.
fn walk(mut pos: Position, plies: usize, rng: &mut Rng, visit: &mut impl FnMut(&mut Position)) {
    let mut list = MoveList::new();
    for _ in 0..=plies {
        visit(&mut pos);
        if pos.final_ending().is_some() {
            return;
        }
        pos.legal_moves(&mut list);
        if list.is_empty() {
            return;
        }
        let mv = list.as_slice()[rng.below(list.len())];
        pos.make(mv);
        if crate::testing::ended_in_check(&pos) {
            return;
        }
    }
}

/// Compares the legal moves of `rules` with the engine `spec` names
/// (`PROGRAM[:VARIANT]`).
pub fn compare(
    rules: &Arc<Ruleset>,
    spec: &str,
    cases: u32,
    plies: usize,
    seed: u64,
) -> Result<Comparison, UserError> {
    let (program, variant) = match spec.split_once(':') {
        Some((p, v)) if !v.is_empty() => (p, Some(v)),
        _ => (spec.trim_end_matches(':'), None),
    };
    let mut engine = start(program)?;
    let unknown = |name: &str, why: String| {
        UserError(format!(
            "`{program}` does not play a variant named `{name}` ({why})"
        ))
    };
    let mut gaps = Vec::new();
    // The file's own section, written where the engine can read it, for as long as it runs.
    let mut _ini = None;
    match variant {
        Some(v) => engine.select_variant(v, None).map_err(|e| unknown(v, e))?,
        None => {
            let name = format!("pm-{}", rules.variant.id);
            let export = crate::export::fsf(rules, &name);
            gaps = export.gaps.clone();
            if export.custom_pieces {
                gaps.push(
                    "nothing, but defines custom pieces, which Fairy-Stockfish reads from \
                     version 12 on: an older one plays its own pieces instead"
                        .into(),
                );
            }
            let path = std::env::temp_dir().join(format!(
                "polymachy-against-{}-{name}.ini",
                std::process::id()
            ));
            std::fs::write(&path, &export.text)
                .map_err(|e| UserError(format!("cannot write {}: {e}", path.display())))?;
            _ini = Some(TempFile(path.clone()));
            let load = format!("setoption name VariantPath value {}", path.display());
            let select = format!("setoption name UCI_Variant value {name}");
            let said = engine
                .exchange(
                    &[&load, &select, "isready"],
                    |l| l == "readyok",
                    PER_POSITION,
                )
                .map_err(|e| unknown(&name, e.to_string()))?;
            // Fairy-Stockfish names the variant it set up; without that line it did not
            // read the section.
            let set_up = format!("info string variant {name} ");
            if !said.iter().any(|l| l.starts_with(&set_up)) {
                return Err(unknown(&name, "the exported section was not read".into()));
            }
        }
    }
    let mut fens: Vec<String> = Vec::new();
    let mut rng = Rng::new(seed);
    for _ in 0..cases {
        walk(Position::start(rules), plies, &mut rng, &mut |p| {
            fens.push(p.fen());
        });
    }
    let strategy = crate::testing::random_position_strategy(rules.clone(), 10);
    let mut runner = crate::testing::seeded_runner(cases, seed);
    for _ in 0..cases {
        if let Ok(tree) = strategy.new_tree(&mut runner) {
            walk(tree.current(), plies / 4, &mut rng, &mut |p| {
                fens.push(p.fen());
            });
        }
    }
    fens.sort();
    fens.dedup();
    // Pieces written `N'` go by the letters of the section in what the engine reads and
    // writes; the engine's own games have none.
    let letters = crate::export::letters(&rules.variant);
    let theirs = |text: &str| rules.variant.with_stand_ins(text, &letters);
    let mut differences = Vec::new();
    for fen in &fens {
        let mut pos = Position::from_fen(rules, fen).map_err(|e| UserError(e.to_string()))?;
        let mut here: Vec<String> = our_moves(rules, &mut pos)
            .iter()
            .map(|m| theirs(m))
            .collect();
        here.sort();
        let there = their_moves(&mut engine, &theirs(fen))?;
        if here != there {
            differences.push(Difference {
                fen: fen.clone(),
                only_here: here
                    .iter()
                    .filter(|m| !there.contains(m))
                    .cloned()
                    .collect(),
                only_there: there
                    .iter()
                    .filter(|m| !here.contains(m))
                    .cloned()
                    .collect(),
            });
        }
    }
    Ok(Comparison {
        against: spec.to_string(),
        positions: fens.len(),
        differences,
        gaps,
    })
}

/// A file removed when dropped.
struct TempFile(PathBuf);

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The comparison as `check` prints it: `ok    against …` or `FAIL  against …` with the
/// first differences (at most 5), and a note of what the export left out.
pub fn render(c: &Comparison) -> String {
    let mut out = String::new();
    for g in &c.gaps {
        out.push_str(&format!(
            "note  against {}: the export leaves out {g}\n",
            c.against
        ));
    }
    if c.differences.is_empty() {
        out.push_str(&format!(
            "ok    against {}  the same legal moves in {} positions\n",
            c.against, c.positions
        ));
        return out;
    }
    out.push_str(&format!(
        "FAIL  against {}  the legal moves differ in {} of {} positions\n",
        c.against,
        c.differences.len(),
        c.positions
    ));
    for d in c.differences.iter().take(5) {
        out.push_str(&format!("      {}\n", d.fen));
        if !d.only_here.is_empty() {
            out.push_str(&format!(
                "        only Polymachy's: {}\n",
                d.only_here.join(" ")
            ));
        }
        if !d.only_there.is_empty() {
            out.push_str(&format!(
                "        only the other engine's: {}\n",
                d.only_there.join(" ")
            ));
        }
    }
    out
}

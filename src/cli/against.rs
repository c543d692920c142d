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

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Arc;

use proptest::strategy::{Strategy, ValueTree};

use super::UserError;
use crate::moves::MoveList;
use crate::position::{Position, Ruleset};
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

/// The other engine over UCI.
struct Engine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Engine {
    fn start(program: &str) -> Result<Engine, UserError> {
        let mut child = Command::new(find(program))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| {
                UserError(format!(
                    "cannot start `{program}`: {e} (install Fairy-Stockfish, or name its path: --against /path/to/fairy-stockfish:VARIANT)"
                ))
            })?;
        let input = child.stdin.take().expect("piped");
        let output = BufReader::new(child.stdout.take().expect("piped"));
        let mut e = Engine {
            child,
            input,
            output,
        };
        e.send("uci")?;
        e.until(|l| l == "uciok")?;
        Ok(e)
    }

    fn send(&mut self, line: &str) -> Result<(), UserError> {
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|e| UserError(format!("the engine stopped reading: {e}")))
    }

    /// Reads lines until `end` accepts one; the lines before it.
    fn until(&mut self, end: impl Fn(&str) -> bool) -> Result<Vec<String>, UserError> {
        let mut lines = Vec::new();
        loop {
            let mut l = String::new();
            match self.output.read_line(&mut l) {
                Ok(0) | Err(_) => {
                    return Err(UserError("the engine ended before it answered".into()));
                }
                Ok(_) => {}
            }
            let l = l.trim_end();
            if end(l) {
                return Ok(lines);
            }
            lines.push(l.to_string());
        }
    }

    /// The engine's legal moves in `fen`, sorted.
    fn moves(&mut self, fen: &str) -> Result<Vec<String>, UserError> {
        self.send(&format!("position fen {fen}"))?;
        self.send("go perft 1")?;
        let lines = self.until(|l| l.starts_with("Nodes searched"))?;
        let mut moves: Vec<String> = lines
            .iter()
            .filter_map(|l| l.strip_suffix(": 1"))
            .map(str::to_string)
            .collect();
        moves.sort();
        Ok(moves)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
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
    let mut engine = Engine::start(program)?;
    let mut gaps = Vec::new();
    // The file's own section, written where the engine can read it, for as long as it runs.
    let mut _ini = None;
    let name = match variant {
        Some(v) => v.to_string(),
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
            engine.send(&format!(
                "setoption name VariantPath value {}",
                path.display()
            ))?;
            _ini = Some(TempFile(path));
            name
        }
    };
    engine.send(&format!("setoption name UCI_Variant value {name}"))?;
    engine.send("isready")?;
    let said = engine.until(|l| l == "readyok")?;
    // Fairy-Stockfish names the variant it set up; without that line it did not know it.
    if !said
        .iter()
        .any(|l| l.starts_with(&format!("info string variant {name} ")))
    {
        return Err(UserError(format!(
            "`{program}` does not play a variant named `{name}`"
        )));
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
    let mut differences = Vec::new();
    for fen in &fens {
        let mut pos = Position::from_fen(rules, fen).map_err(|e| UserError(e.to_string()))?;
        let here = our_moves(rules, &mut pos);
        let there = engine.moves(fen)?;
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

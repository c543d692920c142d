//! `polymachy tune`: fits a variant's piece values and the weights of its evaluation's
//! positional terms to the results of games and writes them as an `[eval]` table (see
//! [`crate::tune`]).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;

use super::{UserError, VariantArgs, load_rules};
use crate::position::Ruleset;
use crate::session::{Record, Session, parse_pgn};
use crate::tune::{self, Fit, PlayConfig, Sample};
use crate::variant::{EvalTable, Term};

/// Arguments of `tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// The variant and setup.
    #[command(flatten)]
    pub v: VariantArgs,
    /// Read the games from this PGN file instead of playing them
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Self-play games to play
    #[arg(long, default_value_t = 200)]
    pub games: u32,
    /// Nodes per move in self-play
    #[arg(long, default_value_t = 3000)]
    pub nodes: u64,
    /// Random plies at the start of each self-play game (not used as samples)
    #[arg(long, default_value_t = 8)]
    pub opening_plies: u32,
    /// Plies after which a self-play game is stopped and counted a draw
    #[arg(long, default_value_t = 300)]
    pub max_plies: u32,
    /// Seed of the random openings
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Self-play games played at once, one core each (default: every core); the games are
    /// the same whatever the number
    #[arg(long, short = 'j', value_name = "N")]
    pub jobs: Option<usize>,
    /// Adjudicate a self-play game won once 8 searches in a row give one side at least this
    /// many centipawns or a mate (0: play every game out)
    #[arg(long, default_value_t = 1000, value_name = "CP")]
    pub adjudicate: i32,
    /// Take one piece whose value is fitted off each side after the opening (a kind drawn at
    /// random for each): games from such imbalances teach the values far sooner than level
    /// games, which on large boards seldom decide anything by material
    #[arg(long)]
    pub handicap: bool,
    /// Weight of the prior that holds values near their current ones (per squared pawn), or
    /// `auto`: the weight of 0.0001 to 0.1 whose fits best predict held-out games
    #[arg(
        long,
        default_value = "0.0005",
        value_parser = parse_lambda,
        value_name = "WEIGHT|auto",
        allow_negative_numbers = true
    )]
    pub lambda: Lambda,
    /// Passes of the fit over the samples
    #[arg(long, default_value_t = 400)]
    pub iterations: u32,
    /// Fit the piece values only: the positional terms' weights stay as they are
    #[arg(long, conflicts_with = "terms")]
    pub values_only: bool,
    /// Fit only these positional terms (comma-separated names: mobility, threat, passed,
    /// shelter, shelter-pawn, king-danger, centre, doubled, isolated, phalanx); the others
    /// stay as they are
    #[arg(long, value_delimiter = ',', value_parser = parse_term, value_name = "TERMS")]
    pub terms: Option<Vec<Term>>,
    /// Keep the piece values as they are: fit the positional terms only
    #[arg(long, conflicts_with = "values_only")]
    pub terms_only: bool,
    /// Write the self-played games to this PGN file
    #[arg(long, value_name = "FILE")]
    pub save_games: Option<PathBuf>,
    // `[eval]` names the TOML table in the --help text: it is no link.
    #[allow(rustdoc::broken_intra_doc_links)]
    /// Where to write the [eval] table (default: VARIANT.eval.toml)
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// The prior weight of the fit: given, or chosen by the held-out check.
#[derive(Clone, Copy, Debug)]
pub enum Lambda {
    /// This weight.
    Given(f64),
    /// The weight the held-out games predict best.
    Auto,
}

/// `--terms`: a term's name.
fn parse_term(s: &str) -> Result<Term, String> {
    Term::by_name(s.trim()).ok_or_else(|| {
        let names: Vec<&str> = Term::ALL.iter().map(|t| t.name()).collect();
        format!(
            "`{s}` is not an evaluation term; the terms are {}",
            names.join(", ")
        )
    })
}

/// `--lambda`: a weight of 0 or more, or `auto`.
fn parse_lambda(s: &str) -> Result<Lambda, String> {
    if s.eq_ignore_ascii_case("auto") {
        return Ok(Lambda::Auto);
    }
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(Lambda::Given(x)),
        _ => Err(format!(
            "expected a weight of 0 or more, or `auto`; got `{s}`"
        )),
    }
}

/// The games of a PGN text (one or more, each starting with its tags).
fn read_games(rules: &std::sync::Arc<crate::position::Ruleset>, text: &str) -> Vec<(Record, f64)> {
    let mut chunks: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut in_moves = false;
    for line in text.lines() {
        let l = line.trim();
        if l.starts_with('[') && in_moves {
            chunks.push(std::mem::take(&mut cur));
            in_moves = false;
        }
        if !l.is_empty() && !l.starts_with('[') {
            in_moves = true;
        }
        cur.push_str(line);
        cur.push('\n');
    }
    chunks.push(cur);
    let mut out = Vec::new();
    for (i, c) in chunks.iter().enumerate() {
        let rec = match parse_pgn(c) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("game {}: skipped: {e}", i + 1);
                continue;
            }
        };
        let Some(result) = rec.result.as_deref().and_then(tune::points) else {
            continue;
        };
        match Session::from_record(rules, &rec) {
            Ok(g) => out.push((g.into_record(), result)),
            Err(e) => eprintln!("game {}: skipped: {e}", i + 1),
        }
    }
    out
}

/// The largest PGN file `--pgn` reads, in bytes.
const MAX_PGN_BYTES: u64 = 1 << 30;

/// Runs `tune`: fits the piece values to games and writes the `[eval]` table.
pub fn run_tune(a: TuneArgs) -> Result<(), UserError> {
    let rules = load_rules(&a.v)?;
    let mut samples: Vec<Sample> = Vec::new();
    if let Some(path) = &a.pgn {
        pgn_samples(&rules, path, &mut samples)?;
    } else {
        self_play_samples(&a, &rules, &mut samples)?;
    }
    if samples.is_empty() {
        return Err(UserError("no quiet positions to fit".into()));
    }
    let theta0 = tune::current_values(&rules);
    let mut spec = tune::fit_spec(&rules, !a.values_only);
    let kinds = rules.variant.pieces.len();
    if let Some(only) = &a.terms {
        for t in Term::ALL {
            if !only.contains(&t) {
                spec[kinds + t as usize] = Fit::Fixed;
            }
        }
    }
    if a.terms_only {
        spec[..kinds].fill(Fit::Fixed);
    }
    let lambda = choose_prior(&a, &samples, &theta0, &spec);
    let k = tune::fit_scale(&samples, &theta0);
    let before = tune::loss(&samples, &theta0, &theta0, k);
    let theta = tune::fit(&samples, &theta0, &spec, k, lambda, a.iterations);
    let after = tune::loss(&samples, &theta, &theta0, k);
    println!(
        "{} positions, K = {k:.4}, prior {lambda}, error {before:.5} -> {after:.5}",
        samples.len()
    );
    let table = tune::table(&theta, &spec, kinds, rules.variant.eval.as_ref());
    let names = rules
        .variant
        .pieces
        .iter()
        .map(|p| format!("{} {}", p.symbol, p.name))
        .chain(Term::ALL.iter().map(|t| t.name().to_string()));
    for (i, (name, (t0, t))) in names.zip(theta0.iter().zip(&theta)).enumerate() {
        if spec[i] != Fit::Fixed {
            println!(
                "  {name:<16} {:>5.0} {:>5.0}  ->  {:>5.0} {:>5.0}",
                t0.0, t0.1, t.0, t.1
            );
        }
    }
    write_table(&a, &rules, samples.len(), (before, after), &table)
}

/// The samples of the games of a PGN file.
fn pgn_samples(
    rules: &Arc<Ruleset>,
    path: &Path,
    samples: &mut Vec<Sample>,
) -> Result<(), UserError> {
    let text = crate::files::read_text_file(path, MAX_PGN_BYTES, "a PGN file")?;
    let games = read_games(rules, &text);
    println!("{} games read from {}", games.len(), path.display());
    // The first plies of a game from the start position are taken as its (random)
    // opening; a game from a set-up position (a handicap game) counts from its first.
    for (i, (g, r)) in games.iter().enumerate() {
        let skip = if g.default_start() { 8 } else { 0 };
        tune::samples(rules, g, *r, skip, i as u32, samples);
    }
    Ok(())
}

/// The samples of self-play games (saved as PGN with `--save-games`).
fn self_play_samples(
    a: &TuneArgs,
    rules: &Arc<Ruleset>,
    samples: &mut Vec<Sample>,
) -> Result<(), UserError> {
    // Each game is written as it ends, so that a run cut short keeps the games it played.
    let mut pgn_out = match &a.save_games {
        Some(p) => {
            Some(std::fs::File::create(p).map_err(|e| UserError(format!("{}: {e}", p.display())))?)
        }
        None => None,
    };
    let mut write_error = None;
    let cfg = PlayConfig {
        games: a.games,
        nodes: a.nodes,
        opening_plies: a.opening_plies,
        max_plies: a.max_plies,
        seed: a.seed,
        jobs: a
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        adjudicate: a.adjudicate.max(0),
        handicap: a.handicap,
    };
    // A handicap game starts after its opening, from the position less two pieces.
    let skip = if a.handicap {
        0
    } else {
        a.opening_plies as usize
    };
    println!(
        "{}: {} self-play games at {} nodes per move, {} random opening plies{}, seed {}, \
         {} at a time, {}",
        rules.variant.title,
        a.games,
        a.nodes,
        a.opening_plies,
        if a.handicap {
            " then a piece off each side"
        } else {
            ""
        },
        a.seed,
        cfg.jobs,
        if cfg.adjudicate > 0 {
            format!(
                "won at {} cp for {} plies",
                cfg.adjudicate,
                tune::ADJUDICATE_PLIES
            )
        } else {
            "no adjudication".into()
        }
    );
    let mut n = 0;
    tune::play_games(rules, &cfg, |g| {
        n += 1;
        let r = tune::result_of(g);
        tune::samples(rules, g, r, skip, n, samples);
        if let Some(f) = pgn_out.as_mut()
            && write_error.is_none()
        {
            use std::io::Write;
            if let Err(e) = writeln!(f, "{}", g.to_pgn()).and_then(|()| f.flush()) {
                write_error = Some(e);
            }
        }
        let adjudicated = g.outcome().is_none();
        println!(
            "game {n}: {} plies, {}{}",
            g.moves().len(),
            match r {
                1.0 => "1-0",
                0.0 => "0-1",
                _ => "1/2-1/2",
            },
            if adjudicated { " (adjudicated)" } else { "" }
        );
    });
    if let (Some(p), Some(e)) = (&a.save_games, write_error) {
        return Err(UserError(format!("{}: {e}", p.display())));
    }
    Ok(())
}

/// The prior's weight: `--lambda`, or the one the held-out check chooses; prints the check.
fn choose_prior(a: &TuneArgs, samples: &[Sample], theta0: &[(f64, f64)], spec: &[Fit]) -> f64 {
    match a.lambda {
        Lambda::Given(l) => {
            let (b, f) = tune::held_out(samples, theta0, spec, l, a.iterations);
            println!(
                "held-out error ({} folds by game), prior {l}: {b:.5} -> {f:.5}",
                tune::FOLDS
            );
            l
        }
        Lambda::Auto => {
            let (l, rows) = tune::choose_lambda(samples, theta0, spec, a.iterations);
            println!("held-out error ({} folds by game):", tune::FOLDS);
            for (w, b, f) in rows {
                println!(
                    "  prior {w:<7} {b:.5} -> {f:.5}{}",
                    if w == l { "  (chosen)" } else { "" }
                );
            }
            l
        }
    }
}

/// Writes the fitted table (`--out`, or VARIANT.eval.toml) with a comment on how it was made.
fn write_table(
    a: &TuneArgs,
    rules: &Ruleset,
    positions: usize,
    (before, after): (f64, f64),
    table: &EvalTable,
) -> Result<(), UserError> {
    let out = a
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("{}.eval.toml", rules.variant.id)));
    let text = format!(
        "# Evaluation weights of {} fitted by `polymachy tune` to {} quiet positions \
         (error {before:.5} -> {after:.5}).\n# Include it from the variant file: \
         [eval] include = \"{}\"\n{}",
        rules.variant.title,
        positions,
        out.file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default(),
        table.to_toml(&rules.variant.pieces)
    );
    std::fs::write(&out, text).map_err(|e| UserError(format!("{}: {e}", out.display())))?;
    println!("wrote {}", out.display());
    Ok(())
}

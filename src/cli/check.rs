//! `polymachy check`: property-tests a variant file with random games.
//!
//! First the file's own tests (`[[test]]` tables: perft counts, legal moves and verdicts from
//! other programs), one line each, `ok` or `FAIL` with the file's value and the engine's
//! (`--tests-only` runs only them, `--no-tests` skips them). Then every invariant of
//! [`crate::testing::Invariant`] is checked in every position of `--cases`
//! random games of up to `--plies` moves from the start position, then of `--positions` short
//! games from random positions. The same `--seed` plays the same games. One line per invariant
//! says `ok` or `FAIL`; a failure is followed by its shrunk game in coordinate notation and the
//! FEN before the failing move. Before the invariants, the lints of [`crate::lints`] (a
//! stuck piece, a royal piece by promotion): `ok    lints` or a `LINT` line per finding, each
//! counted as a failure; with `--against`, the comparison with Fairy-Stockfish's legal moves
//! ([`super::against`]), one item more. The last line counts all: `N passed, M failed`. Exit status: 0 when
//! everything holds, 1 when a test, a lint or an invariant failed, 2 for bad input.

use std::io::{IsTerminal, Write};
use std::time::Instant;

use clap::Args;

use super::{UserError, VariantArgs, load_rules};
use crate::position::Ruleset;
use crate::testing::{self, Progress, Report, Settings};
use crate::variant_tests::{self, TestReport};

/// The seed used when `--seed` is not given.
pub const DEFAULT_SEED: u64 = 1;

/// Arguments of `check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The variant and setup to check.
    #[command(flatten)]
    pub v: VariantArgs,
    /// Random games per invariant
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..))]
    pub cases: u32,
    /// Longest game in plies (games are between half this and this long unless they end)
    #[arg(long, default_value_t = 60)]
    pub plies: usize,
    /// Short games from random positions per invariant (default: as many as --cases; 0: none)
    #[arg(long)]
    pub positions: Option<u32>,
    /// Seed of the random games: the same seed plays the same games
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Run only the file's own tests (its `[[test]]` tables), not the random games
    #[arg(long, conflicts_with = "no_tests")]
    pub tests_only: bool,
    /// Skip the file's own tests
    #[arg(long)]
    pub no_tests: bool,
    /// Compare the legal moves with Fairy-Stockfish's on the positions of random games:
    /// `fairy-stockfish` loads this file's `export --fsf` section, `fairy-stockfish:VARIANT`
    /// one of that engine's built-in games (a path may replace the program's name)
    #[arg(long, value_name = "ENGINE[:VARIANT]")]
    pub against: Option<String>,
}

/// Runs the file's tests (with the default setup: the tests describe it), printing one line
/// each as it ends; returns (passed, failed).
fn run_file_tests(
    rules: &std::sync::Arc<Ruleset>,
    setup: bool,
) -> Result<(usize, usize), UserError> {
    let v = &rules.variant;
    let n = v.tests.len();
    let default;
    let rules = if setup {
        default = Ruleset::new(v, None).map_err(|e| UserError(e.to_string()))?;
        &default
    } else {
        rules
    };
    println!(
        "{} ({}): {n} test{} from the file{}",
        v.title,
        v.id,
        if n == 1 { "" } else { "s" },
        if setup && n > 0 {
            ", with the default setup"
        } else {
            ""
        }
    );
    let (mut passed, mut failed) = (0, 0);
    for i in 0..n {
        let r: TestReport = variant_tests::run(rules, i, None);
        println!("{}", r.line());
        if r.passed() {
            passed += 1;
        } else {
            println!("      source: {}", r.source);
            failed += 1;
        }
        let _ = std::io::stdout().flush();
    }
    Ok((passed, failed))
}

/// Runs `check`; exits with status 1 when an invariant fails.
pub fn run_check(a: CheckArgs) -> Result<(), UserError> {
    let rules = load_rules(&a.v)?;
    let start = Instant::now();
    let tests = if a.no_tests {
        (0, 0)
    } else {
        run_file_tests(&rules, a.v.setup.is_some())?
    };
    if a.tests_only {
        println!("{} passed, {} failed", tests.0, tests.1);
        eprintln!("{:.1} s", start.elapsed().as_secs_f64());
        let _ = std::io::stdout().flush();
        if tests.1 > 0 {
            std::process::exit(1);
        }
        return Ok(());
    }
    // The lints, read from the rules: each finding counts as a failure.
    let found = crate::lints::lints(&rules);
    print!("{}", render_lints(&found, &rules.variant.allowed_lints));
    let mut tests = (
        tests.0 + usize::from(found.is_empty()),
        tests.1 + found.len(),
    );
    // The comparison with another engine, where asked: passed or failed as one item.
    if let Some(spec) = &a.against {
        let c = super::against::compare(&rules, spec, a.cases, a.plies, a.seed)?;
        print!("{}", super::against::render(&c));
        if c.differences.is_empty() {
            tests.0 += 1;
        } else {
            tests.1 += 1;
        }
        let _ = std::io::stdout().flush();
    }
    let tty = std::io::stderr().is_terminal();
    let setup = match &rules.setup {
        Some(s) => format!(", setup {s}"),
        None => String::new(),
    };
    let mut settings = Settings::new(a.cases, a.plies, a.seed);
    settings.random_positions = a.positions.unwrap_or(a.cases);
    println!(
        "{} ({}{setup}): per invariant {} games of up to {} plies from the start, {} of up to {} from random positions; seed {}",
        rules.variant.title,
        rules.variant.id,
        a.cases,
        a.plies,
        settings.random_positions,
        settings.random_plies,
        a.seed
    );
    let mut show = |p: Progress| {
        if tty {
            let name = p.invariant.map(|i| i.name()).unwrap_or("check");
            let what = match (p.shrinking, p.from_random_positions) {
                (true, _) => "shrinking, step",
                (false, false) => "game from the start",
                (false, true) => "game from a random position",
            };
            eprint!(
                "\r\x1b[K[{}/{}] {name}: {what} {}/{}",
                p.index + 1,
                testing::Invariant::ALL.len(),
                p.games,
                p.cases
            );
        }
    };
    // Engine panics are caught and reported as failures; keep their default messages (one per
    // shrinking step) off the terminal.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let report = testing::check_variant_with(&rules, &settings, &mut show);
    std::panic::set_hook(hook);
    if tty {
        eprint!("\r\x1b[K");
    }
    print!("{}", render(&report, &a.v.variant, tests));
    eprintln!("{:.1} s", start.elapsed().as_secs_f64());
    let _ = std::io::stdout().flush();
    if report.failed() + tests.1 > 0 {
        std::process::exit(1);
    }
    Ok(())
}

/// The lints as printed: `ok    lints` when none is found, else one `LINT` line per finding
/// with its hint under it.
pub fn render_lints(found: &[crate::lints::Lint], allowed: &[String]) -> String {
    if found.is_empty() {
        let checked: Vec<&str> = crate::lints::NAMES
            .iter()
            .copied()
            .filter(|n| !allowed.iter().any(|a| a == n))
            .collect();
        let allowed = if allowed.is_empty() {
            String::new()
        } else {
            format!("; allowed by the file: {}", allowed.join(", "))
        };
        return format!(
            "ok    lints  no likely mistake found ({}{allowed})\n",
            checked.join(", ")
        );
    }
    let mut out = String::new();
    for l in found {
        out.push_str(&format!("LINT  {}  {}\n", l.name, l.message));
        out.push_str(&format!("      hint: {}\n", l.hint));
    }
    out
}

/// The report as printed: one line per invariant, failures detailed under their line, and a
/// last line `N passed, M failed` that also counts the file's tests (`tests`: passed, failed).
/// `variant` is the name or path as the user gave it.
pub fn render(report: &Report, variant: &str, tests: (usize, usize)) -> String {
    let width = testing::Invariant::ALL
        .iter()
        .map(|i| i.name().len())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for o in &report.outcomes {
        let name = o.invariant.name();
        match &o.result {
            Ok(()) => out.push_str(&format!(
                "ok    {name:width$}  {}\n",
                o.invariant.description()
            )),
            Err(f) => {
                out.push_str(&format!(
                    "FAIL  {name:width$}  {}\n",
                    o.invariant.description()
                ));
                out.push_str(&format!("      {}\n", f.message));
                if f.fen.is_empty() {
                    continue;
                }
                let from = if f.from_start_position {
                    "the start position"
                } else {
                    f.start.as_str()
                };
                if f.line.is_empty() {
                    out.push_str(&format!("      game: none, in {from}\n"));
                } else {
                    out.push_str(&format!(
                        "      game ({} plies from {from}): {}\n",
                        f.line.len(),
                        f.line.join(" ")
                    ));
                }
                out.push_str(&format!("      FEN before the failing move: {}\n", f.fen));
            }
        }
    }
    if report.failed() > 0 {
        let setup = match &report.setup {
            Some(s) => format!(" --setup {s}"),
            None => String::new(),
        };
        let s = &report.settings;
        out.push_str(&format!(
            "reproduce with: polymachy check --variant {variant}{setup} --cases {} --plies {} --positions {} --seed {}\n",
            s.cases, s.max_plies, s.random_positions, s.seed
        ));
    }
    out.push_str(&format!(
        "{} passed, {} failed\n",
        report.passed() + tests.0,
        report.failed() + tests.1
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{Failure, Invariant, Outcome, Settings};

    fn report(fail: bool) -> Report {
        let outcomes = Invariant::ALL
            .iter()
            .map(|&invariant| Outcome {
                invariant,
                result: if fail && invariant == Invariant::MakeUnmake {
                    Err(Box::new(Failure {
                        invariant: Some(invariant),
                        message: "make and unmake of e2e4: hash 1 became 2".into(),
                        start: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
                        from_start_position: true,
                        moves: Vec::new(),
                        line: vec!["g1f3".into(), "g8f6".into()],
                        fen: "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2".into(),
                    }))
                } else {
                    Ok(())
                },
            })
            .collect();
        Report {
            title: "Chess".into(),
            id: "chess".into(),
            setup: None,
            settings: Settings {
                random_positions: 0,
                ..Settings::new(8, 20, 3)
            },
            outcomes,
        }
    }

    #[test]
    fn one_line_per_invariant_and_a_total() {
        let text = render(&report(false), "chess", (0, 0));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), Invariant::ALL.len() + 1, "{text}");
        let n = Invariant::ALL.len();
        assert!(lines[..n].iter().all(|l| l.starts_with("ok ")), "{text}");
        assert_eq!(lines[n], format!("{n} passed, 0 failed"));
    }

    #[test]
    fn failures_show_the_game_and_the_fen() {
        let text = render(&report(true), "chess", (0, 0));
        assert!(text.contains("FAIL  make-unmake"), "{text}");
        assert!(
            text.contains("game (2 plies from the start position): g1f3 g8f6"),
            "{text}"
        );
        assert!(
            text.contains("FEN before the failing move: rnbqkb1r/"),
            "{text}"
        );
        assert!(
            text.contains("--variant chess --cases 8 --plies 20 --positions 0 --seed 3"),
            "{text}"
        );
        let passed = Invariant::ALL.len() - 1;
        assert!(
            text.ends_with(&format!("{passed} passed, 1 failed\n")),
            "{text}"
        );
    }
}

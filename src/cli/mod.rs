//! The command line: `perft`, `show`, `variants`, `play`, `analyse`, `bench` and the protocols.

use std::process::ExitCode;
use std::sync::Arc;

use clap::{Args, Parser, Subcommand};

use crate::moves::Move;
use crate::position::Position;
use crate::ruleset::Ruleset;
use crate::variant::Variant;

pub mod bench;
#[cfg(feature = "testing")]
pub mod check;
pub mod describe;
pub mod play;

#[derive(Parser, Debug)]
#[command(name = "polymachy", version, about = "A chess-variant engine in which every rule lives in data", long_about = None)]
pub struct Cli {
    /// Without a command, Polymachy waits for a GUI's first line (`uci` or `xboard`)
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Which variant and setup.
#[derive(Args, Debug, Clone)]
pub struct VariantArgs {
    /// Built-in variant name (see `polymachy variants`) or path to a .toml file
    #[arg(long, short = 'v', default_value = "metamachy")]
    pub variant: String,
    /// Setup choice: letters on the setup squares (e.g. QKLG) or a number from the variant file
    #[arg(long)]
    pub setup: Option<String>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Play a game in the terminal (default: Metamachy, you play White)
    Play(play::PlayArgs),
    /// Search a position and print the best move
    #[command(alias = "analyze")]
    Analyse(play::AnalyseArgs),
    /// Draw a position with coordinates
    Show {
        #[command(flatten)]
        v: VariantArgs,
        /// Position in FEN (default: the start position); may start with `-`
        #[arg(long, allow_hyphen_values = true)]
        fen: Option<String>,
        /// Plain ASCII letters instead of colours
        #[arg(long)]
        ascii: bool,
    },
    /// Count the leaves of the legal move tree
    Perft {
        #[command(flatten)]
        v: VariantArgs,
        /// Depth in plies
        #[arg(long, short = 'd')]
        depth: u32,
        /// Position in FEN (default: the start position); may start with `-`
        #[arg(long, allow_hyphen_values = true)]
        fen: Option<String>,
        /// One line per root move with its count
        #[arg(long)]
        divide: bool,
    },
    /// List the built-in variants (or describe them for scripts with --toml)
    Variants {
        /// Describe every variant (pieces, canonical XBetza, rules, setups) as TOML
        #[arg(long)]
        toml: bool,
        /// Only this variant (built-in name or .toml path)
        #[arg(long, short = 'v')]
        variant: Option<String>,
    },
    /// Property-test a variant: check the engine's invariants over random games
    #[cfg(feature = "testing")]
    Check(check::CheckArgs),
    /// Measure perft speed (nodes per second) on the shipped variants
    Bench(bench::BenchArgs),
    /// The engine at depth d+1 against depth d over many games (strength check)
    Selfplay(play::SelfplayArgs),
    /// Speak UCI on standard input and output (Fairy-Stockfish's UCI_Variant conventions)
    Uci {
        #[command(flatten)]
        v: VariantArgs,
    },
    /// Speak CECP v2 (XBoard/WinBoard) on standard input and output
    #[command(alias = "cecp")]
    Xboard {
        #[command(flatten)]
        v: VariantArgs,
    },
}

/// An error for the user: printed on stderr, exit status 2.
#[derive(Debug)]
pub struct UserError(pub String);

impl<E: std::fmt::Display> From<E> for UserError {
    fn from(e: E) -> Self {
        UserError(e.to_string())
    }
}

/// Loads a variant and compiles it with a setup.
pub fn load_rules(v: &VariantArgs) -> Result<Arc<Ruleset>, UserError> {
    let variant = Variant::load(&v.variant)?;
    Ruleset::new(&variant, v.setup.as_deref()).map_err(|e| UserError(e.to_string()))
}

/// A position from an optional FEN.
pub fn load_position(rules: &Arc<Ruleset>, fen: Option<&str>) -> Result<Position, UserError> {
    match fen {
        Some(f) => Ok(Position::from_fen(rules, f)?),
        None => Ok(Position::start(rules)),
    }
}

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(UserError(msg)) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<(), UserError> {
    let Some(command) = cli.command else {
        use clap::CommandFactory;
        if !std::io::IsTerminal::is_terminal(&std::io::stdin())
            && crate::protocol::autodetect("metamachy", None).map_err(UserError)?
        {
            return Ok(());
        }
        let _ = Cli::command().print_help();
        return Err(UserError(
            "no command given (try `polymachy play`, or `polymachy --help`)".into(),
        ));
    };
    match command {
        Command::Uci { v } => {
            let out = crate::protocol::Out::new(Box::new(std::io::stdout()));
            let lines = std::io::BufRead::lines(std::io::stdin().lock()).map_while(Result::ok);
            crate::protocol::uci::run(lines, out, &v.variant, v.setup.as_deref()).map_err(UserError)
        }
        Command::Xboard { v } => {
            let out = crate::protocol::Out::new(Box::new(std::io::stdout()));
            let lines = std::io::BufRead::lines(std::io::stdin().lock()).map_while(Result::ok);
            crate::protocol::xboard::run(lines, out, &v.variant, v.setup.as_deref())
                .map_err(UserError)
        }
        Command::Perft {
            v,
            depth,
            fen,
            divide,
        } => {
            let rules = load_rules(&v)?;
            let mut pos = load_position(&rules, fen.as_deref())?;
            let start = std::time::Instant::now();
            let progress = depth >= 4 && std::io::IsTerminal::is_terminal(&std::io::stderr());
            let mut list = crate::moves::MoveList::new();
            pos.legal_moves(&mut list);
            let mut perft = crate::perft::Perft::new();
            let mut total = 0;
            if depth == 0 {
                total = 1;
            }
            for (i, &mv) in list.iter().enumerate() {
                if depth == 0 {
                    break;
                }
                if progress {
                    eprint!(
                        "\r[{}/{}] {}    ",
                        i + 1,
                        list.len(),
                        crate::text::coord(&rules, mv)
                    );
                }
                pos.make(mv);
                let n = perft.count(&mut pos, depth - 1);
                pos.unmake();
                if divide {
                    println!("{} {n}", crate::text::coord(&rules, mv));
                }
                total += n;
            }
            if progress {
                eprint!("\r{:40}\r", "");
            }
            let secs = start.elapsed().as_secs_f64();
            eprintln!(
                "{:.3} s, {:.0} nodes/s",
                secs,
                total as f64 / secs.max(1e-9)
            );
            println!("Nodes searched: {total}");
            Ok(())
        }
        Command::Show { v, fen, ascii } => {
            let rules = load_rules(&v)?;
            let pos = load_position(&rules, fen.as_deref())?;
            print!(
                "{}",
                crate::text::board::draw(&pos, None, ascii || !color_ok())
            );
            println!("{}", pos.fen());
            Ok(())
        }
        Command::Play(a) => play::run_play(a),
        Command::Analyse(a) => play::run_analyse(a),
        Command::Bench(a) => bench::run(a),
        Command::Selfplay(a) => play::run_selfplay(a),
        #[cfg(feature = "testing")]
        Command::Check(a) => check::run_check(a),
        Command::Variants { toml, variant } => {
            let names: Vec<String> = match variant {
                Some(v) => vec![v],
                None => crate::variant::BUILTIN
                    .iter()
                    .map(|(n, _)| n.to_string())
                    .collect(),
            };
            let mut list = Vec::new();
            for name in &names {
                let v = Variant::load(name)?;
                if toml {
                    list.push(describe::describe(&v)?);
                } else {
                    println!("{:20} {:>2}x{:<2}  {}", v.id, v.files, v.ranks, v.title);
                }
            }
            if toml {
                print!("{}", describe::to_toml(list)?);
            }
            Ok(())
        }
    }
}

/// Whether stdout is a terminal that takes colour.
pub fn color_ok() -> bool {
    use std::io::IsTerminal;
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

/// Formats a move in coordinate notation.
pub fn coord(rules: &Ruleset, mv: Move) -> String {
    crate::text::coord(rules, mv)
}

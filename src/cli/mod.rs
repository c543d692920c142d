//! The command line: `perft`, `show`, `variants`, `play`, `analyse`, `bench` and the protocols.

use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

use clap::{Args, Parser, Subcommand};

use crate::position::Position;
use crate::position::Ruleset;
use crate::variant::Variant;

#[cfg(feature = "testing")]
pub mod against;
pub mod bench;
#[cfg(feature = "testing")]
pub mod check;
pub mod describe;
pub mod net;
pub mod play;
pub mod tune;

/// The command line: a command, or none to wait for a GUI.
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

/// The commands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Play a game in the terminal (default: Metamachy, you play White)
    Play(play::PlayArgs),
    /// Play in the browser: a local web page for every variant (embedded, works offline)
    Serve(ServeArgs),
    /// Search a position and print the best move
    #[command(alias = "analyze")]
    Analyse(play::AnalyseArgs),
    /// Draw a position with coordinates
    Show {
        /// The variant and setup.
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
        /// The variant and setup.
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
    /// Write a variant for another program: --fsf writes a Fairy-Stockfish variants.ini
    /// section (exit status 0 when it says everything, 3 when some rules cannot be written)
    Export(ExportArgs),
    /// Measure perft speed (nodes per second) on the shipped variants
    Bench(bench::BenchArgs),
    /// The engine at depth d+1 against depth d over many games (strength check)
    Selfplay(play::SelfplayArgs),
    /// Referee a match between two engines (UCI or CECP) in any variant
    Match(MatchArgs),
    // `[eval]` names the TOML table in the --help text: it is no link.
    #[allow(rustdoc::broken_intra_doc_links)]
    /// Fit a variant's piece values and evaluation terms to self-play games (or a PGN file); writes an [eval] table
    Tune(tune::TuneArgs),
    /// Write training data for a network: positions from self-play with scores and results
    Datagen(net::DatagenArgs),
    /// Train a network from datagen's data on every core; writes a network file
    Train(net::TrainArgs),
    /// Speak UCI on standard input and output (Fairy-Stockfish's UCI_Variant conventions)
    Uci {
        /// The variant and setup.
        #[command(flatten)]
        v: VariantArgs,
    },
    /// Speak CECP v2 (XBoard/WinBoard) on standard input and output
    #[command(alias = "cecp")]
    Xboard {
        /// The variant and setup.
        #[command(flatten)]
        v: VariantArgs,
    },
}

/// Arguments of `serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Variant of a new game (a built-in name, or the path of a .toml file)
    #[arg(long, short = 'v', default_value = "metamachy")]
    pub variant: String,
    /// Setup choice of a new game (e.g. QKLG, or a number)
    #[arg(long)]
    pub setup: Option<String>,
    /// Port to listen on (0: any free port) [default: 8080, or a free port when 8080 is taken]
    #[arg(long, short = 'p')]
    pub port: Option<u16>,
    /// Address to listen on; the default serves this computer only
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Open the page in the default browser (xdg-open, open or start)
    #[arg(long)]
    pub open: bool,
    /// Seconds a game may go unused before its engine stops and frees its memory (the next
    /// request for the game wakes it)
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub sleep_after: u64,
}

/// `polymachy export`.
#[derive(Args, Debug)]
pub struct ExportArgs {
    /// Built-in variant name or path to a .toml file
    #[arg(long, short = 'v', default_value = "metamachy")]
    pub variant: String,
    /// Write a Fairy-Stockfish `variants.ini` section (the only format so far)
    #[arg(long, required = true)]
    pub fsf: bool,
    /// The section's name (default: the variant's id)
    #[arg(long)]
    pub name: Option<String>,
    /// Write to this file instead of standard output
    #[arg(long, value_name = "FILE")]
    pub out: Option<std::path::PathBuf>,
}

/// The exit status of `export` when the section leaves rules out.
pub const EXPORT_PARTIAL: u8 = 3;

/// `export --fsf`: the section on standard output (or `--out`), what it cannot express on
/// standard error; exit status [`EXPORT_PARTIAL`] when that is anything.
fn run_export(a: ExportArgs) -> Result<ExitCode, UserError> {
    let rules = load_rules(&VariantArgs {
        variant: a.variant.clone(),
        setup: None,
    })?;
    let name = a.name.clone().unwrap_or_else(|| rules.variant.id.clone());
    if name.is_empty() || name.contains(|c: char| c.is_whitespace() || "[]:#;=".contains(c)) {
        return Err(UserError(format!(
            "--name `{name}`: a section name has no spaces, brackets, `:`, `#`, `;` or `=`"
        )));
    }
    let e = crate::export::fsf(&rules, &name);
    match &a.out {
        Some(path) => std::fs::write(path, &e.text)
            .map_err(|err| UserError(format!("{}: {err}", path.display())))?,
        None => print!("{}", e.text),
    }
    for g in &e.gaps {
        eprintln!("polymachy export: cannot express: {g}");
    }
    if e.gaps.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        eprintln!(
            "polymachy export: the section for {} is partial ({} rule(s) left out)",
            rules.variant.title,
            e.gaps.len()
        );
        Ok(ExitCode::from(EXPORT_PARTIAL))
    }
}

/// `polymachy match`.
#[derive(Args, Debug)]
#[command(
    after_help = "Example:\n  polymachy match -v shako --engine 'polymachy uci' --engine fairy-stockfish \\\n    --games 4 --tc 2+0.05 --pgn shako.pgn\n\nThe summary gives the first engine's wins, draws and losses, its score and the Elo\ndifference with its 95% error bar."
)]
pub struct MatchArgs {
    /// The variant and setup.
    #[command(flatten)]
    pub v: VariantArgs,
    /// An engine's command line (give it twice; a shell line run as `sh -c CMD`)
    #[arg(long = "engine", required = true, num_args = 1, value_name = "CMD")]
    pub engines: Vec<String>,
    /// Protocol per engine, in the order of --engine: uci, xboard or auto (UCI tried first)
    #[arg(long = "protocol", value_name = "PROTO")]
    pub protocols: Vec<String>,
    /// An option for an engine: N:NAME=VALUE (engine 1 or 2) or NAME=VALUE (both)
    #[arg(long = "engine-option", value_name = "[N:]NAME=VALUE")]
    pub options: Vec<String>,
    /// A search limit in place of the clock: N:nodes=K or N:depth=D for engine N (1 or 2),
    /// or nodes=K / depth=D for both; no time is charged (e.g. --limit 1:nodes=20000)
    #[arg(long = "limit", value_name = "[N:]KIND=VALUE")]
    pub limits: Vec<String>,
    /// Number of games
    #[arg(long, default_value_t = 2)]
    pub games: u32,
    /// Time control per side: BASE+INC in seconds (e.g. 10+0.1)
    #[arg(long, default_value = "10+0.1")]
    pub tc: String,
    /// The second engine's time control, when it differs (time odds), e.g. 2.5+0.025
    #[arg(long, value_name = "TC")]
    pub tc2: Option<String>,
    /// Start positions: an EPD/FEN file, one position a line (each played twice)
    #[arg(long, value_name = "FILE")]
    pub openings: Option<std::path::PathBuf>,
    /// Random legal plies from the start position as openings
    #[arg(long, default_value_t = 0, value_name = "K")]
    pub random_plies: u32,
    /// Seed of the random openings
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at the same time
    #[arg(long, default_value_t = 1)]
    pub concurrency: u32,
    /// Adjudicate a draw after this many full moves
    #[arg(long, default_value_t = 300)]
    pub max_moves: u32,
    /// Milliseconds past its clock a move is still accepted
    #[arg(long, default_value_t = 100, value_name = "MS")]
    pub time_margin: u64,
    /// Milliseconds past its clock before a silent engine is killed
    #[arg(long, default_value_t = 3000, value_name = "MS")]
    pub hang_margin: u64,
    /// Stop early by SPRT on ELO0,ELO1 (alpha = beta = 0.05)
    #[arg(long, value_name = "ELO0,ELO1")]
    pub sprt: Option<String>,
    /// Write the games as PGN
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<std::path::PathBuf>,
}

fn run_match(a: MatchArgs) -> Result<(), UserError> {
    use crate::referee::engine::EngineSpec;
    let specs = engine_specs(&a)?;
    let sprt = parse_sprt(&a)?;
    let openings = read_opening_file(&a)?;
    if a.games == 0 {
        return Err(UserError("--games must be at least 1".into()));
    }
    let [e1, e2]: [EngineSpec; 2] = specs
        .try_into()
        .map_err(|_| UserError("two engines needed".into()))?;
    let cfg = crate::referee::MatchConfig {
        variant: a.v.variant.clone(),
        setup: a.v.setup.clone(),
        engines: [e1, e2],
        games: a.games,
        tc: crate::referee::parse_tc(&a.tc)?,
        tc2: a.tc2.as_deref().map(crate::referee::parse_tc).transpose()?,
        openings,
        random_plies: a.random_plies,
        seed: a.seed,
        concurrency: a.concurrency.max(1),
        max_moves: a.max_moves.max(1),
        time_margin_ms: a.time_margin,
        hang_margin_ms: a.hang_margin,
        sprt,
        interrupt: &MATCH_INTERRUPT,
    };
    let print = |s: &str| {
        use std::io::Write;
        let mut o = std::io::stdout().lock();
        let _ = writeln!(o, "{s}");
        let _ = o.flush();
    };
    // The PGN is written game by game as each ends: created (emptied) before the first.
    let mut pgn_file = match &a.pgn {
        Some(path) => Some(
            std::fs::File::create(path)
                .map_err(|e| UserError(format!("{}: {e}", path.display())))?,
        ),
        None => None,
    };
    on_interrupt_signals();
    let summary = crate::referee::run_match(
        &cfg,
        &print,
        pgn_file.as_mut().map(|f| f as &mut dyn std::io::Write),
    );
    drop(pgn_file);
    let summary = summary?;
    if summary.interrupted {
        // Every engine has ended and the PGN is closed: the status is the shell's for a
        // program ended by a signal, 128 + its number.
        let sig = MATCH_INTERRUPT_SIGNAL.load(Ordering::Relaxed).clamp(1, 64);
        eprintln!(
            "polymachy match: interrupted by {}",
            if sig == SIGTERM { "SIGTERM" } else { "SIGINT" }
        );
        std::process::exit(128 + sig);
    }
    Ok(())
}

/// The two engines of `match`: their command lines, protocols and options.
fn engine_specs(a: &MatchArgs) -> Result<Vec<crate::referee::engine::EngineSpec>, UserError> {
    use crate::referee::engine::{EngineSpec, Protocol};
    if a.engines.len() != 2 {
        return Err(UserError(format!(
            "a match needs two --engine, {} given",
            a.engines.len()
        )));
    }
    if a.protocols.len() > 2 {
        return Err(UserError("at most two --protocol".into()));
    }
    let mut specs = Vec::new();
    for (i, cmd) in a.engines.iter().enumerate() {
        let protocol = match a.protocols.get(i).map(String::as_str) {
            None | Some("auto") => None,
            Some(p) => Some(p.parse::<Protocol>()?),
        };
        specs.push(EngineSpec {
            cmd: cmd.clone(),
            protocol,
            options: Vec::new(),
            interrupt: &MATCH_INTERRUPT,
            limit: None,
        });
    }
    for l in &a.limits {
        let (who, kv) = engine_prefix(l);
        let limit = kv
            .parse::<crate::referee::engine::SearchLimit>()
            .map_err(|e| UserError(format!("--limit {e}")))?;
        for (i, s) in specs.iter_mut().enumerate() {
            if who.is_none_or(|w| w == i) {
                if s.protocol == Some(Protocol::Xboard)
                    && matches!(limit, crate::referee::engine::SearchLimit::Nodes(_))
                {
                    return Err(UserError(format!(
                        "--limit {kv}: engine {} speaks CECP, and a node limit needs UCI (CECP has no node limit; use depth=D)",
                        i + 1
                    )));
                }
                s.limit = Some(limit);
            }
        }
    }
    for o in &a.options {
        let (who, nv) = engine_prefix(o);
        let Some((n, v)) = nv.split_once('=') else {
            return Err(UserError(format!(
                "--engine-option `{o}`: expected [N:]NAME=VALUE"
            )));
        };
        for (i, s) in specs.iter_mut().enumerate() {
            if who.is_none_or(|w| w == i) {
                s.options.push((n.trim().to_string(), v.trim().to_string()));
            }
        }
    }
    Ok(specs)
}

/// An `N:` prefix naming engine 1 or 2 (as an index), and the rest; no prefix: both.
fn engine_prefix(o: &str) -> (Option<usize>, &str) {
    match o.split_once(':') {
        Some(("1", rest)) => (Some(0), rest),
        Some(("2", rest)) => (Some(1), rest),
        _ => (None, o),
    }
}

/// `--sprt ELO0,ELO1`.
fn parse_sprt(a: &MatchArgs) -> Result<Option<(f64, f64)>, UserError> {
    Ok(match &a.sprt {
        None => None,
        Some(s) => {
            let p: Vec<f64> = s.split(',').filter_map(|x| x.trim().parse().ok()).collect();
            if p.len() != 2 || p[0] >= p[1] {
                return Err(UserError(format!(
                    "--sprt `{s}`: expected ELO0,ELO1 with ELO0 < ELO1"
                )));
            }
            Some((p[0], p[1]))
        }
    })
}

/// The positions of `--openings`, or none.
fn read_opening_file(a: &MatchArgs) -> Result<Vec<String>, UserError> {
    Ok(match &a.openings {
        Some(f) => {
            let text = crate::files::read_text_file(
                f,
                crate::referee::MAX_OPENINGS_BYTES,
                "an opening file",
            )?;
            let o = crate::referee::read_openings(&text);
            if o.is_empty() {
                return Err(UserError(format!("{}: no positions", f.display())));
            }
            o
        }
        None => Vec::new(),
    })
}

/// Set when `match` is to stop (SIGINT or SIGTERM).
static MATCH_INTERRUPT: AtomicBool = AtomicBool::new(false);
/// The number of the signal that set [`MATCH_INTERRUPT`].
static MATCH_INTERRUPT_SIGNAL: AtomicI32 = AtomicI32::new(0);
const SIGINT: i32 = 2;
const SIGTERM: i32 = 15;

/// Makes SIGINT (Ctrl-C) and SIGTERM set [`MATCH_INTERRUPT`] instead of ending the process,
/// so that the referee can end its engines and keep its PGN whole. The handler only stores
/// two atomics (async-signal-safe); the referee's waits look at the flag every few
/// milliseconds. libc's `signal` is enough for this, so no signal crate is used: glibc's
/// `signal` installs the handler with BSD semantics (it stays installed, and interrupted
/// system calls restart). A second signal while the match ends does nothing more.
#[cfg(unix)]
fn on_interrupt_signals() {
    unsafe extern "C" {
        fn signal(signum: i32, handler: usize) -> usize;
    }
    extern "C" fn handler(sig: i32) {
        MATCH_INTERRUPT_SIGNAL.store(sig, Ordering::Relaxed);
        MATCH_INTERRUPT.store(true, Ordering::Relaxed);
    }
    let h: extern "C" fn(i32) = handler;
    // SAFETY: `handler` only stores atomics, which is async-signal-safe.
    unsafe {
        signal(SIGINT, h as usize);
        signal(SIGTERM, h as usize);
    }
}

#[cfg(not(unix))]
fn on_interrupt_signals() {}

/// Restores the default action of SIGPIPE, so that writing to a closed pipe (`polymachy
/// variants | head -1`) ends the program quietly, as Unix tools do, instead of a panic in
/// `println!`. `match` and `serve` keep it ignored (see `main`).
#[cfg(unix)]
fn default_sigpipe() {
    unsafe extern "C" {
        fn signal(signum: i32, handler: usize) -> usize;
    }
    const SIGPIPE: i32 = 13;
    const SIG_DFL: usize = 0;
    // SAFETY: resetting a signal to its default action at start-up, before any thread runs.
    unsafe {
        signal(SIGPIPE, SIG_DFL);
    }
}

#[cfg(not(unix))]
fn default_sigpipe() {}

/// An error for the user: printed on stderr, exit status 2.
#[derive(Debug)]
pub struct UserError(pub String);

impl<E: std::fmt::Display> From<E> for UserError {
    fn from(e: E) -> Self {
        UserError(e.to_string())
    }
}

/// Loads a variant and compiles it with a setup; the file's warnings go to standard error.
pub fn load_rules(v: &VariantArgs) -> Result<Arc<Ruleset>, UserError> {
    let variant = Variant::load(&v.variant)?;
    for w in &variant.warnings {
        eprintln!("{w}");
    }
    let rules = Ruleset::new(&variant, v.setup.as_deref()).map_err(|e| UserError(e.to_string()))?;
    // A `[[test]]` whose FEN is not a position of the variant is a mistake in the file.
    let bad = crate::variant_tests::fen_errors(&rules);
    if !bad.is_empty() {
        return Err(UserError(bad.join("\n")));
    }
    Ok(rules)
}

/// A position from an optional FEN.
pub fn load_position(rules: &Arc<Ruleset>, fen: Option<&str>) -> Result<Position, UserError> {
    match fen {
        Some(f) => {
            let p = Position::from_fen(rules, f)?;
            for w in p.oddities() {
                eprintln!("warning: {w}");
            }
            Ok(p)
        }
        None => Ok(Position::start(rules)),
    }
}

/// The program: parses the command line, runs the command and turns a [`UserError`] into a
/// message and exit status 1.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    // The referee and the web server write to pipes and sockets whose peer may go away; they
    // handle that as an error, so they keep SIGPIPE ignored.
    if !matches!(cli.command, Some(Command::Match(_) | Command::Serve(_))) {
        default_sigpipe();
    }
    if let Some(Command::Export(a)) = cli.command {
        return match run_export(a) {
            Ok(code) => code,
            Err(UserError(msg)) => {
                eprintln!("error: {msg}");
                ExitCode::from(2)
            }
        };
    }
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
            let lines = crate::protocol::lineio::stdin_lines();
            crate::protocol::uci::run(lines, out, &v.variant, v.setup.as_deref()).map_err(UserError)
        }
        Command::Xboard { v } => {
            let out = crate::protocol::Out::new(Box::new(std::io::stdout()));
            let lines = crate::protocol::lineio::stdin_lines();
            crate::protocol::xboard::run(lines, out, &v.variant, v.setup.as_deref())
                .map_err(UserError)
        }
        Command::Perft {
            v,
            depth,
            fen,
            divide,
        } => run_perft(&v, depth, fen.as_deref(), divide),
        Command::Show { v, fen, ascii } => {
            let rules = load_rules(&v)?;
            let pos = load_position(&rules, fen.as_deref())?;
            print!(
                "{}",
                play::board_text(
                    &pos,
                    None,
                    crate::text::board::Style {
                        ascii: ascii || !color_ok(),
                        flipped: false,
                    },
                    80,
                    true,
                )
            );
            println!("{}", pos.fen());
            Ok(())
        }
        Command::Play(a) => play::run_play(a),
        Command::Serve(a) => run_serve(a),
        Command::Match(a) => run_match(a),
        Command::Tune(a) => tune::run_tune(a),
        Command::Datagen(a) => net::run_datagen(a),
        Command::Train(a) => net::run_train(a),
        Command::Analyse(a) => play::run_analyse(a),
        Command::Bench(a) => bench::run(a),
        Command::Selfplay(a) => play::run_selfplay(a),
        #[cfg(feature = "testing")]
        Command::Check(a) => check::run_check(a),
        Command::Variants { toml, variant } => run_variants(toml, variant),
        Command::Export(a) => run_export(a).map(|_| ()),
    }
}

/// `perft`: counts the leaves of the legal move tree, move by move with `--divide`.
fn run_perft(
    v: &VariantArgs,
    depth: u32,
    fen: Option<&str>,
    divide: bool,
) -> Result<(), UserError> {
    let rules = load_rules(v)?;
    let mut pos = load_position(&rules, fen)?;
    let start = std::time::Instant::now();
    let progress = depth >= 4 && std::io::IsTerminal::is_terminal(&std::io::stderr());
    let mut list = crate::moves::MoveList::new();
    // A position a rule ends at once (a bare King) has no moves to count.
    if pos.final_ending().is_none() {
        pos.legal_moves(&mut list);
    }
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
                crate::session::coord(&rules, mv)
            );
        }
        pos.make(mv);
        let n = perft.count(&mut pos, depth - 1);
        pos.unmake();
        if divide {
            println!("{} {n}", crate::session::coord(&rules, mv));
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

/// `variants`: the built-in games (or one), a line each or described in TOML.
fn run_variants(toml: bool, variant: Option<String>) -> Result<(), UserError> {
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

fn run_serve(a: ServeArgs) -> Result<(), UserError> {
    let server = crate::serve::Server::new(&a.variant, a.setup.as_deref())
        .map_err(UserError)?
        .with_sleep_after(std::time::Duration::from_secs(a.sleep_after));
    let open = a.open;
    let port = match a.port {
        Some(p) => p,
        None if std::net::TcpListener::bind((a.host.as_str(), 8080)).is_ok() => 8080,
        None => 0,
    };
    crate::serve::serve(server, &a.host, port, |addr| {
        let url = format!("http://{addr}/");
        println!("Polymachy serves {url}  (open it in a browser; Ctrl-C stops the server)");
        let _ = std::io::Write::flush(&mut std::io::stdout());
        if open {
            open_browser(&url);
        }
    })
    .map_err(UserError)
}

/// Launches the desktop's browser on `url`; a failure is only reported.
fn open_browser(url: &str) {
    let (prog, args): (&str, Vec<&str>) = if cfg!(target_os = "macos") {
        ("open", vec![url])
    } else if cfg!(windows) {
        ("cmd", vec!["/C", "start", "", url])
    } else {
        ("xdg-open", vec![url])
    };
    let spawned = std::process::Command::new(prog)
        .args(&args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    match spawned {
        Err(e) => println!("Could not open a browser ({prog}: {e}); open {url} yourself."),
        Ok(mut child) => {
            let url = url.to_string();
            std::thread::spawn(move || {
                if child.wait().is_ok_and(|s| !s.success()) {
                    println!("Could not open a browser ({prog} failed); open {url} yourself.");
                }
            });
        }
    }
}

/// Whether stdout is a terminal that takes colour.
pub fn color_ok() -> bool {
    use std::io::IsTerminal;
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

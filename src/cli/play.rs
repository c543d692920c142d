//! `polymachy play`, `polymachy analyse` and `polymachy selfplay`.
//!
//! `play` runs a game in the terminal between humans and the engine. It reads one command
//! per line from standard input, so it also works from a pipe (end of input quits). Moves are
//! typed in coordinate notation (`e3e5`, `e11e12q`) or the SAN-like form (`Le4`, `Pxd6`, `e4`,
//! `e12=Q`); the commands are listed by `help`.

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use clap::{Args, ValueEnum};

use super::{UserError, VariantArgs, color_ok, load_position, load_rules};
use crate::game::{self, Game};
use crate::geometry::Color;
use crate::position::Position;
use crate::ruleset::Ruleset;
use crate::search::{Limits, SearchResult, Searcher};
use crate::selfplay::{MatchConfig, play_match};
use crate::variant::Variant;

/// Who moves for a side.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    Human,
    Engine,
}

/// Arguments of `play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub v: VariantArgs,
    /// Who plays White
    #[arg(long, value_enum, default_value = "human")]
    pub white: Player,
    /// Who plays Black
    #[arg(long, value_enum, default_value = "engine")]
    pub black: Player,
    /// Seconds per engine move (default 3, or no time limit when --depth is given)
    #[arg(long, value_name = "SECONDS")]
    pub time: Option<f64>,
    /// Deepest search of the engine, in plies
    #[arg(long, value_name = "N")]
    pub depth: Option<u32>,
    /// Plain ASCII board without colours
    #[arg(long)]
    pub ascii: bool,
    /// Resume a game saved as PGN
    #[arg(long, value_name = "FILE")]
    pub load: Option<PathBuf>,
    /// Start from this position instead of the start position; may start with `-`
    #[arg(long, conflicts_with = "load", allow_hyphen_values = true)]
    pub fen: Option<String>,
    /// Hash table size in megabytes
    #[arg(long, default_value_t = crate::search::tt::DEFAULT_HASH_MB, value_name = "MB", value_parser = crate::search::tt::parse_hash_mb)]
    pub hash: usize,
}

/// Arguments of `analyse`.
#[derive(Args, Debug)]
pub struct AnalyseArgs {
    #[command(flatten)]
    pub v: VariantArgs,
    /// Position in FEN (default: the start position); may start with `-`
    #[arg(long, allow_hyphen_values = true)]
    pub fen: Option<String>,
    /// Search to this depth in plies
    #[arg(long, short = 'd', value_name = "N", conflicts_with = "movetime")]
    pub depth: Option<u32>,
    /// Search for this many milliseconds (default 3000 when no depth is given)
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Stop after this many nodes
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Hash table size in megabytes
    #[arg(long, default_value_t = crate::search::tt::DEFAULT_HASH_MB, value_name = "MB", value_parser = crate::search::tt::parse_hash_mb)]
    pub hash: usize,
}

/// Arguments of `selfplay`.
#[derive(Args, Debug)]
pub struct SelfplayArgs {
    #[command(flatten)]
    pub v: VariantArgs,
    /// Number of games (colours alternate; each opening is played twice)
    #[arg(long, default_value_t = 20)]
    pub games: u32,
    /// Depth of the weaker engine; the stronger searches one ply deeper
    #[arg(long, short = 'd', default_value_t = 2)]
    pub depth: u32,
    /// Random moves at the start of each pair of games
    #[arg(long, default_value_t = 4)]
    pub opening_plies: u32,
    /// Seed of the random openings
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Plies after which a game is adjudicated a draw
    #[arg(long, default_value_t = 300)]
    pub max_plies: u32,
    /// Hash table size per engine in megabytes
    #[arg(long, default_value_t = 16, value_name = "MB", value_parser = crate::search::tt::parse_hash_mb)]
    pub hash: usize,
}

const HELP: &str = "\
Moves: coordinates (e3e5, f1h3, e11e12q) or SAN-like (Le4, Pxd6, e4, Nbd2, e12=Q, O-O).
Commands:
  help        this text
  moves       list the legal moves
  hint        ask the engine for a move
  undo        take back the last move (your move and the engine's reply against the engine)
  fen         print the position as FEN
  board       draw the board again
  save FILE   save the game as PGN
  quit        leave";

/// Reads lines from standard input, echoing them when they do not come from a terminal.
struct Input {
    lines: std::io::Lines<std::io::StdinLock<'static>>,
    echo: bool,
}

impl Input {
    fn new() -> Input {
        let stdin = std::io::stdin();
        let echo = !stdin.is_terminal();
        Input {
            lines: stdin.lock().lines(),
            echo,
        }
    }

    /// Prints `prompt` and reads a line; `None` at the end of input.
    fn ask(&mut self, prompt: &str) -> Option<String> {
        print!("{prompt} ");
        let _ = std::io::stdout().flush();
        match self.lines.next() {
            Some(Ok(l)) => {
                if self.echo {
                    println!("{}", l.trim_end());
                }
                Some(l)
            }
            _ => {
                println!();
                None
            }
        }
    }
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// Reads the rules a saved game names (its `Variant` and `SetupChoice` tags), falling back on
/// the command line's variant.
fn rules_for_record(
    rec: &game::PgnRecord,
    v: &VariantArgs,
    file: &str,
) -> Result<Arc<Ruleset>, UserError> {
    let setup = rec
        .tag("SetupChoice")
        .map(|(s, _)| s.to_string())
        .or_else(|| v.setup.clone());
    let variant = match rec.tag("Variant") {
        Some((name, line)) => match Variant::load(name) {
            Ok(var) => var,
            Err(_) => {
                // Perhaps a display name ("Lions and Unicorns").
                let found = crate::variant::BUILTIN
                    .iter()
                    .filter_map(|(n, _)| Variant::load(n).ok())
                    .find(|var| {
                        var.title.eq_ignore_ascii_case(name) || var.id.eq_ignore_ascii_case(name)
                    });
                match found {
                    Some(var) => var,
                    None => match Variant::load(&v.variant) {
                        Ok(var)
                            if var.id.eq_ignore_ascii_case(name)
                                || var.title.eq_ignore_ascii_case(name) =>
                        {
                            var
                        }
                        _ => {
                            return Err(UserError(format!(
                                "{file}:{line}: unknown variant `{name}` (give its file with --variant)"
                            )));
                        }
                    },
                }
            }
        },
        None => Variant::load(&v.variant)?,
    };
    Ruleset::new(&variant, setup.as_deref()).map_err(|e| match e.at {
        // A problem located in the variant file names that file.
        Some(_) => UserError(e.to_string()),
        None => UserError(format!("{file}: {e}")),
    })
}

/// Loads a saved game.
fn load_game(path: &PathBuf, v: &VariantArgs) -> Result<Game, UserError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| UserError(format!("{file}: cannot read the file: {e}")))?;
    let rec = game::parse_pgn(&text)
        .map_err(|e| UserError(format!("{file}:{}: {}", e.line, e.message)))?;
    let rules = rules_for_record(&rec, v, &file)?;
    Game::from_record(&rules, &rec)
        .map_err(|e| UserError(format!("{file}:{}: {}", e.line, e.message)))
}

/// One line about a finished search.
fn summary(game: &mut Game, r: &SearchResult) -> String {
    let mut p = game.position().clone();
    let mut pv = Vec::new();
    for &m in r.pv.iter().take(8) {
        let mut l = crate::moves::MoveList::new();
        p.legal_moves(&mut l);
        if !l.as_slice().contains(&m) {
            break;
        }
        pv.push(game::san(&mut p, m));
        p.make(m);
    }
    format!(
        "depth {}, score {}, {} nodes in {:.2} s ({:.0} kn/s), pv {}",
        r.depth,
        r.score,
        r.nodes,
        r.elapsed.as_secs_f64(),
        r.nps() as f64 / 1000.0,
        pv.join(" ")
    )
}

fn engine_limits(a: &PlayArgs) -> Limits {
    let mut l = Limits {
        depth: a.depth,
        ..Limits::default()
    };
    let t = match (a.time, a.depth) {
        (Some(t), _) => Some(t),
        (None, None) => Some(3.0),
        (None, Some(_)) => None,
    };
    if let Some(t) = t {
        l.movetime = Some(Duration::from_secs_f64(t.max(0.001)));
    }
    l
}

fn list_moves(game: &mut Game) -> String {
    let legal = game.legal_moves();
    let mut sans: Vec<String> = legal.iter().map(|&m| game.san(m)).collect();
    sans.sort();
    let mut out = String::new();
    let mut line = String::new();
    for s in &sans {
        if line.len() + s.len() + 1 > 78 {
            out.push_str(line.trim_end());
            out.push('\n');
            line.clear();
        }
        line.push_str(s);
        line.push(' ');
    }
    out.push_str(line.trim_end());
    format!("{} legal moves:\n{out}", sans.len())
}

pub fn run_play(a: PlayArgs) -> Result<(), UserError> {
    if !(a.time.is_none_or(|t| t > 0.0 && t.is_finite())) {
        return Err(UserError(
            "--time must be a positive number of seconds".into(),
        ));
    }
    let mut game = match &a.load {
        Some(path) => load_game(path, &a.v)?,
        None => {
            let rules = load_rules(&a.v)?;
            Game::from_position(load_position(&rules, a.fen.as_deref())?)
        }
    };
    let rules = game.rules().clone();
    let ascii = a.ascii || !color_ok();
    let players = [a.white, a.black];
    let player = |c: Color| players[c.index()];
    let name = |c: Color| {
        if players[c.index()] == Player::Human {
            "Human"
        } else {
            "Polymachy"
        }
    };
    game.tags.retain(|t| t.0 != "White" && t.0 != "Black");
    game.tags.push(("White".into(), name(Color::White).into()));
    game.tags.push(("Black".into(), name(Color::Black).into()));
    let limits = engine_limits(&a);
    let mut engine = Searcher::new(&rules, a.hash);
    let mut input = Input::new();
    let humans = players.iter().filter(|&&p| p == Player::Human).count();

    println!(
        "Polymachy: {} ({}x{}).",
        rules.variant.title, rules.geometry.files, rules.geometry.ranks
    );
    match (a.white, a.black) {
        (Player::Human, Player::Engine) => println!("You play White against the engine."),
        (Player::Engine, Player::Human) => println!("You play Black against the engine."),
        (Player::Human, Player::Human) => println!("Two humans play."),
        (Player::Engine, Player::Engine) => println!("The engine plays both sides."),
    }
    if humans > 0 {
        println!("Type `help` for the commands.");
    }
    if let Some(p) = &a.load {
        println!("Loaded {} moves from {}.", game.moves().len(), p.display());
    }
    let mut show_board = true;
    // The number of moves when the end of the game was announced.
    let mut announced: Option<usize> = None;
    loop {
        if show_board {
            println!();
            print!(
                "{}",
                crate::text::board::draw(game.position(), game.last_move(), ascii)
            );
            show_board = false;
        }
        let outcome = game.outcome();
        let side = game.position().side();
        if let Some(o) = outcome
            && announced != Some(game.moves().len())
        {
            println!("{o}");
            announced = Some(game.moves().len());
            if humans == 0 {
                return Ok(());
            }
        }
        if outcome.is_none() && player(side) == Player::Engine {
            let mut pos = game.position().clone();
            let r = engine.search(&mut pos, &limits, |_| {});
            let Some(mv) = r.best else {
                return Err(UserError("the engine found no move".into()));
            };
            let text = game.san(mv);
            let line = summary(&mut game, &r);
            println!(
                "{} plays {text} ({})",
                side_name(side),
                game::coord(&rules, mv)
            );
            println!("  {line}");
            game.play(mv).map_err(|e| UserError(e.to_string()))?;
            show_board = true;
            continue;
        }
        let prompt = if outcome.is_some() {
            "Game over (undo, save FILE or quit):".to_string()
        } else {
            format!("{} to move:", side_name(side))
        };
        let Some(line) = input.ask(&prompt) else {
            println!("End of input: goodbye.");
            return Ok(());
        };
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let (cmd, arg) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c, r.trim()),
            None => (line, ""),
        };
        match cmd.to_ascii_lowercase().as_str() {
            "help" | "?" => println!("{HELP}"),
            "quit" | "exit" => {
                println!("Goodbye.");
                return Ok(());
            }
            "fen" => println!("{}", game.position().fen()),
            "board" | "show" => show_board = true,
            "moves" => {
                if outcome.is_some() {
                    println!("The game is over.");
                } else {
                    println!("{}", list_moves(&mut game));
                }
            }
            "hint" => {
                if outcome.is_some() {
                    println!("The game is over.");
                    continue;
                }
                let mut hl = limits;
                hl.movetime = Some(
                    hl.movetime
                        .map_or(Duration::from_secs(2), |t| t.min(Duration::from_secs(2))),
                );
                let mut pos = game.position().clone();
                let r = engine.search(&mut pos, &hl, |_| {});
                if let Some(mv) = r.best {
                    println!(
                        "Hint: {} ({}), score {}",
                        game.san(mv),
                        game::coord(&rules, mv),
                        r.score
                    );
                }
            }
            "undo" => {
                if game.moves().is_empty() {
                    println!("Nothing to undo.");
                    continue;
                }
                let mut taken = Vec::new();
                if let Some(m) = game.undo() {
                    taken.push(m);
                }
                // Against the engine, go back to a position where a human is to move.
                while humans == 1
                    && player(game.position().side()) == Player::Engine
                    && !game.moves().is_empty()
                {
                    if let Some(m) = game.undo() {
                        taken.push(m);
                    }
                }
                let names: Vec<String> = taken
                    .iter()
                    .rev()
                    .map(|&m| game::coord(&rules, m))
                    .collect();
                println!("Took back {}.", names.join(" "));
                show_board = true;
            }
            "save" => {
                if arg.is_empty() {
                    println!("save needs a file name: save FILE");
                    continue;
                }
                let text = game.to_pgn();
                match std::fs::write(arg, text) {
                    Ok(()) => println!("Saved to {arg}."),
                    Err(e) => println!("Cannot write {arg}: {e}"),
                }
            }
            _ => {
                if outcome.is_some() {
                    println!("The game is over: undo, save FILE or quit.");
                    continue;
                }
                let looks_like_move = line.chars().any(|c| c.is_ascii_digit())
                    || line
                        .to_ascii_uppercase()
                        .replace('0', "O")
                        .starts_with("O-O");
                if !looks_like_move || line.contains(char::is_whitespace) {
                    println!(
                        "Unknown command `{line}`: type `help` for the commands, or a move such as e2e4."
                    );
                    continue;
                }
                match game.parse(line) {
                    Ok(mv) => {
                        let text = game.san(mv);
                        game.play(mv).map_err(|e| UserError(e.to_string()))?;
                        println!("{} plays {text}", side_name(side));
                        show_board = true;
                    }
                    Err(e) => println!("{e}"),
                }
            }
        }
    }
}

pub fn run_analyse(a: AnalyseArgs) -> Result<(), UserError> {
    let rules = load_rules(&a.v)?;
    let mut pos: Position = load_position(&rules, a.fen.as_deref())?;
    let mut limits = Limits {
        depth: a.depth,
        nodes: a.nodes,
        ..Limits::default()
    };
    match (a.movetime, a.depth, a.nodes) {
        (Some(ms), _, _) => limits.movetime = Some(Duration::from_millis(ms.max(1))),
        (None, None, None) => limits.movetime = Some(Duration::from_millis(3000)),
        _ => {}
    }
    let mut engine = Searcher::new(&rules, a.hash);
    let r = engine.search(&mut pos, &limits, |info| {
        let pv: Vec<String> = info.pv.iter().map(|&m| game::coord(&rules, m)).collect();
        println!(
            "depth {} score {} nodes {} nps {} pv {}",
            info.depth,
            info.score.uci(),
            info.nodes,
            info.nps(),
            pv.join(" ")
        );
    });
    match r.best {
        Some(m) => println!("bestmove {}", game::coord(&rules, m)),
        None => {
            let why = if pos.in_check() {
                "checkmate"
            } else {
                "stalemate"
            };
            println!("info no legal move ({why})");
            println!("bestmove (none)");
        }
    }
    Ok(())
}

pub fn run_selfplay(a: SelfplayArgs) -> Result<(), UserError> {
    let rules = load_rules(&a.v)?;
    if a.games == 0 {
        return Err(UserError("--games must be at least 1".into()));
    }
    let cfg = MatchConfig {
        games: a.games,
        first: Limits::depth(a.depth + 1),
        second: Limits::depth(a.depth.max(1)),
        opening_plies: a.opening_plies,
        seed: a.seed,
        max_plies: a.max_plies,
        hash_mb: a.hash,
        ..MatchConfig::default()
    };
    println!(
        "{}: depth {} against depth {}, {} games, {} random opening plies, seed {}",
        rules.variant.title,
        a.depth + 1,
        a.depth.max(1),
        a.games,
        a.opening_plies,
        a.seed
    );
    let report = play_match(&rules, &cfg, |g| {
        let result = match g.outcome {
            Some(o) => format!("{} {o}", o.result.pgn()),
            None => "1/2-1/2 adjudicated at the ply limit".to_string(),
        };
        println!(
            "game {:>3}: deeper engine {}, {} plies, {}  (opening {})",
            g.number,
            if g.first_white { "White" } else { "Black" },
            g.plies,
            result,
            g.opening.join(" ")
        );
    });
    println!(
        "depth {} scores {:.1}/{} ({:.1}%): +{} ={} -{}",
        a.depth + 1,
        report.points(),
        report.games.len(),
        100.0 * report.score(),
        report.wins,
        report.draws,
        report.losses
    );
    println!(
        "middlegame speed {} nodes/s; overall {} nodes/s",
        report.middlegame_nps(),
        report.nps()
    );
    Ok(())
}

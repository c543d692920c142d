//! `polymachy play`, `polymachy analyse` and `polymachy selfplay`.
//!
//! `play` runs a game in the terminal between humans and the engine. It reads one command
//! per line from standard input, so it also works from a pipe (end of input quits). Moves are
//! typed in coordinate notation (`e3e5`, `e11e12q`) or the SAN-like form (`Le4`, `Pxd6`, `e4`,
//! `e12=Q`); the commands are listed by `help`.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use clap::{Args, ValueEnum};

use super::{UserError, VariantArgs, color_ok, load_position, load_rules};
use crate::geometry::Color;
use crate::position::Position;
use crate::position::Ruleset;
use crate::search::{Clock, Limits, Score, SearchResult, Searcher};
use crate::selfplay::{MatchConfig, play_match};
use crate::session::{self, PgnRecord, Reason, Session, TimeControl, Verdict, side_name};
use crate::text::board::{self, Style};
use crate::variant::Variant;

/// Who moves for a side: `human`, a person typing moves at the terminal, or `engine`,
/// Polymachy's search.
// The variants have no doc comments: clap would print them in `play --help`.
#[allow(missing_docs)]
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    Human,
    Engine,
}

/// Arguments of `play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The variant and setup.
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
    /// Game clock for both sides: MINUTES+INCREMENT_SECONDS (e.g. 5+3); the engine plays on it
    #[arg(long, value_name = "M+S", conflicts_with = "time")]
    pub clock: Option<String>,
    /// Milliseconds the engine keeps per move on its clock for what happens outside its search
    #[arg(long, value_name = "MS", default_value_t = crate::search::DEFAULT_MOVE_OVERHEAD_MS, value_parser = crate::search::time::parse_move_overhead)]
    pub move_overhead: u64,
    /// Plain ASCII board without colours (also when NO_COLOR is set)
    #[arg(long)]
    pub ascii: bool,
    /// Fewer lines per turn (chosen by itself when the terminal is short)
    #[arg(long)]
    pub compact: bool,
    /// Resume a game saved as PGN
    #[arg(long, value_name = "FILE")]
    pub load: Option<PathBuf>,
    /// Start from this position instead of the start position; may start with `-`
    #[arg(long, conflicts_with = "load", allow_hyphen_values = true)]
    pub fen: Option<String>,
    /// Hash table size in megabytes
    #[arg(long, default_value_t = crate::search::tt::DEFAULT_HASH_MB, value_name = "MB", value_parser = crate::search::tt::parse_hash_mb)]
    pub hash: usize,
    /// Search threads (Lazy SMP, sharing the hash table)
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
}

/// Arguments of `analyse`.
#[derive(Args, Debug)]
pub struct AnalyseArgs {
    /// The variant and setup.
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
    /// Search threads (Lazy SMP, sharing the hash table)
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
}

/// Arguments of `selfplay`.
#[derive(Args, Debug)]
pub struct SelfplayArgs {
    /// The variant and setup.
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
    /// Search threads per engine (Lazy SMP, sharing the hash table)
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
}

const HELP: &str = "\
Moves: coordinates (e3e5, f1h3, e11e12q) or SAN-like (Le4, Pxd6, e4, Nbd2, e12=Q, O-O).
Commands:
  help        this text
  moves       list the legal moves
  hint        ask the engine for a move
  undo        take back the last move (your move and the engine's reply against the engine)
  fen         print the position as FEN
  board/show  draw the board again, with the side to move
  pieces      the pieces: letters, names, movement (XBetza and words)
  rules       the game's rules in plain English
  history     the moves played so far
  save FILE   save the game as PGN (prints the full path)
  quit        leave
Scores are in pawns, from the side named (+ is good for it); #N mates in N moves.";

/// Reads lines from standard input, echoing them when they do not come from a terminal.
struct Input {
    lines: crate::protocol::lineio::LossyLines<std::io::StdinLock<'static>>,
    echo: bool,
}

impl Input {
    fn new() -> Input {
        let stdin = std::io::stdin();
        let echo = !stdin.is_terminal();
        Input {
            lines: crate::protocol::lineio::stdin_lines(),
            echo,
        }
    }

    /// Prints `prompt` and reads a line; `None` at the end of input.
    fn ask(&mut self, prompt: &str) -> Option<String> {
        loop {
            print!("{prompt} ");
            let _ = std::io::stdout().flush();
            match self.lines.next() {
                Some(l) if crate::protocol::lineio::is_too_long(&l) => {
                    println!(
                        "error: the line `{}` is too long (ignored)",
                        crate::protocol::lineio::shown(&l)
                    );
                }
                // A line that is not UTF-8 is reported and the game goes on.
                Some(l) if crate::protocol::lineio::is_garbled(&l) => {
                    println!(
                        "error: the line `{}` is not valid UTF-8 (ignored)",
                        crate::protocol::lineio::shown(&l)
                    );
                }
                Some(l) => {
                    if self.echo {
                        println!("{}", l.trim_end());
                    }
                    return Some(l);
                }
                None => {
                    println!();
                    return None;
                }
            }
        }
    }
}

/// Reads the rules a saved game names (its `Variant` and `SetupChoice` tags), falling back on
/// the command line's variant.
fn rules_for_record(
    rec: &PgnRecord,
    v: &VariantArgs,
    file: &str,
) -> Result<Arc<Ruleset>, UserError> {
    let setup = rec
        .tag("SetupChoice")
        .map(|(s, _)| s.to_string())
        .or_else(|| v.setup.clone());
    // The tag names a built-in game, or the game of the file given with --variant: never a
    // file of its own (a saved game does not choose what is read from the disk).
    let variant = match rec.tag("Variant") {
        Some((name, line)) => {
            let named = |var: &Variant| {
                var.id.eq_ignore_ascii_case(name) || var.title.eq_ignore_ascii_case(name)
            };
            let chosen = Variant::load(&v.variant).ok().filter(|var| named(var));
            match chosen.or_else(|| Variant::builtin_named(name)) {
                Some(var) => var,
                None => {
                    let shown: String = name.chars().take(80).collect();
                    return Err(UserError(format!(
                        "{file}:{line}: unknown variant `{shown}` (not a built-in game; give its file with --variant)"
                    )));
                }
            }
        }
        None => Variant::load(&v.variant)?,
    };
    Ruleset::new(&variant, setup.as_deref()).map_err(|e| match e.at {
        // A problem located in the variant file names that file.
        Some(_) => UserError(e.to_string()),
        None => UserError(format!("{file}: {e}")),
    })
}

/// The largest saved game `--load` reads, in bytes.
const MAX_SAVED_GAME_BYTES: u64 = 16 << 20;

/// Loads a saved game.
fn load_game(path: &std::path::Path, v: &VariantArgs) -> Result<Session, UserError> {
    let file = path.display().to_string();
    let text = crate::files::read_text_file(path, MAX_SAVED_GAME_BYTES, "a saved game (PGN)")?;
    let rec = session::parse_pgn(&text)
        .map_err(|e| UserError(format!("{file}:{}: {}", e.line, e.message)))?;
    let rules = rules_for_record(&rec, v, &file)?;
    Session::from_record(&rules, &rec)
        .map_err(|e| UserError(format!("{file}:{}: {}", e.line, e.message)))
}

/// A score from the searching side's view, turned to `view`'s and labelled.
fn labelled_score(score: Score, searched_by: Color, view: Color) -> String {
    let s = if searched_by == view {
        score
    } else {
        match score {
            Score::Cp(c) => Score::Cp(-c),
            Score::Mate(m) => Score::Mate(-m),
        }
    };
    format!("score for {} {s}", side_name(view))
}

/// One line about a finished search, the score seen by `view`.
fn summary(game: &Session, r: &SearchResult, view: Color) -> String {
    let pv = game.san_line(&r.pv[..r.pv.len().min(8)]);
    let side = game.side_to_move();
    format!(
        "depth {}, {}, {} nodes in {:.2} s ({:.0} kn/s), pv {}",
        r.depth,
        labelled_score(r.score, side, view),
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

fn list_moves(game: &mut Session) -> String {
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

/// Reads `--clock M+S`: minutes (may be fractional) and increment seconds.
pub fn parse_clock(text: &str) -> Result<(Duration, Duration), UserError> {
    let bad = || {
        UserError(format!(
            "--clock `{text}`: write MINUTES+INCREMENT_SECONDS, such as 5+3 or 10+0"
        ))
    };
    let (m, i) = text.split_once('+').unwrap_or((text, "0"));
    let m: f64 = m.trim().parse().map_err(|_| bad())?;
    let i: f64 = i.trim().parse().map_err(|_| bad())?;
    if !(m > 0.0 && m.is_finite() && m <= 10_000.0 && (0.0..=3600.0).contains(&i)) {
        return Err(bad());
    }
    Ok((
        Duration::from_secs_f64(m * 60.0),
        Duration::from_secs_f64(i),
    ))
}

/// `m:ss`, or `s.t` under ten seconds.
fn clock_text(d: Duration) -> String {
    let s = d.as_secs();
    if s < 10 {
        format!("{:.1}", d.as_secs_f64())
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// The terminal's size (lines, columns), from `LINES`/`COLUMNS` or the terminal itself.
fn terminal_size() -> (Option<usize>, Option<usize>) {
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.trim().parse().ok());
    let (mut lines, mut cols): (Option<usize>, Option<usize>) = (env("LINES"), env("COLUMNS"));
    #[cfg(target_os = "linux")]
    if (lines.is_none() || cols.is_none()) && std::io::stdout().is_terminal() {
        #[repr(C)]
        struct WinSize {
            row: u16,
            col: u16,
            xpixel: u16,
            ypixel: u16,
        }
        unsafe extern "C" {
            fn ioctl(fd: i32, request: u64, ...) -> i32;
        }
        const TIOCGWINSZ: u64 = 0x5413;
        let mut ws = WinSize {
            row: 0,
            col: 0,
            xpixel: 0,
            ypixel: 0,
        };
        // SAFETY: TIOCGWINSZ writes one `struct winsize` (four u16) into `ws`.
        let r = unsafe { ioctl(1, TIOCGWINSZ, &mut ws as *mut WinSize) };
        if r == 0 && ws.row > 0 {
            lines = lines.or(Some(ws.row as usize));
            cols = cols.or(Some(ws.col as usize));
        }
    }
    (lines, cols)
}

/// The last moves in SAN with their numbers, fitting `width` columns.
fn move_tail(game: &Session, width: usize) -> String {
    let sans = game.san_moves();
    let mut words = Vec::new();
    let mut number = game.start_position().fullmove_number();
    let mut side = game.start_position().side();
    for (i, s) in sans.iter().enumerate() {
        if side == Color::White {
            words.push(format!("{number}. {s}"));
        } else if i == 0 {
            words.push(format!("{number}... {s}"));
        } else if let Some(last) = words.last_mut() {
            last.push(' ');
            last.push_str(s);
        }
        if side == Color::Black {
            number += 1;
        }
        side = side.flip();
    }
    let mut out = String::new();
    for w in words.iter().rev() {
        if out.len() + w.len() + 9 > width {
            out.insert_str(0, "... ");
            break;
        }
        out.insert_str(0, &format!("{w} "));
    }
    format!("Moves: {}", out.trim_end())
}

/// All the moves, numbered, wrapped before 80 columns.
fn history(game: &Session) -> String {
    let sans = game.san_moves();
    if sans.is_empty() {
        return "No moves yet.".into();
    }
    let mut text = String::new();
    let mut line = String::new();
    let mut number = game.start_position().fullmove_number();
    let mut side = game.start_position().side();
    for (i, s) in sans.iter().enumerate() {
        let w = if side == Color::White {
            format!("{number}. {s}")
        } else if i == 0 {
            format!("{number}... {s}")
        } else {
            s.clone()
        };
        if !line.is_empty() && line.len() + w.len() + 1 > 78 {
            text.push_str(&line);
            text.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
        if side == Color::Black {
            number += 1;
        }
        side = side.flip();
    }
    text.push_str(&line);
    text
}

/// The board, the legend beside it when the terminal is wide enough, and (with `status`) the
/// side to move and whether it is in check on a line under it; `style.flipped` turns the
/// board round (Black at the bottom).
pub fn board_text(
    pos: &Position,
    last: Option<crate::moves::Move>,
    style: Style,
    cols: usize,
    status: bool,
) -> String {
    let rs = pos.rules();
    let g = rs.geometry;
    let room = cols.saturating_sub(board::width(rs) + 2);
    let legend = board::legend(rs, g.ranks as usize + 1, room).unwrap_or_default();
    let mut out = board::render(pos, last, style, &legend);
    if status {
        out.push_str(&format!(
            "{} to move{}.",
            side_name(pos.side()),
            if pos.in_check() { ", in check" } else { "" }
        ));
        if legend.is_empty() {
            out.push_str(" (`pieces` lists the letters)");
        }
        out.push('\n');
    }
    out
}

/// The widest line the terminal game prints for help and the engine's reports.
pub const WRAP: usize = 80;

/// `text` wrapped at word boundaries into lines of at most `width` columns (a word longer
/// than a line stands alone; the spacing between words that stay on a line is kept). A line
/// wraps onto lines indented to its second column, where it has one (a table row: `  undo
/// <spaces> take back...`), else by its own indentation and `more` spaces.
pub fn wrap(text: &str, width: usize, more: usize) -> String {
    let mut out = Vec::new();
    for line in text.lines() {
        let lead = line.len() - line.trim_start().len();
        let column = line[lead..]
            .find("  ")
            .map(|i| lead + i + line[lead + i..].len() - line[lead + i..].trim_start().len());
        let cont = " ".repeat(column.unwrap_or(lead + more));
        let mut cur = String::new();
        let mut rest = line;
        while !rest.is_empty() {
            // The next word with the spaces before it.
            let gap = rest.len() - rest.trim_start().len();
            let end = rest[gap..].find(' ').map_or(rest.len(), |i| gap + i);
            let (piece, word) = (&rest[..end], &rest[gap..end]);
            rest = &rest[end..];
            if word.is_empty() {
                continue;
            }
            if cur.trim().is_empty() {
                cur.push_str(piece);
            } else if cur.chars().count() + piece.chars().count() > width {
                out.push(std::mem::replace(&mut cur, format!("{cont}{word}")));
            } else {
                cur.push_str(piece);
            }
        }
        out.push(cur);
    }
    out.join("\n")
}

/// Runs `play`: a game at the terminal between humans and the engine, until it is quit or
/// the input ends.
pub fn run_play(a: PlayArgs) -> Result<(), UserError> {
    let mut s = Terminal::start(&a)?;
    s.introduce();
    loop {
        if s.show_board {
            s.print_turn();
        }
        let side = s.game.side_to_move();
        let over = s.game.is_over();
        if s.announce_end() && s.humans == 0 {
            return Ok(());
        }
        if !over && s.player(side) == Player::Engine {
            s.engine_move(side)?;
            continue;
        }
        let prompt = if over {
            "Game over (undo, save FILE or quit):".to_string()
        } else {
            format!("{} to move:", side_name(side))
        };
        let asked = std::time::Instant::now();
        let Some(line) = s.input.ask(&prompt) else {
            println!("End of input: goodbye.");
            return Ok(());
        };
        s.thought += asked.elapsed();
        if s.command(line.trim(), side, over)? == Flow::Quit {
            return Ok(());
        }
    }
}

/// Whether the game at the terminal goes on after a command.
#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// A game at the terminal: the players, the engine and what the next turn shows.
struct Terminal<'a> {
    a: &'a PlayArgs,
    /// The game, with its clocks.
    game: Session,
    rules: Arc<Ruleset>,
    engine: Searcher,
    limits: Limits,
    input: Input,
    players: [Player; 2],
    humans: usize,
    /// Scores are shown from the human's side when one human plays, else from White's.
    view: Color,
    /// How the board is drawn: turned round when the one human plays Black.
    style: Style,
    cols: usize,
    compact: bool,
    show_board: bool,
    /// Whether to say who is to move under the board (the prompt says it otherwise).
    with_status: bool,
    /// The number of moves when the end of the game was announced.
    announced: Option<usize>,
    /// Time the human to move has spent at prompts during this turn.
    thought: Duration,
}

impl<'a> Terminal<'a> {
    /// Checks the arguments, loads or sets up the game and makes the engine.
    fn start(a: &'a PlayArgs) -> Result<Terminal<'a>, UserError> {
        if !(a.time.is_none_or(|t| t > 0.0 && t.is_finite())) {
            return Err(UserError(
                "--time must be a positive number of seconds".into(),
            ));
        }
        let clock = a.clock.as_deref().map(parse_clock).transpose()?;
        let mut game = match &a.load {
            Some(path) => load_game(path, &a.v)?,
            None => {
                let rules = load_rules(&a.v)?;
                Session::from_position(load_position(&rules, a.fen.as_deref())?)
            }
        };
        game.set_clocks(clock.map(|(base, increment)| [TimeControl { base, increment }; 2]));
        let rules = game.rules().clone();
        let players = [a.white, a.black];
        let name = |c: Color| {
            if players[c.index()] == Player::Human {
                "Human"
            } else {
                "Polymachy"
            }
        };
        let tags = game.tags_mut();
        tags.retain(|t| t.0 != "White" && t.0 != "Black");
        tags.push(("White".into(), name(Color::White).into()));
        tags.push(("Black".into(), name(Color::Black).into()));
        if let Some(c) = &a.clock {
            tags.push(("TimeControl".into(), c.clone()));
        }
        let limits = engine_limits(a);
        let mut engine =
            Searcher::try_new(&rules, a.hash).map_err(|e| UserError(format!("--hash: {e}")))?;
        engine.set_threads(a.threads as usize);
        engine.set_move_overhead(std::time::Duration::from_millis(a.move_overhead));
        let input = Input::new();
        let humans = players.iter().filter(|&&p| p == Player::Human).count();
        let view = match (a.white, a.black) {
            (Player::Engine, Player::Human) => Color::Black,
            _ => Color::White,
        };
        // Compact: no blank line and one line per engine move, when asked or when a full turn
        // (board, a line each for the two moves, engine details, moves, clocks, prompt) would
        // not fit the terminal.
        let (term_lines, term_cols) = terminal_size();
        let cols = term_cols.unwrap_or(80);
        let full_turn = rules.geometry.ranks as usize + 9;
        let compact = a.compact || term_lines.is_some_and(|l| l < full_turn);
        Ok(Terminal {
            a,
            game,
            rules,
            engine,
            limits,
            input,
            players,
            humans,
            view,
            style: Style {
                ascii: a.ascii || !color_ok(),
                flipped: view == Color::Black,
            },
            cols,
            compact,
            show_board: true,
            with_status: false,
            announced: None,
            thought: Duration::ZERO,
        })
    }

    fn player(&self, c: Color) -> Player {
        self.players[c.index()]
    }

    /// The lines before the first board: the game, who plays, the pieces and the clock.
    fn introduce(&self) {
        let (a, rules) = (self.a, &self.rules);
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
        let pieces = format!(
            "Pieces: {}. White upper case, Black lower case.",
            rules.variant.piece_names().join(", ")
        );
        println!("{}", wrap(&pieces, WRAP, 2));
        if let Some([tc, _]) = self.game.time_controls() {
            println!(
                "Clock: {} each, {} s added per move.",
                clock_text(tc.base),
                tc.increment.as_secs_f64()
            );
        }
        if self.humans > 0 {
            println!("Type `help` for the commands.");
        }
        if let Some(p) = &a.load {
            println!(
                "Loaded {} moves from {}.",
                self.game.moves().len(),
                p.display()
            );
        }
    }

    /// The board, the last moves and the clocks.
    fn print_turn(&mut self) {
        if !self.compact {
            println!();
        }
        let game = &self.game;
        print!(
            "{}",
            board_text(
                game.position(),
                game.last_move(),
                self.style,
                self.cols,
                self.with_status || self.humans == 0 || game.position().in_check()
            )
        );
        if !game.moves().is_empty() {
            println!("{}", move_tail(game, self.cols.min(100)));
        }
        if let (Some(w), Some(b)) = (game.remaining(Color::White), game.remaining(Color::Black)) {
            println!("Clock: White {}  Black {}", clock_text(w), clock_text(b));
        }
        self.show_board = false;
        self.with_status = false;
    }

    /// Announces the end of the game once; whether it did.
    fn announce_end(&mut self) -> bool {
        let Some(v) = self.game.verdict() else {
            return false;
        };
        if self.announced == Some(self.game.moves().len()) {
            return false;
        }
        println!("{v}");
        self.announced = Some(self.game.moves().len());
        true
    }

    /// Charges `used` to the side to move and starts the next turn's count; the verdict when
    /// its flag fell.
    fn charge(&mut self, used: Duration) -> Option<Verdict> {
        self.thought = Duration::ZERO;
        self.game.charge(used)
    }

    /// The engine moves for `side`, on its clock when there is one.
    fn engine_move(&mut self, side: Color) -> Result<(), UserError> {
        let mut pos = self.game.position().clone();
        let mut l = self.limits;
        if let (Some(left), Some(tc)) = (self.game.remaining(side), self.game.time_controls()) {
            l = Limits {
                depth: self.a.depth,
                clock: Some(Clock {
                    remaining: left,
                    increment: tc[side.index()].increment,
                    moves_to_go: None,
                }),
                ..Limits::default()
            };
        }
        let r = self.engine.search(&mut pos, &l, |_| {});
        let Some(mv) = r.best else {
            return Err(UserError("the engine found no move".into()));
        };
        let text = self.game.san(mv);
        let coord = self.game.coord(mv);
        if self.compact {
            let score = labelled_score(r.score, side, self.view);
            let line = format!(
                "{} plays {text} ({coord}): depth {}, {score}",
                side_name(side),
                r.depth
            );
            println!("{}", wrap(&line, WRAP, 2));
        } else {
            println!("{} plays {text} ({coord})", side_name(side));
            let line = format!("  {}", summary(&self.game, &r, self.view));
            println!("{}", wrap(&line, WRAP, 2));
        }
        if self.charge(r.elapsed).is_none() {
            self.game.play(mv).map_err(|e| UserError(e.to_string()))?;
        }
        // One board per full turn: against the engine, after its reply.
        self.show_board = true;
        Ok(())
    }

    /// One line typed at the prompt: a command or a move by `side`.
    fn command(&mut self, line: &str, side: Color, over: bool) -> Result<Flow, UserError> {
        if line.is_empty() {
            return Ok(Flow::Continue);
        }
        let (cmd, arg) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c, r.trim()),
            None => (line, ""),
        };
        match cmd.to_ascii_lowercase().as_str() {
            "help" | "?" => println!("{}", wrap(HELP, WRAP, 2)),
            "quit" | "exit" => {
                println!("Goodbye.");
                return Ok(Flow::Quit);
            }
            "fen" => println!("{}", self.game.fen()),
            "board" | "show" => {
                self.show_board = true;
                self.with_status = true;
            }
            "pieces" | "legend" => print!("{}", board::pieces_text(&self.rules)),
            "rules" => print!("{}", board::rules_text(&self.rules)),
            "history" => println!("{}", history(&self.game)),
            "moves" => {
                if over {
                    println!("The game is over.");
                } else {
                    println!("{}", list_moves(&mut self.game));
                }
            }
            "hint" => self.hint(side, over),
            "undo" => self.undo(),
            "save" => self.save(arg),
            _ => self.human_move(line, side, over)?,
        }
        Ok(Flow::Continue)
    }

    /// `hint`: the engine's move for `side`, searched for two seconds at most.
    fn hint(&mut self, side: Color, over: bool) {
        if over {
            println!("The game is over.");
            return;
        }
        let mut hl = self.limits;
        hl.movetime = Some(
            hl.movetime
                .map_or(Duration::from_secs(2), |t| t.min(Duration::from_secs(2))),
        );
        let mut pos = self.game.position().clone();
        let r = self.engine.search(&mut pos, &hl, |_| {});
        if let Some(mv) = r.best {
            let line = format!(
                "Hint: {} ({}), {}",
                self.game.san(mv),
                self.game.coord(mv),
                labelled_score(r.score, side, side)
            );
            println!("{}", wrap(&line, WRAP, 2));
        }
    }

    /// `undo`: takes back the last move, and against the engine its reply too.
    fn undo(&mut self) {
        if self.game.moves().is_empty() {
            println!("Nothing to undo.");
            return;
        }
        // Against the engine, back to a position where the human is to move.
        let human = [Color::White, Color::Black]
            .into_iter()
            .find(|&c| self.player(c) == Player::Human);
        let taken = match human {
            Some(h) if self.humans == 1 => self.game.undo_to(h),
            _ => self.game.undo().into_iter().collect(),
        };
        let names: Vec<String> = taken.iter().map(|&m| self.game.coord(m)).collect();
        println!("Took back {}.", names.join(" "));
        self.thought = Duration::ZERO;
        self.show_board = true;
    }

    /// `save FILE`: the game as PGN.
    fn save(&mut self, arg: &str) {
        if arg.is_empty() {
            println!("save needs a file name: save FILE");
            return;
        }
        let text = self.game.to_pgn();
        match std::fs::write(arg, text) {
            Ok(()) => {
                let full = std::fs::canonicalize(arg).unwrap_or_else(|_| PathBuf::from(arg));
                println!("Saved to {}.", full.display());
            }
            Err(e) => println!("Cannot write {arg}: {e}"),
        }
    }

    /// A line that is no command: a move by `side`, on its clock when there is one.
    fn human_move(&mut self, line: &str, side: Color, over: bool) -> Result<(), UserError> {
        if over {
            println!("The game is over: undo, save FILE or quit.");
            return Ok(());
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
            return Ok(());
        }
        match self.game.read(line) {
            Ok(mv) => {
                let text = self.game.san(mv);
                if self.charge(self.thought).is_some() {
                    return Ok(());
                }
                self.game.play(mv).map_err(|e| UserError(e.to_string()))?;
                if !self.compact {
                    println!("{} plays {text}", side_name(side));
                }
                // Against the engine the board comes after its reply.
                self.show_board = self.player(side.flip()) == Player::Human || self.game.is_over();
            }
            Err(e) => println!("{e}"),
        }
        Ok(())
    }
}

/// Runs `analyse`: searches one position and prints each iteration and the best move.
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
    let mut engine =
        Searcher::try_new(&rules, a.hash).map_err(|e| UserError(format!("--hash: {e}")))?;
    engine.set_threads(a.threads as usize);
    let r = engine.search(&mut pos, &limits, |info| {
        let pv: Vec<String> = info.pv.iter().map(|&m| session::coord(&rules, m)).collect();
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
        Some(m) => println!("bestmove {}", session::coord(&rules, m)),
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

/// Runs `selfplay`: the engine against itself one ply deeper, and the score.
pub fn run_selfplay(a: SelfplayArgs) -> Result<(), UserError> {
    let rules = load_rules(&a.v)?;
    if a.games == 0 {
        return Err(UserError("--games must be at least 1".into()));
    }
    // The tables are made later, two at a time: a size the machine cannot give is told now.
    crate::search::tt::TranspositionTable::try_new(a.hash)
        .map_err(|e| UserError(format!("--hash: {e}")))?;
    let cfg = MatchConfig {
        games: a.games,
        first: Limits::depth(a.depth + 1),
        second: Limits::depth(a.depth.max(1)),
        opening_plies: a.opening_plies,
        seed: a.seed,
        max_plies: a.max_plies,
        hash_mb: a.hash,
        threads: a.threads as usize,
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
        let result = match g.verdict.reason {
            Reason::Adjudication => "1/2-1/2 adjudicated at the ply limit".to_string(),
            _ => format!("{} {}", g.verdict.result.pgn(), g.verdict),
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

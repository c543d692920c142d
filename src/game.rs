//! A game record over a [`Position`]: the moves played, how the game ended, moves as text and
//! PGN files.
//!
//! **Results.** A side with no legal move is checkmated when its royal piece is attacked,
//! otherwise stalemated, and the variant's `draws.stalemate` says what that means. The same
//! position (same side to move, rights and en-passant square) occurring `draws.repetition`
//! times draws, and so does `draws.move_limit` moves by each side without a capture, a
//! promotion or an irreversible move, and so do the endings of rules (Makruk's counting).
//! Checkmate takes precedence over the move-count rule. The position layer decides all of it
//! ([`Position::verdict`]), for the search as well.
//!
//! **Moves as text** (read and written by [`crate::text::san`], re-exported here). Moves are
//! read in coordinate notation (`e2e4`, `a10a12`, `e11e12q`) or in
//! a SAN-like form: a piece's letter, an optional origin file, rank or square, an optional
//! `x`, the destination and an optional promotion (`Le4`, `Nbd2`, `Pxd6`, `e12=Q`). The most
//! numerous promoting piece of the start position (the pawn) may omit its letter (`e4`,
//! `exd5`). Castling is `O-O` (toward the higher files) or `O-O-O`. Written moves use the same
//! form with a `+` for check and `#` for mate.
//!
//! **PGN.** Saved games carry the seven standard tags, `Variant` (the variant's id),
//! `VariantMen` (each piece's letter and XBetza), `SetupChoice` when a setup choice was made,
//! `SetUp` and `FEN` when the game did not start from the default position, then the moves and
//! the result.

use std::sync::Arc;

use crate::geometry::Color;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::position::Ruleset;

pub use crate::position::{GameResult, Outcome, Termination};

/// How the game stands in `pos` given its history: `None` while it goes on (the one verdict,
/// [`Position::verdict`]).
pub fn outcome(pos: &mut Position) -> Option<Outcome> {
    pos.verdict()
}

pub use crate::text::san::{MoveError, San, SanMove, coord, parse_move, pawn_kind, san};

/// A problem in a PGN file, with its line (from 1).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct PgnError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong there.
    pub message: String,
}

fn pgn_err(line: usize, message: impl Into<String>) -> PgnError {
    PgnError {
        line,
        message: message.into(),
    }
}

/// A PGN game as read, before its moves are checked.
#[derive(Clone, Debug, Default)]
pub struct PgnRecord {
    /// (name, value, line).
    pub tags: Vec<(String, String, usize)>,
    /// (move text, line, move number with dots as written before it, e.g. `12.` or `12...`).
    pub moves: Vec<(String, usize, String)>,
    /// The result token, if any.
    pub result: Option<String>,
}

impl PgnRecord {
    /// A tag's value and line.
    pub fn tag(&self, name: &str) -> Option<(&str, usize)> {
        self.tags
            .iter()
            .find(|t| t.0 == name)
            .map(|t| (t.1.as_str(), t.2))
    }
}

/// Reads the first game of a PGN text: tags and movetext (comments, variations and numeric
/// annotations are skipped).
pub fn parse_pgn(text: &str) -> Result<PgnRecord, PgnError> {
    let mut rec = PgnRecord::default();
    let mut in_moves = false;
    let mut comment_depth_line: Option<usize> = None; // inside { }, started on this line
    let mut variation: Vec<usize> = Vec::new(); // lines where open ( are
    let mut number = String::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw.trim();
        if comment_depth_line.is_none() && variation.is_empty() {
            if l.starts_with('%') {
                continue;
            }
            if l.starts_with('[') {
                if in_moves {
                    // The next game's tags: stop.
                    break;
                }
                rec.tags.push(parse_tag(l, line)?);
                continue;
            }
        }
        if l.is_empty() && comment_depth_line.is_none() {
            continue;
        }
        in_moves = true;
        let chars: Vec<char> = l.chars().collect();
        let mut j = 0;
        while j < chars.len() {
            let c = chars[j];
            if comment_depth_line.is_some() {
                if c == '}' {
                    comment_depth_line = None;
                }
                j += 1;
                continue;
            }
            match c {
                '{' => {
                    comment_depth_line = Some(line);
                    j += 1;
                }
                ';' => break,
                '(' => {
                    variation.push(line);
                    j += 1;
                }
                ')' => {
                    if variation.pop().is_none() {
                        return Err(pgn_err(line, "`)` closes no variation"));
                    }
                    j += 1;
                }
                c if c.is_whitespace() => j += 1,
                _ => {
                    let start = j;
                    while j < chars.len()
                        && !chars[j].is_whitespace()
                        && !matches!(chars[j], '{' | '(' | ')' | ';')
                    {
                        j += 1;
                    }
                    let tok: String = chars[start..j].iter().collect();
                    if !variation.is_empty() {
                        continue;
                    }
                    if matches!(tok.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
                        rec.result = Some(tok);
                        return finish(rec, comment_depth_line, &variation);
                    }
                    if tok.starts_with('$') {
                        continue;
                    }
                    // Move numbers, possibly glued to the move: `12.`, `12...`, `12.Nf3`.
                    let digits = tok.chars().take_while(|c| c.is_ascii_digit()).count();
                    let mut mv = tok.as_str();
                    if digits > 0 && tok[digits..].starts_with('.') {
                        let dots = tok[digits..].chars().take_while(|&c| c == '.').count();
                        number = tok[..digits + dots].to_string();
                        mv = &tok[digits + dots..];
                    }
                    if !mv.is_empty() {
                        rec.moves.push((mv.to_string(), line, number.clone()));
                    }
                }
            }
        }
    }
    finish(rec, comment_depth_line, &variation)
}

fn finish(
    rec: PgnRecord,
    comment: Option<usize>,
    variation: &[usize],
) -> Result<PgnRecord, PgnError> {
    if let Some(l) = comment {
        return Err(pgn_err(l, "the comment `{` opened here is never closed"));
    }
    if let Some(&l) = variation.first() {
        return Err(pgn_err(l, "the variation `(` opened here is never closed"));
    }
    Ok(rec)
}

fn parse_tag(l: &str, line: usize) -> Result<(String, String, usize), PgnError> {
    let bad = || {
        pgn_err(
            line,
            format!("malformed tag `{l}`: expected [Name \"value\"]"),
        )
    };
    let inner = l
        .strip_prefix('[')
        .and_then(|s| s.trim_end().strip_suffix(']'))
        .ok_or_else(bad)?;
    let inner = inner.trim();
    let (name, rest) = inner.split_once(char::is_whitespace).ok_or_else(bad)?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(bad());
    }
    let rest = rest.trim();
    let body = rest
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .ok_or_else(bad)?;
    let mut value = String::new();
    let mut esc = false;
    for c in body.chars() {
        if esc {
            value.push(c);
            esc = false;
        } else if c == '\\' {
            esc = true;
        } else if c == '"' {
            return Err(bad());
        } else {
            value.push(c);
        }
    }
    Ok((name.to_string(), value, line))
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The `VariantMen` value: `letter:XBetza` for each piece (its name: `+P` for a piece without
/// a letter of its own), separated by `;`.
pub fn variant_men(rules: &Ruleset) -> String {
    rules
        .variant
        .pieces
        .iter()
        .map(|p| format!("{}:{}", p.symbol, p.betza_text))
        .collect::<Vec<_>>()
        .join(";")
}

/// Today's date as `YYYY.MM.DD` (UTC).
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let mut days = secs / 86_400;
    let leap = |y: u64| (y.is_multiple_of(4) && !y.is_multiple_of(100)) || y.is_multiple_of(400);
    let mut year = 1970;
    loop {
        let n = if leap(year) { 366 } else { 365 };
        if days < n {
            break;
        }
        days -= n;
        year += 1;
    }
    let lengths = [
        31,
        if leap(year) { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    let mut month = 0;
    while days >= lengths[month] {
        days -= lengths[month];
        month += 1;
    }
    format!("{year:04}.{:02}.{:02}", month + 1, days + 1)
}

/// A game: where it started and the moves played since.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Arc<Ruleset>,
    start: Position,
    pos: Position,
    moves: Vec<Move>,
    /// The legal moves of `pos` once listed, kept until a move is played or taken back: the
    /// position's list is generated once, however many times it is asked for (the move
    /// played is checked against it).
    legal: Option<Vec<Move>>,
    /// Tags written to PGN (names of the players, event...), in addition to the ones derived
    /// from the game.
    pub tags: Vec<(String, String)>,
}

impl Game {
    /// A game from the start position of `rules`.
    pub fn new(rules: &Arc<Ruleset>) -> Game {
        Game::from_position(Position::start(rules))
    }

    /// A game from `pos` (its own history is kept for repetitions, but not written).
    pub fn from_position(pos: Position) -> Game {
        let rules = pos.rules().clone();
        Game {
            rules,
            start: pos.snapshot(),
            pos,
            moves: Vec::new(),
            legal: None,
            tags: Vec::new(),
        }
    }

    /// The rules the game is played by.
    pub fn rules(&self) -> &Arc<Ruleset> {
        &self.rules
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The position the game started from.
    pub fn start_position(&self) -> &Position {
        &self.start
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The last move played, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.moves.last().copied()
    }

    /// The legal moves of the current position (listed once per position).
    pub fn legal_moves(&mut self) -> Vec<Move> {
        self.listed().to_vec()
    }

    /// The legal moves of the current position, listed at the first call after a change.
    fn listed(&mut self) -> &[Move] {
        let pos = &mut self.pos;
        self.legal.get_or_insert_with(|| {
            let mut l = MoveList::new();
            crate::moves::count_generation();
            pos.legal_moves(&mut l);
            l.as_slice().to_vec()
        })
    }

    /// Plays a move after checking that it is legal.
    pub fn play(&mut self, mv: Move) -> Result<(), MoveError> {
        if !self.listed().contains(&mv) {
            return Err(MoveError(format!(
                "{} is not a legal move here",
                coord(&self.rules, mv)
            )));
        }
        self.pos.make(mv);
        self.moves.push(mv);
        self.legal = None;
        Ok(())
    }

    /// Reads a move (see [`parse_move`]) and plays it.
    pub fn play_text(&mut self, text: &str) -> Result<Move, MoveError> {
        let mv = parse_move(&mut self.pos, text)?;
        self.pos.make(mv);
        self.moves.push(mv);
        self.legal = None;
        Ok(mv)
    }

    /// Reads a move without playing it.
    pub fn parse(&mut self, text: &str) -> Result<Move, MoveError> {
        parse_move(&mut self.pos, text)
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.pos.unmake();
        self.legal = None;
        Some(mv)
    }

    /// The SAN-like text of `mv` in the current position.
    pub fn san(&mut self, mv: Move) -> String {
        san(&mut self.pos, mv)
    }

    /// The moves played, as SAN-like text.
    pub fn san_moves(&self) -> Vec<String> {
        let mut p = self.start.clone();
        self.moves
            .iter()
            .map(|&m| {
                let s = san(&mut p, m);
                p.make(m);
                s
            })
            .collect()
    }

    /// How the game ended, if it did.
    pub fn outcome(&mut self) -> Option<Outcome> {
        outcome(&mut self.pos)
    }

    /// Whether the game started from the variant's default start position.
    pub fn default_start(&self) -> bool {
        let rules = &self.rules;
        if rules.setup.is_some() {
            return false;
        }
        let default = Position::start(rules);
        self.start.fen() == default.fen()
    }

    /// The game as PGN.
    pub fn to_pgn(&mut self) -> String {
        self.to_pgn_with(None)
    }

    /// The game as PGN; `ending` is a result and its reason that the board rules do not see
    /// (a resignation, a time forfeit...), written where the game is not over on the board.
    pub fn to_pgn_with(&mut self, ending: Option<(GameResult, String)>) -> String {
        let outcome = self.outcome();
        let get = |name: &str, default: &str| -> String {
            self.tags
                .iter()
                .find(|t| t.0 == name)
                .map(|t| t.1.clone())
                .unwrap_or_else(|| default.to_string())
        };
        // An unfinished game carries the result it was adjudicated, where it was (a `Result`
        // tag set by whoever stopped it), or `*`.
        let result = match (outcome, &ending) {
            (Some(o), _) => o.result.pgn().to_string(),
            (None, Some((r, _))) => r.pgn().to_string(),
            (None, None) => get("Result", "*"),
        };
        let mut tags: Vec<(String, String)> = vec![
            ("Event".into(), get("Event", "Polymachy game")),
            ("Site".into(), get("Site", "?")),
            ("Date".into(), get("Date", &today())),
            ("Round".into(), get("Round", "-")),
            ("White".into(), get("White", "?")),
            ("Black".into(), get("Black", "?")),
            ("Result".into(), result.clone()),
            ("Variant".into(), self.rules.variant.id.clone()),
            ("VariantMen".into(), variant_men(&self.rules)),
        ];
        if let Some(s) = &self.rules.setup {
            tags.push(("SetupChoice".into(), s.clone()));
        }
        if !self.default_start() {
            tags.push(("SetUp".into(), "1".into()));
            tags.push(("FEN".into(), self.start.fen()));
        }
        if outcome.is_some() {
            tags.push(("Termination".into(), "normal".into()));
        }
        for (k, v) in &self.tags {
            if !tags.iter().any(|t| &t.0 == k) && k != "SetUp" && k != "FEN" {
                tags.push((k.clone(), v.clone()));
            }
        }
        let mut out = String::new();
        for (k, v) in &tags {
            out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
        }
        out.push('\n');
        // Movetext, wrapped before 80 columns.
        let mut words: Vec<String> = Vec::new();
        let sans = self.san_moves();
        let mut number = self.start.fullmove_number();
        let mut side = self.start.side();
        for (i, s) in sans.iter().enumerate() {
            if side == Color::White {
                words.push(format!("{number}."));
            } else if i == 0 {
                words.push(format!("{number}..."));
            }
            words.push(s.clone());
            if side == Color::Black {
                number += 1;
            }
            side = side.flip();
        }
        if let Some(o) = outcome {
            words.push(format!("{{{o}}}"));
        } else if let Some((_, why)) = &ending {
            words.push(format!("{{{why}}}"));
        }
        words.push(result);
        out.push_str(&pgn_movetext(&words));
        out.push('\n');
        out
    }

    /// Replays a PGN record under `rules`, checking every move.
    pub fn from_record(rules: &Arc<Ruleset>, rec: &PgnRecord) -> Result<Game, PgnError> {
        if let Some((men, line)) = rec.tag("VariantMen") {
            let ours = variant_men(rules);
            if men.replace(' ', "") != ours {
                return Err(pgn_err(
                    line,
                    format!(
                        "the pieces of this game ({men}) are not those of {} ({ours})",
                        rules.variant.title
                    ),
                ));
            }
        }
        let pos = match rec.tag("FEN") {
            Some((fen, line)) => {
                Position::from_fen(rules, fen).map_err(|e| pgn_err(line, e.to_string()))?
            }
            None => Position::start(rules),
        };
        let mut game = Game::from_position(pos);
        for (name, value, _) in &rec.tags {
            if matches!(
                name.as_str(),
                "Event" | "Site" | "Date" | "Round" | "White" | "Black"
            ) {
                game.tags.push((name.clone(), value.clone()));
            }
        }
        for (i, (text, line, number)) in rec.moves.iter().enumerate() {
            if let Some(o) = game.outcome() {
                return Err(pgn_err(
                    *line,
                    format!("move {text}: the game is already over ({o})"),
                ));
            }
            let label = if number.is_empty() {
                format!("move {}", i + 1)
            } else {
                format!("move {number} {text}")
            };
            game.play_text(text)
                .map_err(|e| pgn_err(*line, format!("{label}: {e}")))?;
        }
        Ok(game)
    }
}

/// PGN movetext: the words joined by spaces, in lines of at most 79 characters (no final
/// newline).
pub fn pgn_movetext<S: AsRef<str>>(words: &[S]) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for w in words {
        let w = w.as_ref();
        if !line.is_empty() && line.len() + 1 + w.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(w);
    }
    out.push_str(&line);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chess() -> Arc<Ruleset> {
        let v = crate::variant::Variant::load("chess").unwrap();
        Ruleset::new(&v, None).unwrap()
    }

    #[test]
    fn san_round_trip_in_the_opening() {
        let rs = chess();
        let mut p = Position::start(&rs);
        let mut l = MoveList::new();
        p.legal_moves(&mut l);
        for &m in l.iter() {
            let s = san(&mut p, m);
            assert_eq!(parse_move(&mut p, &s), Ok(m), "{s}");
            let c = coord(&rs, m);
            assert_eq!(parse_move(&mut p, &c), Ok(m), "{c}");
        }
    }

    #[test]
    fn dates_are_formatted() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
    }
}

//! CECP v2 (XBoard/WinBoard), with engine-defined variants: when the GUI selects a variant the
//! engine describes it with `setup` (piece letters, board size, start FEN) and one `piece`
//! command per piece giving its XBetza, as XBoard 4.9 understands. Variants with more piece
//! types than XBoard's 22 slots (the Terachess games) are not offered in CECP.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::{Engine, Out};
use crate::geometry::{Color, Square};
use crate::moves::Move;
use crate::position::Ruleset;
use crate::search::{Clock, Limits, Score};
use crate::session::{GameResult, Reason, Session, Verdict};
use crate::variant::{BUILTIN, Variant};

/// XBoard's piece slots, in the order of its piece-to-char table (the King last).
const SLOTS: &[u8] = b"PNBRQFEACWMOHIJGDVLSUK";

/// Slots whose built-in behaviour XBoard keeps whatever the `piece` command says: the Pawn
/// promotes and the Lance is promoted on the last rank (XBoard appends `q` to its moves
/// there). Only a piece that promotes may sit in the Pawn slot; no piece sits in the Lance's.
const PAWN_SLOT: usize = 0;
const LANCE_SLOT: usize = 18;

/// The built-in variant that is XBoard's "normal" game (FIDE chess): `new` starts it, and a
/// `variant` command that follows selects another.
const NORMAL: &str = "chess";

/// The legal moves of `pos` that leave a piece unpromoted where it could become a piece
/// written `+X` (Shogi's promotions): XBoard writes such a move with the suffix `=`.
fn declining_moves(pos: &mut crate::position::Position) -> Vec<crate::moves::Move> {
    let rules = pos.rules().clone();
    let mut legal = crate::moves::MoveList::new();
    pos.legal_moves(&mut legal);
    let plus = |m: &crate::moves::Move| {
        m.promotion()
            .is_some_and(|k| rules.variant.pieces[k].demotes_to.is_some())
    };
    legal
        .iter()
        .filter(|m| {
            m.promo == 0
                && m.dropped().is_none()
                && legal
                    .iter()
                    .any(|p| p.from == m.from && p.to == m.to && plus(p))
        })
        .copied()
        .collect()
}

/// The XBoard text of an en-passant capture that XBoard would not make right from its plain
/// coordinates: two legs, the first onto the victim beside the capturer, the second from there
/// to the destination (`d6e6,e6e7`), which XBoard plays as a capture on the first leg's
/// square. XBoard 4.9 removes an en-passant victim itself only when the capturing Pawn stands
/// in the half of the board nearer the opponent: true of a double step from the start rank,
/// not of one made from any rank (Perfect 12's Pawns), where from its plain coordinates it
/// would move the Pawn and leave the victim on the board. `None` for a move XBoard makes
/// itself: a Pawn taking a Pawn from that half, the victim one or two squares behind the
/// destination. XBoard accepts the two legs through the Pawn's own `e` capture when it has
/// set the rights, which it does for the piece in its Pawn slot only.
pub fn ep_legs(pos: &crate::position::Position, mv: Move) -> Option<String> {
    if mv.kind != crate::moves::MoveKind::EnPassant {
        return None;
    }
    let rules = pos.rules();
    let g = rules.geometry;
    let victim = pos.capture_square(mv)?;
    let pawn = crate::session::pawn_kind(rules);
    let kind = |sq: Square| Some(crate::moves::kind_of(pos.piece_at(sq)));
    let (fr, tr, vr) = (g.rank(mv.from), g.rank(mv.to), g.rank(victim));
    let far_half = match pos.side() {
        Color::White => fr >= g.ranks / 2,
        Color::Black => fr < g.ranks / 2,
    };
    let behind = g.file(victim) == g.file(mv.to) && (1..=2).contains(&tr.abs_diff(vr));
    if kind(mv.from) == pawn && kind(victim) == pawn && far_half && behind {
        return None;
    }
    // The two-leg form: the victim beside the capturer.
    if vr != fr || g.file(victim).abs_diff(g.file(mv.from)) != 1 {
        return None;
    }
    let text = crate::session::coord(rules, mv);
    let rest = text
        .strip_prefix(g.name(mv.from).to_string().as_str())
        .unwrap_or(&text)
        .trim_end_matches(crate::session::EP_SUFFIX);
    let (v, from) = (g.name(victim), g.name(mv.from));
    Some(format!("{from}{v},{v}{rest}"))
}

/// A locust move in XBoard's two legs (`e5e6,e6e7`: to the square it takes on the way, then
/// on), as XBoard writes the Chu Lion's double moves. `None` for any other move.
pub fn locust_legs(rules: &crate::position::Ruleset, mv: Move) -> Option<String> {
    let mid = mv.locust_square()?;
    let g = rules.geometry;
    let text = crate::session::coord(rules, mv);
    let (from, mid) = (g.name(mv.from).to_string(), g.name(mid).to_string());
    let rest = text.strip_prefix(&format!("{from}{mid}"))?;
    Some(format!("{from}{mid},{mid}{rest}"))
}

/// A move XBoard wrote in legs as Polymachy reads it. Legs that follow each other
/// (`d6e6,e6e7`: the second starts where the first ends) are a capture on the first leg's
/// square on the way, which in Polymachy's games is an en-passant capture ([`ep_legs`]): the
/// first leg's origin, the last leg's destination and suffix, and `ep`. Legs that do not
/// (XBoard's form of a castling, the King's step then the partner's) are the first leg, the
/// King's move. Text without a comma is returned as it is.
fn join_legs(text: &str) -> String {
    let legs: Vec<&str> = text.split(',').collect();
    if legs.len() < 2 {
        return text.to_string();
    }
    let square_len = |t: &str| {
        let b = t.as_bytes();
        let mut i = 0;
        while i < b.len() && b[i].is_ascii_lowercase() {
            i += 1;
        }
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        i
    };
    let from = |leg: &str| leg[..square_len(leg)].to_string();
    let to = |leg: &str| {
        let rest = &leg[square_len(leg)..];
        rest[..square_len(rest)].to_string()
    };
    let chained = legs.windows(2).all(|w| to(w[0]) == from(w[1]));
    if !chained {
        return legs[0].to_string();
    }
    let last = legs[legs.len() - 1];
    let rest = &last[square_len(last)..];
    let suffix = if rest.ends_with(crate::session::EP_SUFFIX) {
        ""
    } else {
        crate::session::EP_SUFFIX
    };
    format!("{}{rest}{suffix}", from(legs[0]))
}

/// The ways Polymachy may read a move XBoard wrote ([`xb_ranks`] with `shift` +1), the most
/// likely first: two legs that follow each other (`e5e6,e6e7`) are an en-passant capture
/// or, in games with locust moves, a capture on the first leg's square on the way
/// (`e5e6e7`: the Chu Lion's double move).
pub fn xb_readings(ranks: u8, text: &str) -> Vec<String> {
    let mut out = vec![xb_ranks(ranks, text, 1)];
    // The length of the square name that `t` starts with (letters, then digits).
    let square_len = |t: &str| {
        let letters = t.bytes().take_while(u8::is_ascii_lowercase).count();
        letters + t[letters..].bytes().take_while(u8::is_ascii_digit).count()
    };
    if let Some((first, second)) = text.split_once(',') {
        let mid = &second[..square_len(second)];
        let first_to = &first[square_len(first)..];
        if !mid.is_empty() && first_to == mid {
            out.push(xb_ranks(
                ranks,
                &format!("{first}{}", &second[mid.len()..]),
                1,
            ));
        }
    }
    out
}

/// The variant name XBoard uses for a built-in one.
fn xb_name(id: &str) -> &str {
    if id == NORMAL { "normal" } else { id }
}

/// Whether XBoard can show a variant: one royal type and room for the others in the slots
/// that XBoard does not alter.
fn fits(v: &Variant) -> bool {
    let royal = v.pieces.iter().filter(|p| p.royal).count();
    royal == 1 && v.pieces.len() < SLOTS.len()
}

/// The piece-to-char table of a variant: the pawn (the most numerous promoting piece) in the
/// Pawn slot, the royal piece in the King's, each other piece in the slot of its own letter
/// when that slot is free and unaltered by XBoard, else in the first such free slot. A piece
/// without a letter of its own (written `+X` or `N'`) takes a letter no other piece has
/// ([`Variant::stand_in_letters`]; a variant XBoard can show has letters to spare): XBoard's
/// table holds one letter a piece, and its FENs write a piece written `+X` so as Polymachy's
/// do, and one written `N'` by that letter ([`xb_names`]).
pub fn piece_to_char(rules: &Ruleset) -> String {
    let v = &rules.variant;
    let letters = v.stand_in_letters(|_| true);
    let mut table = vec![b'.'; SLOTS.len()];
    let king = SLOTS.len() - 1;
    let pawn = crate::session::pawn_kind(rules);
    let usable = |i: usize| i != PAWN_SLOT && i != LANCE_SLOT && i != king;
    let mut rest = Vec::new();
    for (k, p) in v.pieces.iter().enumerate() {
        let l = letters[k].unwrap_or('?') as u8;
        if p.royal {
            table[king] = l;
        } else if Some(k) == pawn {
            table[PAWN_SLOT] = l;
        } else {
            rest.push(l);
        }
    }
    let mut later = Vec::new();
    for l in rest {
        match SLOTS.iter().position(|&s| s == l) {
            Some(i) if usable(i) && table[i] == b'.' => table[i] = l,
            _ => later.push(l),
        }
    }
    for l in later {
        if let Some(i) = (0..king).find(|&i| usable(i) && table[i] == b'.') {
            table[i] = l;
        }
    }
    let white: String = table.iter().map(|&b| b as char).collect();
    let black: String = white.chars().map(|c| c.to_ascii_lowercase()).collect();
    format!("{white}{black}")
}

/// A FEN with its rights written as XBoard keeps them: a right that the king's file letter
/// also names (the king leap, which XBoard writes Shredder-style as `Gg`) uses that letter.
pub fn xb_fen(rules: &Ruleset, fen: &str) -> String {
    let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    if fields.len() < 3 || fields[2] == "-" {
        return fen.to_string();
    }
    let g = rules.geometry;
    let royal_file = |white: bool| {
        rules.start.iter().enumerate().find_map(|(i, &p)| {
            (p != crate::moves::EMPTY
                && rules.is_royal(p)
                && (crate::moves::color_of(p) == Color::White) == white)
                .then(|| g.file(Square::from_index(i)))
        })
    };
    let parse = |c: char| {
        rules
            .compiled_rules()
            .iter()
            .find_map(|h| h.parse_right(rules, c))
    };
    let rights: String = fields[2]
        .chars()
        .map(|c| {
            let white = c.is_ascii_uppercase();
            let Some(f) = royal_file(white) else { return c };
            let letter = crate::geometry::Geometry::file_char(f);
            let letter = if white {
                letter.to_ascii_uppercase()
            } else {
                letter.to_ascii_lowercase()
            };
            if letter != c && parse(letter).is_some() && parse(letter) == parse(c) {
                letter
            } else {
                c
            }
        })
        .collect();
    fields[2] = rights;
    fields.join(" ")
}

/// `text` (a FEN, a move, a principal variation) with the names of the pieces written with a
/// letter and a prime (`N'`) replaced by the letters XBoard's piece table gives them
/// ([`Variant::with_stand_ins`]; a variant XBoard can show has letters to spare).
pub fn xb_names(rules: &Ruleset, text: &str) -> String {
    let v = &rules.variant;
    if !v.pieces.iter().any(crate::variant::PieceDef::primed) {
        return text.to_string();
    }
    v.with_stand_ins(text, &v.stand_in_letters(|_| true))
}

/// A FEN from XBoard with the letters its piece table gives the pieces written `N'` read back
/// as those names, in the placement and the hand (the first field) only.
fn from_xb_names(rules: &Ruleset, fen: &str) -> String {
    let v = &rules.variant;
    if !v.pieces.iter().any(crate::variant::PieceDef::primed) {
        return fen.to_string();
    }
    let letters = v.stand_in_letters(|_| true);
    let (first, rest) = fen.trim().split_once(' ').unwrap_or((fen.trim(), ""));
    let first = v.from_stand_ins(first, &letters);
    if rest.is_empty() {
        first
    } else {
        format!("{first} {rest}")
    }
}

/// Further readings of moves XBoard wrote (`readings`, from [`xb_readings`]) in a variant
/// with pieces written `N'`: the letter XBoard's table gives such a piece read as its name,
/// in a drop (`X@e4`: `N'@e4`) or a promotion's suffix (`e7e8x`: `e7e8n'`). Tried after the
/// readings themselves, whose letters may be squares' or suffixes'.
fn xb_primed_readings(rules: &Ruleset, readings: &[String]) -> Vec<String> {
    let v = &rules.variant;
    if !v.pieces.iter().any(crate::variant::PieceDef::primed) {
        return Vec::new();
    }
    let letters = v.stand_in_letters(|_| true);
    let mut out = Vec::new();
    for r in readings {
        let read = match r.split_once('@') {
            Some((piece, to)) => format!("{}@{to}", v.from_stand_ins(piece, &letters)),
            None => {
                let end = r.rfind(|c: char| c.is_ascii_digit()).map_or(0, |i| i + 1);
                format!("{}{}", &r[..end], v.from_stand_ins(&r[end..], &letters))
            }
        };
        if read != *r && !out.contains(&read) {
            out.push(read);
        }
    }
    out
}

/// The position of a `setboard` FEN. XBoard 4.9 writes ranks above 9 with the characters
/// that follow `9` (`:` is rank 10) and, on boards of more than 10 ranks, may write an
/// en-passant square that no pawn passed (`g:` in Metamachy's start position): such a field
/// is read as `-`, with a note (the second value) that says so.
pub fn setboard_position(
    rules: &Arc<Ruleset>,
    fen: &str,
) -> Result<(crate::position::Position, Option<String>), String> {
    use crate::position::Position;
    let named = from_xb_names(rules, fen);
    let fen = named.as_str();
    let first = match Position::from_fen(rules, fen) {
        Ok(p) => return Ok((p, None)),
        Err(e) => e.to_string(),
    };
    let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    if fields.len() < 4 || fields[3] == "-" {
        return Err(first);
    }
    let ep = fields[3].clone();
    // `g:` → `g10`, `g;` → `g11`, ...
    let mut chars = ep.chars();
    let file = chars.next().unwrap_or('-');
    let rank: String = chars
        .map(|c| match c {
            ':'..='?' => (c as u32 - '0' as u32).to_string(),
            _ => c.to_string(),
        })
        .collect();
    fields[3] = format!("{file}{rank}");
    if let Ok(p) = Position::from_fen(rules, &fields.join(" ")) {
        return Ok((p, None));
    }
    fields[3] = "-".into();
    match Position::from_fen(rules, &fields.join(" ")) {
        Ok(p) => Ok((
            p,
            Some(format!(
                "en-passant field `{ep}` names no square a pawn passed: read as `-`"
            )),
        )),
        Err(_) => Err(first),
    }
}

/// Moves as XBoard writes them. On a board of exactly ten ranks XBoard numbers the ranks from
/// 0 (the Xiangqi convention: Shako's `f3f4` is `f2f3` for XBoard); elsewhere from 1, as
/// Polymachy does. `shift` is -1 from Polymachy's numbering to XBoard's and +1 back; every
/// square name (a letter followed by digits) in `text` is renumbered. Read back (`shift` +1),
/// a move in legs (`d6e6,e6e7`) becomes one move first (`d6e7ep`).
pub fn xb_ranks(ranks: u8, text: &str, shift: i32) -> String {
    let joined;
    let text = if shift > 0 {
        joined = join_legs(text);
        joined.as_str()
    } else {
        text
    };
    if ranks != 10 {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i] as char;
        out.push(c);
        i += 1;
        if c.is_ascii_lowercase() {
            let start = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            if i > start {
                let n: i32 = text[start..i].parse().unwrap_or(0);
                out.push_str(&(n + shift).to_string());
            }
        }
    }
    out
}

struct Cecp {
    eng: Engine,
    out: Out,
    engine_side: Option<Color>,
    analyzing: bool,
    post: bool,
    limits: Limits,
    moves_per_session: Option<u32>,
    increment: Duration,
    remaining: Option<Duration>,
    /// The move a finished search played, to be made on the engine's board.
    pending: Arc<Mutex<Option<Move>>>,
    /// The built-in variants, loaded once (when the features are sent) so that `variant`
    /// is answered at once.
    loaded: Vec<Variant>,
}

/// Runs a CECP session over `lines` until `quit` or the end of input.
pub fn run(
    lines: impl Iterator<Item = String>,
    out: Out,
    variant: &str,
    setup: Option<&str>,
) -> Result<(), String> {
    let eng = Engine::new(variant, setup, super::DEFAULT_HASH_MB)?;
    let mut s = Cecp {
        eng,
        out,
        engine_side: Some(Color::Black),
        analyzing: false,
        post: true,
        limits: Limits::movetime(Duration::from_secs(5)),
        moves_per_session: None,
        increment: Duration::ZERO,
        remaining: None,
        pending: Arc::new(Mutex::new(None)),
        loaded: Vec::new(),
    };
    for line in lines {
        if super::lineio::is_too_long(&line) {
            s.out.line(&format!(
                "Error (line too long): {}",
                super::lineio::shown(&line)
            ));
            continue;
        }
        let line = line.trim().to_string();
        if line.is_empty() {
            continue;
        }
        if super::lineio::is_garbled(&line) {
            s.out.line(&format!(
                "Error (not valid UTF-8): {}",
                super::lineio::shown(&line)
            ));
            continue;
        }
        if !s.eng.searching() {
            s.sync();
        }
        let (cmd, arg) = line
            .split_once(' ')
            .map(|(a, b)| (a, b.trim()))
            .unwrap_or((line.as_str(), ""));
        if cmd == "quit" {
            s.halt();
            return Ok(());
        }
        s.command(cmd, arg, &line);
    }
    // End of input: a move search (bounded) may finish and play; analysis stops.
    if s.analyzing {
        s.halt();
    } else {
        s.sync();
    }
    Ok(())
}

/// Whether `o` is a draw by a rule XBoard cannot verify: not stalemate, repetition, the
/// move-count rule (except where [`counts_unlike_xboard`]) or checkmate, which it judges itself.
fn unjudged_draw(o: Verdict, rules: &Ruleset) -> bool {
    o.result == GameResult::Draw
        && (matches!(o.reason, Reason::Counting | Reason::Rule(_))
            || (o.reason == Reason::MoveLimit && counts_unlike_xboard(rules)))
}

/// Whether no piece of the game promotes (Xiangqi): XBoard's own move count then restarts at
/// every move of its Pawn (there the Soldier), the rule's count only at captures, so XBoard
/// cannot verify a draw by the move-count rule either.
fn counts_unlike_xboard(rules: &Ruleset) -> bool {
    rules
        .variant
        .pieces
        .iter()
        .all(|p| p.promotes_to.is_empty())
}

/// The legal moves in `pos` after which the game is drawn by a rule XBoard does not judge
/// (see [`unjudged_draw`]); none where no rule of the variant ends games.
fn unjudged_draws(pos: &mut crate::position::Position) -> Vec<Move> {
    let rules = pos.rules().clone();
    if !rules.has_rule_endings() && !counts_unlike_xboard(&rules) {
        return Vec::new();
    }
    let mut legal = crate::moves::MoveList::new();
    pos.legal_moves(&mut legal);
    let mut out = Vec::new();
    for &m in legal.iter() {
        pos.make(m);
        if pos
            .verdict()
            .is_some_and(|o| unjudged_draw(Verdict::of(o), &rules))
        {
            out.push(m);
        }
        pos.unmake();
    }
    out
}

impl Cecp {
    /// One command other than `quit`: `cmd` is its first word, `arg` the rest.
    fn command(&mut self, cmd: &str, arg: &str, line: &str) {
        let s = self;
        match cmd {
            "xboard" | "accepted" | "rejected" | "random" | "hard" | "easy" | "computer"
            | "name" | "rating" | "ics" | "otim" | "bk" | "hint" => {}
            // The opponent offers a draw: accepted (by offering one back) only where this
            // engine's rules have drawn the game already (see `report_end`).
            "draw" => {
                if s.eng
                    .game
                    .verdict()
                    .is_some_and(|o| o.result == GameResult::Draw)
                {
                    s.out.line("offer draw");
                }
            }
            "protover" => s.features(),
            "ping" => s.out.line(&format!("pong {arg}")),
            "cores" | "memory" => s.resources(cmd, arg),
            "new" => s.new_game(),
            "variant" => s.select_variant(arg),
            "force" => {
                s.halt();
                s.engine_side = None;
            }
            "go" => {
                s.halt();
                s.engine_side = Some(s.eng.game.side_to_move());
                s.think();
            }
            "playother" => {
                s.halt();
                s.engine_side = Some(s.eng.game.side_to_move().flip());
            }
            "usermove" => s.user_move(arg),
            "setboard" => s.set_board(arg),
            "undo" | "remove" => {
                s.halt();
                let n = if cmd == "undo" { 1 } else { 2 };
                for _ in 0..n {
                    s.eng.game.undo();
                }
                s.restart_analysis();
            }
            "level" => s.level(arg),
            "st" | "sd" | "time" => s.time_control(cmd, arg),
            "?" => s.eng.stop(),
            "post" => s.post = true,
            "nopost" => s.post = false,
            "analyze" => {
                s.halt();
                s.analyzing = true;
                s.engine_side = None;
                s.think();
            }
            "exit" => {
                s.halt();
                s.analyzing = false;
            }
            "." => {}
            "result" => {
                s.halt();
                s.engine_side = None;
            }
            "option" => s.option(arg),
            _ => {
                // A bare move (when usermove=1 was not accepted).
                let ranks = s.eng.rules.geometry.ranks;
                if xb_readings(ranks, line)
                    .iter()
                    .any(|t| s.eng.game.read(t).is_ok())
                {
                    s.user_move(line);
                } else {
                    s.out.line(&format!("Error (unknown command): {line}"));
                }
            }
        }
    }

    /// CECP's `cores N` (with feature smp=1) and `memory MB` (feature memory=1).
    fn resources(&mut self, cmd: &str, arg: &str) {
        if cmd == "cores" {
            match arg.parse::<usize>() {
                Ok(n) if (1..=crate::search::MAX_THREADS).contains(&n) => self.eng.set_threads(n),
                _ => self.out.line(&format!(
                    "Error (cores must be 1 to {}): {arg}",
                    crate::search::MAX_THREADS
                )),
            }
            return;
        }
        match arg.parse::<usize>() {
            Ok(mb) if mb >= 1 => {
                let mb = mb.min(crate::search::tt::MAX_HASH_MB);
                if let Err(e) = self.eng.set_hash(mb) {
                    self.out.line(&format!("Error ({e}): memory {arg}"));
                }
            }
            _ => self.out.line(&format!(
                "Error (memory must be a number of megabytes): {arg}"
            )),
        }
    }

    /// `new`: the standard game, the engine playing Black.
    fn new_game(&mut self) {
        self.halt();
        // CECP: `new` is the standard game; XBoard sends `variant` after it otherwise.
        let cached = self.loaded.iter().find(|v| v.id == NORMAL).cloned();
        match cached.map_or_else(|| Variant::load(NORMAL), Ok) {
            Ok(v) => self.switch(v),
            Err(e) => self.out.line(&format!("Error (new): {e}")),
        }
        self.engine_side = Some(Color::Black);
        self.analyzing = false;
        self.limits.depth = None;
    }

    /// `variant NAME`.
    fn select_variant(&mut self, arg: &str) {
        self.halt();
        let id = if arg == "normal" { NORMAL } else { arg };
        let cached = self.loaded.iter().find(|v| v.id == id).cloned();
        match cached.map_or_else(|| Variant::load(id), Ok) {
            Ok(v) => {
                self.switch(v);
                self.describe();
            }
            Err(e) => self.out.line(&format!(
                "Error (unknown variant): {arg} {}",
                e.lines.first().cloned().unwrap_or_default()
            )),
        }
    }

    /// `setboard FEN`.
    fn set_board(&mut self, arg: &str) {
        self.halt();
        match setboard_position(&self.eng.rules, arg) {
            Ok((p, note)) => {
                if let Some(n) = note {
                    self.out.line(&format!("# {n}"));
                }
                self.eng.set_game(Session::from_position(p));
                self.restart_analysis();
            }
            Err(e) => self
                .out
                .line(&format!("tellusererror Illegal position: {e}")),
        }
    }

    /// `st SECONDS`, `sd DEPTH` and `time CENTISECONDS`.
    fn time_control(&mut self, cmd: &str, arg: &str) {
        match cmd {
            "st" => match arg.parse::<f64>() {
                Ok(t) if t > 0.0 => {
                    self.limits = Limits::movetime(Duration::from_secs_f64(t));
                    self.moves_per_session = None;
                    self.remaining = None;
                }
                _ => self.out.line(&format!("Error (bad argument): st {arg}")),
            },
            "sd" => match arg.parse::<u32>() {
                Ok(d) if d > 0 => self.limits.depth = Some(d),
                _ => self.out.line(&format!("Error (bad argument): sd {arg}")),
            },
            _ => match arg.parse::<u64>() {
                Ok(cs) => self.remaining = Some(Duration::from_millis(cs * 10)),
                _ => self.out.line(&format!("Error (bad argument): time {arg}")),
            },
        }
    }
}

impl Cecp {
    fn features(&mut self) {
        // XBoard waits for `done=1` once it has seen `done=0`, so the slower list of
        // variants below cannot race its two-second time-out.
        self.out.line("feature done=0");
        if self.loaded.is_empty() {
            self.loaded = BUILTIN
                .iter()
                .filter_map(|(n, _)| Variant::load(n).ok())
                .collect();
        }
        let names: Vec<String> = self
            .loaded
            .iter()
            .filter(|v| fits(v))
            .map(|v| xb_name(&v.id).to_string())
            .collect();
        self.out.line(&format!(
            "feature myname=\"Polymachy {}\" variants=\"{}\" setboard=1 usermove=1 ping=1 sigint=0 sigterm=0 colors=0 analyze=1 reuse=1 time=1 debug=1 smp=1 memory=1",
            env!("CARGO_PKG_VERSION"),
            names.join(",")
        ));
        self.out.line("feature option=\"Setup -string \"");
        self.out.line(&format!(
            "feature option=\"Move Overhead -spin {} 0 {}\"",
            crate::search::DEFAULT_MOVE_OVERHEAD_MS,
            crate::search::time::MAX_MOVE_OVERHEAD_MS
        ));
        self.out.line("feature done=1");
    }

    /// Stops a search and plays or drops its move.
    fn halt(&mut self) {
        self.eng.stop();
        self.sync();
    }

    /// Makes the move of a finished search on the engine's board, and reports a game end.
    fn sync(&mut self) {
        self.eng.wait();
        let mv = self.pending.lock().ok().and_then(|mut p| p.take());
        if let Some(mv) = mv
            && self.eng.game.play(mv).is_ok()
        {
            self.report_end();
        }
    }

    fn switch(&mut self, v: Variant) {
        let hash = self.eng.hash_mb;
        match Engine::with_variant(v, None, hash) {
            Ok(e) => {
                let old = std::mem::replace(&mut self.eng, e);
                self.eng.keep_settings(&old);
            }
            Err(e) => self.out.line(&format!("Error (variant): {e}")),
        }
    }

    /// Describes the current variant to the GUI.
    fn describe(&self) {
        let v = &self.eng.variant;
        if v.id == NORMAL {
            return;
        }
        // With hands, XBoard keeps a holding for every kind that may be in one.
        let holdings = if self.eng.rules.has_hands() {
            v.pieces.iter().filter(|p| !p.royal).count()
        } else {
            0
        };
        self.out.line(&format!(
            "setup ({}) {}x{}+{holdings}_fairy {}",
            piece_to_char(&self.eng.rules),
            v.files,
            v.ranks,
            xb_fen(
                &self.eng.rules,
                &xb_names(
                    &self.eng.rules,
                    &crate::position::Position::start(&self.eng.rules).fen()
                )
            )
        ));
        let rs = &self.eng.rules;
        let letters = v.stand_in_letters(|_| true);
        for (k, p) in v.pieces.iter().enumerate() {
            let extra: String = rs
                .compiled_rules()
                .iter()
                .filter_map(|h| h.notation_hint(rs, k))
                .collect();
            // `&` makes the description hold for both colours (without it XBoard applies it
            // to White's piece only).
            let letter = letters[k].unwrap_or('?');
            self.out
                .line(&format!("piece {letter}& {}{extra}", p.betza));
        }
    }

    fn user_move(&mut self, text: &str) {
        self.halt();
        let ranks = self.eng.rules.geometry.ranks;
        let mut readings = xb_readings(ranks, text);
        let primed = xb_primed_readings(&self.eng.rules, &readings);
        readings.extend(primed);
        let Some(reading) = readings.iter().find(|t| self.eng.game.read(t).is_ok()) else {
            self.out.line(&format!("Illegal move: {text}"));
            return;
        };
        if self.eng.play_text(reading).is_err() {
            self.out.line(&format!("Illegal move: {text}"));
            return;
        }
        if self.report_end() {
            return;
        }
        if self.analyzing {
            self.restart_analysis();
        } else if self.engine_side == Some(self.eng.game.side_to_move()) {
            self.think();
        }
    }

    fn restart_analysis(&mut self) {
        if self.analyzing {
            self.think();
        }
    }

    /// Prints the result when the game is over; returns whether it is. A draw by a rule
    /// XBoard does not judge (the counting rules, a rule file's own ending) is offered, not
    /// claimed: XBoard with its legality test on takes a claim it cannot verify for a false
    /// one and gives the game to the other side, while two engines offering a draw agree it.
    fn report_end(&mut self) -> bool {
        match self.eng.game.verdict() {
            Some(o) if unjudged_draw(o, self.eng.game.rules()) => {
                self.out.line("offer draw");
                self.engine_side = None;
                true
            }
            Some(o) => {
                self.out.line(&format!("{} {{{o}}}", o.result.pgn()));
                self.engine_side = None;
                true
            }
            None => false,
        }
    }

    fn think(&mut self) {
        let mut limits = if self.analyzing {
            Limits::default()
        } else {
            self.limits
        };
        if let Some(rem) = self.remaining.filter(|_| !self.analyzing) {
            limits.movetime = None;
            limits.clock = Some(Clock {
                remaining: rem,
                increment: self.increment,
                moves_to_go: self.moves_per_session.map(|m| self.to_go(m)),
            });
        }
        let post = self.post;
        let o1 = self.out.clone();
        let o2 = self.out.clone();
        let analyzing = self.analyzing;
        let pending = self.pending.clone();
        // The moves here that decline a promotion to a piece written `+X` (Shogi): XBoard
        // writes them with `=`, and so does the engine.
        let declines = declining_moves(&mut self.eng.game.position().snapshot());
        // The en-passant captures here that XBoard takes in two legs.
        let legs: Vec<(Move, String)> = {
            let mut pos = self.eng.game.position().snapshot();
            let mut legal = crate::moves::MoveList::new();
            pos.legal_moves(&mut legal);
            legal
                .iter()
                .filter_map(|&m| {
                    ep_legs(&pos, m)
                        .or_else(|| locust_legs(pos.rules(), m))
                        .map(|t| (m, t))
                })
                .collect()
        };
        // The moves here after which the game is drawn by a rule XBoard does not judge: the
        // engine offers the draw with the move, as the opponent will on receiving it (XBoard
        // relays an offer only once the offerer has moved again, which it then never does).
        let offers = if analyzing {
            Vec::new()
        } else {
            unjudged_draws(&mut self.eng.game.position().snapshot())
        };
        self.eng.go(
            limits,
            move |rules, info| {
                if post {
                    let score = match info.score {
                        Score::Cp(c) => c,
                        Score::Mate(m) if m > 0 => 100_000 + m,
                        Score::Mate(m) => -100_000 + m,
                    };
                    let pv = xb_ranks(
                        rules.geometry.ranks,
                        &xb_names(rules, &super::pv_text(rules, &info.pv)),
                        -1,
                    );
                    o1.line(&format!(
                        "{} {} {} {} {}",
                        info.depth,
                        score,
                        info.elapsed.as_millis() / 10,
                        info.nodes,
                        pv
                    ));
                }
            },
            move |rules, r| {
                if analyzing {
                    return;
                }
                if let Some(m) = r.best {
                    if let Ok(mut p) = pending.lock() {
                        *p = Some(m);
                    }
                    let mut text = xb_names(rules, &crate::session::coord(rules, m));
                    if declines.contains(&m) {
                        text.push('=');
                    }
                    if let Some((_, legs)) = legs.iter().find(|(l, _)| *l == m) {
                        text = xb_names(rules, legs);
                    }
                    o2.line(&format!(
                        "move {}",
                        xb_ranks(rules.geometry.ranks, &text, -1)
                    ));
                    if offers.contains(&m) {
                        o2.line("offer draw");
                    }
                }
            },
        );
    }

    fn to_go(&self, mps: u32) -> u32 {
        let played = (self.eng.game.position().fullmove_number().saturating_sub(1)) % mps.max(1);
        mps - played
    }

    /// `level MPS BASE INC`, BASE in minutes or minutes:seconds.
    fn level(&mut self, arg: &str) {
        let parts: Vec<&str> = arg.split_whitespace().collect();
        if parts.len() != 3 {
            self.out.line(&format!("Error (bad argument): level {arg}"));
            return;
        }
        let mps = parts[0].parse::<u32>().ok();
        let base = parts[1].split_once(':').map_or_else(
            || parts[1].parse::<f64>().ok().map(|m| m * 60.0),
            |(m, s)| Some(m.parse::<f64>().ok()? * 60.0 + s.parse::<f64>().ok()?),
        );
        let inc = parts[2].parse::<f64>().ok();
        match (mps, base, inc) {
            (Some(mps), Some(base), Some(inc)) => {
                self.moves_per_session = if mps == 0 { None } else { Some(mps) };
                self.increment = Duration::from_secs_f64(inc.max(0.0));
                self.remaining = Some(Duration::from_secs_f64(base.max(0.0)));
                self.limits = Limits::default();
            }
            _ => self.out.line(&format!("Error (bad argument): level {arg}")),
        }
    }

    fn option(&mut self, arg: &str) {
        match arg.split_once('=') {
            Some(("Setup", value)) => {
                self.halt();
                let v = self.eng.variant.clone();
                let hash = self.eng.hash_mb;
                let setup = if value.trim().is_empty() {
                    None
                } else {
                    Some(value.trim())
                };
                match Engine::with_variant(v, setup, hash) {
                    Ok(e) => {
                        let old = std::mem::replace(&mut self.eng, e);
                        self.eng.keep_settings(&old);
                        self.describe();
                    }
                    Err(e) => self.out.line(&format!("tellusererror {e}")),
                }
            }
            Some(("Move Overhead", value)) => {
                match crate::search::time::parse_move_overhead(value) {
                    // Read by the next search; a running one keeps its budget.
                    Ok(ms) => self.eng.move_overhead_ms = ms,
                    Err(e) => self.out.line(&format!("Error (Move Overhead {e}): {arg}")),
                }
            }
            _ => self.out.line(&format!("Error (unknown option): {arg}")),
        }
    }
}

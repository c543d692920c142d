//! FEN, read and written: `placement side rights ep halfmove fullmove` (see `docs/variant-format.md`).
//!
//! Placement: ranks from the top and empty runs of one or two digits; side `w`/`b`; rights:
//! letters owned by the variant's hooks (`KQkq` for castling, `K`/`k` for the king leap; `-`
//! for none); the en-passant squares (written: every square the last step passed over, one
//! after the other, `e3` after a double step, `e3e4` after a triple step; read too: only some
//! of them, as Fairy-Stockfish writes only those a capture can land on; `-` for none);
//! halfmove clock; fullmove number. Missing trailing fields default to `- - 0 1`. Reading
//! gives an unchecked [`Setup`]; [`Position::from_setup`] checks it and finds the step.
//!
//! Hands, as Fairy-Stockfish writes them: in a variant with hands the placement is followed by
//! the pieces in hand in brackets, White's in upper case then Black's in lower case
//! (`RNBQKBNR[Qp]`; `[]` or `[-]` when both are empty), and a piece that got its kind by
//! promotion is followed by `~` (`Q~`). Both are read in any variant (brackets may be left out
//! or empty; pieces in hand or `~` in a variant without hands are refused when checked).
//!
//! A piece that is the promoted form of another (`demotes-to`, Shogi's Tokin, or a piece
//! without a letter of its own, `letter = "+P"`) is written `+` and the other's letter (`+P`,
//! `+b`), on the board and in hand, and read so; a piece written with a letter and a prime
//! (`letter = "N'"`, a kind of its own, as XBoard names its extra pieces) is written `N'`
//! (`n'` Black's), and its promoted form `+N'`. A FEN with only the clocks after the side
//! (`w 0 1`, Fairy-Stockfish's Shogi start) is read as `w - - 0 1`.

use std::fmt;
use std::sync::Arc;

use crate::geometry::Color;
use crate::moves::{EMPTY, MAX_KINDS, SquareSet, color_of, kind_of};
use crate::position::Ruleset;
use crate::position::hooks::StateFields;
use crate::position::{EpSquares, FenError, MAX_CLOCK, MAX_STATE, Position, Problem, Setup};

impl Setup {
    /// Reads a FEN's fields without checking the position they describe. Field problems are
    /// all reported.
    pub fn from_fen(rules: &Ruleset, fen: &str) -> Result<Setup, Vec<Problem>> {
        let g = rules.geometry;
        let mut problems = Vec::new();
        let mut fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(vec![Problem::Empty]);
        }
        // Fairy-Stockfish writes a Shogi start as `... w 0 1`: the side and the two clocks.
        let digits = |f: &str| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit());
        if fields.len() == 4 && digits(fields[2]) && digits(fields[3]) {
            fields.splice(2..2, ["-", "-"]);
        }
        let mut s = Setup {
            board: vec![EMPTY; g.size()],
            side: Color::White,
            rights: 0,
            ep: EpSquares::NONE,
            halfmove: 0,
            fullmove: 1,
            hand: [[0; MAX_KINDS]; 2],
            promoted: SquareSet::default(),
            state: [0; MAX_STATE],
        };
        read_placement(rules, fields[0], &mut s, &mut problems);
        s.side = match fields.get(1).copied() {
            None | Some("w") => Color::White,
            Some("b") => Color::Black,
            Some(x) => {
                problems.push(Problem::Side(x.into()));
                Color::White
            }
        };
        let rights_text = fields.get(2).filter(|&&r| r != "-").copied().unwrap_or("");
        let mut unclaimed = String::new();
        for c in rights_text.chars() {
            match rules
                .compiled_rules()
                .iter()
                .find_map(|h| h.parse_right(rules, c))
            {
                Some(b) => s.rights |= b,
                None => unclaimed.push(c),
            }
        }
        if let Some(&h) = fields.get(4) {
            match parse_clock(h) {
                Ok(n) => s.halfmove = n,
                Err(true) => problems.push(Problem::HalfmoveTooLarge(h.into())),
                Err(false) => problems.push(Problem::HalfmoveNotANumber(h.into())),
            }
        }
        // Rules with state in the FEN take their fields first (Makruk's count stands where
        // the en-passant square and the halfmove clock do).
        let mut state = StateFields {
            board: &s.board,
            hands: &s.hand,
            ep: fields.get(3).filter(|&&e| e != "-").map(|e| e.to_string()),
            halfmove: s.halfmove,
            rights: rights_text.to_string(),
            unclaimed,
        };
        for h in rules.compiled_rules() {
            if let Err(m) = h.read_state(rules, &mut state, &mut s.state) {
                problems.push(Problem::Placement(format!("{}: {m}", h.name())));
            }
        }
        problems.extend(state.unclaimed.chars().map(Problem::UnknownRight));
        s.halfmove = state.halfmove;
        if let Some(e) = &state.ep {
            match parse_ep(g, e) {
                Ok(set) => s.ep = set,
                Err(bad) => problems.push(Problem::EpNotASquare(bad)),
            }
        }
        if let Some(&f) = fields.get(5) {
            match parse_clock(f) {
                Ok(n) if n >= 1 => s.fullmove = n,
                Err(true) => problems.push(Problem::FullmoveTooLarge(f.into())),
                _ => problems.push(Problem::FullmoveNotANumber(f.into())),
            }
        }
        if fields.len() > 6 {
            problems.push(Problem::TooManyFields(fields.len()));
        }
        if problems.is_empty() {
            Ok(s)
        } else {
            Err(problems)
        }
    }
}

/// Reads the FEN's first field into `s`: the board, the promoted marks and the hands.
fn read_placement(rules: &Ruleset, field: &str, s: &mut Setup, problems: &mut Vec<Problem>) {
    let (placement, hand) = match split_hand(field) {
        Ok(parts) => parts,
        Err(p) => {
            problems.push(p);
            (field, None)
        }
    };
    let (plain, marked) = strip_marks(placement);
    match crate::variant::parse_placement_codes(&rules.variant, &plain) {
        Ok(b) => {
            s.board = b;
            s.promoted = mark_squares(rules, &s.board, &marked);
        }
        Err(es) => problems.extend(es.into_iter().map(Problem::Placement)),
    }
    if let Some(h) = hand {
        match read_hand(rules, h) {
            Ok(hand) => s.hand = hand,
            Err(p) => problems.push(p),
        }
    }
}

/// The placement and, when it ends with one, the bracketed hand (`RNBQKBNR[Qp]`).
fn split_hand(field: &str) -> Result<(&str, Option<&str>), Problem> {
    let Some(open) = field.find('[') else {
        if field.contains(']') {
            return Err(Problem::Placement(
                "`]` without `[` in the placement".into(),
            ));
        }
        return Ok((field, None));
    };
    match field[open + 1..].strip_suffix(']') {
        Some(h) if !h.contains(['[', ']']) => Ok((&field[..open], Some(h))),
        _ => Err(Problem::Placement(
            "the pieces in hand must be written in brackets at the end of the placement \
             (`RNBQKBNR[Qp]`)"
                .into(),
        )),
    }
}

/// The placement without its `~` marks, and, for each piece letter in order, whether a `~`
/// follows it.
fn strip_marks(placement: &str) -> (String, Vec<bool>) {
    let mut plain = String::with_capacity(placement.len());
    let mut marked = Vec::new();
    for c in placement.chars() {
        if c == '~' {
            if let Some(m) = marked.last_mut() {
                *m = true;
            }
            continue;
        }
        if c.is_ascii_alphabetic() {
            marked.push(false);
        }
        plain.push(c);
    }
    (plain, marked)
}

/// The squares of the pieces marked `~`: the n-th piece letter of the placement is the n-th
/// piece met reading the board from the top rank, each rank from the a-file.
fn mark_squares(rules: &Ruleset, board: &[crate::moves::Code], marked: &[bool]) -> SquareSet {
    let g = rules.geometry;
    let mut set = SquareSet::default();
    if !marked.contains(&true) {
        return set;
    }
    let mut i = 0;
    for r in (0..g.ranks).rev() {
        for f in 0..g.files {
            let sq = g.square(f, r);
            if board.get(sq.index()).is_some_and(|&c| c != EMPTY) {
                if marked.get(i) == Some(&true) {
                    set.insert(sq);
                }
                i += 1;
            }
        }
    }
    set
}

/// The pieces in hand: names as the board writes them (upper case White's, lower case
/// Black's: `P`, `+P`, `N'`), `-` or nothing for none.
fn read_hand(rules: &Ruleset, text: &str) -> Result<[[u8; MAX_KINDS]; 2], Problem> {
    let mut hand = [[0u8; MAX_KINDS]; 2];
    if text == "-" {
        return Ok(hand);
    }
    for (_, c) in crate::variant::split_symbols(text) {
        let Some(code) = rules.code_of_symbol(&c) else {
            let what = match c.chars().count() {
                1 => "has that letter",
                _ => "is written so",
            };
            return Err(Problem::Placement(format!(
                "`{c}` in hand: no piece of this variant {what}"
            )));
        };
        let n = &mut hand[color_of(code).index()][kind_of(code)];
        *n = n.saturating_add(1);
    }
    Ok(hand)
}

/// The en-passant field: one or more squares written one after the other (`e3`, `e3e4`,
/// `c10c9`), each a file letter and a rank number. `Err` names the part that is not a square of
/// the board (the whole field when it cannot be split into squares).
fn parse_ep(g: crate::geometry::Geometry, field: &str) -> Result<EpSquares, String> {
    let b = field.as_bytes();
    let mut set = EpSquares::NONE;
    let mut i = 0;
    while i < b.len() {
        let start = i;
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if !b[start].is_ascii_lowercase() || i == start + 1 {
            return Err(field.into());
        }
        let part = &field[start..i];
        let sq = g.parse_square(part).ok_or_else(|| part.to_string())?;
        if !set.push(sq) {
            return Err(field.into());
        }
    }
    if set.is_empty() {
        return Err(field.into());
    }
    Ok(set)
}

/// A clock field: `Err(true)` when it is all digits but over [`MAX_CLOCK`], `Err(false)` when
/// it is not a number.
fn parse_clock(s: &str) -> Result<u32, bool> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(false);
    }
    match s.parse::<u64>() {
        Ok(n) if n <= MAX_CLOCK as u64 => Ok(n as u32),
        _ => Err(true),
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

impl Position {
    /// Reads a FEN. Every problem is reported at once.
    pub fn from_fen(rules: &Arc<Ruleset>, fen: &str) -> Result<Position, FenError> {
        let setup = Setup::from_fen(rules, fen).map_err(|problems| FenError { problems })?;
        Position::from_setup(rules, &setup)
    }

    /// What no game reaches in this position, though it is played all the same (Fairy-Stockfish
    /// reads such positions, and perft counts from them are compared), each a sentence for a
    /// warning: a piece where it must promote on arriving, which no rule puts there otherwise
    /// (a Knight on Shogi's last rank, which has no move).
    pub fn oddities(&self) -> Vec<String> {
        let rs = self.rules();
        let mut out = Vec::new();
        for sq in rs.geometry.squares() {
            let c = self.piece_at(sq);
            if c == EMPTY {
                continue;
            }
            let (k, color) = (kind_of(c), color_of(c));
            let arrival = rs.arrival(k, color, sq);
            if arrival.stay
                || arrival.choices.is_empty()
                || rs
                    .compiled_rules()
                    .iter()
                    .any(|h| h.can_place(rs, k, color, sq))
            {
                continue;
            }
            let side = if color == Color::White {
                "White"
            } else {
                "Black"
            };
            out.push(format!(
                "a {side} {} on {}: rule promotion makes it promote on arriving there, so no game puts it there",
                rs.variant.pieces[k].name,
                rs.geometry.name(sq)
            ));
        }
        out
    }

    /// Writes the position as FEN.
    pub fn fen(&self) -> String {
        let rs = self.rules();
        let g = rs.geometry;
        let mut s = String::new();
        for r in (0..g.ranks).rev() {
            let mut empty = 0;
            for f in 0..g.files {
                let sq = g.square(f, r);
                if g.is_hole(sq) {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push('*');
                    continue;
                }
                let c = self.board()[sq.index()];
                if c == EMPTY {
                    empty += 1;
                } else {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push_str(&rs.variant.fen_symbol(kind_of(c), color_of(c)));
                    if self.is_promoted(sq) {
                        s.push('~');
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if r > 0 {
                s.push('/');
            }
        }
        if rs.has_hands() {
            s.push('[');
            for color in [Color::White, Color::Black] {
                for k in (0..rs.variant.pieces.len()).rev() {
                    let symbol = rs.variant.fen_symbol(k, color);
                    for _ in 0..self.hand(color, k) {
                        s.push_str(&symbol);
                    }
                }
            }
            s.push(']');
        }
        s.push_str(if self.side() == Color::White {
            " w "
        } else {
            " b "
        });
        let mut rights = String::new();
        for h in rs.compiled_rules() {
            h.write_rights(rs, self.rights(), &mut rights);
        }
        let mut fields = StateFields {
            board: &self.board()[..g.size()],
            hands: self.hands(),
            ep: None,
            halfmove: self.halfmove_clock(),
            rights,
            unclaimed: String::new(),
        };
        if !self.ep_squares().is_empty() {
            let names = self.ep_squares().as_slice().iter();
            fields.ep = Some(names.map(|&e| g.name(e).to_string()).collect());
        }
        for h in rs.compiled_rules() {
            h.write_state(rs, self.state(), &mut fields);
        }
        s.push_str(if fields.rights.is_empty() {
            "-"
        } else {
            &fields.rights
        });
        s.push(' ');
        s.push_str(fields.ep.as_deref().unwrap_or("-"));
        s.push_str(&format!(" {} {}", fields.halfmove, self.fullmove_number()));
        s
    }
}

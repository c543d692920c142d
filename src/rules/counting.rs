//! `counting`: Makruk's counting rules, as Fairy-Stockfish plays them.
//!
//! ```toml
//! [rules.counting]
//! pawns = "P"      # letters: the pieces whose presence on the board holds the count off
//!                  # (default: every piece that promotes)
//! board = 64       # integer, default 64: the board's honour count, in moves
//! pieces = ["RR 8", "R 16", "SS 22", "NN 32", "S 44"]
//!                  # the pieces' honour count: the first line whose pieces the stronger side
//!                  # has (at least these) gives the count, in moves; default: none
//! otherwise = 64   # integer, default 64: the pieces' honour count when no line fits
//! counted-from = "pieces"  # "pieces" (default) or "zero": where the pieces' honour's count
//!                  # starts
//! ```
//!
//! `board = 0` and `otherwise = 0` mean no count: ASEAN chess (as Fairy-Stockfish plays it) has
//! no board's honour, counts only for a bare King facing a Rook (16), a Khon (44) or a Knight
//! (64), and starts the count from zero: `board = 0`, `pieces = ["R 16", "B 44", "N 64"]`,
//! `otherwise = 0`, `counted-from = "zero"`.
//!
//! Two counts end a game that a side cannot win:
//! - **the board's honour**: once no pawn is left on the board (either side's), a count of
//!   `board` moves starts, for a side that still has pieces besides its King facing a side
//!   that has too;
//! - **the pieces' honour**: once a side is left with its bare King, the count is the one its
//!   opponent's material gives (`pieces`, else `otherwise`), and it starts from the number of
//!   pieces on the board (both Kings included), so the more pieces the stronger side keeps,
//!   the fewer moves it has.
//!
//! The count runs in plies, one each move of either side, and the game is drawn once it is past
//! the count (checkmate first: a side that is mated loses though the count ran out). The exact
//! steps are Fairy-Stockfish's (`Position::counting_limit`, `do_move`, `is_optional_game_end`),
//! so its adjudications and ours agree: after each move, with the side now to move `S` and the
//! side that moved `M`:
//! 1. a count that runs goes one ply on;
//! 2. when no count runs, or the move captured and left `S` a bare King, the count is set up
//!    again: none while a pawn stands on the board or while `M` has a bare King; the board's
//!    honour (`board`, the ply count from 0) when `S` has more than its King; else the pieces'
//!    honour by `M`'s pieces, the ply count starting at twice the pieces on the board (or at
//!    0, `counted-from = "zero"`). Where none applies, a count that runs goes on.
//!
//! The count is two words of rule state: its length in plies (hashed: a position under count
//! is another position) and the plies counted (not hashed, so that repetitions are found as
//! Fairy-Stockfish finds them). Both are written in the FEN as Fairy-Stockfish writes them: the
//! length where the en-passant square stands and the plies counted in place of the halfmove
//! clock (`8/8/8/4k3/8/8/3R4/4K3 b - 32 6 1`: a count of 16 moves, 6 plies counted).

use super::{Registered, join, spec_as};
use crate::position::hooks::{
    Code, Color, EMPTY, Move, Outcome, Params, Position, Rule, RuleSpec, Ruleset, StateFields,
    StateWords, Termination, Variant, code,
};

pub const REGISTERED: Registered = Registered {
    name: "counting",
    about: "Makruk's counting: a side must win within a count of moves",
    parse: |p, v| CountingSpec::build(p, v).map(|s| Box::new(s) as Box<dyn RuleSpec>),
    compile: |s, b| {
        let spec = spec_as::<CountingSpec>(s)?.clone();
        let limit = b.claim_state(1, true)?;
        let ply = b.claim_state(1, false)?;
        b.update_state_on_make();
        b.ends_games();
        Ok(Box::new(Counting { spec, limit, ply }))
    },
};

/// The counting table as read: counts in moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountingSpec {
    /// The kinds whose presence holds the count off.
    pub pawns: Vec<usize>,
    /// The board's honour count.
    pub board: u16,
    /// The pieces' honour counts: (kind, how many at least) all held, then the count.
    pub pieces: Vec<(Vec<(usize, u32)>, u16)>,
    /// The pieces' honour count when no line fits (0: none).
    pub otherwise: u16,
    /// Whether the pieces' honour is counted from twice the pieces on the board (Makruk), or
    /// from zero (ASEAN).
    pub from_pieces: bool,
}

impl RuleSpec for CountingSpec {
    fn name(&self) -> &'static str {
        "counting"
    }
    fn clone_spec(&self) -> Box<dyn RuleSpec> {
        Box::new(self.clone())
    }
}

impl CountingSpec {
    fn build(p: &mut Params<'_, '_>, v: &Variant) -> Option<CountingSpec> {
        let pawns = p.letters("pawns", v).unwrap_or_else(|| {
            (0..v.pieces.len())
                .filter(|&k| !v.pieces[k].promotes_to.is_empty())
                .collect()
        });
        let board = p.int("board", 0, 10_000).unwrap_or(64) as u16;
        let otherwise = p.int("otherwise", 0, 10_000).unwrap_or(64) as u16;
        let from_pieces = match p.string("counted-from") {
            None => true,
            Some((s, _)) if s == "pieces" => true,
            Some((s, _)) if s == "zero" => false,
            Some((s, span)) => {
                p.error(
                    span,
                    format!("`rules.counting.counted-from`: \"{s}\" is neither \"pieces\" nor \"zero\""),
                    Some("\"pieces\" starts the pieces' honour at twice the pieces on the board (Makruk), \"zero\" at 0 (ASEAN)".into()),
                );
                true
            }
        };
        let mut pieces = Vec::new();
        for (line, span) in p.strings("pieces").unwrap_or_default() {
            match parse_line(&line, v) {
                Ok(l) => pieces.push(l),
                Err(m) => p.error(
                    span,
                    format!("`rules.counting.pieces`: \"{line}\": {m}"),
                    Some("write the stronger side's pieces, a space and the count in moves: \"RR 8\"".into()),
                ),
            }
        }
        Some(CountingSpec {
            pawns,
            board,
            pieces,
            otherwise,
            from_pieces,
        })
    }
}

/// One line of `pieces`: `"RR 8"` (two Rooks at least: 8 moves).
fn parse_line(line: &str, v: &Variant) -> Result<(Vec<(usize, u32)>, u16), String> {
    let mut parts = line.split_whitespace();
    let (Some(letters), Some(n), None) = (parts.next(), parts.next(), parts.next()) else {
        return Err("expected pieces and a count".into());
    };
    let n: u16 = n
        .parse()
        .ok()
        .filter(|&n| (1..=10_000).contains(&n))
        .ok_or_else(|| format!("`{n}` is not a count from 1 to 10000"))?;
    let mut need: Vec<(usize, u32)> = Vec::new();
    for (_, c) in crate::variant::split_symbols(letters) {
        let k = v
            .kind_by_symbol(&c)
            .filter(|_| !c.chars().any(|x| x.is_ascii_lowercase()))
            .ok_or_else(|| crate::variant::params_no_piece(&c))?;
        match need.iter_mut().find(|(kind, _)| *kind == k) {
            Some((_, m)) => *m += 1,
            None => need.push((k, 1)),
        }
    }
    Ok((need, n))
}

/// In play: the count's length and progress in two state words.
#[derive(Clone, Debug)]
struct Counting {
    spec: CountingSpec,
    /// The slot of the count's length in plies (0: no count runs).
    limit: usize,
    /// The slot of the plies counted.
    ply: usize,
}

impl Counting {
    /// The count, in moves, that applies after a move, `pos.side()` to move (0: none):
    /// Fairy-Stockfish's `counting_limit` for Makruk.
    #[inline]
    fn count_for(&self, pos: &Position) -> u16 {
        let us = pos.side();
        let them = us.flip();
        let pawns: u32 = self
            .spec
            .pawns
            .iter()
            .map(|&k| pos.count(code(k, Color::White)) + pos.count(code(k, Color::Black)))
            .sum();
        if pawns > 0 || pos.occupied(them).len() == 1 {
            return 0;
        }
        if pos.occupied(us).len() > 1 {
            return self.spec.board;
        }
        self.spec
            .pieces
            .iter()
            .find(|(need, _)| need.iter().all(|&(k, n)| pos.count(code(k, them)) >= n))
            .map_or(self.spec.otherwise, |l| l.1)
    }
}

impl Rule for Counting {
    fn name(&self) -> &'static str {
        "counting"
    }

    fn on_make(&self, pos: &Position, _mv: Move, captured: Code, state: &mut StateWords) {
        let bare = |pos: &Position| pos.occupied(pos.side()).len() == 1;
        if state[self.limit] != 0 {
            state[self.ply] = state[self.ply].saturating_add(1);
            // A running count is set up again only by a capture that leaves a bare King.
            if captured == EMPTY || !bare(pos) {
                return;
            }
        }
        let count = self.count_for(pos);
        if count == 0 {
            return;
        }
        state[self.limit] = count.saturating_mul(2);
        state[self.ply] = if bare(pos) && self.spec.from_pieces {
            let all = pos.occupied(Color::White).len() + pos.occupied(Color::Black).len();
            (2 * all).min(u16::MAX as u32) as u16
        } else {
            0
        };
    }

    fn ending(&self, pos: &Position) -> Option<Outcome> {
        let s = pos.state();
        (s[self.limit] != 0 && s[self.ply] > s[self.limit])
            .then_some(Outcome::draw(Termination::Counting))
    }

    fn read_state(
        &self,
        _rs: &Ruleset,
        fields: &mut StateFields,
        state: &mut StateWords,
    ) -> Result<(), String> {
        let Some(text) = fields.ep.as_deref() else {
            return Ok(());
        };
        if !text.starts_with(|c: char| c.is_ascii_digit()) {
            return Ok(());
        }
        let limit: u16 = text
            .parse()
            .map_err(|_| format!("the count `{text}` is not a number of plies up to 65535"))?;
        fields.ep = None;
        state[self.limit] = limit;
        if limit != 0 && fields.halfmove != 0 {
            state[self.ply] = fields.halfmove.min(u16::MAX as u32) as u16;
            fields.halfmove = 0;
        }
        Ok(())
    }

    fn write_state(&self, _rs: &Ruleset, state: &StateWords, fields: &mut StateFields) {
        if state[self.limit] != 0 {
            fields.ep = Some(state[self.limit].to_string());
            fields.halfmove = state[self.ply] as u32;
        }
    }

    fn explain(&self, rs: &Ruleset) -> String {
        let s = &self.spec;
        let mut lines: Vec<String> = s
            .pieces
            .iter()
            .map(|(need, n)| {
                let what: Vec<String> = need
                    .iter()
                    .map(|&(k, m)| {
                        let name = &rs.variant.pieces[k].name;
                        if m == 1 {
                            format!("a {name}")
                        } else {
                            format!("{m} {name}s")
                        }
                    })
                    .collect();
                format!("{} {n}", join(&what, "and"))
            })
            .collect();
        if s.otherwise != 0 {
            lines.push(format!("anything else {}", s.otherwise));
        }
        let pawns = if s.pawns.is_empty() {
            String::new()
        } else {
            format!(
                " once no {} is left on the board",
                kinds_plain(rs, &s.pawns)
            )
        };
        let royal = super::royal_name(rs);
        let board = if s.board == 0 {
            String::new()
        } else {
            format!(
                "The board's honour{pawns}: {} moves, while both sides have more than their \
                 {royal}. ",
                s.board
            )
        };
        let none = if s.otherwise == 0 {
            "; no count for anything else"
        } else {
            ""
        };
        let pawns_too = if s.board == 0 && !s.pawns.is_empty() {
            format!(" and no {} is on the board", kinds_plain(rs, &s.pawns))
        } else {
            String::new()
        };
        let from = if s.from_pieces {
            "counted from the number of pieces on the board"
        } else {
            "counted from zero"
        };
        format!(
            "Counting: a side must win within a count of moves or the game is drawn. {board}\
             The pieces' honour, once a side has only its {royal} left{pawns_too}: the \
             stronger side's material sets the count ({}{none}), {from}. Checkmate on the last \
             move still wins.",
            lines.join(", ")
        )
    }
}

/// The names of kinds joined with "or", without articles: "Pawn".
fn kinds_plain(rs: &Ruleset, ks: &[usize]) -> String {
    let names: Vec<String> = ks
        .iter()
        .map(|&k| rs.variant.pieces[k].name.clone())
        .collect();
    join(&names, "or")
}

#[cfg(test)]
mod tests {
    use crate::position::hooks::{Builder, MAX_STATE, Ruleset, Variant};

    /// Makruk's ruleset as the registry compiles it, owned (for a builder of one's own).
    fn makruk() -> Ruleset {
        let v = Variant::load("makruk").unwrap();
        let rs = Ruleset::assemble(&v, None, &super::super::Registry).unwrap();
        std::sync::Arc::try_unwrap(rs).unwrap()
    }

    #[test]
    fn state_words_are_handed_out_and_keyed_as_claimed() {
        let mut rs = makruk();
        // The count claimed two words: its length (hashed) and its progress (not).
        assert_eq!(rs.state.used, 2);
        assert_eq!(rs.state.hashed, 0b01);
        assert_eq!(rs.dispatch.state_makers.len(), 1);
        assert_eq!(rs.dispatch.enders.len(), 1);
        let mut b = Builder {
            rs: &mut rs,
            index: 0,
        };
        assert!(
            b.claim_state(MAX_STATE - 1, false).is_err(),
            "only 2 are left"
        );
        assert_eq!(b.claim_state(2, true), Ok(2));
        assert!(b.claim_state(1, false).is_err());
        // Value 0 and unhashed words have no key; every other value of a hashed word its own.
        assert_eq!(rs.z_state(0, 0), 0);
        assert_eq!(rs.z_state(1, 7), 0);
        let keys: Vec<u64> = (1..200).map(|v| rs.z_state(0, v)).collect();
        let mut unique = keys.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), keys.len());
        assert!(!keys.contains(&0));
        assert_ne!(rs.z_state(0, 5), rs.z_state(2, 5));
    }
}

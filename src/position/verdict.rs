//! How a game stands: the one verdict that the game record, the search, the referee and the
//! checks share.
//!
//! - A side with no legal move is checkmated when its royal piece is attacked, otherwise
//!   stalemated, and the variant's `draws.stalemate` says what that means
//!   ([`Ruleset::no_move_outcome`]).
//! - Otherwise the rules' endings apply ([`Position::rule_ending`]): the same position (same
//!   side to move, rights, en-passant squares and hashed rule state) occurring
//!   `draws.repetition` times; `draws.move_limit` moves by each side without a capture, a
//!   promotion or an irreversible move; and the endings of rules that end games (the counting
//!   of Makruk). Checkmate and stalemate take precedence over all of these but repetition (a
//!   repeated position always had a legal move). A repetition may lose for a side: the one
//!   that gave check throughout (`draws.perpetual_check_loses`), else the one the variant
//!   names (`draws.repetition_loser`, Minishogi).
//! - Before all of these come the endings of rules that end a game at once
//!   ([`Position::final_ending`], a bare King): they stand with or without a legal move.
//!
//! The search asks [`Position::rule_ending`] at every node (cheap: no move is generated) and,
//! only when it gives an ending, [`Position::confirm_ending`], which generates the moves; the
//! game asks [`Position::verdict`], which is the two together.

use std::fmt;

use super::hooks::Stalemate;
use super::{Position, Ruleset};
use crate::geometry::Color;
use crate::moves::MoveList;

/// Who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// Neither side won.
    Draw,
}

impl GameResult {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// The win of `c`.
    pub fn win_for(c: Color) -> GameResult {
        match c {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The result for `side`: 1 a win, 0 a draw, -1 a loss.
    pub fn for_side(self, side: Color) -> i32 {
        match self {
            GameResult::Draw => 0,
            r if r == GameResult::win_for(side) => 1,
            _ => -1,
        }
    }
}

/// The ending of a mate given by a drop that may not mate (`drops.no-mate-drop` with
/// `mate-drop = "loses"`, Shogi's uchifuzume as Fairy-Stockfish scores it): the side mated
/// wins, so the words must not say "Checkmate" for the side that gave it.
pub const FORBIDDEN_DROP_MATE: &str = "Mate by a forbidden drop";

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// A position occurred as often as the variant's repetition rule allows: a draw, or a
    /// loss for the side that gave check in every position of it (perpetual check).
    Repetition,
    /// A position occurred as often as the variant's repetition rule allows, which the variant
    /// scores as a loss for one side (`draws.repetition_loser`; Minishogi).
    RepetitionLoss,
    /// The move-count rule: too many moves without a capture or an irreversible move.
    MoveLimit,
    /// The counting rules (Makruk): the count of moves ran out.
    Counting,
    /// A rule's own ending, in that rule's words ("Bare King"): the core knows no more of it.
    Rule(&'static str),
}

/// A finished game's result and the reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Who won.
    pub result: GameResult,
    /// Why the game ended.
    pub reason: Termination,
}

impl Outcome {
    /// A draw for `reason`.
    pub fn draw(reason: Termination) -> Outcome {
        Outcome {
            result: GameResult::Draw,
            reason,
        }
    }
}

impl fmt::Display for Outcome {
    /// A sentence such as "Checkmate: White wins." or "Draw by repetition.".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let who = match self.result {
            GameResult::WhiteWins => "White wins",
            GameResult::BlackWins => "Black wins",
            GameResult::Draw => "draw",
        };
        match (self.reason, self.result) {
            (Termination::Checkmate, _) => write!(f, "Checkmate: {who}."),
            (Termination::Stalemate, GameResult::Draw) => write!(f, "Stalemate: draw."),
            (Termination::Stalemate, _) => write!(f, "Stalemate: {who}."),
            (Termination::Repetition, GameResult::Draw) => write!(f, "Draw by repetition."),
            (Termination::Repetition, _) => write!(f, "Perpetual check: {who}."),
            (Termination::RepetitionLoss, _) => write!(f, "Repetition: {who}."),
            (Termination::MoveLimit, _) => write!(f, "Draw by the move-count rule."),
            (Termination::Counting, GameResult::Draw) => write!(f, "Draw by the counting rules."),
            (Termination::Counting, _) => write!(f, "The count ran out: {who}."),
            (Termination::Rule(what), GameResult::Draw) => write!(f, "{what}: draw."),
            (Termination::Rule(what), _) => write!(f, "{what}: {who}."),
        }
    }
}

impl Ruleset {
    /// The ending when `side`, to move, has no legal move: checkmate when `in_check`, else
    /// stalemate as the variant scores it.
    #[inline]
    pub fn no_move_outcome(&self, side: Color, in_check: bool) -> Outcome {
        if in_check {
            return Outcome {
                result: GameResult::win_for(side.flip()),
                reason: Termination::Checkmate,
            };
        }
        let result = match self.draws.stalemate {
            Stalemate::Draw => GameResult::Draw,
            Stalemate::Win => GameResult::win_for(side),
            Stalemate::Loss => GameResult::win_for(side.flip()),
        };
        Outcome {
            result,
            reason: Termination::Stalemate,
        }
    }
}

impl Position {
    /// How the game stands here given its history: `None` while it goes on. A repetition in
    /// which one side gave check at every move loses for it where the variant says so
    /// (`draws.perpetual-check = "loses"`, [`Position::judge_repetition`]); the search judges
    /// repetitions the same way.
    pub fn verdict(&mut self) -> Option<Outcome> {
        let mut list = MoveList::new();
        let o = match self.rule_ending(0) {
            Some(o) => self.confirm_ending(o, &mut list),
            None if !self.has_legal_move(&mut list) => self.no_move_outcome(self.in_check()),
            None => return None,
        };
        if o.reason == Termination::Repetition {
            let mut past = Vec::new();
            if self.rules.draws.perpetual_check_loses {
                self.past_checks(&mut past);
            }
            return Some(
                self.judge_repetition(o, 0, |k| past.get(k - 1).copied().unwrap_or(false)),
            );
        }
        Some(o)
    }

    /// A repetition ending `o` that [`Position::rule_ending`] found with `tree`, judged: where
    /// the variant says perpetual check loses and one side alone gave check in every position
    /// of the cycle (from the earliest occurrence that counted to now), that side loses;
    /// otherwise, where the variant scores a repetition as a loss for one side
    /// (`draws.repetition_loser`), that side loses; otherwise `o` stands. `checked(k)` says
    /// whether the side to move `k` plies ago was in check (the game answers from
    /// [`Position::past_checks`], the search from its own stack and that). Allocates nothing.
    #[inline]
    pub fn judge_repetition(
        &self,
        o: Outcome,
        tree: usize,
        checked: impl Fn(usize) -> bool,
    ) -> Outcome {
        let d = &self.rules.draws;
        if o.reason != Termination::Repetition {
            return o;
        }
        let plain = match d.repetition_loser {
            Some(loser) => Outcome {
                result: GameResult::win_for(loser.flip()),
                reason: Termination::RepetitionLoss,
            },
            None => o,
        };
        if !d.perpetual_check_loses {
            return plain;
        }
        let Some(back) = self.repetition_start(d.repetition, tree) else {
            return plain;
        };
        // Per side: whether it was in check in every position of the cycle where it moved.
        let mut always = [true; 2];
        let now = self.side.index();
        always[now] &= self.in_check();
        for k in 1..back {
            always[(now + k) & 1] &= checked(k);
        }
        let checker = match always {
            [true, false] => Color::Black,
            [false, true] => Color::White,
            // Both sides checked throughout: a draw, as in Fairy-Stockfish.
            [true, true] => return o,
            [false, false] => return plain,
        };
        Outcome {
            result: GameResult::win_for(checker.flip()),
            reason: Termination::Repetition,
        }
    }

    /// Whether the side to move was in check in each position before this one, as far back
    /// as a repetition can reach: `out[k - 1]` for the position `k` plies ago. Replays the
    /// game backwards on a copy (it allocates: the game and the search's root ask it, never
    /// a search node).
    pub fn past_checks(&self, out: &mut Vec<bool>) {
        out.clear();
        let mut p = self.clone();
        for _ in 0..self.repetition_reach() {
            if p.stack.last().is_some_and(|s| s.null) {
                break;
            }
            p.unmake();
            out.push(p.in_check());
        }
    }

    /// The ending when the side to move has no legal move: checkmate when `in_check` (won
    /// instead when the mate came from a drop the rules forbid to mate with, an ending named
    /// [`FORBIDDEN_DROP_MATE`]), else stalemate as the variant scores it.
    #[inline]
    pub fn no_move_outcome(&self, in_check: bool) -> Outcome {
        let o = self.rules.no_move_outcome(self.side, in_check);
        if in_check && self.mated_by_losing_drop() {
            return Outcome {
                result: GameResult::win_for(self.side),
                reason: Termination::Rule(FORBIDDEN_DROP_MATE),
            };
        }
        o
    }

    /// Whether the side to move has a legal move (`scratch` holds the pseudo-legal moves
    /// afterwards).
    pub fn has_legal_move(&mut self, scratch: &mut MoveList) -> bool {
        self.pseudo_legal_moves(scratch);
        let checked = self.in_check();
        (0..scratch.len()).any(|i| {
            let mv = scratch.as_slice()[i];
            self.is_legal_with(mv, checked)
        })
    }

    /// An ending of [`Position::rule_ending`] checked against the moves: without a legal
    /// move the game ends by checkmate or stalemate instead (a repetition always had one), but
    /// for a rule's ending at once ([`Position::final_ending`]), which stands.
    pub fn confirm_ending(&mut self, o: Outcome, scratch: &mut MoveList) -> Outcome {
        if matches!(
            o.reason,
            Termination::Repetition | Termination::RepetitionLoss
        ) || self.final_ending().is_some()
            || self.has_legal_move(scratch)
        {
            return o;
        }
        self.no_move_outcome(self.in_check())
    }

    /// The endings by rule that stand here: a rule's ending at once
    /// ([`Position::final_ending`]) whatever the moves, else, if the side to move has a legal
    /// move, repetition, the move-count rule, the endings of rules
    /// ([`super::hooks::Rule::ending`]). `tree`: the plies since the search's root, within
    /// which one earlier occurrence already counts as a repetition (the side that repeated
    /// could repeat again); 0 for a game. Generates no move: the search asks it at every node.
    #[inline]
    pub fn rule_ending(&self, tree: usize) -> Option<Outcome> {
        let rs = &*self.rules;
        if !rs.dispatch.final_enders.is_empty()
            && let Some(o) = self.final_ending()
        {
            return Some(o);
        }
        let d = &rs.draws;
        if d.repetition > 0 && self.repeated(d.repetition, tree) {
            return Some(Outcome::draw(Termination::Repetition));
        }
        if d.move_limit > 0 && self.halfmove >= 2 * d.move_limit {
            return Some(Outcome::draw(Termination::MoveLimit));
        }
        if !rs.dispatch.enders.is_empty() {
            return self.endings_of_rules();
        }
        None
    }

    /// The first ending that a rule which ends games at once
    /// ([`super::hooks::Builder::ends_games_at_once`]) gives here: it stands whether or not
    /// the side to move has a legal move, and perft counts no move from here.
    #[inline]
    pub fn final_ending(&self) -> Option<Outcome> {
        let rs = &*self.rules;
        rs.dispatch
            .final_enders
            .iter()
            .find_map(|&i| rs.dispatch.hooks[i as usize].ending(self))
    }

    /// The first ending a rule gives here.
    #[inline(never)]
    fn endings_of_rules(&self) -> Option<Outcome> {
        let rs = &*self.rules;
        rs.dispatch
            .enders
            .iter()
            .find_map(|&i| rs.dispatch.hooks[i as usize].ending(self))
    }

    /// Whether this position occurred `times` times in all (or twice, the earlier one within
    /// the last `tree` plies). Only positions since the last capture or irreversible move can
    /// be the same (in a variant where captures go to hands, every one since the last null
    /// move).
    #[inline]
    fn repeated(&self, times: u32, tree: usize) -> bool {
        self.repetition_start(times, tree).is_some()
    }

    /// How many plies back the earliest occurrence that makes this position a repetition
    /// stands (see [`Position::rule_ending`]'s `tree`), if it is one.
    #[inline]
    fn repetition_start(&self, times: u32, tree: usize) -> Option<usize> {
        let n = self.stack.len();
        let hands = self.rules.hands.captures_to_hand;
        let reach = self.repetition_reach();
        if reach < 4 {
            return None;
        }
        let h = self.hash;
        let mut seen = 1;
        let mut back = 2;
        while back <= reach {
            if hands && (self.stack[n - back].null || self.stack[n - back + 1].null) {
                break;
            }
            if self.stack[n - back].hash == h {
                if back <= tree {
                    return Some(back);
                }
                seen += 1;
                if seen >= times {
                    return Some(back);
                }
            }
            back += 2;
        }
        None
    }

    /// How many plies back a repetition can reach: every one since the last capture or
    /// irreversible move (in a variant where captures go to hands, every one).
    #[inline]
    fn repetition_reach(&self) -> usize {
        let n = self.stack.len();
        if self.rules.hands.captures_to_hand {
            n
        } else {
            (self.halfmove as usize).min(n)
        }
    }
}

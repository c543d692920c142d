//! `lion-trading`: the Chu Shogi rules against trading Lions, as shogiops (lishogi) plays them.
//!
//! ```toml
//! [rules.lion-trading]
//! lions = "N+O"   # letters, required: the Lions (Chu: the Lion and the promoted Kirin)
//! cheap = "PI"    # letters, default none: what a Lion may take on the way and still not
//!                 # take a protected Lion two squares away (Chu: a Pawn or a Go-between)
//! ```
//!
//! - A Lion may not take an enemy Lion that is not next to it when an enemy piece protects
//!   that Lion (attacks its square once the taking Lion has left its own), unless, by a double
//!   move, it took a piece not in `cheap` on the way.
//! - When a piece that is not a Lion took a Lion, the other side's pieces that are not Lions
//!   may not take a Lion on the next move, except on that very square (a Kirin that took a
//!   Lion and promoted to one there).
//!
//! The square of the last such capture is a word of rule state, hashed, written in the FEN's
//! en-passant field (where shogiops writes it after the side to move), read back from there.

use super::{Registered, kinds, spec_as};
use crate::position::hooks::{
    Code, Color, EMPTY, Move, Params, Position, Rule, RuleSpec, Ruleset, Square, StateFields,
    StateWords, Variant, color_of, kind_of,
};

pub const REGISTERED: Registered = Registered {
    name: "lion-trading",
    about: "the Chu Shogi rules against trading Lions",
    parse: |p, v| LionTradingSpec::build(p, v).map(|s| Box::new(s) as Box<dyn RuleSpec>),
    compile: |s, b| {
        let spec = spec_as::<LionTradingSpec>(s)?.clone();
        let slot = b.claim_state(1, true)?;
        b.veto_every_move();
        b.update_state_on_make();
        let bits = |ks: &[usize]| ks.iter().fold(0u64, |m, &k| m | 1 << k);
        Ok(Box::new(LionTrading {
            lions: bits(&spec.lions),
            cheap: bits(&spec.cheap),
            spec,
            slot,
        }))
    },
};

/// The rule as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LionTradingSpec {
    /// The Lions' kinds.
    pub lions: Vec<usize>,
    /// The kinds whose capture on the way does not license taking a protected Lion.
    pub cheap: Vec<usize>,
}

impl RuleSpec for LionTradingSpec {
    fn name(&self) -> &'static str {
        "lion-trading"
    }
    fn clone_spec(&self) -> Box<dyn RuleSpec> {
        Box::new(self.clone())
    }
}

impl LionTradingSpec {
    fn build(p: &mut Params<'_, '_>, v: &Variant) -> Option<LionTradingSpec> {
        let span = p.span.clone();
        let lions = p.letters("lions", v);
        let unknown = p.last_unknown;
        let cheap = p.letters("cheap", v).unwrap_or_default();
        match lions {
            Some(lions) if !lions.is_empty() => Some(LionTradingSpec { lions, cheap }),
            _ => {
                if !unknown {
                    p.error(
                        span,
                        "`rules.lion-trading` needs `lions`: the letters of the pieces that are \
                         Lions",
                        Some(
                            "for Chu Shogi: lions = \"N+O\" (the Lion and the promoted Kirin)"
                                .into(),
                        ),
                    );
                }
                None
            }
        }
    }
}

/// In play.
#[derive(Clone, Debug)]
struct LionTrading {
    spec: LionTradingSpec,
    /// The Lions' kinds (bit = kind).
    lions: u64,
    /// The cheap kinds (bit = kind).
    cheap: u64,
    /// The state slot: 0, or 1 + the square where a piece that is not a Lion took a Lion on
    /// the last move.
    slot: usize,
}

impl LionTrading {
    fn is_lion(&self, c: Code) -> bool {
        c != EMPTY && kind_of(c) < 64 && self.lions >> kind_of(c) & 1 != 0
    }

    /// Whether a piece of `by` attacks `target` on `board` with `gone` emptied, counting the
    /// piece on `still` (emptied too) as an attacker all the same (shogiops takes its
    /// attackers from the board before the move, and its blockers from the board without the
    /// squares left).
    fn protected(
        pos: &Position,
        target: Square,
        by: Color,
        gone: Square,
        still: Option<Square>,
    ) -> bool {
        let mut board = *pos.board();
        board[gone.index()] = EMPTY;
        if let Some(s) = still {
            board[s.index()] = EMPTY;
        }
        if pos.attacked_on(&board, target, by) {
            return true;
        }
        let Some(s) = still else { return false };
        let mut alone = [EMPTY; 256];
        alone[s.index()] = pos.board()[s.index()];
        alone[target.index()] = pos.board()[target.index()];
        pos.attacked_on(&alone, target, by)
    }
}

fn distance(rs: &Ruleset, a: Square, b: Square) -> u8 {
    let g = rs.geometry;
    g.file(a)
        .abs_diff(g.file(b))
        .max(g.rank(a).abs_diff(g.rank(b)))
}

impl Rule for LionTrading {
    fn name(&self) -> &'static str {
        "lion-trading"
    }

    fn veto(&self, pos: &Position, mv: Move) -> bool {
        if mv.dropped().is_some() {
            return true;
        }
        let enemy = pos.side().flip();
        let board = pos.board();
        let enemy_lion = |s: Square| {
            let c = board[s.index()];
            self.is_lion(c) && color_of(c) == enemy
        };
        let mid = mv.locust_square();
        if self.is_lion(board[mv.from.index()]) {
            let to = mv.to;
            if to == mv.from || !enemy_lion(to) || distance(pos.rules(), mv.from, to) <= 1 {
                return true;
            }
            match mid {
                None => !Self::protected(pos, to, enemy, mv.from, None),
                Some(m) => {
                    let taken = board[m.index()];
                    let cheap = kind_of(taken) < 64 && self.cheap >> kind_of(taken) & 1 != 0;
                    !cheap || !Self::protected(pos, to, enemy, mv.from, Some(m))
                }
            }
        } else {
            let last = pos.state()[self.slot];
            if last == 0 {
                return true;
            }
            let allowed = Square::new((last - 1) as u8);
            let taken = [mid, (mv.to != mv.from).then_some(mv.to)];
            taken
                .into_iter()
                .flatten()
                .all(|s| s == allowed || !enemy_lion(s))
        }
    }

    fn on_make(&self, pos: &Position, mv: Move, _captured: Code, state: &mut StateWords) {
        state[self.slot] = 0;
        if mv.dropped().is_some() || self.is_lion(pos.last_mover()) {
            return;
        }
        // Where the pieces taken stood: on the way first, then where the move ends.
        let at = match mv.locust_square() {
            Some(m) => [Some(m), Some(mv.to)],
            None => [Some(mv.to), None],
        };
        for (c, s) in pos.last_captured().into_iter().zip(at) {
            if let Some(s) = s
                && self.is_lion(c)
            {
                state[self.slot] = s.index() as u16 + 1;
            }
        }
    }

    fn read_state(
        &self,
        rs: &Ruleset,
        fields: &mut StateFields<'_>,
        state: &mut StateWords,
    ) -> Result<(), String> {
        let Some(text) = fields.ep.take() else {
            return Ok(());
        };
        match rs.geometry.parse_square(&text) {
            Some(sq) => {
                state[self.slot] = sq.index() as u16 + 1;
                Ok(())
            }
            None => Err(format!(
                "`{text}` in the en-passant field: this game writes there the square where a \
                 Lion was taken by a piece that is not a Lion on the last move (or `-`)"
            )),
        }
    }

    fn write_state(&self, rs: &Ruleset, state: &StateWords, fields: &mut StateFields<'_>) {
        if state[self.slot] != 0 {
            let sq = Square::new((state[self.slot] - 1) as u8);
            fields.ep = Some(rs.geometry.name(sq).to_string());
        }
    }

    fn explain(&self, rs: &Ruleset) -> String {
        let lions = kinds(rs, &self.spec.lions, "or");
        let cheap = if self.spec.cheap.is_empty() {
            String::new()
        } else {
            format!(
                " (taking {} on the way does not count)",
                kinds(rs, &self.spec.cheap, "or")
            )
        };
        format!(
            "Lions: {lions} may not take an enemy Lion two squares away that another enemy \
             piece protects, unless it took something on the way first{cheap}. When a piece \
             that is not a Lion took a Lion, the other side's pieces that are not Lions may not \
             take a Lion on the next move, except on that square."
        )
    }
}

//! `gating`: Seirawan chess's gating. A piece of the first rank that has not moved yet may,
//! as it leaves its square, let a piece from the hand enter that square.
//!
//! ```toml
//! start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhe]"
//! [rules.gating]
//! rank = 1        # integer, default 1: the rank (each side's own count) whose pieces gate
//! pieces = "HE"   # letters, default every kind: the kinds that may enter from the hand
//! ```
//!
//! - Each piece that stands on the gating rank in the start position holds a gate until it
//!   moves or is taken. Its move from that square may take a piece of `pieces` from the hand
//!   onto the square it leaves (`b1c3h`, written `Nc3/H`).
//! - A castling may gate on the King's square or on its partner's, when that piece holds its
//!   gate: `e1g1h` (`O-O/He1`) and `h1e1h` (`O-O/Hh1`), as Fairy-Stockfish writes them.
//! - A promotion never gates; the hand never gains pieces from this rule (the start position
//!   fills it); nothing else may take a piece from it.
//!
//! The gates are one word of rule state per side, a bit per file (hashed), and the FEN writes
//! them in the rights field as Fairy-Stockfish does: after a side's castling letters, the files
//! of the gates those letters do not imply (`KQBCDFGkqbcdfg` at the start: `K` holds the King's
//! and the h-file Rook's gates), and nothing once the side's hand is empty.
//!
//! A gating move is `Move { kind: Rule, aux: this rule, promo: kind in hand + 1 }` over the move
//! it adds to: a piece's ordinary move (same squares), or a castling, written with the King's
//! squares (gate on the King's square) or from the partner's square to the King's (gate on the
//! partner's).

use super::{Registered, a, join, spec_as};
use crate::position::hooks::{
    Code, Color, EMPTY, Effect, Effects, Move, MoveKind, MoveList, Params, Position, Rule,
    RuleSpec, Ruleset, Square, StateFields, StateWords, Variant, color_of,
};

pub const REGISTERED: Registered = Registered {
    name: "gating",
    about: "Seirawan's gating: a first-rank piece's first move lets a piece from the hand in",
    parse: |p, v| GatingSpec::build(p, v).map(|s| Box::new(s) as Box<dyn RuleSpec>),
    compile: |s, b| {
        let spec = spec_as::<GatingSpec>(s)?.clone();
        let rs = b.rules();
        let files = rs.geometry.files;
        if files > 16 {
            return Err(format!(
                "gating keeps a gate per file in 16 bits; the board has {files} files"
            ));
        }
        if spec.rank >= rs.geometry.ranks {
            return Err(format!(
                "`rank = {}`: the board has {} ranks",
                spec.rank + 1,
                rs.geometry.ranks
            ));
        }
        if !rs.has_hands() {
            b.use_hands(false);
        }
        let words = b.claim_state(2, true)?;
        b.add_moves();
        b.moves_have_effects()?;
        b.update_state_on_make();
        Ok(Box::new(Gating {
            spec,
            index: b.index(),
            words: [words, words + 1],
        }))
    },
};

/// The rule as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GatingSpec {
    /// The gating rank, counted from 0 on each side's own first rank.
    pub rank: u8,
    /// The kinds that may enter from the hand.
    pub pieces: Vec<usize>,
}

impl RuleSpec for GatingSpec {
    fn name(&self) -> &'static str {
        "gating"
    }
    /// After castling, whose moves it gates.
    fn order(&self) -> u8 {
        1
    }
    fn brings_from_hand(&self, kind: usize) -> bool {
        self.pieces.contains(&kind)
    }
    fn clone_spec(&self) -> Box<dyn RuleSpec> {
        Box::new(self.clone())
    }
}

impl GatingSpec {
    fn build(p: &mut Params<'_, '_>, v: &Variant) -> Option<GatingSpec> {
        let rank = p.int("rank", 1, 64).unwrap_or(1) as u8 - 1;
        let pieces = p.letters("pieces", v).unwrap_or_else(|| {
            (0..v.pieces.len())
                .filter(|&k| !v.pieces[k].royal)
                .collect()
        });
        Some(GatingSpec { rank, pieces })
    }
}

/// In play.
#[derive(Clone, Debug)]
struct Gating {
    spec: GatingSpec,
    /// This rule's index (`aux` of its moves).
    index: u8,
    /// The state slots of White's and Black's gates (bit = file).
    words: [usize; 2],
}

impl Gating {
    /// The gating rank of `color`.
    fn rank(&self, rs: &Ruleset, color: Color) -> u8 {
        match color {
            Color::White => self.spec.rank,
            Color::Black => rs.geometry.ranks - 1 - self.spec.rank,
        }
    }

    /// The gate bit of `sq` for `color` (0 when `sq` is not on its gating rank).
    fn bit(&self, rs: &Ruleset, color: Color, sq: Square) -> u16 {
        let g = rs.geometry;
        if g.rank(sq) == self.rank(rs, color) {
            1 << g.file(sq)
        } else {
            0
        }
    }

    /// Whether `color` holds a piece that may enter.
    fn has_gated_in_hand(&self, pos: &Position, color: Color) -> bool {
        self.spec.pieces.iter().any(|&k| pos.hand(color, k) > 0)
    }

    /// The move a gating move adds to, and the square the piece enters.
    fn base(&self, pos: &Position, mv: Move) -> (Move, Square) {
        let plain = Move {
            kind: MoveKind::Normal,
            aux: 0,
            promo: 0,
            ..mv
        };
        let rs = pos.rules();
        let side = pos.side();
        let own_at_to = {
            let c = pos.piece_at(mv.to);
            c != EMPTY && color_of(c) == side
        };
        for sp in rs.special_moves() {
            if sp.color != side {
                continue;
            }
            let castle = Move {
                from: sp.from,
                to: sp.to,
                promo: 0,
                kind: MoveKind::Rule,
                aux: sp.owner,
            };
            if !own_at_to && sp.from == mv.from && sp.to == mv.to {
                return (castle, mv.from);
            }
            if own_at_to
                && sp.from == mv.to
                && pos.effects(castle).relocation().map(|r| r.0) == Some(mv.from)
            {
                return (castle, mv.from);
            }
        }
        (plain, mv.from)
    }

    /// The gating copies of `base` (entering on `gate`, written `from`-`to`) for each kind in
    /// hand.
    fn push_copies(&self, pos: &Position, from: Square, to: Square, out: &mut MoveList) {
        let side = pos.side();
        for &k in &self.spec.pieces {
            if pos.hand(side, k) > 0 {
                out.push(Move {
                    from,
                    to,
                    promo: k as u8 + 1,
                    kind: MoveKind::Rule,
                    aux: self.index,
                });
            }
        }
    }

    /// The files of `color`'s gates its castling letters in `rights` imply (Fairy-Stockfish's
    /// `K`: the King's square and the outermost piece's toward the h side; `Q`: toward the a
    /// side), on `board`.
    fn implied(&self, rs: &Ruleset, color: Color, rights: &str, board: &[Code]) -> u16 {
        let g = rs.geometry;
        let rank = self.rank(rs, color);
        let own = |f: u8| {
            let c = board
                .get(g.square(f, rank).index())
                .copied()
                .unwrap_or(EMPTY);
            c != EMPTY && color_of(c) == color
        };
        let (k, q) = match color {
            Color::White => ('K', 'Q'),
            Color::Black => ('k', 'q'),
        };
        let mut bits = 0u16;
        let royal = (0..g.files).find(|&f| {
            let c = board
                .get(g.square(f, rank).index())
                .copied()
                .unwrap_or(EMPTY);
            own(f) && rs.is_royal(c)
        });
        for (letter, toward_h) in [(k, true), (q, false)] {
            if !rights.contains(letter) {
                continue;
            }
            if let Some(f) = royal {
                bits |= 1 << f;
            }
            let outer = if toward_h {
                (0..g.files).rev().find(|&f| own(f))
            } else {
                (0..g.files).find(|&f| own(f))
            };
            if let Some(f) = outer {
                bits |= 1 << f;
            }
        }
        bits
    }
}

impl Rule for Gating {
    fn name(&self) -> &'static str {
        "gating"
    }

    fn generate(&self, pos: &Position, out: &mut MoveList) {
        let side = pos.side();
        let gates = pos.state()[self.words[side.index()]];
        if gates == 0 || !self.has_gated_in_hand(pos, side) {
            return;
        }
        let rs = pos.rules();
        let at = |sq: Square| gates & self.bit(rs, side, sq) != 0;
        for i in 0..out.len() {
            let m = out.as_slice()[i];
            match m.kind {
                MoveKind::Normal if m.promo == 0 && at(m.from) => {
                    self.push_copies(pos, m.from, m.to, out);
                }
                MoveKind::Rule if rs.special_for(m).is_some() => {
                    if at(m.from) {
                        self.push_copies(pos, m.from, m.to, out);
                    }
                    if let Some((partner, _)) = pos.effects(m).relocation()
                        && at(partner)
                    {
                        self.push_copies(pos, partner, m.from, out);
                    }
                }
                _ => {}
            }
        }
    }

    fn effects(&self, pos: &Position, mv: Move, fx: &mut Effects) {
        let (base, gate) = self.base(pos, mv);
        for &e in pos.effects(base).as_slice() {
            fx.push(e);
        }
        fx.push(Effect::Drop {
            kind: mv.promo.saturating_sub(1),
            to: gate,
        });
    }

    fn written_as(&self, pos: &Position, mv: Move) -> Option<Move> {
        Some(self.base(pos, mv).0)
    }

    fn move_word(&self) -> &'static str {
        "gate"
    }

    /// A gating move is legal exactly when the move it adds to is: the piece that enters
    /// never shields its own King (Fairy-Stockfish's rule: `Kf8/E` out of a check along the
    /// eighth rank is no move, though the Elephant would block it).
    fn allows(&self, pos: &Position, mv: Move) -> bool {
        let (base, _) = self.base(pos, mv);
        if base.is_rule_made()
            && !pos
                .rules()
                .compiled_rules()
                .get(base.aux as usize)
                .is_some_and(|r| r.allows(pos, base))
        {
            return false;
        }
        !base_exposes_royal(pos, base)
    }

    fn on_make(&self, pos: &Position, mv: Move, _captured: Code, state: &mut StateWords) {
        let rs = pos.rules();
        let g = rs.geometry;
        let mover = pos.side().flip();
        for color in [Color::White, Color::Black] {
            let slot = self.words[color.index()];
            let mut w = state[slot];
            if w == 0 {
                continue;
            }
            if color == mover {
                w &= !self.bit(rs, color, mv.from);
            }
            if !self.has_gated_in_hand(pos, color) {
                w = 0;
            }
            let rank = self.rank(rs, color);
            let mut bits = w;
            while bits != 0 {
                let f = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                let c = pos.piece_at(g.square(f, rank));
                if c == EMPTY || color_of(c) != color {
                    w &= !(1 << f);
                }
            }
            state[slot] = w;
        }
    }

    fn start_state(&self, rs: &Ruleset, board: &[Code], state: &mut StateWords) {
        let g = rs.geometry;
        for color in [Color::White, Color::Black] {
            let rank = self.rank(rs, color);
            let mut w = 0u16;
            for f in 0..g.files {
                let c = board[g.square(f, rank).index()];
                if c != EMPTY && color_of(c) == color {
                    w |= 1 << f;
                }
            }
            state[self.words[color.index()]] = w;
        }
    }

    fn read_state(
        &self,
        rs: &Ruleset,
        fields: &mut StateFields<'_>,
        state: &mut StateWords,
    ) -> Result<(), String> {
        let g = rs.geometry;
        let mut problems = Vec::new();
        let mut left = String::new();
        for c in fields.unclaimed.chars() {
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let f = (c.to_ascii_lowercase() as u32).wrapping_sub('a' as u32);
            if !c.is_ascii_alphabetic() || f >= u32::from(g.files) {
                left.push(c);
                continue;
            }
            let sq = g.square(f as u8, self.rank(rs, color));
            let piece = fields.board.get(sq.index()).copied().unwrap_or(EMPTY);
            if piece == EMPTY || color_of(piece) != color {
                problems.push(format!(
                    "`{c}` holds a gate on {} but no {} piece stands there",
                    g.name(sq),
                    color.name()
                ));
                continue;
            }
            state[self.words[color.index()]] |= 1 << f;
        }
        for color in [Color::White, Color::Black] {
            let slot = self.words[color.index()];
            state[slot] |= self.implied(rs, color, &fields.rights, fields.board);
            // Gates without a piece to bring in are no gates (nor does the FEN show them).
            if !self
                .spec
                .pieces
                .iter()
                .any(|&k| fields.hands[color.index()][k] > 0)
            {
                state[slot] = 0;
            }
        }
        fields.unclaimed = left;
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems.join("; "))
        }
    }

    fn write_state(&self, rs: &Ruleset, state: &StateWords, fields: &mut StateFields<'_>) {
        let written = std::mem::take(&mut fields.rights);
        let mut out = String::new();
        for color in [Color::White, Color::Black] {
            let mine: String = written
                .chars()
                .filter(|c| (color == Color::White) == c.is_ascii_uppercase())
                .collect();
            out.push_str(&mine);
            let implied = self.implied(rs, color, &mine, fields.board);
            let w = state[self.words[color.index()]] & !implied;
            for f in 0..rs.geometry.files {
                if w >> f & 1 != 0 {
                    let l = crate::position::hooks::Geometry::file_char(f);
                    out.push(match color {
                        Color::White => l.to_ascii_uppercase(),
                        Color::Black => l,
                    });
                }
            }
        }
        fields.rights = out;
    }

    fn explain(&self, rs: &Ruleset) -> String {
        let names: Vec<String> = self
            .spec
            .pieces
            .iter()
            .map(|&k| a(&rs.variant.pieces[k].name))
            .collect();
        let rank = match self.spec.rank {
            0 => "first".to_owned(),
            1 => "second".to_owned(),
            r => format!("{}th", r + 1),
        };
        format!(
            "Gating: the first time a piece of the {rank} rank leaves its square, {} from the \
             hand may enter the square it leaves, as part of the same move; a castling may \
             bring one in on the {}'s square or its partner's. A piece in hand enters no other \
             way.",
            join(&names, "or"),
            super::royal_name(rs)
        )
    }
}

/// Whether the move `base` would leave a royal piece of the side to move attacked.
fn base_exposes_royal(pos: &Position, base: Move) -> bool {
    let side = pos.side();
    let (board, carried) = pos.board_after(base);
    pos.occupied(side)
        .iter()
        .filter(|&sq| pos.rules().is_royal(pos.piece_at(sq)))
        .map(|sq| match carried {
            Some((from, to)) if from == sq => to,
            _ => sq,
        })
        .any(|sq| pos.attacked_on(&board, sq, side.flip()))
}

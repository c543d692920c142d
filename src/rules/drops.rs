//! `drops`: hands, and pieces dropped from them (Crazyhouse).
//!
//! ```toml
//! [rules.drops]
//! kinds = "QRBNP"                   # letters of the kinds that may be dropped
//! no-drop-ranks = { P = [1, 8] }    # per letter: ranks where that kind may not be dropped
//! captures = true                   # a captured piece goes to the captor's hand
//! one-per-file = "P"                # Shogi: no drop on a file that holds one of one's own
//! no-mate-drop = "P"                # Shogi: no drop of these that gives checkmate
//! mate-drop = "loses"               # "illegal" (default) or "loses": what such a drop is
//! must-drop = true                  # Sittuyin: while a side holds a piece, it must drop
//! ```
//! - `kinds` (letters, default: every non-royal piece): the kinds a side may drop. A royal
//!   kind never goes to a hand, so it may be listed only where the start position's hand
//!   holds one (Sittuyin's King, placed in the setup).
//! - `no-drop-ranks` (table, default: none): piece letter = a rank number or a list of them,
//!   each side counting from its own first rank (for White rank 1 is its first, for Black
//!   rank 8 of an 8-rank board is), where that kind may not be dropped. Crazyhouse's Pawns:
//!   `P = [1, 8]`.
//! - `captures` (boolean, true): a captured piece changes sides and goes to the captor's
//!   hand. A piece that got its kind by promotion (marked `~` in the FEN) goes there as the
//!   kind it promoted from: the first kind whose `promotes-to` lists its kind (a Queen made
//!   from a Pawn returns as a Pawn). A piece with `demotes-to` (Shogi's Tokin) goes there as
//!   that kind.
//! - `one-per-file` (letters, default: none): a kind listed may not be dropped on a file
//!   where one of the dropping side's pieces of that kind already stands (Shogi's nifu: no
//!   two unpromoted Pawns of one side on a file; a Tokin is another kind and does not count).
//! - `no-mate-drop` (letters, default: none): a drop of a kind listed may not give
//!   checkmate (Shogi's uchifuzume); it may give check. Judged on the position the drop
//!   makes: the other side is in check and has no legal move.
//! - `mate-drop` (`"illegal"` or `"loses"`, default `"illegal"`): with `"illegal"` such a drop
//!   is not a legal move; with `"loses"` it is one, but the checkmate it gives is a win for
//!   the side checkmated (Fairy-Stockfish plays Shogi so, and counts the drop in perft).
//! - `must-drop` (boolean, false): while the side to move has a legal drop, its only moves
//!   are drops (in check, a drop that blocks it; a side in check that no drop saves moves),
//!   as Fairy-Stockfish plays Sittuyin's setup: each side places its hand, a piece a turn, before any
//!   piece moves). A side whose royal piece is still in hand cannot be in check.
//!
//! With this rule the sides have hands: the position keeps, per side, how many pieces of each
//! kind it holds (the FEN writes them in brackets after the placement, `[Qp]`), and a move may
//! put one of them on any empty square the restrictions allow (`MoveKind::Drop`, written
//! `P@e4`). A drop is legal like any other move: it may block a check, it may give check or
//! mate. A dropped piece counts as never having moved: a Pawn dropped on its second rank may
//! double-step, as in Crazyhouse; a Rook dropped on its corner gains no castling right.

use super::{Registered, join, kinds, spec_as};
use crate::position::hooks::{
    Builder, Code, Color, EMPTY, Move, MoveList, Params, Position, Rule, RuleSpec, Ruleset, Square,
    Variant, code,
};

thread_local! {
    /// Move lists lent to [`has_legal_move`] (one per nesting level), kept between calls so
    /// that judging a drop allocates nothing once the first ones exist.
    static LISTS: std::cell::RefCell<Vec<MoveList>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Whether the side to move has a legal move.
fn has_legal_move(pos: &mut Position) -> bool {
    let mut list = LISTS.with(|l| l.borrow_mut().pop()).unwrap_or_default();
    pos.legal_moves(&mut list);
    let any = !list.is_empty();
    LISTS.with(|l| l.borrow_mut().push(list));
    any
}

pub const REGISTERED: Registered = Registered {
    name: "drops",
    about: "hands: captured pieces change sides and may be dropped on empty squares",
    parse: |p, v| DropsSpec::build(p, v).map(|s| Box::new(s) as Box<dyn RuleSpec>),
    compile: |s, b| compile(spec_as::<DropsSpec>(s)?, b),
};

/// The drops table as read.
#[derive(Clone, Debug)]
pub struct DropsSpec {
    /// The kinds that may be dropped.
    pub kinds: Vec<usize>,
    /// Per kind listed: the ranks (0-based, from the side's own first rank) where it may not
    /// be dropped.
    pub no_drop_ranks: Vec<(usize, Vec<u8>)>,
    /// Whether a captured piece goes to the captor's hand.
    pub captures: bool,
    /// Kinds that may not be dropped on a file where their side has one already.
    pub one_per_file: Vec<usize>,
    /// Kinds whose drop may not give checkmate.
    pub no_mate_drop: Vec<usize>,
    /// Whether such a drop is legal and loses (else it is illegal).
    pub mate_drop_loses: bool,
    /// Whether a side that holds a piece it may drop must drop (Sittuyin's setup).
    pub must_drop: bool,
}

impl RuleSpec for DropsSpec {
    fn name(&self) -> &'static str {
        "drops"
    }
    fn brings_from_hand(&self, kind: usize) -> bool {
        self.kinds.contains(&kind)
    }
    fn clone_spec(&self) -> Box<dyn RuleSpec> {
        Box::new(self.clone())
    }
}

impl DropsSpec {
    fn build(p: &mut Params<'_, '_>, v: &Variant) -> Option<DropsSpec> {
        let kinds = match p.letters("kinds", v) {
            Some(ks) => ks,
            None => (0..v.pieces.len())
                .filter(|&k| !v.pieces[k].royal)
                .collect(),
        };
        let captures = p.boolean("captures").unwrap_or(true);
        let must_drop = p.boolean("must-drop").unwrap_or(false);
        let one_per_file = p.letters("one-per-file", v).unwrap_or_default();
        let no_mate_drop = p.letters("no-mate-drop", v).unwrap_or_default();
        let mate_drop_loses = match p.string("mate-drop") {
            None => false,
            Some((w, _)) if w == "illegal" => false,
            Some((w, _)) if w == "loses" => true,
            Some((w, span)) => {
                p.error(
                    span,
                    format!(
                        "`rules.drops.mate-drop` must be \"illegal\" or \"loses\", found \"{w}\""
                    ),
                    None,
                );
                false
            }
        };
        let mut no_drop_ranks = Vec::new();
        if let Some((entries, _)) = p.table("no-drop-ranks") {
            for (key, kspan, val) in entries {
                let kind = v
                    .kind_by_symbol(key)
                    .filter(|_| !key.chars().any(|c| c.is_ascii_lowercase()));
                let Some(kind) = kind else {
                    p.error(
                        kspan.clone(),
                        format!(
                            "`rules.drops.no-drop-ranks.{key}`: no piece has the letter `{key}`"
                        ),
                        Some(crate::variant::params_letter_hint(v)),
                    );
                    continue;
                };
                if let Some(ranks) = p.ranks(
                    &format!("rules.drops.no-drop-ranks.{key}"),
                    val,
                    v.ranks,
                    true,
                    "counted from each side's own first rank",
                    &format!("{key} = [1, {}]", v.ranks),
                ) {
                    no_drop_ranks.push((kind, ranks));
                }
            }
        }
        Some(DropsSpec {
            kinds,
            no_drop_ranks,
            captures,
            one_per_file,
            no_mate_drop,
            mate_drop_loses,
            must_drop,
        })
    }
}

/// Whether every move of a piece of `kind` and `color` ends on the file it starts from.
fn keeps_its_file(rs: &Ruleset, kind: usize, color: Color) -> bool {
    let g = rs.geometry;
    g.squares().all(|sq| {
        rs.tables.entries_at(kind, color, sq).iter().all(|e| {
            rs.tables
                .squares_of(e)
                .iter()
                .all(|&to| g.file(to) == g.file(sq))
        })
    })
}

/// The rule in play: the squares each droppable kind may be dropped on, per colour.
#[derive(Clone, Debug)]
struct Drops {
    /// (kind, squares for White, squares for Black), the kinds in the variant's order.
    targets: Vec<(usize, [Vec<Square>; 2])>,
    /// Per kind: whether it may not be dropped on a file where its side has one.
    one_per_file: Vec<bool>,
    /// Per kind: whether its drop may not give checkmate.
    no_mate: Vec<bool>,
    /// The spec, for the explanation.
    spec: DropsSpec,
}

fn compile(spec: &DropsSpec, b: &mut Builder<'_>) -> Result<Box<dyn Rule>, String> {
    let rs = b.rules();
    let g = rs.geometry;
    let mut kinds = spec.kinds.clone();
    kinds.sort_unstable();
    kinds.dedup();
    // A royal kind may be dropped only from the start position's hand (Sittuyin's King): a
    // royal piece is never captured into one.
    if let Some(&k) = kinds
        .iter()
        .find(|&&k| rs.is_royal_kind(k) && !rs.variant.start_hand.iter().any(|&(h, _)| h == k))
    {
        return Err(format!(
            "{} is royal: it never goes to a hand, so only the start position's hand could hold \
             one to drop, and it holds none; leave it out of `kinds`",
            rs.variant.pieces[k].name
        ));
    }
    let mut targets = Vec::with_capacity(kinds.len());
    for &k in &kinds {
        let banned: Vec<u8> = spec
            .no_drop_ranks
            .iter()
            .filter(|(kind, _)| *kind == k)
            .flat_map(|(_, r)| r.iter().copied())
            .collect();
        // A confined piece is dropped only inside its side's copy of its zone.
        let zone = rs.variant.pieces[k].confined.map(|z| &rs.variant.zones[z]);
        let squares = |color: Color| -> Vec<Square> {
            g.squares()
                .filter(|&sq| {
                    let own = match color {
                        Color::White => g.rank(sq),
                        Color::Black => g.ranks - 1 - g.rank(sq),
                    };
                    !banned.contains(&own) && zone.is_none_or(|z| z.contains(color, sq))
                })
                .collect()
        };
        targets.push((k, [squares(Color::White), squares(Color::Black)]));
    }
    let nkinds = rs.variant.pieces.len();
    let flags = |ks: &[usize]| (0..nkinds).map(|k| ks.contains(&k)).collect::<Vec<bool>>();
    let one_per_file = flags(&spec.one_per_file);
    let no_mate = flags(&spec.no_mate_drop);
    b.use_hands(spec.captures);
    b.add_moves();
    if spec.must_drop {
        b.veto_every_move();
    }
    if spec.mate_drop_loses {
        for &k in &spec.no_mate_drop {
            b.mate_by_drop_loses(k);
        }
    } else if no_mate.contains(&true) {
        b.veto_drops_when_made();
    }
    Ok(Box::new(Drops {
        targets,
        one_per_file,
        no_mate,
        spec: spec.clone(),
    }))
}

impl Drops {
    /// Whether the side to move has a legal drop: an empty square for a piece it holds, and in
    /// check one where the piece blocks every attack on its royal piece.
    fn can_drop(&self, pos: &Position) -> bool {
        let side = pos.side();
        let royal = if pos.in_check() {
            pos.royal_square(side)
        } else {
            None
        };
        self.targets
            .iter()
            .filter(|(k, _)| pos.hand(side, *k) > 0)
            .any(|(k, squares)| {
                squares[side.index()].iter().any(|&sq| {
                    pos.piece_at(sq) == EMPTY
                        && royal.is_none_or(|r| {
                            !pos.attacked_with(&[(sq, code(*k, side))], r, side.flip())
                        })
                })
            })
    }
}

impl Rule for Drops {
    fn name(&self) -> &'static str {
        "drops"
    }

    fn generate(&self, pos: &Position, out: &mut MoveList) {
        let side = pos.side();
        for (k, squares) in &self.targets {
            if pos.hand(side, *k) == 0 {
                continue;
            }
            // Files (bits; a board has at most 16) where the side has a piece of this kind,
            // when that bars a drop.
            let mut barred = 0u32;
            if self.one_per_file[*k] {
                let g = pos.rules().geometry;
                let own = code(*k, side);
                for sq in pos.occupied(side).iter() {
                    if pos.piece_at(sq) == own {
                        barred |= 1 << g.file(sq);
                    }
                }
            }
            for &sq in &squares[side.index()] {
                if pos.piece_at(sq) == EMPTY
                    && (barred == 0 || barred >> pos.rules().geometry.file(sq) & 1 == 0)
                {
                    out.push(Move::drop(*k, sq));
                }
            }
        }
    }

    /// With `must-drop`, a side that has a legal drop has only drops (as Fairy-Stockfish plays
    /// it: in check, a drop that blocks it; a side that cannot drop moves).
    fn veto(&self, pos: &Position, mv: Move) -> bool {
        mv.dropped().is_some() || !self.can_drop(pos)
    }

    fn can_place(&self, _rs: &Ruleset, kind: usize, color: Color, sq: Square) -> bool {
        self.targets
            .iter()
            .any(|(k, squares)| *k == kind && squares[color.index()].contains(&sq))
    }

    /// Two pieces of a `one-per-file` kind of one side on a file, where that kind never
    /// leaves its file and the start has no two on a file: only a drop the rule forbids makes
    /// that.
    fn check_placement(&self, rs: &Ruleset, board: &[Code]) -> Vec<String> {
        let g = rs.geometry;
        let mut out = Vec::new();
        for (k, _) in self.one_per_file.iter().enumerate().filter(|(_, on)| **on) {
            for color in [Color::White, Color::Black] {
                let two = |b: &[Code]| {
                    (0..g.files).find(|&f| {
                        (0..g.ranks)
                            .filter(|&r| b.get(g.square(f, r).index()) == Some(&code(k, color)))
                            .count()
                            > 1
                    })
                };
                let Some(f) = two(board) else { continue };
                if two(&rs.start).is_some() || !keeps_its_file(rs, k, color) {
                    continue;
                }
                let name = &rs.variant.pieces[k].name;
                out.push(format!(
                    "two {} {name}s on the {}-file: only a drop can put a second one there, and rule drops forbids it (`one-per-file`)",
                    if color == Color::White { "White" } else { "Black" },
                    (b'a' + f) as char
                ));
            }
        }
        out
    }

    /// A drop of a `no-mate-drop` kind that leaves the other side in check without a legal
    /// move is forbidden.
    fn veto_made_drop(&self, pos: &mut Position, mv: Move) -> bool {
        let Some(k) = mv.dropped() else { return true };
        if self.spec.mate_drop_loses
            || !self.no_mate.get(k).copied().unwrap_or(false)
            || !pos.in_check()
        {
            return true;
        }
        has_legal_move(pos)
    }

    fn explain(&self, rs: &Ruleset) -> String {
        let ks: Vec<usize> = self.targets.iter().map(|(k, _)| *k).collect();
        let mut text = if self.spec.captures {
            "A captured piece changes sides: it goes to the captor's hand, a promoted piece as \
             the piece it promoted from. "
                .to_owned()
        } else {
            "Captured pieces leave the game; pieces in hand come only from the position. "
                .to_owned()
        };
        text.push_str(&format!(
            "Instead of moving, a side may drop a piece from its hand ({}) on any empty square",
            kinds(rs, &ks, "or")
        ));
        let mut limits = Vec::new();
        for (k, ranks) in &self.spec.no_drop_ranks {
            let white: Vec<String> = ranks.iter().map(|r| (r + 1).to_string()).collect();
            let black: Vec<String> = ranks
                .iter()
                .map(|r| (rs.geometry.ranks - r).to_string())
                .collect();
            limits.push(format!(
                "{} not on rank {} (White) or rank {} (Black)",
                super::a(&rs.variant.pieces[*k].name),
                join(&white, "or"),
                join(&black, "or")
            ));
        }
        for (k, _) in &self.targets {
            if let Some(z) = rs.variant.pieces[*k].confined {
                limits.push(format!(
                    "{} only inside `{}`, which it never leaves",
                    super::a(&rs.variant.pieces[*k].name),
                    rs.variant.zones[z].name
                ));
            }
        }
        for (k, &on) in self.one_per_file.iter().enumerate() {
            if on {
                limits.push(format!(
                    "{} not on a file where its side already has one",
                    super::a(&rs.variant.pieces[k].name)
                ));
            }
        }
        let no_mate: Vec<usize> = (0..self.no_mate.len())
            .filter(|&k| self.no_mate[k])
            .collect();
        if !no_mate.is_empty() {
            let how = if self.spec.mate_drop_loses {
                "may give check, but a checkmate given so loses for the side that dropped"
            } else {
                "may give check but never checkmate"
            };
            text.push_str(&format!(
                "{}; dropping {} {how}",
                if limits.is_empty() {
                    String::new()
                } else {
                    format!(", {}", join(&limits, "and"))
                },
                kinds(rs, &no_mate, "or")
            ));
            text.push_str("; any other drop may give check or mate.");
        } else if limits.is_empty() {
            text.push_str(", even to give check or mate.");
        } else {
            text.push_str(&format!(
                ", {}; a drop may give check or mate.",
                join(&limits, "and")
            ));
        }
        text
    }
}

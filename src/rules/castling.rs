//! `castling`: the royal piece moves toward a partner piece, which jumps to its other side.
//!
//! ```toml
//! [rules.castling]
//! king-distance = 2   # integer, default 2: squares the king travels (Perfect 12: 3);
//!                     # or a list, each a choice (Wildebeest: [1, 2, 3, 4])
//! partner = "R"       # letter, default "R": the piece the king castles with
//! ```
//! For each wing, the partner is the nearest one on the king's rank in the start position (so
//! rooks need not stand in the corners: Lions and Unicorns castles with rooks on b1 and i1).
//! The king moves `king-distance` squares toward it; the partner lands on the square next to
//! the king on the side it came from. Conditions: neither piece has moved (the FEN rights
//! `K`/`Q`/`k`/`q`: `K` for the wing toward higher files), every square between them is empty,
//! the king is not in check and crosses and lands on no attacked square.
//!
//! With a list of distances each is a move of its own. Refused when the rules are compiled: a
//! side with more than one royal piece in the start position (which one castles would be
//! unclear), a hole between the king and its partner, and a distance by which the king would
//! reach or pass its partner (it must land short of it). Names: with one distance, SAN `O-O` (toward the higher files) and `O-O-O`; with a
//! choice, the distance follows a slash, `O-O/1` to `O-O/4` and `O-O-O/1` to `O-O-O/4` (plain
//! `O-O` is then ambiguous and refused as such). Coordinate notation writes the king's squares
//! (`f1h1`); a castling king that ends where an ordinary move of its own could take it (one
//! square) adds the suffix `oo` (`f1g1oo`, while `f1g1` is the step), so that every legal move
//! has its own name.
//!
//! A setup choice may not move the King or its partner (such a variant is refused when it is
//! compiled): their squares, and so the rights a FEN may give, are the same in every setup.

use super::{Registered, join, spec_as};
use crate::position::hooks::{
    Builder, Code, Color, EMPTY, Effect, Effects, Move, MoveKind, MoveList, Params, Position, Rule,
    RuleSpec, Ruleset, SpecialMove, Square, Val, Variant, code, color_of, kind_of,
};

/// The coordinate suffix of a castling move that an ordinary move of the king shares squares
/// with (see the module's notes).
pub const CASTLE_SUFFIX: &str = "oo";

pub const REGISTERED: Registered = Registered {
    name: "castling",
    about: "the king moves toward a partner piece, which jumps to its other side",
    parse: |p, v| CastlingSpec::build(p, v).map(|s| Box::new(s) as Box<dyn RuleSpec>),
    compile: |s, b| Castling::compile(spec_as::<CastlingSpec>(s)?, b).map(|r| Box::new(r) as _),
};

/// The castling table as read.
#[derive(Clone, Debug)]
pub struct CastlingSpec {
    /// The distances the king may travel, each a move of its own (one for most games).
    pub distances: Vec<u8>,
    /// The partner's kind.
    pub partner: usize,
}

impl RuleSpec for CastlingSpec {
    fn name(&self) -> &'static str {
        "castling"
    }
    fn clone_spec(&self) -> Box<dyn RuleSpec> {
        Box::new(self.clone())
    }
}

/// One castling move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Wing {
    color: Color,
    king_from: Square,
    king_to: Square,
    rook_from: Square,
    rook_to: Square,
    /// The rights bit.
    right: u16,
    /// True for the wing toward higher files (`K`).
    king_side: bool,
}

/// Castling, compiled: its wings.
#[derive(Clone, Debug)]
pub struct Castling {
    distances: Vec<u8>,
    partner: usize,
    wings: Vec<Wing>,
    /// This rule's index: `aux` of its moves.
    index: u8,
}

impl CastlingSpec {
    fn build(p: &mut Params<'_, '_>, v: &Variant) -> Option<CastlingSpec> {
        // Both keys are read even when the first is wrong (an unread key reads as unknown).
        let distances = read_distances(p);
        let partner = match p.letters("partner", v) {
            Some(ks) if ks.len() == 1 => Some(ks[0]),
            // A letter no piece has: already reported (or a consequence of broken letters).
            Some(_) if p.last_unknown => return None,
            Some(_) => {
                let span = p.span.clone();
                p.error(span, "`rules.castling.partner` must be one letter", None);
                return None;
            }
            None => v.kind_by_letter('R'),
        };
        if partner.is_none() {
            if p.quiet_letters {
                return None;
            }
            let span = p.span.clone();
            p.error(
                span,
                "castling needs a partner piece",
                Some("add `partner = \"R\"` naming the rook's letter".into()),
            );
            return None;
        }
        Some(CastlingSpec {
            distances: distances?,
            partner: partner?,
        })
    }
}

/// `king-distance`: an integer from 1 to 14, or a non-empty list of them (default 2). `None`
/// after reporting a bad value.
fn read_distances(p: &mut Params<'_, '_>) -> Option<Vec<u8>> {
    let Some(v) = p.get("king-distance") else {
        return Some(vec![2]);
    };
    let items: Vec<_> = match &v.val {
        Val::Int(_) => vec![v],
        Val::Array(xs) if !xs.is_empty() => xs.iter().collect(),
        Val::Array(_) => {
            p.error(
                v.span.clone(),
                "`rules.castling.king-distance` is an empty list: it takes an integer from 1 to 14 or a non-empty list of them",
                Some("e.g. `king-distance = 2` or `king-distance = [1, 2, 3, 4]`".into()),
            );
            return None;
        }
        other => {
            let msg = format!(
                "`rules.castling.king-distance` must be an integer or a list of integers, found {}",
                other.type_name()
            );
            p.error(
                v.span.clone(),
                msg,
                Some("e.g. `king-distance = [1, 2, 3, 4]`".into()),
            );
            return None;
        }
    };
    let mut out = Vec::new();
    for it in items {
        match it.val {
            Val::Int(n) if (1..=14).contains(&n) && !out.contains(&(n as u8)) => out.push(n as u8),
            Val::Int(n) if (1..=14).contains(&n) => {
                let msg = format!("`rules.castling.king-distance` lists {n} twice");
                p.error(it.span.clone(), msg, None);
                return None;
            }
            _ => {
                let msg = "`rules.castling.king-distance`: expected a whole number from 1 to 14";
                p.error(it.span.clone(), msg, None);
                return None;
            }
        }
    }
    Some(out)
}

/// The wings and the squares whose moves end a right are fixed when the rules are compiled,
/// so a setup choice may not move the King or its partner: a FEN from any setup then holds
/// its rights on the same squares.
fn same_squares_in_every_setup(rs: &Ruleset, partner: usize) -> Result<(), String> {
    let v = &rs.variant;
    for h in &v.rules {
        for (sq, pieces) in h.arranged(v) {
            let moves = pieces
                .iter()
                .any(|&(k, _)| rs.is_royal_kind(k) || k == partner);
            if moves && pieces.len() > 1 {
                let names: Vec<&str> = pieces
                    .iter()
                    .map(|&(k, _)| v.pieces[k].name.as_str())
                    .collect();
                return Err(format!(
                    "castling needs the royal piece and its partner on the same squares in every setup, but `{}` may put any of {} on {}",
                    h.name(),
                    names.join(", "),
                    rs.geometry.name(sq)
                ));
            }
        }
    }
    Ok(())
}

impl Castling {
    #[expect(
        clippy::too_many_lines,
        reason = "each side's wings found, checked and registered in one pass over the board"
    )]
    fn compile(spec: &CastlingSpec, b: &mut Builder<'_>) -> Result<Castling, String> {
        let rs = b.rules();
        let g = rs.geometry;
        let partner = spec.partner;
        same_squares_in_every_setup(rs, partner)?;
        let first = b.claim_rights(4)?;
        let mut wings: Vec<Wing> = Vec::new();
        for color in [Color::White, Color::Black] {
            let rs = b.rules();
            let royals: Vec<Square> = g
                .squares()
                .filter(|&s| {
                    rs.is_royal(rs.start[s.index()]) && color_of(rs.start[s.index()]) == color
                })
                .collect();
            let king = match royals[..] {
                [k] => k,
                [] => {
                    return Err(format!(
                        "{} has no royal piece in the start position",
                        color.name()
                    ));
                }
                _ => {
                    let names: Vec<String> =
                        royals.iter().map(|&s| g.name(s).to_string()).collect();
                    return Err(format!(
                        "castling needs one royal piece per side, but {} has royal pieces on {}: which one castles is unclear",
                        color.name(),
                        names.join(", ")
                    ));
                }
            };
            let kcode = rs.start[king.index()];
            let rank = g.rank(king);
            let kf = g.file(king) as i32;
            for (king_side, dir) in [(true, 1i32), (false, -1i32)] {
                let rs = b.rules();
                let mut f = kf + dir;
                let mut rook = None;
                while f >= 0 && f < g.files as i32 {
                    let s = g.square(f as u8, rank);
                    if rs.start[s.index()] == code(partner, color) {
                        rook = Some(s);
                        break;
                    }
                    f += dir;
                }
                let Some(rook_from) = rook else { continue };
                let bit =
                    1u16 << (first + color.index() as u16 * 2 + if king_side { 0 } else { 1 });
                b.clear_rights_on_square(king, bit);
                b.clear_rights_on_square(rook_from, bit);
                b.clear_rights_when_moved(kcode, bit);
                let rf = g.file(rook_from) as i32;
                for &distance in &spec.distances {
                    let kt = kf + dir * distance as i32;
                    if kt < 0 || kt >= g.files as i32 {
                        return Err("the king would castle off the board".into());
                    }
                    if (rf - kt) * dir <= 0 {
                        return Err(format!(
                            "king-distance {distance}: the king would reach or pass its partner on {}",
                            g.name(rook_from)
                        ));
                    }
                    let king_to = g.square(kt as u8, rank);
                    let rook_to = g.square((kt - dir) as u8, rank);
                    // Every square from the king to its partner must exist: a ray stops
                    // before a hole, and nothing may land on one.
                    let (lo, hi) = (kf.min(rf), kf.max(rf));
                    if let Some(h) = (lo..=hi)
                        .map(|f| g.square(f as u8, rank))
                        .find(|&s| g.is_hole(s))
                    {
                        return Err(format!(
                            "castling from {} toward {} crosses {}, a hole",
                            g.name(king),
                            g.name(rook_from),
                            g.name(h)
                        ));
                    }
                    let base = if king_side { "O-O" } else { "O-O-O" };
                    let san = if spec.distances.len() == 1 {
                        base.to_string()
                    } else {
                        format!("{base}/{distance}")
                    };
                    // The king's own ordinary move between the same squares, if any.
                    let rs = b.rules();
                    let twin = rs
                        .tables
                        .entries_at(kind_of(kcode), color, king)
                        .iter()
                        .any(|e| e.modes().quiet && rs.tables.squares_of(e).contains(&king_to));
                    // The king's squares name the castling move (its effects and its veto
                    // find it by them).
                    if wings
                        .iter()
                        .any(|w| w.king_from == king && w.king_to == king_to)
                    {
                        return Err(format!(
                            "two castling moves take the king from {} to {}",
                            g.name(king),
                            g.name(king_to)
                        ));
                    }
                    b.special(SpecialMove {
                        color,
                        from: king,
                        to: king_to,
                        san,
                        coord_suffix: if twin { CASTLE_SUFFIX } else { "" },
                        owner: 0,
                    })?;
                    wings.push(Wing {
                        color,
                        king_from: king,
                        king_to,
                        rook_from,
                        rook_to,
                        right: bit,
                        king_side,
                    });
                }
            }
        }
        b.add_moves();
        b.moves_have_effects()?;
        Ok(Castling {
            distances: spec.distances.clone(),
            partner,
            wings,
            index: b.index(),
        })
    }

    /// The wing of `color` whose castling `mv` is (found by the king's squares).
    fn wing(&self, color: Color, mv: Move) -> Option<&Wing> {
        self.wings
            .iter()
            .find(|w| w.color == color && w.king_from == mv.from && w.king_to == mv.to)
    }
}

impl Rule for Castling {
    fn name(&self) -> &'static str {
        "castling"
    }

    fn start_rights(&self, _rs: &Ruleset) -> u16 {
        self.wings.iter().fold(0, |a, w| a | w.right)
    }

    fn parse_right(&self, _rs: &Ruleset, c: char) -> Option<u16> {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let king_side = match c.to_ascii_uppercase() {
            'K' => true,
            'Q' => false,
            _ => return None,
        };
        self.wings
            .iter()
            .find(|c| c.color == color && c.king_side == king_side)
            .map(|c| c.right)
    }

    fn check_rights(&self, rs: &Ruleset, board: &[Code], rights: u16) -> Vec<(char, String)> {
        let g = rs.geometry;
        let mut out = Vec::new();
        let mut reported = 0u16;
        for c in &self.wings {
            if rights & c.right == 0 || reported & c.right != 0 {
                continue;
            }
            let (partner, king) = (self.partner, rs.start[c.king_from.index()]);
            let rook = code(partner, c.color);
            if board[c.king_from.index()] != king || board[c.rook_from.index()] != rook {
                let l = if c.king_side { 'K' } else { 'Q' };
                let letter = if c.color == Color::White {
                    l
                } else {
                    l.to_ascii_lowercase()
                };
                let pieces = &rs.variant.pieces;
                reported |= c.right;
                out.push((
                    letter,
                    format!(
                        "needs {}'s {} on {} and its {} on {}",
                        c.color.name(),
                        pieces[kind_of(king)].name,
                        g.name(c.king_from),
                        pieces[partner].name,
                        g.name(c.rook_from)
                    ),
                ));
            }
        }
        out
    }

    fn write_rights(&self, _rs: &Ruleset, rights: u16, out: &mut String) {
        for color in [Color::White, Color::Black] {
            for king_side in [true, false] {
                let held = self
                    .wings
                    .iter()
                    .any(|c| c.color == color && c.king_side == king_side && rights & c.right != 0);
                if held {
                    let l = if king_side { 'K' } else { 'Q' };
                    out.push(if color == Color::White {
                        l
                    } else {
                        l.to_ascii_lowercase()
                    });
                }
            }
        }
    }

    /// XBoard's `O<n>`: the King castles with the first piece it meets toward the edge, which
    /// must stand as many squares from the corner as the `O` has `j` prefixes (`jO3`: the
    /// piece next to the corner). The partner's distance from the corner is read from the
    /// wings, all alike in the shipped games (the greatest is taken otherwise).
    fn notation_hint(&self, rs: &Ruleset, kind: usize) -> Option<String> {
        let g = rs.geometry;
        let skip = self
            .wings
            .iter()
            .map(|w| {
                let f = g.file(w.rook_from);
                if w.king_side { g.files - 1 - f } else { f }
            })
            .max()
            .unwrap_or(0);
        let j = "j".repeat(usize::from(skip));
        rs.is_royal_kind(kind)
            .then(|| self.distances.iter().map(|d| format!("{j}O{d}")).collect())
    }

    fn explain(&self, rs: &Ruleset) -> String {
        let g = rs.geometry;
        let Some(first) = self.wings.first() else {
            return "Castling is set up, but no King has a partner on its rank to castle with."
                .to_owned();
        };
        let king = rs.variant.pieces[kind_of(rs.start[first.king_from.index()])]
            .name
            .clone();
        let partner = rs.variant.pieces[self.partner].name.clone();
        let distances: Vec<String> = self.distances.iter().map(|d| d.to_string()).collect();
        let how_far = match self.distances.as_slice() {
            [1] => "one square".to_owned(),
            [d] => format!("{d} squares"),
            _ => format!(
                "{} squares (each a move of its own, written O-O/N or O-O-O/N with N the \
                 distance; it must stop short of the {partner})",
                join(&distances, "or")
            ),
        };
        let mut text = format!(
            "The {king} may castle with a {partner} on its own rank while neither has moved: the \
             {king} moves {how_far} toward the {partner}, and the {partner} jumps to the square \
             next to the {king} on its other side. Every square between them must be empty, and \
             the {king} may not be in check, pass over an attacked square or land on one."
        );
        let mut moves = Vec::new();
        for w in self.wings.iter().filter(|w| w.color == Color::White) {
            moves.push(format!(
                "{} to {} with the {partner} from {} to {}",
                g.name(w.king_from),
                g.name(w.king_to),
                g.name(w.rook_from),
                g.name(w.rook_to)
            ));
        }
        text.push_str(&format!(
            " White's castling moves: {}; Black's are their mirror images on its side of the board.",
            join(&moves, "or")
        ));
        text
    }

    fn generate(&self, pos: &Position, out: &mut MoveList) {
        let rs = pos.rules();
        let g = rs.geometry;
        for c in &self.wings {
            if c.color != pos.side() || pos.rights() & c.right == 0 {
                continue;
            }
            let king = pos.piece_at(c.king_from);
            let rook = pos.piece_at(c.rook_from);
            if !rs.is_royal(king)
                || color_of(king) != c.color
                || rook == EMPTY
                || kind_of(rook) != self.partner
                || color_of(rook) != c.color
            {
                continue;
            }
            let (lo, hi) = (
                g.file(c.king_from).min(g.file(c.rook_from)),
                g.file(c.king_from).max(g.file(c.rook_from)),
            );
            let rank = g.rank(c.king_from);
            let between_empty = (lo + 1..hi).all(|f| pos.piece_at(g.square(f, rank)) == EMPTY);
            let free = |s: Square| s == c.king_from || s == c.rook_from || pos.piece_at(s) == EMPTY;
            if between_empty && free(c.king_to) && free(c.rook_to) {
                out.push(Move {
                    from: c.king_from,
                    to: c.king_to,
                    promo: 0,
                    kind: MoveKind::Rule,
                    aux: self.index,
                });
            }
        }
    }

    /// The king's move and its partner's, both lifted before either lands (the king may land
    /// where its partner stood).
    fn effects(&self, pos: &Position, mv: Move, fx: &mut Effects) {
        fx.push(Effect::Move {
            from: mv.from,
            to: mv.to,
        });
        if let Some(c) = self.wing(pos.side(), mv) {
            fx.push(Effect::Relocate {
                from: c.rook_from,
                to: c.rook_to,
            });
        }
    }

    fn allows(&self, pos: &Position, mv: Move) -> bool {
        let g = pos.rules().geometry;
        let Some(c) = self.wing(pos.side(), mv) else {
            return false;
        };
        let enemy = c.color.flip();
        let (a, b) = (g.file(c.king_from), g.file(c.king_to));
        let rank = g.rank(c.king_from);
        let (lo, hi) = (a.min(b), a.max(b));
        (lo..=hi).all(|f| !pos.attacked(g.square(f, rank), enemy))
    }
}

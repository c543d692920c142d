//! The SAN-like form of moves: a typed value read without a position ([`San::parse`]),
//! resolved against a position ([`San::resolve`]) and, when no legal move fits, explained
//! ([`San::explain`]); and the form written for a move ([`san`]).
//!
//! A move is a piece's name (its letter, a letter and a prime, or `+` and either for a piece
//! written so: `+R`, `N'`, see [`crate::variant::PieceDef::symbol`]), an optional origin file,
//! rank or square, an optional `x`, the destination and an optional promotion (`Le4`, `Nbd2`,
//! `Pxd6`, `e12=Q`, `+Rxe5`, `Rd8=+R`, `N'5e4`, `e8=N'`); the most numerous
//! promoting piece of the start position (the pawn) may omit its letter (`e4`, `exd5`);
//! castling is `O-O` (toward the higher files) or `O-O-O`, with the king's distance after a
//! slash where the variant offers a choice (`O-O/3`, see `rules::castling`); coordinate
//! notation (`e2e4`,
//! `e11e12q`) is read too. A drop from the hand is the piece's letter, `@` and the square
//! (`P@e4`, in every notation; the letter may be written in lower case). `ep` (or `e.p.`) at the end asks for the en-passant capture (see
//! [`crate::text`]). Written moves add `+` for check and `#` for mate.

use crate::geometry::{Geometry, Square};
use crate::moves::{EMPTY, Move, MoveKind, MoveList, color_of, kind_of};
use crate::position::Ruleset;
use crate::position::{Effect, Position};
use crate::variant::split_symbols;

pub use super::{coord, is_capture};

/// Why a move was refused: a sentence for the user.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct MoveError(pub String);

/// The kind written without its letter: the promoting (by `promotes-to` or by a rule),
/// non-royal kind with the most pieces in the start position.
pub fn pawn_kind(rules: &Ruleset) -> Option<usize> {
    let mut best: Option<(usize, usize)> = None;
    for k in 0..rules.variant.pieces.len() {
        let promotes = !rules.variant.pieces[k].promotes_to.is_empty()
            || rules.variant.rules.iter().any(|r| r.promotes_kind(k));
        if !promotes || rules.is_royal_kind(k) {
            continue;
        }
        let n = rules
            .start
            .iter()
            .filter(|&&c| c != EMPTY && kind_of(c) == k)
            .count();
        if n > 0 && best.is_none_or(|(_, m)| n > m) {
            best = Some((k, n));
        }
    }
    best.map(|(k, _)| k)
}

/// The rank of `sq` as written (1-based).
fn rank_text(g: Geometry, sq: Square) -> String {
    (g.rank(sq) + 1).to_string()
}

/// The move in the SAN-like form, with `+` or `#`. `mv` must be legal in `pos`.
pub fn san(pos: &mut Position, mv: Move) -> String {
    san_listed(pos, mv, None, None)
}

/// [`san`], given the legal moves of `pos` (`legal`) and of the position after `mv`
/// (`replies`) where a front-end has them listed already: those given are not generated
/// again.
pub fn san_listed(
    pos: &mut Position,
    mv: Move,
    legal: Option<&[Move]>,
    replies: Option<&[Move]>,
) -> String {
    let rules = pos.rules().clone();
    // A move that adds to another (a gating) is written as that move, then `/` and each piece
    // it puts down besides, with its square where the move is a named one (`O-O/He1`).
    let mut s = match pos.written_as(mv) {
        Some(base) => {
            let mut s = san_body(pos, &rules, base, legal);
            let named = rules.special_for(base).is_some();
            for e in pos.effects(mv).as_slice() {
                if let Effect::Drop { kind, to } = *e {
                    s.push('/');
                    s.push_str(&rules.variant.pieces[kind as usize].symbol);
                    if named {
                        s.push_str(&rules.geometry.name(to).to_string());
                    }
                }
            }
            s
        }
        None => san_body(pos, &rules, mv, legal),
    };
    pos.make(mv);
    if pos.in_check() {
        let mated = match replies {
            Some(r) => r.is_empty(),
            None => {
                let mut replies = MoveList::new();
                crate::moves::count_generation();
                pos.legal_moves(&mut replies);
                replies.is_empty()
            }
        };
        s.push(if mated { '#' } else { '+' });
    }
    pos.unmake();
    s
}

/// The SAN-like form of `mv` without its check mark.
fn san_body(pos: &mut Position, rules: &Ruleset, mv: Move, legal: Option<&[Move]>) -> String {
    let g = rules.geometry;
    let mut s = String::new();
    // What the move does decides how it is written: a relocation is a castling (its rule's
    // name for it), a drop its coordinates, else a piece's move with `x` for a capture and
    // `=` for a promotion.
    let fx = pos.effects(mv);
    // A royal swap relocates its partner too, but has no name: it is written as the royal
    // piece's move.
    if let Some(sp) = rules.special_for(mv) {
        s.push_str(&sp.san);
    } else if fx.dropped().is_some() {
        s.push_str(&coord(rules, mv));
    } else {
        let pc = pos.piece_at(mv.from);
        let kind = kind_of(pc);
        let capture = fx.capture().is_some();
        let mut listed = MoveList::new();
        let legal = match legal {
            Some(l) => l,
            None => {
                crate::moves::count_generation();
                pos.legal_moves(&mut listed);
                listed.as_slice()
            }
        };
        let others: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| {
                m.to == mv.to
                    && m.from != mv.from
                    && m.promo == mv.promo
                    && m.locust_square() == mv.locust_square()
                    && pos.piece_at(m.from) == pc
            })
            .collect();
        let is_pawn = pawn_kind(rules) == Some(kind);
        if !is_pawn {
            s.push_str(&rules.variant.pieces[kind].symbol);
        }
        let same_file = others.iter().any(|m| g.file(m.from) == g.file(mv.from));
        let same_rank = others.iter().any(|m| g.rank(m.from) == g.rank(mv.from));
        let file = Geometry::file_char(g.file(mv.from));
        if is_pawn && capture {
            s.push(file);
            if same_file {
                s.push_str(&rank_text(g, mv.from));
            }
        } else if is_pawn && g.file(mv.from) != g.file(mv.to) {
            // A Pawn that leaves its file without taking (Sittuyin's promotion by a step)
            // names its square, as Fairy-Stockfish writes it (`d5e4=F`).
            s.push_str(&g.name(mv.from).to_string());
        } else if !others.is_empty() {
            if !same_file {
                s.push(file);
            } else if !same_rank {
                s.push_str(&rank_text(g, mv.from));
            } else {
                s.push_str(&g.name(mv.from).to_string());
            }
        }
        if let Some(mid) = mv.locust_square() {
            // A locust move: the square it takes on the way, then `x` or `-` and where it
            // ends (`Lxe6xe7`, `Lxe6-e5`; a pass through an empty square `L-e6-e5`).
            let taken = fx
                .as_slice()
                .iter()
                .filter(|e| matches!(e, Effect::Capture { .. } | Effect::CaptureToHand { .. }))
                .count();
            // A pass through an empty square: `-` there too (`Le6-e5`... written `L-e6-e5`).
            let took_mid = pos.capture_square(mv) == Some(mid);
            s.push(if took_mid { 'x' } else { '-' });
            s.push_str(&g.name(mid).to_string());
            s.push(if taken > usize::from(took_mid) {
                'x'
            } else {
                '-'
            });
        } else if capture {
            s.push('x');
        }
        s.push_str(&g.name(mv.to).to_string());
        if let Some(k) = fx.promotion() {
            s.push('=');
            s.push_str(&rules.variant.pieces[k].symbol);
        }
        if crate::text::needs_ep_suffix(mv) {
            s.push_str(crate::text::EP_SUFFIX);
        }
    }
    s
}

/// A square reference in a written move: a file, a rank, or both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct SquareRef {
    file: Option<u8>,
    rank: Option<u8>,
}

/// Splits `body` (no piece letter, no promotion) into square references.
fn square_refs(body: &str) -> Option<Vec<SquareRef>> {
    let b = body.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let mut r = SquareRef::default();
        if b[i].is_ascii_lowercase() {
            r.file = Some(b[i] - b'a');
            i += 1;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i > start {
            let n: u32 = body[start..i].parse().ok()?;
            if n == 0 || n > 16 {
                return None;
            }
            r.rank = Some((n - 1) as u8);
        }
        if r == SquareRef::default() {
            return None;
        }
        out.push(r);
    }
    Some(out)
}

fn piece_name(rules: &Ruleset, kind: usize) -> &str {
    &rules.variant.pieces[kind].name
}

/// A move as written, read without looking at a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum San {
    /// `O-O` (toward the higher files) or `O-O-O`, with the king's distance when written
    /// (`O-O/3`).
    Castle {
        /// `O-O`: toward the higher files.
        king_side: bool,
        /// The king's distance, when written.
        distance: Option<u8>,
    },
    /// A drop from the hand: `P@e4`.
    Drop {
        /// The kind dropped.
        kind: usize,
        /// The square it is dropped on.
        to: Square,
    },
    /// Any other move.
    Move(SanMove),
}

/// The parts of a written move other than castling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SanMove {
    /// The piece letter written, as a kind (`None`: no letter).
    pub piece: Option<usize>,
    /// The origin file and rank, when written.
    pub origin_file: Option<u8>,
    /// See `origin_file`.
    pub origin_rank: Option<u8>,
    /// The destination.
    pub to: Square,
    /// The piece promoted to, when written.
    pub promotion: Option<usize>,
    /// Whether `x` (or `:`) was written.
    pub capture: bool,
    /// Whether `ep` (or `e.p.`) was written.
    pub en_passant: bool,
}

/// What a written move stands for in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolved {
    /// Exactly one legal move.
    One(Move),
    /// Several legal moves (an ambiguity).
    Many(Vec<Move>),
    /// No legal move.
    None,
}

impl San {
    /// Reads a written move: its form only, and that its squares are on the board and its
    /// letters name pieces of the variant.
    #[expect(
        clippy::too_many_lines,
        reason = "the written form read left to right (castling, letter, promotion, squares)"
    )]
    pub fn parse(rules: &Ruleset, text: &str) -> Result<San, MoveError> {
        let g = rules.geometry;
        let shown = text.trim();
        let t = shown.trim_end_matches(['+', '#', '!', '?']);
        let (t, want_ep) = match t
            .strip_suffix(super::EP_SUFFIX)
            .or_else(|| t.strip_suffix("e.p."))
        {
            Some(r) if !r.is_empty() => (r, true),
            _ => (t, false),
        };
        if t.is_empty() {
            return Err(MoveError("no move given".into()));
        }
        let upper = t.to_ascii_uppercase().replace('0', "O");
        let (base, distance) = match upper.split_once('/') {
            Some((b, d))
                if !d.is_empty() && d.len() <= 2 && d.bytes().all(|c| c.is_ascii_digit()) =>
            {
                (b, d.parse::<u8>().ok())
            }
            _ => (upper.as_str(), None),
        };
        if base == "O-O" || base == "O-O-O" {
            return Ok(San::Castle {
                king_side: base == "O-O",
                distance,
            });
        }
        if let Some((letter, square)) = t.split_once('@') {
            return parse_drop(rules, shown, letter, square);
        }
        let wrote_x = t.contains('x') || t.contains(':');
        let hint = "write a move as e2e4 (from and to squares) or like Nf3, exd5, e8=Q";
        let unreadable = || MoveError(format!("cannot read `{shown}` as a move: {hint}"));
        let mut rest = t;
        // The piece: its letter, a letter and a prime (`N'`), or `+` and either for a promoted
        // piece (`+R`, `+N'`).
        let mut kind: Option<usize> = None;
        let plus = usize::from(rest.starts_with('+'));
        let lead = rest[plus..]
            .chars()
            .next()
            .filter(char::is_ascii_uppercase)
            .map(|c| {
                let primed = rest[plus + 1..].starts_with('\'');
                (c, plus + 1 + usize::from(primed))
            });
        if let Some((c, len)) = lead {
            let name = &rest[..len];
            match rules.variant.kind_by_symbol(name) {
                Some(k) => {
                    kind = Some(k);
                    rest = &rest[len..];
                }
                None => {
                    let what = match len {
                        1 => format!("has the letter {c}"),
                        _ => format!("is written {name}"),
                    };
                    return Err(MoveError(format!(
                        "{shown}: no piece {what} (the pieces are {})",
                        rules.variant.piece_names().join(", ")
                    )));
                }
            }
        }
        // Promotion: `=Q`, `(Q)` or a letter after the square, `+R` alike.
        let mut promo: Option<usize> = None;
        let promo_name = |p: &str| -> Result<usize, MoveError> {
            rules.variant.kind_by_symbol(p).ok_or_else(|| {
                let up = p.to_ascii_uppercase();
                MoveError(match up.chars().count() {
                    1 => format!("{shown}: no piece has the letter {up}"),
                    _ => format!("{shown}: no piece is written {up}"),
                })
            })
        };
        let one_name = |p: &str| matches!(split_symbols(p).as_slice(), [(_, n)] if n == p);
        if let Some(inner) = rest.strip_suffix(')') {
            let (body, p) = inner.rsplit_once('(').ok_or_else(unreadable)?;
            if !one_name(p) {
                return Err(unreadable());
            }
            promo = Some(promo_name(p)?);
            rest = body;
        } else if let Some((body, p)) = rest.rsplit_once('=') {
            if !one_name(p) {
                return Err(unreadable());
            }
            promo = Some(promo_name(p)?);
            rest = body;
        } else {
            let b = rest.as_bytes();
            let n = b.len();
            // The name straight after the square: a letter, perhaps with a prime, perhaps
            // after `+` (`d10+B`, `e8N'`).
            let primed = usize::from(n > 0 && b[n - 1] == b'\'');
            let letter = n.checked_sub(1 + primed);
            let plus = letter.is_some_and(|i| i > 0 && b[i - 1] == b'+');
            let name_at = letter.map(|i| i - usize::from(plus));
            if let (Some(i), Some(at)) = (letter, name_at)
                && at >= 2
                && b[i].is_ascii_alphabetic()
                && b[at - 1].is_ascii_digit()
            {
                promo = Some(promo_name(&rest[at..])?);
                rest = &rest[..at];
            }
        }
        let body: String = rest
            .chars()
            .filter(|&c| !matches!(c, 'x' | ':' | '-'))
            .collect();
        let refs = square_refs(&body).ok_or_else(unreadable)?;
        let (origin, dest) = match refs.as_slice() {
            [d] => (SquareRef::default(), *d),
            [o, d] => (*o, *d),
            _ => return Err(unreadable()),
        };
        let (Some(df), Some(dr)) = (dest.file, dest.rank) else {
            return Err(unreadable());
        };
        if df >= g.files || dr >= g.ranks {
            return Err(MoveError(format!(
                "{shown}: the board has no square {}{}",
                (b'a' + df) as char,
                dr + 1
            )));
        }
        let to = g.square(df, dr);
        let _origin_on_board = match (origin.file, origin.rank) {
            (Some(f), Some(r)) if f < g.files && r < g.ranks => Some(g.square(f, r)),
            (Some(f), Some(r)) => {
                return Err(MoveError(format!(
                    "{shown}: the board has no square {}{}",
                    (b'a' + f) as char,
                    r + 1
                )));
            }
            _ => None,
        };
        Ok(San::Move(SanMove {
            piece: kind,
            origin_file: origin.file,
            origin_rank: origin.rank,
            to,
            promotion: promo,
            capture: wrote_x,
            en_passant: want_ep,
        }))
    }

    /// The legal moves of `pos` this written move can stand for.
    pub fn resolve(&self, pos: &mut Position) -> Resolved {
        let rules = pos.rules().clone();
        let g = rules.geometry;
        let mut legal = MoveList::new();
        crate::moves::count_generation();
        pos.legal_moves(&mut legal);
        let m = match self {
            San::Castle {
                king_side,
                distance,
            } => {
                // `O-O` names the one castling move of that wing, or, where the king may
                // travel several distances, stands for each of them (an ambiguity); `O-O/3`
                // names one distance.
                let base = if *king_side { "O-O" } else { "O-O-O" };
                let found: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|m| {
                        rules.special_for(*m).is_some_and(|c| {
                            let (b, d) = match c.san.split_once('/') {
                                Some((b, d)) => (b, d.parse::<u8>().ok()),
                                None => (c.san.as_str(), None),
                            };
                            b == base && (distance.is_none() || d == *distance)
                        })
                    })
                    .collect();
                return match found.len() {
                    0 => Resolved::None,
                    1 => Resolved::One(found[0]),
                    _ => Resolved::Many(found),
                };
            }
            San::Drop { kind, to } => {
                let found: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|m| m.dropped() == Some(*kind) && m.to == *to)
                    .collect();
                return match found.len() {
                    0 => Resolved::None,
                    1 => Resolved::One(found[0]),
                    _ => Resolved::Many(found),
                };
            }
            San::Move(m) => *m,
        };
        let (to, promo, want_ep, wrote_x) = (m.to, m.promotion, m.en_passant, m.capture);
        let origin = SquareRef {
            file: m.origin_file,
            rank: m.origin_rank,
        };
        let want_kind = m.wanted_kind(&rules);
        // A locust move is read by its own name (it names the square it takes on the way).
        let matches = |m: &Move, pos: &Position| -> bool {
            m.to == to
                && m.kind != MoveKind::Drop
                && m.kind != MoveKind::Locust
                && want_kind.is_none_or(|k| kind_of(pos.piece_at(m.from)) == k)
                && origin.file.is_none_or(|f| g.file(m.from) == f)
                && origin.rank.is_none_or(|r| g.rank(m.from) == r)
                && promo.is_none_or(|p| m.promotion() == Some(p))
        };
        let mut cands: Vec<Move> = Vec::new();
        for m in legal.iter() {
            if !matches(m, pos) || (want_ep && m.kind != MoveKind::EnPassant) {
                continue;
            }
            match cands
                .iter()
                .position(|c| c.from == m.from && c.to == m.to && c.promo == m.promo)
            {
                // A step and an en-passant capture on the same squares: `x` (or `ep`) picks the
                // capture, otherwise the step. A step and a special move (a one-square castle,
                // named with its suffix or in SAN): the squares alone pick the step.
                Some(i) => {
                    if rules.special_for(*m).is_some() {
                        continue;
                    }
                    if rules.special_for(cands[i]).is_some()
                        || (m.kind == MoveKind::EnPassant) == (wrote_x || want_ep)
                    {
                        cands[i] = *m;
                    }
                }
                None => cands.push(*m),
            }
        }
        if cands.len() > 1 && promo.is_none() {
            let plain: Vec<Move> = cands.iter().copied().filter(|m| m.promo == 0).collect();
            if plain.len() == 1 {
                cands = plain;
            }
        }
        match cands.len() {
            0 => Resolved::None,
            1 => Resolved::One(cands[0]),
            _ => Resolved::Many(cands),
        }
    }

    /// Why this written move (`shown`, as the user wrote it) is no legal move of `pos`, or
    /// which moves it could be when it is ambiguous.
    #[expect(
        clippy::too_many_lines,
        reason = "the reasons a written move fails, tried in turn from the most specific"
    )]
    pub fn explain(&self, pos: &mut Position, shown: &str) -> MoveError {
        let shown = shown.trim();
        let rules = pos.rules().clone();
        let g = rules.geometry;
        let m = match self {
            San::Castle { .. } => {
                if let Resolved::Many(cands) = self.resolve(pos) {
                    let list: Vec<String> = cands
                        .iter()
                        .filter_map(|m| rules.special_for(*m))
                        .map(|s| s.san.clone())
                        .collect();
                    return MoveError(format!(
                        "ambiguous: {shown} could be {} (the king may castle by several distances)",
                        join_or(&list)
                    ));
                }
                return MoveError(format!("{shown}: castling that way is not possible now"));
            }
            San::Drop { kind, to } => {
                let name = piece_name(&rules, *kind);
                let why = if !rules.has_hands() {
                    "this game has no drops".to_owned()
                } else if pos.hand(pos.side(), *kind) == 0 {
                    format!("no {name} in hand")
                } else if pos.piece_at(*to) != EMPTY {
                    format!("{} is occupied", g.name(*to))
                } else {
                    format!(
                        "a {name} may not be dropped on {} now (a rank it may not be dropped \
                         on, or the drop leaves the king in check)",
                        g.name(*to)
                    )
                };
                return MoveError(format!("{shown}: {why}"));
            }
            San::Move(m) => *m,
        };
        if let Resolved::Many(cands) = self.resolve(pos) {
            let list: Vec<String> = cands.iter().map(|&m| coord(&rules, m)).collect();
            let all_promos = cands
                .iter()
                .all(|m| m.promo != 0 && m.from == cands[0].from);
            let how = if all_promos {
                " (add the piece to promote to, e.g. =Q)"
            } else {
                ""
            };
            return MoveError(format!(
                "ambiguous: {shown} could be {}{how}",
                join_or(&list)
            ));
        }
        let mut legal = MoveList::new();
        crate::moves::count_generation();
        pos.legal_moves(&mut legal);
        let royal_name = rules
            .variant
            .pieces
            .iter()
            .find(|p| p.royal)
            .map(|p| p.name.clone())
            .unwrap_or_else(|| "royal piece".into());
        let (to, promo, kind) = (m.to, m.promotion, m.piece);
        let origin = SquareRef {
            file: m.origin_file,
            rank: m.origin_rank,
        };
        let from_sq = m.origin_square(g);
        let pawn = pawn_kind(&rules);
        let want_kind = m.wanted_kind(&rules);
        let matches = |mv: &Move, pos: &Position| -> bool {
            mv.to == to
                && mv.kind != MoveKind::Drop
                && mv.kind != MoveKind::Locust
                && want_kind.is_none_or(|k| kind_of(pos.piece_at(mv.from)) == k)
                && origin.file.is_none_or(|f| g.file(mv.from) == f)
                && origin.rank.is_none_or(|r| g.rank(mv.from) == r)
                && promo.is_none_or(|p| mv.promotion() == Some(p))
        };
        // No legal move matches: say why.
        if let Some(p) = promo {
            let mut options: Vec<String> = legal
                .iter()
                .filter(|m| {
                    m.to == to
                        && m.promo != 0
                        && m.kind != MoveKind::Drop
                        && want_kind.is_none_or(|k| kind_of(pos.piece_at(m.from)) == k)
                        && origin.file.is_none_or(|f| g.file(m.from) == f)
                        && origin.rank.is_none_or(|r| g.rank(m.from) == r)
                })
                .filter_map(|m| m.promotion().map(|k| piece_name(&rules, k).to_string()))
                .collect();
            options.dedup();
            if !options.is_empty() {
                return MoveError(format!(
                    "{shown}: cannot promote to a {} here; the choices are {}",
                    piece_name(&rules, p),
                    join_or(&options)
                ));
            }
        }
        let mut pseudo = MoveList::new();
        pos.pseudo_legal_moves(&mut pseudo);
        if pseudo.iter().any(|m| matches(m, pos)) {
            let rule = pseudo
                .iter()
                .filter(|m| matches(m, pos))
                .find_map(|&m| pos.forbidding_rule(m));
            return MoveError(if let Some(rule) = rule {
                format!("{shown}: illegal, the rule `{rule}` forbids it here")
            } else if pos.in_check() {
                format!(
                    "{shown}: illegal, your {royal_name} is in check and this move does not end the check"
                )
            } else {
                format!("{shown}: illegal, it would leave your {royal_name} in check")
            });
        }
        let side = pos.side();
        let to_name = g.name(to).to_string();
        if let Some(f) = from_sq {
            let c = pos.piece_at(f);
            let f_name = g.name(f).to_string();
            if c == EMPTY {
                return MoveError(format!("{shown}: there is no piece on {f_name}"));
            }
            let name = piece_name(&rules, kind_of(c));
            if color_of(c) != side {
                return MoveError(format!(
                    "{shown}: the {name} on {f_name} is {}'s, and it is {}'s turn",
                    color_of(c).name(),
                    side.name()
                ));
            }
            if let Some(k) = want_kind
                && k != kind_of(c)
            {
                return MoveError(format!(
                    "{shown}: the piece on {f_name} is a {name}, not a {}",
                    piece_name(&rules, k)
                ));
            }
            if let Some(p) = promo
                && pseudo.iter().any(|m| m.from == f && m.to == to)
            {
                return MoveError(format!(
                    "{shown}: the {name} cannot become a {} there",
                    piece_name(&rules, p)
                ));
            }
            return MoveError(format!(
                "{shown}: the {name} on {f_name} cannot move to {to_name}"
            ));
        }
        let who = match want_kind {
            Some(k) => piece_name(&rules, k).to_string(),
            None => "piece".to_string(),
        };
        let mut msg = format!("{shown}: no {who} of yours can move to {to_name}");
        if kind.is_none() && pawn.is_some() && origin == SquareRef::default() && promo.is_none() {
            let example = rules
                .variant
                .pieces
                .iter()
                .enumerate()
                .find(|(k, p)| Some(*k) != pawn && !p.royal);
            if let Some((_, p)) = example {
                msg.push_str(&format!(
                    " (other pieces need their letter, e.g. {}{to_name} for a {})",
                    p.symbol, p.name
                ));
            }
        }
        MoveError(msg)
    }
}

impl SanMove {
    /// The origin square, when both its file and rank were written.
    fn origin_square(&self, g: Geometry) -> Option<Square> {
        match (self.origin_file, self.origin_rank) {
            (Some(f), Some(r)) => Some(g.square(f, r)),
            _ => None,
        }
    }

    /// The kind the move must be made by: the letter's, or without a letter and without a
    /// full origin square, the pawn's.
    fn wanted_kind(&self, rules: &Ruleset) -> Option<usize> {
        match (self.piece, self.origin_square(rules.geometry)) {
            (Some(k), _) => Some(k),
            (None, Some(_)) => None,
            (None, None) => pawn_kind(rules),
        }
    }
}

/// A drop, `P@e4`: the piece's name (either case) and the square.
fn parse_drop(rules: &Ruleset, shown: &str, letter: &str, square: &str) -> Result<San, MoveError> {
    if !matches!(split_symbols(letter).as_slice(), [(_, n)] if n == letter) {
        return Err(MoveError(format!(
            "cannot read `{shown}` as a drop: write the piece's letter, `@` and the square (P@e4)"
        )));
    }
    let kind = rules.variant.kind_by_symbol(letter).ok_or_else(|| {
        let up = letter.to_ascii_uppercase();
        let what = match up.chars().count() {
            1 => format!("has the letter {up}"),
            _ => format!("is written {up}"),
        };
        MoveError(format!(
            "{shown}: no piece {what} (the pieces are {})",
            rules.variant.piece_names().join(", ")
        ))
    })?;
    let to = rules
        .geometry
        .parse_square(square)
        .ok_or_else(|| MoveError(format!("{shown}: the board has no square {square}")))?;
    Ok(San::Drop { kind, to })
}

/// Reads a move typed by a user or found in a file; explains what is wrong when it is not a
/// legal move of `pos`.
pub fn parse_move(pos: &mut Position, text: &str) -> Result<Move, MoveError> {
    // A special move's coordinate name may carry its rule's suffix (`f1g1oo`), a promotion to
    // a piece written `+X` the suffix `+` (`b2h8+`, which SAN would read as a check): read by
    // name.
    let rules = pos.rules().clone();
    let mut legal = MoveList::new();
    crate::moves::count_generation();
    pos.legal_moves(&mut legal);
    let by_name = |m: &&Move| {
        (rules.special_for(**m).is_some() || m.promo != 0 || m.kind == MoveKind::Locust)
            && coord(&rules, **m) == text.trim()
    };
    if let Some(&m) = legal.iter().find(by_name) {
        return Ok(m);
    }
    // A locust move in the SAN-like form (`Lxe6xe7`, `Lxe6-e5`): read by its name.
    let bare = text.trim().trim_end_matches(['+', '#', '!', '?']);
    let locusts: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| m.kind == MoveKind::Locust)
        .collect();
    for m in locusts {
        if san_body(pos, &rules, m, Some(legal.as_slice())) == bare {
            return Ok(m);
        }
    }
    // A move written as another plus what it adds (`Nc3/H`, `O-O/He1`): read by its name.
    let bare = text.trim().trim_end_matches(['+', '#', '!', '?']);
    if bare
        .split_once('/')
        .is_some_and(|(_, added)| added.starts_with(|c: char| c.is_ascii_alphabetic() || c == '+'))
    {
        let candidates: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&m| pos.written_as(m).is_some())
            .collect();
        for m in candidates {
            let written = san_listed(pos, m, Some(legal.as_slice()), None);
            if written.trim_end_matches(['+', '#']) == bare {
                return Ok(m);
            }
        }
    }
    // `c3d4=`: the move that declines to promote, as XBoard writes it in Shogi.
    if let Some(plain) = text.trim().strip_suffix('=')
        && let Some(&m) = legal
            .iter()
            .find(|m| m.promo == 0 && m.dropped().is_none() && coord(&rules, **m) == plain)
    {
        return Ok(m);
    }
    let san = San::parse(pos.rules(), text)?;
    match san.resolve(pos) {
        Resolved::One(m) => Ok(m),
        _ => Err(san.explain(pos, text)),
    }
}

fn join_or(items: &[String]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{} or {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_refs_read_files_ranks_and_squares() {
        assert_eq!(
            square_refs("e4").unwrap(),
            vec![SquareRef {
                file: Some(4),
                rank: Some(3)
            }]
        );
        assert_eq!(square_refs("a10a12").unwrap().len(), 2);
        assert_eq!(
            square_refs("1d2").unwrap()[0],
            SquareRef {
                file: None,
                rank: Some(0)
            }
        );
        assert!(square_refs("e").is_some());
        assert!(square_refs("E4").is_none());
    }

    #[test]
    fn a_written_move_is_read_then_resolved_then_explained() {
        let v = crate::variant::Variant::load("chess").unwrap();
        let rs = Ruleset::new(&v, None).unwrap();
        let g = rs.geometry;
        let n = v.kind_by_letter('N').unwrap();
        let San::Move(m) = San::parse(&rs, "Nbxd2+").unwrap() else {
            panic!("not a move")
        };
        assert_eq!(
            m,
            SanMove {
                piece: Some(n),
                origin_file: Some(1),
                origin_rank: None,
                to: g.parse_square("d2").unwrap(),
                promotion: None,
                capture: true,
                en_passant: false,
            }
        );
        assert_eq!(
            San::parse(&rs, "O-O").unwrap(),
            San::Castle {
                king_side: true,
                distance: None
            }
        );
        assert_eq!(
            San::parse(&rs, "Zd2").unwrap_err().to_string(),
            "Zd2: no piece has the letter Z (the pieces are P Pawn, N Knight, B Bishop, R Rook, Q Queen, K King)"
        );
        let mut p = Position::start(&rs);
        // Nbd2 names no legal move in the start position (d2 is taken): resolved to none,
        // then explained.
        let san = San::parse(&rs, "Nbd2").unwrap();
        assert_eq!(san.resolve(&mut p), Resolved::None);
        assert_eq!(
            san.explain(&mut p, "Nbd2").to_string(),
            "Nbd2: no Knight of yours can move to d2"
        );
        let nf3 = San::parse(&rs, "Nf3").unwrap();
        let Resolved::One(m) = nf3.resolve(&mut p) else {
            panic!("Nf3 is one move")
        };
        assert_eq!(coord(&rs, m), "g1f3");
    }
}

//! The generic move generator and attack test. They read only the compiled tables: the
//! generator through the one interpreter (`Tables::reach`), the attack test through the
//! reverse probes.

use super::{EpSquares, Position, Ruleset};
use crate::geometry::{Color, Square};
use crate::moves::{Code, EMPTY, Move, MoveKind, MoveList, color_of, kind_of};
use crate::tables::{Entry, Lander, Landing, Probe, ProbeKind, Shape, Tables};

/// Whether `sq` is attacked by a piece of `by` on `board`.
pub fn attacked_on(t: &Tables, board: &[Code; 256], sq: Square, by: Color) -> bool {
    let (leaps, others) = t.attack_probes(by, sq);
    if leaps
        .iter()
        .any(|&(mask, o)| mask >> board[o.index()].index() & 1 != 0)
    {
        return true;
    }
    let probes = t.probes_at(by, sq);
    others
        .iter()
        .any(|&i| probe_hits(t, board, &probes[i as usize]))
}

/// Whether, after a move that emptied `vacated` and filled `filled`, a piece of `by` attacks
/// `sq` — given that none did before. Only the probes those squares can switch on are tried.
#[inline]
pub fn attacked_after(
    t: &Tables,
    board: &[Code; 256],
    sq: Square,
    by: Color,
    vacated: &[Square],
    filled: Square,
) -> bool {
    let probes = t.probes_at(by, sq);
    let hit = |i: &u16| probe_hits(t, board, &probes[*i as usize]);
    vacated
        .iter()
        .any(|&s| t.probes_vacated(by, sq, s).iter().any(hit))
        || t.probes_filled(by, sq, filled).iter().any(hit)
}

/// Whether one probe finds an attacker.
#[inline]
pub fn probe_hits(t: &Tables, board: &[Code; 256], p: &Probe) -> bool {
    probe_attacker(t, board, p).is_some()
}

/// [`probe_attacker`] for a hopper that may not hop over some kinds: the first piece met is
/// the screen (refused where its kind is one of `limits`' `screens_not`); the attacker is the
/// next piece (`grass`: on the very next square).
#[cold]
#[inline(never)]
fn limited_hop(
    t: &Tables,
    board: &[Code; 256],
    p: &Probe,
    limits: u8,
    grass: bool,
) -> Option<Square> {
    let scan = &t.squares[p.sq_start as usize..p.sq_start as usize + p.sq_len as usize];
    let first = scan.iter().position(|s| board[s.index()] != EMPTY)?;
    let screen = board[scan[first].index()];
    if t.limits[limits as usize].screens_not >> kind_of(screen) & 1 != 0 || (grass && first != 0) {
        return None;
    }
    let s = *scan[first + 1..]
        .iter()
        .find(|s| board[s.index()] != EMPTY)?;
    (p.mask >> board[s.index()].index() & 1 != 0).then_some(s)
}

/// [`probe_attacker`] for a locust leap: the attacker on the probe's origin, its conditions
/// holding, and either (the target taken on the way) the leap's end free for it, or (the
/// target where it ends) a piece of the target's side on the square taken on the way.
#[cold]
#[inline(never)]
fn locust_hits(
    t: &Tables,
    board: &[Code; 256],
    p: &Probe,
    (mid, to, at_mid, quiet, capture): (Square, Square, bool, bool, bool),
) -> Option<Square> {
    let a = board[p.origin.index()];
    if a == EMPTY || p.mask >> a.index() & 1 == 0 || !t.conds_hold(board, p.cond_start, p.cond_len)
    {
        return None;
    }
    let ok = if at_mid {
        let c = board[to.index()];
        to == p.origin
            || (c == EMPTY && quiet)
            || (c != EMPTY && capture && color_of(c) != color_of(a))
    } else {
        let c = board[mid.index()];
        c != EMPTY && color_of(c) != color_of(a)
    };
    ok.then_some(p.origin)
}

/// The square of the attacker that one probe finds on `board`, if any (the static exchange
/// evaluation needs the square; the attack test only whether there is one).
#[inline]
pub fn probe_attacker(t: &Tables, board: &[Code; 256], p: &Probe) -> Option<Square> {
    let scan = || &t.squares[p.sq_start as usize..p.sq_start as usize + p.sq_len as usize];
    match p.kind {
        ProbeKind::Leap => {
            let c = board[p.origin.index()];
            (c != EMPTY
                && p.mask >> c.index() & 1 != 0
                && t.conds_hold(board, p.cond_start, p.cond_len))
            .then_some(p.origin)
        }
        ProbeKind::Slide => {
            for &s in scan() {
                let c = board[s.index()];
                if c != EMPTY {
                    return (p.mask >> c.index() & 1 != 0).then_some(s);
                }
            }
            None
        }
        ProbeKind::Hop => {
            let mut screen = false;
            for &s in scan() {
                let c = board[s.index()];
                if c != EMPTY {
                    if screen {
                        return (p.mask >> c.index() & 1 != 0).then_some(s);
                    }
                    screen = true;
                }
            }
            None
        }
        ProbeKind::Grass => {
            let ss = scan();
            if ss.is_empty() || board[(ss[0]).index()] == EMPTY {
                return None;
            }
            for &s in &ss[1..] {
                let c = board[s.index()];
                if c != EMPTY {
                    return (p.mask >> c.index() & 1 != 0).then_some(s);
                }
            }
            None
        }
        ProbeKind::LimitedHop { limits, grass } => limited_hop(t, board, p, limits, grass),
        ProbeKind::Locust {
            mid,
            to,
            at_mid,
            quiet,
            capture,
        } => locust_hits(t, board, p, (mid, to, at_mid, quiet, capture)),
        ProbeKind::Bent { bend_any } => {
            for i in 0..p.sq_len as usize {
                let b = t.squares[p.sq_start as usize + i];
                let occupied = board[b.index()] != EMPTY;
                if occupied && !bend_any {
                    return None;
                }
                let oi = p.org_start as usize + i;
                if t.valid[oi] {
                    let o = t.squares[oi];
                    let c = board[o.index()];
                    if c != EMPTY
                        && p.mask >> c.index() & 1 != 0
                        && t.conds_hold(
                            board,
                            p.cond_start + (i as u32) * p.cond_len as u32,
                            p.cond_len,
                        )
                    {
                        return Some(o);
                    }
                }
                if occupied {
                    return None;
                }
            }
            None
        }
    }
}

/// Pushes a move; a move of an entry marked `PROMOTES` is expanded by the arrival table that
/// the rules filled (or, where the move ends without an arrival, the departure table, in the
/// games that have one): one move per kind the piece may become, and the move as it is when
/// the piece may stay (where it may not, a piece with no choice cannot move there).
#[inline]
fn push(rs: &Ruleset, e: &Entry, side: Color, kind: usize, mv: Move, out: &mut MoveList) {
    if e.modes().promotes {
        if rs.promotion.arrival_squares[side.index()].contains(mv.to) {
            expand(rs.arrival(kind, side, mv.to), mv, out);
            return;
        }
        if rs.promotion.departures {
            push_departing(rs, side, kind, mv, out);
            return;
        }
    }
    out.push(mv);
}

/// Pushes a promoting move that ends without an arrival: expanded by the departure table
/// where it starts on one of its squares (Shogi: a move out of the zone).
#[cold]
#[inline(never)]
fn push_departing(rs: &Ruleset, side: Color, kind: usize, mv: Move, out: &mut MoveList) {
    if rs.promotion.departure_squares[side.index()].contains(mv.from) {
        expand(rs.departure(kind, side, mv.from), mv, out);
    } else {
        out.push(mv);
    }
}

/// The move as it is where the piece may stay, and one move per kind it may become.
#[inline]
fn expand(a: &super::hooks::Arrival, mut mv: Move, out: &mut MoveList) {
    if a.stay {
        out.push(mv);
    }
    for &k in &a.choices {
        mv.promo = k + 1;
        out.push(mv);
    }
}

/// Marks (in `Move::aux`) an en-passant capture whose piece could also move to the same square
/// without capturing: its written name carries the suffix `ep` so that the two moves have
/// different names (see `text::coord`).
pub const EP_NAMED: u8 = 1;

/// Whether the piece of `kind` on `from` has a non-capturing move that can reach `to`.
fn moves_plainly_to(
    t: &crate::tables::Tables,
    kind: usize,
    side: Color,
    from: Square,
    to: Square,
) -> bool {
    t.entries_at(kind, side, from)
        .iter()
        .any(|e| e.modes().quiet && t.squares_of(e).contains(&to))
}

/// What a landing of the interpreter becomes in the generator: a quiet move (a double step
/// when the entry leaves en-passant rights), an en-passant capture, a capture.
struct Gen<'a> {
    rs: &'a Ruleset,
    e: &'a Entry,
    side: Color,
    kind: usize,
    from: Square,
    ep: EpSquares,
    /// Whether quiet moves that cannot promote are left out ([`generate_tactical`]).
    tactical: bool,
    out: &'a mut MoveList,
}

impl Lander for Gen<'_> {
    /// A locust leap's landing: a [`MoveKind::Locust`] through `via`.
    #[cold]
    #[inline(never)]
    fn land_via(&mut self, to: Square, landing: Landing, via: Square) {
        let (rs, e, side, kind) = (self.rs, self.e, self.side, self.kind);
        if landing == Landing::Enemy || e.modes().quiet {
            let mut mv = Move::new(self.from, to);
            mv.kind = MoveKind::Locust;
            mv.aux = via.byte();
            push(rs, e, side, kind, mv, self.out);
        }
    }

    #[inline(always)]
    fn land(&mut self, to: Square, landing: Landing) {
        let (rs, e, side, kind) = (self.rs, self.e, self.side, self.kind);
        match landing {
            Landing::Empty => {
                let modes = e.modes();
                let leap = e.shape() == Shape::Leap;
                if modes.quiet && (!self.tactical || modes.promotes) {
                    let mut mv = Move::new(self.from, to);
                    if modes.leaves_ep && leap {
                        mv.kind = MoveKind::Double;
                        mv.aux = e.ep.byte();
                    }
                    push(rs, e, side, kind, mv, self.out);
                }
                if modes.en_passant && leap && self.ep.contains(to) {
                    let mut mv = Move::new(self.from, to);
                    mv.kind = MoveKind::EnPassant;
                    if moves_plainly_to(&rs.tables, kind, side, self.from, to) {
                        mv.aux = EP_NAMED;
                    }
                    push(rs, e, side, kind, mv, self.out);
                }
            }
            Landing::Enemy => push(rs, e, side, kind, Move::new(self.from, to), self.out),
        }
    }
}

/// Generates the pseudo-legal moves of the notation for the side to move.
pub fn generate(pos: &Position, out: &mut MoveList) {
    generate_with(pos, out, false);
}

/// [`generate`] less the quiet moves that cannot promote: every capture, en-passant capture
/// and promotion is there, in the order [`generate`] gives them (quiet moves may remain;
/// the caller filters).
pub fn generate_tactical(pos: &Position, out: &mut MoveList) {
    generate_with(pos, out, true);
}

#[inline(always)]
fn generate_with(pos: &Position, out: &mut MoveList, tactical: bool) {
    let rs = &**pos.rules();
    let t = &rs.tables;
    let board = pos.board();
    let side = pos.side();
    let mut g = Gen {
        rs,
        e: &EMPTY_ENTRY,
        side,
        kind: 0,
        from: Square::new(0),
        ep: *pos.ep_squares(),
        tactical,
        out,
    };
    for from in pos.occupied(side).iter() {
        let pc = board[from.index()];
        debug_assert!(pc != EMPTY && color_of(pc) == side);
        g.kind = kind_of(pc);
        g.from = from;
        for e in t.entries_at(g.kind, side, from) {
            let m = e.modes();
            if tactical && !m.capture && !m.en_passant && !m.promotes && e.locust().is_none() {
                continue;
            }
            g.e = e;
            t.reach_into(e, board, side, &mut g);
        }
    }
}

/// A placeholder entry for [`Gen`] before the first real one.
static EMPTY_ENTRY: Entry = Entry {
    sq_start: 0,
    sq_len: 0,
    cond_start: 0,
    cond_len: 0,
    flags: 0,
    ep: Square::new(0),
    component: 0,
    dx: 0,
    dy: 0,
    bx: 0,
    by: 0,
};

//! The generic move generator and attack test. They read only the compiled tables.

use super::{Position, Ruleset};
use crate::geometry::{Color, Square};
use crate::moves::{Code, EMPTY, Move, MoveKind, MoveList, color_of, kind_of};
use crate::tables::{
    CAPTURE, EP, Entry, GRASS, HOP, LEAP, MAKES_EP, MOVE, PROMOTES, Probe, ProbeKind, Tables,
};

#[inline]
fn conds_hold(t: &Tables, board: &[Code; 256], start: u32, len: u16) -> bool {
    let cs = &t.conds[start as usize..start as usize + len as usize];
    cs.iter()
        .all(|c| (board[c.sq as usize] != EMPTY) == c.occupied)
}

/// Whether `sq` is attacked by a piece of `by` on `board`.
pub fn attacked_on(t: &Tables, board: &[Code; 256], sq: Square, by: Color) -> bool {
    t.probes_at(by, sq).iter().any(|p| probe_hits(t, board, p))
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
    match p.kind {
        ProbeKind::Leap => {
            let c = board[p.origin as usize];
            c != EMPTY && p.mask >> c & 1 != 0 && conds_hold(t, board, p.cond_start, p.cond_len)
        }
        ProbeKind::Slide => {
            for &s in &t.squares[p.sq_start as usize..p.sq_start as usize + p.sq_len as usize] {
                let c = board[s as usize];
                if c != EMPTY {
                    return p.mask >> c & 1 != 0;
                }
            }
            false
        }
        ProbeKind::Hop => {
            let mut screen = false;
            for &s in &t.squares[p.sq_start as usize..p.sq_start as usize + p.sq_len as usize] {
                let c = board[s as usize];
                if c != EMPTY {
                    if screen {
                        return p.mask >> c & 1 != 0;
                    }
                    screen = true;
                }
            }
            false
        }
        ProbeKind::Grass => {
            let ss = &t.squares[p.sq_start as usize..p.sq_start as usize + p.sq_len as usize];
            if ss.is_empty() || board[ss[0] as usize] == EMPTY {
                return false;
            }
            for &s in &ss[1..] {
                let c = board[s as usize];
                if c != EMPTY {
                    return p.mask >> c & 1 != 0;
                }
            }
            false
        }
        ProbeKind::Bent { bend_any } => {
            for i in 0..p.sq_len as usize {
                let b = t.squares[p.sq_start as usize + i];
                let occupied = board[b as usize] != EMPTY;
                if occupied && !bend_any {
                    return false;
                }
                let oi = p.org_start as usize + i;
                if t.valid[oi] {
                    let c = board[t.squares[oi] as usize];
                    if c != EMPTY
                        && p.mask >> c & 1 != 0
                        && conds_hold(
                            t,
                            board,
                            p.cond_start + (i as u32) * p.cond_len as u32,
                            p.cond_len,
                        )
                    {
                        return true;
                    }
                }
                if occupied {
                    return false;
                }
            }
            false
        }
    }
}

/// Pushes a move; a move of an entry marked `PROMOTES` is expanded by the arrival table that
/// the rules filled: one move per kind the piece may become, and the move as it is when the
/// piece may stay (where it may not, a piece with no choice cannot move there).
#[inline]
fn push(rs: &Ruleset, e: &Entry, side: Color, kind: usize, mut mv: Move, out: &mut MoveList) {
    if e.flags & PROMOTES != 0 {
        let a = rs.arrival(kind, side, mv.to);
        if a.stay {
            out.push(mv);
        }
        for &k in &a.choices {
            mv.promo = k + 1;
            out.push(mv);
        }
        return;
    }
    out.push(mv);
}

/// Pushes the move if the contents of its destination allow it (empty: a move; enemy: a
/// capture). Returns whether the destination is occupied, where a ray stops.
#[inline]
fn land(
    rs: &Ruleset,
    e: &Entry,
    side: Color,
    kind: usize,
    board: &[Code; 256],
    mv: Move,
    out: &mut MoveList,
) -> bool {
    let c = board[mv.to as usize];
    if c == EMPTY {
        if e.flags & MOVE != 0 {
            push(rs, e, side, kind, mv, out);
        }
        false
    } else {
        if e.flags & CAPTURE != 0 && color_of(c) != side {
            push(rs, e, side, kind, mv, out);
        }
        true
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
        .any(|e| e.flags & MOVE != 0 && t.squares_of(e).contains(&to))
}

/// Generates the pseudo-legal moves of the notation for the side to move.
pub fn generate(pos: &Position, out: &mut MoveList) {
    let rs = &**pos.rules();
    let t = &rs.tables;
    let board = pos.board();
    let side = pos.side();
    let ep = pos.ep_squares();
    for from in pos.occupied(side).iter() {
        let pc = board[from as usize];
        debug_assert!(pc != EMPTY && color_of(pc) == side);
        let kind = kind_of(pc);
        for e in t.entries_at(kind, side, from) {
            if e.cond_len > 0 && !conds_hold(t, board, e.cond_start, e.cond_len) {
                continue;
            }
            let dests = t.squares_of(e);
            if e.flags & LEAP != 0 {
                let to = dests[0];
                let c = board[to as usize];
                if c == EMPTY {
                    if e.flags & MOVE != 0 {
                        let mut mv = Move::new(from, to);
                        if e.flags & MAKES_EP != 0 {
                            mv.kind = MoveKind::Double;
                            mv.aux = e.ep;
                        }
                        push(rs, e, side, kind, mv, out);
                    }
                    if e.flags & EP != 0 && ep.contains(to) {
                        let mut mv = Move::new(from, to);
                        mv.kind = MoveKind::EnPassant;
                        if moves_plainly_to(t, kind, side, from, to) {
                            mv.aux = EP_NAMED;
                        }
                        push(rs, e, side, kind, mv, out);
                    }
                } else if e.flags & CAPTURE != 0 && color_of(c) != side {
                    push(rs, e, side, kind, Move::new(from, to), out);
                }
                continue;
            }
            // Rays: a slide lands on every square up to the first piece; a hopper only beyond
            // its screen; a grasshopper only on the square just beyond the screen.
            let mut rest = dests.iter();
            if e.flags & (HOP | GRASS) != 0 {
                // Skip to the screen: the first occupied square.
                if !rest.by_ref().any(|&s| board[s as usize] != EMPTY) {
                    continue;
                }
            }
            for &to in rest {
                if land(rs, e, side, kind, board, Move::new(from, to), out) || e.flags & GRASS != 0
                {
                    break;
                }
            }
        }
    }
}

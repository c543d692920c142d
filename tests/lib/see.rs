//! Static exchange evaluation: hand-set exchanges with hoppers, and agreement with an
//! exchange played out move by move with the move generator (a second, independent way to
//! find each recapture) in many positions of chess, Shako, Metamachy and Lions and Unicorns.

use std::sync::Arc;

use polymachy::geometry::Square;
use polymachy::moves::{EMPTY, Move, MoveKind, MoveList, color_of};
use polymachy::position::Position;
use polymachy::position::Ruleset;
use polymachy::search::Searcher;
use polymachy::search::see::{SeeValues, see_ge};
use polymachy::variant::Variant;

use crate::common::{find, rules};

/// Metamachy with the `value`s its file gives each piece (without the `[eval]` table, its
/// fitted values and its network, that the shipped game has), so that the exchanges below
/// count in round numbers.
fn metamachy_file_values() -> Arc<Ruleset> {
    let file = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/variants/metamachy.toml"
    ));
    // The `[eval]` table runs to the first blank line after its header.
    let start = file
        .find("\n[eval]\n")
        .expect("the shipped file has an [eval] table");
    let end = start
        + 1
        + file[start + 1..]
            .find("\n\n")
            .expect("a blank line ends it");
    let text = format!("{}{}", &file[..start], &file[end..]);
    assert!(!text.contains("[eval]") && !text.contains("network ="));
    let v = Variant::from_toml(&text, "metamachy.toml").unwrap();
    Ruleset::new(&v, None).unwrap()
}

fn values(rs: &Arc<Ruleset>) -> SeeValues {
    Searcher::new(rs, 1).see_values().clone()
}

/// The largest `t` (in steps of 1) with `see_ge(mv, t)`, searched between -2000 and 2000.
fn see_value(p: &Position, mv: Move, v: &SeeValues) -> i32 {
    let (mut lo, mut hi) = (-2000, 2000);
    assert!(see_ge(p, mv, lo, v) && !see_ge(p, mv, hi, v));
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if see_ge(p, mv, mid, v) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

// Metamachy values (the file's `value`s): pawn 100, rook 500, cannon 350. White: Kl1, Ra4, Cannon a1.
// Black: Kl12, pawn a8, Rook a12. 1. Rxa8 Rxa8 and the cannon cannot take back: between a1 and
// a8 there is no screen once the rook has left a4. White wins a pawn and loses a rook: -400.
// With a White pawn on a2 as a screen, the cannon retakes (over a2): Black does better not to
// take the rook at all, and White is a pawn up: +100.
#[test]
fn metamachy_cannon_recaptures_only_over_a_screen() {
    let rs = metamachy_file_values();
    let v = values(&rs);
    let mut p =
        Position::from_fen(&rs, "r10k/12/12/12/p11/12/12/12/R11/12/12/C10K w - - 0 1").unwrap();
    let m = find(&mut p, "a4a8");
    assert_eq!(see_value(&p, m, &v), -400);
    let mut p =
        Position::from_fen(&rs, "r10k/12/12/12/p11/12/12/12/R11/12/P11/C10K w - - 0 1").unwrap();
    let m = find(&mut p, "a4a8");
    assert_eq!(see_value(&p, m, &v), 100);
}

// Metamachy: White Kl1, Rook a4. Black Kl12, pawn a8, Cannon a12, pawn a10 (the screen).
// 1. Rxa8 Cxa8 (over a10): -400. Without the a10 pawn the cannon has no screen: +100.
#[test]
fn metamachy_cannon_defends_only_over_a_screen() {
    let rs = metamachy_file_values();
    let v = values(&rs);
    let mut p =
        Position::from_fen(&rs, "c10k/12/p11/12/p11/12/12/12/R11/12/12/11K w - - 0 1").unwrap();
    let m = find(&mut p, "a4a8");
    assert_eq!(see_value(&p, m, &v), -400);
    let mut p =
        Position::from_fen(&rs, "c10k/12/12/12/p11/12/12/12/R11/12/12/11K w - - 0 1").unwrap();
    let m = find(&mut p, "a4a8");
    assert_eq!(see_value(&p, m, &v), 100);
}

// Chess: a royal piece takes last, and only where nothing attacks the square any more.
// White Kd4, Black pawn e5 defended by the Black rook e8: Kxe5 is worth nothing (it is
// illegal); with no rook it wins the pawn.
#[test]
fn chess_king_captures_only_undefended() {
    let rs = rules("chess");
    let v = values(&rs);
    let mut p = Position::from_fen(&rs, "7k/8/8/4p3/3K4/8/8/8 w - - 0 1").unwrap();
    let m = find(&mut p, "d4e5");
    assert!(see_ge(&p, m, 100, &v));
    assert!(!see_ge(&p, m, 101, &v));
    // A defended pawn: the pseudo-legal capture loses everything.
    let p = Position::from_fen(&rs, "4r2k/8/8/4p3/3K4/8/8/8 w - - 0 1").unwrap();
    assert!(!see_ge(&p, m, 0, &v));
}

/// The exchange on `to`, played with the generator: the side to move takes with its least
/// valuable capturer (by the same values), or stops; `None` when a promotion or a capture
/// the exchange model leaves out would be involved.
fn played_out(p: &mut Position, to: Square, v: &SeeValues, depth: u32) -> Option<i32> {
    if depth > 30 {
        return None;
    }
    let mut l = MoveList::new();
    p.pseudo_legal_moves(&mut l);
    let target = p.piece_at(to);
    if target == EMPTY || color_of(target) == p.side() {
        return Some(0);
    }
    let mut best: Option<Move> = None;
    for &m in l.iter() {
        if m.to != to {
            continue;
        }
        if m.promo != 0 || !matches!(m.kind, MoveKind::Normal | MoveKind::Double) {
            // Promotions and special captures onto the square: not modelled.
            return None;
        }
        let value = v.by_code[p.piece_at(m.from).index()];
        if best.is_none_or(|b| value < v.by_code[p.piece_at(b.from).index()]) {
            best = Some(m);
        }
    }
    let Some(m) = best else { return Some(0) };
    let victim = v.by_code[target.index()];
    let royal = v.royal >> p.piece_at(m.from).index() & 1 != 0;
    p.make(m);
    let reply = if royal {
        // The royal piece may take only if nothing can take it back.
        let mut l = MoveList::new();
        p.pseudo_legal_moves(&mut l);
        let retaken = l.iter().any(|r| r.to == to);
        if retaken { None } else { Some(0) }
    } else {
        played_out(p, to, v, depth + 1)
    };
    p.unmake();
    match (royal, reply) {
        (true, None) => Some(0),
        (_, Some(r)) => Some((victim - r).max(0)),
        (false, None) => None,
    }
}

/// Positions along a game of pseudo-random legal moves.
fn positions(rs: &Arc<Ruleset>, seed: u64, plies: usize) -> Vec<Position> {
    let mut p = Position::start(rs);
    let mut out = Vec::new();
    let mut x = seed;
    for _ in 0..plies {
        let mut l = MoveList::new();
        p.legal_moves(&mut l);
        if l.is_empty() {
            break;
        }
        // Prefer captures half of the time, so that the boards thin out and open up.
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let caps: Vec<Move> = l
            .iter()
            .copied()
            .filter(|m| p.piece_at(m.to) != EMPTY && !m.is_rule_made())
            .collect();
        let m = if !caps.is_empty() && x.is_multiple_of(2) {
            caps[(x >> 8) as usize % caps.len()]
        } else {
            l.as_slice()[(x >> 8) as usize % l.len()]
        };
        p.make(m);
        out.push(p.clone());
    }
    out
}

#[test]
fn see_agrees_with_the_exchange_played_out() {
    let mut checked = 0;
    for name in ["chess", "shako", "metamachy", "lions-and-unicorns"] {
        let rs = rules(name);
        let v = values(&rs);
        for seed in 1..=6u64 {
            for mut p in positions(&rs, seed * 7919, 120) {
                let mut l = MoveList::new();
                p.pseudo_legal_moves(&mut l);
                for &m in l.iter() {
                    let target = p.piece_at(m.to);
                    if target == EMPTY
                        || color_of(target) == p.side()
                        || m.promo != 0
                        || !matches!(m.kind, MoveKind::Normal | MoveKind::Double)
                        || v.royal >> p.piece_at(m.from).index() & 1 != 0
                    {
                        continue;
                    }
                    let victim = v.by_code[target.index()];
                    p.make(m);
                    let reply = played_out(&mut p, m.to, &v, 0);
                    p.unmake();
                    let Some(reply) = reply else { continue };
                    let expected = victim - reply;
                    let got = see_value(&p, m, &v);
                    assert_eq!(
                        got,
                        expected,
                        "{name}: {} in {}",
                        polymachy::game::coord(&rs, m),
                        p.fen()
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 1000, "only {checked} exchanges compared");
}

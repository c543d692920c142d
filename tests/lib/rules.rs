//! One focused test per special rule. Every position is sparse and built by hand; every
//! expected move list is derived by hand from the rules, with the reasoning in a comment.
//! Moves are compared as sets of coordinate strings for one piece (filtered by its square), so
//! a wrong extra move and a missing move both fail.
//!
//! Board coordinates: files a.., ranks 1.. from White's side. "attacked" for a king-leap passed
//! square means: with the King lifted from its origin and put on that square, an enemy piece
//! could capture it.

use std::collections::BTreeSet;

use polymachy::geometry::Square;
use polymachy::moves::{Code, EMPTY, MoveKind, MoveList};
use polymachy::nnue::{Change, MAX_CHANGES};
use polymachy::position::Ruleset;
use polymachy::position::{Effect, Position};
use polymachy::text::coord;
use polymachy::variant::Variant;

use crate::common::{fen, find, legal, moves_from, piece, play_coords, position, rules, set, sq};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn check_moves(pos: &mut Position, from: &str, want: &[&str]) {
    let got = moves_from(pos, from);
    let want = set(want);
    assert_eq!(
        got,
        want,
        "moves from {from} in {}\n missing: {:?}\n extra: {:?}",
        pos.fen(),
        want.difference(&got).collect::<Vec<_>>(),
        got.difference(&want).collect::<Vec<_>>()
    );
}

// ---------------------------------------------------------------------------------------------
// 1-5. Metamachy: the King's leap
// ---------------------------------------------------------------------------------------------
//
// From f1 the King's ordinary steps are e1 g1 e2 f2 g2; its leap destinations (distance exactly
// two) on the board are d1 h1 (D), d3 h3 (A), f3 (D), d2 h2 e3 g3 (N). Passed squares:
//   d1: e1   h1: g1   f3: f2   d3: e2   h3: g2
//   d2: e1 or e2   h2: g1 or g2   e3: e2 or f2   g3: f2 or g2   (N: one safe one is enough)

#[test]
fn king_leap_through_an_attacked_square_is_illegal() {
    // White K f1 (leap right K), Black Rook a2, Black King l12.
    // The Rook attacks the whole of rank 2 (b2..l2 are empty) and the a-file; nothing else.
    //   steps: e1 safe -> in; g1 safe -> in; e2 f2 g2 on rank 2 -> out.
    //   d1: passed e1 safe, d1 safe -> in.        h1: passed g1 safe, h1 safe -> in.
    //   d2, h2: the destination is on rank 2 -> out (may not land in check).
    //   d3: A leap, passed e2 attacked -> out (d3 itself is safe).
    //   f3: D leap, passed f2 attacked -> out (f3 is safe).
    //   h3: A leap, passed g2 attacked -> out (h3 is safe).
    //   e3: both e2 and f2 attacked -> out.     g3: both f2 and g2 attacked -> out.
    let rs = rules("metamachy");
    let mut pos = position(&rs, &[("f1", 'K'), ("a2", 'r'), ("l12", 'k')], "w K - 0 1");
    check_moves(&mut pos, "f1", &["f1e1", "f1g1", "f1d1", "f1h1"]);
}

#[test]
fn king_leap_passed_square_exposed_when_the_king_leaves_its_origin() {
    // White K f1 (right K), Black Rook l1 on the King's rank, Black King l12.
    // The Rook's line toward e1 is blocked only by the King on f1: with the King lifted and put
    // on e1 (the square passed by the leap to d1), the Rook sees e1, so the leap to d1 passes an
    // attacked square (and d1 itself is attacked too). Note that a Rook whose line is blocked
    // by the King necessarily attacks the King, so the King is in check and no leap is allowed
    // at all; any such position is also a "leap while in check" position.
    //   steps: e1 -> out (the Rook sees e1 once the King has left f1); g1 -> out (attacked);
    //          e2 f2 g2 -> in (the Rook attacks rank 1 and the l-file only).
    //   leaps: none (in check; d1 in particular passes e1, which is attacked).
    let rs = rules("metamachy");
    let mut pos = position(&rs, &[("f1", 'K'), ("l1", 'r'), ("l12", 'k')], "w K - 0 1");
    assert!(pos.in_check());
    check_moves(&mut pos, "f1", &["f1e2", "f1f2", "f1g2"]);
}

#[test]
fn king_leap_passed_square_is_judged_with_the_king_lifted() {
    // White K f1 (right K), Black Cannon a1, Black King l12.
    // The Cannon on a1 looks along rank 1: b1..e1 are empty and the King on f1 is the first
    // piece. Left on f1, the King would be a screen and g1 would look attacked; but the passed
    // square is judged with the King lifted from f1 and put on g1: then b1..f1 are empty and the
    // King on g1 is the first piece, with no screen before it, so g1 is NOT attacked.
    // The a-file has no screen either. Nothing else is attacked.
    //   steps e1 g1 e2 f2 g2: all safe -> in.
    //   leaps d1 (e1) h1 (g1) d2 h2 d3 e3 f3 g3 h3: passed squares and destinations safe -> in.
    let rs = rules("metamachy");
    let mut pos = position(&rs, &[("f1", 'K'), ("a1", 'c'), ("l12", 'k')], "w K - 0 1");
    check_moves(
        &mut pos,
        "f1",
        &[
            "f1e1", "f1g1", "f1e2", "f1f2", "f1g2", "f1d1", "f1h1", "f1d2", "f1h2", "f1d3", "f1e3",
            "f1f3", "f1g3", "f1h3",
        ],
    );
}

#[test]
fn king_leap_through_a_square_attacked_by_a_cannon_over_a_screen() {
    // White K f1 (right K), Black Cannon g12, Black Pawn g8 (the screen), Black King a12.
    // The Cannon jumps g8 and attacks the first piece below it on the g-file: with g7..g2 empty
    // a King put on g1, g2 or g3 is attacked. Nothing else attacks the King's area (the Pawn on
    // g8 attacks f7 and h7, the Black King a11 b11 b12).
    //   steps: e1 e2 f2 -> in; g1 g2 -> out.
    //   d1 (e1) -> in.  h1: passed g1 attacked -> out (h1 itself is safe).
    //   d2 (e1, e2 safe) -> in.  h2: g1 and g2 both attacked -> out (h2 is safe).
    //   d3 (e2) -> in.  e3 (e2, f2) -> in.  f3 (f2) -> in.
    //   g3: the destination is attacked -> out.  h3: passed g2 attacked -> out (h3 is safe).
    let rs = rules("metamachy");
    let mut pos = position(
        &rs,
        &[("f1", 'K'), ("g12", 'c'), ("g8", 'p'), ("a12", 'k')],
        "w K - 0 1",
    );
    check_moves(
        &mut pos,
        "f1",
        &[
            "f1e1", "f1e2", "f1f2", "f1d1", "f1d2", "f1d3", "f1e3", "f1f3",
        ],
    );

    // Control: without the screen the Cannon attacks nothing on the g-file (a King on g1, g2
    // or g3 would itself be the first piece), so all 5 steps and all 9 leaps are legal.
    let mut pos = position(&rs, &[("f1", 'K'), ("g12", 'c'), ("a12", 'k')], "w K - 0 1");
    check_moves(
        &mut pos,
        "f1",
        &[
            "f1e1", "f1g1", "f1e2", "f1f2", "f1g2", "f1d1", "f1h1", "f1d2", "f1h2", "f1d3", "f1e3",
            "f1f3", "f1g3", "f1h3",
        ],
    );
}

#[test]
fn king_knight_leap_needs_one_safe_passed_square() {
    // White K f1 (right K), Black Rook g12, Black Knight c1, Black King a12.
    // The Rook attacks the g-file g11..g1. The Knight on c1 attacks a2, b3, d3, e2.
    //   steps: e1 -> in; g1 (Rook) -> out; e2 (Knight) -> out; f2 -> in; g2 (Rook) -> out.
    //   d1: passed e1 safe, d1 safe -> in.     h1: passed g1 attacked -> out.
    //   d2: N leap, e1 safe (e2 attacked), d2 safe -> in (one safe square is enough).
    //   h2: N leap, g1 AND g2 attacked -> out (h2 itself is safe).
    //   e3: N leap, f2 safe (e2 attacked), e3 safe -> in.
    //   g3: on the g-file -> out.   f3: passed f2 safe, f3 safe -> in.
    //   d3: passed e2 attacked (and d3 attacked by the Knight) -> out.
    //   h3: passed g2 attacked -> out.
    let rs = rules("metamachy");
    let mut pos = position(
        &rs,
        &[("f1", 'K'), ("g12", 'r'), ("c1", 'n'), ("a12", 'k')],
        "w K - 0 1",
    );
    check_moves(
        &mut pos,
        "f1",
        &["f1e1", "f1f2", "f1d1", "f1d2", "f1e3", "f1f3"],
    );
}

#[test]
fn king_leap_not_allowed_in_check() {
    // White K f1 (right K), Black Bishop c4 giving check along c4-d3-e2-f1, Black King l12.
    // The Bishop's other lines (b3 a2, b5 a6, d5 e6 ...) are far away.
    //   steps: e2 on the checking diagonal -> out; e1 f2 g1 g2 -> in.
    //   leaps: none while in check, although e.g. d1, h1, f3 would otherwise be legal.
    let rs = rules("metamachy");
    let mut pos = position(&rs, &[("f1", 'K'), ("c4", 'b'), ("l12", 'k')], "w K - 0 1");
    assert!(pos.in_check());
    check_moves(&mut pos, "f1", &["f1e1", "f1f2", "f1g1", "f1g2"]);
}

#[test]
fn king_leap_never_onto_an_occupied_square_nor_without_its_right() {
    // White K f1, White Knight d1, White Pawn f3, Black Camel e3, Black King l12.
    // The Camel on e3 attacks b2, b4, h2, h4, d6, f6 (the (3,1) leap); nothing else attacks.
    //   steps e1 g1 e2 f2 g2 -> in.
    //   d1: own Knight -> never generated.  f3: own Pawn -> never generated.
    //   e3: enemy Camel -> never generated (the leap never captures).
    //   h2: destination attacked by the Camel -> out.
    //   h1 (g1) d2 (e1, e2) d3 (e2) g3 (f2, g2) h3 (g2): empty and safe -> in.
    let rs = rules("metamachy");
    let pieces = [
        ("f1", 'K'),
        ("d1", 'N'),
        ("f3", 'P'),
        ("e3", 'm'),
        ("l12", 'k'),
    ];
    let mut pos = position(&rs, &pieces, "w K - 0 1");
    check_moves(
        &mut pos,
        "f1",
        &[
            "f1e1", "f1g1", "f1e2", "f1f2", "f1g2", "f1h1", "f1d2", "f1d3", "f1g3", "f1h3",
        ],
    );

    // The same position without the right: ordinary steps only.
    let mut pos = position(&rs, &pieces, "w - - 0 1");
    check_moves(&mut pos, "f1", &["f1e1", "f1g1", "f1e2", "f1f2", "f1g2"]);

    // A King that has moved has lost its right: after f1e1 and a Black King move, the King on
    // e1 has only steps: d1 (own Knight) -> out; f1 d2 e2 f2 -> in (all safe).
    let mut pos = position(&rs, &pieces, "w K - 0 1");
    let mv = find(&mut pos, "f1e1");
    pos.make(mv);
    assert_eq!(pos.fen().split(' ').nth(2), Some("-"), "{}", pos.fen());
    let mv = find(&mut pos, "l12l11");
    pos.make(mv);
    check_moves(&mut pos, "e1", &["e1f1", "e1d2", "e1e2", "e1f2"]);
}

// ---------------------------------------------------------------------------------------------
// 6-8. Metamachy: en passant and promotion
// ---------------------------------------------------------------------------------------------

#[test]
fn prince_double_step_then_pawn_takes_en_passant() {
    // Black to move: Black Prince e9, White Pawn d7, White King f1, Black King l12.
    // The Prince double-steps e9-e7 (forward for Black is down), passing e8: e.p. square e8.
    // Then the White Pawn on d7 has: d8 (step), d9 (double step over the empty d8), and the
    // e.p. capture d7xe8 removing the Prince on e7. c8 and e8 hold nothing to capture normally.
    let rs = rules("metamachy");
    let mut pos = position(
        &rs,
        &[("e9", 'i'), ("d7", 'P'), ("f1", 'K'), ("l12", 'k')],
        "b - - 0 1",
    );
    let before = pos.fen();
    let double = find(&mut pos, "e9e7");
    pos.make(double);
    // Prince move: neither a capture nor an irreversible piece -> halfmove 1; fullmove 2.
    let after_double = fen(
        &rs,
        &[("e7", 'i'), ("d7", 'P'), ("f1", 'K'), ("l12", 'k')],
        "w - e8 1 2",
    );
    assert_eq!(pos.fen(), after_double);
    check_moves(&mut pos, "d7", &["d7d8", "d7d9", "d7e8"]);

    let ep = find(&mut pos, "d7e8");
    assert_eq!(ep.kind, MoveKind::EnPassant);
    pos.make(ep);
    assert_eq!(piece(&pos, "e7"), None, "the Prince is taken");
    assert_eq!(piece(&pos, "e8"), Some('P'));
    assert_eq!(piece(&pos, "d7"), None);
    let after_ep = fen(&rs, &[("e8", 'P'), ("f1", 'K'), ("l12", 'k')], "b - - 0 2");
    assert_eq!(pos.fen(), after_ep);

    pos.unmake();
    assert_eq!(pos.fen(), after_double);
    pos.unmake();
    assert_eq!(pos.fen(), before);
}

#[test]
fn prince_never_captures_en_passant() {
    // Black to move: Black Pawn e9, White Prince d7, White King f1, Black King l12.
    // Black plays e9-e7 (double step past e8): e.p. square e8, the Pawn on e7 beside the Prince.
    // The Prince (KfmnnD) on d7 then has its King steps c6 c7 c8 d6 d8 e6 e8 (empty) and e7
    // (an ordinary capture of the Pawn), and the double step d7-d9 over the empty d8.
    // Nothing attacks the White King on f1. e8 is an ordinary move, not an e.p. capture, and
    // as no White piece can take en passant the position keeps no e.p. square.
    let rs = rules("metamachy");
    let mut pos = position(
        &rs,
        &[("e9", 'p'), ("d7", 'I'), ("f1", 'K'), ("l12", 'k')],
        "b - - 0 1",
    );
    let double = find(&mut pos, "e9e7");
    pos.make(double);
    assert_eq!(pos.fen().split(' ').nth(3), Some("-"), "{}", pos.fen());
    check_moves(
        &mut pos,
        "d7",
        &[
            "d7c6", "d7c7", "d7c8", "d7d6", "d7d8", "d7d9", "d7e6", "d7e7", "d7e8",
        ],
    );
    let to_e8 = find(&mut pos, "d7e8");
    assert_ne!(to_e8.kind, MoveKind::EnPassant);
    pos.make(to_e8);
    assert_eq!(piece(&pos, "e8"), Some('I'));
    assert_eq!(piece(&pos, "e7"), Some('p'), "the Pawn stays on the board");
}

#[test]
fn pawn_double_step_onto_the_last_rank_promotes() {
    // White Pawn e10, White King f1, Black King l12.
    // Single step e10-e11: rank 11 is not the last rank -> e10e11, no promotion.
    // Double step e10-e12 over the empty e11 lands on the last rank: compulsory promotion to
    // Queen, Lion or Eagle -> e10e12q, e10e12l, e10e12g (and no unpromoted e10e12).
    // No captures: d11 and f11 are empty.
    let rs = rules("metamachy");
    let mut pos = position(&rs, &[("e10", 'P'), ("f1", 'K'), ("l12", 'k')], "w - - 0 1");
    check_moves(
        &mut pos,
        "e10",
        &["e10e11", "e10e12q", "e10e12l", "e10e12g"],
    );
    let mv = find(&mut pos, "e10e12g");
    pos.make(mv);
    assert_eq!(piece(&pos, "e12"), Some('G'));
    assert_eq!(piece(&pos, "e10"), None);

    // A piece on e11 blocks both the step and the double step: no move at all.
    // (Black Rook e11: it attacks rank 11, e12 and e10 only; the White King is safe.)
    let mut pos = position(
        &rs,
        &[("e10", 'P'), ("e11", 'r'), ("f1", 'K'), ("l12", 'k')],
        "w - - 0 1",
    );
    check_moves(&mut pos, "e10", &[]);
}

// ---------------------------------------------------------------------------------------------
// 9-11. Bent pieces and the Troll
// ---------------------------------------------------------------------------------------------

#[test]
fn eagle_bends_and_is_stopped_at_the_bend() {
    // Metamachy. White Eagle e5, White Pawn d6, Black Knight d4, Black Pawn j6,
    // White King f1, Black King l12.
    // The Eagle's four bend squares:
    //   d6 (NW): own Pawn -> no move there and nothing beyond (c6 b6 a6, d7..d12 all out).
    //   d4 (SW): enemy Knight -> capture on d4 only; c4 b4 a4 and d3 d2 d1 out.
    //   f6 (NE): empty -> f6; north f7 f8 f9 f10 f11 f12; east g6 h6 i6 and j6 (capture of the
    //            Pawn), stop.
    //   f4 (SE): empty -> f4; south f3 f2 (f1 is the own King: stop); east g4 h4 i4 j4 k4 l4.
    // No move exposes the White King (no enemy slider); 21 moves.
    let rs = rules("metamachy");
    let mut pos = position(
        &rs,
        &[
            ("e5", 'G'),
            ("d6", 'P'),
            ("d4", 'n'),
            ("j6", 'p'),
            ("f1", 'K'),
            ("l12", 'k'),
        ],
        "w - - 0 1",
    );
    check_moves(
        &mut pos,
        "e5",
        &[
            "e5d4", "e5f6", "e5f7", "e5f8", "e5f9", "e5f10", "e5f11", "e5f12", "e5g6", "e5h6",
            "e5i6", "e5j6", "e5f4", "e5f3", "e5f2", "e5g4", "e5h4", "e5i4", "e5j4", "e5k4", "e5l4",
        ],
    );
    let cap = find(&mut pos, "e5d4");
    pos.make(cap);
    assert_eq!(piece(&pos, "d4"), Some('G'));
}

#[test]
fn rhinoceros_bends_and_is_stopped_at_the_bend() {
    // Terachess II (16x16). White Rhinoceros h8, White Pawn h9, Black Knight g8,
    // Black Pawn l5, White King a1, Black King p16.
    // The Rhinoceros (WyafsW) steps orthogonally, then may slide along the two diagonals that
    // lean away from its start:
    //   h9 (N): own Pawn -> nothing there or beyond.
    //   g8 (W): enemy Knight -> capture g8 only (f9 e10.. and f7 e6.. out).
    //   i8 (E): empty -> i8; NE j9 k10 l11 m12 n13 o14 p15 (edge); SE j7 k6 and l5 (capture of
    //           the Pawn), stop.
    //   h7 (S): empty -> h7; SW g6 f5 e4 d3 c2 b1 (edge); SE i6 j5 k4 l3 m2 n1 (edge).
    // The Kings stand on none of these lines; 25 moves.
    let rs = rules("terachess2");
    let mut pos = position(
        &rs,
        &[
            ("h8", 'U'),
            ("h9", 'P'),
            ("g8", 'n'),
            ("l5", 'p'),
            ("a1", 'K'),
            ("p16", 'k'),
        ],
        "w - - 0 1",
    );
    check_moves(
        &mut pos,
        "h8",
        &[
            "h8g8", "h8i8", "h8j9", "h8k10", "h8l11", "h8m12", "h8n13", "h8o14", "h8p15", "h8j7",
            "h8k6", "h8l5", "h8h7", "h8g6", "h8f5", "h8e4", "h8d3", "h8c2", "h8b1", "h8i6", "h8j5",
            "h8k4", "h8l3", "h8m2", "h8n1",
        ],
    );
}

#[test]
fn troll_promotes_by_its_pawn_moves_only() {
    // Terachess II. White Trolls e15 and j13, Black Knight d16, White King a1, Black King p1.
    // Troll = GHfmWfcF: (3,3) and (3,0) leaps, a forward step, a diagonal-forward capture.
    // Troll e15:
    //   step e16 (last rank) -> promotes, to Queen only: e15e16q.
    //   capture d16 (enemy Knight) -> promotes: e15d16q. f16 is empty: no capture.
    //   G leaps: b12, h12 (upward ones are off the board). H leaps: e12, b15, h15.
    // Troll j13:
    //   step j14. Diagonal captures i14, k14: empty, none.
    //   G leaps: g16 and m16 (onto the last rank, by a leap: NO promotion), g10, m10.
    //   H leaps: j16 (last rank by a leap: no promotion), j10, g13, m13.
    let rs = rules("terachess2");
    let pieces = [
        ("e15", 'T'),
        ("j13", 'T'),
        ("d16", 'n'),
        ("a1", 'K'),
        ("p1", 'k'),
    ];
    let mut pos = position(&rs, &pieces, "w - - 0 1");
    check_moves(
        &mut pos,
        "e15",
        &[
            "e15e16q", "e15d16q", "e15b12", "e15h12", "e15e12", "e15b15", "e15h15",
        ],
    );
    check_moves(
        &mut pos,
        "j13",
        &[
            "j13j14", "j13g16", "j13m16", "j13g10", "j13m10", "j13j16", "j13j10", "j13g13",
            "j13m13",
        ],
    );

    let step = find(&mut pos, "e15e16q");
    pos.make(step);
    assert_eq!(piece(&pos, "e16"), Some('Q'));
    pos.unmake();
    let leap = find(&mut pos, "j13j16");
    pos.make(leap);
    assert_eq!(piece(&pos, "j16"), Some('T'), "a leap does not promote");
}

// ---------------------------------------------------------------------------------------------
// 12-13. Castling
// ---------------------------------------------------------------------------------------------

#[test]
fn perfect12_castling_through_an_attacked_square() {
    // Perfect 12: the King slides 3 squares: f2-c2 with the Rook b2-d2, f2-i2 with k2-h2.
    // White K f2, Rooks b2 and k2 (rights KQ), Black Rook d12, Black King f12.
    // The Black Rook attacks the d-file d11..d1 (and rank 12); the Black King e11 f11 g11 ...
    //   steps e1 f1 g1 e2 g2 e3 f3 g3: none attacked -> in.
    //   f2-i2: g2 h2 i2 j2 empty between King and Rook; f2 g2 h2 i2 not attacked -> in.
    //   f2-c2: c2 d2 e2 empty, but the King passes d2, attacked -> out.
    let rs = rules("perfect12");
    let pieces = [
        ("f2", 'K'),
        ("b2", 'R'),
        ("k2", 'R'),
        ("d12", 'r'),
        ("f12", 'k'),
    ];
    let mut pos = position(&rs, &pieces, "w KQ - 0 1");
    check_moves(
        &mut pos,
        "f2",
        &[
            "f2e1", "f2f1", "f2g1", "f2e2", "f2g2", "f2e3", "f2f3", "f2g3", "f2i2",
        ],
    );
    let castle = find(&mut pos, "f2i2");
    pos.make(castle);
    assert_eq!(piece(&pos, "i2"), Some('K'));
    assert_eq!(piece(&pos, "h2"), Some('R'));
    assert_eq!(piece(&pos, "k2"), None);
    assert_eq!(piece(&pos, "f2"), None);
    assert_eq!(pos.fen().split(' ').nth(2), Some("-"), "{}", pos.fen());

    // Control: with the Black Rook on a12 instead (it attacks the a-file and rank 12 only),
    // both castlings are legal.
    let mut pos = position(
        &rs,
        &[
            ("f2", 'K'),
            ("b2", 'R'),
            ("k2", 'R'),
            ("a12", 'r'),
            ("f12", 'k'),
        ],
        "w KQ - 0 1",
    );
    check_moves(
        &mut pos,
        "f2",
        &[
            "f2e1", "f2f1", "f2g1", "f2e2", "f2g2", "f2e3", "f2f3", "f2g3", "f2i2", "f2c2",
        ],
    );
    let castle = find(&mut pos, "f2c2");
    pos.make(castle);
    assert_eq!(piece(&pos, "c2"), Some('K'));
    assert_eq!(piece(&pos, "d2"), Some('R'));
    assert_eq!(piece(&pos, "b2"), None);
}

#[test]
fn perfect12_no_castling_out_of_check() {
    // White K f2, Rooks b2 and k2 (rights KQ), Black Rook f11 checking down the f-file,
    // Black King f12.
    //   steps: f1 and f3 on the f-file -> out (f1 is seen once the King has left f2);
    //          e1 g1 e2 g2 e3 g3 -> in.
    //   castling either way: the King is in check -> out.
    let rs = rules("perfect12");
    let mut pos = position(
        &rs,
        &[
            ("f2", 'K'),
            ("b2", 'R'),
            ("k2", 'R'),
            ("f11", 'r'),
            ("f12", 'k'),
        ],
        "w KQ - 0 1",
    );
    assert!(pos.in_check());
    check_moves(
        &mut pos,
        "f2",
        &["f2e1", "f2g1", "f2e2", "f2g2", "f2e3", "f2g3"],
    );
}

#[test]
fn lions_and_unicorns_castles_with_the_close_rooks() {
    // Lions and Unicorns (10x8): King f1, Rooks b1 and i1; f1-h1 with i1-g1, f1-d1 with b1-e1.
    // White K f1, Rooks b1 i1 (rights KQ), Black King f8; nothing attacks rank 1 or 2.
    //   steps e1 g1 e2 f2 g2 -> in.
    //   f1-h1: g1 h1 empty between King and Rook, f1 g1 h1 safe -> in.
    //   f1-d1: c1 d1 e1 empty, f1 e1 d1 safe -> in.
    let rs = rules("lions-and-unicorns");
    let pieces = [("f1", 'K'), ("b1", 'R'), ("i1", 'R'), ("f8", 'k')];
    let mut pos = position(&rs, &pieces, "w KQ - 0 1");
    check_moves(
        &mut pos,
        "f1",
        &["f1e1", "f1g1", "f1e2", "f1f2", "f1g2", "f1h1", "f1d1"],
    );

    let short = find(&mut pos, "f1h1");
    assert_eq!(short.kind, MoveKind::Rule);
    assert_eq!(rs.special_for(short).map(|s| s.san.as_str()), Some("O-O"));
    pos.make(short);
    assert_eq!(piece(&pos, "h1"), Some('K'));
    assert_eq!(piece(&pos, "g1"), Some('R'));
    assert_eq!(piece(&pos, "i1"), None);
    assert_eq!(piece(&pos, "f1"), None);
    pos.unmake();

    let long = find(&mut pos, "f1d1");
    assert_eq!(long.kind, MoveKind::Rule);
    assert_eq!(rs.special_for(long).map(|s| s.san.as_str()), Some("O-O-O"));
    pos.make(long);
    assert_eq!(piece(&pos, "d1"), Some('K'));
    assert_eq!(piece(&pos, "e1"), Some('R'));
    assert_eq!(piece(&pos, "b1"), None);
    assert_eq!(piece(&pos, "f1"), None);
}

// ---------------------------------------------------------------------------------------------
// 14. Metamachy setups
// ---------------------------------------------------------------------------------------------

fn permutations(s: &str) -> Vec<String> {
    if s.len() <= 1 {
        return vec![s.to_string()];
    }
    let mut out = Vec::new();
    for (i, c) in s.chars().enumerate() {
        let rest: String = s
            .chars()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, c)| c)
            .collect();
        for p in permutations(&rest) {
            out.push(format!("{c}{p}"));
        }
    }
    out
}

/// The letters standing on f1 g1 f2 g2 (White) and f12 g12 f11 g11 (Black).
fn setup_squares(pos: &Position) -> (String, String) {
    let white: String = ["f1", "g1", "f2", "g2"]
        .iter()
        .map(|s| piece(pos, s).unwrap_or('.'))
        .collect();
    let black: String = ["f12", "g12", "f11", "g11"]
        .iter()
        .map(|s| piece(pos, s).unwrap_or('.'))
        .collect();
    (white, black)
}

#[test]
fn metamachy_all_24_setups_load() {
    let v = Variant::load("metamachy").unwrap();
    let perms = permutations("KQLG");
    assert_eq!(perms.len(), 24);
    for p in &perms {
        let rs = Ruleset::new(&v, Some(p)).unwrap_or_else(|e| panic!("setup {p}: {e}"));
        let pos = Position::start(&rs);
        let (white, black) = setup_squares(&pos);
        assert_eq!(&white, p, "setup {p}: White on f1 g1 f2 g2");
        assert_eq!(
            black,
            p.to_ascii_lowercase(),
            "setup {p}: Black on f12 g12 f11 g11"
        );
        // The rest of the two back ranks is untouched: the default has Q K on f1 g1 and
        // L G on f2 g2, everything else is the same.
        assert_eq!(piece(&pos, "e1"), None);
        assert_eq!(piece(&pos, "h1"), None);
        assert_eq!(piece(&pos, "e2"), Some('I'));
        assert_eq!(piece(&pos, "h2"), Some('I'));
    }

    // Numbered setups 1..12 load; each puts the King on the f-file, and they are all different.
    let mut seen = BTreeSet::new();
    for n in 1..=12 {
        let rs = Ruleset::new(&v, Some(&n.to_string()))
            .unwrap_or_else(|e| panic!("setup number {n}: {e}"));
        let pos = Position::start(&rs);
        let (white, black) = setup_squares(&pos);
        assert!(
            piece(&pos, "f1") == Some('K') || piece(&pos, "f2") == Some('K'),
            "setup {n}: {white}"
        );
        assert_eq!(black, white.to_ascii_lowercase());
        assert!(seen.insert(white.clone()), "setup {n} repeats {white}");
    }

    for bad in ["KQLL", "13", "XYZW", "0", "KQL", "KQLGK"] {
        assert!(
            Ruleset::new(&v, Some(bad)).is_err(),
            "setup {bad:?} must be refused"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Grand Chess: promotion zone of three ranks, optional on the first two, compulsory on the
// last, only to kinds the side has lost.
// ---------------------------------------------------------------------------------------------

/// White's full set of pieces on rank 1 (Grand Chess kinds, one per square), minus `without`.
fn grand_back_rank(without: &[&'static str]) -> Vec<(&'static str, char)> {
    [
        ("a1", 'R'),
        ("b1", 'N'),
        ("c1", 'B'),
        ("d1", 'Q'),
        ("e1", 'K'),
        ("f1", 'C'),
        ("g1", 'A'),
        ("h1", 'B'),
        ("i1", 'N'),
        ("j1", 'R'),
    ]
    .into_iter()
    .filter(|(s, _)| !without.contains(s))
    .collect()
}

#[test]
fn grand_promotion_only_to_lost_kinds() {
    // White: every start piece on rank 1 (nothing lost), Pawns d7 and d9; Black King h10 (no
    // White piece attacks it: the Rooks hold the a- and j-files, the Marshal the f-file, the
    // diagonals from rank 1 end below rank 10; the d9 Pawn covers c10 and e10).
    //   d9: d10 is the compulsory rank and nothing is lost -> no move at all.
    //   d7: d8 is an optional rank -> only the plain step, no promotion.
    let rs = rules("grand");
    let mut pieces = grand_back_rank(&[]);
    pieces.extend([("d7", 'P'), ("d9", 'P'), ("h10", 'k')]);
    let mut pos = position(&rs, &pieces, "w - - 0 1");
    check_moves(&mut pos, "d9", &[]);
    check_moves(&mut pos, "d7", &["d7d8"]);

    // Without the a1 Rook, a Rook is the one kind lost:
    //   d9: d9d10r only (compulsory);  d7: the plain step or d7d8r.
    let mut pieces = grand_back_rank(&["a1"]);
    pieces.extend([("d7", 'P'), ("d9", 'P'), ("h10", 'k')]);
    let mut pos = position(&rs, &pieces, "w - - 0 1");
    check_moves(&mut pos, "d9", &["d9d10r"]);
    check_moves(&mut pos, "d7", &["d7d8", "d7d8r"]);
    // After d9d10r White again has two Rooks: the d7 Pawn has nothing left to become.
    let m = find(&mut pos, "d9d10r");
    pos.make(m);
    assert_eq!(piece(&pos, "d10"), Some('R'));
    let reply = find(&mut pos, "h10g9");
    pos.make(reply);
    check_moves(&mut pos, "d7", &["d7d8"]);

    // With only the King left, every kind is lost: six promotions on each rank of the zone,
    // plus the plain step on the optional rank 8.
    let mut pos = position(
        &rs,
        &[("e1", 'K'), ("d7", 'P'), ("d9", 'P'), ("h10", 'k')],
        "w - - 0 1",
    );
    check_moves(
        &mut pos,
        "d9",
        &["d9d10q", "d9d10c", "d9d10a", "d9d10r", "d9d10b", "d9d10n"],
    );
    check_moves(
        &mut pos,
        "d7",
        &["d7d8", "d7d8q", "d7d8c", "d7d8a", "d7d8r", "d7d8b", "d7d8n"],
    );
}

#[test]
fn grand_black_promotes_on_ranks_three_to_one() {
    // Black mirrored: Black King e10 and Pawns d4 (optional rank 3 ahead) and d2 (compulsory
    // rank 1 ahead), all other Black pieces lost; White King h1 only.
    //   d2: six promotions on d1, no plain step.   d4: d3 plain or six promotions.
    let rs = rules("grand");
    let mut pos = position(
        &rs,
        &[("e10", 'k'), ("d4", 'p'), ("d2", 'p'), ("h1", 'K')],
        "b - - 0 1",
    );
    check_moves(
        &mut pos,
        "d2",
        &["d2d1q", "d2d1c", "d2d1a", "d2d1r", "d2d1b", "d2d1n"],
    );
    check_moves(
        &mut pos,
        "d4",
        &["d4d3", "d4d3q", "d4d3c", "d4d3a", "d4d3r", "d4d3b", "d4d3n"],
    );
}

#[test]
fn compulsory_zone_larger_than_the_zone_is_refused() {
    let text = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/variants/grand.toml"))
        .replace("compulsory-zone = 1", "compulsory-zone = 4");
    let Err(err) = Variant::from_toml(&text, "grand.toml") else {
        panic!("compulsory-zone 4 with zone 3 was accepted");
    };
    assert!(err.to_string().contains("compulsory-zone"), "{err}");
}

// ---------------------------------------------------------------------------------------------
// Capablanca Chess: the King castles three squares.
// ---------------------------------------------------------------------------------------------

#[test]
fn capablanca_castling_moves_the_king_three_squares() {
    // White K f1, Rooks a1 and j1 (rights KQ), Black King f8. Nothing attacks rank 1 or 2.
    //   King steps: e1 g1 e2 f2 g2; castling f1-i1 (Rook j1-h1) and f1-c1 (Rook a1-d1).
    let rs = rules("capablanca");
    let pieces = [("f1", 'K'), ("a1", 'R'), ("j1", 'R'), ("f8", 'k')];
    let mut pos = position(&rs, &pieces, "w KQ - 0 1");
    check_moves(
        &mut pos,
        "f1",
        &["f1e1", "f1g1", "f1e2", "f1f2", "f1g2", "f1i1", "f1c1"],
    );
    let m = find(&mut pos, "f1i1");
    pos.make(m);
    assert_eq!(piece(&pos, "i1"), Some('K'));
    assert_eq!(piece(&pos, "h1"), Some('R'));
    assert_eq!(piece(&pos, "j1"), None);
    let mut pos = position(&rs, &pieces, "w KQ - 0 1");
    let m = find(&mut pos, "f1c1");
    pos.make(m);
    assert_eq!(piece(&pos, "c1"), Some('K'));
    assert_eq!(piece(&pos, "d1"), Some('R'));
    assert_eq!(piece(&pos, "a1"), None);
}

// ---------------------------------------------------------------------------------------------
// Gigachess II: the start position, counted by hand.
// ---------------------------------------------------------------------------------------------

#[test]
fn gigachess2_has_53_legal_moves_from_the_start() {
    // White, rank 1 a..n: C M Z V U H O A X F V Z M C
    //        rank 2 a..n: E R N B W J Q K D W B N R E
    //        rank 3 a..n: P P P P I Y G L S I P P P P;  rank 4: Pawns e4..j4; ranks 5-10 empty.
    // Pawns a3-d3, k3-n3: one step to rank 4 and the double step to rank 5 (rank 4 empty
    //   there): 8 x 2 = 16.  Pawns e4-j4: to rank 5 and rank 6: 6 x 2 = 12.          -> 28
    // Princes e3, j3 (KfmnnD): of their King steps only d4 (resp. k4) is empty; the double
    //   step is blocked by the Pawn in front.                                            -> 2
    // Missionary f3, Eagle g3, Admiral i3: every first step lands on an own piece.       -> 0
    // Lion h3 (KNAD): K all own; N g5 i5 (f4 j4 own, rank 1-2 own); A f5 j5; D h5
    //   (f3 j3 h1 own).                                                                  -> 5
    // Elephants a2, n2 (FA): F onto own pieces; A c4 resp. l4 (leaps over b3/m3).        -> 2
    // Knights c2, l2: b4 d4 resp. k4 m4; the rest own.                                   -> 4
    // Rooks, Bishops, Machines (WD: e4/j4 own), Centaur (KN: all own), Queen: nothing.   -> 0
    // King h2: steps all own; its leap ring (f1-f4, j1-j4, g4-i4) holds only own men.    -> 0
    // Duchess i2 (KADGH): A g4 own, k4 empty; D i4 own; G f5 l5; H i5 (f2 l2 own).       -> 4
    // Camels b1, m1 (C): a4 c4 resp. l4 n4 (e2, j2 own).                                 -> 4
    // Giraffes c1, l1 (Z): a4 resp. n4 (e4, j4, f3, i3 own).                             -> 2
    // Buffalo j1 (NCZ): N all own; C k4 (i4 g2 m2 own); Z l4 (h4 g3 m3 own).             -> 2
    // Cannons, Crocodiles, Sorceress: blocked, and the first man beyond each screen is
    //   their own. Rhinoceros, Marshall, Amazon, Cardinal: blocked.                      -> 0
    // Total: 28 + 2 + 5 + 2 + 4 + 4 + 4 + 2 + 2 = 53.
    let rs = rules("gigachess2");
    let mut pos = Position::start(&rs);
    assert_eq!(legal(&mut pos).len(), 53);
    check_moves(&mut pos, "h3", &["h3g5", "h3i5", "h3f5", "h3j5", "h3h5"]);
    check_moves(&mut pos, "i2", &["i2k4", "i2f5", "i2l5", "i2i5"]);
    check_moves(&mut pos, "j1", &["j1k4", "j1l4"]);
    check_moves(&mut pos, "e3", &["e3d4"]);
    check_moves(&mut pos, "h2", &[]);
}

// ---------------------------------------------------------------------------------------------
// drops (Crazyhouse)
// ---------------------------------------------------------------------------------------------

#[test]
fn drops_a_captured_piece_goes_to_the_captors_hand_and_may_be_dropped() {
    let rs = rules("crazyhouse");
    // White's Bishop on c4 takes the Knight on f7 (no check matters here): White then holds a
    // Knight, which it may drop on any of the empty squares on its next turn.
    let mut pos = Position::from_fen(&rs, "4k3/5n2/8/8/2B5/8/8/4K3[] w - - 0 1").unwrap();
    play_coords(&mut pos, &["c4f7"]);
    assert_eq!(pos.fen(), "4k3/5B2/8/8/8/8/8/4K3[N] b - - 0 1");
    play_coords(&mut pos, &["e8d7"]);
    let drops: BTreeSet<String> = legal(&mut pos)
        .into_iter()
        .filter(|m| m.kind == MoveKind::Drop)
        .map(|m| coord(&rs, m))
        .collect();
    // 64 squares less the three occupied ones (d7, f7, e1).
    assert_eq!(drops.len(), 61, "{drops:?}");
    assert!(drops.contains("N@e5") && !drops.contains("N@d7"));
    play_coords(&mut pos, &["N@b6"]);
    // The drop gives check: the Knight on b6 attacks d7.
    assert!(pos.in_check());
    // Every drop restarts the move clock, as in Fairy-Stockfish.
    assert_eq!(pos.fen(), "8/3k1B2/1N6/8/8/8/8/4K3[] b - - 0 2");
}

#[test]
fn drops_pawns_never_on_the_first_or_last_rank_and_a_drop_blocks_a_check() {
    let rs = rules("crazyhouse");
    // White is in check from the Rook on a1 along the first rank; it holds a Pawn and a Knight.
    // The Pawn may not be dropped on rank 1, so only the Knight's drops on b1, c1 or d1 (or a
    // King move) answer the check; no Pawn drop is legal anywhere.
    let mut pos = Position::from_fen(&rs, "4k3/8/8/8/8/8/8/r3K3[PN] w - - 0 1").unwrap();
    let all: BTreeSet<String> = legal(&mut pos).iter().map(|&m| coord(&rs, m)).collect();
    let drops: BTreeSet<String> = all.iter().filter(|m| m.contains('@')).cloned().collect();
    assert_eq!(drops, set(&["N@b1", "N@c1", "N@d1"]));
    // Without the check, Pawn drops are legal on ranks 2 to 7 only.
    let mut pos = Position::from_fen(&rs, "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1").unwrap();
    let pawn: BTreeSet<String> = legal(&mut pos)
        .iter()
        .filter(|m| m.kind == MoveKind::Drop)
        .map(|&m| coord(&rs, m))
        .collect();
    assert_eq!(pawn.len(), 48);
    assert!(!pawn.iter().any(|m| m.ends_with('1') || m.ends_with('8')));
}

#[test]
fn drops_a_promoted_piece_returns_to_hand_as_a_pawn() {
    let rs = rules("crazyhouse");
    // The Pawn on b7 promotes to a Queen on b8, marked `~`; Black's King on c7 takes it and
    // gets a Pawn, not a Queen. Unmaking restores the mark, the hands and the hash.
    let mut pos = Position::from_fen(&rs, "8/1Pk5/8/8/8/8/8/4K3[] w - - 0 1").unwrap();
    let start_hash = pos.hash();
    play_coords(&mut pos, &["b7b8q"]);
    assert_eq!(pos.fen(), "1Q~6/2k5/8/8/8/8/8/4K3[] b - - 0 1");
    let after_promotion = pos.hash();
    play_coords(&mut pos, &["c7b8"]);
    assert_eq!(pos.fen(), "1k6/8/8/8/8/8/8/4K3[p] w - - 0 2");
    assert_eq!(pos.hash(), pos.hash_from_scratch());
    pos.unmake();
    assert_eq!(pos.fen(), "1Q~6/2k5/8/8/8/8/8/4K3[] b - - 0 1");
    assert_eq!(pos.hash(), after_promotion);
    pos.unmake();
    assert_eq!(pos.hash(), start_hash);
    // The mark is part of the hash: the same board without it is another position.
    let marked = Position::from_fen(&rs, "1Q~6/2k5/8/8/8/8/8/4K3[] b - - 0 1").unwrap();
    let plain = Position::from_fen(&rs, "1Q6/2k5/8/8/8/8/8/4K3[] b - - 0 1").unwrap();
    assert_ne!(marked.hash(), plain.hash());
}

#[test]
fn drops_hands_are_read_written_and_hashed_and_refused_without_the_rule() {
    let rs = rules("crazyhouse");
    let a = Position::from_fen(&rs, "4k3/8/8/8/8/8/8/4K3[QPpp] w - - 0 1").unwrap();
    assert_eq!(a.fen(), "4k3/8/8/8/8/8/8/4K3[QPpp] w - - 0 1");
    // `[-]`, `[]` and no brackets are the same empty hands.
    let e1 = Position::from_fen(&rs, "4k3/8/8/8/8/8/8/4K3[-] w - - 0 1").unwrap();
    let e2 = Position::from_fen(&rs, "4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    assert_eq!(e1.fen(), "4k3/8/8/8/8/8/8/4K3[] w - - 0 1");
    assert_eq!(e1.hash(), e2.hash());
    assert_ne!(a.hash(), e1.hash());
    // A hand with one Pawn more is another position.
    let b = Position::from_fen(&rs, "4k3/8/8/8/8/8/8/4K3[QPPpp] w - - 0 1").unwrap();
    assert_ne!(a.hash(), b.hash());
    assert!(Position::from_fen(&rs, "4k3/8/8/8/8/8/8/4K3[X] w - - 0 1").is_err());
    assert!(Position::from_fen(&rs, "4k3/8/8/8/8/8/8/4K3[Q w - - 0 1").is_err());
    // Chess has no hands: empty brackets are accepted, pieces in hand and marks are not.
    let chess = rules("chess");
    assert!(Position::from_fen(&chess, "4k3/8/8/8/8/8/8/4K3[] w - - 0 1").is_ok());
    let e = Position::from_fen(&chess, "4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1").unwrap_err();
    assert!(e.to_string().contains("no hands"), "{e}");
    assert!(Position::from_fen(&chess, "4k3/8/8/8/8/8/8/Q~3K3 w - - 0 1").is_err());
}

#[test]
fn drops_are_written_and_read_as_piece_at_square() {
    let rs = rules("crazyhouse");
    let mut pos = Position::from_fen(&rs, "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1").unwrap();
    let mv = polymachy::text::san::parse_move(&mut pos, "N@f6").unwrap();
    assert_eq!(mv.kind, MoveKind::Drop);
    assert_eq!(coord(&rs, mv), "N@f6");
    assert_eq!(polymachy::text::san::san(&mut pos, mv), "N@f6+");
    // Lower case is read too; a piece not in hand is refused with the reason.
    assert_eq!(
        polymachy::text::san::parse_move(&mut pos, "n@f6").unwrap(),
        mv
    );
    let e = polymachy::text::san::parse_move(&mut pos, "Q@f6").unwrap_err();
    assert!(e.to_string().contains("no Queen in hand"), "{e}");
    let e = polymachy::text::san::parse_move(&mut pos, "N@e1").unwrap_err();
    assert!(e.to_string().contains("occupied"), "{e}");
}

// ------------------------------------------------------------------------------------ Shogi

/// The drops of `pos` (coordinates) of the kind with `letter`.
fn drops_of(pos: &mut Position, letter: char) -> BTreeSet<String> {
    let rs = pos.rules().clone();
    legal(pos)
        .into_iter()
        .filter(|m| {
            m.dropped()
                .is_some_and(|k| rs.variant.pieces[k].letter == Some(letter))
        })
        .map(|m| coord(&rs, m))
        .collect()
}

#[test]
fn shogi_promoted_pieces_are_written_plus_and_go_to_the_hand_demoted() {
    let rs = rules("shogi");
    // White's Rook takes Black's Dragon Horse (`+b`) on h8 and promotes: Black's Horse goes
    // to White's hand as a Bishop; the Rook becomes a Dragon King, written `+R`.
    let mut pos = Position::from_fen(&rs, "4k4/7+b1/9/9/9/9/9/7R1/4K4[-] w 0 1").unwrap();
    assert_eq!(pos.fen(), "4k4/7+b1/9/9/9/9/9/7R1/4K4[] w - - 0 1");
    let from_h2 = moves_from(&mut pos, "h2");
    assert!(
        from_h2.contains("h2h8+") && from_h2.contains("h2h8"),
        "{from_h2:?}"
    );
    // Outside the zone no promotion is offered.
    assert!(!from_h2.contains("h2h6+") && from_h2.contains("h2h6"));
    play_coords(&mut pos, &["h2h8+"]);
    assert_eq!(pos.fen(), "4k4/7+R1/9/9/9/9/9/9/4K4[B] b - - 0 1");
    // The written `+` reads back through the move parser too.
    let mut again = Position::from_fen(&rs, "4k4/7+b1/9/9/9/9/9/7R1/4K4[-] w 0 1").unwrap();
    let mv = polymachy::game::parse_move(&mut again, "h2h8+").unwrap();
    assert_eq!(
        mv.promotion().map(|k| rs.variant.pieces[k].symbol.as_str()),
        Some("D")
    );
    let plain = polymachy::game::parse_move(&mut again, "h2h8").unwrap();
    assert_eq!(plain.promo, 0);
    // XBoard's `=`: the move that declines to promote.
    assert_eq!(polymachy::game::parse_move(&mut again, "h2h8="), Ok(plain));
    // `+X` naming a piece with no promoted form is refused.
    let e = Position::from_fen(&rs, "4k4/9/9/9/9/9/9/9/+K3K4[-] w 0 1").unwrap_err();
    assert!(e.to_string().contains("`+K`"), "{e}");
}

#[test]
fn shogi_promotes_leaving_the_zone_and_where_a_piece_would_be_stuck() {
    let rs = rules("shogi");
    // A Silver on d7 (in the zone) retreating to c6 (outside it) may promote; a Pawn on b8
    // must promote on b9; a Knight on h7 must promote on g9 or i9 (rank 9 and 8 leave it no
    // move), a Lance on a5 may go to a7 or a8 either way but must promote on a9.
    let mut pos = Position::from_fen(&rs, "4k4/1P7/3S3N1/9/L8/9/9/9/4K4[-] w 0 1").unwrap();
    let silver = moves_from(&mut pos, "d7");
    assert!(
        silver.contains("d7c6") && silver.contains("d7c6+"),
        "{silver:?}"
    );
    assert_eq!(
        moves_from(&mut pos, "b8"),
        BTreeSet::from(["b8b9+".to_string()])
    );
    let knight = moves_from(&mut pos, "h7");
    assert_eq!(
        knight,
        ["g9+", "i9+"].iter().map(|t| format!("h7{t}")).collect(),
        "{knight:?}"
    );
    let lance = moves_from(&mut pos, "a5");
    for m in ["a5a6", "a5a7", "a5a7+", "a5a8", "a5a8+", "a5a9+"] {
        assert!(lance.contains(m), "{m}: {lance:?}");
    }
    assert!(
        !lance.contains("a5a9") && !lance.contains("a5a6+"),
        "{lance:?}"
    );
}

#[test]
fn shogi_drops_no_second_pawn_on_a_file_and_never_where_a_piece_is_stuck() {
    let rs = rules("shogi");
    // White has Pawns on c4 and g4 and a Tokin on e2: no Pawn drop on the c and g files, but
    // the Tokin does not bar the e file. No Pawn or Lance drop on rank 9, no Knight drop on
    // ranks 8 and 9.
    let mut pos = Position::from_fen(&rs, "4k4/9/9/9/9/2P3P2/9/4+P4/4K4[PLN] w 0 1").unwrap();
    let pawns = drops_of(&mut pos, 'P');
    assert!(
        pawns
            .iter()
            .all(|d| !d.starts_with("P@c") && !d.starts_with("P@g"))
    );
    assert!(pawns.contains("P@e5") && pawns.contains("P@a8"));
    assert!(!pawns.iter().any(|d| d.ends_with('9')), "{pawns:?}");
    let lances = drops_of(&mut pos, 'L');
    assert!(lances.contains("L@c8") && !lances.contains("L@c9"));
    let knights = drops_of(&mut pos, 'N');
    assert!(knights.contains("N@c7") && !knights.contains("N@c8") && !knights.contains("N@c9"));
    // Black's Pawn drops count from its own side: never on rank 1.
    let mut black = Position::from_fen(&rs, "4k4/9/9/9/9/9/9/9/4K4[p] b 0 1").unwrap();
    let bp = drops_of(&mut black, 'P');
    assert!(bp.contains("P@a2") && !bp.contains("P@a1"), "{bp:?}");
}

#[test]
fn shogi_a_pawn_drop_that_mates_loses_for_the_side_that_dropped() {
    let rs = rules("shogi");
    // P@i8 mates Black's King on i9 (the Gold on i7 guards the Pawn, the Lance on h9 is
    // Black's own): a legal move, as Fairy-Stockfish counts it, but the mate loses for White.
    let fen = "7lk/9/8G/9/9/9/9/9/K8[P] w 0 1";
    let mut pos = Position::from_fen(&rs, fen).unwrap();
    play_coords(&mut pos, &["P@i8"]);
    assert!(pos.in_check() && legal(&mut pos).is_empty());
    assert!(pos.mated_by_losing_drop());
    let o = polymachy::game::outcome(&mut pos).unwrap();
    assert_eq!(o.result, polymachy::game::GameResult::BlackWins);
    // The words name the forbidden drop, not a checkmate won by the side mated.
    assert_eq!(o.to_string(), "Mate by a forbidden drop: Black wins.");
    // A Gold dropped there mates and wins.
    let mut gold = Position::from_fen(&rs, "7lk/9/8G/9/9/9/9/9/K8[G] w 0 1").unwrap();
    play_coords(&mut gold, &["G@i8"]);
    let o = polymachy::game::outcome(&mut gold).unwrap();
    assert_eq!(o.result, polymachy::game::GameResult::WhiteWins);
    assert_eq!(o.to_string(), "Checkmate: White wins.");
    // The search does not drop the Pawn there.
    let mut pos = Position::from_fen(&rs, fen).unwrap();
    let best = polymachy::search::best_move(&mut pos, &polymachy::search::Limits::depth(3));
    assert_ne!(best.map(|m| coord(&rs, m)).as_deref(), Some("P@i8"));
}

#[test]
fn a_mate_drop_made_illegal_is_not_a_legal_move() {
    // Shogi with `mate-drop = "illegal"`: the Pawn drop that mates is no legal move, and the
    // drops rule is named as the rule that forbids it; a Pawn drop that only checks stays.
    let (_, text) = polymachy::variant::BUILTIN
        .iter()
        .find(|(n, _)| *n == "shogi")
        .unwrap();
    let text = text.replace("mate-drop = \"loses\"", "mate-drop = \"illegal\"");
    let v = Variant::from_toml(&text, "shogi-illegal.toml").unwrap();
    let rs = Ruleset::new(&v, None).unwrap();
    let mut pos = Position::from_fen(&rs, "7lk/9/8G/9/9/9/9/9/K8[P] w 0 1").unwrap();
    let pawns = drops_of(&mut pos, 'P');
    assert!(
        !pawns.contains("P@i8") && pawns.contains("P@h8"),
        "{pawns:?}"
    );
    let mut pseudo = MoveList::new();
    pos.pseudo_legal_moves(&mut pseudo);
    let mate = pseudo
        .iter()
        .copied()
        .find(|&m| coord(&rs, m) == "P@i8")
        .unwrap();
    assert!(!pos.is_legal_pseudo(mate) && !pos.make_if_legal(mate));
    assert_eq!(pos.forbidding_rule(mate), Some("drops"));
    // Without the Gold the King takes the Pawn: the check is no mate, the drop is legal.
    let mut free = Position::from_fen(&rs, "7lk/9/9/9/9/9/9/9/K8[P] w 0 1").unwrap();
    assert!(drops_of(&mut free, 'P').contains("P@i8"));
}

#[test]
fn shogi_perpetual_check_loses_for_the_side_that_checks() {
    let rs = rules("shogi");
    // White's Rook checks from i1 and h1 in turn while Black's King steps between i9 and h9:
    // at the fourth occurrence of the start position White, who checked throughout, loses
    // (as pyffish rules it). One cycle short, the game goes on.
    let mut pos = Position::from_fen(&rs, "8k/9/9/9/9/9/9/9/4K2R1[-] w 0 1").unwrap();
    for cycle in 0..3 {
        assert!(
            polymachy::game::outcome(&mut pos).is_none(),
            "cycle {cycle}"
        );
        for m in ["h1i1", "i9h9", "i1h1", "h9i9"] {
            play_coords(&mut pos, &[m]);
        }
    }
    let o = polymachy::game::outcome(&mut pos).unwrap();
    assert_eq!(o.result, polymachy::game::GameResult::BlackWins);
    assert_eq!(o.to_string(), "Perpetual check: Black wins.");
    // Without checks (the Rook shuttles on the first rank) the fourfold repetition draws.
    let mut quiet = Position::from_fen(&rs, "8k/9/9/9/9/9/9/9/4K2R1[-] w 0 1").unwrap();
    for _ in 0..3 {
        for m in ["h1g1", "i9h9", "g1h1", "h9i9"] {
            play_coords(&mut quiet, &[m]);
        }
    }
    let o = polymachy::game::outcome(&mut quiet).unwrap();
    assert_eq!(o.result, polymachy::game::GameResult::Draw);
    assert_eq!(o.to_string(), "Draw by repetition.");
}

#[test]
fn minishogi_repetition_loses_for_white_unless_a_side_checked_throughout() {
    use polymachy::game::{GameResult, Termination, outcome};
    let rs = rules("minishogi");
    // The Golds step out and back: at the fourth occurrence of the start position White
    // loses, whoever is to move (as pyffish rules it). One cycle short, the game goes on.
    for (first, cycle) in [
        (&[][..], ["b1b2", "d5d4", "b2b1", "d4d5"]),
        (&["b1b2"][..], ["d5d4", "b2b1", "d4d5", "b1b2"]),
    ] {
        let mut pos = Position::start(&rs);
        for m in first {
            play_coords(&mut pos, &[m]);
        }
        for n in 0..3 {
            assert!(outcome(&mut pos).is_none(), "cycle {n}");
            for m in cycle {
                play_coords(&mut pos, &[m]);
            }
        }
        let o = outcome(&mut pos).unwrap();
        assert_eq!(
            (o.result, o.reason),
            (GameResult::BlackWins, Termination::RepetitionLoss)
        );
        assert_eq!(o.to_string(), "Repetition: Black wins.");
    }
    // Black's Rook checks from a5 and b5 in turn: Black, who checked throughout, loses.
    let mut pos = Position::from_fen(&rs, "1r2k/5/5/5/K4[-] b 0 1").unwrap();
    for _ in 0..3 {
        for m in ["b5a5", "a1b1", "a5b5", "b1a1"] {
            play_coords(&mut pos, &[m]);
        }
    }
    let o = outcome(&mut pos).unwrap();
    assert_eq!(o.result, GameResult::WhiteWins);
    assert_eq!(o.to_string(), "Perpetual check: White wins.");
}

#[test]
fn xiangqi_perpetual_check_loses_for_the_side_that_checks() {
    let rs = rules("xiangqi");
    // Red's Rook checks from f2 and e2 in turn while Black's General steps between f10 and
    // e10: at the third occurrence of the start position Red, who checked throughout, loses
    // (as pyffish rules it: the game ends there, lost for Red to move).
    // One cycle short, the game goes on.
    let start = "5k3/9/9/9/9/9/9/9/4R4/3K5 w - - 0 1";
    let mut pos = Position::from_fen(&rs, start).unwrap();
    for cycle in 0..2 {
        assert!(
            polymachy::game::outcome(&mut pos).is_none(),
            "cycle {cycle}"
        );
        for m in ["e2f2", "f10e10", "f2e2", "e10f10"] {
            play_coords(&mut pos, &[m]);
        }
    }
    let o = polymachy::game::outcome(&mut pos).unwrap();
    assert_eq!(o.result, polymachy::game::GameResult::BlackWins);
    assert_eq!(o.to_string(), "Perpetual check: Black wins.");
    // Without checks (the Rook shuttles on its rank, away from the General's files) the
    // threefold repetition draws.
    let mut quiet = Position::from_fen(&rs, "5k3/9/9/9/9/9/9/9/R8/3K5 w - - 0 1").unwrap();
    for _ in 0..2 {
        for m in ["a2b2", "f10e10", "b2a2", "e10f10"] {
            play_coords(&mut quiet, &[m]);
        }
    }
    let o = polymachy::game::outcome(&mut quiet).unwrap();
    assert_eq!(o.result, polymachy::game::GameResult::Draw);
    assert_eq!(o.to_string(), "Draw by repetition.");
}

#[test]
fn the_search_judges_a_perpetual_check_as_the_game_does() {
    use polymachy::search::{Limits, Score, Searcher};
    let rs = rules("xiangqi");
    // The cycle above, one Black move short of the start position's third occurrence: Black's
    // General on e10 is checked by the Rook on e2, and its only legal move, to f10 (d10
    // faces Red's General, e9 stays in check), completes the repetition in which Red checked
    // throughout. The search must score it as the game does, a win for Black by perpetual
    // check, not a draw: the cycle's plies before the root come from the game, the last one
    // from the search's own stack.
    let mut pos = Position::from_fen(&rs, "5k3/9/9/9/9/9/9/9/4R4/3K5 w - - 0 1").unwrap();
    for m in ["e2f2", "f10e10", "f2e2", "e10f10", "e2f2", "f10e10", "f2e2"] {
        play_coords(&mut pos, &[m]);
    }
    let only: Vec<String> = legal(&mut pos).into_iter().map(|m| coord(&rs, m)).collect();
    assert_eq!(only, ["e10f10"], "Black's only move");
    let mut s = Searcher::new(&rs, 1);
    let r = s.search(&mut pos, &Limits::depth(3), |_| {});
    assert_eq!(
        r.score,
        Score::Mate(1),
        "the perpetual check wins for Black at once"
    );
    // With the draw rule's default (a repetition draws whoever checked), the same line draws.
    let text = std::fs::read_to_string("variants/xiangqi.toml").unwrap();
    let drawn = text.replace("perpetual-check = \"loses\"", "perpetual-check = \"draw\"");
    assert_ne!(drawn, text);
    let v = Variant::from_toml(&drawn, "xiangqi-draws.toml").unwrap();
    let rs = Ruleset::new(&v, None).unwrap();
    let mut pos = Position::from_fen(&rs, "5k3/9/9/9/9/9/9/9/4R4/3K5 w - - 0 1").unwrap();
    for m in ["e2f2", "f10e10", "f2e2", "e10f10", "e2f2", "f10e10", "f2e2"] {
        play_coords(&mut pos, &[m]);
    }
    let r = Searcher::new(&rs, 1).search(&mut pos, &Limits::depth(3), |_| {});
    assert_eq!(r.score, Score::Cp(0), "a repetition draws");
}

// ---------------------------------------------------------------------------------------------
// A move's effects
// ---------------------------------------------------------------------------------------------

/// The index of the piece kind written `letter`.
fn kind(rs: &Ruleset, letter: char) -> u8 {
    rs.variant
        .pieces
        .iter()
        .position(|p| p.letter == Some(letter))
        .unwrap_or_else(|| panic!("no piece {letter}")) as u8
}

/// Plays the legal move `text`, checks that the hash made and the hash computed agree and that
/// unmake restores the position, and returns the move's effects and the squares it changed.
fn effects_of(pos: &mut Position, text: &str) -> (Vec<Effect>, Vec<(Square, Code, Code)>) {
    let mv = find(pos, text);
    let fx = pos.effects(mv).as_slice().to_vec();
    let (before, hash) = (pos.fen(), pos.hash());
    pos.make(mv);
    assert_eq!(pos.hash(), pos.hash_from_scratch(), "{text}: hash");
    let mut out = [Change::default(); MAX_CHANGES];
    let n = pos.move_changes(pos.ply_count() - 1, &mut out);
    let changes = out[..n]
        .iter()
        .map(|c| (c.square, c.before, c.after))
        .collect();
    pos.unmake();
    assert_eq!((pos.fen(), pos.hash()), (before, hash), "{text}: unmake");
    (fx, changes)
}

#[test]
fn castling_moves_the_king_and_relocates_the_rook() {
    let rs = rules("chess");
    let mut pos = position(&rs, &[("e1", 'K'), ("h1", 'R'), ("e8", 'k')], "w K - 0 1");
    let (fx, changes) = effects_of(&mut pos, "e1g1");
    let s = |n| sq(&rs, n);
    let (king, rook) = (pos.piece_at(s("e1")), pos.piece_at(s("h1")));
    assert_eq!(
        fx,
        [
            Effect::Move {
                from: s("e1"),
                to: s("g1")
            },
            Effect::Relocate {
                from: s("h1"),
                to: s("f1")
            }
        ]
    );
    // Everything lifted first, then everything put down.
    assert_eq!(
        changes,
        [
            (s("e1"), king, EMPTY),
            (s("h1"), rook, EMPTY),
            (s("g1"), EMPTY, king),
            (s("f1"), EMPTY, rook)
        ]
    );
}

#[test]
fn en_passant_and_promotion_effects_name_the_victim_and_the_new_kind() {
    let rs = rules("chess");
    let s = |n| sq(&rs, n);
    let mut pos = position(
        &rs,
        &[
            ("e1", 'K'),
            ("e5", 'P'),
            ("d5", 'p'),
            ("g7", 'P'),
            ("h8", 'n'),
            ("a8", 'k'),
        ],
        "w - d6 0 1",
    );
    let (fx, changes) = effects_of(&mut pos, "e5d6");
    let (pawn, black_pawn) = (pos.piece_at(s("e5")), pos.piece_at(s("d5")));
    assert_eq!(
        fx,
        [
            Effect::Capture { sq: s("d5") },
            Effect::Move {
                from: s("e5"),
                to: s("d6")
            }
        ]
    );
    assert_eq!(
        changes,
        [
            (s("d5"), black_pawn, EMPTY),
            (s("e5"), pawn, EMPTY),
            (s("d6"), EMPTY, pawn)
        ]
    );
    let (fx, changes) = effects_of(&mut pos, "g7h8q");
    let queen = kind(&rs, 'Q');
    assert_eq!(
        fx,
        [
            Effect::Capture { sq: s("h8") },
            Effect::Move {
                from: s("g7"),
                to: s("h8")
            },
            Effect::Promote {
                sq: s("h8"),
                kind: queen
            }
        ]
    );
    let placed = changes.last().map(|c| c.2);
    assert_eq!(
        placed,
        Some(Code::from_byte(2 + 2 * queen)),
        "the white Queen lands on h8"
    );
}

#[test]
fn a_capture_goes_to_the_hand_and_a_drop_comes_from_it() {
    let rs = rules("crazyhouse");
    let mut pos = Position::start(&rs);
    for m in ["e2e4", "d7d5"] {
        let mv = find(&mut pos, m);
        pos.make(mv);
    }
    let s = |n| sq(&rs, n);
    let pawn = kind(&rs, 'P');
    let (fx, _) = effects_of(&mut pos, "e4d5");
    assert_eq!(
        fx,
        [
            Effect::CaptureToHand {
                sq: s("d5"),
                kind: pawn
            },
            Effect::Move {
                from: s("e4"),
                to: s("d5")
            }
        ]
    );
    for m in ["e4d5", "g8f6"] {
        let mv = find(&mut pos, m);
        pos.make(mv);
    }
    let (fx, changes) = effects_of(&mut pos, "P@e6");
    assert_eq!(
        fx,
        [Effect::Drop {
            kind: pawn,
            to: s("e6")
        }]
    );
    assert_eq!(changes, [(s("e6"), EMPTY, Code::from_byte(2 + 2 * pawn))]);
}

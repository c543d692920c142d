//! Locust moves (a capture on a non-final leg, then on): the Chu Shogi Lion's double moves
//! and capture without moving, a checkers jump, a falcon's forward double moves, on
//! hand-built positions of `tests/data/locust.toml` with the moves counted by hand.

use std::sync::Arc;

use polymachy::game::parse_move;
use polymachy::position::{Position, Ruleset};
use polymachy::text::san::san;

use crate::common::{find, legal_names, moves_from, pos, rules, set, taken_text};

fn game() -> Arc<Ruleset> {
    rules(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/locust.toml"
    ))
}

/// White Lion e4, Black pawns e5 and f6, the Kings far away (a 10x10 board).
const LION: &str = "k9/10/10/10/5p4/4p5/4L5/10/10/9K w - - 0 1";

#[test]
fn the_lion_takes_on_the_way_and_goes_on() {
    let rs = game();
    let mut p = pos(&rs, LION);
    let got = moves_from(&mut p, "e4");
    // Its 24 plain moves: every square within two king steps (two of them captures).
    let plain: Vec<&String> = got.iter().filter(|m| m.len() == 4).collect();
    assert_eq!(plain.len(), 24, "{got:?}");
    // Then the moves that take e5 on the way: a king step on from e5 to every square around
    // it but e4 (f6 a second capture), and back to e4 (the capture without moving). f6 is
    // two steps away: nothing takes it on the way.
    let locust: std::collections::BTreeSet<String> =
        got.iter().filter(|m| m.len() == 6).cloned().collect();
    assert_eq!(
        locust,
        set(&[
            "e4e5d4", "e4e5d5", "e4e5d6", "e4e5e6", "e4e5f4", "e4e5f5", "e4e5f6", "e4e5e4"
        ])
    );
    assert_eq!(got.len(), 32);
}

#[test]
fn a_double_capture_takes_both_and_unmakes() {
    let rs = game();
    let mut p = pos(&rs, LION);
    let before = p.fen();
    let m = find(&mut p, "e4e5f6");
    p.make(m);
    assert_eq!(p.fen(), "k9/10/10/10/5L4/10/10/10/10/9K b - - 0 1");
    assert_eq!(p.hash(), p.hash_from_scratch());
    p.unmake();
    assert_eq!(p.fen(), before);
    // The capture without moving leaves the Lion where it stood.
    let m = find(&mut p, "e4e5e4");
    p.make(m);
    assert_eq!(p.fen(), "k9/10/10/10/5p4/10/4L5/10/10/9K b - - 0 1");
    assert_eq!(p.hash(), p.hash_from_scratch());
    p.unmake();
    assert_eq!(p.fen(), before);
}

#[test]
fn locust_moves_are_written_and_read_by_their_squares() {
    let rs = game();
    let mut p = pos(&rs, LION);
    for (coord, written) in [
        ("e4e5f6", "Lxe5xf6"),
        ("e4e5e4", "Lxe5-e4"),
        ("e4e5d5", "Lxe5-d5"),
        ("e4f6", "Lxf6"),
    ] {
        let m = find(&mut p, coord);
        assert_eq!(san(&mut p, m), written, "{coord}");
        assert_eq!(parse_move(&mut p, written).unwrap(), m, "{written}");
        assert_eq!(parse_move(&mut p, coord).unwrap(), m, "{coord}");
    }
}

/// A Checker (`fmFfcafmF`) on d4 and the Black King on e5: the jump to f6 takes the King on
/// the way, so Black is in check, unless f6 is taken (the jump needs it empty).
#[test]
fn a_piece_taken_on_the_way_is_attacked() {
    let rs = game();
    let checked = pos(&rs, "10/10/10/10/10/4k5/3C6/10/10/K9 b - - 0 1");
    assert!(checked.in_check());
    let blocked = pos(&rs, "10/10/10/10/5p4/4k5/3C6/10/10/K9 b - - 0 1");
    assert!(!blocked.in_check());
    // Nor may Black's King step where the jump would take it.
    let mut q = pos(&rs, "10/10/10/10/10/5k4/3C6/10/10/K9 b - - 0 1");
    assert!(!legal_names(&mut q).contains("f5e5"));
    assert!(legal_names(&mut q).contains("f5e4"));
}

/// A piece that ends its double move on an enemy piece attacks that square only where
/// another enemy piece stands on the way: the Falcon's forward capture two squares ahead is
/// its plain `fD` jump, the Checker's none (its jump lands only on empty squares).
#[test]
fn the_falcon_doubles_forward_and_the_checker_jumps() {
    let rs = game();
    let mut p = pos(&rs, "k9/10/10/10/10/4p5/4p5/4F5/10/9K w - - 0 1");
    let got = moves_from(&mut p, "e3");
    for m in ["e3e4e5", "e3e4e3", "e3e5"] {
        assert!(got.contains(m), "{m} missing from {got:?}");
    }
    // Forward it takes on e4 and goes on to e5 (a second capture) or back; it does not slide.
    assert!(!got.contains("e3e6") && !got.contains("e3e4e6"));
    let mut c = pos(&rs, "k9/10/10/10/10/10/4p5/3C6/10/9K w - - 0 1");
    assert_eq!(moves_from(&mut c, "d3"), set(&["d3c4", "d3e4f5"]));
}

#[test]
fn locust_notation_mistakes_are_refused() {
    let base = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/locust.toml"
    ))
    .unwrap();
    for (betza, says) in [
        ("cacaK", "at most one capture on a non-final leg"),
        ("caR", "the last leg must be one step or leap"),
        ("cafabK", "may not end on the square it captured on"),
        ("mcaK", "does not mix with m, p or g"),
    ] {
        let text = base.replace("KNADcaKcabK", betza);
        let msg = match polymachy::variant::Variant::from_toml(&text, "locust.toml")
            .map_err(|e| e.to_string())
            .and_then(|v| {
                Ruleset::new(&v, None)
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            }) {
            Ok(()) => panic!("{betza} accepted"),
            Err(e) => e,
        };
        assert!(msg.contains(says), "{betza}: {msg}");
    }
}

/// The game's own invariants hold along random games (make and unmake, the hash, legality,
/// the colour mirror).
#[test]
fn locust_games_pass_the_invariants() {
    let rs = game();
    let p = Position::start(&rs);
    assert_eq!(
        p.fen(),
        "k2lf1c3/ppppp5/10/10/10/10/10/10/5PPPPP/3C1FL2K w - - 0 1"
    );
    let report = polymachy::testing::check_variant(&rs, 40, 80, 5);
    if let Some(f) = report.first_failure() {
        panic!("{f:?}");
    }
}

/// Where a move ends and the enemy squares it empties, as the shogiops data writes it
/// (`e7xe6xe7`).
fn outcome(p: &mut Position, m: polymachy::moves::Move) -> String {
    format!("{}{}", p.rules().geometry.name(m.to), taken_text(p, m))
}

/// The Chu Shogi Lion, Horned Falcon and Soaring Eagle (`KNADcaKcabKmabK`,
/// `BsRbRfWfDfcavWfmabW`, `RbBfFfAfcavFfmabF`) have, in 150 random positions, exactly the moves
/// shogiops gives them (`tests/perft/lions-shogiops.txt`: 272 pieces, 6,061 outcomes, 201 of
/// them double captures, the passes among them).
#[test]
fn chu_lions_move_as_shogiops_moves_them() {
    let rs = rules(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/chu-lions.toml"
    ));
    let data = include_str!("../perft/lions-shogiops.txt");
    let (mut pieces, mut moves, mut doubles) = (0, 0, 0);
    for line in data.lines().filter(|l| !l.starts_with('#')) {
        let mut parts = line.split('|');
        let (fen, from, want) = (
            parts.next().unwrap(),
            parts.next().unwrap(),
            parts.next().unwrap(),
        );
        let mut p = pos(
            &rs,
            &format!(
                "{}[Kk]{}",
                &fen[..fen.find(' ').unwrap()],
                &fen[fen.find(' ').unwrap()..]
            ),
        );
        let from_sq = rs.geometry.parse_square(from).unwrap();
        let mut legal = polymachy::moves::MoveList::new();
        p.legal_moves(&mut legal);
        let got: std::collections::BTreeSet<String> = legal
            .iter()
            .filter(|m| m.from == from_sq && m.dropped().is_none())
            .map(|&m| outcome(&mut p, m))
            .collect();
        let want: std::collections::BTreeSet<String> =
            want.split(' ').map(str::to_string).collect();
        // One move an outcome, but for the passes (one through each empty square next to it).
        let passes = legal
            .iter()
            .filter(|m| m.from == from_sq && m.to == from_sq && m.dropped().is_none())
            .filter(|&&m| p.capture_square(m).is_none())
            .count();
        assert_eq!(
            got.len() + passes.saturating_sub(1),
            legal
                .iter()
                .filter(|m| m.from == from_sq && m.dropped().is_none())
                .count(),
            "{fen} {from}: two moves with one outcome"
        );
        let missing: Vec<&String> = want.difference(&got).collect();
        let extra: Vec<&String> = got.difference(&want).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "{fen} {from}: missing {missing:?}, not in shogiops {extra:?}"
        );
        pieces += 1;
        moves += want.len();
        doubles += want.iter().filter(|w| w.matches('x').count() == 2).count();
    }
    assert_eq!((pieces, moves, doubles), (272, 6061, 201));
}

/// A pass through an empty square (`mabK`): the board stays as it was, the other side moves;
/// one move through each empty square next to the piece, written by its squares.
#[test]
fn a_lion_passes_through_an_empty_square() {
    let rs = rules(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/chu-lions.toml"
    ));
    let mut p = pos(&rs, "12/12/12/12/12/12/12/12/5N6/4G7/12/12[Kk] w - - 0 1");
    let passes: Vec<String> = moves_from(&mut p, "f4")
        .into_iter()
        .filter(|m| m.len() == 6 && m.ends_with("f4"))
        .collect();
    // Seven empty squares around f4 (e3 holds a Gold).
    assert_eq!(passes.len(), 7, "{passes:?}");
    let m = find(&mut p, "f4f5f4");
    assert_eq!(san(&mut p, m), "N-f5-f4");
    assert_eq!(parse_move(&mut p, "N-f5-f4").unwrap(), m);
    let before = p.fen();
    p.make(m);
    // The move-count clock runs on.
    assert_eq!(p.fen(), before.replace(" w - - 0 1", " b - - 1 1"));
    p.unmake();
    assert_eq!(p.fen(), before);
}

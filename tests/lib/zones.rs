//! Zones of squares declared in a variant file (`[zones]`): pieces confined to one, moves that
//! change where a piece stands, the mistakes a designer can make in them, and the rule that
//! keeps Xiangqi's Kings from facing each other.

use std::sync::Arc;

use polymachy::moves::MoveList;
use polymachy::position::{Position, Ruleset};
use polymachy::variant::Variant;

use crate::common::{self, compile, pos, rules};

/// The destinations of the legal moves from `from`, sorted.
fn targets(rs: &Arc<Ruleset>, fen: &str, from: &str) -> Vec<String> {
    let mut p = Position::from_fen(rs, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut l = MoveList::new();
    p.legal_moves(&mut l);
    let g = rs.geometry;
    let from = g.parse_square(from).unwrap();
    let mut out: Vec<String> = l
        .iter()
        .filter(|m| m.from == from)
        .map(|m| g.name(m.to).to_string())
        .collect();
    out.sort();
    out.dedup();
    out
}

// The Advisor on e2 (the palace's centre) reaches the four palace corners; on d1 only e2. The
// King on e1 steps to d1, f1 and e2 but never out of the palace.
#[test]
fn pieces_stay_in_their_zone() {
    let rs = rules("xiangqi");
    let fen = "3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1";
    assert_eq!(targets(&rs, fen, "e2"), ["d1", "d3", "f1", "f3"]);
    let fen = "3k5/9/9/9/9/9/9/9/9/3AK4 w - - 0 1";
    assert_eq!(targets(&rs, fen, "d1"), ["e2"]);
    let fen = "3k5/9/9/9/9/9/9/9/9/3K5 w - - 0 1";
    // d1: e1 and d2 (c1 is outside the palace; the Kings face each other on d, see below).
    assert!(!targets(&rs, fen, "d1").contains(&"c1".to_string()));
    // Black's palace is the mirror image: its King on d10 goes to e10 or d9, never c10.
    let fen = "3k5/9/9/9/9/9/9/9/9/5K3 b - - 0 1";
    assert_eq!(targets(&rs, fen, "d10"), ["d9", "e10"]);
    // The Elephant on e5 (the river bank) may not cross: only back to c3 and g3.
    let fen = "3k5/9/9/9/9/4B4/9/9/9/4K4 w - - 0 1";
    assert_eq!(targets(&rs, fen, "e5"), ["c3", "g3"]);
}

// A Soldier on its own side steps forward only; across the river it also steps sideways.
#[test]
fn a_zone_changes_how_a_piece_moves() {
    let rs = rules("xiangqi");
    let fen = "3k5/9/9/9/9/9/4P4/9/9/5K3 w - - 0 1";
    assert_eq!(targets(&rs, fen, "e4"), ["e5"]);
    let fen = "3k5/9/9/9/4P4/9/9/9/9/5K3 w - - 0 1";
    assert_eq!(targets(&rs, fen, "e6"), ["d6", "e7", "f6"]);
    // Black's river is mirrored: its Soldier on e5 has crossed.
    let fen = "3k5/9/9/9/9/4p4/9/9/9/5K3 b - - 0 1";
    assert_eq!(targets(&rs, fen, "e5"), ["d5", "e4", "f5"]);
}

// The Kings may not face each other on an open file: the Cannon between them on e5 (with no
// screen it attacks nothing) is pinned to the file, the Horse there cannot move at all, and
// the King may not step onto the open file f.
#[test]
fn the_kings_never_face_each_other() {
    let rs = rules("xiangqi");
    let fen = "4k4/9/9/9/9/4N4/9/9/9/4K4 w - - 0 1";
    assert_eq!(targets(&rs, fen, "e5"), Vec::<String>::new());
    let fen = "4k4/9/9/9/9/4C4/9/9/9/4K4 w - - 0 1";
    assert!(
        targets(&rs, fen, "e5").iter().all(|s| s.starts_with('e')),
        "{:?}",
        targets(&rs, fen, "e5")
    );
    let fen = "5k3/9/9/9/9/9/9/9/9/4K4 w - - 0 1";
    assert_eq!(targets(&rs, fen, "e1"), ["d1", "e2"]);
}

fn refusal(zones: &str, piece_extra: &str) -> String {
    let t = format!(
        "name = \"Z\"\nfiles = 5\nranks = 5\nstart = \"4k/5/5/5/K4\"\n\n{zones}\n\
         [[piece]]\nname = \"King\"\nletter = \"K\"\nbetza = \"K\"\nroyal = true\n{piece_extra}\n"
    );
    match Variant::from_toml(&t, "z.toml") {
        Err(e) => e.lines.join("\n"),
        Ok(_) => panic!("should be refused:\n{t}"),
    }
}

#[test]
fn zone_mistakes_are_precise_errors() {
    let e = refusal("", "confined = \"palace\"");
    assert!(
        e.contains("z.toml:12:") && e.contains("no zone is named `palace`"),
        "{e}"
    );
    let e = refusal("[zones]\nhome = { ranks = [1] }\n", "confined = \"palace\"");
    assert!(e.contains("the zones: home"), "{e}");
    let e = refusal("[zones]\nhome = { squares = [\"a1\", \"z9\"] }\n", "");
    assert!(e.contains("`z9` is not a square of this board"), "{e}");
    let e = refusal("[zones]\nhome = { ranks = [0, 6] }\n", "");
    assert!(e.contains("rank numbers from 1 to 5"), "{e}");
    let e = refusal("[zones]\nhome = {}\n", "");
    assert!(e.contains("zone `home` names no squares"), "{e}");
    let e = refusal(
        "[zones]\nhome = { ranks = [1] }\n",
        "betza-in = { home = \"ifmnD\" }",
    );
    assert!(e.contains("first-move (`i`) parts"), "{e}");
    let e = refusal(
        "[zones]\nhome = { ranks = [1] }\n",
        "betza-in = { home = \"Wx\" }",
    );
    assert!(e.contains("bad notation for King in `home`"), "{e}");
}

// Black's copy of a zone is White's turned top to bottom, while Black's directions turn 180°:
// a movement that goes otherwise left than right, in a zone that is not the same left to
// right, would give Black another game. Refused where both are one-sided; either alone loads.
#[test]
fn a_one_sided_movement_in_a_one_sided_zone_is_refused() {
    let e = refusal(
        "[zones]\ncorner = { squares = [\"a1\", \"b1\", \"a2\"] }\n",
        "betza-in = { corner = \"lWfF\" }",
    );
    assert!(
        e.contains("z.toml:14:23:")
            && e.contains("King: `lWfF` in `corner` moves otherwise to the left than to the right"),
        "{e}"
    );
    assert!(
        e.contains("hint:") && e.contains("the same to both sides"),
        "{e}"
    );
    let load = |zone: &str, betza: &str| {
        let t = format!(
            "name = \"Z\"\nfiles = 5\nranks = 5\nstart = \"4k/5/5/5/K4\"\n\n[zones]\nz = {zone}\n\n\
             [[piece]]\nname = \"King\"\nletter = \"K\"\nbetza = \"K\"\nroyal = true\n\
             betza-in = {{ z = \"{betza}\" }}\n"
        );
        Variant::from_toml(&t, "z.toml")
            .map(|_| ())
            .map_err(|e| e.lines.join("\n"))
    };
    // A one-sided movement in a zone the same left to right (the first rank).
    load("{ ranks = [1] }", "lWfF").unwrap();
    // A movement the same to both sides in a one-sided zone.
    load("{ squares = [\"a1\", \"b1\"] }", "sWfF").unwrap();
    load("{ squares = [\"a1\", \"b1\"] }", "lWrWfF").unwrap();
    assert!(load("{ squares = [\"a1\", \"b1\"] }", "rN").is_err());
    // The same for a movement kept inside a zone.
    let e = refusal(
        "[zones]\ncorner = { squares = [\"a1\", \"b1\", \"a2\"] }\n",
        "betza-within = { corner = \"lWfF\" }",
    );
    assert!(
        e.contains("moves otherwise to the left than to the right"),
        "{e}"
    );
    let e = refusal(
        "[zones]\nhome = { ranks = [1] }\n",
        "betza-within = { home = \"ifmnD\" }",
    );
    assert!(e.contains("first-move (`i`) parts"), "{e}");
}

/// A 5x5 game whose Pawns promote where `promotion` says; the Rook-like Ship `S` too.
fn promoting(promotion: &str) -> String {
    format!(
        "name = \"Z\"\nfiles = 5\nranks = 5\nstart = \"4k/5/5/P1S2/K4\"\n\n\
         [zones]\nfar = {{ ranks = [5] }}\ncorners = {{ squares = [\"a5\", \"e5\"] }}\n\n\
         [[piece]]\nname = \"King\"\nletter = \"K\"\nbetza = \"K\"\nroyal = true\n\n\
         [[piece]]\nname = \"Pawn\"\nletter = \"P\"\nbetza = \"fW\"\npromotes-to = \"Q\"\n\n\
         [[piece]]\nname = \"Ship\"\nletter = \"S\"\nbetza = \"fR\"\npromotes-to = \"Q\"\n\n\
         [[piece]]\nname = \"Queen\"\nletter = \"Q\"\nbetza = \"Q\"\n\n\
         [rules.promotion]\n{promotion}\n"
    )
}

/// The legal moves from `from` in `fen`, in coordinates.
fn moves_from(rs: &Arc<Ruleset>, fen: &str, from: &str) -> Vec<String> {
    common::moves_from(&mut pos(rs, fen), from)
        .into_iter()
        .collect()
}

// A named zone is where promotion happens; a piece may have a zone of its own. The Pawn on c4
// promotes on c5 (the far rank); the Ship on a4 slides to a5 (a corner: it promotes) but not on
// c5, and the Pawn would promote only in the corners with `piece-zones`.
#[test]
fn promotion_zones_by_name() {
    let text = promoting("zone = \"far\"\npiece-zones = { S = \"corners\" }");
    let rs = compile(&text, "z.toml");
    assert_eq!(moves_from(&rs, "4k/2P2/5/S4/K4 w - - 0 1", "c4"), ["c4c5q"]);
    assert_eq!(
        moves_from(&rs, "4k/5/5/S4/K4 w - - 0 1", "a2"),
        ["a2a3", "a2a4", "a2a5q"]
    );
    assert_eq!(
        moves_from(&rs, "4k/5/5/2S2/K4 w - - 0 1", "c2"),
        ["c2c3", "c2c4", "c2c5"]
    );
    let rule = rs
        .compiled_rules()
        .iter()
        .find(|h| h.name() == "promotion")
        .unwrap()
        .explain(&rs);
    assert!(
        rule.contains("a square of `far`")
            && rule.contains("Ship promotes only on a square of `corners`"),
        "{rule}"
    );
}

#[test]
fn promotion_zone_mistakes_are_errors() {
    for (rule, words) in [
        ("zone = \"nowhere\"", "no zone is named `nowhere`"),
        ("piece-zones = { S = \"edge\" }", "no zone is named `edge`"),
        (
            "piece-zones = { X = \"far\" }",
            "no piece has the letter `X`",
        ),
        (
            "zone = \"far\"\noptional = true\ncompulsory-zone = 1",
            "goes with a `zone` of ranks",
        ),
    ] {
        let e = match Variant::from_toml(&promoting(rule), "z.toml") {
            Err(e) => e.lines.join("\n"),
            Ok(_) => panic!("should be refused: {rule}"),
        };
        assert!(e.contains(words), "{rule}: {e}");
    }
}

// Xiangqi's `[display]`: points, both palaces crossed by diagonals (d1-f3 and its mirror
// d8-f10), the river between ranks 5 and 6. Chess has none of it.
#[test]
fn xiangqi_says_how_its_board_is_drawn() {
    let d = Variant::load("xiangqi").unwrap().display;
    assert!(d.points);
    assert_eq!(d.diagonals, vec![[3, 0, 5, 2], [3, 7, 5, 9]]);
    assert_eq!(d.river, Some(5));
    let chess = Variant::load("chess").unwrap().display;
    assert!(!chess.points && chess.diagonals.is_empty() && chess.river.is_none());
}

#[test]
fn display_mistakes_are_precise_errors() {
    let zones = "[zones]\nhome = { files = [\"b\", \"c\"], ranks = [1, 2] }\nell = { squares = [\"a1\", \"a2\", \"b1\"] }\n";
    let e = refusal(&format!("{zones}[display]\ndiagonals = [\"palace\"]\n"), "");
    assert!(e.contains("no zone is named `palace`"), "{e}");
    assert!(e.contains("the zones: ell, home"), "{e}");
    let e = refusal(&format!("{zones}[display]\ndiagonals = [\"ell\"]\n"), "");
    assert!(
        e.contains("zone `ell` is not a rectangle of squares"),
        "{e}"
    );
    for river in ["0", "5", "\"x\""] {
        let e = refusal(&format!("{zones}[display]\nriver = {river}\n"), "");
        assert!(e.contains("`display.river`"), "{river}: {e}");
    }
    let e = refusal(&format!("{zones}[display]\npoints = 1\n"), "");
    assert!(e.contains("`display.points` must be true or false"), "{e}");
    let e = refusal(&format!("{zones}[display]\npalace = true\n"), "");
    assert!(e.contains("unknown key `palace` in `display`"), "{e}");
    // A rectangle is accepted: its copy for each side.
    let t = format!(
        "name = \"Z\"\nfiles = 5\nranks = 5\nstart = \"4k/5/5/5/K4\"\n\n{zones}[display]\ndiagonals = \"home\"\nriver = 2\n\n\
         [[piece]]\nname = \"King\"\nletter = \"K\"\nbetza = \"K\"\nroyal = true\n"
    );
    let d = Variant::from_toml(&t, "z.toml").unwrap().display;
    assert_eq!(d.diagonals, vec![[1, 0, 2, 1], [1, 3, 2, 4]]);
    assert_eq!(d.river, Some(2));
}

/// Xiangqi's file with each (text, replacement) of `edits` made once, compiled as `name`.
fn xiangqi_edited(edits: &[(&str, &str)], name: &str) -> Arc<Ruleset> {
    let mut text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/variants/xiangqi.toml"
    ))
    .unwrap();
    for (from, to) in edits {
        assert!(text.contains(from), "`{from}` is not in xiangqi.toml");
        text = text.replacen(from, to, 1);
    }
    compile(&text, name)
}

/// Xiangqi's file with `extra` rules added.
fn xiangqi_with(extra: &str) -> Arc<Ruleset> {
    xiangqi_edited(
        &[("[rules.draw]", &format!("{extra}\n[rules.draw]"))],
        "xiangqi-plus.toml",
    )
}

// The royal swap never takes a confined piece out of its zone: the General on e1 may swap
// with the Advisors (d1, f1: inside the palace, and the Advisor lands on e1, inside too), never
// with the Chariot on a1, which would put the General outside the palace.
#[test]
fn a_royal_swap_keeps_confined_pieces_in_their_zone() {
    let rs = xiangqi_with("[rules.royal-swap]\nwhen = \"always\"\n");
    let start = Position::start(&rs).fen();
    assert_eq!(targets(&rs, &start, "e1"), ["d1", "e2", "f1"], "{start}");
}

// A dropped piece that is confined lands inside its side's copy of the zone: an Advisor in
// White's hand goes to the free squares of White's palace only, a Soldier (not confined)
// anywhere free.
#[test]
fn drops_keep_confined_pieces_in_their_zone() {
    let rs = xiangqi_with("[rules.drops]\nkinds = \"AP\"\n");
    let mut p = Position::from_fen(&rs, "3k5/9/9/9/9/9/9/9/9/4K4[AP] w - - 0 1").unwrap();
    let mut l = MoveList::new();
    p.legal_moves(&mut l);
    let g = rs.geometry;
    let drops = |kind: usize| -> Vec<String> {
        let mut v: Vec<String> = l
            .iter()
            .filter(|m| m.dropped() == Some(kind))
            .map(|m| g.name(m.to).to_string())
            .collect();
        v.sort();
        v
    };
    let advisor = rs.variant.kind_by_letter('A').unwrap();
    let soldier = rs.variant.kind_by_letter('P').unwrap();
    assert_eq!(
        drops(advisor),
        ["d1", "d2", "d3", "e2", "e3", "f1", "f2", "f3"]
    );
    assert!(drops(soldier).len() > 80, "{:?}", drops(soldier));
    let text = rs
        .compiled_rules()
        .iter()
        .find(|r| r.name() == "drops")
        .unwrap()
        .explain(&rs);
    assert!(text.contains("only inside `palace`"), "{text}");
}

/// Xiangqi's file with Janggi's palace diagonals for the Chariot: `betza-within` on the
/// diagonal points (corners and centre) of both palaces, as a zone is each side's copy and
/// Janggi's pieces use the diagonals of either palace; the Chariot slides along them without
/// leaving them.
fn xiangqi_with_palace_lines() -> Arc<Ruleset> {
    xiangqi_edited(
        &[
            (
                "[zones]\n",
                "[zones]\npalace-lines = { squares = [\"d1\", \"f1\", \"e2\", \"d3\", \"f3\", \"d8\", \"f8\", \"e9\", \"d10\", \"f10\"] }\n",
            ),
            (
                "betza = \"R\"\n",
                "betza = \"R\"\nbetza-within = { palace-lines = \"B\" }\n",
            ),
        ],
        "xiangqi-palace-lines.toml",
    )
}

// Counted by hand. A Chariot on d1 (a palace corner) has its rank (8 squares) and file (d2 to
// d10: 9) and the palace diagonal through the centre: e2 and f3, no further (g4 is outside),
// and nothing toward c2 (off the lines). On e2 it also reaches the four corners, one step
// each, stopping before its own piece on f3. Black's copy is the mirror image: its Chariot on
// d10 reaches e9 and f8.
#[test]
fn a_movement_within_a_zone_stays_inside_it() {
    let rs = xiangqi_with_palace_lines();
    let fen = "4k4/9/9/9/9/9/9/9/5K3/3R5 w - - 0 1";
    let t = targets(&rs, fen, "d1");
    assert_eq!(t.len(), 19, "{t:?}");
    assert!(
        t.contains(&"e2".to_string()) && t.contains(&"f3".to_string()),
        "{t:?}"
    );
    assert!(!t.contains(&"c2".to_string()) && !t.contains(&"g4".to_string()));
    let fen = "5k3/9/9/9/9/9/9/5P3/4R4/4K4 w - - 0 1";
    let t = targets(&rs, fen, "e2");
    for sq in ["d1", "f1", "d3"] {
        assert!(t.contains(&sq.to_string()), "{sq}: {t:?}");
    }
    assert!(
        !t.contains(&"f3".to_string()) && !t.contains(&"g4".to_string()),
        "{t:?}"
    );
    let fen = "3r1k3/9/9/9/9/9/9/9/9/4K4 b - - 0 1";
    let t = targets(&rs, fen, "d10");
    assert!(
        t.contains(&"e9".to_string()) && t.contains(&"f8".to_string()),
        "{t:?}"
    );
    assert!(!t.contains(&"c9".to_string()), "{t:?}");
    // The attack follows the move: Black's Chariot on d3, in White's palace, checks a King on
    // f1 along the diagonal.
    let p = Position::from_fen(&rs, "4k4/9/9/9/9/9/9/3r5/9/5K3 w - - 0 1").unwrap();
    assert!(p.in_check());
}

/// Xiangqi's file with a Janggi Cannon: it moves and takes by hopping (`pR`), never over a
/// Cannon, and never takes one.
fn xiangqi_with_janggi_cannons() -> Arc<Ruleset> {
    xiangqi_edited(
        &[(
            "betza = \"mRcpR\"\n",
            "betza = \"pR\"\nno-screen = \"C\"\nno-capture = \"C\"\n",
        )],
        "xiangqi-janggi-cannons.toml",
    )
}

// Counted by hand. The Cannon on a1 hops the Soldier on a4 to a5 and a6 but does not take the
// Cannon on a7, and hops its own King on e1 to f1-i1. Over a Cannon it does not hop at all, and
// a Cannon screen gives no check.
#[test]
fn a_hopper_may_refuse_some_screens_and_prey() {
    let rs = xiangqi_with_janggi_cannons();
    let fen = "3k5/9/9/c8/9/9/P8/9/9/C3K4 w - - 0 1";
    assert_eq!(
        targets(&rs, fen, "a1"),
        ["a5", "a6", "f1", "g1", "h1", "i1"]
    );
    let fen = "3k5/9/9/c8/9/9/C8/9/9/C3K4 w - - 0 1";
    assert_eq!(targets(&rs, fen, "a1"), ["f1", "g1", "h1", "i1"]);
    let with_screen = |screen: char| {
        let fen = format!("4k4/9/9/9/4{screen}4/9/9/4C4/9/3K5 b - - 0 1");
        Position::from_fen(&rs, &fen).unwrap().in_check()
    };
    assert!(with_screen('p'), "a Soldier is a screen");
    assert!(!with_screen('c'), "a Cannon is none");
    // The same Cannon without the limits takes on a7 and hops the Cannon on a4.
    let plain = xiangqi_edited(
        &[("betza = \"mRcpR\"\n", "betza = \"pR\"\n")],
        "xiangqi-hopping-cannons.toml",
    );
    let fen = "3k5/9/9/c8/9/9/C8/9/9/C3K4 w - - 0 1";
    assert_eq!(
        targets(&plain, fen, "a1"),
        ["a5", "a6", "a7", "f1", "g1", "h1", "i1"]
    );
}

#[test]
fn kind_limit_mistakes_are_precise_errors() {
    let e = refusal("", "no-capture = \"K\"");
    assert!(
        e.contains("a royal piece") && e.contains("no-capture"),
        "{e}"
    );
    let e = refusal("", "no-screen = \"K\"");
    assert!(e.contains("has no move that hops"), "{e}");
    let e = refusal("", "no-capture = \"Q\"");
    assert!(e.contains("names 'Q', but no piece has that letter"), "{e}");
}

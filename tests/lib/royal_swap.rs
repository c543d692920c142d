//! The royal swap (`[rules.royal-swap]`, Timur's chess): hand-counted positions on a small
//! board, the right used once and written in the FEN, make / unmake / hash, notation, the
//! explanation, and Tamerlane II with the swap (tests/data/tamerlane2-swap.toml).

use std::sync::Arc;

use polymachy::game::{Termination, outcome};
use polymachy::moves::{MoveKind, MoveList};
use polymachy::perft::Perft;
use polymachy::position::{Position, Ruleset};
use polymachy::text::coord;
use polymachy::text::san::{parse_move, san};
use polymachy::variant::Variant;

use crate::common::{compile, legal_names, pos, rules, set, two_plies_restore};

/// A 5x5 game with a King, a Rook, a Knight, a Prince (a non-royal King) and a Pawn that
/// only steps forward, and the given `[rules.royal-swap]` keys.
fn mini_text(swap: &str) -> String {
    format!(
        r#"
name = "Mini swap"
files = 5
ranks = 5
start = "4k/5/5/5/K4"
[[piece]]
name = "King"
letter = "K"
betza = "K"
royal = true
[[piece]]
name = "Rook"
letter = "R"
betza = "R"
[[piece]]
name = "Knight"
letter = "N"
betza = "N"
[[piece]]
name = "Prince"
letter = "I"
betza = "K"
[[piece]]
name = "Pawn"
letter = "P"
betza = "fmW"
[rules.royal-swap]
{swap}
"#
    )
}

fn mini(swap: &str) -> Arc<Ruleset> {
    compile(&mini_text(swap), "mini.toml")
}

/// White's King a1 checked by the Rook a5, the b-file covered by the Rook b5; White's
/// Knight e1 cannot block. Only the swap with the Knight escapes.
const MATED: &str = "rr2k/5/5/5/K3N w Ss - 0 1";

#[test]
fn only_the_swap_escapes_mate() {
    let rules = mini("with = \"any\"");
    let mut p = pos(&rules, MATED);
    assert!(p.in_check());
    assert_eq!(legal_names(&mut p), set(&["a1e1"]));
    // By hand, after the swap (King e1, Knight a1): the Black King steps to d5, d4 or e4 (3),
    // the Rook a5 goes down to a2 or takes the Knight on a1 (4), the Rook b5 goes down to b1
    // (4) or right to c5, d5 (2); Black is not in check, so it does not swap: 13.
    assert_eq!(Perft::new().count(&mut p, 1), 1);
    assert_eq!(Perft::new().count(&mut p, 2), 13);
    // Without White's right the same position is checkmate.
    let mut p = pos(&rules, "rr2k/5/5/5/K3N w s - 0 1");
    assert!(legal_names(&mut p).is_empty());
    assert_eq!(outcome(&mut p).unwrap().reason, Termination::Checkmate);
    // And when the partner's square is attacked (a Rook on e4), the swap is refused too.
    let mut p = pos(&rules, "rr2k/4r/5/5/K3N w Ss - 0 1");
    assert!(legal_names(&mut p).is_empty());
    assert_eq!(outcome(&mut p).unwrap().reason, Termination::Checkmate);
    // Black swaps the same way with its own right.
    let mut p = pos(&rules, "k3n/5/5/5/RR2K b Ss - 0 1");
    assert_eq!(legal_names(&mut p), set(&["a5e5"]));
    let mut p = pos(&rules, "k3n/5/5/5/RR2K b S - 0 1");
    assert!(legal_names(&mut p).is_empty());
}

#[test]
fn a_partner_that_must_promote_there_is_not_swapped() {
    // White's King a5 is checked by the Rook a1, b4 and b5 covered by the Rook b1; the King's
    // only way out is the swap with the Pawn c3, which would put the Pawn on a5, its last
    // rank. Where the Pawn promotes (and so may not stay a Pawn there) the swap is refused and
    // the position is mate; where it has no promotion, the swap is the one move.
    let fen = "K3k/5/2P2/5/rr3 w Ss - 0 1";
    let text = mini_text("with = \"any\"")
        .replace("betza = \"fmW\"", "betza = \"fmW\"\npromotes-to = \"R\"")
        + "[rules.promotion]\nzone = 1\n";
    let promoting = compile(&text, "mini.toml");
    let mut p = pos(&promoting, fen);
    assert!(p.in_check());
    assert!(legal_names(&mut p).is_empty(), "{:?}", legal_names(&mut p));
    assert_eq!(outcome(&mut p).unwrap().reason, Termination::Checkmate);
    let mut p = pos(&mini("with = \"any\""), fen);
    assert_eq!(legal_names(&mut p), set(&["a5c3"]));
}

#[test]
fn the_partner_kinds_are_those_named() {
    // A Knight on d1 and a Prince on e1: with = "I" swaps only with the Prince.
    let fen = "rr2k/5/5/5/K2NI w Ss - 0 1";
    let mut p = pos(&mini("with = \"I\""), fen);
    assert_eq!(legal_names(&mut p), set(&["a1e1"]));
    let mut p = pos(&mini("with = \"any\""), fen);
    assert_eq!(legal_names(&mut p), set(&["a1d1", "a1e1"]));
    // The default is any piece.
    let mut p = pos(&mini(""), fen);
    assert_eq!(legal_names(&mut p), set(&["a1d1", "a1e1"]));
}

#[test]
fn when_the_swap_may_be_played() {
    // Not in check: King a1, Rook e1, Knight c3, Black King c5. By hand: the King steps to
    // a2, b1, b2 (3); the Rook goes up to e5 (4) and left to b1 (3); the Knight has its 8
    // squares: 18 moves, and 2 swaps (a1e1, a1c3) where the swap is always allowed.
    let fen = "2k2/5/2N2/5/K3R w Ss - 0 1";
    let mut p = pos(&mini("when = \"always\""), fen);
    assert_eq!(Perft::new().count(&mut p, 1), 20);
    assert!(legal_names(&mut p).contains("a1c3"));
    let mut p = pos(&mini("when = \"in-check\""), fen);
    assert_eq!(Perft::new().count(&mut p, 1), 18);
    let mut p = pos(&mini("when = \"in-check-or-stalemate\""), fen);
    assert_eq!(Perft::new().count(&mut p, 1), 18);

    // Stalemate: the King a1 has its Pawn on a2 (blocked by Black's Pawn a3) and the b-file
    // covered by the Rook b5. Only "in-check-or-stalemate" and "always" let it swap out.
    let stalemate = "1r1k1/5/p4/P4/K4 w Ss - 0 1";
    let mut p = pos(&mini("when = \"in-check\""), stalemate);
    assert!(legal_names(&mut p).is_empty());
    assert_eq!(outcome(&mut p).unwrap().reason, Termination::Stalemate);
    let mut p = pos(&mini("when = \"in-check-or-stalemate\""), stalemate);
    assert_eq!(legal_names(&mut p), set(&["a1a2"]));
    let mut p = pos(&mini("when = \"always\""), stalemate);
    assert_eq!(legal_names(&mut p), set(&["a1a2"]));
    // With another move (a Rook on e1: e2..e5 and d1..b1, 7 moves), no swap out of
    // "stalemate" in the middle mode.
    let mut p = pos(
        &mini("when = \"in-check-or-stalemate\""),
        "1r1k1/5/p4/P4/K3R w Ss - 0 1",
    );
    assert_eq!(Perft::new().count(&mut p, 1), 7);
}

#[test]
fn the_right_is_used_once_and_written_in_the_fen() {
    let rules = mini("when = \"always\"");
    for rights in ["Ss", "S", "s", "-"] {
        let fen = format!("2k2/5/2N2/5/K3R w {rights} - 0 1");
        assert_eq!(pos(&rules, &fen).fen(), fen);
    }
    let with = pos(&rules, "2k2/5/2N2/5/K3R w Ss - 0 1");
    let without = pos(&rules, "2k2/5/2N2/5/K3R w s - 0 1");
    assert_ne!(with.hash(), without.hash());
    // The start position holds both rights.
    assert!(Position::start(&rules).fen().contains(" w Ss "));

    let mut p = with.clone();
    let mv = parse_move(&mut p, "a1e1").unwrap();
    assert_eq!(mv.kind, MoveKind::Rule);
    assert_eq!(rules.compiled_rules()[mv.aux as usize].name(), "royal-swap");
    p.make(mv);
    // The swap cannot be repeated: like a capture it restarts the move-count clock.
    assert_eq!(p.fen(), "2k2/5/2N2/5/R3K b s - 0 1");
    assert_eq!(p.hash(), p.hash_from_scratch());
    // Black plays, and White may not swap again.
    let reply = parse_move(&mut p, "c5c4").unwrap();
    p.make(reply);
    let moves = legal_names(&mut p);
    assert!(
        !moves.contains("e1a1") && !moves.contains("e1c3"),
        "{moves:?}"
    );
    // Unmake gives the right back.
    p.unmake();
    p.unmake();
    assert_eq!((p.fen(), p.hash()), (with.fen(), with.hash()));
    assert!(legal_names(&mut p).contains("a1e1"));

    // A different letter, read and written.
    let rules = mini("letter = \"W\"");
    let fen = "rr2k/5/5/5/K3N w Ww - 0 1";
    assert_eq!(pos(&rules, fen).fen(), fen);
    assert!(Position::from_fen(&rules, "rr2k/5/5/5/K3N w Ss - 0 1").is_err());
}

#[test]
fn the_swap_reads_back_in_every_notation() {
    let rules = mini("with = \"any\"");
    let mut p = pos(&rules, MATED);
    let mut l = MoveList::new();
    p.legal_moves(&mut l);
    let mv = l.as_slice()[0];
    assert_eq!(coord(&rules, mv), "a1e1");
    // No other King move ends on a square of its own side, so the squares name the swap.
    assert_eq!(san(&mut p, mv), "Ke1");
    for text in ["a1e1", "Ke1", "Ka1e1"] {
        assert_eq!(parse_move(&mut p, text).unwrap(), mv, "{text}");
    }
}

/// Two plies deep from positions with swaps: make and unmake restore the FEN and the hash,
/// and the incremental hash equals the hash of the FEN.
#[test]
fn make_unmake_and_hash_through_swaps() {
    let rules = mini("when = \"always\"");
    for fen in [
        MATED,
        "2k2/5/2N2/5/K3R w Ss - 0 1",
        "1r1k1/5/p4/P4/K3R w Ss - 0 1",
        "n1r1k/I4/5/1N3/K3R b Ss - 0 1",
    ] {
        let mut p = pos(&rules, fen);
        let mut first = MoveList::new();
        p.legal_moves(&mut first);
        assert!(
            first.iter().any(|m| m.kind == MoveKind::Rule
                && rules.compiled_rules()[m.aux as usize].name() == "royal-swap"),
            "{fen}: no swap"
        );
        two_plies_restore(&mut p);
    }
}

fn explanation(rules: &Ruleset) -> String {
    rules
        .compiled_rules()
        .iter()
        .find(|h| h.name() == "royal-swap")
        .expect("the rule")
        .explain(rules)
}

#[test]
fn the_rule_explains_itself() {
    let t = explanation(&mini("with = \"I\""));
    for part in [
        "Once per game, each side's King may change places with a Prince of its own side, \
         only to get out of check",
        "may not be left attacked",
        "from a1: a1 followed by that square",
        "written S (White) and s (Black)",
    ] {
        assert!(t.contains(part), "missing `{part}` in: {t}");
    }
    let t = explanation(&mini("when = \"in-check-or-stalemate\"\nletter = \"W\""));
    assert!(t.contains("any other piece of its own side"), "{t}");
    assert!(t.contains("no other legal move"), "{t}");
    assert!(t.contains("written W (White) and w (Black)"), "{t}");
    let t = explanation(&mini("when = \"always\""));
    assert!(t.contains("at any time"), "{t}");
}

#[test]
fn bad_tables_are_refused() {
    for (keys, says) in [
        ("letter = \"K\"", "neither K nor Q"),
        ("letter = \"c\"", "file letter"),
        ("letter = \"ST\"", "one"),
        ("when = \"sometimes\"", "in-check-or-stalemate"),
        ("with = \"\"", "names no piece"),
        ("with = \"Z\"", "Z"),
    ] {
        let e = Variant::from_toml(&mini_text(keys), "mini.toml")
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(e.contains(says), "{keys}: {e}");
    }
    let no_king = mini_text("").replace("royal = true\n", "");
    let e = Variant::from_toml(&no_king, "mini.toml")
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(e.contains("needs a royal piece"), "{e}");
}

const TAMERLANE_SWAP: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/tamerlane2-swap.toml"
));

fn tamerlane_swap() -> Arc<Ruleset> {
    compile(TAMERLANE_SWAP, "tamerlane2-swap.toml")
}

#[test]
fn tamerlane_with_the_swap_is_tamerlane_plus_the_rule() {
    let built_in = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/variants/tamerlane2.toml"
    ));
    let tail = |t: &'static str| &t[t.find("\n[zones]").unwrap()..];
    let ours = tail(TAMERLANE_SWAP);
    let (game, rule) = ours.split_at(ours.find("\n[rules.royal-swap]").unwrap());
    // The shipped file ends with why it has no [[test]] tables: not part of the game.
    let built_in = built_in.split("\n# No [[test]]:").next().unwrap();
    assert_eq!(game.trim_end(), tail(built_in).trim_end());
    assert!(rule.contains("with = \"any\""), "{rule}");
    // The swap is never played from the start (no one is in check): the same counts.
    let plain = rules("tamerlane2");
    let rules = tamerlane_swap();
    let mut a = Position::start(&plain);
    let mut b = Position::start(&rules);
    assert!(b.fen().contains(" w Ss "), "{}", b.fen());
    assert_eq!(Perft::new().count(&mut a, 2), Perft::new().count(&mut b, 2));
}

#[test]
fn a_tamerlane_king_swaps_only_once_no_prince_is_left() {
    let rules = tamerlane_swap();
    // The King a1 checked along the a-file, the b-file covered, a Rook on k1: the swap with
    // the Rook (a1k1) is the only escape.
    let mut p = pos(&rules, "rr3k5/11/11/11/11/11/11/11/11/11/K9R w Ss - 0 1");
    assert!(p.in_check());
    assert_eq!(legal_names(&mut p), set(&["a1k1"]));
    // With a Prince behind it the King is not in check: no swap, every move is there.
    let mut p = pos(&rules, "rr3k5/11/11/11/11/11/11/11/11/5I5/K9R w Ss - 0 1");
    assert!(!p.in_check());
    let moves = legal_names(&mut p);
    assert!(
        !moves.contains("a1k1") && !moves.contains("a1f2"),
        "{moves:?}"
    );
    assert!(moves.contains("a1b2"), "{moves:?}");
}

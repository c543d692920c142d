//! The bare-King rule (`rules/bare_king.rs`) of Shatranj and Courier chess: a side left with
//! only its King loses, unless it bares the other King on its very next move; against two
//! pieces or more it loses at once, before checkmate and stalemate. Hand-built positions, the
//! search. Random games whose every FEN and verdict are compared with pyffish's are in
//! `tests/pyffish.rs`.

use polymachy::game::{GameResult, Outcome, Termination};
use polymachy::moves::MoveList;
use polymachy::position::{Position, Ruleset};
use polymachy::search::{Limits, Score, Searcher};
use polymachy::text::coord;
use polymachy::variant::Variant;

use crate::common::{self, play_coords, rules};

fn pos(variant: &str, fen: &str) -> Position {
    common::pos(&rules(variant), fen)
}

fn bare_win(winner: GameResult) -> Option<Outcome> {
    Some(Outcome {
        result: winner,
        reason: Termination::Rule("Bare King"),
    })
}

#[test]
fn a_side_bared_against_two_pieces_loses_at_once() {
    // The Rook takes the last Ferz; White keeps a Rook and a Knight: Black cannot answer.
    let mut p = pos("shatranj", "8/8/8/3k4/8/2q5/2R5/3K1N2 w - - 0 1");
    assert_eq!(p.verdict(), None);
    play_coords(&mut p, &["c2c3"]);
    let v = p.verdict();
    assert_eq!(v, bare_win(GameResult::WhiteWins), "{}", p.fen());
    assert_eq!(v.unwrap().to_string(), "Bare King: White wins.");
    // Black still has King moves, but the game is over: perft counts none.
    assert_eq!(polymachy::perft::Perft::new().count(&mut p, 1), 0);
}

#[test]
fn a_bared_side_may_bare_the_other_king_in_return() {
    // The Rook takes the last Ferz but stands beside Black's King: Black has its answer.
    let mut p = pos("shatranj", "8/8/8/8/3k4/2q5/2R5/3K4 w - - 0 1");
    play_coords(&mut p, &["c2c3"]);
    assert_eq!(p.verdict(), None, "one move to answer");
    let mut answered = p.clone();
    play_coords(&mut answered, &["d4c3"]);
    // Both Kings bare: the game goes on, to the draw rules.
    assert_eq!(answered.verdict(), None, "{}", answered.fen());
    play_coords(&mut answered, &["d1e1"]);
    assert_eq!(answered.verdict(), None);
    // Any other move loses.
    play_coords(&mut p, &["d4e5"]);
    assert_eq!(p.verdict(), bare_win(GameResult::WhiteWins), "{}", p.fen());
}

#[test]
fn the_bare_king_comes_before_stalemate() {
    // White cannot move, which Shatranj scores as a loss; but Black's King is bare and
    // Black's last move did not bare White's: White wins.
    let mut p = pos("shatranj", "KQQQQQQQ/PPPPPPPP/8/8/8/8/8/k7 w - - 0 1");
    let mut l = MoveList::new();
    p.legal_moves(&mut l);
    assert!(l.is_empty());
    assert_eq!(p.verdict(), bare_win(GameResult::WhiteWins));
    polymachy::testing::check_verdict(&mut p).unwrap();
    // With a Ferz left to Black it is a stalemate, lost for White.
    let mut q = pos("shatranj", "KQQQQQQQ/PPPPPPPP/8/8/8/8/8/k6q w - - 0 1");
    let v = q.verdict().unwrap();
    assert_eq!(
        (v.reason, v.result),
        (Termination::Stalemate, GameResult::BlackWins)
    );
}

#[test]
fn without_an_answer_a_bared_side_loses_at_once() {
    let text = polymachy::variant::BUILTIN
        .iter()
        .find(|(n, _)| *n == "shatranj")
        .unwrap()
        .1
        .replace(
            "\n[rules.bare-king]\n",
            "\n[rules.bare-king]\nanswer = false\n",
        );
    let v = Variant::from_toml(&text, "shatranj-no-answer.toml").unwrap();
    let rs = Ruleset::new(&v, None).unwrap();
    let mut p = Position::from_fen(&rs, "8/8/8/8/3k4/2q5/2R5/3K4 w - - 0 1").unwrap();
    play_coords(&mut p, &["c2c3"]);
    assert_eq!(p.verdict(), bare_win(GameResult::WhiteWins));
    let said: Vec<String> = rs
        .compiled_rules()
        .iter()
        .filter(|h| h.name() == "bare-king")
        .map(|h| h.explain(&rs))
        .collect();
    assert_eq!(said.len(), 1);
    assert!(said[0].contains("loses at once"), "{}", said[0]);
}

#[test]
fn the_search_bares_the_king_and_sees_it_win() {
    // Taking the last Ferz while the Knight stays wins at once: a mate in one for the search.
    let mut p = pos("shatranj", "8/8/8/3k4/8/2q5/2R5/3K1N2 w - - 0 1");
    let mut s = Searcher::new(p.rules(), 8);
    let r = s.search(&mut p, &Limits::depth(3), |_| {});
    assert_eq!(r.score, Score::Mate(1));
    assert_eq!(coord(p.rules(), r.best.unwrap()), "c2c3");
    // Courier: the Courier takes the last Schleich; the Man stays.
    let mut c = pos("courier", "12/12/12/12/4k7/3w8/4B7/5KM5 w - - 0 1");
    let mut s = Searcher::new(c.rules(), 8);
    let r = s.search(&mut c, &Limits::depth(3), |_| {});
    assert_eq!(r.score, Score::Mate(1));
    assert_eq!(coord(c.rules(), r.best.unwrap()), "e2d3");
}

//! The bare-King rule (`rules/bare_king.rs`) of Shatranj and Courier chess: a side left with
//! only its King loses, unless it bares the other King on its very next move; against two
//! pieces or more it loses at once, before checkmate and stalemate. Hand-built positions, the
//! search, and random games whose every FEN and verdict are compared with pyffish's.
//!
//! The pyffish test fails when `CI` is set and python3 with pyffish is missing; elsewhere it
//! says so and skips.

mod common;

use std::process::Command;
use std::sync::Arc;

use polymachy::game::{GameResult, Outcome, Termination};
use polymachy::moves::MoveList;
use polymachy::position::{Position, Ruleset};
use polymachy::search::{Limits, Score, Searcher};
use polymachy::text::coord;
use polymachy::variant::Variant;

fn rules(name: &str) -> Arc<Ruleset> {
    let v = Variant::load(name).unwrap();
    Ruleset::new(&v, None).unwrap()
}

fn pos(variant: &str, fen: &str) -> Position {
    Position::from_fen(&rules(variant), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Plays coordinate moves; panics on an illegal one.
fn play(p: &mut Position, moves: &[&str]) {
    for m in moves {
        let mut l = MoveList::new();
        p.legal_moves(&mut l);
        let mv = l
            .iter()
            .copied()
            .find(|&mv| coord(p.rules(), mv) == *m)
            .unwrap_or_else(|| panic!("{m} is not legal in {}", p.fen()));
        p.make(mv);
    }
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
    play(&mut p, &["c2c3"]);
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
    play(&mut p, &["c2c3"]);
    assert_eq!(p.verdict(), None, "one move to answer");
    let mut answered = p.clone();
    play(&mut answered, &["d4c3"]);
    // Both Kings bare: the game goes on, to the draw rules.
    assert_eq!(answered.verdict(), None, "{}", answered.fen());
    play(&mut answered, &["d1e1"]);
    assert_eq!(answered.verdict(), None);
    // Any other move loses.
    play(&mut p, &["d4e5"]);
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
    play(&mut p, &["c2c3"]);
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

// ------------------------------------------------------------- random games against pyffish

/// Endgames where random moves soon leave a side bare.
const SHATRANJ: &[&str] = &[
    "8/8/3k4/2q1r3/8/2RQ4/3K4/8 w - - 0 1",
    "8/8/2nk4/2q5/3P4/2RQ4/3K4/8 b - - 0 1",
    "8/3k4/3r4/8/8/3N4/3K1B2/8 w - - 0 1",
    "4k3/3p4/8/8/8/8/3R4/3NK3 w - - 0 1",
    "8/8/3kq3/8/8/3QK3/8/8 w - - 0 1",
];

const COURIER: &[&str] = &[
    "12/12/12/5k6/4m7/3w8/4B7/5K6 w - - 0 1",
    "12/12/5kw5/4e7/12/4WM6/5K6/12 b - - 0 1",
    "12/5k6/4b7/12/12/4N7/5KF5/12 w - - 0 1",
    "12/12/4mk6/12/12/6R5/5K6/12 w - - 0 1",
];

/// A deterministic random game from `fen`: up to `plies` moves, stopping at a verdict.
fn random_game(variant: &str, fen: &str, seed: u64, plies: usize) -> Vec<String> {
    let mut p = pos(variant, fen);
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut out = Vec::new();
    for _ in 0..plies {
        if p.verdict().is_some() {
            break;
        }
        let mut l = MoveList::new();
        p.legal_moves(&mut l);
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        let mv = l.as_slice()[(s % l.len() as u64) as usize];
        out.push(coord(p.rules(), mv));
        p.make(mv);
    }
    out
}

/// The verdict as a word: `-` while the game goes on, else `draw`, `white` or `black`.
fn word(o: Option<Outcome>) -> &'static str {
    match o.map(|o| o.result) {
        None => "-",
        Some(GameResult::Draw) => "draw",
        Some(GameResult::WhiteWins) => "white",
        Some(GameResult::BlackWins) => "black",
    }
}

fn pyffish_ok() -> bool {
    Command::new("python3")
        .args(["-c", "import pyffish"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Random games from `starts` (`seeds` from each), each FEN and verdict along them compared with pyffish's;
/// returns how many games ended by the bare King, at once (the bared side to move) and after
/// a move that did not answer (the bared side just moved).
fn agree_with_pyffish(variant: &str, starts: &[&str], seeds: u64) -> [usize; 2] {
    let mut games = Vec::new();
    for (i, fen) in starts.iter().enumerate() {
        for seed in 0..seeds {
            games.push((*fen, random_game(variant, fen, 1000 * i as u64 + seed, 120)));
        }
    }
    let input: String = games
        .iter()
        .map(|(f, ms)| format!("{f}|{}\n", ms.join(" ")))
        .collect();
    let mut cmd = Command::new("python3");
    cmd.arg(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/engines/fsf_verdicts.py"
    ))
    .arg(variant);
    let out = common::run_command(cmd, &input);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let mut bare = [0; 2];
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), games.len(), "{}", out.stdout);
    for ((fen, moves), line) in games.iter().zip(lines) {
        let theirs: Vec<&str> = line.split('|').collect();
        let mut p = pos(variant, fen);
        for (n, t) in theirs.iter().enumerate() {
            let ours = format!("{}={}", p.fen(), word(p.verdict()));
            assert_eq!(&ours, t, "{variant} {fen} after {:?}", &moves[..n]);
            if let Some(o) = p.verdict()
                && o.reason == Termination::Rule("Bare King")
            {
                let winner_moved = o.result != GameResult::win_for(p.side());
                bare[!winner_moved as usize] += 1;
            }
            if let Some(m) = moves.get(n) {
                play(&mut p, &[m]);
            }
        }
    }
    bare
}

#[test]
fn shatranj_and_courier_endings_agree_with_pyffish_on_random_games() {
    if !pyffish_ok() {
        common::missing("python3 with pyffish (pip install pyffish)");
        return;
    }
    for (variant, starts) in [("shatranj", SHATRANJ), ("courier", COURIER)] {
        let bare = agree_with_pyffish(variant, starts, 6);
        println!(
            "{variant}: bare King at once {}, unanswered {}",
            bare[0], bare[1]
        );
        assert!(bare[0] > 0 && bare[1] > 0, "{variant}: {bare:?}");
    }
    // And from the start positions, where games rarely end so soon: every FEN agrees.
    for variant in ["shatranj", "courier"] {
        let start = Position::start(&rules(variant)).fen();
        agree_with_pyffish(variant, &[start.as_str()], 2);
    }
}

//! Rule state and Makruk's counting rules: the state a rule keeps is restored by unmake and
//! kept in the hash as the rule says; the counts start, run and end as Fairy-Stockfish's do
//! (checked against pyffish on random games in `tests/pyffish.rs`); the FEN shows them as
//! Fairy-Stockfish writes them; the game, the search and `check` give one verdict.

use polymachy::game::{GameResult, Outcome, Termination};
use polymachy::moves::MoveList;
use polymachy::position::Position;
use polymachy::search::{Limits, Score, Searcher};
use polymachy::text::coord;
use proptest::prelude::*;

use crate::common::{self, MAKRUK_ENDINGS, play_coords, random_game, rules};

fn pos(fen: &str) -> Position {
    common::pos(&rules("makruk"), fen)
}

#[test]
fn the_pieces_honour_starts_with_the_bare_king_and_counts_the_pieces() {
    // The Rook takes the last Khon: Black has its bare King, White a Rook: 16 moves, 32 plies,
    // counted from the 3 pieces on the board (6 plies), as Fairy-Stockfish writes it.
    let mut p = pos("8/8/8/4k3/8/8/R2s4/4K3 w - - 0 1");
    play_coords(&mut p, &["a2d2"]);
    assert_eq!(p.fen(), "8/8/8/4k3/8/8/3R4/4K3 b - 32 6 1");
    play_coords(&mut p, &["e5e4"]);
    assert_eq!(p.fen(), "8/8/8/8/4k3/8/3R4/4K3 w - 32 7 2");
    // Two Rooks: 8 moves.
    let mut p = pos("8/8/3k4/8/8/2s5/8/RR2K3 w - - 0 1");
    play_coords(&mut p, &["a1a3", "d6d5", "a3c3"]);
    assert!(p.fen().contains(" - 16 8 "), "{}", p.fen());
}

#[test]
fn the_boards_honour_starts_when_the_last_pawn_goes() {
    // No pawn on the board, both sides with pieces: 64 moves from 0.
    let mut p = pos("3k4/8/2s5/8/8/5N2/8/3K4 b - - 0 1");
    assert_eq!(p.state()[..2], [0, 0]);
    play_coords(&mut p, &["d8e8"]);
    assert_eq!(p.fen(), "4k3/8/2s5/8/8/5N2/8/3K4 w - 128 0 2");
    // A pawn on the board holds every count off, even against a bare King.
    let mut p = pos("8/8/3k4/1p6/8/2R5/8/4K3 w - - 0 1");
    play_coords(&mut p, &["c3c4", "d6d5"]);
    assert!(p.fen().ends_with(" - - 2 2"), "{}", p.fen());
}

#[test]
fn the_game_is_drawn_one_ply_past_the_count_and_mate_still_wins() {
    let mut p = pos("8/8/8/4k3/8/8/3R4/4K3 b - 32 31 1");
    assert_eq!(p.verdict(), None);
    play_coords(&mut p, &["e5e4"]);
    // 32 plies counted: the count is reached, not passed.
    assert_eq!(p.verdict(), None, "{}", p.fen());
    play_coords(&mut p, &["d2d3"]);
    let draw = Outcome {
        result: GameResult::Draw,
        reason: Termination::Counting,
    };
    assert_eq!(p.verdict(), Some(draw), "{}", p.fen());
    // Past the count, but checkmated: checkmate.
    let mut m = pos("k7/8/1K6/8/8/8/8/7R w - 32 40 1");
    play_coords(&mut m, &["h1h8"]);
    assert_eq!(m.verdict().map(|o| o.reason), Some(Termination::Checkmate));
}

#[test]
fn the_count_is_read_and_written_as_fairy_stockfish_writes_it() {
    for fen in [
        "8/8/8/4k3/8/8/3R4/4K3 b - 32 6 1",
        "4k3/8/2s5/8/8/5N2/8/3K4 w - 128 0 2",
        "8/8/8/4k3/8/8/3R4/4K3 b - - 0 1",
    ] {
        let p = pos(fen);
        assert_eq!(p.fen(), fen);
        assert_eq!(p.hash(), p.hash_from_scratch());
    }
    assert_eq!(
        pos("8/8/8/4k3/8/8/3R4/4K3 b - 32 6 1").state()[..2],
        [32, 6]
    );
    // A count in a variant without counting is no en-passant square.
    assert!(Position::from_fen(&rules("chess"), "4k3/8/8/8/8/8/8/R3K3 b - 32 6 1").is_err());
}

#[test]
fn the_counts_length_is_hashed_and_its_progress_is_not() {
    let a = pos("8/8/8/4k3/8/8/3R4/4K3 b - 32 6 1");
    let b = pos("8/8/8/4k3/8/8/3R4/4K3 b - 32 9 1");
    let c = pos("8/8/8/4k3/8/8/3R4/4K3 b - - 0 1");
    let d = pos("8/8/8/4k3/8/8/3R4/4K3 b - 16 6 1");
    assert_eq!(a.hash(), b.hash(), "the plies counted are not hashed");
    assert_ne!(a.hash(), c.hash(), "a count is part of the position");
    assert_ne!(a.hash(), d.hash(), "so is its length");
    // Positions without rule state hash as before: the start position of chess has no state.
    let s = Position::start(&rules("chess"));
    assert_eq!(s.state(), &[0; polymachy::position::MAX_STATE]);
}

#[test]
fn repetitions_are_found_while_the_count_runs() {
    // The plies counted change every move, the hash does not: the third occurrence draws.
    let mut p = pos("8/8/8/4k3/8/8/3R4/4K3 b - 32 6 1");
    play_coords(
        &mut p,
        &[
            "e5e4", "d2d3", "e4e5", "d3d2", "e5e4", "d2d3", "e4e5", "d3d2",
        ],
    );
    assert_eq!(p.verdict().map(|o| o.reason), Some(Termination::Repetition));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Make and unmake keep the rule state, the hash and the FEN; the hash always agrees with
    /// the one computed from scratch; the FEN reads back to the same position.
    #[test]
    fn make_and_unmake_restore_the_rule_state_and_hash(
        start in 0..MAKRUK_ENDINGS.len(),
        seed in any::<u64>(),
    ) {
        let moves = random_game(&rules("makruk"), MAKRUK_ENDINGS[start], seed, 200);
        let mut p = pos(MAKRUK_ENDINGS[start]);
        let mut trail = Vec::new();
        for m in &moves {
            trail.push((p.fen(), p.hash(), *p.state()));
            play_coords(&mut p, &[m]);
            prop_assert_eq!(p.hash(), p.hash_from_scratch(), "after {}", m);
            let back = Position::from_fen(p.rules(), &p.fen()).unwrap();
            prop_assert_eq!(back.hash(), p.hash(), "{}", p.fen());
            prop_assert_eq!(back.state(), p.state(), "{}", p.fen());
        }
        while let Some((fen, hash, state)) = trail.pop() {
            p.unmake();
            prop_assert_eq!(p.fen(), fen);
            prop_assert_eq!(p.hash(), hash);
            prop_assert_eq!(*p.state(), state);
        }
    }
}

#[test]
fn the_search_scores_a_position_as_the_verdict_says() {
    // The count has run out: White's Rook is worth nothing, the verdict is a draw, and a
    // search scores it 0 at any depth.
    let mut p = pos("8/8/8/4k3/8/8/3R4/4K3 w - 32 33 1");
    assert_eq!(p.verdict().map(|o| o.reason), Some(Termination::Counting));
    let mut s = Searcher::new(p.rules(), 8);
    let r = s.search(&mut p, &Limits::depth(1), |_| {});
    assert_eq!(r.score, Score::Cp(0));
    // One ply before the count runs out, every move of Black draws: a depth-1 search sees it.
    let mut q = pos("8/8/8/4k3/8/8/3R4/4K3 b - 32 32 1");
    assert_eq!(q.verdict(), None);
    let r = s.search(&mut q, &Limits::depth(1), |_| {});
    assert_eq!(r.score, Score::Cp(0));
    // Stalemate as Xiangqi scores it (the stalemated side loses), for the game and the search.
    let x = rules("xiangqi");
    let mut st = Position::from_fen(&x, "3k5/R8/9/9/9/9/9/9/4R4/5K3 b - - 0 1").unwrap();
    let v = st.verdict().unwrap();
    assert_eq!(
        (v.reason, v.result),
        (Termination::Stalemate, GameResult::WhiteWins)
    );
    let mut s = Searcher::new(&x, 8);
    let r = s.search(&mut st, &Limits::depth(1), |_| {});
    assert_eq!(r.score, Score::Mate(0));
}

#[test]
fn a_mate_on_the_last_move_of_the_move_count_wins_for_the_game_and_the_search() {
    // Rh8 is mate and the 100th ply without capture or Pawn move: checkmate comes first.
    let chess = rules("chess");
    let fen = "4k3/R7/4K3/8/8/8/8/7R w - - 99 80";
    let mut p = Position::from_fen(&chess, fen).unwrap();
    let mut after = p.clone();
    let mut l = MoveList::new();
    after.legal_moves(&mut l);
    let mate = l
        .iter()
        .copied()
        .find(|&m| coord(&chess, m) == "h1h8")
        .unwrap();
    after.make(mate);
    let v = after.verdict().unwrap();
    assert_eq!(
        (v.reason, v.result),
        (Termination::Checkmate, GameResult::WhiteWins)
    );
    let mut s = Searcher::new(&chess, 8);
    let r = s.search(&mut p, &Limits::depth(2), |_| {});
    assert_eq!(r.score, Score::Mate(1));
    // A quiet move instead draws by the rule, for both.
    let quiet = l
        .iter()
        .copied()
        .find(|&m| coord(&chess, m) == "h1h2")
        .unwrap();
    let mut q = p.clone();
    q.make(quiet);
    assert_eq!(q.verdict().map(|o| o.reason), Some(Termination::MoveLimit));
    let r = s.search(&mut q, &Limits::depth(2), |_| {});
    assert_eq!(r.score, Score::Cp(0));
}

/// ASEAN chess counts only for a bare King, from zero, by the stronger side's best piece; the
/// FENs are pyffish's (0.0.90, Fairy-Stockfish's "asean").
#[test]
fn asean_counts_a_bare_king_only_and_from_zero() {
    let asean = rules("asean");
    // The Rook takes the last Bishop (a Khon): 16 moves, counted from zero.
    let mut p = common::pos(&asean, "8/8/8/4k3/8/8/R2b4/4K3 w - - 0 1");
    play_coords(&mut p, &["a2d2", "e5e4"]);
    assert_eq!(p.fen(), "8/8/8/8/4k3/8/3R4/4K3 w - 32 1 2");
    // No Pawn left and both sides with pieces: no board's honour.
    let mut p = common::pos(&asean, "3k4/8/2b5/8/8/5N2/8/3K4 b - - 0 1");
    play_coords(&mut p, &["d8e8"]);
    assert_eq!(p.fen(), "4k3/8/2b5/8/8/5N2/8/3K4 w - - 1 2");
    // A Queen (a Met) alone sets no count.
    let mut p = common::pos(&asean, "8/8/8/4k3/8/2b5/1Q6/4K3 w - - 0 1");
    play_coords(&mut p, &["b2c3"]);
    assert_eq!(p.fen(), "8/8/8/4k3/8/2Q5/8/4K3 b - - 0 1");
    // A Bishop (a Khon) against the bare King: 44 moves.
    let mut p = common::pos(&asean, "8/8/8/4k3/8/2b5/1N6/4K3 w - - 0 1");
    play_coords(&mut p, &["b2d1", "c3b4", "d1c3", "b4c3"]);
    assert_eq!(p.fen(), "8/8/8/4k3/8/2b5/8/4K3 w - 88 0 3");
}

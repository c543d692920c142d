//! The engine on prepared positions in chess, Lions and Unicorns and Metamachy.
//!
//! Every position was set up by hand so that its answer is unique and can be seen by reading
//! the board; the reasoning is in the comment above each test. Where a claim is about forced
//! mates ("this is the only mating move") it is also checked by an exhaustive search written
//! here, independent of the engine.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use polymachy::moves::Move;
use polymachy::position::Position;
use polymachy::position::Ruleset;
use polymachy::search::{Limits, MATE, Score, Searcher};
use polymachy::variant::Variant;

use crate::common::{legal, pos, rules};

fn coord(rs: &Ruleset, m: Move) -> String {
    polymachy::game::coord(rs, m)
}

/// Whether the side to move can force mate within `n` of its moves (exhaustive).
fn forces_mate(p: &mut Position, n: u32) -> bool {
    legal(p).into_iter().any(|m| {
        p.make(m);
        let r = is_lost(p, n);
        p.unmake();
        r
    })
}

/// Whether the side to move is mated now or within `n - 1` more enemy moves.
fn is_lost(p: &mut Position, n: u32) -> bool {
    let replies = legal(p);
    if replies.is_empty() {
        return p.in_check();
    }
    if n <= 1 {
        return false;
    }
    replies.into_iter().all(|r| {
        p.make(r);
        let ok = forces_mate(p, n - 1);
        p.unmake();
        ok
    })
}

/// Every first move that forces mate within `n` moves, in coordinate notation.
fn mating_moves(rs: &Ruleset, p: &mut Position, n: u32) -> Vec<String> {
    let mut out: Vec<String> = legal(p)
        .into_iter()
        .filter(|&m| {
            p.make(m);
            let r = is_lost(p, n);
            p.unmake();
            r
        })
        .map(|m| coord(rs, m))
        .collect();
    out.sort();
    out
}

/// Searches and returns (best move in coordinates, score).
fn search(rs: &Arc<Ruleset>, p: &mut Position, limits: Limits) -> (String, Score) {
    let mut s = Searcher::new(rs, 16);
    let before = p.fen();
    let r = s.search(p, &limits, |_| {});
    assert_eq!(p.fen(), before, "the search must restore the position");
    let best = r.best.expect("a move");
    assert!(legal(p).contains(&best), "the best move must be legal");
    (coord(rs, best), r.score)
}

fn assert_mate(rs: &Arc<Ruleset>, fen: &str, n: u32, expected: &str, depth: u32) {
    let mut p = pos(rs, fen);
    assert_eq!(
        mating_moves(rs, &mut p, n),
        vec![expected.to_string()],
        "{fen}: the only mate in {n}"
    );
    let (mv, score) = search(rs, &mut p, Limits::depth(depth));
    assert_eq!(mv, expected, "{fen}");
    assert_eq!(score, Score::Mate(n as i32), "{fen}");
}

/// After the engine's move in `fen`, the opponent has no mate in one, and the engine did
/// not play `bait`.
fn assert_avoids(rs: &Arc<Ruleset>, fen: &str, bait: &str, depth: u32) {
    let mut p = pos(rs, fen);
    let (mv, _) = search(rs, &mut p, Limits::depth(depth));
    assert_ne!(mv, bait, "{fen}: the engine fell for the bait");
    let m = legal(&mut p)
        .into_iter()
        .find(|&m| coord(rs, m) == mv)
        .unwrap();
    p.make(m);
    assert!(
        !forces_mate(&mut p, 1),
        "{fen}: after {mv} the opponent mates in one"
    );
}

// ---------------------------------------------------------------- chess

// White: Kg1, Ra1, pawns f2 g2 h2. Black: Kg8, pawns f7 g7 h7. Ra8 checks along the eighth
// rank; f8 and h8 are on that rank, f7 g7 h7 hold Black's own pawns and Black has nothing to
// interpose or capture with: mate. No other White move gives check.
#[test]
fn chess_mate_in_one() {
    let rs = rules("chess");
    assert_mate(&rs, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", 1, "a1a8", 3);
}

// White: Kg1, Qc4, Nh6, pawns f2 g2 h2. Black: Kh8, Rf8, pawns g7 h7.
// 1. Qg8+ (c4-d5-e6-f7-g8 is open): the king may not take, g8 being covered by the knight
// on h6, so 1... Rxg8 is forced; 2. Nf7# is a smothered mate (g8 rook, g7 h7 pawns, and
// nothing of Black's reaches f7). 1. Nf7+ fails to 1... Kg8 or Rxf7. No mate in one exists.
#[test]
fn chess_mate_in_two() {
    let rs = rules("chess");
    assert_mate(&rs, "5r1k/6pp/7N/8/2Q5/8/5PPP/6K1 w - - 0 1", 2, "c4g8", 5);
}

// White: Kg1, Rd1, pawns a2 b2 f2 g2 h2. Black: Kg8, Nd5, pawns a7 b7 f7 g7 h7. The knight on
// d5 is attacked by the rook along the open d-file and defended by nothing: Rxd5 wins it.
// The knight attacks nothing that matters (b4, b6, c3, c7, e3, e7, f4, f6).
#[test]
fn chess_wins_a_hanging_piece() {
    let rs = rules("chess");
    let mut p = pos(&rs, "6k1/pp3ppp/8/3n4/8/8/PP3PPP/3R2K1 w - - 0 1");
    assert_eq!(search(&rs, &mut p, Limits::depth(4)).0, "d1d5");
}

// White: Kg1, Ra3, pawns f2 g2 h2. Black: Kg8, Rd8, Na7, pawns f7 g7 h7. Black threatens
// Rd1 mate on the back rank. Ra3xa7 wins a knight but then Rd1 is mate (the rook on a7
// cannot come back to e1 or f1). The engine must parry (Ra1, a luft move, Kf1...).
#[test]
fn chess_avoids_a_back_rank_blunder() {
    let rs = rules("chess");
    assert_avoids(&rs, "3r2k1/n4ppp/8/8/8/R7/5PPP/6K1 w - - 0 1", "a3a7", 4);
}

// ---------------------------------------------------------------- Lions and Unicorns (10x8)

// White: Ke1, Chancellor (RN) a1. Black: Kj8, pawns i7 j7. Ca8 checks along the eighth rank
// (b8..i8 empty); i8 is on that rank, i7 and j7 hold Black's pawns, and Black has nothing to
// interpose: mate. No other move gives check (the Chancellor's knight leaps from a1 reach b3
// and c2 only).
#[test]
fn lions_and_unicorns_mate_in_one() {
    let rs = rules("lions-and-unicorns");
    assert_mate(&rs, "9k/8pp/10/10/10/10/10/C3K5 w - - 0 1", 1, "a1a8", 3);
}

// White: Ka1, Qe4, Nj6. Black: Kj8, Rh8, pawns i7 j7. 1. Qi8+ (e4-f5-g6-h7-i8 is open): the
// knight on j6 covers i8, so the king cannot take and 1... Rxi8 is forced; 2. Nh7# is a
// smothered mate (i8 rook, i7 j7 pawns; nothing of Black's reaches h7). 1. Nh7+ is met by
// 1... Rxh7 or Ki8, since the knight then blocks the queen's diagonal.
#[test]
fn lions_and_unicorns_mate_in_two() {
    let rs = rules("lions-and-unicorns");
    assert_mate(&rs, "7r1k/8pp/9N/10/4Q5/10/10/K9 w - - 0 1", 2, "e4i8", 5);
}

// White: Ka1, Lion (FDH) e4. Black: Kj8, Unicorn (BNN) e7. The Lion's three-square orthogonal
// leap (H) reaches e7 and takes the undefended Unicorn, Black's only piece. The Unicorn
// attacks neither the Lion (no diagonal or knight line joins e7 and e4) nor the king.
#[test]
fn lions_and_unicorns_wins_a_hanging_piece() {
    let rs = rules("lions-and-unicorns");
    let mut p = pos(&rs, "9k/4u5/10/10/4L5/10/10/K9 w - - 0 1");
    assert_eq!(search(&rs, &mut p, Limits::depth(4)).0, "e4e7");
}

// White: Ka1, Qd1, pawns a2 b2. Black: Kj8, Ld8, Nd5, pawns i7 j7. Qxd5 takes a knight (285)
// but the Lion on d8 takes back with its three-square leap (d8-d5), winning the queen
// (1100): a blunder the engine must not make.
#[test]
fn lions_and_unicorns_avoids_a_defended_bait() {
    let rs = rules("lions-and-unicorns");
    assert_avoids(&rs, "3l5k/8pp/10/3n6/10/10/PP8/K2Q6 w - - 0 1", "d1d5", 4);
}

// ---------------------------------------------------------------- Metamachy (12x12)

// White: Kf6, Cannon (mRcpR) a1, Knight j10. Black: Kl12, pawns k11 l11. Cl1 checks along the
// l-file with the l11 pawn as its one screen. The king's squares: k12 is covered by the knight
// on j10, k11 and l11 hold its own pawns. Moving the l11 pawn leaves it a screen on the file,
// and nothing can take the cannon or step between: mate. No other move gives check.
#[test]
fn metamachy_mate_in_one_with_the_cannon() {
    let rs = rules("metamachy");
    assert_mate(
        &rs,
        "11k/10pp/9N2/12/12/12/5K6/12/12/12/12/C11 w - - 0 1",
        1,
        "a1l1",
        3,
    );
}

// White: Ka1, Qe6, Nl10. Black: Kl12, Rh12, pawns k11 l11. 1. Qk12+ (e6-f7-g8-h9-i10-j11-k12
// is open): the knight on l10 covers k12, so 1... Rxk12 is forced; 2. Nj11# is a smothered
// mate (k12 rook, k11 l11 pawns; neither the rook nor the pawns reach j11). 1. Nj11+ at once
// blocks the queen's diagonal and the king escapes to k12.
#[test]
fn metamachy_mate_in_two() {
    let rs = rules("metamachy");
    assert_mate(
        &rs,
        "7r3k/10pp/11N/12/12/12/4Q7/12/12/12/12/K11 w - - 0 1",
        2,
        "e6k12",
        4,
    );
}

// White: Kl1, Cannon a1, pawn a3. Black: Kl12, Queen a8. The cannon captures by hopping over
// exactly one piece: over the a3 pawn it takes the undefended queen on a8. No other White
// piece can capture anything. (The queen attacks a3, but it is White's move.)
#[test]
fn metamachy_wins_a_hanging_queen_with_the_cannon() {
    let rs = rules("metamachy");
    let mut p = pos(&rs, "11k/12/12/12/q11/12/12/12/12/P11/12/C10K w - - 0 1");
    assert_eq!(search(&rs, &mut p, Limits::depth(4)).0, "a1a8");
}

// White: Kk1, Ra4, pawns j2 k2 l2. Black: Kk12, Rd12, Na10, pawns j11 k11 l11. Black
// threatens Rd1 mate (j1 and l1 are on the first rank, j2 k2 l2 hold White's pawns). Ra4xa10
// wins a knight, but then Rd1 is mate. The engine must parry.
#[test]
fn metamachy_avoids_a_back_rank_blunder() {
    let rs = rules("metamachy");
    assert_avoids(
        &rs,
        "3r6k1/9ppp/n11/12/12/12/12/12/R11/12/9PPP/10K1 w - - 0 1",
        "a4a10",
        4,
    );
}

// ---------------------------------------------------------------- limits

fn middlegame(rs: &Arc<Ruleset>, plies: usize) -> Position {
    // A few plies of the first legal moves, to leave the start position.
    let mut p = Position::start(rs);
    for i in 0..plies {
        let l = legal(&mut p);
        p.make(l[(i * 7) % l.len()]);
    }
    p
}

#[test]
fn tiny_limits_still_give_a_legal_move() {
    for name in ["chess", "lions-and-unicorns", "metamachy"] {
        let rs = rules(name);
        for plies in [0, 6] {
            let mut p = middlegame(&rs, plies);
            let legal_moves = legal(&mut p);
            let mut s = Searcher::new(&rs, 1);
            for limits in [
                Limits::movetime(Duration::from_millis(1)),
                Limits::movetime(Duration::from_micros(1)),
                Limits::nodes(1),
                Limits::clock(Duration::from_millis(5), Duration::ZERO),
                Limits::depth(1),
            ] {
                let r = s.search(&mut p, &limits, |_| {});
                let m = r.best.expect("a move");
                assert!(legal_moves.contains(&m), "{name}: {limits:?}");
            }
            // A search started with the stop flag raised returns at once, with a legal move.
            let flag = s.stop_flag();
            flag.store(true, Ordering::Relaxed);
            let r = s.search(&mut p, &Limits::default(), |_| {});
            assert!(legal_moves.contains(&r.best.unwrap()));
            flag.store(false, Ordering::Relaxed);
        }
    }
}

#[test]
fn every_shipped_variant_is_searched() {
    for (name, _) in polymachy::variant::BUILTIN {
        let rs = rules(name);
        let mut p = middlegame(&rs, 4);
        let legal_moves = legal(&mut p);
        let mut s = Searcher::new(&rs, 4);
        let r = s.search(&mut p, &Limits::depth(3), |_| {});
        assert!(legal_moves.contains(&r.best.unwrap()), "{name}");
        assert_eq!(r.depth, 3, "{name}");
    }
}

#[test]
fn a_search_stopped_from_another_thread_returns_a_legal_move() {
    let rs = rules("metamachy");
    let mut p = Position::start(&rs);
    let legal_moves = legal(&mut p);
    let mut s = Searcher::new(&rs, 8);
    let flag = s.stop_flag();
    let t = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        flag.store(true, Ordering::Relaxed);
    });
    let start = std::time::Instant::now();
    let r = s.search(&mut p, &Limits::default(), |_| {});
    t.join().unwrap();
    assert!(start.elapsed() < Duration::from_secs(5));
    assert!(legal_moves.contains(&r.best.unwrap()));
}

#[test]
fn movetime_is_respected() {
    let rs = rules("metamachy");
    let mut p = middlegame(&rs, 10);
    let mut s = Searcher::new(&rs, 8);
    let start = std::time::Instant::now();
    let r = s.search(
        &mut p,
        &Limits::movetime(Duration::from_millis(200)),
        |_| {},
    );
    assert!(
        start.elapsed() < Duration::from_millis(600),
        "{:?}",
        start.elapsed()
    );
    assert!(r.best.is_some());
}

#[test]
fn iterations_are_reported_in_order() {
    let rs = rules("chess");
    let mut p = Position::start(&rs);
    let mut s = Searcher::new(&rs, 8);
    let mut depths = Vec::new();
    let r = s.search(&mut p, &Limits::depth(4), |i| {
        assert!(!i.pv.is_empty());
        depths.push(i.depth);
    });
    assert_eq!(depths, vec![1, 2, 3, 4]);
    assert_eq!(r.depth, 4);
}

// ---------------------------------------------------------------- draws as the variant says

// Black: Ka8. White: Kc7, pawn b5. b5-b6 stalemates Black: a7 is then covered by the pawn, b7
// and b8 by the king, and Black has nothing else. Under FIDE rules that throws the win away
// (White has king and pawn against king and every other move keeps the game going), so the
// engine avoids it; where the stalemated side loses, b6 wins at once and the engine plays it.
#[test]
fn stalemate_follows_the_variant() {
    let fen = "k7/2K5/8/1P6/8/8/8/8 w - - 0 1";
    let rs = rules("chess");
    let mut p = pos(&rs, fen);
    assert_ne!(search(&rs, &mut p, Limits::depth(5)).0, "b5b6");

    let text = polymachy::variant::BUILTIN
        .iter()
        .find(|(n, _)| *n == "chess")
        .unwrap()
        .1;
    assert!(text.contains("stalemate = \"draw\""));
    let v = Variant::from_toml(
        &text.replace("stalemate = \"draw\"", "stalemate = \"loss\""),
        "chess-loss.toml",
    )
    .unwrap();
    let rs = Ruleset::new(&v, None).unwrap();
    let mut p = pos(&rs, fen);
    let (mv, score) = search(&rs, &mut p, Limits::depth(3));
    assert_eq!(mv, "b5b6");
    assert_eq!(score, Score::Mate(1));
}

// White: Ka1 alone. Black: Kh8, Qh5: White is lost, but the halfmove clock stands at 99, so
// any White move (all are quiet king moves) completes fifty moves by each side without
// capture or pawn move: a draw, scored 0. With the clock at 0 the score is far below 0.
#[test]
fn the_move_count_rule_draws() {
    let rs = rules("chess");
    let mut p = pos(&rs, "7k/8/8/7q/8/8/8/K7 w - - 99 80");
    assert_eq!(search(&rs, &mut p, Limits::depth(4)).1, Score::Cp(0));
    let mut p = pos(&rs, "7k/8/8/7q/8/8/8/K7 w - - 0 80");
    match search(&rs, &mut p, Limits::depth(4)).1 {
        Score::Cp(c) => assert!(c < -500, "{c}"),
        Score::Mate(m) => assert!(m < 0),
    }
}

// The same material. From White Ka1, Black Qh5 (White to move) the game went 1. Kb1 Qh4
// 2. Ka2 Qh5 3. Kb1 Qh4 4. Kb2 Qh5. The position after Kb1 (with the queen on h5, Black to
// move) has occurred twice (after moves 1 and 3), so Kb1 now repeats it a third time: a draw
// by repetition, and the lost side's best move. Ka1, Ka2, Ka3, Kb3, Kc1, Kc2, Kc3 repeat
// nothing three times.
#[test]
fn repetition_draws_a_lost_position() {
    let rs = rules("chess");
    let mut p = pos(&rs, "7k/8/8/7q/8/8/8/K7 w - - 0 80");
    for m in [
        "a1b1", "h5h4", "b1a2", "h4h5", "a2b1", "h5h4", "b1b2", "h4h5",
    ] {
        let mv = legal(&mut p)
            .into_iter()
            .find(|&x| coord(&rs, x) == m)
            .unwrap();
        p.make(mv);
    }
    let (mv, score) = search(&rs, &mut p, Limits::depth(5));
    assert_eq!(mv, "b2b1");
    assert_eq!(score, Score::Cp(0));
}

#[test]
fn no_legal_move_gives_no_move() {
    let rs = rules("chess");
    // Fool's mate: White is checkmated.
    let mut p = pos(
        &rs,
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    );
    let mut s = Searcher::new(&rs, 1);
    let r = s.search(&mut p, &Limits::depth(3), |_| {});
    assert_eq!(r.best, None);
    assert_eq!(r.score, Score::Mate(0));
    let _ = MATE;
}

// White: Ka1. Black: Ra8 (giving check along the a-file), Kc3 (covering b2). a2 is on the
// rook's file and b2 next to the black king: Kb1 is White's only legal move, and the engine,
// given a time limit, plays it at once.
#[test]
fn a_forced_move_is_found() {
    let rs = rules("chess");
    let mut p = pos(&rs, "r7/8/8/8/8/2k5/8/K7 w - - 0 1");
    assert_eq!(legal(&mut p).len(), 1);
    let (mv, _) = search(&rs, &mut p, Limits::movetime(Duration::from_millis(50)));
    assert_eq!(mv, "a1b1");
}

#[test]
fn evaluation_values_pieces_without_a_value_from_their_moves() {
    // A chess file without values: the derived ones keep the usual order.
    let text = polymachy::variant::BUILTIN
        .iter()
        .find(|(n, _)| *n == "chess")
        .unwrap()
        .1;
    let stripped: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("value"))
        .collect::<Vec<_>>()
        .join("\n");
    let v = Variant::from_toml(&stripped, "chess-novalues.toml").unwrap();
    let rs = Ruleset::new(&v, None).unwrap();
    let s = Searcher::new(&rs, 1);
    let e = s.evaluator();
    let val = |l: char| e.values[rs.variant.kind_by_letter(l).unwrap()];
    assert!(val('P') < val('N'));
    assert!(val('N') < val('R'));
    assert!(val('B') < val('R'));
    assert!(val('R') < val('Q'));
    assert_eq!(val('K'), 0, "royal pieces have no material value");
    // And the engine plays with them: it takes a hanging rook.
    let mut p = pos(&rs, "6k1/5ppp/8/8/8/8/5PPP/r2R2K1 w - - 0 1");
    assert_eq!(search(&rs, &mut p, Limits::depth(3)).0, "d1a1");
}

// ---------------------------------------------------------------- self-play (not a test)

/// Depth d+1 against depth d, 20 games per variant with alternating colours from seeded random
/// openings; prints the score and the middlegame speed. A measurement, not a test: run it with
/// `cargo test --release --test search -- --ignored --nocapture selfplay`. The depth is
/// `POLYMACHY_SELFPLAY_DEPTH` (default 2), the games `POLYMACHY_SELFPLAY_GAMES` (default 20).
#[test]
#[ignore]
fn selfplay_deeper_against_shallower() {
    use polymachy::selfplay::{MatchConfig, play_match};
    let env = |k: &str, d: u32| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let d = env("POLYMACHY_SELFPLAY_DEPTH", 2);
    let games = env("POLYMACHY_SELFPLAY_GAMES", 20);
    let variants = std::env::var("POLYMACHY_SELFPLAY_VARIANTS")
        .unwrap_or_else(|_| "chess,lions-and-unicorns,metamachy".into());
    for name in variants.split(',') {
        let rs = rules(name);
        let cfg = MatchConfig {
            games,
            first: Limits::depth(d + 1),
            second: Limits::depth(d),
            opening_plies: 4,
            seed: 7,
            ..MatchConfig::default()
        };
        let start = std::time::Instant::now();
        let r = play_match(&rs, &cfg, |g| {
            let res = g.verdict.to_string();
            println!(
                "  {name} game {:2}: {} plies, deeper side {} scores {} ({res})",
                g.number,
                g.plies,
                if g.first_white { "White" } else { "Black" },
                g.first_points
            );
        });
        println!(
            "{name}: depth {} vs {}: {:.1}/{} (+{} ={} -{}), middlegame {} nodes/s, overall {} nodes/s, {:.0} s",
            d + 1,
            d,
            r.points(),
            r.games.len(),
            r.wins,
            r.draws,
            r.losses,
            r.middlegame_nps(),
            r.nps(),
            start.elapsed().as_secs_f64()
        );
    }
}

// ---------------------------------------------------------------- no allocation per node

mod counting {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;

    thread_local! {
        static ON: Cell<bool> = const { Cell::new(false) };
        static COUNT: Cell<u64> = const { Cell::new(0) };
    }

    /// Counts the allocations of the threads that ask for it.
    pub struct Counting;

    fn note() {
        if ON.try_with(|o| o.get()).unwrap_or(false) {
            let _ = COUNT.try_with(|c| c.set(c.get() + 1));
        }
    }

    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, l: Layout) -> *mut u8 {
            note();
            unsafe { System.alloc(l) }
        }
        unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
            unsafe { System.dealloc(p, l) }
        }
        unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
            note();
            unsafe { System.realloc(p, l, n) }
        }
    }

    /// Runs `f` and returns how many allocations this thread made meanwhile.
    pub fn count<T>(f: impl FnOnce() -> T) -> (T, u64) {
        COUNT.with(|c| c.set(0));
        ON.with(|o| o.set(true));
        let r = f();
        ON.with(|o| o.set(false));
        (r, COUNT.with(|c| c.get()))
    }
}

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

#[test]
fn the_search_allocates_nothing_per_node() {
    for name in ["chess", "metamachy"] {
        let rs = rules(name);
        let mut p = middlegame(&rs, 12);
        let mut s = Searcher::new(&rs, 4);
        // Warm up: move lists and buffers grow to their size.
        s.search(&mut p, &Limits::depth(4), |_| {});
        let (r, allocations) = counting::count(|| s.search(&mut p, &Limits::depth(8), |_| {}));
        // Allocations happen once per search and per iteration (the root order, the
        // reported line), never per node.
        assert!(r.nodes > 5_000, "{name}: {} nodes", r.nodes);
        assert!(
            allocations < 60,
            "{name}: {allocations} allocations for {} nodes",
            r.nodes
        );
    }
}

/// A 16x16 board crowded with long-range and multi-leg pieces (griffons and manticores that
/// bend after a step, cannons that hop, lion-like leapers), set out so that nearly every piece
/// can capture something: capture chains here are long and wide.
const CROWD: &str = r#"
name = "Crowd"
id = "crowd"
files = 16
ranks = 16
start = "15k/14pp/16/16/16/16/16/16/16/16/16/16/16/16/PP14/KP14"

[[piece]]
name = "King"
letter = "K"
betza = "K"
royal = true

[[piece]]
name = "Pawn"
letter = "P"
betza = "fmWfcF"
value = 100

[[piece]]
name = "Lion"
letter = "L"
betza = "KNAD"
value = 1000

[[piece]]
name = "Cannon"
letter = "C"
betza = "mQcpQ"
value = 600

[[piece]]
name = "Griffon"
letter = "Y"
betza = "FyafsF"
value = 800

[[piece]]
name = "Zebra"
letter = "Z"
betza = "WyafsW"
value = 800
"#;

const CROWD_FEN: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/crowd.fen"));

/// Quiescence is bounded whatever the pieces: in the crowded position a depth-1 search visits
/// a bounded number of nodes (an unbounded capture search ran for over 20 s here), and
/// node limits are kept to the node.
#[test]
fn quiescence_cannot_explode_on_a_crowded_board() {
    let v = Variant::from_toml(CROWD, "crowd.toml").unwrap();
    let rs = Ruleset::new(&v, None).unwrap();
    let mut p = pos(&rs, CROWD_FEN.trim());
    let legal_moves = legal(&mut p);
    let mut s = Searcher::new(&rs, 4);
    let r = s.search(&mut p, &Limits::depth(1), |_| {});
    assert!(legal_moves.contains(&r.best.unwrap()));
    assert!(r.nodes < 200_000, "depth 1 visited {} nodes", r.nodes);
    for n in [1, 100, 5_000, 50_000] {
        let r = s.search(&mut p, &Limits::nodes(n), |_| {});
        assert!(r.nodes <= n, "node limit {n}: {} nodes", r.nodes);
        assert!(legal_moves.contains(&r.best.unwrap()));
    }
}

/// Lazy SMP: with two threads the search still answers with a legal move, reports its
/// iterations in order up to exactly the depth limit, stops on its stop flag, and gives the
/// same mate as one thread.
#[test]
fn two_threads_search_and_stop() {
    let rs = rules("metamachy");
    let mut p = middlegame(&rs, 10);
    let legal_moves = legal(&mut p);
    let mut s = Searcher::new(&rs, 8);
    s.set_threads(2);
    assert_eq!(s.threads(), 2);
    let mut depths = Vec::new();
    let r = s.search(&mut p, &Limits::depth(5), |i| depths.push(i.depth));
    // The main thread's iterations, and the helper's last where it finished the depth first
    // (one ahead, it may): in increasing order, ending at the limit, never past it.
    assert!(depths.windows(2).all(|w| w[0] < w[1]), "{depths:?}");
    assert_eq!(
        (depths.first(), depths.last()),
        (Some(&1), Some(&5)),
        "{depths:?}"
    );
    assert_eq!(r.depth, 5);
    assert!(legal_moves.contains(&r.best.unwrap()));
    let flag = s.stop_flag();
    let stopper = {
        let flag = flag.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            flag.store(true, Ordering::Relaxed);
        })
    };
    let r = s.search(&mut p, &Limits::default(), |_| {});
    stopper.join().unwrap();
    flag.store(false, Ordering::Relaxed);
    assert!(legal_moves.contains(&r.best.unwrap()));
    // A back-rank mate in one (Rd8# or Re8#), found with two threads.
    let rs = rules("chess");
    let fen = "6k1/5ppp/8/8/8/8/5PPP/3RR1K1 w - - 0 1";
    let mut p = pos(&rs, fen);
    let mut s = Searcher::new(&rs, 8);
    s.set_threads(2);
    let r = s.search(&mut p, &Limits::depth(4), |_| {});
    assert_eq!(r.score, Score::Mate(1), "{fen}");
    assert!(["d1d8", "e1e8"].contains(&coord(&rs, r.best.unwrap()).as_str()));
}

/// Static scores stay far from the mate scores whatever the `[eval]` values and the position:
/// 32 White pawns valued 20,000 each (the most a file may give) once summed past ±31,000 and
/// made the search report a mate that is not there. Black's king on h8 is out of reach of
/// every pawn, and White has no piece that can give mate within the search's horizon.
#[test]
fn extreme_eval_values_give_bounded_scores_and_no_false_mate() {
    let base = polymachy::variant::BUILTIN
        .iter()
        .find(|(n, _)| *n == "chess")
        .unwrap()
        .1;
    let text = base.replacen(
        "[eval]\ninclude = \"chess.eval.toml\"",
        "[eval]\ninclude = \"chess.eval.toml\"\n[eval.values]\nP = 20000",
        1,
    );
    assert_ne!(text, base);
    let v = Variant::from_toml(&text, "heavy.toml").unwrap();
    let rs = Ruleset::new(&v, None).unwrap();
    let fen = "7k/8/8/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP/K7 b - - 0 1";
    let mut pos = Position::from_fen(&rs, fen).unwrap();
    let mut s = Searcher::new(&rs, 8);
    let e = s.evaluate(&pos);
    assert!(e.abs() <= polymachy::search::eval::EVAL_LIMIT, "static {e}");
    assert!(e < -10_000, "Black is far behind: {e}");
    let r = s.search(&mut pos, &Limits::depth(4), |_| {});
    match r.score {
        Score::Cp(c) => assert!(
            c.abs() <= polymachy::search::eval::EVAL_LIMIT + 1_000,
            "{c}"
        ),
        Score::Mate(m) => panic!("a false mate in {m}"),
    }
    assert_eq!(r.depth, 4);
}

// MultiPV: in the back-rank position of `chess_mate_in_one`, Ra8# is the only mate, so the
// first line is that mate and the next two lines are two other moves, neither a mate. Every
// finished iteration reports lines 1, 2, 3 in that order; one line reports only line 1.
#[test]
fn multipv_ranks_distinct_moves_best_first() {
    let rs = rules("chess");
    let fen = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";
    let mut p = pos(&rs, fen);
    assert_eq!(mating_moves(&rs, &mut p, 1), vec!["a1a8".to_string()]);
    let mut s = Searcher::new(&rs, 8);
    s.set_multipv(3);
    let mut seen: Vec<(u32, usize, Score, Move)> = Vec::new();
    s.search(&mut p, &Limits::depth(4), |i| {
        seen.push((i.depth, i.multipv, i.score, i.pv[0]))
    });
    for d in 1..=4 {
        let lines: Vec<_> = seen.iter().filter(|x| x.0 == d).collect();
        assert_eq!(
            lines.iter().map(|x| x.1).collect::<Vec<_>>(),
            vec![1, 2, 3],
            "depth {d}"
        );
        assert_eq!(coord(&rs, lines[0].3), "a1a8", "depth {d}");
        assert_eq!(lines[0].2, Score::Mate(1), "depth {d}");
        let moves: std::collections::HashSet<Move> = lines.iter().map(|x| x.3).collect();
        assert_eq!(moves.len(), 3, "depth {d}: three different moves");
        for l in &lines[1..] {
            assert!(matches!(l.2, Score::Cp(_)), "depth {d}: {:?}", l.2);
        }
    }
    s.set_multipv(1);
    let mut single = Vec::new();
    s.search(&mut p, &Limits::depth(3), |i| single.push(i.multipv));
    assert_eq!(single, vec![1, 1, 1]);
}

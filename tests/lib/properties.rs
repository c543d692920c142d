//! Properties of every built-in variant, checked in every position of seeded random games, and
//! tests that the checks do report broken cases.

use std::sync::Arc;

use polymachy::geometry::Square;
use polymachy::moves::{Move, MoveKind, MoveList};
use polymachy::position::Position;
use polymachy::position::Ruleset;
use polymachy::testing::{self, Invariant};
use polymachy::variant::{BUILTIN, Variant};
use proptest::strategy::{Strategy, ValueTree};

/// The seed of the random games; `POLYMACHY_PROPERTY_SEED` picks others.
fn seed() -> u64 {
    std::env::var("POLYMACHY_PROPERTY_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_240_601)
}

/// Every built-in variant, compiled with its default setup. Any that does not load fails the
/// test, with every error listed.
fn builtins() -> Vec<(&'static str, Arc<Ruleset>)> {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for &(name, _) in BUILTIN {
        match Variant::load(name)
            .map_err(|e| e.to_string())
            .and_then(|v| Ok(Ruleset::new(&v, None)?))
        {
            Ok(r) => out.push((name, r)),
            Err(e) => errors.push(format!("built-in variant {name} does not load:\n{e}")),
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    out
}

/// Games from the start and their plies per variant: fewer on the big boards, which are slower.
fn budget(rules: &Ruleset) -> (u32, usize) {
    if rules.geometry.size() > 144 {
        (24, 48)
    } else {
        (32, 60)
    }
}

/// Games from random positions per variant, their most non-royal pieces and plies.
const RANDOM: (u32, usize, usize) = (32, 16, 16);

/// Checks `invariant` on every built-in variant, in games from the start position and from
/// random positions; reports the failures of all variants at once.
fn holds_everywhere(invariant: Invariant) {
    let mut failures = Vec::new();
    for (name, rules) in builtins() {
        let (cases, plies) = budget(&rules);
        if let Err(f) = testing::check_invariant(&rules, invariant, cases, plies, seed()) {
            failures.push(format!("{name}: {f}"));
        }
        let (cases, pieces, plies) = RANDOM;
        let check = |p: &mut Position| invariant.check(p);
        if let Err(f) = testing::check_property_from_random_positions(
            &rules,
            cases,
            pieces,
            plies,
            seed(),
            &check,
            &mut |_| {},
        ) {
            failures.push(format!("{name}, from a random position: {invariant}: {f}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn fen_round_trip() {
    holds_everywhere(Invariant::FenRoundTrip);
}

#[test]
fn make_unmake_restores_position_and_hash() {
    holds_everywhere(Invariant::MakeUnmake);
}

#[test]
fn incremental_hash_equals_hash_from_scratch() {
    holds_everywhere(Invariant::IncrementalHash);
}

#[test]
fn no_legal_move_leaves_the_royal_piece_attacked() {
    holds_everywhere(Invariant::LegalMovesSafe);
}

#[test]
fn rejected_moves_are_illegal_or_vetoed() {
    holds_everywhere(Invariant::RejectionsJustified);
}

#[test]
fn legal_moves_are_unique() {
    holds_everywhere(Invariant::NoDuplicateMoves);
}

#[test]
fn random_games_stay_in_legal_states() {
    holds_everywhere(Invariant::LegalGameState);
}

#[test]
fn black_plays_the_game_white_plays() {
    holds_everywhere(Invariant::ColourMirror);
}

/// A designer's slip that only the colour mirror sees: chess with Black's King and Queen
/// swapped (King on d8), castling still on. Each side's castling is read from its own start
/// squares, so Black castles another way than White: the mirror of a White castling is no
/// Black move.
#[test]
fn the_colour_mirror_finds_a_side_that_plays_another_game() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/variants/chess.toml"))
        .unwrap()
        .replace(
            "start = \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\"",
            "start = \"rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\"",
        )
        .replace("include = \"chess.eval.toml\"", "");
    let rules = crate::common::compile(&text, "swapped.toml");
    let f = testing::check_invariant(&rules, Invariant::ColourMirror, 32, 40, seed())
        .expect_err("Black castles otherwise than White");
    assert!(
        f.to_string().contains("turned to") || f.to_string().contains("does not load"),
        "{f}"
    );
    // Every other invariant holds: only the mirror tells.
    for inv in Invariant::ALL
        .into_iter()
        .filter(|&i| i != Invariant::ColourMirror)
    {
        assert!(
            testing::check_invariant(&rules, inv, 8, 40, seed()).is_ok(),
            "{inv} fails too"
        );
    }
}

/// Every setup choice a variant offers starts legal games (a few short games each).
#[test]
fn every_setup_choice_plays() {
    let mut failures = Vec::new();
    for (name, rules) in builtins() {
        let choices: Vec<String> = rules
            .variant
            .rules
            .iter()
            .flat_map(|h| h.setups())
            .map(|(_, letters)| letters)
            .collect();
        for letters in choices {
            let r = match Ruleset::new(&rules.variant, Some(&letters)) {
                Ok(r) => r,
                Err(e) => {
                    failures.push(format!("{name} setup {letters}: {e}"));
                    continue;
                }
            };
            let all = |p: &mut Position| Invariant::ALL.iter().try_for_each(|i| i.check(p));
            if let Err(f) = testing::check_property(&r, 3, 12, seed(), &all, &mut |_| {}) {
                failures.push(format!("{name} setup {letters}: {f}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

// ---------------------------------------------------------------------------------------------
// The strategies

fn chess() -> Arc<Ruleset> {
    Ruleset::new(&Variant::load("chess").unwrap(), None).unwrap()
}

fn parse(pos: &mut Position, text: &str) -> Move {
    let mut list = MoveList::new();
    pos.pseudo_legal_moves(&mut list);
    let rules = pos.rules().clone();
    *list
        .iter()
        .find(|&&m| polymachy::text::coord(&rules, m) == text)
        .unwrap_or_else(|| panic!("{text} is not pseudo-legal in {}", pos.fen()))
}

#[test]
fn games_are_legal_and_reproducible_from_the_seed() {
    let rules = chess();
    let strategy = testing::game_strategy(rules.clone(), 30);
    let games = |seed| {
        let mut runner = testing::seeded_runner(8, seed);
        (0..8)
            .map(|_| strategy.new_tree(&mut runner).unwrap().current())
            .collect::<Vec<Vec<Move>>>()
    };
    let a = games(5);
    assert_eq!(a, games(5), "the same seed plays the same games");
    assert_ne!(a, games(6), "another seed plays other games");
    for g in &a {
        assert!(g.len() <= 30);
        testing::replay(&rules, g).unwrap();
    }
}

#[test]
fn positions_can_be_unmade_to_the_start() {
    let rules = chess();
    let strategy = testing::position_strategy(rules.clone(), 20);
    let mut runner = testing::seeded_runner(4, 9);
    for _ in 0..4 {
        let mut pos = strategy.new_tree(&mut runner).unwrap().current();
        let n = pos.ply_count();
        let moves: Vec<Move> = pos.moves_made().collect();
        assert_eq!(testing::replay(&rules, &moves).unwrap(), pos);
        for _ in 0..n {
            pos.unmake();
        }
        assert_eq!(pos.fen(), Position::start(&rules).fen());
    }
}

#[test]
fn random_positions_are_legal_and_shrink() {
    let rules = chess();
    let strategy = testing::random_position_strategy(rules.clone(), 10);
    let mut runner = testing::seeded_runner(16, 4);
    for _ in 0..16 {
        let pos = strategy.new_tree(&mut runner).unwrap().current();
        testing::check_legal_state(&pos).unwrap();
        assert_eq!(pos.fen().matches(['K', 'k']).count(), 2, "{pos:?}");
        assert!(
            pos.fen()
                .split(' ')
                .next()
                .unwrap()
                .chars()
                .filter(|c| c.is_ascii_alphabetic())
                .count()
                <= 12
        );
    }
    // A property failing whenever a queen stands on the board shrinks to the kings and a queen.
    let has_queen = |p: &mut Position| {
        if p.fen().split(' ').next().unwrap().contains(['Q', 'q']) {
            Err("queen".to_string())
        } else {
            Ok(())
        }
    };
    let f = testing::check_property_from_random_positions(
        &rules,
        32,
        10,
        4,
        2,
        &has_queen,
        &mut |_| {},
    )
    .unwrap_err();
    assert!(!f.from_start_position && f.moves.is_empty(), "{f}");
    let placement = f.fen.split(' ').next().unwrap();
    assert_eq!(
        placement
            .chars()
            .filter(|c| c.is_ascii_alphabetic())
            .count(),
        3,
        "{f}"
    );
}

#[test]
fn check_variant_passes_on_chess() {
    let report = testing::check_variant(&chess(), 4, 16, seed());
    assert_eq!(report.outcomes.len(), Invariant::ALL.len());
    assert_eq!(
        report.failed(),
        0,
        "{}",
        report
            .first_failure()
            .map(|f| f.to_string())
            .unwrap_or_default()
    );
}

// ---------------------------------------------------------------------------------------------
// The checks can fail

/// A failing property shrinks to the shortest game, of first moves, and names the position.
#[test]
fn failures_shrink_to_a_short_game_with_its_fen() {
    let rules = chess();
    let fails_at_ply_3 = |p: &mut Position| {
        if p.ply_count() >= 3 {
            Err("three plies".to_string())
        } else {
            Ok(())
        }
    };
    let f = testing::check_property(&rules, 16, 30, 11, &fails_at_ply_3, &mut |_| {}).unwrap_err();
    assert_eq!(f.message, "three plies");
    assert_eq!(f.moves.len(), 3, "{f}");
    // Shrunk to choice 0 everywhere: the first legal move of each position.
    let first = testing::play_choices(&rules, &[0, 0, 0]);
    assert_eq!(f.moves, first.moves_made().collect::<Vec<_>>(), "{f}");
    assert_eq!(f.fen, first.fen());
    assert_eq!(f.line.len(), 3);
    assert_eq!(testing::replay(&rules, &f.moves).unwrap().fen(), f.fen);
}

/// A panic in the engine (here: in the check) is a failure at the position where it happened.
#[test]
fn panics_are_failures() {
    let rules = chess();
    let panics = |p: &mut Position| {
        if p.ply_count() == 2 {
            panic!("boom");
        }
        Ok(())
    };
    let f = testing::check_property(&rules, 4, 10, 1, &panics, &mut |_| {}).unwrap_err();
    assert!(f.message.contains("panic: boom"), "{f}");
    assert_eq!(f.moves.len(), 2);
}

#[test]
fn an_altered_fen_is_reported() {
    let rules = chess();
    let mut pos = testing::play_choices(&rules, &[3, 1, 4, 1, 5]);
    let fen = pos.fen();
    testing::check_reload(&mut pos, &fen).unwrap();
    // Other side to move, a missing piece, other clocks, text that is no FEN.
    let flipped = if fen.contains(" w ") {
        fen.replace(" w ", " b ")
    } else {
        fen.replace(" b ", " w ")
    };
    let no_rook = fen.replacen('R', "1", 1);
    let clocks = format!("{} 7 9", fen.rsplitn(3, ' ').nth(2).unwrap());
    for bad in [flipped, no_rook, clocks, "not a fen".to_string()] {
        assert_ne!(bad, fen);
        let e = testing::check_reload(&mut pos, &bad).unwrap_err();
        assert!(e.contains("FEN"), "{e}");
    }
}

#[test]
fn different_positions_are_reported() {
    let rules = chess();
    let a = Position::start(&rules);
    let mut b = a.clone();
    testing::same_position(&a, &b).unwrap();
    let mv = parse(&mut b, "g1f3");
    b.make(mv);
    let e = testing::same_position(&a, &b).unwrap_err();
    assert!(
        e.contains("FEN") && e.contains("hash") && e.contains("moves made"),
        "{e}"
    );
}

#[test]
fn a_listed_move_that_leaves_the_king_attacked_is_reported() {
    let rules = chess();
    // The e2 bishop is pinned to the e1 king by the e8 rook.
    let mut pos = Position::from_fen(&rules, "4r1k1/8/8/8/8/8/4B3/4K3 w - - 0 1").unwrap();
    testing::check_legal_moves_safe(&mut pos).unwrap();
    let pinned = parse(&mut pos, "e2d3");
    assert!(!pos.is_legal(pinned));
    let e = testing::check_moves_safe(&mut pos, &[pinned]).unwrap_err();
    assert!(e.contains("e2d3") && e.contains("e1"), "{e}");
}

#[test]
fn an_incomplete_legal_list_is_reported() {
    let rules = chess();
    let mut pos = Position::start(&rules);
    testing::check_rejections(&mut pos).unwrap();
    let mut list = MoveList::new();
    pos.pseudo_legal_moves(&mut list);
    let pseudo = list.as_slice().to_vec();
    let without_first = &pseudo[1..];
    let e = testing::check_rejections_with(&mut pos, &pseudo, without_first).unwrap_err();
    assert!(e.contains("is_legal accepts it"), "{e}");
    // A "legal" move the generator never produced.
    let mut extra = pseudo.clone();
    extra.push(Move::new(Square::new(0), Square::new(63)));
    let e = testing::check_rejections_with(&mut pos, &pseudo, &extra).unwrap_err();
    assert!(e.contains("not among the pseudo-legal moves"), "{e}");
}

#[test]
fn duplicate_moves_are_reported() {
    let rules = chess();
    let mut pos = Position::start(&rules);
    testing::check_no_duplicates(&mut pos).unwrap();
    let m = parse(&mut pos, "e2e4");
    let e = testing::check_unique(&rules, &[m, parse(&mut pos, "d2d4"), m]).unwrap_err();
    assert!(e.contains("listed 2 times"), "{e}");
    // The same squares with another kind: written alike.
    let other = Move {
        kind: MoveKind::Normal,
        aux: 0,
        ..m
    };
    assert_ne!(other, m, "e2e4 is a double step");
    let e = testing::check_unique(&rules, &[m, other]).unwrap_err();
    assert!(e.contains("both written e2e4"), "{e}");
}

#[test]
fn a_position_after_an_illegal_move_is_reported() {
    let rules = chess();
    let mut pos = Position::from_fen(&rules, "4r1k1/8/8/8/8/8/4B3/4K3 w - - 0 1").unwrap();
    let pinned = parse(&mut pos, "e2d3");
    pos.make(pinned);
    let e = testing::check_legal_state(&pos).unwrap_err();
    assert!(e.contains("white is not to move"), "{e}");
    let e = testing::check_fen_round_trip(&mut pos).unwrap_err();
    assert!(e.contains("does not load"), "{e}");
    pos.unmake();
    testing::check_legal_state(&pos).unwrap();
}

#[test]
fn a_game_with_an_illegal_move_is_reported_where_it_happens() {
    let rules = chess();
    let mut pos = Position::start(&rules);
    let e4 = parse(&mut pos, "e2e4");
    pos.make(e4);
    let e5 = parse(&mut pos, "e7e5");
    let game = [e4, e5, Move::new(e4.to, Square::new(36))]; // e4 to e5: blocked
    let f = testing::check_game(&rules, &game, |_| Ok(())).unwrap_err();
    assert!(
        f.message.contains("ply 3") && f.message.contains("not legal"),
        "{f}"
    );
    assert_eq!(f.line, ["e2e4", "e7e5"]);
    assert_eq!(
        f.fen,
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    assert!(testing::replay(&rules, &game).is_err());
    // A check failing in a position reports that position.
    let f = testing::check_game(&rules, &game[..2], |p| {
        if p.ply_count() == 1 {
            Err("here".into())
        } else {
            Ok(())
        }
    })
    .unwrap_err();
    assert_eq!((f.message.as_str(), f.line.len()), ("here", 1));
    assert_eq!(
        f.fen,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
}

// Random positions honour confinement (Xiangqi's Kings and Advisors in their palaces, its
// Elephants on their own side: every position is made, none refused) and, in a game with
// hands, hold pieces in hand.
#[test]
fn random_positions_keep_confined_pieces_home_and_fill_hands() {
    let xiangqi = crate::common::rules("xiangqi");
    let strategy = testing::random_position_strategy(xiangqi.clone(), 10);
    let mut runner = testing::seeded_runner(32, 5);
    let g = xiangqi.geometry;
    for _ in 0..32 {
        let pos = strategy.new_tree(&mut runner).unwrap().current();
        testing::check_legal_state(&pos).unwrap();
        for sq in g.squares() {
            let c = pos.piece_at(sq);
            if c == polymachy::moves::EMPTY {
                continue;
            }
            let k = polymachy::moves::kind_of(c);
            let color = polymachy::moves::color_of(c);
            if let Some(z) = xiangqi.variant.pieces[k].confined {
                assert!(
                    xiangqi.variant.zones[z].contains(color, sq),
                    "{} outside its zone: {}",
                    xiangqi.variant.pieces[k].name,
                    pos.fen()
                );
            }
        }
    }
    let crazyhouse = crate::common::rules("crazyhouse");
    let strategy = testing::random_position_strategy(crazyhouse.clone(), 6);
    let mut runner = testing::seeded_runner(32, 6);
    let mut with_hands = 0;
    for _ in 0..32 {
        let pos = strategy.new_tree(&mut runner).unwrap().current();
        testing::check_legal_state(&pos).unwrap();
        let hand = pos
            .fen()
            .split(' ')
            .next()
            .unwrap()
            .split('[')
            .nth(1)
            .unwrap()
            .to_string();
        with_hands += usize::from(hand.len() > 1);
    }
    assert!(
        with_hands >= 16,
        "{with_hands} of 32 positions hold pieces in hand"
    );
}

//! Positions that pass the setup checks but no game would reach (random rights, en-passant
//! squares, clocks, piece soups), in the style of shakmaty's fuzz targets: the generator,
//! make/unmake, a few-node search and every notation must cope without a panic (the test
//! profile keeps debug assertions and overflow checks), and `is_legal` must agree with
//! `legal_moves` on any move value.

use std::sync::Arc;

use polymachy::game::{parse_move, san};
use polymachy::geometry::{Color, Square};
use polymachy::moves::{EMPTY, Move, MoveKind, MoveList, code};
use polymachy::position::Ruleset;
use polymachy::position::{MAX_CLOCK, Position, Setup};
use polymachy::search::{Limits, Searcher};
use polymachy::text::coord;
use polymachy::variant::{BUILTIN, Variant};
use proptest::prelude::*;

fn all_rules() -> Vec<Arc<Ruleset>> {
    BUILTIN
        .iter()
        .map(|(n, _)| Ruleset::new(&Variant::load(n).unwrap(), None).unwrap())
        .collect()
}

/// A raw setup: the start position's royal pieces kept on their squares (so that rights can
/// hold), then a soup of random pieces, random rights bits, e.p. square and clocks.
#[derive(Clone, Debug)]
struct Raw {
    variant: usize,
    soup: Vec<(usize, usize, bool)>,
    black: bool,
    rights: u16,
    ep: Option<usize>,
    halfmove: u32,
    fullmove: u32,
    keep_start: bool,
    /// Move values made of random bytes.
    moves: Vec<(u8, u8, u8, u8, u8)>,
}

fn raw() -> impl Strategy<Value = Raw> {
    (
        0..BUILTIN.len(),
        proptest::collection::vec((0..256usize, 0..64usize, any::<bool>()), 0..24),
        any::<bool>(),
        any::<u16>(),
        proptest::option::of(0..256usize),
        prop_oneof![0..200u32, Just(MAX_CLOCK)],
        prop_oneof![1..500u32, Just(MAX_CLOCK)],
        any::<bool>(),
        proptest::collection::vec(any::<(u8, u8, u8, u8, u8)>(), 0..8),
    )
        .prop_map(
            |(variant, soup, black, rights, ep, halfmove, fullmove, keep_start, moves)| Raw {
                variant,
                soup,
                black,
                rights,
                ep,
                halfmove,
                fullmove,
                keep_start,
                moves,
            },
        )
}

fn setup_of(rs: &Ruleset, r: &Raw) -> Setup {
    let size = rs.geometry.size();
    let kinds = rs.variant.pieces.len();
    let mut s = Setup::start(rs);
    if !r.keep_start {
        // Only the royal pieces stay.
        for c in s.board.iter_mut() {
            if *c != EMPTY && !rs.is_royal(*c) {
                *c = EMPTY;
            }
        }
    }
    for &(sq, k, white) in &r.soup {
        let sq = sq % size;
        let k = k % kinds;
        if s.board[sq] == EMPTY && !rs.is_royal_kind(k) {
            s.board[sq] = code(k, if white { Color::White } else { Color::Black });
        }
    }
    s.side = if r.black { Color::Black } else { Color::White };
    // Only the bits the variant's rules hand out (others are refused, see tests/sound_input.rs).
    s.rights = r.rights & ((1u32 << rs.rights_used()) - 1) as u16;
    s.ep =
        r.ep.map(|e| polymachy::position::EpSquares::one(Square::from_index(e % size)))
            .unwrap_or_default();
    s.halfmove = r.halfmove;
    s.fullmove = r.fullmove;
    s
}

/// Some move values that are not moves of the position: squares swapped, kinds changed.
fn odd_moves(moves: &[Move], size: usize, salt: usize) -> Vec<Move> {
    let mut out = Vec::new();
    for (i, &m) in moves.iter().enumerate().take(8) {
        out.push(Move {
            from: m.to,
            to: m.from,
            ..m
        });
        out.push(Move {
            kind: MoveKind::EnPassant,
            ..m
        });
        out.push(Move {
            kind: MoveKind::Double,
            aux: ((i + salt) % size) as u8,
            ..m
        });
        out.push(Move {
            promo: 1 + (i % 3) as u8,
            ..m
        });
        // Moves claiming to be made by a rule: the first rules and one past any game's.
        for aux in [0, 1, 2, (i % 3) as u8, 200] {
            out.push(Move {
                kind: MoveKind::Rule,
                aux,
                ..m
            });
        }
    }
    out.push(Move::new(
        Square::from_index((salt * 7) % size),
        Square::from_index((salt * 13) % size),
    ));
    out
}

/// A move value from random bytes: any squares, promotion, kind and extra byte.
fn random_move(rs: &Ruleset, (a, b, c, d, e): (u8, u8, u8, u8, u8)) -> Move {
    let size = rs.geometry.size();
    let kinds = [
        MoveKind::Normal,
        MoveKind::Double,
        MoveKind::EnPassant,
        MoveKind::Rule,
        MoveKind::Drop,
    ];
    Move {
        from: Square::from_index(a as usize % size),
        to: Square::from_index(b as usize % size),
        promo: c % (rs.variant.pieces.len() as u8 + 1),
        kind: kinds[d as usize % kinds.len()],
        aux: e,
    }
}

fn exercise(rs: &Arc<Ruleset>, pos: &mut Position, salt: usize, random: &[Move]) {
    let fen = pos.fen();
    let back = Position::from_fen(rs, &fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(&back, pos, "{fen}");
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let legal: Vec<Move> = list.iter().copied().collect();
    let mut names = std::collections::HashSet::new();
    for &m in &legal {
        assert!(pos.is_legal(m), "{fen}: {m:?}");
        let c = coord(rs, m);
        assert!(names.insert(c.clone()), "{fen}: two moves named {c}");
        assert_eq!(parse_move(pos, &c), Ok(m), "{fen}: {c}");
        let s = san(pos, m);
        assert_eq!(parse_move(pos, &s), Ok(m), "{fen}: {s}");
        let hash = pos.hash();
        pos.make(m);
        assert_eq!(pos.hash(), pos.hash_from_scratch(), "{fen}: {c}");
        let after = pos.fen();
        // A move that ends the game may leave a position no FEN describes (Janggi's pass in
        // bikjang, legal in check): read back only where the game goes on.
        if let Err(e) = Position::from_fen(rs, &after)
            && pos.verdict().is_none()
        {
            panic!("{fen} then {c}: {after}: {e}");
        }
        let mut replies = MoveList::new();
        pos.legal_moves(&mut replies);
        pos.unmake();
        assert_eq!(pos.hash(), hash);
    }
    assert_eq!(pos.fen(), fen);
    for m in odd_moves(&legal, rs.geometry.size(), salt)
        .into_iter()
        .chain(random.iter().copied())
    {
        assert_eq!(pos.is_legal(m), legal.contains(&m), "{fen}: {m:?}");
    }
    let mut searcher = Searcher::new(rs, 1);
    let limits = Limits {
        nodes: Some(200),
        depth: Some(3),
        movetime: None,
        clock: None,
    };
    let _ = searcher.search(pos, &limits, |_| {});
    assert_eq!(pos.fen(), fen);
}

#[test]
fn accepted_odd_positions_are_handled_everywhere() {
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    let all = all_rules();
    let config = Config {
        cases: 400,
        failure_persistence: None,
        ..Config::default()
    };
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]);
    let mut runner = TestRunner::new_with_rng(config, rng);
    let accepted = std::cell::Cell::new(0);
    let refused = std::cell::Cell::new(0);
    runner
        .run(&raw(), |r| {
            let rs = &all[r.variant % all.len()];
            let setup = setup_of(rs, &r);
            match Position::from_setup(rs, &setup) {
                Ok(mut pos) => {
                    accepted.set(accepted.get() + 1);
                    let random: Vec<Move> = r.moves.iter().map(|&m| random_move(rs, m)).collect();
                    exercise(rs, &mut pos, r.soup.len(), &random);
                }
                Err(_) => refused.set(refused.get() + 1),
            }
            Ok(())
        })
        .unwrap();
    // A good share of the cases must reach the checks above, not be refused by the setup
    // checks (random e.p. squares and rights are often refused).
    assert!(
        accepted.get() * 4 >= accepted.get() + refused.get(),
        "{} accepted, {} refused",
        accepted.get(),
        refused.get()
    );
}

//! The evaluation is colour-blind: a position and its mirror image with the colours swapped
//! (ranks reversed, upper and lower case exchanged, the other side to move) score the same for
//! the side to move, in every shipped game, along random games from the start.
//!
//! A term that looks at one colour's pieces from the wrong side of the board, or a table
//! filled for White only, shows here as a difference.

use std::sync::Arc;

use polymachy::moves::MoveList;
use polymachy::position::{Position, Ruleset};
use polymachy::search::Searcher;
use polymachy::selfplay::Rng;
use polymachy::variant::{BUILTIN, Variant};

/// The colour-swapped mirror of a FEN: placement ranks reversed with cases swapped (pieces in
/// hand too), the other side to move, castling letters with cases swapped. The en-passant square is dropped (the
/// original is compared without it too) and the counters are kept.
fn flipped(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let swap = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    };
    // Pieces in hand (`[Qp]`, a variant with drops) follow the placement: swapped in place.
    let (board, hand) = match f[0].split_once('[') {
        Some((b, h)) => (b, format!("[{}", swap(h))),
        None => (f[0], String::new()),
    };
    let placement: Vec<String> = board.split('/').rev().map(swap).collect();
    let side = if f[1] == "w" { "b" } else { "w" };
    let mut out = vec![placement.join("/") + &hand, side.to_string()];
    if f.len() > 2 {
        let c = if f[2] == "-" {
            "-".to_string()
        } else {
            let mut c: Vec<char> = swap(f[2]).chars().collect();
            // Upper case first, as FEN writes it.
            c.sort_by_key(|ch| (ch.is_ascii_lowercase(), *ch));
            c.into_iter().collect()
        };
        out.push(c);
    }
    if f.len() > 3 {
        out.push("-".to_string());
    }
    out.extend(f.iter().skip(4).map(|s| s.to_string()));
    out.join(" ")
}

fn without_ep(fen: &str) -> String {
    let mut f: Vec<&str> = fen.split_whitespace().collect();
    if f.len() > 3 {
        f[3] = "-";
    }
    f.join(" ")
}

#[test]
fn flipping_the_flipped_fen_gives_it_back() {
    let fen = "c8c/ernbqkbnre/pppppppppp/10/10/4P5/10/PPPP1PPPPP/ERNBQKBNRE/C8C b KQk - 0 1";
    let twice = flipped(&flipped(fen));
    assert_eq!(twice, fen);
    assert_eq!(
        flipped(fen),
        "c8c/ernbqkbnre/pppp1ppppp/10/4p5/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C w Kkq - 0 1"
    );
}

#[test]
fn every_shipped_game_evaluates_both_colours_alike() {
    let mut rng = Rng::new(7);
    let mut checked = 0;
    for (name, _) in BUILTIN {
        let v = Variant::load(name).unwrap();
        let rules: Arc<Ruleset> = Ruleset::new(&v, None).unwrap();
        let searcher = Searcher::new(&rules, 1);
        for _game in 0..4 {
            let mut p = Position::start(&rules);
            for ply in 0..80 {
                let fen = without_ep(&p.fen());
                let a = Position::from_fen(&rules, &fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
                let mirror = flipped(&fen);
                let b = Position::from_fen(&rules, &mirror)
                    .unwrap_or_else(|e| panic!("{name}: {mirror}: {e}"));
                let (ea, eb) = (searcher.evaluate(&a), searcher.evaluate(&b));
                assert_eq!(
                    ea, eb,
                    "{name}, ply {ply}: {fen} scores {ea}, its mirror {mirror} scores {eb}"
                );
                checked += 1;
                let mut l = MoveList::new();
                p.legal_moves(&mut l);
                if l.is_empty() {
                    break;
                }
                let m = l.as_slice()[rng.below(l.len())];
                p.make(m);
            }
        }
    }
    assert!(checked > 1000, "only {checked} positions compared");
}

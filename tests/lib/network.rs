//! The network evaluation: the incremental accumulator against one computed from scratch in
//! random games of every game, the vector and portable loops against each other, the file
//! format's checks, and a variant file naming its network.

use crate::common;

use std::sync::Arc;

use polymachy::moves::{EMPTY, Move};
use polymachy::nnue::{self, AccStack, Change, MAX_CHANGES, Network};
use polymachy::position::{Position, Ruleset};
use polymachy::search::{Limits, Searcher};
use polymachy::testing;
use polymachy::variant::{BUILTIN, Variant};
use proptest::test_runner::TestCaseError;

fn load(name: &str) -> (Variant, Arc<Ruleset>) {
    let v = Variant::load(name).unwrap();
    let rs = Ruleset::new(&v, None).unwrap();
    (v, rs)
}

/// A network of random weights for `rules`, or the variant's own when it ships one.
fn net_for(v: &Variant, seed: u64) -> Network {
    match &v.network {
        Some((_, bytes)) => Network::for_variant(bytes, v).unwrap(),
        None => Network::random(v, 64, 4, seed),
    }
}

fn scratch(net: &Network, pos: &Position) -> nnue::Accumulator {
    let mut a = net.new_accumulator();
    net.refresh(pos.board(), &mut a);
    a
}

/// Plays `moves`, deriving each accumulator from the one before as the search does, and
/// compares each with one computed from scratch; then unmakes every move and checks that the
/// accumulator kept for each earlier position is still that position's; then plays a second
/// line from half way (the stack is reused, its stale entries must not be taken).
fn check_game(net: &Network, pos: &mut Position, moves: &[Move]) -> Result<(), String> {
    let base = pos.ply_count();
    let mut accs = AccStack::new(net, moves.len() + 2);
    accs.refresh(net, 0, pos.hash(), pos.board());
    let step = |accs: &mut AccStack, pos: &Position, k: usize| -> Result<(), String> {
        let mut c = [Change::default(); MAX_CHANGES];
        let n = pos.move_changes(base + k - 1, &mut c);
        accs.derive(net, k, pos.hash(), &c[..n]);
        let want = scratch(net, pos);
        if *accs.at(k) != want {
            return Err(format!(
                "after {} plies ({:?}): incremental accumulator differs from scratch",
                k,
                pos.moves_made().last()
            ));
        }
        let (e1, e2) = (
            net.evaluate(accs.at(k), pos.side()),
            net.evaluate(&want, pos.side()),
        );
        if e1 != e2 {
            return Err(format!("evaluations differ: {e1} vs {e2}"));
        }
        Ok(())
    };
    for (k, &mv) in moves.iter().enumerate() {
        pos.make(mv);
        step(&mut accs, pos, k + 1)?;
    }
    for k in (0..moves.len()).rev() {
        pos.unmake();
        let kept = accs.get(k, pos.hash()).ok_or("accumulator lost its key")?;
        if *kept != scratch(net, pos) {
            return Err(format!(
                "after unmaking back to ply {k}: kept accumulator is stale"
            ));
        }
    }
    // A second line from half way: the entries past it were computed for the first line.
    let half = moves.len() / 2;
    for &mv in &moves[..half] {
        pos.make(mv);
    }
    let mut list = polymachy::moves::MoveList::new();
    pos.legal_moves(&mut list);
    if let Some(&other) = list
        .iter()
        .rev()
        .find(|&&m| Some(m) != moves.get(half).copied())
    {
        pos.make(other);
        let k = half + 1;
        if accs.has(k, pos.hash()) {
            return Err("a stale accumulator claims the new line's key".into());
        }
        step(&mut accs, pos, k)?;
        pos.unmake();
    }
    for _ in 0..half {
        pos.unmake();
    }
    Ok(())
}

#[test]
fn incremental_accumulator_equals_scratch_after_every_move_and_unmove_in_every_game() {
    let mut failures = Vec::new();
    for (i, &(name, _)) in BUILTIN.iter().enumerate() {
        let (v, rules) = load(name);
        let net = net_for(&v, i as u64 + 1);
        let mut runner = testing::seeded_runner(12, 7_000 + i as u64);
        let r = runner.run(&testing::game_strategy(rules.clone(), 120), |moves| {
            let mut pos = Position::start(&rules);
            check_game(&net, &mut pos, &moves).map_err(TestCaseError::fail)
        });
        if let Err(e) = r {
            failures.push(format!("{name}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_check_finds_a_wrong_change_list() {
    // A change list that forgets the captured piece must be caught: the property above can fail.
    let (v, rules) = load("chess");
    let net = Network::random(&v, 64, 1, 3);
    let mut pos = Position::start(&rules);
    let mut accs = AccStack::new(&net, 8);
    accs.refresh(&net, 0, pos.hash(), pos.board());
    for m in ["e2e4", "d7d5", "e4d5"] {
        let mv = polymachy::text::san::parse_move(&mut pos, m).unwrap();
        pos.make(mv);
    }
    let mut ch = [Change::default(); MAX_CHANGES];
    for k in 1..=3 {
        let n = pos.move_changes(k - 1, &mut ch);
        // Drop the capture from the last move's list.
        let list: Vec<Change> = if k == 3 {
            ch[..n]
                .iter()
                .copied()
                .filter(|c| c.after != EMPTY)
                .collect()
        } else {
            ch[..n].to_vec()
        };
        accs.derive(&net, k, pos.hash_at(k), &list);
    }
    assert_ne!(*accs.at(3), scratch(&net, &pos));
}

#[test]
fn vector_and_portable_loops_give_the_same_evaluations() {
    let (v, rules) = load("metamachy");
    let mut fast = Network::random(&v, 128, 8, 11);
    if !fast.simd() {
        common::skip("this processor has no AVX2; only the portable loops run here");
        return;
    }
    let mut slow = fast.clone();
    slow.set_simd(false);
    fast.set_simd(true);
    let mut runner = testing::seeded_runner(40, 99);
    let r = runner.run(
        &testing::position_strategy(rules.clone(), 80),
        |pos: Position| {
            let (a, b) = (scratch(&fast, &pos), scratch(&slow, &pos));
            if a != b {
                return Err(TestCaseError::fail("accumulators differ"));
            }
            let (x, y) = (fast.evaluate(&a, pos.side()), slow.evaluate(&b, pos.side()));
            if x != y {
                return Err(TestCaseError::fail(format!("{x} vs {y}")));
            }
            Ok(())
        },
    );
    r.unwrap();
}

#[test]
fn a_network_file_reads_back_to_the_same_network() {
    let (v, rules) = load("shako");
    let net = Network::random(&v, 32, 2, 5);
    let bytes = net.to_bytes();
    let back = Network::for_variant(&bytes, &v).unwrap();
    let pos = Position::start(&rules);
    assert_eq!(
        net.evaluate(&scratch(&net, &pos), pos.side()),
        back.evaluate(&scratch(&back, &pos), pos.side())
    );
    assert_eq!(back.to_bytes(), bytes);
}

#[test]
fn damaged_truncated_and_foreign_network_files_are_refused_with_their_reason() {
    let (v, _) = load("shako");
    let net = Network::random(&v, 32, 2, 5);
    let bytes = net.to_bytes();
    let err = |b: &[u8]| nnue::format::read(b).unwrap_err().to_string();
    assert!(
        err(b"hello").contains("not a Polymachy network"),
        "{}",
        err(b"hello")
    );
    assert!(err(&bytes[..bytes.len() / 2]).contains("ends early"));
    let mut long = bytes.clone();
    long.extend_from_slice(&[0; 10]);
    assert!(err(&long).contains("after its end"), "{}", err(&long));
    let mut flipped = bytes.clone();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 1;
    assert!(err(&flipped).contains("checksum"), "{}", err(&flipped));
    let mut version = bytes.clone();
    version[4] = 9;
    assert!(err(&version).contains("format 9"), "{}", err(&version));
    // A network for Shako used with chess.
    let chess = Variant::load("chess").unwrap();
    let e = Network::for_variant(&bytes, &chess)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("trained for `shako`") && e.contains("`chess`"),
        "{e}"
    );
}

#[test]
fn a_network_for_a_changed_piece_set_is_refused() {
    // The same board and kinds, one piece's movement changed: the fingerprint differs.
    let (v, _) = load("chess");
    let net = Network::random(&v, 32, 1, 2);
    let text = BUILTIN
        .iter()
        .find(|(n, _)| *n == "chess")
        .unwrap()
        .1
        .replacen("betza = \"N\"", "betza = \"NC\"", 1);
    assert_ne!(text, BUILTIN.iter().find(|(n, _)| *n == "chess").unwrap().1);
    let changed = Variant::from_toml(&text, "changed.toml").unwrap();
    assert!(Network::for_variant(&net.to_bytes(), &changed).is_err());
}

#[test]
fn a_variant_file_names_its_network_and_the_search_uses_it() {
    let dir = common::TempDir::new("network-variant");
    let (v, rules) = load("chess");
    let net = Network::random(&v, 32, 1, 8);
    std::fs::write(dir.join("mine.nnue"), net.to_bytes()).unwrap();
    let text = BUILTIN.iter().find(|(n, _)| *n == "chess").unwrap().1;
    let with = text.replacen("[eval]", "[eval]\nnetwork = \"mine.nnue\"", 1);
    assert_ne!(with, text, "chess.toml has an [eval] table");
    let path = dir.join("mine.toml");
    std::fs::write(&path, &with).unwrap();
    let mv = Variant::load(path.to_str().unwrap()).unwrap();
    let mrs = Ruleset::new(&mv, None).unwrap();
    assert!(mv.network.is_some());
    let pos = Position::start(&mrs);
    let s = Searcher::new(&mrs, 1);
    assert!(s.uses_network());
    assert_eq!(
        s.evaluate(&pos),
        net.evaluate(&scratch(&net, &pos), pos.side())
    );
    // The search runs on it and finds a legal move.
    let mut s = Searcher::new(&mrs, 1);
    let mut p = Position::start(&mrs);
    let r = s.search(&mut p, &Limits::depth(3), |_| {});
    assert!(r.best.is_some());
    // Switched off, the data-built evaluation is back.
    s.set_network(false);
    assert_eq!(s.evaluate(&pos), Searcher::new(&rules, 1).evaluate(&pos));

    // A network file that is not there, and one for another game: located errors.
    std::fs::write(
        &path,
        text.replacen("[eval]", "[eval]\nnetwork = \"none.nnue\"", 1),
    )
    .unwrap();
    let e = Variant::load(path.to_str().unwrap())
        .unwrap_err()
        .to_string();
    assert!(e.contains("mine.toml:") && e.contains("none.nnue"), "{e}");
    let (sv, _) = load("shako");
    std::fs::write(
        dir.join("mine.nnue"),
        Network::random(&sv, 32, 1, 8).to_bytes(),
    )
    .unwrap();
    std::fs::write(&path, &with).unwrap();
    let mv = Variant::load(path.to_str().unwrap()).unwrap();
    let e = Ruleset::new(&mv, None).unwrap_err().to_string();
    assert!(
        e.contains("mine.toml:") && e.contains("trained for `shako`"),
        "{e}"
    );
}

/// The network written by the trainer evaluates as the float network it was made from, within
/// the rounding of its weights.
#[test]
fn the_quantised_network_evaluates_as_the_float_one() {
    use polymachy::nnue::train::Weights;
    for name in ["chess", "metamachy", "terachess2"] {
        let (v, rs) = load(name);
        let mut w = Weights::new(&v, 64, 4, 7);
        w.jitter(99, 0.05);
        let net = w.quantise(&v);
        let mut pos = Position::start(&rs);
        let mut list = polymachy::moves::MoveList::new();
        let (mut worst, mut total, mut spread) = (0f32, 0f32, 0f32);
        for ply in 0..30 {
            let f = w.evaluate_float(&v, pos.board(), pos.side());
            let q = net.evaluate(&scratch(&net, &pos), pos.side()) as f32;
            // Rounding the output weights to 1/QB moves the sum by a few centipawns.
            worst = worst.max((f - q).abs());
            total += (f - q).abs();
            spread += f.abs();
            pos.legal_moves(&mut list);
            pos.make(list.as_slice()[(ply * 7) % list.len()]);
        }
        assert!(
            worst <= 50.0 && total / 30.0 <= 15.0,
            "{name}: worst {worst}, mean {}",
            total / 30.0
        );
        assert!(spread > 3.0 * total, "{name}: the evaluations vary little");
    }
}

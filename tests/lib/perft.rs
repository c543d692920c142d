//! Perft against numbers computed by other programs (see the header of each file in
//! `tests/perft/`). One generic runner: every position of a file at every depth whose node count
//! is at most `SHALLOW_LIMIT` runs in the normal suite; deeper ones are `#[ignore]`d tests
//! (`cargo test --release --test perft -- --ignored`).

use polymachy::perft::Perft;
use polymachy::position::Position;
use polymachy::position::Ruleset;
use polymachy::variant::Variant;

const SHALLOW_LIMIT: u64 = 5_000_000;

struct Case {
    id: String,
    fen: String,
    depths: Vec<(u32, u64)>,
}

fn parse(text: &str) -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').expect("malformed perft line");
        match key {
            "id" => cases.push(Case {
                id: rest.to_string(),
                fen: String::new(),
                depths: vec![],
            }),
            "fen" => cases.last_mut().expect("fen before id").fen = rest.to_string(),
            "perft" => {
                let (d, n) = rest.split_once(' ').expect("perft DEPTH NODES");
                cases
                    .last_mut()
                    .expect("perft before id")
                    .depths
                    .push((d.parse().unwrap(), n.parse().unwrap()));
            }
            _ => panic!("unknown key {key}"),
        }
    }
    cases
}

/// Runs every case of `variant`'s file whose node count is in `range`; panics listing every
/// disagreement.
fn run(variant: &str, deep: bool) {
    let path = format!("{}/tests/perft/{variant}.perft", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    // A variant that is not shipped (a test variant) lives in tests/data.
    let data = format!("{}/tests/data/{variant}.toml", env!("CARGO_MANIFEST_DIR"));
    let v = if std::path::Path::new(&data).exists() {
        Variant::load(&data)
    } else {
        Variant::load(variant)
    }
    .unwrap();
    let rules = Ruleset::new(&v, None).unwrap();
    let mut failures = Vec::new();
    let mut ran = 0;
    for case in parse(&text) {
        let mut pos =
            Position::from_fen(&rules, &case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        for &(depth, expected) in &case.depths {
            if (expected > SHALLOW_LIMIT) != deep {
                continue;
            }
            ran += 1;
            let got = Perft::new().count(&mut pos, depth);
            if got != expected {
                failures.push(format!(
                    "{} depth {depth}: got {got}, expected {expected}",
                    case.id
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{variant}: {} of {ran} disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
    if !deep {
        assert!(ran > 0, "{variant}: no case ran");
    }
}

macro_rules! perft_file {
    ($name:ident, $deep:ident, $file:expr) => {
        #[test]
        fn $name() {
            run($file, false);
        }
        #[test]
        #[ignore = "deep perft: run with --ignored"]
        fn $deep() {
            run($file, true);
        }
    };
}

perft_file!(chess, chess_deep, "chess");
perft_file!(capablanca, capablanca_deep, "capablanca");
perft_file!(grand, grand_deep, "grand");
perft_file!(
    lions_and_unicorns,
    lions_and_unicorns_deep,
    "lions-and-unicorns"
);
perft_file!(metamachy, metamachy_deep, "metamachy");
perft_file!(perfect12, perfect12_deep, "perfect12");
perft_file!(shako, shako_deep, "shako");
perft_file!(terachess1, terachess1_deep, "terachess1");
perft_file!(wildebeest, wildebeest_deep, "wildebeest");
perft_file!(terachess2, terachess2_deep, "terachess2");
perft_file!(zanzibar_cut, zanzibar_cut_deep, "zanzibar-cut");
perft_file!(zanzibar_12x10, zanzibar_12x10_deep, "zanzibar-12x10");
perft_file!(zanzibar_s_12x10, zanzibar_s_12x10_deep, "zanzibar-s-12x10");
perft_file!(tamerlane2_11x10, tamerlane2_11x10_deep, "tamerlane2-11x10");
perft_file!(xiangqi, xiangqi_deep, "xiangqi");
perft_file!(makruk, makruk_deep, "makruk");
perft_file!(crazyhouse, crazyhouse_deep, "crazyhouse");
perft_file!(shogi, shogi_deep, "shogi");
perft_file!(shatranj, shatranj_deep, "shatranj");
perft_file!(courier, courier_deep, "courier");
perft_file!(minishogi, minishogi_deep, "minishogi");
perft_file!(seirawan, seirawan_deep, "seirawan");
perft_file!(asean, asean_deep, "asean");
perft_file!(janggi, janggi_deep, "janggi");
perft_file!(sittuyin, sittuyin_deep, "sittuyin");

#[test]
fn the_runner_reports_a_wrong_number() {
    // A deliberately wrong expectation must be caught: chess start, depth 2 is 400, not 401.
    let v = Variant::load("chess").unwrap();
    let rules = Ruleset::new(&v, None).unwrap();
    let mut pos = Position::start(&rules);
    assert_ne!(Perft::new().count(&mut pos, 2), 401);
    assert_eq!(
        parse("id x\nfen 8/8/8/8/8/8/8/8 w - - 0 1\nperft 1 5\n")[0].depths,
        vec![(1, 5)]
    );
}

/// Mirror-image Metamachy setups (f and g files swapped) must give equal counts; all 24 load.
#[test]
fn metamachy_mirror_setups_agree() {
    let v = Variant::load("metamachy").unwrap();
    let letters = ['K', 'Q', 'L', 'G'];
    let mut perms = Vec::new();
    for a in 0..4 {
        for b in 0..4 {
            for c in 0..4 {
                for d in 0..4 {
                    let idx = [a, b, c, d];
                    let mut seen = [false; 4];
                    if idx.iter().all(|&i| !std::mem::replace(&mut seen[i], true)) {
                        perms.push(idx.iter().map(|&i| letters[i]).collect::<String>());
                    }
                }
            }
        }
    }
    assert_eq!(perms.len(), 24);
    let count = |setup: &str| {
        let rules = Ruleset::new(&v, Some(setup)).unwrap();
        let mut pos = Position::start(&rules);
        Perft::new().count(&mut pos, 3)
    };
    let mut distinct = std::collections::BTreeSet::new();
    for p in &perms {
        // Letters stand on f1 g1 f2 g2; the mirror swaps f and g.
        let c: Vec<char> = p.chars().collect();
        let mirror: String = [c[1], c[0], c[3], c[2]].iter().collect();
        let (a, b) = (count(p), count(&mirror));
        assert_eq!(a, b, "{p} and its mirror {mirror}");
        distinct.insert(a);
    }
    // Different arrangements really are different games.
    assert!(distinct.len() > 1);
}

/// Overlapping components must not list a move twice: chess written with redundant notation
/// (`KW` king, `RW` rook, `R4R` rook, `QBW` queen, `mWW` knight-less...) still gives the
/// published counts.
#[test]
fn overlapping_notation_lists_each_move_once() {
    let text = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/variants/chess.toml"))
        .replace("betza = \"K\"", "betza = \"KWmF\"")
        .replace("betza = \"R\"", "betza = \"R4RW\"")
        .replace("betza = \"Q\"", "betza = \"QBWmR2\"")
        .replace("betza = \"B\"", "betza = \"BFcF\"");
    let v = Variant::from_toml(&text, "overlap.toml").unwrap();
    let rules = Ruleset::new(&v, None).unwrap();
    for (fen, depth, expected) in [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            4,
            197_281,
        ),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            3,
            97_862,
        ),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4, 43_238),
    ] {
        let mut pos = Position::from_fen(&rules, fen).unwrap();
        assert_eq!(Perft::new().count(&mut pos, depth), expected, "{fen}");
    }
}

/// The cut-down's pieces move as Zanzibar-XXL's own (the stand-ins aside), so its agreement
/// with Fairy-Stockfish speaks for the shipped file.
#[test]
fn zanzibar_cut_down_uses_the_shipped_movements() {
    let cut = Variant::load(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/zanzibar-cut.toml"
    ))
    .unwrap();
    let full = Variant::load("zanzibar-xxl").unwrap();
    let mut shared = 0;
    for p in &cut.pieces {
        if let Some(q) = full.pieces.iter().find(|q| q.name == p.name) {
            assert_eq!(p.betza_text, q.betza_text, "{}", p.name);
            assert_eq!(p.letter, q.letter, "{}", p.name);
            shared += 1;
        }
    }
    assert_eq!(shared, cut.pieces.len() - 2, "all but the two stand-ins");
}

/// The 12x10 test board's pieces are Zanzibar-XXL's own, but for the two stand-ins and the two
/// pieces whose en-passant marks Fairy-Stockfish cannot express (listed in its file).
#[test]
fn zanzibar_12x10_uses_the_shipped_movements() {
    let allowed = [("fsmWfceFfmnnD", "fsmWfcFfmnD"), ("KfmnnD", "KfmnD")];
    let (shared, all) = shared_movements("zanzibar-12x10", "zanzibar-xxl", &allowed);
    assert_eq!(shared, all - 2, "all but the two stand-ins");
    assert_eq!(Variant::load("zanzibar-xxl").unwrap().pieces.len(), all);
}

/// The pieces of a cut-down test board that share a name with the shipped game's move alike
/// (but for the notations `allowed` pairs, shipped then test); returns how many are shared.
fn shared_movements(test: &str, game: &str, allowed: &[(&str, &str)]) -> (usize, usize) {
    let test = Variant::load(&format!(
        "{}/tests/data/{test}.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let full = Variant::load(game).unwrap();
    let mut shared = 0;
    for p in &test.pieces {
        if let Some(q) = full.pieces.iter().find(|q| q.name == p.name) {
            let same = p.betza_text == q.betza_text
                || allowed.contains(&(q.betza_text.as_str(), p.betza_text.as_str()));
            assert!(same, "{}: `{}` vs `{}`", p.name, p.betza_text, q.betza_text);
            assert_eq!(p.letter, q.letter, "{}", p.name);
            shared += 1;
        }
    }
    (shared, test.pieces.len())
}

/// Zanzibar-S on 12x10: every piece the shipped game's but the two stand-ins (the Prince
/// without its `nn`, listed in its file).
#[test]
fn zanzibar_s_12x10_uses_the_shipped_movements() {
    let (shared, all) = shared_movements("zanzibar-s-12x10", "zanzibar-s", &[("KfmnnD", "KfmnD")]);
    assert_eq!(shared, all - 2, "all but the two stand-ins");
    assert_eq!(all, Variant::load("zanzibar-s").unwrap().pieces.len());
}

/// Tamerlane II on 11x10: its pieces but the Ship, the Eagle and the Prince (see its file).
#[test]
fn tamerlane2_11x10_uses_the_shipped_movements() {
    let (shared, all) = shared_movements("tamerlane2-11x10", "tamerlane2", &[]);
    assert_eq!(shared, all);
    assert_eq!(all + 3, Variant::load("tamerlane2").unwrap().pieces.len());
}

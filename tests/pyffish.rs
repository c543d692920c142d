//! Polymachy against Fairy-Stockfish through its Python module, pyffish: the FEN it writes
//! after random moves, in every shipped game it plays, reads back to the position Polymachy
//! reaches by the same moves (a round trip); and along random games of Makruk (its counting
//! rules), Shatranj and Courier chess (the bare King), the FEN and the verdict after every
//! move are pyffish's.
//!
//! Each test fails when `CI` is set and python3 with pyffish is missing; elsewhere it says so
//! and skips.

mod common;

use std::path::Path;
use std::process::Command;

use common::{
    ASEAN_ENDINGS, MAKRUK_ENDINGS, legal_names, play_coords, pos, pyffish_ok, random_game, rules,
};
use polymachy::game::{GameResult, Outcome, Termination};
use polymachy::moves::{Move, MoveKind, MoveList};
use polymachy::position::{Position, Ruleset};
use polymachy::selfplay::Rng;
use polymachy::text::coord;

/// Whether pyffish is there; when it is not, a failure under `CI` and a skip elsewhere.
fn have_pyffish() -> bool {
    common::need("python3 with pyffish (pip install pyffish)", pyffish_ok())
}

// ------------------------------------------------------------------- FENs read back (round trip)

/// A move as Fairy-Stockfish's UCI names it: the squares and a promotion letter. Polymachy's
/// suffixes (`ep`, `oo`) never arise in the games compared (no castling in the Wildebeest
/// ini); a move that has one is a test error.
fn uci(rs: &Ruleset, mv: Move) -> String {
    let g = rs.geometry;
    if let Some(k) = mv.dropped() {
        let s = format!("{}@{}", rs.variant.pieces[k].symbol, g.name(mv.to));
        assert_eq!(coord(rs, mv), s, "a drop Fairy-Stockfish names otherwise");
        return s;
    }
    let mut s = format!("{}{}", g.name(mv.from), g.name(mv.to));
    if let Some(k) = mv.promotion() {
        // Shogi's promotions (to a piece written `+X`) end in `+`.
        if rs.variant.pieces[k].demotes_to.is_some() {
            s.push('+');
        } else {
            s.push_str(&rs.variant.pieces[k].symbol.to_ascii_lowercase());
        }
    }
    assert_eq!(coord(rs, mv), s, "a move Fairy-Stockfish names otherwise");
    s
}

const GAMES: usize = 200;
const MAX_PLIES: usize = 80;

/// Plays `GAMES` random games (seeded, each of 1 to `MAX_PLIES` plies, shorter when a game
/// ends; every other one ends on a double or triple step where it can) from `start` in
/// Polymachy, has pyffish (`fsf_variant`, defined by `ini` under tests/engines when given)
/// check every move and write the FEN after each game's moves, and reads it back: the same
/// board, side, rights, clocks and legal moves as Polymachy's own position, and where
/// Fairy-Stockfish writes en-passant squares (only where a capture can land; `-` where none
/// can, while Polymachy writes every square passed) the very same position, hash included, or
/// in Wildebeest, after a triple step of which only the second square can be taken on, the
/// double step that passes that square.
#[expect(
    clippy::too_many_lines,
    reason = "the games, pyffish's FENs read back and the forms of the en-passant field counted, in one pass"
)]
fn round_trip(variant: &str, fsf_variant: &str, ini: Option<&str>, start: Option<&str>) {
    if !have_pyffish() {
        return;
    }
    let rs = rules(variant);
    let start = match start {
        Some(f) => Position::from_fen(&rs, f).unwrap(),
        None => Position::start(&rs),
    };
    let mut rng = Rng::new(0x5eed ^ variant.len() as u64);
    let mut games: Vec<(Vec<String>, Position)> = Vec::new();
    for _ in 0..GAMES {
        let mut pos = start.clone();
        let plies = 1 + rng.below(MAX_PLIES);
        let mut names = Vec::new();
        // Every other game ends, where it can, on a step that leaves en-passant squares.
        let ep_last = rng.below(2) == 0;
        for ply in 0..plies {
            let mut list = MoveList::new();
            pos.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            let mut moves = list.as_slice().to_vec();
            if ep_last && ply + 1 == plies && moves.iter().any(|m| m.kind == MoveKind::Double) {
                moves.retain(|m| m.kind == MoveKind::Double);
            }
            let mv = moves[rng.below(moves.len())];
            pos.make(mv);
            // A move that ends the game leaving its royal piece attacked (a pass in bikjang,
            // in check) leaves no position a FEN describes: the game stops before it.
            if polymachy::testing::ended_in_check(&pos) {
                pos.unmake();
                break;
            }
            names.push(uci(&rs, mv));
            // Nothing is played past the end of a game.
            if pos.final_ending().is_some() {
                break;
            }
        }
        if names.is_empty() {
            continue;
        }
        games.push((names, pos.snapshot()));
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines");
    let ini = ini.map_or("-".to_string(), |i| {
        dir.join(i).to_string_lossy().into_owned()
    });
    let mut input = start.fen() + "\n";
    for (names, _) in &games {
        input += &names.join(" ");
        input.push('\n');
    }
    let mut cmd = Command::new("python3");
    cmd.arg(dir.join("fsf_fens.py")).args([fsf_variant, &ini]);
    let out = common::run_command(cmd, &input);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let text = out.stdout;
    let mut lines = text.lines();
    // Fairy-Stockfish's start position reads to the one the games start from.
    let fsf_start = lines.next().unwrap();
    assert_eq!(
        Position::from_fen(&rs, fsf_start).unwrap(),
        start,
        "{fsf_start}"
    );
    let (mut passed, mut listed, mut partial, mut shorter, mut dash) = (0, 0, 0, 0, 0);
    let mut failures = Vec::new();
    for ((names, mut mine), line) in games.into_iter().zip(lines.by_ref()) {
        let moves = names.join(" ");
        let Some(fen) = line.strip_prefix("fen ") else {
            failures.push(format!("after `{moves}`: Fairy-Stockfish: {line}"));
            continue;
        };
        let mut read = match Position::from_fen(&rs, fen) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("`{fen}` (after `{moves}`): {e}"));
                continue;
            }
        };
        let field = fen.split_whitespace().nth(3).unwrap();
        let mine_fen = mine.fen();
        // Shogi (Minishogi too) has no move-count rule, and the two programs count its clock differently
        // (Fairy-Stockfish: plies since a capture or a drop; Polymachy: also since a move of
        // a piece that only moves forward, which no repetition can undo): left out there.
        let no_clock = matches!(variant, "shogi" | "minishogi");
        let without_ep = |f: &str| {
            let mut f: Vec<&str> = f.split_whitespace().collect();
            f[3] = "-";
            if no_clock {
                f[4] = "-";
            }
            f.join(" ")
        };
        let (theirs, ours) = (read.ep_squares().as_slice(), mine.ep_squares().as_slice());
        let same = without_ep(&read.fen()) == without_ep(&mine_fen)
            && if field == "-" {
                // Nothing to take on.
                dash += usize::from(!ours.is_empty());
                true
            } else if theirs == ours {
                // The field named the step Polymachy made: the very same position.
                listed += 1;
                let squares = field.chars().filter(char::is_ascii_lowercase).count();
                partial += usize::from(squares < ours.len());
                read == mine
            } else {
                // Only the square a triple step passed last can be taken on, and that is what
                // a double step to the same square passes: read as that step (see docs/variant-format.md).
                shorter += 1;
                theirs.iter().all(|s| ours.contains(s))
            };
        if !same {
            failures.push(format!(
                "`{fen}` read as `{}`, Polymachy has `{mine_fen}` after `{moves}`",
                read.fen()
            ));
            continue;
        }
        let (a, b) = (legal_names(&mut read), legal_names(&mut mine));
        if a != b {
            failures.push(format!(
                "`{fen}`: other legal moves than Polymachy's `{mine_fen}`: {:?} / {:?}",
                a.difference(&b).collect::<Vec<_>>(),
                b.difference(&a).collect::<Vec<_>>()
            ));
            continue;
        }
        passed += 1;
    }
    assert!(lines.next().is_none(), "{text}");
    eprintln!(
        "{variant}: {passed} positions read back; Fairy-Stockfish wrote the en-passant squares \
         of Polymachy's step in {listed} ({partial} with fewer squares than Polymachy), those of \
         a shorter step in {shorter}, `-` where Polymachy writes squares in {dash}"
    );
    assert!(
        failures.is_empty(),
        "{} of {GAMES} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(passed, GAMES, "{variant}: some games had no move");
}

#[test]
fn fairy_stockfish_fens_read_back_in_chess() {
    round_trip("chess", "chess", None, None);
}

#[test]
fn fairy_stockfish_fens_read_back_in_capablanca() {
    round_trip("capablanca", "capablanca", None, None);
}

#[test]
fn fairy_stockfish_fens_read_back_in_grand() {
    round_trip("grand", "grand", None, None);
}

#[test]
fn fairy_stockfish_fens_read_back_in_shako() {
    round_trip("shako", "shako", None, None);
}

#[test]
fn fairy_stockfish_fens_read_back_in_lions_and_unicorns() {
    round_trip(
        "lions-and-unicorns",
        "lions-and-unicorns",
        Some("fsf-lions-and-unicorns.ini"),
        None,
    );
}

#[test]
fn fairy_stockfish_fens_read_back_in_wildebeest() {
    // The ini has no castling (Fairy-Stockfish cannot give the King a choice of distances):
    // the games start without castling rights.
    round_trip(
        "wildebeest",
        "wildebeest",
        Some("fsf-wildebeest.ini"),
        Some("rnccwkqbbnr/ppppppppppp/11/11/11/11/11/11/PPPPPPPPPPP/RNBBQKWCCNR w - - 0 1"),
    );
}

#[test]
fn fairy_stockfish_fens_read_back_in_crazyhouse() {
    round_trip("crazyhouse", "crazyhouse", None, None);
}

/// Shogi: promoted pieces written `+X`, pieces in hand, drops (`P@e5`), promotions written
/// `+`; Fairy-Stockfish's start FEN is `... [-] w 0 1`. Every one of the 200 positions must
/// have the same legal moves as Fairy-Stockfish gives.
#[test]
fn fairy_stockfish_fens_read_back_in_shogi() {
    round_trip("shogi", "shogi", None, None);
}

#[test]
fn fairy_stockfish_fens_read_back_in_minishogi() {
    round_trip("minishogi", "minishogi", None, None);
}

#[test]
fn fairy_stockfish_fens_read_back_in_shatranj() {
    round_trip("shatranj", "shatranj", None, None);
}

#[test]
fn fairy_stockfish_fens_read_back_in_courier() {
    round_trip("courier", "courier", None, None);
}

#[test]
fn fairy_stockfish_fens_read_back_in_seirawan() {
    round_trip("seirawan", "seirawan", None, None);
}

// ------------------------------------------------------------ verdicts along random games

/// The verdict as a word: `-` while the game goes on, else `draw`, `white` or `black`.
fn word(o: Option<Outcome>) -> &'static str {
    match o.map(|o| o.result) {
        None => "-",
        Some(GameResult::Draw) => "draw",
        Some(GameResult::WhiteWins) => "white",
        Some(GameResult::BlackWins) => "black",
    }
}

/// Random games of `variant` (Fairy-Stockfish's `fsf`) from `starts` (`seeds` from each, up to 120 plies), each FEN and
/// verdict along them compared with pyffish's (`tests/engines/fsf_verdicts.py`); `ended` is
/// shown each position that has a verdict, with its outcome.
fn verdicts_agree(
    variant: &str,
    fsf: &str,
    starts: &[&str],
    seeds: u64,
    mut ended: impl FnMut(&Position, Outcome),
) {
    let rs = rules(variant);
    let mut games = Vec::new();
    for (i, fen) in starts.iter().enumerate() {
        for seed in 0..seeds {
            games.push((*fen, random_game(&rs, fen, 1000 * i as u64 + seed, 120)));
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
    .arg(fsf);
    let out = common::run_command(cmd, &input);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), games.len(), "{}", out.stdout);
    for ((fen, moves), line) in games.iter().zip(lines) {
        let theirs: Vec<&str> = line.split('|').collect();
        let mut p = pos(&rs, fen);
        for (n, t) in theirs.iter().enumerate() {
            let ours = format!("{}={}", p.fen(), word(p.verdict()));
            assert_eq!(&ours, t, "{variant} {fen} after {:?}", &moves[..n]);
            if let Some(o) = p.verdict() {
                ended(&p, o);
            }
            if let Some(m) = moves.get(n) {
                play_coords(&mut p, &[m]);
            }
        }
    }
}

/// ASEAN chess: its counts (a bare King's only, from zero) start, run and end as
/// Fairy-Stockfish's do, and its FENs read back.
#[test]
fn asean_counts_and_verdicts_agree_with_pyffish_on_random_games() {
    if !have_pyffish() {
        return;
    }
    let mut ended = [0; 2];
    verdicts_agree("asean", "asean", ASEAN_ENDINGS, 4, |_, o| {
        ended[(o.reason == Termination::Counting) as usize] += 1;
    });
    assert!(ended[1] > 0 && ended[0] > 0, "endings: {ended:?}");
    round_trip("asean", "asean", None, None);
}

/// Makruk: the counts start, run and end as Fairy-Stockfish's do.
#[test]
fn makruk_counts_and_verdicts_agree_with_pyffish_on_random_games() {
    if !have_pyffish() {
        return;
    }
    let mut ended = [0; 2];
    verdicts_agree("makruk", "makruk", MAKRUK_ENDINGS, 4, |_, o| {
        ended[(o.reason == Termination::Counting) as usize] += 1;
    });
    // The games reached endings, counts run out among them.
    assert!(ended[1] > 0 && ended[0] > 0, "endings: {ended:?}");
}

/// Shatranj endgames where random moves soon leave a side bare.
const SHATRANJ: &[&str] = &[
    "8/8/3k4/2q1r3/8/2RQ4/3K4/8 w - - 0 1",
    "8/8/2nk4/2q5/3P4/2RQ4/3K4/8 b - - 0 1",
    "8/3k4/3r4/8/8/3N4/3K1B2/8 w - - 0 1",
    "4k3/3p4/8/8/8/8/3R4/3NK3 w - - 0 1",
    "8/8/3kq3/8/8/3QK3/8/8 w - - 0 1",
];

/// Courier chess endgames where random moves soon leave a side bare.
const COURIER: &[&str] = &[
    "12/12/12/5k6/4m7/3w8/4B7/5K6 w - - 0 1",
    "12/12/5kw5/4e7/12/4WM6/5K6/12 b - - 0 1",
    "12/5k6/4b7/12/12/4N7/5KF5/12 w - - 0 1",
    "12/12/4mk6/12/12/6R5/5K6/12 w - - 0 1",
];

/// Shatranj and Courier chess: the bare King as Fairy-Stockfish rules it, the games ending
/// both ways, at once (the bared side to move, against two pieces) and after a move that did
/// not bare the other King in return (the bared side just moved).
#[test]
fn shatranj_and_courier_endings_agree_with_pyffish_on_random_games() {
    if !have_pyffish() {
        return;
    }
    for (variant, starts) in [("shatranj", SHATRANJ), ("courier", COURIER)] {
        let mut bare = [0; 2];
        verdicts_agree(variant, variant, starts, 6, |p, o| {
            if o.reason == Termination::Rule("Bare King") {
                let winner_moved = o.result != GameResult::win_for(p.side());
                bare[!winner_moved as usize] += 1;
            }
        });
        println!(
            "{variant}: bare King at once {}, unanswered {}",
            bare[0], bare[1]
        );
        assert!(bare[0] > 0 && bare[1] > 0, "{variant}: {bare:?}");
    }
    // And from the start positions, where games rarely end so soon: every FEN agrees.
    for variant in ["shatranj", "courier"] {
        let start = Position::start(&rules(variant)).fen();
        verdicts_agree(variant, variant, &[start.as_str()], 2, |_, _| {});
    }
}

/// King of the Hill positions where random moves soon bring a King to the centre.
const HILL: &[&str] = &[
    "4k3/8/8/8/8/4K3/8/8 w - - 0 1",
    "r3k2r/8/8/2q5/8/4K3/8/R6R w kq - 0 1",
    "rnbqkbnr/pppp1ppp/8/4p3/4P3/5K2/PPPP1PPP/RNBQ1BNR w kq - 2 3",
    "4k3/pp3ppp/8/8/8/8/PP3PPP/4K3 b - - 0 1",
];

/// King of the Hill: a King that reaches the centre wins at once, as Fairy-Stockfish rules it
/// (the goal-squares rule), and every FEN and verdict along the games agrees.
#[test]
fn king_of_the_hill_endings_agree_with_pyffish_on_random_games() {
    if !have_pyffish() {
        return;
    }
    let mut reached = [0; 2];
    verdicts_agree("kingofthehill", "kingofthehill", HILL, 6, |p, o| {
        if o.reason == Termination::Rule("Goal squares") {
            // The side that just moved won.
            assert_eq!(
                o.result,
                GameResult::win_for(p.side().flip()),
                "{}",
                p.fen()
            );
            reached[p.side().index()] += 1;
        }
    });
    println!(
        "kingofthehill: goals reached by White {}, by Black {}",
        reached[1], reached[0]
    );
    assert!(reached[0] > 0 && reached[1] > 0, "{reached:?}");
}

/// Janggi near its endings: Generals about to face each other, few pieces (passes in a row),
/// and the start position.
const JANGGI: &[&str] = &[
    "3k5/9/9/9/9/9/9/9/4R4/3K5 w - - 0 1",
    "4k4/4a4/9/9/9/9/9/4R4/3A5/3K5 w - - 0 1",
    "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
    "4c4/4k4/9/9/1C7/9/9/4K4/9/3r5 w - - 6 4",
    "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
];

/// Janggi (traditional rules): bikjang, passes in a row, repetitions and mates end the games
/// as Fairy-Stockfish's "janggitraditional" ends them, FEN for FEN; its FENs read back.
#[test]
fn janggi_endings_agree_with_pyffish_on_random_games() {
    if !have_pyffish() {
        return;
    }
    let mut by: std::collections::BTreeMap<String, u32> = Default::default();
    verdicts_agree("janggi", "janggitraditional", JANGGI, 6, |_, o| {
        *by.entry(format!("{:?}", o.reason)).or_default() += 1;
    });
    eprintln!("janggi endings: {by:?}");
    assert!(by.keys().any(|k| k.contains("Bikjang")), "{by:?}");
    assert!(by.keys().any(|k| k.contains("Passes")), "{by:?}");
    round_trip("janggi", "janggitraditional", None, None);
}

/// Sittuyin: the setup, promotions in place, ASEAN counts and endings along random games as
/// Fairy-Stockfish's "sittuyin" gives them, FEN for FEN; its FENs read back.
#[test]
fn sittuyin_agrees_with_pyffish_on_random_games() {
    if !have_pyffish() {
        return;
    }
    let start = rules("sittuyin");
    let start = Position::start(&start).fen();
    verdicts_agree("sittuyin", "sittuyin", &[start.as_str()], 8, |_, _| {});
    round_trip("sittuyin", "sittuyin", None, None);
}

//! The `[eval]` table of a variant file and `polymachy tune`.

mod common;

use polymachy::position::{Position, Ruleset};
use polymachy::search::Evaluator;
use polymachy::variant::{Term, Variant};

fn chess_with(extra: &str) -> String {
    let base = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/variants/chess.toml"))
        .unwrap();
    // The shipped file's own `[eval]` table (its last) is left out, so that the tests can add
    // theirs.
    let base = &base[..base.find("\n[eval]").unwrap_or(base.len())];
    format!("{base}\n{extra}\n")
}

/// The error of chess with `extra` added to its file.
fn chess_error(extra: &str) -> String {
    Variant::from_toml(&chess_with(extra), "c.toml")
        .unwrap_err()
        .to_string()
}

/// A temporary folder of this file's, removed when dropped.
fn temp_dir(name: &str) -> common::TempDir {
    common::TempDir::new(&format!("tune-{name}"))
}

#[test]
fn eval_values_replace_the_piece_values() {
    let v = Variant::from_toml(
        &chess_with("[eval]\nmobility = [4, 2]\n[eval.values]\nN = [350, 250]\nQ = 1000\n"),
        "chess.toml",
    )
    .unwrap();
    let t = v.eval.clone().expect("an [eval] table");
    let n = v.kind_by_letter('N').unwrap();
    let q = v.kind_by_letter('Q').unwrap();
    assert_eq!(t.values[n], Some((350, 250)));
    assert_eq!(t.values[q], Some((1000, 1000)));
    assert_eq!(t.term(Term::Mobility), Some((4, 2)));
    let rs = Ruleset::new(&v, None).unwrap();
    let e = Evaluator::new(&rs);
    assert_eq!(e.values[n], 300);
    assert_eq!(e.values[q], 1000);
    // The rook keeps the file's value.
    assert_eq!(e.values[v.kind_by_letter('R').unwrap()], 500);
}

#[test]
fn an_included_table_fills_what_the_file_leaves_out() {
    let d = temp_dir("include");
    std::fs::write(
        d.join("tuned.eval.toml"),
        "[eval]\nmobility = [5, 5]\n[eval.values]\nN = [310, 290]\nB = [330, 340]\n",
    )
    .unwrap();
    let path = d.join("mychess.toml");
    std::fs::write(
        &path,
        chess_with("[eval]\ninclude = \"tuned.eval.toml\"\n[eval.values]\nB = 333\n"),
    )
    .unwrap();
    let v = Variant::load(path.to_str().unwrap()).unwrap();
    let t = v.eval.clone().unwrap();
    assert_eq!(t.values[v.kind_by_letter('N').unwrap()], Some((310, 290)));
    assert_eq!(t.values[v.kind_by_letter('B').unwrap()], Some((333, 333)));
    assert_eq!(t.term(Term::Mobility), Some((5, 5)));
    // A missing include and a bad letter are precise errors.
    std::fs::remove_file(d.join("tuned.eval.toml")).unwrap();
    let e = Variant::load(path.to_str().unwrap())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("tuned.eval.toml") && e.contains("cannot read"),
        "{e}"
    );
    // Reported at the `include` key of the variant file (line, column).
    let at = format!("{}:", path.display());
    assert!(
        e.split(&at)
            .nth(1)
            .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit())),
        "{e}"
    );
    let e = chess_error("[eval.values]\nX = 3\n");
    assert!(e.contains("`X` is not a piece letter"), "{e}");
    let e = chess_error("[eval.values]\nN = \"a lot\"\n");
    assert!(e.contains("eval.values.N"), "{e}");
}

/// `polymachy tune` on a PGN file of games that Black always wins although it gave both its
/// knights away: the fitted table lowers the knight, and a variant file can include it.
#[test]
fn tune_reads_games_and_writes_an_includable_table() {
    let d = temp_dir("cli");
    // Black gives its knights away in each game and yet wins (results as given).
    let game = "[Event \"t\"]\n[Variant \"chess\"]\n[Result \"0-1\"]\n\n\
        1. e4 Nf6 2. e5 Ng8 3. Nf3 Nc6 4. d4 Nb8 5. d5 Nc6 6. dxc6 Nf6 7. exf6 a6 8. Bd3 a5 \
        9. O-O a4 10. Re1 a3 11. b3 h6 12. Bb2 h5 13. Nc3 h4 14. Qd2 h3 15. g3 b6 16. Rad1 b5 \
        17. Ne4 b4 18. Nc5 e6 19. Qe2 Bd6 20. Nxe6 0-1\n\n";
    let pgn = game.repeat(30);
    std::fs::write(d.join("games.pgn"), pgn).unwrap();
    let out = d.join("chess.eval.toml");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_polymachy"))
        .args(["tune", "-v", "chess", "--iterations", "50", "--pgn"])
        .arg(d.join("games.pgn"))
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(stdout.contains("30 games read"), "{stdout}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("[eval.values]"), "{text}");
    // Every term was fitted and is written.
    for t in Term::ALL {
        assert!(text.contains(&format!("\n{} = [", t.name())), "{text}");
    }
    // Only the terms named: the piece values stay those of the variant's own table and are
    // written with them, so that the table replaces it.
    let only = d.join("only.eval.toml");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_polymachy"))
        .args(["tune", "-v", "chess", "--iterations", "50", "--terms-only"])
        .args(["--terms", "doubled,isolated", "--pgn"])
        .arg(d.join("games.pgn"))
        .arg("-o")
        .arg(&only)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let only_text = std::fs::read_to_string(&only).unwrap();
    assert!(
        only_text.contains("\ndoubled = [") && only_text.contains("\nisolated = ["),
        "{only_text}"
    );
    let shipped = Variant::load("chess").unwrap();
    let n = shipped.kind_by_letter('N').unwrap();
    let table = shipped.eval.unwrap();
    let shipped_n = table.values[n].unwrap();
    let (mg, eg) = shipped_n;
    assert!(
        only_text.contains(&format!("N = [{mg}, {eg}]")),
        "{only_text}"
    );
    // A term not named keeps the weight of the variant's own table where that sets one (the
    // written table replaces it), and is not written where it does not.
    match table.terms[Term::Threat as usize] {
        Some((mg, eg)) => assert!(
            only_text.contains(&format!("\nthreat = [{mg}, {eg}]")),
            "{only_text}"
        ),
        None => assert!(!only_text.contains("\nthreat = ["), "{only_text}"),
    }
    // A name that is no term is refused, with the names.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_polymachy"))
        .args(["tune", "-v", "chess", "--terms", "tempo", "--pgn"])
        .arg(d.join("games.pgn"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success() && err.contains("`tempo` is not an evaluation term"),
        "{err}"
    );
    let path = d.join("c.toml");
    std::fs::write(&path, chess_with("[eval]\ninclude = \"chess.eval.toml\"\n")).unwrap();
    let v = Variant::load(path.to_str().unwrap()).unwrap();
    let n = v.kind_by_letter('N').unwrap();
    let (mg, eg) = v.eval.unwrap().values[n].unwrap();
    // Games in which the side that gives its knights away wins teach a cheaper Knight.
    assert!(
        mg < shipped_n.0 && eg < shipped_n.1,
        "knight {mg} {eg}, shipped {shipped_n:?}\n{text}"
    );
}

/// Every shipped game with a fitted table `variants/V.eval.toml` includes it from `V.toml`
/// and plays with it, built in and also when a copy of the game is read from a folder that
/// holds the table. Each table is built in.
#[test]
fn shipped_games_play_with_their_fitted_tables() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/variants/");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let n = e.unwrap().file_name().to_string_lossy().to_string();
            n.strip_suffix(".eval.toml").map(str::to_string)
        })
        .collect();
    names.sort();
    assert!(
        names.iter().any(|n| n == "metamachy") && names.iter().any(|n| n == "shako"),
        "{names:?}"
    );
    let built_in: Vec<&str> = polymachy::variant::BUILTIN_EVAL
        .iter()
        .map(|t| t.0)
        .collect();
    assert_eq!(
        built_in.len(),
        names.len(),
        "{built_in:?} against {names:?}"
    );
    for name in &names {
        let file = format!("{name}.eval.toml");
        assert!(built_in.contains(&file.as_str()), "{file} is not built in");
        let table_text = std::fs::read_to_string(format!("{dir}{file}")).unwrap();
        let table: toml::Table = toml::from_str(&table_text).unwrap();
        let fitted = table["eval"]["values"].as_table().unwrap();
        // The table values every piece that is neither royal nor promotes (the unit).
        let v = Variant::load(name).unwrap();
        let mut free: Vec<String> = v
            .pieces
            .iter()
            .filter(|p| !p.royal && p.promotes_to.is_empty())
            .map(|p| p.symbol.clone())
            .collect();
        free.sort();
        let mut named: Vec<String> = fitted.keys().cloned().collect();
        named.sort();
        assert_eq!(named, free, "{name}: {table_text}");
        let d = temp_dir(name);
        std::fs::write(d.join(&file), &table_text).unwrap();
        let text = std::fs::read_to_string(format!("{dir}{name}.toml")).unwrap();
        assert!(text.contains(&format!("include = \"{file}\"")), "{name}");
        let path = d.join("copy.toml");
        std::fs::write(&path, &text).unwrap();
        for v in [
            Variant::load(name).unwrap(),
            Variant::load(path.to_str().unwrap()).unwrap(),
        ] {
            let t = v.eval.clone().expect("an [eval] table");
            for (letter, pair) in fitted {
                let k = v.kind_by_letter(letter.chars().next().unwrap()).unwrap();
                let pair = pair.as_array().unwrap();
                let want = (
                    pair[0].as_integer().unwrap() as i32,
                    pair[1].as_integer().unwrap() as i32,
                );
                assert_eq!(t.values[k], Some(want), "{name}: {letter}");
            }
            // The pieces that promote are the unit of the fit and keep the file's value (a
            // game where none promotes, such as Xiangqi, has no unit: every piece is fitted).
            for p in v.pieces.iter().filter(|p| !p.promotes_to.is_empty()) {
                let k = v.kind_by_letter(p.symbol.chars().next().unwrap()).unwrap();
                assert_eq!(t.values[k], None, "{name}: {}", p.symbol);
            }
        }
    }
}

/// Runs the binary in `d` and returns its output; it must succeed.
fn run_in(d: &std::path::Path, args: &[&str]) -> String {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_polymachy"))
        .args(args)
        .current_dir(d)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        o.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    stdout
}

/// The self-play run and the read-back run fitted the same number of positions (the fit's
/// summary line begins with it: "N positions, K = ...").
fn assert_same_positions(played: &str, read: &str) {
    let positions = |s: &str| {
        s.lines()
            .find_map(|l| l.split_once(" positions,"))
            .map(|(n, _)| n.to_string())
    };
    assert!(positions(played).is_some(), "{played}");
    assert_eq!(positions(played), positions(read), "{played}\n{read}");
}

/// Self-play games cut at the ply limit are counted as draws by the fit and saved as
/// adjudicated draws, so that reading the saved games back fits the same positions.
#[test]
fn saved_self_play_games_read_back_with_their_results() {
    let d = temp_dir("save");
    let run = |args: &[&str]| run_in(&d, args);
    // 30 plies cannot finish a game of chess between equal engines from the start.
    let played = run(&[
        "tune",
        "-v",
        "chess",
        "--games",
        "3",
        "--nodes",
        "200",
        "--max-plies",
        "30",
        "--adjudicate",
        "0",
        "--iterations",
        "5",
        "--save-games",
        "g.pgn",
        "-o",
        "a.toml",
    ]);
    let pgn = std::fs::read_to_string(d.join("g.pgn")).unwrap();
    assert_eq!(pgn.matches("[Result \"1/2-1/2\"]").count(), 3, "{pgn}");
    assert_eq!(
        pgn.matches("[Termination \"adjudication\"]").count(),
        3,
        "{pgn}"
    );
    let read = run(&[
        "tune",
        "-v",
        "chess",
        "--pgn",
        "g.pgn",
        "--iterations",
        "5",
        "-o",
        "b.toml",
    ]);
    assert!(read.contains("3 games read"), "{read}");
    assert_same_positions(&played, &read);
}

/// Self-play games are the same whether they are played one at a time or two at once, and
/// are handed on in the order of the games.
#[test]
fn self_play_games_do_not_depend_on_the_number_of_jobs() {
    let d = temp_dir("jobs");
    let mut pgns = Vec::new();
    for jobs in ["1", "2"] {
        let file = format!("g{jobs}.pgn");
        let out = run_in(
            &d,
            &[
                "tune",
                "-v",
                "chess",
                "--games",
                "5",
                "--nodes",
                "300",
                "--max-plies",
                "40",
                "--iterations",
                "5",
                "--jobs",
                jobs,
                "--save-games",
                &file,
                "-o",
                "t.toml",
            ],
        );
        assert!(out.contains(&format!("{jobs} at a time")), "{out}");
        pgns.push(std::fs::read_to_string(d.join(&file)).unwrap());
    }
    assert_eq!(pgns[0].matches("[Event ").count(), 5, "{}", pgns[0]);
    assert_eq!(pgns[0], pgns[1]);
}

/// A game whose searches give one side a decisive lead ply after ply is adjudicated won for
/// that side, saved with that result, and read back with it; without adjudication the same
/// games run on to the ply limit.
#[test]
fn self_play_adjudicates_decided_games() {
    let d = temp_dir("adjudicate");
    // Black starts with its King and Pawns only.
    let text = chess_with("").replace(
        "start = \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\"",
        "start = \"4k3/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\"",
    );
    assert!(text.contains("4k3/pppppppp"));
    std::fs::write(d.join("odds.toml"), text).unwrap();
    let common = [
        "tune",
        "-v",
        "odds.toml",
        "--games",
        "3",
        "--nodes",
        "300",
        "--iterations",
        "5",
    ];
    let mut args = common.to_vec();
    args.extend([
        "--max-plies",
        "200",
        "--adjudicate",
        "800",
        "--save-games",
        "won.pgn",
    ]);
    args.extend(["-o", "a.toml"]);
    let out = run_in(&d, &args);
    let pgn = std::fs::read_to_string(d.join("won.pgn")).unwrap();
    assert_eq!(pgn.matches("[Result \"1-0\"]").count(), 3, "{out}\n{pgn}");
    assert_eq!(
        pgn.matches("[Termination \"adjudication\"]").count(),
        3,
        "{pgn}"
    );
    // Adjudicated after 8 searches in a row: long before a mate on the board.
    for line in out.lines().filter(|l| l.starts_with("game ")) {
        let plies: u32 = line.split_whitespace().nth(2).unwrap().parse().unwrap();
        assert!((16..40).contains(&plies), "{line}");
        assert!(line.ends_with("1-0 (adjudicated)"), "{line}");
    }
    let read = run_in(
        &d,
        &[
            "tune",
            "-v",
            "odds.toml",
            "--pgn",
            "won.pgn",
            "--iterations",
            "5",
            "-o",
            "b.toml",
        ],
    );
    assert!(read.contains("3 games read"), "{read}");
    let mut args = common.to_vec();
    args.extend(["--max-plies", "20", "--adjudicate", "0", "-o", "c.toml"]);
    let cut = run_in(&d, &args);
    assert_eq!(
        cut.matches("20 plies, 1/2-1/2 (adjudicated)").count(),
        3,
        "{cut}"
    );
}

/// Handicap self-play starts each game from its opening less one fitted piece a side (saved
/// with that position), reads back to the same positions, and `--lambda auto` reports the
/// held-out error of each prior weight it tried and the one it chose.
#[test]
fn handicap_games_read_back_and_auto_chooses_a_prior() {
    let d = temp_dir("handicap");
    let played = run_in(
        &d,
        &[
            "tune",
            "-v",
            "chess",
            "--games",
            "4",
            "--nodes",
            "200",
            "--max-plies",
            "40",
            "--handicap",
            "--lambda",
            "auto",
            "--iterations",
            "5",
            "--save-games",
            "h.pgn",
            "-o",
            "a.toml",
        ],
    );
    assert!(played.contains("then a piece off each side"), "{played}");
    assert_eq!(played.matches("(chosen)").count(), 1, "{played}");
    assert!(
        played.contains("prior 0.0001 ") && played.contains("prior 0.1 "),
        "{played}"
    );
    let pgn = std::fs::read_to_string(d.join("h.pgn")).unwrap();
    // Each game starts from a FEN with at most 15 men a side (one fitted piece taken off, and
    // perhaps some captured in the random opening).
    let fens: Vec<&str> = pgn
        .lines()
        .filter_map(|l| l.strip_prefix("[FEN \""))
        .collect();
    assert_eq!(fens.len(), 4, "{pgn}");
    for f in &fens {
        let board = f.split(' ').next().unwrap();
        for upper in [true, false] {
            let men = board
                .chars()
                .filter(|c| c.is_ascii_alphabetic() && c.is_ascii_uppercase() == upper)
                .count();
            assert!(men <= 15, "{f}");
        }
    }
    let read = run_in(
        &d,
        &[
            "tune",
            "-v",
            "chess",
            "--pgn",
            "h.pgn",
            "--iterations",
            "5",
            "-o",
            "b.toml",
        ],
    );
    assert_same_positions(&played, &read);
    // A weight that is neither a number of 0 or more nor `auto` is refused, with the reason.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_polymachy"))
        .args(["tune", "-v", "chess", "--pgn", "h.pgn", "--lambda", "-1"])
        .current_dir(&d)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("or `auto`"), "{err}");
}

/// `[eval.terms]` sets the positional terms' weights by name (one value for both halves, or
/// a pair); a name that is no term is an error that lists the terms.
#[test]
fn eval_terms_are_read_by_name() {
    let v = Variant::from_toml(
        &chess_with("[eval.terms]\nthreat = [40, 20]\ndoubled = -15\nking-danger = [12, 3]\n"),
        "chess.toml",
    )
    .unwrap();
    let t = v.eval.clone().unwrap();
    assert_eq!(t.term(Term::Threat), Some((40, 20)));
    assert_eq!(t.term(Term::Doubled), Some((-15, -15)));
    assert_eq!(t.term(Term::KingDanger), Some((12, 3)));
    assert_eq!(t.term(Term::Passed), None);
    let e = chess_error("[eval.terms]\ntempo = 10\n");
    assert!(
        e.contains("`tempo` is not an evaluation term") && e.contains("king-danger"),
        "{e}"
    );
    let e = chess_error("[eval.terms]\nthreat = [1, 2, 3]\n");
    assert!(e.contains("eval.terms.threat"), "{e}");
}

/// What `tune` fits rests on the evaluation's trace: for each term, raising its weight by
/// (dm, de) must move the evaluation of a position by dm times the term's middlegame feature
/// blended with de times its endgame feature (White minus Black), up to rounding. Random
/// positions of chess, Metamachy and Shako, every term, with the structure terms (off by
/// default) switched on.
#[test]
fn each_term_moves_the_evaluation_by_its_traced_feature() {
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed as u32
    };
    let mut checked = [0usize; Term::COUNT];
    for name in ["chess", "metamachy", "shako"] {
        let base = Variant::load(name).unwrap();
        let rules0 = Ruleset::new(&base, None).unwrap();
        let ev0 = Evaluator::new(&rules0);
        for term in Term::ALL {
            let w0 = ev0.weight(term);
            let (dm, de) = if term == Term::Passed {
                (40, 70)
            } else {
                (7, 11)
            };
            let mut v = base.clone();
            let mut table = v.eval.clone().unwrap_or_default();
            table.terms[term as usize] = Some((w0.0 + dm, w0.1 + de));
            v.eval = Some(table);
            let rules1 = Ruleset::new(&v, None).unwrap();
            let ev1 = Evaluator::new(&rules1);
            for _ in 0..12 {
                let choices: Vec<u32> = (0..10 + next() % 60).map(|_| next()).collect();
                let pos = polymachy::testing::play_choices(&rules0, &choices);
                let white = |e: i32| {
                    if pos.side() == polymachy::geometry::Color::White {
                        e
                    } else {
                        -e
                    }
                };
                let (e0, tr) = ev0.trace(&pos);
                let pos1 = Position::from_fen(&rules1, &pos.fen()).unwrap();
                let e1 = ev1.evaluate(&pos1);
                let phase = ev0.phase(&pos) as f64 / 256.0;
                let f = |i: usize| tr.features[i][term as usize];
                let (fm, fe) = (f(0).0 - f(1).0, f(0).1 - f(1).1);
                let want = dm as f64 * fm * phase + de as f64 * fe * (1.0 - phase);
                let got = (white(e1) - white(e0)) as f64;
                // Rounding: per piece where the weight enters a square table or a division.
                let men = pos
                    .occupied(polymachy::geometry::Color::White)
                    .iter()
                    .count()
                    + pos
                        .occupied(polymachy::geometry::Color::Black)
                        .iter()
                        .count();
                let slack = 2.0 + men as f64 * 0.5;
                // Leave out positions the evaluation scales down (a side without pawn-like
                // pieces) or where King danger reaches its cap.
                let scaled = (white(e0) - 12).abs() > 2500
                    || tr
                        .danger
                        .iter()
                        .any(|&d| d as f64 * d as f64 * 40.0 / 256.0 >= 600.0);
                if scaled {
                    continue;
                }
                assert!(
                    (got - want).abs() <= slack,
                    "{name}, {}: {} -> {} moved {got}, the trace says {want} ({fm}, {fe}, \
                     phase {phase})\n{}",
                    term.name(),
                    e0,
                    e1,
                    pos.fen()
                );
                if want.abs() > 0.5 {
                    checked[term as usize] += 1;
                }
            }
        }
    }
    // Every term moved some evaluation (a feature that stays 0 would pass the check above).
    for t in Term::ALL {
        assert!(checked[t as usize] > 0, "{} never moved", t.name());
    }
}

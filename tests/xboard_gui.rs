//! Real XBoard (4.9, run headless under `xvfb-run`) plays short matches with Polymachy as
//! both engines, and the tests read XBoard's own PGN and debug output: no forfeit, no
//! illegal-move claim, no move altered between the engines, every game finished by the rules.
//!
//! The command line is the one `docs/protocols.md` gives. A depth limit (`-depth 3`) keeps the games
//! quick and independent of the machine's speed. XBoard's legality test is on in every game
//! it can judge: Perfect 12, Lions and Unicorns, Shako, and its own chess, Capablanca, Grand,
//! Xiangqi, Makruk, Crazyhouse and Shogi; not in Metamachy (the king leap's conditions and the
//! Prince's promotion are beyond XBoard's `piece` descriptions).
//!
//! Scripted games (`tests/engines/scripted-cecp.sh` on both sides) make sure the moves a game
//! between engines may never meet are met: every piece kind, castling on both wings, en
//! passant (in Perfect 12 by a Pawn in its own half, written in two legs).
//!
//! Two tests put Fairy-Max 5.0b against Polymachy: Lions and Unicorns and
//! Metamachy, both with the legality test off (see `docs/protocols.md`).
//!
//! Without `xboard` or `xvfb-run` (or `fairymax` where needed) the tests fail under `CI` and
//! skip elsewhere.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

const BIN: &str = env!("CARGO_BIN_EXE_polymachy");

fn programs() -> Option<(PathBuf, PathBuf)> {
    match (
        common::find_program(&["xvfb-run"]),
        common::find_program(&["xboard"]),
    ) {
        (Some(x), Some(b)) => Some((x, b)),
        _ => {
            common::missing("xboard or xvfb-run");
            None
        }
    }
}

/// What one XBoard match left behind.
struct XbMatch {
    stdout: String,
    debug: String,
    pgn: String,
}

fn xboard_match(
    variant: &str,
    first: &str,
    second: &str,
    legality: bool,
    games: u32,
    extra: &[&str],
) -> Option<XbMatch> {
    let (xvfb, xboard) = programs()?;
    let dir = common::TempDir::new(&format!("xboard-{variant}-{}", first.len() + second.len()));
    let debug = dir.join("debug.txt");
    let pgn = dir.join("games.pgn");
    let games = games.to_string();
    let out = Command::new(xvfb)
        .arg("-a")
        .arg(xboard)
        .args(["-noGUI", "-fcp", first, "-scp", second, "-variant", variant])
        .args(["-mg", &games, "-tc", "5", "-depth", "3", "-xponder"])
        .arg(if legality { "-testLegality" } else { "-xlegal" })
        .args(if legality { &["true"][..] } else { &[][..] })
        .args(["-debug", "-nameOfDebugFile"])
        .arg(&debug)
        .arg("-saveGameFile")
        .arg(&pgn)
        .args(["-popupExitMessage", "false", "-soundProgram", "/bin/true"])
        .args(["-saveSettingsOnExit", "false", "-settingsFile", "/dev/null"])
        .args(extra)
        .current_dir(&dir.0)
        .output()
        .expect("xvfb-run runs");
    let read = |p: &Path| std::fs::read_to_string(p).unwrap_or_default();
    Some(XbMatch {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr),
        debug: read(&debug),
        pgn: read(&pgn),
    })
}

/// No forfeit, no illegal-move claim, no error told to the user, in XBoard's debug output.
fn no_claims(m: &XbMatch) {
    let ctx = || format!("XBoard said:\n{}\nPGN:\n{}", tail(&m.stdout), m.pgn);
    assert!(m.stdout.contains("final score"), "{}", ctx());
    for bad in [
        "forfeit",
        "Forfeit",
        "False ",
        "Illegal move",
        "illegal-move",
    ] {
        let hits: Vec<&str> = m
            .debug
            .lines()
            .filter(|l| l.contains(bad))
            .take(3)
            .collect();
        assert!(
            hits.is_empty(),
            "`{bad}` in XBoard's debug output: {hits:?}"
        );
    }
    assert!(!m.debug.contains("tellusererror"), "{}", ctx());
}

/// The checks every match must pass; returns the number of moves compared.
fn check(m: &XbMatch, variant: &str, games: usize) -> usize {
    let ctx = || format!("XBoard said:\n{}\nPGN:\n{}", tail(&m.stdout), m.pgn);
    no_claims(m);
    // Each game in the PGN, finished by the rules.
    let blocks: Vec<&str> = m.pgn.split("[Event ").skip(1).collect();
    assert_eq!(blocks.len(), games, "{}", ctx());
    for b in &blocks {
        assert!(
            b.contains(&format!("[Variant \"{variant}\"]")) || variant == "normal",
            "{b}"
        );
        let end = b.trim_end().lines().last().unwrap_or("");
        let by_rules = [
            "Checkmate",
            "Stalemate",
            "repetition",
            "move-count rule",
            "50-move",
            "Xboard adjudication: Checkmate",
            // Both engines offered a draw: a rule XBoard does not judge (Makruk's counting)
            // drew the game (Polymachy offers only then; see `docs/protocols.md`).
            "Draw agreed",
            // Fairy-Max's claim of a mate, which XBoard passes on with its legality test off.
            "White mates}",
            "Black mates}",
        ];
        assert!(
            (end.ends_with("1-0") || end.ends_with("0-1") || end.ends_with("1/2-1/2"))
                && by_rules.iter().any(|r| b.contains(r)),
            "a game not finished by the rules: {end}\n{b}"
        );
    }
    let compared = compare_moves(m);
    assert!(
        compared >= 10,
        "only {compared} moves passed between engines\n{}",
        ctx()
    );
    compared
}

/// Every move an engine sent reached the other engine unchanged (XBoard alters nothing);
/// returns the number of moves compared.
fn compare_moves(m: &XbMatch) -> usize {
    let mut pending: [std::collections::VecDeque<String>; 2] = Default::default();
    let mut compared = 0;
    for l in m.debug.lines() {
        let l = l.split_once(' ').map_or(l, |x| x.1);
        let (who, rest) = if let Some(r) = l.strip_prefix("<first : ") {
            (0, ("<", r))
        } else if let Some(r) = l.strip_prefix("<second: ") {
            (1, ("<", r))
        } else if let Some(r) = l.strip_prefix(">first : ") {
            (0, (">", r))
        } else if let Some(r) = l.strip_prefix(">second: ") {
            (1, (">", r))
        } else {
            continue;
        };
        match rest {
            ("<", r) if r.starts_with("move ") => {
                pending[1 - who].push_back(r["move ".len()..].trim().to_string());
            }
            (">", r) if r.starts_with("usermove ") => {
                // XBoard logs `usermove ` and the move as two writes: the move is the last word.
                let got = r.split_whitespace().last().unwrap_or("").to_string();
                let sent = pending[who].pop_front();
                assert_eq!(
                    sent.as_deref(),
                    Some(got.as_str()),
                    "XBoard passed on a move altered"
                );
                compared += 1;
            }
            // An engine without `usermove=1` (Fairy-Max) gets the bare move.
            (">", r) if is_move(r) => {
                let sent = pending[who].pop_front();
                assert_eq!(
                    sent.as_deref(),
                    Some(r.trim()),
                    "XBoard passed on a move altered"
                );
                compared += 1;
            }
            (">", r) if r.starts_with("new") => pending[who].clear(),
            _ => {}
        }
    }
    compared
}

/// Whether `s` is a move in coordinate notation (`e2e4`, `a7a8q`), not an `edit`-mode line.
fn is_move(s: &str) -> bool {
    let b = s.trim().as_bytes();
    let mut i = 0;
    for _ in 0..2 {
        if i >= b.len() || !b[i].is_ascii_lowercase() {
            return false;
        }
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    i == b.len() || (i + 1 == b.len() && b[i].is_ascii_lowercase())
}

fn tail(s: &str) -> String {
    let lines: Vec<&str> = s
        .lines()
        .filter(|l| !l.starts_with("ALSA") && !l.starts_with("aplay"))
        .collect();
    lines[lines.len().saturating_sub(20)..].join("\n")
}

fn polymachy_both_sides(variant: &str, legality: bool) {
    let me = format!("{BIN} xboard");
    let Some(m) = xboard_match(variant, &me, &me, legality, 2, &[]) else {
        return;
    };
    check(&m, variant, 2);
}

/// A fixed game of `variant`, `moves` as XBoard writes them, played through XBoard with its
/// legality test on by `tests/engines/scripted-cecp.sh` on both sides (the first describes the
/// variant with Polymachy's own `setup` and `piece` lines). Asserted: XBoard refused none of
/// them, passed each on unchanged, and the game ran to its end (the side to move then
/// resigns); the moves are made by every kind of piece the variant has (`letters`, as
/// XBoard's PGN writes them: a pawn's moves start with its file).
fn scripted_game(variant: &str, moves: &str, letters: &str) {
    let dir = common::TempDir::new(&format!("scripted-{variant}"));
    let file = dir.join("moves.txt");
    std::fs::write(&file, moves).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/scripted-cecp.sh");
    let cmd = format!("sh {} {BIN} {}", script.display(), file.display());
    let Some(m) = xboard_match(variant, &cmd, &cmd, true, 1, &[]) else {
        return;
    };
    let ctx = || format!("XBoard said:\n{}\nPGN:\n{}", tail(&m.stdout), m.pgn);
    no_claims(&m);
    let plies = moves.split_whitespace().count();
    assert_eq!(compare_moves(&m), plies, "{}", ctx());
    assert!(m.pgn.contains("resigns}"), "{}", ctx());
    // The pieces that moved, from the PGN's move text (XBoard's SAN).
    let text: String = m
        .pgn
        .lines()
        .skip_while(|l| !l.starts_with("1. "))
        .collect::<Vec<_>>()
        .join(" ");
    let mut moved: Vec<char> = text
        .split_whitespace()
        .filter(|t| !t.ends_with('.') && !t.starts_with('{') && !t.ends_with('}'))
        .filter_map(|t| t.chars().next())
        .filter(|c| c.is_ascii_alphabetic())
        .map(|c| if c.is_ascii_lowercase() { 'P' } else { c })
        .collect();
    moved.sort_unstable();
    moved.dedup();
    let mut want: Vec<char> = letters.chars().collect();
    want.sort_unstable();
    assert_eq!(moved, want, "{}", ctx());
}

/// Perfect 12, scripted: every piece kind moves; White castles queenside (`f2c2`, the King
/// three squares toward the Rook next to the corner Elephant, `KjO3`) and Black kingside;
/// a Pawn double-steps from its third rank (`b8b6`) and is taken en passant by a Pawn in its
/// own half, written in two legs (`a6b6,b6b7`); Black's Camel then lands on the square the
/// victim left (`c9b6`: refused if XBoard had left the victim there); the Gryphon bends
/// (`g1e2`), the Cannon captures over a screen (`l1l10`).
#[test]
fn xboard_perfect12_scripted_with_legality_test() {
    scripted_game(
        "perfect12",
        "c2d4 j11i9 e3e4 h10h9 d2f4 i11h10 e2e3 g10g8 f2c2 g11g9 g1e2 h11g10 f1f2 f11i11 \
         b1c4 b12c9 l2j4 l11j9 a1b1 a12b12 g3g5 e10e9 g2g4 e11e10 j2i4 c11d9 k2j2 h11g11 \
         a3a5 b10b8 a5a6 b8b6 a6b6,b6b7 a10a9 l1l10 f10f9 h3h4 c9b6",
        "PIKNBRMECLGQ",
    );
}

/// Lions and Unicorns, scripted: White castles kingside (`f1h1`, Rook `i1g1`, next to the
/// corner Lion: `KjO2`), Black queenside; an en-passant capture (`b5c6`); every piece kind
/// moves, the Unicorn with a knight's leap.
#[test]
fn xboard_lions_and_unicorns_scripted_with_legality_test() {
    scripted_game(
        "lions-and-unicorns",
        "h2h3 d7d5 g1h2 e7e6 h1g3 d8e7 f1h1 e8d7 a2c3 c8d6 a1a3 f8d8 b2b4 i7i6 b4b5 c7c5 \
         b5c6 a8a6 g1f1 h8g6 e2e3 e8f8",
        "PNLBRCUQK",
    );
}

/// Shako, scripted, in XBoard's rank numbering (from 0 on a ten-rank board): the Kings castle
/// on their second rank (`f1h1`, Polymachy's `f2h2`; Rooks next to the corner Elephants);
/// an en-passant capture (`e5f6`); every piece kind moves.
#[test]
fn xboard_shako_scripted_with_legality_test() {
    scripted_game(
        "shako",
        "h1i3 c8b6 h2h3 d7d5 g1h2 e7e6 f1h1 d8e7 a0b0 e8d7 a1c3 f8d8 e2e4 j9i9 e4e5 f7f5 \
         e5f6 e8f8 e1f1 a8c6",
        "PNEBCRQK",
    );
}

/// The games XBoard plays by its own rules (it ignores the engine's `piece` lines there), one
/// game each with its legality test on.
#[test]
fn xboard_own_variants_with_legality_test() {
    let me = format!("{BIN} xboard");
    for variant in [
        "normal",
        "capablanca",
        "grand",
        "xiangqi",
        "makruk",
        "crazyhouse",
    ] {
        let Some(m) = xboard_match(variant, &me, &me, true, 1, &[]) else {
            return;
        };
        check(&m, variant, 1);
    }
}

#[test]
fn xboard_metamachy_without_legality_test() {
    polymachy_both_sides("metamachy", false);
}

#[test]
fn xboard_perfect12_with_legality_test() {
    polymachy_both_sides("perfect12", true);
}

#[test]
fn xboard_lions_and_unicorns_with_legality_test() {
    polymachy_both_sides("lions-and-unicorns", true);
}

#[test]
fn xboard_shako_with_legality_test() {
    polymachy_both_sides("shako", true);
}

/// Shogi: XBoard's own Shogi under the engine's `setup` and `piece` commands, drops and
/// optional promotions included, with XBoard testing every move.
#[test]
fn xboard_shogi_with_legality_test() {
    polymachy_both_sides("shogi", true);
}

/// The command that runs Fairy-Max 5.0b with `section` (a file in `tests/engines`) appended to
/// its own ini file, behind `tests/engines/fairymax-cecp.sh`, which drops the one command it
/// crashes on (`computer`, read as a move), with the folder that holds the ini file (keep it
/// while the engine runs). `None` (after failing under `CI` or saying so) without Fairy-Max.
fn fairy_max(section: &str) -> Option<(common::TempDir, String)> {
    let (Some(_fairymax), Ok(stock)) = (
        common::find_program(&["fairymax"]),
        std::fs::read_to_string("/usr/share/games/fairymax/fmax.ini"),
    ) else {
        common::missing("fairymax");
        return None;
    };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines");
    let section = std::fs::read_to_string(dir.join(section)).unwrap();
    let tmp = common::TempDir::new(&format!("fairymax-{}", section.len()));
    let ini = tmp.join("fmax.ini");
    std::fs::write(&ini, stock + &section).unwrap();
    let wrapper = dir.join("fairymax-cecp.sh");
    Some((tmp, format!("{} 22 {}", wrapper.display(), ini.display())))
}

/// Polymachy against Fairy-Max 5.0b in Lions and Unicorns, legality test off. Fairy-Max gets
/// the variant from `tests/engines/fmax-lions-and-unicorns.ini` and the position (Knights in
/// front of the Lions) through XBoard's `edit` mode, as it has no `setboard`; its `random` is
/// left out of the start string so that the games repeat.
#[test]
fn xboard_lions_and_unicorns_against_fairy_max() {
    let Some((_ini, fm)) = fairy_max("fmax-lions-and-unicorns.ini") else {
        return;
    };
    let me = format!("{BIN} xboard");
    let Some(m) = xboard_match(
        "lions-and-unicorns",
        &me,
        &fm,
        false,
        2,
        &["-secondInitString", "new\n"],
    ) else {
        return;
    };
    assert!(m.stdout.contains("Fairy-Max"), "{}", tail(&m.stdout));
    check(&m, "lions-and-unicorns", 2);
}

/// Whether `san` is an en-passant capture in the position at the end of the Metamachy game
/// `block` (a game of XBoard's PGN; its FEN and piece tags, in XBoard's dialect, left out:
/// the game starts from Metamachy's start position).
fn en_passant_at_the_end(block: &str, san: &str) -> bool {
    use polymachy::game::{Game, parse_pgn};
    let text: String = format!("[Event {block}")
        .lines()
        .filter(|l| {
            !["[FEN ", "[SetUp ", "[VariantMen "]
                .iter()
                .any(|t| l.starts_with(t))
        })
        .map(|l| format!("{l}\n"))
        .collect();
    let Ok(rec) = parse_pgn(&text) else {
        return false;
    };
    let Ok(mut game) = Game::from_record(&common::rules("metamachy"), &rec) else {
        return false;
    };
    game.parse(san)
        .is_ok_and(|mv| mv.kind == polymachy::moves::MoveKind::EnPassant)
}

/// A game of XBoard's PGN (Fairy-Max against Polymachy, Metamachy) whose last move Fairy-Max
/// refused: Black's `hxg4` took the g-Pawn's double step en passant. The reader of refusals
/// above must see it as one, and a plain capture as none.
#[test]
fn a_refused_en_passant_capture_is_told_from_other_moves() {
    let block = r#""Computer Chess Game"]
[Site "vm"]
[Date "2026.12.06"]
[Round "2"]
[White "Fairy-Max 5.0b"]
[Black "Polymachy 0.1.0"]
[Result "1-0"]
[TimeControl "40/60"]
[Variant "metamachy"]
[VariantMen "P:fmWfceFfmnnD;N:N;B:B;R:R;Q:Q;L:KNAD;E:FA;C:mRcpR;M:C;I:KfmnnD;G:FyafsF;K:KimAimDimN"]
[FEN "cm3qk3mc/ernbilgibnre/pppppppppppp/12/12/12/12/12/12/PPPPPPPPPPPP/ERNBILGIBNRE/CM3QK3MC w Gg g: 0 1"]
[SetUp "1"]

{--------------
c m . . . q k . . . m c
e r n b i l g i b n r e
p p p p p p p p p p p p
. . . . . . . . . . . .
. . . . . . . . . . . .
. . . . . . . . . . . .
. . . . . . . . . . . .
. . . . . . . . . . . .
. . . . . . . . . . . .
P P P P P P P P P P P P
E R N B I L G I B N R E
C M . . . Q K . . . M C
white to play
--------------}
1. Ec4 {+0.31/3} Ec9 {-0.12/3} 2. Mj4 {+0.19/3} Ej9 {-0.12/3} 3. Ma4
{+0.22/3} h8 {-0.06/3} 4. Md5 {+0.29/3} Gh9 {+0.09/3} 5. Ni4 {+0.16/3} e9
{+0.24/3} 6. Mg5 {-0.05/3 0.1} Bg9 {+0.30/3} 7. l4 {-0.08/3} h6 {+0.48/3}
8. Md4 {+0.13/3} h5 {+0.33/3} 9. Nh6 {+0.10/3} Qk7 {+0.22/3} 10. Lf4
{+0.00/3 0.1} Bi6 {-0.06/3} 11. j5 {+0.23/3} Bk8 {-0.28/3} 12. Mg6
{+0.13/3 0.1} Gg7 {-0.63/3} 13. j7 {+0.38/3} Gxf4 {-0.56/3} 14. exf4
{+0.89/3} Bl7 {-0.73/3} 15. Bj3 {+0.79/3 0.1} Qj8 {-1.59/3} 16. g5
{+1.45/3}
{White wins on time} 1-0"#;
    assert!(en_passant_at_the_end(block, "hxg4"));
    assert!(!en_passant_at_the_end(block, "Qj4"));
    assert!(!en_passant_at_the_end(block, "h4"));
}

/// Polymachy against Fairy-Max 5.0b in Metamachy under the settings of `docs/protocols.md`: legality test
/// off (`-xlegal`), so that XBoard does not pass an illegal king leap and then rule against
/// the engine that refuses it. Fairy-Max plays from `tests/engines/fmax-metamachy.ini`, whose
/// King leaps unconditionally on its first move. With the test off, XBoard 4.9 answers an
/// `Illegal move` from an engine by taking the move back and leaving the mover's clock
/// running; with `-autoCallFlag true` the game ends when that clock runs out, against the side
/// whose move was refused (without it the game stalls). Two games of at most 30 moves each
/// (`-adjudicateDrawMoves 30`: XBoard then calls a draw, "long game"), one minute for 40
/// moves, which leaves Fairy-Max time for its 3 plies, so the games repeat. Asserted: XBoard finished the match; no game
/// was lost by Polymachy except by checkmate; Fairy-Max never refused a move of Polymachy's;
/// a move Polymachy refused (a rule-breaking leap) cost Fairy-Max the game; every move
/// reached the other engine unchanged.
#[test]
fn xboard_metamachy_against_fairy_max() {
    let Some((_ini, fm)) = fairy_max("fmax-metamachy.ini") else {
        return;
    };
    let me = format!("{BIN} xboard");
    let extra = [
        "-secondInitString",
        "new\n",
        "-tc",
        "1",
        "-adjudicateDrawMoves",
        "30",
        "-autoCallFlag",
        "true",
    ];
    let Some(m) = xboard_match("metamachy", &me, &fm, false, 2, &extra) else {
        return;
    };
    let ctx = || format!("XBoard said:\n{}\nPGN:\n{}", tail(&m.stdout), m.pgn);
    assert!(m.stdout.contains("Fairy-Max"), "{}", ctx());
    assert!(m.stdout.contains("final score"), "{}", ctx());
    // Claims: Polymachy is the first engine, Fairy-Max the second.
    let refused_by = |who: &str| {
        m.debug
            .lines()
            .filter(|l| l.contains(&format!("<{who}: Illegal move")))
            .count()
    };
    let polymachy_claims = refused_by("first ");
    let blocks: Vec<&str> = m.pgn.split("[Event ").skip(1).collect();
    assert_eq!(blocks.len(), 2, "{}", ctx());
    // Fairy-Max refuses every en-passant capture (see its ini file); each such refusal stalls
    // the game until Polymachy's clock runs out. Any other refusal is a fault.
    let refused: Vec<&str> = m
        .stdout
        .lines()
        .filter(|l| l.contains("(rejected by second chess program)"))
        .filter_map(|l| l.split('"').nth(1))
        .collect();
    assert_eq!(refused.len(), refused_by("second"), "{}", ctx());
    let stalled: Vec<bool> = blocks
        .iter()
        .map(|b| refused.iter().any(|san| en_passant_at_the_end(b, san)))
        .collect();
    assert_eq!(
        stalled.iter().filter(|&&s| s).count(),
        refused.len(),
        "Fairy-Max refused a move that is no en-passant capture\n{}",
        ctx()
    );
    let mut fairy_max_forfeits = 0;
    for (b, stalled) in blocks.iter().zip(stalled) {
        if stalled {
            assert!(b.contains("wins on time"), "{b}");
            continue;
        }
        assert!(b.contains("[Variant \"metamachy\"]"), "{b}");
        let white_is_me = b.contains("[White \"Polymachy");
        let end = b.trim_end().lines().last().unwrap_or("");
        let (my_loss, my_win) = match (end.ends_with("1-0"), end.ends_with("0-1")) {
            (true, _) => (!white_is_me, white_is_me),
            (_, true) => (white_is_me, !white_is_me),
            _ => (false, false),
        };
        assert!(
            end.ends_with("1-0") || end.ends_with("0-1") || end.ends_with("1/2-1/2"),
            "unfinished game: {end}\n{b}"
        );
        for bad in ["False", "forfeit", "Forfeit"] {
            assert!(!end.contains(bad) || my_win, "{end}\n{b}");
        }
        if my_loss {
            assert!(
                end.contains("Checkmate") || end.contains("mates"),
                "{end}\n{b}"
            );
        } else if !my_win || !(end.contains("Checkmate") || end.contains("mates")) {
            let by_rules = [
                "Stalemate",
                "repetition",
                "move-count",
                "50-move",
                "long game",
            ];
            let on_time = my_win && end.contains("time");
            fairy_max_forfeits += usize::from(on_time);
            assert!(
                on_time || by_rules.iter().any(|r| end.contains(r)),
                "a game not finished by the rules: {end}\n{b}"
            );
        }
    }
    // Each leap Polymachy refused ended its game, against Fairy-Max.
    assert_eq!(polymachy_claims, fairy_max_forfeits, "{}", ctx());
    let compared = compare_moves(&m);
    assert!(compared >= 20, "only {compared} moves compared\n{}", ctx());
}

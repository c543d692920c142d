//! Every malformed input is refused with a message that says what is wrong and where:
//! variant files, XBetza notation and FEN (the command line's messages: `tests/cli.rs`).

use std::sync::Arc;

use polymachy::notation;
use polymachy::position::Position;
use polymachy::position::Ruleset;
use polymachy::variant::{Variant, VariantError};

use crate::common::{MINI, mini_with, rules};

// ---------------------------------------------------------------------------------------------
// Variant files
// ---------------------------------------------------------------------------------------------

const FILE: &str = "mini.toml";

fn errors(text: &str) -> Vec<String> {
    match Variant::from_toml(text, FILE) {
        Ok(_) => panic!("should be refused:\n{text}"),
        Err(VariantError { lines }) => lines,
    }
}

/// The one error line that starts with `file:line:col: message-start`.
fn line_at(lines: &[String], line: usize, col: usize, message: &str) -> String {
    let prefix = format!("{FILE}:{line}:{col}: {message}");
    let found: Vec<&String> = lines.iter().filter(|l| l.starts_with(&prefix)).collect();
    assert_eq!(
        found.len(),
        1,
        "expected one error {prefix:?} in {lines:#?}"
    );
    found[0].clone()
}

fn hint_of(line: &str) -> &str {
    line.split_once("\n  hint: ")
        .map(|(_, h)| h)
        .unwrap_or_else(|| panic!("no hint in {line:?}"))
}

#[test]
fn the_base_variant_is_valid() {
    let v = Variant::from_toml(MINI, FILE).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(v.pieces.len(), 3);
    Ruleset::new(&v, None).unwrap();
}

#[test]
fn unknown_top_level_key() {
    let text = format!("flavour = \"sweet\"\n{MINI}");
    let lines = errors(&text);
    assert_eq!(lines.len(), 1, "{lines:#?}");
    let l = line_at(&lines, 1, 1, "unknown key `flavour` in `variant`");
    let hint = hint_of(&l);
    assert!(hint.starts_with("known keys: "), "{hint}");
    for key in ["name", "files", "ranks", "start", "piece", "rules"] {
        assert!(hint.contains(key), "{hint} should list {key}");
    }
}

#[test]
fn unknown_key_in_a_piece() {
    // Line 16 is the empty line that ends the Rook's table.
    let text = mini_with("betza = \"R\"\n\n", "betza = \"R\"\nrange = 3\n");
    let lines = errors(&text);
    assert_eq!(lines.len(), 1, "{lines:#?}");
    let l = line_at(&lines, 16, 1, "unknown key `range` in `piece[2]`");
    let hint = hint_of(&l);
    assert!(hint.starts_with("known keys: "), "{hint}");
    for key in ["name", "letter", "betza", "value", "royal", "promotes-to"] {
        assert!(hint.contains(key), "{hint} should list {key}");
    }
}

#[test]
fn unknown_key_in_a_rule_table() {
    let text = format!("{MINI}depth = 2\n");
    let lines = errors(&text);
    assert_eq!(lines.len(), 1, "{lines:#?}");
    let l = line_at(&lines, 25, 1, "unknown key `depth` in `rules.promotion`");
    let hint = hint_of(&l);
    assert!(hint.contains("zone"), "{hint}");
    assert!(hint.contains("optional"), "{hint}");
}

#[test]
fn letter_used_twice() {
    // `letter = "K"` on line 14: the value's opening quote is column 10.
    let text = mini_with("letter = \"R\"", "letter = \"K\"");
    let lines = errors(&text);
    let l = line_at(&lines, 14, 10, "letter 'K' is used twice");
    assert!(l.contains("King") && l.contains("Rook"), "{l}");
}

#[test]
fn start_position_letter_that_no_piece_has() {
    // `start = "rk3/p4/5/P4/RX3"`: the X is column 23 of line 4.
    let text = mini_with("RK3\"", "RX3\"");
    let lines = errors(&text);
    assert_eq!(lines.len(), 1, "{lines:#?}");
    let l = line_at(&lines, 4, 23, "start position: no piece has the letter 'X'");
    assert!(hint_of(&l).contains("KRP"), "{l}");
}

#[test]
fn no_royal_piece() {
    let text = mini_with("royal = true\n", "\n");
    let lines = errors(&text);
    assert_eq!(lines.len(), 1, "{lines:#?}");
    let l = &lines[0];
    assert!(l.contains("no royal piece"), "{l}");
    assert!(hint_of(l).contains("royal = true"), "{l}");
    // Reported at the first piece's table (lines 6 to 10).
    let line: usize = l.split(':').nth(1).unwrap().parse().unwrap();
    assert!((6..=10).contains(&line), "{l}");
}

#[test]
fn board_too_large() {
    // `files = 17` on line 2: the value is column 9.
    let text = mini_with("files = 5", "files = 17");
    let lines = errors(&text);
    assert_eq!(lines.len(), 1, "{lines:#?}");
    let l = line_at(&lines, 2, 9, "`files` is 17");
    assert!(l.contains("too large"), "{l}");
    assert!(hint_of(&l).contains("16"), "{l}");
}

#[test]
fn bad_notation_points_at_the_letter() {
    // `betza = "fmWx"` on line 20: the quote is column 9, so the x is column 13.
    let text = mini_with("betza = \"fmWfcF\"", "betza = \"fmWx\"");
    let lines = errors(&text);
    assert_eq!(lines.len(), 1, "{lines:#?}");
    let l = line_at(&lines, 20, 13, "bad notation for Pawn");
    assert!(l.contains("'x'"), "{l}");

    // A range after a doubled atom: in `betza = "NN2"` on line 15 (the Rook's betza) the 2 is
    // column 12.
    let text = mini_with("betza = \"R\"", "betza = \"NN2\"");
    let lines = errors(&text);
    assert_eq!(lines.len(), 1, "{lines:#?}");
    line_at(&lines, 15, 12, "bad notation for Rook");
}

#[test]
fn promotion_to_a_letter_no_piece_has() {
    // `promotes-to = "RZ"` on line 21: the quote is column 15, Z is column 17.
    let text = mini_with("promotes-to = \"R\"", "promotes-to = \"RZ\"");
    let lines = errors(&text);
    assert_eq!(lines.len(), 1, "{lines:#?}");
    let l = line_at(&lines, 21, 17, "Pawn promotes to 'Z'");
    assert!(hint_of(&l).contains("KRP"), "{l}");
}

#[test]
fn unknown_rule_name() {
    // `[rules.castle]` on line 25: the name starts at column 8.
    let text = format!("{MINI}[rules.castle]\n");
    let lines = errors(&text);
    assert_eq!(lines.len(), 1, "{lines:#?}");
    let l = line_at(&lines, 25, 8, "unknown rule `castle`");
    let hint = hint_of(&l);
    for rule in ["castling", "king-leap", "en-passant", "promotion", "draw"] {
        assert!(hint.contains(rule), "{hint} should list {rule}");
    }
}

#[test]
fn toml_syntax_error() {
    let text = mini_with("files = 5", "files 5");
    let lines = errors(&text);
    assert_eq!(lines.len(), 1, "{lines:#?}");
    let l = &lines[0];
    assert!(l.starts_with(&format!("{FILE}:2:")), "{l}");
    assert!(l.contains("not valid TOML"), "{l}");
    assert!(l.contains("hint: "), "{l}");
}

#[test]
fn several_problems_are_reported_together() {
    // Unknown top-level key (line 1), a letter used twice (line 15 after the insertion),
    // bad notation (line 21), a bad promotion letter (line 22) and an unknown rule (line 26).
    let text = format!(
        "flavour = 1\n{}[rules.castle]\n",
        MINI.replacen("letter = \"R\"", "letter = \"K\"", 1)
            .replacen("betza = \"fmWfcF\"", "betza = \"fmWx\"", 1)
            .replacen("promotes-to = \"R\"", "promotes-to = \"Z\"", 1)
    );
    let lines = errors(&text);
    assert!(lines.len() >= 3, "{lines:#?}");
    line_at(&lines, 1, 1, "unknown key `flavour`");
    line_at(&lines, 15, 10, "letter 'K' is used twice");
    line_at(&lines, 21, 13, "bad notation for Pawn");
    line_at(&lines, 22, 16, "Pawn promotes to 'Z'");
    line_at(&lines, 26, 8, "unknown rule `castle`");
    // In file order.
    let locs: Vec<(usize, usize)> = lines
        .iter()
        .map(|l| {
            let mut parts = l.split(':').skip(1);
            let line = parts.next().unwrap().parse().unwrap();
            let col = parts.next().unwrap().parse().unwrap();
            (line, col)
        })
        .collect();
    let mut sorted = locs.clone();
    sorted.sort();
    assert_eq!(locs, sorted, "{lines:#?}");
    // The Display form shows them all.
    let shown = Variant::from_toml(&text, FILE).unwrap_err().to_string();
    assert!(shown.lines().count() >= 5, "{shown}");
}

#[test]
fn thousands_of_problems_give_the_first_fifty_and_a_count() {
    use polymachy::variant::MAX_ERRORS;
    // 30,000 unknown keys on lines 4 to 30,003.
    let junk: String = (0..30_000).map(|i| format!("junk{i} = 1\n")).collect();
    let text = mini_with("ranks = 5\n", &format!("ranks = 5\n{junk}"));
    let lines = errors(&text);
    assert_eq!(MAX_ERRORS, 50);
    assert_eq!(lines.len(), MAX_ERRORS + 1, "{:#?}", &lines[..3]);
    for (i, l) in lines[..MAX_ERRORS].iter().enumerate() {
        let at = format!("{FILE}:{}:1: unknown key `junk{i}` in `variant`", i + 4);
        assert!(l.starts_with(&at), "{l} should start with {at}");
    }
    assert_eq!(lines[MAX_ERRORS], "… and 29950 more");
    let shown = Variant::from_toml(&text, FILE).unwrap_err().to_string();
    assert!(shown.ends_with("\n… and 29950 more"), "{shown}");
}

// ---------------------------------------------------------------------------------------------
// Notation
// ---------------------------------------------------------------------------------------------

fn notation_error(text: &str) -> notation::NotationError {
    match notation::parse(text) {
        Ok(b) => panic!("{text:?} should be refused, got {b:?}"),
        Err(e) => e,
    }
}

#[test]
fn notation_errors_have_columns() {
    // (text, column, part of the message or hint)
    let cases = [
        ("fmWx", 4, "found 'x'"),
        ("", 1, "empty string"),
        ("fm", 3, "end of input"),
        ("KL", 2, "found 'L'"),
        ("K N", 2, "without spaces"),
        ("W123", 2, "'123'"),
        ("R05", 2, "leading zero"),
        ("fnnnD", 4, "third 'n'"),
        ("NN2", 3, "doubled atom"),
    ];
    for (text, column, part) in cases {
        let e = notation_error(text);
        assert_eq!(e.column, column, "{text:?}: {e}");
        let full = e.to_string();
        assert!(
            full.contains(part),
            "{text:?}: {full:?} should mention {part:?}"
        );
        assert!(full.starts_with(&format!("column {column}: ")), "{full}");
    }
}

// ---------------------------------------------------------------------------------------------
// FEN
// ---------------------------------------------------------------------------------------------

fn metamachy() -> Arc<Ruleset> {
    rules("metamachy")
}

fn fen_problems(rs: &Arc<Ruleset>, fen: &str) -> Vec<String> {
    match Position::from_fen(rs, fen) {
        Ok(p) => panic!("{fen} should be refused, got {p:?}"),
        Err(e) => e.messages(),
    }
}

/// Asserts exactly one problem, containing every part.
fn one_problem(rs: &Arc<Ruleset>, fen: &str, parts: &[&str]) {
    let ps = fen_problems(rs, fen);
    assert_eq!(ps.len(), 1, "{fen}: {ps:#?}");
    for part in parts {
        assert!(
            ps[0].contains(part),
            "{fen}: {:?} should contain {part:?}",
            ps[0]
        );
    }
}

/// Ranks 11 to 2 empty, as one string.
const MIDDLE: &str = "12/12/12/12/12/12/12/12/12/12";

#[test]
fn a_valid_fen_is_accepted() {
    let rs = metamachy();
    Position::from_fen(&rs, &format!("5k6/{MIDDLE}/5K6 w Kk - 0 1")).unwrap();
}

#[test]
fn fen_wrong_rank_count() {
    let rs = metamachy();
    one_problem(
        &rs,
        "5k6/12/5K6 w - - 0 1",
        &["3 ranks given", "the board has 12"],
    );
}

#[test]
fn fen_rank_too_long() {
    let rs = metamachy();
    // The top rank has 13 squares.
    one_problem(
        &rs,
        &format!("5k7/{MIDDLE}/5K6 w - - 0 1"),
        &["rank 12 has 13 squares", "12 files"],
    );
}

#[test]
fn fen_unknown_letter() {
    let rs = metamachy();
    one_problem(
        &rs,
        &format!("5k6/{MIDDLE}/2x2K6 w - - 0 1"),
        &["no piece has the letter 'x'", "PINBRMECLGQK"],
    );
    // The column counts characters of the placement field: in "2x2k6" the x is the 2nd.
    let ps = fen_problems(&rs, &format!("2x2k6/{MIDDLE}/5K6 w - - 0 1"));
    assert!(ps[0].starts_with("placement column 2: "), "{ps:?}");
    // In "5k6/3x8/..." the x is the 6th character ("5k6/" is 4, then "3x").
    let nine = "12/12/12/12/12/12/12/12/12";
    let ps = fen_problems(&rs, &format!("5k6/3x8/{nine}/5K6 w - - 0 1"));
    assert!(ps[0].starts_with("placement column 6: "), "{ps:?}");
}

#[test]
fn fen_bad_side() {
    let rs = metamachy();
    one_problem(
        &rs,
        &format!("5k6/{MIDDLE}/5K6 x - - 0 1"),
        &["side to move", "`x`"],
    );
}

#[test]
fn fen_bad_en_passant_square() {
    let rs = metamachy();
    one_problem(
        &rs,
        &format!("5k6/{MIDDLE}/5K6 w - z9 0 1"),
        &["en-passant square `z9`", "not a square"],
    );
    one_problem(
        &rs,
        &format!("5k6/{MIDDLE}/5K6 w - m13 0 1"),
        &["en-passant square `m13`"],
    );
    // e11 is a square, but no Black piece stands on e10 beyond it.
    one_problem(
        &rs,
        &format!("5k6/{MIDDLE}/5K6 w - e11 0 1"),
        &["en-passant square e11"],
    );
}

#[test]
fn fen_missing_royal() {
    let rs = metamachy();
    one_problem(
        &rs,
        &format!("12/{MIDDLE}/5K6 w - - 0 1"),
        &["black has no royal piece"],
    );
    one_problem(
        &rs,
        &format!("5k6/{MIDDLE}/12 b - - 0 1"),
        &["white has no royal piece"],
    );
}

#[test]
fn fen_several_problems_at_once() {
    let rs = metamachy();
    // An unknown letter, a bad side, a bad rights letter, a bad halfmove clock and a bad
    // fullmove number.
    let fen = format!("5k6/{MIDDLE}/5K5x w- z - -3 0");
    let ps = fen_problems(&rs, &fen);
    assert_eq!(ps.len(), 5, "{ps:#?}");
    let all = ps.join("\n");
    for part in [
        "no piece has the letter 'x'",
        "side to move must be `w` or `b`, found `w-`",
        "rights: `z`",
        "halfmove clock `-3`",
        "fullmove number `0`",
    ] {
        assert!(all.contains(part), "{all}\nshould contain {part:?}");
    }
    let shown = Position::from_fen(&rs, &fen).unwrap_err().to_string();
    assert!(shown.starts_with("invalid FEN: "), "{shown}");
}

// ---------------------------------------------------------------------------------------------
// Variant files: setups, promotions, rules and keys
// ---------------------------------------------------------------------------------------------

#[test]
fn setup_choice_default_against_royal_files_is_an_error() {
    let text = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/variants/zanzibar-xxl.toml"
    ))
    .replace("default = \"UQKFOLGD\"", "default = \"KQUFOLGD\"");
    let err = polymachy::variant::Variant::from_toml(&text, "z.toml").unwrap_err();
    assert!(
        err.lines
            .iter()
            .any(|l| l.contains("puts the King on the e file")),
        "{err}"
    );
}

#[test]
fn promotes_to_without_a_promotion_rule() {
    let text = "name = \"T\"\nfiles = 5\nranks = 5\nstart = \"4k/5/5/5/K3P\"\n\
                [[piece]]\nname = \"King\"\nletter = \"K\"\nbetza = \"K\"\nroyal = true\n\
                [[piece]]\nname = \"Pawn\"\nletter = \"P\"\nbetza = \"fmWfcF\"\npromotes-to = \"K\"\n";
    let err = polymachy::variant::Variant::from_toml(text, "t.toml").unwrap_err();
    assert_eq!(err.lines.len(), 1, "{err}");
    assert!(
        err.lines[0].contains("Pawn has `promotes-to`, but the variant has no promotion rule"),
        "{err}"
    );
    assert!(
        err.lines[0].contains("hint: add a `[rules.promotion]` table"),
        "{err}"
    );
    assert!(err.lines[0].starts_with("t.toml:"), "{err}");
}

#[test]
fn a_royal_piece_promoting_to_a_piece_that_is_not_royal_is_refused() {
    let text = "name = \"T\"\nfiles = 5\nranks = 5\nstart = \"4k/5/5/5/K3R\"\n\
                [[piece]]\nname = \"King\"\nletter = \"K\"\nbetza = \"K\"\nroyal = true\n\
                promotes-to = \"R\"\n\
                [[piece]]\nname = \"Rook\"\nletter = \"R\"\nbetza = \"R\"\n\
                [rules.promotion]\nzone = 1\n";
    let err = polymachy::variant::Variant::from_toml(text, "t.toml").unwrap_err();
    assert_eq!(err.lines.len(), 1, "{err}");
    assert!(
        err.lines[0].starts_with("t.toml:10:15: King is royal but promotes to Rook, which is not"),
        "{err}"
    );
    assert!(
        err.lines[0].contains("hint: leave `promotes-to` out"),
        "{err}"
    );
}

#[test]
fn a_rule_that_cannot_be_set_up_is_located() {
    // King e1, rook a1: a king that slides 5 squares toward the rook would leave the board.
    let text = "name = \"T\"\nfiles = 5\nranks = 5\nstart = \"4k/5/5/5/R3K\"\n\
                [[piece]]\nname = \"King\"\nletter = \"K\"\nbetza = \"K\"\nroyal = true\n\
                [[piece]]\nname = \"Rook\"\nletter = \"R\"\nbetza = \"R\"\n\
                [rules.castling]\nking-distance = 5\n";
    // Reading the file finds nothing wrong; compiling it (once, by the caller) does.
    let v = polymachy::variant::Variant::from_toml(text, "t.toml").unwrap();
    let err = Ruleset::new(&v, None).unwrap_err().to_string();
    assert_eq!(err.lines().count(), 1, "{err}");
    // `[rules.castling]` is line 14 (4 top-level lines, 5 + 4 piece lines); `castling` starts
    // at column 8.
    assert!(
        err.starts_with("t.toml:14:8: the variant cannot be set up: rule castling:"),
        "{err}"
    );
}

#[test]
fn demotes_to_names_one_other_piece_that_does_not_demote() {
    let text = mini_with(
        "promotes-to = \"R\"",
        "promotes-to = \"R\"\ndemotes-to = \"Q\"",
    );
    let e = errors(&text);
    assert!(
        e.iter()
            .any(|l| l.contains("Pawn demotes to \"Q\", which is not the letter of a piece")),
        "{e:?}"
    );
    let text = mini_with("betza = \"R\"", "betza = \"R\"\ndemotes-to = \"R\"");
    let e = errors(&text);
    assert!(
        e.iter().any(|l| l.contains("Rook cannot demote to itself")),
        "{e:?}"
    );
    // Two pieces made from the Pawn: `+P` would not say which.
    let text = mini_with("betza = \"R\"", "betza = \"R\"\ndemotes-to = \"P\"")
        .replace("betza = \"K\"", "betza = \"K\"\ndemotes-to = \"P\"");
    let e = errors(&text);
    assert!(
        e.iter()
            .any(|l| l.contains("two pieces demote to Pawn: a FEN's `+P` would not say which")),
        "{e:?}"
    );
    // A chain: the Rook demotes to the Pawn, which demotes to the King.
    let text = mini_with("betza = \"R\"", "betza = \"R\"\ndemotes-to = \"P\"").replace(
        "promotes-to = \"R\"",
        "promotes-to = \"R\"\ndemotes-to = \"K\"",
    );
    let e = errors(&text);
    assert!(
        e.iter()
            .any(|l| l.contains("Rook demotes to Pawn, which demotes in turn")),
        "{e:?}"
    );
}

#[test]
fn a_misspelt_key_gets_the_nearest_known_one() {
    let text = "name = \"T\"\nfiles = 5\nranks = 5\nstrat = \"4k/5/5/5/K4\"\n\
                [[piece]]\nname = \"King\"\nletter = \"K\"\nbetza = \"K\"\nroyl = true\n";
    let err = polymachy::variant::Variant::from_toml(text, "t.toml").unwrap_err();
    let all = err.lines.join("\n");
    assert!(
        all.contains("t.toml:4:1: unknown key `strat` in `variant`")
            && all.contains("hint: did you mean `start`?"),
        "{all}"
    );
    assert!(
        all.contains("t.toml:9:1: unknown key `royl` in `piece[1]`")
            && all.contains("hint: did you mean `royal`?"),
        "{all}"
    );
    // Nothing near: the known keys alone.
    let text = "name = \"T\"\nfiles = 5\nranks = 5\nstart = \"4k/5/5/5/K4\"\nwhatsoever = 1\n\
                [[piece]]\nname = \"King\"\nletter = \"K\"\nbetza = \"K\"\nroyal = true\n";
    let err = polymachy::variant::Variant::from_toml(text, "t.toml").unwrap_err();
    let all = err.lines.join("\n");
    assert!(all.contains("unknown key `whatsoever`"), "{all}");
    assert!(!all.contains("did you mean"), "{all}");
}

#[test]
fn a_start_position_with_a_hand_is_named_as_such() {
    // With hands (the drops rule) the start may hold pieces in hand; without, the hand is
    // named as what it is, never counted as squares of a rank.
    let text = "name = \"T\"\nfiles = 5\nranks = 5\nstart = \"4k/5/5/5/K4[P]\"\n\
                [[piece]]\nname = \"King\"\nletter = \"K\"\nbetza = \"K\"\nroyal = true\n\
                [[piece]]\nname = \"Pawn\"\nletter = \"P\"\nbetza = \"fmW\"\n[rules.drops]\n";
    let v = polymachy::variant::Variant::from_toml(text, "t.toml").unwrap();
    let rs = polymachy::position::Ruleset::new(&v, None).unwrap();
    assert_eq!(
        polymachy::position::Position::start(&rs).fen(),
        "4k/5/5/5/K4[P] w - - 0 1"
    );
    let text = text.replace("[rules.drops]\n", "");
    let v = polymachy::variant::Variant::from_toml(&text, "t.toml").unwrap();
    let err = polymachy::position::Ruleset::new(&v, None)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("t.toml:4:9: start position: pieces in hand, but this variant has no hands"),
        "{err}"
    );
    assert!(!err.contains("squares"), "no rank counted wrong: {err}");
}

//! Variant texts and positions that the tests of two binaries share.

/// A minimal valid variant. Line numbers matter to the tests of its error messages:
///  1 name   2 files   3 ranks   4 start   6 [[piece]] King (7 name, 8 letter, 9 betza,
/// 10 royal)   12 [[piece]] Rook (13 name, 14 letter, 15 betza, 16 empty)
/// 17 [[piece]] Pawn (18 name, 19 letter, 20 betza, 21 promotes-to)   23 [rules.promotion]
/// 24 zone; the text ends with a newline, so an appended line is line 25.
pub const MINI: &str = r#"name = "Mini"
files = 5
ranks = 5
start = "rk3/p4/5/P4/RK3"

[[piece]]
name = "King"
letter = "K"
betza = "K"
royal = true

[[piece]]
name = "Rook"
letter = "R"
betza = "R"

[[piece]]
name = "Pawn"
letter = "P"
betza = "fmWfcF"
promotes-to = "R"

[rules.promotion]
zone = 1
"#;

/// [`MINI`] with `from` (which must occur exactly once) replaced by `to`.
pub fn mini_with(from: &str, to: &str) -> String {
    assert_eq!(MINI.matches(from).count(), 1, "{from:?} must occur once");
    MINI.replacen(from, to, 1)
}

/// A 16×16 variant whose King moves by `betza` (on line 9, column 9), with `extra` pieces.
pub fn sixteen(betza: &str, extra: &str) -> String {
    let empty = vec!["16"; 14].join("/");
    format!(
        "name = \"Bomb\"\nfiles = 16\nranks = 16\nstart = \"1k14/{empty}/13K2\"\n\n\
         [[piece]]\nname = \"King\"\nletter = \"K\"\nbetza = \"{betza}\"\nroyal = true\n{extra}"
    )
}

/// Makruk positions where counts start soon: endgames with and without pawns, bare Kings.
pub const MAKRUK_ENDINGS: &[&str] = &[
    "8/8/8/4k3/8/8/R2s4/4K3 w - - 0 1",
    "8/8/3k4/8/8/2s5/8/RR2K3 w - - 0 1",
    "8/2s5/3k4/8/8/1S6/8/2N1K1N1 w - - 0 1",
    "8/8/3k4/1p6/8/2R5/8/4K3 w - - 0 1",
    "4k3/8/8/8/8/8/7r/R3K3 b - - 0 1",
    "8/3k4/8/3m4/8/3M4/3K4/8 w - - 0 1",
    "3k4/8/2s5/8/8/5N2/8/3K4 b - - 0 1",
    "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
];

/// ASEAN chess positions near its counts (a bare King against a Rook, a Bishop, a Knight, a
/// Queen alone, with Pawns still on the board) and the start position.
pub const ASEAN_ENDINGS: &[&str] = &[
    "8/8/8/4k3/8/8/R2b4/4K3 w - - 0 1",
    "8/8/3k4/8/8/2b5/8/1N2K3 w - - 0 1",
    "8/2q5/3k4/8/8/1B6/8/2N1K1N1 w - - 0 1",
    "8/8/3k4/1p6/8/2R5/8/4K3 w - - 0 1",
    "4k3/8/8/8/8/8/7r/R3K3 b - - 0 1",
    "8/3k4/8/3q4/8/3Q4/3K4/8 w - - 0 1",
    "3k4/8/2b5/8/8/5N2/8/3K4 b - - 0 1",
    "rnbqkbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBQKBNR w - - 0 1",
];

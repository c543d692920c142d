//! User-facing error messages, word for word: what a FEN, a typed move and a variant file say
//! when they are refused. Other tests check that a message names the right thing; these pin
//! the whole text, so that a change of wording (or a stray run of spaces) is seen and meant.

use polymachy::game::parse_move;

use polymachy::variant::Variant;

use crate::common::{MINI, mini_with, pos, rules};

/// Fails with every `(what, got, want)` whose message is not the one wanted, each shown whole.
fn exactly(cases: &[(&str, String, &str)]) {
    let wrong: Vec<String> = cases
        .iter()
        .filter(|(_, got, want)| got != want)
        .map(|(what, got, want)| format!("{what}:\n  got:  {got:?}\n  want: {want:?}"))
        .collect();
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

/// Why `fen` is refused in `variant`.
fn fen_error(variant: &str, fen: &str) -> String {
    crate::common::fen_error(&rules(variant), fen)
}

/// Why the move `text` is refused in `fen` of `variant`.
fn move_error(variant: &str, fen: &str, text: &str) -> String {
    let mut p = pos(&rules(variant), fen);
    match parse_move(&mut p, text) {
        Ok(m) => panic!("{text} was read as {m:?} in {fen}"),
        Err(e) => e.to_string(),
    }
}

/// Why the variant file `text`, named `mini.toml`, is refused.
fn variant_error(text: &str) -> String {
    match Variant::from_toml(text, "mini.toml") {
        Ok(_) => panic!("should be refused:\n{text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn fen_errors() {
    exactly(&[
        (
            "too few ranks",
            fen_error("chess", "8/8/8 w - - 0 1"),
            "invalid FEN: placement column 1: 3 ranks given, the board has 8 (ranks are separated by '/', the top rank first)",
        ),
        (
            "a letter no piece has",
            fen_error(
                "chess",
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKXNR w KQkq - 0 1",
            ),
            "invalid FEN: placement column 41: no piece has the letter 'X' (the pieces' letters are PNBRQK)",
        ),
        (
            "the side to move",
            fen_error("chess", "4k3/8/8/8/8/8/8/4K3 x - - 0 1"),
            "invalid FEN: side to move must be `w` or `b`, found `x`",
        ),
        // The placement reader then reads the bracket as part of the board, and says so in
        // the words it has for a variant's start position.
        (
            "a hand without its closing bracket",
            fen_error("crazyhouse", "4k3/8/8/8/8/8/8/4K3[N w - - 0 1"),
            "invalid FEN: the pieces in hand must be written in brackets at the end of the placement (`RNBQKBNR[Qp]`); placement column 20: pieces in hand (`[N`) cannot be part of the start position (start with empty hands: pieces captured go to the hands during the game, and a FEN (`perft --fen`, UCI `position fen`) may hold a hand)",
        ),
        (
            "the side not to move in check",
            fen_error("chess", "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1"),
            "invalid FEN: the side not to move (black) is in check",
        ),
    ]);
}

#[test]
fn move_errors() {
    const HAND: &str = "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1";
    exactly(&[
        (
            "a Pawn dropped on the last rank",
            move_error("crazyhouse", HAND, "P@a8"),
            "P@a8: a Pawn may not be dropped on a8 now (a rank it may not be dropped on, or the drop leaves the king in check)",
        ),
        (
            "a drop of a piece not in hand",
            move_error("crazyhouse", HAND, "N@e4"),
            "N@e4: no Knight in hand",
        ),
        (
            "a drop on an occupied square",
            move_error("crazyhouse", HAND, "P@e1"),
            "P@e1: e1 is occupied",
        ),
        (
            "a drop where the game has none",
            move_error(
                "chess",
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "N@e4",
            ),
            "N@e4: this game has no drops",
        ),
        (
            "a step too far",
            move_error(
                "chess",
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "e2e5",
            ),
            "e2e5: the Pawn on e2 cannot move to e5",
        ),
        (
            "two Knights that can go there",
            move_error("chess", "4k3/8/8/8/8/8/8/2N1K1N1 w - - 0 1", "Ne2"),
            "ambiguous: Ne2 could be c1e2 or g1e2",
        ),
        (
            "a King move that stays in check",
            move_error("chess", "4k3/4r3/8/8/8/8/8/4K3 w - - 0 1", "Ke2"),
            "Ke2: illegal, your King is in check and this move does not end the check",
        ),
    ]);
}

#[test]
fn variant_file_errors() {
    exactly(&[
        (
            "an unknown key",
            variant_error(&format!("flavour = \"sweet\"\n{MINI}")),
            "mini.toml:1:1: unknown key `flavour` in `variant`\n  hint: known keys: allow-lints, description, display, eval, files, id, inventor, name, piece, ranks, rules, start, test, zones",
        ),
        (
            "bad notation",
            variant_error(&mini_with("betza = \"fmWfcF\"", "betza = \"fmWx\"")),
            "mini.toml:20:13: bad notation for Pawn: found 'x', expected a direction (f b l r v s h), a modifier (i m c e p g y n j), 'a', an atom letter (W F D N A H C Z G K Q R B), a range (0..99) or end of input\n  hint: the x, u and k modifiers are not supported",
        ),
        (
            "a start letter no piece has",
            variant_error(&mini_with("RK3\"", "RX3\"")),
            "mini.toml:4:23: start position: no piece has the letter 'X'\n  hint: the pieces' letters are KRP",
        ),
        (
            "a TOML syntax error",
            variant_error(&mini_with("files = 5", "files = = 5")),
            "mini.toml:2:9: not valid TOML: extra `=`, expected nothing\n  hint: check quotes, brackets and `key = value` lines",
        ),
    ]);
}

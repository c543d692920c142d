//! Positions as other programs write them: king-leap rights of a King from any setup
//! arrangement (a GUI sends `position fen` without `Setup`: `tests/protocols.rs` sends it),
//! castling rights in every arrangement, and Fairy-Stockfish's en-passant field (only the
//! squares a capture can land on). The round trip through Fairy-Stockfish's own FENs is in
//! `tests/pyffish.rs`, the messages for a setup that does not exist in `tests/cli.rs`.

use polymachy::position::{Position, Ruleset};
use polymachy::variant::Variant;

use crate::common::{fen_error, legal_names, play, rules, rules_with_setup};

// ------------------------------------------------------------- king-leap rights and setups

/// A Zanzibar-XXL FEN with only the two Kings, White's on `white`, Black's on `black` (each a
/// square of ranks 1-2 and 11-12), both holding their leap right.
fn zanzibar_kings(white: &str, black: &str) -> String {
    let rank = |sq: &str, letter: char| {
        let f = (sq.as_bytes()[0] - b'a') as usize;
        let mut s = String::new();
        if f > 0 {
            s += &f.to_string();
        }
        s.push(letter);
        if f < 11 {
            s += &(11 - f).to_string();
        }
        s
    };
    let mut ranks = vec!["12".to_string(); 12];
    let r = |sq: &str| sq[1..].parse::<usize>().unwrap();
    ranks[12 - r(black)] = rank(black, 'k');
    ranks[12 - r(white)] = rank(white, 'K');
    format!("{} w Kk - 0 1", ranks.join("/"))
}

#[test]
fn zanzibar_king_leap_right_from_any_arrangement_without_setup() {
    // The FEN of the report: White's King on g2 (where the arrangement UQOFDLKG, among
    // others, puts it), Black's on g12, as the default.
    let fen = "6k5/12/12/12/12/12/12/12/12/12/6K5/12 w K - 0 1";
    assert_eq!(zanzibar_kings("g2", "g12").replace("Kk", "K"), fen);
    // Read whatever setup the rules were compiled with, and the leap is there.
    for setup in [None, Some("UQOFDKGL"), Some("UKQFOLGD")] {
        let rs = rules_with_setup("zanzibar-xxl", setup);
        let mut pos = Position::from_fen(&rs, fen).unwrap_or_else(|e| panic!("{setup:?}: {e}"));
        assert_eq!(pos.fen(), fen);
        let moves = legal_names(&mut pos);
        for leap in ["g2g4", "g2e4", "g2i4", "g2e2", "g2h4"] {
            assert!(moves.contains(leap), "{leap} in {moves:?}");
        }
    }
    // Every square the rules let Black put its King on (f or g file, rank 11 or 12), and
    // White's copy, holds the right.
    let rs = rules("zanzibar-xxl");
    for (white, black) in [("f1", "f12"), ("g1", "g11"), ("f2", "f11"), ("g2", "g12")] {
        let fen = zanzibar_kings(white, black);
        Position::from_fen(&rs, &fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    }
    // Squares no arrangement gives the King: refused, naming those that do.
    for (white, black) in [("e1", "h12"), ("h2", "e11"), ("f3", "g10")] {
        assert_eq!(
            fen_error(&rs, &zanzibar_kings(white, black)),
            "invalid FEN: rights: `K` needs white's royal piece on a square it starts the game on \
             in some setup (f1 g1 f2 g2); rights: `k` needs black's royal piece on a square it \
             starts the game on in some setup (f11 g11 f12 g12)",
            "{white} {black}"
        );
    }
}

#[test]
fn metamachy_king_leap_right_on_any_square_of_the_24_arrangements() {
    // Metamachy's setups put QKLG on f1 g1 f2 g2 in any order: the King may start on g2
    // (`QLGK`), which no numbered setup does (they hold the canonical, King on the f-file).
    let rs = rules("metamachy");
    for king in ["f1", "g1", "f2", "g2"] {
        let f = (king.as_bytes()[0] - b'a') as usize;
        let rank = format!("{f}K{}", 11 - f);
        let (r2, r1) = if king.ends_with('2') {
            (rank.as_str(), "12")
        } else {
            ("12", rank.as_str())
        };
        let fen = format!("6k5/12/12/12/12/12/12/12/12/12/{r2}/{r1} w Kk - 0 1");
        let mut pos = Position::from_fen(&rs, &fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let to = format!("{}{}", &king[..1], if king.ends_with('2') { 4 } else { 3 });
        assert!(
            legal_names(&mut pos).contains(&format!("{king}{to}")),
            "{fen}"
        );
    }
    // The Shredder-FEN letter of the g-file (XBoard's `Gg`) and of the f-file are read.
    let fen = "5k6/12/12/12/12/12/12/12/12/12/12/6K5 w Gf - 0 1";
    assert_eq!(
        Position::from_fen(&rs, fen).unwrap().fen(),
        fen.replace("Gf", "Kk")
    );
}

/// An 8x6 game with castling (King e1, Rooks a1 and h1) and a setup choice on `squares`.
fn castling_with_setup(squares: &str, default: &str) -> String {
    format!(
        "name = \"Small\"\nfiles = 8\nranks = 6\nstart = \"rnbqkbnr/pppppppp/8/8/PPPPPPPP/RNBQKBNR\"\n\
         [[piece]]\nname = \"Pawn\"\nletter = \"P\"\nbetza = \"fmWfcF\"\n\
         [[piece]]\nname = \"Knight\"\nletter = \"N\"\nbetza = \"N\"\n\
         [[piece]]\nname = \"Bishop\"\nletter = \"B\"\nbetza = \"B\"\n\
         [[piece]]\nname = \"Rook\"\nletter = \"R\"\nbetza = \"R\"\n\
         [[piece]]\nname = \"Queen\"\nletter = \"Q\"\nbetza = \"Q\"\n\
         [[piece]]\nname = \"King\"\nletter = \"K\"\nbetza = \"K\"\nroyal = true\n\
         [rules.castling]\n\
         [rules.setup-choice]\nsquares = [{squares}]\ndefault = \"{default}\"\n"
    )
}

#[test]
fn castling_rights_hold_in_every_arrangement_a_setup_choice_may_make() {
    // The arrangement moves a Knight and a Bishop only: the King and the Rooks stand where
    // they do in every setup, so a FEN from the setup `BN` (Bishop b1, Knight c1) castles.
    let text = castling_with_setup("\"b1\", \"c1\"", "NB");
    let v = Variant::from_toml(&text, "small.toml").unwrap();
    let rs = Ruleset::new(&v, None).unwrap();
    let fen = "rbn1k2r/pppppppp/8/8/PPPPPPPP/RBN1K2R w KQkq - 0 1";
    let mut pos = Position::from_fen(&rs, fen).unwrap();
    assert!(legal_names(&mut pos).contains("e1g1"), "{fen}");
    // A choice that may move the King (or a Rook) is refused when the rules are compiled:
    // the castling rights are tied to the squares.
    for (squares, default, moved) in [
        ("\"d1\", \"e1\"", "QK", "King, Queen on d1"),
        ("\"a1\", \"b1\"", "RN", "Knight, Rook on a1"),
    ] {
        let text = castling_with_setup(squares, default);
        let v = Variant::from_toml(&text, "small.toml").unwrap();
        let err = Ruleset::new(&v, None).map(|_| ()).unwrap_err().to_string();
        assert!(
            err.contains(&format!(
                "castling needs the royal piece and its partner on the same squares in every \
                 setup, but `setup-choice` may put any of {moved}"
            )),
            "{err}"
        );
    }
}

// ------------------------------------------------------------------ en-passant field forms

#[test]
fn wildebeest_reads_fairy_stockfish_en_passant_field_after_a_triple_step() {
    let rs = rules("wildebeest");
    // White Pawn e2 triple-steps to e5 past e3 and e4; of the two only e3 can be taken on, by
    // the Black Pawn on d4. Fairy-Stockfish (pyffish 0.0.90 with tests/engines/
    // fsf-wildebeest.ini) writes the FEN after `e2e5` with `e3` alone; Polymachy writes both.
    let mut pos = Position::from_fen(&rs, "11/11/11/11/11/11/3p7/11/4P6/k5K4 w - - 0 1").unwrap();
    play(&mut pos, "e2e5");
    let fsf = "11/11/11/11/11/4P6/3p7/11/11/k5K4 b - e3 0 1";
    assert_eq!(pos.fen(), fsf.replace(" e3 ", " e3e4 "));
    let read = Position::from_fen(&rs, fsf).unwrap();
    assert_eq!(read, pos);
    // Taking on e3 removes the Pawn on e5, in both positions.
    for mut p in [read, pos] {
        play(&mut p, "d4e3");
        assert_eq!(p.fen(), "11/11/11/11/11/11/11/4p6/11/k5K4 w - - 0 2");
    }
    // With the Black Pawn on d5 only e4 can be taken on: Fairy-Stockfish writes `e4`. That is
    // exactly what a double step e3-e5 passes (a Pawn may double-step from rank 3), so it is
    // read as that step, which allows the same moves (d5e4 taking the Pawn on e5).
    let mut mine = Position::from_fen(&rs, "11/11/11/11/11/3p7/11/11/4P6/k5K4 w - - 0 1").unwrap();
    play(&mut mine, "e2e5");
    assert_eq!(mine.fen(), "11/11/11/11/11/3pP6/11/11/11/k5K4 b - e3e4 0 1");
    let fsf = "11/11/11/11/11/3pP6/11/11/11/k5K4 b - e4 0 1";
    let mut read = Position::from_fen(&rs, fsf).unwrap();
    assert_eq!(read.fen(), fsf);
    let moves = legal_names(&mut read);
    assert_eq!(moves, legal_names(&mut mine));
    assert!(moves.contains("d5e4"), "{moves:?}");
    // A square the step did not pass is still refused, in either form.
    for field in ["e6", "e3e6", "d3"] {
        let fen = format!("11/11/11/11/11/4P6/3p7/11/11/k5K4 b - {field} 0 1");
        assert!(
            fen_error(&rs, &fen).contains("no piece of the side that just moved can have passed"),
            "{fen}"
        );
    }
}

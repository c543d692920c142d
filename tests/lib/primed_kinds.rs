//! Kinds written with a letter and a prime (`N'`, Black's `n'`), as XBoard names its extra
//! pieces: kinds of their own, beside `N` and `+N`, with a promoted form of their own (`+N'`).
//! A file with more than 26 kinds that are no promoted form (`tests/data/primed-kinds.toml`),
//! the file's errors, and every text that names such a piece (FEN, SAN, coordinates, drops,
//! the board drawing, the piece list) — always by its name `N'`, never by anything else.

use std::sync::Arc;

use polymachy::game::{parse_move, san};
use polymachy::moves::kind_of;
use polymachy::position::{Position, Ruleset};
use polymachy::text::board;
use polymachy::text::coord;
use polymachy::variant::Variant;

use crate::common::{MINI, fen_error, find, legal, pos, random_game, rules};
use crate::plus_kinds::{FILE, errors, kind, one_error, widths, with_piece, written};

const PRIMED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/primed-kinds.toml");

/// The start of `primed-kinds.toml`, as the FEN writes it.
const PRIMED_START: &str = "lnsgekmgsnla/rcdfhioqtvbw/juxyzn'b'r'q'l'2/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/JUXYZN'B'R'Q'L'2/RCDFHIOQTVBW/LNSGEKMGSNLA[] w - - 0 1";

fn primed() -> Arc<Ruleset> {
    rules(PRIMED)
}

#[test]
fn a_file_may_have_more_kinds_of_their_own_than_letters() {
    let rs = primed();
    let v = &rs.variant;
    assert_eq!(v.pieces.len(), 34);
    assert_eq!(v.pieces.iter().filter(|p| p.letter.is_some()).count(), 26);
    let primed: Vec<&str> = v
        .pieces
        .iter()
        .filter(|p| p.primed())
        .map(|p| p.symbol.as_str())
        .collect();
    assert_eq!(primed, ["N'", "B'", "R'", "Q'", "L'"]);
    // 31 kinds that are no promoted form of another.
    assert_eq!(
        v.pieces.iter().filter(|p| p.demotes_to.is_none()).count(),
        31
    );
    // `N`, `N'`, `+N` and `+N'` are four kinds; `N'` is made from nothing, `+N'` from it.
    let (n, np) = (kind(&rs, "N"), kind(&rs, "N'"));
    assert_eq!(v.pieces[n].name, "Knight");
    assert_eq!(v.pieces[np].name, "Crowned Knight");
    assert_eq!(v.pieces[np].letter, None);
    assert_eq!(v.pieces[np].demotes_to, None);
    assert_eq!(v.pieces[kind(&rs, "+N")].demotes_to, Some(n));
    assert_eq!(v.pieces[kind(&rs, "+N'")].demotes_to, Some(np));
    assert_eq!(v.pieces[kind(&rs, "+n'")].name, "Knight General");
    assert_eq!(kind(&rs, "n'"), np);
    assert_eq!(v.kind_by_letter('N'), Some(n));
    // `promotes-to` names them: `QN'` is two names, `+N'` one.
    assert_eq!(v.pieces[kind(&rs, "P")].promotes_to, [kind(&rs, "Q"), np]);
    assert_eq!(v.pieces[kind(&rs, "S")].promotes_to, [kind(&rs, "+N'")]);
    assert_eq!(v.pieces[np].promotes_to, [kind(&rs, "+N'")]);
    assert!(v.piece_names().contains(&"N' Crowned Knight".to_string()));
    assert!(v.piece_names().contains(&"+N' Knight General".to_string()));
    // An `[eval.values]` key `"Q'"`, quoted, as TOML wants it, and written so.
    let eval = v.eval.as_ref().unwrap();
    assert_eq!(eval.values[kind(&rs, "Q'")], Some((310, 320)));
    assert!(
        eval.to_toml(&v.pieces)
            .contains("\n\"Q'\" = [310, 320]  # Kirin\n")
    );
    assert!(v.pieces.iter().all(|p| p.symbol != "?"));
}

#[test]
fn the_start_position_holds_primed_pieces_and_fens_round_trip() {
    let rs = primed();
    let start = Position::start(&rs);
    assert_eq!(start.fen(), PRIMED_START);
    let at = |p: &Position, sq: &str| rs.symbol(p.piece_at(rs.geometry.parse_square(sq).unwrap()));
    assert_eq!(at(&start, "f3"), "N'");
    assert_eq!(at(&start, "j3"), "L'");
    assert_eq!(at(&start, "f10"), "n'");
    assert_eq!(at(&start, "b1"), "N");
    for fen in [
        PRIMED_START,
        "6k5/12/2+n'9/12/7b'4/12/12/4+N'7/12/12/12/6K5[B'N'Pn'n'p] b - - 3 20",
        "n'5k5/12/12/12/12/12/12/12/12/12/12/+N5K4+N'[] w - - 0 1",
        "N'N'N'N'N'N'N'N'N'N'N'N'/12/12/12/12/12/12/12/12/12/12/5k2K3[] w - - 0 1",
    ] {
        assert_eq!(pos(&rs, fen).fen(), fen);
    }
    // A prime follows a piece's letter; `N'` names a piece written so; `+X'` the promoted
    // form of one.
    let e = fen_error(&rs, "6k5/12/12/12/12/12/12/12/12/12/12/'6K5[] w - - 0 1");
    assert!(
        e.contains("column 35: a prime `'` must follow a piece's letter"),
        "{e}"
    );
    let e = fen_error(&rs, "6k5/12/12/12/12/12/12/12/12/12/12/A'5K5[] w - - 0 1");
    assert!(e.contains("column 35: no piece is written \"A'\""), "{e}");
    let e = fen_error(&rs, "6k5/12/12/12/12/12/12/12/12/12/12/+B'5K5[] w - - 0 1");
    assert!(
        e.contains("column 35: `+B'`: no piece is the promoted form of \"B'\""),
        "{e}"
    );
    let e = fen_error(&rs, "6k5/12/12/12/12/12/12/12/12/12/12/6K5[A'] w - - 0 1");
    assert!(
        e.contains("`A'` in hand: no piece of this variant is written so"),
        "{e}"
    );
}

#[test]
fn moves_of_primed_pieces_are_written_with_their_name_and_read_back() {
    let rs = primed();
    // A Crowned Knight (`N'`) on e4 takes a Pawn on f6.
    let mut p = pos(&rs, "6k5/12/12/12/12/12/5p6/12/4N'7/12/12/6K5[] w - - 0 1");
    let (mv, s, c) = written(&mut p, "e4f6");
    assert_eq!((s.as_str(), c.as_str()), ("N'xf6", "e4f6"));
    for text in ["N'xf6", "N'f6", "N'e4xf6", "N'e4-f6"] {
        assert_eq!(parse_move(&mut p, text).ok(), Some(mv), "{text}");
    }
    // The Knight beside it is another piece: `Nf6` is no move of the Crowned Knight.
    assert!(parse_move(&mut p, "Nxf6").is_err());
    // Two Short Rooks (`R'`) on the e file: the rank tells them apart.
    let mut p = pos(
        &rs,
        "6k5/12/12/12/12/12/4R'7/12/12/12/4R'1K5/12[] w - - 0 1",
    );
    let (from6, s, _) = written(&mut p, "e6e4");
    assert_eq!(s, "R'6e4");
    let (from2, s, _) = written(&mut p, "e2e4");
    assert_eq!(s, "R'2e4");
    assert_eq!(parse_move(&mut p, "R'6e4").unwrap(), from6);
    assert_eq!(parse_move(&mut p, "R'2e4").unwrap(), from2);
    let e = parse_move(&mut p, "R'e4").unwrap_err().to_string();
    assert!(
        e.starts_with("ambiguous: R'e4 could be e2e4 or e6e4"),
        "{e}"
    );
    // A name that no piece has.
    let e = parse_move(&mut p, "A'e4").unwrap_err().to_string();
    assert!(
        e.starts_with("A'e4: no piece is written A' (the pieces are K King,"),
        "{e}"
    );
    assert!(e.contains("N' Crowned Knight"), "{e}");
}

#[test]
fn promotions_to_primed_pieces_are_written_and_read_back() {
    let rs = primed();
    let mut p = pos(
        &rs,
        "12/4P7/12/2N'2S6/3N7k/12/12/12/12/12/12/6K5[] w - - 0 1",
    );
    // Each move: its coordinates, its SAN, and the promoted piece.
    for (c, s, to) in [
        // To a kind of its own: its name in lower case, prime and all.
        ("e11e12n'", "e12=N'", Some("N'")),
        ("e11e12q", "e12=Q", Some("Q")),
        // The Knight General is the Crowned Knight's and the Silver's promoted form: its name.
        ("c9c10+n'", "N'c10=+N'", Some("+N'")),
        ("f9f10+n'", "Sf10=+N'", Some("+N'")),
        ("c9c10", "N'c10", None),
        // The Knight's own promoted form: `+`, as in Shogi.
        ("d8c10+", "Nc10=+N", Some("+N")),
    ] {
        let mv = find(&mut p, c);
        assert_eq!(san(&mut p, mv), s, "{c}");
        assert_eq!(
            mv.promotion().map(|k| rs.variant.pieces[k].symbol.as_str()),
            to,
            "{c}"
        );
        assert_eq!(parse_move(&mut p, c).unwrap(), mv, "{c}");
        assert_eq!(parse_move(&mut p, s).unwrap(), mv, "{s}");
    }
    // The promoted piece's name in brackets, or straight after the square.
    let e12 = find(&mut p, "e11e12n'");
    for text in ["e12(N')", "e12N'", "e11e12=N'", "e12=n'"] {
        assert_eq!(parse_move(&mut p, text).unwrap(), e12, "{text}");
    }
    let c10 = find(&mut p, "c9c10+n'");
    for text in ["N'c10(+N')", "N'c10+N'", "c9c10=+N'"] {
        assert_eq!(parse_move(&mut p, text).unwrap(), c10, "{text}");
    }
    let e = parse_move(&mut p, "e12=A'").unwrap_err().to_string();
    assert_eq!(e, "e12=A': no piece is written A'");
    // A Knight General taken goes to the hand as a Crowned Knight, and comes back as one.
    let mut p = pos(&rs, "6k5/12/12/12/7+n'4/12/12/12/12/12/7R4/6K5[] w - - 0 1");
    let (mv, s, _) = written(&mut p, "h2h8");
    assert_eq!(s, "Rxh8");
    p.make(mv);
    assert_eq!(
        p.fen(),
        "6k5/12/12/12/7R4/12/12/12/12/12/12/6K5[N'] b - - 0 1"
    );
}

#[test]
fn drops_of_primed_pieces_are_written_and_read_back() {
    let rs = primed();
    let mut p = pos(
        &rs,
        "6k5/12/12/12/12/12/12/12/12/12/12/6K5[N'R'n'] w - - 0 1",
    );
    let (mv, s, c) = written(&mut p, "N'@e4");
    assert_eq!((s.as_str(), c.as_str()), ("N'@e4", "N'@e4"));
    assert_eq!(
        mv.dropped().map(|k| rs.variant.pieces[k].symbol.as_str()),
        Some("N'")
    );
    assert_eq!(parse_move(&mut p, "n'@e4").unwrap(), mv);
    // The Short Rook may not be dropped on the last rank (`no-drop-ranks`' key `"R'"`).
    assert!(parse_move(&mut p, "R'@e11").is_ok());
    assert!(parse_move(&mut p, "R'@e12").is_err());
    // A piece the side does not hold, and a name no piece has.
    let e = parse_move(&mut p, "B'@e4").unwrap_err().to_string();
    assert!(e.contains("B'@e4"), "{e}");
    let e = parse_move(&mut p, "A'@e4").unwrap_err().to_string();
    assert!(e.starts_with("A'@e4: no piece is written A'"), "{e}");
    p.make(mv);
    assert_eq!(
        p.fen(),
        "6k5/12/12/12/12/12/12/12/4N'7/12/12/6K5[R'n'] b - - 0 1"
    );
    let (_, s, c) = written(&mut p, "n'@e5");
    assert_eq!((s.as_str(), c.as_str()), ("N'@e5", "N'@e5"));
}

#[test]
fn the_board_drawing_widens_its_squares_for_primed_pieces() {
    let rs = primed();
    let start = Position::start(&rs);
    let text = board::draw(&start, None, true);
    let lines: Vec<&str> = text.lines().collect();
    // Room for a `+` before the letter and a prime after it: every square five characters
    // wide, the letters in one column.
    assert_eq!(board::name_width(&rs), 3);
    assert_eq!(board::width(&rs), 4 + 5 * 12);
    assert_eq!(lines.len(), 14, "{text}");
    assert!(
        widths(&text)[..13].iter().all(|&w| w == board::width(&rs)),
        "{text}"
    );
    assert_eq!(
        lines[9],
        "  3   J    U    X    Y    Z    N'   B'   R'   Q'   L'   .    .  "
    );
    assert_eq!(
        lines[2],
        " 10   j    u    x    y    z    n'   b'   r'   q'   l'   .    .  "
    );
    assert_eq!(
        lines[12],
        "      a    b    c    d    e    f    g    h    i    j    k    l  "
    );
    assert_eq!(lines[13], "    in hand: White -, Black -");
    // In colour too: one name a square, padded alike.
    let coloured = board::render(&start, None, board::Style::default(), &[]);
    assert!(coloured.contains(";1m  N' \u{1b}[0m"), "{coloured}");
    assert!(coloured.contains(";1m  J  \u{1b}[0m"), "{coloured}");
    // The last move marked, a promoted form and a primed piece in hand.
    let mut p = pos(&rs, "6k5/12/12/12/12/12/12/4p7/4N'7/12/12/6K5[] w - - 0 1");
    let mv = find(&mut p, "e4e5");
    p.make(mv);
    let text = board::draw(&p, Some(mv), true);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[7],
        "  5   .    .    .    .  [ N']  .    .    .    .    .    .    .  "
    );
    assert_eq!(
        lines[8],
        "  4   .    .    .    .  [ . ]  .    .    .    .    .    .    .  "
    );
    assert_eq!(lines[13], "    in hand: White P, Black -");
    let p = pos(
        &rs,
        "6k5/12/12/12/12/12/12/12/4+N'7/12/12/6K5[N'n'] w - - 0 1",
    );
    let text = board::draw(&p, None, true);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[8],
        "  4   .    .    .    .   +N'   .    .    .    .    .    .    .  "
    );
    assert_eq!(lines[13], "    in hand: White N', Black n'");
    // The piece list: names and what each promotes to.
    let list = board::pieces_text(&rs);
    assert!(
        list.contains("\n  N'   Crowned Knight KN  promotes to +N'\n"),
        "{list}"
    );
    assert!(
        list.contains("\n  P    Pawn         fW  promotes to QN'\n"),
        "{list}"
    );
    // A game whose pieces are written `+X` and letters only keeps its four-character squares,
    // and one with primed pieces and letters only has them too, the prime after the letter.
    assert_eq!(
        board::name_width(&rules(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/many-kinds.toml"
        ))),
        2
    );
    let small = crate::common::compile(
        &with_piece("Phoenix", "R'", "").replace("RK3\"", "RKR'2\""),
        FILE,
    );
    assert_eq!(board::name_width(&small), 2);
    let text = board::draw(&Position::start(&small), None, true);
    assert!(text.contains("\n  1  R   K   R'  .   .  \n"), "{text}");
}

/// Every text written for games of `primed-kinds` names each piece by its name: the FEN reads
/// back, each legal move has coordinates of its own, and those of the moves by, to or of a
/// piece written `N'` and the played move's SAN read back as that move; the board's squares
/// line up; and no text shows a `?`.
#[test]
fn no_text_names_a_primed_piece_otherwise() {
    let rs = primed();
    // Every letter is some kind's own: the other programs have none to give the primed kinds.
    assert!(('A'..='Z').all(|c| rs.variant.kind_by_letter(c).is_some()));
    let is_primed = |k: usize| rs.variant.pieces[k].symbol.contains('\'');
    let mut primed_moves = 0;
    for seed in 1..=3 {
        let line = random_game(&rs, PRIMED_START, seed, 120);
        let mut p = pos(&rs, PRIMED_START);
        for text in &line {
            let fen = p.fen();
            assert_eq!(pos(&rs, &fen).fen(), fen);
            assert!(!fen.contains('?'), "{fen}");
            let drawing = board::draw(&p, None, true);
            assert!(!drawing.contains('?'), "{drawing}");
            let w = widths(&drawing);
            assert!(w[..13].iter().all(|&x| x == board::width(&rs)), "{drawing}");
            let moves = legal(&mut p);
            let names: std::collections::HashSet<String> =
                moves.iter().map(|&m| coord(&rs, m)).collect();
            assert_eq!(names.len(), moves.len(), "a name for each move in {fen}");
            for m in moves {
                let c = coord(&rs, m);
                assert!(!c.contains('?'), "{c}");
                let by = match m.dropped() {
                    Some(k) => is_primed(k),
                    None => is_primed(kind_of(p.piece_at(m.from))),
                };
                if by || m.promotion().is_some_and(is_primed) {
                    assert_eq!(parse_move(&mut p, &c).unwrap(), m, "{c} in {fen}");
                    let s = san(&mut p, m);
                    assert!(!s.contains('?'), "{s}");
                    assert_eq!(parse_move(&mut p, &s).unwrap(), m, "{s} in {fen}");
                    if by {
                        assert!(s.contains('\''), "{s} in {fen}");
                    }
                    primed_moves += 1;
                }
            }
            let mv = parse_move(&mut p, text).unwrap();
            let s = san(&mut p, mv);
            assert_eq!(parse_move(&mut p, &s).unwrap(), mv, "{s} in {fen}");
            p.make(mv);
        }
    }
    assert!(
        primed_moves > 100,
        "moves by or to primed pieces: {primed_moves}"
    );
}

// ---------------------------------------------------------------------------------------------
// The file's errors
// ---------------------------------------------------------------------------------------------

#[test]
fn a_primed_piece_loads_beside_its_letter_and_promoted_forms() {
    // `R`, `R'`, `+R` and `+R'`: four kinds; the Pawn promotes to the first two.
    let text = format!(
        "{}\n[[piece]]\nname = \"Dragon\"\nletter = \"+R\"\nbetza = \"RF\"\n\
         \n[[piece]]\nname = \"Great Phoenix\"\nletter = \"+R'\"\nbetza = \"RFA\"\n",
        with_piece("Phoenix", "R'", "promotes-to = \"+R'\"\n")
    )
    .replace("promotes-to = \"R\"", "promotes-to = \"RR'\"")
    .replace(
        "start = \"rk3/p4/5/P4/RK3\"",
        "start = \"rkr'1+r'/p4/5/P4/RKR'1+R'\"",
    );
    let v = Variant::from_toml(&text, FILE).unwrap_or_else(|e| panic!("{e}"));
    let rs = Ruleset::new(&v, None).unwrap();
    let (rook, phoenix) = (kind(&rs, "R"), kind(&rs, "R'"));
    let great = kind(&rs, "+R'");
    assert_eq!(v.pieces[phoenix].demotes_to, None);
    assert_eq!(v.pieces[great].demotes_to, Some(phoenix));
    assert_eq!(v.pieces[kind(&rs, "+R")].demotes_to, Some(rook));
    assert_eq!(v.pieces[kind(&rs, "P")].promotes_to, [rook, phoenix]);
    assert_eq!(
        Position::start(&rs).fen(),
        "rkr'1+r'/p4/5/P4/RKR'1+R' w - - 0 1"
    );
    // A piece with a letter of its own may demote to a primed piece: a FEN writes it `+R'`.
    let text = format!(
        "{}\n[[piece]]\nname = \"Horse\"\nletter = \"H\"\nbetza = \"RW\"\ndemotes-to = \"R'\"\n",
        with_piece("Phoenix", "R'", "")
    )
    .replace("RK3\"", "RKH2\"");
    let v = Variant::from_toml(&text, FILE).unwrap_or_else(|e| panic!("{e}"));
    let rs = Ruleset::new(&v, None).unwrap();
    assert_eq!(v.pieces[kind(&rs, "H")].demotes_to, Some(kind(&rs, "R'")));
    assert_eq!(kind(&rs, "+R'"), kind(&rs, "H"));
    assert_eq!(Position::start(&rs).fen(), "rk3/p4/5/P4/RK+R'2 w - - 0 1");
    // A start hand holding one, written `R'` in the FEN's hand too.
    let text = format!("{}[rules.drops]\n", with_piece("Phoenix", "R'", ""))
        .replace("RK3\"", "RK3[R'r']\"");
    let rs = crate::common::compile(&text, FILE);
    assert_eq!(
        Position::start(&rs).fen(),
        "rk3/p4/5/P4/RK3[R'r'] w - - 0 1"
    );
}

#[test]
fn a_primed_letter_that_is_malformed_is_refused_at_its_character() {
    let hint = one_error(
        &with_piece("Phoenix", "'", ""),
        28,
        11,
        "letter of Phoenix is \"'\" alone: a prime follows a piece's letter (`N'`)",
    );
    assert_eq!(
        hint,
        "write letter = \"N'\" for a piece named by the letter N and a prime"
    );
    let hint = one_error(
        &with_piece("Phoenix", "F''", ""),
        28,
        13,
        "letter of Phoenix is \"F''\": a prime is written once, after the piece's letter",
    );
    assert_eq!(hint, "write letter = \"F'\"");
    let hint = one_error(
        &with_piece("Phoenix", "f'", ""),
        28,
        11,
        "letter of Phoenix is \"f'\": before the prime comes the piece's letter, in upper case",
    );
    assert_eq!(hint, "write letter = \"F'\"");
    let hint = one_error(
        &with_piece("Phoenix", "'F", ""),
        28,
        11,
        "letter of Phoenix is \"'F\": the prime comes after the letter, not before it",
    );
    assert_eq!(hint, "write letter = \"F'\"");
    let hint = one_error(
        &with_piece("Phoenix", "FF'", ""),
        28,
        10,
        "letter of Phoenix must be one upper-case letter A-Z, or one and a prime (`N'`), found \"FF'\"",
    );
    assert!(hint.contains("N'"), "{hint}");
    // The promoted form of a primed piece: `+` once, then the name in upper case.
    let hint = one_error(
        &with_piece("Phoenix", "+r'", ""),
        28,
        12,
        "letter of Phoenix is \"+r'\": after `+` comes the piece's name, in upper case",
    );
    assert_eq!(hint, "write letter = \"+R'\"");
    let hint = one_error(
        &with_piece("Phoenix", "+R''", ""),
        28,
        14,
        "letter of Phoenix is \"+R''\": a prime is written once, after the piece's letter",
    );
    assert_eq!(hint, "write letter = \"+R'\"");
}

#[test]
fn a_primed_letter_must_name_a_piece_once() {
    // Two pieces written `F'`: the second is refused.
    let text = format!(
        "{}\n[[piece]]\nname = \"Falcon\"\nletter = \"F'\"\nbetza = \"BW\"\n",
        with_piece("Phoenix", "F'", "")
    );
    let hint = one_error(
        &text,
        33,
        10,
        "letter \"F'\" is used twice: by Phoenix and by Falcon",
    );
    assert!(hint.starts_with("every piece needs its own name"), "{hint}");
    // `+F'`: no piece `F'`.
    let hint = one_error(
        &with_piece("Great Phoenix", "+F'", ""),
        28,
        12,
        "Great Phoenix is written \"+F'\", the promoted form of \"F'\", but no piece is written \"F'\"",
    );
    assert_eq!(hint, "the pieces' letters are KRP (and +F')");
    // `demotes-to` naming another piece than the one after `+`.
    let text = format!(
        "{}\n[[piece]]\nname = \"Great Phoenix\"\nletter = \"+F'\"\nbetza = \"RFA\"\ndemotes-to = \"R\"\n",
        with_piece("Phoenix", "F'", "")
    );
    let hint = one_error(
        &text,
        35,
        15,
        "Great Phoenix is written \"+F'\", the promoted form of \"F'\", but `demotes-to` names \"R\"",
    );
    assert_eq!(
        hint,
        "leave `demotes-to` out: `+F'` says what Great Phoenix is made from"
    );
}

#[test]
fn lists_of_pieces_read_primed_names() {
    // `promotes-to = "RF'"` (line 21, the value's first character at column 16): no `F'`.
    let text = MINI.replace("promotes-to = \"R\"", "promotes-to = \"RF'\"");
    let hint = one_error(
        &text,
        21,
        17,
        "Pawn promotes to \"F'\", but no piece is written so",
    );
    assert_eq!(hint, "the pieces' letters are KRP");
    // A rule's list: the drops' kinds.
    let text = format!(
        "{}[rules.drops]\nkinds = \"PF'R'\"\n",
        with_piece("Phoenix", "F'", "")
    );
    let hint = one_error(
        &text,
        31,
        13,
        "`rules.drops.kinds`: no piece is written \"R'\"",
    );
    assert_eq!(hint, "the pieces' letters are KRP (and F')");
    // The start position: `R'` names no piece, a prime after no letter none either.
    let text = with_piece("Phoenix", "F'", "").replace("RK3\"", "RKR'2\"");
    one_error(&text, 4, 24, "start position: no piece is written \"R'\"");
    let text = with_piece("Phoenix", "F'", "").replace("RK3\"", "RK2'1\"");
    one_error(
        &text,
        4,
        25,
        "start position: a prime `'` must follow a piece's letter",
    );
    let text = with_piece("Phoenix", "F'", "").replace("RK3\"", "RK+F'2\"");
    one_error(
        &text,
        4,
        24,
        "start position: `+F'`: no piece is the promoted form of \"F'\"",
    );
    // `no-capture` names pieces by name too, `F'` among them.
    let text = with_piece("Cannon", "C", "no-capture = \"F'\"\n").replace(
        "betza = \"RF\"\nno-capture",
        "betza = \"mRcpR\"\nno-capture",
    );
    let hint = one_error(
        &text,
        30,
        15,
        "Cannon: `no-capture` names \"F'\", but no piece is written so",
    );
    assert_eq!(hint, "the pieces' letters are KRPC");
    let text = format!(
        "{}\n[[piece]]\nname = \"Phoenix\"\nletter = \"F'\"\nbetza = \"WA\"\n",
        with_piece("Cannon", "C", "no-capture = \"F'\"\n").replace(
            "betza = \"RF\"\nno-capture",
            "betza = \"mRcpR\"\nno-capture"
        )
    );
    let v = Variant::from_toml(&text, FILE).unwrap_or_else(|e| panic!("{e}"));
    let cannon = v.kind_by_symbol("C").unwrap();
    assert_eq!(
        v.pieces[cannon].no_capture,
        [v.kind_by_symbol("F'").unwrap()]
    );
    // A `[[test]]`'s FEN: a primed name no piece has, at its column.
    let text = format!(
        "{}\n[[test]]\nsource = \"here\"\nfen = \"rk3/p4/5/P4/RKG'2 w - - 0 1\"\nperft = [1]\n",
        with_piece("Phoenix", "F'", "")
    );
    let e = errors(&text);
    assert!(
        e.iter().any(|l| l.contains("no piece is written \"G'\"")),
        "{e:#?}"
    );
}

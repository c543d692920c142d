//! Pieces without a letter of their own, written `+X` (the promoted form of the piece `X`):
//! a file with more kinds than letters (`tests/data/many-kinds.toml`), the file's errors, and
//! every text that names such a piece (FEN, SAN, coordinates, the board drawing, the piece
//! list) — always by its name `+X`, never by anything else.

use std::sync::Arc;

use polymachy::game::{parse_move, san};
use polymachy::moves::{Move, kind_of};
use polymachy::position::{Position, Ruleset};
use polymachy::text::board;
use polymachy::text::coord;
use polymachy::variant::{Variant, VariantError};

use crate::common::{MINI, fen_error, find, legal, pos, random_game, rules};

const MANY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/many-kinds.toml");

/// The start of `many-kinds.toml`, as the FEN writes it.
const MANY_START: &str = "lanseokgsnal/rcdfhimoqtvb/z+rw9/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/Z+RW9/RCDFHIMOQTVB/LANSEOKGSNAL[] w - - 0 1";

fn many() -> Arc<Ruleset> {
    rules(MANY)
}

/// The kind named `symbol`.
pub(crate) fn kind(rs: &Ruleset, symbol: &str) -> usize {
    rs.variant
        .kind_by_symbol(symbol)
        .unwrap_or_else(|| panic!("no piece {symbol}"))
}

#[test]
fn a_file_may_have_more_kinds_than_letters() {
    let rs = many();
    let v = &rs.variant;
    assert_eq!(v.pieces.len(), 30);
    assert_eq!(v.pieces.iter().filter(|p| p.letter.is_some()).count(), 22);
    let plus: Vec<&str> = v
        .pieces
        .iter()
        .filter(|p| p.letter.is_none())
        .map(|p| p.symbol.as_str())
        .collect();
    assert_eq!(plus, ["+P", "+L", "+N", "+S", "+B", "+R", "+E", "+W"]);
    // `+R` is the promoted form of the Rook, without `demotes-to` (the Dragon Horse) or with
    // it naming the same piece (the Dragon King).
    for (promoted, base) in [("+B", "B"), ("+R", "R"), ("+P", "P")] {
        assert_eq!(
            v.pieces[kind(&rs, promoted)].demotes_to,
            Some(kind(&rs, base)),
            "{promoted}"
        );
    }
    assert_eq!(v.pieces[kind(&rs, "+r")].name, "Dragon King");
    // `promotes-to = "G+B"`: a letter, then a name written `+X`.
    assert_eq!(
        v.pieces[kind(&rs, "T")].promotes_to,
        [kind(&rs, "G"), kind(&rs, "+B")]
    );
    assert!(v.piece_names().contains(&"+R Dragon King".to_string()));
    // Nothing finds a kind without a letter by a letter of its own.
    assert_eq!(v.kind_by_letter('+'), None);
    assert!(v.pieces.iter().all(|p| p.symbol != "?"));
}

#[test]
fn the_start_position_holds_plus_pieces_and_fens_round_trip() {
    let rs = many();
    let start = Position::start(&rs);
    assert_eq!(start.fen(), MANY_START);
    let b3 = rs.geometry.parse_square("b3").unwrap();
    assert_eq!(rs.symbol(start.piece_at(b3)), "+R");
    let b10 = rs.geometry.parse_square("b10").unwrap();
    assert_eq!(rs.symbol(start.piece_at(b10)), "+r");
    for fen in [
        MANY_START,
        "6k5/12/2+p9/12/7+b4/12/12/4+E7/12/12/12/6K5[BPp] b - - 3 20",
        "+w5k5/12/12/12/12/12/12/12/12/12/12/+L5K4+l[] w - - 0 1",
    ] {
        assert_eq!(pos(&rs, fen).fen(), fen);
    }
    // `+X` names the promoted form of `X`: not a piece `X` has none of, nor nothing.
    let e = fen_error(&rs, "6k5/12/12/12/12/12/12/12/12/12/12/+G5K5[] w - - 0 1");
    assert!(
        e.contains("`+G`: no piece is the promoted form of 'G'"),
        "{e}"
    );
    let e = fen_error(&rs, "6k5/12/12/12/12/12/12/12/12/12/12/+J5K5[] w - - 0 1");
    assert!(e.contains("no piece has the letter 'J'"), "{e}");
    let e = fen_error(&rs, "6k5/12/12/12/12/12/12/12/12/12/12/6K4+[] w - - 0 1");
    assert!(
        e.contains("`+` must be followed by a piece's letter"),
        "{e}"
    );
}

/// The legal move of `pos` named `text` (SAN or coordinates), its SAN, and its coordinates.
pub(crate) fn written(pos: &mut Position, text: &str) -> (Move, String, String) {
    let mv = parse_move(pos, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let s = san(pos, mv);
    (mv, s, coord(pos.rules(), mv))
}

#[test]
fn moves_of_plus_pieces_are_written_with_their_name_and_read_back() {
    let rs = many();
    // A Dragon King (`+R`) on e4 takes a Pawn on e5.
    let mut p = pos(&rs, "6k5/12/12/12/12/12/12/4p7/4+R7/12/12/6K5[] w - - 0 1");
    let (mv, s, c) = written(&mut p, "e4e5");
    assert_eq!((s.as_str(), c.as_str()), ("+Rxe5", "e4e5"));
    assert_eq!(parse_move(&mut p, "+Rxe5").unwrap(), mv);
    assert_eq!(parse_move(&mut p, "+Re5").unwrap(), mv);
    // Two on the e file: the rank tells them apart.
    let mut p = pos(
        &rs,
        "6k5/12/12/12/12/12/12/4+R7/12/12/12/4+R1K5[] w - - 0 1",
    );
    let (from5, s, _) = written(&mut p, "e5e4");
    assert_eq!(s, "+R5e4");
    let (from1, s, _) = written(&mut p, "e1e4");
    assert_eq!(s, "+R1e4");
    assert_eq!(parse_move(&mut p, "+R5e4").unwrap(), from5);
    assert_eq!(parse_move(&mut p, "+R1e4").unwrap(), from1);
    let e = parse_move(&mut p, "+Re4").unwrap_err().to_string();
    assert!(
        e.starts_with("ambiguous: +Re4 could be e1e4 or e5e4"),
        "{e}"
    );
    // A name that no piece has.
    let e = parse_move(&mut p, "+Ge4").unwrap_err().to_string();
    assert!(
        e.starts_with("+Ge4: no piece is written +G (the pieces are K King,"),
        "{e}"
    );
    assert!(e.contains("+R Dragon King"), "{e}");
}

#[test]
fn promotions_to_plus_pieces_are_written_and_read_back() {
    let rs = many();
    let mut p = pos(
        &rs,
        "6k5/12/12/3T1P6/2R9/7B4/12/12/12/12/12/6K5[] w - - 0 1",
    );
    // Each move: its coordinates, its SAN, and the promoted piece.
    for (c, s, to) in [
        // The mover's own promoted form: `+` in coordinates, as in Shogi.
        ("c8c10+", "Rc10=+R", Some("+R")),
        ("f9f10+", "f10=+P", Some("+P")),
        // The Dragon Horse is also the Tortoise's: its name, in lower case.
        ("d9d10+b", "Td10=+B", Some("+B")),
        ("h7k10+b", "Bk10=+B", Some("+B")),
        ("d9d10g", "Td10=G", Some("G")),
        ("c8c10", "Rc10", None),
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
    let td10 = find(&mut p, "d9d10+b");
    for text in ["Td10(+B)", "Td10+B", "d9d10=+B"] {
        assert_eq!(parse_move(&mut p, text).unwrap(), td10, "{text}");
    }
    let e = parse_move(&mut p, "Td10=+Q").unwrap_err().to_string();
    assert_eq!(e, "Td10=+Q: no piece is written +Q");
    // A Dragon Horse taken goes to the hand as a Bishop, and comes back as one.
    let mut p = pos(&rs, "6k5/12/12/12/7+b4/12/12/12/12/12/7R4/6K5[] w - - 0 1");
    let (mv, s, _) = written(&mut p, "h2h8");
    assert_eq!(s, "Rxh8");
    p.make(mv);
    assert_eq!(
        p.fen(),
        "6k5/12/12/12/7R4/12/12/12/12/12/12/6K5[B] b - - 0 1"
    );
}

/// The lines of a drawing, and their widths in characters.
pub(crate) fn widths(text: &str) -> Vec<usize> {
    text.lines().map(|l| l.chars().count()).collect()
}

#[test]
fn the_board_drawing_widens_its_squares_for_plus_pieces() {
    let rs = many();
    let start = Position::start(&rs);
    let text = board::draw(&start, None, true);
    let lines: Vec<&str> = text.lines().collect();
    // Twelve ranks, the file letters, the hands: every square four characters wide, names
    // right-aligned, so the files stay in columns.
    assert_eq!(board::name_width(&rs), 2);
    assert_eq!(board::width(&rs), 4 + 4 * 12);
    assert_eq!(lines.len(), 14, "{text}");
    assert!(
        widths(&text)[..13].iter().all(|&w| w == board::width(&rs)),
        "{text}"
    );
    assert_eq!(
        lines[9],
        "  3   Z  +R   W   .   .   .   .   .   .   .   .   . "
    );
    assert_eq!(
        lines[2],
        " 10   z  +r   w   .   .   .   .   .   .   .   .   . "
    );
    assert_eq!(
        lines[12],
        "      a   b   c   d   e   f   g   h   i   j   k   l "
    );
    assert_eq!(lines[13], "    in hand: White -, Black -");
    // In colour too: one name a square, padded alike.
    let coloured = board::render(&start, None, board::Style::default(), &[]);
    assert!(coloured.contains(";1m +R \u{1b}[0m"), "{coloured}");
    assert!(coloured.contains(";1m  Z \u{1b}[0m"), "{coloured}");
    // The last move marked: its squares bracketed, the width kept.
    let mut p = pos(&rs, "6k5/12/12/12/12/12/12/4p7/4+R7/12/12/6K5[] w - - 0 1");
    let mv = find(&mut p, "e4e5");
    p.make(mv);
    let text = board::draw(&p, Some(mv), true);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[7],
        "  5   .   .   .   . [+R]  .   .   .   .   .   .   . "
    );
    assert_eq!(
        lines[8],
        "  4   .   .   .   . [ .]  .   .   .   .   .   .   . "
    );
    assert_eq!(lines[13], "    in hand: White P, Black -");
    // The piece list: names and what each promotes to.
    let list = board::pieces_text(&rs);
    assert!(list.contains("\n  +R  Dragon King  RF\n"), "{list}");
    assert!(
        list.contains("\n  T   Tortoise     fWbF  promotes to G+B\n"),
        "{list}"
    );
    // A game whose pieces all have letters keeps its three-character squares.
    let chess = rules("chess");
    assert_eq!(board::width(&chess), 4 + 3 * 8);
    let text = board::draw(&Position::start(&chess), None, true);
    assert!(text.starts_with("  8  r  n  b  q  k  b  n  r \n"), "{text}");
}

/// Every text written for games of `many-kinds` names each piece by its name: the FEN reads
/// back, each legal move has coordinates of its own, and those of the moves by or to a piece
/// written `+X` and the played move's SAN read back as that move; the board's squares line
/// up; and no text shows a `?` or a letter that no piece of the game has — among them the
/// letters that the game's Fairy-Stockfish section and XBoard table give the pieces written
/// `+X`.
#[test]
fn no_text_names_a_plus_piece_otherwise() {
    let rs = many();
    let unused: Vec<char> = ('A'..='Z')
        .filter(|&c| rs.variant.kind_by_letter(c).is_none())
        .collect();
    assert_eq!(unused, ['J', 'U', 'X', 'Y']);
    // The letters others see: the four free ones, and none for the other four.
    let stand_ins: Vec<Option<char>> = rs
        .variant
        .stand_in_letters(|_| true)
        .into_iter()
        .zip(&rs.variant.pieces)
        .filter(|(_, p)| p.letter.is_none())
        .map(|(l, _)| l)
        .collect();
    assert_eq!(
        stand_ins,
        [
            Some('J'),
            Some('U'),
            Some('X'),
            Some('Y'),
            None,
            None,
            None,
            None
        ]
    );
    // Upper case: no text; lower case too where files are no letters (`j` is a file).
    let clean = |what: &str, text: &str, lower_too: bool| {
        assert!(!text.contains('?'), "{what}: {text}");
        for &c in &unused {
            assert!(!text.contains(c), "{what}: `{c}` in {text}");
            let l = c.to_ascii_lowercase();
            assert!(!lower_too || !text.contains(l), "{what}: `{l}` in {text}");
        }
    };
    let is_plus = |k: usize| rs.variant.pieces[k].letter.is_none();
    let mut plus_moves = 0;
    for seed in 1..=3 {
        let line = random_game(&rs, MANY_START, seed, 120);
        let mut p = pos(&rs, MANY_START);
        for text in &line {
            let fen = p.fen();
            assert_eq!(pos(&rs, &fen).fen(), fen);
            clean("FEN", fen.split(' ').next().unwrap(), true);
            let drawing = board::draw(&p, None, true);
            let ranks: Vec<&str> = drawing.lines().take(12).collect();
            clean("board", &ranks.join("\n"), true);
            clean("board", &drawing, false);
            let w = widths(&drawing);
            assert!(w[..13].iter().all(|&x| x == board::width(&rs)), "{drawing}");
            let moves = legal(&mut p);
            let names: std::collections::HashSet<String> =
                moves.iter().map(|&m| coord(&rs, m)).collect();
            assert_eq!(names.len(), moves.len(), "a name for each move in {fen}");
            for m in moves {
                let c = coord(&rs, m);
                clean("coordinates", &c, false);
                let by = m.dropped().is_none() && is_plus(kind_of(p.piece_at(m.from)));
                if by || m.promotion().is_some_and(is_plus) {
                    assert_eq!(parse_move(&mut p, &c).unwrap(), m, "{c} in {fen}");
                    let s = san(&mut p, m);
                    clean("SAN", &s, false);
                    assert_eq!(parse_move(&mut p, &s).unwrap(), m, "{s} in {fen}");
                    if by {
                        assert!(s.starts_with('+'), "{s} in {fen}");
                    }
                    plus_moves += 1;
                }
            }
            let mv = parse_move(&mut p, text).unwrap();
            let s = san(&mut p, mv);
            clean("SAN", &s, false);
            assert_eq!(parse_move(&mut p, &s).unwrap(), mv, "{s} in {fen}");
            p.make(mv);
        }
    }
    assert!(plus_moves > 100, "moves by or to plus pieces: {plus_moves}");
}

// ---------------------------------------------------------------------------------------------
// The file's errors
// ---------------------------------------------------------------------------------------------

pub(crate) const FILE: &str = "mini.toml";

/// The errors of a variant text that must be refused.
pub(crate) fn errors(text: &str) -> Vec<String> {
    match Variant::from_toml(text, FILE) {
        Ok(_) => panic!("should be refused:\n{text}"),
        Err(VariantError { lines }) => lines,
    }
}

/// [`MINI`] (King, Rook, Pawn) with a piece `name` appended: its table starts on line 26,
/// `name` on line 27, `letter` on line 28 (the value's `+` at column 11), `betza` on line 29,
/// and `more` from line 30.
pub(crate) fn with_piece(name: &str, letter: &str, more: &str) -> String {
    format!("{MINI}\n[[piece]]\nname = \"{name}\"\nletter = \"{letter}\"\nbetza = \"RF\"\n{more}")
}

/// The one error, which must be `file:line:col: message` with a hint; the hint.
pub(crate) fn one_error(text: &str, line: usize, col: usize, message: &str) -> String {
    let e = errors(text);
    assert_eq!(e.len(), 1, "{e:#?}");
    let prefix = format!("{FILE}:{line}:{col}: {message}");
    assert!(
        e[0].starts_with(&prefix),
        "{:?} should start {prefix:?}",
        e[0]
    );
    let (_, hint) = e[0]
        .split_once("\n  hint: ")
        .unwrap_or_else(|| panic!("no hint: {}", e[0]));
    hint.to_string()
}

#[test]
fn a_plus_piece_loads_and_its_promotion_names_it() {
    let text = with_piece("Dragon", "+R", "")
        .replace("promotes-to = \"R\"", "promotes-to = \"R+R\"")
        .replace(
            "start = \"rk3/p4/5/P4/RK3\"",
            "start = \"rk2+r/p4/5/P4/RK2+R\"",
        );
    let v = Variant::from_toml(&text, FILE).unwrap_or_else(|e| panic!("{e}"));
    let rs = Ruleset::new(&v, None).unwrap();
    let dragon = kind(&rs, "+R");
    assert_eq!(v.pieces[dragon].symbol, "+R");
    assert_eq!(v.pieces[dragon].demotes_to, Some(kind(&rs, "R")));
    assert_eq!(
        v.pieces[kind(&rs, "P")].promotes_to,
        [kind(&rs, "R"), dragon]
    );
    assert_eq!(Position::start(&rs).fen(), "rk2+r/p4/5/P4/RK2+R w - - 0 1");
    // Writing `demotes-to` is allowed where it names the same piece.
    let text = with_piece("Dragon", "+R", "demotes-to = \"R\"\n");
    Variant::from_toml(&text, FILE).unwrap_or_else(|e| panic!("{e}"));
    // A start hand holding one, written `+R` in the FEN's hand too.
    let text =
        format!("{}[rules.drops]\n", with_piece("Dragon", "+R", "")).replace("RK3\"", "RK3[+Rp]\"");
    let v = Variant::from_toml(&text, FILE).unwrap_or_else(|e| panic!("{e}"));
    let dragon = v.kind_by_symbol("+R").unwrap();
    assert!(
        v.start_hand
            .contains(&(dragon, polymachy::geometry::Color::White))
    );
    let rs = Ruleset::new(&v, None).unwrap();
    assert_eq!(Position::start(&rs).fen(), "rk3/p4/5/P4/RK3[+Rp] w - - 0 1");
    // An evaluation table keyed by names: `"+R"`, quoted, as TOML wants it, and written so.
    let text = format!(
        "{}[eval.values]\n\"+R\" = [1000, 1100]\n",
        with_piece("Dragon", "+R", "")
    );
    let v = Variant::from_toml(&text, FILE).unwrap_or_else(|e| panic!("{e}"));
    let eval = v.eval.as_ref().unwrap();
    assert_eq!(
        eval.values[v.kind_by_symbol("+R").unwrap()],
        Some((1000, 1100))
    );
    let written = eval.to_toml(&v.pieces);
    assert!(
        written.contains("\n\"+R\" = [1000, 1100]  # Dragon\n"),
        "{written}"
    );
}

#[test]
fn a_plus_letter_that_is_malformed_is_refused_at_its_character() {
    let hint = one_error(
        &with_piece("Dragon", "+", ""),
        28,
        11,
        "letter of Dragon is \"+\" alone: a promoted piece is written `+` and the letter of the piece it is made from",
    );
    assert_eq!(
        hint,
        "write letter = \"+P\" for the promoted form of the piece P"
    );
    let hint = one_error(
        &with_piece("Dragon", "++R", ""),
        28,
        12,
        "letter of Dragon is \"++R\": `+` is written once, before a piece's letter",
    );
    assert_eq!(hint, "write letter = \"+R\"");
    let hint = one_error(
        &with_piece("Dragon", "+r", ""),
        28,
        12,
        "letter of Dragon is \"+r\": after `+` comes the piece's letter, in upper case",
    );
    assert_eq!(hint, "write letter = \"+R\"");
    let hint = one_error(
        &with_piece("Dragon", "+RR", ""),
        28,
        10,
        "letter of Dragon must be `+` and one upper-case letter A-Z",
    );
    assert!(hint.contains("+P"), "{hint}");
}

#[test]
fn a_plus_letter_must_name_a_piece_once() {
    // `+Q`: no piece Q.
    let hint = one_error(
        &with_piece("Dragon", "+Q", ""),
        28,
        12,
        "Dragon is written \"+Q\", the promoted form of 'Q', but no piece has the letter 'Q'",
    );
    assert_eq!(hint, "the pieces' letters are KRP (and +Q)");
    // Two pieces written `+R`: the second is refused.
    let text = format!(
        "{}\n[[piece]]\nname = \"Horse\"\nletter = \"+R\"\nbetza = \"RW\"\n",
        with_piece("Dragon", "+R", "")
    );
    let hint = one_error(
        &text,
        33,
        10,
        "letter \"+R\" is used twice: by Dragon and by Horse (a piece has one promoted form)",
    );
    assert!(
        hint.starts_with("give one of them a letter of its own"),
        "{hint}"
    );
    // A piece with a letter of its own that demotes to the Rook too.
    let text = format!(
        "{}\n[[piece]]\nname = \"Horse\"\nletter = \"H\"\nbetza = \"RW\"\ndemotes-to = \"R\"\n",
        with_piece("Dragon", "+R", "")
    );
    one_error(
        &text,
        35,
        14,
        "two pieces demote to Rook: a FEN's `+R` would not say which",
    );
    // `demotes-to` naming another piece than the one after `+`.
    let hint = one_error(
        &with_piece("Dragon", "+R", "demotes-to = \"P\"\n"),
        30,
        15,
        "Dragon is written \"+R\", the promoted form of 'R', but `demotes-to` names \"P\"",
    );
    assert_eq!(
        hint,
        "leave `demotes-to` out: `+R` says what Dragon is made from"
    );
}

#[test]
fn lists_of_pieces_read_plus_names() {
    // `promotes-to = "+Q"` (line 21, the value's quote at column 15): no piece is written so.
    let text =
        with_piece("Dragon", "+R", "").replace("promotes-to = \"R\"", "promotes-to = \"+Q\"");
    let hint = one_error(
        &text,
        21,
        16,
        "Pawn promotes to '+Q', but no piece is written so",
    );
    assert_eq!(hint, "the pieces' letters are KRP (and +R)");
    // A rule's list: the drops' kinds.
    let text = format!(
        "{}[rules.drops]\nkinds = \"P+P\"\n",
        with_piece("Dragon", "+R", "")
    );
    let hint = one_error(
        &text,
        31,
        11,
        "`rules.drops.kinds`: no piece is written '+P'",
    );
    assert_eq!(hint, "the pieces' letters are KRP (and +R)");
    // The start position: `+P` names no piece, `+Q` a piece that no letter has.
    let text = with_piece("Dragon", "+R", "").replace("RK3\"", "RK+P2\"");
    one_error(
        &text,
        4,
        24,
        "start position: `+P`: no piece is the promoted form of 'P'",
    );
    let text = with_piece("Dragon", "+R", "").replace("RK3\"", "RK+Q2\"");
    one_error(&text, 4, 25, "start position: no piece has the letter 'Q'");
    // `no-capture` names pieces by name too, `+R` among them.
    let text = with_piece("Cannon", "C", "no-capture = \"+R\"\n").replace(
        "betza = \"RF\"\nno-capture",
        "betza = \"mRcpR\"\nno-capture",
    );
    let hint = one_error(
        &text,
        30,
        15,
        "Cannon: `no-capture` names '+R', but no piece is written so",
    );
    assert_eq!(hint, "the pieces' letters are KRPC");
    let text = format!(
        "{}\n[[piece]]\nname = \"Dragon\"\nletter = \"+R\"\nbetza = \"RF\"\n",
        with_piece("Cannon", "C", "no-capture = \"+R\"\n").replace(
            "betza = \"RF\"\nno-capture",
            "betza = \"mRcpR\"\nno-capture"
        )
    );
    let v = Variant::from_toml(&text, FILE).unwrap_or_else(|e| panic!("{e}"));
    let cannon = v.kind_by_symbol("C").unwrap();
    assert_eq!(
        v.pieces[cannon].no_capture,
        [v.kind_by_symbol("+R").unwrap()]
    );
}

/// Minishogi's promoted pieces are written `+X` in its file: they have no letters of their
/// own, and its FENs, moves and promotions name them as before.
#[test]
fn minishogi_promoted_pieces_have_no_letters() {
    let rs = rules("minishogi");
    let v = &rs.variant;
    let plus: Vec<(&str, &str)> = v
        .pieces
        .iter()
        .filter(|p| p.letter.is_none())
        .map(|p| (p.symbol.as_str(), p.name.as_str()))
        .collect();
    assert_eq!(
        plus,
        [
            ("+P", "Tokin"),
            ("+S", "Promoted Silver"),
            ("+B", "Dragon Horse"),
            ("+R", "Dragon King")
        ]
    );
    assert_eq!(v.kind_by_letter('T'), None);
    // Two Dragon Horses (b4, d2) can take on c3: the file tells them apart.
    let fen = "3k1/1+B1r1/2g1p/PR1+Bs/KG3[s] w - - 5 21";
    let mut p = pos(&rs, fen);
    assert_eq!(p.fen(), fen);
    for (c, s) in [("d2e2", "+Bxe2"), ("b4c3", "+Bbxc3"), ("d2c3", "+Bdxc3")] {
        let mv = find(&mut p, c);
        assert_eq!(san(&mut p, mv), s, "{c}");
        assert_eq!(parse_move(&mut p, s).unwrap(), mv, "{s}");
    }
    // A Pawn's promotion: `+` in coordinates, `=+P` in SAN.
    let mut p = pos(&rs, "k4/4P/5/5/K4[] w - - 0 1");
    let mv = find(&mut p, "e4e5+");
    assert_eq!(san(&mut p, mv), "e5=+P");
    assert_eq!(mv.promotion(), v.kind_by_symbol("+P"));
}

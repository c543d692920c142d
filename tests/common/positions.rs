//! The library's games and positions as the tests build them: compiled variants, positions
//! from a FEN or from a list of pieces, and legal moves found by their names.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, LazyLock, Mutex};

use polymachy::game::parse_move;
use polymachy::geometry::Square;
use polymachy::moves::{EMPTY, Move, MoveList};
use polymachy::position::{Position, Ruleset};
use polymachy::text::coord;
use polymachy::variant::{BUILTIN, Variant};

/// A shipped variant (or a variant file) by name, compiled once a test binary: the rules are
/// immutable, so every test shares them (a 16×16 game takes a while to compile).
pub fn rules(name: &str) -> Arc<Ruleset> {
    static CACHE: LazyLock<Mutex<HashMap<String, Arc<Ruleset>>>> =
        LazyLock::new(|| Mutex::new(HashMap::new()));
    let cache = || CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(rs) = cache().get(name) {
        return rs.clone();
    }
    // Compiled without the lock, so that other tests' variants compile meanwhile.
    let rs = rules_with_setup(name, None);
    cache().entry(name.to_string()).or_insert(rs).clone()
}

/// A shipped variant (or a variant file) compiled with the setup choice `setup`.
pub fn rules_with_setup(name: &str, setup: Option<&str>) -> Arc<Ruleset> {
    let v = Variant::load(name).unwrap_or_else(|e| panic!("variant {name}: {e}"));
    Ruleset::new(&v, setup).unwrap_or_else(|e| panic!("ruleset {name} {setup:?}: {e}"))
}

/// A variant's text compiled, `file` naming it in messages; a test error if it is refused.
pub fn compile(text: &str, file: &str) -> Arc<Ruleset> {
    let v = Variant::from_toml(text, file).unwrap_or_else(|e| panic!("{file}: {e}"));
    Ruleset::new(&v, None).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// The text of a shipped variant's file.
pub fn builtin_text(name: &str) -> &'static str {
    BUILTIN
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no shipped variant {name}"))
        .1
}

/// The position `fen` describes; a test error if it is refused.
pub fn pos(rs: &Arc<Ruleset>, fen: &str) -> Position {
    Position::from_fen(rs, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Why `fen` is refused; a test error if it is read.
pub fn fen_error(rs: &Arc<Ruleset>, fen: &str) -> String {
    Position::from_fen(rs, fen)
        .map(|p| panic!("`{fen}` was read as {p:?}"))
        .unwrap_err()
        .to_string()
}

/// (0-based file, 0-based rank) of a square name such as `f1` or `p16`.
fn file_rank(sq: &str) -> (usize, usize) {
    let mut cs = sq.chars();
    let f = cs.next().expect("a file letter") as usize - 'a' as usize;
    let r: usize = cs.as_str().parse().expect("a rank number");
    (f, r - 1)
}

/// The FEN placement of a board holding `pieces` (square, FEN letter), ranks from the top.
pub fn placement(files: usize, ranks: usize, pieces: &[(&str, char)]) -> String {
    let mut board = vec![vec![None; files]; ranks];
    for &(sq, letter) in pieces {
        let (f, r) = file_rank(sq);
        assert!(f < files && r < ranks, "{sq} is off the board");
        assert!(board[r][f].is_none(), "{sq} is used twice");
        board[r][f] = Some(letter);
    }
    let mut rows = Vec::new();
    for row in board.iter().rev() {
        let mut s = String::new();
        let mut empty = 0;
        for square in row {
            match *square {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(c);
                }
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        rows.push(s);
    }
    rows.join("/")
}

/// A full FEN: the placement of `pieces` on the variant's board, then `rest` (side, rights,
/// e.p., clocks).
pub fn fen(rs: &Ruleset, pieces: &[(&str, char)], rest: &str) -> String {
    let g = rs.geometry;
    format!(
        "{} {rest}",
        placement(g.files as usize, g.ranks as usize, pieces)
    )
}

/// The position with `pieces` on the board and `rest` after the placement.
pub fn position(rs: &Arc<Ruleset>, pieces: &[(&str, char)], rest: &str) -> Position {
    pos(rs, &fen(rs, pieces, rest))
}

/// The square named `name`.
pub fn sq(rs: &Ruleset, name: &str) -> Square {
    rs.geometry
        .parse_square(name)
        .unwrap_or_else(|| panic!("{name} is not a square"))
}

/// The letter of the piece on `name` (Black's in lower case), or None for an empty square;
/// a piece without a letter of its own (written `+X`) is a test error.
pub fn piece(pos: &Position, name: &str) -> Option<char> {
    let rs = pos.rules().clone();
    let c = pos.piece_at(sq(&rs, name));
    (c != EMPTY).then(|| {
        let s = rs.symbol(c);
        let mut cs = s.chars();
        match (cs.next(), cs.next()) {
            (Some(l), None) => l,
            _ => panic!("the piece on {name} is written {s}, not one letter"),
        }
    })
}

/// The legal moves.
pub fn legal(pos: &mut Position) -> Vec<Move> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    list.as_slice().to_vec()
}

/// The legal moves in coordinate notation.
pub fn legal_names(pos: &mut Position) -> BTreeSet<String> {
    let rs = pos.rules().clone();
    legal(pos).into_iter().map(|m| coord(&rs, m)).collect()
}

/// The legal moves of the piece on `from`, in coordinate notation.
pub fn moves_from(pos: &mut Position, from: &str) -> BTreeSet<String> {
    let rs = pos.rules().clone();
    let from = sq(&rs, from);
    legal(pos)
        .into_iter()
        .filter(|m| m.from == from)
        .map(|m| coord(&rs, m))
        .collect()
}

/// The names as a set; a test error if one is there twice.
pub fn set(moves: &[&str]) -> BTreeSet<String> {
    let s: BTreeSet<String> = moves.iter().map(|m| m.to_string()).collect();
    assert_eq!(s.len(), moves.len(), "duplicate in the expected list");
    s
}

/// The one legal move written `text` in coordinate notation; a test error when there is none.
pub fn find(pos: &mut Position, text: &str) -> Move {
    let rs = pos.rules().clone();
    let found: Vec<Move> = legal(pos)
        .into_iter()
        .filter(|&m| coord(&rs, m) == text)
        .collect();
    assert_eq!(
        found.len(),
        1,
        "exactly one legal move {text} in {}",
        pos.fen()
    );
    found[0]
}

/// Plays the legal moves written `moves` in coordinate notation.
pub fn play_coords(pos: &mut Position, moves: &[&str]) {
    for m in moves {
        let mv = find(pos, m);
        pos.make(mv);
    }
}

/// Plays the legal move written `text` (coordinate notation or SAN).
pub fn play(pos: &mut Position, text: &str) -> Move {
    let mv = parse_move(pos, text).unwrap_or_else(|e| panic!("{text} in {}: {e}", pos.fen()));
    pos.make(mv);
    mv
}

/// A deterministic random game from `fen` (`seed` picks the moves): up to `plies` moves in
/// coordinate notation, stopping at a verdict.
pub fn random_game(rs: &Arc<Ruleset>, fen: &str, seed: u64, plies: usize) -> Vec<String> {
    let mut p = pos(rs, fen);
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut out = Vec::new();
    for _ in 0..plies {
        if p.verdict().is_some() {
            break;
        }
        let mut l = MoveList::new();
        p.legal_moves(&mut l);
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        let mv = l.as_slice()[(s % l.len() as u64) as usize];
        out.push(coord(p.rules(), mv));
        p.make(mv);
    }
    out
}

/// Every line of two plies from `p`: after each move the incremental hash is the one computed
/// from scratch and the one of the position's FEN, and unmake restores the FEN and the hash.
pub fn two_plies_restore(p: &mut Position) {
    let rs = p.rules().clone();
    let start = p.fen();
    for a in legal(p) {
        let f0 = (p.fen(), p.hash());
        p.make(a);
        let line = format!("{start}: {}", coord(&rs, a));
        assert_eq!(p.hash(), p.hash_from_scratch(), "{line}");
        assert_eq!(p.hash(), pos(&rs, &p.fen()).hash(), "{line}");
        for b in legal(p) {
            let f1 = (p.fen(), p.hash());
            p.make(b);
            assert_eq!(
                p.hash(),
                pos(&rs, &p.fen()).hash(),
                "{line} {}",
                coord(&rs, b)
            );
            p.unmake();
            assert_eq!((p.fen(), p.hash()), f1, "{line} {}", coord(&rs, b));
        }
        p.unmake();
        assert_eq!((p.fen(), p.hash()), f0, "{line}");
    }
}

/// The squares a move empties of enemy pieces, sorted, each after an `x` (`xe5xe6`): what the
/// data of other programs' moves write after a move's squares.
pub fn taken_text(p: &Position, m: Move) -> String {
    use polymachy::position::Effect;
    let g = p.rules().geometry;
    let mut taken: Vec<String> = p
        .effects(m)
        .as_slice()
        .iter()
        .filter_map(|e| match *e {
            Effect::Capture { sq } | Effect::CaptureToHand { sq, .. } => {
                Some(format!("x{}", g.name(sq)))
            }
            _ => None,
        })
        .collect();
    taken.sort();
    taken.concat()
}

//! Variants: a TOML file read and checked into a [`Variant`].
//!
//! Reading checks everything at once and reports every problem with its file, line and column
//! and a hint ([`VariantError`]). The built-in variants are the files of `variants/`, embedded in
//! the binary.

mod display;
mod eval_table;
mod load;
mod params;
mod spec;
mod test_table;
mod zones;

pub use display::Display;
pub use eval_table::{EvalTable, Term};
pub use load::Placement;
pub use load::{
    BUILTIN, BUILTIN_EVAL, BUILTIN_NETS, Files, MAX_ERRORS, MAX_NETWORK_BYTES, VariantError,
};
pub use params::{Diag, Params, SVal, Span, Val};
pub use spec::{RuleSpec, SpecCatalog};
pub use test_table::{ENDINGS, MAX_TEST_DEPTH, RESULTS, VariantTest};
pub use zones::Zone;

use crate::geometry::Color;
use crate::notation::Betza;

/// One piece type of a variant.
#[derive(Clone, Debug)]
pub struct PieceDef {
    /// Its name, such as "Eagle".
    pub name: String,
    /// Its own letter, upper case, by which the file's keys, FENs and moves name it; `None`
    /// for a kind written `letter = "+X"`, the promoted form of the piece `X`, and for a kind
    /// written with a letter and a prime (`letter = "N'"`), neither of which has a letter of
    /// its own. Never printed: every text names a kind by [`PieceDef::symbol`].
    pub letter: Option<char>,
    /// How every text writes it (board, moves, lists, the page, `variants --toml`): its letter
    /// (`P`); a letter and a prime (`N'`), as XBoard names its extra pieces; or for a promoted
    /// form without a letter of its own `+` and its base's name (`+P`, `+N'`). White's form,
    /// upper case; [`PieceDef::symbol_for`] gives Black's (`+p`, `n'`).
    pub symbol: String,
    /// Its movement exactly as written in the file.
    pub betza_text: String,
    /// Its movement, parsed.
    pub betza: Betza,
    /// Its value in centipawns, when the file gives one.
    pub value: Option<i32>,
    /// Whether losing it loses the game (checkmate applies to it).
    pub royal: bool,
    /// Kinds it may promote to (empty: it does not promote).
    pub promotes_to: Vec<usize>,
    /// The kind it is the promoted form of (`demotes-to`, or implied by `letter = "+X"`): it
    /// goes to a hand as that kind when captured, and a FEN writes it `+` and that kind's
    /// letter (`+P`), as Shogi FENs do.
    pub demotes_to: Option<usize>,
    /// The zone it never leaves (`confined`), an index into [`Variant::zones`].
    pub confined: Option<usize>,
    /// Other movements where it stands in a zone (`betza-in`), the first that holds it wins.
    pub betza_in: Vec<ZonedBetza>,
    /// Movements it has besides, where it stands in a zone, whose every destination and
    /// square passed lies in that zone (`betza-within`: Janggi's palace diagonals).
    pub betza_within: Vec<ZonedBetza>,
    /// Kinds it may not hop over (`no-screen`: the Janggi Cannon's Cannons).
    pub no_screen: Vec<usize>,
    /// Kinds it may not take (`no-capture`: the Janggi Cannon's Cannons).
    pub no_capture: Vec<usize>,
}

impl PieceDef {
    /// How a piece of this kind and `color` is written: [`PieceDef::symbol`], in lower case
    /// for Black (`p`, `+p`, `n'`).
    pub fn symbol_for(&self, color: Color) -> String {
        match color {
            Color::White => self.symbol.clone(),
            Color::Black => self.symbol.to_ascii_lowercase(),
        }
    }

    /// Whether it is written with a letter and a prime (`N'`): a kind of its own, not a
    /// promoted form, that has no letter of its own.
    pub fn primed(&self) -> bool {
        self.symbol.len() == 2 && self.symbol.ends_with('\'')
    }
}

/// A list of pieces as a file writes it (`"QRBN"`, `"Q+R"`, `"NN'"`) split into the names it
/// holds, each with the column (from 1, in characters) where it starts: a `+` and the
/// character after it are one name (`+R`), a letter and the prime after it are one (`N'`, and
/// `+N'`), every other character is one. A `+` at the end, and a prime after anything but a
/// letter, stand alone.
pub fn split_symbols(s: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut cs = s.chars().enumerate().peekable();
    while let Some((i, c)) = cs.next() {
        let mut name = c.to_string();
        let mut last = c;
        if c == '+'
            && let Some((_, n)) = cs.next()
        {
            name.push(n);
            last = n;
        }
        if last.is_ascii_alphabetic()
            && let Some((_, '\'')) = cs.peek()
        {
            name.push('\'');
            cs.next();
        }
        out.push((i + 1, name));
    }
    out
}

/// The names of `check`'s lints, which a variant file may allow (`allow-lints`).
pub const LINT_NAMES: [&str; 2] = ["stuck-piece", "royal-by-promotion"];

/// A piece's movement while it stands in a zone.
#[derive(Clone, Debug)]
pub struct ZonedBetza {
    /// The zone, an index into [`Variant::zones`].
    pub zone: usize,
    /// The movement as written.
    pub text: String,
    /// The movement, parsed.
    pub betza: Betza,
}

/// A place in a variant file (1-based line and column).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Loc {
    /// The line, from 1.
    pub line: usize,
    /// The column, from 1.
    pub col: usize,
}

/// Where the parts of a variant file are, so that a problem found when the variant is compiled
/// (`Ruleset::new`) points at the part at fault.
#[derive(Clone, Debug, Default)]
pub struct Locations {
    /// The file as named in messages (`my-game.toml`, `variants/chess.toml`).
    pub origin: String,
    /// The `start` value.
    pub start: Option<Loc>,
    /// Each `[[piece]]` table, in order.
    pub pieces: Vec<Loc>,
    /// Each rule's table name (`castling` in `[rules.castling]`).
    pub rules: Vec<(String, Loc)>,
    /// The `network` key of the `[eval]` table.
    pub network: Option<Loc>,
    /// Each `[[test]]` read, in order.
    pub tests: Vec<TestLoc>,
}

/// Where a `[[test]]` is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TestLoc {
    /// Its table.
    pub table: Loc,
    /// Its `fen` value, when it has one.
    pub fen: Option<Loc>,
}

impl Locations {
    /// `origin:line:column: ` for a place, or nothing when there is none.
    pub fn prefix(&self, at: Option<Loc>) -> String {
        match at {
            Some(l) => format!("{}:{}:{}: ", self.origin, l.line, l.col),
            None => String::new(),
        }
    }
}

/// A checked variant: board, pieces, start position and rule hooks.
#[derive(Clone, Debug)]
pub struct Variant {
    /// Short name used on the command line (`metamachy`).
    pub id: String,
    /// Display name (`Metamachy`).
    pub title: String,
    /// One line about the game.
    pub description: String,
    /// Files of the board (1 to 16).
    pub files: u8,
    /// Ranks of the board (1 to 16).
    pub ranks: u8,
    /// The pieces; a piece's kind is its index here.
    pub pieces: Vec<PieceDef>,
    /// The start position, rank 1 first: `placement[rank * files + file]`.
    pub placement: Vec<Option<(usize, Color)>>,
    /// The holes of the board (squares that do not exist, `*` in the start placement).
    pub holes: Vec<crate::geometry::Square>,
    /// The pieces in hand at the start (`[…]` after the start placement, as in FEN), by kind
    /// and side: a variant whose rules give the sides hands.
    pub start_hand: Vec<(usize, Color)>,
    /// The rules' specs, in the order of the file (compiled into rules with the variant).
    pub rules: Vec<Box<dyn RuleSpec>>,
    /// Where it was read from (a path, or `built-in`).
    pub source: String,
    /// Where its parts are in the file.
    pub locations: Locations,
    /// Evaluation weights from the file's `[eval]` table, if it has one.
    pub eval: Option<EvalTable>,
    /// The network file the `[eval]` table names: its name and bytes, read but not yet
    /// checked (the ruleset checks it against the pieces).
    pub network: Option<(String, std::sync::Arc<[u8]>)>,
    /// What the file says that works but is probably not meant, as `file:line:column:
    /// warning: ...` lines (notation that compiles to something simpler than it is written).
    pub warnings: Vec<String>,
    /// The named zones of squares (`[zones]`), which pieces and rules use.
    pub zones: Vec<Zone>,
    /// How the page draws the board (`[display]`): points or squares, diagonals, a river.
    pub display: Display,
    /// The file's `[[test]]` tables: positions with what the rules must give there.
    pub tests: Vec<VariantTest>,
    /// The lints the file means to break (`allow-lints`: Sittuyin's Pawns may stand on the
    /// last rank), which `check` does not count.
    pub allowed_lints: Vec<String>,
}

impl Variant {
    /// Piece `kind`'s movement in plain English ([`crate::notation::words`]), with what the
    /// zones change: its movement where a zone gives it another, and the zone it never leaves.
    pub fn piece_words(&self, kind: usize) -> String {
        let p = &self.pieces[kind];
        let mut out = crate::notation::words::describe(&p.betza);
        // A movement's words inside a sentence: no capital, no full stop.
        let inner = |b: &crate::notation::Betza| {
            let words = crate::notation::words::describe(b);
            let words = words.trim_end_matches('.');
            let mut cs = words.chars();
            match cs.next() {
                Some(c) => c.to_lowercase().collect::<String>() + cs.as_str(),
                None => String::new(),
            }
        };
        for z in &p.betza_in {
            out.push_str(&format!(
                " Where it stands in `{}` it instead {}.",
                self.zones[z.zone].name,
                inner(&z.betza)
            ));
        }
        for z in &p.betza_within {
            out.push_str(&format!(
                " Where it stands in `{}` it also {}, staying inside it.",
                self.zones[z.zone].name,
                inner(&z.betza)
            ));
        }
        if let Some(z) = p.confined {
            out.push_str(&format!(
                " It never leaves `{}` (its own side's copy).",
                self.zones[z].name
            ));
        }
        out
    }

    /// The kind whose own letter is `c` (either case); never a kind without a letter of its
    /// own (see [`Variant::kind_by_symbol`]).
    pub fn kind_by_letter(&self, c: char) -> Option<usize> {
        let up = c.to_ascii_uppercase();
        self.pieces.iter().position(|p| p.letter == Some(up))
    }

    /// The kind written with the letter `c` (either case) and a prime (`N'`, `n'`).
    pub fn kind_by_primed_letter(&self, c: char) -> Option<usize> {
        let up = c.to_ascii_uppercase();
        self.pieces
            .iter()
            .position(|p| p.primed() && p.symbol.starts_with(up))
    }

    /// The kind a FEN writes `+X` (upper or lower case `X`): the piece whose `demotes-to` is
    /// the kind of letter `X` (a kind written `+X` in the file, or one with a letter of its
    /// own, Shogi's Tokin).
    pub fn kind_by_plus_letter(&self, c: char) -> Option<usize> {
        let base = self.kind_by_letter(c)?;
        self.pieces.iter().position(|p| p.demotes_to == Some(base))
    }

    /// The kind a name written in a file, a FEN or a move stands for, in either case: a letter
    /// (`N`, `n`), a letter and a prime (`N'`, `n'`: a kind of its own), or `+` and either
    /// (`+R`, `+r`, `+N'`: the promoted form of the piece `R`, `N'`).
    pub fn kind_by_symbol(&self, s: &str) -> Option<usize> {
        let own = |s: &str| {
            let mut cs = s.chars();
            match (cs.next(), cs.next(), cs.next()) {
                (Some(c), None, None) if c.is_ascii_alphabetic() => self.kind_by_letter(c),
                (Some(c), Some('\''), None) if c.is_ascii_alphabetic() => {
                    self.kind_by_primed_letter(c)
                }
                _ => None,
            }
        };
        match s.strip_prefix('+') {
            Some(base) => {
                let base = own(base)?;
                self.pieces.iter().position(|p| p.demotes_to == Some(base))
            }
            None => own(s),
        }
    }

    /// How a FEN writes a piece of `kind` and `color`: its [`PieceDef::symbol_for`], except
    /// that the promoted form of another piece is `+` and that piece's name (`+P`, `+N'`), as
    /// Shogi FENs write it, whether or not it has a letter of its own.
    pub fn fen_symbol(&self, kind: usize, color: Color) -> String {
        match self.pieces[kind].demotes_to {
            Some(base) => format!("+{}", self.pieces[base].symbol_for(color)),
            None => self.pieces[kind].symbol_for(color),
        }
    }

    /// Whether a promotion to `kind` is written `+` (`b2h8+`) rather than with its name: it
    /// is the promoted form of a piece (`demotes-to`, or written `+X`), and no other piece
    /// lists it in `promotes-to`, so the mover can only be that piece.
    pub fn plus_promotion(&self, kind: usize) -> bool {
        let Some(base) = self.pieces[kind].demotes_to else {
            return false;
        };
        self.pieces
            .iter()
            .enumerate()
            .all(|(k, p)| k == base || !p.promotes_to.contains(&kind))
    }

    /// Each piece as `symbol name` (`P Pawn`, `+P Tokin`), in file order.
    pub fn piece_names(&self) -> Vec<String> {
        self.pieces
            .iter()
            .map(|p| format!("{} {}", p.symbol, p.name))
            .collect()
    }

    /// One letter for each kind, for the programs whose piece tables need one per kind
    /// (Fairy-Stockfish's sections, XBoard's piece-to-char table): a kind's own letter, or for
    /// a kind without one (written `+X` or `N'`) that `wanted` says needs one, a letter no
    /// other kind of the variant uses — for `N'` its letter `N` where no kind has it, else the
    /// initial of a word of its name, the last word first, else another letter of its name,
    /// else the first free one from A — and `None` when every letter is taken (or none is
    /// wanted). Those programs write a piece written `+X` on the board `+X` in their FENs all
    /// the same, and a piece written `N'` by its stand-in letter ([`Variant::with_stand_ins`]);
    /// Polymachy's own texts never show these letters.
    pub fn stand_in_letters(&self, wanted: impl Fn(usize) -> bool) -> Vec<Option<char>> {
        let mut taken: Vec<char> = self.pieces.iter().filter_map(|p| p.letter).collect();
        self.pieces
            .iter()
            .enumerate()
            .map(|(k, p)| {
                if p.letter.is_some() || !wanted(k) {
                    return p.letter;
                }
                let own = p.symbol.chars().next().filter(|_| p.primed());
                let initials = p
                    .name
                    .split_whitespace()
                    .rev()
                    .filter_map(|w| w.chars().next());
                let pick = own
                    .into_iter()
                    .chain(initials)
                    .chain(p.name.chars())
                    .chain('A'..='Z')
                    .map(|c| c.to_ascii_uppercase())
                    .find(|c| c.is_ascii_uppercase() && !taken.contains(c))?;
                taken.push(pick);
                Some(pick)
            })
            .collect()
    }

    /// `text` (a FEN, a move) with each name written with a letter and a prime (`N'`, `n'`,
    /// also after `+`) replaced by its kind's letter in `letters` (from
    /// [`Variant::stand_in_letters`]), in the same case, for a program that names every kind
    /// by one letter; a name without one is left as it is. Everything else is kept.
    pub fn with_stand_ins(&self, text: &str, letters: &[Option<char>]) -> String {
        let mut out = String::with_capacity(text.len());
        for (_, name) in split_symbols(text) {
            let plain = name.trim_start_matches('+');
            let stand_in = self
                .kind_by_symbol(plain)
                .filter(|&k| plain.ends_with('\'') && self.pieces[k].primed())
                .and_then(|k| letters.get(k).copied().flatten());
            match stand_in {
                Some(l) => {
                    out.push_str(&name[..name.len() - plain.len()]);
                    out.push(if plain.starts_with(|c: char| c.is_ascii_lowercase()) {
                        l.to_ascii_lowercase()
                    } else {
                        l.to_ascii_uppercase()
                    });
                }
                None => out.push_str(&name),
            }
        }
        out
    }

    /// The other way from [`Variant::with_stand_ins`]: in the names of pieces `text` holds (a
    /// FEN's placement and hand, a drop's piece, a promotion's suffix), each stand-in letter
    /// of a kind written `N'` in `letters` becomes that kind's name, in the same case.
    pub fn from_stand_ins(&self, text: &str, letters: &[Option<char>]) -> String {
        text.chars()
            .map(|c| {
                let up = c.to_ascii_uppercase();
                let kind = (0..self.pieces.len())
                    .find(|&k| self.pieces[k].primed() && letters.get(k) == Some(&Some(up)));
                match kind {
                    Some(k) if c.is_ascii_lowercase() => self.pieces[k].symbol_for(Color::Black),
                    Some(k) => self.pieces[k].symbol.clone(),
                    None => c.to_string(),
                }
            })
            .collect()
    }

    /// Loads a built-in variant by name, or a `.toml` file by path, reading rule tables with
    /// `catalog` (`Variant::load` in `compile` passes the rules the engine knows).
    pub fn load_with(
        name_or_path: &str,
        catalog: &dyn SpecCatalog,
    ) -> Result<Variant, VariantError> {
        load::load(name_or_path, catalog)
    }

    /// Reads a variant from TOML text; `origin` names the file in error messages, and tables
    /// it includes are read beside that file.
    pub fn from_toml_with(
        text: &str,
        origin: &str,
        catalog: &dyn SpecCatalog,
    ) -> Result<Variant, VariantError> {
        load::from_toml(text, origin, catalog, Files::Disk)
    }

    /// Reads a variant from TOML text whose `include` and `network` may name `files` only.
    pub fn from_toml_limited(
        text: &str,
        origin: &str,
        catalog: &dyn SpecCatalog,
        files: Files,
    ) -> Result<Variant, VariantError> {
        load::from_toml(text, origin, catalog, files)
    }
}

/// Parses a FEN placement into piece codes; errors are sentences. Holes must be written `*`
/// exactly where the variant has them.
pub fn parse_placement_codes(v: &Variant, s: &str) -> Result<Vec<crate::moves::Code>, Vec<String>> {
    match load::parse_placement(v, s, v.files, v.ranks) {
        Ok((_, holes)) if holes != v.holes => {
            let g = crate::geometry::Geometry::new(v.files, v.ranks);
            let mut errs = Vec::new();
            for h in v.holes.iter().filter(|h| !holes.contains(h)) {
                errs.push(format!(
                    "{} is a hole of this board: write `*` there",
                    g.name(*h)
                ));
            }
            for h in holes.iter().filter(|h| !v.holes.contains(h)) {
                errs.push(format!(
                    "`*` on {}, which is not a hole of this board",
                    g.name(*h)
                ));
            }
            Err(errs)
        }
        Ok((p, _)) => Ok(p
            .iter()
            .map(|x| {
                x.map(|(k, c)| crate::moves::code(k, c))
                    .unwrap_or(crate::moves::EMPTY)
            })
            .collect()),
        Err(es) => Err(es
            .into_iter()
            .map(|(col, m, h, _)| match h {
                Some(h) => format!("placement column {col}: {m} ({h})"),
                None => format!("placement column {col}: {m}"),
            })
            .collect()),
    }
}

/// "the pieces' letters are ..." for hints.
pub fn params_letter_hint(v: &Variant) -> String {
    params::letter_hint(v)
}

/// "no piece has the letter 'X'" (or "no piece is written '+X'") for messages.
pub fn params_no_piece(name: &str) -> String {
    params::no_piece(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_of_pieces_splits_into_names() {
        let names = |s: &str| -> Vec<(usize, String)> { split_symbols(s) };
        assert_eq!(
            names("Q+RB"),
            [(1, "Q".into()), (2, "+R".into()), (4, "B".into())]
        );
        // A `+` takes the character after it, whatever it is; at the end it stands alone.
        assert_eq!(names("++R"), [(1, "++".into()), (3, "R".into())]);
        assert_eq!(names("P+"), [(1, "P".into()), (2, "+".into())]);
        assert!(names("").is_empty());
        // A letter and the prime after it are one name, after `+` too; a prime after anything
        // else, or a second one, stands alone.
        assert_eq!(
            names("QN'+N'n'"),
            [
                (1, "Q".into()),
                (2, "N'".into()),
                (4, "+N'".into()),
                (7, "n'".into())
            ]
        );
        assert_eq!(
            names("N''3'"),
            [
                (1, "N'".into()),
                (3, "'".into()),
                (4, "3".into()),
                (5, "'".into())
            ]
        );
    }

    /// A variant of `pieces` (name, letter, movement, more keys) on a 5x5 board with `start`.
    fn small(pieces: &[(&str, &str, &str)], start: &str) -> Variant {
        let mut text = format!("name = \"Small\"\nfiles = 5\nranks = 5\nstart = \"{start}\"\n");
        for (name, letter, more) in pieces {
            text.push_str(&format!(
                "[[piece]]\nname = \"{name}\"\nletter = \"{letter}\"\nbetza = \"K\"\n{more}\n"
            ));
        }
        text.push_str("[rules.promotion]\nzone = 1\n");
        Variant::from_toml(&text, "small.toml").unwrap_or_else(|e| panic!("{e}"))
    }

    /// Kinds written with a letter and a prime (`N'`): kinds of their own beside `N` and `+N`,
    /// found by their names in either case, written so, and given stand-in letters.
    #[test]
    fn a_primed_kind_is_found_and_written_by_its_name() {
        let v = small(
            &[
                ("King", "K", "royal = true"),
                ("Knight", "N", "promotes-to = \"+NN'\""),
                ("Knight Prince", "N'", "promotes-to = \"+N'\""),
                ("Gold Knight", "+N", ""),
                ("Great Knight", "+N'", ""),
                ("Horse", "H'", ""),
            ],
            "k1n'1N'/5/5/5/K1N+N'1",
        );
        let kind = |s: &str| v.kind_by_symbol(s).unwrap_or_else(|| panic!("{s}"));
        let (n, np, gold, great, horse) =
            (kind("N"), kind("N'"), kind("+N"), kind("+N'"), kind("H'"));
        assert_eq!((n, np, gold, great, horse), (1, 2, 3, 4, 5));
        assert_eq!(kind("n'"), np);
        assert_eq!(kind("+n'"), great);
        assert_eq!(v.kind_by_letter('N'), Some(n));
        assert_eq!(v.kind_by_primed_letter('n'), Some(np));
        assert_eq!(v.kind_by_letter('H'), None);
        for bad in ["N''", "'", "+'", "++N'", "J'", "+H'", "NN'"] {
            assert_eq!(v.kind_by_symbol(bad), None, "{bad}");
        }
        let p = &v.pieces[np];
        assert_eq!(
            (p.letter, p.symbol.as_str(), p.demotes_to),
            (None, "N'", None)
        );
        assert!(p.primed() && !v.pieces[great].primed() && !v.pieces[n].primed());
        assert_eq!(p.symbol_for(Color::Black), "n'");
        assert_eq!(v.pieces[great].demotes_to, Some(np));
        assert_eq!(v.pieces[gold].demotes_to, Some(n));
        assert_eq!(v.pieces[n].promotes_to, [gold, np]);
        assert_eq!(v.fen_symbol(np, Color::Black), "n'");
        assert_eq!(v.fen_symbol(great, Color::White), "+N'");
        assert_eq!(v.fen_symbol(great, Color::Black), "+n'");
        assert!(v.plus_promotion(great) && !v.plus_promotion(np));
        assert_eq!(v.placement[24], Some((np, Color::White)));
        assert_eq!(v.placement[22], Some((np, Color::Black)));
        assert_eq!(v.placement[2], Some((n, Color::White)));
        assert_eq!(v.placement[3], Some((great, Color::White)));
        assert!(v.piece_names().contains(&"N' Knight Prince".to_string()));
        assert_eq!(
            params_letter_hint(&v),
            "the pieces' letters are KN (and N' +N +N' H')"
        );
        // Stand-in letters: `H'` takes its own letter `H`, free here; `N'` the initial of a word
        // of its name, as a `+X` kind does.
        let letters = v.stand_in_letters(|_| true);
        assert_eq!(letters[horse], Some('H'));
        assert_eq!(letters[np], Some('P'));
        assert_eq!(letters[n], Some('N'));
        // A text for a program that names each kind by one letter, and back.
        let fen = "k1n'1N'/5/5/5/K1N+N'1[H'n'] w - - 0 1";
        let foreign = v.with_stand_ins(fen, &letters);
        assert_eq!(
            foreign,
            format!("k1p1P/5/5/5/K1N+{}1[Hp] w - - 0 1", letters[np].unwrap())
        );
        let placement = foreign.split(' ').next().unwrap();
        assert_eq!(
            v.from_stand_ins(placement, &letters),
            "k1n'1N'/5/5/5/K1N+N'1[H'n']"
        );
        assert_eq!(v.with_stand_ins("e4e5n'", &letters), "e4e5p");
        assert_eq!(v.with_stand_ins("H'@c3", &letters), "H@c3");
    }

    /// Minishogi's promoted pieces are written `+X`: their names, their FEN names, the kinds
    /// the names find, and how a promotion to each is written.
    #[test]
    fn a_kind_without_a_letter_is_found_and_written_by_its_name() {
        let v = Variant::load("minishogi").unwrap();
        let kind = |s: &str| v.kind_by_symbol(s).unwrap();
        let (pawn, tokin) = (kind("P"), kind("+P"));
        assert_eq!(v.pieces[tokin].letter, None);
        assert_eq!(v.pieces[tokin].symbol, "+P");
        assert_eq!(v.pieces[tokin].symbol_for(Color::Black), "+p");
        assert_eq!(v.pieces[tokin].demotes_to, Some(pawn));
        assert_eq!(v.kind_by_symbol("+p"), Some(tokin));
        assert_eq!(v.kind_by_symbol("+G"), None);
        assert_eq!(v.kind_by_symbol("++"), None);
        assert_eq!(v.fen_symbol(tokin, Color::Black), "+p");
        assert_eq!(v.fen_symbol(pawn, Color::White), "P");
        assert!(v.plus_promotion(tokin) && !v.plus_promotion(pawn));
        assert!(v.piece_names().contains(&"+B Dragon Horse".to_string()));
        // Stand-in letters for other programs: the initial of a word of the name, the last
        // word first, or another letter of it, none of them any kind's own.
        let letters = v.stand_in_letters(|_| true);
        let of = |s: &str| letters[kind(s)];
        assert_eq!(of("+P"), Some('T'));
        assert_eq!(of("+S"), Some('O'));
        assert_eq!(of("+B"), Some('H'));
        assert_eq!(of("+R"), Some('D'));
        assert_eq!(of("G"), Some('G'));
        assert_eq!(v.stand_in_letters(|k| k != kind("+B"))[kind("+B")], None);
    }
}

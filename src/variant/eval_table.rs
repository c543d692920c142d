//! The `[eval]` table of a variant file: evaluation weights that replace the ones the engine
//! derives from the pieces' movement. `polymachy tune` writes it into a file of its own, which
//! the variant file names with `include`; values may also be set by hand:
//!
//! ```toml
//! [eval]
//! include = "metamachy.eval.toml"   # read first; keys given here win
//! network = "metamachy.nnue"        # a trained network: it replaces the terms below
//! [eval.values]                     # per piece letter: [middlegame, endgame] or one value
//! P = [90, 120]
//! N = 300
//! [eval.terms]                      # per positional term: [middlegame, endgame] or one value
//! mobility = [3, 3]
//! threat = [32, 24]
//! ```
//!
//! The terms are named by [`Term`]; what each weighs is said in [`Term::help`].

use super::params::{Params, SVal, Span, Val};
use super::{PieceDef, Variant};

/// Evaluation weights given by the file (`None`: derived as usual).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EvalTable {
    /// Per kind: (middlegame, endgame) material value.
    pub values: Vec<Option<(i32, i32)>>,
    /// Per positional term ([`Term`], by its index): (middlegame, endgame) weight.
    pub terms: [Option<(i32, i32)>; Term::COUNT],
    /// The file named by `include`, not yet read, and where its name stands in the variant
    /// file (for its error).
    pub include: Option<(String, Span)>,
    /// The network file named by `network`, not yet read, and where its name stands.
    pub network: Option<(String, Span)>,
}

impl EvalTable {
    /// Fills what this table leaves unset from `other` (an included table).
    pub fn merge_under(&mut self, other: &EvalTable) {
        if self.values.len() < other.values.len() {
            self.values.resize(other.values.len(), None);
        }
        for (i, v) in other.values.iter().enumerate() {
            if self.values[i].is_none() {
                self.values[i] = *v;
            }
        }
        for (mine, theirs) in self.terms.iter_mut().zip(&other.terms) {
            if mine.is_none() {
                *mine = *theirs;
            }
        }
        if self.network.is_none() {
            self.network = other.network.clone();
        }
    }

    /// The table as TOML text, an `[eval]` table keyed by the pieces' names (`P`, and `"+P"`
    /// quoted, as TOML keys with a `+` must be).
    pub fn to_toml(&self, pieces: &[PieceDef]) -> String {
        let mut s = String::from("[eval]\n");
        s += "\n[eval.values]\n";
        for (p, v) in pieces.iter().zip(&self.values) {
            if let Some((mg, eg)) = v {
                let key = match p.letter {
                    Some(l) => l.to_string(),
                    None => format!("\"{}\"", p.symbol),
                };
                s += &format!("{key} = [{mg}, {eg}]  # {}\n", p.name);
            }
        }
        if self.terms.iter().any(Option::is_some) {
            s += "\n[eval.terms]\n";
            for t in Term::ALL {
                if let Some((mg, eg)) = self.terms[t as usize] {
                    s += &format!("{} = [{mg}, {eg}]  # {}\n", t.name(), t.help());
                }
            }
        }
        s
    }

    /// The weight the table gives `term`, if any.
    pub fn term(&self, term: Term) -> Option<(i32, i32)> {
        self.terms[term as usize]
    }
}

/// A positional term of the evaluation whose weights an `[eval.terms]` table may set (and
/// `polymachy tune` fits). Each weight is a pair: middlegame, endgame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    /// Centipawns per reachable square, for a piece reaching 6.25 squares on an empty board
    /// on average (less per square for pieces reaching more).
    Mobility,
    /// Per enemy piece attacked by a piece of lower value.
    Threat,
    /// The passed pawn-like piece's bonus, in percent of the one derived from what its
    /// promotion gains and how near it is.
    Passed,
    /// Middlegame shelter: per friendly piece on a square next to the royal piece.
    Shelter,
    /// Middlegame shelter: extra per friendly pawn-like piece ahead of the royal piece.
    ShelterPawn,
    /// King danger, with two attackers or more of the squares next to the enemy royal
    /// piece: centipawns per 256 of the squared weighted hits (at most 600).
    KingDanger,
    /// Centralisation: per unit of extra reach a square gives a piece on an empty board
    /// (in standard deviations of the piece's reach).
    Centre,
    /// Per pawn-like piece behind another of its side on its file.
    Doubled,
    /// Per pawn-like piece with no pawn-like piece of its side on the files beside it.
    Isolated,
    /// Per pawn-like piece with a pawn-like piece of its side on the next file, same rank
    /// (each pair side by side counts once).
    Phalanx,
}

impl Term {
    /// The number of terms.
    pub const COUNT: usize = 10;
    /// Every term, in index order.
    pub const ALL: [Term; Term::COUNT] = [
        Term::Mobility,
        Term::Threat,
        Term::Passed,
        Term::Shelter,
        Term::ShelterPawn,
        Term::KingDanger,
        Term::Centre,
        Term::Doubled,
        Term::Isolated,
        Term::Phalanx,
    ];

    /// The term's key in `[eval.terms]`.
    pub fn name(self) -> &'static str {
        match self {
            Term::Mobility => "mobility",
            Term::Threat => "threat",
            Term::Passed => "passed",
            Term::Shelter => "shelter",
            Term::ShelterPawn => "shelter-pawn",
            Term::KingDanger => "king-danger",
            Term::Centre => "centre",
            Term::Doubled => "doubled",
            Term::Isolated => "isolated",
            Term::Phalanx => "phalanx",
        }
    }

    /// What the term's weight is, in a few words.
    pub fn help(self) -> &'static str {
        match self {
            Term::Mobility => "per reachable square, scaled by the piece's reach",
            Term::Threat => "per enemy piece attacked by a cheaper one",
            Term::Passed => "passed pawn-like piece, percent of its derived bonus",
            Term::Shelter => "per friendly piece next to the royal piece",
            Term::ShelterPawn => "per friendly pawn-like piece ahead of the royal piece",
            Term::KingDanger => "per 256 of the squared weighted hits on the royal zone",
            Term::Centre => "per unit of a square's extra reach",
            Term::Doubled => "per pawn-like piece behind another on its file",
            Term::Isolated => "per pawn-like piece with none of its side on the files beside",
            Term::Phalanx => "per pair of pawn-like pieces side by side on a rank",
        }
    }

    /// The term named `name`.
    pub fn by_name(name: &str) -> Option<Term> {
        Term::ALL.into_iter().find(|t| t.name() == name)
    }
}

const RANGE: i64 = 20_000;

fn pair(p: &mut Params, v: &SVal, what: &str) -> Option<(i32, i32)> {
    let int = |x: &SVal| match x.val {
        Val::Int(n) if (-RANGE..=RANGE).contains(&n) => Some(n as i32),
        _ => None,
    };
    let r = match &v.val {
        Val::Int(_) => int(v).map(|n| (n, n)),
        Val::Array(a) if a.len() == 2 => int(&a[0]).zip(int(&a[1])),
        _ => None,
    };
    if r.is_none() {
        p.error(
            v.span.clone(),
            format!("`{what}` must be an integer or [middlegame, endgame], each within ±{RANGE}"),
            Some(format!("e.g. `{what} = [300, 280]`")),
        );
    }
    r
}

/// Reads an `[eval]` table (its entries) for `variant`'s pieces.
pub fn read(
    entries: &[(String, Span, SVal)],
    span: Span,
    variant: &Variant,
    diags: &mut Vec<super::Diag>,
) -> EvalTable {
    let mut t = EvalTable {
        values: vec![None; variant.pieces.len()],
        ..EvalTable::default()
    };
    let mut p = Params::new("eval", span, entries, diags);
    t.include = p.string("include");
    t.network = p.string("network");
    // `mobility` may stand in `[eval]` itself, as it did before `[eval.terms]`.
    if let Some(v) = p.get("mobility") {
        t.terms[Term::Mobility as usize] = pair(&mut p, v, "mobility");
    }
    if let Some((vals, vspan)) = p.table("terms") {
        let mut q = Params::new("eval.terms", vspan, vals, p.diags);
        for (k, kspan, v) in q.all() {
            match Term::by_name(k) {
                Some(term) => {
                    t.terms[term as usize] = pair(&mut q, v, &format!("eval.terms.{k}"));
                }
                None => {
                    let names: Vec<&str> = Term::ALL.iter().map(|t| t.name()).collect();
                    q.error(
                        kspan.clone(),
                        format!("`{k}` is not an evaluation term"),
                        Some(format!("the terms are {}", names.join(", "))),
                    );
                }
            }
        }
        q.finish();
    }
    if let Some((vals, vspan)) = p.table("values") {
        let mut q = Params::new("eval.values", vspan, vals, p.diags);
        for (k, kspan, v) in q.all() {
            let kind = variant.kind_by_symbol(k);
            match kind {
                Some(kind) => t.values[kind] = pair(&mut q, v, &format!("eval.values.{k}")),
                None => {
                    let hint = super::params::letter_hint(variant);
                    q.error(
                        kspan.clone(),
                        format!("`{k}` is not a piece letter"),
                        Some(hint),
                    );
                }
            }
        }
        q.finish();
    }
    p.finish();
    t
}

//! The `[eval]` table of a variant file: evaluation weights that replace the ones the engine
//! derives from the pieces' movement. `polymachy tune` writes it into a file of its own, which
//! the variant file names with `include`; values may also be set by hand:
//!
//! ```toml
//! [eval]
//! include = "metamachy.eval.toml"   # read first; keys given here win
//! network = "metamachy.nnue"        # a trained network: it replaces the terms below
//! mobility = [3, 3]                 # middlegame, endgame weight of the mobility term
//! [eval.values]                     # per piece letter: [middlegame, endgame] or one value
//! P = [90, 120]
//! N = 300
//! ```

use super::params::{Params, SVal, Span, Val};
use super::{PieceDef, Variant};

/// Evaluation weights given by the file (`None`: derived as usual).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EvalTable {
    /// Per kind: (middlegame, endgame) material value.
    pub values: Vec<Option<(i32, i32)>>,
    /// Mobility weight, middlegame and endgame.
    pub mobility: Option<(i32, i32)>,
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
        if self.mobility.is_none() {
            self.mobility = other.mobility;
        }
        if self.network.is_none() {
            self.network = other.network.clone();
        }
    }

    /// The table as TOML text, an `[eval]` table keyed by the pieces' names (`P`, and `"+P"`
    /// quoted, as TOML keys with a `+` must be).
    pub fn to_toml(&self, pieces: &[PieceDef]) -> String {
        let mut s = String::from("[eval]\n");
        if let Some((mg, eg)) = self.mobility {
            s += &format!("mobility = [{mg}, {eg}]\n");
        }
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
        s
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
    if let Some(v) = p.get("mobility") {
        t.mobility = pair(&mut p, v, "mobility");
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

//! `[[test]]`: positions a variant file carries with what its rules must give there, each
//! with the source of its numbers.
//!
//! ```toml
//! [[test]]
//! name = "start"                          # optional (default: "test N")
//! source = "Fairy-Stockfish 11.1 perft"   # required: where the numbers come from
//! fen = "..."                             # optional (default: the start position)
//! perft = [20, 400, 8902]                 # leaf counts at depth 1, 2, 3, ...
//! moves = ["e2e4", "g1f3"]                # the exact set of legal moves, any order
//! result = "0-1"                          # "1-0", "0-1", "1/2-1/2" or "*" (the game goes on)
//! ending = "checkmate"                    # how the game stands: see [`ENDINGS`]
//! ```
//!
//! Reading checks the keys and types, and the FEN's placement and side against the board and
//! the pieces (located at the column inside the string); the rest of the FEN is checked when
//! the variant is compiled and the tests are run, which need the
//! compiled rules.

use super::Variant;
use super::load::parse_placement;
use super::params::{Diag, Params, SVal, Span, Val, nearest};

/// One `[[test]]` of a variant file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantTest {
    /// Its name (`name`, or `test N` counting from 1).
    pub name: String,
    /// The position, or `None` for the start position (the file's default setup).
    pub fen: Option<String>,
    /// The expected leaf counts, depth 1 first.
    pub perft: Vec<u64>,
    /// The expected legal moves (in any notation the engine reads), when given.
    pub moves: Option<Vec<String>>,
    /// The expected result (`1-0`, `0-1`, `1/2-1/2`, `*`), when given.
    pub result: Option<String>,
    /// The expected ending (one of [`ENDINGS`] or a rule's name), when given.
    pub ending: Option<String>,
    /// Where the numbers come from (free text).
    pub source: String,
}

/// What `result` may say: PGN's results, `*` while the game goes on.
pub const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// What `ending` may say besides the name of a rule that ends games itself (`bare-king`):
/// `none` while the game goes on.
pub const ENDINGS: [&str; 6] = [
    "none",
    "checkmate",
    "stalemate",
    "repetition",
    "move-limit",
    "counting",
];

/// The deepest perft a test may ask for.
pub const MAX_TEST_DEPTH: usize = 12;

/// Reads the `test` array (`[[test]]` tables) of a variant whose pieces, board and rules are
/// read; returns the tests and each one's table span and `fen` span.
#[expect(
    clippy::too_many_lines,
    reason = "one pass over the tables, each key read and checked in turn under the test's label"
)]
pub(super) fn read(
    text: &str,
    value: &SVal,
    variant: &Variant,
    rule_names: &[&str],
    placements: bool,
    diags: &mut Vec<Diag>,
) -> (Vec<VariantTest>, Vec<(Span, Option<Span>)>) {
    let mut tests = Vec::new();
    let mut spans = Vec::new();
    let Val::Array(items) = &value.val else {
        diags.push(Diag {
            span: value.span.clone(),
            message: "`test` must be an array of tables (`[[test]]`)".into(),
            hint: Some("write each test as a `[[test]]` table".into()),
        });
        return (tests, spans);
    };
    for (i, it) in items.iter().enumerate() {
        let Val::Table(t) = &it.val else {
            diags.push(Diag {
                span: it.span.clone(),
                message: "each `[[test]]` must be a table".into(),
                hint: None,
            });
            continue;
        };
        let mut p = Params::new(&format!("test[{}]", i + 1), it.span.clone(), t, diags);
        let name = p.string("name");
        let source = p.string("source");
        let fen = p.string("fen");
        let perft = read_perft(&mut p);
        let moves = p.strings("moves");
        let result = p.string("result");
        let ending = p.string("ending");
        p.finish();
        let label = match &name {
            Some((n, _)) => format!("test \"{n}\""),
            None => format!("test {}", i + 1),
        };
        let mut ok = true;
        if source.is_none() {
            ok = false;
            diags.push(Diag {
                span: it.span.clone(),
                message: format!("{label} has no `source`"),
                hint: Some(
                    "say where its numbers come from, e.g. source = \"Fairy-Stockfish 11.1 perft\""
                        .into(),
                ),
            });
        }
        // A key given but broken is reported as such: the test does not compare "nothing".
        let given = |k: &str| t.iter().any(|(key, _, _)| key == k);
        if !["perft", "moves", "result", "ending"]
            .iter()
            .any(|k| given(k))
        {
            ok = false;
            diags.push(Diag {
                span: it.span.clone(),
                message: format!("{label} compares nothing"),
                hint: Some("give `perft`, `moves`, `result` or `ending`".into()),
            });
        }
        if let Some((r, span)) = &result
            && !RESULTS.contains(&r.as_str())
        {
            ok = false;
            diags.push(Diag {
                span: span.clone(),
                message: format!("{label}: `result` is \"{r}\", which is no result"),
                hint: Some(format!("one of {}", quoted(&RESULTS))),
            });
        }
        if let Some((e, span)) = &ending {
            let mut known: Vec<&str> = ENDINGS.to_vec();
            known.extend(rule_names.iter().copied());
            if !known.contains(&e.as_str()) {
                ok = false;
                let hint = match nearest(e, &known) {
                    Some(n) => format!("did you mean \"{n}\"? one of {}", quoted(&ENDINGS)),
                    None => format!(
                        "one of {}, or the name of a rule that ends games (bare-king)",
                        quoted(&ENDINGS)
                    ),
                };
                diags.push(Diag {
                    span: span.clone(),
                    message: format!("{label}: `ending` is \"{e}\", which is no ending"),
                    hint: Some(hint),
                });
            }
        }
        if let Some((f, span)) = &fen
            && placements
            && !check_fen(text, f, span, variant, &label, diags)
        {
            ok = false;
        }
        if !ok {
            continue;
        }
        tests.push(VariantTest {
            name: name
                .map(|n| n.0)
                .unwrap_or_else(|| format!("test {}", i + 1)),
            fen: fen.as_ref().map(|f| f.0.clone()),
            perft: perft.unwrap_or_default(),
            moves: moves.map(|ms| ms.into_iter().map(|m| m.0).collect()),
            result: result.map(|r| r.0),
            ending: ending.map(|e| e.0),
            source: source.map(|s| s.0).unwrap_or_default(),
        });
        spans.push((it.span.clone(), fen.map(|f| f.1)));
    }
    (tests, spans)
}

/// `"a", "b"` for hints.
fn quoted(xs: &[&str]) -> String {
    xs.iter()
        .map(|x| format!("\"{x}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `perft`: a list of node counts, depth 1 first.
fn read_perft(p: &mut Params<'_, '_>) -> Option<Vec<u64>> {
    let v = p.get("perft")?;
    let Val::Array(items) = &v.val else {
        let msg = format!(
            "`{}.perft` must be a list of node counts (depth 1 first), found {}",
            p.path,
            v.val.type_name()
        );
        p.error(
            v.span.clone(),
            msg,
            Some("e.g. perft = [20, 400, 8902]".into()),
        );
        return None;
    };
    if items.is_empty() || items.len() > MAX_TEST_DEPTH {
        let msg = format!(
            "`{}.perft` lists {} counts: give 1 to {MAX_TEST_DEPTH} (depth 1 first)",
            p.path,
            items.len()
        );
        p.error(v.span.clone(), msg, None);
        return None;
    }
    let mut out = Vec::new();
    for it in items {
        match it.val {
            Val::Int(n) if n >= 0 => out.push(n as u64),
            _ => {
                let msg = format!(
                    "`{}.perft`: a node count must be a whole number from 0, found {}",
                    p.path,
                    match it.val {
                        Val::Int(n) => n.to_string(),
                        ref other => other.type_name().to_string(),
                    }
                );
                p.error(it.span.clone(), msg, None);
            }
        }
    }
    (out.len() == items.len()).then_some(out)
}

/// The FEN's placement (hands aside) and side, checked against the board and the pieces;
/// problems are located at their column inside the string. The rest is checked with the
/// compiled rules.
fn check_fen(
    text: &str,
    fen: &str,
    span: &Span,
    v: &Variant,
    label: &str,
    diags: &mut Vec<Diag>,
) -> bool {
    let at = |col: usize| {
        let o = super::load::offset_in_string(text, span, col);
        o..o + 1
    };
    let Some(placement) = fen.split_whitespace().next() else {
        diags.push(Diag {
            span: span.clone(),
            message: format!("{label}: the FEN is empty"),
            hint: Some("leave `fen` out for the start position".into()),
        });
        return false;
    };
    let lead = fen.len() - fen.trim_start().len();
    let mut ok = true;
    // The hand (`[...]`) and the promoted marks (`~`) are checked with the rules.
    let board_end = placement.find('[').unwrap_or(placement.len());
    let board: String = placement[..board_end]
        .chars()
        .filter(|&c| c != '~')
        .collect();
    // Columns in `board` map back to `placement` past the removed marks.
    let cols: Vec<usize> = placement[..board_end]
        .chars()
        .enumerate()
        .filter(|(_, c)| *c != '~')
        .map(|(i, _)| i + 1)
        .collect();
    match parse_placement(v, &board, v.files, v.ranks) {
        Ok((_, holes)) if holes != v.holes => {
            ok = false;
            diags.push(Diag {
                span: at(lead + 1),
                message: format!("{label}: the FEN's holes (`*`) are not the board's"),
                hint: Some("write `*` exactly where the variant's `start` has it".into()),
            });
        }
        Ok(_) => {}
        Err(errs) => {
            ok = false;
            for (col, msg, hint, _) in errs {
                let col = cols.get(col.saturating_sub(1)).copied().unwrap_or(1);
                diags.push(Diag {
                    span: at(lead + col),
                    message: format!("{label}: FEN: {msg}"),
                    hint,
                });
            }
        }
    }
    if let Some(side) = fen.split_whitespace().nth(1)
        && side != "w"
        && side != "b"
    {
        ok = false;
        let col = fen.find(&format!(" {side}")).map_or(1, |i| i + 2);
        diags.push(Diag {
            span: at(col),
            message: format!("{label}: FEN: the side to move is `{side}`"),
            hint: Some("`w` or `b`".into()),
        });
    }
    ok
}

//! Reading a variant file: TOML text → [`Variant`], with every problem reported at once.

use super::params::{
    Diag, Entries, Params, SVal, Span, Val, letter_hint, no_piece, quoted, unknown_why,
};
use super::{Loc, Locations, PieceDef, SpecCatalog, Variant, split_symbols};
use crate::geometry::{Color, Geometry, MAX_SIDE, Square};
use crate::moves::MAX_KINDS;
use crate::notation::{self, Betza};

/// The built-in variants: (name, file text). The files live in `variants/`.
pub const BUILTIN: &[(&str, &str)] = &[
    ("metamachy", include_str!("../../variants/metamachy.toml")),
    ("chess", include_str!("../../variants/chess.toml")),
    (
        "lions-and-unicorns",
        include_str!("../../variants/lions-and-unicorns.toml"),
    ),
    ("perfect12", include_str!("../../variants/perfect12.toml")),
    ("terachess2", include_str!("../../variants/terachess2.toml")),
    ("terachess1", include_str!("../../variants/terachess1.toml")),
    ("shako", include_str!("../../variants/shako.toml")),
    ("capablanca", include_str!("../../variants/capablanca.toml")),
    ("grand", include_str!("../../variants/grand.toml")),
    ("gigachess2", include_str!("../../variants/gigachess2.toml")),
    (
        "zanzibar-xxl",
        include_str!("../../variants/zanzibar-xxl.toml"),
    ),
    ("tamerlane2", include_str!("../../variants/tamerlane2.toml")),
    ("zanzibar-s", include_str!("../../variants/zanzibar-s.toml")),
    ("wildebeest", include_str!("../../variants/wildebeest.toml")),
    ("xiangqi", include_str!("../../variants/xiangqi.toml")),
    ("makruk", include_str!("../../variants/makruk.toml")),
    ("crazyhouse", include_str!("../../variants/crazyhouse.toml")),
    ("shogi", include_str!("../../variants/shogi.toml")),
    ("shatranj", include_str!("../../variants/shatranj.toml")),
    ("courier", include_str!("../../variants/courier.toml")),
    ("minishogi", include_str!("../../variants/minishogi.toml")),
    (
        "kingofthehill",
        include_str!("../../variants/kingofthehill.toml"),
    ),
    ("seirawan", include_str!("../../variants/seirawan.toml")),
    ("asean", include_str!("../../variants/asean.toml")),
    ("janggi", include_str!("../../variants/janggi.toml")),
    ("sittuyin", include_str!("../../variants/sittuyin.toml")),
    ("chushogi", include_str!("../../variants/chushogi.toml")),
];

/// How errors name a built-in variant's file (it is not on the disk where the program runs):
/// `built-in variants/chess.toml:12:3: ...`. An origin that starts so is a built-in variant.
pub const BUILTIN_ORIGIN: &str = "built-in variants/";

/// Which files a variant's `[eval]` table may read with `include` and `network`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Files {
    /// Files beside the variant file (or, where there is none, the built-in one of that name).
    Disk,
    /// Only the built-in tables and networks, by name; the disk is never read. For text that
    /// came from elsewhere (a file uploaded to `serve`), which must not read the server's files.
    BuiltinOnly,
}

/// Everything wrong with a variant file, each line `file:line:column: message`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", lines.join("\n"))]
pub struct VariantError {
    /// One entry per problem, already formatted with its location and hint.
    pub lines: Vec<String>,
}

impl VariantError {
    fn one(msg: String) -> VariantError {
        VariantError { lines: vec![msg] }
    }
}

pub(super) fn load(name_or_path: &str, catalog: &dyn SpecCatalog) -> Result<Variant, VariantError> {
    if name_or_path.ends_with(".toml") || name_or_path.contains('/') || name_or_path.contains('\\')
    {
        let text = read_file(name_or_path)?;
        let mut v = from_toml(&text, name_or_path, catalog, Files::Disk)?;
        if v.id.is_empty() {
            v.id = std::path::Path::new(name_or_path)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
        }
        return Ok(v);
    }
    let key = name_or_path.to_ascii_lowercase();
    match BUILTIN.iter().find(|(n, _)| *n == key) {
        Some((n, text)) => {
            let mut v = from_toml(
                text,
                &format!("{BUILTIN_ORIGIN}{n}.toml"),
                catalog,
                Files::BuiltinOnly,
            )?;
            v.id = n.to_string();
            v.source = "built-in".into();
            Ok(v)
        }
        None => {
            let names: Vec<&str> = BUILTIN.iter().map(|(n, _)| *n).collect();
            Err(VariantError::one(format!(
                "unknown variant `{name_or_path}` (hint: the built-in variants are {}; or give the path of a .toml file)",
                names.join(", ")
            )))
        }
    }
}

/// The largest variant file read, in bytes (the shipped ones are under 20 KB).
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// Reads a variant file: a regular file of at most [`MAX_FILE_BYTES`] (a FIFO or a device such
/// as `/dev/urandom` would block or never end), in UTF-8.
fn read_file(path: &str) -> Result<String, VariantError> {
    crate::files::read_text_file(std::path::Path::new(path), MAX_FILE_BYTES, "a variant file")
        .map_err(|e| VariantError::one(e.to_string()))
}

/// Reads a regular file of at most `max` bytes (`what` names the kind of file in errors).
fn read_bytes(path: &str, max: u64, what: &str) -> Result<Vec<u8>, VariantError> {
    crate::files::read_regular_file(std::path::Path::new(path), max, what)
        .map_err(|e| VariantError::one(e.to_string()))
}

/// The largest network file read, in bytes (a 16×16 board with 60 kinds and 1,024 hidden
/// units is about 63 MB).
pub const MAX_NETWORK_BYTES: u64 = 64 << 20;

/// The networks the built-in variants name (file name, bytes), from `variants/`. Each was
/// trained by `polymachy train` and kept after a match (see `docs/strength.md`).
pub const BUILTIN_NETS: &[(&str, &[u8])] = &[(
    "metamachy.nnue",
    include_bytes!("../../variants/metamachy.nnue"),
)];

/// Reads the network file the `[eval]` table names: for a built-in variant the built-in network
/// of that name; for a variant file the file beside it or, where there is none, the built-in
/// network of that name. Its contents are checked when the variant is compiled.
fn load_network(
    v: &mut Variant,
    origin: &str,
    source: &str,
    files: Files,
) -> Result<(), VariantError> {
    let Some((name, at)) = v.eval.as_ref().and_then(|e| e.network.clone()) else {
        return Ok(());
    };
    let (line, col) = line_col(source, at.start);
    v.locations.network = Some(Loc { line, col });
    if files == Files::BuiltinOnly {
        let Some((_, b)) = BUILTIN_NETS.iter().find(|(n, _)| *n == name) else {
            return Err(render(
                source,
                origin,
                vec![Diag {
                    span: at,
                    message: format!(
                        "no built-in network is called `{name}` (this file may name only built-in networks)"
                    ),
                    hint: Some(builtin_hint(BUILTIN_NETS.iter().map(|(n, _)| *n))),
                }],
            ));
        };
        v.network = Some((name, (*b).into()));
        return Ok(());
    }
    let path = std::path::Path::new(origin)
        .parent()
        .unwrap_or(std::path::Path::new(""))
        .join(&name);
    let builtin = BUILTIN_NETS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, b)| *b);
    let bytes: std::sync::Arc<[u8]> = match builtin {
        Some(b) if origin.starts_with(BUILTIN_ORIGIN) || !path.exists() => b.into(),
        _ if origin.starts_with(BUILTIN_ORIGIN) => {
            return Err(render(
                source,
                origin,
                vec![Diag {
                    span: at,
                    message: format!("no built-in network is called `{name}`"),
                    hint: None,
                }],
            ));
        }
        _ => read_bytes(&path.display().to_string(), MAX_NETWORK_BYTES, "a network file")
            .map_err(|e| {
                render(
                    source,
                    origin,
                    vec![Diag {
                        span: at,
                        message: format!("the network: {}", e.lines.join("; ")),
                        hint: Some(
                            "name a network file beside the variant file (`polymachy train` writes one)"
                                .into(),
                        ),
                    }],
                )
            })?
            .into(),
    };
    v.network = Some((name, bytes));
    Ok(())
}

/// The evaluation tables the built-in variants include (file name, text), from `variants/`.
/// Each was fitted by `polymachy tune` to games of the engine (see `docs/strength.md`
/// for the games, the held-out check and the match that kept it).
pub const BUILTIN_EVAL: &[(&str, &str)] = &[
    (
        "terachess1.eval.toml",
        include_str!("../../variants/terachess1.eval.toml"),
    ),
    (
        "terachess2.eval.toml",
        include_str!("../../variants/terachess2.eval.toml"),
    ),
    (
        "metamachy.eval.toml",
        include_str!("../../variants/metamachy.eval.toml"),
    ),
    (
        "shako.eval.toml",
        include_str!("../../variants/shako.eval.toml"),
    ),
    (
        "xiangqi.eval.toml",
        include_str!("../../variants/xiangqi.eval.toml"),
    ),
    (
        "lions-and-unicorns.eval.toml",
        include_str!("../../variants/lions-and-unicorns.eval.toml"),
    ),
    (
        "capablanca.eval.toml",
        include_str!("../../variants/capablanca.eval.toml"),
    ),
    (
        "perfect12.eval.toml",
        include_str!("../../variants/perfect12.eval.toml"),
    ),
    (
        "gigachess2.eval.toml",
        include_str!("../../variants/gigachess2.eval.toml"),
    ),
    (
        "zanzibar-xxl.eval.toml",
        include_str!("../../variants/zanzibar-xxl.eval.toml"),
    ),
    (
        "grand.eval.toml",
        include_str!("../../variants/grand.eval.toml"),
    ),
    (
        "wildebeest.eval.toml",
        include_str!("../../variants/wildebeest.eval.toml"),
    ),
    (
        "chess.eval.toml",
        include_str!("../../variants/chess.eval.toml"),
    ),
];

/// Reads the file an `[eval]` table names with `include` and fills in what the table leaves
/// unset. A built-in variant takes the built-in table of that name; a variant file takes the
/// file beside it, or, where there is none, the built-in table of that name (so a copy of a
/// shipped game plays as the game does). A table that cannot be read is reported at the
/// `include` key of the variant file.
fn include_eval(
    v: &mut Variant,
    origin: &str,
    source: &str,
    files: Files,
) -> Result<(), VariantError> {
    let Some((name, at)) = v.eval.as_ref().and_then(|e| e.include.clone()) else {
        return Ok(());
    };
    if files == Files::BuiltinOnly {
        let Some((_, t)) = BUILTIN_EVAL.iter().find(|(n, _)| *n == name) else {
            return Err(render(
                source,
                origin,
                vec![Diag {
                    span: at,
                    message: format!(
                        "no built-in evaluation table is called `{name}` (this file may include only built-in tables)"
                    ),
                    hint: Some(builtin_hint(BUILTIN_EVAL.iter().map(|(n, _)| *n))),
                }],
            ));
        };
        return merge_included(v, &name, t, format!("{BUILTIN_ORIGIN}{name}"));
    }
    let path = std::path::Path::new(origin)
        .parent()
        .unwrap_or(std::path::Path::new(""))
        .join(&name);
    let shown = path.display().to_string();
    let builtin = BUILTIN_EVAL
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, t)| *t);
    let (text, shown) = match builtin {
        // Not on the disk: errors name it as built-in.
        Some(t) if origin.starts_with(BUILTIN_ORIGIN) || !path.exists() => {
            (t.to_string(), format!("{BUILTIN_ORIGIN}{name}"))
        }
        _ => (
            read_file(&shown).map_err(|e| {
                render(
                    source,
                    origin,
                    vec![Diag {
                        span: at,
                        message: format!("the included evaluation table: {}", e.lines.join("; ")),
                        hint: Some(
                            "name a file beside the variant file (or a built-in table)".into(),
                        ),
                    }],
                )
            })?,
            shown,
        ),
    };
    merge_included(v, &name, &text, shown)
}

/// The names a file limited to built-in tables may use, as a hint.
fn builtin_hint<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let list: Vec<&str> = names.collect();
    if list.is_empty() {
        "there are none".into()
    } else {
        format!("the built-in ones: {}", list.join(", "))
    }
}

/// Reads an included evaluation table's `text` (named `shown` in errors) into the variant's.
fn merge_included(
    v: &mut Variant,
    name: &str,
    text: &str,
    shown: String,
) -> Result<(), VariantError> {
    let root = toml::de::DeTable::parse(text).map_err(|e| {
        VariantError::one(format!("{shown}: not valid TOML: {}", e.message().trim()))
    })?;
    let entries = convert_table(root.get_ref());
    let mut diags = Vec::new();
    let mut inc = super::eval_table::EvalTable::default();
    let mut top = Params::new(name, 0..0, &entries, &mut diags);
    let eval = top.table("eval");
    top.finish();
    if let Some((t, span)) = eval {
        inc = super::eval_table::read(t, span, v, &mut diags);
    }
    // One level only: an included table that includes another is an error, not ignored.
    if let Some((other, at)) = &inc.include {
        diags.push(Diag {
            span: at.clone(),
            message: format!(
                "an included evaluation table cannot include another (`{other}`)"
            ),
            hint: Some(format!(
                "copy the values of `{other}` into `{name}`, or include `{other}` from the variant file"
            )),
        });
    }
    if !diags.is_empty() {
        return Err(render(text, &shown, diags));
    }
    if let Some(e) = v.eval.as_mut() {
        e.merge_under(&inc);
    }
    Ok(())
}

/// Converts the TOML parser's spanned tree into ours.
fn convert(v: &toml::Spanned<toml::de::DeValue<'_>>) -> SVal {
    use toml::de::DeValue;
    let span = v.span();
    let val = match v.get_ref() {
        DeValue::String(s) => Val::Str(s.to_string()),
        DeValue::Integer(i) => match i.to_string().replace('_', "").parse::<i64>() {
            Ok(n) => Val::Int(n),
            Err(_) => Val::Float(f64::NAN),
        },
        DeValue::Float(f) => Val::Float(f.as_str().parse().unwrap_or(f64::NAN)),
        DeValue::Boolean(b) => Val::Bool(*b),
        DeValue::Datetime(_) => Val::Datetime,
        DeValue::Array(a) => Val::Array(a.iter().map(convert).collect()),
        DeValue::Table(t) => Val::Table(convert_table(t)),
    };
    SVal { val, span }
}

fn convert_table(t: &toml::de::DeTable<'_>) -> Vec<(String, Span, SVal)> {
    t.iter()
        .map(|(k, v)| (k.get_ref().to_string(), k.span(), convert(v)))
        .collect()
}

/// The most problems an error lists, in file order; a last line counts the others.
pub const MAX_ERRORS: usize = 50;

/// Where each line of a text starts, found in one pass, to give many offsets their line and
/// column without reading the text again for each.
struct Lines<'t> {
    text: &'t str,
    starts: Vec<usize>,
}

impl<'t> Lines<'t> {
    fn new(text: &'t str) -> Lines<'t> {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Lines { text, starts }
    }

    /// Line and column (both 1-based, column in characters) of a byte offset. An offset
    /// inside a character (a parser's error span can end there) counts as that character's
    /// start.
    fn line_col(&self, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset);
        let col = self.text[self.starts[line - 1]..offset].chars().count() + 1;
        (line, col)
    }
}

/// Line and column of one byte offset (see [`Lines::line_col`]).
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    Lines::new(text).line_col(offset)
}

/// The problems as lines `file:line:column: message` in file order: the first
/// [`MAX_ERRORS`], then `… and N more` if there are others.
fn render(text: &str, origin: &str, mut diags: Vec<Diag>) -> VariantError {
    diags.sort_by_key(|d| d.span.start);
    let more = diags.len().saturating_sub(MAX_ERRORS);
    diags.truncate(MAX_ERRORS);
    let at = Lines::new(text);
    let mut lines: Vec<String> = diags
        .into_iter()
        .map(|d| {
            let (l, c) = at.line_col(d.span.start);
            match d.hint {
                Some(h) => format!("{origin}:{l}:{c}: {}\n  hint: {h}", d.message),
                None => format!("{origin}:{l}:{c}: {}", d.message),
            }
        })
        .collect();
    if more > 0 {
        lines.push(format!("… and {more} more"));
    }
    VariantError { lines }
}

/// The byte offset of character `col` (1-based) inside the string value at `span`.
pub(super) fn offset_in_string(text: &str, span: &Span, col: usize) -> usize {
    // Skip the opening quote (one for basic/literal strings, three for multi-line ones).
    let raw = text.get(span.clone()).unwrap_or("");
    let q = if raw.starts_with("\"\"\"") || raw.starts_with("'''") {
        3
    } else {
        1
    };
    let body = &raw[q.min(raw.len())..];
    let idx = body
        .char_indices()
        .nth(col.saturating_sub(1))
        .map(|(i, _)| i)
        .unwrap_or(0);
    span.start + q + idx
}

pub(super) fn from_toml(
    text: &str,
    origin: &str,
    catalog: &dyn SpecCatalog,
    files: Files,
) -> Result<Variant, VariantError> {
    let root = match toml::de::DeTable::parse(text) {
        Ok(t) => t,
        Err(e) => {
            let span = e.span().unwrap_or(0..0);
            let msg = e.message().trim().to_string();
            return Err(render(
                text,
                origin,
                vec![Diag {
                    span,
                    message: format!("not valid TOML: {msg}"),
                    hint: Some("check quotes, brackets and `key = value` lines".into()),
                }],
            ));
        }
    };
    let entries = convert_table(root.get_ref());
    let mut diags = Vec::new();
    let mut warns = Vec::new();
    let variant = read_variant(text, &entries, &mut diags, &mut warns, catalog);
    match variant {
        Some(mut v) if diags.is_empty() => {
            v.source = origin.to_string();
            v.locations.origin = origin.to_string();
            let at = Lines::new(text);
            v.warnings = warns
                .iter()
                .map(|w| {
                    let (l, c) = at.line_col(w.span.start);
                    format!("{origin}:{l}:{c}: warning: {}", w.message)
                })
                .collect();
            include_eval(&mut v, origin, text, files)?;
            load_network(&mut v, origin, text, files)?;
            Ok(v)
        }
        _ => Err(render(text, origin, diags)),
    }
}

fn read_variant(
    text: &str,
    entries: &[(String, Span, SVal)],
    diags: &mut Vec<Diag>,
    warns: &mut Vec<Diag>,
    catalog: &dyn SpecCatalog,
) -> Option<Variant> {
    let top = read_top(entries, diags);
    let mut ok = true;
    if top.title.is_none() {
        diags.push(Diag {
            span: 0..0,
            message: "missing `name`".into(),
            hint: Some("add `name = \"My Variant\"` at the top".into()),
        });
        ok = false;
    }
    let files = read_side(top.files, "files", diags);
    let ranks = read_side(top.ranks, "ranks", diags);
    let pieces = read_pieces(text, entries, &top.pieces, diags, &mut ok);
    let PieceTables {
        defs,
        spans: piece_spans,
        promotes,
        demotes,
        plus,
        limits,
        mut letters_broken,
        zone_keys,
        warnings,
    } = pieces;
    let mut variant = Variant {
        id: top.id,
        title: top.title.unwrap_or_default(),
        description: top.description,
        files: files.unwrap_or(8),
        ranks: ranks.unwrap_or(8),
        pieces: defs,
        placement: vec![],
        holes: vec![],
        start_hand: vec![],
        rules: vec![],
        source: String::new(),
        locations: Locations::default(),
        eval: None,
        network: None,
        warnings: Vec::new(),
        zones: Vec::new(),
        display: super::Display::default(),
        tests: Vec::new(),
        allowed_lints: top.allow_lints.clone(),
    };
    warns.extend(warnings);
    let start = top.start;
    // The promoted forms first: `promotes-to` may name one as `+X`.
    letters_broken |= read_demotions(text, &mut variant, demotes, plus, letters_broken, diags);
    read_promotions(text, &mut variant, promotes, &start, letters_broken, diags);
    read_kind_limits(text, &mut variant, limits, diags);
    let start_span = start.as_ref().map(|s| s.1.clone()).unwrap_or(0..0);
    let start_unknown = read_start(
        text,
        &mut variant,
        start,
        files.zip(ranks),
        letters_broken,
        diags,
    );
    if let (Some((t, _)), Some(f), Some(r)) = (top.zones, files, ranks) {
        let g = Geometry::with_holes(f, r, &variant.holes);
        variant.zones = super::zones::read(t, &g, diags);
    }
    resolve_zone_keys(text, &mut variant, zone_keys, diags);
    variant.display = read_display(top.display, files.zip(ranks).is_some(), &variant, diags);
    let rule_spans = read_rules(
        &mut variant,
        top.rules,
        catalog,
        letters_broken,
        &start_unknown,
        diags,
    );
    royal_pieces_in_hand(text, &variant, &start_span, diags);
    variant.eval = top
        .eval
        .map(|(t, span)| super::eval_table::read(t, span, &variant, diags));
    check_promotion_rule(&variant, &piece_spans, diags);
    let test_spans = read_tests(
        text,
        top.tests.as_ref(),
        &mut variant,
        catalog,
        files.zip(ranks).is_some() && !letters_broken,
        diags,
    );
    if !ok || !diags.is_empty() {
        return None;
    }
    variant.locations = locations(text, &start_span, &piece_spans, &rule_spans, &test_spans);
    Some(variant)
}

/// A royal piece in the start position's hand that no rule brings onto the board (a royal
/// piece never goes to a hand otherwise): an error at its letter.
fn royal_pieces_in_hand(text: &str, v: &Variant, start_span: &Span, diags: &mut Vec<Diag>) {
    let Some(open) = text.get(start_span.clone()).and_then(|s| s.find('[')) else {
        return;
    };
    let written = &text[start_span.start + open..start_span.end];
    let mut reported = Vec::new();
    for &(k, color) in &v.start_hand {
        let p = &v.pieces[k];
        if !p.royal
            || reported.contains(&(k, color))
            || v.rules.iter().any(|r| r.brings_from_hand(k))
        {
            continue;
        }
        reported.push((k, color));
        let symbol = p.symbol_for(color);
        let at = start_span.start + open + written.find(&symbol).unwrap_or(0);
        diags.push(Diag {
            span: at..at + 1,
            message: format!(
                "start position: a royal piece ({}) in hand, but no rule brings it onto the board",
                p.name
            ),
            hint: Some(format!(
                "list {} in `[rules.drops]`'s `kinds` to place it from the hand, or leave it out",
                p.symbol
            )),
        });
    }
}

/// The `[[test]]` tables, read once the rest is (`placements`: the board and the letters are
/// sound, so the FENs' placements can be checked); returns each test's table and `fen` spans.
fn read_tests(
    text: &str,
    tests: Option<&SVal>,
    variant: &mut Variant,
    catalog: &dyn SpecCatalog,
    placements: bool,
    diags: &mut Vec<Diag>,
) -> Vec<(Span, Option<Span>)> {
    let Some(t) = tests else {
        return Vec::new();
    };
    let names: Vec<&str> = catalog.rule_names().iter().map(|(n, _)| *n).collect();
    let (read, spans) = super::test_table::read(text, t, variant, &names, placements, diags);
    variant.tests = read;
    spans
}

/// Where the start, the pieces and the rules are written. What can only be found by compiling
/// (a notation the generator cannot compile on this board, a castling partner that is not
/// there, an illegal start position) is found by `Ruleset::new`, once, when the caller compiles
/// the variant; these locations let its error point at the part of the file at fault.
fn locations(
    text: &str,
    start_span: &Span,
    piece_spans: &[Span],
    rule_spans: &[(String, Span)],
    test_spans: &[(Span, Option<Span>)],
) -> Locations {
    let at = Lines::new(text);
    let loc = |span: &Span| {
        let (line, col) = at.line_col(span.start);
        Loc { line, col }
    };
    Locations {
        origin: String::new(),
        start: Some(loc(start_span)),
        pieces: piece_spans.iter().map(loc).collect(),
        rules: rule_spans
            .iter()
            .map(|(n, s)| (n.clone(), loc(s)))
            .collect(),
        network: None,
        tests: test_spans
            .iter()
            .map(|(t, f)| super::TestLoc {
                table: loc(t),
                fen: f.as_ref().map(loc),
            })
            .collect(),
    }
}

/// The `[display]` table, read once the zones are (`sized`: the board's size was valid; else
/// its zones are unknown and nothing is read).
fn read_display(
    table: Option<(&Entries, Span)>,
    sized: bool,
    variant: &Variant,
    diags: &mut Vec<Diag>,
) -> super::Display {
    match table {
        Some((t, span)) if sized => super::display::read(t, span, variant, diags),
        _ => super::Display::default(),
    }
}

/// The top-level keys of a variant file (an unknown key is reported as such).
struct TopKeys<'a> {
    title: Option<String>,
    id: String,
    description: String,
    files: Option<SVal>,
    ranks: Option<SVal>,
    start: Option<(String, Span)>,
    pieces: Option<SVal>,
    rules: Option<(&'a Entries, Span)>,
    eval: Option<(&'a Entries, Span)>,
    zones: Option<(&'a Entries, Span)>,
    display: Option<(&'a Entries, Span)>,
    tests: Option<SVal>,
    allow_lints: Vec<String>,
}

fn read_top<'a>(entries: &'a [(String, Span, SVal)], diags: &mut Vec<Diag>) -> TopKeys<'a> {
    let mut top = Params::new("variant", 0..0, entries, diags);
    let title = top.string("name").map(|s| s.0);
    let id = top.string("id").map(|s| s.0).unwrap_or_default();
    let description = top.string("description").map(|s| s.0).unwrap_or_default();
    let _ = top.string("inventor");
    let files = top.get("files").cloned();
    let ranks = top.get("ranks").cloned();
    let start = top.string("start");
    let pieces = top.get("piece").cloned();
    let rules = top.table("rules");
    let eval = top.table("eval");
    let zones = top.table("zones");
    let display = top.table("display");
    let tests = top.get("test").cloned();
    let mut allow_lints = Vec::new();
    for (name, span) in top.strings("allow-lints").unwrap_or_default() {
        if super::LINT_NAMES.contains(&name.as_str()) {
            allow_lints.push(name);
        } else {
            top.error(
                span,
                format!("`allow-lints`: no lint is named `{name}`"),
                Some(format!("the lints: {}", super::LINT_NAMES.join(", "))),
            );
        }
    }
    top.finish();
    TopKeys {
        title,
        id,
        description,
        files,
        ranks,
        start,
        pieces,
        rules,
        eval,
        zones,
        display,
        tests,
        allow_lints,
    }
}

/// `files` or `ranks`: an integer from 1 to [`MAX_SIDE`].
fn read_side(v: Option<SVal>, key: &str, diags: &mut Vec<Diag>) -> Option<u8> {
    match v {
        None => {
            diags.push(Diag {
                span: 0..0,
                message: format!("missing `{key}`"),
                hint: Some(format!("add `{key} = 8` (1 to {MAX_SIDE})")),
            });
            None
        }
        Some(SVal {
            val: Val::Int(n),
            span,
        }) => {
            if (1..=MAX_SIDE as i64).contains(&n) {
                Some(n as u8)
            } else {
                diags.push(Diag {
                    span,
                    message: format!("`{key}` is {n}: the board is too large or too small"),
                    hint: Some(format!("boards have 1 to {MAX_SIDE} files and ranks")),
                });
                None
            }
        }
        Some(v) => {
            diags.push(Diag {
                span: v.span,
                message: format!("`{key}` must be an integer, found {}", v.val.type_name()),
                hint: None,
            });
            None
        }
    }
}

/// The `[[piece]]` tables as read.
/// A piece's zone keys as written: `confined`, and `betza-in` as (zone, its span, movement,
/// its span).
#[derive(Default)]
struct ZoneKeys {
    confined: Option<(String, Span)>,
    betza_in: Vec<(String, Span, String, Span)>,
    betza_within: Vec<(String, Span, String, Span)>,
}

struct PieceTables {
    defs: Vec<PieceDef>,
    /// Where each piece's table is in the file.
    spans: Vec<Span>,
    /// Each piece's `promotes-to`, read once every letter is known.
    promotes: Vec<Option<(String, Span)>>,
    /// Each piece's `demotes-to`, read once every letter is known.
    demotes: Vec<Option<(String, Span)>>,
    /// For each piece written `letter = "+X"`, `X` and where it is written: its base, found
    /// once every letter is known.
    plus: Vec<Option<(String, Span)>>,
    /// Each piece's `no-screen` and `no-capture`, read once every letter is known.
    limits: Vec<[Option<(String, Span)>; 2]>,
    /// A piece without a valid letter of its own makes the start position and the rules'
    /// letter lists fail on every square and key that uses its letter, for that reason alone:
    /// those consequences are not reported (a promotion list is short, and is still checked).
    letters_broken: bool,
    /// Each piece's `confined` and `betza-in`, resolved once the zones are read.
    zone_keys: Vec<ZoneKeys>,
    /// Notation that compiles to something simpler than it is written (not errors).
    warnings: Vec<Diag>,
}

/// The pieces; `ok` is cleared when the file has none or too many kinds.
fn read_pieces(
    text: &str,
    entries: &[(String, Span, SVal)],
    pieces_v: &Option<SVal>,
    diags: &mut Vec<Diag>,
    ok: &mut bool,
) -> PieceTables {
    let mut tables = PieceTables {
        defs: Vec::new(),
        spans: Vec::new(),
        promotes: Vec::new(),
        limits: Vec::new(),
        demotes: Vec::new(),
        plus: Vec::new(),
        letters_broken: false,
        zone_keys: Vec::new(),
        warnings: Vec::new(),
    };
    match pieces_v {
        None => {
            // A misspelled `[[pieces]]` is already reported as an unknown key: say nothing more.
            let misspelled = entries
                .iter()
                .any(|(k, _, _)| k != "piece" && k.to_ascii_lowercase().starts_with("piece"));
            if !misspelled {
                diags.push(Diag {
                    span: 0..0,
                    message: "no pieces: the file has no `[[piece]]` table".into(),
                    hint: Some("add `[[piece]]` tables with name, letter and betza".into()),
                });
            }
            tables.letters_broken = true;
            *ok = false;
        }
        Some(SVal {
            val: Val::Array(items),
            ..
        }) => {
            for (i, it) in items.iter().enumerate() {
                read_piece(text, i, it, &mut tables, diags);
            }
        }
        Some(v) => {
            tables.letters_broken = true;
            diags.push(Diag {
                span: v.span.clone(),
                message: "`piece` must be an array of tables (`[[piece]]`)".into(),
                hint: None,
            });
        }
    }
    let pieces = &tables.defs;
    if pieces.len() > MAX_KINDS {
        diags.push(Diag {
            span: 0..0,
            message: format!(
                "{} piece types: at most {MAX_KINDS} are supported",
                pieces.len()
            ),
            hint: None,
        });
        *ok = false;
    }
    if !pieces.is_empty() && !pieces.iter().any(|p| p.royal) {
        diags.push(Diag {
            span: tables.spans[0].clone(),
            message: "no royal piece: checkmate needs one".into(),
            hint: Some("mark the king with `royal = true`".into()),
        });
    }
    tables
}

/// Piece `i` (0-based), added to `tables` unless it has no name.
fn read_piece(text: &str, i: usize, it: &SVal, tables: &mut PieceTables, diags: &mut Vec<Diag>) {
    let Val::Table(t) = &it.val else {
        tables.letters_broken = true;
        diags.push(Diag {
            span: it.span.clone(),
            message: "each `[[piece]]` must be a table".into(),
            hint: None,
        });
        return;
    };
    let mut p = Params::new(&format!("piece[{}]", i + 1), it.span.clone(), t, diags);
    let name = p.string("name");
    let letter = p.string("letter");
    let betza = p.string("betza");
    let betza_span = betza.as_ref().map(|b| b.1.clone());
    let value = p.int("value", -100_000, 100_000);
    let royal = p.boolean("royal").unwrap_or(false);
    let promo = p.string("promotes-to");
    let no_screen = p.string("no-screen");
    let no_capture = p.string("no-capture");
    let demo = p.string("demotes-to");
    let confined = p.string("confined");
    let zoned = |p: &mut Params<'_, '_>, key: &'static str| {
        let mut out = Vec::new();
        if let Some((t, _)) = p.table(key) {
            for (zone, zspan, v) in t {
                match &v.val {
                    Val::Str(b) => {
                        out.push((zone.clone(), zspan.clone(), b.clone(), v.span.clone()))
                    }
                    _ => p.error(
                        v.span.clone(),
                        format!("`{key}.{zone}` must be a string of XBetza"),
                        None,
                    ),
                }
            }
        }
        out
    };
    let betza_in = zoned(&mut p, "betza-in");
    let betza_within = zoned(&mut p, "betza-within");
    p.finish();
    let name = match name {
        Some(n) => n.0,
        None => {
            tables.letters_broken = true;
            diags.push(Diag {
                span: it.span.clone(),
                message: format!("piece {} has no `name`", i + 1),
                hint: None,
            });
            return;
        }
    };
    let written = piece_letter(text, letter, &name, it, tables, diags);
    let (betza_text, parsed) = piece_betza(text, betza, &name, it, diags);
    if let Some(span) = betza_span {
        match crate::tables::check_budget(&parsed) {
            Err(m) => diags.push(budget_diag(span, &name, m)),
            Ok(_) => {
                for w in crate::tables::notation_warnings(&parsed) {
                    tables.warnings.push(Diag {
                        span: span.clone(),
                        message: format!("piece {name}: {w}"),
                        hint: None,
                    });
                }
            }
        }
    }
    tables.defs.push(PieceDef {
        name,
        letter: written.letter,
        symbol: written.symbol,
        betza_text,
        betza: parsed,
        value: value.map(|v| v as i32),
        royal,
        promotes_to: vec![],
        demotes_to: None,
        confined: None,
        betza_in: Vec::new(),
        betza_within: Vec::new(),
        no_screen: Vec::new(),
        no_capture: Vec::new(),
    });
    tables.limits.push([no_screen, no_capture]);
    tables.zone_keys.push(ZoneKeys {
        confined,
        betza_in,
        betza_within,
    });
    tables.spans.push(it.span.clone());
    tables.promotes.push(promo);
    tables.demotes.push(demo);
    tables.plus.push(written.base);
}

/// A movement over one of the compiler's limits ([`crate::tables::check_budget`]), reported
/// at its notation.
fn budget_diag(span: Span, name: &str, message: String) -> Diag {
    Diag {
        span,
        message: format!("piece {name}: {message}"),
        hint: Some(
            "the limits keep every variant quick to compile (see docs/variant-format.md)".into(),
        ),
    }
}

/// How a piece is written, as its `letter` key gives it.
struct Written {
    /// Its own letter (`None` for `+X` and `N'`, and for a letter that is not valid).
    letter: Option<char>,
    /// Its [`PieceDef::symbol`] (`?` when the letter is not valid).
    symbol: String,
    /// For `+X` (`+N'`): `X` (`N'`), and where it is written (the piece it is made from,
    /// found once every letter is known).
    base: Option<(String, Span)>,
}

/// A piece's `letter`: one upper-case letter no other piece has; one and a prime (`N'`, a
/// kind of its own, as XBoard names its extra pieces), no other piece being written so; or
/// `+` and the name of the piece it is the promoted form of (`+P`, `+N'`), no other piece
/// being written so.
fn piece_letter(
    text: &str,
    letter: Option<(String, Span)>,
    name: &str,
    it: &SVal,
    tables: &mut PieceTables,
    diags: &mut Vec<Diag>,
) -> Written {
    let broken = || Written {
        letter: None,
        symbol: "?".into(),
        base: None,
    };
    let Some((l, span)) = letter else {
        tables.letters_broken = true;
        diags.push(Diag {
            span: it.span.clone(),
            message: format!("piece {name} has no `letter`"),
            hint: Some("add `letter = \"X\"`".into()),
        });
        return broken();
    };
    let chars: Vec<char> = l.chars().collect();
    // The character at `col` (from 1) of the value, for the errors that point into it.
    let at = |col: usize| {
        let o = offset_in_string(text, &span, col);
        o..o + 1
    };
    let problem = match chars.as_slice() {
        [c] if c.is_ascii_uppercase() => {
            let c = *c;
            let Some(prev) = tables.defs.iter().find(|q| q.letter == Some(c)) else {
                return Written {
                    letter: Some(c),
                    symbol: c.to_string(),
                    base: None,
                };
            };
            tables.letters_broken = true;
            diags.push(Diag {
                span,
                message: format!("letter '{c}' is used twice: by {} and by {name}", prev.name),
                hint: Some("every piece needs its own letter".into()),
            });
            return Written {
                letter: Some(c),
                symbol: c.to_string(),
                base: None,
            };
        }
        [c, '\''] if c.is_ascii_uppercase() => {
            let symbol = format!("{c}'");
            if let Some(prev) = tables.defs.iter().find(|q| q.symbol == symbol) {
                tables.letters_broken = true;
                diags.push(Diag {
                    span,
                    message: format!(
                        "letter \"{symbol}\" is used twice: by {} and by {name}",
                        prev.name
                    ),
                    hint: Some(
                        "every piece needs its own name: another letter and a prime, or a \
                         letter of its own"
                            .into(),
                    ),
                });
            }
            return Written {
                letter: None,
                symbol,
                base: None,
            };
        }
        ['+', c] | ['+', c, '\''] if c.is_ascii_uppercase() => {
            let symbol = l.clone();
            let c = &l[1..];
            let mut base = Some((c.to_string(), at(2)));
            if let Some(prev) = tables.defs.iter().find(|q| q.symbol == symbol) {
                // The second is not a promoted form: its base is not looked for, and nothing
                // more is said of it.
                base = None;
                diags.push(Diag {
                    span,
                    message: format!(
                        "letter \"{symbol}\" is used twice: by {} and by {name} (a piece has one \
                         promoted form)",
                        prev.name
                    ),
                    hint: Some(format!(
                        "give one of them a letter of its own (with `demotes-to = \"{c}\"` if it \
                         is made from {c} too)"
                    )),
                });
            }
            return Written {
                letter: None,
                symbol,
                base,
            };
        }
        _ => letter_problem(name, &l, &chars, span.clone(), at),
    };
    tables.letters_broken = true;
    diags.push(problem);
    broken()
}

/// What is wrong with a piece's `letter` `l` (its characters `chars`, written at `span`;
/// `at(col)` is the span of its character `col`) that is neither a letter, nor a letter and a
/// prime, nor `+` and either.
fn letter_problem(
    name: &str,
    l: &str,
    chars: &[char],
    span: Span,
    at: impl Fn(usize) -> Span,
) -> Diag {
    let prime_hint = "write letter = \"N'\" for a piece named by the letter N and a prime";
    match chars {
        ['\''] => Diag {
            span: at(1),
            message: format!(
                "letter of {name} is \"'\" alone: a prime follows a piece's letter (`N'`)"
            ),
            hint: Some(prime_hint.into()),
        },
        ['\'', ..] => Diag {
            span: at(1),
            message: format!(
                "letter of {name} is \"{l}\": the prime comes after the letter, not before it"
            ),
            hint: Some(match chars {
                ['\'', c] if c.is_ascii_alphabetic() => {
                    format!("write letter = \"{}'\"", c.to_ascii_uppercase())
                }
                _ => prime_hint.into(),
            }),
        },
        [c, '\''] if c.is_ascii_lowercase() => Diag {
            span: at(1),
            message: format!(
                "letter of {name} is \"{l}\": before the prime comes the piece's letter, in upper \
                 case (Black's pieces are written in lower case in FENs, never in the file)"
            ),
            hint: Some(format!("write letter = \"{}'\"", c.to_ascii_uppercase())),
        },
        [c, '\'', '\'', ..] if c.is_ascii_uppercase() => Diag {
            span: at(3),
            message: format!(
                "letter of {name} is \"{l}\": a prime is written once, after the piece's letter"
            ),
            hint: Some(format!("write letter = \"{c}'\"")),
        },
        ['+', c, '\'', '\'', ..] if c.is_ascii_uppercase() => Diag {
            span: at(4),
            message: format!(
                "letter of {name} is \"{l}\": a prime is written once, after the piece's letter"
            ),
            hint: Some(format!("write letter = \"+{c}'\"")),
        },
        ['+', c, '\''] if c.is_ascii_lowercase() => Diag {
            span: at(2),
            message: format!(
                "letter of {name} is \"{l}\": after `+` comes the piece's name, in upper case"
            ),
            hint: Some(format!("write letter = \"+{}'\"", c.to_ascii_uppercase())),
        },
        ['+'] => Diag {
            span: at(1),
            message: format!(
                "letter of {name} is \"+\" alone: a promoted piece is written `+` and the letter \
                 of the piece it is made from"
            ),
            hint: Some("write letter = \"+P\" for the promoted form of the piece P".into()),
        },
        ['+', '+', ..] => Diag {
            span: at(2),
            message: format!(
                "letter of {name} is \"{l}\": `+` is written once, before a piece's letter"
            ),
            hint: Some(format!("write letter = \"+{}\"", l.trim_start_matches('+'))),
        },
        ['+', c] if c.is_ascii_lowercase() => Diag {
            span: at(2),
            message: format!(
                "letter of {name} is \"{l}\": after `+` comes the piece's letter, in upper case"
            ),
            hint: Some(format!("write letter = \"+{}\"", c.to_ascii_uppercase())),
        },
        ['+', ..] => Diag {
            span,
            message: format!(
                "letter of {name} must be `+` and one upper-case letter A-Z, perhaps with a prime \
                 (the name of the piece it is the promoted form of: `+P`, `+N'`), found \"{l}\""
            ),
            hint: Some("write letter = \"+P\" for the promoted form of the piece P".into()),
        },
        _ if chars.contains(&'\'') => Diag {
            span,
            message: format!(
                "letter of {name} must be one upper-case letter A-Z, or one and a prime (`N'`), \
                 found \"{l}\""
            ),
            hint: Some(prime_hint.into()),
        },
        _ => Diag {
            span,
            message: format!("letter of {name} must be one upper-case letter A-Z, found \"{l}\""),
            hint: None,
        },
    }
}

/// A piece's movement: its XBetza text and the parsed notation (empty when it is missing or
/// does not parse).
fn piece_betza(
    text: &str,
    betza: Option<(String, Span)>,
    name: &str,
    it: &SVal,
    diags: &mut Vec<Diag>,
) -> (String, notation::Betza) {
    match betza {
        Some((b, span)) => match notation::parse(&b) {
            Ok(ast) => (b, ast),
            Err(e) => {
                let at = offset_in_string(text, &span, e.column);
                diags.push(Diag {
                    span: at..at + 1,
                    message: format!("bad notation for {name}: {}", e.message),
                    hint: e.hint.clone(),
                });
                (b, Default::default())
            }
        },
        None => {
            diags.push(Diag {
                span: it.span.clone(),
                message: format!("piece {name} has no `betza`"),
                hint: Some("add its movement in XBetza, e.g. betza = \"N\"".into()),
            });
            (String::new(), Default::default())
        }
    }
}

/// Each piece's `no-screen` and `no-capture` kinds, by letter: a piece of one of them is no
/// screen for its hops, or no prey. A royal kind may not be spared (the check test counts every
/// attack on a royal piece), and only a piece that hops has screens.
fn read_kind_limits(
    text: &str,
    variant: &mut Variant,
    limits: Vec<[Option<(String, Span)>; 2]>,
    diags: &mut Vec<Diag>,
) {
    for (i, pair) in limits.into_iter().enumerate() {
        for (which, raw) in pair.into_iter().enumerate() {
            let Some((s, span)) = raw else { continue };
            let key = ["no-screen", "no-capture"][which];
            let name = variant.pieces[i].name.clone();
            let mut kinds = Vec::new();
            for (col, t) in split_symbols(&s) {
                let at = offset_in_string(text, &span, col);
                let upper = !t.chars().any(|c| c.is_ascii_lowercase());
                match variant.kind_by_symbol(&t).filter(|_| upper) {
                    Some(k) if which == 1 && variant.pieces[k].royal => diags.push(Diag {
                        span: at..at + t.len(),
                        message: format!(
                            "{name}: `{key}` names {}, a royal piece: every attack on a royal \
                             piece counts as check",
                            variant.pieces[k].name
                        ),
                        hint: Some("name only pieces that are not royal".into()),
                    }),
                    Some(k) => kinds.push(k),
                    None => diags.push(Diag {
                        span: at..at + t.len(),
                        message: format!(
                            "{name}: `{key}` names {}, but {}",
                            quoted(&t),
                            unknown_why(&t)
                        ),
                        hint: Some(letter_hint(variant)),
                    }),
                }
            }
            let hops = variant.pieces[i]
                .betza
                .components
                .iter()
                .any(|c| c.legs.iter().any(|l| l.mods.p || l.mods.g));
            if which == 0 && !hops {
                diags.push(Diag {
                    span: span.clone(),
                    message: format!("{name}: `{key}`, but it has no move that hops (`p`, `g`)"),
                    hint: Some("leave `no-screen` out, or give it a hopping move".into()),
                });
            }
            if which == 0 {
                variant.pieces[i].no_screen = kinds;
            } else {
                variant.pieces[i].no_capture = kinds;
            }
        }
    }
}

/// Each piece's promotion targets, by name (`"QRBN"`, `"+P"`, `"Q+R"`, `"NN'"`).
fn read_promotions(
    text: &str,
    variant: &mut Variant,
    promotes: Vec<Option<(String, Span)>>,
    start: &Option<(String, Span)>,
    letters_broken: bool,
    diags: &mut Vec<Diag>,
) {
    let start_text = start.as_ref().map(|s| s.0.clone()).unwrap_or_default();
    let start_uses = |t: &str| {
        start_text
            .to_ascii_uppercase()
            .contains(&t.to_ascii_uppercase())
    };
    for (i, raw) in promotes.into_iter().enumerate() {
        if let Some((s, span)) = raw {
            let mut kinds = Vec::new();
            for (col, t) in split_symbols(&s) {
                match variant.kind_by_symbol(&t) {
                    Some(k) if !t.chars().any(|c| c.is_ascii_lowercase()) => kinds.push(k),
                    // The start position uses this letter too: most likely the letter of the
                    // piece whose own letter is broken, already reported.
                    None if letters_broken && start_uses(&t) => {}
                    _ => {
                        let at = offset_in_string(text, &span, col);
                        diags.push(Diag {
                            span: at..at + t.len(),
                            message: format!(
                                "{} promotes to {}, but {}",
                                variant.pieces[i].name,
                                quoted(&t),
                                unknown_why(&t)
                            ),
                            hint: Some(letter_hint(variant)),
                        });
                    }
                }
            }
            // The only royal piece of its side (one royal kind, one of it at the start)
            // promoting to a piece that is not royal would leave its side without the piece it
            // must keep: every such promotion is refused, so the piece could never enter the
            // squares where it must promote. (With several royal pieces, the last one keeps
            // that guard, and the others may promote.)
            let symbol = &variant.pieces[i].symbol;
            let sole = variant.pieces.iter().filter(|p| p.royal).count() == 1
                && split_symbols(&start_text)
                    .iter()
                    .filter(|(_, t)| t == symbol)
                    .count()
                    <= 1;
            if variant.pieces[i].royal
                && sole
                && let Some(&k) = kinds.iter().find(|&&k| !variant.pieces[k].royal)
            {
                diags.push(Diag {
                    span: span.clone(),
                    message: format!(
                        "{} is royal but promotes to {}, which is not: the side would lose its \
                         royal piece, so the promotion could never be made",
                        variant.pieces[i].name, variant.pieces[k].name
                    ),
                    hint: Some("leave `promotes-to` out, or promote only to royal pieces".into()),
                });
            }
            variant.pieces[i].promotes_to = kinds;
        }
    }
}

/// Each piece's `demotes-to`: one letter of another piece, which does not itself demote; no
/// two pieces demote to the same piece (a FEN's `+X` must name one piece). A piece written
/// `letter = "+X"` demotes to `X` without saying so (a `demotes-to` it has must name `X`).
/// Returns whether a piece written `+X` has no `X` to be made from: the names that use it (the
/// start position's `+X`) fail for that reason alone.
fn read_demotions(
    text: &str,
    variant: &mut Variant,
    demotes: Vec<Option<(String, Span)>>,
    plus: Vec<Option<(String, Span)>>,
    letters_broken: bool,
    diags: &mut Vec<Diag>,
) -> bool {
    let mut spans = vec![0..0; variant.pieces.len()];
    let mut no_base = false;
    // The pieces written `+X` first: what they demote to is part of their name.
    for (i, raw) in plus.into_iter().enumerate() {
        let Some((c, span)) = raw else { continue };
        spans[i] = span.clone();
        match variant.kind_by_symbol(&c) {
            Some(k) => variant.pieces[i].demotes_to = Some(k),
            None => {
                no_base = true;
                if !letters_broken {
                    diags.push(Diag {
                        span,
                        message: format!(
                            "{} is written \"+{c}\", the promoted form of {}, but {}",
                            variant.pieces[i].name,
                            quoted(&c),
                            no_piece(&c)
                        ),
                        hint: Some(letter_hint(variant)),
                    });
                }
            }
        }
    }
    for (i, raw) in demotes.into_iter().enumerate() {
        let Some((s, span)) = raw else { continue };
        let name = variant.pieces[i].name.clone();
        // A letter, or a letter and a prime: the name of a piece not itself written `+X`.
        let kind = match s.chars().next() {
            Some(c) if c.is_ascii_uppercase() => variant.kind_by_symbol(&s),
            _ => None,
        };
        if variant.pieces[i].letter.is_none() && variant.pieces[i].symbol.starts_with('+') {
            // Written `+X`: `demotes-to` may only repeat `X`.
            let base = &variant.pieces[i].symbol[1..];
            if s != base && (kind.is_some() || !letters_broken) {
                let at = offset_in_string(text, &span, 1);
                diags.push(Diag {
                    span: at..at + 1,
                    message: format!(
                        "{name} is written \"+{base}\", the promoted form of {}, but \
                         `demotes-to` names \"{s}\"",
                        quoted(base)
                    ),
                    hint: Some(format!(
                        "leave `demotes-to` out: `+{base}` says what {name} is made from"
                    )),
                });
            }
            continue;
        }
        spans[i] = span.clone();
        let problem = match kind {
            None if letters_broken => continue,
            None => format!("{name} demotes to \"{s}\", which is not the letter of a piece"),
            Some(k) if k == i => format!("{name} cannot demote to itself"),
            Some(k) if variant.pieces.iter().any(|p| p.demotes_to == Some(k)) => format!(
                "two pieces demote to {}: a FEN's `+{s}` would not say which",
                variant.pieces[k].name
            ),
            Some(k) => {
                variant.pieces[i].demotes_to = Some(k);
                continue;
            }
        };
        diags.push(Diag {
            span,
            message: problem,
            hint: Some(letter_hint(variant)),
        });
    }
    for (i, span) in spans.into_iter().enumerate() {
        if let Some(k) = variant.pieces[i].demotes_to
            && variant.pieces[k].demotes_to.is_some()
        {
            variant.pieces[i].demotes_to = None;
            diags.push(Diag {
                span,
                message: format!(
                    "{} demotes to {}, which demotes in turn: a piece demotes to a piece that \
                     does not",
                    variant.pieces[i].name, variant.pieces[k].name
                ),
                hint: None,
            });
        }
    }
    no_base
}

/// The start position. The names it uses that no piece has (letters, letters with a prime)
/// are reported here, once each, and returned (upper case, without a `+`): a rule's list of
/// pieces naming the same says nothing more.
fn read_start(
    text: &str,
    variant: &mut Variant,
    start: Option<(String, Span)>,
    size: Option<(u8, u8)>,
    letters_broken: bool,
    diags: &mut Vec<Diag>,
) -> Vec<String> {
    let mut start_unknown: Vec<String> = Vec::new();
    // The pieces in hand, written after the placement as in FEN (`…/RNBQKBNR[HEhe]`).
    let start = start.map(|(s, span)| {
        let Some((open, close)) = s.find('[').zip(s.find(']')) else {
            return (s, span);
        };
        if close < open {
            return (s, span);
        }
        let before = s[..open + 1].chars().count();
        for (i, c) in split_symbols(&s[open + 1..close]) {
            let at = offset_in_string(text, &span, before + i);
            let kind = variant.kind_by_symbol(&c);
            let color = if c.chars().any(|x| x.is_ascii_lowercase()) {
                Color::Black
            } else {
                Color::White
            };
            match kind {
                // A royal piece in hand stands only where a rule brings it onto the board
                // (checked once the rules are read: [`royal_pieces_in_hand`]).
                Some(k) => variant.start_hand.push((k, color)),
                None if c == "-" => {}
                None => {
                    start_unknown.push(c.trim_start_matches('+').to_ascii_uppercase());
                    if !letters_broken {
                        diags.push(Diag {
                            span: at..at + c.len(),
                            message: format!("start position: `{c}` in hand: {}", no_piece(&c)),
                            hint: None,
                        });
                    }
                }
            }
        }
        (format!("{}{}", &s[..open], &s[close + 1..]), span)
    });
    match (start, size) {
        (Some((s, span)), Some((f, r))) => match parse_placement(variant, &s, f, r) {
            Ok((p, holes)) => {
                variant.placement = p;
                variant.holes = holes;
            }
            Err(errs) => {
                for (col, msg, hint, unknown) in errs {
                    if let Some(c) = unknown {
                        start_unknown.push(c.to_ascii_uppercase());
                        if letters_broken {
                            continue;
                        }
                    }
                    let at = offset_in_string(text, &span, col);
                    diags.push(Diag {
                        span: at..at + 1,
                        message: format!("start position: {msg}"),
                        hint,
                    });
                }
            }
        },
        (None, _) => {
            diags.push(Diag { span: 0..0, message: "missing `start`".into(), hint: Some("add the start position as FEN placement, e.g. start = \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\"".into()) });
        }
        _ => {}
    }
    start_unknown
}

/// The `[rules.*]` tables, each parsed by the catalog; returns the span of each rule's name
/// for problems found when compiling.
fn read_rules(
    variant: &mut Variant,
    rules_v: Option<(&Entries, Span)>,
    catalog: &dyn SpecCatalog,
    letters_broken: bool,
    start_unknown: &[String],
    diags: &mut Vec<Diag>,
) -> Vec<(String, Span)> {
    let mut rule_spans: Vec<(String, Span)> = Vec::new();
    if let Some((rules, _)) = rules_v {
        for (name, kspan, v) in rules {
            let Val::Table(t) = &v.val else {
                diags.push(Diag {
                    span: v.span.clone(),
                    message: format!("`rules.{name}` must be a table"),
                    hint: Some(format!("write `[rules.{name}]` on a line of its own")),
                });
                continue;
            };
            let known = catalog.rule_names();
            if !known.iter().any(|(n, _)| n == name) {
                let names: Vec<&str> = known.iter().map(|(n, _)| *n).collect();
                diags.push(Diag {
                    span: kspan.clone(),
                    message: format!("unknown rule `{name}`"),
                    hint: Some(format!("the rules are {}", names.join(", "))),
                });
                continue;
            }
            let mut p = Params::new(&format!("rules.{name}"), v.span.clone(), t, diags);
            p.quiet_letters = letters_broken;
            p.quiet_unknown = start_unknown.to_vec();
            let built = catalog.parse(name, &mut p, variant);
            p.finish();
            if let Some(r) = built {
                variant.rules.push(r);
                rule_spans.push((name.clone(), kspan.clone()));
            }
        }
    }
    rule_spans
}

/// A promotion list needs the promotion rule, which says where pieces promote.
fn check_promotion_rule(variant: &Variant, piece_spans: &[Span], diags: &mut Vec<Diag>) {
    if variant.rules.iter().any(|r| r.name() == "promotion") {
        return;
    }
    for (i, p) in variant.pieces.iter().enumerate() {
        if !p.promotes_to.is_empty() {
            diags.push(Diag {
                span: piece_spans[i].clone(),
                message: format!(
                    "{} has `promotes-to`, but the variant has no promotion rule",
                    p.name
                ),
                hint: Some(
                    "add a `[rules.promotion]` table (zone = 1 promotes on the last rank)".into(),
                ),
            });
        }
    }
}

/// A start position: `placement[rank * files + file]`.
pub type Placement = Vec<Option<(usize, Color)>>;

/// A problem in a FEN placement: 1-based column, message, hint, and the name (a letter, or a
/// letter and a prime) when the problem is a name that no piece has.
pub type PlacementError = (usize, String, Option<String>, Option<String>);

/// Parses a FEN placement against a variant's letters.
/// Parses a FEN placement against a variant's letters; `*` marks a hole (a square that does
/// not exist). Returns the pieces and the holes (square indices).
#[expect(
    clippy::too_many_lines,
    reason = "one scan, character by character; its cases share the file and column counters"
)]
pub fn parse_placement(
    v: &Variant,
    s: &str,
    files: u8,
    ranks: u8,
) -> Result<(Placement, Vec<crate::geometry::Square>), Vec<PlacementError>> {
    let mut out = vec![None; files as usize * ranks as usize];
    let mut holes = Vec::new();
    let mut errs: Vec<PlacementError> = Vec::new();
    // A hand written after the board (FEN's `[…]`): the board is read without it, and the
    // hand is named for what it is rather than counted as squares of rank 1.
    let s = match s.find('[') {
        Some(b) => {
            errs.push((
                s[..b].chars().count() + 1,
                format!(
                    "pieces in hand (`{}`) cannot be part of the start position",
                    &s[b..]
                ),
                Some(
                    "start with empty hands: pieces captured go to the hands during the game, \
                     and a FEN (`perft --fen`, UCI `position fen`) may hold a hand"
                        .into(),
                ),
                None,
            ));
            &s[..b]
        }
        None => s,
    };
    // Names no piece has, with the number of squares holding each.
    let mut unknown: Vec<(String, usize)> = Vec::new();
    let rows: Vec<&str> = s.split('/').collect();
    if rows.len() != ranks as usize {
        errs.push((
            1,
            format!("{} ranks given, the board has {ranks}", rows.len()),
            Some("ranks are separated by '/', the top rank first".into()),
            None,
        ));
        return Err(errs);
    }
    let mut col = 1;
    for (i, row) in rows.iter().enumerate() {
        let rank = ranks as usize - 1 - i;
        let mut file = 0usize;
        let chars: Vec<char> = row.chars().collect();
        let mut j = 0;
        while j < chars.len() {
            let c = chars[j];
            if c.is_ascii_digit() {
                let mut n = c.to_digit(10).unwrap() as usize;
                if j + 1 < chars.len() && chars[j + 1].is_ascii_digit() {
                    n = n * 10 + chars[j + 1].to_digit(10).unwrap() as usize;
                    j += 1;
                }
                if n == 0 {
                    errs.push((col + j, "an empty run of 0 squares".into(), None, None));
                }
                file += n;
            } else if c.is_ascii_alphabetic() || c == '+' || c == '\'' {
                // A letter, a letter and a prime (`N'`), or `+` and either (`+P`, `+N'`): the
                // promoted form of that piece.
                let first = j;
                let plus = c == '+';
                if plus {
                    j += 1;
                }
                let letter = match chars.get(j) {
                    Some(&n) if n.is_ascii_alphabetic() => n,
                    other if plus => {
                        errs.push((
                            col + first,
                            format!(
                                "`+` must be followed by a piece's letter, found {}",
                                other.map_or("nothing".to_string(), |n| format!("'{n}'"))
                            ),
                            Some("`+P` is the promoted form of the piece P".into()),
                            None,
                        ));
                        continue;
                    }
                    _ => {
                        errs.push((
                            col + j,
                            "a prime `'` must follow a piece's letter".into(),
                            Some("`N'` is the piece written with the letter N and a prime".into()),
                            None,
                        ));
                        j += 1;
                        continue;
                    }
                };
                if chars.get(j + 1) == Some(&'\'') {
                    j += 1;
                }
                let name: String = chars[first..=j].iter().collect();
                let base = &name[usize::from(plus)..];
                match v.kind_by_symbol(&name) {
                    Some(k) => {
                        if file < files as usize {
                            let color = if letter.is_ascii_uppercase() {
                                Color::White
                            } else {
                                Color::Black
                            };
                            out[rank * files as usize + file] = Some((k, color));
                        }
                    }
                    None if plus && v.kind_by_symbol(base).is_some() => errs.push((
                        col + first,
                        format!(
                            "`{name}`: no piece is the promoted form of {}",
                            quoted(base)
                        ),
                        Some(letter_hint(v)),
                        None,
                    )),
                    None => match unknown
                        .iter_mut()
                        .find(|(l, _)| l.eq_ignore_ascii_case(base))
                    {
                        // One line per name (either colour), however many squares hold it.
                        Some((_, n)) => *n += 1,
                        None => {
                            unknown.push((base.to_string(), 1));
                            errs.push((
                                col + first + usize::from(plus),
                                no_piece(base),
                                Some(letter_hint(v)),
                                Some(base.to_string()),
                            ));
                        }
                    },
                }
                file += 1;
            } else if c == '*' {
                if file < files as usize {
                    holes.push(Square::from_index(rank * files as usize + file));
                }
                file += 1;
            } else {
                errs.push((
                    col + j,
                    format!("unexpected '{c}'"),
                    Some(
                        "use piece letters, digits for empty squares, '*' for holes and '/' between ranks".into(),
                    ),
                    None,
                ));
                file += 1;
            }
            j += 1;
        }
        if file != files as usize {
            errs.push((
                col,
                format!(
                    "rank {} has {file} squares, the board has {files} files",
                    rank + 1
                ),
                None,
                None,
            ));
        }
        col += chars.len() + 1;
    }
    for (c, n) in unknown {
        if n > 1 {
            // `c` is the first spelling seen; the count covers both colours.
            let m = no_piece(&c);
            if let Some(e) = errs.iter_mut().find(|e| e.3.as_ref() == Some(&c)) {
                e.1 = format!("{m} (on {n} squares)");
            }
        }
    }
    if errs.is_empty() {
        Ok((out, holes))
    } else {
        Err(errs)
    }
}

/// A zone's copy for Black is White's turned top to bottom, while Black's directions turn
/// 180°: the two agree where the movement or the zone is the same left to right. Where neither
/// is, Black's piece would move otherwise than White's mirror image: refused.
fn one_sided_in_a_one_sided_zone(
    g: Geometry,
    zone: &super::Zone,
    piece: &str,
    text: &str,
    betza: &Betza,
    span: &Span,
) -> Option<Diag> {
    let white = &zone.squares[Color::White.index()];
    let zone_symmetric = white
        .iter()
        .all(|sq| white.contains(g.square(g.files - 1 - g.file(sq), g.rank(sq))));
    if zone_symmetric || crate::tables::mirror_symmetric(betza) != Some(false) {
        return None;
    }
    Some(Diag {
        span: span.clone(),
        message: format!(
            "{piece}: `{text}` in `{}` moves otherwise to the left than to the right, and the zone is \
             not the same left to right: Black's copy of a zone is White's turned top to bottom \
             while Black's directions turn 180°, so Black's {piece} would not move as White's \
             mirror image does",
            zone.name
        ),
        hint: Some(
            "make the movement the same to both sides (`s` for both sideways directions, or \
             each side written), or the zone the same left to right"
                .into(),
        ),
    })
}

/// Resolves each piece's `confined` and `betza-in` against the zones read.
fn resolve_zone_keys(text: &str, v: &mut Variant, keys: Vec<ZoneKeys>, diags: &mut Vec<Diag>) {
    let names: Vec<String> = v.zones.iter().map(|z| z.name.clone()).collect();
    let find = |name: &str, span: &Span, diags: &mut Vec<Diag>| -> Option<usize> {
        let i = names.iter().position(|n| n == name);
        if i.is_none() {
            diags.push(Diag {
                span: span.clone(),
                message: format!("no zone is named `{name}`"),
                hint: Some(if names.is_empty() {
                    "declare it in a `[zones]` table".to_string()
                } else {
                    format!("the zones: {}", names.join(", "))
                }),
            });
        }
        i
    };
    let geometry = Geometry::new(v.files, v.ranks);
    let zones = &v.zones;
    for (def, k) in v.pieces.iter_mut().zip(keys) {
        if let Some((z, span)) = k.confined {
            def.confined = find(&z, &span, diags);
        }
        // The piece's movements together stay within the paths limit: a movement past it is
        // reported once, and those after it are not expanded.
        let mut paths = crate::tables::check_budget(&def.betza).unwrap_or(0);
        let keyed = k
            .betza_in
            .into_iter()
            .map(|x| (false, x))
            .chain(k.betza_within.into_iter().map(|x| (true, x)));
        for (within, (z, zspan, b, bspan)) in keyed {
            let zone = find(&z, &zspan, diags);
            let parsed = match notation::parse(&b) {
                Ok(ast) => ast,
                Err(e) => {
                    let at = offset_in_string(text, &bspan, e.column);
                    diags.push(Diag {
                        span: at..at + 1,
                        message: format!("bad notation for {} in `{z}`: {}", def.name, e.message),
                        hint: e.hint.clone(),
                    });
                    continue;
                }
            };
            let max = crate::tables::MAX_PATHS;
            match crate::tables::check_budget(&parsed) {
                _ if paths > max => continue,
                Err(m) => {
                    diags.push(budget_diag(bspan.clone(), &def.name, m));
                    continue;
                }
                Ok(n) if paths + n > max => {
                    paths += n;
                    let m = format!(
                        "too many paths: its movements together expand into more than {max} paths"
                    );
                    diags.push(budget_diag(bspan.clone(), &def.name, m));
                    continue;
                }
                Ok(n) => paths += n,
            }
            if parsed.components.iter().any(|c| c.legs[0].mods.initial) {
                diags.push(Diag {
                    span: bspan.clone(),
                    message: format!(
                        "{}: a movement in a zone may not have first-move (`i`) parts",
                        def.name
                    ),
                    hint: Some("put first moves in the piece's `betza`".into()),
                });
                continue;
            }
            if let Some(zone) = zone
                && let Some(d) = one_sided_in_a_one_sided_zone(
                    geometry,
                    &zones[zone],
                    &def.name,
                    &b,
                    &parsed,
                    &bspan,
                )
            {
                diags.push(d);
                continue;
            }
            if let Some(zone) = zone {
                let zoned = crate::variant::ZonedBetza {
                    zone,
                    text: b,
                    betza: parsed,
                };
                if within {
                    def.betza_within.push(zoned);
                } else {
                    def.betza_in.push(zoned);
                }
            }
        }
    }
}

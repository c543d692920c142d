//! `polymachy variants --toml`: a machine-readable description of variants.

use serde::Serialize;

use super::UserError;
use crate::position::Position;
use crate::position::Ruleset;
use crate::variant::Variant;

/// One piece type, as scripts see it.
#[derive(Serialize, Debug)]
pub struct PieceInfo {
    /// The piece's name (`Lion`).
    pub name: String,
    /// Its name in every text, upper case: its letter (`P`), a letter and a prime (`N'`), or
    /// `+` and its base's name for a promoted form without a letter of its own (`+P`, `+N'`).
    pub letter: String,
    /// The movement as written in the variant file.
    pub betza: String,
    /// The movement in canonical XBetza (the letter order XBoard accepts).
    pub canonical: String,
    /// The movement in plain English.
    pub words: String,
    /// Its value in centipawns: the file's, or else the one the evaluation derives from its
    /// movement (none for a royal piece without one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<i32>,
    /// Where the value comes from: `"file"` or `"movement"` (derived).
    #[serde(rename = "value-from", skip_serializing_if = "Option::is_none")]
    pub value_from: Option<&'static str>,
    /// Whether it is royal (checkmate and check are about it).
    pub royal: bool,
    /// The pieces it may promote to, by name (`QRBN`, `+P`, `Q+R`), or nothing.
    #[serde(rename = "promotes-to", skip_serializing_if = "String::is_empty")]
    pub promotes_to: String,
}

/// One rule in words.
#[derive(Serialize, Debug)]
pub struct RuleInfo {
    /// The rule's name (`king-leap`).
    pub name: String,
    /// What it means in this variant.
    pub text: String,
}

/// One variant, as scripts see it.
#[derive(Serialize, Debug)]
pub struct VariantInfo {
    /// The command-line name (`metamachy`).
    pub id: String,
    /// The display name (`Metamachy`).
    pub name: String,
    /// Files of the board.
    pub files: u8,
    /// Ranks of the board.
    pub ranks: u8,
    /// The start position in FEN, with its state fields.
    pub start: String,
    /// The names of the variant's rules, in file order.
    pub rules: Vec<String>,
    /// The setup choices offered, if any.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub setups: Vec<String>,
    /// Each rule in plain English, as the variant sets it up.
    pub explained: Vec<RuleInfo>,
    /// The pieces, in file order.
    pub piece: Vec<PieceInfo>,
}

#[derive(Serialize)]
struct Doc {
    variant: Vec<VariantInfo>,
}

/// Describes a variant.
pub fn describe(v: &Variant) -> Result<VariantInfo, UserError> {
    let rules = Ruleset::new(v, None).map_err(|e| UserError(e.to_string()))?;
    let letters = |ks: &[usize]| {
        ks.iter()
            .map(|&k| v.pieces[k].symbol.as_str())
            .collect::<String>()
    };
    let derived = crate::search::eval::Evaluator::new(&rules);
    Ok(VariantInfo {
        id: v.id.clone(),
        name: v.title.clone(),
        files: v.files,
        ranks: v.ranks,
        start: Position::start(&rules).fen(),
        rules: v.rules.iter().map(|r| r.name().to_string()).collect(),
        explained: rules
            .compiled_rules()
            .iter()
            .map(|h| RuleInfo {
                name: h.name().to_string(),
                text: h.explain(&rules),
            })
            .collect(),
        setups: v
            .rules
            .iter()
            .flat_map(|r| r.setups())
            .map(|(n, s)| format!("{n}={s}"))
            .collect(),
        piece: v
            .pieces
            .iter()
            .enumerate()
            .map(|(kind, p)| PieceInfo {
                name: p.name.clone(),
                letter: p.symbol.clone(),
                betza: p.betza_text.clone(),
                canonical: p.betza.to_string(),
                words: v.piece_words(kind),
                value: p.value.or_else(|| (!p.royal).then(|| derived.values[kind])),
                value_from: match (p.value, p.royal) {
                    (Some(_), _) => Some("file"),
                    (None, false) => Some("movement"),
                    (None, true) => None,
                },
                royal: p.royal,
                promotes_to: letters(&p.promotes_to),
            })
            .collect(),
    })
}

/// TOML text of a list of variants (`[[variant]]` tables).
pub fn to_toml(variant: Vec<VariantInfo>) -> Result<String, UserError> {
    toml::to_string(&Doc { variant }).map_err(UserError::from)
}

//! Rules: every special rule of a game, one file each, written against the core API
//! ([`crate::position::hooks`]) only.
//!
//! A variant file lists its rules in its `[rules]` table, one sub-table per rule:
//!
//! ```toml
//! [rules.castling]
//! king-distance = 2
//! [rules.king-leap]
//! [rules.promotion]
//! zone = 1
//! ```
//!
//! Each rule file holds the rule's whole life: a spec type read from its table (`parse`), and
//! the rule used in play, compiled from the spec once (`compile`) through the core's
//! [`Builder`] services: rights bits, table edits, arrivals (promotion), special moves
//! (castling), vetoes. Adding a rule means a file here, one line in [`REGISTRY`], a row in
//! the README's rules table, and tests.

mod castling;
mod draw;
mod en_passant;
mod flying_general;
mod initial_ranks;
mod king_leap;
mod last_royal;
mod promotion;
mod promotion_by_move;
mod setup_choice;

use crate::position::hooks::{Builder, Params, Rule, RuleCompiler, RuleSpec, Variant};

/// Compiles a rule's spec into the rule used in play.
pub type CompileFn = fn(&dyn RuleSpec, &mut Builder<'_>) -> Result<Box<dyn Rule>, String>;

/// One rule the engine knows.
pub struct Registered {
    /// Its name in `[rules.NAME]`.
    pub name: &'static str,
    /// One line about it.
    pub about: &'static str,
    /// Reads its table; problems go to the params' diagnostics.
    pub parse: fn(&mut Params<'_, '_>, &Variant) -> Option<Box<dyn RuleSpec>>,
    /// Compiles its spec into the rule used in play.
    pub compile: CompileFn,
}

/// Every rule a variant file can name.
pub const REGISTRY: &[Registered] = &[
    castling::REGISTERED,
    king_leap::REGISTERED,
    en_passant::REGISTERED,
    initial_ranks::REGISTERED,
    promotion::REGISTERED,
    promotion_by_move::REGISTERED,
    setup_choice::REGISTERED,
    draw::REGISTERED,
    last_royal::REGISTERED,
    flying_general::REGISTERED,
];

/// The spec of type `S` behind `spec` (the registry pairs each rule's parser and compiler, so
/// a mismatch is a programming error, reported as a compile error rather than a panic).
fn spec_as<S: RuleSpec>(spec: &dyn RuleSpec) -> Result<&S, String> {
    (spec as &dyn std::any::Any)
        .downcast_ref::<S>()
        .ok_or_else(|| format!("rule `{}` got the spec of another rule", spec.name()))
}

/// The registry as the variant reader and the core see it.
pub struct Registry;

impl crate::variant::SpecCatalog for Registry {
    fn rule_names(&self) -> Vec<(&'static str, &'static str)> {
        REGISTRY.iter().map(|r| (r.name, r.about)).collect()
    }

    fn parse(
        &self,
        name: &str,
        params: &mut Params<'_, '_>,
        variant: &Variant,
    ) -> Option<Box<dyn RuleSpec>> {
        let r = REGISTRY.iter().find(|r| r.name == name)?;
        (r.parse)(params, variant)
    }
}

impl RuleCompiler for Registry {
    fn compile(&self, spec: &dyn RuleSpec, b: &mut Builder<'_>) -> Result<Box<dyn Rule>, String> {
        let r = REGISTRY
            .iter()
            .find(|r| r.name == spec.name())
            .ok_or_else(|| format!("no rule is named `{}`", spec.name()))?;
        (r.compile)(spec, b)
    }
}

//! Rule specifications: a rule's parameters as read from its `[rules.NAME]` table.
//!
//! A variant file names its rules; each is parsed, when the file is read, into a typed spec
//! that lives in the [`Variant`] (its place in the file in [`super::Locations::rules`]).
//! Compiling the variant turns every spec into the rule used in play (`hooks::Rule`). This
//! layer knows no particular rule: the parsers come from a [`SpecCatalog`] handed to the
//! reader by the layer that knows them (`rules::Registry`).

use std::any::Any;

use super::{Params, Placement, Variant};
use crate::geometry::{Color, Square};

/// A rule's parameters, checked against the variant, before compilation.
pub trait RuleSpec: Any + std::fmt::Debug + Send + Sync {
    /// The rule's name as written in the variant file (`king-leap`).
    fn name(&self) -> &'static str;

    /// A copy of this spec.
    fn clone_spec(&self) -> Box<dyn RuleSpec>;

    /// Rules compile in increasing order of this number (stable for equal numbers): a rule
    /// that refines what another set up (promotion-by-move after promotion) comes later.
    fn order(&self) -> u8 {
        0
    }

    /// Rearranges the start position for a setup choice (`None` = the default).
    /// Returns Ok(false) when this rule has nothing to do with setups.
    fn setup(
        &self,
        _variant: &Variant,
        _choice: Option<&str>,
        _placement: &mut Placement,
    ) -> Result<bool, String> {
        Ok(false)
    }

    /// Whether a piece of `kind` and `color` standing on `sq` may use component `component`
    /// of its movement, an `i` (initial) one: `Some` decides, `None` leaves it to the default
    /// (only where the start position has such a piece). Asked while the move tables are
    /// compiled, before any rule is compiled, so the tables every rule edits already hold
    /// these moves.
    fn initial_moves(
        &self,
        _variant: &Variant,
        _kind: usize,
        _component: usize,
        _color: Color,
        _sq: Square,
    ) -> Option<bool> {
        None
    }

    /// Whether this rule promotes pieces of `kind` (besides `promotes-to`: Sittuyin's Pawns):
    /// such a kind is written without its letter in SAN, as a Pawn.
    fn promotes_kind(&self, _kind: usize) -> bool {
        false
    }

    /// Whether this rule brings pieces of `kind` from a hand onto the board (a drop, a
    /// gating): a royal piece may then stand in the start position's hand.
    fn brings_from_hand(&self, _kind: usize) -> bool {
        false
    }

    /// The setups this rule offers by name, as (name, letters) pairs.
    fn setups(&self) -> Vec<(String, String)> {
        Vec::new()
    }

    /// The squares whose piece depends on the setup choice, each with every (kind, colour)
    /// that some setup the rule accepts puts there (by name or by letters). Rules that hold a
    /// right for a piece on its start square (the king leap, castling) read it: a FEN from any
    /// setup may give the right. Empty for a rule that arranges nothing.
    fn arranged(&self, _variant: &Variant) -> Vec<(Square, Vec<(usize, Color)>)> {
        Vec::new()
    }
}

impl Clone for Box<dyn RuleSpec> {
    fn clone(&self) -> Self {
        self.clone_spec()
    }
}

/// The rules a variant file may name, and how to read each one's table.
pub trait SpecCatalog {
    /// Every rule name with a one-line description, in the order of the rules table in `docs/variant-format.md`.
    fn rule_names(&self) -> Vec<(&'static str, &'static str)>;

    /// Reads the table of rule `name` (a name from [`SpecCatalog::rule_names`]); problems go
    /// to `params`' diagnostics, `None` when the rule cannot be built.
    fn parse(
        &self,
        name: &str,
        params: &mut Params<'_, '_>,
        variant: &Variant,
    ) -> Option<Box<dyn RuleSpec>>;
}

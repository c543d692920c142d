//! Rule hooks: every special rule of a game, one file each, behind the [`Rule`] trait.
//!
//! A variant file lists its rules in its `[rules]` table, one sub-table per hook:
//!
//! ```toml
//! [rules.castling]
//! king-distance = 2
//! [rules.king-leap]
//! [rules.promotion]
//! zone = 1
//! ```
//!
//! The generic move generator knows nothing of any game. A hook can
//! - configure the compiled tables once, at load time ([`Rule::configure`]): promotion flags,
//!   who may capture or be captured en passant, which squares or pieces clear which rights;
//! - add moves ([`Rule::generate`]) and veto the moves it added ([`Rule::allows`]);
//! - own letters of the FEN rights field;
//! - choose the start position ([`Rule::setup`]) and state draw rules ([`Rule::draws`]).

mod castling;
mod draw;
mod en_passant;
mod king_leap;
mod promotion;
mod promotion_by_move;
mod setup_choice;

pub use castling::{Castling, CastlingRule};
pub use draw::{DrawRule, Draws, Stalemate};
pub use en_passant::EnPassantRule;
pub use king_leap::KingLeapRule;
pub use promotion::PromotionRule;
pub use promotion_by_move::PromotionByMoveRule;
pub use setup_choice::SetupChoiceRule;

use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::ruleset::Ruleset;
use crate::variant::{Params, Variant};

/// One special rule of a game.
pub trait Rule: std::fmt::Debug + Send + Sync {
    /// The hook's name as written in the variant file (`king-leap`).
    fn name(&self) -> &'static str;

    /// A copy of this hook.
    fn clone_box(&self) -> Box<dyn Rule>;

    /// Adjusts the compiled ruleset once, when a variant is compiled: claims rights bits,
    /// marks table entries, records castlings. `index` is this hook's index in the ruleset.
    fn configure(&mut self, _rs: &mut Ruleset, _index: u8) -> Result<(), String> {
        Ok(())
    }

    /// Hooks configure in increasing order of this number (stable for equal numbers): a hook
    /// that refines what another set up (promotion-by-move after promotion) comes later.
    fn configure_order(&self) -> u8 {
        0
    }

    /// Whether [`Rule::generate`] may add moves (hooks that never do are skipped).
    fn adds_moves(&self) -> bool {
        false
    }

    /// Adds pseudo-legal moves for the side to move. Moves it adds carry
    /// `MoveKind::Hook` or `MoveKind::Castle` and are passed to [`Rule::allows`] before the
    /// generic test that the mover's royal piece is not left attacked.
    fn generate(&self, _pos: &Position, _index: u8, _out: &mut MoveList) {}

    /// Vetoes a move this hook added. Return false to forbid it.
    fn allows(&self, _pos: &Position, _mv: Move) -> bool {
        true
    }

    /// Reads one letter of the FEN rights field; returns the rights bits it stands for.
    fn parse_right(&self, _rs: &Ruleset, _c: char) -> Option<u16> {
        None
    }

    /// The rights letters that `rights` holds but whose pieces are not where the right needs
    /// them on `board` (a castling right without its king and partner on their squares), each
    /// with why. A position with such a right is refused.
    fn check_rights(
        &self,
        _rs: &Ruleset,
        _board: &[crate::moves::Code],
        _rights: u16,
    ) -> Vec<(char, String)> {
        Vec::new()
    }

    /// Writes this hook's letters of the rights field.
    fn write_rights(&self, _rs: &Ruleset, _rights: u16, _out: &mut String) {}

    /// Rights held in the start position.
    fn start_rights(&self, _rs: &Ruleset) -> u16 {
        0
    }

    /// Rearranges the start position for a setup choice (`None` = the default).
    /// Returns Ok(false) when this hook has nothing to do with setups.
    fn setup(
        &self,
        _variant: &Variant,
        _choice: Option<&str>,
        _placement: &mut Vec<Option<(usize, crate::geometry::Color)>>,
    ) -> Result<bool, String> {
        Ok(false)
    }

    /// The setups this hook offers, as (name, description) pairs.
    fn setups(&self) -> Vec<(String, String)> {
        Vec::new()
    }

    /// XBetza that a GUI should add to a piece's movement to show this rule's moves (for
    /// XBoard's `piece` command), when the rule gives that piece moves.
    fn notation_hint(&self, _rs: &Ruleset, _kind: usize) -> Option<String> {
        None
    }

    /// Draw rules, when this hook states them.
    fn draws(&self) -> Option<Draws> {
        None
    }
}

impl Clone for Box<dyn Rule> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// Every hook a variant file can name, with a one-line description.
pub const REGISTRY: &[(&str, &str)] = &[
    (
        "castling",
        "the king moves toward a partner piece, which jumps to its other side",
    ),
    (
        "king-leap",
        "the royal piece's one-time leap to a free square at distance two",
    ),
    (
        "en-passant",
        "who may capture en passant and who may be captured",
    ),
    (
        "promotion",
        "promotion zone and whether promotion is compulsory",
    ),
    (
        "promotion-by-move",
        "pieces that promote only by some of their moves",
    ),
    (
        "setup-choice",
        "a choice among arrangements of some pieces in the start position",
    ),
    ("draw", "stalemate, repetition and the move-count rule"),
];

/// Builds the hook named `name` from its parameters. Problems go to `params`' diagnostics.
pub fn build(name: &str, params: &mut Params<'_, '_>, variant: &Variant) -> Option<Box<dyn Rule>> {
    match name {
        "castling" => CastlingRule::build(params, variant).map(|r| Box::new(r) as Box<dyn Rule>),
        "king-leap" => KingLeapRule::build(params, variant).map(|r| Box::new(r) as Box<dyn Rule>),
        "en-passant" => EnPassantRule::build(params, variant).map(|r| Box::new(r) as Box<dyn Rule>),
        "promotion" => PromotionRule::build(params, variant).map(|r| Box::new(r) as Box<dyn Rule>),
        "promotion-by-move" => {
            PromotionByMoveRule::build(params, variant).map(|r| Box::new(r) as Box<dyn Rule>)
        }
        "setup-choice" => {
            SetupChoiceRule::build(params, variant).map(|r| Box::new(r) as Box<dyn Rule>)
        }
        "draw" => DrawRule::build(params, variant).map(|r| Box::new(r) as Box<dyn Rule>),
        _ => None,
    }
}

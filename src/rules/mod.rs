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
//! (castling), vetoes. Each rule explains itself to players ([`Rule::explain`]) from its own
//! configuration. Adding a rule means a file here, one line in [`REGISTRY`], a row in the
//! rules table in `docs/variant-format.md`, and tests.

mod bare_king;
mod bikjang;
mod castling;
mod counting;
mod draw;
mod drops;
mod en_passant;
mod flying_general;
mod gating;
mod goal_squares;
mod initial_ranks;
mod king_leap;
mod last_royal;
mod lion_trading;
mod pass;
mod promotion;
mod promotion_by_move;
mod promotion_in_place;
mod royal_succession;
mod royal_swap;
mod setup_choice;

use crate::position::hooks::{Builder, Params, Rule, RuleCompiler, RuleSpec, Variant};

// The rules' specs as read, for what reads a variant's rules from outside (the export to
// other programs' formats).
pub use bare_king::BareKingSpec;
pub use castling::CastlingSpec;
pub use counting::CountingSpec;
pub use drops::DropsSpec;
pub use en_passant::EnPassantSpec;
pub use gating::GatingSpec;
pub use goal_squares::GoalSquaresSpec;
pub use promotion::PromotionSpec;

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
    royal_succession::REGISTERED,
    royal_swap::REGISTERED,
    flying_general::REGISTERED,
    drops::REGISTERED,
    counting::REGISTERED,
    bare_king::REGISTERED,
    goal_squares::REGISTERED,
    gating::REGISTERED,
    pass::REGISTERED,
    bikjang::REGISTERED,
    promotion_in_place::REGISTERED,
    lion_trading::REGISTERED,
];

/// `a`, `a and b`, `a, b and c` (with `word` in place of "and").
fn join(items: &[String], word: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} {word} {last}", rest.join(", ")),
    }
}

/// A piece's name with its indefinite article: "a Pawn", "an Eagle".
fn a(name: &str) -> String {
    let article = match name.chars().next().map(|c| c.to_ascii_lowercase()) {
        Some('u') if name.to_ascii_lowercase().starts_with("uni") => "a",
        Some('a' | 'e' | 'i' | 'o' | 'u') => "an",
        _ => "a",
    };
    format!("{article} {name}")
}

/// The names of piece kinds, each with its article, joined with `word`: "a Pawn or a Prince".
fn kinds(rs: &crate::position::hooks::Ruleset, ks: &[usize], word: &str) -> String {
    let names: Vec<String> = ks.iter().map(|&k| a(&rs.variant.pieces[k].name)).collect();
    join(&names, word)
}

/// The royal pieces' names ("King"), or "royal piece" when several kinds are royal.
fn royal_name(rs: &crate::position::hooks::Ruleset) -> String {
    let royal: Vec<&str> = rs
        .royal_kinds()
        .map(|k| rs.variant.pieces[k].name.as_str())
        .collect();
    match royal.as_slice() {
        [one] => (*one).to_owned(),
        _ => "royal piece".to_owned(),
    }
}

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

#[cfg(test)]
mod tests {
    use crate::position::hooks::{Ruleset, Variant};

    /// Each rule of a built-in game with its explanation.
    fn explained(game: &str) -> Vec<(String, String)> {
        let v = Variant::load(game).unwrap();
        let rs = Ruleset::new(&v, None).unwrap();
        rs.dispatch
            .hooks
            .iter()
            .map(|h| (h.name().to_owned(), h.explain(&rs)))
            .collect()
    }

    fn text(game: &str, rule: &str) -> String {
        explained(game)
            .into_iter()
            .find(|(n, _)| n == rule)
            .unwrap_or_else(|| panic!("{game} has no {rule}"))
            .1
    }

    #[test]
    fn every_rule_of_every_game_explains_itself() {
        for (game, _) in crate::variant::BUILTIN {
            for (name, text) in explained(game) {
                println!("{game} {name}: {text}");
                assert!(text.len() > 40, "{game} {name}: {text}");
                assert!(
                    !text.contains("plays with the"),
                    "{game} {name}: no own words"
                );
                assert!(text.ends_with('.'), "{game} {name}: {text}");
                assert!(
                    text.starts_with(char::is_uppercase),
                    "{game} {name}: {text}"
                );
            }
        }
    }

    #[test]
    fn the_king_leap_says_when_and_where() {
        let t = text("metamachy", "king-leap");
        for part in [
            "Once per game",
            "has not moved",
            "in check",
            "never captures",
            "Knight's move",
            "White's King starts on g1 and Black's on g12",
            "from g1 it may leap to e1, i1, e2, i2, e3, f3, g3, h3 or i3",
        ] {
            assert!(t.contains(part), "missing `{part}` in: {t}");
        }
        // Other setups put the King on f1, f2 or g2 as well.
        assert!(t.contains("f1, g1, f2 or g2"), "{t}");
    }

    #[test]
    fn castling_names_its_squares() {
        let t = text("chess", "castling");
        assert!(t.contains("moves 2 squares toward the Rook"), "{t}");
        assert!(t.contains("e1 to g1 with the Rook from h1 to f1"), "{t}");
        assert!(t.contains("e1 to c1 with the Rook from a1 to d1"), "{t}");
        let t = text("wildebeest", "castling");
        assert!(t.contains("1, 2, 3 or 4 squares"), "{t}");
    }

    #[test]
    fn promotion_says_where_and_to_what() {
        let t = text("metamachy", "promotion");
        assert!(t.contains("on reaching the last rank (rank 12 for White, 1 for Black): a Pawn or a Prince promotes to a Queen, a Lion or an Eagle."), "{t}");
        let t = text("terachess2", "promotion");
        assert!(
            t.contains("a Pawn or a Troll promotes to a Queen; a Prince to an Amazon; "),
            "{t}"
        );
        assert!(t.contains("compulsory"), "{t}");
        let t = text("grand", "promotion");
        assert!(t.contains("the last 3 ranks (ranks 8 to 10"), "{t}");
        assert!(t.contains("optional, except on the last rank"), "{t}");
        assert!(t.contains("fewer of than at the start"), "{t}");
    }

    #[test]
    fn the_other_rules_in_words() {
        let t = text("metamachy", "en-passant");
        assert!(
            t.contains("Only a Pawn captures en passant, and only a Pawn or a Prince can be taken"),
            "{t}"
        );
        let t = text("wildebeest", "draw");
        assert!(t.contains("loses the game"), "{t}");
        assert!(t.contains("50 moves by each side"), "{t}");
        let t = text("wildebeest", "initial-ranks");
        assert!(
            t.contains("rank 2 or 3 (White) or rank 9 or 8 (Black)"),
            "{t}"
        );
        let t = text("terachess2", "promotion-by-move");
        assert!(t.contains("The Troll promotes only"), "{t}");
        assert!(t.contains("captures one square diagonally forward"), "{t}");
        let t = text("metamachy", "setup-choice");
        assert!(
            t.contains(
                "Queen, King, Lion and Eagle on f1, g1, f2 and g2 in any order (24 arrangements)"
            ),
            "{t}"
        );
        let t = text("zanzibar-xxl", "setup-choice");
        assert!(t.starts_with("Before the game, Black may arrange"), "{t}");
        assert!(t.contains("must stand on the f or g file"), "{t}");
        let t = text("zanzibar-s", "setup-choice");
        assert!(t.contains("(48 arrangements)"), "{t}");
        assert!(
            t.contains("The Rhinoceros must stand on the e or h file"),
            "{t}"
        );
    }

    #[test]
    fn succession_names_its_line() {
        let t = text("tamerlane2", "royal-succession");
        assert!(t.contains("pieces that are a King or a Prince"), "{t}");
        assert!(t.contains("never in check"), "{t}");
        let t = text("tamerlane2", "promotion");
        assert!(t.contains("a Ship to an Eagle"), "{t}");
    }
}

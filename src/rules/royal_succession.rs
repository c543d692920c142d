//! `royal-succession`: the King's heirs (Tamerlane's Princes) take over when it falls.
//!
//! ```toml
//! [rules.royal-succession]
//! successors = "I"   # letters, required: the kinds that succeed the royal piece
//! ```
//! A side's royal pieces (those marked `royal = true`) and its pieces of the `successors`
//! kinds form its line of succession. While a side has two pieces or more in that line, none of
//! them is royal in the check sense: any of them may be left attacked and captured, and the
//! side is never in check. When one piece of the line is left, it is the royal piece: it may
//! not be left attacked, and checkmating it wins. So the King may be captured while a Prince
//! remains, and the Prince then reigns; checkmate ends the game only when no replacement is
//! left. The last piece of the line may not promote away its royalty (the `promotion` rule
//! refuses such a promotion).

use super::{Registered, kinds, spec_as};
use crate::position::hooks::{Builder, Params, Rule, RuleSpec, Ruleset, Variant};

pub const REGISTERED: Registered = Registered {
    name: "royal-succession",
    about: "the royal piece's successors (Princes) take over when it is captured",
    parse: |p, v| RoyalSuccessionSpec::build(p, v).map(|s| Box::new(s) as Box<dyn RuleSpec>),
    compile: |s, b| compile(spec_as::<RoyalSuccessionSpec>(s)?, b),
};

/// The royal-succession table as read.
#[derive(Clone, Debug)]
pub struct RoyalSuccessionSpec {
    /// The successor kinds.
    pub successors: Vec<usize>,
}

impl RuleSpec for RoyalSuccessionSpec {
    fn name(&self) -> &'static str {
        "royal-succession"
    }
    fn clone_spec(&self) -> Box<dyn RuleSpec> {
        Box::new(self.clone())
    }
}

impl RoyalSuccessionSpec {
    fn build(p: &mut Params<'_, '_>, v: &Variant) -> Option<RoyalSuccessionSpec> {
        let span = p.span.clone();
        let successors = match p.letters("successors", v) {
            Some(s) => s,
            None => {
                if !p.last_unknown {
                    p.error(
                        span,
                        "`rules.royal-succession` needs `successors`: the letters of the pieces \
                         that take over from the royal piece",
                        Some("successors = \"I\"".into()),
                    );
                }
                return None;
            }
        };
        if successors.is_empty() {
            p.error(
                span.clone(),
                "`rules.royal-succession.successors` names no piece",
                Some("successors = \"I\"".into()),
            );
            return None;
        }
        if !v.pieces.iter().any(|pc| pc.royal) {
            p.error(
                span,
                "`rules.royal-succession` needs a royal piece (`royal = true`) to succeed",
                None,
            );
            return None;
        }
        Some(RoyalSuccessionSpec { successors })
    }
}

fn compile(spec: &RoyalSuccessionSpec, b: &mut Builder<'_>) -> Result<Box<dyn Rule>, String> {
    let declared: Vec<usize> = b.rules().royal_kinds().collect();
    b.royal_succession(&spec.successors);
    Ok(Box::new(RoyalSuccession {
        declared,
        successors: spec.successors.clone(),
    }))
}

/// In play the core's check test does the work (`Ruleset::royal_succession`).
#[derive(Clone, Debug)]
struct RoyalSuccession {
    /// The kinds declared royal in the variant.
    declared: Vec<usize>,
    /// The successor kinds.
    successors: Vec<usize>,
}

impl Rule for RoyalSuccession {
    fn name(&self) -> &'static str {
        "royal-succession"
    }

    fn explain(&self, rs: &Ruleset) -> String {
        let mut line = self.declared.clone();
        line.extend(
            self.successors
                .iter()
                .filter(|k| !self.declared.contains(k)),
        );
        format!(
            "Royal succession: each side's pieces that are {} form its line of succession. \
             While a side has two or more of them, none is royal: each may be left attacked and \
             captured, and the side is never in check. When one is left, it is the royal piece: \
             it may not be left attacked, it never promotes, and checkmating it wins.",
            kinds(rs, &line, "or")
        )
    }
}

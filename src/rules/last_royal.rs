//! `last-royal`: several royal pieces, of which only the last one counts.
//!
//! ```toml
//! [rules.last-royal]
//! # no parameters
//! ```
//! A side with more than one royal piece (pieces marked `royal = true`; Tamerlane-family games
//! give a side a King and pieces that become royal) is in check only when every one of them is
//! attacked, and may leave any of them attacked as long as one is safe; a royal piece may be
//! captured while its side has another. With one royal piece left the usual rules apply:
//! checkmate of the last one ends the game. Without this rule a side with several royal pieces
//! is in check when any of them is attacked.

use super::{Registered, kinds, spec_as};
use crate::position::hooks::{Rule, RuleSpec, Ruleset};

pub const REGISTERED: Registered = Registered {
    name: "last-royal",
    about: "several royal pieces: a side is in check only when every one is attacked",
    parse: |_, _| Some(Box::new(LastRoyalSpec)),
    compile: |s, b| {
        spec_as::<LastRoyalSpec>(s)?;
        b.check_only_when_every_royal_attacked();
        Ok(Box::new(LastRoyal))
    },
};

/// The last-royal table (it has no parameters).
#[derive(Clone, Debug)]
pub struct LastRoyalSpec;

impl RuleSpec for LastRoyalSpec {
    fn name(&self) -> &'static str {
        "last-royal"
    }
    fn clone_spec(&self) -> Box<dyn RuleSpec> {
        Box::new(self.clone())
    }
}

/// In play the core's check test does the work (`Ruleset::check_needs_every_royal`).
#[derive(Clone, Debug)]
struct LastRoyal;

impl Rule for LastRoyal {
    fn name(&self) -> &'static str {
        "last-royal"
    }

    fn explain(&self, rs: &Ruleset) -> String {
        let royal: Vec<usize> = rs.royal_kinds().collect();
        format!(
            "A side with several royal pieces ({}) is in check only when every one of them is \
             attacked: it may leave some of them attacked, and one may be captured while another \
             remains. Checkmating the last one wins.",
            kinds(rs, &royal, "and")
        )
    }
}

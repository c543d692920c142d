//! The tests that need nothing but the library: no run of the `polymachy` binary and no
//! outside program. One test binary, one module a topic, so that the suite links once for
//! them all; `cargo test --test lib MODULE::` runs one topic.

#[path = "../common/mod.rs"]
mod common;

mod bare_king;
mod chushogi;
mod core_rules;
mod counting;
mod errors;
mod eval_symmetry;
mod foreign_fens;
mod gating;
mod harness;
mod house;
mod interpreter;
mod layers;
mod limits;
mod locust;
mod messages;
mod movement;
mod network;
mod notation;
mod odd_positions;
mod perft;
mod plus_kinds;
mod primed_kinds;
#[cfg(feature = "testing")]
mod properties;
mod robustness;
mod royal_swap;
mod rule_guards;
mod rules;
mod search;
mod see;
mod succession;
mod unreachable;
mod variant_messages;
mod wildebeest;
mod zones;

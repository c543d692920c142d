//! The tests that need nothing but the library: no run of the `polymachy` binary and no
//! outside program. One test binary, one module a topic, so that the suite links once for
//! them all; `cargo test --test lib MODULE::` runs one topic.

#[path = "../common/mod.rs"]
mod common;

mod core_rules;
mod eval_symmetry;
mod house;
mod interpreter;
mod layers;
mod movement;
mod network;
mod notation;
mod odd_positions;
mod perft;
#[cfg(feature = "testing")]
mod properties;
mod robustness;
mod royal_swap;
mod rule_guards;
mod search;
mod see;
mod succession;
mod variant_messages;
mod wildebeest;
mod zones;

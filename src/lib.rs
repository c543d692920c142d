//! Polymachy: a chess-variant engine in which every rule lives in data.
//!
//! Data flows one way: TOML text → [`variant::Variant`] (checked; pieces parsed from XBetza)
//! → [`ruleset::Ruleset`] (notation compiled into [`tables`], rule hooks configured) →
//! [`position::Position`] and the generic generator in [`movegen`] → perft, search, protocols
//! and the command line.

pub mod cli;
pub mod game;
pub mod geometry;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod position;
pub mod protocol;
pub mod referee;
pub mod rules;
pub mod ruleset;
pub mod search;
pub mod selfplay;
pub mod serve;
pub mod tables;
#[cfg(feature = "testing")]
pub mod testing;
pub mod text;
pub mod tune;
pub mod variant;

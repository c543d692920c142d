//! Polymachy: a chess-variant engine in which every rule lives in data.
//!
//! Data flows one way: TOML text → [`variant::Variant`] (checked; pieces parsed from XBetza,
//! rules read into specs) → [`position::Ruleset`] (notation compiled into [`tables`], each rule
//! compiled by [`rules`] through the core API [`position::hooks`]; [`compile`] joins the two)
//! → [`position::Position`] and the generic generator in [`position::movegen`] → perft,
//! search, protocols and the command line.

#![warn(missing_docs)]

pub mod cli;
pub mod compile;
pub mod datagen;
pub mod export;
pub mod files;
pub mod game;
pub mod geometry;
pub mod lints;
pub mod moves;
pub mod nnue;
pub mod notation;
pub mod perft;
pub mod position;
pub mod protocol;
pub mod referee;
pub mod rules;
pub mod search;
pub mod selfplay;
pub mod serve;
pub mod session;
pub mod tables;
#[cfg(feature = "testing")]
pub mod testing;
pub mod text;
pub mod tune;
pub mod variant;
pub mod variant_tests;

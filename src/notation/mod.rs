//! XBetza, the piece-movement language: parsing (a pest grammar in `grammar/xbetza.pest`),
//! canonical printing and the meaning of direction letters.
//!
//! ```
//! use polymachy::notation;
//! let unicorn = notation::parse("BNN").unwrap();
//! assert_eq!(unicorn.to_string(), "BN0");
//! ```

pub mod ast;
pub mod dirs;
mod parse;
mod print;
pub mod words;

pub use ast::{Atom, Betza, Component, Leg, Mods, Range};
pub use parse::parse;

/// A malformed XBetza string: where, what was expected, and a hint.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: {message}{}", hint.as_ref().map(|h| format!(" (hint: {h})")).unwrap_or_default())]
pub struct NotationError {
    /// 1-based column (in characters) of the offending letter within the notation string.
    pub column: usize,
    /// What was found and what was expected.
    pub message: String,
    /// A suggestion for the designer, when there is one.
    pub hint: Option<String>,
}

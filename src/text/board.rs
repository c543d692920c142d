//! The terminal board.

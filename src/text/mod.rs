//! Text for people: the terminal board.

pub mod board;

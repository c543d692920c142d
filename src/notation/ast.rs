//! The typed description of a piece's movement, as parsed from XBetza.
//!
//! A [`Betza`] is a union of [`Component`]s. Each component has one atom (the leap every leg is
//! built from), an optional range, and one or more legs. Legs carry the direction letters and
//! the mode modifiers exactly as written (after normalisation to the canonical letter order),
//! so that printing gives back an equivalent string. What the letters *mean* — which squares a
//! leg reaches — is worked out by [`crate::notation::dirs`] and the table compiler.

/// The base leap of a component.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Atom {
    /// (1,0)
    W,
    /// (1,1)
    F,
    /// (2,0)
    D,
    /// (2,1)
    N,
    /// (2,2)
    A,
    /// (3,0)
    H,
    /// (3,1)
    C,
    /// (3,2)
    Z,
    /// (3,3)
    G,
    /// W and F together: 8 directions, one step.
    K,
    /// W rider (`W0`).
    R,
    /// F rider (`F0`).
    B,
    /// K rider (`K0`).
    Q,
}

impl Atom {
    /// Every atom, in the order of their letters above.
    pub const ALL: [Atom; 13] = [
        Atom::W,
        Atom::F,
        Atom::D,
        Atom::N,
        Atom::A,
        Atom::H,
        Atom::C,
        Atom::Z,
        Atom::G,
        Atom::K,
        Atom::R,
        Atom::B,
        Atom::Q,
    ];

    /// The letter that names this atom.
    pub fn letter(self) -> char {
        match self {
            Atom::W => 'W',
            Atom::F => 'F',
            Atom::D => 'D',
            Atom::N => 'N',
            Atom::A => 'A',
            Atom::H => 'H',
            Atom::C => 'C',
            Atom::Z => 'Z',
            Atom::G => 'G',
            Atom::K => 'K',
            Atom::R => 'R',
            Atom::B => 'B',
            Atom::Q => 'Q',
        }
    }

    /// The atom named by `c`, if any.
    pub fn from_letter(c: char) -> Option<Atom> {
        Some(match c {
            'W' => Atom::W,
            'F' => Atom::F,
            'D' => Atom::D,
            'N' => Atom::N,
            'A' => Atom::A,
            'H' => Atom::H,
            'C' => Atom::C,
            'Z' => Atom::Z,
            'G' => Atom::G,
            'K' => Atom::K,
            'R' => Atom::R,
            'B' => Atom::B,
            'Q' => Atom::Q,
            _ => return None,
        })
    }

    /// The leap (long side, short side) of the atom's basic step. K and Q report (1,0): they
    /// are the union of the (1,0) and (1,1) steps, see [`Atom::is_eightfold`].
    pub fn leap(self) -> (u8, u8) {
        match self {
            Atom::W | Atom::R | Atom::K | Atom::Q => (1, 0),
            Atom::F | Atom::B => (1, 1),
            Atom::D => (2, 0),
            Atom::N => (2, 1),
            Atom::A => (2, 2),
            Atom::H => (3, 0),
            Atom::C => (3, 1),
            Atom::Z => (3, 2),
            Atom::G => (3, 3),
        }
    }

    /// K and Q: one step or slide in each of the 8 directions.
    pub fn is_eightfold(self) -> bool {
        matches!(self, Atom::K | Atom::Q)
    }

    /// R, B, Q: riders with no limit unless a range is written.
    pub fn is_rider_shorthand(self) -> bool {
        matches!(self, Atom::R | Atom::B | Atom::Q)
    }
}

/// How far a component may repeat its step in one direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Range {
    /// Nothing written: one step for leapers, no limit for R, B and Q.
    Default,
    /// At most this many steps (1..=99). `R4` is `Limited(4)`.
    Limited(u8),
    /// Written `0`, or as a doubled atom (`NN`): no limit.
    Unlimited,
}

/// Mode modifiers of one leg. Each flag is one lower-case letter of XBetza.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Mods {
    /// `i` on the first leg: only while the piece has not moved. (On a later leg: "iso".)
    pub initial: bool,
    /// `m`: may go only to an empty square.
    pub m: bool,
    /// `c`: may only capture.
    pub c: bool,
    /// `d`: may capture own pieces.
    pub d: bool,
    /// `e`: en-passant capture.
    pub e: bool,
    /// `t`: may not capture a royal piece / enemies may not serve as a screen.
    pub t: bool,
    /// `p`: hop over exactly one piece (final leg: cannon-like hopper).
    pub p: bool,
    /// `g`: grasshopper (land just after the screen).
    pub g: bool,
    /// `o`: cylinder board.
    pub o: bool,
    /// `y`: on a non-final leg, the square must be empty and the range toggles.
    pub y: bool,
    /// Number of `n` letters: 1 = lame; 2 (`nn`) = lame and leaves en-passant rights.
    pub n: u8,
    /// Number of `j` letters.
    pub j: u8,
}

/// One leg of a component: its direction letters and modifiers.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Leg {
    /// Direction letters (a subset of `fblrvsh`), as written. Empty = the default set.
    pub dirs: String,
    /// Its modifiers (move or capture only, hop, ...).
    pub mods: Mods,
}

/// One atom with its legs and range: `pre1 a pre2 a ... ATOM range`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Component {
    /// At least one leg; `legs[0]` is the first.
    pub legs: Vec<Leg>,
    /// The atom: the basic step or leap (`W`, `N`, `(3,2)`...).
    pub atom: Atom,
    /// How far it repeats.
    pub range: Range,
}

/// A whole movement description: the union of its components.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Betza {
    /// The components, in the order written.
    pub components: Vec<Component>,
}

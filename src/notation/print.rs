//! Canonical printing of XBetza.
//!
//! A [`Leg`] prints as `i`, then its direction letters as stored (their order matters for
//! pairing), then its modifiers in the order `m c d e t p g o y`, then `n` and `j` repeated
//! as counted. A [`Component`] prints its legs joined by `a`, its atom letter and its range:
//! `Limited(n)` as `n`, `Unlimited` as `0` (nothing for R, B and Q, whose default is already
//! unlimited), `Default` as nothing. A doubled atom is never printed: `NN` prints `N0`.
//!
//! A [`Betza`] prints its [canonical form](Betza::canonical), component after component.
//!
//! # Round trip
//!
//! [`parse`](super::parse) keeps what was written (component order, `R0` as written), so
//! printing is not its exact inverse. The contract, for every `b` that `parse` returned (or
//! any AST within the rules `parse` enforces), is
//!
//! ```text
//! parse(&b.to_string()) == Ok(b.canonical())      and      b.canonical().to_string() == b.to_string()
//! ```
//!
//! so a printed string always parses back to an AST that prints the same string again.
//! Two ASTs that print the same string describe the same piece.

use std::fmt::{self, Display, Formatter, Write};

use super::ast::{Atom, Betza, Component, Leg, Range};

impl Display for Leg {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let m = &self.mods;
        if m.initial {
            f.write_char('i')?;
        }
        f.write_str(&self.dirs)?;
        let flags = [
            (m.m, 'm'),
            (m.c, 'c'),
            (m.d, 'd'),
            (m.e, 'e'),
            (m.t, 't'),
            (m.p, 'p'),
            (m.g, 'g'),
            (m.o, 'o'),
            (m.y, 'y'),
        ];
        for (set, letter) in flags {
            if set {
                f.write_char(letter)?;
            }
        }
        for _ in 0..m.n {
            f.write_char('n')?;
        }
        for _ in 0..m.j {
            f.write_char('j')?;
        }
        Ok(())
    }
}

/// The digits printed after the atom; empty when the range is the atom's default.
fn range_text(atom: Atom, range: Range) -> String {
    match range {
        Range::Default => String::new(),
        Range::Unlimited if atom.is_rider_shorthand() => String::new(),
        Range::Unlimited => "0".to_owned(),
        Range::Limited(n) => n.to_string(),
    }
}

impl Display for Component {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        for (i, leg) in self.legs.iter().enumerate() {
            if i > 0 {
                f.write_char('a')?;
            }
            leg.fmt(f)?;
        }
        f.write_char(self.atom.letter())?;
        f.write_str(&range_text(self.atom, self.range))
    }
}

impl Display for Betza {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        for c in &self.canonical().components {
            c.fmt(f)?;
        }
        Ok(())
    }
}

impl Component {
    /// No prefix at all: a single leg with no letters. Only such a component starts with its
    /// atom letter when printed.
    fn is_bare(&self) -> bool {
        self.legs.len() <= 1 && self.legs.iter().all(|l| *l == Leg::default())
    }
}

impl Betza {
    /// The canonical form that [`Display`] prints, with the same meaning:
    ///
    /// 1. `R`, `B` and `Q` with [`Range::Unlimited`] become [`Range::Default`] (the same slide),
    ///    and a component without legs gets one empty leg;
    /// 2. exact duplicate components are dropped (the first one stays);
    /// 3. single-leg components come first and multi-leg ones after them, each group in the
    ///    given order;
    /// 4. where a component with nothing printed after its atom letter would be followed by
    ///    a bare component of the same atom (`fW` then `W2`, which would read as `fWW2`), the
    ///    bare one moves in front of it, as many places as needed.
    ///
    /// Step 4 is what keeps printed strings parseable; it only ever reorders single-leg
    /// components, which are independent of each other.
    pub fn canonical(&self) -> Betza {
        let mut out: Vec<Component> = Vec::with_capacity(self.components.len());
        let singles = self.components.iter().filter(|c| c.legs.len() <= 1);
        let multis = self.components.iter().filter(|c| c.legs.len() > 1);
        for c in singles.chain(multis) {
            let mut c = c.clone();
            if c.legs.is_empty() {
                c.legs.push(Leg::default());
            }
            if c.atom.is_rider_shorthand() && c.range == Range::Unlimited {
                c.range = Range::Default;
            }
            if !out.contains(&c) {
                out.push(c);
            }
        }
        // Each swap moves a bare component with a printed range before a bare one without,
        // or a bare component before one with a prefix, so this terminates.
        while let Some(i) = (1..out.len()).find(|&i| {
            let (prev, next) = (&out[i - 1], &out[i]);
            next.is_bare() && next.atom == prev.atom && range_text(prev.atom, prev.range).is_empty()
        }) {
            out.swap(i - 1, i);
        }
        Betza { components: out }
    }
}

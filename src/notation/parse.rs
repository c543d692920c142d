//! Parsing XBetza with the pest grammar in `grammar/xbetza.pest`.
//!
//! The grammar fixes the shape (`leg ('a' leg)* ATOM range?`, repeated); this module then
//! builds the [`Betza`] and checks what the grammar cannot: direction letters against their
//! atom (through [`directions`]), at most two `n` or `j` per leg, ranges `0..=99` without
//! leading zeros, and no oblique atom in a multi-leg component. Every error carries the 1-based
//! column of the offending character. Components are kept in the order written.

use pest::Parser;
use pest::error::{ErrorVariant, InputLocation};
use pest::iterators::Pair;

use super::NotationError;
use super::ast::{Atom, Betza, Component, Leg, Mods, Range};
use super::dirs::{AtomClass, DirError, directions};

#[derive(pest_derive::Parser)]
#[grammar = "grammar/xbetza.pest"]
struct XBetzaParser;

const DIRECTIONS: &str = "a direction (f b l r v s h)";
const MODIFIERS: &str = "a modifier (i m c e p g y n j)";
const LEG_SEP: &str = "'a'";
const ATOMS: &str = "an atom letter (W F D N A H C Z G K Q R B)";
const RANGE: &str = "a range (0..99)";
const END: &str = "end of input";

/// Parse an XBetza string such as `"fmWfcF"` or `"KNAD"` into its components.
///
/// The result keeps the components in the order written and the direction letters of each
/// leg as written; printing it (see `print.rs`) gives the canonical spelling.
pub fn parse(text: &str) -> Result<Betza, NotationError> {
    let betza = XBetzaParser::parse(Rule::betza, text)
        .map_err(|e| syntax_error(text, &e))?
        .next()
        .expect("the betza rule always produces one pair");
    let mut components = Vec::new();
    for pair in betza.into_inner() {
        if pair.as_rule() == Rule::component {
            components.push(component(text, pair)?);
        }
    }
    Ok(Betza { components })
}

/// 1-based character column of byte offset `pos` in `text`.
fn column(text: &str, pos: usize) -> usize {
    text.get(..pos).map_or(pos, |s| s.chars().count()) + 1
}

fn error(column: usize, message: impl Into<String>, hint: Option<&str>) -> NotationError {
    NotationError {
        column,
        message: message.into(),
        hint: hint.map(str::to_owned),
    }
}

/// A leg as parsed, with the column of each of its direction letters.
struct ParsedLeg {
    leg: Leg,
    dir_columns: Vec<usize>,
}

fn component(text: &str, pair: Pair<'_, Rule>) -> Result<Component, NotationError> {
    let mut inner = pair.into_inner();
    let legs_pair = inner.next().expect("a component starts with its legs");
    let mut legs = Vec::new();
    for p in legs_pair.into_inner() {
        if p.as_rule() == Rule::leg {
            legs.push(leg(text, p)?);
        }
    }

    let atom_pair = inner.next().expect("a component has an atom");
    let atom_column = column(text, atom_pair.as_span().start());
    let letter = atom_pair
        .as_str()
        .chars()
        .next()
        .expect("atoms are not empty");
    let atom = Atom::from_letter(letter).expect("the grammar only accepts atom letters");
    let range = match atom_pair.as_rule() {
        Rule::doubled_atom => Range::Unlimited,
        _ => match inner.next() {
            Some(r) => range(text, r)?,
            None => Range::Default,
        },
    };

    for (i, parsed) in legs.iter().enumerate() {
        let on = if i == 0 { atom } else { Atom::K };
        directions(on, &parsed.leg.dirs).map_err(|e| dir_error(parsed, e, i == 0, atom))?;
    }
    if legs.len() > 1 && AtomClass::of(atom) == AtomClass::Oblique {
        return Err(error(
            atom_column,
            format!(
                "found the oblique atom '{letter}' in a multi-leg component, \
                 expected W F D A H G K Q R or B"
            ),
            Some("build the path from W and F legs, e.g. mafsW for a lame knight"),
        ));
    }

    Ok(Component {
        legs: legs.into_iter().map(|p| p.leg).collect(),
        atom,
        range,
    })
}

fn dir_error(parsed: &ParsedLeg, e: DirError, first: bool, atom: Atom) -> NotationError {
    let column = parsed.dir_columns[e.index];
    let message = if first {
        format!("{} (directions of {})", e.message, atom.letter())
    } else {
        format!("{} (a later leg turns like K)", e.message)
    };
    NotationError {
        column,
        message,
        hint: e.hint,
    }
}

fn leg(text: &str, pair: Pair<'_, Rule>) -> Result<ParsedLeg, NotationError> {
    let mut leg = Leg::default();
    let mut dir_columns = Vec::new();
    for p in pair.into_inner() {
        let col = column(text, p.as_span().start());
        let c = p.as_str().chars().next().expect("letters are not empty");
        if p.as_rule() == Rule::direction {
            leg.dirs.push(c);
            dir_columns.push(col);
            continue;
        }
        let mods: &mut Mods = &mut leg.mods;
        match c {
            'i' => mods.initial = true,
            'm' => mods.m = true,
            'c' => mods.c = true,
            'd' => mods.d = true,
            'e' => mods.e = true,
            't' => mods.t = true,
            'p' => mods.p = true,
            'g' => mods.g = true,
            'o' => mods.o = true,
            'y' => mods.y = true,
            'n' | 'j' => {
                let count = if c == 'n' { &mut mods.n } else { &mut mods.j };
                if *count == 2 {
                    return Err(error(
                        col,
                        format!("found a third '{c}' in one leg, expected at most two ({c}{c})"),
                        None,
                    ));
                }
                *count += 1;
            }
            _ => unreachable!("the grammar only accepts modifier letters"),
        }
    }
    Ok(ParsedLeg { leg, dir_columns })
}

fn range(text: &str, pair: Pair<'_, Rule>) -> Result<Range, NotationError> {
    let digits = pair.as_str();
    let col = column(text, pair.as_span().start());
    if digits.len() > 2 {
        return Err(error(
            col,
            format!("found the range '{digits}', expected a number from 0 to 99"),
            None,
        ));
    }
    if digits.len() == 2 && digits.starts_with('0') {
        return Err(error(
            col,
            format!("found the range '{digits}', expected a number without a leading zero"),
            Some("0 alone means an unlimited range; 1 to 99 limit it"),
        ));
    }
    let n: u8 = digits.parse().expect("one or two ASCII digits");
    Ok(if n == 0 {
        Range::Unlimited
    } else {
        Range::Limited(n)
    })
}

/// Turn pest's error into a [`NotationError`]: the column and character where the parse
/// stopped, what the grammar would have accepted there, and a hint for the characters that
/// other dialects of Betza use.
fn syntax_error(text: &str, e: &pest::error::Error<Rule>) -> NotationError {
    let pos = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((p, _)) => p,
    };
    let found = text.get(pos..).and_then(|s| s.chars().next());
    let mut expected: Vec<&str> = Vec::new();
    if let ErrorVariant::ParsingError { positives, .. } = &e.variant {
        for rule in positives {
            let names: &[&str] = match rule {
                Rule::direction => &[DIRECTIONS],
                Rule::modifier => &[MODIFIERS],
                Rule::leg_sep => &[LEG_SEP],
                Rule::atom | Rule::doubled_atom => &[ATOMS],
                Rule::range => &[RANGE],
                Rule::EOI => &[END],
                // pest reports a composite rule in place of its children when several of them
                // failed at the same spot: everything a component may start with.
                Rule::betza | Rule::component | Rule::legs | Rule::leg => {
                    &[DIRECTIONS, MODIFIERS, LEG_SEP, ATOMS]
                }
            };
            for name in names {
                if !expected.contains(name) {
                    expected.push(name);
                }
            }
        }
    }
    // A fixed, readable order.
    let order = [DIRECTIONS, MODIFIERS, LEG_SEP, ATOMS, RANGE, END];
    expected.sort_by_key(|name| order.iter().position(|o| o == name));
    let expected = match expected.split_last() {
        None => "a valid XBetza string".to_owned(),
        Some((last, [])) => (*last).to_owned(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    };

    let previous = text.get(..pos).and_then(|s| s.chars().next_back());
    let found_text = match found {
        Some(c) => format!("'{c}'"),
        None if text.is_empty() => "an empty string".to_owned(),
        None => "end of input".to_owned(),
    };
    let hint = hint_for(found, previous, text.is_empty());
    error(
        column(text, pos),
        format!("found {found_text}, expected {expected}"),
        hint,
    )
}

fn hint_for(found: Option<char>, previous: Option<char>, empty: bool) -> Option<&'static str> {
    Some(match found {
        None if empty => "describe the move with at least one atom, e.g. W or fmWfcF",
        None => "a prefix must be followed by an atom, e.g. fmW",
        Some('J' | 'L') => {
            "J and L mean different leaps in different tools: \
             write C for the (3,1) Camel, Z for the (3,2) Zebra"
        }
        Some('X' | 'Y') => {
            "the extended atoms X and Y are not supported: spell the leap with W F D N A H C Z G"
        }
        Some('O') => "castling is a rule in the variant file's [rules] table, not part of a move",
        Some('U') => "the universal leaper U is not supported: list the leaps it should make",
        Some('@') => "drops are not part of a piece's move: declare them in the variant file",
        Some('z' | 'q') => {
            "crooked (z) and circular (q) moves are not supported: use multi-leg a notation"
        }
        Some('x' | 'u' | 'k') => "the x, u and k modifiers are not supported",
        Some('#' | '[' | ']') => "brackets and # are not supported: use multi-leg a notation",
        Some(c) if c.is_ascii_digit() => match previous {
            Some(p) if p.is_ascii_uppercase() => {
                "a doubled atom (NN) already means an unlimited range: write NN or N0"
            }
            _ => "a range follows an atom letter, e.g. R4",
        },
        Some(c) if c.is_whitespace() => "XBetza is written without spaces",
        _ => return None,
    })
}

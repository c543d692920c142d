//! A piece's movement in plain English, worked out from its parsed XBetza.
//!
//! [`describe`] turns a [`Betza`] into one or more sentences for players:
//!
//! ```
//! use polymachy::notation::{parse, words::describe};
//! assert_eq!(
//!     describe(&parse("BN").unwrap()),
//!     "Moves like a Bishop or a Knight (an Archbishop, also called Cardinal)."
//! );
//! ```
//!
//! Components without direction or mode letters are pooled and named where the pool (or part
//! of it) is a familiar piece: Queen, King, Amazon, Archbishop, Chancellor, Centaur, Lion,
//! Wildebeest, Buffalo and the crowned Rook and Bishop. Every other component gets a clause of
//! its own, built from its atom, range, directions and modifiers: move-only and capture-only
//! moves, first moves, lame (blockable) leaps and the en-passant rights they leave, en-passant
//! captures, Cannon-like and Grasshopper-like hops. Moves in several legs are told leg by leg
//! (the Xiangqi Horse's lame Knight move is named). Nothing here guesses: a combination the
//! words do not cover is described by what each part does.

use super::ast::{Atom, Betza, Component, Leg, Mods, Range};
use super::dirs::{AtomClass, directions};

/// The movement of `b` in plain English: clauses joined by semicolons, as one sentence that
/// starts with a capital letter and ends with a full stop.
pub fn describe(b: &Betza) -> String {
    sentence(&clauses(b))
}

/// The clauses of [`describe`], each without a capital letter or full stop.
pub fn clauses(b: &Betza) -> Vec<String> {
    let mut plain: Vec<(Atom, Option<u32>)> = Vec::new();
    let mut out = Vec::new();
    let mut singles = Vec::new();
    let mut multis = Vec::new();
    for c in &b.components {
        match c.legs.as_slice() {
            [] => plain.push((c.atom, range_of(c.atom, c.range))),
            [leg] if *leg == Leg::default() => plain.push((c.atom, range_of(c.atom, c.range))),
            [_] => singles.push(c),
            _ => multis.push(c),
        }
    }
    out.extend(plain_clauses(&plain));
    out.extend(singles.into_iter().map(single_clause));
    out.extend(multis.into_iter().map(multi_clause));
    if out.is_empty() {
        out.push("has no moves of its own".to_owned());
    }
    out
}

/// Clauses joined with semicolons, capitalised, with a full stop.
pub fn sentence(clauses: &[String]) -> String {
    let text = clauses.join("; ");
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => format!("{}{}.", c.to_uppercase(), chars.as_str()),
        None => String::new(),
    }
}

/// The steps a component repeats: `Some(1)` for a leap or step, `None` for no limit.
fn range_of(atom: Atom, range: Range) -> Option<u32> {
    match range {
        Range::Default if atom.is_rider_shorthand() => None,
        Range::Default => Some(1),
        Range::Limited(n) => Some(u32::from(n)),
        Range::Unlimited => None,
    }
}

/// One plain move, normalised: K is W and F, Q is R and B, W and F riders are R and B.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Plain {
    atom: Atom,
    range: Option<u32>,
}

fn normalise(plain: &[(Atom, Option<u32>)]) -> Vec<Plain> {
    let mut out: Vec<Plain> = Vec::new();
    let mut push = |atom, range| {
        let p = Plain { atom, range };
        if !out.contains(&p) {
            out.push(p);
        }
    };
    for &(atom, range) in plain {
        match (atom, range) {
            (Atom::K, Some(1)) => {
                push(Atom::W, Some(1));
                push(Atom::F, Some(1));
            }
            (Atom::K | Atom::Q, None) => {
                push(Atom::R, None);
                push(Atom::B, None);
            }
            (Atom::W | Atom::R, r) if r != Some(1) || atom == Atom::R => push(Atom::R, r),
            (Atom::F | Atom::B, r) if r != Some(1) || atom == Atom::B => push(Atom::B, r),
            (Atom::Q, r) => push(Atom::K, r),
            (a, r) => push(a, r),
        }
    }
    out
}

/// Familiar pieces made of plain moves, largest first: the moves, the clause.
const COMPOUNDS: &[(&[Atom], &str)] = &[
    (
        &[Atom::W, Atom::F, Atom::N, Atom::A, Atom::D],
        "leaps to any square up to two squares away in any direction, jumping over anything between (like a Lion: a King, a Knight, an Alfil and a Dabbaba together)",
    ),
    (
        &[Atom::R, Atom::B, Atom::N],
        "moves like a Queen or a Knight (an Amazon)",
    ),
    (
        &[Atom::W, Atom::F, Atom::N],
        "moves like a King or a Knight (a Centaur)",
    ),
    (
        &[Atom::N, Atom::C, Atom::Z],
        "leaps like a Knight, a Camel or a Zebra (a Buffalo)",
    ),
    (
        &[Atom::R, Atom::B],
        "slides any number of squares in any direction (like a Queen)",
    ),
    (
        &[Atom::B, Atom::N],
        "moves like a Bishop or a Knight (an Archbishop, also called Cardinal)",
    ),
    (
        &[Atom::R, Atom::N],
        "moves like a Rook or a Knight (a Chancellor, also called Marshal)",
    ),
    (
        &[Atom::R, Atom::F],
        "moves like a Rook, or steps one square diagonally (a crowned Rook, the Dragon King of Shogi)",
    ),
    (
        &[Atom::B, Atom::W],
        "moves like a Bishop, or steps one square orthogonally (a crowned Bishop, the Dragon Horse of Shogi)",
    ),
    (
        &[Atom::N, Atom::C],
        "leaps like a Knight or a Camel (a Wildebeest)",
    ),
    (
        &[Atom::W, Atom::F],
        "steps one square in any direction (like a King)",
    ),
];

/// Whether a plain move is the atom's basic one: a single leap, or an unlimited R or B.
fn basic(p: Plain) -> bool {
    match p.atom {
        Atom::R | Atom::B | Atom::Q => p.range.is_none(),
        _ => p.range == Some(1),
    }
}

fn plain_clauses(plain: &[(Atom, Option<u32>)]) -> Vec<String> {
    let mut left = normalise(plain);
    let mut out = Vec::new();
    for (atoms, text) in COMPOUNDS {
        let found = atoms
            .iter()
            .all(|&a| left.iter().any(|&p| p.atom == a && basic(p)));
        if found {
            left.retain(|p| !(atoms.contains(&p.atom) && basic(*p)));
            out.push((*text).to_owned());
        }
    }
    // Two- and three-square leapers, orthogonal and diagonal, in one clause each.
    for (orth, diag, text) in [
        (
            Atom::D,
            Atom::A,
            "leaps two squares orthogonally or diagonally, jumping over the square between (like a Dabbaba or an Alfil)",
        ),
        (
            Atom::H,
            Atom::G,
            "leaps three squares orthogonally or diagonally, jumping over the squares between (like a Threeleaper or a Tripper)",
        ),
    ] {
        let has = |a: Atom| {
            left.contains(&Plain {
                atom: a,
                range: Some(1),
            })
        };
        if has(orth) && has(diag) {
            left.retain(|p| !((p.atom == orth || p.atom == diag) && p.range == Some(1)));
            out.push(text.to_owned());
        }
    }
    for p in left {
        out.push(plain_atom(p));
    }
    out
}

/// The familiar name of an atom's piece, with its article.
fn atom_name(atom: Atom) -> &'static str {
    match atom {
        Atom::W => "a Wazir",
        Atom::F => "a Ferz",
        Atom::D => "a Dabbaba",
        Atom::N => "a Knight",
        Atom::A => "an Alfil",
        Atom::H => "a Threeleaper",
        Atom::C => "a Camel",
        Atom::Z => "a Zebra",
        Atom::G => "a Tripper",
        Atom::K => "a King",
        Atom::R => "a Rook",
        Atom::B => "a Bishop",
        Atom::Q => "a Queen",
    }
}

fn number(n: u32) -> String {
    match n {
        1 => "one".into(),
        2 => "two".into(),
        3 => "three".into(),
        4 => "four".into(),
        5 => "five".into(),
        _ => n.to_string(),
    }
}

/// A plain move on its own: the full clause with the piece it moves like.
fn plain_atom(p: Plain) -> String {
    let m = motion(p.atom, p.range, None, 0);
    let like = match (p.atom, p.range) {
        (Atom::N, None) => " (like a Nightrider)".to_owned(),
        (Atom::R | Atom::B | Atom::K, Some(_)) => String::new(),
        (Atom::N | Atom::C | Atom::Z, _) => String::new(),
        (a, Some(1)) => format!(" (like {})", atom_name(a)),
        (Atom::R | Atom::B, None) => format!(" (like {})", atom_name(p.atom)),
        _ => String::new(),
    };
    format!("{} {}{}{like}", m.verb, m.rest, m.tail)
}

/// A verb with what follows it: `steps` + `one square diagonally`.
struct Motion {
    verb: &'static str,
    rest: String,
    /// What follows the mode words: how it gets there (`, jumping over the square between`).
    tail: String,
}

/// The default direction words of an atom class, for steps and leaps, and for slides.
fn all_dirs(class: AtomClass, slide: bool) -> &'static str {
    match (class, slide) {
        (AtomClass::Orthogonal, false) => "orthogonally",
        (AtomClass::Orthogonal, true) => "along a rank or file",
        (AtomClass::Diagonal, _) => "diagonally",
        (AtomClass::Eightfold, _) => "in any direction",
        (AtomClass::Oblique, _) => "",
    }
}

/// How an atom moves: its verb, distance and directions (`where_` = `None`: all of them).
/// `lame` is the leg's count of `n`.
fn motion(atom: Atom, range: Option<u32>, where_: Option<&str>, lame: u8) -> Motion {
    let class = AtomClass::of(atom);
    let len = u32::from(atom.leap().0);
    let slide = range != Some(1);
    let dir = where_.unwrap_or_else(|| all_dirs(class, slide));
    if class == AtomClass::Oblique {
        let shape = match atom {
            Atom::N => "two squares one way and one to the side",
            Atom::C => "three squares one way and one to the side",
            _ => "three squares one way and two to the side",
        };
        let name = &atom_name(atom)[atom_name(atom).find(' ').map_or(0, |i| i + 1)..];
        let only = where_.map(|w| format!(", only {w}")).unwrap_or_default();
        return match range {
            Some(1) => {
                let over = if lame > 0 {
                    format!(
                        ", but blocked by a piece on the square next to it on the longer side (the {name} does not jump)"
                    )
                } else {
                    ", jumping over anything between".to_owned()
                };
                Motion {
                    verb: "leaps",
                    rest: format!("like {} ({shape}){only}", atom_name(atom)),
                    tail: over,
                }
            }
            r => Motion {
                verb: "rides",
                rest: format!(
                    "{} {name} leaps in one straight line{only}",
                    r.map_or("any number of".to_owned(), |n| format!(
                        "up to {}",
                        number(n)
                    ))
                ),
                tail: ", each square it lands on before the last empty".to_owned(),
            },
        };
    }
    match (range, len) {
        (Some(1), 1) => Motion {
            verb: "steps",
            rest: format!("one square {dir}"),
            tail: String::new(),
        },
        (Some(1), _) => {
            let between = if len == 2 {
                "the square between"
            } else {
                "the squares between"
            };
            let rest = format!("{} squares {dir}", number(len));
            if lame > 0 {
                let passed = if len == 2 {
                    "the square passed is"
                } else {
                    "the squares passed are"
                };
                Motion {
                    verb: "steps",
                    rest,
                    tail: format!(", if {passed} empty"),
                }
            } else {
                Motion {
                    verb: "leaps",
                    rest,
                    tail: format!(", jumping over {between}"),
                }
            }
        }
        (r, 1) => Motion {
            verb: "slides",
            tail: String::new(),
            rest: format!(
                "{} squares {dir}",
                r.map_or("any number of".to_owned(), |n| format!(
                    "up to {}",
                    number(n)
                ))
            ),
        },
        (r, _) => Motion {
            verb: "rides",
            rest: format!(
                "in {} leaps of {} squares {dir} in one straight line",
                r.map_or("any number of".to_owned(), |n| format!(
                    "up to {}",
                    number(n)
                )),
                number(len)
            ),
            tail: ", each square it lands on before the last empty".to_owned(),
        },
    }
}

/// The words for a set of step vectors of `atom` (White's view), or `None` when it is every
/// one of them.
fn direction_words(atom: Atom, vecs: &[(i8, i8)], slide: bool) -> Option<String> {
    let all = super::dirs::all_vectors(atom);
    if vecs.len() == all.len() {
        return None;
    }
    let class = AtomClass::of(atom);
    if class == AtomClass::Oblique {
        let each: Vec<String> = vecs.iter().map(|&v| vector_words(v)).collect();
        return Some(format!("to {}", or_list(&each)));
    }
    let orth: Vec<(i8, i8)> = vecs
        .iter()
        .copied()
        .filter(|v| v.0 == 0 || v.1 == 0)
        .collect();
    let diag: Vec<(i8, i8)> = vecs
        .iter()
        .copied()
        .filter(|v| v.0 != 0 && v.1 != 0)
        .collect();
    let mut parts = Vec::new();
    if !orth.is_empty() {
        parts.push(orth_words(&orth, slide));
    }
    if !diag.is_empty() {
        parts.push(diag_words(&diag));
    }
    Some(parts.join(" or "))
}

fn orth_words(vecs: &[(i8, i8)], slide: bool) -> String {
    let has = |f: fn(&(i8, i8)) -> bool| vecs.iter().any(f);
    let (f, b) = (has(|v| v.1 > 0), has(|v| v.1 < 0));
    let (l, r) = (has(|v| v.0 < 0), has(|v| v.0 > 0));
    let mut parts: Vec<&str> = Vec::new();
    match (f, b) {
        (true, true) => parts.push("forward or back"),
        (true, false) => parts.push("straight forward"),
        (false, true) => parts.push("straight back"),
        _ => {}
    }
    match (l, r) {
        (true, true) => parts.push("sideways"),
        (true, false) => parts.push("to the left"),
        (false, true) => parts.push("to the right"),
        _ => {}
    }
    if f && b && l && r {
        return if slide {
            "along a rank or file".into()
        } else {
            "orthogonally".into()
        };
    }
    parts.join(" or ")
}

fn diag_words(vecs: &[(i8, i8)]) -> String {
    let has = |x: i8, y: i8| vecs.iter().any(|v| v.0.signum() == x && v.1.signum() == y);
    let (fl, fr, bl, br) = (has(-1, 1), has(1, 1), has(-1, -1), has(1, -1));
    match (fl, fr, bl, br) {
        (true, true, true, true) => "diagonally".into(),
        (true, true, false, false) => "diagonally forward".into(),
        (false, false, true, true) => "diagonally back".into(),
        (true, false, true, false) => "diagonally to the left".into(),
        (false, true, false, true) => "diagonally to the right".into(),
        _ => {
            let names: Vec<String> = [
                (fl, "forward-left"),
                (fr, "forward-right"),
                (bl, "back-left"),
                (br, "back-right"),
            ]
            .iter()
            .filter(|x| x.0)
            .map(|x| x.1.to_owned())
            .collect();
            format!("diagonally {}", or_list(&names))
        }
    }
}

/// `(1, 2)` as "one square right and two forward".
fn vector_words((dx, dy): (i8, i8)) -> String {
    let side = match dx.signum() {
        1 => format!("{} to the right", number(dx.unsigned_abs().into())),
        -1 => format!("{} to the left", number(dx.unsigned_abs().into())),
        _ => String::new(),
    };
    let fwd = match dy.signum() {
        1 => format!("{} forward", number(dy.unsigned_abs().into())),
        -1 => format!("{} back", number(dy.unsigned_abs().into())),
        _ => String::new(),
    };
    let both: Vec<String> = [fwd, side].into_iter().filter(|s| !s.is_empty()).collect();
    format!("the square {}", both.join(" and "))
}

/// `a, b or c`.
fn or_list(items: &[String]) -> String {
    list(items, "or")
}

fn list(items: &[String], word: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} {word} {last}", rest.join(", ")),
    }
}

/// The line a hopper travels along.
fn line_words(atom: Atom, where_: Option<&str>) -> String {
    match (where_, AtomClass::of(atom)) {
        (Some(w), _) => w.to_owned(),
        (None, AtomClass::Orthogonal) => "along a rank or file".into(),
        (None, AtomClass::Diagonal) => "along a diagonal".into(),
        _ => "along any line".into(),
    }
}

/// A Cannon-like (`p`) or Grasshopper-like (`g`) move.
fn hop_clause(c: &Component, m: &Mods, where_: Option<&str>) -> String {
    let line = line_words(c.atom, where_);
    let within = match range_of(c.atom, c.range) {
        Some(1) => " within one square".to_owned(),
        Some(n) => format!(" within {} squares", number(n)),
        None => String::new(),
    };
    let move_only = m.m && !m.c;
    let capture_only = m.c && !m.m;
    if m.g {
        let mode = if move_only {
            " (only if that square is empty)"
        } else if capture_only {
            " (only to capture there)"
        } else {
            ""
        };
        return format!(
            "hops over a piece {line}{within} and lands on the square just beyond it{mode} (like a Grasshopper)"
        );
    }
    let like = match AtomClass::of(c.atom) {
        AtomClass::Orthogonal => "like a Cannon",
        AtomClass::Diagonal => "like a Cannon on the diagonals",
        _ => "like a Cannon in all eight directions",
    };
    if capture_only {
        format!(
            "captures by jumping over exactly one piece of either side {line}{within}, taking the first piece beyond it if it is an enemy ({like})"
        )
    } else if move_only {
        format!(
            "moves by jumping over exactly one piece {line}{within} to an empty square beyond it, up to the next piece"
        )
    } else {
        format!(
            "jumps over exactly one piece {line}{within}, then moves to an empty square beyond it or captures the first piece beyond it if it is an enemy ({like})"
        )
    }
}

/// What a final leg may do where it lands, appended to a clause.
fn mode_words(m: &Mods) -> &'static str {
    match (m.m, m.c, m.e) {
        (true, false, false) => " without capturing",
        (false, true, false) => " but only to capture",
        (false, true, true) => " but only to capture, also en passant",
        (false, false, true) => " but only to capture en passant",
        (true, false, true) => " without capturing, or to capture en passant",
        (true, true, true) => ", also capturing en passant",
        _ => "",
    }
}

/// A one-leg component with direction letters or modifiers.
fn single_clause(c: &Component) -> String {
    let leg = &c.legs[0];
    let m = &leg.mods;
    let range = range_of(c.atom, c.range);
    let vecs = match directions(c.atom, &leg.dirs) {
        Ok(v) => v,
        Err(_) => return format!("moves as the XBetza `{c}` says"),
    };
    let where_ = direction_words(c.atom, &vecs, range != Some(1));
    let mut text = if m.p || m.g {
        hop_clause(c, m, where_.as_deref())
    } else {
        plain_or_modified(c, m, range, where_.as_deref())
    };
    if m.j > 0 {
        if range == Some(1) {
            text = text.replace(", jumping over the squares between", "");
            text = text.replace(", jumping over the square between", "");
            text.push_str(", only by jumping over a piece on the square between");
        } else {
            text.push_str(", skipping the first square whatever stands there");
        }
    }
    if m.d {
        text.push_str(", and may capture its own pieces");
    }
    if m.t {
        text.push_str(" (it may not capture a royal piece this way)");
    }
    if m.o {
        text.push_str(" (the board's edges wrap round like a cylinder)");
    }
    if m.n >= 2 || (m.n >= 1 && m.initial) {
        text.push_str(if c.atom.leap().0 > 2 {
            " (an enemy may then take it en passant on any square passed)"
        } else {
            " (an enemy may then take it en passant on the square passed)"
        });
    }
    if m.initial {
        return format!("on its first move may also {}", base_form(&text));
    }
    text
}

/// Turns a clause that starts with a third-person verb into its base form.
fn base_form(text: &str) -> String {
    for (third, base) in [
        ("steps", "step"),
        ("leaps", "leap"),
        ("slides", "slide"),
        ("rides", "ride"),
        ("moves", "move"),
        ("captures", "capture"),
        ("jumps", "jump"),
        ("hops", "hop"),
    ] {
        if let Some(rest) = text.strip_prefix(third) {
            return format!("{base}{rest}");
        }
    }
    text.to_owned()
}

/// A move that is not a hop: its motion, its directions and what it may do where it lands.
fn plain_or_modified(c: &Component, m: &Mods, range: Option<u32>, where_: Option<&str>) -> String {
    let one_step = range == Some(1) && c.atom.leap().0 == 1;
    let capture_only = m.c && !m.m;
    // Familiar pieces keep their name: "moves like a Rook without capturing".
    if where_.is_none()
        && m.n == 0
        && !m.initial
        && basic(Plain {
            atom: c.atom,
            range,
        })
    {
        let name = match c.atom {
            Atom::K if range == Some(1) => Some("a King"),
            Atom::Q | Atom::R | Atom::B | Atom::N | Atom::C | Atom::Z => Some(atom_name(c.atom)),
            _ => None,
        };
        if let Some(name) = name {
            return format!("moves like {name}{}", mode_words(m));
        }
    }
    if capture_only && one_step {
        let dir = where_.unwrap_or_else(|| all_dirs(AtomClass::of(c.atom), false));
        let ep = if m.e { ", also en passant" } else { "" };
        return format!("captures one square {dir}{ep}");
    }
    let mv = motion(c.atom, range, where_, m.n);
    format!("{} {}{}{}", mv.verb, mv.rest, mode_words(m), mv.tail)
}

/// The turn words of a later leg (relative to the leg before): `fs` = 45 degrees either way.
fn turn_words(dirs: &str, eightfold: bool) -> String {
    if dirs.is_empty() {
        return if eightfold {
            "in any direction but back".into()
        } else {
            "straight on or turning 90 degrees either way".into()
        };
    }
    let Ok(vecs) = directions(Atom::K, dirs) else {
        return format!("turning as `{dirs}` says");
    };
    let names: Vec<String> = [
        ((0, 1), "straight on"),
        ((1, 1), "turning 45 degrees right"),
        ((-1, 1), "turning 45 degrees left"),
        ((1, 0), "turning 90 degrees right"),
        ((-1, 0), "turning 90 degrees left"),
        ((1, -1), "turning 135 degrees right"),
        ((-1, -1), "turning 135 degrees left"),
        ((0, -1), "straight back"),
    ]
    .iter()
    .filter(|(v, _)| vecs.contains(v))
    .map(|(_, n)| (*n).to_owned())
    .collect();
    let mut joined = Vec::new();
    let mut i = 0;
    while i < names.len() {
        // "turning 45 degrees right" and "... left" read as "turning 45 degrees either way".
        if i + 1 < names.len()
            && names[i].ends_with(" right")
            && names[i + 1] == names[i].replace(" right", " left")
        {
            joined.push(names[i].replace(" right", " either way"));
            i += 2;
        } else {
            joined.push(names[i].clone());
            i += 1;
        }
    }
    or_list(&joined)
}

/// Whether the lame Knight of Xiangqi: an orthogonal step to an empty square, then one
/// diagonal step outward.
fn is_lame_knight(c: &Component) -> bool {
    let [first, second] = c.legs.as_slice() else {
        return false;
    };
    let plain_first = first.dirs.is_empty()
        && Mods {
            m: false,
            ..first.mods
        } == Mods::default();
    let plain_second = second.dirs == "fs"
        && Mods {
            m: false,
            c: false,
            ..second.mods
        } == Mods::default();
    c.atom == Atom::W && c.range == Range::Default && plain_first && plain_second
}

/// Where the second leg of a two-leg component goes, in White's view, when it makes one
/// turn only: the Terachess Ship's `frblyaflF` turns left into straight forward or back.
fn absolute_turn(c: &Component, i: usize) -> Option<String> {
    if i != 1 || c.legs.len() != 2 {
        return None;
    }
    let turns = directions(Atom::K, &c.legs[1].dirs).ok()?;
    let [turn] = turns.as_slice() else {
        return None;
    };
    let kd = &super::dirs::KING_DIRS;
    let t = kd.iter().position(|d| d == turn)?;
    let mut out: Vec<(i8, i8)> = Vec::new();
    for v in directions(c.atom, &c.legs[0].dirs).ok()? {
        let d = kd
            .iter()
            .position(|&(x, y)| (x, y) == (v.0.signum(), v.1.signum()))?;
        out.push(kd[(d + t) % 8]);
    }
    direction_words(Atom::K, &out, true)
}

/// The direction words of leg `i` of a multi-leg component: absolute for the first leg,
/// turns for later ones. Updates `orth`, whether the leg's steps are orthogonal (`Some(true)`),
/// diagonal or either (`None`): a turn of 45 or 135 degrees swaps the two.
fn leg_directions(
    c: &Component,
    i: usize,
    range: Option<u32>,
    orth: &mut Option<bool>,
) -> Option<String> {
    let leg = &c.legs[i];
    let eightfold = c.atom.is_eightfold();
    if i == 0 {
        let vecs = directions(c.atom, &leg.dirs).unwrap_or_default();
        return direction_words(c.atom, &vecs, range != Some(1));
    }
    let turn = turn_words(&leg.dirs, eightfold);
    let turns = directions(Atom::K, &leg.dirs).unwrap_or_default();
    let odd = !leg.dirs.is_empty() && turns.iter().all(|v| v.0 != 0 && v.1 != 0);
    let even = (leg.dirs.is_empty() && !eightfold) || turns.iter().all(|v| v.0 == 0 || v.1 == 0);
    *orth = match *orth {
        Some(o) if odd => Some(!o),
        Some(o) if even => Some(o),
        _ => None,
    };
    Some(match absolute_turn(c, i) {
        Some(abs) => format!("{turn} (so {abs})"),
        None => turn,
    })
}

/// A component of several legs, told leg by leg.
fn multi_clause(c: &Component) -> String {
    if is_lame_knight(c) {
        let last = &c.legs[1].mods;
        return format!(
            "moves like a Knight{}, but blocked by a piece on the square beside it that it passes (like the Xiangqi Horse)",
            mode_words(last)
        );
    }
    let len = u32::from(c.atom.leap().0);
    let mut range = range_of(c.atom, c.range);
    // Whether the leg's steps are orthogonal (Some(true)), diagonal, or either (None).
    let mut orth = match AtomClass::of(c.atom) {
        AtomClass::Orthogonal => Some(true),
        AtomClass::Diagonal => Some(false),
        _ => None,
    };
    let mut parts = Vec::new();
    let last_index = c.legs.len() - 1;
    for (i, leg) in c.legs.iter().enumerate() {
        let m = &leg.mods;
        let dirs = leg_directions(c, i, range, &mut orth);
        let kind = match orth {
            Some(true) => "orthogonally",
            Some(false) => "diagonally",
            None => "",
        };
        let how_far = match (range, len) {
            (Some(1), 1) => "one square".to_owned(),
            (Some(1), n) => format!("a leap of {} squares", number(n)),
            (None, _) => "any number of squares".to_owned(),
            (Some(n), _) => format!("up to {} squares", number(n)),
        };
        let kind = match (i, &dirs) {
            (0, Some(d)) => d.as_str(),
            _ => kind,
        };
        let motion = [how_far.as_str(), kind]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        let motion = match (i, dirs) {
            (0, _) => motion,
            (_, Some(d)) => format!("{motion}, {d},"),
            _ => motion,
        };
        if i == last_index {
            let end = match (m.m, m.c) {
                (true, false) => ", ending on an empty square",
                (false, true) => ", ending with a capture",
                _ => ", ending on an empty square or capturing an enemy there",
            };
            parts.push(format!("{}{end}", motion.trim_end_matches(',')));
        } else {
            let cond = if m.p && m.m {
                " to any square, empty or not,"
            } else if m.p || m.g {
                " onto a piece, which it hops over"
            } else if m.c {
                " onto an enemy, capturing it,"
            } else {
                " to an empty square"
            };
            parts.push(format!("{motion}{cond}"));
            if m.y || m.g {
                range = match range {
                    Some(1) => None,
                    _ => Some(1),
                };
            }
        }
    }
    let first = parts.remove(0);
    let last = parts.pop().unwrap_or_default();
    let middle: String = parts.iter().map(|p| format!(", then {p}")).collect();
    let prefix = if c.legs[0].mods.initial {
        "on its first move may also go "
    } else {
        "may also go "
    };
    format!("{prefix}{first}{middle} and continue from there {last}").replace(",,", ",")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse;

    /// Every (name, betza) of the shipped variant files.
    fn shipped() -> Vec<(String, String, String)> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("variants");
        let mut out = Vec::new();
        for e in std::fs::read_dir(dir).unwrap() {
            let path = e.unwrap().path();
            let file = path.file_name().unwrap().to_string_lossy().to_string();
            if !file.ends_with(".toml") || file.ends_with(".eval.toml") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let value = |line: &str| line.split('"').nth(1).unwrap_or_default().to_owned();
            let mut name = String::new();
            for line in text.lines() {
                if line.starts_with("name = ") {
                    name = value(line);
                } else if line.starts_with("betza = ") {
                    out.push((file.clone(), name.clone(), value(line)));
                }
            }
        }
        out.sort();
        assert!(out.len() > 100, "the variant files were not found");
        out
    }

    #[test]
    fn every_shipped_piece_is_described() {
        for (file, name, betza) in shipped() {
            let text = words(&betza);
            println!("{file} {name} {betza}: {text}");
            assert!(text.len() > 20, "{file} {name}: {text}");
            assert!(!text.contains("unknown"), "{file} {name}: {text}");
            assert!(!text.contains("XBetza"), "{file} {name}: {text}");
            assert!(!text.contains("  "), "{file} {name}: {text}");
            assert!(text.ends_with('.') && text.starts_with(char::is_uppercase));
        }
    }

    fn words(s: &str) -> String {
        describe(&parse(s).unwrap())
    }

    #[test]
    fn well_known_pieces() {
        let cases = [
            (
                "BN",
                "Moves like a Bishop or a Knight (an Archbishop, also called Cardinal).",
            ),
            (
                "RN",
                "Moves like a Rook or a Knight (a Chancellor, also called Marshal).",
            ),
            ("QN", "Moves like a Queen or a Knight (an Amazon)."),
            ("KN", "Moves like a King or a Knight (a Centaur)."),
            ("NC", "Leaps like a Knight or a Camel (a Wildebeest)."),
            (
                "NCZ",
                "Leaps like a Knight, a Camel or a Zebra (a Buffalo).",
            ),
            (
                "KNAD",
                "Leaps to any square up to two squares away in any direction, jumping over anything between \
                 (like a Lion: a King, a Knight, an Alfil and a Dabbaba together).",
            ),
            (
                "C",
                "Leaps like a Camel (three squares one way and one to the side), jumping over anything between.",
            ),
            (
                "FA",
                "Steps one square diagonally (like a Ferz); leaps two squares diagonally, jumping over the square \
                 between (like an Alfil).",
            ),
            (
                "mRcpR",
                "Moves like a Rook without capturing; captures by jumping over exactly one piece of either side \
                 along a rank or file, taking the first piece beyond it if it is an enemy (like a Cannon).",
            ),
            (
                "FyafsF",
                "Steps one square diagonally (like a Ferz); may also go one square diagonally to an empty square \
                 and continue from there any number of squares orthogonally, turning 45 degrees either way, ending \
                 on an empty square or capturing an enemy there.",
            ),
            (
                "KfmnnD",
                "Steps one square in any direction (like a King); steps two squares straight forward without \
                 capturing, if the square passed is empty (an enemy may then take it en passant on the square passed).",
            ),
            ("R4", "Slides up to four squares along a rank or file."),
            (
                "fmFfcafmF",
                "Steps one square diagonally forward without capturing; may also go one square diagonally \
                 forward onto an enemy, capturing it, and continue from there one square \
                 diagonally, straight on (so diagonally forward), ending on an empty square.",
            ),
            (
                "NcB",
                "Leaps like a Knight (two squares one way and one to the side), jumping over anything between; \
                 moves like a Bishop but only to capture.",
            ),
            (
                "mafsW",
                "Moves like a Knight, but blocked by a piece on the square beside it that it passes (like the Xiangqi Horse).",
            ),
            (
                "nN",
                "Leaps like a Knight (two squares one way and one to the side), but blocked by a piece on the square \
                 next to it on the longer side (the Knight does not jump).",
            ),
            (
                "D",
                "Leaps two squares orthogonally, jumping over the square between (like a Dabbaba).",
            ),
            ("W", "Steps one square orthogonally (like a Wazir)."),
            (
                "WW",
                "Slides any number of squares along a rank or file (like a Rook).",
            ),
            (
                "gQ",
                "Hops over a piece along any line and lands on the square just beyond it (like a Grasshopper).",
            ),
            ("fsW", "Steps one square straight forward or sideways."),
        ];
        for (betza, want) in cases {
            assert_eq!(words(betza), want, "{betza}");
        }
    }

    #[test]
    fn the_chess_pieces() {
        assert_eq!(
            words("K"),
            "Steps one square in any direction (like a King)."
        );
        assert_eq!(
            words("Q"),
            "Slides any number of squares in any direction (like a Queen)."
        );
        assert_eq!(
            words("R"),
            "Slides any number of squares along a rank or file (like a Rook)."
        );
        assert_eq!(
            words("B"),
            "Slides any number of squares diagonally (like a Bishop)."
        );
        assert_eq!(
            words("N"),
            "Leaps like a Knight (two squares one way and one to the side), jumping over anything between."
        );
        assert_eq!(
            words("fmWfceFifmnD"),
            "Steps one square straight forward without capturing; captures one square diagonally forward, also en passant; \
             on its first move may also step two squares straight forward without capturing, if the square passed is empty \
             (an enemy may then take it en passant on the square passed)."
        );
    }
}

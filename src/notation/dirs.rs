//! What the direction letters of a leg mean: the step vectors a leg may take.
//!
//! Vectors are `(dx, dy)` from White's point of view: `dx > 0` toward higher files (right),
//! `dy > 0` forward (toward higher ranks). They are the atom's actual leap, so `D` gives
//! `(0, 2)`-type vectors and `N` gives `(1, 2)`-type vectors; `R` gives the `W` vectors and `B`
//! the `F` vectors (the caller handles the range). `K` and `Q` give the orthogonal and
//! diagonal unit steps.
//!
//! The letters are `f` (forward), `b` (back), `l` (left), `r` (right), `v` (vertical: forward
//! and back), `s` (sideways: left and right) and `h` (only on oblique atoms). How they combine
//! depends on the class of the atom:
//!
//! * **Orthogonal** (`W D H R`): every letter names its own direction(s) and they add up;
//!   `fsW` is forward, left and right.
//! * **Diagonal** (`F A G B`): one letter names two diagonals (`f` = both forward ones, `l` =
//!   forward-left and back-left); two adjacent perpendicular letters name one diagonal
//!   (`fl` = `lf` = forward-left). `s`, `v` and `h` are errors.
//! * **Eight-fold** (`K Q`): one letter names one orthogonal direction (`v` and `s` two);
//!   two adjacent perpendicular letters name diagonals (`fr` one, `fs` both forward ones).
//! * **Oblique** (`N C Z`): a lone letter names the *narrow* pair whose long side points that
//!   way (`f` = d6 f6 for a knight on e4). A letter followed by the same or a perpendicular
//!   letter forms a pair: the first letter's *wide* half-plane (every move with a component
//!   that way) intersected with the second letter's narrow pair (`fs` = c5 g5, `rf` = f6).
//!   A letter followed by `h` is its wide half-plane (`fh` = c5 d6 f6 g5). `hr` and `hl`,
//!   alone, are the two chiral halves (`hr` = f6 g3 d2 c5, turning clockwise).
//!
//! Perpendicular letters: each of `f b v` is perpendicular to each of `l r s`, except that `v`
//! and `s` are not (they are the two axes, not directions). Pairs are formed greedily from the
//! left. Any other two letters are read separately and add up. An empty string means every
//! direction of the atom.
//!
//! Later legs of a multi-leg component use the eight-fold system relative to the previous leg
//! (`f` = straight on, `fr` = 45 degrees right, `s` = both 90-degree turns, ...); call
//! [`directions`] with [`Atom::K`] to validate them and to get their relative unit steps.

use super::ast::Atom;

/// A direction string that makes no sense for its atom.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct DirError {
    /// 0-based index, within the direction string, of the offending letter.
    pub index: usize,
    /// What was found and what was expected.
    pub message: String,
    /// A suggestion for the designer, when there is one.
    pub hint: Option<String>,
}

impl DirError {
    fn new(index: usize, message: impl Into<String>, hint: Option<&str>) -> DirError {
        DirError {
            index,
            message: message.into(),
            hint: hint.map(str::to_owned),
        }
    }
}

/// How direction letters combine on an atom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomClass {
    /// W D H R: the leap lies on a file or a rank.
    Orthogonal,
    /// F A G B: the leap lies on a diagonal.
    Diagonal,
    /// K Q: orthogonal and diagonal unit steps.
    Eightfold,
    /// N C Z: eight leaps that are neither orthogonal nor diagonal.
    Oblique,
}

impl AtomClass {
    /// The class of `atom`.
    pub fn of(atom: Atom) -> AtomClass {
        if atom.is_eightfold() {
            return AtomClass::Eightfold;
        }
        match atom.leap() {
            (_, 0) => AtomClass::Orthogonal,
            (a, b) if a == b => AtomClass::Diagonal,
            _ => AtomClass::Oblique,
        }
    }
}

/// The eight King directions in 45° steps clockwise from straight forward. A later leg's
/// relative directions are indices into this table.
pub const KING_DIRS: [(i8, i8); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// Every step vector of `atom`, clockwise starting from (or just right of) straight forward.
/// This is the order in which [`directions`] reports its vectors.
pub fn all_vectors(atom: Atom) -> Vec<(i8, i8)> {
    let (long, short) = atom.leap();
    let (l, s) = (long as i8, short as i8);
    match AtomClass::of(atom) {
        AtomClass::Eightfold => KING_DIRS.to_vec(),
        AtomClass::Orthogonal => vec![(0, l), (l, 0), (0, -l), (-l, 0)],
        AtomClass::Diagonal => vec![(l, l), (l, -l), (-l, -l), (-l, l)],
        AtomClass::Oblique => vec![
            (s, l),
            (l, s),
            (l, -s),
            (s, -l),
            (-s, -l),
            (-l, -s),
            (-l, s),
            (-s, l),
        ],
    }
}

/// The step vectors selected by the direction letters `dirs` of a first leg on `atom` (see the
/// module documentation), deduplicated, in the order of [`all_vectors`]. An empty `dirs`
/// selects every vector of the atom.
pub fn directions(atom: Atom, dirs: &str) -> Result<Vec<(i8, i8)>, DirError> {
    let letters: Vec<char> = dirs.chars().collect();
    if let Some(i) = letters.iter().position(|c| !"fblrvsh".contains(*c)) {
        return Err(DirError::new(
            i,
            format!(
                "found '{}', expected a direction letter (f b l r v s h)",
                letters[i]
            ),
            None,
        ));
    }
    let all = all_vectors(atom);
    if letters.is_empty() {
        return Ok(all);
    }
    let class = AtomClass::of(atom);
    let selectors = match class {
        AtomClass::Orthogonal => orthogonal(&letters)?,
        AtomClass::Diagonal => diagonal(&letters)?,
        AtomClass::Eightfold => eightfold(&letters)?,
        AtomClass::Oblique => oblique(&letters)?,
    };
    Ok(all
        .into_iter()
        .filter(|&v| selectors.iter().any(|sel| sel.selects(v)))
        .collect())
}

/// One unit of meaning read from the letters.
#[derive(Clone, Copy, Debug)]
enum Selector {
    /// Orthogonal steps pointing the letter's way (`v` = both vertical, `s` = both sideways).
    Orthogonal(char),
    /// Diagonal steps whose components point the letter's way (`f` = both forward diagonals).
    DiagonalSingle(char),
    /// Diagonal steps matching a vertical and a horizontal letter (`fr`, `fs`, `vl`).
    DiagonalPair(char, char),
    /// Oblique: the letter's narrow pair.
    Narrow(char),
    /// Oblique: the first letter's wide half-plane and the second letter's narrow pair.
    WideNarrow(char, char),
    /// Oblique: the letter's wide half-plane (`fh`).
    Wide(char),
    /// Oblique: the clockwise (`hr`, true) or anticlockwise (`hl`, false) half.
    Chiral(bool),
}

/// Whether `dy` points the way of the vertical letter (`f b v`) or `dx` the way of a
/// horizontal one (`l r s`); `v` and `s` accept both signs but not zero.
fn points(letter: char, dx: i8, dy: i8) -> bool {
    match letter {
        'f' => dy > 0,
        'b' => dy < 0,
        'v' => dy != 0,
        'r' => dx > 0,
        'l' => dx < 0,
        's' => dx != 0,
        _ => false,
    }
}

/// The narrow half of `points`: the step's long side lies along the letter's axis.
fn narrow(letter: char, dx: i8, dy: i8) -> bool {
    let vertical = dy.abs() > dx.abs();
    let horizontal = dx.abs() > dy.abs();
    match letter {
        'f' | 'b' | 'v' => vertical && points(letter, dx, dy),
        'l' | 'r' | 's' => horizontal && points(letter, dx, dy),
        _ => false,
    }
}

impl Selector {
    fn selects(self, (dx, dy): (i8, i8)) -> bool {
        match self {
            Selector::Orthogonal(c) => {
                let on_axis = match c {
                    'f' | 'b' | 'v' => dx == 0,
                    _ => dy == 0,
                };
                on_axis && points(c, dx, dy)
            }
            Selector::DiagonalSingle(c) => dx != 0 && dy != 0 && points(c, dx, dy),
            Selector::DiagonalPair(a, b) => {
                dx != 0 && dy != 0 && points(a, dx, dy) && points(b, dx, dy)
            }
            Selector::Narrow(c) => narrow(c, dx, dy),
            Selector::WideNarrow(a, b) => points(a, dx, dy) && narrow(b, dx, dy),
            Selector::Wide(c) => points(c, dx, dy),
            Selector::Chiral(clockwise) => {
                // The clockwise set is the 90-degree rotation orbit of (1,2)-like moves: a
                // forward-right move is narrow-vertical, a back-right one narrow-horizontal, ...
                let same_sign = (dx > 0) == (dy > 0);
                (same_sign == (dy.abs() > dx.abs())) == clockwise
            }
        }
    }
}

fn is_vertical(c: char) -> bool {
    matches!(c, 'f' | 'b' | 'v')
}

fn is_horizontal(c: char) -> bool {
    matches!(c, 'l' | 'r' | 's')
}

/// `f b v` against `l r s`, except `v` with `s`.
fn perpendicular(a: char, b: char) -> bool {
    let crosses = (is_vertical(a) && is_horizontal(b)) || (is_horizontal(a) && is_vertical(b));
    crosses && !matches!((a, b), ('v', 's') | ('s', 'v'))
}

const H_ONLY_OBLIQUE: &str = "h is only meaningful on the oblique atoms N, C and Z";

fn orthogonal(letters: &[char]) -> Result<Vec<Selector>, DirError> {
    letters
        .iter()
        .enumerate()
        .map(|(i, &c)| match c {
            'h' => Err(DirError::new(
                i,
                "found 'h', expected f b l r v or s on an orthogonal atom",
                Some(H_ONLY_OBLIQUE),
            )),
            _ => Ok(Selector::Orthogonal(c)),
        })
        .collect()
}

fn diagonal(letters: &[char]) -> Result<Vec<Selector>, DirError> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < letters.len() {
        let c = letters[i];
        match c {
            's' | 'v' => {
                return Err(DirError::new(
                    i,
                    format!("found '{c}', expected f b l or r on a diagonal atom"),
                    Some("on diagonal atoms use f/b/l/r or pairs like fr"),
                ));
            }
            'h' => {
                return Err(DirError::new(
                    i,
                    "found 'h', expected f b l or r on a diagonal atom",
                    Some(H_ONLY_OBLIQUE),
                ));
            }
            _ => {}
        }
        // `s` and `v` were rejected above, so a perpendicular partner is one of f b l r;
        // it is checked for `s`/`v` when the loop reaches it otherwise.
        match letters.get(i + 1) {
            Some(&d) if perpendicular(c, d) && !matches!(d, 's' | 'v') => {
                out.push(Selector::DiagonalPair(c, d));
                i += 2;
            }
            _ => {
                out.push(Selector::DiagonalSingle(c));
                i += 1;
            }
        }
    }
    Ok(out)
}

fn eightfold(letters: &[char]) -> Result<Vec<Selector>, DirError> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < letters.len() {
        let c = letters[i];
        if c == 'h' {
            return Err(DirError::new(
                i,
                "found 'h', expected f b l r v or s",
                Some(H_ONLY_OBLIQUE),
            ));
        }
        match letters.get(i + 1) {
            Some(&d) if perpendicular(c, d) => {
                out.push(Selector::DiagonalPair(c, d));
                i += 2;
            }
            _ => {
                out.push(Selector::Orthogonal(c));
                i += 1;
            }
        }
    }
    Ok(out)
}

fn oblique(letters: &[char]) -> Result<Vec<Selector>, DirError> {
    const H_HINT: &str =
        "h follows a direction letter (fh = the forward half) or forms hr or hl on its own";
    if letters[0] == 'h' {
        return match letters.get(1) {
            Some('r') | Some('l') if letters.len() == 2 => {
                Ok(vec![Selector::Chiral(letters[1] == 'r')])
            }
            Some('r') | Some('l') => Err(DirError::new(
                2,
                format!(
                    "found '{}' after 'h{}', expected nothing: hr and hl may not be mixed with other letters",
                    letters[2], letters[1]
                ),
                Some(H_HINT),
            )),
            Some(&c) => Err(DirError::new(
                1,
                format!("found '{c}' after a leading 'h', expected r or l (hr, hl)"),
                Some(H_HINT),
            )),
            None => Err(DirError::new(
                0,
                "found 'h' alone, expected hr, hl or a direction letter before h",
                Some(H_HINT),
            )),
        };
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < letters.len() {
        let c = letters[i];
        if c == 'h' {
            return Err(DirError::new(
                i,
                "found 'h' that does not follow a single direction letter, expected f b l r v or s",
                Some(H_HINT),
            ));
        }
        match letters.get(i + 1) {
            Some('h') => {
                out.push(Selector::Wide(c));
                i += 2;
            }
            Some(&d) if d == c || perpendicular(c, d) => {
                out.push(Selector::WideNarrow(c, d));
                i += 2;
            }
            _ => {
                out.push(Selector::Narrow(c));
                i += 1;
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Squares reached from e4 by the given vectors, sorted, space-separated.
    fn squares(vectors: &[(i8, i8)]) -> String {
        let mut names: Vec<String> = vectors
            .iter()
            .map(|&(dx, dy)| {
                let file = (b'e' as i8 + dx) as u8 as char;
                let rank = 4 + dy;
                format!("{file}{rank}")
            })
            .collect();
        names.sort();
        names.join(" ")
    }

    fn sq(atom: Atom, dirs: &str) -> String {
        squares(&directions(atom, dirs).unwrap())
    }

    fn err(atom: Atom, dirs: &str) -> DirError {
        directions(atom, dirs).unwrap_err()
    }

    #[test]
    fn classes() {
        for a in [Atom::W, Atom::D, Atom::H, Atom::R] {
            assert_eq!(AtomClass::of(a), AtomClass::Orthogonal);
        }
        for a in [Atom::F, Atom::A, Atom::G, Atom::B] {
            assert_eq!(AtomClass::of(a), AtomClass::Diagonal);
        }
        for a in [Atom::N, Atom::C, Atom::Z] {
            assert_eq!(AtomClass::of(a), AtomClass::Oblique);
        }
        for a in [Atom::K, Atom::Q] {
            assert_eq!(AtomClass::of(a), AtomClass::Eightfold);
        }
    }

    #[test]
    fn empty_means_all() {
        assert_eq!(
            directions(Atom::W, "").unwrap(),
            vec![(0, 1), (1, 0), (0, -1), (-1, 0)]
        );
        assert_eq!(
            directions(Atom::D, "").unwrap(),
            vec![(0, 2), (2, 0), (0, -2), (-2, 0)]
        );
        assert_eq!(
            directions(Atom::R, "").unwrap(),
            directions(Atom::W, "").unwrap()
        );
        assert_eq!(
            directions(Atom::B, "").unwrap(),
            directions(Atom::F, "").unwrap()
        );
        assert_eq!(
            directions(Atom::Q, "").unwrap(),
            directions(Atom::K, "").unwrap()
        );
        assert_eq!(directions(Atom::K, "").unwrap().len(), 8);
        assert_eq!(sq(Atom::N, ""), "c3 c5 d2 d6 f2 f6 g3 g5");
        assert_eq!(sq(Atom::G, ""), "b1 b7 h1 h7");
        assert_eq!(directions(Atom::C, "").unwrap().len(), 8);
        assert!(directions(Atom::Z, "").unwrap().contains(&(3, 2)));
    }

    #[test]
    fn orthogonal_letters_add_up() {
        assert_eq!(directions(Atom::W, "f").unwrap(), vec![(0, 1)]);
        assert_eq!(directions(Atom::W, "b").unwrap(), vec![(0, -1)]);
        assert_eq!(directions(Atom::W, "l").unwrap(), vec![(-1, 0)]);
        assert_eq!(directions(Atom::W, "r").unwrap(), vec![(1, 0)]);
        assert_eq!(directions(Atom::W, "v").unwrap(), vec![(0, 1), (0, -1)]);
        assert_eq!(directions(Atom::W, "s").unwrap(), vec![(1, 0), (-1, 0)]);
        assert_eq!(
            directions(Atom::W, "fs").unwrap(),
            vec![(0, 1), (1, 0), (-1, 0)]
        );
        // No pairing on orthogonal atoms: fr is forward plus right.
        assert_eq!(directions(Atom::W, "fr").unwrap(), vec![(0, 1), (1, 0)]);
        assert_eq!(directions(Atom::D, "fr").unwrap(), vec![(0, 2), (2, 0)]);
        assert_eq!(directions(Atom::H, "b").unwrap(), vec![(0, -3)]);
        assert_eq!(directions(Atom::R, "vs").unwrap().len(), 4);
        // Deduplicated.
        assert_eq!(directions(Atom::W, "ffv").unwrap(), vec![(0, 1), (0, -1)]);
    }

    #[test]
    fn orthogonal_rejects_h() {
        let e = err(Atom::W, "fh");
        assert_eq!(e.index, 1);
        assert!(e.message.contains("'h'"));
        assert_eq!(err(Atom::R, "h").index, 0);
    }

    #[test]
    fn diagonal_single_letters_are_pairs() {
        assert_eq!(directions(Atom::F, "f").unwrap(), vec![(1, 1), (-1, 1)]);
        assert_eq!(directions(Atom::F, "b").unwrap(), vec![(1, -1), (-1, -1)]);
        assert_eq!(directions(Atom::F, "l").unwrap(), vec![(-1, -1), (-1, 1)]);
        assert_eq!(directions(Atom::F, "r").unwrap(), vec![(1, 1), (1, -1)]);
        assert_eq!(directions(Atom::A, "f").unwrap(), vec![(2, 2), (-2, 2)]);
    }

    #[test]
    fn diagonal_perpendicular_letters_join() {
        assert_eq!(directions(Atom::F, "fl").unwrap(), vec![(-1, 1)]);
        assert_eq!(directions(Atom::F, "lf").unwrap(), vec![(-1, 1)]);
        assert_eq!(directions(Atom::F, "fr").unwrap(), vec![(1, 1)]);
        assert_eq!(directions(Atom::F, "rb").unwrap(), vec![(1, -1)]);
        assert_eq!(directions(Atom::F, "frbl").unwrap(), vec![(1, 1), (-1, -1)]);
        assert_eq!(directions(Atom::F, "flbr").unwrap(), vec![(1, -1), (-1, 1)]);
        assert_eq!(directions(Atom::B, "fr").unwrap(), vec![(1, 1)]);
        assert_eq!(directions(Atom::G, "bl").unwrap(), vec![(-3, -3)]);
        // Same letters do not join: ff is just f.
        assert_eq!(directions(Atom::F, "ff").unwrap(), vec![(1, 1), (-1, 1)]);
        // f and b are not perpendicular: they add up.
        assert_eq!(directions(Atom::F, "fb").unwrap().len(), 4);
    }

    #[test]
    fn diagonal_rejects_s_v_h() {
        let e = err(Atom::F, "s");
        assert_eq!(e.index, 0);
        assert!(e.hint.unwrap().contains("fr"));
        assert_eq!(err(Atom::B, "fs").index, 1);
        assert_eq!(err(Atom::A, "frv").index, 2);
        assert_eq!(err(Atom::G, "v").index, 0);
        assert_eq!(err(Atom::F, "fh").index, 1);
    }

    #[test]
    fn eightfold() {
        assert_eq!(directions(Atom::K, "f").unwrap(), vec![(0, 1)]);
        assert_eq!(directions(Atom::K, "fr").unwrap(), vec![(1, 1)]);
        assert_eq!(directions(Atom::K, "rf").unwrap(), vec![(1, 1)]);
        assert_eq!(directions(Atom::K, "fs").unwrap(), vec![(1, 1), (-1, 1)]);
        assert_eq!(directions(Atom::K, "v").unwrap(), vec![(0, 1), (0, -1)]);
        assert_eq!(directions(Atom::K, "s").unwrap(), vec![(1, 0), (-1, 0)]);
        assert_eq!(directions(Atom::K, "b").unwrap(), vec![(0, -1)]);
        assert_eq!(directions(Atom::K, "vl").unwrap(), vec![(-1, -1), (-1, 1)]);
        // v and s are not perpendicular: orthogonal both ways.
        assert_eq!(directions(Atom::K, "vs").unwrap().len(), 4);
        assert_eq!(directions(Atom::Q, "frbl").unwrap(), vec![(1, 1), (-1, -1)]);
        // Later-leg reading: fs = both 45-degree turns, s = both 90-degree turns.
        assert_eq!(
            directions(Atom::K, "fsb").unwrap(),
            vec![(1, 1), (0, -1), (-1, 1)]
        );
        let e = err(Atom::K, "fh");
        assert_eq!(e.index, 1);
        assert_eq!(err(Atom::Q, "h").index, 0);
    }

    #[test]
    fn oblique_lone_letters_are_narrow_pairs() {
        assert_eq!(sq(Atom::N, "f"), "d6 f6");
        assert_eq!(sq(Atom::N, "b"), "d2 f2");
        assert_eq!(sq(Atom::N, "l"), "c3 c5");
        assert_eq!(sq(Atom::N, "r"), "g3 g5");
        assert_eq!(sq(Atom::N, "s"), "c3 c5 g3 g5");
        assert_eq!(sq(Atom::N, "v"), "d2 d6 f2 f6");
        assert_eq!(directions(Atom::C, "f").unwrap(), vec![(1, 3), (-1, 3)]);
        assert_eq!(directions(Atom::Z, "r").unwrap(), vec![(3, 2), (3, -2)]);
    }

    #[test]
    fn oblique_pairs() {
        assert_eq!(sq(Atom::N, "ff"), "d6 f6");
        assert_eq!(sq(Atom::N, "fs"), "c5 g5");
        assert_eq!(sq(Atom::N, "rf"), "f6");
        assert_eq!(sq(Atom::N, "fr"), "g5");
        assert_eq!(sq(Atom::N, "lf"), "d6");
        assert_eq!(sq(Atom::N, "rr"), "g3 g5");
        assert_eq!(sq(Atom::N, "ffrr"), "d6 f6 g3 g5");
        assert_eq!(sq(Atom::N, "bl"), "c3");
        assert_eq!(sq(Atom::N, "lb"), "d2");
        assert_eq!(sq(Atom::N, "bs"), "c3 g3");
        // f and v are neither equal nor perpendicular: they add up.
        assert_eq!(sq(Atom::N, "fv"), "d2 d6 f2 f6");
        // l and s neither: narrow left plus narrow sideways.
        assert_eq!(sq(Atom::N, "ls"), "c3 c5 g3 g5");
        assert_eq!(directions(Atom::C, "fs").unwrap(), vec![(3, 1), (-3, 1)]);
        assert_eq!(directions(Atom::Z, "rf").unwrap(), vec![(2, 3)]);
    }

    #[test]
    fn oblique_h_forms() {
        assert_eq!(sq(Atom::N, "fh"), "c5 d6 f6 g5");
        assert_eq!(sq(Atom::N, "rh"), "f2 f6 g3 g5");
        assert_eq!(sq(Atom::N, "lh"), "c3 c5 d2 d6");
        assert_eq!(sq(Atom::N, "bh"), "c3 d2 f2 g3");
        assert_eq!(sq(Atom::N, "fhrr"), "c5 d6 f6 g3 g5");
        assert_eq!(sq(Atom::N, "hr"), "c5 d2 f6 g3");
        assert_eq!(sq(Atom::N, "hl"), "c3 d6 f2 g5");
        assert_eq!(
            directions(Atom::Z, "hr").unwrap(),
            vec![(2, 3), (3, -2), (-2, -3), (-3, 2)]
        );
    }

    #[test]
    fn oblique_h_errors() {
        // hr and hl stand alone.
        let e = err(Atom::N, "hrf");
        assert_eq!(e.index, 2);
        assert!(e.message.contains("mixed"));
        assert_eq!(err(Atom::N, "hf").index, 1);
        assert_eq!(err(Atom::N, "h").index, 0);
        // h not after a lone letter.
        assert_eq!(err(Atom::N, "ffh").index, 2);
        assert_eq!(err(Atom::N, "fhh").index, 2);
        // A letter after an h form starts afresh: fhr = forward half plus narrow right.
        assert_eq!(sq(Atom::N, "fhr"), "c5 d6 f6 g3 g5");
    }

    #[test]
    fn unknown_letters() {
        let e = err(Atom::W, "fx");
        assert_eq!(e.index, 1);
        assert!(e.message.contains("'x'"));
    }
}

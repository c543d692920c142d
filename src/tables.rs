//! Move tables: every piece's XBetza compiled, once, into per-square entries.
//!
//! For each piece kind, colour and origin square the compiler lists [`Entry`]s. An entry is one
//! *walk*: some squares whose state is fixed ([`Cond`]: must be empty, must be occupied), then
//! either a single destination (a leap) or a ray of destinations (a slide, a hop over one screen,
//! a grasshopper jump). Multi-leg moves (`FyafsF`, `NmpafsyafW`) become conditions on their bend
//! squares followed by a ray. The generic move generator reads only these tables; rules add
//! moves of their own through their hooks.
//!
//! For attack tests the same walks are turned round into [`Probe`]s: from a target square, which
//! squares could hold an attacker of which kinds, and what must lie between.

use crate::geometry::{Color, Geometry, Square};
use crate::moves::{MAX_KINDS, SquareSet, code};
use crate::notation::{Atom, Betza, Component, Range, dirs};

/// Entry may go to an empty square.
pub const MOVE: u16 = 1;
/// Entry may capture an enemy piece.
pub const CAPTURE: u16 = 2;
/// Entry may capture en passant (move to the en-passant square).
pub const EP: u16 = 4;
/// Ray: the piece must hop exactly one screen; destinations are beyond it.
pub const HOP: u16 = 8;
/// Ray: grasshopper; the only destination is just beyond the screen.
pub const GRASS: u16 = 16;
/// The move leaves en-passant rights on `Entry::ep` (a `nn` / `in` step).
pub const MAKES_EP: u16 = 32;
/// A move by this entry into the promotion zone promotes.
pub const PROMOTES: u16 = 64;
/// A single-destination entry (a leap); otherwise a ray.
pub const LEAP: u16 = 128;
/// A leap that takes a piece on a square it passes ([`Entry::ep`]) and goes on: a locust
/// capture (`caK`, `fcafmF`). The destination may be the origin (`cabK`). Also a walk back to
/// its origin through an empty square, taking nothing (`mabK`: the Chu Lion's pass).
pub const LOCUST: u16 = 256;

/// A condition on one square of a walk.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cond {
    /// The square tested.
    pub sq: Square,
    /// true: must be occupied; false: must be empty.
    pub occupied: bool,
}

/// One walk from an origin square.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// Destination squares in [`Tables::squares`]: one for a leap, the ray for a rider.
    pub sq_start: u32,
    /// How many destination squares.
    pub sq_len: u16,
    /// Conditions in [`Tables::conds`].
    pub cond_start: u32,
    /// How many conditions.
    pub cond_len: u16,
    /// The marks ([`MOVE`], [`CAPTURE`], [`LEAP`]...) as stored; read them through
    /// [`Entry::shape`] and [`Entry::modes`], change them through the typed edits.
    pub(crate) flags: u16,
    /// The first square a `MAKES_EP` move passes (next to its origin). It leaves rights on
    /// every square it passes: for a straight step, this one and the next ones on the line up
    /// to the destination (`position::EpSquares::passed`). For a [`LOCUST`] leap: the square
    /// it takes a piece on before it goes on ([`Entry::locust`]).
    pub ep: Square,
    /// Index of the notation component this entry came from.
    pub component: u8,
    /// Ray step in board coordinates (file, rank), colour applied.
    pub dx: i8,
    /// See `dx`.
    pub dy: i8,
    /// Where the ray starts relative to the origin: (0, 0) for a plain rider, the bend square
    /// for a bent rider.
    pub bx: i8,
    /// See `bx`.
    pub by: i8,
}

/// Where [`Entry`]'s flags keep the index of its piece's [`KindLimits`] (the high bits).
const LIMITS_SHIFT: u16 = 9;

/// The kinds a piece may not use as a screen or take (bit = kind): the Janggi Cannon hops over
/// no Cannon and takes none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KindLimits {
    /// Kinds it may not hop over.
    pub screens_not: u64,
    /// Kinds it may not take.
    pub takes_not: u64,
}

/// Which attack probe family a probe belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProbeKind {
    /// `origin` attacks if it holds an attacker and the conditions hold.
    Leap,
    /// Scan `squares` outward from the target; the first piece met attacks if it is one.
    Slide,
    /// As Slide, but the attacker is the first piece after exactly one screen.
    Hop,
    /// The first square must be occupied (the screen); the next piece beyond it attacks.
    Grass,
    /// Hop or Grass (`grass`), for attackers that may not hop over some kinds: the screen's
    /// kind must not be among the [`KindLimits::screens_not`] of `Tables::limits[limits]`.
    LimitedHop {
        /// The index into [`Tables::limits`].
        limits: u8,
        /// A grasshopper (the attacker just beyond the screen) rather than a hopper.
        grass: bool,
    },
    /// Bent rider: scan `squares` (bend candidates) while empty; each has an origin in
    /// `origins`.
    Bent {
        /// The bend square may hold anything.
        bend_any: bool,
    },
    /// A locust leap from `origin` ([`LOCUST`]) that takes a piece on `mid` and goes on to
    /// `to`. `at_mid`: the target is `mid` (the piece there is taken on the way; the leap
    /// needs `to` free: empty where it may move there, an enemy of the attacker where it may
    /// capture, or the origin itself); otherwise the target is `to`, and `mid` must hold a
    /// piece of the target's side.
    Locust {
        /// The square taken on the way.
        mid: Square,
        /// Where the leap ends.
        to: Square,
        /// Whether the target is `mid` rather than `to`.
        at_mid: bool,
        /// The leap may end on an empty square.
        quiet: bool,
        /// The leap may end by taking a piece.
        capture: bool,
    },
}

/// A reverse walk from a target square, for attack tests.
#[derive(Clone, Copy, Debug)]
pub struct Probe {
    /// The probe family.
    pub kind: ProbeKind,
    /// Attacker codes (bit = code).
    pub mask: u128,
    /// Leap: the origin. Otherwise unused.
    pub origin: Square,
    /// Scan squares in [`Tables::squares`] (rays), or unused.
    pub sq_start: u32,
    /// How many scan squares.
    pub sq_len: u16,
    /// Bent: origins parallel to the scan squares in [`Tables::squares`] (see `valid`).
    pub org_start: u32,
    /// Extra conditions (relative to the origin, already resolved) in [`Tables::conds`].
    pub cond_start: u32,
    /// How many conditions.
    pub cond_len: u16,
}

/// All compiled movement of a variant.
#[derive(Clone, Debug, Default)]
pub struct Tables {
    /// Number of squares of the board the tables were built for.
    pub size: usize,
    /// Index by `slot(kind, color, sq)`: (first entry, count).
    pub index: Vec<(u32, u16)>,
    /// Every walk, grouped by `index`.
    pub entries: Vec<Entry>,
    /// Destination and scan squares that entries and probes point into.
    pub squares: Vec<Square>,
    /// Parallel to `squares`: false where a bent probe's origin falls off the board.
    pub valid: Vec<bool>,
    /// Conditions that entries and probes point into.
    pub conds: Vec<Cond>,
    /// Probes by `color * size + target`: (first probe, count). Probes for attackers of `color`.
    pub probe_index: Vec<(u32, u16)>,
    /// Every probe, grouped by `probe_index`.
    pub probes: Vec<Probe>,
    /// By `color * size + target`: the squares whose emptying can let a piece of `color`
    /// attack `target` (the squares with a non-empty `probes_vacated` list).
    pub vacate_sets: Vec<crate::moves::SquareSet>,
    /// The same for filling a square (hopper screens, must-be-occupied conditions).
    pub fill_sets: Vec<crate::moves::SquareSet>,
    /// By `(color * size + target) * size + square`: start in `vacate` of the probes (indices
    /// within `probes_at(color, target)`) that emptying `square` can turn into an attack.
    pub vacate_index: Vec<u32>,
    /// The probe lists `vacate_index` points into.
    pub vacate: Vec<u16>,
    /// The same for filling `square`.
    pub fill_index: Vec<u32>,
    /// The probe lists `fill_index` points into.
    pub fill: Vec<u16>,
    /// The kinds pieces may not hop over or take, by [`Entry::limits`] and [`ProbeKind::LimitedHop`]
    /// (index 0: no limit).
    pub limits: Vec<KindLimits>,
    /// The attack test's compact form of the probes ([`Tables::attack_probes`]), by `color *
    /// size + target`: (first, end) in `plain_leaps`, then (first, end) in `other_probes`.
    pub attack_index: Vec<[u32; 4]>,
    /// The plain leap probes (no condition): an attacker's origin and its codes (bit = code).
    pub plain_leaps: Vec<(u128, Square)>,
    /// The other probes, as indices within [`Tables::probes_at`].
    pub other_probes: Vec<u16>,
}

/// A compile error for one piece's notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileError {
    /// The component at fault, from 0.
    pub component: usize,
    /// What is wrong with it.
    pub message: String,
}

/// The most legs one component of a movement may have (`mafsW` has two).
pub const MAX_LEGS: usize = 4;
/// The most components one movement may have, as written (`KNAD` has four).
pub const MAX_COMPONENTS: usize = 64;
/// The most paths one movement may expand into, over its components once each: a walk per
/// direction and bend of every leg, counting the paths still open after each leg.
pub const MAX_PATHS: usize = 1024;
/// The most entries the move tables of one variant may hold (every walk laid from every square,
/// for both sides).
pub const MAX_ENTRIES: usize = 2_000_000;

/// The paths a movement expands into, if it stays within the limits on legs, components and
/// paths; else a message that names the limit broken and its value. A component that does not
/// compile for another reason counts no path here and is reported when the tables are built.
pub fn check_budget(b: &Betza) -> Result<usize, String> {
    if b.components.len() > MAX_COMPONENTS {
        return Err(format!(
            "too many components: {} written, at most {MAX_COMPONENTS} per movement",
            b.components.len()
        ));
    }
    if let Some(c) = b.components.iter().find(|c| c.legs.len() > MAX_LEGS) {
        return Err(format!(
            "too many legs: `{c}` has {}, at most {MAX_LEGS} per move",
            c.legs.len()
        ));
    }
    let mut paths = 0;
    for c in distinct(&b.components) {
        match component_walks(c) {
            Ok(w) => paths += w.len(),
            Err(Unwalkable::Notation(_)) => {}
            Err(Unwalkable::Paths) => paths = MAX_PATHS + 1,
        }
        if paths > MAX_PATHS {
            return Err(paths_message(Some(c)));
        }
    }
    Ok(paths)
}

/// Whether a movement is the same turned left to right: every walk it expands into has its
/// mirror image (files reversed) among them. `None` where a component does not compile or
/// expands into too many paths (reported elsewhere).
pub fn mirror_symmetric(b: &Betza) -> Option<bool> {
    type Key = (
        Vec<(i32, i32, bool)>,
        (i32, i32),
        (i32, i32),
        Option<u32>,
        bool,
        u16,
        Option<(i32, i32)>,
        Option<bool>,
        Option<(i32, i32)>,
    );
    let key = |w: &Walk, m: i32| -> Key {
        let mut conds: Vec<(i32, i32, bool)> =
            w.conds.iter().map(|&(x, y, e)| (m * x, y, e)).collect();
        conds.sort_unstable();
        (
            conds,
            (m * w.start.0, w.start.1),
            (m * w.step.0, w.step.1),
            w.range,
            w.leap,
            w.flags,
            w.ep.map(|(x, y)| (m * x, y)),
            w.bend_empty,
            w.locust.map(|(x, y)| (m * x, y)),
        )
    };
    let mut walks = Vec::new();
    for c in distinct(&b.components) {
        walks.extend(component_walks(c).ok()?);
    }
    let set: std::collections::HashSet<Key> = walks.iter().map(|w| key(w, 1)).collect();
    Some(walks.iter().all(|w| set.contains(&key(w, -1))))
}

/// The message for a movement over [`MAX_PATHS`], naming the component that crossed it.
fn paths_message(c: Option<&Component>) -> String {
    let at = c.map(|c| format!(" (passed at `{c}`)")).unwrap_or_default();
    format!("too many paths: the movement expands into more than {MAX_PATHS} paths{at}")
}

/// The components of a movement with each written once, in the order first written: equal
/// components move alike, so the passes that compare components pairwise see each once.
fn distinct(components: &[Component]) -> Vec<&Component> {
    let mut seen = std::collections::HashSet::new();
    components.iter().filter(|c| seen.insert(*c)).collect()
}

/// The 8 directions in 45° steps clockwise from forward, as board offsets.
const DIR8: [(i32, i32); 8] = {
    let mut d = [(0, 0); 8];
    let mut i = 0;
    while i < 8 {
        d[i] = (dirs::KING_DIRS[i].0 as i32, dirs::KING_DIRS[i].1 as i32);
        i += 1;
    }
    d
};

fn dir_index(dx: i32, dy: i32) -> Option<usize> {
    DIR8.iter().position(|&d| d == (dx.signum(), dy.signum()))
}

/// How zones change one kind's moves ([`Tables::build_zoned`]): other movements where it
/// stands in a zone (the first zone that holds it wins), and a zone it never leaves, each as
/// squares by side ([`Color::index`]).
#[derive(Clone, Debug, Default)]
pub struct Zoning {
    /// (the zone's squares, the movement there).
    pub alt: Vec<([SquareSet; 2], Betza)>,
    /// The squares the piece never leaves.
    pub confine: Option<[SquareSet; 2]>,
    /// (the zone's squares, a movement the piece has besides where it stands there, every
    /// square of which stays in the zone).
    pub within: Vec<([SquareSet; 2], Betza)>,
}

/// A walk in board coordinates before it is laid into the tables.
#[derive(Clone, Debug)]
struct Walk {
    conds: Vec<(i32, i32, bool)>,
    /// Start of the final leg, relative to the origin.
    start: (i32, i32),
    /// Step of the final leg.
    step: (i32, i32),
    /// None = unlimited.
    range: Option<u32>,
    leap: bool,
    flags: u16,
    ep: Option<(i32, i32)>,
    /// Bend condition of a multi-leg rider: Some(true) = must be empty, Some(false) = any.
    bend_empty: Option<bool>,
    /// The square a locust leap takes a piece on before it goes on (a capture on a
    /// non-final leg).
    locust: Option<(i32, i32)>,
}

/// One move a walk allows, as offsets from the piece: whether it is an initial move, its
/// mode flags, the destination, the squares that must be empty and those that must be
/// occupied, and the en-passant victim's square. Hopping walks keep their raw form (`hop`).
type Reach = (
    bool,
    u16,
    (i32, i32),
    Vec<(i32, i32)>,
    Vec<(i32, i32)>,
    Option<(i32, i32)>,
);

/// The flags that say what a move may do where it lands (not how it is stored).
const MODES: u16 = MOVE | CAPTURE | EP | MAKES_EP | PROMOTES;

/// What a component allows, square by square (rays expanded to 15 squares away, with the squares
/// passed as conditions), so that notation written two ways compares equal. `None` where it
/// does not compile, hops or takes on the way (a hopper's or a locust's meaning is not a list
/// of conditions).
fn reach_set(c: &Component) -> Option<Vec<Reach>> {
    let initial = c.legs[0].mods.initial;
    let mut out = Vec::new();
    for w in component_walks(c).ok()? {
        if w.flags & (HOP | GRASS) != 0 || w.locust.is_some() {
            return None;
        }
        let mut empty: Vec<(i32, i32)> = Vec::new();
        let mut occupied: Vec<(i32, i32)> = Vec::new();
        for &(x, y, occ) in &w.conds {
            if occ {
                occupied.push((x, y));
            } else {
                empty.push((x, y));
            }
        }
        if w.leap {
            let (mut e, mut o) = (empty.clone(), occupied.clone());
            e.sort();
            o.sort();
            out.push((initial, w.flags & MODES, w.step, e, o, w.ep));
            continue;
        }
        if w.start != (0, 0) && w.bend_empty == Some(true) {
            empty.push(w.start);
        }
        let mut cur = w.start;
        for _ in 0..w.range.unwrap_or(u32::MAX) {
            cur = (cur.0 + w.step.0, cur.1 + w.step.1);
            if cur.0.abs().max(cur.1.abs()) > 15 {
                break;
            }
            let (mut e, mut o) = (empty.clone(), occupied.clone());
            e.sort();
            e.dedup();
            o.sort();
            out.push((initial, w.flags & MODES, cur, e, o, w.ep));
            empty.push(cur);
        }
    }
    // The piece stands on its own square while its moves are found: a move that needs that
    // square empty, or lands there, never happens.
    out.retain(|r| r.2 != (0, 0) && !r.3.contains(&(0, 0)));
    out.sort();
    out.dedup();
    Some(out)
}

/// Warnings for notation that compiles to something simpler than it is written: a piece
/// whose moves are exactly a plain atom's written otherwise (`FyafvF` is a Bishop), and a
/// component that adds no move to the others (`fW` beside `W`).
pub fn notation_warnings(b: &Betza) -> Vec<String> {
    let comps = distinct(&b.components);
    let sets: Vec<Option<Vec<Reach>>> = comps.iter().map(|c| reach_set(c)).collect();
    let mut out = Vec::new();
    if sets.iter().any(|s| s.is_none()) || b.components.is_empty() {
        return out;
    }
    let sets: Vec<Vec<Reach>> = sets.into_iter().flatten().collect();
    let mut all: Vec<Reach> = sets.iter().flatten().cloned().collect();
    all.sort();
    all.dedup();
    let written = b.to_string();
    for atom in Atom::ALL {
        let plain = Component {
            legs: vec![crate::notation::Leg::default()],
            atom,
            range: Range::Default,
        };
        let name = plain.to_string();
        if name != written && reach_set(&plain).as_ref() == Some(&all) {
            out.push(format!(
                "`{written}` moves exactly like `{name}`: write `{name}`, or check the notation"
            ));
        }
    }
    let mut times = std::collections::HashMap::new();
    for c in &b.components {
        *times.entry(c).or_insert(0) += 1;
    }
    // How many components reach each move (each set lists a move once).
    let mut reached = std::collections::HashMap::new();
    for r in sets.iter().flatten() {
        *reached.entry(r).or_insert(0) += 1;
    }
    for (c, mine) in comps.iter().zip(&sets) {
        if times[c] > 1 {
            out.push(format!(
                "`{c}` is written {} times: once is enough",
                times[c]
            ));
        }
        if sets.len() > 1 && !mine.is_empty() && mine.iter().all(|r| reached[r] > 1) {
            out.push(format!(
                "`{c}` adds no move to the rest of `{written}`: it can be left out"
            ));
        }
    }
    out
}

/// Length multiplier and whether the atom is orthogonal/diagonal (rotatable).
fn atom_len(atom: Atom) -> Option<i32> {
    match atom {
        Atom::W | Atom::F | Atom::R | Atom::B | Atom::K | Atom::Q => Some(1),
        Atom::D | Atom::A => Some(2),
        Atom::H | Atom::G => Some(3),
        Atom::N | Atom::C | Atom::Z => None,
    }
}

fn range_of(atom: Atom, range: Range) -> Option<u32> {
    match range {
        Range::Default => {
            if atom.is_rider_shorthand() {
                None
            } else {
                Some(1)
            }
        }
        Range::Limited(n) => Some(n as u32),
        Range::Unlimited => None,
    }
}

fn toggle(range: Option<u32>) -> Option<u32> {
    match range {
        Some(1) => None,
        _ => Some(1),
    }
}

/// Why a component gives no walks: its notation cannot be compiled, or it expands into more
/// than [`MAX_PATHS`] paths (counting the paths still open after each leg).
#[derive(Debug)]
enum Unwalkable {
    Notation(String),
    Paths,
}

impl From<String> for Unwalkable {
    fn from(m: String) -> Unwalkable {
        Unwalkable::Notation(m)
    }
}

impl From<&str> for Unwalkable {
    fn from(m: &str) -> Unwalkable {
        Unwalkable::Notation(m.to_string())
    }
}

/// Compiles one component into walks from White's point of view (Black negates the vectors).
#[expect(
    clippy::too_many_lines,
    reason = "a walk through the legs with one list of states; each leg's states feed the next"
)]
fn component_walks(c: &Component) -> Result<Vec<Walk>, Unwalkable> {
    let leg0 = &c.legs[0];
    let vecs = dirs::directions(c.atom, &leg0.dirs).map_err(|e| e.to_string())?;
    let range0 = range_of(c.atom, c.range);
    let final_flags = |m: &crate::notation::Mods| -> Result<u16, String> {
        if m.d || m.t || m.o {
            return Err("the modifiers d, t and o are not supported".into());
        }
        let mut f = 0;
        if m.m || (!m.c && !m.e) {
            f |= MOVE;
        }
        if m.c || (!m.m && !m.e) {
            f |= CAPTURE;
        }
        if m.e {
            f |= EP;
        }
        if m.p {
            f |= HOP;
        }
        if m.g {
            f |= GRASS;
        }
        Ok(f)
    };
    let mut out = Vec::new();
    if c.legs.len() == 1 {
        let m = &leg0.mods;
        let flags = final_flags(m)?;
        for &(dx, dy) in &vecs {
            let (dx, dy) = (dx as i32, dy as i32);
            let mut conds = Vec::new();
            let mut ep = None;
            let leap = range0 == Some(1);
            let mut start = (0, 0);
            if m.n > 0 {
                if !leap {
                    return Err("n (lame) applies to leaps, not to riders".into());
                }
                let path = lame_path(c.atom, dx, dy)?;
                for &(x, y) in &path {
                    conds.push((x, y, false));
                }
                if m.n >= 2 || m.initial {
                    ep = path.first().copied();
                }
            }
            if m.j > 0 {
                if leap {
                    if atom_len(c.atom) == Some(1) {
                        continue;
                    }
                    let (hx, hy) = (dx / 2, dy / 2);
                    conds.push((hx, hy, true));
                } else {
                    // Skip the first square of the slide, whatever stands there.
                    start = (dx, dy);
                }
            }
            if (m.p || m.g) && leap {
                return Err("p and g need a rider (use R, B, Q or a range)".into());
            }
            let mut f = flags;
            if leap {
                f |= LEAP;
            }
            if ep.is_some() {
                f |= MAKES_EP;
            }
            out.push(Walk {
                conds,
                start,
                step: (dx, dy),
                range: if leap { Some(1) } else { range0 },
                leap,
                flags: f,
                ep,
                bend_empty: if start != (0, 0) { Some(false) } else { None },
                locust: None,
            });
        }
        return Ok(out);
    }
    // Multi-leg: the atom must be orthogonal, diagonal or eight-fold.
    let len = atom_len(c.atom).ok_or_else(|| {
        "oblique atoms (N, C, Z) cannot take further legs; build the path from W and F legs"
            .to_string()
    })?;
    let eightfold = c.atom.is_eightfold();
    // States: (position, direction index, range, conds).
    struct State {
        pos: (i32, i32),
        dir: usize,
        range: Option<u32>,
        conds: Vec<(i32, i32, bool)>,
        bend_empty: Option<bool>,
        locust: Option<(i32, i32)>,
        /// Where the first leg stopped.
        first: Option<(i32, i32)>,
    }
    let mut states: Vec<State> = Vec::new();
    let nlegs = c.legs.len();
    for (li, leg) in c.legs.iter().enumerate() {
        let last = li + 1 == nlegs;
        let m = &leg.mods;
        // Directions of this leg: absolute for leg 0, relative turns otherwise.
        let mut next: Vec<State> = Vec::new();
        // (step, direction index, range, the state it leaves from)
        type LegMove<'s> = ((i32, i32), usize, Option<u32>, &'s State);
        let mut moves: Vec<LegMove> = Vec::new();
        let root = State {
            pos: (0, 0),
            dir: 0,
            range: range0,
            conds: vec![],
            bend_empty: None,
            locust: None,
            first: None,
        };
        if li == 0 {
            for &(dx, dy) in &vecs {
                let d = dir_index(dx as i32, dy as i32).ok_or("bad direction")?;
                moves.push(((dx as i32, dy as i32), d, range0, &root));
            }
        } else {
            let turns: Vec<usize> = if leg.dirs.is_empty() {
                if eightfold {
                    vec![0, 1, 2, 3, 5, 6, 7]
                } else {
                    vec![0, 2, 6]
                }
            } else {
                dirs::directions(Atom::K, &leg.dirs)
                    .map_err(|e| e.to_string())?
                    .iter()
                    .filter_map(|&(x, y)| dir_index(x as i32, y as i32))
                    .collect()
            };
            for s in &states {
                for &t in &turns {
                    let d = (s.dir + t) % 8;
                    let (ux, uy) = DIR8[d];
                    moves.push(((ux * len, uy * len), d, s.range, s));
                }
            }
        }
        for (v, d, range, st) in moves {
            if last {
                let flags = final_flags(m)?;
                if m.n > 0 || m.j > 0 {
                    return Err(
                        "n and j are not supported on the last leg of a multi-leg move".into(),
                    );
                }
                let leap = range == Some(1);
                let dest = (st.pos.0 + v.0, st.pos.1 + v.1);
                if st.locust.is_some() && (!leap || m.p || m.g || m.e) {
                    return Err(
                        "after a capture on an earlier leg (a locust move), the last leg \
                         must be one step or leap that moves or captures (no slide, p, g or e)"
                            .into(),
                    );
                }
                if st.locust == Some(dest) {
                    return Err("a locust move may not end on the square it captured on: \
                         write the plain capture instead"
                        .into());
                }
                if leap {
                    // A path that comes back to its own destination: the destination's state
                    // is decided by the final leg's mode, not by the earlier condition.
                    let mut conds = st.conds.clone();
                    conds.retain(|&(x, y, _)| (x, y) != dest);
                    if m.p || m.g {
                        return Err("p and g on the last leg need a rider".into());
                    }
                    // A walk that comes back to where it started without taking anything is a
                    // pass through the square of its first leg (the Chu Lion's `mabK`): it is
                    // laid like a locust leap through that square, which must be empty.
                    let through = match st.locust {
                        Some(sq) => Some(sq),
                        None if dest == (0, 0) => st.first,
                        None => None,
                    };
                    out.push(Walk {
                        conds,
                        start: (0, 0),
                        step: dest,
                        range: Some(1),
                        leap: true,
                        flags: flags | LEAP | if through.is_some() { LOCUST } else { 0 },
                        ep: None,
                        bend_empty: None,
                        locust: through,
                    });
                } else {
                    if m.p || m.g {
                        return Err("hoppers on a bent leg are not supported".into());
                    }
                    let bend_empty = st.bend_empty.ok_or(
                        "a sliding leg after a hop (p or g on the leg before) is not supported",
                    )?;
                    // Conditions other than the bend itself stay as walk conditions.
                    let conds: Vec<_> = st
                        .conds
                        .iter()
                        .copied()
                        .filter(|&(x, y, _)| (x, y) != st.pos)
                        .collect();
                    out.push(Walk {
                        conds,
                        start: st.pos,
                        step: v,
                        range,
                        leap: false,
                        flags,
                        ep: None,
                        bend_empty: Some(bend_empty),
                        locust: None,
                    });
                }
                if out.len() > MAX_PATHS {
                    return Err(Unwalkable::Paths);
                }
            } else {
                if m.d || m.e {
                    return Err("d and e on a non-final leg are not supported".into());
                }
                if m.c && (m.p || m.g || m.m) {
                    return Err(
                        "c on a non-final leg captures and goes on: it does not mix \
                         with m, p or g there (write two components)"
                            .into(),
                    );
                }
                if m.c && st.locust.is_some() {
                    return Err(
                        "at most one capture on a non-final leg (one locust capture a move)".into(),
                    );
                }
                // Condition on the square this leg reaches.
                let cond = if m.p && m.m {
                    None
                } else if m.p || m.g || m.c {
                    Some(true)
                } else {
                    Some(false)
                };
                let toggles = m.y || m.g;
                let max = range.unwrap_or(32);
                let mut conds = st.conds.clone();
                for k in 1..=max as i32 {
                    let pos = (st.pos.0 + v.0 * k, st.pos.1 + v.1 * k);
                    if pos.0.abs() > 16 || pos.1.abs() > 16 {
                        break;
                    }
                    let mut c2 = conds.clone();
                    if let Some(occ) = cond {
                        c2.push((pos.0, pos.1, occ));
                    }
                    let bend_empty = match cond {
                        Some(false) => Some(true),
                        None => Some(false),
                        Some(true) => None,
                    };
                    next.push(State {
                        pos,
                        dir: d,
                        range: if toggles { toggle(range) } else { range },
                        conds: c2,
                        bend_empty,
                        locust: if m.c { Some(pos) } else { st.locust },
                        first: st.first.or(Some(pos)),
                    });
                    if next.len() > MAX_PATHS {
                        return Err(Unwalkable::Paths);
                    }
                    // Squares passed by a rider leg must be empty.
                    conds.push((pos.0, pos.1, false));
                }
            }
        }
        states = next;
    }
    Ok(out)
}

/// The squares a lame leap must find empty.
fn lame_path(atom: Atom, dx: i32, dy: i32) -> Result<Vec<(i32, i32)>, String> {
    let (ax, ay) = (dx.abs(), dy.abs());
    if ax == 0 || ay == 0 || ax == ay {
        let n = ax.max(ay);
        let (sx, sy) = (dx.signum(), dy.signum());
        return Ok((1..n).map(|k| (sx * k, sy * k)).collect());
    }
    if atom == Atom::N {
        // The orthogonal neighbour on the long axis (the Xiangqi horse).
        return Ok(if ax > ay {
            vec![(dx.signum(), 0)]
        } else {
            vec![(0, dy.signum())]
        });
    }
    Err(format!(
        "n (lame) on {} is ambiguous; write the path with legs (e.g. mafsW)",
        atom.letter()
    ))
}

impl Tables {
    /// The slot of a piece kind, colour and square in [`Tables::index`].
    #[inline]
    pub fn slot(&self, kind: usize, color: Color, sq: Square) -> usize {
        (kind * 2 + color.index()) * self.size + sq.index()
    }

    /// Gives every entry of `kind` (both colours, every square) the limits `l`: the kinds it
    /// may not hop over or take. To be called before the probes are built.
    pub fn set_kind_limits(&mut self, kind: usize, l: KindLimits) {
        if l == KindLimits::default() {
            return;
        }
        if self.limits.is_empty() {
            self.limits.push(KindLimits::default());
        }
        let i = match self.limits.iter().position(|&x| x == l) {
            Some(i) => i,
            None => {
                self.limits.push(l);
                self.limits.len() - 1
            }
        };
        for color in [Color::White, Color::Black] {
            for sq in 0..self.size {
                let (s, n) = self.index[self.slot(kind, color, Square::from_index(sq))];
                for e in &mut self.entries[s as usize..s as usize + n as usize] {
                    e.flags = e.flags & ((1 << LIMITS_SHIFT) - 1) | (i as u16) << LIMITS_SHIFT;
                }
            }
        }
    }

    /// Whether the piece of `e` may hop over the piece `c` ([`KindLimits::screens_not`]).
    #[cold]
    fn may_screen(&self, e: &Entry, c: crate::moves::Code) -> bool {
        self.limits[e.limits() as usize].screens_not >> crate::moves::kind_of(c) & 1 == 0
    }

    /// Whether the piece of `e` may take the piece `c` ([`KindLimits::takes_not`]).
    #[cold]
    fn may_take(&self, e: &Entry, c: crate::moves::Code) -> bool {
        self.limits[e.limits() as usize].takes_not >> crate::moves::kind_of(c) & 1 == 0
    }

    /// The entries of a piece on a square.
    #[inline]
    pub fn entries_at(&self, kind: usize, color: Color, sq: Square) -> &[Entry] {
        let (s, n) = self.index[self.slot(kind, color, sq)];
        &self.entries[s as usize..s as usize + n as usize]
    }

    /// The destination squares of an entry.
    #[inline]
    pub fn squares_of(&self, e: &Entry) -> &[Square] {
        &self.squares[e.sq_start as usize..e.sq_start as usize + e.sq_len as usize]
    }

    /// The conditions of an entry.
    #[inline]
    pub fn conds_of(&self, e: &Entry) -> &[Cond] {
        &self.conds[e.cond_start as usize..e.cond_start as usize + e.cond_len as usize]
    }

    /// Whether the conditions `start..start + len` hold on `board` (each square empty or
    /// occupied as required).
    #[inline]
    pub fn conds_hold(&self, board: &[crate::moves::Code; 256], start: u32, len: u16) -> bool {
        self.conds[start as usize..start as usize + len as usize]
            .iter()
            .all(|c| (board[c.sq.index()] != crate::moves::EMPTY) == c.occupied)
    }

    /// Probes (indices within [`Tables::probes_at`]) for attackers of `color` on `target` that
    /// emptying `square` can turn into an attack.
    #[inline]
    pub fn probes_vacated(&self, color: Color, target: Square, square: Square) -> &[u16] {
        Self::csr(
            &self.vacate_index,
            &self.vacate,
            self.csr_slot(color, target, square),
        )
    }

    /// The same for filling `square`.
    #[inline]
    pub fn probes_filled(&self, color: Color, target: Square, square: Square) -> &[u16] {
        Self::csr(
            &self.fill_index,
            &self.fill,
            self.csr_slot(color, target, square),
        )
    }

    #[inline]
    fn csr_slot(&self, color: Color, target: Square, square: Square) -> usize {
        (color.index() * self.size + target.index()) * self.size + square.index()
    }

    #[inline]
    fn csr<'a>(index: &[u32], list: &'a [u16], i: usize) -> &'a [u16] {
        let end = if i + 1 < index.len() {
            index[i + 1]
        } else {
            list.len() as u32
        };
        &list[index[i] as usize..end as usize]
    }

    /// The probes for attackers of `color` on `target`.
    #[inline]
    pub fn probes_at(&self, color: Color, target: Square) -> &[Probe] {
        let (s, n) = self.probe_index[color.index() * self.size + target.index()];
        &self.probes[s as usize..s as usize + n as usize]
    }

    /// Compiles the movement of every piece. `initial_ok(kind, component, color, sq)` says
    /// whether a piece standing on `sq` may use its `i` (initial) component `component` there. The attack probes are not
    /// built yet: rules edit the entries first, then [`Tables::build_probes`] reads them.
    pub fn build(
        geometry: Geometry,
        pieces: &[Betza],
        initial_ok: &dyn Fn(usize, usize, Color, Square) -> bool,
    ) -> Result<Tables, (usize, CompileError)> {
        Tables::build_zoned(geometry, pieces, &[], initial_ok)
    }

    /// [`Tables::build`] where zones change how pieces move: `zoning[kind]` (absent for a kind
    /// beyond the slice) gives a kind other movements where it stands in a zone and a zone it
    /// never leaves. The components of another movement are numbered after the piece's own.
    pub fn build_zoned(
        geometry: Geometry,
        pieces: &[Betza],
        zoning: &[Zoning],
        initial_ok: &dyn Fn(usize, usize, Color, Square) -> bool,
    ) -> Result<Tables, (usize, CompileError)> {
        assert!(pieces.len() <= MAX_KINDS);
        let size = geometry.size();
        let mut t = Tables {
            size,
            ..Default::default()
        };
        t.index = vec![(0, 0); pieces.len() * 2 * size];
        // Walks per kind and movement (its own first, then one per zone of `betza-in`), and
        // component.
        type Walks = Vec<(usize, bool, Walk)>;
        let compile =
            |kind: usize, b: &Betza, base: usize| -> Result<Walks, (usize, CompileError)> {
                let mut list = Vec::new();
                for (ci, c) in b.components.iter().enumerate() {
                    let ws = component_walks(c).map_err(|e| {
                        let message = match e {
                            Unwalkable::Notation(m) => m,
                            Unwalkable::Paths => paths_message(None),
                        };
                        let component = base + ci;
                        (kind, CompileError { component, message })
                    })?;
                    let initial = c.legs[0].mods.initial;
                    for w in ws {
                        list.push((base + ci, initial, w));
                    }
                }
                Ok(list)
            };
        let no_zoning = Zoning::default();
        let mut walks: Vec<Vec<Walks>> = Vec::new();
        for (kind, b) in pieces.iter().enumerate() {
            let z = zoning.get(kind).unwrap_or(&no_zoning);
            let mut lists = vec![compile(kind, b, 0)?];
            let mut base = b.components.len();
            for (_, alt) in z.alt.iter().chain(&z.within) {
                lists.push(compile(kind, alt, base)?);
                base += alt.components.len();
            }
            walks.push(lists);
        }
        for (kind, lists) in walks.iter().enumerate() {
            let z = zoning.get(kind).unwrap_or(&no_zoning);
            for color in [Color::White, Color::Black] {
                let sgn = if color == Color::White { 1 } else { -1 };
                let confine = z.confine.map(|c| c[color.index()]);
                for sq in geometry.squares() {
                    let first = t.entries.len() as u32;
                    let which = z
                        .alt
                        .iter()
                        .position(|(zone, _)| zone[color.index()].contains(sq))
                        .map_or(0, |i| i + 1);
                    // A confined piece outside its zone (set there by a FEN) cannot move.
                    let stranded = confine.is_some_and(|c| !c.contains(sq));
                    for (ci, initial, w) in lists[which].iter().filter(|_| !stranded) {
                        if *initial && !initial_ok(kind, *ci, color, sq) {
                            continue;
                        }
                        t.lay(geometry, sq, sgn, *ci, w, confine.as_ref());
                    }
                    // The movements it has besides inside a zone, kept inside it.
                    for (i, (zone, _)) in z.within.iter().enumerate() {
                        let zone = zone[color.index()];
                        if stranded || !zone.contains(sq) {
                            continue;
                        }
                        let inside = confine.map_or(zone, |c| c.intersection(&zone));
                        for (ci, _, w) in &lists[1 + z.alt.len() + i] {
                            t.lay(geometry, sq, sgn, *ci, w, Some(&inside));
                        }
                    }
                    t.drop_redundant(first as usize);
                    if t.entries.len() > MAX_ENTRIES {
                        let message = format!(
                            "too many table entries: the variant's move tables would hold more than {MAX_ENTRIES}"
                        );
                        return Err((
                            kind,
                            CompileError {
                                component: 0,
                                message,
                            },
                        ));
                    }
                    let n = t.entries.len() as u32 - first;
                    let slot = t.slot(kind, color, sq);
                    t.index[slot] = (first, n as u16);
                }
            }
        }
        Ok(t)
    }

    /// [`Tables::build`] followed by [`Tables::build_probes`]: tables no rule edits.
    pub fn build_with_probes(
        geometry: Geometry,
        pieces: &[Betza],
        initial_ok: &dyn Fn(usize, usize, Color, Square) -> bool,
    ) -> Result<Tables, (usize, CompileError)> {
        let mut t = Tables::build(geometry, pieces, initial_ok)?;
        t.build_probes(geometry, pieces.len());
        Ok(t)
    }

    /// Removes the entries from `first` on that another entry of the same square already
    /// covers, so that overlapping components (`KW`, `RW`, `R4R`) never list a move twice:
    /// an entry is dropped when another with the same conditions and kind (leap, slide, hop)
    /// reaches every square it reaches, stops where it stops, and allows at least its modes.
    ///
    /// Only entries with the same conditions are compared, and an entry equal to one already
    /// kept is dropped at once, so that equal components cost no pairwise comparison. The
    /// entries are judged in order, each against those still there, as one pass over all
    /// pairs would.
    fn drop_redundant(&mut self, first: usize) {
        use std::collections::{HashMap, HashSet};
        // Few entries (every shipped piece): one group, compared pairwise as they are.
        const FEW: usize = 64;
        let many = self.entries.len() - first > FEW;
        let mut groups: Vec<Vec<usize>> = Vec::new();
        let mut by_conds: HashMap<&[Cond], usize> = HashMap::new();
        for i in first..self.entries.len() {
            let conds = if many {
                self.conds_of(&self.entries[i])
            } else {
                &[]
            };
            let g = *by_conds.entry(conds).or_insert_with(|| {
                groups.push(Vec::new());
                groups.len() - 1
            });
            groups[g].push(i);
        }
        let mut dropped = vec![false; self.entries.len() - first];
        for group in &groups {
            let mut kept = HashSet::new();
            for &i in group {
                let a = self.entries[i];
                let same = (a.flags, a.ep, self.squares_of(&a), (a.dx, a.dy, a.bx, a.by));
                let covered = (many && kept.contains(&same))
                    || group.iter().any(|&j| {
                        j != i && !dropped[j - first] && self.covers(&self.entries[j], &a, j < i)
                    });
                if covered {
                    dropped[i - first] = true;
                } else if many {
                    kept.insert(same);
                }
            }
        }
        let mut to = first;
        for (k, gone) in dropped.into_iter().enumerate() {
            if !gone {
                self.entries[to] = self.entries[first + k];
                to += 1;
            }
        }
        self.entries.truncate(to);
    }

    /// Whether entry `b` makes entry `a` redundant; `before`: `b`
    /// comes first, and so is the one kept of two equal entries.
    fn covers(&self, b: &Entry, a: &Entry, before: bool) -> bool {
        const MODES: u16 = MOVE | CAPTURE | EP;
        if a.flags & !MODES != b.flags & !MODES
            && !(a.flags & LEAP != 0 && b.flags & (LEAP | HOP | GRASS) == 0)
        {
            return false;
        }
        if a.flags & MODES & !(b.flags & MODES) != 0 || (a.flags & MAKES_EP != 0 && a.ep != b.ep) {
            return false;
        }
        if self.conds_of(a) != self.conds_of(b) {
            return false;
        }
        let (da, db) = (self.squares_of(a), self.squares_of(b));
        if a.flags & LEAP != 0 && b.flags & LEAP == 0 {
            // A plain leap onto the first square of a plain slide from the origin.
            return a.cond_len == 0
                && (b.bx, b.by) == (0, 0)
                && db.first() == da.first()
                && a.flags & !(MODES | LEAP) == b.flags & !MODES;
        }
        // Same kind: a prefix of the other's squares (equal entries: keep the first).
        da.len() <= db.len()
            && db.starts_with(da)
            && (da.len() < db.len() || a.flags & MODES != b.flags & MODES || before)
    }

    /// Lays one walk from `sq` into the tables (if it fits on the board).
    fn lay(
        &mut self,
        g: Geometry,
        sq: Square,
        sgn: i32,
        component: usize,
        w: &Walk,
        confine: Option<&SquareSet>,
    ) {
        let inside = |s: Square| confine.is_none_or(|c| c.contains(s));
        let off = |(x, y): (i32, i32)| g.offset(sq, x * sgn, y * sgn);
        let mut conds = Vec::with_capacity(w.conds.len());
        for &(x, y, occ) in &w.conds {
            match off((x, y)) {
                Some(s) => conds.push(Cond {
                    sq: s,
                    occupied: occ,
                }),
                None => return,
            }
        }
        let ep = match w.ep.or(w.locust) {
            Some(p) => match off(p) {
                Some(s) => s,
                None => return,
            },
            None => Square::new(0),
        };
        let mut dests = Vec::new();
        let Some(start) = off(w.start) else { return };
        if w.leap {
            match off(w.step) {
                Some(s) if inside(s) => dests.push(s),
                _ => return,
            }
        } else {
            let mut cur = start;
            let max = w.range.unwrap_or(u32::MAX);
            let mut k = 0;
            while k < max {
                match g.offset(cur, w.step.0 * sgn, w.step.1 * sgn) {
                    Some(s) if inside(s) => {
                        dests.push(s);
                        cur = s;
                    }
                    _ => break,
                }
                k += 1;
            }
            if dests.is_empty() {
                return;
            }
            // A bent rider whose bend must be empty: the bend is a condition.
            if w.start != (0, 0) && w.bend_empty == Some(true) {
                conds.push(Cond {
                    sq: start,
                    occupied: false,
                });
            }
        }
        // The interpreter looks for a locust leap among the walks with conditions.
        debug_assert!(w.locust.is_none() || !conds.is_empty());
        let e = Entry {
            sq_start: self.squares.len() as u32,
            sq_len: dests.len() as u16,
            cond_start: self.conds.len() as u32,
            cond_len: conds.len() as u16,
            flags: w.flags,
            ep,
            component: component as u8,
            dx: (w.step.0 * sgn) as i8,
            dy: (w.step.1 * sgn) as i8,
            bx: (w.start.0 * sgn) as i8,
            by: (w.start.1 * sgn) as i8,
        };
        self.valid.extend(dests.iter().map(|_| true));
        self.squares.extend(dests);
        self.conds.extend(conds);
        self.entries.push(e);
    }

    /// Builds the reverse probes from the capture-capable entries (replacing any built before).
    #[expect(
        clippy::too_many_lines,
        reason = "the probes gathered in one map keyed by a local type, then laid out from it"
    )]
    pub fn build_probes(&mut self, g: Geometry, nkinds: usize) {
        use std::collections::BTreeMap;
        type Rel = Vec<(i32, i32, bool)>;
        #[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
        enum Key {
            Leap {
                origin: Square,
                conds: Vec<(Square, bool)>,
            },
            Ray {
                step: (i32, i32),
                hop: u8,
                limits: u8,
            },
            Bent {
                step: (i32, i32),
                delta: (i32, i32),
                any: bool,
                rel: Rel,
            },
        }
        let size = g.size();
        self.probes.clear();
        // Per colour and target: key -> attackers by distance (distance, code mask).
        let mut map: Vec<BTreeMap<Key, Vec<(u32, u128)>>> = vec![BTreeMap::new(); 2 * size];
        // Per colour and target: the locust probes.
        let mut locusts: Vec<Vec<Probe>> = vec![Vec::new(); 2 * size];
        for kind in 0..nkinds {
            for color in [Color::White, Color::Black] {
                let bit: u128 = 1u128 << code(kind, color).index();
                for sq in g.squares() {
                    let (s, n) = self.index[self.slot(kind, color, sq)];
                    for i in s as usize..s as usize + n as usize {
                        let e = self.entries[i];
                        if e.flags & LOCUST != 0 {
                            self.locust_probes(kind, color, sq, &e, &mut locusts);
                            continue;
                        }
                        if e.flags & CAPTURE == 0 {
                            continue;
                        }
                        let dests = self.squares_of(&e).to_vec();
                        let conds = self.conds_of(&e).to_vec();
                        let base = color.index() * size;
                        if e.flags & LEAP != 0 {
                            let key = Key::Leap {
                                origin: sq,
                                conds: conds.iter().map(|c| (c.sq, c.occupied)).collect(),
                            };
                            map[base + (dests[0]).index()]
                                .entry(key)
                                .or_default()
                                .push((1, bit));
                            continue;
                        }
                        let step = (e.dx as i32, e.dy as i32);
                        let delta = (e.bx as i32, e.by as i32);
                        let hop = if e.flags & GRASS != 0 {
                            2
                        } else if e.flags & HOP != 0 {
                            1
                        } else {
                            0
                        };
                        let key = if delta == (0, 0) && conds.is_empty() {
                            // A screen's kind matters only to a hopper.
                            let limits = if hop > 0 { e.limits() } else { 0 };
                            Key::Ray { step, hop, limits }
                        } else {
                            let bend = g.offset(sq, delta.0, delta.1);
                            let any = !conds.iter().any(|c| Some(c.sq) == bend && !c.occupied);
                            let (ox, oy) = (g.file(sq) as i32, g.rank(sq) as i32);
                            let rel = conds
                                .iter()
                                .filter(|c| Some(c.sq) != bend)
                                .map(|c| {
                                    (
                                        g.file(c.sq) as i32 - ox,
                                        g.rank(c.sq) as i32 - oy,
                                        c.occupied,
                                    )
                                })
                                .collect();
                            Key::Bent {
                                step,
                                delta,
                                any,
                                rel,
                            }
                        };
                        for (k, &d) in dests.iter().enumerate() {
                            map[base + d.index()]
                                .entry(key.clone())
                                .or_default()
                                .push((k as u32 + 1, bit));
                        }
                    }
                }
            }
        }
        self.probe_index = vec![(0, 0); 2 * size];
        for color in 0..2 {
            for target in 0..size {
                let first = self.probes.len() as u32;
                let tsq = Square::from_index(target);
                for (key, by_dist) in std::mem::take(&mut map[color * size + target]) {
                    match key {
                        Key::Leap { origin, conds } => {
                            let mask = by_dist.iter().fold(0, |a, &(_, m)| a | m);
                            let cond_start = self.conds.len() as u32;
                            self.conds
                                .extend(conds.iter().map(|&(sq, occupied)| Cond { sq, occupied }));
                            self.probes.push(Probe {
                                kind: ProbeKind::Leap,
                                mask,
                                origin,
                                sq_start: 0,
                                sq_len: 0,
                                org_start: 0,
                                cond_start,
                                cond_len: conds.len() as u16,
                            });
                        }
                        Key::Ray { step, hop, limits } => {
                            for (maxr, mask) in range_classes(&by_dist) {
                                let sq_start = self.squares.len() as u32;
                                let mut cur = tsq;
                                for _ in 0..maxr {
                                    match g.offset(cur, -step.0, -step.1) {
                                        Some(s) => {
                                            self.push_square(s, true);
                                            cur = s;
                                        }
                                        None => break,
                                    }
                                }
                                let kind = match (hop, limits) {
                                    (0, _) => ProbeKind::Slide,
                                    (1, 0) => ProbeKind::Hop,
                                    (_, 0) => ProbeKind::Grass,
                                    (h, limits) => ProbeKind::LimitedHop {
                                        limits,
                                        grass: h == 2,
                                    },
                                };
                                self.probes.push(Probe {
                                    kind,
                                    mask,
                                    origin: Square::new(0),
                                    sq_start,
                                    sq_len: (self.squares.len() as u32 - sq_start) as u16,
                                    org_start: 0,
                                    cond_start: 0,
                                    cond_len: 0,
                                });
                            }
                        }
                        Key::Bent {
                            step,
                            delta,
                            any,
                            rel,
                        } => {
                            for (maxr, mask) in range_classes(&by_dist) {
                                let mut bends = Vec::new();
                                let mut cur = tsq;
                                for _ in 0..maxr {
                                    match g.offset(cur, -step.0, -step.1) {
                                        Some(b) => {
                                            bends.push(b);
                                            cur = b;
                                        }
                                        None => break,
                                    }
                                }
                                let sq_start = self.squares.len() as u32;
                                for &b in &bends {
                                    self.push_square(b, true);
                                }
                                let org_start = self.squares.len() as u32;
                                let cond_start = self.conds.len() as u32;
                                for &b in &bends {
                                    let o = g.offset(b, -delta.0, -delta.1);
                                    let rs: Option<Vec<Square>> = o.and_then(|o| {
                                        rel.iter().map(|&(x, y, _)| g.offset(o, x, y)).collect()
                                    });
                                    let ok = o.is_some() && rs.is_some();
                                    self.push_square(o.unwrap_or_default(), ok);
                                    let rs = rs.unwrap_or_else(|| vec![Square::new(0); rel.len()]);
                                    for (&s, &(_, _, occupied)) in rs.iter().zip(rel.iter()) {
                                        self.conds.push(Cond { sq: s, occupied });
                                    }
                                }
                                self.probes.push(Probe {
                                    kind: ProbeKind::Bent { bend_any: any },
                                    mask,
                                    origin: Square::new(0),
                                    sq_start,
                                    sq_len: bends.len() as u16,
                                    org_start,
                                    cond_start,
                                    cond_len: rel.len() as u16,
                                });
                            }
                        }
                    }
                }
                for mut p in std::mem::take(&mut locusts[color * size + target]) {
                    // Its conditions, but the one on the target (`mid` when it is the
                    // target: the piece there is the one attacked).
                    let own: Vec<Cond> = self.conds[p.cond_start as usize..][..p.cond_len as usize]
                        .iter()
                        .copied()
                        .filter(|c| c.sq != tsq)
                        .collect();
                    p.cond_start = self.conds.len() as u32;
                    p.cond_len = own.len() as u16;
                    self.conds.extend(own);
                    self.probes.push(p);
                }
                let n = self.probes.len() as u32 - first;
                self.probe_index[color * size + target] = (first, n as u16);
                // Which probes each square can turn from "no attack" to "attack": a square that
                // is vacated (blocked paths, screens, conditions; never a leap's origin), and a
                // square that is filled (only screens and must-be-occupied conditions).
                let mut vacate: Vec<(Square, u16)> = Vec::new();
                let mut fill: Vec<(Square, u16)> = Vec::new();
                for i in first as usize..self.probes.len() {
                    let p = self.probes[i];
                    let li = (i - first as usize) as u16;
                    let scan = p.sq_start..p.sq_start + p.sq_len as u32;
                    match p.kind {
                        ProbeKind::Leap => {}
                        ProbeKind::Locust {
                            mid, to, at_mid, ..
                        } => {
                            // The square taken on the way filled, or where the leap ends
                            // emptied or filled.
                            if at_mid {
                                vacate.push((to, li));
                                fill.push((to, li));
                            } else {
                                fill.push((mid, li));
                            }
                        }
                        ProbeKind::Slide | ProbeKind::Bent { .. } => {
                            vacate.extend(scan.map(|k| (self.squares[k as usize], li)));
                        }
                        ProbeKind::Hop | ProbeKind::Grass | ProbeKind::LimitedHop { .. } => {
                            for k in scan {
                                vacate.push((self.squares[k as usize], li));
                                fill.push((self.squares[k as usize], li));
                            }
                        }
                    }
                    let ncond = if let ProbeKind::Bent { .. } = p.kind {
                        p.cond_len as usize * p.sq_len as usize
                    } else {
                        p.cond_len as usize
                    };
                    for c in &self.conds[p.cond_start as usize..p.cond_start as usize + ncond] {
                        if c.occupied {
                            fill.push((c.sq, li));
                        } else {
                            vacate.push((c.sq, li));
                        }
                    }
                }
                for (pairs, index, list) in [
                    (&mut vacate, &mut self.vacate_index, &mut self.vacate),
                    (&mut fill, &mut self.fill_index, &mut self.fill),
                ] {
                    pairs.sort_unstable();
                    pairs.dedup();
                    let mut at = 0;
                    for sq in 0..size {
                        index.push(list.len() as u32);
                        while at < pairs.len() && (pairs[at].0).index() == sq {
                            list.push(pairs[at].1);
                            at += 1;
                        }
                    }
                }
                let set_of = |pairs: &[(Square, u16)]| {
                    let mut set = crate::moves::SquareSet::default();
                    pairs.iter().for_each(|&(sq, _)| set.insert(sq));
                    set
                };
                self.vacate_sets.push(set_of(&vacate));
                self.fill_sets.push(set_of(&fill));
            }
        }
        self.split_attack_probes();
    }

    /// Builds the attack test's compact probe lists: each group's plain leaps (an origin
    /// and a mask, read in one tight loop) apart from the probes that walk or have
    /// conditions.
    fn split_attack_probes(&mut self) {
        self.attack_index.clear();
        self.plain_leaps.clear();
        self.other_probes.clear();
        for &(first, n) in &self.probe_index {
            let (l0, o0) = (
                self.plain_leaps.len() as u32,
                self.other_probes.len() as u32,
            );
            for (i, p) in self.probes[first as usize..][..n as usize]
                .iter()
                .enumerate()
            {
                if p.kind == ProbeKind::Leap && p.cond_len == 0 {
                    self.plain_leaps.push((p.mask, p.origin));
                } else {
                    self.other_probes.push(i as u16);
                }
            }
            self.attack_index.push([
                l0,
                self.plain_leaps.len() as u32,
                o0,
                self.other_probes.len() as u32,
            ]);
        }
    }

    /// The attack test's probes for attackers of `color` on `target`: the plain leaps (origin
    /// and attacker codes) and the indices within [`Tables::probes_at`] of the others.
    #[inline]
    pub fn attack_probes(&self, color: Color, target: Square) -> (&[(u128, Square)], &[u16]) {
        let [l0, l1, o0, o1] = self.attack_index[color.index() * self.size + target.index()];
        (
            &self.plain_leaps[l0 as usize..l1 as usize],
            &self.other_probes[o0 as usize..o1 as usize],
        )
    }

    /// The probes of one locust leap of a piece of `kind` and `color` on `origin`, by colour
    /// and target in `out`: one on the square it takes on the way, one on where it ends when
    /// it may capture there. A probe is left out where the piece also has a plain leap from
    /// `origin` that captures on that target unconditionally (the Chu Lion's steps and jumps
    /// cover its double moves), so that such pieces cost the attack test nothing more.
    fn locust_probes(
        &self,
        kind: usize,
        color: Color,
        origin: Square,
        e: &Entry,
        out: &mut [Vec<Probe>],
    ) {
        let (mid, to) = (e.ep, self.squares_of(e)[0]);
        if self.conds_of(e).contains(&Cond {
            sq: mid,
            occupied: false,
        }) {
            // A pass through an empty square takes nothing.
            return;
        }
        let plain = |target: Square| {
            self.entries_at(kind, color, origin).iter().any(|p| {
                p.flags & (LEAP | CAPTURE | LOCUST) == LEAP | CAPTURE
                    && p.cond_len == 0
                    && p.limits() == 0
                    && self.squares_of(p)[0] == target
            })
        };
        let base = color.index() * self.size;
        let probe = |at_mid: bool| Probe {
            kind: ProbeKind::Locust {
                mid,
                to,
                at_mid,
                quiet: e.flags & MOVE != 0,
                capture: e.flags & CAPTURE != 0,
            },
            mask: 1u128 << code(kind, color).index(),
            origin,
            sq_start: 0,
            sq_len: 0,
            org_start: 0,
            cond_start: e.cond_start,
            cond_len: e.cond_len,
        };
        if !plain(mid) {
            out[base + mid.index()].push(probe(true));
        }
        if e.flags & CAPTURE != 0 && to != origin && !plain(to) {
            out[base + to.index()].push(probe(false));
        }
    }

    fn push_square(&mut self, s: Square, valid: bool) {
        self.squares.push(s);
        self.valid.push(valid);
    }
}

/// Splits (distance, mask) pairs into probes: each probe covers distances 1..=maxr for a mask.
fn range_classes(by_dist: &[(u32, u128)]) -> Vec<(u32, u128)> {
    // A kind with range r contributes its bit at distances 1..=r. The kind's maximal distance
    // decides its class.
    let mut max_of: std::collections::BTreeMap<u32, u128> = std::collections::BTreeMap::new();
    let mut all: u128 = 0;
    for &(_, m) in by_dist {
        all |= m;
    }
    let mut rest = all;
    while rest != 0 {
        let bit = rest & rest.wrapping_neg();
        rest &= !bit;
        let maxd = by_dist
            .iter()
            .filter(|(_, m)| m & bit != 0)
            .map(|(d, _)| *d)
            .max()
            .unwrap_or(0);
        *max_of.entry(maxd).or_default() |= bit;
    }
    max_of.into_iter().collect()
}

/// The shape of an entry's walk, read from its marks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// One destination.
    Leap,
    /// A ray: every square up to and including the first piece met.
    Slide,
    /// A ray over exactly one screen: the squares beyond it, up to and including the next
    /// piece.
    Hop,
    /// A ray over a screen: the one square just beyond the first piece met (the
    /// grasshopper).
    Grass,
}

/// What an entry may do where it lands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Modes {
    /// Move to an empty square.
    pub quiet: bool,
    /// Capture an enemy piece.
    pub capture: bool,
    /// Capture en passant (land on the en-passant square; leaps only).
    pub en_passant: bool,
    /// Leave en-passant rights (on [`Entry::ep`]).
    pub leaves_ep: bool,
    /// A move ending where the arrival table offers promotion promotes.
    pub promotes: bool,
}

/// Receives the landings of [`Tables::reach_into`].
pub trait Lander {
    /// One destination reached.
    fn land(&mut self, to: Square, landing: Landing);

    /// One destination reached by a locust leap ([`LOCUST`]) through `via` (the square it
    /// takes on, or passes empty); by default a landing like any other.
    fn land_via(&mut self, to: Square, landing: Landing, via: Square) {
        let _ = via;
        self.land(to, landing);
    }
}

impl<F: FnMut(Square, Landing)> Lander for F {
    #[inline(always)]
    fn land(&mut self, to: Square, landing: Landing) {
        self(to, landing)
    }
}

/// What a destination holds when an entry reaches it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Landing {
    /// An empty square.
    Empty,
    /// A piece of the other side.
    Enemy,
}

impl Entry {
    /// The index of its piece's [`KindLimits`] in [`Tables::limits`] (0: none).
    #[inline(always)]
    pub fn limits(&self) -> u8 {
        (self.flags >> LIMITS_SHIFT) as u8
    }

    /// Marks the entry's moves as promoting (or not): where the arrival table offers a
    /// promotion, a move of this entry ending there promotes.
    #[inline]
    pub fn set_promotes(&mut self, on: bool) {
        if on {
            self.flags |= PROMOTES;
        } else {
            self.flags &= !PROMOTES;
        }
    }

    /// Takes away the entry's en-passant capture.
    #[inline]
    pub fn forbid_en_passant(&mut self) {
        self.flags &= !EP;
    }

    /// Takes away the en-passant rights the entry's step leaves.
    #[inline]
    pub fn forbid_leaving_ep(&mut self) {
        self.flags &= !MAKES_EP;
    }

    /// The square a locust leap ([`LOCUST`]) takes a piece on before it goes on.
    #[inline(always)]
    pub fn locust(&self) -> Option<Square> {
        (self.flags & LOCUST != 0).then_some(self.ep)
    }

    /// The shape of the walk.
    #[inline]
    pub fn shape(&self) -> Shape {
        if self.flags & LEAP != 0 {
            Shape::Leap
        } else if self.flags & GRASS != 0 {
            Shape::Grass
        } else if self.flags & HOP != 0 {
            Shape::Hop
        } else {
            Shape::Slide
        }
    }

    /// What the entry may do where it lands.
    #[inline]
    pub fn modes(&self) -> Modes {
        Modes {
            quiet: self.flags & MOVE != 0,
            capture: self.flags & CAPTURE != 0,
            en_passant: self.flags & EP != 0,
            leaves_ep: self.flags & MAKES_EP != 0,
            promotes: self.flags & PROMOTES != 0,
        }
    }
}

impl Tables {
    /// The one interpreter of the move tables: calls `land(square, landing)` for every
    /// destination that entry `e` of a piece of `side` reaches on `board` — an empty square
    /// (whatever the entry may do there: the caller reads [`Entry::modes`]) or an enemy piece
    /// the entry may capture. Nothing is reported when a condition of the walk fails. The
    /// generator and the evaluation's mobility both walk the tables through it; the attack
    /// probes are its reverse, checked against it by a property test.
    #[inline(always)]
    pub fn reach(
        &self,
        e: &Entry,
        board: &[crate::moves::Code; 256],
        side: Color,
        mut land: impl FnMut(Square, Landing),
    ) {
        self.reach_into(e, board, side, &mut land)
    }

    /// [`Tables::reach_into`] for a locust leap (its conditions hold): the piece on the
    /// square passed must be an enemy it may take; the leap then lands like any other, its
    /// own origin counting as empty (the Lion's capture without moving, `cabK`).
    #[cold]
    #[inline(never)]
    fn reach_locust<L: Lander>(
        &self,
        e: &Entry,
        board: &[crate::moves::Code; 256],
        side: Color,
        land: &mut L,
    ) {
        use crate::moves::{EMPTY, color_of};
        // The square passed holds an enemy to take, or is empty for a pass through it (the
        // walk's conditions said which).
        let mid = board[e.ep.index()];
        if mid != EMPTY && (color_of(mid) == side || (e.limits() != 0 && !self.may_take(e, mid))) {
            return;
        }
        let to = self.squares_of(e)[0];
        let c = board[to.index()];
        if c == EMPTY || (e.dx, e.dy) == (0, 0) {
            land.land_via(to, Landing::Empty, e.ep);
        } else if e.flags & CAPTURE != 0
            && color_of(c) != side
            && (e.limits() == 0 || self.may_take(e, c))
        {
            land.land_via(to, Landing::Enemy, e.ep);
        }
    }

    /// [`Tables::reach`] with a [`Lander`]: the generator's form, whose `land` is always
    /// inlined (a closure called per square is not, in the hottest loop of the engine).
    #[inline(always)]
    pub fn reach_into<L: Lander>(
        &self,
        e: &Entry,
        board: &[crate::moves::Code; 256],
        side: Color,
        land: &mut L,
    ) {
        use crate::moves::{EMPTY, color_of};
        if e.cond_len > 0 {
            if !self.conds_hold(board, e.cond_start, e.cond_len) {
                return;
            }
            // A locust leap always has a condition (on the square it passes): tested here,
            // where only walks with conditions pay for it.
            if e.flags & LOCUST != 0 {
                self.reach_locust(e, board, side, land);
                return;
            }
        }
        let dests = self.squares_of(e);
        let capture = e.flags & CAPTURE != 0;
        if e.flags & LEAP != 0 {
            let to = dests[0];
            let c = board[to.index()];
            if c == EMPTY {
                land.land(to, Landing::Empty);
            } else if capture && color_of(c) != side && (e.limits() == 0 || self.may_take(e, c)) {
                land.land(to, Landing::Enemy);
            }
            return;
        }
        // Rays: a slide lands on every square up to the first piece; a hopper only beyond its
        // screen; a grasshopper only on the square just beyond the screen.
        let mut rest = dests.iter();
        if e.flags & (HOP | GRASS) != 0 {
            match rest.by_ref().find(|&&s| board[s.index()] != EMPTY) {
                None => return,
                Some(&s) if e.limits() != 0 && !self.may_screen(e, board[s.index()]) => return,
                Some(_) => {}
            }
        }
        let grass = e.flags & GRASS != 0;
        for &to in rest {
            let c = board[to.index()];
            if c == EMPTY {
                land.land(to, Landing::Empty);
                if grass {
                    break;
                }
            } else {
                if capture && color_of(c) != side && (e.limits() == 0 || self.may_take(e, c)) {
                    land.land(to, Landing::Enemy);
                }
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! The table builder on its own: notation in, per-square entries out.
    use super::*;
    use crate::notation::parse;

    fn tables(g: Geometry, betza: &[&str], zoning: &[Zoning]) -> Tables {
        let pieces: Vec<Betza> = betza.iter().map(|b| parse(b).unwrap()).collect();
        let mut t = Tables::build_zoned(g, &pieces, zoning, &|_, _, _, _| true).unwrap();
        t.build_probes(g, pieces.len());
        t
    }

    /// Every (destination, quiet, capture) a piece of `kind` on `sq` may reach on an empty
    /// board (a slide's squares in order), sorted by name.
    fn reach(t: &Tables, g: Geometry, kind: usize, color: Color, sq: &str) -> Vec<String> {
        let sq = g.parse_square(sq).unwrap();
        let mut out: Vec<String> = t
            .entries_at(kind, color, sq)
            .iter()
            .flat_map(|e| t.squares_of(e).iter().map(|&s| g.name(s).to_string()))
            .collect();
        out.sort();
        out
    }

    #[test]
    fn a_knight_in_the_corner_has_two_leaps() {
        let g = Geometry::new(8, 8);
        let t = tables(g, &["N"], &[]);
        assert_eq!(reach(&t, g, 0, Color::White, "a1"), ["b3", "c2"]);
        let es = t.entries_at(0, Color::White, g.parse_square("a1").unwrap());
        assert!(
            es.iter()
                .all(|e| e.shape() == Shape::Leap && e.cond_len == 0)
        );
    }

    #[test]
    fn a_rook_has_one_ordered_ray_per_direction() {
        let g = Geometry::new(8, 8);
        let t = tables(g, &["R"], &[]);
        let d4 = g.parse_square("d4").unwrap();
        let mut lens: Vec<usize> = t
            .entries_at(0, Color::White, d4)
            .iter()
            .map(|e| t.squares_of(e).len())
            .collect();
        lens.sort();
        assert_eq!(lens, [3, 3, 4, 4]);
        let up = t
            .entries_at(0, Color::White, d4)
            .iter()
            .find(|e| (e.dx, e.dy) == (0, 1))
            .unwrap();
        let names: Vec<String> = t
            .squares_of(up)
            .iter()
            .map(|&s| g.name(s).to_string())
            .collect();
        assert_eq!(names, ["d5", "d6", "d7", "d8"]);
    }

    #[test]
    fn overlapping_components_list_each_square_once() {
        let g = Geometry::new(8, 8);
        let t = tables(g, &["KW"], &[]);
        let r = reach(&t, g, 0, Color::White, "d4");
        assert_eq!(r.len(), 8, "{r:?}");
    }

    #[test]
    fn black_moves_mirror_whites() {
        let g = Geometry::new(8, 8);
        let t = tables(g, &["fW"], &[]);
        assert_eq!(reach(&t, g, 0, Color::White, "d4"), ["d5"]);
        assert_eq!(reach(&t, g, 0, Color::Black, "d4"), ["d3"]);
    }

    #[test]
    fn a_lame_leap_needs_its_leg_empty() {
        let g = Geometry::new(9, 10);
        let t = tables(g, &["nN"], &[]);
        let e4 = g.parse_square("e4").unwrap();
        let to_f6 = t
            .entries_at(0, Color::White, e4)
            .iter()
            .find(|e| g.name(t.squares_of(e)[0]).to_string() == "f6")
            .unwrap();
        let conds: Vec<(String, bool)> = t
            .conds_of(to_f6)
            .iter()
            .map(|c| (g.name(c.sq).to_string(), c.occupied))
            .collect();
        assert_eq!(conds, [("e5".to_string(), false)]);
    }

    #[test]
    fn a_ray_stops_before_a_hole() {
        let g = Geometry::with_holes(8, 8, &[Geometry::new(8, 8).parse_square("d6").unwrap()]);
        let t = tables(g, &["fR"], &[]);
        assert_eq!(reach(&t, g, 0, Color::White, "d4"), ["d5"]);
    }

    /// White's squares `names` and their mirror images for Black, on `g`.
    fn zone(g: Geometry, names: &[&str]) -> [SquareSet; 2] {
        let mut z = [SquareSet::default(); 2];
        for n in names {
            let s = g.parse_square(n).unwrap();
            z[0].insert(s);
            z[1].insert(g.square(g.file(s), g.ranks - 1 - g.rank(s)));
        }
        z
    }

    #[test]
    fn a_confined_piece_never_leaves_its_zone() {
        let g = Geometry::new(8, 8);
        let z = zone(g, &["a1", "b1", "a2", "b2"]);
        let zoning = [Zoning {
            within: vec![],
            alt: vec![],
            confine: Some(z),
        }];
        let t = tables(g, &["K"], &zoning);
        assert_eq!(reach(&t, g, 0, Color::White, "a1"), ["a2", "b1", "b2"]);
        assert_eq!(reach(&t, g, 0, Color::Black, "a8"), ["a7", "b7", "b8"]);
        // A slider stops at the zone's edge.
        let t = tables(g, &["R"], &zoning);
        assert_eq!(reach(&t, g, 0, Color::White, "a1"), ["a2", "b1"]);
        // Outside its zone (a FEN may put it there) it has no move at all.
        assert!(reach(&t, g, 0, Color::White, "e4").is_empty());
    }

    #[test]
    fn a_zone_can_change_the_movement() {
        let g = Geometry::new(8, 8);
        let far: Vec<String> = (5..=8)
            .flat_map(|r| (b'a'..=b'h').map(move |f| format!("{}{r}", f as char)))
            .collect();
        let far: Vec<&str> = far.iter().map(|s| s.as_str()).collect();
        let zoning = [Zoning {
            within: vec![],
            alt: vec![(zone(g, &far), parse("fsW").unwrap())],
            confine: None,
        }];
        let t = tables(g, &["fW"], &zoning);
        assert_eq!(reach(&t, g, 0, Color::White, "d4"), ["d5"]);
        assert_eq!(reach(&t, g, 0, Color::White, "d5"), ["c5", "d6", "e5"]);
        // Black's copy of the zone is ranks 1-4.
        assert_eq!(reach(&t, g, 0, Color::Black, "d5"), ["d4"]);
        assert_eq!(reach(&t, g, 0, Color::Black, "d4"), ["c4", "d3", "e4"]);
    }

    #[test]
    fn initial_moves_are_laid_only_where_allowed() {
        let g = Geometry::new(8, 8);
        let pieces = vec![parse("fmWifmnD").unwrap()];
        let d2 = g.parse_square("d2").unwrap();
        let t = Tables::build(g, &pieces, &|_, _, _, sq| sq == d2).unwrap();
        assert_eq!(reach(&t, g, 0, Color::White, "d2"), ["d3", "d4"]);
        assert_eq!(reach(&t, g, 0, Color::White, "d3"), ["d4"]);
    }

    /// The pass that drops covered entries as first written: each entry against every other
    /// still there, with no grouping.
    fn drop_redundant_pairwise(t: &mut Tables, first: usize) {
        let mut i = first;
        while i < t.entries.len() {
            let a = t.entries[i];
            let covered =
                (first..t.entries.len()).any(|j| j != i && t.covers(&t.entries[j], &a, j < i));
            if covered {
                t.entries.remove(i);
            } else {
                i += 1;
            }
        }
    }

    #[test]
    fn the_grouped_pass_keeps_what_the_pairwise_pass_keeps() {
        let g = Geometry::new(12, 12);
        let pieces = [
            "KW",
            "RWR4",
            "mamaK",
            "mamaKmafmaFKK",
            "fWfWfWW",
            "mamaKR4RfWfWW",
            "FyafsFWyafsW",
            "mRcpRmRgR",
            "KNADmafsW",
            "NmpafsyafW",
            "FfrblyaflFflbryafrF",
            "fmWfceFifmnD",
        ];
        for b in pieces {
            let parsed = parse(b).unwrap();
            let mut walks = Vec::new();
            for (ci, c) in parsed.components.iter().enumerate() {
                walks.extend(component_walks(c).unwrap().into_iter().map(|w| (ci, w)));
            }
            for sq in g.squares() {
                let mut t = Tables {
                    size: g.size(),
                    ..Default::default()
                };
                for (ci, w) in &walks {
                    t.lay(g, sq, 1, *ci, w, None);
                }
                let mut pairwise = t.clone();
                t.drop_redundant(0);
                drop_redundant_pairwise(&mut pairwise, 0);
                let kept = |t: &Tables| format!("{:?}", t.entries);
                assert_eq!(kept(&t), kept(&pairwise), "{b} on {}", g.name(sq));
            }
        }
    }

    #[test]
    fn notation_warnings_name_what_collapses() {
        let w = notation_warnings(&parse("FyafvF").unwrap());
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].contains("exactly like `B`"));
        assert!(notation_warnings(&parse("FfrblyaflFflbryafrF").unwrap()).is_empty());
        assert!(notation_warnings(&parse("mRcpR").unwrap()).is_empty());
    }
}

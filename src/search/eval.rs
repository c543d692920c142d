//! Static evaluation, built once per ruleset from the variant's data.
//!
//! Every term is read off the compiled move tables, never off piece names or letters:
//!
//! - **Material**: the value the variant file gives, or, for a piece without one, a value
//!   derived from its movement ([`derived_value`]): the expected number of squares it reaches
//!   from an average square of a board where each square is occupied with some probability,
//!   mapped to centipawns by a curve fitted to the FIDE pieces. Royal pieces have no material
//!   value.
//! - **Centralisation**: per square, how many more squares the piece reaches on an empty board
//!   from there than on average.
//! - **Pawn advance**: pieces that promote ("pawn-like") gain as they approach the promotion
//!   zone, more so in the endgame.
//! - **Mobility**: the squares each piece reaches in the actual position, against its expected
//!   number.
//! - **King shelter**: friendly pieces on the squares a royal piece could step to, in the
//!   middlegame; in the endgame royal pieces centralise instead.
//! - **Passed pawns**: a pawn-like piece with no enemy pawn-like piece ahead of it on its own
//!   or a neighbouring file gains more as it nears the promotion zone, and more in the
//!   endgame.
//! - **Threats**: each enemy piece attacked by a piece of lower value.
//! - **King danger**: pieces that can capture on the squares around the enemy royal piece;
//!   with two or more of them, the square of their weighted hits (capped), in the
//!   middlegame.
//!
//! Middlegame and endgame weights are blended by the non-pawn material left on the board.

use crate::geometry::{Color, Square};
use crate::moves::{Code, EMPTY, code, color_of, kind_of};
use crate::position::Position;
use crate::position::Ruleset;
use crate::tables::{Entry, Landing, Shape};
use crate::variant::Term;

/// Probability that a square is occupied, in the model used for derived values.
const DENSITY: f64 = 0.3;
/// The phase scale: 256 = full middlegame, 0 = bare endgame.
const PHASE_MAX: i32 = 256;
/// The largest static evaluation, in centipawns: whatever the `[eval]` values and the
/// position, a static score stays far from the mate scores (the search takes a score past
/// them for a mate).
pub const EVAL_LIMIT: i32 = crate::nnue::EVAL_LIMIT;
/// Bonus for the side to move.
const TEMPO: i32 = 12;

/// Mobility weight in the middlegame and the endgame: centipawns per reachable square for a
/// piece reaching 6.25 squares on an empty board on average; pieces reaching more squares get
/// less per square (in proportion to the square root).
const MOB_MG: i32 = 3;
const MOB_EG: i32 = 3;
/// How far the mobility and shelter terms may move the score, for lazy evaluation.
pub const LAZY_MARGIN: i32 = 220;
/// Centralisation weight per standard deviation-like unit.
const CENTRE_MG: f64 = 9.0;
const CENTRE_EG: f64 = 6.0;
/// Royal centralisation in the endgame.
const ROYAL_CENTRE_EG: f64 = 14.0;
/// Royal advance penalty per rank in the middlegame.
const ROYAL_ADVANCE_MG: f64 = 20.0;
/// Shelter: per friendly piece next to the royal piece, and extra for a pawn-like one ahead.
const SHELTER: i32 = 5;
const SHELTER_PAWN: i32 = 12;
/// Threats: per enemy piece attacked by a piece of lower value (middlegame, endgame).
const THREAT_MG: i32 = 32;
const THREAT_EG: i32 = 24;
/// King danger: each attacker of the squares next to a royal piece adds its hits times
/// (its value / 100 + 2); with two attackers or more, the royal side loses the square of
/// the sum times [`DANGER_MG`] / 256 in the middlegame, at most [`DANGER_MAX`].
const DANGER_MG: i32 = 16;
const DANGER_MAX: i32 = 600;

/// The weight of `term` where the variant's `[eval.terms]` does not set one: (middlegame,
/// endgame). The pawn-structure terms are off (0) unless a table sets them.
fn term_default(term: Term) -> (i32, i32) {
    match term {
        Term::Mobility => (MOB_MG, MOB_EG),
        Term::Threat => (THREAT_MG, THREAT_EG),
        Term::Passed => (100, 100),
        Term::Shelter => (SHELTER, 0),
        Term::ShelterPawn => (SHELTER_PAWN, 0),
        Term::KingDanger => (DANGER_MG, 0),
        Term::Centre => (CENTRE_MG as i32, CENTRE_EG as i32),
        Term::Doubled | Term::Isolated | Term::Phalanx => (0, 0),
    }
}

/// The expected mobility of one table entry in the density model, accumulated into `reach`
/// (per destination square, the probability of reaching it: unions over entries).
fn entry_reach(tables: &crate::tables::Tables, e: &Entry, p: f64, reach: &mut [f64]) {
    let mut pc = 1.0;
    for c in tables.conds_of(e) {
        pc *= if c.occupied { p } else { 1.0 - p };
    }
    let modes = e.modes();
    let m = if modes.quiet { 1.0 } else { 0.0 };
    let c = if modes.capture { 1.0 } else { 0.0 };
    let land = (1.0 - p) * m + p * c;
    if land == 0.0 {
        return;
    }
    let dests = tables.squares_of(e);
    for (k, &d) in dests.iter().enumerate() {
        let before = match e.shape() {
            Shape::Leap => 1.0,
            Shape::Hop => {
                // Exactly one screen among the k squares before.
                if k == 0 {
                    0.0
                } else {
                    k as f64 * p * (1.0 - p).powi(k as i32 - 1)
                }
            }
            Shape::Grass => {
                // The square just before is the screen, everything before it empty.
                if k == 0 {
                    0.0
                } else {
                    p * (1.0 - p).powi(k as i32 - 1)
                }
            }
            Shape::Slide => (1.0 - p).powi(k as i32),
        };
        let q = pc * before * land;
        let r = &mut reach[d.index()];
        *r = 1.0 - (1.0 - *r) * (1.0 - q);
    }
}

/// Expected squares reached by `kind` (as White) from `sq` with occupation density `p`.
fn mobility_at(rules: &Ruleset, kind: usize, sq: Square, p: f64, buf: &mut [f64]) -> f64 {
    buf.iter_mut().for_each(|x| *x = 0.0);
    for e in rules.tables.entries_at(kind, Color::White, sq) {
        entry_reach(&rules.tables, e, p, buf);
    }
    buf.iter().sum()
}

/// Average of [`mobility_at`] over every square of the board.
fn average_mobility(rules: &Ruleset, kind: usize, p: f64) -> f64 {
    let size = rules.geometry.size();
    let mut buf = vec![0.0; size];
    let total: f64 = (0..size)
        .map(|s| mobility_at(rules, kind, Square::from_index(s), p, &mut buf))
        .sum();
    total / size as f64
}

/// A value in centipawns derived from a piece's movement: `54 m + 0.94 m²` where `m` is its
/// average expected mobility at density 0.3, times `(64 / squares)^0.4`. The curve puts the
/// FIDE knight near 310, the rook near 500 and the queen near 940 on an 8×8 board; the board
/// factor accounts for a pawn's worth growing with the board (on 12×12 it puts the Metamachy
/// knight near 260, the rook near 440 and the queen near 880).
pub fn derived_value(rules: &Ruleset, kind: usize) -> i32 {
    let m = average_mobility(rules, kind, DENSITY);
    let board = (64.0 / rules.geometry.size() as f64).powf(0.4);
    ((54.0 * m + 0.94 * m * m) * board).round() as i32
}

/// What the positional terms of an evaluation found, per side (White first): see
/// [`Evaluator::trace`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trace {
    /// Passed pawn-like pieces: no enemy pawn-like piece ahead on its file or the files
    /// beside it.
    pub passed: [i32; 2],
    /// Enemy pieces attacked by a piece of lower value.
    pub threats: [i32; 2],
    /// Pieces attacking the squares next to the enemy's royal piece.
    pub attackers: [i32; 2],
    /// Their weighted hits on those squares (the penalty counts with two attackers or more).
    pub danger: [i32; 2],
    /// Per side and [`Term`]: what the term's (middlegame, endgame) weight multiplies, so
    /// that the term adds `weight.0 · f.0` to the side's middlegame score and `weight.1 ·
    /// f.1` to its endgame score (as the evaluation computes it, up to rounding; King
    /// danger as if its cap were not reached where it is not).
    pub features: [[(f64, f64); Term::COUNT]; 2],
}

/// One side's tallies in an evaluation, from which [`Evaluator::features`] derives what each
/// term's weight multiplies.
#[derive(Clone, Copy, Debug)]
struct Tally {
    /// Mobility: the sum over pieces of (squares × 16 − expected) × the piece's weight.
    mob: i32,
    /// The centralisation of its pieces.
    centre: f64,
    /// The derived bonuses of its passed pawn-like pieces (middlegame, endgame).
    passed: (i32, i32),
    /// Friendly pieces next to its royal piece, and pawn-like ones ahead of it.
    shelter: (i32, i32),
    /// Its doubled, isolated and phalanx pawn-like pieces.
    shape: [i32; 3],
    /// Enemy pieces it attacks with a cheaper piece.
    threats: i32,
    /// Its pieces attacking the enemy royal zone, and their weighted hits.
    attackers: i32,
    danger: i32,
}

/// The evaluator of one ruleset.
#[derive(Clone, Debug)]
pub struct Evaluator {
    size: usize,
    nkinds: usize,
    /// Per kind: material value (0 for royal pieces).
    pub values: Vec<i32>,
    /// Per kind: value for move ordering (royal pieces count as very valuable).
    pub order_values: Vec<i32>,
    /// Per kind: whether it promotes.
    pub pawnlike: Vec<bool>,
    royal: Vec<bool>,
    /// Per `code * size + sq`: material and square terms, middlegame and endgame, from the
    /// owner's point of view.
    psq_mg: Vec<i32>,
    psq_eg: Vec<i32>,
    /// Per kind: expected mobility (subtracted from the actual count), in 1/16 squares.
    mob_expect: Vec<i32>,
    /// Per kind: whether dynamic mobility is counted.
    mob_on: Vec<bool>,
    /// Per kind: mobility weight in 1/16 of the base weight.
    mob_weight: Vec<i32>,
    /// Per kind: contribution to the game phase.
    phase_weight: Vec<i32>,
    phase_total: i32,
    /// Mobility weights, middlegame and endgame.
    mob_mg: i32,
    mob_eg: i32,
    /// Per `code * size + sq`: the bonus of a passed pawn-like piece there (middlegame,
    /// endgame; 0 for other pieces).
    passed_mg: Vec<i32>,
    passed_eg: Vec<i32>,
    /// Per kind: its weight as an attacker of the squares next to a royal piece.
    danger_weight: Vec<i32>,
    /// Per [`Term`]: its (middlegame, endgame) weight.
    w: [(i32, i32); Term::COUNT],
    /// Whether any pawn-structure term has a weight.
    structure: bool,
    /// Per `code * size + sq`: the square's centralisation (what [`Term::Centre`] weighs).
    centre: Vec<f32>,
    /// Per square: the squares next to it (within one file and one rank), as a bitset.
    zone: Vec<[u64; 4]>,
    /// What the mobility term walks for each piece on each square ([`Walks`]).
    walks: Walks,
}

/// The evaluation's own copy of the move tables' entries that its mobility term walks, by
/// `code * size + sq`: the plain leaps and slides (no condition, no limit on what they take)
/// as flat lists of destinations, which the evaluation reads in tight loops, and every other
/// entry as it is, walked by the tables' interpreter. A pawn-like piece keeps only its
/// capturing entries (its quiet moves do not count as mobility).
#[derive(Clone, Debug, Default)]
struct Walks {
    /// Per `code * size + sq`: where its leaps, its rays and its other entries start and end
    /// in the lists below.
    at: Vec<[u32; 6]>,
    leaps: Vec<LeapTo>,
    rays: Vec<RayWalk>,
    /// The squares of the rays, in order.
    ray_squares: Vec<Square>,
    entries: Vec<Entry>,
}

/// A plain leap's destination and what the leap may do there.
#[derive(Clone, Copy, Debug)]
struct LeapTo {
    to: Square,
    quiet: bool,
    capture: bool,
}

/// A plain slide: its squares (`ray_squares[start..end]`) and what it may do where it lands.
#[derive(Clone, Copy, Debug)]
struct RayWalk {
    start: u32,
    end: u32,
    quiet: bool,
    capture: bool,
}

impl Walks {
    /// The walks of every piece that has a mobility or attack term (`walked`) on every
    /// square, for both colours.
    fn new(rules: &Ruleset, walked: impl Fn(usize) -> bool, counts_quiet: &[bool]) -> Walks {
        let g = rules.geometry;
        let size = g.size();
        let t = &rules.tables;
        let mut w = Walks {
            at: vec![[0; 6]; 256 * size],
            ..Walks::default()
        };
        for k in (0..rules.variant.pieces.len()).filter(|&k| walked(k)) {
            for color in [Color::White, Color::Black] {
                let c = code(k, color).index();
                for sq in g.squares() {
                    let (l0, r0, e0) = (
                        w.leaps.len() as u32,
                        w.rays.len() as u32,
                        w.entries.len() as u32,
                    );
                    for e in t.entries_at(k, color, sq) {
                        let modes = e.modes();
                        if !counts_quiet[k] && !modes.capture {
                            continue;
                        }
                        let plain = e.cond_len == 0 && e.limits() == 0;
                        match e.shape() {
                            Shape::Leap if plain => w.leaps.push(LeapTo {
                                to: t.squares_of(e)[0],
                                quiet: modes.quiet,
                                capture: modes.capture,
                            }),
                            Shape::Slide if plain => {
                                let start = w.ray_squares.len() as u32;
                                w.ray_squares.extend_from_slice(t.squares_of(e));
                                w.rays.push(RayWalk {
                                    start,
                                    end: w.ray_squares.len() as u32,
                                    quiet: modes.quiet,
                                    capture: modes.capture,
                                });
                            }
                            _ => w.entries.push(*e),
                        }
                    }
                    w.at[c * size + sq.index()] = [
                        l0,
                        w.leaps.len() as u32,
                        r0,
                        w.rays.len() as u32,
                        e0,
                        w.entries.len() as u32,
                    ];
                }
            }
        }
        w
    }
}

impl Evaluator {
    /// Builds the evaluator: values, square tables and weights, all from `rules`.
    #[expect(
        clippy::too_many_lines,
        reason = "each table is derived from those built before it, all from the rules"
    )]
    pub fn new(rules: &Ruleset) -> Evaluator {
        let g = rules.geometry;
        let size = g.size();
        let pieces = &rules.variant.pieces;
        let nkinds = pieces.len();
        // With royal succession a King may be captured while an heir remains: it is material
        // like any piece (its `value`, or the value of its movement).
        let royal: Vec<bool> = pieces
            .iter()
            .map(|p| p.royal && !rules.royal_succession())
            .collect();
        let pawnlike: Vec<bool> = (0..nkinds)
            .map(|k| !pieces[k].promotes_to.is_empty() && !royal[k])
            .collect();
        // Material: the `[eval]` table's pair (middlegame, endgame) where it gives one, else
        // the piece's `value`, else the value derived from its movement.
        let table = rules.variant.eval.as_ref();
        let tuned: Vec<Option<(i32, i32)>> = (0..nkinds)
            .map(|k| {
                table
                    .and_then(|t| t.values.get(k).copied().flatten())
                    .filter(|_| !royal[k])
                    .map(|(mg, eg)| (mg.max(0), eg.max(0)))
            })
            .collect();
        let values: Vec<i32> = (0..nkinds)
            .map(|k| {
                if royal[k] {
                    0
                } else if let Some((mg, eg)) = tuned[k] {
                    (mg + eg) / 2
                } else {
                    pieces[k]
                        .value
                        .unwrap_or_else(|| derived_value(rules, k))
                        .max(0)
                }
            })
            .collect();
        let mut w = [(0, 0); Term::COUNT];
        for t in Term::ALL {
            w[t as usize] = table
                .and_then(|x| x.term(t))
                .unwrap_or_else(|| term_default(t));
        }
        let (mob_mg, mob_eg) = w[Term::Mobility as usize];
        let (centre_mg, centre_eg) = w[Term::Centre as usize];
        let structure = [Term::Doubled, Term::Isolated, Term::Phalanx]
            .iter()
            .any(|&t| w[t as usize] != (0, 0));
        let max_value = values.iter().copied().max().unwrap_or(100).max(100);
        let order_values: Vec<i32> = (0..nkinds)
            .map(|k| {
                if royal[k] {
                    max_value * 2 + 100
                } else {
                    values[k]
                }
            })
            .collect();

        // Empty-board mobility per kind and square (for centralisation), and its average.
        let mut buf = vec![0.0; size];
        let mut empty_mob = vec![vec![0.0; size]; nkinds];
        let mut empty_avg = vec![0.0; nkinds];
        for (k, row) in empty_mob.iter_mut().enumerate() {
            for (sq, m) in row.iter_mut().enumerate() {
                *m = mobility_at(rules, k, Square::from_index(sq), 0.0, &mut buf);
            }
            empty_avg[k] = row.iter().sum::<f64>() / size as f64;
        }
        // Expected mobility in play, at the model density.
        let mob_expect: Vec<i32> = (0..nkinds)
            .map(|k| (average_mobility(rules, k, DENSITY) * 16.0).round() as i32)
            .collect();
        let mob_on: Vec<bool> = (0..nkinds).map(|k| !royal[k] && !pawnlike[k]).collect();
        let mob_weight: Vec<i32> = (0..nkinds)
            .map(|k| (16.0 * 2.5 / empty_avg[k].max(1.0).sqrt()).round() as i32)
            .collect();

        // Promotion zone distance: for White, the lowest rank of the zone.
        let zone_rank_white = g
            .squares()
            .filter(|&s| (0..nkinds).any(|k| rules.promotes_on(k, Color::White, s)))
            .map(|s| g.rank(s))
            .min()
            .unwrap_or(g.ranks - 1);
        // Start rank of each pawn-like kind (as White): the lowest rank it stands on at start.
        let start_rank: Vec<u8> = (0..nkinds)
            .map(|k| {
                g.squares()
                    .filter(|&s| rules.start[s.index()] == code(k, Color::White))
                    .map(|s| g.rank(s))
                    .min()
                    .unwrap_or(0)
            })
            .collect();
        // What promoting gains, per pawn-like kind.
        let promo_gain: Vec<i32> = (0..nkinds)
            .map(|k| {
                let best = pieces[k]
                    .promotes_to
                    .iter()
                    .map(|&t| values[t])
                    .max()
                    .unwrap_or(0);
                (best - values[k]).max(0)
            })
            .collect();

        let mut psq_mg = vec![0; 256 * size];
        let mut psq_eg = vec![0; 256 * size];
        let mut passed_mg = vec![0; 256 * size];
        let mut passed_eg = vec![0; 256 * size];
        let mut centre_of = vec![0f32; 256 * size];
        let centre_file = (g.files as f64 - 1.0) / 2.0;
        let centre_rank = (g.ranks as f64 - 1.0) / 2.0;
        let max_dist = centre_file.max(centre_rank).max(1.0);
        for k in 0..nkinds {
            for color in [Color::White, Color::Black] {
                let c = code(k, color).index();
                for sq in g.squares() {
                    // The square as seen from White: Black's pieces use the mirrored rank.
                    let wsq = if color == Color::White {
                        sq
                    } else {
                        g.mirror_rank(sq)
                    };
                    let rank = g.rank(wsq) as i32;
                    let (mut mg, mut eg) = match tuned[k] {
                        Some((m, e)) => (m as f64, e as f64),
                        None => (values[k] as f64, values[k] as f64),
                    };
                    let spread = empty_avg[k].max(1.0).sqrt();
                    let centre = (empty_mob[k][wsq.index()] - empty_avg[k]) / spread;
                    if royal[k] {
                        // Stay home in the middlegame; come to the centre in the endgame.
                        mg -= ROYAL_ADVANCE_MG * rank.min(3) as f64;
                        let df = (g.file(wsq) as f64 - centre_file).abs();
                        let dr = (g.rank(wsq) as f64 - centre_rank).abs();
                        let d = df.max(dr) / max_dist;
                        eg += ROYAL_CENTRE_EG
                            * (1.0 - 2.0 * d)
                            * (g.files.max(g.ranks) as f64 / 8.0).sqrt();
                    } else {
                        mg += centre_mg as f64 * centre;
                        eg += centre_eg as f64 * centre;
                        centre_of[c * size + sq.index()] = centre as f32;
                    }
                    if pawnlike[k] {
                        let from = start_rank[k] as i32;
                        let to = zone_rank_white as i32;
                        if to > from && rank > from {
                            let t = ((rank - from) as f64 / (to - from) as f64).min(1.0);
                            let gain = promo_gain[k] as f64;
                            mg += 0.04 * gain * t * t + 4.0 * t;
                            eg += 0.18 * gain * t * t + 10.0 * t;
                            let i = c * size + sq.index();
                            passed_mg[i] = (5.0 + 0.05 * gain * t * t).round() as i32;
                            passed_eg[i] = (10.0 + 0.22 * gain * t * t).round() as i32;
                        }
                    }
                    psq_mg[c * size + sq.index()] = mg.round() as i32;
                    psq_eg[c * size + sq.index()] = eg.round() as i32;
                }
            }
        }

        let phase_weight: Vec<i32> = (0..nkinds)
            .map(|k| {
                if royal[k] || pawnlike[k] {
                    0
                } else {
                    values[k]
                }
            })
            .collect();
        let phase_total = rules
            .start
            .iter()
            .filter(|&&c| c != EMPTY)
            .map(|&c| phase_weight[kind_of(c)])
            .sum::<i32>()
            .max(1);

        let danger_weight: Vec<i32> = (0..nkinds)
            .map(|k| if royal[k] { 0 } else { values[k] / 100 + 2 })
            .collect();
        let zone: Vec<[u64; 4]> = (0..size)
            .map(Square::from_index)
            .map(|sq| {
                let mut z = [0u64; 4];
                for t in g.squares() {
                    let df = (g.file(t) as i32 - g.file(sq) as i32).abs();
                    let dr = (g.rank(t) as i32 - g.rank(sq) as i32).abs();
                    if df <= 1 && dr <= 1 {
                        z[t.index() >> 6] |= 1 << (t.index() & 63);
                    }
                }
                z
            })
            .collect();

        let walks = Walks::new(rules, |k| mob_on[k] || pawnlike[k], &mob_on);
        Evaluator {
            walks,
            size,
            nkinds,
            values,
            order_values,
            pawnlike,
            royal,
            psq_mg,
            psq_eg,
            mob_expect,
            mob_on,
            mob_weight,
            phase_weight,
            phase_total,
            mob_mg,
            mob_eg,
            passed_mg,
            passed_eg,
            danger_weight,
            zone,
            w,
            structure,
            centre: centre_of,
        }
    }

    /// The material value of a piece code (0 for empty squares and royal pieces).
    #[inline]
    pub fn value_of(&self, c: Code) -> i32 {
        if c == EMPTY {
            0
        } else {
            self.values[kind_of(c)]
        }
    }

    /// The (middlegame, endgame) weight of `term`: the variant's `[eval.terms]`, else the
    /// default.
    pub fn weight(&self, term: Term) -> (i32, i32) {
        self.w[term as usize]
    }

    /// The number of piece kinds.
    pub fn kinds(&self) -> usize {
        self.nkinds
    }

    /// The game phase of a position: 256 at full material, 0 with no non-pawn pieces.
    pub fn phase(&self, pos: &Position) -> i32 {
        let board = pos.board();
        let mut m = 0;
        for &c in &board[..self.size] {
            if c != EMPTY {
                m += self.phase_weight[kind_of(c)];
            }
        }
        (m * PHASE_MAX / self.phase_total).min(PHASE_MAX)
    }

    /// The evaluation of `pos` in centipawns from the side to move's point of view.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.eval_inner(pos, true, None)
    }

    /// The evaluation of `pos` with what its positional terms found, per side.
    pub fn trace(&self, pos: &Position) -> (i32, Trace) {
        let mut t = Trace::default();
        let s = self.eval_inner(pos, true, Some(&mut t));
        (s, t)
    }

    /// A cheaper evaluation without the mobility and shelter terms (which rarely move the
    /// score by more than [`LAZY_MARGIN`]).
    pub fn evaluate_fast(&self, pos: &Position) -> i32 {
        self.eval_inner(pos, false, None)
    }

    /// What the piece on `at` reaches: the number of squares its mobility counts (empty
    /// squares where it may move, enemy pieces it may take), and its hits on `ezone` (the
    /// enemy royal zone: squares where it may capture); each enemy piece it may take that is
    /// worth more than it is marked in `thr`. Pawn-like pieces walk their captures only.
    #[inline]
    fn walk(
        &self,
        t: &crate::tables::Tables,
        board: &[Code; 256],
        at: Square,
        ezone: &[u64; 4],
        thr: &mut [u64; 4],
    ) -> (i32, i32) {
        let c = board[at.index()];
        let col = color_of(c);
        let idx = c.index() * self.size + at.index();
        let mut n = 0i32;
        let mut hits = 0i32;
        let my_value = self.values[kind_of(c)];
        let [l0, l1, r0, r1, e0, e1] = self.walks.at[idx];
        for l in &self.walks.leaps[l0 as usize..l1 as usize] {
            let to = l.to.index();
            let o = board[to];
            if o == EMPTY {
                n += l.quiet as i32;
            } else if l.capture && color_of(o) != col {
                n += 1;
                if self.value_of(o) > my_value {
                    thr[to >> 6] |= 1u64 << (to & 63);
                }
            } else {
                continue;
            }
            if l.capture && ezone[to >> 6] & (1u64 << (to & 63)) != 0 {
                hits += 1;
            }
        }
        for r in &self.walks.rays[r0 as usize..r1 as usize] {
            for &to in &self.walks.ray_squares[r.start as usize..r.end as usize] {
                let to = to.index();
                let o = board[to];
                let bit = 1u64 << (to & 63);
                if o == EMPTY {
                    n += r.quiet as i32;
                    if r.capture && ezone[to >> 6] & bit != 0 {
                        hits += 1;
                    }
                    continue;
                }
                if r.capture && color_of(o) != col {
                    n += 1;
                    if self.value_of(o) > my_value {
                        thr[to >> 6] |= bit;
                    }
                    if ezone[to >> 6] & bit != 0 {
                        hits += 1;
                    }
                }
                break;
            }
        }
        for e in &self.walks.entries[e0 as usize..e1 as usize] {
            let capture = e.modes().capture;
            let quiet = e.modes().quiet as i32;
            t.reach(e, board, col, |to, landing| {
                let bit = 1u64 << (to.index() & 63);
                let w = to.index() >> 6;
                match landing {
                    Landing::Empty => n += quiet,
                    Landing::Enemy => {
                        n += 1;
                        if self.value_of(board[to.index()]) > my_value {
                            thr[w] |= bit;
                        }
                    }
                }
                if capture && ezone[w] & bit != 0 {
                    hits += 1;
                }
            });
        }
        (n, hits)
    }

    /// What each term's weight multiplies for one side (see [`Trace::features`]), from its
    /// tallies in one evaluation.
    fn features(&self, t: &Tally) -> [(f64, f64); Term::COUNT] {
        let Tally {
            mob,
            centre,
            passed,
            shelter,
            shape,
            threats,
            attackers,
            danger,
        } = *t;
        let mut f = [(0.0, 0.0); Term::COUNT];
        let same = |x: f64| (x, x);
        f[Term::Mobility as usize] = same(mob as f64 / 256.0);
        f[Term::Threat as usize] = same(threats as f64);
        f[Term::Passed as usize] = (passed.0 as f64 / 100.0, passed.1 as f64 / 100.0);
        f[Term::Shelter as usize] = same(shelter.0 as f64);
        f[Term::ShelterPawn as usize] = same(shelter.1 as f64);
        if attackers >= 2 {
            // Linear up to the cap: where the current weight reaches it, the feature is what
            // that weight needs to reach it.
            let d2 = danger as f64 * danger as f64 / 256.0;
            let capped = |w: i32| {
                if w > 0 {
                    d2.min(DANGER_MAX as f64 / w as f64)
                } else {
                    d2
                }
            };
            let (dm, de) = self.w[Term::KingDanger as usize];
            f[Term::KingDanger as usize] = (capped(dm), capped(de));
        }
        f[Term::Centre as usize] = same(centre);
        for (t, n) in [Term::Doubled, Term::Isolated, Term::Phalanx]
            .into_iter()
            .zip(shape)
        {
            f[t as usize] = same(n as f64);
        }
        f
    }

    #[expect(
        clippy::too_many_lines,
        reason = "the evaluation's hot path: one pass over the pieces gathers every term"
    )]
    fn eval_inner(&self, pos: &Position, full: bool, trace: Option<&mut Trace>) -> i32 {
        let tracing = trace.is_some();
        let rules = pos.rules();
        let t = &rules.tables;
        let g = rules.geometry;
        let board = pos.board();
        let mut mg = [0i32; 2];
        let mut eg = [0i32; 2];
        let mut material = [0i32; 2];
        let mut pawns = [0i32; 2];
        let mut phase_m = 0;
        let mut mob = [0i32; 2];
        // For the full evaluation: per file (offset by one), the lowest rank of a White
        // pawn-like piece and the highest of a Black one (what a passed pawn must be beyond),
        // and each side's royal zone.
        let mut white_low = [i32::MAX; 18];
        let mut black_high = [i32::MIN; 18];
        let mut zones = [[0u64; 4]; 2];
        // Per side: the enemy pieces it attacks with a piece of lower value, and its attack on
        // the enemy royal zone (attackers, weighted hits).
        let mut threatened = [[0u64; 4]; 2];
        let mut attackers = [0i32; 2];
        let mut danger = [0i32; 2];
        let mut passed_n = [0i32; 2];
        // Per side: friendly pieces next to the royal piece, and pawn-like ones ahead of it.
        let mut shelter = [(0i32, 0i32); 2];
        // Per side and file (offset by one): its pawn-like pieces, for the structure terms;
        // per side, its (doubled, isolated, phalanx) pawn-like pieces.
        let structure = full && (self.structure || tracing);
        let mut on_file = [[0i32; 18]; 2];
        let mut shape = [[0i32; 3]; 2];
        // For the trace only: per side, the centralisation of its pieces and the derived
        // bonuses of its passed pawn-like pieces (middlegame, endgame).
        let mut centre = [0f64; 2];
        let mut passed_bonus = [(0i32, 0i32); 2];
        if full {
            for sq in pos
                .occupied(Color::White)
                .iter()
                .chain(pos.occupied(Color::Black).iter())
            {
                let c = board[sq.index()];
                if self.pawnlike[kind_of(c)] {
                    let (f, r) = (g.file(sq) as usize + 1, g.rank(sq) as i32);
                    if color_of(c) == Color::White {
                        white_low[f] = white_low[f].min(r);
                    } else {
                        black_high[f] = black_high[f].max(r);
                    }
                    if structure {
                        on_file[color_of(c).index()][f] += 1;
                    }
                }
            }
            for col in [Color::White, Color::Black] {
                if let Some(k) = pos.royal_square(col) {
                    zones[col.index()] = self.zone[k.index()];
                }
            }
        }
        // Every piece, by the side's occupied squares (sums: the order does not matter).
        for at in pos
            .occupied(Color::White)
            .iter()
            .chain(pos.occupied(Color::Black).iter())
        {
            let sq = at.index();
            let c = board[sq];
            let col = color_of(c);
            let ci = col.index();
            let k = kind_of(c);
            let idx = c.index() * self.size + sq;
            mg[ci] += self.psq_mg[idx];
            eg[ci] += self.psq_eg[idx];
            phase_m += self.phase_weight[k];
            if self.pawnlike[k] {
                pawns[ci] += 1;
            } else {
                material[ci] += self.values[k];
            }
            if tracing {
                centre[ci] += self.centre[idx] as f64;
            }
            if !full {
                continue;
            }
            if self.mob_on[k] || self.pawnlike[k] {
                let ezone = &zones[1 - ci];
                let thr = &mut threatened[ci];
                let (n, hits) = self.walk(t, board, at, ezone, thr);
                if self.mob_on[k] {
                    mob[ci] += (n * 16 - self.mob_expect[k]) * self.mob_weight[k];
                }
                if hits > 0 {
                    attackers[ci] += 1;
                    danger[ci] += hits * self.danger_weight[k];
                }
                if self.pawnlike[k] {
                    let f = g.file(at) as usize + 1;
                    let r = g.rank(at) as i32;
                    let passed = if col == Color::White {
                        black_high[f - 1] <= r && black_high[f] <= r && black_high[f + 1] <= r
                    } else {
                        white_low[f - 1] >= r && white_low[f] >= r && white_low[f + 1] >= r
                    };
                    if passed {
                        passed_n[ci] += 1;
                        let (wm, we) = self.w[Term::Passed as usize];
                        mg[ci] += self.passed_mg[idx] * wm / 100;
                        eg[ci] += self.passed_eg[idx] * we / 100;
                        if tracing {
                            let b = &mut passed_bonus[ci];
                            *b = (b.0 + self.passed_mg[idx], b.1 + self.passed_eg[idx]);
                        }
                    }
                    if structure {
                        // A pawn-like piece beside it on the next file, same rank.
                        if (f as u8) < g.files {
                            let o = board[g.square(f as u8, r as u8).index()];
                            if o != EMPTY && color_of(o) == col && self.pawnlike[kind_of(o)] {
                                shape[ci][2] += 1;
                            }
                        }
                        if on_file[ci][f - 1] == 0 && on_file[ci][f + 1] == 0 {
                            shape[ci][1] += 1;
                        }
                    }
                }
            } else if self.royal[k] {
                // Shelter: friendly pieces on the squares the royal piece could step to.
                let (mut near, mut ahead_pawns) = (0, 0);
                for e in t.entries_at(k, col, at) {
                    if e.shape() != Shape::Leap {
                        continue;
                    }
                    let d = t.squares_of(e)[0];
                    let o = board[d.index()];
                    if o != EMPTY && color_of(o) == col {
                        near += 1;
                        let ahead = if col == Color::White {
                            g.rank(d) > g.rank(at)
                        } else {
                            g.rank(d) < g.rank(at)
                        };
                        if ahead && self.pawnlike[kind_of(o)] {
                            ahead_pawns += 1;
                        }
                    }
                }
                let (sm, se) = self.w[Term::Shelter as usize];
                let (pm, pe) = self.w[Term::ShelterPawn as usize];
                mg[ci] += near * sm + ahead_pawns * pm;
                eg[ci] += near * se + ahead_pawns * pe;
                shelter[ci] = (near, ahead_pawns);
            }
        }
        if rules.has_hands() {
            // Pieces in hand count as material (no square term: they stand nowhere yet).
            for col in [Color::White, Color::Black] {
                let ci = col.index();
                for k in 0..self.values.len() {
                    let n = pos.hand(col, k) as i32;
                    if n == 0 {
                        continue;
                    }
                    mg[ci] += n * self.values[k];
                    eg[ci] += n * self.values[k];
                    phase_m += n * self.phase_weight[k];
                    if self.pawnlike[k] {
                        pawns[ci] += n;
                    } else {
                        material[ci] += n * self.values[k];
                    }
                }
            }
        }
        for ci in 0..2 {
            mg[ci] += mob[ci] * self.mob_mg / (16 * 16);
            eg[ci] += mob[ci] * self.mob_eg / (16 * 16);
            if full {
                let n: i32 = threatened[ci].iter().map(|w| w.count_ones() as i32).sum();
                let (tm, te) = self.w[Term::Threat as usize];
                mg[ci] += n * tm;
                eg[ci] += n * te;
                if attackers[ci] >= 2 {
                    let d2 = danger[ci] as i64 * danger[ci] as i64;
                    let (dm, de) = self.w[Term::KingDanger as usize];
                    let cap = DANGER_MAX as i64;
                    mg[ci] += (d2 * dm as i64 / 256).min(cap) as i32;
                    eg[ci] += (d2 * de as i64 / 256).min(cap) as i32;
                }
                if structure {
                    shape[ci][0] = on_file[ci].iter().map(|&n| (n - 1).max(0)).sum();
                    for (t, n) in [Term::Doubled, Term::Isolated, Term::Phalanx]
                        .into_iter()
                        .zip(shape[ci])
                    {
                        let (wm, we) = self.w[t as usize];
                        mg[ci] += n * wm;
                        eg[ci] += n * we;
                    }
                }
            }
        }
        if let Some(t) = trace {
            for ci in 0..2 {
                t.passed[ci] = passed_n[ci];
                t.threats[ci] = threatened[ci].iter().map(|w| w.count_ones() as i32).sum();
                t.attackers[ci] = attackers[ci];
                t.danger[ci] = danger[ci];
                t.features[ci] = self.features(&Tally {
                    mob: mob[ci],
                    centre: centre[ci],
                    passed: passed_bonus[ci],
                    shelter: shelter[ci],
                    shape: shape[ci],
                    threats: t.threats[ci],
                    attackers: attackers[ci],
                    danger: danger[ci],
                });
            }
        }
        let phase = (phase_m * PHASE_MAX / self.phase_total).min(PHASE_MAX);
        let mgs = mg[0] - mg[1];
        let egs = eg[0] - eg[1];
        // In 64 bits: a file may value pieces at up to ±20,000 each.
        let blend = (mgs as i64 * phase as i64 + egs as i64 * (PHASE_MAX - phase) as i64)
            / PHASE_MAX as i64;
        let mut score = blend.clamp(-(EVAL_LIMIT as i64), EVAL_LIMIT as i64) as i32;
        // A side without pawn-like pieces and with little extra material rarely wins.
        let strong = if score > 0 { 0 } else { 1 };
        if pawns[strong] == 0 && material[strong] - material[1 - strong] < 350 {
            score /= 4;
        }
        let s = if pos.side() == Color::White {
            score
        } else {
            -score
        };
        (s + TEMPO).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chess() -> std::sync::Arc<Ruleset> {
        let v = crate::variant::Variant::load("chess").unwrap();
        Ruleset::new(&v, None).unwrap()
    }

    /// The evaluation's flat walks ([`Walks`]) reach what the tables' interpreter reaches:
    /// the same mobility count, royal-zone hits and threatened pieces for every piece of
    /// random positions of games with leapers, riders, bent riders, hoppers with limits,
    /// lame leapers and locust leaps, with every square counted as royal zone.
    #[test]
    fn flat_walks_reach_what_the_tables_reach() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as u32
        };
        let mut walked = 0;
        for name in [
            "chess",
            "metamachy",
            "shako",
            "janggi",
            "xiangqi",
            "chushogi",
            "terachess2",
        ] {
            let v = crate::variant::Variant::load(name).unwrap();
            let rules = Ruleset::new(&v, None).unwrap();
            let ev = Evaluator::new(&rules);
            let t = &rules.tables;
            for _ in 0..20 {
                // A random game of up to 120 plies (the search layer plays it itself).
                let mut pos = Position::start(&rules);
                let mut list = crate::moves::MoveList::new();
                for _ in 0..next() % 120 {
                    pos.legal_moves(&mut list);
                    if list.is_empty() || pos.final_ending().is_some() {
                        break;
                    }
                    pos.make(list.as_slice()[next() as usize % list.len()]);
                }
                let board = pos.board();
                let ezone = [u64::MAX; 4];
                for at in rules.geometry.squares() {
                    let c = board[at.index()];
                    let k = if c == EMPTY { continue } else { kind_of(c) };
                    if !ev.mob_on[k] && !ev.pawnlike[k] {
                        continue;
                    }
                    let (col, mine) = (color_of(c), ev.values[k]);
                    let mut thr = [0u64; 4];
                    let got = ev.walk(t, board, at, &ezone, &mut thr);
                    let (mut n, mut hits, mut want_thr) = (0, 0, [0u64; 4]);
                    for e in t.entries_at(k, col, at) {
                        let (quiet, capture) = (e.modes().quiet, e.modes().capture);
                        if !ev.mob_on[k] && !capture {
                            continue;
                        }
                        t.reach(e, board, col, |to, landing| {
                            match landing {
                                Landing::Empty => n += quiet as i32,
                                Landing::Enemy => {
                                    n += 1;
                                    if ev.value_of(board[to.index()]) > mine {
                                        want_thr[to.index() >> 6] |= 1 << (to.index() & 63);
                                    }
                                }
                            }
                            hits += capture as i32;
                        });
                    }
                    let fen = pos.fen();
                    assert_eq!(got, (n, hits), "{name}: the piece on {at:?} in {fen}");
                    assert_eq!(thr, want_thr, "{name}: threats of {at:?} in {fen}");
                    walked += 1;
                }
            }
        }
        assert!(walked > 2_000, "only {walked} pieces walked");
    }

    #[test]
    fn derived_values_of_fide_pieces_are_close_to_the_usual_ones() {
        let rs = chess();
        let by = |l: char| derived_value(&rs, rs.variant.kind_by_letter(l).unwrap());
        let (n, b, r, q) = (by('N'), by('B'), by('R'), by('Q'));
        assert!((250..=370).contains(&n), "knight {n}");
        assert!((250..=400).contains(&b), "bishop {b}");
        assert!((430..=580).contains(&r), "rook {r}");
        assert!((800..=1050).contains(&q), "queen {q}");
    }

    fn trace(fen: &str) -> (i32, Trace) {
        let rs = chess();
        let e = Evaluator::new(&rs);
        let p = Position::from_fen(&rs, fen).unwrap();
        e.trace(&p)
    }

    #[test]
    fn passed_pawns_are_those_with_no_enemy_pawn_ahead_beside_them() {
        // e5 is passed; the d7 pawn stops it; a pawn behind it (d4) does not.
        assert_eq!(trace("4k3/8/8/4P3/8/8/8/4K3 w - - 0 1").1.passed, [1, 0]);
        assert_eq!(trace("4k3/3p4/8/4P3/8/8/8/4K3 w - - 0 1").1.passed, [0, 0]);
        assert_eq!(trace("4k3/8/8/4P3/3p4/8/8/4K3 w - - 0 1").1.passed, [1, 1]);
        // Far files do not count.
        assert_eq!(trace("4k3/p7/8/4P3/8/8/8/4K3 w - - 0 1").1.passed, [1, 1]);
        // A passed pawn is worth more than the same pawn stopped by a pawn beside it.
        let free = trace("4k3/p7/8/4P3/8/8/8/4K3 w - - 0 1").0;
        let stopped = trace("4k3/5p2/8/4P3/8/8/8/4K3 w - - 0 1").0;
        assert!(free > stopped, "{free} vs {stopped}");
    }

    #[test]
    fn pieces_attacked_by_cheaper_ones_are_threats() {
        // The d4 pawn attacks the knight on e5 (a threat); the knight attacks nothing dearer.
        let (_, t) = trace("4k3/8/8/4n3/3P4/8/8/4K3 w - - 0 1");
        assert_eq!(t.threats, [1, 0]);
        // A queen attacked by a rook, a rook by a queen: only the first is a threat.
        let (_, t) = trace("7k/8/8/q3R3/8/8/8/7K w - - 0 1");
        assert_eq!(t.threats, [1, 0]);
    }

    #[test]
    fn king_danger_needs_two_attackers_and_costs_the_defender() {
        // One White piece near the Black king: counted, not penalised.
        let (_, t) = trace("6k1/8/8/8/8/8/8/R3K1Q1 b - - 0 1");
        assert_eq!(t.attackers, [1, 0]);
        // Queen and rook on the files beside the king: two attackers.
        let (s, t) = trace("6k1/8/8/8/8/8/8/4KRQ1 b - - 0 1");
        assert_eq!(t.attackers, [2, 0]);
        assert!(t.danger[0] > 0);
        // Black (to move) is worse off than with the same pieces aimed elsewhere.
        let (s_far, t_far) = trace("6k1/8/8/8/8/8/8/R1Q1K3 b - - 0 1");
        assert_eq!(t_far.attackers, [0, 0]);
        assert!(s < s_far, "{s} vs {s_far}");
    }

    #[test]
    fn start_position_is_balanced() {
        let rs = chess();
        let e = Evaluator::new(&rs);
        let p = Position::start(&rs);
        assert_eq!(e.evaluate(&p), TEMPO);
        assert_eq!(e.phase(&p), PHASE_MAX);
    }
}

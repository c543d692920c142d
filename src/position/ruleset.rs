//! A variant compiled for play: move tables, hook data, hash keys.

use std::sync::Arc;

use super::hooks::{Arrival, Builder, Draws, Rule, RuleCompiler, SpecialMove};
use crate::geometry::{Color, Geometry, Square};
use crate::moves::{Code, EMPTY, Move, code, kind_of};
use crate::tables::{Shape, Tables};
use crate::variant::{RuleSpec, Variant};

/// The variant with its tables, ready for positions to share.
#[derive(Debug)]
pub struct Ruleset {
    /// The checked variant.
    pub variant: Variant,
    /// The board: size and holes.
    pub geometry: Geometry,
    /// The pieces' movement, compiled.
    pub tables: Tables,
    /// The start position after the setup choice, rank 1 first.
    pub start: Vec<Code>,
    /// The setup chosen (`None`: the default).
    pub setup: Option<String>,
    /// Which rule is asked what.
    pub(crate) dispatch: Dispatch,
    /// The rights bits and what clears them.
    pub(crate) rights: Rights,
    /// What pieces may become, where.
    pub(crate) promotion: Promotion,
    /// Which pieces are royal and how check is judged with several.
    pub(crate) royalty: Royalty,
    /// Whether the sides have hands.
    pub(crate) hands: Hands,
    /// The rules' state words.
    pub(crate) state: StateSlots,
    /// Per kind: whether its moves are irreversible (reset the move-count clock).
    pub(crate) irreversible: Vec<bool>,
    /// The kinds that have an en-passant capture (bit = kind), as the rules left the tables.
    pub(crate) ep_capturers: u64,
    /// When a game is drawn.
    pub draws: Draws,
    /// The hash keys.
    pub(crate) keys: Keys,
}

/// Which rule is asked what: the rules in compilation order and, for each question the core
/// asks, the indices of the rules that answer it.
#[derive(Debug, Default)]
pub(crate) struct Dispatch {
    /// The rules, compiled, in compilation order (a rule's index is its place here).
    pub(crate) hooks: Vec<Box<dyn Rule>>,
    /// Indices of rules that add moves.
    pub(crate) generating: Vec<u8>,
    /// Indices of rules that may veto any move.
    pub(crate) vetoing: Vec<u8>,
    /// Rules asked about every drop once it is made ([`super::hooks::Rule::veto_made_drop`]).
    pub(crate) vetoing_drops: Vec<u8>,
    /// Indices of rules that update their state words after each move ([`Rule::on_make`]).
    pub(crate) state_makers: Vec<u8>,
    /// Indices of rules that may end a game ([`Rule::ending`]).
    pub(crate) enders: Vec<u8>,
    /// Indices of rules that may let a move leave its royal piece attacked
    /// ([`Rule::exempts_from_check`]).
    pub(crate) check_exempting: Vec<u8>,
    /// Indices of rules whose endings stand at once, moves or none
    /// ([`super::hooks::Builder::ends_games_at_once`]).
    pub(crate) final_enders: Vec<u8>,
    /// Bit `i`: the moves of rule `i` do more than ordinary moves, and the rule says what
    /// ([`super::hooks::Rule::effects`]).
    pub(crate) effect_rules: u64,
    /// Rule moves with names of their own (castling), as their rules registered them
    /// ([`Ruleset::special_for`] finds a move's).
    pub(crate) specials: Vec<SpecialMove>,
    /// Per kind (bit `kind`): a checkmate given by dropping this kind loses for the side that
    /// dropped it ([`super::hooks::Builder::mate_by_drop_loses`]).
    pub(crate) mate_drop_loses: u64,
}

/// The rights bits (castling, a rule's one-time moves) and what clears them.
#[derive(Debug)]
pub(crate) struct Rights {
    /// Rights cleared when a move starts or ends on a square.
    pub(crate) square_clears: Vec<u16>,
    /// Rights cleared when a piece code moves.
    pub(crate) code_clears: [u16; 256],
    /// Rights bits handed out so far.
    pub(crate) used: u16,
}

/// What pieces may become by promoting moves, where.
#[derive(Debug)]
pub(crate) struct Promotion {
    /// What a piece may become on arriving by a promoting move, by `tables.slot(kind, colour,
    /// square)`: an index in `arrivals` (0: it stays what it is).
    pub(crate) arrival_index: Vec<u16>,
    /// The arrivals `arrival_index` points to.
    pub(crate) arrivals: Vec<Arrival>,
    /// Per colour: the squares where some arrival is not the default (a quick test before
    /// the table is read).
    pub(crate) arrival_squares: [crate::moves::SquareSet; 2],
    /// What a piece may become by a promoting move that starts on a square and ends where no
    /// arrival applies (Shogi: a move out of the zone), by `tables.slot(kind, colour, square)`:
    /// an index in `arrivals` (0: it stays what it is).
    pub(crate) departure_index: Vec<u16>,
    /// Per colour: the squares where some departure is not the default.
    pub(crate) departure_squares: [crate::moves::SquareSet; 2],
    /// Whether any departure is set (the generator looks at departures only then).
    pub(crate) departures: bool,
    /// Per kind: the kind a promoted piece of this kind returns to a hand as (the first kind
    /// whose `promotes-to` lists it; itself when none does).
    pub(crate) unpromoted: Vec<u8>,
    /// Whether some piece may promote to a royal kind (legality then takes the slow path for
    /// promotions).
    pub(crate) to_royal: bool,
}

/// Which pieces are royal, and how check is judged when a side has several.
#[derive(Debug)]
pub(crate) struct Royalty {
    /// Per kind: whether it is royal.
    pub(crate) by_kind: Vec<bool>,
    /// Per piece code: whether it is royal (the empty code is not).
    pub(crate) by_code: [bool; 256],
    /// With several royal pieces, a side is in check only when every one is attacked (a rule
    /// such as `last-royal` sets it); otherwise when any is.
    pub(crate) check_needs_every: bool,
    /// Royal succession (a rule such as `royal-succession` sets it): a side with several royal
    /// pieces is never in check; its last one is royal as usual.
    pub(crate) succession: bool,
}

/// Whether the sides have hands (a rule such as `drops` sets them up): pieces in hand are
/// part of the position, its FEN and its hash, and promoted pieces are marked.
#[derive(Debug, Default)]
pub(crate) struct Hands {
    /// The sides have hands.
    pub(crate) on: bool,
    /// With hands: whether a captured piece goes to the captor's hand.
    pub(crate) captures_to_hand: bool,
}

/// The words of state handed out to rules ([`Builder::claim_state`]).
#[derive(Debug, Default)]
pub(crate) struct StateSlots {
    /// State words handed out so far.
    pub(crate) used: usize,
    /// Which state words are part of the hash (bit `i`: word `i`).
    pub(crate) hashed: u8,
}

/// Zobrist keys.
#[derive(Debug)]
pub(crate) struct Keys {
    /// Pieces by `code * 256 + square`.
    pub(crate) piece: Vec<u64>,
    /// Black to move.
    pub(crate) side: u64,
    /// The rights bits.
    pub(crate) rights: [u64; 16],
    /// The en-passant squares.
    pub(crate) ep: Vec<u64>,
    /// Pieces in hand, by [`Ruleset::z_hand`] (empty without hands).
    pub(crate) hand: Vec<u64>,
    /// The promoted marks, by square (empty without hands).
    pub(crate) promoted: Vec<u64>,
    /// Each state word, mixed with its value ([`Ruleset::z_state`]).
    pub(crate) state: [u64; super::MAX_STATE],
    /// Per code: all ones where the piece counts in the structure key (see
    /// [`structure_masks`]), else zero; masks that piece's `piece` keys.
    pub(crate) structure: [u64; 256],
}

/// The structure key's masks by code ([`Keys::structure`]): the pieces that promote and are
/// not royal (the pawn-like pieces); in a game where none promotes (Xiangqi's Soldiers
/// never do), the non-royal kind most numerous at the start instead.
fn structure_masks(variant: &Variant, start: &[Code]) -> [u64; 256] {
    let pawn_like: Vec<usize> = (0..variant.pieces.len())
        .filter(|&k| !variant.pieces[k].promotes_to.is_empty() && !variant.pieces[k].royal)
        .collect();
    let kinds = if pawn_like.is_empty() {
        let count = |k: usize| {
            start
                .iter()
                .filter(|&&c| c != EMPTY && kind_of(c) == k)
                .count()
        };
        (0..variant.pieces.len())
            .filter(|&k| !variant.pieces[k].royal && count(k) > 0)
            .max_by_key(|&k| (count(k), std::cmp::Reverse(k)))
            .into_iter()
            .collect()
    } else {
        pawn_like
    };
    let mut m = [0; 256];
    for k in kinds {
        for c in [Color::White, Color::Black] {
            m[code(k, c).index()] = u64::MAX;
        }
    }
    m
}

/// What keeps a variant from being compiled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompileProblem {
    /// The setup choice asked for does not exist or does not fit.
    Setup(String),
    /// A piece's notation cannot be compiled for this board.
    Piece {
        /// The piece's kind.
        kind: usize,
        /// What is wrong with its notation.
        message: String,
    },
    /// A rule cannot be set up on this board.
    Rule {
        /// The rule's name.
        rule: &'static str,
        /// What is wrong.
        message: String,
    },
    /// The start position is not a legal position.
    Start {
        /// Every problem of the position.
        problems: Vec<super::Problem>,
    },
    /// The network file the variant names cannot be used.
    Network(String),
}

/// Why a variant cannot be compiled, located in its file when the problem is in the file:
/// `file:line:column: message`, one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{prefix}{message}")]
pub struct CompileError {
    /// What is wrong.
    pub problem: CompileProblem,
    /// Where in the file (`None`: the problem is not in the file, e.g. a setup choice).
    pub at: Option<crate::variant::Loc>,
    /// `file:line:column: ` or nothing.
    prefix: String,
    message: String,
}

impl CompileError {
    fn new(variant: &Variant, problem: CompileProblem) -> CompileError {
        let l = &variant.locations;
        let (at, message) = match &problem {
            CompileProblem::Setup(m) => (None, m.clone()),
            CompileProblem::Piece { kind, message } => {
                let p = &variant.pieces[*kind];
                (
                    l.pieces.get(*kind).copied(),
                    format!(
                        "the movement of {} (`{}`) cannot be compiled: {message}",
                        p.name, p.betza_text
                    ),
                )
            }
            CompileProblem::Rule { rule, message } => (
                l.rules.iter().find(|(n, _)| n == rule).map(|(_, at)| *at),
                format!("the variant cannot be set up: rule {rule}: {message}"),
            ),
            CompileProblem::Start { problems } => (
                l.start,
                format!(
                    "start position: {}",
                    problems
                        .iter()
                        .map(|p| p.to_string())
                        .collect::<Vec<_>>()
                        .join("; ")
                ),
            ),
            CompileProblem::Network(m) => (l.network, format!("the network: {m}")),
        };
        CompileError {
            prefix: l.prefix(at),
            problem,
            at,
            message,
        }
    }
}

impl From<CompileError> for String {
    fn from(e: CompileError) -> String {
        e.to_string()
    }
}

/// Hash keys per colour and kind of pieces in hand (counts past it reuse keys).
const HAND_KEYS: usize = 64;

/// splitmix64, for reproducible hash keys.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Ruleset {
    /// Compiles `variant` with an optional setup choice, its rule specs with `compiler`:
    /// start position (after the setup choice), move tables, each rule in its order (editing
    /// tables, claiming rights, registering moves), then the attack probes from the edited
    /// tables, and last the start position checked like any FEN. `Ruleset::new` (in
    /// `compile`) passes the rules the engine knows.
    #[expect(
        clippy::too_many_lines,
        reason = "the compilation's steps in their order (above), each using what the last built"
    )]
    pub fn assemble(
        variant: &Variant,
        setup: Option<&str>,
        compiler: &dyn RuleCompiler,
    ) -> Result<Arc<Ruleset>, CompileError> {
        let g = Geometry::with_holes(variant.files, variant.ranks, &variant.holes);
        let size = g.size();
        // Start position, after the setup choice.
        let mut placement = variant.placement.clone();
        let mut handled = false;
        for h in &variant.rules {
            if h.setup(variant, setup, &mut placement)
                .map_err(|m| CompileError::new(variant, CompileProblem::Setup(m)))?
            {
                handled = true;
            }
        }
        if setup.is_some() && !handled {
            let m = format!("{} has no setup choices", variant.title);
            return Err(CompileError::new(variant, CompileProblem::Setup(m)));
        }
        let start: Vec<Code> = placement
            .iter()
            .map(|p| p.map(|(k, c)| code(k, c)).unwrap_or(EMPTY))
            .collect();
        let betzas: Vec<_> = variant.pieces.iter().map(|p| p.betza.clone()).collect();
        let start_ref = &start;
        // `i` components apply where a rule's spec says, else where the start has the piece.
        let zoning: Vec<crate::tables::Zoning> = variant
            .pieces
            .iter()
            .map(|p| crate::tables::Zoning {
                alt: p
                    .betza_in
                    .iter()
                    .map(|z| (variant.zones[z.zone].squares, z.betza.clone()))
                    .collect(),
                confine: p.confined.map(|z| variant.zones[z].squares),
                within: p
                    .betza_within
                    .iter()
                    .map(|z| (variant.zones[z.zone].squares, z.betza.clone()))
                    .collect(),
            })
            .collect();
        let tables = Tables::build_zoned(g, &betzas, &zoning, &|kind, component, color, sq| {
            variant
                .rules
                .iter()
                .find_map(|r| r.initial_moves(variant, kind, component, color, sq))
                .unwrap_or(start_ref[sq.index()] == code(kind, color))
        })
        .map_err(|(kind, e)| {
            let message = e.message;
            CompileError::new(variant, CompileProblem::Piece { kind, message })
        })?;
        let mut tables = tables;
        let mask = |ks: &[usize]| ks.iter().fold(0u64, |m, &k| m | 1 << k);
        for (kind, p) in variant.pieces.iter().enumerate() {
            let limits = crate::tables::KindLimits {
                screens_not: mask(&p.no_screen),
                takes_not: mask(&p.no_capture),
            };
            tables.set_kind_limits(kind, limits);
        }
        let irreversible = (0..variant.pieces.len())
            .map(|k| {
                // A piece whose every non-capturing move goes forward cannot undo a move.
                let mut any = false;
                for sq in g.squares() {
                    for e in tables.entries_at(k, Color::White, sq) {
                        if e.modes().quiet {
                            any = true;
                            let to = tables.squares_of(e)[0];
                            if e.shape() != Shape::Leap || g.rank(to) <= g.rank(sq) {
                                return false;
                            }
                        }
                    }
                }
                any
            })
            .collect();
        let structure = structure_masks(variant, &start);
        let mut seed = 0x5EED_1234_ABCD_0001u64;
        let z_piece = (0..256 * 256).map(|_| splitmix(&mut seed)).collect();
        let z_side = splitmix(&mut seed);
        let mut z_rights = [0u64; 16];
        for z in &mut z_rights {
            *z = splitmix(&mut seed);
        }
        let z_ep = (0..size).map(|_| splitmix(&mut seed)).collect();
        let slots = tables.index.len();
        // The network the variant names must fit its board and pieces; the search reads it
        // for itself (it is no part of the rules).
        if let Some((_, bytes)) = &variant.network {
            crate::nnue::Network::for_variant(bytes, variant)
                .map_err(|e| CompileError::new(variant, CompileProblem::Network(e.to_string())))?;
        }
        let mut rs = Ruleset {
            variant: variant.clone(),
            geometry: g,
            tables,
            start,
            setup: setup.map(|s| s.to_string()),
            dispatch: Dispatch::default(),
            rights: Rights {
                square_clears: vec![0; size],
                code_clears: [0; 256],
                used: 0,
            },
            promotion: Promotion {
                arrival_index: vec![0; slots],
                arrivals: vec![Arrival {
                    stay: true,
                    choices: Vec::new(),
                }],
                arrival_squares: Default::default(),
                departure_index: vec![0; slots],
                departure_squares: Default::default(),
                departures: false,
                unpromoted: (0..variant.pieces.len())
                    .map(|k| {
                        variant
                            .pieces
                            .iter()
                            .position(|p| p.promotes_to.contains(&k))
                            .unwrap_or(k) as u8
                    })
                    .collect(),
                to_royal: variant
                    .pieces
                    .iter()
                    .any(|p| p.promotes_to.iter().any(|&k| variant.pieces[k].royal)),
            },
            royalty: Royalty {
                by_kind: variant.pieces.iter().map(|p| p.royal).collect(),
                by_code: {
                    let mut r = [false; 256];
                    for (k, p) in variant.pieces.iter().enumerate() {
                        for c in [Color::White, Color::Black] {
                            r[code(k, c).index()] = p.royal;
                        }
                    }
                    r
                },
                check_needs_every: false,
                succession: false,
            },
            hands: Hands::default(),
            state: StateSlots::default(),
            irreversible,
            ep_capturers: 0,
            draws: Draws::default(),
            keys: Keys {
                piece: z_piece,
                side: z_side,
                rights: z_rights,
                ep: z_ep,
                hand: Vec::new(),
                promoted: Vec::new(),
                state: std::array::from_fn(|_| splitmix(&mut seed)),
                structure,
            },
        };
        let mut specs: Vec<&dyn RuleSpec> = variant.rules.iter().map(|s| &**s).collect();
        specs.sort_by_key(|s| s.order());
        let mut hooks = Vec::with_capacity(specs.len());
        for (i, spec) in specs.into_iter().enumerate() {
            let mut b = Builder {
                rs: &mut rs,
                index: i as u8,
            };
            let rule = compiler.compile(spec, &mut b).map_err(|message| {
                let rule = spec.name();
                CompileError::new(variant, CompileProblem::Rule { rule, message })
            })?;
            hooks.push(rule);
        }
        rs.dispatch.hooks = hooks;
        for color in [Color::White, Color::Black] {
            for kind in 0..variant.pieces.len() {
                for sq in g.squares() {
                    let slot = rs.tables.slot(kind, color, sq);
                    if rs.promotion.arrival_index[slot] != 0 {
                        rs.promotion.arrival_squares[color.index()].insert(sq);
                    }
                    if rs.promotion.departure_index[slot] != 0 {
                        rs.promotion.departure_squares[color.index()].insert(sq);
                        rs.promotion.departures = true;
                    }
                }
            }
        }
        for kind in 0..variant.pieces.len().min(64) {
            let captures_ep = [Color::White, Color::Black].iter().any(|&c| {
                g.squares().any(|sq| {
                    rs.tables
                        .entries_at(kind, c, sq)
                        .iter()
                        .any(|e| e.modes().en_passant && e.shape() == Shape::Leap)
                })
            });
            rs.ep_capturers |= (captures_ep as u64) << kind;
        }
        // Every rule has edited the tables: the attack probes read them as they are now.
        rs.tables.build_probes(g, variant.pieces.len());
        let rs = Arc::new(rs);
        // The start position is checked like any FEN: both royal pieces, the side not to move
        // not in check, every start right backed by its pieces.
        let start = super::Setup::start(&rs);
        if let Err(e) = super::Position::from_setup(&rs, &start) {
            let problems = e.problems;
            return Err(CompileError::new(
                variant,
                CompileProblem::Start { problems },
            ));
        }
        Ok(rs)
    }

    /// What a piece of `kind` and `color` may become when a promoting move ends on `sq`.
    #[inline]
    pub fn arrival(&self, kind: usize, color: Color, sq: Square) -> &Arrival {
        &self.promotion.arrivals
            [self.promotion.arrival_index[self.tables.slot(kind, color, sq)] as usize]
    }

    /// What a piece of `kind` and `color` may become by a promoting move from `sq` that ends
    /// where no arrival applies.
    #[inline]
    pub fn departure(&self, kind: usize, color: Color, sq: Square) -> &Arrival {
        &self.promotion.arrivals
            [self.promotion.departure_index[self.tables.slot(kind, color, sq)] as usize]
    }

    /// Whether a piece of `kind` and `color` may promote by arriving on `sq`.
    pub fn promotes_on(&self, kind: usize, color: Color, sq: Square) -> bool {
        !self.arrival(kind, color, sq).choices.is_empty()
    }

    /// How a piece code is written: its kind's [`crate::variant::PieceDef::symbol`], in lower
    /// case for Black (`N`, `n`, `+p`, `n'`).
    pub fn symbol(&self, c: Code) -> String {
        self.variant.pieces[crate::moves::kind_of(c)].symbol_for(crate::moves::color_of(c))
    }

    /// The piece code a name stands for (`N`, `n`, `+P`, `+p`, `N'`, `n'`; see
    /// [`crate::variant::Variant::kind_by_symbol`]).
    pub fn code_of_symbol(&self, s: &str) -> Option<Code> {
        let k = self.variant.kind_by_symbol(s)?;
        let black = s.chars().any(|c| c.is_ascii_lowercase());
        Some(code(k, if black { Color::Black } else { Color::White }))
    }

    /// The hash key of the `n`-th piece (from 1) of `kind` in `color`'s hand: a hand holding
    /// `n` such pieces hashes as the keys 1 to `n` together.
    #[inline]
    pub fn z_hand(&self, color: Color, kind: usize, n: u8) -> u64 {
        let i =
            (color.index() * crate::moves::MAX_KINDS + kind) * HAND_KEYS + n as usize % HAND_KEYS;
        self.keys.hand.get(i).copied().unwrap_or(0)
    }

    /// The hash key of state word `slot` holding `v`: 0 for the value 0 and for a word that is
    /// not hashed, else the slot's key mixed with the value (so any value has its own key).
    #[inline]
    pub fn z_state(&self, slot: usize, v: u16) -> u64 {
        if v == 0 || self.state.hashed >> slot & 1 == 0 {
            return 0;
        }
        let mut x = self.keys.state[slot] ^ v as u64;
        splitmix(&mut x)
    }

    /// Whether the moves of rule `i` have effects of their own ([`super::hooks::Rule::effects`];
    /// otherwise they are played as ordinary moves).
    #[inline(always)]
    pub fn rule_has_effects(&self, i: u8) -> bool {
        i < 64 && self.dispatch.effect_rules >> i & 1 != 0
    }

    /// The named rule moves (castlings) the rules registered ([`super::hooks::Builder::special`]).
    pub fn special_moves(&self) -> &[SpecialMove] {
        &self.dispatch.specials
    }

    /// The named rule move that `mv` is (a castling), if it is one: registered by the rule
    /// that made it, between the same squares.
    pub fn special_for(&self, mv: Move) -> Option<&SpecialMove> {
        if !mv.is_rule_made() {
            return None;
        }
        self.dispatch
            .specials
            .iter()
            .find(|s| s.owner == mv.aux && s.from == mv.from && s.to == mv.to)
    }

    /// Whether the piece code `c` is a royal piece (false for an empty square).
    #[inline]
    pub fn is_royal(&self, c: Code) -> bool {
        self.royalty.by_code[c.index()]
    }

    /// Whether pieces of `kind` are royal (false for a kind the variant does not have).
    #[inline]
    pub fn is_royal_kind(&self, kind: usize) -> bool {
        self.royalty.by_kind.get(kind).copied().unwrap_or(false)
    }

    /// The royal kinds, in the variant's order.
    pub fn royal_kinds(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.royalty.by_kind.len()).filter(|&k| self.royalty.by_kind[k])
    }

    /// Whether a side with several royal pieces is in check only when every one is attacked.
    pub fn check_needs_every_royal(&self) -> bool {
        self.royalty.check_needs_every
    }

    /// Whether royal succession holds (a side with several royal pieces is never in check).
    pub fn royal_succession(&self) -> bool {
        self.royalty.succession
    }

    /// The rules, compiled, in compilation order (a rule-made move's `aux` is an index here).
    pub fn compiled_rules(&self) -> &[Box<dyn Rule>] {
        &self.dispatch.hooks
    }

    /// How many rights bits the rules claimed.
    pub fn rights_used(&self) -> u16 {
        self.rights.used
    }

    /// Whether the sides have hands: pieces in hand are part of the position, its FEN and its
    /// hash.
    #[inline]
    pub fn has_hands(&self) -> bool {
        self.hands.on
    }

    /// Whether a rule of the variant ends games by its own ending (the counting rules, the
    /// bare King): the endings beyond checkmate, stalemate, repetition and the move count.
    pub fn has_rule_endings(&self) -> bool {
        !self.dispatch.enders.is_empty() || !self.dispatch.final_enders.is_empty()
    }

    /// With hands: whether a captured piece goes to the captor's hand.
    pub fn captures_to_hand(&self) -> bool {
        self.hands.captures_to_hand
    }
}

impl Ruleset {
    /// Gives the sides hands (see [`Ruleset::has_hands`]), with their hash keys.
    pub(crate) fn set_up_hands(&mut self, captures_to_hand: bool) {
        let mut seed = 0x4A4E_D5EE_D000_0002u64;
        self.hands.on = true;
        self.hands.captures_to_hand = captures_to_hand;
        self.keys.hand = (0..2 * crate::moves::MAX_KINDS * HAND_KEYS)
            .map(|_| splitmix(&mut seed))
            .collect();
        self.keys.promoted = (0..256).map(|_| splitmix(&mut seed)).collect();
    }
}

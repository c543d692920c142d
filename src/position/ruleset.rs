//! A variant compiled for play: move tables, hook data, hash keys.

use std::sync::Arc;

use super::hooks::{Arrival, Builder, Draws, Rule, RuleCompiler, SpecialMove};
use crate::geometry::{Color, Geometry, Square};
use crate::moves::{Code, EMPTY, Move, code};
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
    /// The rules, compiled, in compilation order (a rule's index is its place here).
    pub hooks: Vec<Box<dyn Rule>>,
    /// Indices of rules that add moves.
    pub generating: Vec<u8>,
    /// Indices of rules that may veto any move.
    pub vetoing: Vec<u8>,
    /// Rules asked about every drop once it is made ([`super::hooks::Rule::veto_made_drop`]).
    pub vetoing_drops: Vec<u8>,
    /// Per kind (bit `kind`): a checkmate given by dropping this kind loses for the side that
    /// dropped it ([`super::hooks::Builder::mate_by_drop_loses`]).
    pub mate_drop_loses: u64,
    /// Rights cleared when a move starts or ends on a square.
    pub square_clears: Vec<u16>,
    /// Rights cleared when a piece code moves.
    pub code_clears: [u16; 256],
    /// Rights bits handed out so far.
    pub rights_used: u16,
    /// Rule moves with names of their own (castling), as their rules registered them
    /// ([`Ruleset::special_for`] finds a move's).
    pub specials: Vec<SpecialMove>,
    /// Bit `i`: the moves of rule `i` do more than ordinary moves, and the rule says what
    /// ([`super::hooks::Rule::effects`]).
    pub(crate) effect_rules: u64,
    /// What a piece may become on arriving by a promoting move, by `tables.slot(kind, colour,
    /// square)`: an index in `arrivals` (0: it stays what it is).
    pub arrival_index: Vec<u16>,
    /// The arrivals `arrival_index` points to.
    pub arrivals: Vec<Arrival>,
    /// Per colour: the squares where some arrival is not the default (a quick test before
    /// the table is read).
    pub arrival_squares: [crate::moves::SquareSet; 2],
    /// What a piece may become by a promoting move that starts on a square and ends where no
    /// arrival applies (Shogi: a move out of the zone), by `tables.slot(kind, colour, square)`:
    /// an index in `arrivals` (0: it stays what it is).
    pub departure_index: Vec<u16>,
    /// Per colour: the squares where some departure is not the default.
    pub departure_squares: [crate::moves::SquareSet; 2],
    /// Whether any departure is set (the generator looks at departures only then).
    pub departures: bool,
    /// Per kind: whether it is royal.
    pub royal: Vec<bool>,
    /// Per piece code: whether it is royal (the empty code is not).
    pub royal_code: [bool; 256],
    /// Whether some piece may promote to a royal kind (legality then takes the slow path for
    /// promotions).
    pub promotes_to_royal: bool,
    /// With several royal pieces, a side is in check only when every one is attacked (a rule
    /// such as `last-royal` sets it); otherwise when any is.
    pub check_needs_every_royal: bool,
    /// Royal succession (a rule such as `royal-succession` sets it): a side with several royal
    /// pieces is never in check; its last one is royal as usual.
    pub royal_succession: bool,
    /// Per kind: whether its moves are irreversible (reset the move-count clock).
    pub irreversible: Vec<bool>,
    /// The kinds that have an en-passant capture (bit = kind), as the rules left the tables.
    pub ep_capturers: u64,
    /// When a game is drawn.
    pub draws: Draws,
    /// Zobrist keys: pieces by `code * 256 + square`, then side, rights bits, e.p. squares.
    pub z_piece: Vec<u64>,
    /// Zobrist key of Black to move.
    pub z_side: u64,
    /// Zobrist keys of the rights bits.
    pub z_rights: [u64; 16],
    /// Zobrist keys of the en-passant squares.
    pub z_ep: Vec<u64>,
    /// Whether the sides have hands (a rule such as `drops` set them up): pieces in hand are
    /// part of the position, its FEN and its hash, and promoted pieces are marked.
    pub hands: bool,
    /// With hands: whether a captured piece goes to the captor's hand.
    pub captures_to_hand: bool,
    /// Per kind: the kind a promoted piece of this kind returns to a hand as (the first kind
    /// whose `promotes-to` lists it; itself when none does).
    pub unpromoted: Vec<u8>,
    /// Zobrist keys of pieces in hand, by [`Ruleset::z_hand`] (empty without hands).
    pub z_hand: Vec<u64>,
    /// Zobrist keys of the promoted marks, by square (empty without hands).
    pub z_promoted: Vec<u64>,
    /// State words handed out to rules so far ([`Builder::claim_state`]).
    pub state_used: usize,
    /// Which state words are part of the hash (bit `i`: word `i`).
    pub state_hashed: u8,
    /// Zobrist key of each state word, mixed with its value ([`Ruleset::z_state`]).
    pub z_state: [u64; super::MAX_STATE],
    /// Indices of rules that update their state words after each move ([`Rule::on_make`]).
    pub state_makers: Vec<u8>,
    /// Indices of rules that may end a game ([`Rule::ending`]).
    pub enders: Vec<u8>,
    /// The network the variant names, checked against its board and pieces (`None`: the
    /// evaluation is the one built from the pieces' data).
    pub network: Option<Arc<crate::nnue::Network>>,
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
    // long: the compilation's steps in their order (above), each using what the last built.
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
        let mut seed = 0x5EED_1234_ABCD_0001u64;
        let z_piece = (0..256 * 256).map(|_| splitmix(&mut seed)).collect();
        let z_side = splitmix(&mut seed);
        let mut z_rights = [0u64; 16];
        for z in &mut z_rights {
            *z = splitmix(&mut seed);
        }
        let z_ep = (0..size).map(|_| splitmix(&mut seed)).collect();
        let slots = tables.index.len();
        let network = match &variant.network {
            Some((_, bytes)) => Some(Arc::new(
                crate::nnue::Network::for_variant(bytes, variant).map_err(|e| {
                    CompileError::new(variant, CompileProblem::Network(e.to_string()))
                })?,
            )),
            None => None,
        };
        let mut rs = Ruleset {
            variant: variant.clone(),
            geometry: g,
            tables,
            start,
            setup: setup.map(|s| s.to_string()),
            hooks: Vec::new(),
            generating: Vec::new(),
            vetoing: Vec::new(),
            vetoing_drops: Vec::new(),
            mate_drop_loses: 0,
            square_clears: vec![0; size],
            code_clears: [0; 256],
            rights_used: 0,
            specials: Vec::new(),
            effect_rules: 0,
            arrival_index: vec![0; slots],
            arrivals: vec![Arrival {
                stay: true,
                choices: Vec::new(),
            }],
            arrival_squares: Default::default(),
            departure_index: vec![0; slots],
            departure_squares: Default::default(),
            departures: false,
            royal: variant.pieces.iter().map(|p| p.royal).collect(),
            royal_code: {
                let mut r = [false; 256];
                for (k, p) in variant.pieces.iter().enumerate() {
                    for c in [Color::White, Color::Black] {
                        r[code(k, c).index()] = p.royal;
                    }
                }
                r
            },
            promotes_to_royal: variant
                .pieces
                .iter()
                .any(|p| p.promotes_to.iter().any(|&k| variant.pieces[k].royal)),
            check_needs_every_royal: false,
            royal_succession: false,
            irreversible,
            ep_capturers: 0,
            draws: Draws::default(),
            z_piece,
            z_side,
            z_rights,
            z_ep,
            hands: false,
            captures_to_hand: false,
            unpromoted: (0..variant.pieces.len())
                .map(|k| {
                    variant
                        .pieces
                        .iter()
                        .position(|p| p.promotes_to.contains(&k))
                        .unwrap_or(k) as u8
                })
                .collect(),
            z_hand: Vec::new(),
            z_promoted: Vec::new(),
            state_used: 0,
            state_hashed: 0,
            z_state: std::array::from_fn(|_| splitmix(&mut seed)),
            state_makers: Vec::new(),
            enders: Vec::new(),
            network,
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
        rs.hooks = hooks;
        for color in [Color::White, Color::Black] {
            for kind in 0..variant.pieces.len() {
                for sq in g.squares() {
                    let slot = rs.tables.slot(kind, color, sq);
                    if rs.arrival_index[slot] != 0 {
                        rs.arrival_squares[color.index()].insert(sq);
                    }
                    if rs.departure_index[slot] != 0 {
                        rs.departure_squares[color.index()].insert(sq);
                        rs.departures = true;
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
        &self.arrivals[self.arrival_index[self.tables.slot(kind, color, sq)] as usize]
    }

    /// What a piece of `kind` and `color` may become by a promoting move from `sq` that ends
    /// where no arrival applies.
    #[inline]
    pub fn departure(&self, kind: usize, color: Color, sq: Square) -> &Arrival {
        &self.arrivals[self.departure_index[self.tables.slot(kind, color, sq)] as usize]
    }

    /// Whether a piece of `kind` and `color` may promote by arriving on `sq`.
    pub fn promotes_on(&self, kind: usize, color: Color, sq: Square) -> bool {
        !self.arrival(kind, color, sq).choices.is_empty()
    }

    /// The letter of a piece code as written in FEN.
    pub fn letter(&self, c: Code) -> char {
        let l = self.variant.pieces[crate::moves::kind_of(c)].letter;
        if crate::moves::color_of(c) == Color::White {
            l
        } else {
            l.to_ascii_lowercase()
        }
    }

    /// The piece code for a FEN letter.
    pub fn code_of_letter(&self, c: char) -> Option<Code> {
        let k = self.variant.kind_by_letter(c)?;
        Some(code(
            k,
            if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            },
        ))
    }

    /// The hash key of the `n`-th piece (from 1) of `kind` in `color`'s hand: a hand holding
    /// `n` such pieces hashes as the keys 1 to `n` together.
    #[inline]
    pub fn z_hand(&self, color: Color, kind: usize, n: u8) -> u64 {
        let i =
            (color.index() * crate::moves::MAX_KINDS + kind) * HAND_KEYS + n as usize % HAND_KEYS;
        self.z_hand.get(i).copied().unwrap_or(0)
    }

    /// The hash key of state word `slot` holding `v`: 0 for the value 0 and for a word that is
    /// not hashed, else the slot's key mixed with the value (so any value has its own key).
    #[inline]
    pub fn z_state(&self, slot: usize, v: u16) -> u64 {
        if v == 0 || self.state_hashed >> slot & 1 == 0 {
            return 0;
        }
        let mut x = self.z_state[slot] ^ v as u64;
        splitmix(&mut x)
    }

    /// Whether the moves of rule `i` have effects of their own ([`super::hooks::Rule::effects`];
    /// otherwise they are played as ordinary moves).
    #[inline(always)]
    pub fn rule_has_effects(&self, i: u8) -> bool {
        i < 64 && self.effect_rules >> i & 1 != 0
    }

    /// The named rule move that `mv` is (a castling), if it is one: registered by the rule
    /// that made it, between the same squares.
    pub fn special_for(&self, mv: Move) -> Option<&SpecialMove> {
        if !mv.is_rule_made() {
            return None;
        }
        self.specials
            .iter()
            .find(|s| s.owner == mv.aux && s.from == mv.from && s.to == mv.to)
    }

    /// Whether the piece code `c` is a royal piece (false for an empty square).
    #[inline]
    pub fn is_royal(&self, c: Code) -> bool {
        self.royal_code[c.index()]
    }
}

impl Ruleset {
    /// Gives the sides hands (see [`Ruleset::hands`]), with their hash keys.
    pub(crate) fn set_up_hands(&mut self, captures_to_hand: bool) {
        let mut seed = 0x4A4E_D5EE_D000_0002u64;
        self.hands = true;
        self.captures_to_hand = captures_to_hand;
        self.z_hand = (0..2 * crate::moves::MAX_KINDS * HAND_KEYS)
            .map(|_| splitmix(&mut seed))
            .collect();
        self.z_promoted = (0..256).map(|_| splitmix(&mut seed)).collect();
    }
}

//! The narrow core API that rules are written against.
//!
//! A rule lives its whole life through this module:
//! 1. its `[rules.NAME]` table is read into a spec ([`crate::variant::RuleSpec`]), kept in the
//!    variant;
//! 2. when the variant is compiled, the spec is compiled once, through a [`Builder`], into the
//!    [`Rule`] used in play, which owns its data;
//! 3. in play the core calls the rule: to add moves, to veto moves, to read and write its
//!    letters of the FEN rights field.
//!
//! The core offers generic services only and knows no particular rule:
//! - **rights bits** ([`Builder::claim_rights`]) kept in the position, hashed, cleared when a
//!   square is touched or a piece moves ([`Builder::clear_rights_on_square`],
//!   [`Builder::clear_rights_when_moved`]);
//! - **table edits** ([`Builder::edit_entries`]) of the compiled move tables, made before the
//!   attack probes are built from them, so check detection sees every edit;
//! - **arrivals** ([`Builder::set_arrival`]): what a piece may become when a move of an entry
//!   marked as promoting ([`Entry::set_promotes`]) ends on a square (the generator expands the move into one per choice);
//!   and **departures** ([`Builder::set_departure`]): the same for a move that starts on a
//!   square and ends where no arrival applies;
//! - **moves made by rules** (`MoveKind::Rule`, `aux` the rule's index): played as ordinary
//!   moves, or, for rules that register with [`Builder::moves_have_effects`], as the list of
//!   effects the rule gives ([`Rule::effects`]: a second piece relocated, rights lost, the
//!   move-count clock restarted...), which make, unmake, the hash, the notation and the
//!   evaluation's updates all follow; named rule moves ([`Builder::special`]) carry their
//!   written names (castling's `O-O`);
//! - **vetoes** of the moves a rule added ([`Rule::allows`]) and, for rules that register with
//!   [`Builder::veto_every_move`], of every move ([`Rule::veto`]), and, for rules that register
//!   with [`Builder::veto_drops_when_made`], of drops by the position they make
//!   ([`Rule::veto_made_drop`]), all asked by the one legality predicate ([`Position::is_legal_pseudo`] and [`Position::make_if_legal`]);
//! - **hands** ([`Builder::use_hands`]): pieces in hand per side and kind, and a mark on every
//!   piece made by promotion, kept by make and unmake, hashed and written in the FEN; a
//!   captured piece goes to the captor's hand; `MoveKind::Drop` moves (which the rule
//!   generates) put a piece from the hand on the board;
//! - **state words** ([`Builder::claim_state`]): a few 16-bit words a rule keeps in the
//!   position, saved and restored by make and unmake with the rest of the undo record, hashed
//!   or not as the rule says, updated after each move by the rule ([`Rule::on_make`], for
//!   rules that register with [`Builder::update_state_on_make`]) and read from and written to
//!   the FEN by the rule ([`Rule::read_state`], [`Rule::write_state`]);
//! - **endings** ([`Builder::ends_games`]): a rule may end a game ([`Rule::ending`]), asked by
//!   the one verdict of how a game stands ([`Position::verdict`]) that the game record, the
//!   search and the checks share; a rule that registers with [`Builder::ends_games_at_once`]
//!   ends it before checkmate and stalemate are asked (a position with no legal move too);
//! - **hash keys** for all of the above, kept by the position.
//!
//! One decision comes earlier, from the spec itself: where a piece may use its `i` (initial)
//! moves ([`RuleSpec::initial_moves`], asked while the tables are compiled, before any rule is
//! compiled). En passant needs no rule: an `nn` / `in` step leaves rights on every square it
//! passes ([`EpSquares`]), and an `e` move captures on any of them.
//!
//! A rule file imports from this module and from the data layers below it (geometry, moves,
//! notation, variant) only; `tests/lib/layers.rs` checks it.

pub use super::effects::{Effect, Effects};
pub use super::verdict::{GameResult, Outcome, Termination};
pub use super::{EpSquares, MAX_STATE, Position, Ruleset, StateWords};
pub use crate::geometry::{Color, Geometry, Square};
pub use crate::moves::{Code, EMPTY, Move, MoveKind, MoveList, SquareSet, code, color_of, kind_of};
pub use crate::tables::{Entry, Modes, Shape};
pub use crate::variant::{Params, Placement, RuleSpec, Val, Variant};

/// The result of a stalemate for the side that cannot move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stalemate {
    /// A stalemate is a draw.
    Draw,
    /// The stalemated side wins.
    Win,
    /// The stalemated side loses.
    Loss,
}

/// Draw settings of a variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Draws {
    /// What a stalemate gives the side that cannot move.
    pub stalemate: Stalemate,
    /// Occurrences of one position that draw (0 = never).
    pub repetition: u32,
    /// Moves per side without capture or irreversible move that draw (0 = never).
    pub move_limit: u32,
    /// A repetition in which one side gave check in every position loses for that side.
    pub perpetual_check_loses: bool,
    /// The side that loses by a repetition that is not a perpetual check (`None`: it draws;
    /// Minishogi: White, who moves first).
    pub repetition_loser: Option<Color>,
}

impl Default for Draws {
    fn default() -> Self {
        Draws {
            stalemate: Stalemate::Draw,
            repetition: 3,
            move_limit: 50,
            perpetual_check_loses: false,
            repetition_loser: None,
        }
    }
}

/// The FEN fields a rule's state may be written in, as Fairy-Stockfish writes Makruk's
/// counting (the en-passant field and the halfmove-clock field) and Seirawan's gates (letters
/// of the rights field).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateFields<'a> {
    /// The placement (rank 1 first), as read or as it stands: where a rule's letters name
    /// squares by the pieces on them.
    pub board: &'a [Code],
    /// The pieces in hand (by side, then kind), as read or as they stand.
    pub hands: &'a [[u8; crate::moves::MAX_KINDS]; 2],
    /// The en-passant field's text (`None`: `-`, or a rule took the field for its state).
    pub ep: Option<String>,
    /// The halfmove-clock field.
    pub halfmove: u32,
    /// The rights field. Reading: the field as written (`-` as empty). Writing: the letters
    /// the rules' rights wrote ([`Rule::write_rights`]), which a rule may add to.
    pub rights: String,
    /// Reading: the letters of the rights field that no rule's rights took
    /// ([`Rule::parse_right`]). A rule whose state they are removes them; any left are
    /// refused as unknown rights.
    pub unclaimed: String,
}

/// A rule move with a name of its own (a castling, which relocates its partner as well),
/// registered by its rule ([`Builder::special`]). Such a move is `Move { kind:
/// MoveKind::Rule, aux: rule index }` between `from` and `to`; it never captures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecialMove {
    /// The side whose move it is.
    pub color: Color,
    /// The moving piece's origin.
    pub from: Square,
    /// Its destination.
    pub to: Square,
    /// Its name in SAN (`O-O`, `O-O/1`); each special move of a variant has its own.
    pub san: String,
    /// Coordinate notation (UCI, CECP) writes `from`, `to` and this suffix: empty, or, when
    /// the piece has an ordinary move between the same squares (a castling king that moves
    /// one square), letters that tell the two apart (`f1g1oo`).
    pub coord_suffix: &'static str,
    /// The index of the rule that owns it (filled by [`Builder::special`]).
    pub owner: u8,
}

/// What a piece may become when a promoting move ends on a square.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Arrival {
    /// Whether it may stay what it is.
    pub stay: bool,
    /// The kinds it may become.
    pub choices: Vec<u8>,
}

/// One rule of a game, compiled, as used in play.
pub trait Rule: std::fmt::Debug + Send + Sync {
    /// The rule's name as written in the variant file (`king-leap`).
    fn name(&self) -> &'static str;

    /// Adds pseudo-legal moves for the side to move (called only for rules that registered
    /// with [`Builder::add_moves`]). Moves it adds carry `MoveKind::Rule` with `aux` = the
    /// rule's index ([`Builder::index`]).
    fn generate(&self, _pos: &Position, _out: &mut MoveList) {}

    /// What a move this rule added does, in the order make applies it (called only for rules
    /// that registered with [`Builder::moves_have_effects`]): for instance
    /// [`Position::ordinary_effects`] followed by a relocation of a second piece. Called on
    /// every such move made, in the search too: it must be cheap and allocate nothing.
    fn effects(&self, pos: &Position, mv: Move, fx: &mut Effects) {
        pos.ordinary_effects(mv, fx);
    }

    /// The move that a move this rule added is written as, when it adds to another move (a
    /// gating adds a piece from the hand to a piece's move or to a castling): its SAN is that
    /// move's, followed by what it adds (`Nc3/H`, `O-O/He1`). `None`: written as itself.
    fn written_as(&self, _pos: &Position, _mv: Move) -> Option<Move> {
        None
    }

    /// A word for a move this rule added, where several moves share a from and a to square
    /// (the page's choice between them).
    fn move_word(&self) -> &'static str {
        "step"
    }

    /// Vetoes a move this rule added. Return false to forbid it. Asked before the generic test
    /// that the mover's royal pieces are not left attacked.
    fn allows(&self, _pos: &Position, _mv: Move) -> bool {
        true
    }

    /// Vetoes any pseudo-legal move (called only for rules that registered with
    /// [`Builder::veto_every_move`]). Return false to forbid it.
    fn veto(&self, _pos: &Position, _mv: Move) -> bool {
        true
    }

    /// Vetoes a drop once it is made: `pos` is the position after it, the other side to move
    /// (called only for rules that registered with [`Builder::veto_drops_when_made`]; Shogi's
    /// Pawn drop that mates). Return false to forbid it. `pos` must be left as it was given.
    fn veto_made_drop(&self, _pos: &mut Position, _mv: Move) -> bool {
        true
    }

    /// Reads one letter of the FEN rights field; returns the rights bits it stands for.
    fn parse_right(&self, _rs: &Ruleset, _c: char) -> Option<u16> {
        None
    }

    /// The rights letters that `rights` holds but whose pieces are not where the right needs
    /// them on `board` (a castling right without its king and partner on their squares), each
    /// with why. A position with such a right is refused.
    fn check_rights(&self, _rs: &Ruleset, _board: &[Code], _rights: u16) -> Vec<(char, String)> {
        Vec::new()
    }

    /// Whether this rule puts a piece of `kind` and `color` on `sq` otherwise than by a move of
    /// its own (a drop): such a piece may stand where it could not arrive by moving.
    fn can_place(&self, _rs: &Ruleset, _kind: usize, _color: Color, _sq: Square) -> bool {
        false
    }

    /// Why no game under this rule reaches the placement `board` (Shogi's nifu: two
    /// unpromoted Pawns of one side on a file, when Pawns never leave their file), each a
    /// sentence; a FEN with such a placement is refused.
    fn check_placement(&self, _rs: &Ruleset, _board: &[Code]) -> Vec<String> {
        Vec::new()
    }

    /// Updates this rule's state words after a move (called only for rules that registered
    /// with [`Builder::update_state_on_make`]): `pos` is the position after `mv`, which took
    /// `captured` (`EMPTY`: nothing); `state` holds every rule's words as they will be. Called
    /// on every move made, in the search too: it must be cheap and allocate nothing.
    fn on_make(&self, _pos: &Position, _mv: Move, _captured: Code, _state: &mut StateWords) {}

    /// Reads this rule's state from a FEN's fields (a rule that takes the en-passant field
    /// sets `fields.ep` to `None`; it may change the halfmove clock). A message when the
    /// fields are wrong for it.
    fn read_state(
        &self,
        _rs: &Ruleset,
        _fields: &mut StateFields<'_>,
        _state: &mut StateWords,
    ) -> Result<(), String> {
        Ok(())
    }

    /// Sets this rule's state words for the start position (they start at 0 otherwise).
    fn start_state(&self, _rs: &Ruleset, _board: &[Code], _state: &mut StateWords) {}

    /// Writes this rule's state into the FEN's fields, when the FEN must show it.
    fn write_state(&self, _rs: &Ruleset, _state: &StateWords, _fields: &mut StateFields<'_>) {}

    /// How the game ends in `pos` by this rule, if it does (called only for rules that
    /// registered with [`Builder::ends_games`], and then it counts only when the side to move
    /// has a legal move: checkmate and stalemate come first; or with
    /// [`Builder::ends_games_at_once`], and then it counts before anything else).
    fn ending(&self, _pos: &Position) -> Option<Outcome> {
        None
    }

    /// Whether `mv`, just made (`pos` is the position after it), may leave the mover's royal
    /// piece attacked: a move that ends the game at once by this rule (Janggi's pass in
    /// bikjang, which Fairy-Stockfish allows in check). Called only for rules that registered
    /// with [`Builder::may_exempt_from_check`], and only when the royal piece is attacked.
    fn exempts_from_check(&self, _pos: &Position, _mv: Move) -> bool {
        false
    }

    /// Writes this rule's letters of the rights field.
    fn write_rights(&self, _rs: &Ruleset, _rights: u16, _out: &mut String) {}

    /// Rights held in the start position.
    fn start_rights(&self, _rs: &Ruleset) -> u16 {
        0
    }

    /// XBetza that a GUI should add to a piece's movement to show this rule's moves (for
    /// XBoard's `piece` command), when the rule gives that piece moves.
    fn notation_hint(&self, _rs: &Ruleset, _kind: usize) -> Option<String> {
        None
    }

    /// The rule in plain English for players, as this variant sets it up: what it allows or
    /// forbids, to which pieces, when and on which squares. Built from the rule's own
    /// configuration; every rule of the engine gives its own.
    fn explain(&self, _rs: &Ruleset) -> String {
        format!("This game plays with the `{}` rule.", self.name())
    }
}

/// Compiles specs into rules: the rules layer implements it (`rules::Registry`).
pub trait RuleCompiler {
    /// Compiles one spec; a message when the rule cannot be set up on this board.
    fn compile(&self, spec: &dyn RuleSpec, b: &mut Builder<'_>) -> Result<Box<dyn Rule>, String>;
}

/// The services a rule may use while it is compiled.
pub struct Builder<'a> {
    pub(crate) rs: &'a mut Ruleset,
    pub(crate) index: u8,
}

impl Builder<'_> {
    /// The ruleset as compiled so far: geometry, variant, start position, royal kinds, the
    /// move tables (before the attack probes are built).
    pub fn rules(&self) -> &Ruleset {
        self.rs
    }

    /// This rule's index: `aux` of the `MoveKind::Rule` moves it adds.
    pub fn index(&self) -> u8 {
        self.index
    }

    /// Hands out `n` fresh rights bits; returns the first.
    pub fn claim_rights(&mut self, n: u16) -> Result<u16, String> {
        let first = self.rs.rights.used;
        if first + n > 16 {
            return Err("too many rights bits (16 at most)".into());
        }
        self.rs.rights.used += n;
        Ok(first)
    }

    /// Rights `bits` are lost when a move starts on `sq` or captures there.
    pub fn clear_rights_on_square(&mut self, sq: Square, bits: u16) {
        self.rs.rights.square_clears[sq.index()] |= bits;
    }

    /// Rights `bits` are lost when the piece `c` moves.
    pub fn clear_rights_when_moved(&mut self, c: Code, bits: u16) {
        self.rs.rights.code_clears[c.index()] |= bits;
    }

    /// Hands out `n` fresh state words; returns the first one's slot. `hashed`: whether they
    /// are part of the position's hash (and so of repetitions and the transposition table).
    pub fn claim_state(&mut self, n: usize, hashed: bool) -> Result<usize, String> {
        let first = self.rs.state.used;
        if first + n > MAX_STATE {
            return Err(format!("too many state words ({MAX_STATE} at most)"));
        }
        if hashed {
            for slot in first..first + n {
                self.rs.state.hashed |= 1 << slot;
            }
        }
        self.rs.state.used += n;
        Ok(first)
    }

    /// This rule updates its state words after each move ([`Rule::on_make`] is called).
    pub fn update_state_on_make(&mut self) {
        self.rs.dispatch.state_makers.push(self.index);
    }

    /// This rule may end a game ([`Rule::ending`] is asked).
    pub fn ends_games(&mut self) {
        self.rs.dispatch.enders.push(self.index);
    }

    /// This rule may end a game at once ([`Rule::ending`] is asked first of all): its ending
    /// stands whether or not the side to move has a legal move, before checkmate, stalemate,
    /// repetition and the move-count rule, and perft counts no move from such a position
    /// (Fairy-Stockfish's immediate game ends, such as a bare King).
    pub fn ends_games_at_once(&mut self) {
        self.rs.dispatch.final_enders.push(self.index);
    }

    /// This rule's moves do more than ordinary moves: make, unmake, the hash, the notation
    /// and the evaluation's updates take their effects from [`Rule::effects`].
    pub fn moves_have_effects(&mut self) -> Result<(), String> {
        if self.index >= 64 {
            return Err("a rule with effects of its own must be among the first 64".into());
        }
        self.rs.dispatch.effect_rules |= 1 << self.index;
        Ok(())
    }

    /// This rule adds moves ([`Rule::generate`] is called).
    pub fn add_moves(&mut self) {
        self.rs.dispatch.generating.push(self.index);
    }

    /// This rule may let a move leave its royal piece attacked ([`Rule::exempts_from_check`]).
    pub fn may_exempt_from_check(&mut self) {
        self.rs.dispatch.check_exempting.push(self.index);
    }

    /// This rule may forbid any move ([`Rule::veto`] is asked for every move).
    pub fn veto_every_move(&mut self) {
        self.rs.dispatch.vetoing.push(self.index);
    }

    /// This rule may forbid a drop by what it leaves on the board ([`Rule::veto_made_drop`]
    /// is asked for every drop, once it is made).
    pub fn veto_drops_when_made(&mut self) {
        self.rs.dispatch.vetoing_drops.push(self.index);
    }

    /// A checkmate given by dropping a piece of `kind` loses for the side that dropped it
    /// (Fairy-Stockfish's reading of Shogi's uchifuzume): the game, the search and
    /// [`Position::mated_by_losing_drop`] see it so.
    pub fn mate_by_drop_loses(&mut self, kind: usize) {
        if kind < 64 {
            self.rs.dispatch.mate_drop_loses |= 1 << kind;
        }
    }

    /// Registers a named rule move (a castling: its SAN name and coordinate suffix); returns
    /// its id (its place in the dispatch's specials).
    pub fn special(&mut self, mut m: SpecialMove) -> Result<u8, String> {
        let id = self.rs.dispatch.specials.len();
        if id > u8::MAX as usize {
            return Err("too many special moves (256 at most)".into());
        }
        m.owner = self.index;
        self.rs.dispatch.specials.push(m);
        Ok(id as u8)
    }

    /// Edits every move-table entry of `kind` (both colours, every square) with `f`. Attack
    /// probes are built from the tables after every rule is compiled.
    pub fn edit_entries(&mut self, kind: usize, mut f: impl FnMut(&mut Entry)) {
        let t = &mut self.rs.tables;
        let size = t.size;
        for color in [Color::White, Color::Black] {
            for sq in 0..size {
                let (s, n) = t.index[t.slot(kind, color, Square::from_index(sq))];
                for e in &mut t.entries[s as usize..(s + n as u32) as usize] {
                    f(e);
                }
            }
        }
    }

    /// What a piece of `kind` and `color` may become when a promoting move (an entry marked
    /// [`Entry::set_promotes`]) ends on `sq`. Squares without an arrival keep the piece as it is.
    pub fn set_arrival(&mut self, kind: usize, color: Color, sq: Square, a: Arrival) {
        let (slot, i) = self.intern_arrival(kind, color, sq, a);
        self.rs.promotion.arrival_index[slot] = i;
    }

    /// What a piece of `kind` and `color` may become when a promoting move starts on `sq` and
    /// ends on a square without an arrival of its own (Shogi promotes a move that leaves the
    /// zone). An arrival where the move ends comes first.
    pub fn set_departure(&mut self, kind: usize, color: Color, sq: Square, a: Arrival) {
        let (slot, i) = self.intern_arrival(kind, color, sq, a);
        self.rs.promotion.departure_index[slot] = i;
    }

    /// The table slot of (`kind`, `color`, `sq`) and the index of `a` in the shared list of
    /// arrivals (added there once), for arrivals and departures alike.
    fn intern_arrival(
        &mut self,
        kind: usize,
        color: Color,
        sq: Square,
        a: Arrival,
    ) -> (usize, u16) {
        let rs = &mut *self.rs;
        let slot = rs.tables.slot(kind, color, sq);
        let i = match rs.promotion.arrivals.iter().position(|x| *x == a) {
            Some(i) => i,
            None => {
                rs.promotion.arrivals.push(a);
                rs.promotion.arrivals.len() - 1
            }
        };
        (slot, i as u16)
    }

    /// With several royal pieces, a side is in check only when every one is attacked, and a
    /// royal piece may be captured while another remains (the last one counts).
    pub fn check_only_when_every_royal_attacked(&mut self) {
        self.rs.royalty.check_needs_every = true;
    }

    /// Royal succession: the pieces of `successors` join the royal pieces in each side's line
    /// of succession. A side with two pieces or more in that line is never in check (any of
    /// them may be left attacked and captured); its last one is royal as usual.
    pub fn royal_succession(&mut self, successors: &[usize]) {
        let rs = &mut *self.rs;
        for &k in successors {
            if let Some(r) = rs.royalty.by_kind.get_mut(k) {
                *r = true;
            }
            for c in [Color::White, Color::Black] {
                rs.royalty.by_code[code(k, c).index()] = true;
            }
        }
        rs.promotion.to_royal = rs
            .variant
            .pieces
            .iter()
            .any(|p| p.promotes_to.iter().any(|&k| rs.is_royal_kind(k)));
        rs.royalty.succession = true;
    }

    /// Gives the sides hands: pieces in hand are kept in the position (its FEN, its hash),
    /// `MoveKind::Drop` moves put them on the board, promoted pieces are marked, and, when
    /// `captures_to_hand`, a captured piece goes to the captor's hand (a promoted one as the
    /// kind it promoted from). The rule generates the drops it allows.
    pub fn use_hands(&mut self, captures_to_hand: bool) {
        self.rs.set_up_hands(captures_to_hand);
    }

    /// The variant's draw rules.
    pub fn set_draws(&mut self, d: Draws) {
        self.rs.draws = d;
    }
}

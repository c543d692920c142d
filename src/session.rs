//! One game as every front-end plays it: the terminal, UCI, CECP, the referee and self-play
//! talk to a [`Session`], never to the record underneath ([`crate::game`]) or to the move
//! readers and writers ([`crate::text`]) directly (`tests/lib/layers.rs` checks it), and so does
//! the web server.
//!
//! A session reads a move in any accepted notation ([`Session::read`]), judges it (a legal
//! move, or a [`MoveError`] that says precisely why not), applies it, takes moves back (one, or
//! back to a given side's turn), keeps the clocks, and decides how and when the game ends: one
//! [`Verdict`] of a result and a [`Reason`].
//!
//! **Reading moves.** One reader takes coordinates (`e2e4`, `a10a12`, `e11e12q`, `d9e10ep`,
//! `f1g1oo`) and the SAN-like form (`Nf3`, `exd5`, `e8=Q`, `O-O`), and explains a move that
//! is not legal. Its case rule: **files are lower case and a piece letter that begins a move
//! is upper case; a promotion letter and castling's `O` may be either.** In SAN a letter at
//! the start is the only thing that tells a piece from a file (`Bc4` is a Bishop's move, `bc4`
//! a pawn's capture from the b-file), and the variants' piece letters run through the file
//! letters of boards up to 16 files wide (`a` to `p`), so that distinction cannot be given up;
//! a promotion letter follows a rank number and cannot be mistaken, so engines that write
//! `e7e8Q` are read. `E2E4` is refused with the reason.
//!
//! **Writing moves.** [`coord`] writes coordinates (UCI and CECP use them), [`san`] the
//! SAN-like form; FEN is [`Position::fen`].
//!
//! **Clocks.** Optional: a base time and an increment per side ([`TimeControl`]). Time is
//! charged to the side to move, either as a measured [`Duration`] ([`Session::charge`]) or
//! up to an [`Instant`] ([`Session::start_turn`], [`Session::charge_until`]), so the clocks
//! are tested without sleeping. A move played adds the mover's increment; a clock that runs
//! out ends the game by [`Reason::TimeForfeit`]. Taking a move back gives back the clocks as
//! they were before it.
//!
//! **Endings.** The board rules (checkmate, stalemate as the variant scores it, repetition,
//! the move-count rule) are read from the position; the others are told to the session:
//! resignation, time forfeit, a draw by agreement or by claim, adjudication, an illegal move
//! or a crash (the referee's). A move cap ([`Session::set_move_cap`]) adjudicates a draw.

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::game::{Game, Outcome, Termination};
use crate::geometry::Color;
use crate::moves::Move;
use crate::position::{Position, Ruleset};

pub use crate::game::{GameResult, PgnError, PgnRecord, parse_pgn, pgn_movetext, variant_men};
pub use crate::moves::legal_generations;
pub use crate::text::san::{MoveError, pawn_kind, san, san_listed};
pub use crate::text::{EP_SUFFIX, coord, is_capture};

/// The record underneath a session (the start and the moves), as the modules that learn from
/// finished games (the tuner) take them: [`Session::into_record`].
pub use crate::game::Game as Record;

/// `White` or `Black`.
pub fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move has no legal move and is not in check (scored as the variant says).
    Stalemate,
    /// A position occurred as often as the variant's repetition rule allows.
    Repetition,
    /// The same, scored by the variant as a loss for one side (Minishogi).
    RepetitionLoss,
    /// The variant's move-count rule.
    MoveLimit,
    /// The counting rules (Makruk): the count ran out.
    Counting,
    /// A rule's own ending, in that rule's words ("Bare King").
    Rule(&'static str),
    /// The loser resigned.
    Resignation,
    /// The loser's clock ran out.
    TimeForfeit,
    /// Both sides agreed to a draw.
    Agreement,
    /// A draw claimed by the variant's rules, one move before they draw by themselves.
    Claim(Claim),
    /// Decided by whoever runs the game (a referee's or self-play's move cap).
    Adjudication,
    /// The loser played an illegal move (a referee's engine).
    IllegalMove,
    /// The loser's program failed (crashed, hung or left).
    Crash,
}

/// The ground of a draw claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// The position occurred this many times, one short of the repetition draw.
    Repetition(u32),
    /// One move short of the move-count rule.
    MoveLimit,
}

impl Reason {
    /// The PGN `Termination` tag: `normal`, `time forfeit`, `adjudication`, `rules
    /// infraction` or `abandoned`.
    pub fn termination(self) -> &'static str {
        match self {
            Reason::TimeForfeit => "time forfeit",
            Reason::Adjudication => "adjudication",
            Reason::IllegalMove => "rules infraction",
            Reason::Crash => "abandoned",
            _ => "normal",
        }
    }

    fn of(t: Termination) -> Reason {
        match t {
            Termination::Checkmate => Reason::Checkmate,
            Termination::Stalemate => Reason::Stalemate,
            Termination::Repetition => Reason::Repetition,
            Termination::RepetitionLoss => Reason::RepetitionLoss,
            Termination::MoveLimit => Reason::MoveLimit,
            Termination::Counting => Reason::Counting,
            Termination::Rule(what) => Reason::Rule(what),
        }
    }
}

/// How a game ended: who won and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Who won.
    pub result: GameResult,
    /// Why the game ended.
    pub reason: Reason,
}

impl Verdict {
    /// A win for `winner` by `reason`.
    pub fn win(winner: Color, reason: Reason) -> Verdict {
        Verdict {
            result: GameResult::win_for(winner),
            reason,
        }
    }

    /// A draw by `reason`.
    pub fn draw(reason: Reason) -> Verdict {
        Verdict {
            result: GameResult::Draw,
            reason,
        }
    }

    /// The verdict of a position's ending.
    pub(crate) fn of(o: Outcome) -> Verdict {
        Verdict {
            result: o.result,
            reason: Reason::of(o.reason),
        }
    }
}

impl fmt::Display for Verdict {
    /// A sentence: "Checkmate: White wins.", "Black resigns: White wins.", "Draw agreed."...
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (winner, loser) = match self.result {
            GameResult::WhiteWins => ("White", "Black"),
            GameResult::BlackWins => ("Black", "White"),
            GameResult::Draw => ("", ""),
        };
        let board = |t: Termination| {
            Outcome {
                result: self.result,
                reason: t,
            }
            .to_string()
        };
        let draw = self.result == GameResult::Draw;
        match self.reason {
            Reason::Checkmate => write!(f, "{}", board(Termination::Checkmate)),
            Reason::Stalemate => write!(f, "{}", board(Termination::Stalemate)),
            Reason::Repetition => write!(f, "{}", board(Termination::Repetition)),
            Reason::RepetitionLoss => write!(f, "{}", board(Termination::RepetitionLoss)),
            Reason::MoveLimit => write!(f, "{}", board(Termination::MoveLimit)),
            Reason::Counting => write!(f, "{}", board(Termination::Counting)),
            Reason::Rule(what) => write!(f, "{}", board(Termination::Rule(what))),
            Reason::Resignation => write!(f, "{loser} resigns: {winner} wins."),
            Reason::TimeForfeit => write!(f, "{loser}'s time is up: {winner} wins."),
            Reason::Agreement => write!(f, "Draw agreed."),
            Reason::Claim(Claim::Repetition(n)) => {
                write!(f, "Draw claimed: the position occurred {n} times.")
            }
            Reason::Claim(Claim::MoveLimit) => write!(f, "Draw claimed by the move-count rule."),
            Reason::Adjudication if draw => write!(f, "Draw by adjudication."),
            Reason::Adjudication => write!(f, "Adjudicated: {winner} wins."),
            Reason::IllegalMove => write!(f, "{loser} played an illegal move: {winner} wins."),
            Reason::Crash => write!(f, "{loser} failed: {winner} wins."),
        }
    }
}

/// A move of the game as a move list shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The move.
    pub mv: Move,
    /// In coordinates.
    pub coord: String,
    /// In the SAN-like form.
    pub san: String,
    /// The position after it, as FEN.
    pub fen: String,
    /// Whether it captured.
    pub capture: bool,
    /// Whether it gave check.
    pub check: bool,
}

/// A clock's time control: the time each side starts with and the time added per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// The time at the start.
    pub base: Duration,
    /// Added to the mover's clock after each move.
    pub increment: Duration,
}

/// The clocks of both sides.
#[derive(Clone, Debug)]
struct Clocks {
    /// White's and Black's time controls.
    tc: [TimeControl; 2],
    /// Time left on each clock.
    left: [Duration; 2],
    /// When the side to move started thinking, where told.
    since: Option<Instant>,
    /// Time over the clock that is forgiven (a referee's allowance for the pipes).
    margin: Duration,
}

/// A game in play: the record, the clocks and how it ended.
#[derive(Clone, Debug)]
pub struct Session {
    game: Game,
    clocks: Option<Clocks>,
    /// Each side's time left before each move played (taken back with the move).
    clock_history: Vec<[Duration; 2]>,
    /// An ending the board rules know nothing of (resignation, time, agreement...).
    ended: Option<Verdict>,
    /// Plies after which the game is adjudicated a draw.
    move_cap: Option<usize>,
    /// Whether someone else is the arbiter (see [`Session::follow_arbiter`]).
    outside_arbiter: bool,
}

impl Session {
    /// A game from the start position of `rules`.
    pub fn new(rules: &Arc<Ruleset>) -> Session {
        Session::from_game(Game::new(rules))
    }

    /// A game from `pos` (its history counts for repetitions).
    pub fn from_position(pos: Position) -> Session {
        Session::from_game(Game::from_position(pos))
    }

    /// A game from a FEN.
    pub fn from_fen(rules: &Arc<Ruleset>, fen: &str) -> Result<Session, String> {
        Position::from_fen(rules, fen)
            .map(Session::from_position)
            .map_err(|e| e.to_string())
    }

    /// A game replayed from a PGN record under `rules`, every move checked.
    pub fn from_record(rules: &Arc<Ruleset>, rec: &PgnRecord) -> Result<Session, PgnError> {
        Game::from_record(rules, rec).map(Session::from_game)
    }

    fn from_game(game: Game) -> Session {
        Session {
            game,
            clocks: None,
            clock_history: Vec::new(),
            ended: None,
            move_cap: None,
            outside_arbiter: false,
        }
    }

    /// Someone else is the arbiter (a GUI over UCI or CECP): moves go on being read and
    /// played after a draw by the board rules or the move cap, as the arbiter sends them
    /// (a legal move is still required, so nothing follows a checkmate or a stalemate).
    pub fn follow_arbiter(&mut self) {
        self.outside_arbiter = true;
    }

    /// Why no move may be played now: the game is over (and no outside arbiter says
    /// otherwise).
    fn closed(&mut self) -> Result<(), MoveError> {
        let v = match self.ended {
            Some(v) => Some(v),
            None if self.outside_arbiter => None,
            None => self.verdict(),
        };
        match v {
            Some(v) => Err(MoveError(format!("the game is over: {v}"))),
            None => Ok(()),
        }
    }

    /// The record underneath, for the modules that learn from finished games (the tuner).
    pub fn into_record(self) -> Record {
        self.game
    }

    /// The rules the game is played by.
    pub fn rules(&self) -> &Arc<Ruleset> {
        self.game.rules()
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// The position the game started from.
    pub fn start_position(&self) -> &Position {
        self.game.start_position()
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.game.position().side()
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        self.game.moves()
    }

    /// The last move played.
    pub fn last_move(&self) -> Option<Move> {
        self.game.last_move()
    }

    /// The legal moves of the current position (none once the game is over by a verdict
    /// outside the board rules).
    pub fn legal_moves(&mut self) -> Vec<Move> {
        if self.ended.is_some() {
            return Vec::new();
        }
        self.game.legal_moves()
    }

    /// Tags written to PGN (players, event...).
    pub fn tags_mut(&mut self) -> &mut Vec<(String, String)> {
        &mut self.game.tags
    }

    /// The current position as FEN.
    pub fn fen(&self) -> String {
        self.game.position().fen()
    }

    /// The position after the first `ply` moves (0: the start), as FEN; `None` past the last
    /// move.
    pub fn fen_at(&self, ply: usize) -> Option<String> {
        self.position_at(ply).map(|p| p.fen())
    }

    /// The position after the first `ply` moves (0: the start), with the history before it;
    /// `None` past the last move.
    pub fn position_at(&self, ply: usize) -> Option<Position> {
        let moves = self.game.moves();
        if ply > moves.len() {
            return None;
        }
        let mut p = self.game.start_position().clone();
        for &m in &moves[..ply] {
            p.make(m);
        }
        Some(p)
    }

    /// `mv` in coordinates.
    pub fn coord(&self, mv: Move) -> String {
        coord(self.rules(), mv)
    }

    /// `mv`, legal in the current position, in the SAN-like form.
    pub fn san(&mut self, mv: Move) -> String {
        self.game.san(mv)
    }

    /// The moves played in the SAN-like form.
    pub fn san_moves(&self) -> Vec<String> {
        self.game.san_moves()
    }

    /// Every move played, in one pass: its coordinates, its SAN-like text and the FEN after
    /// it (a move list that steps through the game).
    pub fn played(&self) -> Vec<Played> {
        let mut p = self.game.start_position().clone();
        self.game
            .moves()
            .iter()
            .map(|&mv| {
                let capture = is_capture(&p, mv);
                let san = san(&mut p, mv);
                p.make(mv);
                Played {
                    mv,
                    coord: coord(self.rules(), mv),
                    san,
                    fen: p.fen(),
                    capture,
                    check: p.in_check(),
                }
            })
            .collect()
    }

    /// A line of moves from the current position (a principal variation) in the SAN-like
    /// form, up to the first that is not legal.
    pub fn san_line(&self, line: &[Move]) -> Vec<String> {
        san_line(self.game.position(), line)
    }

    /// Reads `text` (coordinates or the SAN-like form; see the module's case rule) as a
    /// legal move of the current position, without playing it; the error says why it is not
    /// one.
    pub fn read(&mut self, text: &str) -> Result<Move, MoveError> {
        self.closed()?;
        self.game.parse(text)
    }

    /// Reads `text` (see [`Session::read`]) and plays it.
    pub fn play_text(&mut self, text: &str) -> Result<Move, MoveError> {
        let mv = self.read(text)?;
        self.apply(mv);
        Ok(mv)
    }

    /// Plays `mv` after checking that it is legal and that the game goes on.
    pub fn play(&mut self, mv: Move) -> Result<(), MoveError> {
        self.closed()?;
        // The game checks the move: one generation of the legal moves, not two.
        let side = self.side_to_move();
        self.game.play(mv)?;
        self.credit(side);
        Ok(())
    }

    /// Plays a legal move: the mover's clock gets its increment.
    fn apply(&mut self, mv: Move) {
        let side = self.side_to_move();
        self.game
            .play(mv)
            .expect("a move is checked before it is applied");
        self.credit(side);
    }

    /// The mover's clock gets its increment (the clocks before it kept for taking back).
    fn credit(&mut self, side: Color) {
        if let Some(c) = self.clocks.as_mut() {
            self.clock_history.push(c.left);
            c.left[side.index()] += c.tc[side.index()].increment;
        }
    }

    /// Takes back the last move (and any verdict outside the board rules); the clocks are
    /// set back to what they were before it.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.game.undo()?;
        self.ended = None;
        if let (Some(c), Some(left)) = (self.clocks.as_mut(), self.clock_history.pop()) {
            c.left = left;
        }
        Some(mv)
    }

    /// Takes back the last move, then more until `side` is to move (or no move is left):
    /// against the engine, back to the human's turn. The moves taken back, oldest first.
    pub fn undo_to(&mut self, side: Color) -> Vec<Move> {
        let mut taken = Vec::new();
        if let Some(m) = self.undo() {
            taken.push(m);
        }
        while self.side_to_move() != side
            && let Some(m) = self.undo()
        {
            taken.push(m);
        }
        taken.reverse();
        taken
    }

    /// How the game ended, if it did: a verdict told to the session, the board rules, then
    /// the move cap.
    pub fn verdict(&mut self) -> Option<Verdict> {
        if let Some(v) = self.ended {
            return Some(v);
        }
        if let Some(o) = self.game.outcome() {
            return Some(Verdict::of(o));
        }
        if self.move_cap.is_some_and(|cap| self.moves().len() >= cap) {
            return Some(Verdict::draw(Reason::Adjudication));
        }
        None
    }

    /// Whether the game is over.
    pub fn is_over(&mut self) -> bool {
        self.verdict().is_some()
    }

    /// Ends the game with `v` (resignation, adjudication, an illegal move, a crash...),
    /// unless it is over already. Returns the verdict that stands.
    pub fn end(&mut self, v: Verdict) -> Verdict {
        if let Some(old) = self.verdict() {
            return old;
        }
        self.ended = Some(v);
        v
    }

    /// `side` resigns.
    pub fn resign(&mut self, side: Color) -> Verdict {
        self.end(Verdict::win(side.flip(), Reason::Resignation))
    }

    /// Both sides agree to a draw.
    pub fn agree_draw(&mut self) -> Verdict {
        self.end(Verdict::draw(Reason::Agreement))
    }

    /// A draw claimed by the variant's rules: granted when the position occurred one time
    /// short of the repetition draw (where a repetition draws: not where the variant scores it
    /// as a loss for one side), or one move short of the move-count rule; otherwise the error
    /// says how far the game is from either.
    pub fn claim_draw(&mut self) -> Result<Verdict, String> {
        if let Some(v) = self.verdict() {
            return Err(format!("the game is over: {v}"));
        }
        let d = self.rules().draws;
        let pos = self.game.position();
        let h = pos.hash();
        let seen = 1 + pos.history_hashes().filter(|&x| x == h).count() as u32;
        let halfmoves = pos.halfmove_clock();
        let claim = if d.repetition > 1 && seen + 1 >= d.repetition && d.repetition_loser.is_none()
        {
            Claim::Repetition(seen)
        } else if d.move_limit > 0 && halfmoves + 1 >= 2 * d.move_limit {
            Claim::MoveLimit
        } else {
            return Err(format!(
                "no draw by the rules: this position occurred {seen} time(s) (a claim needs {}), and {} of {} moves passed without a capture or pawn move",
                d.repetition.saturating_sub(1).max(1),
                halfmoves / 2,
                d.move_limit
            ));
        };
        Ok(self.end(Verdict::draw(Reason::Claim(claim))))
    }

    /// Adjudicates a draw once `plies` moves have been played (`None`: never).
    pub fn set_move_cap(&mut self, plies: Option<usize>) {
        self.move_cap = plies;
    }

    /// Starts the clocks, each side with its own time control (`None`: no clocks).
    pub fn set_clocks(&mut self, tc: Option<[TimeControl; 2]>) {
        self.clocks = tc.map(|tc| Clocks {
            tc,
            left: [tc[0].base, tc[1].base],
            since: None,
            margin: Duration::ZERO,
        });
        self.clock_history.clear();
    }

    /// Time used beyond the clock that does not make the flag fall (a referee's allowance
    /// for the pipes); the clock then reads zero.
    pub fn set_flag_margin(&mut self, margin: Duration) {
        if let Some(c) = self.clocks.as_mut() {
            c.margin = margin;
        }
    }

    /// Each side's time control, when the game has clocks.
    pub fn time_controls(&self) -> Option<[TimeControl; 2]> {
        self.clocks.as_ref().map(|c| c.tc)
    }

    /// The time left on `side`'s clock as it was last charged (`None`: no clocks).
    pub fn remaining(&self, side: Color) -> Option<Duration> {
        self.clocks.as_ref().map(|c| c.left[side.index()])
    }

    /// The time left on `side`'s clock at `now`: the side to move's running turn counts
    /// (from [`Session::start_turn`]).
    pub fn remaining_at(&self, side: Color, now: Instant) -> Option<Duration> {
        let c = self.clocks.as_ref()?;
        let left = c.left[side.index()];
        match c.since {
            Some(t) if side == self.side_to_move() => Some(left.saturating_sub(now - t)),
            _ => Some(left),
        }
    }

    /// The side to move starts thinking at `now`.
    pub fn start_turn(&mut self, now: Instant) {
        if let Some(c) = self.clocks.as_mut() {
            c.since = Some(now);
        }
    }

    /// Charges the time from [`Session::start_turn`] to `now` to the side to move, and
    /// starts its turn again at `now`. The verdict when its flag fell.
    pub fn charge_until(&mut self, now: Instant) -> Option<Verdict> {
        let since = self.clocks.as_ref()?.since?;
        let v = self.charge(now.saturating_duration_since(since));
        self.start_turn(now);
        v
    }

    /// Charges `used` to the side to move's clock. When that is more than its time left
    /// (and the margin), its flag falls: the clock reads zero and the game is lost on time
    /// (the verdict is returned; a game already over keeps its own).
    pub fn charge(&mut self, used: Duration) -> Option<Verdict> {
        if self.is_over() {
            return None;
        }
        let side = self.side_to_move();
        let c = self.clocks.as_mut()?;
        let left = &mut c.left[side.index()];
        if used > *left + c.margin {
            *left = Duration::ZERO;
            return Some(self.end(Verdict::win(side.flip(), Reason::TimeForfeit)));
        }
        *left = left.saturating_sub(used);
        None
    }

    /// Whether `side`'s flag has fallen by `now` (its running turn counted); the game is then
    /// lost on time (see [`Session::charge_until`]).
    pub fn flag_fell(&self, side: Color, now: Instant) -> bool {
        let Some(c) = self.clocks.as_ref() else {
            return false;
        };
        match c.since {
            Some(t) if side == self.side_to_move() => {
                now.saturating_duration_since(t) > c.left[side.index()] + c.margin
            }
            _ => false,
        }
    }

    /// The game as PGN, with its result and the reason of a verdict outside the board rules.
    pub fn to_pgn(&mut self) -> String {
        let ending = self.ended.map(|v| (v.result, v.to_string()));
        self.game.to_pgn_with(ending)
    }
}

/// A line of moves from `pos` (a principal variation) in the SAN-like form, up to the first
/// that is not legal.
pub fn san_line(pos: &Position, line: &[Move]) -> Vec<String> {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for &m in line {
        let mut l = crate::moves::MoveList::new();
        crate::moves::count_generation();
        p.legal_moves(&mut l);
        if !l.as_slice().contains(&m) {
            break;
        }
        out.push(san(&mut p, m));
        p.make(m);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(name: &str) -> Arc<Ruleset> {
        let v = crate::variant::Variant::load(name).unwrap();
        Ruleset::new(&v, None).unwrap()
    }

    fn chess() -> Session {
        Session::new(&rules("chess"))
    }

    fn play_all(s: &mut Session, moves: &str) {
        for m in moves.split_whitespace() {
            s.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
    }

    #[test]
    fn coordinates_and_san_read_the_same_move() {
        let mut s = chess();
        let by_coord = s.read("g1f3").unwrap();
        assert_eq!(s.read("Nf3").unwrap(), by_coord);
        assert_eq!(s.read("Ngf3").unwrap(), by_coord);
        assert_eq!(s.read("Ng1f3").unwrap(), by_coord);
        assert_eq!(
            s.read("  Nf3+ ").unwrap(),
            by_coord,
            "check marks and spaces"
        );
        assert_eq!(s.coord(by_coord), "g1f3");
        assert_eq!(s.san(by_coord), "Nf3");
        // A pawn's move needs no letter.
        assert_eq!(s.coord(s.clone().read("e4").unwrap()), "e2e4");
    }

    #[test]
    fn the_case_rule_files_lower_pieces_upper_promotion_either() {
        let mut s = Session::from_fen(&rules("chess"), "8/4P3/8/8/8/8/k7/4K3 w - - 0 1").unwrap();
        let q = s.read("e7e8q").unwrap();
        assert_eq!(
            s.read("e7e8Q").unwrap(),
            q,
            "a promotion letter in either case"
        );
        assert_eq!(s.read("e8=Q").unwrap(), q);
        assert_eq!(s.read("e8=q").unwrap(), q);
        assert_eq!(s.coord(q), "e7e8q");
        // An upper-case letter at the start is a piece, never a file.
        let e = s.read("E7E8Q").unwrap_err().to_string();
        assert!(e.contains("no piece has the letter E"), "{e}");
        // A lower-case letter at the start is a file, never a piece.
        let mut c = chess();
        let e = c.read("nf3").unwrap_err().to_string();
        assert_eq!(e, "nf3: no Pawn of yours can move to f3");
        // Castling reads O or 0 in either case.
        let mut k = Session::from_fen(&rules("chess"), "4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        let oo = k.read("O-O").unwrap();
        assert_eq!(k.read("o-o").unwrap(), oo);
        assert_eq!(k.read("0-0").unwrap(), oo);
        assert_eq!(k.coord(oo), "e1g1");
    }

    #[test]
    fn two_digit_ranks_and_en_passant_read_in_every_form() {
        let mut m = Session::new(&rules("metamachy"));
        let step = m.read("e3e5").unwrap();
        assert_eq!(m.read("e5").unwrap(), step);
        assert_eq!(m.read("Pe5").unwrap(), step);
        assert_eq!(m.read("e3-e5").unwrap(), step);
        play_all(&mut m, "e5 Ec9");
        assert_eq!(m.san_moves(), ["e5", "Ec9"]);
        assert_eq!(m.coord(m.moves()[1]), "a11c9");
        let mut c =
            Session::from_fen(&rules("chess"), "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1").unwrap();
        let ep = c.read("e5d6").unwrap();
        assert_eq!(c.read("exd6").unwrap(), ep);
        assert_eq!(c.read("exd6ep").unwrap(), ep);
        assert_eq!(c.read("e5d6e.p.").unwrap(), ep);
        assert_eq!(c.san(ep), "exd6");
    }

    #[test]
    fn an_illegal_move_is_refused_with_its_reason() {
        let mut s = chess();
        let cases = [
            ("e2e5", "the Pawn on e2 cannot move to e5"),
            ("e7e5", "the Pawn on e7 is black's, and it is white's turn"),
            ("Zf3", "no piece has the letter Z"),
            ("Qh5", "no Queen of yours can move to h5"),
            ("e2e9", "the board has no square e9"),
            ("hello", "cannot read `hello` as a move"),
            ("", "no move given"),
        ];
        for (text, why) in cases {
            let e = s.read(text).unwrap_err().to_string();
            assert!(e.contains(why), "{text}: {e}");
        }
        assert!(s.moves().is_empty(), "a refused move changes nothing");
        play_all(&mut s, "e4 e5 Bc4 Nc6 Qh5 Nf6");
        let e = s.read("Qxf7").unwrap(); // mate, legal
        let mut t = s.clone();
        t.play(e).unwrap();
        let e = t.read("Ke7").unwrap_err().to_string();
        assert!(
            e.contains("the game is over: Checkmate: White wins."),
            "{e}"
        );
        let e = s.play(t.moves()[0]).unwrap_err().to_string();
        assert!(e.contains("not a legal move"), "{e}");
    }

    #[test]
    fn undo_to_a_side_goes_back_to_its_turn() {
        let mut s = chess();
        play_all(&mut s, "e4 e5 Nf3");
        // Black to move: back to White's turn takes back Nf3 only.
        let taken = s.undo_to(Color::White);
        assert_eq!(taken.len(), 1);
        assert_eq!(s.side_to_move(), Color::White);
        play_all(&mut s, "Nf3");
        // Back to Black's turn from Black to move: its move and White's reply.
        let taken: Vec<String> = s
            .undo_to(Color::Black)
            .iter()
            .map(|&m| s.coord(m))
            .collect();
        assert_eq!(taken, ["e7e5", "g1f3"]);
        assert_eq!(s.side_to_move(), Color::Black);
        assert_eq!(s.moves().len(), 1);
        let mut empty = chess();
        assert!(empty.undo_to(Color::White).is_empty());
        assert!(empty.undo().is_none());
        // Undo lifts a resignation.
        s.resign(Color::Black);
        assert!(s.is_over());
        s.undo();
        assert!(!s.is_over());
    }

    #[test]
    fn fen_and_san_at_every_ply() {
        let mut s = chess();
        play_all(&mut s, "e4 e5 Nf3");
        assert_eq!(s.san_moves(), ["e4", "e5", "Nf3"]);
        assert_eq!(s.fen_at(0).unwrap(), Position::start(s.rules()).fen());
        assert_eq!(
            s.fen_at(1).unwrap(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        assert_eq!(s.fen_at(3).unwrap(), s.fen());
        assert_eq!(s.fen_at(4), None);
        let played = s.played();
        assert_eq!(played.len(), 3);
        assert_eq!(played[2].san, "Nf3");
        assert_eq!(played[2].coord, "g1f3");
        assert!(!played[2].capture && !played[2].check);
        let mut x = chess();
        play_all(&mut x, "e4 d5 exd5 Qxd5 Nc3 Qe5");
        let xp = x.played();
        assert!(xp[2].capture && !xp[2].check, "exd5 captures");
        assert!(!xp[5].capture && xp[5].check, "Qe5+ checks");
        assert_eq!(x.position_at(2).unwrap().fen(), x.fen_at(2).unwrap());
        for (i, p) in played.iter().enumerate() {
            assert_eq!(Some(p.fen.clone()), s.fen_at(i + 1));
        }
    }

    fn tc(base_s: u64, inc_s: u64) -> [TimeControl; 2] {
        let t = TimeControl {
            base: Duration::from_secs(base_s),
            increment: Duration::from_secs(inc_s),
        };
        [t, t]
    }

    #[test]
    fn a_move_adds_the_increment_and_time_goes_to_the_side_to_move() {
        let mut s = chess();
        s.set_clocks(Some(tc(60, 2)));
        assert_eq!(s.charge(Duration::from_secs(10)), None);
        play_all(&mut s, "e4");
        assert_eq!(s.remaining(Color::White), Some(Duration::from_secs(52)));
        assert_eq!(s.remaining(Color::Black), Some(Duration::from_secs(60)));
        // Black thinks from t0 to t0 + 5 s.
        let t0 = Instant::now();
        s.start_turn(t0);
        let t1 = t0 + Duration::from_secs(5);
        assert_eq!(
            s.remaining_at(Color::Black, t1),
            Some(Duration::from_secs(55))
        );
        assert_eq!(
            s.remaining_at(Color::White, t1),
            Some(Duration::from_secs(52))
        );
        assert_eq!(s.charge_until(t1), None);
        play_all(&mut s, "e5");
        assert_eq!(s.remaining(Color::Black), Some(Duration::from_secs(57)));
        // Taking the move back gives back the clock.
        s.undo();
        assert_eq!(s.remaining(Color::Black), Some(Duration::from_secs(55)));
        assert_eq!(
            s.time_controls().unwrap()[0].increment,
            Duration::from_secs(2)
        );
        assert_eq!(chess().remaining(Color::White), None);
    }

    #[test]
    fn a_flag_fall_ends_the_game_by_time_forfeit() {
        let mut s = chess();
        s.set_clocks(Some(tc(10, 0)));
        play_all(&mut s, "e4");
        let t0 = Instant::now();
        s.start_turn(t0);
        assert!(!s.flag_fell(Color::Black, t0 + Duration::from_secs(10)));
        assert!(s.flag_fell(Color::Black, t0 + Duration::from_millis(10_001)));
        assert!(!s.flag_fell(Color::White, t0 + Duration::from_secs(99)));
        let v = s.charge_until(t0 + Duration::from_secs(11)).unwrap();
        assert_eq!(v, Verdict::win(Color::White, Reason::TimeForfeit));
        assert_eq!(v.to_string(), "Black's time is up: White wins.");
        assert_eq!(v.reason.termination(), "time forfeit");
        assert_eq!(s.remaining(Color::Black), Some(Duration::ZERO));
        assert!(s.read("e5").is_err(), "no move after the flag fell");
        assert!(s.to_pgn().contains("[Result \"1-0\"]"));
        // A margin forgives a little.
        let mut m = chess();
        m.set_clocks(Some(tc(1, 0)));
        m.set_flag_margin(Duration::from_millis(100));
        assert_eq!(m.charge(Duration::from_millis(1050)), None);
        assert_eq!(m.remaining(Color::White), Some(Duration::ZERO));
        assert!(m.charge(Duration::from_millis(101)).is_some());
    }

    #[test]
    fn every_board_ending() {
        let mut s = chess();
        play_all(&mut s, "f3 e5 g4 Qh4");
        let v = s.verdict().unwrap();
        assert_eq!(v, Verdict::win(Color::Black, Reason::Checkmate));
        assert_eq!(v.to_string(), "Checkmate: Black wins.");
        let mut st = Session::from_fen(&rules("chess"), "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(st.verdict(), Some(Verdict::draw(Reason::Stalemate)));
        let mut r = chess();
        play_all(&mut r, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
        assert_eq!(r.verdict(), None);
        play_all(&mut r, "Ng8");
        assert_eq!(r.verdict(), Some(Verdict::draw(Reason::Repetition)));
        assert!(r.read("Nf3").is_err(), "no move after the draw");
        // Under an outside arbiter the moves go on.
        r.follow_arbiter();
        play_all(&mut r, "Nf3");
        let mut m = Session::from_fen(&rules("chess"), "4k3/8/8/8/8/8/8/R3K3 w - - 99 80").unwrap();
        play_all(&mut m, "Ra2");
        assert_eq!(m.verdict(), Some(Verdict::draw(Reason::MoveLimit)));
        assert_eq!(m.verdict().unwrap().reason.termination(), "normal");
        // Makruk's count: 32 plies counted of 32, one more move passes it.
        let fen = "8/8/8/4k3/8/8/3R4/4K3 b - 32 32 1";
        let mut c = Session::from_fen(&rules("makruk"), fen).unwrap();
        assert_eq!(c.verdict(), None);
        play_all(&mut c, "Ke4");
        let v = c.verdict().unwrap();
        assert_eq!(v, Verdict::draw(Reason::Counting));
        assert_eq!(v.to_string(), "Draw by the counting rules.");
        assert!(c.to_pgn().contains("[Result \"1/2-1/2\"]"));
    }

    #[test]
    fn every_ending_told_to_the_session() {
        let mut s = chess();
        assert_eq!(
            s.resign(Color::White).to_string(),
            "White resigns: Black wins."
        );
        assert!(s.legal_moves().is_empty());
        // A second ending does not replace the first.
        assert_eq!(s.agree_draw().reason, Reason::Resignation);
        assert!(s.to_pgn().contains("{White resigns: Black wins.} 0-1"));
        let mut a = chess();
        assert_eq!(a.agree_draw(), Verdict::draw(Reason::Agreement));
        let mut j = chess();
        let v = j.end(Verdict::draw(Reason::Adjudication));
        assert_eq!(v.to_string(), "Draw by adjudication.");
        assert_eq!(v.reason.termination(), "adjudication");
        let mut i = chess();
        let v = i.end(Verdict::win(Color::White, Reason::IllegalMove));
        assert_eq!(v.to_string(), "Black played an illegal move: White wins.");
        assert_eq!(v.reason.termination(), "rules infraction");
        let mut c = chess();
        let v = c.end(Verdict::win(Color::Black, Reason::Crash));
        assert_eq!(v.reason.termination(), "abandoned");
        assert_eq!(v.to_string(), "White failed: Black wins.");
        // The move cap.
        let mut cap = chess();
        cap.set_move_cap(Some(2));
        play_all(&mut cap, "e4");
        assert_eq!(cap.verdict(), None);
        play_all(&mut cap, "e5");
        assert_eq!(cap.verdict(), Some(Verdict::draw(Reason::Adjudication)));
    }

    #[test]
    fn a_draw_claim_needs_the_rules() {
        let mut s = chess();
        let e = s.claim_draw().unwrap_err();
        assert!(e.contains("occurred 1 time(s)"), "{e}");
        assert!(!s.is_over());
        // Twice, one short of the threefold repetition.
        play_all(&mut s, "Nf3 Nf6 Ng1 Ng8");
        let v = s.claim_draw().unwrap();
        assert_eq!(v.reason, Reason::Claim(Claim::Repetition(2)));
        assert_eq!(
            v.to_string(),
            "Draw claimed: the position occurred 2 times."
        );
        let mut m = Session::from_fen(&rules("chess"), "4k3/8/8/8/8/8/8/R3K3 w - - 99 80").unwrap();
        assert_eq!(
            m.claim_draw().unwrap(),
            Verdict::draw(Reason::Claim(Claim::MoveLimit))
        );
    }
}

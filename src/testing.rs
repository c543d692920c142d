//! Property testing for any variant: random games as proptest strategies, and the invariants
//! every variant must keep, as plain functions.
//!
//! A random game is a list of choice indices: in each position the index `i` picks
//! `legal_moves[i % len]`, and the game stops early when no legal move is left. Proptest shrinks
//! the indices (fewer of them, smaller ones), so a failing game shrinks to a short game made of
//! early moves of each move list.
//!
//! The [`Invariant`]s are checked in every position of a game, the start position included, so
//! a failure names the position where it happened: the moves that lead there from the start
//! and the FEN before the failing move. [`check_variant`] runs them all with a seeded
//! [`TestRunner`] and gathers the outcome in a [`Report`]. Besides games from the start
//! position it plays short games from random positions ([`random_position_strategy`]), which
//! reach what random play from the start rarely does on big boards: promotions, bare royal
//! pieces, long open lines.
//!
//! ```no_run
//! use polymachy::{position::Ruleset, testing, variant::Variant};
//!
//! let rules = Ruleset::new(&Variant::load("chess").unwrap(), None).unwrap();
//! let report = testing::check_variant(&rules, 16, 40, 7);
//! assert_eq!(report.failed(), 0, "{}", report.first_failure().unwrap());
//! ```

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};

use crate::geometry::{Color, Square};
use crate::moves::{EMPTY, Move, MoveKind, MoveList, color_of};
use crate::position::Ruleset;
use crate::position::{Position, Setup};
use crate::text::coord;

// ---------------------------------------------------------------------------------------------
// Random games

/// Choice indices for a game of 0 to `max_plies` moves (see the module documentation).
pub fn choices_strategy(max_plies: usize) -> impl Strategy<Value = Vec<u32>> {
    vec(any::<u32>(), 0..=max_plies)
}

/// Plays a game of choice indices from the start position; returns the position reached, whose
/// [`Position::moves_made`] are the game's moves.
pub fn play_choices(rules: &Arc<Ruleset>, choices: &[u32]) -> Position {
    let mut pos = Position::start(rules);
    let mut list = MoveList::new();
    for &c in choices {
        if pos.final_ending().is_some() {
            break;
        }
        pos.legal_moves(&mut list);
        if list.is_empty() {
            break;
        }
        let mv = list.as_slice()[c as usize % list.len()];
        pos.make(mv);
        if ended_in_check(&pos) {
            pos.unmake();
            break;
        }
    }
    pos
}

/// Whether the last move ended the game leaving its mover's royal piece attacked (a rule
/// allows that where the move ends the game at once: Janggi's pass in bikjang): the position
/// is over, and no FEN describes it (a FEN whose side not to move is in check is refused).
pub fn ended_in_check(pos: &Position) -> bool {
    pos.ply_count() > 0 && pos.royal_in_check(pos.side().flip())
}

/// A random game from the start position: 0 to `max_plies` legal moves (fewer when the game
/// ends), shrinking towards short games of early moves.
pub fn game_strategy(rules: Arc<Ruleset>, max_plies: usize) -> impl Strategy<Value = Vec<Move>> {
    choices_strategy(max_plies).prop_map(move |c| play_choices(&rules, &c).moves_made().collect())
}

/// The position reached after a random game (see [`game_strategy`]). Its move history is kept,
/// so it can be unmade back to the start position.
pub fn position_strategy(rules: Arc<Ruleset>, max_plies: usize) -> impl Strategy<Value = Position> {
    choices_strategy(max_plies).prop_map(move |c| play_choices(&rules, &c))
}

/// The squares (indices) where a piece of `kind` and `color` may stand: its side's copy of its
/// zone where it is `confined`, else every square of the board.
fn standing_squares(rules: &Ruleset, kind: usize, color: Color) -> Vec<usize> {
    (0..rules.geometry.size())
        .filter(|&sq| {
            let sq = Square::from_index(sq);
            !rules.geometry.is_hole(sq)
                && rules.variant.pieces[kind]
                    .confined
                    .is_none_or(|z| rules.variant.zones[z].contains(color, sq))
        })
        .collect()
}

/// The kinds of `others` each side may hold in hand: those it may drop.
fn hand_kinds(rules: &Arc<Ruleset>, others: &[usize]) -> Vec<(usize, Color)> {
    [Color::White, Color::Black]
        .into_iter()
        .flat_map(|c| {
            others
                .iter()
                .filter(move |&&k| !crate::lints::drop_squares(rules, k, c).is_empty())
                .map(move |&k| (k, c))
        })
        .collect()
}

/// A random position with at most `max_pieces` pieces besides the royal ones: each side gets
/// the royal pieces of its start position, on random squares, and the other pieces are of
/// random kinds and colours on random squares. A piece `confined` to a zone stands in its
/// side's copy of it; in a variant with hands, each side holds 0 to 2 pieces of each kind it
/// may drop. No rights, no en-passant square; the side to move is random (the other one when
/// the side not to move would be in check). A promoting piece never stands unpromoted in its
/// own promotion zone when promotion is compulsory. Shrinking removes pieces.
pub fn random_position_strategy(
    rules: Arc<Ruleset>,
    max_pieces: usize,
) -> impl Strategy<Value = Position> {
    let size = rules.geometry.size();
    let kinds = rules.variant.pieces.len();
    // The royal pieces of the start position, on the board or in hand (placed in a setup).
    let royals: Vec<(usize, Color)> = rules
        .start
        .iter()
        .filter(|&&c| rules.is_royal(c))
        .map(|&c| (crate::moves::kind_of(c), color_of(c)))
        .chain(
            rules
                .variant
                .start_hand
                .iter()
                .copied()
                .filter(|&(k, _)| rules.is_royal_kind(k)),
        )
        .collect();
    let others: Vec<usize> = (0..kinds).filter(|&k| !rules.is_royal_kind(k)).collect();
    let pieces = if others.is_empty() { 0 } else { max_pieces };
    let allowed = |kind: usize, color: Color| standing_squares(&rules, kind, color);
    let royal_allowed: Vec<Vec<usize>> = royals.iter().map(|&(k, c)| allowed(k, c)).collect();
    let other_allowed: Vec<[Vec<usize>; 2]> = (0..kinds)
        .map(|k| [allowed(k, Color::White), allowed(k, Color::Black)])
        .collect();
    let in_hand = hand_kinds(&rules, &others);
    let royal_squares = vec(any::<prop::sample::Index>(), royals.len());
    let other_pieces = vec(
        (
            any::<prop::sample::Index>(),
            0..others.len().max(1),
            any::<bool>(),
        ),
        0..=pieces,
    );
    let hands = vec(0u8..=2, in_hand.len());
    (royal_squares, other_pieces, any::<bool>(), hands).prop_filter_map(
        "royal pieces on one square, or both sides in check",
        move |(royal_squares, other_pieces, black, hands)| {
            let mut placement: Vec<Option<(usize, Color)>> = vec![None; size];
            for ((ix, &piece), squares) in royal_squares.iter().zip(&royals).zip(&royal_allowed) {
                if squares.is_empty() {
                    return None;
                }
                let sq = squares[ix.index(squares.len())];
                if placement[sq].is_some() {
                    return None;
                }
                placement[sq] = Some(piece);
            }
            for &(ix, k, white) in &other_pieces {
                let kind = others[k];
                let color = if white { Color::White } else { Color::Black };
                let squares = &other_allowed[kind][color.index()];
                if squares.is_empty() {
                    continue;
                }
                let sq = squares[ix.index(squares.len())];
                let stuck = !rules.arrival(kind, color, Square::from_index(sq)).stay;
                if placement[sq].is_none() && !stuck {
                    placement[sq] = Some((kind, color));
                }
            }
            let mut hand = [[0; crate::moves::MAX_KINDS]; 2];
            for (&(k, c), &n) in in_hand.iter().zip(&hands) {
                hand[c.index()][k] = n;
            }
            // Through the same checks as a FEN or a variant's start position.
            let board = placement
                .iter()
                .map(|p| {
                    p.map(|(k, c)| crate::moves::code(k, c))
                        .unwrap_or(crate::moves::EMPTY)
                })
                .collect();
            let first = if black { Color::Black } else { Color::White };
            let mut setup = Setup {
                board,
                side: first,
                rights: 0,
                ep: crate::position::EpSquares::NONE,
                halfmove: 0,
                fullmove: 1,
                hand,
                promoted: Default::default(),
                state: Default::default(),
            };
            Position::from_setup(&rules, &setup)
                .or_else(|_| {
                    setup.side = first.flip();
                    Position::from_setup(&rules, &setup)
                })
                .ok()
        },
    )
}

/// Plays `moves` from the start position, refusing any move that is not legal where it is
/// played.
pub fn replay(rules: &Arc<Ruleset>, moves: &[Move]) -> Result<Position, String> {
    let mut pos = Position::start(rules);
    let mut list = MoveList::new();
    for (ply, &mv) in moves.iter().enumerate() {
        pos.legal_moves(&mut list);
        if !list.as_slice().contains(&mv) {
            return Err(format!(
                "move {} (ply {}) is not legal in {}",
                show(rules, mv),
                ply + 1,
                pos.fen()
            ));
        }
        pos.make(mv);
    }
    Ok(pos)
}

/// A proptest runner with a fixed seed: the same seed and case count give the same games.
/// Shrinking is bounded (4096 steps, 30 seconds) and nothing is written to disk.
pub fn seeded_runner(cases: u32, seed: u64) -> TestRunner {
    let config = Config {
        cases,
        failure_persistence: None,
        max_shrink_iters: 4096,
        max_shrink_time: 30_000,
        ..Config::default()
    };
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &bytes))
}

// ---------------------------------------------------------------------------------------------
// Invariants

/// A property every variant must have, checked in every position of random games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Invariant {
    /// The FEN reads back to the same FEN, hash and legal moves.
    FenRoundTrip,
    /// Making and unmaking any legal move restores the exact position and hash.
    MakeUnmake,
    /// The hash kept up to date by make equals the hash computed from scratch.
    IncrementalHash,
    /// No legal move leaves a royal piece of the mover attacked.
    LegalMovesSafe,
    /// Every pseudo-legal move that is rejected leaves a royal piece attacked or is vetoed by
    /// the rule that added it.
    RejectionsJustified,
    /// No legal move is listed twice, and no two legal moves share their coordinate notation.
    NoDuplicateMoves,
    /// Every position of a game is legal: the side not to move is not in check and the FEN
    /// loads.
    LegalGameState,
    /// The verdict of how the game stands is the one the search reaches: checkmate or
    /// stalemate exactly when no legal move is left, a rule's ending only with moves left.
    Verdict,
    /// The position with the colours swapped and the board turned top to bottom (as a FEN)
    /// has the same moves turned top to bottom: Black's game is White's. Every piece must move
    /// the same to the left and to the right; where one does not, the mirror is another game
    /// and nothing is compared.
    ColourMirror,
}

impl Invariant {
    /// Every invariant, in the order reports list them.
    pub const ALL: [Invariant; 9] = [
        Invariant::FenRoundTrip,
        Invariant::MakeUnmake,
        Invariant::IncrementalHash,
        Invariant::LegalMovesSafe,
        Invariant::RejectionsJustified,
        Invariant::NoDuplicateMoves,
        Invariant::LegalGameState,
        Invariant::Verdict,
        Invariant::ColourMirror,
    ];

    /// A short name (`fen-round-trip`).
    pub fn name(self) -> &'static str {
        match self {
            Invariant::FenRoundTrip => "fen-round-trip",
            Invariant::MakeUnmake => "make-unmake",
            Invariant::IncrementalHash => "incremental-hash",
            Invariant::LegalMovesSafe => "legal-moves-safe",
            Invariant::RejectionsJustified => "rejections-justified",
            Invariant::NoDuplicateMoves => "no-duplicate-moves",
            Invariant::LegalGameState => "legal-game-state",
            Invariant::Verdict => "verdict",
            Invariant::ColourMirror => "colour-mirror",
        }
    }

    /// One line saying what is checked.
    pub fn description(self) -> &'static str {
        match self {
            Invariant::FenRoundTrip => "FEN read back gives the same FEN, hash and legal moves",
            Invariant::MakeUnmake => {
                "make then unmake of every legal move restores position and hash"
            }
            Invariant::IncrementalHash => {
                "incremental hash equals the hash from scratch after every move"
            }
            Invariant::LegalMovesSafe => "no legal move leaves the mover's royal piece attacked",
            Invariant::RejectionsJustified => {
                "rejected pseudo-legal moves leave a royal attacked or are vetoed"
            }
            Invariant::NoDuplicateMoves => "no legal move is listed twice or shares its notation",
            Invariant::LegalGameState => {
                "side not to move is never in check; every position reloads from FEN"
            }
            Invariant::Verdict => {
                "the game's verdict is the search's, mate and stalemate exactly without moves"
            }
            Invariant::ColourMirror => {
                "colours swapped and the board turned top to bottom, the moves turn with it"
            }
        }
    }

    /// Checks this invariant in one position. The position is left as it was.
    pub fn check(self, pos: &mut Position) -> Result<(), String> {
        match self {
            Invariant::FenRoundTrip => check_fen_round_trip(pos),
            Invariant::MakeUnmake => check_make_unmake(pos),
            Invariant::IncrementalHash => check_incremental_hash(pos),
            Invariant::LegalMovesSafe => check_legal_moves_safe(pos),
            Invariant::RejectionsJustified => check_rejections(pos),
            Invariant::NoDuplicateMoves => check_no_duplicates(pos),
            Invariant::LegalGameState => check_legal_state(pos),
            Invariant::Verdict => check_verdict(pos),
            Invariant::ColourMirror => check_colour_mirror(pos),
        }
    }
}

impl fmt::Display for Invariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A move in coordinate notation, with its kind when it is not an ordinary move
/// (`e1g1 (castling)`), for messages.
pub fn show(rules: &Ruleset, mv: Move) -> String {
    let text = coord(rules, mv);
    match mv.kind {
        MoveKind::Normal => text,
        MoveKind::Double => format!("{text} (double step)"),
        MoveKind::EnPassant => format!("{text} (en passant)"),
        MoveKind::Drop => format!("{text} (drop)"),
        MoveKind::Locust => format!("{text} (locust)"),
        MoveKind::Rule => match rules.compiled_rules().get(mv.aux as usize) {
            Some(h) => format!("{text} ({})", h.name()),
            None => format!("{text} (rule #{})", mv.aux),
        },
    }
}

fn legal_list(pos: &mut Position) -> Vec<Move> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    list.as_slice().to_vec()
}

fn show_all(rules: &Ruleset, moves: &[Move]) -> String {
    let mut v: Vec<String> = moves.iter().map(|&m| show(rules, m)).collect();
    v.sort();
    v.join(", ")
}

/// The difference between two move lists taken as sets, or None when they are equal.
fn set_difference(rules: &Ruleset, expected: &[Move], actual: &[Move]) -> Option<String> {
    let e: HashSet<Move> = expected.iter().copied().collect();
    let a: HashSet<Move> = actual.iter().copied().collect();
    if e == a {
        return None;
    }
    let missing: Vec<Move> = expected
        .iter()
        .copied()
        .filter(|m| !a.contains(m))
        .collect();
    let extra: Vec<Move> = actual.iter().copied().filter(|m| !e.contains(m)).collect();
    let mut parts = Vec::new();
    if !missing.is_empty() {
        parts.push(format!("missing {}", show_all(rules, &missing)));
    }
    if !extra.is_empty() {
        parts.push(format!("extra {}", show_all(rules, &extra)));
    }
    Some(parts.join("; "))
}

/// Squares of `color`'s royal pieces that are attacked, found by scanning the whole board (not
/// from the royal squares the position keeps track of).
pub fn attacked_royals(pos: &Position, color: Color) -> Vec<Square> {
    let rules = pos.rules();
    (0..rules.geometry.size())
        .map(Square::from_index)
        .filter(|&s| {
            let c = pos.piece_at(s);
            c != EMPTY && color_of(c) == color && rules.is_royal(c) && pos.attacked(s, color.flip())
        })
        .collect()
}

/// Whether `color` is in check by a scan of the whole board: any royal piece attacked, or,
/// where the last royal piece counts (`Ruleset::check_needs_every_royal`) and the side has
/// several, every one of them; with royal succession (`Ruleset::royal_succession`) and several,
/// never. Returns the attacked royal squares with it.
pub fn scanned_check(pos: &Position, color: Color) -> (bool, Vec<Square>) {
    let rules = pos.rules();
    let royals = (0..rules.geometry.size())
        .filter(|&s| {
            let c = pos.piece_at(Square::from_index(s));
            c != EMPTY && color_of(c) == color && rules.is_royal(c)
        })
        .count();
    let hit = attacked_royals(pos, color);
    let check = if rules.royal_succession() && royals > 1 {
        false
    } else if rules.check_needs_every_royal() && royals > 1 {
        hit.len() == royals
    } else {
        !hit.is_empty()
    };
    (check, hit)
}

fn squares(rules: &Ruleset, sqs: &[Square]) -> String {
    sqs.iter()
        .map(|&s| rules.geometry.name(s).to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// (8) The verdict ([`Position::verdict`]) says checkmate (in check) or stalemate (not in
/// check) exactly when no legal move is left, and any other ending only with moves left (but
/// for a rule's ending at once, [`Position::final_ending`], which stands either way); the
/// search's way to it ([`Position::rule_ending`] at the node, confirmed against the moves only
/// when an ending stands, a repetition judged by [`Position::judge_repetition`]) reaches the
/// same verdict, perpetual checks included.
pub fn check_verdict(pos: &mut Position) -> Result<(), String> {
    use crate::position::Termination;
    let verdict = pos.verdict();
    let none_left = legal_list(pos).is_empty();
    let fen = pos.fen();
    match verdict {
        None if none_left => return Err(format!("`{fen}`: no legal move, but no verdict")),
        Some(o) if matches!(o.reason, Termination::Checkmate | Termination::Stalemate) => {
            if !none_left {
                return Err(format!("`{fen}`: {o}, but a legal move is left"));
            }
            if (o.reason == Termination::Checkmate) != pos.in_check() {
                return Err(format!("`{fen}`: {o}, in check: {}", pos.in_check()));
            }
        }
        Some(o) if none_left && pos.final_ending() != Some(o) => {
            return Err(format!("`{fen}`: {o}, but no legal move is left"));
        }
        _ => {}
    }
    let mut scratch = MoveList::new();
    let mut past = Vec::new();
    pos.past_checks(&mut past);
    let search = match pos.rule_ending(0) {
        Some(o) => {
            let o = pos.confirm_ending(o, &mut scratch);
            Some(pos.judge_repetition(o, 0, |k| past.get(k - 1).copied().unwrap_or(false)))
        }
        None if none_left => Some(pos.no_move_outcome(pos.in_check())),
        None => None,
    };
    if search != verdict {
        return Err(format!(
            "`{fen}`: the game's verdict is {verdict:?}, the search's {search:?}"
        ));
    }
    Ok(())
}

/// (1) The FEN of `pos` reads back to the same FEN, hash and legal moves.
pub fn check_fen_round_trip(pos: &mut Position) -> Result<(), String> {
    let fen = pos.fen();
    check_reload(pos, &fen)
}

/// Whether every piece of the variant moves the same to the left and to the right (in every
/// zone too), so that the colour mirror is the same game.
pub fn left_right_symmetric(v: &crate::variant::Variant) -> bool {
    v.pieces.iter().all(|p| {
        crate::tables::mirror_symmetric(&p.betza) != Some(false)
            && p.betza_in
                .iter()
                .chain(&p.betza_within)
                .all(|z| crate::tables::mirror_symmetric(&z.betza) != Some(false))
    })
}

/// `fen` with the colours swapped and the board turned top to bottom: the ranks in the other
/// order, every piece letter (on the board, in hand, in the rights) in the other case, the
/// other side to move, every square named (en passant) on the other side.
pub fn mirror_fen(g: crate::geometry::Geometry, fen: &str) -> String {
    let swap = |c: char| {
        if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        }
    };
    let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    if let Some(placement) = fields.first_mut() {
        let (board, hand) = match placement.find('[') {
            Some(i) => placement.split_at(i),
            None => (placement.as_str(), ""),
        };
        let ranks: Vec<String> = board
            .split('/')
            .rev()
            .map(|r| r.chars().map(swap).collect())
            .collect();
        *placement = ranks.join("/") + &hand.chars().map(swap).collect::<String>();
    }
    if let Some(side) = fields.get_mut(1) {
        *side = if side == "w" { "b".into() } else { "w".into() };
    }
    if let Some(rights) = fields.get_mut(2) {
        *rights = rights.chars().map(swap).collect();
    }
    if let Some(ep) = fields.get_mut(3) {
        *ep = mirror_squares(g, ep);
    }
    fields.join(" ")
}

/// `text` with every square name in it (`e3`, `a10`) on the other side of the board.
fn mirror_squares(g: crate::geometry::Geometry, text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        let mut j = i + 1;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        match g
            .parse_square(&text[i..j])
            .filter(|_| b[i].is_ascii_lowercase() && j > i + 1)
        {
            Some(sq) => {
                out.push_str(&g.name(g.mirror_rank(sq)).to_string());
                i = j;
            }
            None => {
                out.push(b[i] as char);
                i += 1;
            }
        }
    }
    out
}

/// [`Invariant::ColourMirror`].
pub fn check_colour_mirror(pos: &mut Position) -> Result<(), String> {
    let rules = pos.rules().clone();
    if !left_right_symmetric(&rules.variant) {
        return Ok(());
    }
    let g = rules.geometry;
    let fen = pos.fen();
    let mirrored = mirror_fen(g, &fen);
    let mut other = Position::from_fen(&rules, &mirrored)
        .map_err(|e| format!("the mirror of `{fen}`, `{mirrored}`, does not load: {e}"))?;
    let name = |m: Move| crate::text::coord(&rules, m);
    let mut mine: Vec<String> = legal_list(pos)
        .into_iter()
        .map(|m| mirror_squares(g, &name(m)))
        .collect();
    let mut theirs: Vec<String> = legal_list(&mut other).into_iter().map(name).collect();
    mine.sort();
    theirs.sort();
    if mine != theirs {
        let missing: Vec<&String> = mine.iter().filter(|m| !theirs.contains(m)).collect();
        let extra: Vec<&String> = theirs.iter().filter(|m| !mine.contains(m)).collect();
        return Err(format!(
            "`{fen}` turned to `{mirrored}`: the mirror lacks {missing:?} and has {extra:?} besides"
        ));
    }
    if other.in_check() != pos.in_check() {
        return Err(format!("`{fen}` turned to `{mirrored}`: check differs"));
    }
    Ok(())
}

/// Reads `fen` and checks that it is `pos`: same FEN, hash, check status and legal moves.
/// [`check_fen_round_trip`] passes `pos`'s own FEN; any other text must be reported.
pub fn check_reload(pos: &mut Position, fen: &str) -> Result<(), String> {
    let rules = pos.rules().clone();
    let mut back =
        Position::from_fen(&rules, fen).map_err(|e| format!("FEN `{fen}` does not load: {e}"))?;
    let written = pos.fen();
    let reread = back.fen();
    if reread != written {
        return Err(format!(
            "FEN `{fen}` reads back as `{reread}`, the position is `{written}`"
        ));
    }
    if back.hash() != pos.hash() {
        return Err(format!(
            "FEN `{fen}` reads back with hash {:016x}, the position has {:016x}",
            back.hash(),
            pos.hash()
        ));
    }
    if back.in_check() != pos.in_check() {
        return Err(format!(
            "FEN `{fen}` reads back {}in check, the position is {}in check",
            if back.in_check() { "" } else { "not " },
            if pos.in_check() { "" } else { "not " }
        ));
    }
    let mine = legal_list(pos);
    let theirs = legal_list(&mut back);
    if let Some(d) = set_difference(&rules, &mine, &theirs) {
        return Err(format!(
            "FEN `{fen}` reads back with other legal moves: {d}"
        ));
    }
    Ok(())
}

/// Checks that `actual` is exactly `expected`: board, side, rights, en passant, clocks, hash,
/// royal squares and move history depth. The error lists every difference.
pub fn same_position(expected: &Position, actual: &Position) -> Result<(), String> {
    let royal = |p: &Position| [p.royal_square(Color::White), p.royal_square(Color::Black)];
    if expected == actual
        && royal(expected) == royal(actual)
        && expected.ply_count() == actual.ply_count()
    {
        return Ok(());
    }
    let mut diffs = Vec::new();
    let (ef, af) = (expected.fen(), actual.fen());
    if ef != af {
        diffs.push(format!("FEN `{ef}` became `{af}`"));
    }
    if expected.hash() != actual.hash() {
        diffs.push(format!(
            "hash {:016x} became {:016x}",
            expected.hash(),
            actual.hash()
        ));
    }
    if royal(expected) != royal(actual) {
        diffs.push(format!(
            "royal squares {:?} became {:?}",
            royal(expected),
            royal(actual)
        ));
    }
    if expected.ply_count() != actual.ply_count() {
        diffs.push(format!(
            "{} moves made became {}",
            expected.ply_count(),
            actual.ply_count()
        ));
    }
    if diffs.is_empty() {
        diffs.push("the positions differ".into());
    }
    Err(diffs.join("; "))
}

/// (2) Making and unmaking each legal move restores the exact position.
pub fn check_make_unmake(pos: &mut Position) -> Result<(), String> {
    let moves = legal_list(pos);
    check_make_unmake_moves(pos, &moves)
}

/// Makes and unmakes each of `moves` and compares with the position before ([`same_position`]).
/// State that FEN does not show is checked too: afterwards the legal moves, and the positions
/// they lead to, must be those of before.
pub fn check_make_unmake_moves(pos: &mut Position, moves: &[Move]) -> Result<(), String> {
    let rules = pos.rules().clone();
    let before = pos.clone();
    let legal_before = legal_list(pos);
    let children_before = children(pos, &legal_before);
    for &mv in moves {
        pos.make(mv);
        pos.unmake();
        same_position(&before, pos)
            .map_err(|e| format!("make and unmake of {}: {e}", show(&rules, mv)))?;
    }
    let legal_after = legal_list(pos);
    if let Some(d) = set_difference(&rules, &legal_before, &legal_after) {
        return Err(format!(
            "after making and unmaking every move the legal moves changed: {d}"
        ));
    }
    if children(pos, &legal_before) == children_before {
        return Ok(());
    }
    // Find the move whose make and unmake left hidden state behind.
    for &mv in moves {
        let mut p = before.clone();
        p.make(mv);
        p.unmake();
        for (i, &next) in legal_before.iter().enumerate() {
            p.make(next);
            let (hash, fen) = (p.hash(), p.fen());
            p.unmake();
            if hash != children_before[i] {
                let mut q = before.clone();
                q.make(next);
                return Err(format!(
                    "after make and unmake of {}, {} leads to `{fen}` instead of `{}`",
                    show(&rules, mv),
                    show(&rules, next),
                    q.fen()
                ));
            }
        }
    }
    Err("after making and unmaking every move, the legal moves lead to other positions".into())
}

/// The hashes of the positions `moves` lead to.
fn children(pos: &mut Position, moves: &[Move]) -> Vec<u64> {
    moves
        .iter()
        .map(|&mv| {
            pos.make(mv);
            let h = pos.hash();
            pos.unmake();
            h
        })
        .collect()
}

/// (3) The hash and the structure key equal theirs from scratch here and after each legal
/// move, and unmake restores the structure key.
pub fn check_incremental_hash(pos: &mut Position) -> Result<(), String> {
    let rules = pos.rules().clone();
    let keys = |p: &Position| {
        [
            (p.hash(), p.hash_from_scratch()),
            (p.structure_hash(), p.structure_hash_from_scratch()),
        ]
    };
    let names = ["hash", "structure key"];
    for (name, (kept, fresh)) in names.iter().zip(keys(pos)) {
        if kept != fresh {
            return Err(format!(
                "incremental {name} {kept:016x}, from scratch {fresh:016x}"
            ));
        }
    }
    let structure = pos.structure_hash();
    for mv in legal_list(pos) {
        pos.make(mv);
        let both = keys(pos);
        let after = if both.iter().any(|(k, f)| k != f) {
            pos.fen()
        } else {
            String::new()
        };
        pos.unmake();
        for (name, (kept, fresh)) in names.iter().zip(both) {
            if kept != fresh {
                return Err(format!(
                    "after {}: incremental {name} {kept:016x}, from scratch {fresh:016x} (position after the move: {after})",
                    show(&rules, mv)
                ));
            }
        }
        if pos.structure_hash() != structure {
            return Err(format!(
                "unmake of {} left the structure key {:016x}, was {structure:016x}",
                show(&rules, mv),
                pos.structure_hash()
            ));
        }
    }
    Ok(())
}

/// (4) No legal move leaves a royal piece of the mover attacked.
pub fn check_legal_moves_safe(pos: &mut Position) -> Result<(), String> {
    let moves = legal_list(pos);
    check_moves_safe(pos, &moves)
}

/// Checks that none of `moves` (claimed legal) leaves a royal piece of the side to move
/// attacked, by the position's own test and by a scan of the board, but for a move a rule
/// exempts (it ends the game at once: [`Position::exempt_from_check`]).
pub fn check_moves_safe(pos: &mut Position, moves: &[Move]) -> Result<(), String> {
    let rules = pos.rules().clone();
    let me = pos.side();
    for &mv in moves {
        pos.make(mv);
        let tracked = pos.royal_in_check(me);
        let (by_scan, scanned) = scanned_check(pos, me);
        let exempt = (tracked || by_scan) && pos.exempt_from_check(mv) && ended_in_check(pos);
        pos.unmake();
        if exempt {
            continue;
        }
        if tracked || by_scan {
            let how = match (tracked, !by_scan) {
                (true, false) => format!("on {}", squares(&rules, &scanned)),
                (true, true) => {
                    "(royal_in_check says so; a scan of the board finds no check)".into()
                }
                _ => format!(
                    "on {} (found by a board scan; royal_in_check says no)",
                    squares(&rules, &scanned)
                ),
            };
            return Err(format!(
                "legal move {} leaves {}'s royal piece attacked {how}",
                show(&rules, mv),
                me.name()
            ));
        }
    }
    Ok(())
}

/// (5) Every pseudo-legal move left out of the legal moves is illegal for a reason.
pub fn check_rejections(pos: &mut Position) -> Result<(), String> {
    let mut list = MoveList::new();
    pos.pseudo_legal_moves(&mut list);
    let pseudo = list.as_slice().to_vec();
    let legal = legal_list(pos);
    check_rejections_with(pos, &pseudo, &legal)
}

/// Checks `legal` against `pseudo`: every legal move is pseudo-legal, and every pseudo-legal
/// move not in `legal` is vetoed by its rule or leaves a royal piece of the mover attacked
/// (and [`Position::is_legal`] rejects it).
pub fn check_rejections_with(
    pos: &mut Position,
    pseudo: &[Move],
    legal: &[Move],
) -> Result<(), String> {
    let rules = pos.rules().clone();
    let pseudo_set: HashSet<Move> = pseudo.iter().copied().collect();
    let legal_set: HashSet<Move> = legal.iter().copied().collect();
    if let Some(&mv) = legal.iter().find(|m| !pseudo_set.contains(m)) {
        return Err(format!(
            "legal move {} is not among the pseudo-legal moves",
            show(&rules, mv)
        ));
    }
    let me = pos.side();
    for &mv in pseudo.iter().filter(|m| !legal_set.contains(m)) {
        if pos.is_legal_pseudo(mv) {
            return Err(format!(
                "pseudo-legal move {} is left out of the legal moves, yet is_legal accepts it",
                show(&rules, mv)
            ));
        }
        if pos.forbidding_rule(mv).is_some() {
            continue;
        }
        pos.make(mv);
        let attacked = pos.royal_in_check(me) || scanned_check(pos, me).0;
        pos.unmake();
        if !attacked {
            return Err(format!(
                "pseudo-legal move {} is rejected, yet it leaves {}'s royal pieces unattacked and no rule vetoes it",
                show(&rules, mv),
                me.name()
            ));
        }
    }
    Ok(())
}

/// (6) The legal moves hold no duplicates.
pub fn check_no_duplicates(pos: &mut Position) -> Result<(), String> {
    let moves = legal_list(pos);
    check_unique(pos.rules(), &moves)
}

/// Checks that no move of `moves` is listed twice and that no two of them are written alike
/// in coordinate notation.
pub fn check_unique(rules: &Ruleset, moves: &[Move]) -> Result<(), String> {
    let mut seen: HashMap<Move, usize> = HashMap::new();
    for &mv in moves {
        *seen.entry(mv).or_default() += 1;
    }
    if let Some(&mv) = moves.iter().find(|m| seen[m] > 1) {
        return Err(format!(
            "move {} is listed {} times",
            show(rules, mv),
            seen[&mv]
        ));
    }
    let mut written: HashMap<String, Move> = HashMap::new();
    for &mv in moves {
        if let Some(&other) = written.get(&coord(rules, mv)) {
            return Err(format!(
                "moves {} and {} are both written {} ({other:?} and {mv:?})",
                show(rules, other),
                show(rules, mv),
                coord(rules, mv)
            ));
        }
        written.insert(coord(rules, mv), mv);
    }
    Ok(())
}

/// (7) The position is legal: the side that just moved is not in check, and the FEN loads.
pub fn check_legal_state(pos: &Position) -> Result<(), String> {
    let rules = pos.rules();
    let mover = pos.side().flip();
    let (by_scan, scanned) = scanned_check(pos, mover);
    if pos.royal_in_check(mover) || by_scan {
        return Err(format!(
            "{} is not to move, yet its royal piece is attacked{}",
            mover.name(),
            if scanned.is_empty() {
                String::new()
            } else {
                format!(" on {}", squares(rules, &scanned))
            }
        ));
    }
    let fen = pos.fen();
    Position::from_fen(rules, &fen)
        .map_err(|e| format!("the position's FEN `{fen}` does not load: {e}"))?;
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Games and failures

/// Where and why a check failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The invariant that failed (None for a check given as a closure).
    pub invariant: Option<Invariant>,
    /// What went wrong.
    pub message: String,
    /// The FEN the game started from.
    pub start: String,
    /// Whether that is the variant's start position.
    pub from_start_position: bool,
    /// The moves from `start` to the position where the check failed.
    pub moves: Vec<Move>,
    /// The same moves in coordinate notation.
    pub line: Vec<String>,
    /// The position where the check failed (before the failing move).
    pub fen: String,
}

impl Failure {
    fn new(start: &Position, moves: &[Move], fen: String, message: String) -> Box<Failure> {
        let rules = start.rules();
        let start_fen = start.fen();
        Box::new(Failure {
            invariant: None,
            message,
            from_start_position: start_fen == Position::start(rules).fen(),
            start: start_fen,
            moves: moves.to_vec(),
            line: moves.iter().map(|&m| coord(rules, m)).collect(),
            fen,
        })
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(i) = self.invariant {
            write!(f, "{i}: ")?;
        }
        write!(f, "{}", self.message)?;
        if self.fen.is_empty() {
            return Ok(());
        }
        writeln!(f)?;
        let from = if self.from_start_position {
            "the start position".to_string()
        } else {
            self.start.clone()
        };
        if self.line.is_empty() {
            writeln!(f, "  game: none, in {from}")?;
        } else {
            writeln!(
                f,
                "  game ({} plies from {from}): {}",
                self.line.len(),
                self.line.join(" ")
            )?;
        }
        write!(f, "  FEN before the failing move: {}", self.fen)
    }
}

/// Plays `moves` from the start position and runs `check` in every position, the start
/// included. Fails at the first failing check, or at a move of `moves` that is not legal.
pub fn check_game(
    rules: &Arc<Ruleset>,
    moves: &[Move],
    check: impl FnMut(&mut Position) -> Result<(), String>,
) -> Result<(), Box<Failure>> {
    check_game_from(&Position::start(rules), moves, check)
}

/// As [`check_game`], from the position `start`.
pub fn check_game_from(
    start: &Position,
    moves: &[Move],
    mut check: impl FnMut(&mut Position) -> Result<(), String>,
) -> Result<(), Box<Failure>> {
    let rules = start.rules().clone();
    let mut pos = start.snapshot();
    let mut list = MoveList::new();
    for ply in 0..=moves.len() {
        let fen = pos.fen();
        if let Err(m) = check(&mut pos) {
            return Err(Failure::new(start, &moves[..ply], fen, m));
        }
        let Some(&mv) = moves.get(ply) else { break };
        pos.legal_moves(&mut list);
        if !list.as_slice().contains(&mv) {
            let m = format!(
                "move {} (ply {}) is not legal here",
                show(&rules, mv),
                ply + 1
            );
            return Err(Failure::new(start, &moves[..ply], fen, m));
        }
        pos.make(mv);
    }
    Ok(())
}

/// What a game of choice indices has done so far, kept outside for panics.
#[derive(Default)]
struct Trail {
    moves: Vec<Move>,
    fen: String,
}

fn walk(
    start: &Position,
    choices: &[u32],
    check: &dyn Fn(&mut Position) -> Result<(), String>,
    trail: &mut Trail,
) -> Result<(), String> {
    let mut pos = start.snapshot();
    let mut list = MoveList::new();
    let mut next = choices.iter();
    loop {
        trail.fen = pos.fen();
        check(&mut pos)?;
        let Some(&c) = next.next() else { return Ok(()) };
        if pos.final_ending().is_some() {
            return Ok(());
        }
        pos.legal_moves(&mut list);
        if list.is_empty() {
            return Ok(());
        }
        let mv = list.as_slice()[c as usize % list.len()];
        trail.moves.push(mv);
        pos.make(mv);
        if ended_in_check(&pos) {
            return Ok(());
        }
    }
}

fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(no message)".into()
    }
}

/// Plays the game of `choices` from the start position (see [`play_choices`]) and runs `check`
/// in every position. A panic of the engine or of the check is reported as a failure where it
/// happened.
pub fn check_choices(
    rules: &Arc<Ruleset>,
    choices: &[u32],
    check: &dyn Fn(&mut Position) -> Result<(), String>,
) -> Result<(), Box<Failure>> {
    check_choices_from(&Position::start(rules), choices, check)
}

/// As [`check_choices`], from the position `start`.
pub fn check_choices_from(
    start: &Position,
    choices: &[u32],
    check: &dyn Fn(&mut Position) -> Result<(), String>,
) -> Result<(), Box<Failure>> {
    let mut trail = Trail::default();
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| walk(start, choices, check, &mut trail)));
    let message = match outcome {
        Ok(Ok(())) => return Ok(()),
        Ok(Err(m)) => m,
        Err(p) => format!("panic: {}", panic_text(&*p)),
    };
    Err(Failure::new(start, &trail.moves, trail.fen, message))
}

/// How far a run has come, for progress indicators.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// The invariant being checked (None for a check given as a closure).
    pub invariant: Option<Invariant>,
    /// Its position in [`Invariant::ALL`] (0 for a closure).
    pub index: usize,
    /// Games played so far for this invariant, shrinking steps included.
    pub games: u32,
    /// Games to play.
    pub cases: u32,
    /// Whether a failure was found and is being shrunk.
    pub shrinking: bool,
    /// Whether the games start from random positions rather than the start position.
    pub from_random_positions: bool,
}

/// Runs `check` in every position of `cases` random games of up to `max_plies` moves from the
/// start position, seeded with `seed`. Games are between `max_plies / 2` and `max_plies` moves
/// long unless they end (a failure is reported where it happens, so shrinking needs no shorter
/// games). The first failure is shrunk and returned. `progress` is called before each game.
pub fn check_property(
    rules: &Arc<Ruleset>,
    cases: u32,
    max_plies: usize,
    seed: u64,
    check: &dyn Fn(&mut Position) -> Result<(), String>,
    progress: &mut dyn FnMut(Progress),
) -> Result<(), Box<Failure>> {
    let start = Position::start(rules);
    let games = (Just(start), vec(any::<u32>(), max_plies / 2..=max_plies));
    run_games(games, cases, seed, check, progress)
}

/// As [`check_property`], but each game starts from a random position of at most
/// `max_pieces` non-royal pieces ([`random_position_strategy`]) and is up to `max_plies` long.
/// Such positions reach what random games from the start rarely do: promotions on big boards,
/// bare kings, long open lines.
pub fn check_property_from_random_positions(
    rules: &Arc<Ruleset>,
    cases: u32,
    max_pieces: usize,
    max_plies: usize,
    seed: u64,
    check: &dyn Fn(&mut Position) -> Result<(), String>,
    progress: &mut dyn FnMut(Progress),
) -> Result<(), Box<Failure>> {
    let games = (
        random_position_strategy(rules.clone(), max_pieces),
        vec(any::<u32>(), 0..=max_plies),
    );
    run_games(games, cases, seed, check, progress)
}

fn run_games(
    games: impl Strategy<Value = (Position, Vec<u32>)>,
    cases: u32,
    seed: u64,
    check: &dyn Fn(&mut Position) -> Result<(), String>,
    progress: &mut dyn FnMut(Progress),
) -> Result<(), Box<Failure>> {
    let played = Cell::new(0u32);
    let shrinking = Cell::new(false);
    let progress = RefCell::new(progress);
    let mut runner = seeded_runner(cases, seed);
    let result = runner.run(&games, |(start, choices)| {
        played.set(played.get() + 1);
        (progress.borrow_mut())(Progress {
            invariant: None,
            index: 0,
            games: played.get(),
            cases,
            shrinking: shrinking.get(),
            from_random_positions: false,
        });
        check_choices_from(&start, &choices, check).map_err(|f| {
            shrinking.set(true);
            TestCaseError::fail(f.to_string())
        })
    });
    match result {
        Ok(()) => Ok(()),
        Err(TestError::Fail(reason, (start, choices))) => {
            match check_choices_from(&start, &choices, check) {
                Err(f) => Err(f),
                // The shrunk game no longer fails when played again: report the runner's words.
                Ok(()) => Err(Failure::new(
                    &start,
                    &[],
                    start.fen(),
                    format!("failed once, passed when played again: {reason}"),
                )),
            }
        }
        Err(TestError::Abort(reason)) => Err(Box::new(Failure {
            invariant: None,
            message: format!("the test runner gave up: {reason}"),
            start: String::new(),
            from_start_position: false,
            moves: Vec::new(),
            line: Vec::new(),
            fen: String::new(),
        })),
    }
}

/// Checks one invariant over `cases` random games from the start position (see
/// [`check_property`]).
pub fn check_invariant(
    rules: &Arc<Ruleset>,
    invariant: Invariant,
    cases: u32,
    max_plies: usize,
    seed: u64,
) -> Result<(), Box<Failure>> {
    check_property(
        rules,
        cases,
        max_plies,
        seed,
        &|p| invariant.check(p),
        &mut |_| {},
    )
    .map_err(|mut f| {
        f.invariant = Some(invariant);
        f
    })
}

/// How much [`check_variant_with`] plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Games from the start position, per invariant.
    pub cases: u32,
    /// Longest of those games, in plies.
    pub max_plies: usize,
    /// Games from random positions, per invariant (0: none).
    pub random_positions: u32,
    /// Most non-royal pieces in a random position.
    pub max_pieces: usize,
    /// Longest game from a random position, in plies.
    pub random_plies: usize,
    /// Seed of every random choice.
    pub seed: u64,
}

impl Settings {
    /// `cases` games of up to `max_plies` plies from the start position, as many from random
    /// positions of up to 16 non-royal pieces (games of up to 16 plies there).
    pub fn new(cases: u32, max_plies: usize, seed: u64) -> Settings {
        Settings {
            cases,
            max_plies,
            random_positions: cases,
            max_pieces: 16,
            random_plies: max_plies.min(16),
            seed,
        }
    }
}

/// The outcome of one invariant in a [`Report`].
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The invariant checked.
    pub invariant: Invariant,
    /// `Ok` when it held, else the first failure.
    pub result: Result<(), Box<Failure>>,
}

/// What [`check_variant`] found.
#[derive(Clone, Debug)]
pub struct Report {
    /// The variant's display name and command-line name.
    pub title: String,
    /// See `title`.
    pub id: String,
    /// The setup checked (None: the default).
    pub setup: Option<String>,
    /// The numbers of cases and plies used.
    pub settings: Settings,
    /// One outcome per invariant, in the order of [`Invariant::ALL`].
    pub outcomes: Vec<Outcome>,
}

impl Report {
    /// Number of invariants that held.
    pub fn passed(&self) -> usize {
        self.outcomes.iter().filter(|o| o.result.is_ok()).count()
    }

    /// Number of invariants that failed.
    pub fn failed(&self) -> usize {
        self.outcomes.len() - self.passed()
    }

    /// The first failure, in the order of [`Invariant::ALL`].
    pub fn first_failure(&self) -> Option<&Failure> {
        self.outcomes
            .iter()
            .find_map(|o| o.result.as_ref().err().map(|f| &**f))
    }
}

/// Checks every [`Invariant`] in every position of `cases` random games of up to `max_plies`
/// moves from the start position, then of `cases` short games from random positions
/// ([`Settings::new`]). Every invariant sees the same games (the same `seed`); the first failure
/// of each is shrunk.
pub fn check_variant(rules: &Arc<Ruleset>, cases: u32, max_plies: usize, seed: u64) -> Report {
    check_variant_with(rules, &Settings::new(cases, max_plies, seed), &mut |_| {})
}

/// As [`check_variant`], with every setting, calling `progress` before each game.
pub fn check_variant_with(
    rules: &Arc<Ruleset>,
    settings: &Settings,
    progress: &mut dyn FnMut(Progress),
) -> Report {
    let s = settings;
    let mut outcomes = Vec::new();
    for (index, &invariant) in Invariant::ALL.iter().enumerate() {
        let check = |p: &mut Position| invariant.check(p);
        let mut result = check_property(rules, s.cases, s.max_plies, s.seed, &check, &mut |p| {
            progress(Progress {
                invariant: Some(invariant),
                index,
                ..p
            })
        });
        if result.is_ok() && s.random_positions > 0 {
            let mut tell = |p: Progress| {
                progress(Progress {
                    invariant: Some(invariant),
                    index,
                    from_random_positions: true,
                    ..p
                })
            };
            result = check_property_from_random_positions(
                rules,
                s.random_positions,
                s.max_pieces,
                s.random_plies,
                s.seed,
                &check,
                &mut tell,
            );
        }
        let result = result.map_err(|mut f| {
            f.invariant = Some(invariant);
            f
        });
        outcomes.push(Outcome { invariant, result });
    }
    Report {
        title: rules.variant.title.clone(),
        id: rules.variant.id.clone(),
        setup: rules.setup.clone(),
        settings: *s,
        outcomes,
    }
}

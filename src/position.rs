//! A position: the board, the side to move and the state fields, with FEN, make and unmake.
//!
//! FEN (see the README): placement with ranks from the top and empty runs of one or two digits,
//! side (`w`/`b`), rights (letters owned by the variant's hooks: `KQkq` for castling, `K`/`k`
//! for the king leap; `-` for none), en-passant square (the square passed over, `-`), halfmove
//! clock, fullmove number. Missing trailing fields default to `- - 0 1`.

use std::fmt;
use std::sync::Arc;

use crate::geometry::{Color, Square};
use crate::moves::{Code, EMPTY, Move, MoveKind, MoveList, code, color_of, kind_of};
use crate::ruleset::Ruleset;

/// What make needs to restore a position.
#[derive(Clone, Copy, Debug)]
struct Undo {
    mv: Move,
    moved: Code,
    captured: Code,
    cap_sq: Square,
    rights: u16,
    ep: Option<Square>,
    ep_victim: Square,
    halfmove: u32,
    hash: u64,
    royal: [Square; 2],
    /// A null move (the side to move passed), for the search.
    null: bool,
}

/// Why a FEN was refused: every problem found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid FEN: {}", problems.join("; "))]
pub struct FenError {
    pub problems: Vec<String>,
}

/// A game position of some variant.
#[derive(Clone)]
pub struct Position {
    rules: Arc<Ruleset>,
    board: [Code; 256],
    side: Color,
    rights: u16,
    ep: Option<Square>,
    ep_victim: Square,
    halfmove: u32,
    fullmove: u32,
    hash: u64,
    /// Square of each side's royal piece (valid when `royal_count` is 1).
    royal: [Square; 2],
    royal_count: [u8; 2],
    /// The squares each side occupies.
    occupied: [crate::moves::SquareSet; 2],
    stack: Vec<Undo>,
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

impl PartialEq for Position {
    fn eq(&self, o: &Self) -> bool {
        self.board[..] == o.board[..]
            && self.side == o.side
            && self.rights == o.rights
            && self.ep == o.ep
            && self.halfmove == o.halfmove
            && self.fullmove == o.fullmove
            && self.hash == o.hash
    }
}

impl Position {
    /// The start position of a ruleset.
    pub fn start(rules: &Arc<Ruleset>) -> Position {
        let mut p = Position {
            rules: rules.clone(),
            board: [EMPTY; 256],
            side: Color::White,
            rights: 0,
            ep: None,
            ep_victim: 0,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
            royal: [0; 2],
            royal_count: [0; 2],
            occupied: Default::default(),
            stack: Vec::with_capacity(256),
        };
        p.board[..rules.start.len()].copy_from_slice(&rules.start);
        let mut r = 0;
        for h in &rules.hooks {
            r |= h.start_rights(rules);
        }
        p.rights = r;
        p.refresh();
        p
    }

    /// Reads a FEN. Every problem is reported at once.
    pub fn from_fen(rules: &Arc<Ruleset>, fen: &str) -> Result<Position, FenError> {
        let g = rules.geometry;
        let mut problems = Vec::new();
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError {
                problems: vec!["empty FEN".into()],
            });
        }
        let mut p = Position::start(rules);
        p.board = [EMPTY; 256];
        p.rights = 0;
        match crate::variant::parse_placement_codes(rules, fields[0]) {
            Ok(b) => p.board[..b.len()].copy_from_slice(&b),
            Err(es) => problems.extend(es),
        }
        p.side = match fields.get(1).copied() {
            None | Some("w") => Color::White,
            Some("b") => Color::Black,
            Some(s) => {
                problems.push(format!("side to move must be `w` or `b`, found `{s}`"));
                Color::White
            }
        };
        if let Some(&r) = fields.get(2).filter(|&&r| r != "-") {
            for c in r.chars() {
                let bits = rules.hooks.iter().find_map(|h| h.parse_right(rules, c));
                match bits {
                    Some(b) => p.rights |= b,
                    None => problems.push(format!(
                        "rights: `{c}` means nothing in {}",
                        rules.variant.title
                    )),
                }
            }
        }
        if let Some(&e) = fields.get(3).filter(|&&e| e != "-") {
            match g.parse_square(e) {
                Some(sq) => {
                    // The piece that passed `sq` stands one rank further, seen from its side.
                    let dir: i32 = if p.side == Color::White { -1 } else { 1 };
                    match g.offset(sq, 0, dir) {
                        Some(v) if p.board[v as usize] != EMPTY && color_of(p.board[v as usize]) != p.side && p.board[sq as usize] == EMPTY => {
                            p.ep = Some(sq);
                            p.ep_victim = v;
                        }
                        _ => problems.push(format!("en-passant square {e}: no piece of the side that just moved stands beyond it, or it is occupied")),
                    }
                }
                None => problems.push(format!(
                    "en-passant square `{e}` is not a square of this board"
                )),
            }
        }
        if let Some(&h) = fields.get(4) {
            match h.parse::<u32>() {
                Ok(n) => p.halfmove = n,
                Err(_) => problems.push(format!("halfmove clock `{h}` is not a number")),
            }
        }
        if let Some(&f) = fields.get(5) {
            match f.parse::<u32>() {
                Ok(n) if n >= 1 => p.fullmove = n,
                _ => problems.push(format!("fullmove number `{f}` must be a number from 1")),
            }
        }
        if fields.len() > 6 {
            problems.push(format!("{} fields, at most 6 expected", fields.len()));
        }
        if problems.is_empty() {
            p.refresh();
            let royals = rules.royal.iter().any(|&r| r);
            for c in [Color::White, Color::Black] {
                if royals && p.royal_count[c.index()] == 0 {
                    problems.push(format!("{} has no royal piece", c.name()));
                }
            }
            if problems.is_empty() && p.royal_in_check(p.side.flip()) {
                problems.push(format!(
                    "the side not to move ({}) is in check",
                    p.side.flip().name()
                ));
            }
        }
        if problems.is_empty() {
            Ok(p)
        } else {
            Err(FenError { problems })
        }
    }

    /// Recomputes the hash and royal squares from scratch.
    fn refresh(&mut self) {
        let size = self.rules.geometry.size();
        self.royal_count = [0; 2];
        self.occupied = Default::default();
        let mut h = 0;
        for sq in 0..size {
            let c = self.board[sq];
            if c != EMPTY {
                self.occupied[color_of(c).index()].insert(sq as Square);
                h ^= self.rules.z_piece[c as usize * 256 + sq];
                if self.rules.is_royal(c) {
                    let i = color_of(c).index();
                    self.royal[i] = sq as Square;
                    self.royal_count[i] += 1;
                }
            }
        }
        if self.side == Color::Black {
            h ^= self.rules.z_side;
        }
        for b in 0..16 {
            if self.rights >> b & 1 != 0 {
                h ^= self.rules.z_rights[b];
            }
        }
        if let Some(e) = self.ep {
            h ^= self.rules.z_ep[e as usize];
        }
        self.hash = h;
    }

    /// The hash computed from scratch (for tests: it must equal [`Position::hash`]).
    pub fn hash_from_scratch(&self) -> u64 {
        let mut c = self.clone();
        c.refresh();
        c.hash
    }

    /// Writes the position as FEN.
    pub fn fen(&self) -> String {
        let rs = &self.rules;
        let g = rs.geometry;
        let mut s = String::new();
        for r in (0..g.ranks).rev() {
            let mut empty = 0;
            for f in 0..g.files {
                let c = self.board[g.square(f, r) as usize];
                if c == EMPTY {
                    empty += 1;
                } else {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(rs.letter(c));
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if r > 0 {
                s.push('/');
            }
        }
        s.push_str(if self.side == Color::White {
            " w "
        } else {
            " b "
        });
        let mut rights = String::new();
        for h in &rs.hooks {
            h.write_rights(rs, self.rights, &mut rights);
        }
        s.push_str(if rights.is_empty() { "-" } else { &rights });
        s.push(' ');
        match self.ep {
            Some(e) => s.push_str(&g.name(e).to_string()),
            None => s.push('-'),
        }
        s.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        s
    }

    pub fn rules(&self) -> &Arc<Ruleset> {
        &self.rules
    }
    #[inline]
    pub fn side(&self) -> Color {
        self.side
    }
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Code {
        self.board[sq as usize]
    }
    #[inline]
    pub fn board(&self) -> &[Code; 256] {
        &self.board
    }
    /// The squares occupied by `color`'s pieces.
    #[inline]
    pub fn occupied(&self, color: Color) -> &crate::moves::SquareSet {
        &self.occupied[color.index()]
    }
    #[inline]
    pub fn rights(&self) -> u16 {
        self.rights
    }
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep
    }
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }
    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }
    /// Number of moves made since this position was created (undo depth).
    pub fn ply_count(&self) -> usize {
        self.stack.len()
    }
    /// Hashes of the positions before each move made, oldest first (for repetition).
    pub fn history_hashes(&self) -> impl DoubleEndedIterator<Item = u64> + '_ {
        self.stack.iter().map(|u| u.hash)
    }
    /// The moves made so far from the position this one was created from.
    pub fn moves_made(&self) -> impl Iterator<Item = Move> + '_ {
        self.stack.iter().map(|u| u.mv)
    }

    /// The square of `color`'s royal piece, when it has exactly one.
    pub fn royal_square(&self, color: Color) -> Option<Square> {
        if self.royal_count[color.index()] == 1 {
            Some(self.royal[color.index()])
        } else {
            None
        }
    }

    /// Whether `color`'s royal piece (any of them) is attacked.
    pub fn royal_in_check(&self, color: Color) -> bool {
        match self.royal_count[color.index()] {
            0 => false,
            1 => self.attacked(self.royal[color.index()], color.flip()),
            _ => {
                let size = self.rules.geometry.size();
                (0..size).any(|s| {
                    let c = self.board[s];
                    c != EMPTY
                        && color_of(c) == color
                        && self.rules.is_royal(c)
                        && self.attacked(s as Square, color.flip())
                })
            }
        }
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.royal_in_check(self.side)
    }

    /// Whether `sq` is attacked by a piece of `by`.
    #[inline]
    pub fn attacked(&self, sq: Square, by: Color) -> bool {
        crate::movegen::attacked_on(&self.rules.tables, &self.board, sq, by)
    }

    /// Plays a move (pseudo-legal moves are accepted; see [`Position::is_legal`]).
    pub fn make(&mut self, mv: Move) {
        let moved = self.board[mv.from as usize];
        let mut cap_sq = mv.to;
        let mut captured = self.board[mv.to as usize];
        if mv.kind == MoveKind::EnPassant {
            cap_sq = self.ep_victim;
            captured = self.board[cap_sq as usize];
        }
        self.push_undo(mv, moved, captured, cap_sq, false);
        let rs = &*self.rules;
        let mut h = self.hash;
        let zp = |c: Code, s: Square| rs.z_piece[c as usize * 256 + s as usize];
        if let Some(e) = self.ep {
            h ^= rs.z_ep[e as usize];
        }
        let (me, them) = (self.side.index(), self.side.flip().index());
        if captured != EMPTY {
            h ^= zp(captured, cap_sq);
            self.board[cap_sq as usize] = EMPTY;
            self.occupied[them].remove(cap_sq);
        }
        h ^= zp(moved, mv.from);
        self.board[mv.from as usize] = EMPTY;
        self.occupied[me].remove(mv.from);
        let placed = match mv.promotion() {
            Some(k) => code(k, self.side),
            None => moved,
        };
        if mv.kind == MoveKind::Castle {
            let c = &rs.castlings[mv.aux as usize];
            let rook = self.board[c.rook_from as usize];
            h ^= zp(rook, c.rook_from);
            self.board[c.rook_from as usize] = EMPTY;
            self.board[c.rook_to as usize] = rook;
            self.occupied[me].remove(c.rook_from);
            self.occupied[me].insert(c.rook_to);
            h ^= zp(rook, c.rook_to);
        }
        self.board[mv.to as usize] = placed;
        self.occupied[me].insert(mv.to);
        h ^= zp(placed, mv.to);
        if rs.is_royal(placed) {
            self.royal[self.side.index()] = mv.to;
        }
        let clears = rs.square_clears[mv.from as usize]
            | rs.square_clears[cap_sq as usize]
            | rs.code_clears[moved as usize];
        let lost = self.rights & clears;
        if lost != 0 {
            for b in 0..16 {
                if lost >> b & 1 != 0 {
                    h ^= rs.z_rights[b];
                }
            }
            self.rights &= !clears;
        }
        if mv.kind == MoveKind::Double {
            self.ep = Some(mv.aux);
            self.ep_victim = mv.to;
            h ^= rs.z_ep[mv.aux as usize];
        } else {
            self.ep = None;
        }
        if captured != EMPTY || mv.promo != 0 || rs.irreversible[kind_of(moved)] {
            self.halfmove = 0;
        } else {
            self.halfmove += 1;
        }
        if self.side == Color::Black {
            self.fullmove += 1;
        }
        self.side = self.side.flip();
        h ^= rs.z_side;
        self.hash = h;
    }

    /// Saves what unmake needs.
    #[inline]
    fn push_undo(&mut self, mv: Move, moved: Code, captured: Code, cap_sq: Square, null: bool) {
        self.stack.push(Undo {
            mv,
            moved,
            captured,
            cap_sq,
            rights: self.rights,
            ep: self.ep,
            ep_victim: self.ep_victim,
            halfmove: self.halfmove,
            hash: self.hash,
            royal: self.royal,
            null,
        });
    }

    /// Passes the move to the other side (a null move, for the search's null-move pruning).
    /// The en-passant square is cleared and the move-count clock restarts, so that no
    /// repetition is counted across it. Take it back with [`Position::unmake`].
    pub fn make_null(&mut self) {
        self.push_undo(Move::default(), EMPTY, EMPTY, 0, true);
        if let Some(e) = self.ep.take() {
            self.hash ^= self.rules.z_ep[e as usize];
        }
        self.halfmove = 0;
        if self.side == Color::Black {
            self.fullmove += 1;
        }
        self.side = self.side.flip();
        self.hash ^= self.rules.z_side;
    }

    /// Whether the last move made was a null move.
    pub fn last_was_null(&self) -> bool {
        self.stack.last().is_some_and(|u| u.null)
    }

    /// Takes back the last move made. Does nothing when no move was made.
    pub fn unmake(&mut self) {
        let Some(u) = self.stack.pop() else { return };
        if u.null {
            self.side = self.side.flip();
            if self.side == Color::Black {
                self.fullmove -= 1;
            }
            self.ep = u.ep;
            self.ep_victim = u.ep_victim;
            self.halfmove = u.halfmove;
            self.hash = u.hash;
            return;
        }
        let rs = &*self.rules;
        let mv = u.mv;
        self.side = self.side.flip();
        if self.side == Color::Black {
            self.fullmove -= 1;
        }
        let (me, them) = (self.side.index(), self.side.flip().index());
        self.board[mv.to as usize] = EMPTY;
        self.occupied[me].remove(mv.to);
        if mv.kind == MoveKind::Castle {
            let c = &rs.castlings[mv.aux as usize];
            let rook = self.board[c.rook_to as usize];
            self.board[c.rook_to as usize] = EMPTY;
            self.board[c.rook_from as usize] = rook;
            self.occupied[me].remove(c.rook_to);
            self.occupied[me].insert(c.rook_from);
        }
        self.board[mv.from as usize] = u.moved;
        self.occupied[me].insert(mv.from);
        if u.captured != EMPTY {
            self.board[u.cap_sq as usize] = u.captured;
            self.occupied[them].insert(u.cap_sq);
        }
        self.rights = u.rights;
        self.ep = u.ep;
        self.ep_victim = u.ep_victim;
        self.halfmove = u.halfmove;
        self.hash = u.hash;
        self.royal = u.royal;
    }

    /// Whether a pseudo-legal move is legal: its hook allows it and it leaves no royal piece
    /// of the mover attacked.
    pub fn is_legal(&mut self, mv: Move) -> bool {
        let checked = self.in_check();
        self.is_legal_with(mv, checked)
    }

    /// [`Position::is_legal`] when it is known whether the side to move is in check.
    #[inline]
    fn is_legal_with(&mut self, mv: Move, checked: bool) -> bool {
        let me = self.side;
        if matches!(mv.kind, MoveKind::Hook | MoveKind::Castle) {
            let rules = self.rules.clone();
            let hook = match mv.kind {
                MoveKind::Castle => rules.castlings[mv.aux as usize].hook,
                _ => mv.aux,
            };
            if !rules.hooks[hook as usize].allows(self, mv) {
                return false;
            }
            if mv.kind == MoveKind::Castle || self.royal_count[me.index()] != 1 {
                self.make(mv);
                let bad = self.royal_in_check(me);
                self.unmake();
                return !bad;
            }
        }
        match self.royal_count[me.index()] {
            0 => return true,
            1 => {}
            _ => {
                self.make(mv);
                let bad = self.royal_in_check(me);
                self.unmake();
                return !bad;
            }
        }
        let rs = &*self.rules;
        let size = rs.geometry.size();
        let moved = self.board[mv.from as usize];
        let royal_moves = rs.is_royal(moved);
        let king = if royal_moves {
            mv.to
        } else {
            self.royal[me.index()]
        };
        let victim = if mv.kind == MoveKind::EnPassant {
            self.ep_victim
        } else {
            mv.to
        };
        let enemy = me.flip();
        if !checked && !royal_moves {
            // Not in check: the move can expose the royal piece only by emptying or filling a
            // square that some attack probe depends on.
            let at = enemy.index() * size + king as usize;
            let (vac, fill) = (&rs.tables.vacate_sets[at], &rs.tables.fill_sets[at]);
            if !vac.contains(mv.from)
                && !fill.contains(mv.to)
                && (victim == mv.to || !vac.contains(victim))
            {
                return true;
            }
        }
        // Board-only make, test, restore.
        let captured = self.board[victim as usize];
        let at_to = self.board[mv.to as usize];
        self.board[victim as usize] = EMPTY;
        self.board[mv.from as usize] = EMPTY;
        self.board[mv.to as usize] = moved;
        let t = &rs.tables;
        let bad = if checked || royal_moves {
            crate::movegen::attacked_on(t, &self.board, king, enemy)
        } else {
            // Not in check before: only probes the changed squares can switch on matter.
            let vacated = [mv.from, victim];
            let n = if victim == mv.to { 1 } else { 2 };
            crate::movegen::attacked_after(t, &self.board, king, enemy, &vacated[..n], mv.to)
        };
        self.board[mv.to as usize] = at_to;
        self.board[victim as usize] = captured;
        self.board[mv.from as usize] = moved;
        !bad
    }

    /// All legal moves.
    pub fn legal_moves(&mut self, out: &mut MoveList) {
        self.pseudo_legal_moves(out);
        let checked = self.in_check();
        let mut i = 0;
        let mut n = out.len();
        while i < n {
            let mv = out.as_slice()[i];
            if self.is_legal_with(mv, checked) {
                i += 1;
            } else {
                out.as_mut_slice().swap(i, n - 1);
                n -= 1;
            }
        }
        out.truncate(n);
    }

    /// Pseudo-legal moves: the notation's moves and the hooks' moves.
    pub fn pseudo_legal_moves(&self, out: &mut MoveList) {
        out.clear();
        crate::movegen::generate(self, out);
        for &i in &self.rules.generating {
            self.rules.hooks[i as usize].generate(self, i, out);
        }
    }

    /// A copy of this position with no move history (cheap to keep).
    pub fn snapshot(&self) -> Position {
        let mut p = self.clone();
        p.stack = Vec::with_capacity(256);
        p
    }

    /// Sets the raw board (for hooks that test hypothetical boards).
    pub fn board_with(&self, changes: &[(Square, Code)]) -> [Code; 256] {
        let mut b = self.board;
        for &(s, c) in changes {
            b[s as usize] = c;
        }
        b
    }
}

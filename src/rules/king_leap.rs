//! `king-leap`: the royal piece's one-time leap (Metamachy, Terachess II).
//!
//! ```toml
//! [rules.king-leap]
//! # no parameters
//! ```
//! While the royal piece has never moved (FEN rights `K` / `k`), it may leap to any EMPTY square
//! at distance exactly two: the 16 D, A and N squares. It never captures, is not allowed while
//! in check and may not land in check. For a D or A leap the square passed over must not be
//! attacked; for an N leap at least one of the two squares next to both origin and destination
//! must not be attacked. A square counts as attacked when, with the royal piece lifted from its
//! origin and placed on that square (replacing whatever stands there), an enemy piece could
//! capture it. Any move of the royal piece ends the right.

use super::{Registered, join, royal_name, spec_as};
use crate::position::hooks::{
    Builder, Code, Color, EMPTY, Geometry, Move, MoveKind, MoveList, Position, Rule, RuleSpec,
    Ruleset, Square, SquareSet, code, color_of,
};

pub const REGISTERED: Registered = Registered {
    name: "king-leap",
    about: "the royal piece's one-time leap to a free square at distance two",
    parse: |_, _| Some(Box::new(KingLeapSpec)),
    compile: |s, b| KingLeap::compile(spec_as::<KingLeapSpec>(s)?, b).map(|r| Box::new(r) as _),
};

/// The king-leap table (it has no parameters).
#[derive(Clone, Debug)]
pub struct KingLeapSpec;

impl RuleSpec for KingLeapSpec {
    fn name(&self) -> &'static str {
        "king-leap"
    }
    fn clone_spec(&self) -> Box<dyn RuleSpec> {
        Box::new(self.clone())
    }
}

/// The king leap, compiled.
#[derive(Clone, Debug)]
pub struct KingLeap {
    /// Rights bit of White; Black's is the next.
    first_bit: u16,
    /// Per colour, the squares the royal piece starts on, in the default start position or any
    /// arrangement a setup choice accepts (numbered or not): a FEN may give the right only to a
    /// royal piece standing on one of them.
    home: [SquareSet; 2],
    /// This rule's index (`aux` of its moves).
    index: u8,
}

impl KingLeap {
    fn bit(&self, c: Color) -> u16 {
        1 << (self.first_bit + c.index() as u16)
    }

    /// Whether `sq` is attacked with the royal piece moved from `from` to `sq`.
    fn unsafe_with_king_on(pos: &Position, from: Square, sq: Square) -> bool {
        let king = pos.piece_at(from);
        pos.attacked_with(&[(from, EMPTY), (sq, king)], sq, pos.side().flip())
    }

    fn compile(_spec: &KingLeapSpec, b: &mut Builder<'_>) -> Result<KingLeap, String> {
        let first_bit = b.claim_rights(2)?;
        let rs = b.rules();
        let v = &rs.variant;
        let mut home: [SquareSet; 2] = Default::default();
        for (s, p) in v.placement.iter().enumerate() {
            if let Some((k, c)) = *p
                && rs.is_royal_kind(k)
            {
                home[c.index()].insert(Square::from_index(s));
            }
        }
        // Every square any setup choice puts the royal piece on, not only the named setups.
        for h in &v.rules {
            for (s, pieces) in h.arranged(v) {
                for (k, c) in pieces {
                    if rs.is_royal_kind(k) {
                        home[c.index()].insert(s);
                    }
                }
            }
        }
        for (s, &c) in rs.start.iter().enumerate() {
            if rs.is_royal(c) {
                home[color_of(c).index()].insert(Square::from_index(s));
            }
        }
        let rule = KingLeap {
            first_bit,
            home,
            index: b.index(),
        };
        for (k, royal) in b.rules().royalty.by_kind.clone().into_iter().enumerate() {
            if royal {
                for c in [Color::White, Color::Black] {
                    b.clear_rights_when_moved(code(k, c), rule.bit(c));
                }
            }
        }
        b.add_moves();
        Ok(rule)
    }
}

impl Rule for KingLeap {
    fn name(&self) -> &'static str {
        "king-leap"
    }
    fn start_rights(&self, rs: &Ruleset) -> u16 {
        let mut r = 0;
        for c in [Color::White, Color::Black] {
            if rs.start.iter().any(|&p| rs.is_royal(p) && color_of(p) == c) {
                r |= self.bit(c);
            }
        }
        r
    }

    /// `K`/`k`, or the file letter of a square the side's royal piece starts on in some setup
    /// (the Shredder-FEN form, `Gg` in Metamachy, which XBoard writes and keeps).
    fn parse_right(&self, rs: &Ruleset, c: char) -> Option<u16> {
        match c {
            'K' => return Some(self.bit(Color::White)),
            'k' => return Some(self.bit(Color::Black)),
            _ => {}
        }
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let home = &self.home[color.index()];
        let file = c.to_ascii_lowercase();
        home.iter()
            .any(|s| Geometry::file_char(rs.geometry.file(s)) == file)
            .then(|| self.bit(color))
    }

    fn check_rights(&self, rs: &Ruleset, board: &[Code], rights: u16) -> Vec<(char, String)> {
        let mut out = Vec::new();
        for c in [Color::White, Color::Black] {
            if rights & self.bit(c) == 0 {
                continue;
            }
            // The royal piece must stand where some start position has it.
            let home = &self.home[c.index()];
            let at_home = home.iter().any(|s| {
                let p = board[s.index()];
                rs.is_royal(p) && color_of(p) == c
            });
            if !at_home {
                let letter = if c == Color::White { 'K' } else { 'k' };
                let squares: Vec<String> = home
                    .iter()
                    .map(|s| rs.geometry.name(s).to_string())
                    .collect();
                out.push((
                    letter,
                    format!(
                        "needs {}'s royal piece on a square it starts the game on in some setup ({})",
                        c.name(),
                        squares.join(" ")
                    ),
                ));
            }
        }
        out
    }

    fn write_rights(&self, _rs: &Ruleset, rights: u16, out: &mut String) {
        if rights & self.bit(Color::White) != 0 {
            out.push('K');
        }
        if rights & self.bit(Color::Black) != 0 {
            out.push('k');
        }
    }

    fn notation_hint(&self, rs: &Ruleset, kind: usize) -> Option<String> {
        rs.is_royal_kind(kind).then(|| "imAimDimN".to_string())
    }

    fn explain(&self, rs: &Ruleset) -> String {
        let king = royal_name(rs);
        let g = rs.geometry;
        let start = |c: Color| -> Vec<Square> {
            g.squares()
                .filter(|&s| rs.is_royal(rs.start[s.index()]) && color_of(rs.start[s.index()]) == c)
                .collect()
        };
        let names = |sqs: &[Square]| -> Vec<String> {
            sqs.iter().map(|&s| g.name(s).to_string()).collect()
        };
        let (white, black) = (start(Color::White), start(Color::Black));
        let mut text = format!(
            "Once per game, a {king} that has not moved yet may leap to any empty square exactly \
             two squares away: two squares along a rank, file or diagonal, or a Knight's move \
             (up to 16 squares), jumping over whatever stands between. The leap never captures; \
             it is not allowed while the {king} is in check, and it may not land in check. For a \
             straight or diagonal leap the square passed over must not be attacked, and for a \
             Knight-shaped leap at least one of the two squares next to both the start and the \
             landing square must not be attacked (a square counts as attacked if the {king}, \
             standing there, could be captured). Any move of the {king} ends the right."
        );
        if let ([w], [b]) = (white.as_slice(), black.as_slice()) {
            let targets: Vec<String> = (-2i32..=2)
                .flat_map(|dy| (-2i32..=2).map(move |dx| (dx, dy)))
                .filter(|&(dx, dy)| dx.abs().max(dy.abs()) == 2)
                .filter_map(|(dx, dy)| g.offset(*w, dx, dy))
                .map(|s| g.name(s).to_string())
                .collect();
            text.push_str(&format!(
                " Here White's {king} starts on {} and Black's on {}; from {} it may leap to {}.",
                g.name(*w),
                g.name(*b),
                g.name(*w),
                join(&targets, "or")
            ));
        } else if !white.is_empty() {
            text.push_str(&format!(
                " Here White's {king} starts on {} and Black's on {}.",
                join(&names(&white), "and"),
                join(&names(&black), "and")
            ));
        }
        let setups = (self.home[0].iter().count() > white.len()).then(|| {
            let homes: Vec<String> = self.home[0].iter().map(|s| g.name(s).to_string()).collect();
            format!(
                " Other setups may start it on {} (White; Black's on the mirror squares), with the same right.",
                join(&homes, "or")
            )
        });
        text.push_str(&setups.unwrap_or_default());
        text
    }

    fn generate(&self, pos: &Position, out: &mut MoveList) {
        let side = pos.side();
        if pos.rights() & self.bit(side) == 0 {
            return;
        }
        let Some(from) = pos.royal_square(side) else {
            return;
        };
        // Never out of check: tested once here rather than for every leap.
        if pos.in_check() {
            return;
        }
        let g = pos.rules().geometry;
        for dy in -2i32..=2 {
            for dx in -2i32..=2 {
                if dx.abs().max(dy.abs()) != 2 {
                    continue;
                }
                if let Some(to) = g
                    .offset(from, dx, dy)
                    .filter(|&to| pos.piece_at(to) == EMPTY)
                {
                    out.push(Move {
                        from,
                        to,
                        promo: 0,
                        kind: MoveKind::Rule,
                        aux: self.index,
                    });
                }
            }
        }
    }

    /// Called for the leaps `generate` produced (none when in check): the passed squares.
    fn allows(&self, pos: &Position, mv: Move) -> bool {
        let g = pos.rules().geometry;
        let dx = g.file(mv.to) as i32 - g.file(mv.from) as i32;
        let dy = g.rank(mv.to) as i32 - g.rank(mv.from) as i32;
        // The square(s) passed: one for a D or A leap, two for an N leap.
        let (sx, sy) = (dx.signum(), dy.signum());
        let passed: [(i32, i32); 2] = if dx.abs() == dy.abs() || dx == 0 || dy == 0 {
            [(dx / 2, dy / 2), (dx / 2, dy / 2)]
        } else if dx.abs() == 2 {
            [(sx, 0), (sx, sy)]
        } else {
            [(0, sy), (sx, sy)]
        };
        passed.iter().any(|&(x, y)| match g.offset(mv.from, x, y) {
            Some(s) => !Self::unsafe_with_king_on(pos, mv.from, s),
            None => false,
        })
    }
}

//! `setup-choice`: a choice among arrangements of some pieces in the start position.
//!
//! ```toml
//! [rules.setup-choice]
//! squares = ["f1", "g1", "f2", "g2"]  # the chooser's squares; the other side uses the same
//!                                      # files, ranks mirrored
//! default = "QKLG"                     # the letters on those squares in the default setup
//! numbered = ["KQGL", "KQLG", ...]     # optional: setups a user may pick by number (from 1)
//! royal-files = ["f", "g"]             # optional: files a royal piece must stand on
//! piece-files = { L = ["f", "g"] }     # optional: per piece letter, the files it must stand on
//! chooser = "white"                    # "white" (default) or "black": the side that arranges
//!                                      # its pieces; the other side mirrors them
//! each-side = false                    # optional: each side arranges its own (Janggi's
//!                                      # Horses and Elephants): a setup `KQLG/GLKQ` names the
//!                                      # chooser's arrangement, then the other side's
//! ```
//! Each square is named once and lies on the chooser's half of the board (a middle rank, on
//! a board with an odd number of ranks, is no side's); anything else is refused.
//! With `royal-files`, an arrangement that puts a royal piece (the King) on another file is
//! refused, whether picked by letters or listed in the file.
//! A user picks a setup by its letters (any arrangement of the default's letters, e.g. `KQLG`)
//! or by its number in `numbered`. The other side's copy stands on the same files (a reflection
//! across the horizontal midline, never a rotation). Zanzibar-XXL's rules let Black arrange and
//! White mirror: `chooser = "black"` with Black's squares. With `each-side = true` a setup may
//! name two arrangements, `A/B`: `A` on the chooser's squares, `B` on their mirror images for
//! the other side (each checked like one arrangement); one arrangement alone is mirrored as
//! before. Without it, `A/B` is refused.

use super::{Registered, spec_as};
use crate::position::hooks::{
    Color, Geometry, Params, Placement, Rule, RuleSpec, Ruleset, Square, Val, Variant,
};

pub const REGISTERED: Registered = Registered {
    name: "setup-choice",
    about: "a choice among arrangements of some pieces in the start position",
    parse: |p, v| SetupChoiceSpec::build(p, v).map(|s| Box::new(s) as Box<dyn RuleSpec>),
    compile: |s, _| {
        let spec = spec_as::<SetupChoiceSpec>(s)?;
        Ok(Box::new(SetupChoice { spec: spec.clone() }))
    },
};

/// The setup choice is made before the tables are built (a spec's [`RuleSpec::setup`]); in
/// play the rule does nothing. It keeps its table for its explanation.
#[derive(Clone, Debug)]
struct SetupChoice {
    spec: SetupChoiceSpec,
}

impl Rule for SetupChoice {
    fn name(&self) -> &'static str {
        "setup-choice"
    }

    fn explain(&self, rs: &Ruleset) -> String {
        let s = &self.spec;
        let v = &rs.variant;
        let g = rs.geometry;
        let (chooser, other) = match s.chooser {
            Color::White => ("White", "Black"),
            Color::Black => ("Black", "White"),
        };
        let names: Vec<String> = s
            .default
            .chars()
            .filter_map(|c| v.kind_by_letter(c))
            .map(|k| v.pieces[k].name.clone())
            .collect();
        let mirrored: Vec<String> = s
            .squares
            .iter()
            .map(|&sq| g.name(g.mirror_rank(sq)).to_string())
            .collect();
        let mut text = if s.each_side {
            format!(
                "Before the game, each side arranges its {} in any order ({} arrangements): \
                 {chooser} on {}, {other} on the same files ({}). A setup names {chooser}'s \
                 arrangement, then {other}'s after a `/`; one arrangement alone is mirrored.",
                super::join(&names, "and"),
                s.arrangements(),
                super::join(&s.square_names, "and"),
                mirrored.join(", ")
            )
        } else {
            format!(
                "Before the game, {chooser} may arrange its {} on {} in any order ({} \
                 arrangements), and {other} sets up the mirror image on the same files ({}).",
                super::join(&names, "and"),
                super::join(&s.square_names, "and"),
                s.arrangements(),
                mirrored.join(", ")
            )
        };
        let mut named: Vec<char> = Vec::new();
        for c in s.default.chars() {
            if named.contains(&c) {
                continue;
            }
            named.push(c);
            if let Some((name, files)) = s.files_for(c) {
                let files: Vec<String> = files
                    .iter()
                    .map(|&f| Geometry::file_char(f).to_string())
                    .collect();
                text.push_str(&format!(
                    " The {name} must stand on the {} file.",
                    super::join(&files, "or")
                ));
            }
        }
        let placed: Vec<String> = s
            .default
            .chars()
            .zip(&s.square_names)
            .filter_map(|(c, sq)| {
                v.kind_by_letter(c)
                    .map(|k| format!("{} {sq}", v.pieces[k].name))
            })
            .collect();
        text.push_str(&format!(
            " The default setup is {} ({}).",
            s.default,
            placed.join(", ")
        ));
        if !s.numbered.is_empty() {
            text.push_str(&format!(
                " {} of them are also numbered, 1 to {}.",
                s.numbered.len(),
                s.numbered.len()
            ));
        }
        if let Some(chosen) = &rs.setup {
            text.push_str(&format!(" This game uses setup {chosen}."));
        }
        text
    }
}

/// The setup-choice table as read.
#[derive(Clone, Debug)]
pub struct SetupChoiceSpec {
    pub squares: Vec<Square>,
    pub default: String,
    pub numbered: Vec<String>,
    /// Files (0-based) a royal piece may stand on; empty: any.
    pub royal_files: Vec<u8>,
    /// Letters of the royal pieces, with their names, for `royal_files`.
    pub royals: Vec<(char, String)>,
    /// `piece-files`: per piece letter (with its name), the files (0-based) it may stand on.
    pub piece_files: Vec<(char, String, Vec<u8>)>,
    /// The files of `squares`, for the messages.
    pub files: Vec<u8>,
    /// The side whose squares `squares` names and who makes the choice; the other side's
    /// copy is its mirror image.
    pub chooser: Color,
    /// The variant's name and the names of `squares`, for the messages.
    pub title: String,
    pub square_names: Vec<String>,
    /// `each-side`: each side arranges its own pieces (a setup may be `A/B`).
    pub each_side: bool,
}

fn sorted(s: &str) -> Vec<char> {
    let mut v: Vec<char> = s.chars().map(|c| c.to_ascii_uppercase()).collect();
    v.sort();
    v
}

/// `chooser`: the side that chooses the setup (White when it is not given).
fn read_chooser(p: &mut Params<'_, '_>) -> Color {
    match p.string("chooser") {
        None => Color::White,
        Some((c, _)) if c == "white" => Color::White,
        Some((c, _)) if c == "black" => Color::Black,
        Some((c, span)) => {
            p.error(
                span,
                format!("`rules.setup-choice.chooser` is \"{c}\""),
                Some("use \"white\" or \"black\"".into()),
            );
            Color::White
        }
    }
}

/// Whether `sq` lies on `side`'s half of the board: its first ranks, short of the middle (on
/// a board with an odd number of ranks the middle rank is no side's).
fn on_own_half(g: &Geometry, sq: Square, side: Color) -> bool {
    let r = g.rank(sq) as u32;
    let own = match side {
        Color::White => r,
        Color::Black => g.ranks as u32 - 1 - r,
    };
    2 * own + 1 < g.ranks as u32
}

/// `piece-files`: per piece letter, the files it may be set up on.
fn read_piece_files(p: &mut Params<'_, '_>, v: &Variant) -> Vec<(char, String, Vec<u8>)> {
    let mut out = Vec::new();
    let Some((t, _)) = p.table("piece-files") else {
        return out;
    };
    for (letter, lspan, val) in t {
        let mut cs = letter.chars();
        let kind = match (cs.next(), cs.next()) {
            (Some(c), None) => v.kind_by_letter(c).map(|k| (c, k)),
            _ => None,
        };
        let Some((c, k)) = kind else {
            p.error(
                lspan.clone(),
                format!("`piece-files`: no piece has the letter `{letter}`"),
                Some(crate::variant::params_letter_hint(v)),
            );
            continue;
        };
        let items: Vec<_> = match &val.val {
            Val::Array(xs) => xs.iter().collect(),
            _ => vec![val],
        };
        let mut files = Vec::new();
        for it in items {
            match &it.val {
                Val::Str(f) if f.len() == 1 && f.as_bytes()[0].wrapping_sub(b'a') < v.files => {
                    files.push(f.as_bytes()[0] - b'a')
                }
                _ => p.error(
                    it.span.clone(),
                    format!("`piece-files.{letter}`: expected file letters of this board"),
                    None,
                ),
            }
        }
        out.push((c.to_ascii_uppercase(), v.pieces[k].name.clone(), files));
    }
    out
}

/// `royal-files`: the files a royal piece may be set up on (none: any).
fn read_royal_files(p: &mut Params<'_, '_>, v: &Variant) -> Vec<u8> {
    let mut royal_files = Vec::new();
    for (f, span) in p.strings("royal-files").unwrap_or_default() {
        let mut cs = f.chars();
        match (cs.next(), cs.next()) {
            (Some(c @ 'a'..='p'), None) if (c as u8 - b'a') < v.files => {
                royal_files.push(c as u8 - b'a')
            }
            _ => p.error(span, format!("`{f}` is not a file of this board"), None),
        }
    }
    royal_files
}

impl SetupChoiceSpec {
    fn build(p: &mut Params<'_, '_>, v: &Variant) -> Option<SetupChoiceSpec> {
        let g = Geometry::new(v.files, v.ranks);
        let chooser = read_chooser(p);
        let each_side = p.boolean("each-side").unwrap_or(false);
        let mut squares = Vec::new();
        for (s, span) in p.strings("squares").unwrap_or_default() {
            match g.parse_square(&s) {
                Some(sq) if squares.contains(&sq) => {
                    p.error(span, format!("`squares` lists {s} twice"), None)
                }
                Some(sq) if !on_own_half(&g, sq, chooser) => {
                    let side = chooser.name();
                    p.error(
                        span,
                        format!("{s} is not on {side}'s half of the board"),
                        Some(format!(
                            "`squares` names the squares of the side that arranges ({side}, see `chooser`); the other side mirrors them, and a middle rank belongs to neither"
                        )),
                    )
                }
                Some(sq) => squares.push(sq),
                None => p.error(span, format!("`{s}` is not a square of this board"), None),
            }
        }
        let Some((default, dspan)) = p.string("default") else {
            let span = p.span.clone();
            p.error(
                span,
                "`rules.setup-choice` needs `default`",
                Some("the letters on `squares` in the default setup".into()),
            );
            return None;
        };
        let numbered: Vec<(String, _)> = p.strings("numbered").unwrap_or_default();
        let royal_files = read_royal_files(p, v);
        let piece_files = read_piece_files(p, v);
        let royals: Vec<(char, String)> = v
            .pieces
            .iter()
            .filter(|pc| pc.royal)
            .filter_map(|pc| Some((pc.letter?, pc.name.clone())))
            .collect();
        if squares.is_empty() {
            let span = p.span.clone();
            p.error(span, "`rules.setup-choice` needs `squares`", None);
            return None;
        }
        if default.chars().count() != squares.len() {
            p.error(
                dspan.clone(),
                format!(
                    "`default` has {} letters for {} squares",
                    default.chars().count(),
                    squares.len()
                ),
                None,
            );
        }
        for c in default.chars() {
            if v.kind_by_letter(c).is_none() {
                p.error(
                    dspan.clone(),
                    format!("no piece has the letter '{c}'"),
                    Some(crate::variant::params_letter_hint(v)),
                );
            }
        }
        for (n, span) in &numbered {
            if sorted(n) != sorted(&default) {
                p.error(
                    span.clone(),
                    format!("setup `{n}` is not an arrangement of `{default}`"),
                    None,
                );
            }
        }
        let files = squares.iter().map(|&sq| g.file(sq)).collect();
        let square_names = squares.iter().map(|&sq| g.name(sq).to_string()).collect();
        let rule = SetupChoiceSpec {
            squares,
            default,
            numbered: numbered.iter().map(|x| x.0.clone()).collect(),
            royal_files,
            royals,
            piece_files,
            files,
            chooser,
            title: v.title.clone(),
            square_names,
            each_side,
        };
        if let Err(e) = rule.royal_placed(&rule.default) {
            p.error(dspan, e, None);
        }
        for (n, span) in &numbered {
            if let Err(e) = rule.royal_placed(n) {
                p.error(span.clone(), e, None);
            }
        }
        Some(rule)
    }

    /// The files `letter` may stand on (`None`: any), with the piece's name.
    fn files_for(&self, letter: char) -> Option<(&str, &[u8])> {
        let c = letter.to_ascii_uppercase();
        if let Some((_, name, files)) = self.piece_files.iter().find(|x| x.0 == c) {
            return Some((name, files));
        }
        match self.royals.iter().find(|r| r.0 == c) {
            Some((_, name)) if !self.royal_files.is_empty() => Some((name, &self.royal_files)),
            _ => None,
        }
    }

    /// Whether `letter` may stand on `squares[i]` by its own constraint.
    fn allowed(&self, letter: char, i: usize) -> bool {
        self.files_for(letter)
            .is_none_or(|(_, files)| files.contains(&self.files[i]))
    }

    /// Checks that `letters` put every constrained piece on one of its files (`royal-files`,
    /// `piece-files`).
    fn royal_placed(&self, letters: &str) -> Result<(), String> {
        for (&f, c) in self.files.iter().zip(letters.chars()) {
            if let Some((name, files)) = self.files_for(c)
                && !files.contains(&f)
            {
                let allowed: Vec<String> = files
                    .iter()
                    .map(|&f| Geometry::file_char(f).to_string())
                    .collect();
                return Err(format!(
                    "setup `{letters}` puts the {name} on the {} file; it must stand on the {} file",
                    Geometry::file_char(f),
                    allowed.join(" or ")
                ));
            }
        }
        Ok(())
    }

    /// How many distinct arrangements of the default's letters the rule accepts.
    fn arrangements(&self) -> usize {
        fn count(spec: &SetupChoiceSpec, rest: &mut Vec<char>, cur: &mut String) -> usize {
            if rest.is_empty() {
                return usize::from(spec.royal_placed(cur).is_ok());
            }
            let mut total = 0;
            let mut tried = Vec::new();
            for i in 0..rest.len() {
                if tried.contains(&rest[i]) {
                    continue;
                }
                tried.push(rest[i]);
                let c = rest.remove(i);
                cur.push(c);
                total += count(spec, rest, cur);
                cur.pop();
                rest.insert(i, c);
            }
            total
        }
        let mut letters = sorted(&self.default);
        count(self, &mut letters, &mut String::new())
    }

    /// Whether some arrangement this rule accepts puts `letter` (one of the default's) on
    /// `squares[i]`: the letter may stand there, and the default's other letters can then be
    /// matched to the other squares, each where it may stand (a bipartite matching).
    fn can_stand(&self, letter: char, i: usize) -> bool {
        if !self.allowed(letter, i) {
            return false;
        }
        let mut rest: Vec<char> = self.default.chars().collect();
        match rest.iter().position(|c| c.eq_ignore_ascii_case(&letter)) {
            Some(at) => rest.remove(at),
            None => return false,
        };
        let squares: Vec<usize> = (0..self.squares.len()).filter(|&j| j != i).collect();
        // Kuhn's augmenting paths: owner[s] is the letter placed on squares[s].
        let mut owner: Vec<Option<usize>> = vec![None; squares.len()];
        fn place(
            spec: &SetupChoiceSpec,
            l: usize,
            rest: &[char],
            squares: &[usize],
            owner: &mut [Option<usize>],
            seen: &mut [bool],
        ) -> bool {
            for s in 0..squares.len() {
                if seen[s] || !spec.allowed(rest[l], squares[s]) {
                    continue;
                }
                seen[s] = true;
                let free = match owner[s] {
                    None => true,
                    Some(other) => place(spec, other, rest, squares, owner, seen),
                };
                if free {
                    owner[s] = Some(l);
                    return true;
                }
            }
            false
        }
        (0..rest.len()).all(|l| {
            let mut seen = vec![false; squares.len()];
            place(self, l, &rest, &squares, &mut owner, &mut seen)
        })
    }

    /// What a user may give to pick a setup, with an example: the letters of an arrangement
    /// (one other than the default where there is one).
    fn how_to_choose(&self) -> String {
        let chosen: Vec<char> = self.default.chars().collect();
        let mut example = self.default.clone();
        'swaps: for i in 0..chosen.len() {
            for j in i + 1..chosen.len() {
                let mut t = chosen.clone();
                t.swap(i, j);
                let t: String = t.into_iter().collect();
                if t != self.default && self.royal_placed(&t).is_ok() {
                    example = t;
                    break 'swaps;
                }
            }
        }
        let who = match self.chooser {
            Color::White => "White's squares, Black mirrors them",
            Color::Black => "Black's squares, White mirrors them",
        };
        let royal: String = self
            .default
            .chars()
            .filter_map(|c| self.files_for(c))
            .map(|(name, files)| {
                let allowed: Vec<String> = files
                    .iter()
                    .map(|&f| Geometry::file_char(f).to_string())
                    .collect();
                format!(", the {name} on the {} file", allowed.join(" or "))
            })
            .collect();
        format!(
            "choose a setup by its letters, an arrangement of {} on {} ({who}){royal}, e.g. `--setup {example}`",
            self.default,
            self.square_names.join(" ")
        )
    }

    /// The letters of a choice: a number from `numbered`, or letters.
    /// The arrangements `choice` gives the chooser and the other side: one arrangement
    /// ([`SetupChoiceSpec::resolve`]) for both, or with `each-side`, `A/B`, one each.
    pub fn resolve_sides(&self, choice: &str) -> Result<(String, String), String> {
        match choice.split_once('/') {
            None => {
                let one = self.resolve(choice)?;
                Ok((one.clone(), one))
            }
            Some(_) if !self.each_side => Err(format!(
                "setup `{choice}`: in {} the other side mirrors the chooser's arrangement, so a \
                 setup names one: {}",
                self.title,
                self.how_to_choose()
            )),
            Some((a, b)) => Ok((self.resolve(a)?, self.resolve(b)?)),
        }
    }

    pub fn resolve(&self, choice: &str) -> Result<String, String> {
        if let Ok(n) = choice.parse::<usize>() {
            if self.numbered.is_empty() {
                return Err(format!(
                    "setup number {n}: {} has no numbered setups; {}",
                    self.title,
                    self.how_to_choose()
                ));
            }
            return self
                .numbered
                .get(n.wrapping_sub(1))
                .cloned()
                .ok_or_else(|| {
                    format!(
                        "setup number {n} does not exist: {} numbers its setups 1 to {}; or {}",
                        self.title,
                        self.numbered.len(),
                        self.how_to_choose()
                    )
                });
        }
        if sorted(choice) != sorted(&self.default) || choice.chars().count() != self.squares.len() {
            return Err(format!(
                "setup `{choice}` is not an arrangement of {} (the pieces on the setup squares, in order): {}",
                self.default,
                self.how_to_choose()
            ));
        }
        self.royal_placed(choice)?;
        Ok(choice.to_ascii_uppercase())
    }
}

impl RuleSpec for SetupChoiceSpec {
    fn name(&self) -> &'static str {
        "setup-choice"
    }
    fn clone_spec(&self) -> Box<dyn RuleSpec> {
        Box::new(self.clone())
    }

    fn setup(
        &self,
        v: &Variant,
        choice: Option<&str>,
        placement: &mut Placement,
    ) -> Result<bool, String> {
        let (mine, theirs) = match choice {
            Some(c) => self.resolve_sides(c)?,
            None => (self.default.clone(), self.default.clone()),
        };
        let g = Geometry::new(v.files, v.ranks);
        let kind = |c: char| {
            v.kind_by_letter(c)
                .ok_or_else(|| format!("no piece has the letter '{c}'"))
        };
        for ((&sq, a), b) in self.squares.iter().zip(mine.chars()).zip(theirs.chars()) {
            placement[sq.index()] = Some((kind(a)?, self.chooser));
            placement[g.mirror_rank(sq).index()] = Some((kind(b)?, self.chooser.flip()));
        }
        Ok(true)
    }

    fn setups(&self) -> Vec<(String, String)> {
        let mut out = vec![("default".to_string(), self.default.clone())];
        for (i, s) in self.numbered.iter().enumerate() {
            out.push(((i + 1).to_string(), s.clone()));
        }
        out
    }

    /// Every (kind, colour) some accepted arrangement, numbered or given by its letters, puts
    /// on each of the squares and on their mirror images.
    fn arranged(&self, v: &Variant) -> Vec<(Square, Vec<(usize, Color)>)> {
        let g = Geometry::new(v.files, v.ranks);
        let mut out = Vec::new();
        for (i, &sq) in self.squares.iter().enumerate() {
            let kinds: Vec<usize> = sorted(&self.default)
                .into_iter()
                .filter(|&c| self.can_stand(c, i))
                .filter_map(|c| v.kind_by_letter(c))
                .collect();
            for (at, color) in [(sq, self.chooser), (g.mirror_rank(sq), self.chooser.flip())] {
                let mut pieces: Vec<(usize, Color)> = kinds.iter().map(|&k| (k, color)).collect();
                pieces.dedup();
                out.push((at, pieces));
            }
        }
        out
    }
}

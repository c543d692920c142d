//! A TOML value tree that keeps every value's position, and a reader for a hook's parameters
//! that records precise problems instead of stopping at the first.

use crate::variant::Variant;

/// A byte range in the variant file.
pub type Span = std::ops::Range<usize>;

/// The entries of a TOML table: key, key span, value.
pub type Entries = [(String, Span, SVal)];

/// A TOML value with its span.
#[derive(Clone, Debug)]
pub struct SVal {
    /// The value.
    pub val: Val,
    /// Where it is in the file.
    pub span: Span,
}

/// A TOML value.
#[derive(Clone, Debug)]
pub enum Val {
    /// A string.
    Str(String),
    /// An integer.
    Int(i64),
    /// A float.
    Float(f64),
    /// A boolean.
    Bool(bool),
    /// An array.
    Array(Vec<SVal>),
    /// Keys with their spans, in file order.
    Table(Vec<(String, Span, SVal)>),
    /// A date or time (no key takes one).
    Datetime,
}

impl Val {
    /// The TOML type name, for messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Val::Str(_) => "a string",
            Val::Int(_) => "an integer",
            Val::Float(_) => "a float",
            Val::Bool(_) => "a boolean",
            Val::Array(_) => "an array",
            Val::Table(_) => "a table",
            Val::Datetime => "a date",
        }
    }
}

/// One problem found in a variant file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diag {
    /// Where in the file.
    pub span: Span,
    /// What is wrong.
    pub message: String,
    /// How to put it right, when there is a clear way.
    pub hint: Option<String>,
}

/// Reads the parameters of one table, recording problems.
pub struct Params<'a, 'd> {
    /// Dotted name of the table, for messages (`rules.castling`).
    pub path: String,
    /// The span of the table, for problems about it as a whole.
    pub span: Span,
    entries: &'a [(String, Span, SVal)],
    used: Vec<bool>,
    known: Vec<&'static str>,
    /// Where problems are recorded.
    pub diags: &'d mut Vec<Diag>,
    /// The pieces' letters are already known to be broken (a piece without a valid letter of
    /// its own): a letter no piece has is a consequence of that, and is not reported again.
    pub quiet_letters: bool,
    /// Names (upper case, without a `+`: `Q`, `N'`) already reported as unknown elsewhere (in
    /// the start position).
    pub quiet_unknown: Vec<String>,
    /// Whether the last [`Params::letters`] met a letter no piece has (reported or not).
    pub last_unknown: bool,
}

impl<'a, 'd> Params<'a, 'd> {
    /// Reads the table `entries` named `path` at `span`, recording problems in `diags`.
    pub fn new(
        path: &str,
        span: Span,
        entries: &'a [(String, Span, SVal)],
        diags: &'d mut Vec<Diag>,
    ) -> Params<'a, 'd> {
        Params {
            path: path.to_string(),
            span,
            entries,
            used: vec![false; entries.len()],
            known: Vec::new(),
            diags,
            quiet_letters: false,
            quiet_unknown: Vec::new(),
            last_unknown: false,
        }
    }

    /// Records a problem.
    pub fn error(&mut self, span: Span, message: impl Into<String>, hint: Option<String>) {
        self.diags.push(Diag {
            span,
            message: message.into(),
            hint,
        });
    }

    /// The value of `key`, if present.
    pub fn get(&mut self, key: &'static str) -> Option<&'a SVal> {
        self.known.push(key);
        let i = self.entries.iter().position(|(k, _, _)| k == key)?;
        self.used[i] = true;
        Some(&self.entries[i].2)
    }

    fn wrong_type(&mut self, key: &str, v: &SVal, want: &str) {
        let msg = format!(
            "`{}.{key}` must be {want}, found {}",
            self.path,
            v.val.type_name()
        );
        self.error(v.span.clone(), msg, None);
    }

    /// A string parameter.
    pub fn string(&mut self, key: &'static str) -> Option<(String, Span)> {
        let v = self.get(key)?;
        match &v.val {
            Val::Str(s) => Some((s.clone(), v.span.clone())),
            _ => {
                self.wrong_type(key, v, "a string");
                None
            }
        }
    }

    /// An integer parameter in `lo..=hi`.
    pub fn int(&mut self, key: &'static str, lo: i64, hi: i64) -> Option<i64> {
        let v = self.get(key)?;
        match v.val {
            Val::Int(n) if (lo..=hi).contains(&n) => Some(n),
            Val::Int(n) => {
                let msg = format!(
                    "`{}.{key}` is {n}, expected a whole number from {lo} to {hi}",
                    self.path
                );
                self.error(v.span.clone(), msg, None);
                None
            }
            _ => {
                self.wrong_type(key, v, "an integer");
                None
            }
        }
    }

    /// A boolean parameter.
    pub fn boolean(&mut self, key: &'static str) -> Option<bool> {
        let v = self.get(key)?;
        match v.val {
            Val::Bool(b) => Some(b),
            _ => {
                self.wrong_type(key, v, "true or false");
                None
            }
        }
    }

    /// A list of strings: a TOML array of strings, or one string.
    pub fn strings(&mut self, key: &'static str) -> Option<Vec<(String, Span)>> {
        let v = self.get(key)?;
        match &v.val {
            Val::Str(s) => Some(vec![(s.clone(), v.span.clone())]),
            Val::Array(items) => {
                let mut out = Vec::new();
                for it in items {
                    match &it.val {
                        Val::Str(s) => out.push((s.clone(), it.span.clone())),
                        _ => self.wrong_type(key, it, "a list of strings"),
                    }
                }
                Some(out)
            }
            _ => {
                self.wrong_type(key, v, "a list of strings");
                None
            }
        }
    }

    /// Pieces by name: `"QLG"` or `["Q", "L", "G"]`, each letter, letter and prime (`N'`), or
    /// `+` and either (`+P`, the promoted form of the piece `P`), resolved to a kind of
    /// `variant`.
    pub fn letters(&mut self, key: &'static str, variant: &Variant) -> Option<Vec<usize>> {
        self.last_unknown = false;
        let items = self.strings(key)?;
        let mut out = Vec::new();
        for (s, span) in items {
            for (col, t) in crate::variant::split_symbols(&s) {
                let upper = !t.chars().any(|c| c.is_ascii_lowercase());
                let base = t.trim_start_matches('+').to_ascii_uppercase();
                match variant.kind_by_symbol(&t) {
                    Some(k) if upper => out.push(k),
                    _ if self.quiet_letters || self.quiet_unknown.contains(&base) => {
                        self.last_unknown = true;
                    }
                    _ => {
                        self.last_unknown = true;
                        let at = span.start + col;
                        let msg = format!("`{}.{key}`: {}", self.path, no_piece(&t));
                        let hint = letter_hint(variant);
                        self.error(at..at + t.len(), msg, Some(hint));
                    }
                }
            }
        }
        Some(out)
    }

    /// Rank numbers: one integer or a list of them (`allow_empty`: the list may be empty),
    /// each from 1 to `nranks`; 0-based out. `what` names the key in messages, `counted` says
    /// from where ranks are counted, `example` is a correct value. `None` after a report.
    pub fn ranks(
        &mut self,
        what: &str,
        value: &SVal,
        nranks: u8,
        allow_empty: bool,
        counted: &str,
        example: &str,
    ) -> Option<Vec<u8>> {
        let items: Vec<&SVal> = match &value.val {
            Val::Int(_) => vec![value],
            Val::Array(xs) if allow_empty || !xs.is_empty() => xs.iter().collect(),
            _ => {
                let msg = format!(
                    "`{what}` must be a rank number or a list of them, found {}",
                    value.val.type_name()
                );
                self.error(value.span.clone(), msg, Some(format!("e.g. `{example}`")));
                return None;
            }
        };
        let mut out = Vec::new();
        let mut ok = true;
        for it in items {
            match it.val {
                Val::Int(n) if (1..=nranks as i64).contains(&n) => out.push((n - 1) as u8),
                _ => {
                    let msg = format!(
                        "`{what}`: expected a rank from 1 to {nranks} (rank numbers from 1 to {nranks}, {counted})"
                    );
                    self.error(it.span.clone(), msg, None);
                    ok = false;
                }
            }
        }
        ok.then_some(out)
    }

    /// A sub-table parameter.
    pub fn table(&mut self, key: &'static str) -> Option<(&'a Entries, Span)> {
        let v = self.get(key)?;
        match &v.val {
            Val::Table(t) => Some((t.as_slice(), v.span.clone())),
            _ => {
                self.wrong_type(key, v, "a table");
                None
            }
        }
    }

    /// Every entry of the table, marking them all as read (for tables keyed by piece letters).
    pub fn all(&mut self) -> &'a [(String, Span, SVal)] {
        self.used.iter_mut().for_each(|u| *u = true);
        self.entries
    }

    /// Reports every key that no getter asked for.
    pub fn finish(mut self) {
        let mut known: Vec<&str> = self.known.clone();
        known.sort();
        known.dedup();
        for (i, (k, span, _)) in self.entries.iter().enumerate() {
            if !self.used[i] {
                let hint = if known.is_empty() {
                    "this table takes no keys".to_string()
                } else if let Some(near) = nearest(k, &known) {
                    format!("did you mean `{near}`? known keys: {}", known.join(", "))
                } else {
                    format!("known keys: {}", known.join(", "))
                };
                let msg = format!("unknown key `{k}` in `{}`", self.path);
                self.error(span.clone(), msg, Some(hint));
            }
        }
    }
}

/// The known key nearest to `key` (a misspelling: at most a third of its letters changed,
/// added, removed or two neighbours swapped), if one is.
pub fn nearest<'k>(key: &str, known: &[&'k str]) -> Option<&'k str> {
    let limit = (key.chars().count() / 3).max(1);
    known
        .iter()
        .map(|&k| (edit_distance(key, k), k))
        .filter(|&(d, _)| d <= limit)
        .min()
        .map(|(_, k)| k)
}

/// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
/// neighbouring characters each cost 1.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, v) in d[0].iter_mut().enumerate() {
        *v = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = (a[i - 1] != b[j - 1]) as usize;
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

/// "the pieces' letters are PNBRQK" for hints, with the pieces written otherwise after them
/// (`(and +P +R N')`).
pub fn letter_hint(variant: &Variant) -> String {
    let ls: String = variant.pieces.iter().filter_map(|p| p.letter).collect();
    let plus: Vec<&str> = variant
        .pieces
        .iter()
        .filter(|p| p.letter.is_none())
        .map(|p| p.symbol.as_str())
        .collect();
    if plus.is_empty() {
        format!("the pieces' letters are {ls}")
    } else {
        format!("the pieces' letters are {ls} (and {})", plus.join(" "))
    }
}

/// A piece's name quoted for a message: `'X'`, `'+X'`, or `"N'"` for a name with a prime.
pub fn quoted(name: &str) -> String {
    if name.contains('\'') {
        format!("\"{name}\"")
    } else {
        format!("'{name}'")
    }
}

/// `no piece has the letter 'X'`, or for a longer name `no piece is written '+X'` (`"N'"`).
pub fn no_piece(name: &str) -> String {
    match name.chars().count() {
        1 => format!("no piece has the letter {}", quoted(name)),
        _ => format!("no piece is written {}", quoted(name)),
    }
}

/// After a name given, why it names no piece: `no piece has that letter`, or for a longer
/// name `no piece is written so`.
pub fn unknown_why(name: &str) -> &'static str {
    match name.chars().count() {
        1 => "no piece has that letter",
        _ => "no piece is written so",
    }
}

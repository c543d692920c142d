//! No function in `src/` is longer than [`MAX_LINES`] lines unless a `// long:` comment
//! directly above it (above its attributes, below its doc comment) says why; and no such
//! comment stands above a function that is not long.
//!
//! The scan counts braces with string, character and comment contents removed: enough for
//! this code base, checked on small sources below.

use std::path::{Path, PathBuf};

/// The longest a function may be, in lines from `fn` to its closing brace, without a reason.
const MAX_LINES: usize = 100;

/// A function found by the scan.
#[derive(Debug, PartialEq)]
struct Function {
    name: String,
    /// The line of `fn`, from 1.
    line: usize,
    /// Lines from `fn` to the closing brace, both included.
    lines: usize,
    /// Whether a `// long:` comment stands directly above it.
    reason: bool,
}

/// An open string: whether it is raw, and the hashes that close it.
type OpenString = Option<(bool, usize)>;

/// `line` with the contents of strings, characters and comments removed; `block` carries the
/// depth of open `/* */` comments and `open` an open string from one line to the next.
fn code_of(line: &str, block: &mut usize, open: &mut OpenString) -> String {
    let c: Vec<char> = line.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < c.len() {
        if *block > 0 {
            if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                *block -= 1;
                i += 2;
            } else if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                *block += 1;
                i += 2;
            } else {
                i += 1;
            }
            continue;
        }
        if let Some((raw, hashes)) = *open {
            // A plain string ends at `"` and has escapes; a raw one ends at `"` and its hashes.
            if !raw && c[i] == '\\' {
                i += 2;
            } else if c[i] == '"' && (1..=hashes).all(|k| c.get(i + k) == Some(&'#')) {
                *open = None;
                i += 1 + hashes;
            } else {
                i += 1;
            }
            continue;
        }
        let word_before = i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_');
        let hashes = c[i + 1..].iter().take_while(|&&x| x == '#').count();
        match c[i] {
            '/' if c.get(i + 1) == Some(&'/') => break,
            '/' if c.get(i + 1) == Some(&'*') => {
                *block = 1;
                i += 2;
            }
            '"' => {
                *open = Some((false, 0));
                i += 1;
            }
            'r' if !word_before && c.get(i + 1 + hashes) == Some(&'"') => {
                *open = Some((true, hashes));
                i += 2 + hashes;
            }
            '\'' => {
                // A character literal ('x', '\n', '\u{..}'), or a lifetime, kept as it is.
                let end = if c.get(i + 1) == Some(&'\\') {
                    c[i + 3..]
                        .iter()
                        .position(|&x| x == '\'')
                        .map(|p| i + 3 + p)
                } else if c.get(i + 2) == Some(&'\'') {
                    Some(i + 2)
                } else {
                    None
                };
                match end {
                    Some(e) => i = e + 1,
                    None => {
                        out.push('\'');
                        i += 1;
                    }
                }
            }
            x => {
                out.push(x);
                i += 1;
            }
        }
    }
    out
}

/// The name after a `fn` keyword in `code`, if any.
fn fn_name(code: &str) -> Option<(usize, String)> {
    let bytes = code.as_bytes();
    let mut from = 0;
    while let Some(p) = code[from..].find("fn ") {
        let at = from + p;
        let starts_word =
            at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_');
        let name: String = code[at + 3..]
            .trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if starts_word && !name.is_empty() {
            return Some((at + 3, name));
        }
        from = at + 3;
    }
    None
}

/// Every function with a body in `source`.
fn functions(source: &str) -> Vec<Function> {
    let lines: Vec<&str> = source.lines().collect();
    let (mut block, mut open) = (0, None);
    let code: Vec<String> = lines
        .iter()
        .map(|l| code_of(l, &mut block, &mut open))
        .collect();
    let mut found = Vec::new();
    for (i, l) in code.iter().enumerate() {
        let Some((after, name)) = fn_name(l) else {
            continue;
        };
        // From the name on: the body's opening brace, or `;` for a declaration.
        let mut depth = 0usize;
        let mut end = None;
        'scan: for (j, text) in code.iter().enumerate().skip(i) {
            let text = if j == i { &text[after..] } else { &text[..] };
            for ch in text.chars() {
                match ch {
                    ';' if depth == 0 => break 'scan,
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            end = Some(j);
                            break 'scan;
                        }
                    }
                    _ => {}
                }
            }
        }
        let Some(end) = end else { continue };
        let mut above = i;
        while above > 0 && lines[above - 1].trim_start().starts_with("#[") {
            above -= 1;
        }
        let reason = above > 0 && lines[above - 1].trim_start().starts_with("// long:");
        found.push(Function {
            name,
            line: i + 1,
            lines: end - i + 1,
            reason,
        });
    }
    found
}

/// The problems of one source: long functions without a reason, reasons on short ones.
fn problems(file: &str, source: &str) -> Vec<String> {
    let mut out = Vec::new();
    for f in functions(source) {
        if f.lines > MAX_LINES && !f.reason {
            out.push(format!(
                "{file}:{}: `{}` has {} lines (over {MAX_LINES}): split it, or say why above it in a `// long:` comment",
                f.line, f.name, f.lines
            ));
        }
        if f.lines <= MAX_LINES && f.reason {
            out.push(format!(
                "{file}:{}: `{}` has {} lines: its `// long:` comment is no longer needed",
                f.line, f.name, f.lines
            ));
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn functions_are_short_or_say_why() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    let mut all = Vec::new();
    let mut count = 0;
    for path in files {
        let rel = path.strip_prefix(root).expect("a path under the root");
        let source = std::fs::read_to_string(&path).expect("a readable source file");
        count += functions(&source).len();
        all.extend(problems(&rel.display().to_string(), &source));
    }
    // The scan sees the code base's functions (it would pass vacuously otherwise).
    assert!(count > 500, "only {count} functions found in src/");
    assert!(all.is_empty(), "\n{}", all.join("\n"));
}

/// A function of `body` lines between its `fn` line and its closing brace.
fn function_of(name: &str, body: usize, above: &str) -> String {
    let mut s = format!("{above}fn {name}() {{\n");
    for i in 0..body {
        s.push_str(&format!("    let _x{i} = {i};\n"));
    }
    s.push_str("}\n");
    s
}

#[test]
fn the_scan_finds_long_functions_and_reasons() {
    // 99 body lines: 101 with `fn` and `}`.
    let long = function_of("long", 99, "/// Doc.\n");
    assert_eq!(
        functions(&long),
        vec![Function {
            name: "long".into(),
            line: 2,
            lines: 101,
            reason: false
        }]
    );
    assert_eq!(
        problems("x.rs", &long).len(),
        1,
        "a long function is reported"
    );
    let just = function_of("just", 98, "");
    assert!(problems("x.rs", &just).is_empty(), "100 lines are allowed");
    let said = function_of("said", 99, "/// Doc.\n// long: a reason.\n#[inline]\n");
    assert!(
        problems("x.rs", &said).is_empty(),
        "a reason above the attributes"
    );
    let stale = function_of("stale", 3, "// long: no longer.\n");
    assert_eq!(problems("x.rs", &stale).len(), 1, "a reason on a short one");
    let declared = "trait T {\n    fn f(&self);\n    fn g(&self) {}\n}\n";
    let names: Vec<String> = functions(declared).into_iter().map(|f| f.name).collect();
    assert_eq!(names, ["g"], "a declaration has no body");
}

#[test]
fn braces_in_strings_characters_and_comments_are_not_counted() {
    let source = r####"fn tricky<'a>(s: &'a str) -> usize {
    let a = "}}} \" }";
    let b = r#"}" }"#;
    let c = '}';
    let d = '\'';
    let e = b'{';
    // }
    /* } /* } */ } */
    let f = r"\";
    s.len()
}
fn after() {}
"####;
    let found = functions(source);
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!((found[0].name.as_str(), found[0].lines), ("tricky", 11));
    assert_eq!((found[1].name.as_str(), found[1].line), ("after", 12));
}

/// The most lines the README may have: a newcomer's guide, the reference being in `docs/`.
const README_MAX_LINES: usize = 500;

#[test]
fn the_readme_is_a_short_guide() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let lines = readme.lines().count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines, over {README_MAX_LINES}: move reference text to docs/"
    );
}

/// The lines of `text` outside fenced code blocks, with their numbers from 1.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            out.push((i + 1, line));
        }
    }
    out
}

/// A heading's anchor as GitHub writes it: lower case, punctuation but `-` and `_` removed,
/// spaces as `-`.
fn anchor_of(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown text's headings, a repeated one also with `-1`, `-2`... as GitHub
/// numbers them.
fn anchors(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (_, line) in prose_lines(text) {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = anchor_of(&line[hashes..]);
        let seen = out.iter().filter(|a| **a == base).count();
        out.push(base.clone());
        if seen > 0 {
            out.push(format!("{base}-{seen}"));
        }
    }
    out
}

/// The relative link targets of a Markdown text (`[text](target)` outside code), with their
/// line numbers; web and mail addresses are left out.
fn relative_links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in prose_lines(text) {
        // Inline code spans are the odd-numbered pieces between backticks.
        let prose: String = line
            .split('`')
            .enumerate()
            .filter(|(i, _)| i % 2 == 0)
            .map(|(_, s)| s)
            .collect::<Vec<_>>()
            .join(" ");
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let Some(end) = rest.find(')') else { break };
            let target = rest[..end].trim();
            let web = ["http://", "https://", "mailto:"]
                .iter()
                .any(|p| target.starts_with(p));
            if !web && !target.is_empty() {
                out.push((n, target.to_string()));
            }
            rest = &rest[end..];
        }
    }
    out
}

/// What is wrong with the link `target` in `file`: a file that is not there, or an anchor
/// with no heading in the Markdown file it names.
fn broken_link(file: &Path, target: &str) -> Option<String> {
    let (path, anchor) = match target.split_once('#') {
        Some((p, a)) => (p, Some(a)),
        None => (target, None),
    };
    let linked = if path.is_empty() {
        file.to_path_buf()
    } else {
        file.parent().expect("a folder").join(path)
    };
    if !linked.exists() {
        return Some(format!("{target}: no file {}", linked.display()));
    }
    let anchor = anchor?;
    if linked.extension().is_none_or(|x| x != "md") {
        return None;
    }
    let text = std::fs::read_to_string(&linked).expect("a readable Markdown file");
    if anchors(&text).iter().any(|a| a == anchor) {
        None
    } else {
        Some(format!("{target}: no heading with that anchor"))
    }
}

#[test]
fn relative_links_in_the_readme_and_docs_reach_a_file_and_a_heading() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    let mut broken = Vec::new();
    let mut count = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).expect("a readable Markdown file");
        let rel = file.strip_prefix(root).expect("a path under the root");
        for (line, target) in relative_links(&text) {
            count += 1;
            if let Some(why) = broken_link(file, &target) {
                broken.push(format!("{}:{line}: {why}", rel.display()));
            }
        }
    }
    // The scan sees the links (it would pass vacuously otherwise).
    assert!(count > 20, "only {count} relative links found");
    assert!(broken.is_empty(), "\n{}", broken.join("\n"));
}

#[test]
fn the_link_scan_reads_anchors_and_skips_code() {
    assert_eq!(
        anchor_of(" The engine in GUIs (UCI and CECP)"),
        "the-engine-in-guis-uci-and-cecp"
    );
    assert_eq!(anchor_of(" `draw`: 50 moves, e.p._x"), "draw-50-moves-ep_x");
    let text = "# A\n\n```sh\n# not a heading [x](nowhere.md)\n```\n## A\nSee [b](b.md#a-1), \
                `[c](code.md)` and [d](https://example.org).\n";
    assert_eq!(anchors(text), ["a", "a", "a-1"]);
    assert_eq!(relative_links(text), [(7, "b.md#a-1".to_string())]);
}

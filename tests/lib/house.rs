//! House rules a test checks: the README stays a short guide, and every relative link in it
//! and in `docs/` reaches a file and a heading. (Functions over 100 lines: Clippy's
//! `too_many_lines`, set in clippy.toml; each long one says why in its `#[expect]`.)

use std::path::{Path, PathBuf};

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

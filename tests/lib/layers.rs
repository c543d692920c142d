//! The core flows one way: a module may import (`crate::X`) only from its own layer or the
//! layers below it. The table is in `docs/layout.md`.

/// Layers, lowest first. Modules in one layer may use each other.
const LAYERS: &[&[&str]] = &[
    // `files`: reading the files a user names (regular, bounded).
    &["files", "geometry", "moves", "notation"],
    &["tables"],
    // A variant holds its rules' specs, parsed by a catalog handed down from above.
    &["variant"],
    // The network evaluation: its file format, features, accumulators and training.
    &["nnue"],
    // The core: ruleset, positions, generator and the rules' API, one module.
    &["position"],
    // The rules, each against the core's API only (see `rule_files_use_only_the_core_api`).
    &["rules"],
    // Hands the rules' registry to the variant reader and the core.
    &["compile"],
    &["perft", "text", "variant_tests", "export", "lints"],
    &["game"],
    // One game as the front-ends play it: moves read and judged, clocks, endings.
    &["session"],
    &["search"],
    &[
        "selfplay", "tune", "datagen", "testing", "protocol", "referee", "serve",
    ],
    &["cli"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Each `crate::a::b` path in `text` with its line number (from 1), as `a::b`.
fn crate_paths(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(i) = rest.find("crate::") {
            rest = &rest[i + 7..];
            let path: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            out.push((n + 1, path.trim_end_matches(':').to_string()));
        }
    }
    out
}

/// `line: module uses X` for each `crate::X` path in `text` naming a module above `mine`.
fn upward_imports(module: &str, mine: usize, text: &str) -> Vec<String> {
    crate_paths(text)
        .into_iter()
        .filter_map(|(n, path)| {
            let name = path.split("::").next().unwrap_or("").to_string();
            let theirs = layer_of(&name)?;
            (theirs > mine).then(|| format!("{n}: {module} uses {name}"))
        })
        .collect()
}

#[test]
fn no_module_imports_from_a_layer_above_it() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut wrong = Vec::new();
    for f in files {
        let rel = f.strip_prefix(&src).unwrap();
        let top = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let module = top.trim_end_matches(".rs").to_string();
        if matches!(module.as_str(), "lib" | "main") {
            continue;
        }
        let mine = layer_of(&module).unwrap_or_else(|| panic!("src/{module} is in no layer"));
        let text = std::fs::read_to_string(&f).unwrap();
        for w in upward_imports(&module, mine, &text) {
            wrong.push(format!("{}:{w}", rel.display()));
        }
    }
    assert!(
        wrong.is_empty(),
        "imports from a higher layer:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_layer_check_sees_an_upward_import() {
    let moves = layer_of("moves").unwrap();
    let text = "use crate::geometry::Color;\nfn f() { crate::cli::run(); }\n";
    assert_eq!(upward_imports("moves", moves, text), ["2: moves uses cli"]);
    let cli = layer_of("cli").unwrap();
    assert!(upward_imports("cli", cli, text).is_empty());
}

/// What a rule file may import: the data layers below the core, the core's rule API
/// (`position::hooks`), and its own module.
const RULE_API: &[&str] = &["geometry", "moves", "notation", "variant", "rules"];

/// `line: crate::PATH` for each import in `text` that a rule file may not make.
fn outside_rule_api(text: &str) -> Vec<String> {
    crate_paths(text)
        .into_iter()
        .filter(|(_, path)| {
            let top = path.split("::").next().unwrap_or("");
            !(RULE_API.contains(&top) || path.starts_with("position::hooks"))
        })
        .map(|(n, path)| format!("{n}: crate::{path}"))
        .collect()
}

/// A rule never reaches into the generator, the position's insides, the search or the game:
/// everything it uses comes through `position::hooks`.
#[test]
fn rule_files_use_only_the_core_api() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules");
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    assert!(files.len() >= 7, "the rule files are missing");
    let mut wrong = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for w in outside_rule_api(&text) {
            wrong.push(format!("{}:{w}", f.display()));
        }
    }
    assert!(
        wrong.is_empty(),
        "rule files import outside the core API:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_rule_api_check_sees_a_reach_into_the_core() {
    let text = "use crate::position::hooks::{Move, Rule};\nuse crate::position::movegen::generate;\nfn f() { crate::search::go(); }\n";
    assert_eq!(
        outside_rule_api(text),
        [
            "2: crate::position::movegen::generate",
            "3: crate::search::go"
        ]
    );
}

/// Every registered rule is where a newcomer looks for it: `src/rules/NAME.rs` (dashes as
/// underscores), a row of the rules table in `docs/variant-format.md`, and a line in
/// `variants/chess.toml`, the
/// file that documents every key.
#[test]
fn every_rule_has_its_file_its_table_row_and_its_documentation() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let format = std::fs::read_to_string(root.join("docs/variant-format.md")).unwrap();
    let chess = std::fs::read_to_string(root.join("variants/chess.toml")).unwrap();
    let mut missing = Vec::new();
    for r in polymachy::rules::REGISTRY {
        let file = root.join(format!("src/rules/{}.rs", r.name.replace('-', "_")));
        match std::fs::read_to_string(&file) {
            Ok(text) if text.contains(&format!("name: \"{}\"", r.name)) => {}
            _ => missing.push(format!("{}: no {} registering it", r.name, file.display())),
        }
        if !format.contains(&format!("\n| `{}` |", r.name)) {
            missing.push(format!(
                "{}: no row in docs/variant-format.md's rules table",
                r.name
            ));
        }
        if !chess.contains(&format!("[rules.{}]", r.name)) {
            missing.push(format!("{}: not documented in variants/chess.toml", r.name));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// The front-ends: each plays its games through `crate::session`.
const FRONT_ENDS: &[&str] = &["protocol", "referee", "selfplay", "cli", "serve"];

/// `line: crate::PATH` for each path in `text` that goes round the session: the game record
/// (`crate::game`) or the move readers and writers (`crate::text`, whose board drawing
/// `crate::text::board` stays open to all).
fn around_the_session(text: &str) -> Vec<String> {
    crate_paths(text)
        .into_iter()
        .filter(|(_, path)| {
            let top = path.split("::").next().unwrap_or("");
            let board = path == "text::board" || path.starts_with("text::board::");
            top == "game" || (top == "text" && !board)
        })
        .map(|(n, path)| format!("{n}: crate::{path}"))
        .collect()
}

#[test]
fn front_ends_play_through_the_session() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut wrong = Vec::new();
    for module in FRONT_ENDS {
        let mut files = Vec::new();
        let dir = src.join(module);
        if dir.is_dir() {
            rust_files(&dir, &mut files);
        } else {
            files.push(src.join(format!("{module}.rs")));
        }
        assert!(!files.is_empty(), "src/{module} is missing");
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            for w in around_the_session(&text) {
                wrong.push(format!("{}:{w}", f.display()));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "front-ends that go round crate::session:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_session_check_sees_a_way_round() {
    let text = "use crate::game::Game;\nuse crate::text::board::draw;\nlet s = crate::text::coord(r, m);\nuse crate::text::{san, board};\nuse crate::session::coord;\n";
    assert_eq!(
        around_the_session(text),
        [
            "1: crate::game::Game",
            "3: crate::text::coord",
            "4: crate::text"
        ]
    );
}

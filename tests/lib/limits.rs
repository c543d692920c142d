//! A variant file cannot make the engine work without end: the compiler's limits on legs per
//! move, components per movement, paths per movement and table entries per variant refuse a
//! file over them at the notation that breaks them, and equal components are compared once.

use polymachy::position::Ruleset;
use polymachy::tables::{MAX_COMPONENTS, MAX_ENTRIES, MAX_LEGS, MAX_PATHS};
use polymachy::variant::{BUILTIN, Variant};

use crate::common::sixteen;

const FILE: &str = "bomb.toml";

/// The one error line of `text`, which must be refused.
fn refusal(text: &str) -> String {
    match Variant::from_toml(text, FILE) {
        Ok(_) => panic!("should be refused:\n{text}"),
        Err(e) => {
            assert_eq!(e.lines.len(), 1, "{e}");
            e.lines[0].clone()
        }
    }
}

#[test]
fn three_bent_legs_of_a_king_step_are_refused_at_the_notation() {
    // 8 · 7 · 7 · 7 paths: more than the limit, long before any table is built.
    let e = refusal(&sixteen("mamamaK", ""));
    assert!(
        e.starts_with(&format!(
            "{FILE}:9:9: piece King: too many paths: the movement expands into more than {MAX_PATHS} paths (passed at `mamamaK`)"
        )),
        "{e}"
    );
    let e = refusal(&sixteen("mamamamaK", ""));
    assert!(
        e.starts_with(&format!(
            "{FILE}:9:9: piece King: too many legs: `mamamamaK` has 5, at most {MAX_LEGS} per move"
        )),
        "{e}"
    );
    let e = refusal(&sixteen("mamaQ", ""));
    assert!(e.contains("too many paths"), "{e}");
    let e = refusal(&sixteen("mamamamamamamamaK", ""));
    assert!(
        e.contains("too many legs: `mamamamamamamamaK` has 9"),
        "{e}"
    );
}

#[test]
fn a_movement_in_a_zone_has_the_same_limits() {
    let text = sixteen(
        "K",
        "\n[zones]\nfar = { ranks = [9, 10, 11, 12, 13, 14, 15, 16] }\n",
    )
    .replace(
        "royal = true",
        "royal = true\nbetza-in = { far = \"mamamamaK\" }",
    );
    let e = refusal(&text);
    assert!(e.starts_with(&format!("{FILE}:11:20: ")), "{e}");
    assert!(e.contains("piece King: too many legs"), "{e}");
}

#[test]
fn a_piece_s_movements_together_have_the_paths_limit() {
    // Each zone's movement is within the limit (392 paths); together they are not.
    let zones: String = (1..=16)
        .map(|r| format!("z{r} = {{ ranks = [{r}] }}\n"))
        .collect();
    let moves: Vec<String> = (1..=16).map(|r| format!("z{r} = \"mamaK\"")).collect();
    let text = sixteen("K", &format!("\n[zones]\n{zones}")).replace(
        "royal = true",
        &format!("royal = true\nbetza-in = {{ {} }}", moves.join(", ")),
    );
    let e = refusal(&text);
    assert!(
        e.starts_with(&format!(
            "{FILE}:11:"
        )) && e.contains(&format!(
            "piece King: too many paths: its movements together expand into more than {MAX_PATHS} paths"
        )),
        "{e}"
    );
}

#[test]
fn thousands_of_components_are_refused_and_a_repeated_one_is_folded() {
    let e = refusal(&sixteen(&"K".repeat(3000), ""));
    assert!(
        e.starts_with(&format!(
            "{FILE}:9:9: piece King: too many components: 1500 written, at most {MAX_COMPONENTS} per movement"
        )),
        "{e}"
    );
    // The same component 40 times: under the limit, it loads, compiles as one and says so.
    let v = Variant::from_toml(&sixteen(&"fW".repeat(40), ""), FILE).unwrap();
    assert_eq!(
        v.warnings,
        [format!(
            "{FILE}:9:9: warning: piece King: `fW` is written 40 times: once is enough"
        )]
    );
    let rs = Ruleset::new(&v, None).unwrap();
    let one = Ruleset::new(&Variant::from_toml(&sixteen("fW", ""), FILE).unwrap(), None).unwrap();
    assert_eq!(rs.tables.entries.len(), one.tables.entries.len());
}

#[test]
fn a_variant_whose_tables_would_be_too_large_is_refused_at_a_piece() {
    // Each piece is within the limits; together their tables are not.
    let letters = "ABCDEFGHIJLMNOPQ";
    let extra: String = letters
        .chars()
        .map(|l| {
            format!("\n[[piece]]\nname = \"P{l}\"\nletter = \"{l}\"\nbetza = \"mamaKmafmaF\"\n")
        })
        .collect();
    let v = Variant::from_toml(&sixteen("K", &extra), FILE).unwrap();
    let e = Ruleset::new(&v, None).unwrap_err().to_string();
    assert!(e.starts_with(&format!("{FILE}:")), "{e}");
    assert!(
        e.contains(&format!(
            "too many table entries: the variant's move tables would hold more than {MAX_ENTRIES}"
        )),
        "{e}"
    );
}

/// The shipped variants stay well inside every limit (a quarter of it at most), so that a
/// limit never refuses a game the engine ships.
#[test]
fn the_shipped_variants_are_far_from_the_limits() {
    let (mut legs, mut components, mut paths, mut entries) = (0, 0, 0, 0);
    for (name, _) in BUILTIN {
        let v = Variant::load(name).unwrap();
        let movements = v
            .pieces
            .iter()
            .flat_map(|p| std::iter::once(&p.betza).chain(p.betza_in.iter().map(|z| &z.betza)));
        for b in movements {
            components = components.max(b.components.len());
            legs = legs.max(b.components.iter().map(|c| c.legs.len()).max().unwrap_or(0));
            paths = paths.max(polymachy::tables::check_budget(b).unwrap());
        }
        entries = entries.max(Ruleset::new(&v, None).unwrap().tables.entries.len());
    }
    println!(
        "the shipped maxima: {legs} legs, {components} components, {paths} paths, {entries} entries"
    );
    assert!(legs < MAX_LEGS, "{legs} legs");
    assert!(components * 4 <= MAX_COMPONENTS, "{components} components");
    assert!(paths * 4 <= MAX_PATHS, "{paths} paths");
    assert!(entries * 4 <= MAX_ENTRIES, "{entries} entries");
}

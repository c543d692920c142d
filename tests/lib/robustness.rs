//! Bad input never panics: arbitrary text into every reader of user input.

use proptest::prelude::*;

use polymachy::position::{Position, Ruleset};
use polymachy::variant::Variant;

use crate::common::rules;

const META: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/variants/metamachy.toml"
));

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn fen_reader_never_panics(s in "[pnbrqkcmeilgPNBRQKCMEILG0-9/ wb-]{0,80}") {
        for v in ["metamachy", "terachess2", "chess"] {
            let _ = Position::from_fen(&rules(v), &s);
        }
    }

    #[test]
    fn fen_reader_never_panics_on_any_text(s in ".{0,60}") {
        let _ = Position::from_fen(&rules("metamachy"), &s);
    }

    /// A valid file with one stretch cut out and some text put in its place: either it still
    /// loads and compiles, or it is refused with located errors.
    #[test]
    fn variant_reader_never_panics(start in 0usize..META.len(), len in 0usize..40, insert in ".{0,6}") {
        let start = (0..=start).rev().find(|&i| META.is_char_boundary(i)).unwrap();
        let end = (start + len).min(META.len());
        let end = (end..=META.len()).find(|&i| META.is_char_boundary(i)).unwrap();
        let text = format!("{}{}{}", &META[..start], insert, &META[end..]);
        match Variant::from_toml(&text, "mutated.toml") {
            Ok(v) => {
                // Whatever loads must compile, or be refused with a message.
                if let Ok(rs) = Ruleset::new(&v, None) {
                    let mut p = Position::start(&rs);
                    let mut list = polymachy::moves::MoveList::new();
                    p.legal_moves(&mut list);
                }
            }
            Err(e) => {
                prop_assert!(!e.lines.is_empty());
                prop_assert!(e.lines.iter().all(|l| l.starts_with("mutated.toml:")), "{:?}", e.lines);
            }
        }
    }

    #[test]
    fn move_parser_never_panics(s in ".{0,12}", t in "[a-lKQRBNPILGCME][a-l0-9x=+#-]{0,6}") {
        let mut p = Position::start(&rules("metamachy"));
        let _ = polymachy::game::parse_move(&mut p, &s);
        let _ = polymachy::game::parse_move(&mut p, &t);
    }
}

/// The case that once panicked: an error span that ends inside a two-byte character.
#[test]
fn an_error_inside_a_multibyte_character_is_located() {
    let start = (0..=3589)
        .rev()
        .find(|&i| META.is_char_boundary(i))
        .unwrap();
    let end = (start + 14..=META.len())
        .find(|&i| META.is_char_boundary(i))
        .unwrap();
    let text = format!("{}\u{a1} {}", &META[..start], &META[end..]);
    let e = Variant::from_toml(&text, "mutated.toml").unwrap_err();
    assert!(
        e.lines.iter().all(|l| l.starts_with("mutated.toml:")),
        "{:?}",
        e.lines
    );
}

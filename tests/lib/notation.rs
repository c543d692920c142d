//! XBetza parsing, canonical printing and error reporting.

use polymachy::notation::dirs::directions;
use polymachy::notation::{self, Atom, Betza, Component, Leg, Mods, NotationError, Range};
use proptest::prelude::*;

fn canon(text: &str) -> String {
    match notation::parse(text) {
        Ok(b) => b.to_string(),
        Err(e) => panic!("{text:?} should parse: {e}"),
    }
}

fn err(text: &str) -> NotationError {
    match notation::parse(text) {
        Ok(b) => panic!("{text:?} should not parse, got {b:?}"),
        Err(e) => e,
    }
}

/// Asserts the column and that the message (or hint) contains `part`.
fn assert_err(text: &str, column: usize, part: &str) {
    let e = err(text);
    assert_eq!(e.column, column, "column for {text:?}: {e}");
    let full = e.to_string();
    assert!(
        full.contains(part),
        "{text:?}: {full:?} should contain {part:?}"
    );
}

#[test]
fn canonical_pieces_print_unchanged() {
    for s in [
        "fmWfceFfmnnD",
        "KfmnnD",
        "KimAimDimN",
        "FA",
        "C",
        "KNAD",
        "mRcpR",
        "FyafsF",
        "WyafsW",
        "FfrblyaflFflbryafrF",
        "NmpafsyafW",
        "QN",
        "RN",
        "BN",
        "RF",
        "BW",
        "KN",
        "WD",
        "Z",
        "NCZ",
        "mBcpB",
        "mQcpQ",
        "KADGH",
        "GHfmWfcF",
        "ADGH",
        "fmWfceFifmnD",
        "FDH",
        "BN0",
        "fmWfmceFfmnnD",
        "mafsW",
        "R4",
        "N0",
        "fhN",
        "hrN",
        "ffrrN",
        "W99",
    ] {
        assert_eq!(canon(s), s, "canonical string {s:?}");
        let b = notation::parse(s).unwrap();
        assert_eq!(notation::parse(&b.to_string()).unwrap(), b.canonical());
    }
}

#[test]
fn non_canonical_inputs() {
    assert_eq!(canon("mQpcQ"), "mQcpQ");
    assert_eq!(canon("BNN"), "BN0");
    assert_eq!(canon("NN"), "N0");
    assert_eq!(canon("RR"), "R");
    assert_eq!(canon("R0"), "R");
    assert_eq!(canon("QQ"), "Q");
    assert_eq!(canon("KK"), "K0");
    assert_eq!(canon("NNN"), "N0N");
    // Modifiers in canonical order, `i` first, directions as written.
    assert_eq!(canon("fimnD"), "ifmnD");
    assert_eq!(canon("mfW"), "fmW");
    assert_eq!(canon("nmrfnK"), "rfmnnK");
    assert_eq!(canon("jyotgpedcmW"), "mcdetpgoyjW");
    // Multi-leg components move after single-leg ones, keeping their order.
    assert_eq!(canon("mafsWF"), "FmafsW");
    assert_eq!(canon("mafsWNyafFD"), "NDmafsWyafF");
    // Duplicates go.
    assert_eq!(canon("WFW"), "WF");
}

#[test]
fn reordering_never_glues_atoms() {
    // W, mafF, W2: moving mafF last would give "WW2"; the bare W2 goes first instead.
    let b = notation::parse("WmafFW2").unwrap();
    assert_eq!(b.components.len(), 3);
    assert_eq!(b.to_string(), "W2WmafF");
    assert_eq!(notation::parse(&b.to_string()).unwrap(), b.canonical());
    let b = notation::parse("fNmafFNlNaWN0").unwrap();
    assert_eq!(notation::parse(&b.to_string()).unwrap(), b.canonical());
    assert_eq!(b.to_string(), "N0NfNlNmafFaW");
}

#[test]
fn parse_structure() {
    let b = notation::parse("KfmnnD").unwrap();
    assert_eq!(b.components.len(), 2);
    let d = &b.components[1];
    assert_eq!(d.atom, Atom::D);
    assert_eq!(d.range, Range::Default);
    assert_eq!(d.legs.len(), 1);
    assert_eq!(d.legs[0].dirs, "f");
    assert_eq!(
        d.legs[0].mods,
        Mods {
            m: true,
            n: 2,
            ..Mods::default()
        }
    );

    let b = notation::parse("FyafsF").unwrap();
    assert_eq!(b.components.len(), 2);
    let c = &b.components[1];
    assert_eq!(c.legs.len(), 2);
    assert_eq!(c.legs[0].dirs, "");
    assert!(c.legs[0].mods.y);
    assert_eq!(c.legs[1].dirs, "fs");
    assert_eq!(c.legs[1].mods, Mods::default());

    let b = notation::parse("BNN").unwrap();
    assert_eq!(
        b.components,
        vec![
            Component {
                legs: vec![Leg::default()],
                atom: Atom::B,
                range: Range::Default,
            },
            Component {
                legs: vec![Leg::default()],
                atom: Atom::N,
                range: Range::Unlimited,
            },
        ]
    );
    assert_eq!(
        notation::parse("N0").unwrap(),
        notation::parse("NN").unwrap()
    );
    assert_eq!(
        notation::parse("R4").unwrap().components[0].range,
        Range::Limited(4)
    );
    assert_eq!(notation::parse("KNAD").unwrap().components.len(), 4);

    // `i` anywhere in the first leg; direction order kept; modifiers interleaved.
    let b = notation::parse("fmiWrnlcF").unwrap();
    assert!(b.components[0].legs[0].mods.initial);
    assert_eq!(b.components[1].legs[0].dirs, "rl");
    assert_eq!(b.components[1].legs[0].mods.n, 1);
    // Components are not reordered by parse.
    let b = notation::parse("mafsWF").unwrap();
    assert_eq!(b.components[0].atom, Atom::W);
    assert_eq!(b.components[1].atom, Atom::F);
    // Modifier `j` doubled.
    assert_eq!(
        notation::parse("jjW").unwrap().components[0].legs[0].mods.j,
        2
    );
}

#[test]
fn direction_semantics_through_parse() {
    let b = notation::parse("FfrblyaflF").unwrap();
    let c = &b.components[1];
    assert_eq!(
        directions(c.atom, &c.legs[0].dirs).unwrap(),
        vec![(1, 1), (-1, -1)]
    );
    assert_eq!(directions(Atom::K, &c.legs[1].dirs).unwrap(), vec![(-1, 1)]);
}

#[test]
fn empty_and_trailing_prefix() {
    assert_err("", 1, "empty");
    assert_err("fm", 3, "found end of input");
    assert_err("fm", 3, "expected a direction (f b l r v s h), a modifier");
    assert_err("fm", 3, "an atom letter (W F D N A H C Z G K Q R B)");
    assert_err("WfmaFfm", 8, "end of input");
    assert_err("Wa", 3, "end of input");
}

#[test]
fn rejected_letters() {
    assert_err("J", 1, "found 'J'");
    assert_err("J", 1, "write C for the (3,1) Camel, Z for the (3,2) Zebra");
    assert_err("fmL", 3, "Z for the (3,2) Zebra");
    assert_err("WX", 2, "found 'X'");
    assert_err("Y", 1, "not supported");
    assert_err(
        "KO",
        2,
        "castling is a rule in the variant file's [rules] table",
    );
    assert_err("U", 1, "found 'U'");
    assert_err("W@", 2, "found '@'");
    assert_err("zW", 1, "multi-leg a notation");
    assert_err("fqN", 2, "found 'q'");
    assert_err(
        "xW",
        1,
        "found 'x', expected a direction (f b l r v s h), a modifier (i m c e p g y n j), 'a' or an atom letter (W F D N A H C Z G K Q R B)",
    );
    assert_err("uW", 1, "found 'u'");
    assert_err("kW", 1, "found 'k'");
    assert_err("W#", 2, "found '#'");
    assert_err("[W]", 1, "found '['");
    assert_err("W]", 2, "found ']'");
    assert_err("W ", 2, "found ' '");
    assert_err("Wé", 2, "found 'é'");
    assert_err("éW", 1, "found 'é'");
    assert_err("fwW", 2, "found 'w'");
    assert_err("E", 1, "found 'E'");
}

#[test]
fn rejected_numbers() {
    assert_err("3", 1, "found '3'");
    assert_err("3", 1, "a range follows an atom letter");
    assert_err("f3W", 2, "found '3'");
    assert_err("W05", 2, "leading zero");
    assert_err("W123", 2, "'123'");
    assert_err("NN2", 3, "found '2'");
    assert_err("NN2", 3, "doubled atom");
    assert_err("BNN0", 4, "found '0'");
}

#[test]
fn rejected_directions() {
    assert_err("sF", 1, "found 's'");
    assert_err("sF", 1, "on diagonal atoms use f/b/l/r or pairs like fr");
    assert_err("fvA", 2, "found 'v'");
    assert_err("WfmsG", 4, "found 's'");
    assert_err("mfcsB", 4, "pairs like fr");
    assert_err("hW", 1, "found 'h'");
    assert_err("fhD", 2, "found 'h'");
    assert_err("fmhR", 3, "found 'h'");
    assert_err("hK", 1, "found 'h'");
    assert_err("hB", 1, "found 'h'");
    assert_err("hN", 1, "found 'h'");
    assert_err("hfN", 2, "found 'f'");
    assert_err("hrfN", 3, "mixed");
    assert_err("ffhN", 3, "found 'h'");
    // Later legs use the K system.
    assert_err("mafhW", 4, "found 'h'");
    assert_err("FyahF", 4, "later leg");
}

#[test]
fn rejected_structure() {
    assert_err("mafsN", 5, "found the oblique atom 'N'");
    assert_err(
        "mafsN",
        5,
        "build the path from W and F legs, e.g. mafsW for a lame knight",
    );
    assert_err("KafC", 4, "oblique");
    assert_err("yaZ", 3, "oblique");
    assert_err("mnnnW", 4, "third 'n'");
    assert_err("jjjW", 3, "third 'j'");
}

#[test]
fn error_display() {
    let e = err("J");
    assert!(e.to_string().starts_with("column 1: found 'J'"));
    assert!(e.hint.is_some());
}

// ---------------------------------------------------------------------------------------------
// Property tests.

const ATOMS: [Atom; 13] = Atom::ALL;

fn is_oblique(atom: Atom) -> bool {
    matches!(atom, Atom::N | Atom::C | Atom::Z)
}

/// Direction letters that `directions(atom, _)` accepts.
fn dirs_for(atom: Atom) -> BoxedStrategy<String> {
    let letters: Vec<char> = match atom {
        Atom::F | Atom::A | Atom::G | Atom::B => "fblr".chars().collect(),
        Atom::N | Atom::C | Atom::Z => "fblrvsh".chars().collect(),
        _ => "fblrvs".chars().collect(),
    };
    let free = prop::collection::vec(prop::sample::select(letters), 0..=4)
        .prop_map(|v| v.into_iter().collect::<String>())
        .prop_filter("valid directions", move |s| directions(atom, s).is_ok());
    if is_oblique(atom) {
        prop_oneof![
            4 => free,
            1 => prop::sample::select(vec!["hr".to_owned(), "hl".to_owned()]),
        ]
        .boxed()
    } else {
        free.boxed()
    }
}

fn mods() -> impl Strategy<Value = Mods> {
    (
        any::<[bool; 10]>(),
        prop::sample::select(vec![0u8, 0, 0, 1, 2]),
        prop::sample::select(vec![0u8, 0, 0, 1, 2]),
    )
        .prop_map(|(f, n, j)| Mods {
            initial: f[0],
            m: f[1],
            c: f[2],
            d: f[3],
            e: f[4],
            t: f[5],
            p: f[6],
            g: f[7],
            o: f[8],
            y: f[9],
            n,
            j,
        })
}

fn leg(dirs: BoxedStrategy<String>) -> impl Strategy<Value = Leg> {
    (dirs, mods()).prop_map(|(dirs, mods)| Leg { dirs, mods })
}

fn range() -> impl Strategy<Value = Range> {
    prop_oneof![
        3 => Just(Range::Default),
        1 => Just(Range::Unlimited),
        1 => (1u8..=99).prop_map(Range::Limited),
    ]
}

fn component() -> impl Strategy<Value = Component> {
    prop::sample::select(ATOMS.to_vec()).prop_flat_map(|atom| {
        let max_legs = if is_oblique(atom) { 1 } else { 3 };
        (
            leg(dirs_for(atom)),
            prop::collection::vec(leg(dirs_for(Atom::K)), 0..max_legs),
            range(),
        )
            .prop_map(move |(first, rest, range)| {
                let mut legs = vec![first];
                legs.extend(rest);
                Component { legs, atom, range }
            })
    })
}

/// Mostly bare components, so that neighbours with the same atom are common.
fn betza() -> impl Strategy<Value = Betza> {
    let bare =
        (prop::sample::select(ATOMS.to_vec()), range()).prop_map(|(atom, range)| Component {
            legs: vec![Leg::default()],
            atom,
            range,
        });
    prop::collection::vec(prop_oneof![component(), bare], 1..=6)
        .prop_map(|components| Betza { components })
}

fn check_round_trip(b: &Betza) -> Result<(), TestCaseError> {
    let printed = b.to_string();
    let reparsed = notation::parse(&printed)
        .map_err(|e| TestCaseError::fail(format!("{printed:?} from {b:?} does not parse: {e}")))?;
    prop_assert_eq!(&reparsed, &b.canonical(), "printed {:?}", printed);
    prop_assert_eq!(reparsed.to_string(), printed);
    prop_assert_eq!(b.canonical().canonical(), b.canonical());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn printed_asts_parse_back(b in betza()) {
        check_round_trip(&b)?;
    }

    #[test]
    fn arbitrary_strings_never_panic(s in ".{0,20}") {
        check_parse(&s)?;
    }

    #[test]
    fn xbetza_alphabet_strings(s in "[fblrvshimcdetpgoynjaWFDNAHCZGKQRB0-9JLXYOUzqxuk@#]{0,20}") {
        check_parse(&s)?;
    }

    #[test]
    fn likely_valid_strings(s in "([fblrvsimcdetpgoynja]{0,4}[WFDNAHCZGKQRB][0-9]?){1,5}") {
        check_parse(&s)?;
    }

    /// Whatever parses can be told in words: one sentence, never empty, never "unknown".
    #[test]
    fn every_parsed_piece_has_words(s in "([fblrvsimcdetpgoynja]{0,4}[WFDNAHCZGKQRB][0-9]?){1,5}") {
        if let Ok(b) = notation::parse(&s) {
            let text = notation::words::describe(&b);
            prop_assert!(text.len() > 10, "{:?}: {:?}", s, text);
            prop_assert!(text.ends_with('.'), "{:?}: {:?}", s, text);
            prop_assert!(!text.contains("unknown"), "{:?}: {:?}", s, text);
        }
    }
}

fn check_parse(s: &str) -> Result<(), TestCaseError> {
    match notation::parse(s) {
        Ok(b) => {
            prop_assert!(!b.components.is_empty());
            check_round_trip(&b)
        }
        Err(e) => {
            prop_assert!(
                e.column >= 1 && e.column <= s.chars().count() + 1,
                "{:?}: {}",
                s,
                e
            );
            prop_assert!(e.message.starts_with("found"), "{:?}: {}", s, e);
            Ok(())
        }
    }
}

// Sittuyin's Pawn promotes by a rule, so it is written without a letter, and a promotion by a
// diagonal step names its square, as pyffish 0.0.90 (Fairy-Stockfish's "sittuyin") writes
// them: `d5=F` in place, `d5e4=F` by a step, `d6` the plain step.
#[test]
fn sittuyin_promotions_are_written_as_fairy_stockfish_writes_them() {
    let rs = crate::common::rules("sittuyin");
    let mut p = crate::common::pos(&rs, "8/1k6/8/3P4/8/8/8/K7[] w - - 0 1");
    for (uci, written) in [("d5d5f", "d5=F"), ("d5e4f", "d5e4=F"), ("d5d6", "d6")] {
        let mv = polymachy::game::parse_move(&mut p, uci).unwrap();
        assert_eq!(polymachy::text::san::san(&mut p, mv), written, "{uci}");
        assert_eq!(
            polymachy::game::parse_move(&mut p, written),
            Ok(mv),
            "{written}"
        );
    }
}

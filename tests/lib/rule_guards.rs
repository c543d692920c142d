//! Rule definitions that cannot work are refused when the variant is read or compiled, with a
//! message naming the cause; and a side's last royal piece never promotes away.

use std::sync::Arc;

use polymachy::moves::MoveList;
use polymachy::position::{Position, Ruleset};
use polymachy::variant::Variant;

/// A King and Rook game on `files`x8 with `start` and extra rule text.
fn variant(start: &str, files: u8, rules: &str) -> String {
    format!(
        "name = \"Guard\"\nfiles = {files}\nranks = 8\nstart = \"{start}\"\n\n\
         [[piece]]\nname = \"King\"\nletter = \"K\"\nbetza = \"K\"\nroyal = true\n\n\
         [[piece]]\nname = \"Rook\"\nletter = \"R\"\nbetza = \"R\"\n\n{rules}"
    )
}

/// The error of reading or compiling `text`, which must fail.
fn refusal(text: &str) -> String {
    match Variant::from_toml(text, "guard.toml") {
        Err(e) => e.lines.join("\n"),
        Ok(v) => match Ruleset::new(&v, None) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("should be refused:\n{text}"),
        },
    }
}

fn compiles(text: &str) -> Arc<Ruleset> {
    let v = Variant::from_toml(text, "guard.toml").unwrap_or_else(|e| panic!("{e}"));
    Ruleset::new(&v, None).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn castling_with_two_royal_pieces_is_refused() {
    let t = variant(
        "r2kk2r/8/8/8/8/8/8/R2KK2R",
        8,
        "[rules.castling]\n[rules.last-royal]\n",
    );
    let e = refusal(&t);
    assert!(
        e.contains("one royal piece per side") && e.contains("d1, e1"),
        "{e}"
    );
}

#[test]
fn castling_across_a_hole_is_refused() {
    let e = refusal(&variant(
        "r3k1*r/8/8/8/8/8/8/R3K1*R",
        8,
        "[rules.castling]\n",
    ));
    assert!(e.contains("crosses g1, a hole"), "{e}");
    // The same board without the hole castles.
    compiles(&variant("r3k2r/8/8/8/8/8/8/R3K2R", 8, "[rules.castling]\n"));
}

#[test]
fn a_king_distance_reaching_the_partner_is_refused() {
    let e = refusal(&variant(
        "1r2k2r/8/8/8/8/8/8/1R2K2R",
        8,
        "[rules.castling]\nking-distance = 3\n",
    ));
    assert!(e.contains("reach or pass its partner on h1"), "{e}");
    // Two squares stop short of both rooks: accepted.
    compiles(&variant(
        "1r2k2r/8/8/8/8/8/8/1R2K2R",
        8,
        "[rules.castling]\n",
    ));
}

fn setup(squares: &str) -> String {
    variant(
        "4k2r/8/8/8/8/8/8/4K2R",
        8,
        &format!("[rules.setup-choice]\nsquares = [{squares}]\ndefault = \"KR\"\n"),
    )
}

#[test]
fn setup_choice_squares_are_checked() {
    compiles(&setup("\"e1\", \"h1\""));
    let e = refusal(&setup("\"e1\", \"e1\""));
    assert!(e.contains("lists e1 twice"), "{e}");
    let e = refusal(&setup("\"e1\", \"h8\""));
    assert!(e.contains("h8 is not on white's half"), "{e}");
    // On a board of 9 ranks the fifth is the middle: no side's.
    let odd = "name = \"Odd\"\nfiles = 8\nranks = 9\nstart = \"4k2r/8/8/8/8/8/8/8/4K2R\"\n\n\
         [[piece]]\nname = \"King\"\nletter = \"K\"\nbetza = \"K\"\nroyal = true\n\n\
         [[piece]]\nname = \"Rook\"\nletter = \"R\"\nbetza = \"R\"\n\n\
         [rules.setup-choice]\nsquares = [\"e1\", \"e5\"]\ndefault = \"KR\"\n";
    let e = refusal(odd);
    assert!(e.contains("e5 is not on white's half"), "{e}");
}

/// A King and a royal Prince (which promotes to a Queen) under `last-royal`.
const PRINCE: &str = "name = \"Prince\"\nfiles = 6\nranks = 6\nstart = \"3k2/6/6/6/P5/K5\"\n\n\
    [[piece]]\nname = \"King\"\nletter = \"K\"\nbetza = \"K\"\nroyal = true\n\n\
    [[piece]]\nname = \"Prince\"\nletter = \"P\"\nbetza = \"K\"\nroyal = true\npromotes-to = \"Q\"\n\n\
    [[piece]]\nname = \"Queen\"\nletter = \"Q\"\nbetza = \"Q\"\n\n\
    [rules.promotion]\nzone = 1\n[rules.last-royal]\n";

fn promotions(rs: &Arc<Ruleset>, fen: &str) -> usize {
    let mut p = Position::from_fen(rs, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut l = MoveList::new();
    p.legal_moves(&mut l);
    l.iter().filter(|m| m.promotion().is_some()).count()
}

#[test]
fn the_last_royal_piece_never_promotes_away() {
    let rs = compiles(PRINCE);
    // With the King beside it, the Prince promotes on a6 and b6.
    assert_eq!(promotions(&rs, "3k2/P5/6/6/6/K5 w - - 0 1"), 2);
    // Alone, it is the last royal piece: no promotion.
    assert_eq!(promotions(&rs, "3k2/P5/6/6/6/6 w - - 0 1"), 0);
}

#[test]
fn stalemate_values_name_the_stalemated_side() {
    use polymachy::position::hooks::Stalemate;
    for (value, expected) in [
        ("stalemated-wins", Stalemate::Win),
        ("win", Stalemate::Win),
        ("stalemated-loses", Stalemate::Loss),
        ("loss", Stalemate::Loss),
        ("draw", Stalemate::Draw),
    ] {
        let t = variant(
            "4k3/8/8/8/8/8/8/4K3",
            8,
            &format!("[rules.draw]\nstalemate = \"{value}\"\n"),
        );
        assert_eq!(compiles(&t).draws.stalemate, expected, "{value}");
    }
    let e = refusal(&variant(
        "4k3/8/8/8/8/8/8/4K3",
        8,
        "[rules.draw]\nstalemate = \"lose\"\n",
    ));
    assert!(e.contains("stalemated-loses"), "{e}");
}

/// A variant with one extra piece `X` moving by `betza`; the piece's `betza` is on line 15.
fn with_piece(betza: &str) -> Variant {
    let t = format!(
        "name = \"Warn\"\nfiles = 8\nranks = 8\nstart = \"4k3/8/8/8/8/8/8/3XK3\"\n\n\
         [[piece]]\nname = \"King\"\nletter = \"K\"\nbetza = \"K\"\nroyal = true\n\n\
         [[piece]]\nname = \"Odd\"\nletter = \"X\"\nbetza = \"{betza}\"\n"
    );
    Variant::from_toml(&t, "warn.toml").unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn notation_that_collapses_to_a_simpler_piece_is_warned_of() {
    let v = with_piece("FyafvF");
    assert_eq!(
        v.warnings,
        vec![
            "warn.toml:15:9: warning: piece Odd: `FyafvF` moves exactly like `B`: write `B`, or check the notation"
                .to_string()
        ]
    );
    let v = with_piece("WfW");
    assert!(
        v.warnings.iter().any(|w| w.contains("`fW` adds no move")),
        "{:?}",
        v.warnings
    );
    // Plain and meaningful notation: no warning.
    for b in ["B", "WfF", "mWcF", "NB", "ifmnD", "fmWfceFifmnD"] {
        assert!(
            with_piece(b).warnings.is_empty(),
            "{b}: {:?}",
            with_piece(b).warnings
        );
    }
}

#[test]
fn no_shipped_game_draws_a_warning() {
    for (name, _) in polymachy::variant::BUILTIN {
        let v = Variant::load(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(v.warnings.is_empty(), "{name}: {:?}", v.warnings);
    }
}

/// Four pieces arranged on a1-d1 (King, Rook, Queen, Bishop), `constraints` added to the
/// setup-choice table.
fn arranged(constraints: &str) -> Variant {
    arranged_from("4k3/8/8/8/8/8/8/KQBR4", constraints)
}

/// [`arranged`] from the start placement `start`.
fn arranged_from(start: &str, constraints: &str) -> Variant {
    let t = format!(
        "name = \"Arrange\"\nfiles = 8\nranks = 8\nstart = \"{start}\"\n\n\
         [[piece]]\nname = \"King\"\nletter = \"K\"\nbetza = \"K\"\nroyal = true\n\n\
         [[piece]]\nname = \"Rook\"\nletter = \"R\"\nbetza = \"R\"\n\n\
         [[piece]]\nname = \"Queen\"\nletter = \"Q\"\nbetza = \"Q\"\n\n\
         [[piece]]\nname = \"Bishop\"\nletter = \"B\"\nbetza = \"B\"\n\n\
         [rules.setup-choice]\nsquares = [\"a1\", \"b1\", \"c1\", \"d1\"]\ndefault = \"KQBR\"\n{constraints}\n"
    );
    Variant::from_toml(&t, "arrange.toml").unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn setup_choices_constrain_any_piece() {
    let v = arranged(
        "royal-files = [\"a\", \"b\"]\npiece-files = { R = [\"a\", \"d\"], B = [\"c\", \"d\"] }",
    );
    // Accepted: King a or b, Rook a or d, Bishop c or d.
    assert!(Ruleset::new(&v, Some("KQBR")).is_ok());
    assert!(Ruleset::new(&v, Some("RKBQ")).is_ok());
    let e = Ruleset::new(&v, Some("KRQB")).unwrap_err().to_string();
    assert!(
        e.contains("puts the Rook on the b file") && e.contains("a or d"),
        "{e}"
    );
    let e = Ruleset::new(&v, Some("KBRQ")).unwrap_err().to_string();
    assert!(e.contains("puts the Bishop on the b file"), "{e}");
    // Counted: K on a: R on d, B on c, Q on b (1); K on b: R a or d, B c or d (3): 4 setups.
    let rs = Ruleset::new(&v, Some("KQBR")).unwrap();
    let explained = setup_choice_words(&rs);
    assert!(explained.contains("(4 arrangements)"), "{explained}");
    assert!(
        explained.contains("The Rook must stand on the a or d file"),
        "{explained}"
    );
    // A letter no piece has, and a file off the board, are errors.
    for (bad, words) in [
        (
            "piece-files = { X = [\"a\"] }",
            "no piece has the letter `X`",
        ),
        (
            "piece-files = { R = [\"z\"] }",
            "expected file letters of this board",
        ),
    ] {
        let t = format!(
            "name = \"Arrange\"\nfiles = 8\nranks = 8\nstart = \"4k3/8/8/8/8/8/8/KQBR4\"\n\n\
             [[piece]]\nname = \"King\"\nletter = \"K\"\nbetza = \"K\"\nroyal = true\n\n\
             [[piece]]\nname = \"Rook\"\nletter = \"R\"\nbetza = \"R\"\n\n\
             [[piece]]\nname = \"Queen\"\nletter = \"Q\"\nbetza = \"Q\"\n\n\
             [[piece]]\nname = \"Bishop\"\nletter = \"B\"\nbetza = \"B\"\n\n\
             [rules.setup-choice]\nsquares = [\"a1\", \"b1\", \"c1\", \"d1\"]\ndefault = \"KQBR\"\n{bad}\n"
        );
        let e = match Variant::from_toml(&t, "arrange.toml") {
            Err(e) => e.lines.join("\n"),
            Ok(_) => panic!("should be refused: {bad}"),
        };
        assert!(e.contains(words), "{bad}: {e}");
    }
}

/// Four pieces on a1-d1 arranged by a setup choice, and Black's on a8-d8 by its mirror;
/// `extra` added to the setup-choice table.
fn each_side(extra: &str) -> Variant {
    arranged_from("8/8/8/8/8/8/8/KQBR4", extra)
}

// With `each-side`, a setup `A/B` arranges each side its own way (Janggi's Horses and
// Elephants); one arrangement alone is mirrored; each half is checked like one arrangement.
// Without it, the other side mirrors the chooser, and `A/B` is refused.
#[test]
fn each_side_may_arrange_its_own_pieces() {
    let start = |v: &Variant, setup: &str| {
        polymachy::position::Position::start(&Ruleset::new(v, Some(setup)).unwrap()).fen()
    };
    let v = each_side("each-side = true");
    assert_eq!(start(&v, "KQBR/KBQR"), "kbqr4/8/8/8/8/8/8/KQBR4 w - - 0 1");
    assert_eq!(start(&v, "QKBR"), "qkbr4/8/8/8/8/8/8/QKBR4 w - - 0 1");
    let e = Ruleset::new(&v, Some("KQBR/KQBB")).unwrap_err().to_string();
    assert!(
        e.contains("setup `KQBB` is not an arrangement of KQBR"),
        "{e}"
    );
    let rs = Ruleset::new(&v, None).unwrap();
    let explained = setup_choice_words(&rs);
    assert!(
        explained.contains("each side arranges its King, Queen, Bishop and Rook"),
        "{explained}"
    );
    let v = each_side("");
    let e = Ruleset::new(&v, Some("KQBR/RBQK")).unwrap_err().to_string();
    assert!(
        e.contains("the other side mirrors the chooser's arrangement, so a setup names one"),
        "{e}"
    );
}

/// The setup-choice rule's explanation, as the page and `variants --toml` give it.
fn setup_choice_words(rs: &Ruleset) -> String {
    rs.compiled_rules()
        .iter()
        .find(|h| h.name() == "setup-choice")
        .unwrap()
        .explain(rs)
}

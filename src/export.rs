//! A variant written for another program: a Fairy-Stockfish `variants.ini` section
//! (`polymachy export --fsf`).
//!
//! What maps cleanly is written with the keys Fairy-Stockfish 11.1 reads (later versions read
//! them too): the board, the pieces (Fairy-Stockfish's own piece types where the movement is
//! the same, `customPiece` slots with the movement in its Betza dialect otherwise), the start
//! position, promotion, castling, the Pawn's double step, drops, the draw rules, the flying
//! general, the bare King and Makruk's counting. Everything else is named in [`Export::gaps`],
//! and written in the section as `#` comments: the section is then partial.
//!
//! Fairy-Stockfish names every piece type by a letter. A piece without a letter of its own
//! (written `+X`, the promoted form of `X`) is the promoted type of `X`, which its FENs write
//! `+X` as Polymachy's do; the section gives it a letter no other piece has
//! ([`Variant::stand_in_letters`]), or, where it moves as another piece of the game, that
//! piece's type. A piece written with a letter and a prime (`N'`, a kind of its own) is a
//! piece type of its own: the section gives it a letter no other piece has, and its FENs
//! (`startFen`) write it by that letter. One that needs a letter where every letter is taken
//! is a gap.

use crate::geometry::Color;
use crate::notation::{Atom, Betza, Component, Range};
use crate::position::Ruleset;
use crate::position::hooks::Stalemate;
use crate::rules::{
    BareKingSpec, CastlingSpec, CountingSpec, DropsSpec, GatingSpec, GoalSquaresSpec, PromotionSpec,
};
use crate::variant::{RuleSpec, Variant};

/// A section for Fairy-Stockfish and what it leaves out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Export {
    /// The section, `[NAME]` then `key = value` lines (with the gaps as `#` comments).
    pub text: String,
    /// What the section cannot express, each a sentence; empty when it is complete.
    pub gaps: Vec<String>,
    /// It defines custom pieces (`customPiece`, a custom `king`), which Fairy-Stockfish
    /// reads from version 12 on (11.1 does not).
    pub custom_pieces: bool,
}

/// Fairy-Stockfish's piece types with their movement as Polymachy writes it (canonical
/// XBetza; several spellings where Fairy-Stockfish reads one movement several ways).
const FSF_PIECES: &[(&str, &[&str])] = &[
    ("knight", &["N"]),
    ("bishop", &["B"]),
    ("rook", &["R"]),
    ("queen", &["Q"]),
    ("fers", &["F"]),
    ("alfil", &["A"]),
    ("fersAlfil", &["FA"]),
    ("silver", &["FfW"]),
    ("aiwok", &["NFR", "FNR", "RNF"]),
    ("bers", &["FR", "RF"]),
    ("archbishop", &["NB", "BN"]),
    ("chancellor", &["NR", "RN"]),
    ("amazon", &["NQ", "QN"]),
    ("shogiPawn", &["fW"]),
    ("lance", &["fR"]),
    ("shogiKnight", &["ffN", "fN"]),
    ("gold", &["WfF"]),
    ("dragonHorse", &["WB", "BW"]),
    ("cannon", &["mRcpR"]),
    ("horse", &["nN"]),
    ("elephant", &["nA"]),
    ("wazir", &["W"]),
    ("commoner", &["K"]),
    ("centaur", &["KN", "NK"]),
];

/// The Fairy-Stockfish piece type moving as `b`, if one does.
fn builtin_piece(b: &Betza) -> Option<&'static str> {
    let text = b.to_string();
    FSF_PIECES.iter().find_map(|(name, spellings)| {
        spellings
            .iter()
            .any(|s| crate::notation::parse(s).is_ok_and(|p| p.to_string() == text))
            .then_some(*name)
    })
}

/// Whether Fairy-Stockfish's custom pieces (its Betza subset) express component `c`: one
/// leg; modes `m`, `c`, `p`/`g` only on rook and bishop lines, `n` only on N, A, Z and D;
/// riders only along W, F and N lines.
fn fsf_component(c: &Component) -> bool {
    if c.legs.len() != 1 {
        return false;
    }
    let m = &c.legs[0].mods;
    if m.initial || m.d || m.e || m.t || m.o || m.y || m.j > 0 || m.n > 1 {
        return false;
    }
    let slides = matches!(c.atom, Atom::R | Atom::B | Atom::Q)
        || (matches!(c.atom, Atom::W | Atom::F) && c.range != Range::Default);
    if (m.p || m.g) && !(slides && matches!(c.atom, Atom::R | Atom::B | Atom::W | Atom::F)) {
        return false;
    }
    if m.n == 1 && !matches!(c.atom, Atom::N | Atom::A | Atom::Z | Atom::D) {
        return false;
    }
    let rider = c.range != Range::Default && !matches!(c.atom, Atom::R | Atom::B | Atom::Q);
    !rider || matches!(c.atom, Atom::W | Atom::F | Atom::N)
}

/// How one piece is written: a Fairy-Stockfish piece type or a custom piece.
enum PieceLine {
    Builtin(&'static str),
    Custom(String),
}

/// Writes the variant of `rules` (compiled without a setup choice) as a Fairy-Stockfish
/// section called `name`.
#[expect(
    clippy::too_many_lines,
    reason = "one pass over the variant's parts, each written or named as a gap in file order"
)]
pub fn fsf(rules: &std::sync::Arc<Ruleset>, name: &str) -> Export {
    let v: &Variant = &rules.variant;
    let mut gaps: Vec<String> = Vec::new();
    let mut lines: Vec<String> = Vec::new();
    let promoted_forms: Vec<usize> = (0..v.pieces.len())
        .filter(|&k| v.pieces[k].demotes_to.is_some())
        .collect();
    let as_other = |k: usize| promoted_forms.contains(&k) && same_as_other(v, k).is_some();
    let stand_in = letters(v);
    let lower = |k: usize| stand_in[k].unwrap_or('?').to_ascii_lowercase();
    lines.push(format!("maxRank = {}", v.ranks));
    lines.push(format!("maxFile = {}", v.files));
    if v.files > 12 || v.ranks > 10 {
        gaps.push(format!(
            "the board is {}x{}: Fairy-Stockfish's largest is 12 files by 10 ranks",
            v.files, v.ranks
        ));
    }
    if !v.holes.is_empty() {
        gaps.push("the board's holes (`*`): Fairy-Stockfish's boards are rectangles".into());
    }
    let spec = |n: &str| v.rules.iter().find(|r| r.name() == n).map(|r| r.as_ref());
    let promotion: Option<&PromotionSpec> = spec("promotion").and_then(downcast);
    // The Pawn: a piece that steps forward, captures diagonally forward, and perhaps steps
    // twice from its start; Fairy-Stockfish's `pawn`, with the double step as a rule.
    let mut pawn: Option<usize> = None;
    let mut double_step = false;
    let mut pawn_ep = false;
    let mut custom = 0;
    let mut custom_king = false;
    let mut royal_seen = false;
    for (k, p) in v.pieces.iter().enumerate() {
        let letter = lower(k);
        if stand_in[k].is_none() && !as_other(k) {
            gaps.push(format!(
                "{}: it has no letter of its own ({}), and every letter is taken for a \
                 Fairy-Stockfish piece type",
                p.name, p.symbol
            ));
            continue;
        }
        if p.royal {
            if royal_seen {
                gaps.push(format!(
                    "{}: a second royal kind (Fairy-Stockfish has one royal piece a side)",
                    p.name
                ));
                continue;
            }
            royal_seen = true;
            if p.betza.to_string() == "K" {
                lines.push(format!("king = {letter}"));
            } else if p.betza.components.iter().all(fsf_component) {
                lines.push(format!("king = {letter}:{}", p.betza));
                custom_king = true;
            } else {
                lines.push(format!("king = {letter}"));
                gaps.push(format!(
                    "{}: its movement `{}` (written as a plain King)",
                    p.name, p.betza_text
                ));
            }
            continue;
        }
        if let Some((true, ds, ep)) = pawn_shape(&p.betza)
            && pawn.is_none()
        {
            pawn = Some(k);
            double_step = ds;
            pawn_ep = ep;
            lines.push(format!("pawn = {letter}"));
            continue;
        }
        if as_other(k) {
            continue;
        }

        let soldier_rank = soldier(v, k);
        let line = match (soldier_rank, builtin_piece(&p.betza)) {
            (Some(r), _) => {
                lines.push(format!("soldierPromotionRank = {r}"));
                PieceLine::Builtin("soldier")
            }
            (None, Some(n)) => PieceLine::Builtin(n),
            (None, None) => {
                let all = p.betza.canonical().components;
                let ok: Vec<Component> = all.iter().filter(|c| fsf_component(c)).cloned().collect();
                if ok.len() < all.len() {
                    gaps.push(format!(
                        "{}: its movement `{}` has parts Fairy-Stockfish's Betza cannot write (multi-leg moves, `i`, `j`, `nn`, `e` outside the Pawn...)",
                        p.name, p.betza_text
                    ));
                }
                PieceLine::Custom(Betza { components: ok }.to_string())
            }
        };
        match line {
            PieceLine::Builtin(n) => lines.push(format!("{n} = {letter}")),
            PieceLine::Custom(b) => {
                custom += 1;
                lines.push(format!("customPiece{custom} = {letter}:{b}"));
            }
        }
        if !p.no_screen.is_empty() || !p.no_capture.is_empty() {
            gaps.push(format!(
                "{}: the kinds it may not hop over or take (`no-screen`, `no-capture`)",
                p.name
            ));
        }
        if !p.betza_within.is_empty() {
            gaps.push(format!(
                "{}: its movement kept inside a zone (`betza-within`)",
                p.name
            ));
        }
        if !p.betza_in.is_empty() && soldier_rank.is_none() {
            gaps.push(format!(
                "{}: its movement where it stands in a zone (`betza-in`)",
                p.name
            ));
        }
    }

    // Pieces confined to a zone: the mobility regions.
    for (k, p) in v.pieces.iter().enumerate() {
        let Some(z) = p.confined else { continue };
        let Some(type_name) = type_name_of(&lines, lower(k)) else {
            continue;
        };
        let cap = capitalised(&type_name);
        for (side, color) in [("White", Color::White), ("Black", Color::Black)] {
            let g = rules.geometry;
            let squares: Vec<String> = g
                .squares()
                .filter(|&sq| v.zones[z].contains(color, sq))
                .map(|sq| g.name(sq).to_string())
                .collect();
            lines.push(format!("mobilityRegion{side}{cap} = {}", squares.join(" ")));
        }
    }
    // The start position: castling rights are the only ones Fairy-Stockfish reads; a piece
    // written `N'` is written by its letter.
    let fen = v.with_stand_ins(&crate::position::Position::start(rules).fen(), &stand_in);
    let castling: Option<&CastlingSpec> = spec("castling").and_then(downcast);
    let other_rights = ["king-leap", "royal-swap"]
        .iter()
        .any(|n| spec(n).is_some());
    let fen = if other_rights {
        let mut f: Vec<&str> = fen.split(' ').collect();
        if f.len() > 2 {
            f[2] = if castling.is_some() { "KQkq" } else { "-" };
        }
        f.join(" ")
    } else {
        fen
    };
    lines.push(format!("startFen = {fen}"));
    // Promotion.
    let promoting: Vec<usize> = (0..v.pieces.len())
        .filter(|&k| !v.pieces[k].promotes_to.is_empty())
        .collect();
    if let Some(ps) = promotion {
        if ps.named.is_some() || !ps.piece_zones.is_empty() {
            gaps.push("a promotion zone given by name or per piece".into());
        }
        lines.push(format!(
            "promotionRank = {}",
            v.ranks + 1 - ps.zone.min(v.ranks)
        ));
        let mut piece_map = Vec::new();
        for &k in &promoting {
            let p = &v.pieces[k];
            if Some(k) == pawn {
                let types: String = p.promotes_to.iter().map(|&t| lower(t)).collect();
                lines.push(format!("promotionPieceTypes = {types}"));
                if ps.optional {
                    lines.push("mandatoryPawnPromotion = false".into());
                    if ps.compulsory_zone > 1 {
                        gaps.push(format!(
                            "promotion compulsory on the last {} ranks (Fairy-Stockfish: on the last only)",
                            ps.compulsory_zone
                        ));
                    }
                }
                if ps.lost_only {
                    let limits: Vec<String> = p
                        .promotes_to
                        .iter()
                        .map(|&t| {
                            let n = v
                                .placement
                                .iter()
                                .filter(|x| **x == Some((t, Color::White)))
                                .count();
                            format!("{}:{n}", lower(t))
                        })
                        .collect();
                    lines.push(format!("promotionLimit = {}", limits.join(" ")));
                }
            } else if p.promotes_to.len() == 1 {
                let t = p.promotes_to[0];
                let to = same_as_other(v, t).map_or(lower(t), lower);
                piece_map.push(format!("{}:{to}", lower(k)));
            } else {
                gaps.push(format!(
                    "{} promotes to one of several kinds (Fairy-Stockfish: only its Pawn does)",
                    p.name
                ));
            }
        }
        if !piece_map.is_empty() {
            lines.push(format!("promotedPieceType = {}", piece_map.join(" ")));
            if ps.optional {
                lines.push("mandatoryPiecePromotion = false".into());
            }
            if !ps.leaving {
                gaps.push(
                    "promotion only on arriving (Fairy-Stockfish also promotes a move that leaves the zone)"
                        .into(),
                );
            }
        }
        if ps.where_stuck {
            lines.push("immobilityIllegal = true".into());
        }
        if ps.inside_by_capture {
            gaps.push(
                "promotion inside the zone only by a capture (`inside-by-capture`: Chu Shogi)"
                    .into(),
            );
        }
    }
    // The Pawn's double step and en passant.
    if pawn.is_some() {
        if double_step {
            let k = pawn.unwrap_or(0);
            let ranks: Vec<u8> = (0..v.placement.len())
                .filter(|&i| v.placement[i] == Some((k, Color::White)))
                .map(|i| (i / v.files as usize) as u8 + 1)
                .collect();
            let rank = ranks.iter().copied().min().unwrap_or(2);
            if ranks.iter().any(|&r| r != rank) {
                gaps.push("Pawns that start on several ranks".into());
            }
            lines.push(format!("doubleStepRank = {rank}"));
            if rank == 1 {
                lines.push("firstRankDoubleSteps = true".into());
            }
            if !pawn_ep {
                gaps.push("a double step with no en-passant capture".into());
            }
        } else {
            lines.push("doubleStep = false".into());
        }
    } else {
        lines.push("doubleStep = false".into());
    }
    // Castling.
    match castling {
        None => lines.push("castling = false".into()),
        Some(c) => castling_lines(v, c, &stand_in, &mut lines, &mut gaps),
    }
    // Drops.
    if let Some(d) = spec("drops").and_then(downcast::<DropsSpec>) {
        lines.push("pieceDrops = true".into());
        lines.push(format!("capturesToHand = {}", d.captures));
        // Promoted forms go to a hand as what they were made from, as in Fairy-Stockfish.
        let all: Vec<usize> = (0..v.pieces.len())
            .filter(|&k| !v.pieces[k].royal && v.pieces[k].demotes_to.is_none())
            .collect();
        if d.kinds.len() < all.len() {
            gaps.push("drops of some kinds only".into());
        }
        if !d.one_per_file.is_empty() {
            lines.push("shogiDoubledPawn = false".into());
        }
        if d.must_drop {
            lines.push("mustDrop = true".into());
        }
        if !d.no_mate_drop.is_empty() {
            lines.push("shogiPawnDropMateIllegal = true".into());
            if !d.mate_drop_loses {
                gaps.push(
                    "a Pawn drop that mates is no move (Fairy-Stockfish lists it and scores it lost)"
                        .into(),
                );
            }
        }
        let where_stuck = promotion.is_some_and(|p| p.where_stuck);
        for (k, ranks) in &d.no_drop_ranks {
            let pawn_default =
                Some(*k) == pawn && ranks.iter().all(|&r| r == 0 || r + 1 == v.ranks);
            // Where it could never move: Fairy-Stockfish's `immobilityIllegal`.
            let stuck = where_stuck
                && forward_reach(&v.pieces[*k].betza).is_some_and(|n| {
                    let mut want: Vec<u8> = (v.ranks - n..v.ranks).collect();
                    let mut got = ranks.clone();
                    want.sort_unstable();
                    got.sort_unstable();
                    want == got
                });
            if !pawn_default && !stuck {
                gaps.push(format!("no drops of {} on some ranks", v.pieces[*k].name));
            }
        }
    }
    // Endings.
    let d = &rules.draws;
    lines.push(format!(
        "stalemateValue = {}",
        match d.stalemate {
            Stalemate::Draw => "draw",
            Stalemate::Win => "win",
            Stalemate::Loss => "loss",
        }
    ));
    lines.push(format!("nFoldRule = {}", d.repetition));
    lines.push(format!("nMoveRule = {}", d.move_limit));
    if d.perpetual_check_loses {
        lines.push("perpetualCheckIllegal = true".into());
    }
    if let Some(loser) = d.repetition_loser {
        lines.push(format!(
            "nFoldValue = {}",
            if loser == Color::White { "loss" } else { "win" }
        ));
        lines.push("nFoldValueAbsolute = true".into());
    }
    if spec("flying-general").is_some() {
        lines.push("flyingGeneral = true".into());
    }
    if let Some(b) = spec("bare-king").and_then(downcast::<BareKingSpec>) {
        lines.push("extinctionValue = loss".into());
        lines.push("extinctionClaim = true".into());
        lines.push("extinctionPieceTypes = *".into());
        lines.push("extinctionPieceCount = 1".into());
        lines.push("extinctionOpponentPieceCount = 2".into());
        if !b.answer {
            gaps.push("a bare King that loses at once (`answer = false`)".into());
        }
    }
    if let Some(gs) = spec("goal-squares").and_then(downcast::<GoalSquaresSpec>) {
        let kinds: Vec<usize> = match &gs.pieces {
            Some(k) => k.clone(),
            None => (0..v.pieces.len()).filter(|&k| v.pieces[k].royal).collect(),
        };
        if let [k] = kinds.as_slice() {
            lines.push(format!("flagPiece = {}", lower(*k)));
            for (color, side) in [(Color::White, "White"), (Color::Black, "Black")] {
                let g = rules.geometry;
                let squares: Vec<String> = g
                    .squares()
                    .filter(|&sq| v.zones[gs.zone].contains(color, sq))
                    .map(|sq| g.name(sq).to_string())
                    .collect();
                lines.push(format!("flagRegion{side} = {}", squares.join(" ")));
            }
        } else {
            gaps.push("goal squares for more than one kind of piece (goal-squares)".into());
        }
    }
    if let Some(c) = spec("counting").and_then(downcast::<CountingSpec>) {
        if c.from_pieces {
            lines.push("countingRule = makruk".into());
            if c.board != 64 || c.otherwise != 64 || c.pieces.len() != 5 {
                gaps.push("counting numbers other than Makruk's".into());
            }
        } else {
            lines.push("countingRule = asean".into());
            if c.board != 0 || c.otherwise != 0 || c.pieces.len() != 3 {
                gaps.push("counting numbers other than ASEAN chess's".into());
            }
        }
    }
    if let Some(gt) = spec("gating").and_then(downcast::<GatingSpec>) {
        lines.push("gating = true".into());
        lines.push("seirawanGating = true".into());
        let all_in_hand = v.start_hand.iter().all(|(k, _)| gt.pieces.contains(k));
        if gt.rank != 0 || !all_in_hand || spec("drops").is_some() {
            gaps.push(
                "gating from another rank than the first, of only some kinds in hand, or beside drops (gating)"
                    .into(),
            );
        }
    }
    for r in &v.rules {
        let what: std::borrow::Cow<'_, str> = match r.name() {
            "king-leap" => "the royal piece's leap to distance two (king-leap)".into(),
            "en-passant" if ep_pawns_only(r.as_ref(), pawn) => continue,
            "en-passant" => "who may capture and be captured en passant (en-passant)".into(),
            "initial-ranks" => "first moves from other ranks (initial-ranks)".into(),
            "promotion-by-move" => "promotion by some moves only (promotion-by-move)".into(),
            "setup-choice" => {
                "the setup choice (setup-choice; the default setup is written)".into()
            }
            "last-royal" => "several royal pieces, the last one counting (last-royal)".into(),
            "royal-succession" => "the royal succession (royal-succession)".into(),
            "royal-swap" => "the royal piece's swap (royal-swap)".into(),
            // Written above.
            "castling" | "promotion" | "drops" | "draw" | "flying-general" | "bare-king"
            | "goal-squares" | "counting" | "gating" => continue,
            other => format!("the rule `{other}`").into(),
        };
        gaps.push(format!("no Fairy-Stockfish key: {what}"));
    }
    let mut text = format!("[{name}]\n");
    text.push_str(&format!(
        "# {} ({}), written by polymachy export --fsf\n",
        v.title, v.id
    ));
    if custom > 0 || custom_king {
        text.push_str("# custom pieces: needs Fairy-Stockfish 12 or later\n");
    }
    for g in &gaps {
        text.push_str(&format!("# cannot express: {g}\n"));
    }
    for l in lines {
        text.push_str(&l);
        text.push('\n');
    }
    Export {
        text,
        gaps,
        custom_pieces: custom > 0 || custom_king,
    }
}

/// Whether an en-passant rule names only the Pawn, as Fairy-Stockfish plays it.
fn ep_pawns_only(r: &dyn RuleSpec, pawn: Option<usize>) -> bool {
    let Some(e) = downcast::<crate::rules::EnPassantSpec>(r) else {
        return false;
    };
    let only = |l: &Option<Vec<usize>>| {
        l.as_ref()
            .is_none_or(|ks| ks.iter().all(|&k| Some(k) == pawn))
    };
    pawn.is_some() && only(&e.capturers) && only(&e.victims)
}

/// How many ranks forward a piece that only ever moves forward reaches at most in one move
/// (`fW`, `fR`: 1; `ffN`: 2); `None` when it has another move.
fn forward_reach(b: &Betza) -> Option<u8> {
    let mut reach = 0;
    for c in &b.canonical().components {
        let dirs = &c.legs.first()?.dirs;
        if c.legs.len() != 1 || dirs.is_empty() || dirs.chars().any(|d| d != 'f') {
            return None;
        }
        reach = reach.max(c.atom.leap().0);
    }
    (reach > 0).then_some(reach)
}

fn downcast<S: RuleSpec>(s: &dyn RuleSpec) -> Option<&S> {
    (s as &dyn std::any::Any).downcast_ref::<S>()
}

/// Whether `b` is a Pawn as Fairy-Stockfish's `pawn` moves, perhaps with a double step from
/// its start square: (a pawn, has the double step, captures en passant).
fn pawn_shape(b: &Betza) -> Option<(bool, bool, bool)> {
    let mut step = false;
    let mut capture = false;
    let mut ep = false;
    let mut double = false;
    for c in &b.canonical().components {
        match c.to_string().as_str() {
            "fmW" => step = true,
            "fcF" => capture = true,
            "fceF" => {
                capture = true;
                ep = true;
            }
            "ifmnD" => double = true,
            _ => return Some((false, false, false)),
        }
    }
    Some((step && capture, double, ep))
}

/// The letter of each kind in a Fairy-Stockfish section ([`Variant::stand_in_letters`]): its
/// own, or for a kind without one a stand-in, except for a promoted form that moves as another
/// piece of the game, which is that piece promoted and needs none. FENs and moves for the
/// section write a piece written `N'` by its letter here ([`Variant::with_stand_ins`]).
pub fn letters(v: &Variant) -> Vec<Option<char>> {
    v.stand_in_letters(|k| v.pieces[k].demotes_to.is_none() || same_as_other(v, k).is_none())
}

/// Another kind of the game (without `demotes-to`) that moves exactly as kind `k`.
fn same_as_other(v: &Variant, k: usize) -> Option<usize> {
    let b = v.pieces[k].betza.to_string();
    (0..v.pieces.len()).find(|&o| {
        o != k
            && v.pieces[o].demotes_to.is_none()
            && !v.pieces[o].royal
            && v.pieces[o].betza.to_string() == b
    })
}

/// Xiangqi's Soldier: `fW`, and `fsW` in a zone of whole ranks from some rank to the last:
/// Fairy-Stockfish's `soldier` with `soldierPromotionRank`; returns that rank.
fn soldier(v: &Variant, k: usize) -> Option<u8> {
    let p = &v.pieces[k];
    if p.betza.to_string() != "fW"
        || p.betza_in.len() != 1
        || p.betza_in[0].betza.to_string() != "fsW"
    {
        return None;
    }
    let z = &v.zones[p.betza_in[0].zone];
    let g = crate::geometry::Geometry::new(v.files, v.ranks);
    let first =
        (0..v.ranks).find(|&r| (0..v.files).all(|f| z.contains(Color::White, g.square(f, r))))?;
    let whole = (0..v.ranks)
        .all(|r| (0..v.files).all(|f| z.contains(Color::White, g.square(f, r)) == (r >= first)));
    whole.then_some(first + 1)
}

/// The Fairy-Stockfish type name a line gives letter `l` (`knight` for `knight = n`).
fn type_name_of(lines: &[String], l: char) -> Option<String> {
    lines.iter().find_map(|line| {
        let (k, val) = line.split_once(" = ")?;
        (val.starts_with(l) && (val.len() == 1 || val[1..].starts_with(':'))).then(|| {
            if k == "king" {
                "King".to_string()
            } else {
                k.to_string()
            }
        })
    })
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
        None => String::new(),
    }
}

/// Castling: the King's destination files and rank, and the partner's type (`letters`: each
/// kind's letter in the section).
fn castling_lines(
    v: &Variant,
    c: &CastlingSpec,
    letters: &[Option<char>],
    lines: &mut Vec<String>,
    gaps: &mut Vec<String>,
) {
    if c.distances.len() != 1 {
        gaps.push("castling by a choice of distances".into());
    }
    let d = c.distances.first().copied().unwrap_or(2);
    let files = v.files as usize;
    let Some(i) = (0..v.placement.len())
        .find(|&i| v.placement[i].is_some_and(|(k, col)| col == Color::White && v.pieces[k].royal))
    else {
        return;
    };
    let (kf, rank) = (i % files, i / files);
    let letter = |f: usize| (b'a' + f as u8) as char;
    if kf + (d as usize) < files {
        lines.push(format!(
            "castlingKingsideFile = {}",
            letter(kf + d as usize)
        ));
    }
    if kf >= d as usize {
        lines.push(format!(
            "castlingQueensideFile = {}",
            letter(kf - d as usize)
        ));
    }
    lines.push(format!("castlingRank = {}", rank + 1));
    let Some(partner) = letters[c.partner].map(|l| l.to_ascii_lowercase()) else {
        gaps.push(format!(
            "castling with {} ({}), which has no letter in the section",
            v.pieces[c.partner].name, v.pieces[c.partner].symbol
        ));
        return;
    };
    if partner != 'r' || v.pieces[c.partner].betza.to_string() != "R" {
        lines.push(format!("castlingRookPiece = {partner}"));
    }
}

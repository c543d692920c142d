//! The game's state for the page, as JSON: board, legal moves, history, clocks, engine.

use std::time::Instant;

use serde_json::{Value, json};

use crate::geometry::{Color, Geometry, Square};
use crate::moves::{EMPTY, Move, MoveKind};
use crate::position::Position;
use crate::position::Ruleset;
use crate::search::Score;
use crate::session::Session;

use super::*;
use super::{analysis::*, table::*};

/// The most moves of a principal variation shown.
pub(super) const PV_SHOWN: usize = 12;

/// A principal variation from the current position of `game` in the SAN-like form, cut where a
/// move is not legal.
pub(super) fn pv_san(game: &Session, pv: &[Move]) -> Vec<String> {
    pv_san_from(game.position(), pv)
}

/// [`pv_san`] from the position `pos`.
pub(super) fn pv_san_from(pos: &Position, pv: &[Move]) -> Vec<String> {
    crate::session::san_line(pos, &pv[..pv.len().min(PV_SHOWN)])
}

/// A score as text: `+0.35`, `#3`.
pub(super) fn score_text(s: Score) -> String {
    s.to_string()
}

pub(super) fn negate(s: Score) -> Score {
    match s {
        Score::Cp(c) => Score::Cp(-c),
        Score::Mate(m) => Score::Mate(-m),
    }
}

/// Every square's piece name ([`crate::variant::PieceDef::symbol`], Black's in lower case:
/// `P`, `+p`), a1 first, rank by rank (`files × ranks` entries): `""` for an
/// empty square and for a hole.
pub(super) fn board_json(pos: &Position) -> Vec<String> {
    let rules = pos.rules();
    let g = rules.geometry;
    (0..g.size())
        .map(|i| {
            let sq = Square::from_index(i);
            let c = if g.is_hole(sq) {
                EMPTY
            } else {
                pos.piece_at(sq)
            };
            if c == EMPTY {
                String::new()
            } else {
                rules.symbol(c)
            }
        })
        .collect()
}

/// The moves of the game for the move list: SAN, squares, and whether each captured or checked.
/// `text` is the move in the variant's notation (see [`super::culture::notate_move`]).
pub(super) fn history_json(game: &Session) -> Vec<Value> {
    let mut pos = game.start_position().clone();
    game.moves()
        .iter()
        .map(|&mv| move_json(&mut pos, mv))
        .collect()
}

/// One move of the move list, played from `pos` (which it then makes).
pub(super) fn move_json(pos: &mut Position, mv: Move) -> Value {
    move_json_listed(pos, mv, None, None)
}

/// [`move_json`], given the legal moves of `pos` and of the position after `mv` where they
/// are listed already (see [`crate::session::san_listed`]).
pub(super) fn move_json_listed(
    pos: &mut Position,
    mv: Move,
    legal: Option<&[Move]>,
    replies: Option<&[Move]>,
) -> Value {
    let rules = pos.rules().clone();
    let g = rules.geometry;
    let capture = crate::session::is_capture(pos, mv);
    let san = crate::session::san_listed(pos, mv, legal, replies);
    let before = pos.clone();
    pos.make(mv);
    let played = crate::session::Played {
        mv,
        coord: String::new(),
        san,
        fen: String::new(),
        capture,
        check: pos.in_check(),
    };
    let text = super::culture::notate_move(&rules, &before, &played);
    json!({"san": played.san, "text": text, "from": sq_name(g, mv.from), "to": sq_name(g, mv.to),
           "capture": capture, "check": played.check})
}

/// What the page draws besides squares and pieces (the variant's `[display]` table): whether
/// pieces stand on points, the corner squares of each rectangle crossed by diagonals, the
/// rank (from 1) below the river; the sides' names (the side that moves first, upper case,
/// first), whether the board is plain, the piece set and the notation.
pub(super) fn display_json(d: &crate::variant::Display, g: &Geometry) -> Value {
    let diagonals: Vec<Value> = d
        .diagonals
        .iter()
        .map(|&[f0, r0, f1, r1]| {
            json!({"from": g.name(g.square(f0, r0)).to_string(),
                   "to": g.name(g.square(f1, r1)).to_string()})
        })
        .collect();
    let names = d
        .side_names
        .clone()
        .unwrap_or_else(|| ["White".into(), "Black".into()]);
    json!({"points": d.points, "diagonals": diagonals, "river": d.river,
           "side_names": names, "board": if d.plain { "plain" } else { "checkered" },
           "pieces": d.pieces.as_deref().unwrap_or("western"),
           "notation": d.notation.as_deref().unwrap_or("san")})
}

/// One position for the page: board, FEN, side to move, the move that led there, check.
pub(super) fn position_json(pos: &Position, last: Option<Move>) -> Value {
    let g = pos.rules().geometry;
    let side = pos.side();
    let check = if pos.in_check() {
        pos.royal_square(side).map(|sq| sq_name(g, sq))
    } else {
        None
    };
    // Pieces in hand, per side: [name, count] for each kind held (games with drops).
    let rules = pos.rules();
    let hand = |c: Color| -> Vec<Value> {
        (0..rules.variant.pieces.len())
            .filter(|&k| pos.hand(c, k) > 0)
            .map(|k| json!([rules.variant.pieces[k].symbol, pos.hand(c, k)]))
            .collect()
    };
    json!({
        "board": board_json(pos),
        "fen": pos.fen(),
        "side": side_name(side),
        "last": last.map(|m| json!({"from": drop_or_square(pos.rules(), m), "to": sq_name(g, m.to)})),
        "check": check,
        "hands": rules.has_hands().then(|| json!({"white": hand(Color::White), "black": hand(Color::Black)})),
    })
}

/// Where a move comes from for the page: its square, or `@L` for a drop of the piece `L`.
pub(super) fn drop_or_square(rules: &Ruleset, m: Move) -> String {
    match m.dropped() {
        Some(k) => format!("@{}", rules.variant.pieces[k].symbol),
        None => sq_name(rules.geometry, m.from),
    }
}

/// What a legal move is, in words, where several moves share a from and a to square.
pub(super) fn move_words(rules: &Ruleset, m: Move) -> String {
    if let Some(k) = m.promotion() {
        return rules.variant.pieces[k].name.clone();
    }
    if rules.special_for(m).is_some() {
        return "castle".into();
    }
    match m.kind {
        MoveKind::EnPassant => "take en passant".into(),
        MoveKind::Drop => "drop".into(),
        // A Lion's double move: by the square it passes (and back, for its capture without
        // moving and its pass).
        MoveKind::Locust => {
            let via = rules.geometry.name(crate::geometry::Square::new(m.aux));
            if m.from == m.to {
                format!("via {via} and back")
            } else {
                format!("via {via}")
            }
        }
        MoveKind::Rule => rules
            .compiled_rules()
            .get(m.aux as usize)
            .map_or("step", |h| h.move_word())
            .into(),
        _ => "step".into(),
    }
}

/// The states last sent, kept for answers of what changed since one of them.
pub(super) const SENT_KEPT: usize = 4;

/// The game's state for the page, kept as sent (see [`state_since`]).
pub(super) fn state_json(sid: &str, s: &mut Table) -> Value {
    let v = state_value(sid, s);
    note_sent(sid, s, &v);
    v
}

/// Keeps `v`, the state just sent to `sid`, among the last [`SENT_KEPT`].
fn note_sent(sid: &str, s: &mut Table, v: &Value) {
    let version = v["version"].as_str().unwrap_or_default().to_string();
    s.sent.retain(|(i, ver, _)| !(i == sid && *ver == version));
    if s.sent.len() >= SENT_KEPT {
        s.sent.pop_front();
    }
    s.sent.push_back((sid.to_string(), version, v.clone()));
}

/// The fields of the state whose lists only grow between two states (the move list): sent as
/// the entries added where the old list begins the new one.
const GROWING: [&str; 2] = ["history", "moves"];

/// The game's state for `sid` as only what changed since the state of version `since` that
/// this address was sent: `{delta: true, since, version, changed: {field: value},
/// appended: {history: [...], moves: [...]}}`; the whole state where `since` is absent or no
/// longer kept.
pub(super) fn state_since(sid: &str, s: &mut Table, since: Option<&str>) -> Value {
    let now = state_value(sid, s);
    let old = since.and_then(|v| {
        s.sent
            .iter()
            .find(|(i, ver, _)| i == sid && ver == v)
            .map(|e| e.2.clone())
    });
    let out = match (old, now.as_object()) {
        (Some(Value::Object(old)), Some(fields)) => {
            let mut changed = serde_json::Map::new();
            let mut appended = serde_json::Map::new();
            for (k, v) in fields {
                match (old.get(k), v) {
                    (Some(o), _) if o == v => {}
                    (Some(Value::Array(o)), Value::Array(n))
                        if GROWING.contains(&k.as_str())
                            && n.len() >= o.len()
                            && n[..o.len()] == o[..] =>
                    {
                        appended.insert(k.clone(), Value::Array(n[o.len()..].to_vec()));
                    }
                    _ => {
                        changed.insert(k.clone(), v.clone());
                    }
                }
            }
            json!({"delta": true, "since": since, "version": now["version"],
                   "changed": changed, "appended": appended})
        }
        _ => now.clone(),
    };
    note_sent(sid, s, &now);
    out
}

/// The game's state for the page, as it is now.
fn state_value(sid: &str, s: &mut Table) -> Value {
    s.check_flag();
    let version = s.version();
    let rules = s.game.rules().clone();
    let g = rules.geometry;
    let pos = s.game.position().clone();
    let verdict = s.game.verdict();
    let over = verdict.is_some();
    let legal: Vec<Value> = if over {
        Vec::new()
    } else {
        s.legal()
            .iter()
            .map(|&m| {
                json!({
                    "from": drop_or_square(&rules, m),
                    "to": sq_name(g, m.to),
                    "promo": m.promotion().map(|k| rules.variant.pieces[k].symbol.clone()),
                    "uci": s.game.coord(m),
                    "words": move_words(&rules, m),
                })
            })
            .collect()
    };
    let side = pos.side();
    let result = verdict.map(|v| json!({"result": v.result.pgn(), "reason": v.to_string()}));
    // Every score on the page is from one side, White's, as the evaluation bar is.
    let view = Color::White;
    let score = match (s.report.score, s.report.searched_for) {
        (Some(sc), Some(by)) => {
            let sc = if by == view { sc } else { negate(sc) };
            Some(score_text(sc))
        }
        _ => None,
    };
    let history = s.history();
    let running = (!over && s.clocks_run()).then_some(side);
    let can_undo = !s.game.moves().is_empty() && !s.lost_on_time();
    let start = s.game.start_position();
    let mut out = position_json(&pos, s.game.last_move());
    // Whom this address is for, in a shared game; its own tab also gets the others'.
    let you = match s.role(sid) {
        Some(Role::Seat(c)) => json!({"side": side_name(c), "watch": false}),
        Some(Role::Watch) => json!({"side": null, "watch": true}),
        None => Value::Null,
    };
    let links: Option<Value> = (s.host.as_deref() == Some(sid)).then(|| {
        let of = |want: &dyn Fn(Role) -> bool| {
            s.roles
                .iter()
                .find(|(o, r)| o != sid && want(*r))
                .map(|(o, _)| o.clone())
        };
        json!({"friend": of(&|r| matches!(r, Role::Seat(_))), "watch": of(&|r| r == Role::Watch)})
    });

    let fields = json!({
        "sid": sid,
        "version": version.to_string(),
        "you": you,
        "links": links,
        "variant": {"id": rules.variant.id, "name": rules.variant.title,
                    "files": g.files, "ranks": g.ranks,
                    "holes": rules.variant.holes.iter().map(|&h| g.name(h).to_string()).collect::<Vec<_>>(),
                    "display": display_json(&rules.variant.display, &g)},
        "setup": rules.setup,
        "legal": legal,
        "start": {"number": start.fullmove_number(), "side": side_name(start.side()), "fen": start.fen()},
        "moves": history.iter().map(|h| h["san"].clone()).collect::<Vec<_>>(),
        "history": history,
        "result": result,
        "can_undo": can_undo,
        "players": {"white": s.players[0].name(), "black": s.players[1].name()},
        "movetime_ms": s.movetime.map(|d| d.as_millis() as u64),
        "depth": s.depth,
        "nodes": s.nodes,
        "engine": {
            "thinking": s.thinking(),
            "paused": s.paused,
            "depth": s.report.depth,
            "nodes": s.report.nodes,
            "score": score,
            "score_view": side_name(view),
            "pv": s.report.pv,
        },
        "clocks": clock::json(&s.game, s.control, running, Instant::now()),
        "analysis": analysis_json(s),
        "review": super::review::review_json(s),
    });
    if let (Some(o), Value::Object(f)) = (out.as_object_mut(), fields) {
        o.extend(f);
    }
    out
}

/// One earlier position of the game (`GET /api/position?sid=S&ply=N`).
pub(super) fn ply_json(s: &Table, query: &str) -> Result<Value, ApiError> {
    let plies = s.game.moves().len();
    let (ply, pos) = query
        .split('&')
        .find_map(|kv| kv.strip_prefix("ply="))
        .and_then(|p| p.parse::<usize>().ok())
        .and_then(|p| Some((p, s.game.position_at(p)?)))
        .ok_or_else(|| bad(format!("`ply` must be a whole number from 0 to {plies}")))?;
    let last = ply.checked_sub(1).map(|i| s.game.moves()[i]);
    let mut v = position_json(&pos, last);
    v["ply"] = json!(ply);
    Ok(v)
}

//! The browser page, driven in headless Chromium through the DevTools protocol (over
//! `--remote-debugging-pipe`: JSON messages ended by a NUL byte on file descriptors 3 and 4).
//!
//! Mouse presses and releases are dispatched at the centres of the board's squares, as a
//! player's clicks would be; keys are dispatched as key events; the page's state is read back
//! with `Runtime.evaluate`. The tests play Metamachy's first moves and a checkmate, step
//! through the move list, let a clock run out (and refuse to take it back), end a game on the
//! result banner and play a rematch, keep three analysis lines on screen, check the form, the
//! focus ring and a phone's width, find the clocks at the board's edges, type moves, play a
//! premove, analyse an earlier position, play an uploaded variant file with holes and a setup
//! choice, check the move numbers with the engine as White, check that Xiangqi's board shows
//! its points, palace diagonals and river where its `[display]` table puts them, and save
//! screenshots at a laptop's and a phone's size (`target/browser/*.png`) with the squares' size
//! checked. Every board the page shows is compared with the position Polymachy computes.
//!
//! Needs Chromium (`chromium` on Debian). Without it the tests fail when `CI` is set and
//! otherwise skip with a message.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use polymachy::game::Game;
use polymachy::position::Ruleset;
use polymachy::variant::Variant;
use serde_json::{Value, json};

mod common;

fn chromium() -> Option<PathBuf> {
    common::find_program(&["chromium", "chromium-browser", "google-chrome"])
}

unsafe extern "C" {
    fn fcntl(fd: i32, cmd: i32, ...) -> i32;
    fn dup2(old: i32, new: i32) -> i32;
}
const F_DUPFD: i32 = 0;

/// Kills and reaps a child when dropped.
struct Reaped(Child);

impl Drop for Reaped {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A DevTools connection attached to one page.
struct Browser {
    _child: Reaped,
    to: std::io::PipeWriter,
    from: BufReader<std::io::PipeReader>,
    next_id: u64,
    session: Option<String>,
    _profile: common::TempDir,
}

impl Browser {
    fn launch(exe: &PathBuf) -> Browser {
        // One profile folder per browser: the tests run side by side, and two browsers on
        // one profile clash.
        static LAUNCHED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let profile = std::env::temp_dir().join(format!(
            "polymachy-browser-test-{}-{}",
            std::process::id(),
            LAUNCHED.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&profile).unwrap();
        let (their_in, to) = std::io::pipe().unwrap();
        let (from, their_out) = std::io::pipe().unwrap();
        use std::os::fd::AsRawFd;
        let (a, b) = (their_in.as_raw_fd(), their_out.as_raw_fd());
        let mut cmd = Command::new(exe);
        cmd.args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-extensions",
            "--remote-debugging-pipe",
            "--window-size=1400,1000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("about:blank")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
        // SAFETY: only async-signal-safe calls (fcntl, dup2) between fork and exec. The pipe
        // ends are first copied above 10 so that neither lands on the other's target number.
        unsafe {
            cmd.pre_exec(move || {
                let a2 = fcntl(a, F_DUPFD, 10);
                let b2 = fcntl(b, F_DUPFD, 10);
                if a2 < 0 || b2 < 0 || dup2(a2, 3) < 0 || dup2(b2, 4) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = cmd.spawn().expect("chromium starts");
        drop(their_in);
        drop(their_out);
        Browser {
            _child: Reaped(child),
            to,
            from: BufReader::new(from),
            next_id: 1,
            session: None,
            _profile: common::TempDir(profile),
        }
    }

    /// Sends a command and waits for its answer (events in between are dropped).
    fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if let Some(s) = &self.session {
            msg["sessionId"] = json!(s);
        }
        let mut bytes = msg.to_string().into_bytes();
        bytes.push(0);
        self.to.write_all(&bytes).unwrap();
        loop {
            let mut buf = Vec::new();
            let n = self.from.read_until(0, &mut buf).unwrap();
            assert!(n > 0, "chromium closed the DevTools pipe");
            buf.pop();
            let v: Value = serde_json::from_slice(&buf).expect("DevTools sends JSON");
            if v["id"] == json!(id) {
                if let Some(e) = v.get("error") {
                    panic!("{method} failed: {e}");
                }
                return v["result"].clone();
            }
        }
    }

    fn open(&mut self, url: &str) {
        self.open_sized(url, 1400, 1000, false);
    }

    /// Opens `url` in a new page of `width` × `height` CSS pixels (a phone's when `mobile`).
    fn open_sized(&mut self, url: &str, width: u32, height: u32, mobile: bool) {
        let t = self.call("Target.createTarget", json!({"url": "about:blank"}));
        let target = t["targetId"].as_str().unwrap().to_string();
        let a = self.call(
            "Target.attachToTarget",
            json!({"targetId": target, "flatten": true}),
        );
        self.session = Some(a["sessionId"].as_str().unwrap().to_string());
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}),
        );
        self.call("Page.enable", json!({}));
        self.call("Page.navigate", json!({"url": url}));
    }

    /// Gives the page open now another size (a phone's when `mobile`), and lets it lay
    /// itself out again.
    fn resize(&mut self, width: u32, height: u32, mobile: bool) {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}),
        );
        self.eval("new Promise(r => { window.dispatchEvent(new Event('resize')); setTimeout(() => r(true), 300); })");
    }

    /// Evaluates JavaScript in the page (promises awaited) and returns its value.
    fn eval(&mut self, expr: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expr, "returnByValue": true, "awaitPromise": true}),
        );
        if let Some(e) = r.get("exceptionDetails") {
            panic!("`{expr}` threw: {e}");
        }
        r["result"]["value"].clone()
    }

    /// Waits until `expr` is true in the page.
    fn wait_for(&mut self, expr: &str, what: &str) {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if self.eval(expr) == json!(true) {
                return;
            }
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits until the page shows a game with no search running and the human to move (or
    /// the game over).
    fn wait_idle(&mut self) {
        self.wait_for(
            "!!(window.polymachy && window.polymachy.idle() && (window.polymachy.state().result || window.polymachy.state().players[window.polymachy.state().side] === 'human'))",
            "the page to be idle",
        );
    }

    /// A real mouse click (press and release) at the centre of an element.
    fn click_at(&mut self, selector: &str) {
        let sel = serde_json::to_string(selector).unwrap();
        let r = self.eval(&format!(
            "(() => {{ const e = document.querySelector({sel}); if (!e) return null; e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
        ));
        let (x, y) = (
            r[0].as_f64()
                .unwrap_or_else(|| panic!("no element {selector}")),
            r[1].as_f64().unwrap(),
        );
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "buttons": 1, "clickCount": 1}),
            );
        }
    }

    /// A click on an element through its click event.
    fn click_js(&mut self, selector: &str) {
        let sel = serde_json::to_string(selector).unwrap();
        let done = self.eval(&format!(
            "(() => {{ const e = document.querySelector({sel}); if (!e) return false; e.click(); return true; }})()"
        ));
        assert_eq!(done, json!(true), "no element {selector}");
    }

    /// Opens every folded panel, so that their buttons can be clicked.
    fn unfold(&mut self) {
        self.eval("(() => { document.querySelectorAll('details').forEach(d => d.open = true); return true; })()");
    }

    /// Presses and releases a key (`key` as the DOM names it, `code` its Windows key code).
    fn key(&mut self, key: &str, code: u32) {
        for kind in ["keyDown", "keyUp"] {
            self.call(
                "Input.dispatchKeyEvent",
                json!({"type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code}),
            );
        }
    }

    /// Starts a new game with the form as it stands, answering Yes when the page asks.
    fn new_game(&mut self) {
        self.click_at("#new");
        if self.eval("!document.getElementById('confirm').hidden") == json!(true) {
            self.click_at("#confirm-yes");
        }
    }

    /// Sets a form control's value and tells the page it changed.
    fn set_value(&mut self, id: &str, value: &str) {
        self.eval(&format!(
            "(() => {{ const s = document.getElementById({}); s.value = {}; s.dispatchEvent(new Event('change')); return s.value; }})()",
            serde_json::to_string(id).unwrap(),
            serde_json::to_string(value).unwrap()
        ));
    }

    /// Saves a screenshot of the viewport as `target/browser/NAME.png`.
    fn screenshot(&mut self, name: &str) {
        let shot = self.call("Page.captureScreenshot", json!({"format": "png"}));
        let png = base64_decode(shot["data"].as_str().unwrap());
        assert_eq!(&png[1..4], b"PNG");
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/browser");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{name}.png"));
        std::fs::write(&path, &png).unwrap();
        eprintln!("screenshot: {}", path.display());
    }

    /// The side of one board square on the page, in CSS pixels.
    fn square_px(&mut self) -> f64 {
        self.eval("window.polymachy.squarePx()").as_f64().unwrap()
    }

    /// Clicks a move's two squares and waits until the game has `plies` moves (or more: an
    /// engine's reply is pushed to the page at once, and may follow before a look).
    fn play(&mut self, from: &str, to: &str, plies: usize) {
        self.click_square(from);
        self.click_square(to);
        self.wait_for(
            &format!("window.polymachy.state().history.length >= {plies}"),
            &format!("{from}-{to}"),
        );
    }

    fn click_square(&mut self, sq: &str) {
        self.click_at(&format!(".sq[data-sq=\"{sq}\"]"));
    }

    fn state(&mut self) -> Value {
        self.eval("window.polymachy.state()")
    }

    fn placement(&mut self) -> String {
        self.eval("window.polymachy.placement()")
            .as_str()
            .unwrap()
            .to_string()
    }
}

/// The server, on a free port.
fn serve() -> (common::Server, String) {
    serve_variant("metamachy")
}

/// The server for `variant` (a built-in name or a file), on a free port, and its page's
/// address.
fn serve_variant(variant: &str) -> (common::Server, String) {
    let server = common::start_server(common::serve_command(&["--variant", variant]));
    let url = server.url();
    (server, url)
}

fn placement_of(fen: &str) -> String {
    fen.split_whitespace().next().unwrap().to_string()
}

/// Replays the page's move list with the library and returns the FEN it reaches.
fn replay(variant: &str, sans: &[Value]) -> String {
    let v = Variant::load(variant).unwrap();
    let rules = Ruleset::new(&v, None).unwrap();
    let mut g = Game::new(&rules);
    for s in sans {
        g.play_text(s.as_str().unwrap())
            .unwrap_or_else(|e| panic!("{s}: {e}"));
    }
    g.position().fen()
}

fn base64_decode(s: &str) -> Vec<u8> {
    let val = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => (c - b'A') as u32,
            b'a'..=b'z' => (c - b'a' + 26) as u32,
            b'0'..=b'9' => (c - b'0' + 52) as u32,
            b'+' => 62,
            b'/' => 63,
            _ => panic!("not base64: {c}"),
        }
    };
    let bytes: Vec<u8> = s.bytes().filter(|&c| c != b'=' && c != b'\n').collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= val(c) << (18 - 6 * i);
        }
        for i in 0..chunk.len().saturating_sub(1) {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    out
}

#[test]
fn base64_decoder_reads_padding() {
    assert_eq!(base64_decode("TWFu"), b"Man");
    assert_eq!(base64_decode("TWE="), b"Ma");
    assert_eq!(base64_decode("TQ=="), b"M");
}

#[test]
#[expect(
    clippy::too_many_lines,
    reason = "one browser session in order: each step starts from the page the last one left"
)]
fn play_metamachy_and_load_terachess_in_chromium() {
    let Some(exe) = chromium() else {
        common::missing("chromium");
        return;
    };
    let (_server, url) = serve();
    let mut b = Browser::launch(&exe);
    b.open(&format!(
        "{url}?variant=metamachy&white=human&black=engine&depth=1"
    ));
    b.wait_idle();
    b.unfold();
    let st = b.state();
    assert_eq!(st["variant"]["id"], "metamachy");
    assert_eq!(b.placement(), placement_of(st["fen"].as_str().unwrap()));

    // 1. f5: a pawn's double step, by clicking the pawn and then its square.
    b.click_square("f3");
    let dests = b.eval("[...document.querySelectorAll('.sq.dest, .sq.dest-capture')].map(e => e.dataset.sq).sort()");
    assert_eq!(dests, json!(["f4", "f5"]), "legal destinations highlighted");
    b.click_square("f5");
    b.wait_for(
        "window.polymachy.state().moves.length >= 1",
        "the first move",
    );
    b.wait_idle();
    let st = b.state();
    assert_eq!(st["moves"][0], "f5");
    assert_eq!(
        st["moves"].as_array().unwrap().len(),
        2,
        "the engine replied"
    );
    assert_eq!(
        b.placement(),
        placement_of(&replay("metamachy", st["moves"].as_array().unwrap()))
    );

    // An illegal click: the King cannot go to g4. The page refuses and nothing changes.
    let fen_before = st["fen"].clone();
    b.click_square("g1");
    b.click_square("g4");
    let status = b.eval("window.polymachy.status()");
    assert!(
        status.as_str().unwrap().contains("Illegal"),
        "refused: {status}"
    );
    assert_eq!(
        b.eval("document.getElementById('status').className"),
        json!(""),
        "a word, not an error in red"
    );
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(b.state()["fen"], fen_before);

    // 2. The King's leap g1-e1, by dragging: press on g1, release on e1.
    let from = b.eval("(() => { const r = document.querySelector('.sq[data-sq=\"g1\"]').getBoundingClientRect(); return [r.x + r.width/2, r.y + r.height/2]; })()");
    let to = b.eval("(() => { const r = document.querySelector('.sq[data-sq=\"e1\"]').getBoundingClientRect(); return [r.x + r.width/2, r.y + r.height/2]; })()");
    b.call(
        "Input.dispatchMouseEvent",
        json!({"type": "mousePressed", "x": from[0], "y": from[1], "button": "left", "buttons": 1, "clickCount": 1}),
    );
    b.call(
        "Input.dispatchMouseEvent",
        json!({"type": "mouseMoved", "x": to[0], "y": to[1], "button": "left", "buttons": 1}),
    );
    b.call(
        "Input.dispatchMouseEvent",
        json!({"type": "mouseReleased", "x": to[0], "y": to[1], "button": "left", "buttons": 1, "clickCount": 1}),
    );
    b.wait_for(
        "window.polymachy.state().moves.length >= 3",
        "the King's leap",
    );
    b.wait_idle();
    let st = b.state();
    let moves = st["moves"].as_array().unwrap().clone();
    assert_eq!(moves[2], "Ke1", "the King leapt");
    assert_eq!(moves.len(), 4, "the engine replied again");
    let fen = replay("metamachy", &moves);
    assert_eq!(st["fen"].as_str().unwrap(), fen, "the server agrees");
    assert_eq!(b.placement(), placement_of(&fen), "the page shows it");
    // The last move is marked, and the move list shows SAN.
    let last = b.eval("[...document.querySelectorAll('.sq.last')].length");
    assert_eq!(last, json!(2));
    let listed = b.eval("document.getElementById('moves').textContent");
    assert!(listed.as_str().unwrap().contains("Ke1"), "{listed}");

    // A promotion asks which piece (chess, two humans, from a position loaded by FEN).
    b.eval("(() => { const s = document.getElementById('variant'); s.value = 'chess'; s.dispatchEvent(new Event('change')); document.getElementById('black').value = 'human'; return true; })()");
    b.new_game();
    b.wait_for(
        "window.polymachy.state() && window.polymachy.state().variant.id === 'chess'",
        "the chess game",
    );
    b.eval("(() => { document.getElementById('text').value = '4k3/P7/8/8/8/8/8/4K3 w - - 0 1'; return true; })()");
    b.click_at("#load-fen");
    b.wait_for(
        "window.polymachy.state().fen.startsWith('4k3/P7/')",
        "the chess FEN",
    );
    b.click_square("a7");
    b.click_square("a8");
    let choices = b.eval(
        "[...document.querySelectorAll('#promo button[data-uci]')].map(e => e.dataset.uci).sort()",
    );
    assert_eq!(choices, json!(["a7a8b", "a7a8n", "a7a8q", "a7a8r"]));
    b.click_at("#promo button[data-uci=\"a7a8n\"]");
    b.wait_for(
        "window.polymachy.state().moves.length === 1",
        "the promotion",
    );
    assert_eq!(b.state()["moves"], json!(["a8=N"]));
    assert_eq!(b.placement(), "N3k3/8/8/8/8/8/8/4K3");

    // A Terachess II game, human against human, then a position loaded by FEN.
    let v = Variant::load("terachess2").unwrap();
    let rules = Ruleset::new(&v, None).unwrap();
    let mut g = Game::new(&rules);
    for m in ["h4h6", "h13h11", "c3d5"] {
        g.play_text(m).unwrap();
    }
    let tera_fen = g.position().fen();
    b.eval("(() => { const s = document.getElementById('variant'); s.value = 'terachess2'; s.dispatchEvent(new Event('change')); document.getElementById('black').value = 'human'; return true; })()");
    b.new_game();
    b.wait_for(
        "window.polymachy.state() && window.polymachy.state().variant.id === 'terachess2'",
        "the Terachess II game",
    );
    b.eval(&format!(
        "(() => {{ document.getElementById('text').value = {}; return true; }})()",
        serde_json::to_string(&tera_fen).unwrap()
    ));
    b.click_at("#load-fen");
    b.wait_for(
        &format!(
            "window.polymachy.state().fen === {}",
            serde_json::to_string(&tera_fen).unwrap()
        ),
        "the FEN to load",
    );
    b.wait_idle();
    assert_eq!(b.placement(), placement_of(&tera_fen));
    let squares = b.eval("document.querySelectorAll('.sq').length");
    assert_eq!(squares, json!(256));
    // Every piece on the board is drawn as an image (a glyph), never as a bare letter.
    let bare = b.eval("[...document.querySelectorAll('.sq')].filter(e => e.dataset.piece && !e.querySelector('svg.glyph')).length");
    assert_eq!(bare, json!(0));
    // Clicking a piece shows its panel with a movement diagram.
    b.click_square("e3");
    let info = b.eval("document.getElementById('piece-info').textContent");
    assert!(info.as_str().unwrap().contains("XBetza"), "{info}");
    let marked = b.eval("document.querySelectorAll('#piece-info .diagram [class*=\"k-\"]').length");
    assert!(marked.as_u64().unwrap() > 0, "the diagram marks squares");

    // The keyboard: on h11, Enter picks Black's pawn, the down arrow moves to h10, Enter plays.
    b.eval("(() => { document.querySelector('.sq[data-sq=\"h11\"]').focus(); return true; })()");
    for (key, code) in [("Enter", 13), ("ArrowDown", 40), ("Enter", 13)] {
        b.call(
            "Input.dispatchKeyEvent",
            json!({"type": "keyDown", "key": key, "code": key, "windowsVirtualKeyCode": code}),
        );
        b.call(
            "Input.dispatchKeyEvent",
            json!({"type": "keyUp", "key": key, "code": key, "windowsVirtualKeyCode": code}),
        );
    }
    b.wait_for(
        "window.polymachy.state().moves.length === 1",
        "the move played with the keyboard",
    );
    assert_eq!(b.state()["moves"], json!(["h10"]));

    // The Cannon's diagram, with its moves and its hops, for the screenshot.
    b.click_square("a2");
    let hops = b.eval("document.querySelectorAll('#piece-info .diagram .k-mh').length");
    assert!(hops.as_u64().unwrap() > 0, "the Cannon hops");
    b.eval("(() => { document.getElementById('piece-info').scrollIntoView(); return true; })()");
    b.screenshot("terachess2");
}

/// A server and a page opened on `query` (after `?`), idle; `None` without Chromium.
fn page(variant: &str, query: &str) -> Option<(common::Server, Browser)> {
    let Some(exe) = chromium() else {
        common::missing("chromium");
        return None;
    };
    let (server, url) = serve_variant(variant);
    let mut b = Browser::launch(&exe);
    b.open(&format!("{url}?{query}"));
    b.wait_for(
        "!!(window.polymachy && window.polymachy.state())",
        "the first game",
    );
    b.wait_idle();
    b.unfold();
    Some((server, b))
}

/// The move list as the page shows it: each row's number and moves.
fn move_rows(b: &mut Browser) -> Vec<String> {
    let rows = b.eval("[...document.querySelectorAll('#moves .mrow')].map(r => [...r.children].map(c => c.textContent).filter(t => t).join(' '))");
    rows.as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().to_string())
        .collect()
}

// Crazyhouse: White holds a Knight. The hand shows it; picking it marks every empty square
// (62 of them) and a click on e4 drops it, written N@e4; the hand is then empty.
#[test]
fn a_piece_in_hand_is_dropped_by_two_clicks() {
    let Some((_server, mut b)) = page(
        "crazyhouse",
        "variant=crazyhouse&white=human&black=human&depth=1&fen=4k3/8/8/8/8/8/8/4K3%5BN%5D%20w%20-%20-%200%201",
    ) else {
        return;
    };
    assert_eq!(
        b.eval("document.querySelectorAll('.hand button[data-drop=\"@N\"]').length"),
        json!(1)
    );
    b.click_at(".hand button[data-drop='@N']");
    assert_eq!(
        b.eval("document.querySelectorAll('.sq.dest').length"),
        json!(62)
    );
    b.click_square("e4");
    b.wait_for(
        "window.polymachy.state().history.length === 1",
        "the drop played",
    );
    assert_eq!(move_rows(&mut b), vec!["1. N@e4"]);
    assert_eq!(
        b.eval("document.querySelectorAll('.hand button').length"),
        json!(0)
    );
}

// Shogi: White holds a Pawn and has one on e3. Picking the Pawn in hand marks the empty
// squares but those of rank 9 and the e file (64 of them); a click on d5 drops it.
#[test]
fn a_shogi_pawn_in_hand_is_never_offered_its_own_file() {
    let Some((_server, mut b)) = page(
        "shogi",
        "variant=shogi&white=human&black=human&depth=1&fen=4k4/9/9/9/9/9/4P4/9/4K4%5BP%5D%20w%200%201",
    ) else {
        return;
    };
    b.click_at(".hand button[data-drop='@P']");
    assert_eq!(
        b.eval("document.querySelectorAll('.sq.dest').length"),
        json!(64)
    );
    assert_eq!(
        b.eval(
            "document.querySelectorAll('.sq.dest[data-sq^=\"e\"], .sq.dest[data-sq$=\"9\"]').length"
        ),
        json!(0)
    );
    b.click_square("d5");
    b.wait_for(
        "window.polymachy.state().history.length === 1",
        "the drop played",
    );
    // Written as Shogi players write a drop.
    assert_eq!(move_rows(&mut b), vec!["1. P*d5"]);
}

#[test]
fn a_metamachy_checkmate_clicked_ends_the_game() {
    let Some((_server, mut b)) = page(
        "metamachy",
        "variant=metamachy&white=human&black=human&depth=1&fen=k11/12/2K9/12/12/12/12/12/12/12/12/1Q10%20w%20-%20-%200%201",
    ) else {
        return;
    };
    // The Queen from b1 to b11, guarded by the King on c10: mate.
    b.click_square("b1");
    b.click_square("b11");
    b.wait_for("!!window.polymachy.state().result", "the end of the game");
    let st = b.state();
    assert_eq!(st["result"]["result"], "1-0");
    let shown = b.eval("document.getElementById('result').textContent");
    assert!(shown.as_str().unwrap().contains("Checkmate"), "{shown}");
    assert_eq!(move_rows(&mut b), vec!["1. Qb11#"]);
    // A piece with a picture of its own (as the server may send): drawn in the side's colours;
    // the setting "letters" shows a letter instead.
    b.eval(r#"(() => { pieceByLetter.Q.image = '<svg viewBox="0 0 100 100"><circle cx="50" cy="50" r="40" fill="currentColor" stroke="var(--piece-line)" stroke-width="6"/></svg>'; render(); return true; })()"#);
    let colours = b.eval("(() => { const s = document.querySelector('.sq[data-sq=\"b11\"] svg.glyph.image'); return s ? [getComputedStyle(s).color, getComputedStyle(s).getPropertyValue('--piece-line').trim()] : null; })()");
    assert_eq!(
        colours,
        json!(["rgb(255, 253, 247)", "#111"]),
        "a White picture"
    );
    b.set_value("piece-style", "letters");
    let label = b.eval("document.querySelector('.sq[data-sq=\"b11\"] svg.glyph').textContent");
    assert_eq!(label, json!("Q"));
    assert_eq!(
        b.eval("document.querySelectorAll('svg.glyph.image').length"),
        json!(0)
    );
    // Sound is on by default, and the setting is remembered.
    assert_eq!(
        b.eval("document.getElementById('sound').checked"),
        json!(true)
    );
    b.click_at("#sound");
    assert_eq!(
        b.eval("localStorage.getItem('polymachy-sound')"),
        json!("off")
    );
    // The game is over: no move is taken any more.
    b.click_square("a12");
    assert!(
        b.eval("window.polymachy.status()")
            .as_str()
            .unwrap()
            .contains("over")
    );
}

#[test]
fn the_move_list_steps_back_and_returns_to_the_game() {
    let Some((_server, mut b)) = page(
        "metamachy",
        "variant=metamachy&white=human&black=human&depth=1",
    ) else {
        return;
    };
    let start = b.placement();
    for (i, (from, to)) in [("f3", "f5"), ("f10", "f8"), ("a3", "a5")]
        .into_iter()
        .enumerate()
    {
        b.play(from, to, i + 1);
    }
    let st = b.state();
    let sans: Vec<Value> = st["moves"].as_array().unwrap().clone();
    let live = b.placement();
    assert_eq!(live, placement_of(&replay("metamachy", &sans)));
    assert_eq!(
        move_rows(&mut b),
        vec![
            format!(
                "1. {} {}",
                sans[0].as_str().unwrap(),
                sans[1].as_str().unwrap()
            ),
            format!("2. {}", sans[2].as_str().unwrap())
        ]
    );
    // Two steps back with the keyboard (Shift+Left on the board), then one with the list.
    b.eval("(() => { document.querySelector('.sq[tabindex=\"0\"]').focus(); return true; })()");
    b.call("Input.dispatchKeyEvent", json!({"type": "keyDown", "key": "ArrowLeft", "code": "ArrowLeft", "windowsVirtualKeyCode": 37, "modifiers": 8}));
    b.call("Input.dispatchKeyEvent", json!({"type": "keyUp", "key": "ArrowLeft", "code": "ArrowLeft", "windowsVirtualKeyCode": 37, "modifiers": 8}));
    b.wait_for(
        "window.polymachy.viewing() === 2",
        "the position after two moves",
    );
    b.eval("(() => { document.getElementById('moves').focus(); return true; })()");
    b.key("ArrowLeft", 37);
    b.wait_for(
        "window.polymachy.viewing() === 1",
        "the position after one move",
    );
    assert_eq!(
        b.placement(),
        placement_of(&replay("metamachy", &sans[..1]))
    );
    b.key("Home", 36);
    b.wait_for("window.polymachy.viewing() === 0", "the start");
    assert_eq!(b.placement(), start);
    // A click on a move in the list shows the position after it.
    b.click_at("#moves [data-ply=\"2\"]");
    b.wait_for("window.polymachy.viewing() === 2", "the clicked move");
    assert_eq!(
        b.placement(),
        placement_of(&replay("metamachy", &sans[..2]))
    );
    // End: back to the game, where moves are played again.
    b.key("End", 35);
    b.wait_for("window.polymachy.viewing() === null", "the game");
    assert_eq!(b.placement(), live);
    b.play("f8", "f7", 4);
    // Resign asks first: No keeps the game, Yes ends it.
    b.click_at("#resign");
    assert_eq!(
        b.eval("document.getElementById('confirm').hidden"),
        json!(false)
    );
    b.click_at("#confirm-no");
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(b.state()["result"], Value::Null);
    b.click_at("#resign");
    b.click_at("#confirm-yes");
    b.wait_for("!!window.polymachy.state().result", "the resignation");
    assert_eq!(
        b.state()["result"]["result"],
        "0-1",
        "White, to move, resigned"
    );
}

#[test]
fn a_flag_fall_decides_the_game_and_is_not_taken_back() {
    let Some((_server, mut b)) = page(
        "metamachy",
        "variant=metamachy&white=human&black=engine&depth=1&clock=1%2B0",
    ) else {
        return;
    };
    let st = b.state();
    assert_eq!(st["clocks"]["timed"], true);
    assert_eq!(st["clocks"]["base_ms"], 60_000);
    // Two seconds a side, through the page's own new-game call, for a short test.
    b.eval("newGame({clock_ms: 2000, increment_ms: 0})");
    b.wait_for(
        "window.polymachy.state().clocks.base_ms === 2000",
        "the two-second game",
    );
    // Before each side's first move the clocks stand still.
    std::thread::sleep(Duration::from_millis(2500));
    assert_eq!(
        b.state()["result"],
        Value::Null,
        "no flag before the first move"
    );
    assert_eq!(
        b.eval("document.getElementById('clock-white').textContent"),
        json!("White 0:02.0")
    );
    b.play("f3", "f5", 1);
    b.wait_for(
        "window.polymachy.state().history.length === 2",
        "the engine's first move",
    );
    // White does not move again: the server ends the game when White's time is gone.
    b.wait_for("!!window.polymachy.state().result", "the flag");
    let st = b.state();
    assert_eq!(st["result"]["result"], "0-1");
    assert!(
        st["result"]["reason"].as_str().unwrap().contains("time"),
        "{}",
        st["result"]
    );
    assert_eq!(st["clocks"]["white_ms"], 0);
    let clock = b.eval("document.getElementById('clock-white').textContent");
    assert_eq!(clock, json!("White 0:00.0"));
    // No take-back: the button is off, the key changes nothing, and the server refuses.
    assert_eq!(
        b.eval("document.getElementById('undo').disabled"),
        json!(true)
    );
    b.key("u", 85);
    std::thread::sleep(Duration::from_millis(400));
    let st = b.state();
    assert_eq!(st["history"].as_array().unwrap().len(), 2);
    assert_eq!(st["result"]["result"], "0-1");
    let status = b.eval("fetch('/api/undo', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({sid: window.polymachy.state().sid})}).then(r => r.status)");
    assert_eq!(status, json!(409));
}

/// How many visible text nodes of the page contain `words`.
fn shown_times(b: &mut Browser, words: &str) -> u64 {
    let w = serde_json::to_string(words).unwrap();
    b.eval(&format!(
        "(() => {{ let n = 0; const t = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT); while (t.nextNode()) {{ const e = t.currentNode.parentElement; if (t.currentNode.textContent.includes({w}) && e.getClientRects().length && !e.closest('[hidden]')) n++; }} return n; }})()"
    ))
    .as_u64()
    .unwrap()
}

/// The rectangle of the first element `selector` matches: [left, top, right, bottom].
fn rect(b: &mut Browser, selector: &str) -> [f64; 4] {
    let sel = serde_json::to_string(selector).unwrap();
    let r = b.eval(&format!(
        "(() => {{ const r = document.querySelector({sel}).getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }})()"
    ));
    [0, 1, 2, 3].map(|i| r[i].as_f64().unwrap())
}

// The player resigns against the engine: the result is on the board, once, with Rematch and
// New game. Rematch starts the same game (variant, clock, level) with the colours swapped.
#[test]
fn the_result_banner_offers_a_rematch_with_the_colours_swapped() {
    let Some((_server, mut b)) = page(
        "metamachy",
        "variant=metamachy&white=human&black=engine&depth=1&clock=3%2B2",
    ) else {
        return;
    };
    assert_eq!(
        b.eval("document.getElementById('banner').hidden"),
        json!(true)
    );
    b.click_at("#resign");
    b.click_at("#confirm-yes");
    b.wait_for("!!window.polymachy.state().result", "the resignation");
    let old = b.state()["sid"].clone();
    assert_eq!(
        b.eval("document.getElementById('banner').hidden"),
        json!(false)
    );
    let banner = rect(&mut b, "#banner");
    let board = rect(&mut b, "#board");
    assert!(
        banner[0] >= board[0]
            && banner[2] <= board[2]
            && banner[1] >= board[1]
            && banner[3] <= board[3],
        "the banner {banner:?} is on the board {board:?}"
    );
    assert_eq!(shown_times(&mut b, "White resigns"), 1, "the result, once");
    assert_eq!(b.eval("window.polymachy.status()"), json!("Game over."));
    b.click_at("#rematch");
    b.wait_for(
        &format!("window.polymachy.state().sid !== {old}"),
        "the rematch",
    );
    let st = b.state();
    assert_eq!(st["players"], json!({"white": "engine", "black": "human"}));
    assert_eq!(st["variant"]["id"], "metamachy");
    assert_eq!(st["depth"], 1);
    assert_eq!(st["clocks"]["base_ms"], 180_000);
    assert_eq!(st["clocks"]["increment_ms"], 2_000);
    assert_eq!(
        b.eval("document.getElementById('banner').hidden"),
        json!(true)
    );
    assert_eq!(
        b.eval("document.getElementById('white').value"),
        json!("engine")
    );
    // The human now plays Black, from the bottom of the board.
    let a1 = rect(&mut b, ".sq[data-sq=\"a1\"]");
    let a12 = rect(&mut b, ".sq[data-sq=\"a12\"]");
    assert!(
        a1[1] < a12[1],
        "Black at the bottom: a1 {a1:?}, a12 {a12:?}"
    );
    b.wait_for(
        "window.polymachy.state().history.length === 1",
        "the engine's first move as White",
    );
}

// A hot-seat checkmate at a laptop's and a phone's size: a draw claim asks first; the result
// banner is on the board and in view, written once; closed, the result moves to the status
// line, still once. Screenshots `result-laptop.png` and `result-phone.png`.
#[test]
fn the_result_banner_at_a_laptop_and_a_phone() {
    let Some(exe) = chromium() else {
        common::missing("chromium");
        return;
    };
    let (_server, url) = serve();
    let mut b = Browser::launch(&exe);
    for (device, w, h, mobile) in [("laptop", 1366, 657, false), ("phone", 390, 844, true)] {
        b.open_sized(
            &format!("{url}?variant=metamachy&white=human&black=human&depth=1&fen=k11/12/2K9/12/12/12/12/12/12/12/12/1Q10%20w%20-%20-%200%201"),
            w,
            h,
            mobile,
        );
        b.wait_for(
            "!!(window.polymachy && window.polymachy.state())",
            "the game",
        );
        b.wait_idle();
        // Buttons by their click events: on a phone's emulated screen a scrolled page
        // takes dispatched mouse events a row off.
        b.click_js("#draw");
        assert_eq!(
            b.eval("document.getElementById('confirm').hidden"),
            json!(false)
        );
        b.click_js("#confirm-no");
        std::thread::sleep(Duration::from_millis(200));
        assert_eq!(
            b.state()["result"],
            Value::Null,
            "{device}: no draw without a yes"
        );
        b.click_square("b1");
        b.click_square("b11");
        b.wait_for("!!window.polymachy.state().result", "the checkmate");
        b.eval("(() => { window.scrollTo(0, 0); return true; })()");
        let banner = rect(&mut b, "#banner");
        let board = rect(&mut b, "#board");
        assert!(
            banner[0] >= board[0]
                && banner[2] <= board[2]
                && banner[1] >= board[1]
                && banner[3] <= board[3],
            "{device}: the banner {banner:?} is on the board {board:?}"
        );
        assert!(
            banner[0] >= 0.0 && banner[2] <= w as f64 && banner[3] <= h as f64,
            "{device}: the banner {banner:?} is in view"
        );
        assert_eq!(
            shown_times(&mut b, "Checkmate"),
            1,
            "{device}: the result, once"
        );
        b.screenshot(&format!("result-{device}"));
        b.click_js("#banner-close");
        assert_eq!(
            b.eval("document.getElementById('banner').hidden"),
            json!(true)
        );
        assert_eq!(
            shown_times(&mut b, "Checkmate"),
            1,
            "{device}: in the status line"
        );
        assert!(
            b.eval("window.polymachy.status()")
                .as_str()
                .unwrap()
                .starts_with("1-0")
        );
    }
}

#[test]
fn a_premove_is_played_after_the_engine_replies() {
    let Some((_server, mut b)) = page(
        "metamachy",
        "variant=metamachy&white=human&black=engine&movetime=2000",
    ) else {
        return;
    };
    b.click_square("f3");
    b.click_square("f5");
    b.wait_for(
        "window.polymachy.state().engine.thinking",
        "the engine to think",
    );
    // While the engine thinks: the a-pawn's step, then a cancelled one, then the same again.
    b.click_square("a3");
    b.click_square("a4");
    assert_eq!(
        b.eval("window.polymachy.premove()"),
        json!({"from": "a3", "to": "a4"})
    );
    let (x, y) = {
        let r = b.eval("(() => { const r = document.querySelector('.sq[data-sq=\"b5\"]').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()");
        (r[0].as_f64().unwrap(), r[1].as_f64().unwrap())
    };
    b.call("Input.dispatchMouseEvent", json!({"type": "mousePressed", "x": x, "y": y, "button": "right", "buttons": 2, "clickCount": 1}));
    b.call("Input.dispatchMouseEvent", json!({"type": "mouseReleased", "x": x, "y": y, "button": "right", "buttons": 0, "clickCount": 1}));
    assert_eq!(
        b.eval("window.polymachy.premove()"),
        Value::Null,
        "a right click cancels"
    );
    assert_eq!(
        b.eval("document.querySelectorAll('#overlay circle').length"),
        json!(1),
        "and draws a circle"
    );
    b.click_square("a3");
    b.click_square("a4");
    assert_eq!(
        b.eval("window.polymachy.premove()"),
        json!({"from": "a3", "to": "a4"})
    );
    assert_eq!(
        b.state()["history"].as_array().unwrap().len(),
        1,
        "entered while the engine thinks"
    );
    b.wait_for(
        "window.polymachy.state().history.length >= 3",
        "the premove",
    );
    let st = b.state();
    assert_eq!(st["moves"][2], "a4");
    // The engine's move was announced to screen readers before the premove was played.
    let said = b.eval("document.getElementById('announce').textContent");
    assert!(
        said.as_str().unwrap().starts_with("White played a4")
            || said.as_str().unwrap().starts_with("The engine played"),
        "{said}"
    );
    assert_eq!(b.eval("window.polymachy.premove()"), Value::Null);
    assert_eq!(
        b.placement(),
        placement_of(&replay("metamachy", st["moves"].as_array().unwrap()))
    );
}

#[test]
fn analysis_shows_three_lines_for_an_earlier_position() {
    let Some((_server, mut b)) = page(
        "metamachy",
        "variant=metamachy&white=human&black=human&depth=1&analysis_depth=1",
    ) else {
        return;
    };
    for (i, (from, to)) in [("f3", "f5"), ("f10", "f8")].into_iter().enumerate() {
        b.play(from, to, i + 1);
    }
    b.click_at("#moves [data-ply=\"1\"]");
    b.wait_for(
        "window.polymachy.viewing() === 1",
        "the position after 1. f5",
    );
    b.click_at("#analyse");
    b.wait_for(
        "(() => { const a = window.polymachy.state().analysis; return !!a && a.ply === 1 && a.lines.length === 3 && !a.running; })()",
        "three lines for the earlier position",
    );
    let lines =
        b.eval("[...document.querySelectorAll('#analysis .aline')].map(e => e.textContent)");
    assert_eq!(lines.as_array().unwrap().len(), 3, "{lines}");
    // Lines of the position after 1. f5: Black's moves, each a legal one there.
    let after = replay("metamachy", &[json!("f5")]);
    let v = Variant::load("metamachy").unwrap();
    let rules = Ruleset::new(&v, None).unwrap();
    for l in b.state()["analysis"]["lines"].as_array().unwrap() {
        let mut g =
            Game::from_position(polymachy::position::Position::from_fen(&rules, &after).unwrap());
        let first = l["pv"][0].as_str().unwrap();
        g.play_text(first)
            .unwrap_or_else(|e| panic!("{first} after 1. f5: {e}"));
    }
    assert_eq!(
        b.eval("document.querySelectorAll('#overlay .arrow.best').length"),
        json!(1),
        "the best move's arrow"
    );
    assert_eq!(
        b.eval("document.getElementById('evalbar').hidden"),
        json!(false)
    );
    // The dark theme, as the settings choose it, for the screenshot.
    b.set_value("theme", "dark");
    assert_eq!(
        b.eval("document.documentElement.dataset.theme"),
        json!("dark")
    );
    b.screenshot("analysis-dark");
}

// Analysis players can trust: asked for three lines, the page shows three at every moment
// after the first second while the depth grows; the game's engine shows no score of its own
// meanwhile (one evaluation on screen), every score is named as White's, and the bar's number
// is large enough and stands out from the bar under it.
#[test]
fn the_analysis_keeps_three_lines_on_screen_and_one_evaluation() {
    let Some((_server, mut b)) = page(
        "metamachy",
        "variant=metamachy&white=human&black=engine&depth=1",
    ) else {
        return;
    };
    b.play("f3", "f5", 1);
    b.wait_for(
        "window.polymachy.state().history.length === 2 && window.polymachy.idle()",
        "the engine's reply",
    );
    let engine = b.eval("document.getElementById('engine').textContent");
    assert!(
        engine.as_str().unwrap().contains("score")
            && engine.as_str().unwrap().contains("for White"),
        "{engine}"
    );
    b.click_at("#analyse");
    let seen = b.eval(
        "new Promise(done => { const t0 = performance.now(); const seen = []; const iv = setInterval(() => { const t = performance.now() - t0; seen.push([t, document.querySelectorAll('#analysis .aline').length, document.getElementById('engine').textContent, document.querySelector('#analysis .ahead').textContent]); if (t > 7000) { clearInterval(iv); done(seen); } }, 40); })",
    );
    let mut heads = std::collections::BTreeSet::new();
    let mut after = 0;
    for s in seen.as_array().unwrap() {
        let t = s[0].as_f64().unwrap();
        let head = s[3].as_str().unwrap();
        assert!(
            !s[2].as_str().unwrap().contains("score"),
            "a second evaluation at {t} ms: {}",
            s[2]
        );
        if t < 1000.0 {
            continue;
        }
        after += 1;
        assert_eq!(s[1], json!(3), "lines at {t} ms ({head})");
        assert!(head.contains("scores for White"), "{head}");
        heads.insert(head.split(" · ").nth(1).unwrap_or("").to_string());
    }
    assert!(after > 50, "{after} looks");
    assert!(heads.len() >= 2, "the depth grew meanwhile: {heads:?}");
    let bar = b.eval("(() => { const t = document.getElementById('evaltext'); const cs = getComputedStyle(t); const tr = t.getBoundingClientRect(); const fill = document.getElementById('evalfill').getBoundingClientRect(); const mid = tr.top + tr.height / 2; const under = mid >= fill.top && mid <= fill.bottom ? 'evalfill' : 'evalbar'; const bg = getComputedStyle(document.getElementById(under)).backgroundColor; const lum = (c) => { const [r, g, b] = c.match(/[0-9.]+/g).slice(0, 3).map(Number).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; }; const a = lum(cs.color), b = lum(bg); const box = document.getElementById('evalbar').getBoundingClientRect(); return [parseFloat(cs.fontSize), (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05), t.textContent, cs.mixBlendMode, tr.left >= box.left && tr.right <= box.right && tr.top >= box.top && tr.bottom <= box.bottom]; })()");
    assert!(bar[0].as_f64().unwrap() >= 12.0, "the bar's number: {bar}");
    assert!(bar[1].as_f64().unwrap() >= 4.5, "its contrast: {bar}");
    assert!(!bar[2].as_str().unwrap().is_empty(), "{bar}");
    assert_eq!(bar[3], json!("normal"), "{bar}");
    assert_eq!(bar[4], json!(true), "inside the bar: {bar}");
}

#[test]
fn a_step_and_a_castle_to_one_square_are_offered_in_words() {
    let fen = "rnccwkqbbnr/ppppppppppp/11/11/11/11/11/11/PPPPPPPPPPP/R4K4R w KQkq - 0 1";
    let Some((_server, mut b)) = page(
        "metamachy",
        &format!(
            "variant=wildebeest&white=human&black=human&depth=1&fen={}",
            fen.replace(' ', "%20")
        ),
    ) else {
        return;
    };
    // The moves sent to the server are recorded.
    b.eval("(() => { window.sent = []; const f = window.fetch; window.fetch = (u, o) => { if (u === '/api/move') window.sent.push(JSON.parse(o.body)); return f(u, o); }; return true; })()");
    let castle = b.eval("window.polymachy.state().legal.findIndex(m => m.uci === 'f1g1oo')");
    b.click_square("f1");
    b.click_square("g1");
    let words = b.eval("[...document.querySelectorAll('#promo button')].map(e => e.textContent)");
    assert_eq!(words, json!(["step", "castle", "Cancel"]));
    b.click_at("#promo button[data-uci=\"f1g1oo\"]");
    b.wait_for(
        "window.polymachy.state().history.length === 1",
        "the castle",
    );
    // Sent as the server listed it: its place in the list and its text.
    let sent = b.eval("window.sent.map(b => [b.move, b.index])");
    assert_eq!(sent, json!([["f1g1oo", castle]]));
    let v = Variant::load("wildebeest").unwrap();
    let rules = Ruleset::new(&v, None).unwrap();
    let mut g = Game::from_position(polymachy::position::Position::from_fen(&rules, fen).unwrap());
    g.play_text("f1g1oo").unwrap();
    assert_eq!(b.placement(), placement_of(&g.position().fen()));
    // Focus is back on the board.
    assert_eq!(
        b.eval("!!document.activeElement.closest('#board')"),
        json!(true)
    );
}

#[test]
fn an_uploaded_file_with_holes_and_a_setup_is_played_after_new_game() {
    let Some((_server, mut b)) = page(
        "metamachy",
        "variant=metamachy&white=human&black=human&depth=1",
    ) else {
        return;
    };
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/holes-setup.toml");
    let doc = b.call("DOM.getDocument", json!({}));
    let node = b.call(
        "DOM.querySelector",
        json!({"nodeId": doc["root"]["nodeId"], "selector": "#upload"}),
    );
    b.call(
        "DOM.setFileInputFiles",
        json!({"files": [file.to_str().unwrap()], "nodeId": node["nodeId"]}),
    );
    b.wait_for(
        "window.polymachy.state().variant.id === 'holed-six'",
        "the uploaded variant",
    );
    let chosen = b.eval("document.getElementById('variant').selectedOptions[0].textContent");
    assert!(
        chosen.as_str().unwrap().starts_with("Holed Six"),
        "{chosen}"
    );
    let setups = b.eval("[...document.getElementById('setup').options].map(o => o.value)");
    assert_eq!(setups, json!(["", "QK"]));
    // The other setup, then New game: the same file, that setup.
    b.set_value("setup", "QK");
    b.new_game();
    b.wait_for(
        "window.polymachy.state().setup === 'QK'",
        "the new game with setup QK",
    );
    let st = b.state();
    assert_eq!(st["variant"]["id"], "holed-six");
    assert_eq!(
        st["board"].as_array().unwrap().len(),
        36,
        "every square sent"
    );
    let holes = b.eval("[...document.querySelectorAll('.sq.hole')].map(e => e.dataset.sq).sort()");
    assert_eq!(holes, json!(["c3", "d4"]));
    assert_eq!(
        b.eval(
            "[...document.querySelectorAll('.sq.hole')].filter(e => e.querySelector('svg')).length"
        ),
        json!(0)
    );
    assert_eq!(b.placement(), "rnqknr/pppppp/3*2/2*3/PPPPPP/RNQKNR");
    // The b-pawn takes a step, and Black's Knight answers.
    b.click_square("b2");
    b.click_square("b3");
    b.wait_for(
        "window.polymachy.state().history.length === 1",
        "a move in the uploaded game",
    );
    b.click_square("e6");
    b.click_square("f4");
    b.wait_for(
        "window.polymachy.state().history.length === 2",
        "Black's reply",
    );
    assert_eq!(b.state()["moves"], json!(["b3", "Nf4"]));
}

#[test]
fn move_numbers_are_right_with_the_engine_as_white_and_from_black_to_move() {
    let Some((_server, mut b)) = page(
        "metamachy",
        "variant=metamachy&white=engine&black=human&depth=1",
    ) else {
        return;
    };
    b.wait_for(
        "window.polymachy.state().history.length === 1",
        "the engine's first move",
    );
    b.wait_idle();
    let first = b.state()["moves"][0].as_str().unwrap().to_string();
    assert_eq!(move_rows(&mut b), vec![format!("1. {first}")]);
    b.click_square("f10");
    b.click_square("f8");
    b.wait_for(
        "window.polymachy.state().history.length === 3",
        "the engine's second move",
    );
    b.wait_idle();
    let m = b.state()["moves"].clone();
    assert_eq!(
        move_rows(&mut b),
        vec![
            format!("1. {first} f8"),
            format!("2. {}", m[2].as_str().unwrap())
        ]
    );
    // The board is turned for the human playing Black.
    let a1_on_top = b.eval("document.querySelector('.sq[data-sq=\"a1\"]').getBoundingClientRect().y < document.querySelector('.sq[data-sq=\"a12\"]').getBoundingClientRect().y");
    assert_eq!(a1_on_top, json!(true));

    // From a position with Black to move (move 7): the list starts `7… move`.
    let fen = "cm3qk3mc/ernbilgibnre/pppppppppppp/12/12/12/12/12/12/PPPPPPPPPPPP/ERNBILGIBNRE/CM3QK3MC b - - 0 7";
    b.set_value("white", "human");
    b.eval(&format!(
        "(() => {{ document.getElementById('text').value = {}; return true; }})()",
        serde_json::to_string(fen).unwrap()
    ));
    b.click_at("#load-fen");
    b.wait_for("window.polymachy.state().history.length === 0 && window.polymachy.state().side === 'black'", "the position");
    b.click_square("f10");
    b.click_square("f8");
    b.wait_for(
        "window.polymachy.state().history.length >= 1",
        "Black's move",
    );
    assert_eq!(move_rows(&mut b)[0], "7… f8");
}

/// The page at a laptop's 1366×657 and a phone's 390×844, for Metamachy and Terachess II:
/// screenshots, and squares large enough to play on.
#[test]
fn the_board_fills_a_laptop_and_a_phone() {
    let Some(exe) = chromium() else {
        common::missing("chromium");
        return;
    };
    let (_server, url) = serve();
    let mut b = Browser::launch(&exe);
    for (variant, files) in [("metamachy", 12), ("terachess2", 16)] {
        for (device, w, h, mobile) in [("laptop", 1366, 657, false), ("phone", 390, 844, true)] {
            b.open_sized(
                &format!("{url}?variant={variant}&white=human&black=engine&depth=1"),
                w,
                h,
                mobile,
            );
            b.wait_for(
                "!!(window.polymachy && window.polymachy.state())",
                "the game",
            );
            b.wait_idle();
            let px = b.square_px();
            let board = b.eval("(() => { const r = document.getElementById('board').getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })()");
            let (bx, by, bw) = (
                board[0].as_f64().unwrap(),
                board[1].as_f64().unwrap(),
                board[2].as_f64().unwrap(),
            );
            if files == 12 {
                let least = if device == "laptop" { 48.0 } else { 30.0 };
                assert!(px >= least, "{variant} on a {device}: {px} px squares");
            }
            if device == "laptop" {
                // The board and the game's buttons are in view without scrolling.
                let bottom = b.eval("Math.max(document.getElementById('board').getBoundingClientRect().bottom, document.getElementById('resign').getBoundingClientRect().bottom, document.getElementById('nav-last').getBoundingClientRect().bottom)");
                assert!(
                    bottom.as_f64().unwrap() <= h as f64,
                    "{variant}: below the fold ({bottom})"
                );
            } else {
                // The board comes first (under the top player's clock), across the screen.
                let top = b
                    .eval("document.getElementById('edge-top').getBoundingClientRect().bottom")
                    .as_f64()
                    .unwrap();
                assert!(
                    by < 60.0 && by <= top + 4.0 && bx < 10.0,
                    "{variant}: the board starts at {bx},{by}"
                );
                assert!(
                    bw >= w as f64 - 30.0,
                    "{variant}: the board is {bw} px wide"
                );
            }
            b.screenshot(&format!("{variant}-{device}"));
        }
    }
}

#[test]
fn a_variant_file_given_to_the_server_is_named_and_set_up_in_the_page() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/holes-setup.toml");
    let Some((_server, mut b)) = page(file, "white=human&black=human&depth=1") else {
        return;
    };
    assert_eq!(b.state()["variant"]["id"], "holed-six");
    let chosen = b.eval("document.getElementById('variant').selectedOptions[0].textContent");
    assert!(
        chosen.as_str().unwrap().starts_with("Holed Six"),
        "{chosen}"
    );
    b.set_value("setup", "QK");
    b.new_game();
    b.wait_for(
        "window.polymachy.state().setup === 'QK'",
        "the new game with setup QK",
    );
    assert_eq!(b.state()["variant"]["id"], "holed-six");
    assert_eq!(b.placement(), "rnqknr/pppppp/3*2/2*3/PPPPPP/RNQKNR");
}

/// The squares whose centres the ends of each palace diagonal meet (`d1-f3`, within 1.5 px),
/// sorted; and the river: the ranks it lies between, whether its band runs from the centres of
/// the fifth rank's points to the sixth's, and the files whose lines cross it.
fn xiangqi_marks(b: &mut Browser) -> (Vec<String>, Value) {
    let diagonals = b.eval(
        "(() => {
        const svg = document.getElementById('lines').getBoundingClientRect();
        const cells = [...document.querySelectorAll('.sq')].map(c => { const r = c.getBoundingClientRect(); return [c.dataset.sq, r.x + r.width / 2, r.y + r.height / 2]; });
        const near = (x, y) => cells.map(([n, cx, cy]) => [n, Math.hypot(cx - x, cy - y)]).sort((p, q) => p[1] - q[1])[0];
        return [...document.querySelectorAll('#lines line.diagonal')].map(l => {
          const a = near(svg.x + +l.getAttribute('x1'), svg.y + +l.getAttribute('y1'));
          const z = near(svg.x + +l.getAttribute('x2'), svg.y + +l.getAttribute('y2'));
          return [a[0], z[0]].sort().join('-') + (Math.max(a[1], z[1]) < 1.5 ? '' : ' (off the points)');
        });
      })()",
    );
    let mut diagonals: Vec<String> = diagonals
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    diagonals.sort();
    let river = b.eval(
        "(() => {
        const svg = document.getElementById('lines').getBoundingClientRect();
        const band = document.querySelector('#lines rect.river');
        if (!band) return null;
        const centre = n => { const r = document.querySelector(`.sq[data-sq=\"${n}\"]`).getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; };
        const top = svg.y + +band.getAttribute('y'), bottom = top + +band.getAttribute('height');
        const banks = [centre('e5')[1], centre('e6')[1]].sort((p, q) => p - q);
        const mid = (top + bottom) / 2;
        const files = 'abcdefghi'.split('');
        const crossing = [...document.querySelectorAll('#lines line.grid')].filter(l => {
          const y1 = svg.y + +l.getAttribute('y1'), y2 = svg.y + +l.getAttribute('y2');
          return l.getAttribute('x1') === l.getAttribute('x2') && Math.min(y1, y2) < mid && Math.max(y1, y2) > mid;
        }).map(l => files.find(f => Math.abs(centre(f + '1')[0] - (svg.x + +l.getAttribute('x1'))) < 1.5)).sort();
        return { between: band.dataset.between, banks: Math.abs(top - banks[0]) < 1.5 && Math.abs(bottom - banks[1]) < 1.5,
                 crossing, lines: document.querySelectorAll('#lines line.grid').length };
      })()",
    );
    (diagonals, river)
}

// Xiangqi is drawn as players know it, from its `[display]` table: pieces on the points where
// lines cross (every square one colour), both palaces crossed by their diagonals from corner
// point to corner point, and the river between ranks 5 and 6, which only the edge files'
// lines cross. The same after the board is turned round. Chess has none of it.
#[test]
fn xiangqi_shows_its_palaces_and_river() {
    let Some((_server, mut b)) = page("xiangqi", "variant=xiangqi&white=human&black=human&depth=1")
    else {
        return;
    };
    assert_eq!(
        b.eval("document.getElementById('board').classList.contains('points')"),
        json!(true)
    );
    assert_eq!(
        b.eval("(() => { const c = s => getComputedStyle(document.querySelector(`.sq[data-sq=\"${s}\"]`)).backgroundColor; return c('e5') === c('e4'); })()"),
        json!(true)
    );
    let palaces = ["d1-f3", "d10-f8", "d3-f1", "d8-f10"];
    let river = json!({"between": "5-6", "banks": true, "crossing": ["a", "i"], "lines": 26});
    let (diagonals, shown) = xiangqi_marks(&mut b);
    assert_eq!(diagonals, palaces);
    assert_eq!(shown, river);
    b.screenshot("xiangqi");
    b.click_at("#flip");
    b.wait_for(
        "document.querySelector('#board .sq').dataset.sq === 'i1'",
        "the board turned round",
    );
    let (diagonals, shown) = xiangqi_marks(&mut b);
    assert_eq!(diagonals, palaces);
    assert_eq!(shown, river);
    let (_chess, curl) = serve_variant("chess");
    b.open(&format!(
        "{curl}?variant=chess&white=human&black=human&depth=1"
    ));
    b.wait_for(
        "!!(window.polymachy && window.polymachy.state())",
        "the chess game",
    );
    assert_eq!(
        b.eval("[document.getElementById('board').classList.contains('points'), document.getElementById('lines').childElementCount]"),
        json!([false, 0])
    );
}

/// The elements whose right edge is beyond the viewport's width: `tag#id.class right`.
fn wider_than_the_screen(b: &mut Browser) -> Vec<String> {
    let v = b.eval("(() => { const w = document.documentElement.clientWidth; return [...document.querySelectorAll('body *')].filter(e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.right > w + 0.5; }).map(e => `${e.tagName.toLowerCase()}#${e.id}.${typeof e.className === 'string' ? e.className : ''} ${Math.round(e.getBoundingClientRect().right)}`); })()");
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect()
}

// A phone's 390 px: no element of the page (panels unfolded, analysis on) reaches beyond the
// screen's right edge.
#[test]
fn nothing_is_wider_than_a_phone() {
    let Some(exe) = chromium() else {
        common::missing("chromium");
        return;
    };
    let (_server, url) = serve();
    let mut b = Browser::launch(&exe);
    for variant in ["metamachy", "terachess2", "crazyhouse"] {
        b.open_sized(
            &format!("{url}?variant={variant}&white=human&black=human&depth=1&analysis_depth=1"),
            390,
            844,
            true,
        );
        b.wait_for(
            "!!(window.polymachy && window.polymachy.state())",
            "the game",
        );
        b.wait_idle();
        b.unfold();
        b.click_js(".piece");
        b.click_js("#analyse");
        b.wait_for(
            "document.querySelectorAll('#analysis .aline').length === 3",
            "the analysis",
        );
        let wide = wider_than_the_screen(&mut b);
        assert!(wide.is_empty(), "{variant}: wider than 390 px: {wide:?}");
    }
}

// At a laptop's 1366 px, in chess from a position with an en-passant capture: the page has
// its own icon; a menu with nothing to choose is hidden (no setups in chess, no seconds for a
// level of fixed nodes); the players' menus share a row; a click focuses a square without a
// ring, a key shows the ring inside the square; a click on an empty square is no error; the
// en-passant square is marked otherwise than a plain step.
#[test]
fn the_form_the_focus_and_the_marks() {
    let Some(exe) = chromium() else {
        common::missing("chromium");
        return;
    };
    let (_server, url) = serve();
    let mut b = Browser::launch(&exe);
    b.open_sized(
        &format!("{url}?variant=chess&white=human&black=human&depth=1&fen=4k3/8/8/3pP3/8/8/8/4K3%20w%20-%20d6%200%201"),
        1366,
        657,
        false,
    );
    b.wait_for(
        "!!(window.polymachy && window.polymachy.state())",
        "the game",
    );
    b.wait_idle();
    assert_eq!(
        b.eval(
            "document.querySelector('link[rel=\"icon\"]').href.startsWith('data:image/svg+xml')"
        ),
        json!(true)
    );
    let shown = |b: &mut Browser, id: &str| {
        b.eval(&format!(
            "document.getElementById('{id}').getClientRects().length > 0"
        ))
    };
    assert_eq!(
        shown(&mut b, "setup-label"),
        json!(false),
        "chess has no setups"
    );
    b.set_value("level", "beginner");
    assert_eq!(
        shown(&mut b, "limit-label"),
        json!(false),
        "a level of nodes"
    );
    b.set_value("level", "full");
    assert_eq!(
        shown(&mut b, "limit-label"),
        json!(true),
        "seconds per move"
    );
    let white = rect(&mut b, "#white");
    let black = rect(&mut b, "#black");
    assert!(
        (white[1] - black[1]).abs() < 2.0,
        "White {white:?} and Black {black:?} on one row"
    );
    // Focus: a click leaves no ring; a key shows it, inside the square.
    let ring = "(() => { const e = document.activeElement; const cs = getComputedStyle(e); return [e.dataset.sq || null, cs.outlineStyle, parseFloat(cs.outlineWidth), parseFloat(cs.outlineOffset)]; })()";
    b.click_square("e1");
    let r = b.eval(ring);
    assert_eq!(r[0], json!("e1"), "{r}");
    assert_eq!(r[1], json!("none"), "no ring after a click: {r}");
    b.key("ArrowRight", 39);
    let r = b.eval(ring);
    assert_eq!(r[0], json!("f1"), "{r}");
    assert_eq!(r[1], json!("solid"), "a ring after a key: {r}");
    assert!(
        r[2].as_f64().unwrap() >= 2.0 && r[3].as_f64().unwrap() <= -r[2].as_f64().unwrap(),
        "drawn inside the square: {r}"
    );
    // An empty square clicked: no error.
    b.click_square("e1");
    b.click_square("a6");
    assert_eq!(
        b.eval("document.getElementById('status').className"),
        json!("")
    );
    // The pawn on e5: e6 a step, d6 en passant, marked otherwise.
    b.click_square("e5");
    let marks = b.eval("['d6', 'e6'].map(q => { const c = document.querySelector(`.sq[data-sq=\"${q}\"]`); return [c.className, getComputedStyle(c, '::after').backgroundImage]; })");
    let (d6, e6) = (&marks[0], &marks[1]);
    assert!(d6[0].as_str().unwrap().contains("dest-ep"), "{marks}");
    assert!(
        !d6[0].as_str().unwrap().split(' ').any(|c| c == "dest"),
        "{marks}"
    );
    assert!(
        e6[0].as_str().unwrap().split(' ').any(|c| c == "dest"),
        "{marks}"
    );
    assert_ne!(d6[1], e6[1], "drawn otherwise: {marks}");
    b.click_square("d6");
    b.wait_for("window.polymachy.state().history.length === 1", "exd6");
    assert_eq!(b.state()["moves"], json!(["exd6"]));
}

// Each player's clock, large, at their edge of the board (the right edge's corners on a
// laptop, above and below the board on a phone), with the pieces they have more of; Flip
// swaps them. Screenshots `players-laptop.png` and `players-phone.png`.
#[test]
fn the_players_stand_at_their_edges_of_the_board() {
    let Some(exe) = chromium() else {
        common::missing("chromium");
        return;
    };
    let (_server, url) = serve();
    let mut b = Browser::launch(&exe);
    for (device, w, h, mobile) in [("laptop", 1366, 657, false), ("phone", 390, 844, true)] {
        b.open_sized(
            &format!("{url}?variant=chess&white=human&black=human&depth=1&clock=3%2B2&fen=4k3/8/8/8/8/8/8/3NK3%20w%20-%20-%200%201"),
            w,
            h,
            mobile,
        );
        b.wait_for(
            "!!(window.polymachy && window.polymachy.state())",
            "the game",
        );
        b.wait_idle();
        let board = rect(&mut b, "#board");
        let black = rect(&mut b, "#clock-black");
        let white = rect(&mut b, "#clock-white");
        if device == "laptop" {
            assert!(
                black[0] >= board[2] && (black[1] - board[1]).abs() < 4.0,
                "Black at the top corner: {black:?}, board {board:?}"
            );
            assert!(
                white[0] >= board[2] && (white[3] - board[3]).abs() < 4.0,
                "White at the bottom corner: {white:?}, board {board:?}"
            );
        } else {
            assert!(
                black[3] <= board[1] + 1.0,
                "Black above: {black:?}, board {board:?}"
            );
            assert!(
                white[1] >= board[3] - 1.0,
                "White below: {white:?}, board {board:?}"
            );
            let wide = wider_than_the_screen(&mut b);
            assert!(wide.is_empty(), "wider than 390 px: {wide:?}");
        }
        let size = b.eval("parseFloat(getComputedStyle(document.querySelector('#clock-white span:last-child')).fontSize)");
        assert!(
            size.as_f64().unwrap() >= 19.0,
            "{device}: a large clock ({size} px)"
        );
        assert_eq!(
            b.eval("document.getElementById('clock-white').textContent"),
            json!("White 3:00")
        );
        // White has a Knight more.
        assert_eq!(
            b.eval("[document.getElementById('material-white').dataset.pieces, document.getElementById('material-black').dataset.pieces, document.querySelectorAll('#material-white svg').length]"),
            json!(["N", "", 1])
        );
        b.screenshot(&format!("players-{device}"));
        b.click_js("#flip");
        let board = rect(&mut b, "#board");
        let white = rect(&mut b, "#clock-white");
        let at_top = if device == "laptop" {
            (white[1] - board[1]).abs() < 4.0
        } else {
            white[3] <= board[1] + 1.0
        };
        assert!(
            at_top,
            "{device}: White at the top once flipped: {white:?}, board {board:?}"
        );
    }
}

/// Types `text` into the move box and presses Enter.
fn type_move(b: &mut Browser, text: &str) {
    b.eval("(() => { document.getElementById('typed-move').focus(); return true; })()");
    b.call("Input.insertText", json!({ "text": text }));
    for kind in ["keyDown", "keyUp"] {
        b.call(
            "Input.dispatchKeyEvent",
            json!({"type": kind, "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13, "text": if kind == "keyDown" { "\r" } else { "" }}),
        );
    }
}

// Moves typed in the box: SAN, coordinates, a drop; a move that is not legal is refused with
// a message and changes nothing.
#[test]
fn typed_moves_are_played() {
    let Some((_server, mut b)) = page("chess", "variant=chess&white=human&black=human&depth=1")
    else {
        return;
    };
    type_move(&mut b, "Nf3");
    b.wait_for("window.polymachy.state().history.length === 1", "Nf3");
    assert_eq!(
        b.eval("document.getElementById('typed-move').value"),
        json!("")
    );
    type_move(&mut b, "e7e5");
    b.wait_for("window.polymachy.state().history.length === 2", "e7e5");
    assert_eq!(b.state()["moves"], json!(["Nf3", "e5"]));
    type_move(&mut b, "Ke9");
    b.wait_for(
        "document.getElementById('status').className === 'error'",
        "the refusal",
    );
    assert!(
        b.eval("window.polymachy.status()")
            .as_str()
            .unwrap()
            .starts_with("Ke9")
    );
    assert_eq!(b.state()["moves"], json!(["Nf3", "e5"]));
    let Some((_server, mut b)) = page(
        "crazyhouse",
        "variant=crazyhouse&white=human&black=human&depth=1&fen=4k3/8/8/8/8/8/8/4K3%5BN%5D%20w%20-%20-%200%201",
    ) else {
        return;
    };
    type_move(&mut b, "N@e4");
    b.wait_for("window.polymachy.state().history.length === 1", "N@e4");
    assert_eq!(move_rows(&mut b), vec!["1. N@e4"]);
}

/// What the page shows of the sides and pieces: the clocks' names (bottom first), the piece
/// set's class and characters of the first rank's pieces, and how many squares' colours there are.
fn culture_shown(b: &mut Browser) -> Value {
    b.eval(
        "(() => {
        const who = id => document.querySelector(`#${id} .who`).textContent;
        const first = [...document.querySelectorAll('.sq')].filter(c => c.dataset.sq.endsWith('1') && c.dataset.sq.length === 2 && c.querySelector('svg'));
        const colours = new Set([...document.querySelectorAll('.sq')].map(c => getComputedStyle(c).backgroundColor));
        return { names: [who('player-white'), who('player-black')],
                 bottom: document.querySelector('#edge-bottom .clock').id,
                 set: [...new Set(first.map(c => c.querySelector('svg').getAttribute('class')))].sort(),
                 chars: first.map(c => c.querySelector('svg').dataset.char || '').join(''),
                 colours: colours.size };
      })()",
    )
}

// Xiangqi in its own culture: Red (moving first, at the bottom) and Black on the clocks and
// the status; the traditional set, a character on a disc (帥 仕 相 傌 俥 in red); its moves
// written in WXF (C2.5, the central Cannon); the rule texts in plain words (no zone names).
// The Western set stays a choice. Screenshots at a laptop's and a phone's size.
#[test]
fn xiangqi_is_shown_with_red_and_black_and_its_own_pieces() {
    let Some((_server, mut b)) = page("xiangqi", "variant=xiangqi&white=human&black=human&depth=1")
    else {
        return;
    };
    let shown = culture_shown(&mut b);
    assert_eq!(shown["names"], json!(["Red", "Black"]), "{shown}");
    assert_eq!(shown["bottom"], "clock-white");
    assert_eq!(shown["set"], json!(["glyph trad xiangqi w"]), "{shown}");
    assert_eq!(shown["chars"], "俥傌相仕帥仕相傌俥");
    assert_eq!(
        b.eval("document.querySelectorAll('.sq svg.xiangqi circle.disc').length"),
        json!(32)
    );
    assert!(
        b.eval("document.getElementById('status').textContent")
            .as_str()
            .unwrap()
            .starts_with("Red to move"),
    );
    b.play("h3", "e3", 1);
    b.play("h8", "e8", 2);
    assert_eq!(move_rows(&mut b), vec!["1. C2.5 C8.5"]);
    let words = b.eval("window.polymachy.variant().pieces.map(p => p.words).join(' ') + window.polymachy.variant().rules.map(r => r.text).join(' ')");
    let words = words.as_str().unwrap();
    for zone in ["across-river", "own-half", "`palace`", "White"] {
        assert!(!words.contains(zone), "{zone} in {words}");
    }
    assert!(words.contains("It never leaves its palace."), "{words}");
    for (device, w, h, mobile) in [("laptop", 1366, 657, false), ("phone", 390, 844, true)] {
        b.resize(w, h, mobile);
        b.screenshot(&format!("xiangqi-own-{device}"));
    }
    b.set_value("piece-style", "images");
    assert_eq!(
        b.eval("document.querySelectorAll('.sq svg.trad').length"),
        json!(0)
    );
    b.set_value("piece-style", "own");
}

// Shogi in its own culture: Sente (moving first, at the bottom) and Gote; an uncheckered
// board; koma with characters, Gote's turned to point at Sente; a promotion offered over the
// board at its square and written with `+`, the promoted piece's character in red; the piece
// taken in Sente's hand, beside the board at Sente's edge (a drop is written `P*d5`: see the
// test of a Shogi Pawn in hand).
#[test]
fn shogi_is_shown_with_sente_and_gote_and_its_own_pieces() {
    let Some((_server, mut b)) = page("shogi", "variant=shogi&white=human&black=human&depth=1")
    else {
        return;
    };
    let shown = culture_shown(&mut b);
    assert_eq!(shown["names"], json!(["Sente", "Gote"]), "{shown}");
    assert_eq!(shown["bottom"], "clock-white");
    assert_eq!(shown["set"], json!(["glyph trad shogi w"]), "{shown}");
    assert_eq!(shown["chars"], "香桂銀金玉金銀桂香");
    assert_eq!(shown["colours"], json!(1), "{shown}");
    // Gote's koma are turned round; Sente's are not.
    assert_eq!(
        b.eval("[!!document.querySelector('.sq[data-sq=\"e9\"] svg g[transform]'), !!document.querySelector('.sq[data-sq=\"e1\"] svg g[transform]')]"),
        json!([true, false])
    );
    b.play("c3", "c4", 1);
    b.play("e7", "e6", 2);
    // Bishop takes on g7: promote or not, asked at g7.
    b.click_square("b2");
    b.click_square("g7");
    b.wait_for(
        "!document.getElementById('promo').hidden",
        "the promotion choice",
    );
    let at = b.eval("(() => { const p = document.getElementById('promo').getBoundingClientRect(); const s = document.querySelector('.sq[data-sq=\"g7\"]').getBoundingClientRect(); const b = document.getElementById('board').getBoundingClientRect(); return [p.left < s.right && p.right > s.left && p.top < s.bottom && p.bottom > s.top, p.left >= b.left - 1 && p.right <= b.right + 1, [...document.querySelectorAll('#promo button')].map(x => x.lastChild.textContent)]; })()");
    assert_eq!(
        at,
        json!([true, true, ["no promotion", "Dragon Horse", "Cancel"]]),
        "{at}"
    );
    b.click_at("#promo button[data-uci='b2g7+']");
    b.wait_for(
        "window.polymachy.state().history.length === 3",
        "the promotion",
    );
    assert_eq!(move_rows(&mut b), vec!["1. P-c4 P-e6", "2. Bxg7+"]);
    assert_eq!(
        b.eval("(() => { const s = document.querySelector('.sq[data-sq=\"g7\"] svg'); return [s.dataset.char, getComputedStyle(s.querySelector('.char')).fill]; })()"),
        json!(["馬", "rgb(192, 20, 28)"])
    );
    // Sente's hand holds the Pawn taken, beside the board at Sente's edge.
    let hand = b.eval("(() => { const h = document.getElementById('hand-white').getBoundingClientRect(); const g = document.getElementById('hand-black').getBoundingClientRect(); const b = document.getElementById('board').getBoundingClientRect(); const outside = r => r.left >= b.right - 1 || r.right <= b.left + 1 || r.top >= b.bottom - 1 || r.bottom <= b.top + 1; return [document.querySelectorAll('#hand-white button[data-drop=\"@P\"]').length, outside(h), outside(g), h.top > g.top, document.getElementById('hands') === null]; })()");
    assert_eq!(hand, json!([1, true, true, true, true]), "{hand}");
    // The hands stand where the extra material would: it is not shown beside them.
    assert_eq!(
        b.eval("[document.getElementById('material-white').hidden, document.getElementById('material-black').hidden]"),
        json!([true, true])
    );
    // Gote's Gold blocks the check.
    b.play("f9", "f8", 4);
    assert_eq!(move_rows(&mut b), vec!["1. P-c4 P-e6", "2. Bxg7+ G-f8"]);

    for (device, w, h, mobile) in [("laptop", 1366, 657, false), ("phone", 390, 844, true)] {
        b.resize(w, h, mobile);
        b.screenshot(&format!("shogi-own-{device}"));
    }
}

/// The Ruy Lopez's main line: 20 moves (plies).
const RUY_LOPEZ: &str = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7";

/// Loads `pgn` through the page's FEN and PGN panel and waits for its `plies` moves.
fn load_pgn(b: &mut Browser, pgn: &str, plies: usize) {
    b.eval(&format!(
        "(() => {{ document.getElementById('text').value = {}; return true; }})()",
        serde_json::to_string(pgn).unwrap()
    ));
    b.click_at("#load-pgn");
    b.wait_for(
        &format!("window.polymachy.state().history.length === {plies}"),
        "the game loaded",
    );
}

// Game review on the page. A game of 20 moves, loaded and resigned, is reviewed: while a
// deep review runs a progress bar and Stop show, and Stop stops it where it is; the review
// again at depth 4 draws a graph of 20 points, and a click on the seventh shows the position
// after 4. Ba4. A Queen hung (3. Qxf7+?? Kxf7) is then marked `??` in the move list and red
// on the graph. Screenshots of both.
#[test]
fn a_finished_game_is_reviewed_with_a_graph_of_its_moves() {
    let Some((_server, mut b)) = page(
        "chess",
        "variant=chess&white=human&black=human&depth=1&review_depth=4",
    ) else {
        return;
    };
    load_pgn(&mut b, RUY_LOPEZ, 20);
    b.click_at("#resign");
    b.click_at("#confirm-yes");
    b.wait_for("!!window.polymachy.state().result", "the resignation");
    b.click_at("#banner-close");
    b.eval(
        "api('POST', '/api/review', { sid, depth: 20 }).then(s => { setState(s); return true; })",
    );
    assert_eq!(
        b.eval("[document.getElementById('review-progress').hidden, document.getElementById('review-stop').hidden, document.getElementById('review-progress').max]"),
        json!([false, false, 20])
    );
    b.click_at("#review-stop");
    b.wait_for(
        "document.getElementById('review-progress').hidden && /stopped at/.test(document.getElementById('review-head').textContent)",
        "the review stopped",
    );
    b.click_at("#review-start");
    b.wait_for(
        "!!window.polymachy.state().review && window.polymachy.state().review.done === 20 && !window.polymachy.state().review.running",
        "the review",
    );
    assert_eq!(
        b.eval("document.querySelectorAll('#review-graph circle.point').length"),
        json!(20)
    );
    b.click_at("#review-graph circle.point[data-ply='7']");
    b.wait_for(
        "document.getElementById('viewing').textContent === 'viewing 4. Ba4'",
        "the seventh move shown",
    );
    b.screenshot("review");
    load_pgn(&mut b, "1. e4 e5 2. Qh5 Nc6 3. Qxf7+ Kxf7", 6);
    b.click_at("#review-start");
    b.wait_for(
        "!!window.polymachy.state().review && window.polymachy.state().review.done === 6 && !window.polymachy.state().review.running",
        "the review of the Queen hung",
    );
    assert_eq!(
        b.eval("[...document.querySelectorAll('#moves .san.blunder')].map(e => e.textContent)"),
        json!(["Qxf7+??"])
    );
    assert_eq!(
        b.eval("[...document.querySelectorAll('#review-graph circle.point.blunder')].map(c => c.dataset.ply)"),
        json!(["5"])
    );
    b.screenshot("review-blunder");
    // The graph at a laptop's and a phone's size; nothing wider than the phone.
    for (device, w, h, mobile) in [("laptop", 1366, 657, false), ("phone", 390, 844, true)] {
        b.resize(w, h, mobile);
        assert_eq!(
            b.eval("document.querySelectorAll('#review-graph circle.point').length"),
            json!(6),
            "{device}"
        );
        if mobile {
            let wide = wider_than_the_screen(&mut b);
            assert!(wide.is_empty(), "wider than 390 px: {wide:?}");
        }
        b.eval("document.getElementById('review-graph').scrollIntoView({block: 'center'}) || true");
        b.screenshot(&format!("review-{device}"));
    }
}

/// Waits until the page shows `plies` moves; how long it took.
fn arrives(b: &mut Browser, plies: usize, what: &str) -> Duration {
    let t = Instant::now();
    b.wait_for(
        &format!("window.polymachy.state().history.length === {plies}"),
        what,
    );
    t.elapsed()
}

// Play a friend. The first tab shares its game (Play a friend); a second browser opens the
// friend's link and plays Black (its board turned round), a third opens the spectators' link.
// Each move reaches the two other pages within a second, pushed by the long poll (no timer
// polls). The spectator's click picks no piece and its move sent by hand is refused (403);
// the friend cannot move White's pieces.
#[test]
fn a_friend_plays_through_a_link_and_a_spectator_watches() {
    let Some((_server, mut a)) = page("chess", "variant=chess&white=human&black=engine&depth=1")
    else {
        return;
    };
    a.click_at("#invite");
    a.wait_for("!!window.polymachy.state().links", "the links");
    let link = |a: &mut Browser, id: &str| {
        a.eval(&format!("document.getElementById('{id}').value"))
            .as_str()
            .unwrap()
            .to_string()
    };
    let (friend, watch) = (link(&mut a, "link-friend"), link(&mut a, "link-watch"));
    assert!(
        friend.contains("?join=") && watch.contains("?watch="),
        "{friend} {watch}"
    );
    let exe = chromium().unwrap();
    let mut others = Vec::new();
    for url in [&friend, &watch] {
        let mut b = Browser::launch(&exe);
        b.open(url);
        b.wait_for(
            "!!(window.polymachy && window.polymachy.state())",
            "the shared game",
        );
        others.push(b);
    }
    let [mut b, mut c] = <[Browser; 2]>::try_from(others).ok().unwrap();
    assert_eq!(b.state()["you"], json!({"side": "black", "watch": false}));
    assert_eq!(c.state()["you"], json!({"side": null, "watch": true}));
    assert_eq!(
        b.state()["links"],
        Value::Null,
        "only the host gets the links"
    );
    assert_eq!(
        b.eval("document.querySelector('#board .sq').dataset.sq"),
        "h1"
    );
    a.play("e2", "e4", 1);
    let (tb, tc) = (
        arrives(&mut b, 1, "e4 at the friend's"),
        arrives(&mut c, 1, "e4 at the spectator's"),
    );
    assert!(
        tb < Duration::from_secs(1) && tc < Duration::from_secs(1),
        "{tb:?} {tc:?}"
    );
    b.play("e7", "e5", 2);
    let (ta, tc) = (
        arrives(&mut a, 2, "e5 at the host's"),
        arrives(&mut c, 2, "e5 at the spectator's"),
    );
    assert!(
        ta < Duration::from_secs(1) && tc < Duration::from_secs(1),
        "{ta:?} {tc:?}"
    );
    // The spectator moves nothing.
    c.click_square("g1");
    assert_eq!(
        c.eval("[document.querySelectorAll('.sq.selected, .sq.dest').length, document.getElementById('status').textContent]"),
        json!([0, "You are watching: only the players move."])
    );
    let refused = c.eval("api('POST', '/api/move', { sid, move: 'g1f3' }).then(() => 'played', e => `${e.status} ${e.message}`)");
    assert!(
        refused
            .as_str()
            .unwrap()
            .starts_with("403 you are watching"),
        "{refused}"
    );
    // Nor does the friend move White's pieces, by clicks or by hand.
    b.click_square("g1");
    b.click_square("f3");
    let refused = b.eval("api('POST', '/api/move', { sid, move: 'g1f3' }).then(() => 'played', e => `${e.status} ${e.message}`)");
    assert!(
        refused
            .as_str()
            .unwrap()
            .starts_with("403 it is not your turn"),
        "{refused}"
    );
    assert_eq!(a.state()["history"].as_array().unwrap().len(), 2);
    a.play("g1", "f3", 3);
    assert!(arrives(&mut c, 3, "Nf3 at the spectator's") < Duration::from_secs(1));
    assert_eq!(
        c.eval("window.polymachy.state().moves"),
        json!(["e4", "e5", "Nf3"])
    );
}

/// Records every Web Animation the page starts on a piece (the square it runs on), so that a
/// slide of 180 ms is seen however late the test looks.
fn watch_animations(b: &mut Browser) {
    b.eval(
        "(() => { window.__anims = []; const orig = Element.prototype.animate;
          Element.prototype.animate = function (...args) {
            const a = orig.apply(this, args);
            const sq = this.closest && this.closest('.sq');
            window.__anims.push({ sq: sq ? sq.dataset.sq : null, state: a.playState,
                                  piece: !!(this.classList && this.classList.contains('glyph')) });
            return a;
          }; return true; })()",
    );
}

// Moves slide: the player's move and the engine's reply each start an animation of the piece
// on the square reached (Web Animations, from its square), one step on in the move list too;
// a jump through the move list (to the start and back to the game) starts none, and with
// the system's reduced motion no move slides.
#[test]
fn moves_slide_but_jumps_and_reduced_motion_do_not() {
    let Some((_server, mut b)) = page("chess", "variant=chess&white=human&black=engine&depth=1")
    else {
        return;
    };
    // The system asks for motion (a headless browser may say otherwise by default).
    b.call(
        "Emulation.setEmulatedMedia",
        json!({"features": [{"name": "prefers-reduced-motion", "value": "no-preference"}]}),
    );
    watch_animations(&mut b);
    b.play("e2", "e4", 2);
    b.wait_idle();
    let st = b.state();
    let reply = &st["history"][1];
    let slides = b.eval("window.polymachy.slides().map(s => `${s.ply} ${s.from}-${s.to}`)");
    let want = format!(
        "2 {}-{}",
        reply["from"].as_str().unwrap(),
        reply["to"].as_str().unwrap()
    );
    // The player's move slides in its own answer, or with the engine's reply when both came
    // in one.
    let slides = slides.as_array().unwrap();
    assert!(
        slides
            .iter()
            .any(|s| s.as_str().unwrap().ends_with(" e2-e4"))
            && slides.contains(&json!(want)),
        "{slides:?} {want}"
    );
    let anims = b.eval("window.__anims.filter(a => a.piece).map(a => a.sq)");
    assert!(
        anims.as_array().unwrap().contains(&json!("e4"))
            && anims.as_array().unwrap().contains(&reply["to"]),
        "an animation on the engine's piece: {anims}"
    );
    // A jump: to the start and back to the game, no slide; one step on from the start slides.
    let count = |b: &mut Browser| b.eval("window.polymachy.slides().length").as_u64().unwrap();
    let before = count(&mut b);
    b.key("Home", 36);
    b.wait_for("window.polymachy.viewing() === 0", "the start");
    b.key("End", 35);
    b.wait_for("window.polymachy.viewing() === null", "the game");
    assert_eq!(count(&mut b), before, "a jump does not slide");
    b.key("Home", 36);
    b.wait_for("window.polymachy.viewing() === 0", "the start");
    b.click_js("#nav-next");
    b.wait_for("window.polymachy.viewing() === 1", "one move on");
    assert_eq!(count(&mut b), before + 1, "a step on slides");
    b.key("End", 35);
    b.wait_for("window.polymachy.viewing() === null", "the game");
    // Reduced motion: nothing slides.
    b.call(
        "Emulation.setEmulatedMedia",
        json!({"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]}),
    );
    let before = count(&mut b);
    b.play("d2", "d4", 4);
    b.wait_idle();
    assert_eq!(count(&mut b), before, "reduced motion: no slide");
}

/// Reloads the page and waits for its game.
fn reload(b: &mut Browser) {
    b.eval("window.__old = true");
    b.call("Page.reload", json!({}));
    b.wait_for(
        "!window.__old && !!(window.polymachy && window.polymachy.state() && window.polymachy.variant())",
        "the page again",
    );
    b.wait_idle();
    b.unfold();
}

// The board's colour and the piece set are settings kept by the browser: blue squares stay
// blue and Western pieces stay Western after the page is loaded again. The piece menu names
// the game's own set (Xiangqi's characters), and the pieces panel draws the board's set
// (Xiangqi's discs, not Western images), before and after the change.
#[test]
fn the_board_colour_and_the_piece_set_are_kept_and_the_panel_draws_the_board_s_set() {
    let Some((_server, mut b)) = page("xiangqi", "variant=xiangqi&white=human&black=human&depth=1")
    else {
        return;
    };
    let sets = |b: &mut Browser| {
        b.eval(
            "(() => { const classes = sel => [...new Set([...document.querySelectorAll(sel)].map(s => s.getAttribute('class').replace(/ [wb]$/, '').replace(/ [wb] /, ' ')))].sort();
               return { board: classes('#board .sq svg.glyph'), panel: classes('#pieces .piece svg.glyph'),
                        own: document.querySelector('#piece-style option[value=own]').textContent,
                        colour: document.getElementById('board-colour').value,
                        square: getComputedStyle(document.querySelector('#board .sq.dark')).backgroundColor }; })()",
        )
    };
    let first = sets(&mut b);
    assert_eq!(first["board"], json!(["glyph trad xiangqi"]), "{first}");
    assert_eq!(first["panel"], first["board"], "{first}");
    assert!(
        first["own"]
            .as_str()
            .unwrap()
            .contains("Xiangqi characters"),
        "{first}"
    );
    assert_eq!(first["colour"], "brown");
    b.click_js("#pieces .piece");
    assert_eq!(
        b.eval("document.querySelector('#piece-info h3 svg').getAttribute('class').includes('trad xiangqi')"),
        json!(true)
    );
    b.set_value("board-colour", "blue");
    b.set_value("piece-style", "images");
    reload(&mut b);
    let kept = sets(&mut b);
    assert_eq!(kept["colour"], "blue", "{kept}");
    // A board of points takes the light colour: blue's is #dee3e6.
    assert_eq!(kept["square"], "rgb(222, 227, 230)", "{kept}");
    assert_eq!(kept["board"], json!(["glyph image"]), "{kept}");
    assert_eq!(kept["panel"], kept["board"], "{kept}");
    b.set_value("piece-style", "own");
    let own = sets(&mut b);
    assert_eq!(own["board"], json!(["glyph trad xiangqi"]), "{own}");
    assert_eq!(own["panel"], own["board"], "{own}");
}

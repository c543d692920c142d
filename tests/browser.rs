//! The browser page, driven in headless Chromium through the DevTools protocol (over
//! `--remote-debugging-pipe`: JSON messages ended by a NUL byte on file descriptors 3 and 4).
//!
//! Mouse presses and releases are dispatched at the centres of the board's squares, as a
//! player's clicks would be; the page's state is read back with `Runtime.evaluate`. The test
//! plays Metamachy's first moves (a pawn's double step, a King's leap, an illegal click that
//! is refused), waits for the engine's replies, chooses a promotion in chess, loads a Terachess
//! II position by FEN and plays a move there with the keyboard, checks every board the page
//! shows against the position Polymachy computes, and saves a screenshot of the 16x16 game as
//! `target/browser/terachess2.png`.
//!
//! Needs Chromium (`chromium` on Debian). Without it the test fails when `CI` is set and
//! otherwise skips with a message.

use std::io::{BufRead, BufReader, Read, Write};
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
        let profile = std::env::temp_dir().join(format!(
            "polymachy-browser-test-{}-{}",
            std::process::id(),
            Instant::now().elapsed().as_nanos()
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
        let t = self.call("Target.createTarget", json!({"url": "about:blank"}));
        let target = t["targetId"].as_str().unwrap().to_string();
        let a = self.call(
            "Target.attachToTarget",
            json!({"targetId": target, "flatten": true}),
        );
        self.session = Some(a["sessionId"].as_str().unwrap().to_string());
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": 1400, "height": 1000, "deviceScaleFactor": 1, "mobile": false}),
        );
        self.call("Page.enable", json!({}));
        self.call("Page.navigate", json!({"url": url}));
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
fn serve() -> (Reaped, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_polymachy"))
        .args(["serve", "--port", "0", "--variant", "metamachy"])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the server starts");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in `{line}`"))
        .to_string();
    // Keep reading the server's output so that it never blocks on a full pipe.
    std::thread::spawn(move || {
        let mut sink = Vec::new();
        let _ = out.read_to_end(&mut sink);
    });
    (Reaped(child), url)
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
    b.click_at("#new");
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
    b.click_at("#new");
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
    let shot = b.call(
        "Page.captureScreenshot",
        json!({"format": "png", "captureBeyondViewport": true}),
    );
    let png = base64_decode(shot["data"].as_str().unwrap());
    assert_eq!(&png[1..4], b"PNG");
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/browser");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("terachess2.png");
    std::fs::write(&path, &png).unwrap();
    eprintln!("screenshot: {}", path.display());
}

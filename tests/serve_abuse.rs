//! `polymachy serve` under abuse, on the loopback only: huge announced bodies, slow bodies,
//! connections beyond the descriptor limit, floods of engine games, and a soak of all of them
//! at once while a well-behaved client plays. Every loop here is bounded in count and time.

#![cfg(target_os = "linux")]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::os::unix::process::CommandExt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

mod common;

/// The tests of this file one at a time: each opens connections up to the process's descriptor
/// limit or thousands at once, and run together they would take each other's descriptors.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn alone() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// The server's limits, as documented (`polymachy::serve`).
const MAX_SESSIONS: usize = polymachy::serve::MAX_SESSIONS;
const WORKERS: usize = polymachy::serve::WORKERS;

use common::{Server, serve_command, start_server};

/// Starts a server; `nofile` sets its descriptor limit (soft and hard).
fn start(args: &[&str], nofile: Option<u64>) -> Server {
    let mut cmd = serve_command(&["--variant", "chess"]);
    cmd.args(args);
    if let Some(n) = nofile {
        // SAFETY: only setrlimit, which is async-signal-safe, runs between fork and exec.
        unsafe {
            cmd.pre_exec(move || {
                let l = libc::rlimit {
                    rlim_cur: n,
                    rlim_max: n,
                };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &l) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    start_server(cmd)
}

/// The server's thread count and resident memory (KiB), from /proc.
fn usage(s: &Server) -> (usize, usize) {
    let text = std::fs::read_to_string(format!("/proc/{}/status", s.child.id())).unwrap();
    let field = |name: &str| -> usize {
        text.lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no {name} in /proc status"))
    };
    (field("Threads:"), field("VmRSS:"))
}

/// Raises this process's soft descriptor limit to at least `n` (within the hard limit);
/// returns the limit in force.
fn allow_descriptors(n: u64) -> u64 {
    let mut l = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit only read and write the struct given.
    unsafe {
        assert_eq!(libc::getrlimit(libc::RLIMIT_NOFILE, &mut l), 0);
        if l.rlim_cur < n {
            let want = libc::rlimit {
                rlim_cur: n.min(l.rlim_max),
                rlim_max: l.rlim_max,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &want) == 0 {
                return want.rlim_cur;
            }
        }
    }
    l.rlim_cur
}

/// One request written as given; (status, body), status 0 when the server closed without an
/// answer.
fn exchange(addr: &str, request: &[u8]) -> (u16, String) {
    let mut c = TcpStream::connect(addr).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let _ = c.write_all(request);
    let mut resp = Vec::new();
    let _ = c.read_to_end(&mut resp);
    let text = String::from_utf8_lossy(&resp).into_owned();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

fn request(addr: &str, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let (st, text) = exchange(addr, req.as_bytes());
    (st, serde_json::from_str(&text).unwrap_or(Value::Null))
}

fn huge_body_request(addr: &str) -> Vec<u8> {
    let mut r = format!(
        "POST /api/new HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 99999999999999\r\n\r\n"
    )
    .into_bytes();
    r.extend(std::iter::repeat_n(b'#', 4096));
    r
}

/// Waits until `ok` holds of the server's usage, at most `limit`; the last usage.
fn settle(s: &Server, limit: Duration, ok: impl Fn((usize, usize)) -> bool) -> (usize, usize) {
    let deadline = Instant::now() + limit;
    loop {
        let u = usage(s);
        if ok(u) || Instant::now() > deadline {
            return u;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn a_huge_announced_body_is_refused_unread() {
    let _alone = alone();
    let s = start(&[], None);
    let (st, _) = request(&s.addr, "GET", "/api/variants", None);
    assert_eq!(st, 200);
    let (_, rss_before) = usage(&s);
    let started = Instant::now();
    for _ in 0..100 {
        let (st, body) = exchange(&s.addr, &huge_body_request(&s.addr));
        assert_eq!(st, 413, "{body}");
        assert!(body.contains("too large"), "{body}");
    }
    // A body without a length, longer than allowed, is cut off too.
    let mut chunked = format!(
        "POST /api/new HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
        s.addr
    )
    .into_bytes();
    for _ in 0..80 {
        chunked.extend(b"1000\r\n");
        chunked.extend(std::iter::repeat_n(b' ', 4096));
        chunked.extend(b"\r\n");
    }
    let (st, body) = exchange(&s.addr, &chunked);
    assert_eq!(st, 413, "{body}");
    let elapsed = started.elapsed();
    assert!(elapsed < Duration::from_secs(10), "{elapsed:?}");
    // The server lives on, and its memory did not jump.
    let (st, _) = request(&s.addr, "GET", "/api/variants", None);
    assert_eq!(st, 200);
    let (_, rss_after) = usage(&s);
    assert!(
        rss_after < rss_before + 8 * 1024,
        "resident memory {rss_before} KiB → {rss_after} KiB"
    );
    println!("101 bodies refused in {elapsed:?}; resident memory {rss_before} → {rss_after} KiB");
}

#[test]
fn connections_beyond_the_descriptor_limit_never_stop_the_server() {
    let _alone = alone();
    // 64 descriptors: the server keeps at most 32 connections, and the oldest make room.
    let s = start(&[], Some(64));
    let mut idle = Vec::new();
    for _ in 0..300 {
        if let Ok(c) = TcpStream::connect(&s.addr) {
            idle.push(c);
        }
        if idle.len() % 50 == 0 {
            // Served while the idle connections pile up.
            let (st, _) = request(&s.addr, "GET", "/api/variants", None);
            assert_eq!(st, 200);
        }
    }
    assert!(idle.len() >= 290, "{} connections made", idle.len());
    let started = Instant::now();
    let (st, _) = request(&s.addr, "GET", "/api/variants", None);
    assert_eq!(st, 200);
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    drop(idle);
    // And after they close.
    for _ in 0..20 {
        let (st, _) = request(&s.addr, "GET", "/", None);
        assert_eq!(st, 200);
    }
    let (st, v) = request(&s.addr, "POST", "/api/new", Some(&json!({})));
    assert_eq!(st, 200, "{v}");
}

#[test]
fn an_evicted_game_s_engine_thread_ends() {
    let _alone = alone();
    // No game sleeps here: only eviction can end the engines.
    let s = start(&["--sleep-after", "3600"], None);
    let (st, _) = request(&s.addr, "GET", "/api/variants", None);
    assert_eq!(st, 200);
    let (base, _) = settle(&s, Duration::from_secs(5), |(t, _)| t == 1);
    let engines = json!({"white": "engine", "black": "engine", "movetime_ms": 50});
    let mut peak = 0;
    for _ in 0..MAX_SESSIONS {
        let (st, v) = request(&s.addr, "POST", "/api/new", Some(&engines));
        assert_eq!(st, 200, "{v}");
        peak = peak.max(usage(&s).0);
    }
    // Past the cap, games in play are not pushed out: a new one waits its turn.
    for _ in 0..8 {
        let (st, v) = request(&s.addr, "POST", "/api/new", Some(&engines));
        assert_eq!(st, 503, "{v}");
        peak = peak.max(usage(&s).0);
    }
    let busy = settle(&s, Duration::from_secs(2), |_| false).0;
    // One engine thread a game at most, and the previous move's thread while it ends.
    assert!(
        busy <= base + WORKERS + 2 * MAX_SESSIONS,
        "{busy} threads with {MAX_SESSIONS} games"
    );
    assert!(busy >= base + MAX_SESSIONS / 2, "the engines play: {busy}");
    // Once they are no longer in play (nobody asked about them), games between humans push
    // every engine game out.
    std::thread::sleep(polymachy::serve::IN_PLAY);
    for _ in 0..MAX_SESSIONS {
        let (st, v) = request(
            &s.addr,
            "POST",
            "/api/new",
            Some(&json!({"white": "human", "black": "human"})),
        );
        assert_eq!(st, 200, "{v}");
    }
    let after = settle(&s, Duration::from_secs(10), |(t, _)| t <= base).0;
    assert!(
        after <= base,
        "threads: {base} at the start, {busy} with engine games, {after} after they were evicted"
    );
    println!("threads: {base} → peak {peak}, {busy} playing → {after} after eviction");
}

/// A well-behaved player: a game against the engine, moves chosen among the legal ones, every
/// answer timed; the game ends by mate, by the rules or by resignation.
fn play_a_game(addr: &str, new: Value, longest: &mut Duration, answers: &mut usize) -> Value {
    let mut timed = |method: &str, path: &str, body: Option<&Value>| {
        let t = Instant::now();
        let r = request(addr, method, path, body);
        *longest = (*longest).max(t.elapsed());
        *answers += 1;
        r
    };
    let sid = new["sid"].as_str().unwrap().to_string();
    let mut state = new["state"].clone();
    for n in 0..12usize {
        if !state["result"].is_null() {
            return state;
        }
        let legal = state["legal"].as_array().unwrap();
        let mv = legal[(n * 7 + 3) % legal.len()]["uci"].as_str().unwrap();
        let (st, v) = timed("POST", "/api/move", Some(&json!({"sid": sid, "move": mv})));
        assert_eq!(st, 200, "{mv}: {v}");
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let (st, v) = timed("GET", &format!("/api/state?sid={sid}"), None);
            assert_eq!(st, 200, "{v}");
            if v["side"] == "white" && !v["engine"]["thinking"].as_bool().unwrap() {
                state = v;
                break;
            }
            if !v["result"].is_null() {
                return v;
            }
            assert!(Instant::now() < deadline, "the engine never replied: {v}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    // The engine's last reply may have ended the game (a mate of the random mover).
    if !state["result"].is_null() {
        return state;
    }
    let (st, v) = timed("POST", "/api/resign", Some(&json!({"sid": sid})));
    assert_eq!(st, 200, "{v}");
    v
}

fn new_game(addr: &str) -> Value {
    let body = json!({"white": "human", "black": "engine", "movetime_ms": 100});
    let (st, v) = request(addr, "POST", "/api/new", Some(&body));
    assert_eq!(st, 200, "{v}");
    v
}

#[test]
fn soak_abuse_of_every_kind_while_a_game_is_played() {
    let _alone = alone();
    const IDLE: usize = 2000;
    const SLOW: usize = 20;
    const HUGE: usize = 100;
    const GAMES: usize = 200;
    let limit = allow_descriptors(IDLE as u64 + 500);
    // Scaled to the descriptors this process may have, where fewer than asked for.
    let idle_count = IDLE.min((limit as usize).saturating_sub(400));
    let started = Instant::now();
    let s = start(&["--sleep-after", "2"], None);
    let addr = s.addr.clone();
    // Warm up: the page, the variant list, one game.
    for path in ["/", "/app.js", "/style.css", "/api/variants"] {
        assert_eq!(request(&addr, "GET", path, None).0, 200, "{path}");
    }
    let mut longest = Duration::ZERO;
    let mut answers = 0;
    play_a_game(&addr, new_game(&addr), &mut longest, &mut answers);
    // A full server: as many games as are kept, engine against engine, played until they
    // sleep. The same number are kept at the end.
    let engines = json!({"white": "engine", "black": "engine", "movetime_ms": 50});
    for _ in 1..MAX_SESSIONS {
        assert_eq!(request(&addr, "POST", "/api/new", Some(&engines)).0, 200);
    }
    // Where it starts: every game asleep and no longer in play, the workers gone.
    std::thread::sleep(polymachy::serve::IN_PLAY);
    let (threads0, rss0) = settle(&s, Duration::from_secs(10), |(t, _)| t == 1);

    // The player's game starts; then the abuse.
    let game = new_game(&addr);
    let stop = Arc::new(AtomicBool::new(false));
    let peak_threads = Arc::new(AtomicUsize::new(0));
    let peak_rss = Arc::new(AtomicUsize::new(0));
    let mut attackers = Vec::new();
    // Resource use, sampled.
    {
        let (stop, pt, pr) = (stop.clone(), peak_threads.clone(), peak_rss.clone());
        let path = format!("/proc/{}/status", s.child.id());
        attackers.push(std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                if let Ok(text) = std::fs::read_to_string(&path) {
                    for l in text.lines() {
                        let n = |p: &str| {
                            l.strip_prefix(p)?
                                .split_whitespace()
                                .next()?
                                .parse::<usize>()
                                .ok()
                        };
                        if let Some(t) = n("Threads:") {
                            pt.fetch_max(t, Ordering::Relaxed);
                        }
                        if let Some(r) = n("VmRSS:") {
                            pr.fetch_max(r, Ordering::Relaxed);
                        }
                    }
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            0
        }));
    }
    // Idle connections, held until the end.
    {
        let (stop, addr) = (stop.clone(), addr.clone());
        attackers.push(std::thread::spawn(move || {
            let mut held = Vec::new();
            for _ in 0..idle_count {
                if let Ok(c) = TcpStream::connect(&addr) {
                    held.push(c);
                }
            }
            let made = held.len();
            while !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(50));
            }
            made
        }));
    }
    // Slow bodies: a byte every half second.
    let slow_answers = Arc::new(AtomicUsize::new(0));
    for _ in 0..SLOW {
        let (addr, answered) = (addr.clone(), slow_answers.clone());
        attackers.push(std::thread::spawn(move || {
            let mut c = TcpStream::connect(&addr).unwrap();
            c.set_read_timeout(Some(Duration::from_millis(10))).unwrap();
            let head = format!(
                "POST /api/new HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
            );
            let _ = c.write_all(head.as_bytes());
            let mut got = Vec::new();
            let deadline = Instant::now() + Duration::from_secs(30);
            while Instant::now() < deadline {
                if c.write_all(b" ").is_err() {
                    break;
                }
                let mut buf = [0u8; 512];
                match c.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => got.extend_from_slice(&buf[..n]),
                    Err(_) => {}
                }
                if !got.is_empty() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(500));
            }
            if String::from_utf8_lossy(&got).starts_with("HTTP/1.1 408") {
                answered.fetch_add(1, Ordering::Relaxed);
            }
            0
        }));
    }
    // Huge announced bodies.
    let refused = Arc::new(AtomicUsize::new(0));
    for _ in 0..10 {
        let (addr, refused) = (addr.clone(), refused.clone());
        attackers.push(std::thread::spawn(move || {
            for _ in 0..HUGE / 10 {
                if exchange(&addr, &huge_body_request(&addr)).0 == 413 {
                    refused.fetch_add(1, Ordering::Relaxed);
                }
            }
            0
        }));
    }
    // Engine-against-engine games, all at once.
    let created = Arc::new(AtomicUsize::new(0));
    for _ in 0..GAMES {
        let (addr, created) = (addr.clone(), created.clone());
        attackers.push(std::thread::spawn(move || {
            let body = json!({"white": "engine", "black": "engine", "movetime_ms": 50});
            match request(&addr, "POST", "/api/new", Some(&body)).0 {
                200 => {
                    created.fetch_add(1, Ordering::Relaxed);
                }
                // Refused: the games kept are in play.
                503 => {}
                st => panic!("a new game answered {st}"),
            }
            0
        }));
    }
    // Meanwhile, a game played to its end.
    let mut longest = Duration::ZERO;
    let mut answers = 0;
    let end = play_a_game(&addr, game, &mut longest, &mut answers);
    assert!(!end["result"].is_null(), "{end}");
    // The slow bodies run into their time limit.
    let slow_deadline = Instant::now() + Duration::from_secs(20);
    while slow_answers.load(Ordering::Relaxed) < SLOW && Instant::now() < slow_deadline {
        std::thread::sleep(Duration::from_millis(100));
    }
    stop.store(true, Ordering::Relaxed);
    let results: Vec<usize> = attackers.into_iter().map(|t| t.join().unwrap()).collect();
    let idle_made = results[1];
    let attack_time = started.elapsed();

    // The server answers, and falls back to where it started.
    assert_eq!(request(&addr, "GET", "/", None).0, 200);
    let within = |(t, r): (usize, usize)| t <= threads0 + threads0 / 10 && r <= rss0 + rss0 / 10;
    let (threads1, rss1) = settle(&s, Duration::from_secs(20), within);
    println!(
        "soak: {idle_made} idle connections, {SLOW} slow bodies ({} got 408), {} of {HUGE} huge bodies refused, {} of {GAMES} engine games created (the rest refused: the cap); the player's {answers} answers took at most {longest:?}; threads {threads0} → peak {} → {threads1}; resident memory {rss0} KiB → peak {} KiB → {rss1} KiB; {:?} in all",
        slow_answers.load(Ordering::Relaxed),
        refused.load(Ordering::Relaxed),
        created.load(Ordering::Relaxed),
        peak_threads.load(Ordering::Relaxed),
        peak_rss.load(Ordering::Relaxed),
        started.elapsed(),
    );
    assert!(
        longest < Duration::from_secs(1),
        "an answer took {longest:?}"
    );
    assert_eq!(idle_made, idle_count, "every idle connection was accepted");
    assert_eq!(refused.load(Ordering::Relaxed), HUGE);
    assert_eq!(
        slow_answers.load(Ordering::Relaxed),
        SLOW,
        "slow bodies end with 408"
    );
    let made = created.load(Ordering::Relaxed);
    assert!(
        (MAX_SESSIONS - 1..=MAX_SESSIONS).contains(&made),
        "{made} engine games beside the player's"
    );
    assert!(
        peak_threads.load(Ordering::Relaxed) <= 1 + WORKERS + 2 * MAX_SESSIONS,
        "threads peaked at {}",
        peak_threads.load(Ordering::Relaxed)
    );
    assert!(
        within((threads1, rss1)),
        "threads {threads0} → {threads1}, memory {rss0} → {rss1} KiB"
    );
    assert!(attack_time < Duration::from_secs(60), "{attack_time:?}");
}

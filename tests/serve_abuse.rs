//! `polymachy serve` under abuse, on the loopback only: huge announced bodies, slow bodies,
//! connections beyond the descriptor limit, half-sent requests under descriptor pressure,
//! upload bombs, analysis floods, floods of engine games, and a soak of all of them at once
//! while a well-behaved client plays. Every loop here is bounded in count and time.

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
/// Every API thread of every lane, and the one that gives memory back.
const API_THREADS: usize =
    polymachy::serve::WORKERS + polymachy::serve::PLAY_WORKERS + polymachy::serve::OPEN_WORKERS + 1;
const PER_CLIENT: usize = polymachy::serve::PER_CLIENT;

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

/// A connection to `addr` from the loopback address `127.0.0.<client>`: each such address is
/// another client to the server (its own cap of games).
fn connect_from(client: u8, addr: &str) -> TcpStream {
    use std::os::fd::FromRawFd;
    let to: std::net::SocketAddrV4 = addr.parse().unwrap();
    // SAFETY: a new socket, bound and connected through plain structs, then owned by the
    // stream (closed with it, or here on failure).
    unsafe {
        let fd = libc::socket(libc::AF_INET, libc::SOCK_STREAM, 0);
        assert!(fd >= 0, "socket: {}", std::io::Error::last_os_error());
        let sin = |ip: [u8; 4], port: u16| libc::sockaddr_in {
            sin_family: libc::AF_INET as libc::sa_family_t,
            sin_port: port.to_be(),
            sin_addr: libc::in_addr {
                s_addr: u32::from_ne_bytes(ip),
            },
            sin_zero: [0; 8],
        };
        let len = std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t;
        let from = sin([127, 0, 0, client], 0);
        let there = sin(to.ip().octets(), to.port());
        if libc::bind(fd, &from as *const _ as *const libc::sockaddr, len) != 0
            || libc::connect(fd, &there as *const _ as *const libc::sockaddr, len) != 0
        {
            let e = std::io::Error::last_os_error();
            libc::close(fd);
            panic!("connect from 127.0.0.{client}: {e}");
        }
        TcpStream::from_raw_fd(fd)
    }
}

/// One request written as given; (status, body), status 0 when the server closed without an
/// answer.
fn exchange(addr: &str, request: &[u8]) -> (u16, String) {
    exchange_from(1, addr, request)
}

/// [`exchange`] from the client `127.0.0.<client>`.
fn exchange_from(client: u8, addr: &str, request: &[u8]) -> (u16, String) {
    let mut c = connect_from(client, addr);
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
    request_from(1, addr, method, path, body)
}

/// [`request`] from the client `127.0.0.<client>`.
fn request_from(
    client: u8,
    addr: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> (u16, Value) {
    let (st, text) = exchange_from(client, addr, &request_text(addr, method, path, body, true));
    (st, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// A new game between two people, opened by the client `127.0.0.<client>`: the server's
/// answer, which must be 200.
fn hot_seat(client: u8, addr: &str) -> Value {
    let humans = json!({"white": "human", "black": "human"});
    let (st, v) = request_from(client, addr, "POST", "/api/new", Some(&humans));
    assert_eq!(st, 200, "{v}");
    v
}

/// A request's bytes; `close` asks the server to close the connection after it.
fn request_text(
    addr: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
    close: bool,
) -> Vec<u8> {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let connection = if close { "Connection: close\r\n" } else { "" };
    format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{connection}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
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

/// At a descriptor limit of 1,024, a burst of 2,000 connections that each sent half a request
/// head: the server closes the oldest to make room, and those (with no request in progress)
/// give their descriptors back at once instead of after the grace an answer in progress gets,
/// so a request behind the burst is answered in well under the 5 s grace.
#[test]
fn half_sent_requests_under_descriptor_pressure_do_not_hold_the_server() {
    let _alone = alone();
    const BURST: usize = 2000;
    let limit = allow_descriptors(BURST as u64 + 300);
    let burst = BURST.min((limit as usize).saturating_sub(200));
    assert!(burst >= 1500, "only {limit} descriptors for this test");
    let s = start(&[], Some(1024));
    let half = format!("GET /api/variants HTTP/1.1\r\nHost: {}\r\nX-Pad: ", s.addr);
    let mut held = Vec::new();
    for _ in 0..burst {
        if let Ok(mut c) = TcpStream::connect(&s.addr) {
            let _ = c.write_all(half.as_bytes());
            held.push(c);
        }
    }
    assert!(held.len() >= burst - 10, "{} connections made", held.len());
    let mut slowest = Duration::ZERO;
    for _ in 0..5 {
        let started = Instant::now();
        let (st, v) = request(&s.addr, "GET", "/api/variants", None);
        assert_eq!(st, 200, "{v}");
        slowest = slowest.max(started.elapsed());
    }
    println!(
        "{} half-sent requests held; the slowest answer behind them took {slowest:?}",
        held.len()
    );
    assert!(
        slowest < Duration::from_secs(2),
        "an answer took {slowest:?}"
    );
    let (st, v) = request(&s.addr, "POST", "/api/new", Some(&json!({})));
    assert_eq!(st, 200, "{v}");
}

/// Thirty thousand unknown keys of four letters each, one a line (about 240 KB as JSON, under
/// the body limit).
fn thirty_thousand_unknown_keys() -> String {
    let letter = |n: usize| char::from(b'a' + (n % 26) as u8);
    (0..30_000)
        .map(|i| {
            format!(
                "{}{}{}{}=1\n",
                letter(i / 17_576),
                letter(i / 676),
                letter(i / 26),
                letter(i)
            )
        })
        .collect()
}

/// A 238-byte variant file whose King expands into millions of paths: the upload is answered
/// with the compiler's located refusal well within a second, and the server goes on to play a
/// game of the next client.
#[test]
fn a_bomb_of_an_upload_is_refused_at_once_and_the_server_plays_on() {
    let _alone = alone();
    let s = start(&[], None);
    for (betza, words) in [
        ("mamamaK", "too many paths"),
        ("mamamamaK", "too many legs"),
        ("mamamamamamamamaK", "too many legs"),
    ] {
        let text = common::sixteen(betza, "");
        let started = Instant::now();
        let (st, v) = request(&s.addr, "POST", "/api/new", Some(&json!({ "toml": text })));
        let took = started.elapsed();
        assert_eq!(st, 422, "{betza}: {v}");
        let msg = v["error"].as_str().unwrap_or_default();
        assert!(
            msg.contains(":9:9: piece King: ") && msg.contains(words),
            "{betza}: {msg}"
        );
        println!("`{betza}` ({} bytes) refused in {took:?}", text.len());
        assert!(took < Duration::from_millis(500), "{betza}: {took:?}");
    }
    // Thirty thousand unknown keys: the first fifty and a count, within a second.
    let junk = thirty_thousand_unknown_keys();
    let text = common::sixteen("K", "").replacen("ranks = 16\n", &format!("ranks = 16\n{junk}"), 1);
    let started = Instant::now();
    let (st, v) = request(&s.addr, "POST", "/api/new", Some(&json!({ "toml": text })));
    let took = started.elapsed();
    assert_eq!(st, 422, "{v}");
    let msg = v["error"].as_str().unwrap_or_default();
    assert!(
        msg.ends_with("… and 29950 more"),
        "{}",
        &msg[msg.len().saturating_sub(200)..]
    );
    // Fifty problems (each with its hint line) and the count.
    assert!(
        msg.lines().count() <= 2 * 50 + 1,
        "{} lines",
        msg.lines().count()
    );
    println!("30,000 unknown keys refused in {took:?}");
    assert!(took < Duration::from_secs(1), "{took:?}");
    let mut longest = Duration::ZERO;
    let mut answers = 0;
    let end = play_a_game(&s.addr, new_game(&s.addr), &mut longest, &mut answers);
    assert!(!end["result"].is_null(), "{end}");
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
    // Four clients, each under its own cap.
    let client = |i: usize| 2 + (i % 4) as u8;
    for i in 0..MAX_SESSIONS {
        let (st, v) = request_from(client(i), &s.addr, "POST", "/api/new", Some(&engines));
        assert_eq!(st, 200, "{v}");
        peak = peak.max(usage(&s).0);
    }
    // Past the cap, games in play are not pushed out: a new one waits its turn.
    for i in 0..8 {
        let (st, v) = request_from(client(i), &s.addr, "POST", "/api/new", Some(&engines));
        assert_eq!(st, 503, "{v}");
        peak = peak.max(usage(&s).0);
    }
    let busy = settle(&s, Duration::from_secs(2), |_| false).0;
    // One engine thread a game at most, and the previous move's thread while it ends.
    assert!(
        busy <= base + API_THREADS + 2 * MAX_SESSIONS,
        "{busy} threads with {MAX_SESSIONS} games"
    );
    assert!(busy >= base + MAX_SESSIONS / 2, "the engines play: {busy}");
    // Once they are no longer in play (nobody asked about them), games between humans push
    // every engine game out.
    std::thread::sleep(polymachy::serve::IN_PLAY);
    for i in 0..MAX_SESSIONS {
        hot_seat(client(i), &s.addr);
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
        if t.elapsed() > Duration::from_millis(300) {
            println!("a slow answer: {method} {path} took {:?}", t.elapsed());
        }
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
#[expect(
    clippy::too_many_lines,
    reason = "every kind of abuse at once while a game is played, then the threads and memory compared with the start"
)]
fn soak_abuse_of_every_kind_while_a_game_is_played() {
    let _alone = alone();
    const IDLE: usize = 2000;
    const SLOW: usize = 20;
    const HUGE: usize = 100;
    const GAMES: usize = 200;
    const BOMBS: usize = 30;
    const ANALYSES: usize = 2000;
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
    for i in 1..MAX_SESSIONS {
        let client = 2 + (i % 4) as u8;
        assert_eq!(
            request_from(client, &addr, "POST", "/api/new", Some(&engines)).0,
            200
        );
    }
    // Where it starts: every game asleep and no longer in play, the workers gone.
    std::thread::sleep(polymachy::serve::IN_PLAY);
    // Another client's game, the target of the analysis flood below.
    let analysed = hot_seat(9, &addr);
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
    let slow_closed = Arc::new(AtomicUsize::new(0));
    for _ in 0..SLOW {
        let (addr, answered, closed) = (addr.clone(), slow_answers.clone(), slow_closed.clone());
        attackers.push(std::thread::spawn(move || {
            let mut c = TcpStream::connect(&addr).unwrap();
            c.set_read_timeout(Some(Duration::from_millis(10))).unwrap();
            let head = format!(
                "POST /api/new HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
            );
            let _ = c.write_all(head.as_bytes());
            let mut got = Vec::new();
            // The body's time limit runs from when the server reads the head, which may be
            // late on a loaded machine (2,000 connections are opened at the same time).
            let deadline = Instant::now() + Duration::from_secs(60);
            while Instant::now() < deadline {
                if c.write_all(b" ").is_err() {
                    closed.fetch_add(1, Ordering::Relaxed);
                    break;
                }
                let mut buf = [0u8; 512];
                match c.read(&mut buf) {
                    Ok(0) => {
                        closed.fetch_add(1, Ordering::Relaxed);
                        break;
                    }
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
    for i in 0..GAMES {
        let (addr, created) = (addr.clone(), created.clone());
        attackers.push(std::thread::spawn(move || {
            let body = json!({"white": "engine", "black": "engine", "movetime_ms": 50});
            // Eight clients: their caps together are more than the games kept.
            let client = 2 + (i % 8) as u8;
            match request_from(client, &addr, "POST", "/api/new", Some(&body)).0 {
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
    // Upload bombs: movements that expand into millions of paths, more legs than allowed,
    // thirty thousand unknown keys.
    let bombs_refused = Arc::new(AtomicUsize::new(0));
    {
        let (addr, refused) = (addr.clone(), bombs_refused.clone());
        attackers.push(std::thread::spawn(move || {
            let junk = thirty_thousand_unknown_keys();
            let keys = common::sixteen("K", "").replacen(
                "ranks = 16\n",
                &format!("ranks = 16\n{junk}"),
                1,
            );
            let files = [
                common::sixteen("mamamaK", ""),
                common::sixteen("mamamamamamamamaK", ""),
                keys,
            ];
            for i in 0..BOMBS {
                let body = json!({ "toml": files[i % files.len()] });
                if request(&addr, "POST", "/api/new", Some(&body)).0 == 422 {
                    refused.fetch_add(1, Ordering::Relaxed);
                }
            }
            0
        }));
    }
    // An analysis flood on the other client's game: new work for its one analysis worker as
    // fast as the answers come, then the analysis turned off.
    let analyses = Arc::new(AtomicUsize::new(0));
    {
        let (addr, done, stop) = (addr.clone(), analyses.clone(), stop.clone());
        let sid = analysed["sid"].as_str().unwrap().to_string();
        attackers.push(std::thread::spawn(move || {
            let connect = || {
                let c = connect_from(9, &addr);
                c.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
                c
            };
            let mut c = connect();
            for i in 0..ANALYSES {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let body = json!({"sid": sid, "depth": 12 + (i % 5), "lines": 3});
                let ask = request_text(&addr, "POST", "/api/analyse", Some(&body), false);
                // A kept-alive connection may be closed between two requests (the oldest idle
                // ones make room for new ones): then a new one.
                let status = if c.write_all(&ask).is_ok() {
                    read_answer(&mut c).0
                } else {
                    0
                };
                match status {
                    200 => {
                        done.fetch_add(1, Ordering::Relaxed);
                    }
                    0 => c = connect(),
                    st => panic!("an analysis answered {st}"),
                }
            }
            let off = json!({"sid": sid, "off": true});
            assert_eq!(
                request_from(9, &addr, "POST", "/api/analyse", Some(&off)).0,
                200
            );
            0
        }));
    }
    // Meanwhile, a game played to its end.
    let mut longest = Duration::ZERO;
    let mut answers = 0;
    let end = play_a_game(&addr, game, &mut longest, &mut answers);
    assert!(!end["result"].is_null(), "{end}");
    // The bombs are all answered.
    let bomb_deadline = Instant::now() + Duration::from_secs(20);
    while bombs_refused.load(Ordering::Relaxed) < BOMBS && Instant::now() < bomb_deadline {
        std::thread::sleep(Duration::from_millis(100));
    }
    // The slow bodies run into their time limit (or are closed to make room, see below).
    let slow_deadline = Instant::now() + Duration::from_secs(40);
    let slow_ended = || slow_answers.load(Ordering::Relaxed) + slow_closed.load(Ordering::Relaxed);
    while slow_ended() < SLOW && Instant::now() < slow_deadline {
        std::thread::sleep(Duration::from_millis(100));
    }
    stop.store(true, Ordering::Relaxed);
    let results: Vec<usize> = attackers.into_iter().map(|t| t.join().unwrap()).collect();
    let idle_made = results[1];
    let attack_time = started.elapsed();

    // The server answers, and falls back to where it started once the attack's games are
    // gone: when no game is in play any more, a full server's worth of new games (small:
    // nobody has moved) from other clients pushes every one of them out. (The games kept
    // from the attack are as long as the attack lasted: they are not what is measured.)
    assert_eq!(request(&addr, "GET", "/", None).0, 200);
    std::thread::sleep(polymachy::serve::IN_PLAY);
    for i in 0..MAX_SESSIONS {
        hot_seat(20 + (i / PER_CLIENT) as u8, &addr);
    }
    let within = |(t, r): (usize, usize)| t <= threads0 + threads0 / 10 && r <= rss0 + rss0 / 10;
    let (threads1, rss1) = settle(&s, Duration::from_secs(20), within);
    println!(
        "soak: {idle_made} idle connections, {SLOW} slow bodies ({} got 408), {} of {HUGE} huge bodies refused, {} of {GAMES} engine games created (the rest refused: the cap), {} of {BOMBS} upload bombs refused, {} analyses asked; the player's {answers} answers took at most {longest:?}; threads {threads0} → peak {} → {threads1}; resident memory {rss0} KiB → peak {} KiB → {rss1} KiB; {:?} in all",
        slow_answers.load(Ordering::Relaxed),
        refused.load(Ordering::Relaxed),
        created.load(Ordering::Relaxed),
        bombs_refused.load(Ordering::Relaxed),
        analyses.load(Ordering::Relaxed),
        peak_threads.load(Ordering::Relaxed),
        peak_rss.load(Ordering::Relaxed),
        started.elapsed(),
    );
    // On two cores shared with 30 engine games, an analysis, the bombs, 2,000 connections
    // opened at once to the server's one thread of input and output, and this test's own
    // hundreds of threads, an answer may wait for a core: what is asked here is that nothing
    // stalls the game (the bound of a player's moves under a flood is
    // `a_players_moves_are_answered_quickly_while_others_flood`'s; that admitting a game never
    // waits for another's lock is a unit test of the server's).
    assert!(
        longest < Duration::from_secs(3),
        "an answer took {longest:?}"
    );
    assert_eq!(idle_made, idle_count, "every idle connection was accepted");
    assert_eq!(refused.load(Ordering::Relaxed), HUGE);
    assert_eq!(bombs_refused.load(Ordering::Relaxed), BOMBS);
    assert!(
        analyses.load(Ordering::Relaxed) >= 100,
        "{} analyses answered",
        analyses.load(Ordering::Relaxed)
    );
    // Every slow body ends: with 408 when its time is up, or closed where the server reads
    // its head late, amid the idle connections' flood (a connection whose request head is not
    // yet whole is one the server closes to make room).
    assert_eq!(
        slow_ended(),
        SLOW,
        "slow bodies end ({} with 408, {} closed)",
        slow_answers.load(Ordering::Relaxed),
        slow_closed.load(Ordering::Relaxed)
    );
    assert!(
        slow_answers.load(Ordering::Relaxed) >= SLOW / 2,
        "slow bodies end with 408 ({} closed without an answer)",
        slow_closed.load(Ordering::Relaxed)
    );
    let made = created.load(Ordering::Relaxed);
    assert!(
        (MAX_SESSIONS - 2..=MAX_SESSIONS).contains(&made),
        "{made} engine games beside the player's"
    );
    assert!(
        peak_threads.load(Ordering::Relaxed) <= 1 + API_THREADS + 2 * MAX_SESSIONS,
        "threads peaked at {}",
        peak_threads.load(Ordering::Relaxed)
    );
    assert!(
        within((threads1, rss1)),
        "threads {threads0} → {threads1}, memory {rss0} → {rss1} KiB"
    );
    assert!(attack_time < Duration::from_secs(90), "{attack_time:?}");
}

/// Samples the server's thread count every 5 ms until `stop`; the highest seen.
fn thread_peak(s: &Server, stop: Arc<AtomicBool>) -> std::thread::JoinHandle<usize> {
    let path = format!("/proc/{}/status", s.child.id());
    std::thread::spawn(move || {
        let mut peak = 0;
        while !stop.load(Ordering::Relaxed) {
            if let Ok(text) = std::fs::read_to_string(&path)
                && let Some(t) = text
                    .lines()
                    .find_map(|l| l.strip_prefix("Threads:"))
                    .and_then(|v| v.trim().parse::<usize>().ok())
            {
                peak = peak.max(t);
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        peak
    })
}

// 2,000 analyses asked of one game, from eight clients at once, each stopping the one before:
// the game's one analysis worker takes each new position, so the threads stay within the
// API's threads, the game's engine and its one analysis worker; and the last analysis
// asked for is the one shown.
#[test]
fn two_thousand_analyses_keep_one_analysis_thread_a_game() {
    let _alone = alone();
    let s = start(&[], None);
    let game = hot_seat(1, &s.addr);
    let sid = game["sid"].as_str().unwrap().to_string();
    let (base, _) = settle(&s, Duration::from_secs(5), |(t, _)| t == 1);
    let stop = Arc::new(AtomicBool::new(false));
    let peak = thread_peak(&s, stop.clone());
    let started = Instant::now();
    let askers: Vec<_> = (0..8)
        .map(|k| {
            let (addr, sid) = (s.addr.clone(), sid.clone());
            std::thread::spawn(move || {
                // One connection each, kept alive: the requests come as fast as they are answered.
                let mut c = connect_from(2 + k as u8, &addr);
                c.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
                let mut statuses = Vec::new();
                for i in 0..250 {
                    let body = json!({"sid": sid, "depth": 12 + (i % 5), "lines": 3});
                    c.write_all(&request_text(
                        &addr,
                        "POST",
                        "/api/analyse",
                        Some(&body),
                        false,
                    ))
                    .unwrap();
                    statuses.push(read_answer(&mut c).0);
                }
                statuses
            })
        })
        .collect();
    let statuses: Vec<u16> = askers.into_iter().flat_map(|t| t.join().unwrap()).collect();
    let took = started.elapsed();
    stop.store(true, Ordering::Relaxed);
    let peak = peak.join().unwrap();
    assert_eq!(statuses.len(), 2000);
    assert!(statuses.iter().all(|&st| st == 200), "{statuses:?}");
    println!(
        "2,000 analyses in {took:?}: threads {base} at rest, at most {peak} (bound {})",
        base + API_THREADS + 2
    );
    // The API's threads, the game's engine (which may be ending) and its analysis worker.
    assert!(
        peak <= base + API_THREADS + 2,
        "{peak} threads (at rest {base})"
    );
    // The last analysis runs on, and then its worker ends: the threads fall back.
    let (st, v) = request(
        &s.addr,
        "POST",
        "/api/analyse",
        Some(&json!({"sid": sid, "off": true})),
    );
    assert_eq!(st, 200, "{v}");
    let (after, _) = settle(&s, Duration::from_secs(15), |(t, _)| t <= base);
    assert!(after <= base, "threads {after}, at rest {base}");
}

/// Reads one answer on a kept-alive connection: (status, body).
fn read_answer(c: &mut TcpStream) -> (u16, String) {
    let mut buf = Vec::new();
    let mut byte = [0u8; 1];
    while !buf.ends_with(b"\r\n\r\n") {
        match c.read(&mut byte) {
            Ok(1) => buf.push(byte[0]),
            _ => return (0, String::new()),
        }
    }
    let head = String::from_utf8_lossy(&buf).into_owned();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let len = head
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case("content-length")
                .then(|| v.trim().parse::<usize>().ok())?
        })
        .unwrap_or(0);
    let mut body = vec![0u8; len];
    if c.read_exact(&mut body).is_err() {
        return (0, String::new());
    }
    (status, String::from_utf8_lossy(&body).into_owned())
}

// A player's moves while others flood the server: 200 connections ask for the variant list
// again and again, and 300 send state requests (20 each, for a game of their own) and never
// read the answers. The moves (a game between two people, so only the server's answer is
// timed) keep a lane of their own: every answer within 300 ms at the 99th percentile.
#[test]
#[expect(
    clippy::too_many_lines,
    reason = "the flood, the player's timed moves and their percentiles, in the order they happen"
)]
fn a_players_moves_are_answered_quickly_while_others_flood() {
    let _alone = alone();
    const FLOOD: usize = 200;
    const UNREAD: usize = 300;
    allow_descriptors((FLOOD + UNREAD + 200) as u64);
    let s = start(&[], None);
    let addr = s.addr.clone();
    assert_eq!(request(&addr, "GET", "/api/variants", None).0, 200);
    let (_, theirs) = request_from(
        9,
        &addr,
        "POST",
        "/api/new",
        Some(&json!({"white": "human", "black": "human"})),
    );
    let their_sid = theirs["sid"].as_str().unwrap().to_string();
    let stop = Arc::new(AtomicBool::new(false));
    let flooded = Arc::new(AtomicUsize::new(0));
    let mut floods = Vec::new();
    // 200 connections on 8 threads, each asking for the variants as fast as answered.
    for t in 0..8 {
        let (addr, stop, flooded) = (addr.clone(), stop.clone(), flooded.clone());
        floods.push(std::thread::spawn(move || {
            let mut conns: Vec<TcpStream> = (0..FLOOD / 8)
                .map(|_| {
                    let c = connect_from(10 + t as u8, &addr);
                    c.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
                    c
                })
                .collect();
            let req = request_text(&addr, "GET", "/api/variants", None, false);
            while !stop.load(Ordering::Relaxed) {
                for c in &mut conns {
                    let _ = c.write_all(&req);
                }
                for c in &mut conns {
                    if read_answer(c).0 == 200 {
                        flooded.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
        }));
    }
    // 300 connections whose state requests are never read.
    let unread: Vec<TcpStream> = (0..UNREAD)
        .map(|i| {
            let mut c = connect_from(20 + (i % 8) as u8, &addr);
            let req = request_text(
                &addr,
                "GET",
                &format!("/api/state?sid={their_sid}"),
                None,
                false,
            );
            for _ in 0..20 {
                let _ = c.write_all(&req);
            }
            c
        })
        .collect();
    // The player: a game between two people, every move timed.
    let game = hot_seat(1, &addr);
    let sid = game["sid"].as_str().unwrap().to_string();
    let mut state = game["state"].clone();
    let mut times = Vec::new();
    let mut c = connect_from(1, &addr);
    c.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    for n in 0..60usize {
        if !state["result"].is_null() {
            let g = hot_seat(1, &addr);
            state = g["state"].clone();
        }
        let legal = state["legal"].as_array().unwrap();
        let (i, mv) = ((n * 7 + 3) % legal.len(), &legal[(n * 7 + 3) % legal.len()]);
        let body = json!({"sid": state["sid"], "move": mv["uci"], "index": i});
        let t = Instant::now();
        c.write_all(&request_text(
            &addr,
            "POST",
            "/api/move",
            Some(&body),
            false,
        ))
        .unwrap();
        let (st, text) = read_answer(&mut c);
        times.push(t.elapsed());
        assert_eq!(st, 200, "{text}");
        state = serde_json::from_str(&text).unwrap();
    }
    let _ = sid;
    stop.store(true, Ordering::Relaxed);
    for f in floods {
        f.join().unwrap();
    }
    drop(unread);
    times.sort();
    let p99 = times[times.len() * 99 / 100 - 1];
    let median = times[times.len() / 2];
    println!(
        "moves under a flood of {FLOOD} variant-list connections ({} answers) and {UNREAD} unread: median {median:?}, p99 {p99:?}, slowest {:?}",
        flooded.load(Ordering::Relaxed),
        times.last().unwrap()
    );
    assert!(
        flooded.load(Ordering::Relaxed) > FLOOD,
        "the flood was answered"
    );
    assert!(p99 < Duration::from_millis(300), "p99 {p99:?}: {times:?}");
}

// `GET /api/state?since=V` answers with what changed since the state of version V this
// address was sent: after a move, the board, the legal moves and the new move list entry,
// and not the variant or the players; merged into the old state it is the whole state. An
// unknown version gets the whole state.
#[test]
fn the_state_since_a_version_is_only_what_changed() {
    let _alone = alone();
    let s = start(&[], None);
    let game = hot_seat(1, &s.addr);
    let sid = game["sid"].as_str().unwrap().to_string();
    let (_, before) = request(&s.addr, "GET", &format!("/api/state?sid={sid}"), None);
    let v0 = before["version"].as_str().unwrap().to_string();
    let (st, _) = request(
        &s.addr,
        "POST",
        "/api/move",
        Some(&json!({"sid": sid, "move": "e2e4"})),
    );
    assert_eq!(st, 200);
    let (st, delta) = request(
        &s.addr,
        "GET",
        &format!("/api/state?sid={sid}&since={v0}"),
        None,
    );
    assert_eq!(st, 200, "{delta}");
    let (_, whole) = request(&s.addr, "GET", &format!("/api/state?sid={sid}"), None);
    assert_eq!(delta["delta"], true, "{delta}");
    assert_eq!(delta["since"], v0.as_str());
    let changed = delta["changed"].as_object().unwrap();
    for k in ["board", "fen", "legal", "side", "last", "version"] {
        assert!(changed.contains_key(k), "{k} in {delta}");
    }
    for k in ["variant", "players", "sid", "history", "moves"] {
        assert!(!changed.contains_key(k), "{k} in {delta}");
    }
    assert_eq!(delta["appended"]["moves"], json!(["e4"]));
    assert_eq!(delta["appended"]["history"].as_array().unwrap().len(), 1);
    // Merged, it is the whole state.
    let mut merged = before.clone();
    for (k, v) in changed {
        merged[k] = v.clone();
    }
    for (k, v) in delta["appended"].as_object().unwrap() {
        let mut list = merged[k].as_array().unwrap().clone();
        list.extend(v.as_array().unwrap().iter().cloned());
        merged[k] = Value::Array(list);
    }
    assert_eq!(merged, whole);
    let (full, small) = (whole.to_string().len(), delta.to_string().len());
    println!("state: {full} bytes whole, {small} bytes as what changed after one move");
    assert!(small < full, "{small} {full}");
    // An unknown version: the whole state.
    let (_, again) = request(
        &s.addr,
        "GET",
        &format!("/api/state?sid={sid}&since=123"),
        None,
    );
    assert!(
        again.get("delta").is_none() && again["variant"].is_object(),
        "{again}"
    );
}

// One client keeps at most its share of the games: past its cap, with all its games in
// play, its new game is refused (503), while another client's is kept.
#[test]
fn one_client_cannot_hold_every_game() {
    let _alone = alone();
    let s = start(&[], None);
    let humans = json!({"white": "human", "black": "human"});
    for _ in 0..PER_CLIENT {
        let (st, v) = request_from(2, &s.addr, "POST", "/api/new", Some(&humans));
        assert_eq!(st, 200, "{v}");
    }
    let (st, v) = request_from(2, &s.addr, "POST", "/api/new", Some(&humans));
    assert_eq!(st, 503, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("for one client"),
        "{v}"
    );
    for _ in 0..MAX_SESSIONS - PER_CLIENT {
        let (st, v) = request_from(3, &s.addr, "POST", "/api/new", Some(&humans));
        assert_eq!(st, 200, "{v}");
    }
}

//! The HTTP side of `serve`: hyper's HTTP/1.1 server on a single-threaded tokio runtime.
//!
//! One thread waits on every socket at once, so an idle connection costs a few kilobytes and
//! no thread. The requests that do real work (the API) run in three lanes of threads: a
//! game's actions (a move, undo, the engine's buttons, its state and long poll) on
//! [`PLAY_WORKERS`] of their own, one request of a client at a time there; new games of
//! built-in variants and rematches on [`OPEN_WORKERS`]; everything else on [`WORKERS`], at
//! most two of them on the costly ones (a variant file, a PGN, a FEN). So a flood of new
//! games or of other requests never holds up the moves of a game in play. The engine
//! searches on threads of its own, at most one per game kept, and so does a game's analysis.
//!
//! **Limits.** A request head must arrive within [`HEADER_TIMEOUT`] (an idle keep-alive
//! connection is closed after as long) and a body within [`BODY_TIMEOUT`]. A body whose
//! announced length is over [`MAX_BODY`](super::MAX_BODY) is refused with 413 before any of it
//! is read; a body without a length is cut off there. At most [`MAX_CONNECTIONS`] connections
//! are kept (fewer where the descriptor limit is lower): a new one makes the oldest idle one close
//! (or, where none is idle, the oldest, once its answer in progress is sent). A connection
//! closed without a request in progress (idle, or its request head not yet whole) gives its
//! descriptor back within [`IDLE_GRACE`], so half-sent requests cannot hold descriptors under
//! pressure. A failure to accept (out of descriptors, out of memory) is waited out; the
//! server goes on accepting.
//!
//! **Who may ask.** The `Host` must be one this server answers to: `localhost`, `127.0.0.1`,
//! `[::1]` or the `--host` address, with the port served, or the address the connection came
//! in on (so a web site that makes its own name point here, DNS rebinding, is refused). A
//! request that names an `Origin` must come from `http://` + that `Host`; a browser's
//! `Sec-Fetch-Site`, where sent, must be `same-origin` or `none`. A `POST` without an `Origin`
//! must say `Content-Type: application/json`, which no other site's page can send without the
//! browser asking first (a question this server never answers with yes).

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::pin::pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::Poll;
use std::time::Duration;

use http_body_util::{BodyExt, Full, LengthLimitError, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::header::{self, HeaderMap, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use serde_json::json;
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};

use super::{APP_JS, INDEX_HTML, MAX_BODY, STYLE_CSS, Server, lock};

/// How long a client has to send a request's head (and an idle connection stays open).
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a client has to send a request's body.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);
/// The most connections kept open at once.
pub const MAX_CONNECTIONS: usize = 1024;
/// The threads that answer API requests other than a game's actions.
pub const WORKERS: usize = 4;
/// The threads of the play lane: a game's actions (a move, undo, the engine's buttons, its
/// state and long poll) and nothing else, so that they never queue behind other requests.
pub const PLAY_WORKERS: usize = 2;
/// The thread of the lane of new games (of a built-in variant) and rematches.
pub const OPEN_WORKERS: usize = 1;
/// The longest a long poll (`GET /api/wait`) waits for a change before it answers anyway.
pub const WAIT: Duration = Duration::from_secs(20);
/// How often a long poll looks at its game.
const WAIT_STEP: Duration = Duration::from_millis(30);
/// Of those, how many may work on costly requests (a new game, a PGN, a FEN) at once.
const COSTLY: usize = 2;
/// How long a connection told to close may take to finish its answer in progress.
const GRACE: Duration = Duration::from_secs(5);
/// How long a connection told to close without a request in progress keeps its descriptor:
/// long enough to send an answer just finished, short enough that a burst of half-sent
/// requests under descriptor pressure frees its descriptors at once.
const IDLE_GRACE: Duration = Duration::from_millis(200);
/// How long an idle worker thread waits for work before it ends.
const WORKER_IDLE: Duration = Duration::from_secs(2);
/// The largest request head, in bytes (hyper's read buffer).
const MAX_HEAD: usize = 64 * 1024;

type Body = Full<Bytes>;

/// An open connection, as the accept loop sees it.
struct Conn {
    close: Arc<Notify>,
    /// Set from a request's head to its answer.
    busy: Arc<AtomicBool>,
}

struct Shared {
    server: Arc<Server>,
    port: u16,
    /// The host names (lowercase, IPv6 in brackets) a `Host` may give, besides the address a
    /// connection came in on.
    names: Vec<String>,
    costly: Semaphore,
    /// The lanes: a game's actions, new games, and everything else (costly requests among
    /// them); each request takes a permit of its lane before it takes a thread.
    play: Semaphore,
    open: Semaphore,
    other: Semaphore,
    /// Each client's turn in the play lane: one request of a client (an address) at a time
    /// there, so that a client with many requests queued never stands before another's.
    turns: Mutex<std::collections::HashMap<IpAddr, Arc<Semaphore>>>,
    /// `GET /api/variants`, once made: answered from here, with no thread.
    variants: Arc<std::sync::OnceLock<Bytes>>,
    /// Open connections by age: each one's signal to close, and whether it is answering.
    conns: Mutex<BTreeMap<u64, Conn>>,
    cap: usize,
}

/// Serves until the process ends. `on_ready` gets the address actually bound (port 0 picks a
/// free port).
pub fn serve(
    server: Server,
    host: &str,
    port: u16,
    on_ready: impl FnOnce(SocketAddr),
) -> Result<(), String> {
    let descriptors = raise_descriptor_limit();
    tune_allocator();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        // Every lane's threads, and one for giving memory back.
        .max_blocking_threads(WORKERS + PLAY_WORKERS + OPEN_WORKERS + 1)
        .thread_keep_alive(WORKER_IDLE)
        .thread_name("serve")
        .build()
        .map_err(|e| format!("cannot start the server: {e}"))?;
    let host_name = match host.parse::<IpAddr>() {
        Ok(IpAddr::V6(ip)) => format!("[{ip}]"),
        Ok(ip) => ip.to_string(),
        Err(_) => host.to_ascii_lowercase(),
    };
    let mut names: Vec<String> = ["localhost", "127.0.0.1", "[::1]"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    if !names.contains(&host_name) {
        names.push(host_name);
    }
    let _guard = runtime.enter();
    let listener = listen(host, port)?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("the server has no address: {e}"))?;
    let shared = Arc::new(Shared {
        server: Arc::new(server),
        port: addr.port(),
        names,
        costly: Semaphore::new(COSTLY),
        play: Semaphore::new(PLAY_WORKERS),
        open: Semaphore::new(OPEN_WORKERS),
        other: Semaphore::new(WORKERS),
        variants: Arc::new(std::sync::OnceLock::new()),
        turns: Mutex::new(std::collections::HashMap::new()),
        conns: Mutex::new(BTreeMap::new()),
        // Room is left for the descriptors the server needs besides connections.
        cap: MAX_CONNECTIONS
            .min(descriptors.saturating_sub(32) as usize)
            .max(4),
    });
    on_ready(addr);
    runtime.block_on(async move {
        tokio::spawn(sweeper(shared.server.clone()));
        accept_loop(listener, shared).await;
    });
    Ok(())
}

/// Listens on the first address `host` names, with a queue as long as the connections kept
/// (the system's default of 128 makes a burst of clients wait a second to try again).
fn listen(host: &str, port: u16) -> Result<tokio::net::TcpListener, String> {
    use std::net::ToSocketAddrs;
    let fail = |e: std::io::Error| format!("cannot listen on {host}:{port}: {e}");
    let mut last = None;
    for addr in (host, port).to_socket_addrs().map_err(fail)? {
        let socket = match addr {
            SocketAddr::V4(_) => tokio::net::TcpSocket::new_v4(),
            SocketAddr::V6(_) => tokio::net::TcpSocket::new_v6(),
        };
        let bound = socket.and_then(|s| {
            s.set_reuseaddr(true)?;
            s.bind(addr)?;
            s.listen(MAX_CONNECTIONS as u32)
        });
        match bound {
            Ok(l) => return Ok(l),
            Err(e) => last = Some(e),
        }
    }
    Err(fail(last.unwrap_or_else(|| {
        std::io::Error::new(std::io::ErrorKind::NotFound, "no address")
    })))
}

/// Raises the soft limit on open descriptors to the hard one (at most 65,536) and returns the
/// limit in force.
fn raise_descriptor_limit() -> u64 {
    #[cfg(unix)]
    {
        let mut l = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit and setrlimit only read and write the struct given.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut l) != 0 {
                return 1024;
            }
            let want = l.rlim_max.min(65_536);
            if want > l.rlim_cur {
                let raised = libc::rlimit {
                    rlim_cur: want,
                    rlim_max: l.rlim_max,
                };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                    return want;
                }
            }
        }
        l.rlim_cur
    }
    #[cfg(not(unix))]
    {
        1024
    }
}

/// Every allocation of a megabyte or more (an engine's hash table) gets pages of its own, which
/// go back to the system when it is freed, so that memory falls back when games go to sleep or
/// away (glibc would otherwise keep freed tables in its heaps).
fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a tuning value of the allocator.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}

/// Puts unused games to sleep, once a second; after memory was freed (then and a second
/// later, when the engine threads told to stop have ended), gives the allocator's free pages
/// back to the system.
async fn sweeper(server: Arc<Server>) {
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    let mut before = false;
    loop {
        tick.tick().await;
        server.sweep();
        let now = server.take_freed();
        if now || before {
            // Off this thread: with much memory it may take a while.
            drop(tokio::task::spawn_blocking(release_free_memory));
        }
        before = now;
    }
}

/// Gives the allocator's free pages back to the system (glibc keeps them otherwise, scattered
/// among the memory still used).
fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free memory of the allocator to the system.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Whether an accept error means the process is out of a resource (then wait a little).
fn out_of_resources(e: &std::io::Error) -> bool {
    #[cfg(unix)]
    {
        matches!(
            e.raw_os_error(),
            Some(libc::EMFILE | libc::ENFILE | libc::ENOBUFS | libc::ENOMEM)
        )
    }
    #[cfg(not(unix))]
    {
        let _ = e;
        true
    }
}

/// Tells connections to close until fewer than `keep` are left: the oldest idle ones first
/// (waiting for a request), then the oldest.
fn close_oldest(shared: &Shared, keep: usize) {
    let mut conns = lock(&shared.conns);
    while conns.len() >= keep {
        let idle = conns
            .iter()
            .find(|(_, c)| !c.busy.load(Ordering::Relaxed))
            .map(|(&id, _)| id);
        let gone = match idle {
            Some(id) => conns.remove(&id),
            None => conns.pop_first().map(|(_, c)| c),
        };
        match gone {
            Some(c) => c.close.notify_one(),
            None => break,
        }
    }
}

async fn accept_loop(listener: tokio::net::TcpListener, shared: Arc<Shared>) {
    let mut next_id = 0u64;
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok((stream, peer)) => (stream, peer.ip().to_canonical()),
            Err(e) => {
                // Out of descriptors: make room, wait a little and go on. Any other failure
                // (a client that gave up before it was accepted) concerns one connection.
                if out_of_resources(&e) {
                    let n = lock(&shared.conns).len();
                    close_oldest(&shared, n.saturating_sub(n / 8));
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                continue;
            }
        };
        next_id += 1;
        let local = stream.local_addr().ok().map(|a| a.ip().to_canonical());
        let _ = stream.set_nodelay(true);
        let close = Arc::new(Notify::new());
        let busy = Arc::new(AtomicBool::new(false));
        close_oldest(&shared, shared.cap);
        lock(&shared.conns).insert(
            next_id,
            Conn {
                close: close.clone(),
                busy: busy.clone(),
            },
        );
        tokio::spawn(connection(
            shared.clone(),
            stream,
            local,
            peer,
            next_id,
            close,
            busy,
        ));
    }
}

async fn connection(
    shared: Arc<Shared>,
    stream: tokio::net::TcpStream,
    local: Option<IpAddr>,
    peer: IpAddr,
    id: u64,
    close: Arc<Notify>,
    busy: Arc<AtomicBool>,
) {
    let sh = shared.clone();
    let answering = busy.clone();
    let service = hyper::service::service_fn(move |req| {
        let sh = sh.clone();
        let busy = answering.clone();
        busy.store(true, Ordering::Relaxed);
        async move {
            let r = answer(&sh, local, peer, req).await;
            busy.store(false, Ordering::Relaxed);
            Ok::<_, Infallible>(r)
        }
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_TIMEOUT)
        .max_buf_size(MAX_HEAD);
    let mut conn = pin!(builder.serve_connection(TokioIo::new(stream), service));
    let mut told = pin!(close.notified());
    let ended = std::future::poll_fn(|cx| {
        if conn.as_mut().poll(cx).is_ready() {
            return Poll::Ready(true);
        }
        if told.as_mut().poll(cx).is_ready() {
            return Poll::Ready(false);
        }
        Poll::Pending
    })
    .await;
    if !ended {
        // An answer in progress is finished; a connection without one (idle, or with a
        // request not yet whole) lets its descriptor go almost at once.
        let grace = if busy.load(Ordering::Relaxed) {
            GRACE
        } else {
            IDLE_GRACE
        };
        conn.as_mut().graceful_shutdown();
        let _ = tokio::time::timeout(grace, conn).await;
    }
    lock(&shared.conns).remove(&id);
    shared.server.note_freed();
}

const JSON: &str = "application/json; charset=utf-8";

fn reply(status: u16, ctype: &'static str, body: Bytes) -> Response<Body> {
    let len = body.len();
    let mut r = Response::new(Full::new(body));
    *r.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(ctype));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::CONTENT_LENGTH, HeaderValue::from(len));
    r
}

fn error(status: u16, message: impl Into<String>) -> Response<Body> {
    let text = json!({ "error": message.into() }).to_string();
    reply(status, JSON, Bytes::from(text))
}

/// An error after which the connection closes (its body was not read).
fn error_closing(status: u16, message: impl Into<String>) -> Response<Body> {
    let mut r = error(status, message);
    r.headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    r
}

fn header_text(h: &HeaderMap, name: header::HeaderName) -> Option<&str> {
    h.get(name).map(|v| v.to_str().unwrap_or("\u{fffd}"))
}

impl Shared {
    /// Whether `host` (a `Host` header) names this server: a known name or the address the
    /// connection came in on, with the port served.
    fn host_allowed(&self, host: &str, local: Option<IpAddr>) -> bool {
        let host = host.to_ascii_lowercase();
        let (name, port) = if host.starts_with('[') {
            match host.find(']') {
                Some(end) => (&host[..=end], &host[end + 1..]),
                None => return false,
            }
        } else {
            match host.rfind(':') {
                Some(i) => (&host[..i], &host[i..]),
                None => (host.as_str(), ""),
            }
        };
        let port_ok = match port.strip_prefix(':') {
            Some(p) => p.parse::<u16>().is_ok_and(|p| p == self.port) && !p.starts_with('+'),
            None => port.is_empty() && self.port == 80,
        };
        if !port_ok {
            return false;
        }
        if self.names.iter().any(|n| n == name) {
            return true;
        }
        match local {
            Some(IpAddr::V6(ip)) => name == format!("[{ip}]"),
            Some(ip) => name == ip.to_string(),
            None => false,
        }
    }
}

/// Answers one request; a `HEAD` as its `GET`, without the body.
async fn answer(
    sh: &Shared,
    local: Option<IpAddr>,
    peer: IpAddr,
    req: Request<Incoming>,
) -> Response<Body> {
    let head = req.method() == Method::HEAD;
    let mut r = route(sh, local, peer, req).await;
    if head {
        // The headers (the length included) stay those of the GET.
        *r.body_mut() = Full::new(Bytes::new());
    }
    r
}

/// Checks who asks: the refusal, if any.
fn check_caller(
    sh: &Shared,
    local: Option<IpAddr>,
    req: &Request<Incoming>,
) -> Option<Response<Body>> {
    let h = req.headers();
    let Some(host) = header_text(h, header::HOST) else {
        return Some(error(400, "the request names no Host"));
    };
    // RFC 9112: a request with more than one Host is answered 400.
    if h.get_all(header::HOST).iter().nth(1).is_some() {
        return Some(error(400, "the request names more than one Host"));
    }
    if let Some(a) = req.uri().authority()
        && !a.as_str().eq_ignore_ascii_case(host)
    {
        return Some(error(400, "the request's address and its Host differ"));
    }
    if !sh.host_allowed(host, local) {
        return Some(error(
            403,
            format!("this server does not answer to `{host}`"),
        ));
    }
    if let Some(origin) = header_text(h, header::ORIGIN)
        && !origin.eq_ignore_ascii_case(&format!("http://{host}"))
    {
        return Some(error(403, format!("requests from {origin} are not served")));
    }
    if let Some(site) = h.get("sec-fetch-site")
        && !matches!(site.as_bytes(), b"same-origin" | b"none")
    {
        return Some(error(403, "requests from other sites are not served"));
    }
    if req.method() == Method::POST && !h.contains_key(header::ORIGIN) {
        let json = header_text(h, header::CONTENT_TYPE).is_some_and(|t| {
            t.split(';')
                .next()
                .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
        });
        if !json {
            return Some(error(
                403,
                "a POST without an Origin must have Content-Type: application/json",
            ));
        }
    }
    None
}

fn too_large() -> Response<Body> {
    error_closing(
        413,
        format!("the request is too large (at most {} KiB)", MAX_BODY / 1024),
    )
}

/// A long poll (`GET /api/wait?sid=S&v=V`): returns once the game's version differs from
/// `V`, or after [`WAIT`]; the caller then answers with the state. The waiting is a timer on
/// this connection's task, holding no worker.
async fn long_poll(sh: &Shared, query: &str) -> Result<(), super::ApiError> {
    let param = |key: &str| {
        query
            .split('&')
            .find_map(|kv| kv.strip_prefix(key))
            .unwrap_or("")
            .to_string()
    };
    let (sid, since) = (param("sid="), param("v="));
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        if sh.server.version(&sid)?.to_string() != since || tokio::time::Instant::now() >= deadline
        {
            return Ok(());
        }
        tokio::time::sleep(WAIT_STEP).await;
    }
}

/// The lane of a request (see [`PLAY_WORKERS`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lane {
    Play,
    Open,
    Other,
}

fn lane(method: &str, path: &str, body: &[u8]) -> Lane {
    match (method, path) {
        ("GET", "/api/state" | "/api/wait")
        | (
            "POST",
            "/api/move" | "/api/undo" | "/api/go" | "/api/stop" | "/api/resign" | "/api/draw"
            | "/api/options" | "/api/invite",
        ) => Lane::Play,
        // A new game of a variant file compiles it: a costly request.
        ("POST", "/api/new") if !body.windows(6).any(|w| w == b"\"toml\"") => Lane::Open,
        ("POST", "/api/rematch") => Lane::Open,
        _ => Lane::Other,
    }
}

/// The page's files and the variant list once built: answered without a worker.
fn served_from_memory(sh: &Shared, path: &str) -> Option<Response<Body>> {
    let file = |kind: &'static str, text: &'static str| {
        Some(reply(200, kind, Bytes::from_static(text.as_bytes())))
    };
    match path {
        "/" | "/index.html" => file("text/html; charset=utf-8", INDEX_HTML),
        "/app.js" => file("text/javascript; charset=utf-8", APP_JS),
        "/style.css" => file("text/css; charset=utf-8", STYLE_CSS),
        "/api/variants" => sh.variants.get().map(|b| reply(200, JSON, b.clone())),
        _ => None,
    }
}

/// A POST request's body: refused by its announced size before any of it is read, cut at
/// [`MAX_BODY`], and given up when it comes too slowly.
async fn read_body(req: Request<Incoming>) -> Result<Bytes, Response<Body>> {
    let announced = header_text(req.headers(), header::CONTENT_LENGTH)
        .map(|v| v.trim().parse::<u64>().unwrap_or(u64::MAX));
    if announced.is_some_and(|n| n > MAX_BODY as u64) {
        return Err(too_large());
    }
    let read = Limited::new(req.into_body(), MAX_BODY).collect();
    match tokio::time::timeout(BODY_TIMEOUT, read).await {
        Err(_) => Err(error_closing(408, "the request's body came too slowly")),
        Ok(Err(e)) if e.downcast_ref::<LengthLimitError>().is_some() => Err(too_large()),
        Ok(Err(_)) => Err(error_closing(400, "cannot read the request")),
        Ok(Ok(b)) => Ok(b.to_bytes()),
    }
}

/// Waits for the client's turn in the play lane (one request of a client at a time); `None`
/// when the server is stopping.
async fn client_turn(sh: &Shared, peer: IpAddr) -> Option<OwnedSemaphorePermit> {
    let turn = {
        let mut turns = lock(&sh.turns);
        if turns.len() > MAX_CONNECTIONS {
            // Clients with no request under way are forgotten.
            turns.retain(|_, t| Arc::strong_count(t) > 1);
        }
        turns
            .entry(peer)
            .or_insert_with(|| Arc::new(Semaphore::new(1)))
            .clone()
    };
    turn.acquire_owned().await.ok()
}

async fn route(
    sh: &Shared,
    local: Option<IpAddr>,
    peer: IpAddr,
    req: Request<Incoming>,
) -> Response<Body> {
    if let Some(refusal) = check_caller(sh, local, &req) {
        return refusal;
    }
    let method = match *req.method() {
        Method::GET | Method::HEAD => "GET",
        Method::POST => "POST",
        ref m => return error(405, format!("{m} is not served")),
    };
    let path = req.uri().path().to_string();
    let query = req.uri().query().unwrap_or("").to_string();
    if method == "GET"
        && let Some(r) = served_from_memory(sh, &path)
    {
        return r;
    }
    let body = if method == "POST" {
        match read_body(req).await {
            Ok(b) => b,
            Err(r) => return r,
        }
    } else {
        Bytes::new()
    };
    if method == "GET"
        && path == "/api/wait"
        && let Err(e) = long_poll(sh, &query).await
    {
        return error(e.status, e.message);
    }
    let lane = lane(method, &path, &body);
    let costly = lane == Lane::Other
        && method == "POST"
        && matches!(path.as_str(), "/api/new" | "/api/pgn" | "/api/fen");
    let _costly = if costly {
        match sh.costly.acquire().await {
            Ok(p) => Some(p),
            Err(_) => return error(503, "the server is stopping"),
        }
    } else {
        None
    };
    // In the play lane, a client waits for its own turn first.
    let _turn = if lane == Lane::Play {
        match client_turn(sh, peer).await {
            Some(p) => Some(p),
            None => return error(503, "the server is stopping"),
        }
    } else {
        None
    };
    let lane_permits = match lane {
        Lane::Play => &sh.play,
        Lane::Open => &sh.open,
        Lane::Other => &sh.other,
    };
    let Ok(_permit) = lane_permits.acquire().await else {
        return error(503, "the server is stopping");
    };
    let server = sh.server.clone();
    let variants = sh.variants.clone();
    let work = tokio::task::spawn_blocking(move || {
        if method == "GET" && path == "/api/pgn" {
            return match server.pgn(&query) {
                Ok(t) => reply(
                    200,
                    "application/x-chess-pgn; charset=utf-8",
                    Bytes::from(t),
                ),
                Err(e) => error(e.status, e.message),
            };
        }
        match server.api_from(Some(peer), method, &path, &query, &body) {
            Ok(v) => {
                let b = Bytes::from(v.to_string());
                if method == "GET" && path == "/api/variants" {
                    let _ = variants.set(b.clone());
                }
                reply(200, JSON, b)
            }
            Err(e) => error(e.status, e.message),
        }
    });
    match work.await {
        Ok(r) => r,
        Err(_) => error(500, "the request failed"),
    }
}

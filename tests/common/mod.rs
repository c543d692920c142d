//! Running the `polymachy` binary from integration tests, finding the outside programs some
//! tests play against, temporary folders that go away, and (in [`positions`]) the games and
//! positions the tests build with the library. Each test binary uses part of it.
#![allow(dead_code)]

mod positions;
mod variants;
#[allow(unused_imports)] // each test binary uses some of them
pub use positions::*;
#[allow(unused_imports)]
pub use variants::*;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// What a run of the binary gave back.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs the binary with `args`, feeding `input` on standard input (then closing it).
pub fn run_binary(args: &[&str], input: &str) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_polymachy"));
    cmd.args(args).env("NO_COLOR", "1");
    run_command(cmd, input)
}

/// Runs `cmd`, feeding `input` on standard input (then closing it), with its standard output
/// and error captured.
pub fn run_command(mut cmd: Command, input: &str) -> Run {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the program runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Waits for `child` to end, calling `each` every `every` meanwhile; past `limit` the child is
/// killed and the test fails, saying `what` did not end.
pub fn wait_polling(
    child: &mut Child,
    limit: Duration,
    every: Duration,
    what: &str,
    mut each: impl FnMut(),
) -> ExitStatus {
    let until = Instant::now() + limit;
    loop {
        each();
        if let Some(s) = child.try_wait().unwrap() {
            return s;
        }
        if Instant::now() > until {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} did not end within {limit:?}");
        }
        std::thread::sleep(every);
    }
}

/// The first of `names` found on `PATH` or in `/usr/games` (where Debian puts XBoard and
/// Fairy-Max).
pub fn find_program(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    names.iter().find_map(|name| {
        std::env::split_paths(&path)
            .chain([PathBuf::from("/usr/games")])
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    })
}

/// Whether python3 can import pyffish, Fairy-Stockfish's Python module.
pub fn pyffish_ok() -> bool {
    Command::new("python3")
        .args(["-c", "import pyffish"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The test running on this thread, `BINARY::PATH` (libtest names each test's thread after
/// the test).
pub fn current_test() -> String {
    let thread = std::thread::current();
    format!(
        "{}::{}",
        env!("CARGO_CRATE_NAME"),
        thread.name().unwrap_or("(unnamed thread)")
    )
}

/// The file that lists the tests skipped (one line each: `TEST: reason`), in the target folder
/// of the build running them; `scripts/test.sh` empties it first and shows it at the end.
pub fn skipped_tests_file() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .or_else(|| {
            // target/PROFILE/deps/BINARY
            let exe = std::env::current_exe().ok()?;
            let deps = exe.parent()?;
            (deps.file_name()? == "deps").then(|| deps.parent()?.parent().map(Path::to_path_buf))?
        })
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
    target.join("skipped-tests.txt")
}

/// The current test does not check what it is for, because of `reason`: says so on standard
/// error (past libtest's capture, so that it shows in a passing run) and adds a line to
/// [`skipped_tests_file`]. The caller returns, or goes on with what it can still check.
pub fn skip(reason: &str) {
    let line = format!("{}: {reason}", current_test());
    let _ = writeln!(std::io::stderr(), "SKIPPED {line}");
    let file = skipped_tests_file();
    let _ = std::fs::create_dir_all(file.parent().unwrap_or(Path::new(".")));
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&file)
    {
        let _ = f.write_all(format!("{line}\n").as_bytes());
    }
}

/// An outside program is missing: a failure under `CI` (`.ci/run` installs it), a [`skip`]
/// elsewhere.
pub fn missing(what: &str) {
    if std::env::var_os("CI").is_some() {
        panic!("{what} is missing (scripts/install-deps.sh installs it)");
    }
    skip(&format!(
        "{what} is missing (scripts/install-deps.sh installs it)"
    ));
}

/// `ok`, which says whether `what` (an outside program) is there; when it is not, it is
/// [`missing`].
pub fn need(what: &str, ok: bool) -> bool {
    if !ok {
        missing(what);
    }
    ok
}

/// A folder of its own under the system's temporary folder (named after `name` and this
/// process), emptied first and removed with everything in it when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        let d = std::env::temp_dir().join(format!("polymachy-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        TempDir(d)
    }
}

/// The folder's path: `dir.join(file)`, `&dir` where a path is wanted.
impl std::ops::Deref for TempDir {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A `polymachy serve` process on a free port, killed when dropped.
pub struct Server {
    /// The process.
    pub child: Child,
    /// `127.0.0.1:PORT`, as the server printed it.
    pub addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    /// The page's address, `http://ADDR/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }
}

/// `polymachy serve --port 0` with `args`, as a command to adjust before [`start_server`].
pub fn serve_command(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_polymachy"));
    cmd.args(["serve", "--port", "0"]).args(args);
    cmd
}

/// Starts a `serve` command and reads the address it prints; its later output is read and
/// dropped, so that the server never blocks on a full pipe. It must listen on loopback.
pub fn start_server(mut cmd: Command) -> Server {
    use std::io::{BufRead, BufReader, Read};
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the server starts");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    let addr = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL printed: `{line}`"))
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    assert!(
        addr.starts_with("127.0.0.1:"),
        "loopback by default: {addr}"
    );
    std::thread::spawn(move || {
        let mut sink = Vec::new();
        let _ = out.read_to_end(&mut sink);
    });
    Server { child, addr }
}

/// One HTTP/1.1 request with a JSON content type; (status, content type, body). The body is
/// written after the head; a server may answer (and close) before reading all of it.
pub fn http(addr: &str, method: &str, path: &str, body: &[u8]) -> (u16, String, String) {
    use std::io::Read;
    let mut c = std::net::TcpStream::connect(addr).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    c.write_all(head.as_bytes()).unwrap();
    let _ = c.write_all(body);
    let mut resp = Vec::new();
    let _ = c.read_to_end(&mut resp);
    let text = String::from_utf8_lossy(&resp).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").expect("an HTTP answer");
    let status: u16 = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    let ctype = head
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case("content-type")
                .then(|| v.trim().to_string())
        })
        .unwrap_or_default();
    (status, ctype, body.to_string())
}

//! Running the `polymachy` binary from integration tests, finding the outside programs some
//! tests play against, and temporary folders that go away. Each test file uses part of it.
#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
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

/// An outside program is missing: a failure under `CI` (`.ci/run` installs it), a loud skip
/// elsewhere.
pub fn missing(what: &str) {
    if std::env::var_os("CI").is_some() {
        panic!("{what} is missing (scripts/install-deps.sh installs it)");
    }
    eprintln!("SKIPPED: {what} is missing (scripts/install-deps.sh installs it)");
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

    /// A path inside the folder.
    pub fn join(&self, file: &str) -> PathBuf {
        self.0.join(file)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

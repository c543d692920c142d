//! Every file the program reads is a regular file of bounded size: a device that never ends
//! (`/dev/zero`) or a FIFO that nobody writes to is refused at once with a precise error, for
//! each option that names a file. And a saved game's `[Variant]` tag never names a file.

mod common;

use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

/// Runs the binary with `args` and no input; fails the test if it has not ended within 20
/// seconds (a regression that blocks on a FIFO fails instead of hanging).
fn run_bounded(args: &[&str]) -> common::Run {
    static N: AtomicU32 = AtomicU32::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir = common::TempDir::new(&format!("input-files-run{n}"));
    let (out, err) = (dir.join("out"), dir.join("err"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_polymachy"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .unwrap();
    let status = common::wait_polling(
        &mut child,
        Duration::from_secs(20),
        Duration::from_millis(20),
        &format!("{args:?}"),
        || {},
    );
    common::Run {
        code: status.code().unwrap_or(-1),
        stdout: std::fs::read_to_string(&out).unwrap_or_default(),
        stderr: std::fs::read_to_string(&err).unwrap_or_default(),
    }
}

/// A FIFO in `dir`, or `None` (said loudly) where mkfifo is missing.
fn fifo(dir: &common::TempDir, name: &str) -> Option<String> {
    let p = dir.join(name);
    let made = Command::new("mkfifo").arg(&p).status();
    if made.is_ok_and(|s| s.success()) {
        Some(p.to_str().unwrap().to_string())
    } else {
        common::missing("mkfifo");
        None
    }
}

/// The command lines that read the file `f`, with what each calls the file.
fn readers(f: &str, out: &str) -> Vec<(Vec<String>, &'static str)> {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    vec![
        (
            s(&[
                "match",
                "-v",
                "chess",
                "--engine",
                "true",
                "--engine",
                "true",
                "--openings",
                f,
            ]),
            "an opening file",
        ),
        (s(&["tune", "-v", "chess", "--pgn", f]), "a PGN file"),
        (s(&["play", "--load", f]), "a saved game (PGN)"),
        (s(&["show", "--variant", f]), "a variant file"),
        (
            s(&["datagen", "-v", "chess", "--network", f, "--out", out]),
            "a network file",
        ),
        (s(&["train", f, "--out", out]), "a training data file"),
    ]
}

fn refused(args: &[String], f: &str, what: &str) {
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let r = run_bounded(&a);
    assert_eq!(r.code, 2, "{a:?}: {}\n{}", r.stdout, r.stderr);
    let want = format!("{f}: cannot read the file: not a regular file (expected {what})");
    assert!(r.stderr.contains(&want), "{a:?}: {}", r.stderr);
}

#[test]
fn a_device_is_refused_for_every_file_option() {
    let dir = common::TempDir::new("input-files-dev");
    let out = dir.join("out.bin");
    for (args, what) in readers("/dev/zero", out.to_str().unwrap()) {
        refused(&args, "/dev/zero", what);
    }
    assert!(!out.exists());
}

#[test]
fn a_fifo_is_refused_for_every_file_option() {
    let dir = common::TempDir::new("input-files-fifo");
    let Some(f) = fifo(&dir, "pipe") else {
        return;
    };
    let out = dir.join("out.bin");
    for (args, what) in readers(&f, out.to_str().unwrap()) {
        refused(&args, &f, what);
    }
    // A variant file whose network is a FIFO beside it.
    let Some(_) = fifo(&dir, "net.nnue") else {
        return;
    };
    let chess = polymachy::variant::BUILTIN
        .iter()
        .find(|(n, _)| *n == "chess")
        .unwrap()
        .1;
    let toml = dir.join("netted.toml");
    std::fs::write(
        &toml,
        chess.replacen("[eval]\n", "[eval]\nnetwork = \"net.nnue\"\n", 1),
    )
    .unwrap();
    let r = run_bounded(&["show", "--variant", toml.to_str().unwrap()]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains(
            "net.nnue: cannot read the file: not a regular file (expected a network file)"
        ),
        "{}",
        r.stderr
    );
}

#[test]
fn a_file_over_its_bound_is_refused_before_it_is_read() {
    let dir = common::TempDir::new("input-files-big");
    let big = dir.join("big.pgn");
    // Sparse: 17 MiB on paper, nothing on disk.
    let f = std::fs::File::create(&big).unwrap();
    f.set_len(17 << 20).unwrap();
    drop(f);
    let b = big.to_str().unwrap();
    let r = run_bounded(&["play", "--load", b]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains(&format!(
            "{b}: cannot read the file: 17825792 bytes, more than the 16777216 a saved game (PGN) may have"
        )),
        "{}",
        r.stderr
    );
}

/// The `[Variant]` tag of a saved game names a built-in game or the game of the file given
/// with `--variant`; a path in the tag is never read.
#[test]
fn a_saved_games_variant_tag_never_names_a_file() {
    let dir = common::TempDir::new("input-files-tag");
    let chess = polymachy::variant::BUILTIN
        .iter()
        .find(|(n, _)| *n == "chess")
        .unwrap()
        .1;
    // A variant file the PGN points at: a FIFO would block, a file would be read.
    let mine = dir.join("mine.toml");
    std::fs::write(
        &mine,
        chess.replacen("id = \"chess\"", "id = \"minechess\"", 1),
    )
    .unwrap();
    let m = mine.to_str().unwrap();
    let pgn = dir.join("g.pgn");
    for tag in [m.to_string(), fifo(&dir, "v.toml").unwrap_or_default()] {
        if tag.is_empty() {
            continue;
        }
        std::fs::write(
            &pgn,
            format!("[Event \"x\"]\n[Variant \"{tag}\"]\n\n1. e4 *\n"),
        )
        .unwrap();
        let r = run_bounded(&["play", "--load", pgn.to_str().unwrap()]);
        assert_eq!(r.code, 2, "{}\n{}", r.stdout, r.stderr);
        assert!(
            r.stderr.contains(&format!(
                "g.pgn:2: unknown variant `{tag}` (not a built-in game; give its file with --variant)"
            )),
            "{}",
            r.stderr
        );
    }
    // The game's id names the file given on the command line: it is played.
    std::fs::write(&pgn, "[Event \"x\"]\n[Variant \"minechess\"]\n\n1. e4 *\n").unwrap();
    let r = run_bounded(&[
        "play",
        "--variant",
        m,
        "--load",
        pgn.to_str().unwrap(),
        "--white",
        "human",
        "--black",
        "human",
        "--ascii",
    ]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("Loaded 1 move"), "{}", r.stdout);
    // Without --variant, the same tag is unknown (it is no built-in game).
    let r = run_bounded(&["play", "--load", pgn.to_str().unwrap()]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("unknown variant `minechess`"),
        "{}",
        r.stderr
    );
    // A built-in name or title is found as before.
    std::fs::write(&pgn, "[Event \"x\"]\n[Variant \"Chess\"]\n\n1. e4 *\n").unwrap();
    let r = run_bounded(&[
        "play",
        "--load",
        pgn.to_str().unwrap(),
        "--white",
        "human",
        "--black",
        "human",
        "--ascii",
    ]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
}

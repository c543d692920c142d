//! `scripts/cluster.py`: `polymachy datagen` cut into shards, run as tasks on a local
//! HyperQueue cluster and merged, gives the file a single process writes.
//!
//! Needs python3 with the `hyperqueue` package: a failure when `CI` is set and it is missing
//! (`.ci/run` installs it through `scripts/install-deps.sh`); elsewhere a loud skip.

mod common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_polymachy");

/// A tiny run: 6 games of chess at 200 nodes a move.
const RUN: &[&str] = &["-v", "chess", "--games", "6", "--nodes", "200"];

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/cluster.py")
}

fn python_has(module: &str) -> bool {
    Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Whether python3 (with `module`, if given) is there; missing: see [`common::missing`].
fn need_python(module: Option<&str>) -> bool {
    let what = match module {
        Some(m) => format!("python3 with {m} (pip install {m})"),
        None => "python3".to_string(),
    };
    common::need(&what, python_has(module.unwrap_or("sys")))
}

/// `datagen` of [`RUN`] with `seed` in one process, into `out`.
fn single_process(seed: &str, out: &Path) -> Vec<u8> {
    let mut args = vec!["datagen"];
    args.extend_from_slice(RUN);
    args.extend_from_slice(&["--seed", seed, "-j", "1", "-q", "--out"]);
    let out_s = out.to_str().unwrap();
    args.push(out_s);
    let r = common::run_binary(&args, "");
    assert_eq!(r.code, 0, "single-process datagen failed: {}", r.stderr);
    std::fs::read(out).unwrap()
}

/// `scripts/cluster.py datagen` with `seed`, 3 shards on a local cluster of 2 one-core workers.
fn on_cluster(seed: &str, out: &Path, work: &Path) -> common::Run {
    let mut cmd = Command::new("python3");
    cmd.arg(script()).args(["datagen", "--local-workers", "2"]);
    cmd.args(["--cores-per-worker", "1", "--shards", "3", "--quiet"]);
    cmd.arg("--polymachy").arg(BIN).arg("--out").arg(out);
    cmd.arg("--work-dir").arg(work).arg("--");
    cmd.args(RUN).args(["--seed", seed]);
    let o = cmd.output().expect("python3 runs");
    common::Run {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

#[test]
fn three_shards_on_a_local_hyperqueue_cluster_merge_into_the_single_process_file() {
    if !need_python(Some("hyperqueue")) {
        return;
    }
    let tmp = common::TempDir::new("cluster-merge");
    let single = single_process("7", &tmp.join("single.data"));
    // Other settings give other bytes, so equal bytes below mean the same games.
    let other = single_process("8", &tmp.join("other.data"));
    assert_ne!(single, other, "seeds 7 and 8 wrote the same data");

    let merged = tmp.join("merged.data");
    let work = tmp.join("shards");
    let r = on_cluster("7", &merged, &work);
    assert_eq!(r.code, 0, "cluster.py failed:\n{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("6 games") && r.stdout.contains("from 3 shards"),
        "the merge's report: {}",
        r.stdout
    );
    let got = std::fs::read(&merged).unwrap();
    assert!(
        got == single,
        "the merged file ({} bytes) differs from the single process's ({} bytes)",
        got.len(),
        single.len()
    );
    assert!(!work.exists(), "the shards' folder is left after the merge");
}

/// A HyperQueue server with one worker of 2 cores in `dir`, running until its standard input
/// closes: stands in for `hq server start` and `hq worker start` on other machines.
const SERVER: &str = "
import sys
from hyperqueue import LocalCluster
from hyperqueue.cluster import WorkerConfig
with LocalCluster(server_dir=sys.argv[1]) as c:
    c.start_worker(WorkerConfig(cores=2))
    print('ready', flush=True)
    sys.stdin.read()
";

#[test]
fn shards_submitted_to_a_running_server_merge_into_the_single_process_file() {
    if !need_python(Some("hyperqueue")) {
        return;
    }
    let tmp = common::TempDir::new("cluster-server");
    let single = single_process("7", &tmp.join("single.data"));
    let server_dir = tmp.join("server");
    std::fs::create_dir_all(&server_dir).unwrap();
    let mut server = Command::new("python3")
        .args(["-c", SERVER])
        .arg(&server_dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    // The server prints a table of its addresses, then SERVER says `ready`. Kept open
    // until the server has stopped, which prints too.
    let mut server_out = BufReader::new(server.stdout.take().unwrap());
    let mut line = String::new();
    while line.trim() != "ready" {
        line.clear();
        let n = server_out.read_line(&mut line).unwrap();
        assert!(n > 0, "the server stopped before it was ready");
    }

    let merged = tmp.join("merged.data");
    let o = Command::new("python3")
        .arg(script())
        .arg("datagen")
        .arg("--server-dir")
        .arg(&server_dir)
        .args(["--shards", "3", "--quiet", "--polymachy", BIN, "--out"])
        .arg(&merged)
        .arg("--")
        .args(RUN)
        .args(["--seed", "7"])
        .output()
        .expect("python3 runs");
    drop(server.stdin.take()); // the server stops
    assert!(server.wait().unwrap().success(), "the server failed");
    drop(server_out);
    assert!(
        o.status.success(),
        "cluster.py failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(std::fs::read(&merged).unwrap() == single);
}

#[test]
fn a_failed_shard_is_named_with_its_error_nothing_is_merged_and_a_rerun_resumes() {
    if !need_python(Some("hyperqueue")) {
        return;
    }
    let tmp = common::TempDir::new("cluster-fail");
    let single = single_process("7", &tmp.join("single.data"));
    // Shard 1's file holds another run's data: that shard refuses to resume it.
    let work = tmp.join("shards");
    std::fs::create_dir_all(&work).unwrap();
    single_process("8", &work.join("shard-1-of-3.data"));

    let merged = tmp.join("merged.data");
    let r = on_cluster("7", &merged, &work);
    assert_eq!(r.code, 1, "stdout: {}\nstderr: {}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("datagen shard 1/3 failed")
            && r.stderr.contains("holds data made with other settings"),
        "{}",
        r.stderr
    );
    assert!(
        !r.stderr.contains("shard 0/3 failed") && !r.stderr.contains("shard 2/3 failed"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("Traceback"), "{}", r.stderr);
    assert!(!merged.exists(), "a merge was written with a shard missing");

    // Without the foreign file the same command plays shard 1 and keeps the other two.
    std::fs::remove_file(work.join("shard-1-of-3.data")).unwrap();
    let r = on_cluster("7", &merged, &work);
    assert_eq!(r.code, 0, "rerun failed:\n{}\n{}", r.stdout, r.stderr);
    assert!(std::fs::read(&merged).unwrap() == single);
}

#[test]
fn options_the_script_sets_itself_are_refused_before_anything_runs() {
    if !need_python(None) {
        return;
    }
    let tmp = common::TempDir::new("cluster-args");
    for (passed, says) in [
        (
            "--shard=1/2",
            "gives each task its own --shard (see its --shards)",
        ),
        ("--out", "gives each task its own --out"),
        (
            "-j4",
            "gives each task its own -j (see its --cores-per-task)",
        ),
    ] {
        let o = Command::new("python3")
            .arg(script())
            .args(["datagen", "--shards", "2", "--out"])
            .arg(tmp.join("x.data"))
            .args(["--polymachy", BIN, "--", "-v", "chess", passed])
            .output()
            .expect("python3 runs");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{passed}: {err}");
        assert!(err.contains(says), "{passed}: {err}");
        assert!(!err.contains("Traceback"), "{passed}: {err}");
    }
    assert!(!tmp.join("x.data").exists() && !tmp.join("x.data.shards").exists());
}

//! A hash table the machine cannot give is an error, never an abort: `--hash` on the command
//! line, UCI's `setoption name Hash`, CECP's `memory`. The machine is made small with the
//! shell's `ulimit -v` (2 GB of address space, less than the largest table of 4096 MB), and
//! the engine goes on working afterwards.

mod common;

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_polymachy");
/// The address space the engine gets, in KB.
const LIMIT_KB: u32 = 2 * 1024 * 1024;

/// Runs the binary with `args` under the address-space limit; `None` (said loudly) where the
/// shell cannot set one.
fn limited(args: &str, input: &str) -> Option<common::Run> {
    let ok = Command::new("sh")
        .args(["-c", &format!("ulimit -v {LIMIT_KB}")])
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        common::missing("a shell whose `ulimit -v` works");
        return None;
    }
    let line = format!("ulimit -v {LIMIT_KB} && exec '{BIN}' {args}");
    Some(sh(&line, input))
}

/// Runs `sh -c LINE`, feeding `input` on standard input (then closing it).
fn sh(line: &str, input: &str) -> common::Run {
    let mut cmd = Command::new("sh");
    cmd.args(["-c", line]).env("NO_COLOR", "1");
    common::run_command(cmd, input)
}

const NO_MEMORY: &str = "cannot allocate a hash table of 4096 MB (not enough memory)";

#[test]
fn uci_hash_too_large_for_the_machine_is_an_error_and_the_engine_goes_on() {
    let Some(r) = limited(
        "uci -v chess",
        "uci\nsetoption name Hash value 4096\nisready\nsetoption name Hash value 8\nposition startpos\ngo depth 3\nisready\nquit\n",
    ) else {
        return;
    };
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .contains(&format!("info string error: Hash: {NO_MEMORY}")),
        "{}",
        r.stdout
    );
    assert_eq!(
        r.stdout.matches("info string error").count(),
        1,
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("bestmove "), "{}", r.stdout);
}

#[test]
fn cecp_memory_too_large_for_the_machine_is_an_error_and_the_engine_goes_on() {
    let Some(r) = limited(
        "xboard -v chess",
        "xboard\nprotover 2\nmemory 4096\nping 1\nmemory 8\nping 2\nquit\n",
    ) else {
        return;
    };
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .contains(&format!("Error ({NO_MEMORY}): memory 4096")),
        "{}",
        r.stdout
    );
    assert_eq!(r.stdout.matches("Error (").count(), 1, "{}", r.stdout);
    assert!(r.stdout.contains("pong 2"), "{}", r.stdout);
}

#[test]
fn command_line_hash_too_large_for_the_machine_is_an_error() {
    let Some(r) = limited("analyse -v chess --depth 2 --hash 4096", "") else {
        return;
    };
    assert_eq!(r.code, 2, "{}\n{}", r.stdout, r.stderr);
    assert_eq!(r.stderr.trim(), format!("error: --hash: {NO_MEMORY}"));
    // The same search with a table the machine can give runs.
    let r = limited("analyse -v chess --depth 2 --hash 16", "").unwrap();
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let r = limited("selfplay -v chess --games 1 --depth 1 --hash 4096", "").unwrap();
    assert_eq!(r.code, 2, "{}\n{}", r.stdout, r.stderr);
    assert_eq!(r.stderr.trim(), format!("error: --hash: {NO_MEMORY}"));
}

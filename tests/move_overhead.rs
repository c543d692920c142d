//! The move overhead: offered in UCI and CECP and on the command line, bad values refused with
//! a message while the session goes on, and the clock budget that keeps it in reserve.

use std::time::Duration;

use polymachy::search::Limits;

mod common;

#[test]
fn uci_move_overhead_option() {
    let r = common::run_binary(
        &["uci"],
        "uci\nsetoption name Move Overhead value 250\nsetoption name Move Overhead value lots\n\
         setoption name Move Overhead value 5001\n\
         setoption name UCI_Variant value chess\nsetoption name Move Overhead value 0\n\
         position startpos\ngo wtime 2000 btime 2000 winc 0 binc 0\n",
    );
    let out = r.stdout;
    assert!(
        out.contains("option name Move Overhead type spin default 50 min 0 max 5000"),
        "{out}"
    );
    assert!(
        out.contains(
            "info string error: Move Overhead must be a number from 0 to 5000 (milliseconds), got `lots`"
        ),
        "{out}"
    );
    assert!(out.contains("got `5001`"), "{out}");
    // Only the two bad values are refused; the session goes on and plays on its clock.
    assert_eq!(out.matches("info string error").count(), 2, "{out}");
    assert!(
        out.lines().last().unwrap().starts_with("bestmove "),
        "{out}"
    );
}

#[test]
fn cecp_move_overhead_option() {
    let r = common::run_binary(
        &["xboard"],
        "xboard\nprotover 2\nnew\noption Move Overhead=120\noption Move Overhead=-3\n\
         sd 2\nusermove e2e4\nping 1\n",
    );
    let out = r.stdout;
    assert!(
        out.contains("feature option=\"Move Overhead -spin 50 0 5000\""),
        "{out}"
    );
    assert!(
        out.contains("Error (Move Overhead must be a number"),
        "{out}"
    );
    assert_eq!(out.matches("Error").count(), 1, "{out}");
    assert!(out.lines().any(|l| l.starts_with("move ")), "{out}");
}

#[test]
fn play_refuses_a_bad_move_overhead() {
    let r = common::run_binary(&["play", "--move-overhead", "9999"], "");
    assert_ne!(r.code, 0);
    assert!(r.stderr.contains("--move-overhead"), "{}", r.stderr);
}

#[test]
fn a_larger_overhead_leaves_less_time_and_never_the_reserve() {
    for (left, inc) in [(10_000u64, 100u64), (1_000, 10), (300, 100), (40, 0)] {
        let l = Limits::clock(Duration::from_millis(left), Duration::from_millis(inc));
        let mut last = Duration::MAX;
        for o in [0u64, 30, 100, 300] {
            let (soft, hard) = l.budget_with(Duration::from_millis(o));
            let (soft, hard) = (soft.unwrap(), hard.unwrap());
            assert!(soft <= hard, "{left}+{inc}, overhead {o}");
            assert!(hard <= last, "{left}+{inc}, overhead {o}");
            assert!(
                hard + Duration::from_millis(o) <= Duration::from_millis(left.max(o)),
                "{left}+{inc}, overhead {o}: {hard:?}"
            );
            last = hard;
        }
    }
}

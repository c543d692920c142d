//! `polymachy datagen` and `polymachy train` from the command line: shards that merge into the
//! single-process file, resuming a cut-off file, the same data whatever the number of jobs,
//! and a training run whose validation loss falls.

mod common;

use common::{TempDir, run_binary};

/// A small Shako run: few nodes, so that it takes a second or two (`extra` may set
/// `--nodes`, default 300).
fn datagen(dir: &TempDir, out: &str, extra: &[&str]) -> common::Run {
    let path = dir.join(out);
    let mut args = vec![
        "datagen",
        "-v",
        "shako",
        "--games",
        "6",
        "--opening-plies",
        "6",
        "--max-plies",
        "80",
        "--seed",
        "5",
        "-q",
    ];
    if !extra.contains(&"--nodes") {
        args.extend_from_slice(&["--nodes", "300"]);
    }
    args.push("--out");
    let p = path.to_str().unwrap().to_string();
    args.push(&p);
    args.extend_from_slice(extra);
    run_binary(&args, "")
}

fn bytes(dir: &TempDir, f: &str) -> Vec<u8> {
    std::fs::read(dir.join(f)).unwrap()
}

#[test]
fn shards_merge_into_the_file_one_process_writes_and_jobs_do_not_change_it() {
    let dir = TempDir::new("datagen-shards");
    let r = datagen(&dir, "all.data", &["-j", "1"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("6 games"), "{}", r.stdout);
    let all = bytes(&dir, "all.data");
    assert!(all.len() > 200, "the run kept positions");
    let r = datagen(&dir, "two-jobs.data", &["-j", "2"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(bytes(&dir, "two-jobs.data"), all);
    let mut shards = Vec::new();
    for i in 0..3 {
        let name = format!("s{i}.data");
        let r = datagen(&dir, &name, &["--shard", &format!("{i}/3"), "-j", "1"]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert_ne!(bytes(&dir, &name), all);
        shards.push(dir.join(&name).to_str().unwrap().to_string());
    }
    let merged = dir.join("merged.data").to_str().unwrap().to_string();
    let mut args = vec!["datagen", "--merge", merged.as_str()];
    args.extend(shards.iter().map(String::as_str));
    let r = run_binary(&args, "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(bytes(&dir, "merged.data"), all);
    // A missing shard is refused, as is a shard of another run.
    let r = run_binary(&["datagen", "--merge", &merged, &shards[0], &shards[1]], "");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("missing or unfinished"), "{}", r.stderr);
    let r = datagen(&dir, "other.data", &["--shard", "2/3", "--nodes", "301"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let other = dir.join("other.data").to_str().unwrap().to_string();
    let r = run_binary(
        &[
            "datagen", "--merge", &merged, &shards[0], &shards[1], &other,
        ],
        "",
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("other settings"), "{}", r.stderr);
}

#[test]
fn a_cut_off_run_resumes_to_the_same_file() {
    let dir = TempDir::new("datagen-resume");
    let r = datagen(&dir, "full.data", &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let full = bytes(&dir, "full.data");
    // Cut in the middle of a game.
    let cut = full.len() * 2 / 3;
    std::fs::write(dir.join("part.data"), &full[..cut]).unwrap();
    let r = datagen(&dir, "part.data", &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("resuming after"), "{}", r.stderr);
    assert_eq!(bytes(&dir, "part.data"), full);
    // Other settings do not resume a file.
    let r = datagen(&dir, "part.data", &["--nodes", "400"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("other settings"), "{}", r.stderr);
    // Not a data file.
    std::fs::write(dir.join("junk.data"), b"hello").unwrap();
    let r = datagen(&dir, "junk.data", &[]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("not a Polymachy training data file"),
        "{}",
        r.stderr
    );
}

#[test]
fn bad_shard_arguments_are_refused() {
    let dir = TempDir::new("datagen-args");
    for s in ["3/3", "1", "a/b", "0/0"] {
        let r = datagen(&dir, "x.data", &["--shard", s]);
        assert_eq!(r.code, 2, "{s}");
        assert!(r.stderr.contains("--shard"), "{}", r.stderr);
    }
}

#[test]
fn training_lowers_the_validation_loss_and_writes_a_network_the_engine_plays_with() {
    let dir = TempDir::new("train");
    let out = dir.join("d.data").to_str().unwrap().to_string();
    let r = run_binary(
        &[
            "datagen",
            "-v",
            "shako",
            "--games",
            "60",
            "--nodes",
            "200",
            "--max-plies",
            "120",
            "-q",
            "--out",
            &out,
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let net = dir.join("s.nnue").to_str().unwrap().to_string();
    let ck = dir.join("ck").to_str().unwrap().to_string();
    let r = run_binary(
        &[
            "train",
            "-v",
            "shako",
            &out,
            "--out",
            &net,
            "--hidden",
            "32",
            "--epochs",
            "4",
            "--batch",
            "256",
            "--lr",
            "0.001",
            "-q",
            "--checkpoints",
            &ck,
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let loss = |prefix: &str| -> f64 {
        let line = r
            .stdout
            .lines()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no `{prefix}` line in\n{}", r.stdout));
        let v = line.split("validation loss ").nth(1).unwrap();
        v.split(|c: char| c == ',' || c.is_whitespace())
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let (before, after) = (loss("epoch 0"), loss("epoch 4/4"));
    // The bar: the variant's own evaluation on the same validation positions.
    let bar = loss("the variant's own static evaluation");
    assert!(bar > 0.0 && bar < 0.25, "{bar}");
    assert!(
        after < before,
        "validation loss {before} -> {after}\n{}",
        r.stdout
    );
    assert!(std::path::Path::new(&ck).join("epoch-2.nnue").exists());
    // The network continues from a checkpoint.
    let ckpt = std::path::Path::new(&ck).join("epoch-4.ckpt");
    let r2 = run_binary(
        &[
            "train",
            "-v",
            "shako",
            &out,
            "--out",
            &net,
            "--epochs",
            "1",
            "--batch",
            "256",
            "-q",
            "--init",
            ckpt.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(r2.code, 0, "{}", r2.stderr);
    // Data for another game is refused.
    let r3 = run_binary(&["train", "-v", "chess", &out, "--out", &net, "-q"], "");
    assert_eq!(r3.code, 2);
    assert!(r3.stderr.contains("made for `shako`"), "{}", r3.stderr);
    // Bootstrapping: data scored by the network trained.
    let out2 = dir.join("d2.data").to_str().unwrap().to_string();
    let r4 = run_binary(
        &[
            "datagen",
            "-v",
            "shako",
            "--games",
            "2",
            "--nodes",
            "200",
            "--max-plies",
            "60",
            "-q",
            "--network",
            &net,
            "--out",
            &out2,
        ],
        "",
    );
    assert_eq!(r4.code, 0, "{}", r4.stderr);
    // A network for another game is refused.
    let r5 = run_binary(
        &[
            "datagen",
            "-v",
            "chess",
            "--games",
            "1",
            "-q",
            "--network",
            &net,
            "--out",
            &out2,
        ],
        "",
    );
    assert_eq!(r5.code, 2);
    assert!(r5.stderr.contains("trained for `shako`"), "{}", r5.stderr);
}

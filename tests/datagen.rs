//! `polymachy datagen` and `polymachy train` from the command line: shards that merge into the
//! single-process file, resuming a cut-off file, the same data whatever the number of jobs,
//! and a training run whose validation loss falls.

mod common;

use common::{TempDir, run_binary};

/// A small Shako run: few nodes, so that it takes a second or two. `extra` is added to the
/// arguments and replaces any of the defaults (`--games 6 --opening-plies 6 --max-plies 80
/// --seed 5 --nodes 300`) whose flag it names.
fn datagen(dir: &TempDir, out: &str, extra: &[&str]) -> common::Run {
    let path = dir.join(out);
    let mut args = vec!["datagen", "-v", "shako", "-q"];
    for (flag, value) in [
        ("--games", "6"),
        ("--opening-plies", "6"),
        ("--max-plies", "80"),
        ("--seed", "5"),
        ("--nodes", "300"),
    ] {
        if !extra.contains(&flag) {
            args.extend_from_slice(&[flag, value]);
        }
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
#[expect(
    clippy::too_many_lines,
    reason = "one training run followed from the data to a network the engine plays with"
)]
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

/// Writes `header` and `games` as a data file `name` in `dir`; gives back its path.
fn write_data(
    dir: &TempDir,
    name: &str,
    header: &polymachy::nnue::data::Header,
    games: &[polymachy::nnue::data::GameBlock],
) -> String {
    let mut b = header.to_bytes();
    for g in games {
        g.write_to(&mut b);
    }
    let p = dir.join(name);
    std::fs::write(&p, b).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn damaged_records_are_refused_with_their_number_by_train_merge_and_resume() {
    use polymachy::nnue::data;
    let dir = TempDir::new("datagen-damaged");
    let r = datagen(&dir, "good.data", &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let good = data::read_file(dir.join("good.data").to_str().unwrap()).unwrap();
    let (header, games) = (good.header.clone(), good.games.clone());
    // The first position of the first game record that has positions.
    let with = games.iter().position(|g| !g.records.is_empty()).unwrap();
    let n = with + 1;
    let g = games[with].game;
    let mut cases: Vec<(&str, Vec<data::GameBlock>, String)> = Vec::new();
    let mut bad = games.clone();
    bad[1].result = 3;
    let g1 = games[1].game;
    cases.push((
        "result",
        bad,
        format!("record 2 (game {g1}): result 3, not 0, 1 or 2"),
    ));
    let mut bad = games.clone();
    bad[with].records[0].side = 2;
    cases.push((
        "side",
        bad,
        format!("record {n} (game {g}), position 1: side to move 2, not 0 (White) or 1 (Black)"),
    ));
    let mut bad = games.clone();
    bad[with].records[0].score = i16::MIN;
    cases.push((
        "score",
        bad,
        format!("record {n} (game {g}), position 1: score -32768, out of range (-32767 to 32767)"),
    ));
    let mut bad = games.clone();
    bad.push(games[5].clone());
    cases.push((
        "twice",
        bad,
        format!("record 7: game {} a second time", games[5].game),
    ));
    for (name, blocks, message) in cases {
        let file = format!("{name}.data");
        let path = write_data(&dir, &file, &header, &blocks);
        let expected = format!("error: {path}: {message}");
        let runs = [
            (
                "train",
                run_binary(
                    &[
                        "train",
                        "-v",
                        "shako",
                        &path,
                        "--out",
                        dir.join("x.nnue").to_str().unwrap(),
                        "-q",
                    ],
                    "",
                ),
            ),
            (
                "merge",
                run_binary(
                    &[
                        "datagen",
                        "--merge",
                        dir.join("m.data").to_str().unwrap(),
                        &path,
                    ],
                    "",
                ),
            ),
            ("resume", datagen(&dir, &file, &[])),
        ];
        for (what, r) in runs {
            assert_eq!(r.code, 2, "{name}, {what}: {}", r.stderr);
            assert!(
                r.stderr.starts_with(&expected),
                "{name}, {what}: {} should start with {expected}",
                r.stderr
            );
        }
    }
}

#[test]
fn training_on_fewer_than_twenty_games_shows_no_validation_loss() {
    let dir = TempDir::new("train-few");
    let r = datagen(&dir, "few.data", &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let net = dir.join("few.nnue").to_str().unwrap().to_string();
    let data = dir.join("few.data").to_str().unwrap().to_string();
    let r = run_binary(
        &[
            "train", "-v", "shako", &data, "--out", &net, "--hidden", "16", "--epochs", "1", "-q",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stdout.to_lowercase().contains("nan"), "{}", r.stdout);
    assert!(
        r.stdout.contains(
            "epoch 0: validation loss none (the data holds no game numbered 19 modulo 20, the games held out)"
        ),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .lines()
            .any(|l| l.starts_with("epoch 1/1: ") && l.contains("validation loss none")),
        "{}",
        r.stdout
    );
}

#[test]
fn eval_labels_are_the_static_evaluation_so_its_own_loss_on_them_is_zero() {
    use polymachy::nnue::data;
    let dir = TempDir::new("datagen-eval");
    let generate = |name: &str, label: &str| {
        datagen(
            &dir,
            name,
            &["--games", "20", "--max-plies", "60", "--label", label],
        )
    };
    let run = |name: &str, label: &str| {
        let r = generate(name, label);
        assert_eq!(r.code, 0, "{}", r.stderr);
        data::read_file(dir.join(name).to_str().unwrap()).unwrap()
    };
    let (searched, evaluated) = (run("s.data", "search"), run("e.data", "eval"));
    assert_eq!(searched.header.label, data::Label::Search);
    assert_eq!(evaluated.header.label, data::Label::Eval);
    // Every position not in check and one random move's position from each: more than the
    // quiet positions of the same games.
    let count = |f: &data::DataFile| f.games.iter().map(|g| g.records.len()).sum::<usize>();
    assert!(
        count(&evaluated) > count(&searched),
        "{} eval-labelled positions, {} search-labelled",
        count(&evaluated),
        count(&searched)
    );
    // The bar at --wdl 0 is the evaluation's loss against the data's scores alone: none on
    // its own evaluations, some on the searches'.
    let bar = |name: &str| -> String {
        let data = dir.join(name).to_str().unwrap().to_string();
        let net = dir.join("n.nnue").to_str().unwrap().to_string();
        let r = run_binary(
            &[
                "train", "-v", "shako", &data, "--out", &net, "--hidden", "16", "--epochs", "1",
                "--wdl", "0", "-q",
            ],
            "",
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        let line = r
            .stdout
            .lines()
            .find(|l| l.starts_with("the variant's own static evaluation"))
            .unwrap_or_else(|| panic!("no bar in\n{}", r.stdout))
            .to_string();
        line.split("validation loss ").nth(1).unwrap()[..8].to_string()
    };
    assert_eq!(bar("e.data"), "0.000000");
    assert_ne!(bar("s.data"), "0.000000");
    // A resumed file must have been made with the same label.
    let r = generate("e.data", "search");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("other settings"), "{}", r.stderr);
}

#[test]
fn a_format_one_file_reads_as_search_scores() {
    use polymachy::nnue::data;
    let dir = TempDir::new("datagen-v1");
    let r = datagen(&dir, "v2.data", &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let now = data::read_file(dir.join("v2.data").to_str().unwrap()).unwrap();
    // Format 1: the same header without the label byte.
    let header = now.header.to_bytes();
    let mut old = header[..header.len() - 1].to_vec();
    old[4..6].copy_from_slice(&1u16.to_le_bytes());
    old.extend_from_slice(&bytes(&dir, "v2.data")[header.len()..]);
    let read = data::read_bytes(&old, "v1.data").unwrap();
    assert_eq!(read.header, now.header);
    assert_eq!(read.games, now.games);
    // A label byte out of range, and a format to come, are refused.
    let mut bad = bytes(&dir, "v2.data");
    bad[header.len() - 1] = 7;
    let e = data::read_bytes(&bad, "bad.data")
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("label 7"), "{e}");
    let mut future = bytes(&dir, "v2.data");
    future[4..6].copy_from_slice(&3u16.to_le_bytes());
    let e = data::read_bytes(&future, "f.data")
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("data format 3"), "{e}");
}

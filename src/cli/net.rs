//! `polymachy datagen` and `polymachy train`: training data from self-play, and a network
//! trained from it (see [`crate::datagen`] and [`crate::nnue::train`]).

use std::io::{IsTerminal, Seek, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use clap::Args;

use super::{UserError, VariantArgs};
use crate::datagen::{self, Config};
use crate::nnue::data;
use crate::nnue::train::{self, Weights};
use crate::position::Ruleset;
use crate::variant::Variant;

/// Arguments of `datagen`.
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  polymachy datagen -v metamachy --games 2000 --out mm.data\n  \
polymachy datagen -v metamachy --games 2000 --shard 3/8 --out mm.3.data   # one of 8 machines\n  \
polymachy datagen --merge mm.data mm.0.data mm.1.data ...                 # the 8 shards as one file\n\n\
A shard's file is the same whichever machine writes it; an interrupted run resumes where its\n\
file ends when started again with the same settings."
)]
pub struct DatagenArgs {
    /// The variant and setup.
    #[command(flatten)]
    pub v: VariantArgs,
    /// Evaluate with this network file instead of the variant's own evaluation (bootstrapping:
    /// data scored by one network trains the next)
    #[arg(long, value_name = "FILE")]
    pub network: Option<PathBuf>,
    /// Games in the whole run (all shards together)
    #[arg(long, default_value_t = 1000)]
    pub games: u32,
    /// Nodes searched per move
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Random legal plies that open each game (not kept as data)
    #[arg(long, default_value_t = 8)]
    pub opening_plies: u16,
    /// Plies after which a game is stopped and counted a draw
    #[arg(long, default_value_t = 400)]
    pub max_plies: u32,
    /// Adjudicate a game won once 6 searches in a row give one side this many centipawns
    #[arg(long, default_value_t = 1500, value_name = "CP")]
    pub adjudicate: i32,
    /// Seed of the openings
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// This process's share of the games: I/N plays the games whose number is I modulo N
    #[arg(long, default_value = "0/1", value_name = "I/N")]
    pub shard: String,
    /// Games played at once, one core each (default: every core); the data is the same
    #[arg(long, short = 'j', value_name = "N")]
    pub jobs: Option<usize>,
    /// The data file to write (or to resume)
    #[arg(long, value_name = "FILE", required_unless_present = "merge")]
    pub out: Option<PathBuf>,
    /// Merge shard files into OUT instead of playing: `--merge OUT SHARD...`
    #[arg(long, num_args = 2.., value_name = "FILE")]
    pub merge: Option<Vec<PathBuf>>,
    /// What each kept position is scored by: `search` (the score of the search that chose the
    /// move; quiet positions only) or `eval` (the static evaluation, of every position not in
    /// check and of one random move's position from it: data to distil the evaluation into a
    /// network, with `train --wdl 0`)
    #[arg(long, value_enum, default_value_t = LabelArg::Search)]
    pub label: LabelArg,
    /// Print no progress line
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// `--label`'s values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LabelArg {
    /// The search's score.
    Search,
    /// The static evaluation.
    Eval,
}

fn parse_shard(s: &str) -> Result<(u32, u32), UserError> {
    let bad = || {
        UserError(format!(
            "--shard `{s}`: expected I/N with 0 <= I < N, e.g. 3/8"
        ))
    };
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (i, n): (u32, u32) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

/// The variant, with the network file `network` in place of its own evaluation if given.
fn rules_with_network(
    v: &VariantArgs,
    network: Option<&PathBuf>,
) -> Result<Arc<Ruleset>, UserError> {
    let mut variant = Variant::load(&v.variant)?;
    if let Some(p) = network {
        let bytes = read_limited(p, crate::variant::MAX_NETWORK_BYTES, "a network file")?;
        variant.network = Some((p.display().to_string(), bytes.into()));
        variant.locations.network = None;
    }
    Ruleset::new(&variant, v.setup.as_deref()).map_err(|e| UserError(e.to_string()))
}

/// Reads a regular file of at most `max` bytes (`what` names its kind in errors).
fn read_limited(p: &std::path::Path, max: u64, what: &str) -> Result<Vec<u8>, UserError> {
    crate::files::read_regular_file(p, max, what).map_err(UserError::from)
}

/// A progress line on standard error when it is a terminal.
struct Progress {
    on: bool,
    started: Instant,
}

impl Progress {
    fn new(quiet: bool) -> Progress {
        Progress {
            on: !quiet && std::io::stderr().is_terminal(),
            started: Instant::now(),
        }
    }

    fn show(&self, done: u64, total: u64, what: &str, extra: &str) {
        if !self.on {
            return;
        }
        let width = 30;
        let filled = (done * width / total.max(1)) as usize;
        let secs = self.started.elapsed().as_secs_f64();
        let eta = if done > 0 {
            let left = secs / done as f64 * (total - done.min(total)) as f64;
            format!("{}m{:02}s", left as u64 / 60, left as u64 % 60)
        } else {
            "?".into()
        };
        eprint!(
            "\r[{}{}] {done}/{total} {what}  {extra}  ETA {eta}   ",
            "#".repeat(filled),
            " ".repeat(width as usize - filled)
        );
        let _ = std::io::stderr().flush();
    }

    fn done(&self) {
        if self.on {
            eprintln!();
        }
    }
}

/// Runs `datagen`: plays this shard's games into the data file (resuming it), or merges
/// shard files.
pub fn run_datagen(a: DatagenArgs) -> Result<(), UserError> {
    if let Some(files) = &a.merge {
        return merge(files);
    }
    let out = a.out.clone().expect("clap requires --out without --merge");
    let rules = rules_with_network(&a.v, a.network.as_ref())?;
    let (shard_index, shard_count) = parse_shard(&a.shard)?;
    if a.games == 0 {
        return Err(UserError("--games must be at least 1".into()));
    }
    let cfg = Config {
        games: a.games,
        nodes: a.nodes.max(1),
        opening_plies: a.opening_plies,
        max_plies: a.max_plies,
        adjudicate: a.adjudicate,
        seed: a.seed,
        shard_index,
        shard_count,
        jobs: a
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .max(1),
        label: match a.label {
            LabelArg::Search => data::Label::Search,
            LabelArg::Eval => data::Label::Eval,
        },
    };
    let header = cfg.header(&rules);
    let shown = out.display().to_string();
    // Resume: keep the whole games already there, continue after the last.
    let mut done_games = 0u32;
    let mut positions = 0u64;
    let mut file = if out.exists() {
        let existing = data::read_file(&shown).map_err(|e| UserError(e.to_string()))?;
        if existing.header != header {
            return Err(UserError(format!(
                "{shown} holds data made with other settings (variant, seed, games, nodes, opening plies, shard or label); give another --out to start a new run"
            )));
        }
        done_games = existing.games.len() as u32;
        positions = existing.games.iter().map(|g| g.records.len() as u64).sum();
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .open(&out)
            .map_err(|e| UserError(format!("{shown}: {e}")))?;
        f.set_len(existing.whole_len as u64)
            .and_then(|_| f.seek(std::io::SeekFrom::End(0)).map(|_| ()))
            .map_err(|e| UserError(format!("{shown}: {e}")))?;
        if done_games > 0 {
            eprintln!("{shown}: resuming after {done_games} games ({positions} positions)");
        }
        f
    } else {
        let mut f = std::fs::File::create(&out).map_err(|e| UserError(format!("{shown}: {e}")))?;
        f.write_all(&header.to_bytes())
            .map_err(|e| UserError(format!("{shown}: {e}")))?;
        f
    };
    let all: Vec<u32> = cfg.shard_games().collect();
    let total = all.len() as u64;
    let todo: Vec<u32> = all.into_iter().skip(done_games as usize).collect();
    let progress = Progress::new(a.quiet);
    let started = Instant::now();
    let stop = AtomicBool::new(false);
    let mut w = std::io::BufWriter::new(&mut file);
    let base = (done_games, positions);
    let p = datagen::run(&rules, &cfg, todo, &mut w, &stop, |p| {
        let rate = p.positions as f64 / started.elapsed().as_secs_f64().max(1e-9);
        progress.show(
            (base.0 + p.games) as u64,
            total,
            "games",
            &format!("{} positions, {rate:.0} positions/s", base.1 + p.positions),
        );
    })
    .map_err(|e| UserError(format!("{shown}: {e}")))?;
    progress.done();
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{} games, {} positions in {secs:.1} s ({:.0} positions/s); {shown}: {} games, {} positions",
        p.games,
        p.positions,
        p.positions as f64 / secs.max(1e-9),
        base.0 + p.games,
        base.1 + p.positions
    );
    Ok(())
}

fn merge(files: &[PathBuf]) -> Result<(), UserError> {
    let (out, shards) = files
        .split_first()
        .expect("clap requires two or more files");
    let mut read = Vec::new();
    for f in shards {
        read.push(data::read_file(&f.display().to_string()).map_err(|e| UserError(e.to_string()))?);
    }
    let mut buf = Vec::new();
    let (games, positions) = data::merge(&read, &mut buf).map_err(UserError)?;
    std::fs::write(out, buf).map_err(|e| UserError(format!("{}: {e}", out.display())))?;
    println!(
        "{}: {games} games, {positions} positions from {} shards",
        out.display(),
        shards.len()
    );
    Ok(())
}

/// Arguments of `train`.
#[derive(Args, Debug)]
#[command(
    after_help = "Example:\n  polymachy train -v metamachy mm.data --out metamachy.nnue --epochs 10\n\n\
Prints the training and validation loss after each epoch; the validation positions are the\n\
games whose number is 19 modulo 20. Checkpoints: DIR/epoch-N.nnue (the network) and\n\
DIR/epoch-N.ckpt (its float weights, for --init)."
)]
pub struct TrainArgs {
    /// The variant and setup.
    #[command(flatten)]
    pub v: VariantArgs,
    /// Data files written by `polymachy datagen`
    #[arg(required = true, value_name = "DATA")]
    pub data: Vec<PathBuf>,
    /// The network file to write
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Hidden units per side (a multiple of 16)
    #[arg(long, default_value_t = 256)]
    pub hidden: usize,
    /// Output buckets by the number of pieces on the board
    #[arg(long, default_value_t = 4)]
    pub buckets: usize,
    /// Passes over the training data
    #[arg(long, default_value_t = 10)]
    pub epochs: usize,
    /// Positions per batch
    #[arg(long, default_value_t = 16384)]
    pub batch: usize,
    /// Learning rate (Adam)
    #[arg(long, default_value_t = 0.001)]
    pub lr: f32,
    /// Learning rate multiplier after each epoch
    #[arg(long, default_value_t = 0.75)]
    pub lr_decay: f32,
    /// Weight of the game's result in the target (0: the search's score alone)
    #[arg(long, default_value_t = 0.3)]
    pub wdl: f32,
    /// Threads (default: every core)
    #[arg(long, short = 'j')]
    pub threads: Option<usize>,
    /// Seed of the initial weights and of the order of the positions
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Start from these float weights (a checkpoint) instead of random ones
    #[arg(long, value_name = "CKPT")]
    pub init: Option<PathBuf>,
    /// Keep a checkpoint of every epoch in this folder
    #[arg(long, value_name = "DIR")]
    pub checkpoints: Option<PathBuf>,
    /// Print no progress line
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// The numbers of `train` that must be in range before any data is read.
fn check_train_args(a: &TrainArgs) -> Result<(), UserError> {
    if a.hidden == 0 || !a.hidden.is_multiple_of(16) || a.hidden > crate::nnue::MAX_HIDDEN {
        return Err(UserError(format!(
            "--hidden {}: a multiple of 16 from 16 to {}",
            a.hidden,
            crate::nnue::MAX_HIDDEN
        )));
    }
    if a.buckets == 0 || a.buckets > crate::nnue::MAX_BUCKETS {
        return Err(UserError(format!(
            "--buckets {}: 1 to {}",
            a.buckets,
            crate::nnue::MAX_BUCKETS
        )));
    }
    if a.batch == 0 || a.epochs == 0 {
        return Err(UserError("--batch and --epochs must be at least 1".into()));
    }
    if !(0.0..=1.0).contains(&a.wdl) {
        return Err(UserError("--wdl must be from 0 to 1".into()));
    }
    Ok(())
}

/// The weights training starts from: `--init`'s checkpoint, or random ones.
fn start_weights(a: &TrainArgs, variant: &Variant) -> Result<Weights, UserError> {
    Ok(match &a.init {
        Some(p) => {
            let b = read_limited(p, 1 << 30, "a training checkpoint")?;
            Weights::read(&b, variant).map_err(|e| UserError(format!("{}: {e}", p.display())))?
        }
        None => Weights::new(variant, a.hidden, a.buckets, a.seed),
    })
}

/// Runs `train`: reads the data files, trains and writes the network file.
pub fn run_train(a: TrainArgs) -> Result<(), UserError> {
    let variant = Variant::load(&a.v.variant)?;
    check_train_args(&a)?;
    let mut files = Vec::new();
    for d in &a.data {
        files
            .push(data::read_file(&d.display().to_string()).map_err(|e| UserError(e.to_string()))?);
    }
    let (tr, va) = train::positions(&variant, &files, a.wdl).map_err(UserError)?;
    let bar = evaluation_loss(&variant, &files, a.wdl)?;
    drop(files);
    if tr.is_empty() {
        return Err(UserError("the data holds no training positions".into()));
    }
    let threads = a
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let mut w = start_weights(&a, &variant)?;
    println!(
        "{} training positions, {} validation positions; {} inputs, {} hidden units, {} buckets, {threads} threads",
        tr.len(),
        va.len(),
        w.inputs,
        w.hidden,
        w.buckets
    );
    if let Some(l) = bar {
        println!("the variant's own static evaluation: validation loss {l:.6} (the bar)");
    }
    let valid_text = |loss: f64| validation_text(va.is_empty(), loss);
    println!(
        "epoch 0: validation loss {}",
        valid_text(train::mean_loss(&w, &va, threads))
    );
    if let Some(dir) = &a.checkpoints {
        std::fs::create_dir_all(dir).map_err(|e| UserError(format!("{}: {e}", dir.display())))?;
    }
    let cfg = train::Config {
        epochs: a.epochs,
        batch: a.batch,
        lr: a.lr,
        lr_decay: a.lr_decay,
        wdl: a.wdl,
        threads,
        seed: a.seed,
    };
    let progress = Progress::new(a.quiet);
    let stop = AtomicBool::new(false);
    let mut failure = None;
    let epochs = a.epochs;
    train::train(
        &mut w,
        &tr,
        &va,
        &cfg,
        &stop,
        |r, w| {
            progress.done();
            println!(
                "epoch {}/{epochs}: training loss {:.6}, validation loss {}, {:.0} positions/s, lr {:.6}",
                r.epoch,
                r.train_loss,
                valid_text(r.valid_loss),
                r.positions_per_second,
                r.lr
            );
            if let Some(dir) = &a.checkpoints {
                let net = w.quantise(&variant).to_bytes();
                let res = std::fs::write(dir.join(format!("epoch-{}.nnue", r.epoch)), net)
                    .and_then(|_| {
                        std::fs::write(dir.join(format!("epoch-{}.ckpt", r.epoch)), w.to_bytes())
                    });
                if let Err(e) = res {
                    failure = Some(format!("{}: {e}", dir.display()));
                }
            }
        },
        |b, n| progress.show(b as u64, n as u64, "batches", ""),
    );
    if let Some(f) = failure {
        return Err(UserError(f));
    }
    let net = w.quantise(&variant);
    let bytes = net.to_bytes();
    std::fs::write(&a.out, &bytes).map_err(|e| UserError(format!("{}: {e}", a.out.display())))?;
    println!(
        "{}: {} bytes ({} inputs × {} hidden, {} buckets)",
        a.out.display(),
        bytes.len(),
        net.layout.inputs(),
        net.hidden,
        net.buckets
    );
    Ok(())
}

/// A validation loss as shown; with no validation positions (the games whose number is 19
/// modulo 20 are held out: data of fewer than 20 games has none) there is no loss to show.
fn validation_text(empty: bool, loss: f64) -> String {
    if empty {
        "none (the data holds no game numbered 19 modulo 20, the games held out)".to_string()
    } else {
        format!("{loss:.6}")
    }
}

/// The loss of the variant's own static evaluation (without a network) on the validation
/// positions, against the targets the network is trained to: the bar a network must pass.
/// `None` when there are no validation positions.
fn evaluation_loss(
    variant: &Variant,
    files: &[data::DataFile],
    wdl: f32,
) -> Result<Option<f64>, UserError> {
    let mut v = variant.clone();
    v.network = None;
    let rules = Ruleset::new(&v, None).map_err(|e| UserError(e.to_string()))?;
    let eval = crate::search::Evaluator::new(&rules);
    let size = rules.geometry.size();
    let sigmoid = |x: f64| 1.0 / (1.0 + (-x).exp());
    let (mut total, mut n) = (0f64, 0usize);
    for g in files
        .iter()
        .flat_map(|f| &f.games)
        .filter(|g| train::is_validation(g.game))
    {
        for r in &g.records {
            let mut setup = crate::position::Setup::start(&rules);
            setup.board = vec![crate::moves::EMPTY; size];
            for &(sq, c) in &r.pieces {
                if let Some(x) = setup.board.get_mut(sq.index()) {
                    *x = c;
                }
            }
            setup.side = crate::geometry::Color::from_index(r.side as usize & 1);
            setup.rights = 0;
            let Ok(pos) = crate::position::Position::from_setup(&rules, &setup) else {
                continue;
            };
            let target = train::target(g.result, r, wdl) as f64;
            let pred = sigmoid(eval.evaluate(&pos) as f64 / crate::nnue::SCALE as f64);
            total += (pred - target) * (pred - target);
            n += 1;
        }
    }
    Ok((n > 0).then(|| total / n as f64))
}

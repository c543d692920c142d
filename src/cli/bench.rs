//! `polymachy bench`: perft speed on the shipped variants.

use clap::Args;
use std::io::Write;

use super::UserError;
use crate::perft::Perft;
use crate::position::Position;
use crate::position::Ruleset;
use crate::variant::Variant;

/// Arguments of `bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Only this variant (built-in name or .toml path), at --depth
    #[arg(long, short = 'v')]
    pub variant: Option<String>,
    /// Depth for --variant (default 4)
    #[arg(long, short = 'd')]
    pub depth: Option<u32>,
    /// Run each measurement at least this many times (and for at least a second); report the best
    #[arg(long, default_value_t = 3)]
    pub repeat: u32,
    /// Search speed with and without each network side by side: every built-in variant that
    /// ships one (or --variant), five positions searched to --nodes each way
    #[arg(long)]
    pub network: bool,
    /// Nodes per search with --network
    #[arg(long, default_value_t = 300_000)]
    pub nodes: u64,
    /// Search speed and the search's signature: fixed positions of five games, each searched
    /// to a fixed depth from a cleared table on one thread; the total node count is the
    /// signature, which a change meant to keep the search as it is must not move
    #[arg(long)]
    pub search: bool,
}

/// The search benchmark: per game, the depth and the positions (the start position, "start",
/// and middlegame positions after 30 plies of self-play).
pub const SEARCH_SUITE: &[(&str, u32, &[&str])] = &[
    (
        "chess",
        12,
        &[
            "start",
            "r1b1k2r/1pqppp2/8/pB4p1/4Q3/8/PPP2PPb/R1B2RK1 w q - 0 16",
            "r1bq1k2/2pp1pp1/p4p2/7r/1n2Q2p/5N2/1BPPPPPP/4KB1R w K - 2 16",
        ],
    ),
    (
        "shako",
        10,
        &[
            "start",
            "1r7c/2nb1kb1r1/ppp1ppeppC/3q6/2Np3E2/2eP1Q4/10/cPP1PPPPPP/1R1B1KBN2/C7R1 w Qk - 3 16",
            "3r5c/2Qbqkb1r1/ppp1p1pppC/10/2Npp1eE2/2eP3n2/10/cPP1PPPPPP/2RB1KBN2/C7R1 w k - 1 16",
        ],
    ),
    (
        "lions-and-unicorns",
        10,
        &[
            "start",
            "l3r5/1pppkpp1p1/2nc6/4pL1p1b/L3P3l1/2N1Q1P3/1PPP1PP1P1/1R1B1KB1b1 w Q - 6 16",
            "1r2qkbr2/1ppp1pppp1/2n1pcl3/l6R2/2L3U3/2N3P3/1PPPPPP1P1/1R1BQKL3 w Qq - 13 16",
        ],
    ),
    (
        "metamachy",
        9,
        &[
            "start",
            "c4qk4c/1r3i1i1nr1/Bppp1pp1pppp/2enp2g1e2/3m1b1pm3/5l1b4/5Q6/7P4/2M1PB1GPENM/PPPP1PPL1PPP/ERN1I1KI2R1/C10C w k - 1 16",
            "c4qk4c/1r3i1i1nr1/pppp1pp1pppp/1ne1p2g1e2/3m1b1pm3/3B1l1b4/1Q10/7P4/2M1PB1GPENM/PPPP1PPL1PPP/ERN1I1KI2R1/C10C w k - 7 16",
        ],
    ),
    (
        "terachess2",
        6,
        &[
            "start",
            "sjyhx1doodf1hyjs/cmztuvl2l1utzmc/ern1wigkq1iwbnre/pppp1p1p1p2pppp/5b10/4p2fp1pp4/Q12a2/12X3/3x12/16/4A2P8/4P1P3BP4/PPPP1P2PPP1PPPP/ERNBWI2KGIW1NRE/CMZTU1L2LVUTZMC/SJYH1FD1ODFXHYJS w - - 2 16",
        ],
    ),
];

/// `bench --search`: each game's positions of [`SEARCH_SUITE`] searched to its depth.
fn run_search(a: &BenchArgs) -> Result<(), UserError> {
    use crate::search::{Limits, Searcher};
    println!(
        "{:<22} {:>5} {:>12} {:>9} {:>10}",
        "variant", "depth", "nodes", "seconds", "nodes/s"
    );
    let (mut total, mut secs) = (0u64, 0f64);
    for &(name, depth, fens) in SEARCH_SUITE {
        if a.variant.as_deref().is_some_and(|v| v != name) {
            continue;
        }
        let v = Variant::load(name)?;
        let rules = Ruleset::new(&v, None).map_err(|e| UserError(e.to_string()))?;
        let mut s = Searcher::new(&rules, 16);
        let (mut n, mut t) = (0u64, 0f64);
        for fen in fens {
            let mut pos = if *fen == "start" {
                Position::start(&rules)
            } else {
                Position::from_fen(&rules, fen).map_err(|e| UserError(format!("{fen}: {e}")))?
            };
            s.clear();
            let r = s.search(&mut pos, &Limits::depth(a.depth.unwrap_or(depth)), |_| {});
            n += r.nodes;
            t += r.elapsed.as_secs_f64();
        }
        total += n;
        secs += t;
        println!(
            "{:<22} {:>5} {:>12} {:>9.3} {:>10.0}",
            name,
            a.depth.unwrap_or(depth),
            n,
            t,
            n as f64 / t.max(1e-9)
        );
    }
    println!(
        "{:<22} {:>5} {:>12} {:>9.3} {:>10.0}",
        "total",
        "",
        total,
        secs,
        total as f64 / secs.max(1e-9)
    );
    println!("signature {total}");
    Ok(())
}

/// Search speed with the network and with the data-built evaluation, side by side.
fn run_network(a: &BenchArgs) -> Result<(), UserError> {
    use crate::search::{Limits, Searcher};
    let names: Vec<String> = match &a.variant {
        Some(v) => vec![v.clone()],
        None => crate::variant::BUILTIN
            .iter()
            .map(|(n, _)| n.to_string())
            .filter(|n| Variant::load(n).ok().is_some_and(|v| v.network.is_some()))
            .collect(),
    };
    if names.is_empty() {
        return Err(UserError("no built-in variant ships a network".into()));
    }
    println!(
        "{:<22} {:>10} {:>14} {:>14} {:>7}",
        "variant", "net bytes", "nodes/s net", "nodes/s eval", "ratio"
    );
    for name in names {
        let v = Variant::load(&name)?;
        let rules = Ruleset::new(&v, None).map_err(|e| UserError(e.to_string()))?;
        if v.network.is_none() {
            return Err(UserError(format!("{name} names no network")));
        }
        let size = v.network.as_ref().map_or(0, |(_, b)| b.len());
        // The start position and four positions a few moves in, the same each run.
        let mut positions = vec![Position::start(&rules)];
        let mut rng = crate::selfplay::Rng::new(7);
        let mut list = crate::moves::MoveList::new();
        while positions.len() < 5 {
            let mut p = Position::start(&rules);
            for _ in 0..10 {
                p.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                p.make(list.as_slice()[rng.below(list.len())]);
            }
            positions.push(p.snapshot());
        }
        let mut speed = [0f64; 2];
        for (i, on) in [true, false].into_iter().enumerate() {
            let mut s = Searcher::new(&rules, 64);
            s.set_network(on);
            let (mut nodes, mut secs) = (0u64, 0f64);
            for p in &positions {
                s.clear();
                let mut p = p.clone();
                let r = s.search(&mut p, &Limits::nodes(a.nodes), |_| {});
                nodes += r.nodes;
                secs += r.elapsed.as_secs_f64();
            }
            speed[i] = nodes as f64 / secs.max(1e-9);
        }
        println!(
            "{:<22} {:>10} {:>14.0} {:>14.0} {:>7.2}",
            name,
            size,
            speed[0],
            speed[1],
            speed[0] / speed[1].max(1e-9)
        );
    }
    Ok(())
}

/// The standard benchmark: (variant, depth) from the start position.
pub const SUITE: &[(&str, u32)] = &[
    ("chess", 6),
    ("lions-and-unicorns", 5),
    ("metamachy", 4),
    ("terachess2", 3),
];

/// Runs `bench`: the suite's perft and search counts, or the network's speed.
pub fn run(a: BenchArgs) -> Result<(), UserError> {
    if a.network {
        return run_network(&a);
    }
    if a.search {
        return run_search(&a);
    }
    let owned;
    let suite: &[(&str, u32)] = match &a.variant {
        Some(v) => {
            owned = [(v.as_str(), a.depth.unwrap_or(4))];
            &owned
        }
        None => SUITE,
    };
    println!(
        "{:<22} {:>5} {:>14} {:>9} {:>14}",
        "variant", "depth", "nodes", "seconds", "nodes/s"
    );
    let mut total_nodes = 0u64;
    let mut total_secs = 0f64;
    for &(name, depth) in suite {
        let v = Variant::load(name)?;
        let rules = Ruleset::new(&v, None).map_err(|e| UserError(e.to_string()))?;
        let mut best = f64::MAX;
        let mut nodes = 0;
        let tty = std::io::IsTerminal::is_terminal(&std::io::stderr());
        let started = std::time::Instant::now();
        let mut runs = 0;
        // Short measurements are repeated for at least a second; the best run counts.
        while runs < a.repeat.max(1) || started.elapsed().as_secs_f64() < 1.0 {
            runs += 1;
            if tty {
                eprint!("{name} depth {depth}...\r");
                let _ = std::io::stderr().flush();
            }
            let mut pos = Position::start(&rules);
            let t = std::time::Instant::now();
            nodes = Perft::new().count(&mut pos, depth);
            best = best.min(t.elapsed().as_secs_f64());
        }
        total_nodes += nodes;
        total_secs += best;
        println!(
            "{:<22} {:>5} {:>14} {:>9.3} {:>14.0}",
            name,
            depth,
            nodes,
            best,
            nodes as f64 / best.max(1e-9)
        );
    }
    if suite.len() > 1 {
        println!(
            "{:<22} {:>5} {:>14} {:>9.3} {:>14.0}",
            "total",
            "",
            total_nodes,
            total_secs,
            total_nodes as f64 / total_secs.max(1e-9)
        );
    }
    Ok(())
}

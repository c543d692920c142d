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
        if rules.network.is_none() {
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

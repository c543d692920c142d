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
}

/// The standard benchmark: (variant, depth) from the start position.
pub const SUITE: &[(&str, u32)] = &[
    ("chess", 6),
    ("lions-and-unicorns", 5),
    ("metamachy", 4),
    ("terachess2", 3),
];

pub fn run(a: BenchArgs) -> Result<(), UserError> {
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

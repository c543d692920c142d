//! The `polymachy` command line.

use std::process::ExitCode;

fn main() -> ExitCode {
    polymachy::cli::main()
}

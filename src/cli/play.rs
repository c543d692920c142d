//! `polymachy play` and `polymachy analyse` (being written).

use clap::Args;

use super::{UserError, VariantArgs};

/// Arguments of `play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub v: VariantArgs,
}

/// Arguments of `analyse`.
#[derive(Args, Debug)]
pub struct AnalyseArgs {
    #[command(flatten)]
    pub v: VariantArgs,
}

pub fn run_play(_a: PlayArgs) -> Result<(), UserError> {
    Err(UserError("play is not available in this build".into()))
}

pub fn run_analyse(_a: AnalyseArgs) -> Result<(), UserError> {
    Err(UserError("analyse is not available in this build".into()))
}

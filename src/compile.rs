//! Where the rules meet the core: reading a variant with the rules the engine knows, and
//! compiling it into a [`Ruleset`].
//!
//! The variant reader (`variant`) and the core (`position`) know no particular rule; the rules
//! (`rules`) know only the core's API. This module, above all three, hands the rules' registry
//! to both, so that `Variant::load` and `Ruleset::new` can be called from anywhere above.

use std::sync::Arc;

use crate::position::{CompileError, Ruleset};
use crate::rules::Registry;
use crate::variant::{Variant, VariantError};

impl Variant {
    /// Loads a built-in variant by name, or a `.toml` file by path.
    pub fn load(name_or_path: &str) -> Result<Variant, VariantError> {
        Variant::load_with(name_or_path, &Registry)
    }

    /// The built-in variant called `name`: its id or its title, in any case (`chess`,
    /// `Metamachy`, `Lions and Unicorns Chess`). Never reads a file. The one look-up of a
    /// variant by name, for a saved game's `Variant` tag and the like.
    pub fn builtin_named(name: &str) -> Option<Variant> {
        let key = name.trim();
        let by_id = crate::variant::BUILTIN
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(key))
            .and_then(|(n, _)| Variant::load(n).ok());
        by_id.or_else(|| {
            crate::variant::BUILTIN
                .iter()
                .filter_map(|(n, _)| Variant::load(n).ok())
                .find(|v| v.title.eq_ignore_ascii_case(key))
        })
    }

    /// Reads a variant from TOML text; `origin` names the file in error messages.
    pub fn from_toml(text: &str, origin: &str) -> Result<Variant, VariantError> {
        Variant::from_toml_with(text, origin, &Registry)
    }

    /// Reads a variant from TOML text that came from elsewhere (an upload): its `[eval]`
    /// `include` and `network` may name only the built-in tables and networks, and the disk
    /// is never read.
    pub fn from_untrusted_toml(text: &str, origin: &str) -> Result<Variant, VariantError> {
        Variant::from_toml_limited(text, origin, &Registry, crate::variant::Files::BuiltinOnly)
    }
}

impl Ruleset {
    /// Compiles `variant` with an optional setup choice (see [`Ruleset::assemble`]).
    pub fn new(variant: &Variant, setup: Option<&str>) -> Result<Arc<Ruleset>, CompileError> {
        Ruleset::assemble(variant, setup, &Registry)
    }
}

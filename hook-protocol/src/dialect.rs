//! The three hook dialects.

use std::fmt;
use std::str::FromStr;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One of the hook systems this workspace implements.
///
/// Each dialect has its own configuration files, wire format and rules for combining results;
/// see SPEC.md, "The three dialects".
///
/// Closed on purpose (not `#[non_exhaustive]`): the three dialects are the specification, and a
/// fourth would change what every consumer must do, so it should not compile unnoticed.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Dialect {
    /// Wuu: flat `hooks` entries in `config.json`, serial execution, snake_case output.
    Wuu,
    /// Verboo Code (modelled on Claude Code): grouped settings files, concurrent execution,
    /// `hookSpecificOutput`.
    Verboo,
    /// Lime (modelled on Codex CLI): TOML configuration, trust hashes, strict camelCase output.
    Lime,
}

impl Dialect {
    /// Every dialect, in a fixed order.
    pub const ALL: [Dialect; 3] = [Dialect::Wuu, Dialect::Verboo, Dialect::Lime];

    /// The lowercase name used on the command line, in `HOOK_DIALECT` and in schema paths.
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Wuu => "wuu",
            Dialect::Verboo => "verboo",
            Dialect::Lime => "lime",
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A dialect name that is not `wuu`, `verboo` or `lime`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown dialect `{0}`: expected one of wuu, verboo, lime")]
pub struct UnknownDialect(pub String);

impl FromStr for Dialect {
    type Err = UnknownDialect;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Dialect::ALL
            .into_iter()
            .find(|d| d.as_str().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownDialect(s.to_owned()))
    }
}

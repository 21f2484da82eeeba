//! The normalized identity of a hook and its trust hash.

use std::path::{Path, PathBuf};

use hook_config::{Handler, HandlerConfig};
use hook_protocol::{Dialect, HandlerType};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

/// The prefix of every trust hash.
pub const HASH_PREFIX: &str = "sha256:";

/// What hashing needs besides the handler: where a hand-built handler's relative `library`
/// path points.
///
/// Handlers from [`hook_config::load`] carry their library's absolute path
/// ([`Handler::library_path`], resolved at load against the declaring file's folder or the
/// plugin folder), which is what is hashed and what the engine loads: `base_dir` is used only
/// for a handler built without it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct HashContext {
    /// The folder relative `library` paths of hand-built handlers (no
    /// [`Handler::library_path`]) resolve against; the current directory when `None`.
    pub base_dir: Option<PathBuf>,
}

impl HashContext {
    /// A context resolving hand-built handlers' relative library paths against `dir`.
    pub fn with_base_dir(dir: impl Into<PathBuf>) -> Self {
        HashContext {
            base_dir: Some(dir.into()),
        }
    }

    /// Where a native handler's library is: [`Handler::library_path`], else
    /// [`hook_config::resolve_library`] with [`HashContext::base_dir`] for a handler without a
    /// file.
    pub fn library_path(&self, handler: &Handler) -> Option<PathBuf> {
        if let Some(path) = &handler.library_path {
            return Some(path.clone());
        }
        let fallback = self.base_dir.clone().unwrap_or_else(|| PathBuf::from("."));
        hook_config::resolve_library(
            &handler.config,
            handler.source.path.as_deref().map(Path::new),
            handler.plugin_root.as_deref(),
            &fallback,
        )
    }

    /// The hex SHA-256 of a native handler's library as the engine reads it
    /// ([`hook_config::library::library_digest`]: a regular file under the size cap, streamed),
    /// `None` when it is not a native handler or the library cannot be read.
    pub fn library_sha256(&self, handler: &Handler) -> Option<String> {
        if handler.config.handler_type != HandlerType::Native {
            return None;
        }
        let path = self.library_path(handler)?;
        hook_config::library::library_digest(&path).ok()
    }
}

/// The normalized identity of `handler` in `dialect`: the JSON object its trust hash is taken
/// of (see the crate docs for the fields and the normalization).
///
/// ```
/// # use hook_trust::{identity, HashContext};
/// # use hook_config::{Environment, LoadOptions, load};
/// # use hook_protocol::Dialect;
/// let home = tempfile::tempdir()?;
/// std::fs::write(home.path().join("config.toml"),
///     "[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"./done.sh\"\n")?;
/// let options = LoadOptions::new(Dialect::Lime, Environment::empty()).with_home(home.path());
/// let loaded = load(&options)?;
/// let handler = &loaded.registry.handlers()[0];
/// let id = identity(Dialect::Lime, handler, &HashContext::default());
/// assert_eq!(
///     serde_json::to_string(&id)?,
///     r#"{"event":"Stop","handler":{"additionalContextLimit":10000,"command":"./done.sh","timeout":600,"type":"command"},"matcher":"","plugin":null}"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// The files the hook runs (a command's scripts, a native handler's library) are not part of
/// it: their digests are recorded beside the hash ([`crate::named_files`]), so the hash stays
/// the one Codex computes for the same hook. `context` is kept for callers' sake: the identity
/// no longer reads anything.
pub fn identity(dialect: Dialect, handler: &Handler, context: &HashContext) -> Value {
    let _ = context;
    let mut fields = config_fields(&handler.config);
    fields.remove("statusMessage");
    fields.insert("timeout".to_owned(), seconds(handler.timeout.as_secs_f64()));
    // A dialect with a context limit hashes the limit that applies, written or not.
    if let Some(default) = dialect.rules().output().context_limit() {
        let limit = handler.config.additional_context_limit.unwrap_or(default);
        fields.insert("additionalContextLimit".to_owned(), Value::from(limit));
    }
    let plugin = match &handler.source.plugin {
        Some(plugin) => serde_json::json!({"name": plugin.name, "version": plugin.version}),
        None => Value::Null,
    };
    serde_json::json!({
        "event": handler.event.as_str(),
        "matcher": handler.matcher.as_deref().unwrap_or(""),
        "handler": Value::Object(fields),
        "plugin": plugin,
    })
}

/// The RFC 8785 canonical JSON text of `value` (what is hashed).
pub fn canonical_json(value: &Value) -> String {
    // serde_jcs only fails on what JSON cannot hold (non-string keys, non-finite numbers); a
    // `Value` holds neither, so the fallback never runs.
    serde_jcs::to_string(value).unwrap_or_else(|_| value.to_string())
}

/// `sha256:` + the hex SHA-256 of the canonical JSON of `handler`'s [`identity`].
pub fn trust_hash(dialect: Dialect, handler: &Handler, context: &HashContext) -> String {
    hash_of(&identity(dialect, handler, context))
}

fn hash_of(identity: &Value) -> String {
    let canonical = canonical_json(identity);
    format!("{HASH_PREFIX}{}", hex_sha256(canonical.as_bytes()))
}

/// Whether `text` is a well-formed trust hash: `sha256:` and 64 lowercase hex digits.
pub fn is_trust_hash(text: &str) -> bool {
    text.strip_prefix(HASH_PREFIX).is_some_and(|hex| {
        hex.len() == 64
            && hex
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}

/// The handler's fields under their configuration-file names, defaults (`false`, absent)
/// omitted.
fn config_fields(config: &HandlerConfig) -> Map<String, Value> {
    match serde_json::to_value(config) {
        Ok(Value::Object(map)) => map,
        // `HandlerConfig` is a struct of strings, numbers, maps and JSON values: it always
        // serializes to an object.
        _ => Map::new(),
    }
}

/// A number of seconds, as an integer when it is one (so `600` and `600.0` are one value).
fn seconds(secs: f64) -> Value {
    if secs.fract() == 0.0 && (0.0..9_007_199_254_740_992.0).contains(&secs) {
        // Exact: an integral f64 below 2^53.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        Value::from(secs as u64)
    } else {
        serde_json::Number::from_f64(secs).map_or(Value::Null, Value::Number)
    }
}

fn hex_sha256(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

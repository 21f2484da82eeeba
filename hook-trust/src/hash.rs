//! The normalized identity of a hook and its trust hash.

use std::path::{Path, PathBuf};

use hook_config::{Handler, HandlerConfig};
use hook_protocol::{Dialect, HandlerType};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

/// The prefix of every trust hash.
pub const HASH_PREFIX: &str = "sha256:";

/// lime's default `additionalContextLimit` (characters); writing it explicitly is the same hook.
const LIME_CONTEXT_LIMIT: u64 = 10_000;

/// What hashing needs besides the handler: where a native handler's relative `library` path
/// points.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HashContext {
    /// The folder relative `library` paths of non-plugin handlers resolve against (the project
    /// directory); the current directory when `None`. Plugin handlers resolve against their
    /// plugin's folder.
    pub base_dir: Option<PathBuf>,
}

impl HashContext {
    /// A context resolving relative library paths against `dir`.
    pub fn with_base_dir(dir: impl Into<PathBuf>) -> Self {
        HashContext {
            base_dir: Some(dir.into()),
        }
    }

    /// Where a native handler's library is: `${PLUGIN_ROOT}` expanded, a relative path joined
    /// to the plugin's folder (plugin handlers) or [`HashContext::base_dir`].
    pub fn library_path(&self, handler: &Handler) -> Option<PathBuf> {
        let written = handler.config.library.as_deref()?;
        let expanded = match &handler.plugin_root {
            Some(root) => written
                .replace("${PLUGIN_ROOT}", &root.display().to_string())
                .replace("${CLAUDE_PLUGIN_ROOT}", &root.display().to_string()),
            None => written.to_owned(),
        };
        let path = Path::new(&expanded);
        if path.is_absolute() {
            return Some(path.to_path_buf());
        }
        let base = handler.plugin_root.as_ref().or(self.base_dir.as_ref());
        Some(match base {
            Some(base) => base.join(path),
            None => path.to_path_buf(),
        })
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
pub fn identity(dialect: Dialect, handler: &Handler, context: &HashContext) -> Value {
    let mut fields = config_fields(&handler.config);
    fields.remove("statusMessage");
    fields.insert("timeout".to_owned(), seconds(handler.timeout.as_secs_f64()));
    if dialect == Dialect::Lime {
        let limit = handler
            .config
            .additional_context_limit
            .unwrap_or(LIME_CONTEXT_LIMIT);
        fields.insert("additionalContextLimit".to_owned(), Value::from(limit));
    }
    if handler.config.handler_type == HandlerType::Native {
        let digest = context
            .library_path(handler)
            .and_then(|path| std::fs::read(path).ok())
            .map(|bytes| Value::String(hex_sha256(&bytes)));
        fields.insert("librarySha256".to_owned(), digest.unwrap_or(Value::Null));
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
    let canonical = canonical_json(&identity(dialect, handler, context));
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
    let digest = Sha256::digest(bytes);
    let mut hex = String::with_capacity(64);
    for byte in digest.iter() {
        hex.push(char::from(HEX[usize::from(byte >> 4)]));
        hex.push(char::from(HEX[usize::from(byte & 0x0f)]));
    }
    hex
}

const HEX: &[u8; 16] = b"0123456789abcdef";

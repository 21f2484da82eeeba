//! What a transcript format reader ([`super::claude`], [`super::codex`]) works with: the
//! [`Format`] it implements, the [`Sink`] it fills with [`Rebuilt`] events and bad lines, and
//! the fields every event of a session carries ([`event_base`]).

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::lines::{BadKind, BadLine};

/// How many distinct entry types a session counts as skipped; more are counted under
/// [`OTHER_TYPES`], so a hostile transcript cannot grow the report without bound.
pub(crate) const MAX_SKIPPED_TYPES: usize = 64;

/// The name under which entry types past [`MAX_SKIPPED_TYPES`] are counted.
pub(crate) const OTHER_TYPES: &str = "(other types)";

/// An event rebuilt from a transcript, before it is dispatched.
pub(crate) struct Rebuilt {
    pub(super) line: u64,
    pub(super) time: Option<String>,
    pub(super) value: Map<String, Value>,
    /// The tool call it belongs to (PreToolUse, PermissionRequest, PostToolUse...).
    pub(super) call: Option<String>,
}

impl Rebuilt {
    /// The event as the agent would have sent it.
    pub(crate) fn value(&self) -> &Map<String, Value> {
        &self.value
    }

    /// The transcript line it was rebuilt from.
    pub(crate) fn line(&self) -> u64 {
        self.line
    }

    /// When it happened, as the transcript says.
    pub(crate) fn time(&self) -> Option<&str> {
        self.time.as_deref()
    }

    pub(crate) fn new(
        line: u64,
        time: Option<String>,
        value: Map<String, Value>,
        call: Option<String>,
    ) -> Self {
        Rebuilt {
            line,
            time,
            value,
            call,
        }
    }
}

/// What a format reader produces from one entry: events, lines it could not use, and entries
/// of types it does not model (a newer agent's), counted by type.
pub(crate) struct Sink {
    pub(super) file: String,
    pub(super) events: Vec<Rebuilt>,
    pub(super) bad: Vec<BadLine>,
    pub(super) skipped: BTreeMap<String, u64>,
}

impl Sink {
    /// An empty sink for the transcript `file` (as its bad lines name it).
    pub(super) fn new(file: String) -> Self {
        Sink {
            file,
            events: Vec::new(),
            bad: Vec::new(),
            skipped: BTreeMap::new(),
        }
    }

    pub(crate) fn event(&mut self, event: Rebuilt) {
        self.events.push(event);
    }

    pub(super) fn bad(&mut self, line: u64, kind: BadKind, detail: impl Into<String>) {
        self.bad.push(BadLine {
            file: self.file.clone(),
            line,
            kind,
            detail: detail.into(),
        });
    }

    pub(crate) fn invalid(&mut self, line: u64, detail: &str) {
        self.bad(line, BadKind::Invalid, detail);
    }

    /// An entry of a type the reader does not model: skipped and counted by type, not a bad
    /// line (agents add entry types often; the line is well-formed, only not replayed).
    pub(crate) fn unknown(&mut self, kind: &str) {
        let shown: String = kind.chars().take(80).collect();
        let key = if self.skipped.len() < MAX_SKIPPED_TYPES || self.skipped.contains_key(&shown) {
            shown
        } else {
            OTHER_TYPES.to_owned()
        };
        *self.skipped.entry(key).or_default() += 1;
    }
}

/// The fields every event of a session carries, as both agents send them: `session_id`,
/// `transcript_path`, `cwd`, `hook_event_name`.
pub(crate) fn event_base(
    event: &str,
    session_id: &str,
    transcript: &str,
    cwd: &str,
) -> Map<String, Value> {
    let mut object = Map::new();
    object.insert("session_id".into(), session_id.into());
    object.insert("transcript_path".into(), transcript.into());
    object.insert("cwd".into(), cwd.into());
    object.insert("hook_event_name".into(), event.into());
    object
}

/// One agent's transcript format: entries in, events out.
pub(crate) trait Format {
    /// Reads one entry (a JSON object) at `line`.
    fn entry(&mut self, line: u64, entry: &Value, sink: &mut Sink);
    /// The file ended.
    fn finish(&mut self, sink: &mut Sink);
    /// The session's id, once read.
    fn session_id(&self) -> &str;
}

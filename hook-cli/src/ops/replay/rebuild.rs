//! What a transcript format reader ([`super::claude`], [`super::codex`]) works with: the
//! [`Format`] it implements, the [`Sink`] it fills with [`Rebuilt`] events and bad lines, and
//! the fields every event of a session carries ([`event_base`]).

use serde_json::{Map, Value};

use super::lines::{BadKind, BadLine};

/// An event rebuilt from a transcript, before it is dispatched.
pub(crate) struct Rebuilt {
    pub(super) line: u64,
    pub(super) time: Option<String>,
    pub(super) value: Map<String, Value>,
    /// The tool call it belongs to (PreToolUse, PermissionRequest, PostToolUse...).
    pub(super) call: Option<String>,
}

impl Rebuilt {
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

/// What a format reader produces from one entry: events, and lines it could not use.
pub(crate) struct Sink {
    pub(super) file: String,
    pub(super) events: Vec<Rebuilt>,
    pub(super) bad: Vec<BadLine>,
}

impl Sink {
    /// An empty sink for the transcript `file` (as its bad lines name it).
    pub(super) fn new(file: String) -> Self {
        Sink {
            file,
            events: Vec::new(),
            bad: Vec::new(),
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

    pub(crate) fn unknown(&mut self, line: u64, kind: &str) {
        let shown: String = kind.chars().take(80).collect();
        self.bad(line, BadKind::UnknownType, format!("entry type `{shown}`"));
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

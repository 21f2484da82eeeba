//! JSON Schemas (draft 2020-12) of every input, output and the outcome.
//!
//! The schemas are the committed files under `hook-protocol/schemas/`
//! (`<dialect>/<Event>.{input,output}.schema.json` and `outcome.schema.json`), embedded in this
//! crate: [`schema`], [`outcome_schema`] and [`all`] read them, and validation
//! (`validate_output`, feature `validate`) compiles them. Nothing here needs `schemars`.
//!
//! The files are generated from the typed inputs, outputs and outcome by
//! `generate` (feature `schema`, which derives `schemars::JsonSchema` on those types):
//! `cargo xtask schemas` writes them and the embedded table, and `cargo xtask schemas --check`
//! (run by CI) fails when a committed file differs from what the types generate, so the
//! embedded schemas cannot drift from the types. The lime output schemas have no `null` for
//! optional fields, since lime (like the system it is modelled on) rejects `null` there, and
//! hold, in an `allOf`, every rule the engine enforces beyond the types (a block needs a
//! non-empty `reason`, ...): a schema-valid lime output is one the engine accepts.

use serde_json::Value;

use crate::{Dialect, Event};

mod files;
#[cfg(feature = "schema")]
pub mod generate;

/// Whether a schema describes what a hook receives or what it prints.
///
/// Closed on purpose (not `#[non_exhaustive]`): a hook receives and prints, nothing else.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SchemaKind {
    /// The event JSON a hook reads on stdin.
    Input,
    /// The JSON a hook writes on stdout.
    Output,
}

impl SchemaKind {
    /// `"input"` or `"output"`.
    pub fn as_str(self) -> &'static str {
        match self {
            SchemaKind::Input => "input",
            SchemaKind::Output => "output",
        }
    }
}

/// The path of the outcome's schema under `hook-protocol/schemas/`.
const OUTCOME_PATH: &str = "outcome.schema.json";

/// The path of one schema under `hook-protocol/schemas/`, e.g.
/// `lime/PreToolUse.output.schema.json`.
fn path(dialect: Dialect, event: &Event, kind: SchemaKind) -> String {
    format!("{dialect}/{event}.{}.schema.json", kind.as_str())
}

/// The committed schema at `path`, parsed, or `None` if no file has that path.
fn committed(path: &str) -> Option<Value> {
    let index = files::FILES
        .binary_search_by(|(file, _)| (*file).cmp(path))
        .ok()?;
    let (_, text) = files::FILES[index];
    Some(
        serde_json::from_str(text)
            .expect("the embedded schemas are JSON (`cargo xtask schemas` wrote them)"),
    )
}

/// The schema of `event`'s input or output in `dialect`, or `None` if the dialect does not know
/// the event.
pub fn schema(dialect: Dialect, event: &Event, kind: SchemaKind) -> Option<Value> {
    if !event.is_known_in(dialect) {
        return None;
    }
    committed(&path(dialect, event, kind))
}

/// The schema of [`Outcome`](crate::Outcome), the result of dispatching one event.
pub fn outcome_schema() -> Value {
    committed(OUTCOME_PATH).expect("the outcome schema is committed (a test checks every path)")
}

/// Every schema of the workspace with its path under `hook-protocol/schemas/`, e.g.
/// `lime/PreToolUse.output.schema.json`, in a fixed order: the outcome's, then each dialect's
/// events in [`Dialect::events`] order, input before output.
pub fn all() -> Vec<(String, Value)> {
    let mut schemas = vec![(OUTCOME_PATH.to_owned(), outcome_schema())];
    for (dialect, event, kind) in every_pair() {
        let schema = schema(dialect, event, kind)
            .expect("every event a dialect lists has a committed schema of each kind");
        schemas.push((path(dialect, event, kind), schema));
    }
    schemas
}

/// Every (dialect, known event, kind), in the order of [`all`].
fn every_pair() -> impl Iterator<Item = (Dialect, &'static Event, SchemaKind)> {
    Dialect::ALL.into_iter().flat_map(|dialect| {
        dialect.events().iter().flat_map(move |event| {
            [SchemaKind::Input, SchemaKind::Output].map(|kind| (dialect, event, kind))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_table_is_sorted_and_holds_exactly_the_known_schemas() {
        let paths: Vec<&str> = files::FILES.iter().map(|(path, _)| *path).collect();
        let mut sorted = paths.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(
            paths, sorted,
            "FILES must be sorted by path, without duplicates"
        );

        let mut expected: Vec<String> = every_pair()
            .map(|(dialect, event, kind)| path(dialect, event, kind))
            .collect();
        expected.push(OUTCOME_PATH.to_owned());
        expected.sort_unstable();
        assert_eq!(paths, expected, "run `cargo xtask schemas`");
        for (path, _) in all() {
            assert!(committed(&path).is_some(), "{path}");
        }
    }

    #[test]
    fn unknown_events_have_no_schema() {
        assert_eq!(
            schema(Dialect::Wuu, &Event::Interrupt, SchemaKind::Input),
            None
        );
        assert_eq!(
            schema(Dialect::Lime, &Event::from_name("Nope"), SchemaKind::Output),
            None
        );
    }

    /// The committed files are what the types generate (the same check as
    /// `cargo xtask schemas --check`, without the file system).
    #[cfg(feature = "schema")]
    #[test]
    fn the_embedded_schemas_are_what_the_types_generate() {
        let generated = generate::all();
        let embedded = all();
        assert_eq!(generated.len(), embedded.len());
        for ((path, generated), (embedded_path, embedded)) in generated.iter().zip(&embedded) {
            assert_eq!(path, embedded_path);
            assert_eq!(generated, embedded, "{path}: run `cargo xtask schemas`");
        }
    }
}

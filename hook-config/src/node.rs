//! A small document tree with positions, read from JSON or TOML.
//!
//! serde_json gives positions only for syntax errors, and `toml`'s spans live in its own types;
//! both are turned into [`Node`]s so the configuration reader reports every semantic problem
//! (wrong type, unknown handler type, invalid regex, negative timeout...) at the value's own
//! line and column, with its field path, the same way for both formats.
//!
//! Hostile input: nesting is bounded: JSON past [`MAX_DEPTH`] levels is a positioned
//! error (serde_json's own recursion limit does not apply, it skips ignored values without
//! counting), and `toml` stops at its own limit of 80 levels with a positioned error. A TOML
//! integer that does not fit in 64 bits is an error at the integer (the TOML spec requires
//! it; lime's trust store, edited with `toml_edit`, could not read the file otherwise).

use serde_json::Value;
use toml::de::{DeTable, DeValue};

use crate::diagnostic::{LineIndex, Pos};

/// A value of a configuration document and where it starts.
#[derive(Debug, Clone)]
pub(crate) struct Node {
    pub(crate) kind: Kind,
    pub(crate) pos: Pos,
}

/// A key of a table and where it is written.
#[derive(Debug, Clone)]
pub(crate) struct Key {
    pub(crate) name: String,
    pub(crate) pos: Pos,
}

#[derive(Debug, Clone)]
pub(crate) enum Kind {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    /// A TOML date or time, kept as written.
    Datetime(String),
    Array(Vec<Node>),
    Table(Vec<(Key, Node)>),
}

impl Node {
    /// What the value is, for "expected X, found Y" messages.
    pub(crate) fn type_name(&self) -> &'static str {
        match self.kind {
            Kind::Null => "null",
            Kind::Bool(_) => "a boolean",
            Kind::Int(_) | Kind::Float(_) => "a number",
            Kind::Str(_) => "a string",
            Kind::Datetime(_) => "a date-time",
            Kind::Array(_) => "an array",
            Kind::Table(_) => "a table",
        }
    }

    /// The value as JSON (for `input` and `headers`).
    pub(crate) fn to_json(&self) -> Value {
        match &self.kind {
            Kind::Null => Value::Null,
            Kind::Bool(b) => Value::Bool(*b),
            Kind::Int(i) => Value::from(*i),
            Kind::Float(f) => serde_json::Number::from_f64(*f).map_or(Value::Null, Value::Number),
            Kind::Str(s) | Kind::Datetime(s) => Value::String(s.clone()),
            Kind::Array(items) => Value::Array(items.iter().map(Node::to_json).collect()),
            Kind::Table(entries) => Value::Object(
                entries
                    .iter()
                    .map(|(k, v)| (k.name.clone(), v.to_json()))
                    .collect(),
            ),
        }
    }
}

/// How deep arrays and objects may nest in a JSON document (the document itself is level 1).
pub(crate) const MAX_DEPTH: usize = 128;

/// A syntax error: where and what.
pub(crate) struct SyntaxError {
    pub(crate) pos: Option<Pos>,
    pub(crate) message: String,
}

/// A key written twice in one JSON object: only the last is read, as `JSON.parse` (Claude
/// Code) and serde_json read it.
#[derive(Debug, Clone)]
pub(crate) struct Duplicate {
    pub(crate) name: String,
    /// The earlier key, whose value is ignored.
    pub(crate) ignored: Pos,
    /// The key whose value is read.
    pub(crate) kept: Pos,
}

/// Parses a JSON document. Syntax errors come from serde_json (its message and position).
/// A key written twice in an object reads as its last value, where the first was written
/// (as `JSON.parse` does); each such key is returned beside the tree.
pub(crate) fn parse_json(text: &str) -> Result<(Node, Vec<Duplicate>), SyntaxError> {
    if let Err(error) = serde_json::from_str::<serde::de::IgnoredAny>(text) {
        let full = error.to_string();
        let message = match full.rfind(" at line ") {
            Some(i) => full[..i].to_owned(),
            None => full,
        };
        let pos = (error.line() > 0).then(|| Pos {
            line: error.line(),
            column: error.column().max(1),
        });
        return Err(SyntaxError { pos, message });
    }
    let lines = LineIndex::new(text);
    let mut parser = JsonParser {
        text,
        bytes: text.as_bytes(),
        at: 0,
        lines: &lines,
        depth: 0,
        too_deep: None,
        duplicates: Vec::new(),
    };
    let value = parser.value();
    if let Some(pos) = parser.too_deep {
        return Err(SyntaxError {
            pos: Some(pos),
            message: format!(
                "nesting deeper than {MAX_DEPTH} levels of arrays and objects; flatten the document"
            ),
        });
    }
    let mut duplicates = std::mem::take(&mut parser.duplicates);
    duplicates.sort_by_key(|d| (d.ignored.line, d.ignored.column));
    value
        .map(|value| (value, duplicates))
        .ok_or_else(|| SyntaxError {
            pos: Some(lines.pos(parser.at)),
            message: "malformed JSON".to_owned(),
        })
}

/// A recursive-descent reader of JSON that serde_json already accepted (so it only has to
/// track positions). Its depth is bounded by [`MAX_DEPTH`]: serde_json's check does not apply
/// to the `IgnoredAny` pass.
struct JsonParser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
    lines: &'a LineIndex<'a>,
    /// Arrays and objects open around `at`.
    depth: usize,
    /// Where the first array or object past [`MAX_DEPTH`] opens.
    too_deep: Option<Pos>,
    /// Keys written twice in one object.
    duplicates: Vec<Duplicate>,
}

impl JsonParser<'_> {
    fn skip_ws(&mut self) {
        while self
            .bytes
            .get(self.at)
            .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
        {
            self.at += 1;
        }
    }

    /// Enters an array or object at `pos`; `None` (and `too_deep` set) past [`MAX_DEPTH`].
    fn enter(&mut self, pos: Pos) -> Option<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.too_deep = Some(pos);
            return None;
        }
        Some(())
    }

    fn value(&mut self) -> Option<Node> {
        self.skip_ws();
        let pos = self.lines.pos(self.at);
        let kind =
            match *self.bytes.get(self.at)? {
                b'{' => {
                    self.enter(pos)?;
                    self.at += 1;
                    let mut entries: Vec<(Key, Node)> = Vec::new();
                    let mut seen: std::collections::HashMap<String, usize> =
                        std::collections::HashMap::new();
                    loop {
                        self.skip_ws();
                        match *self.bytes.get(self.at)? {
                            b'}' => {
                                self.at += 1;
                                break;
                            }
                            b',' => self.at += 1,
                            _ => {
                                let key_pos = self.lines.pos(self.at);
                                let name = self.string()?;
                                self.skip_ws();
                                if self.bytes.get(self.at) != Some(&b':') {
                                    return None;
                                }
                                self.at += 1;
                                let value = self.value()?;
                                match seen.get(&name) {
                                    // The last value, where the first was written.
                                    Some(&at) => {
                                        let (key, old) = &mut entries[at];
                                        self.duplicates.push(Duplicate {
                                            name,
                                            ignored: key.pos,
                                            kept: key_pos,
                                        });
                                        key.pos = key_pos;
                                        *old = value;
                                    }
                                    None => {
                                        seen.insert(name.clone(), entries.len());
                                        entries.push((Key { name, pos: key_pos }, value));
                                    }
                                }
                            }
                        }
                    }
                    self.depth -= 1;
                    Kind::Table(entries)
                }
                b'[' => {
                    self.enter(pos)?;
                    self.at += 1;
                    let mut items = Vec::new();
                    loop {
                        self.skip_ws();
                        match *self.bytes.get(self.at)? {
                            b']' => {
                                self.at += 1;
                                break;
                            }
                            b',' => self.at += 1,
                            _ => items.push(self.value()?),
                        }
                    }
                    self.depth -= 1;
                    Kind::Array(items)
                }
                b'"' => Kind::Str(self.string()?),
                b't' => {
                    self.at += 4;
                    Kind::Bool(true)
                }
                b'f' => {
                    self.at += 5;
                    Kind::Bool(false)
                }
                b'n' => {
                    self.at += 4;
                    Kind::Null
                }
                _ => {
                    let start = self.at;
                    while self.bytes.get(self.at).is_some_and(|b| {
                        matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
                    }) {
                        self.at += 1;
                    }
                    let raw = self.text.get(start..self.at)?;
                    match raw.parse::<i64>() {
                        Ok(i) => Kind::Int(i),
                        Err(_) => Kind::Float(raw.parse::<f64>().ok()?),
                    }
                }
            };
        Some(Node { kind, pos })
    }

    fn string(&mut self) -> Option<String> {
        let start = self.at;
        if self.bytes.get(self.at) != Some(&b'"') {
            return None;
        }
        self.at += 1;
        loop {
            match *self.bytes.get(self.at)? {
                b'\\' => self.at += 2,
                b'"' => {
                    self.at += 1;
                    break;
                }
                _ => self.at += 1,
            }
        }
        serde_json::from_str(self.text.get(start..self.at)?).ok()
    }
}

/// Parses a TOML document with `toml`'s spanned tables.
pub(crate) fn parse_toml(text: &str) -> Result<Node, SyntaxError> {
    let lines = LineIndex::new(text);
    match DeTable::parse(text) {
        Ok(table) => {
            let span = table.span();
            Ok(Node {
                kind: toml_table(table.get_ref(), &lines)?,
                pos: lines.pos(span.start),
            })
        }
        Err(error) => Err(SyntaxError {
            pos: error.span().map(|span| lines.pos(span.start)),
            message: error.message().trim_end().to_owned(),
        }),
    }
}

fn toml_table(table: &DeTable<'_>, lines: &LineIndex<'_>) -> Result<Kind, SyntaxError> {
    let mut entries = Vec::with_capacity(table.len());
    for (key, value) in table {
        // Positions asked for in file order: the key, then the value (see `LineIndex::pos`).
        let key = Key {
            name: key.get_ref().to_string(),
            pos: lines.pos(key.span().start),
        };
        let pos = lines.pos(value.span().start);
        entries.push((
            key,
            Node {
                kind: toml_value(value.get_ref(), pos, lines)?,
                pos,
            },
        ));
    }
    Ok(Kind::Table(entries))
}

fn toml_value(value: &DeValue<'_>, pos: Pos, lines: &LineIndex<'_>) -> Result<Kind, SyntaxError> {
    Ok(match value {
        DeValue::String(s) => Kind::Str(s.to_string()),
        DeValue::Integer(i) => match i64::from_str_radix(i.as_str(), i.radix()) {
            Ok(n) => Kind::Int(n),
            Err(_) => {
                return Err(SyntaxError {
                    pos: Some(pos),
                    message: format!(
                        "integer `{i}` does not fit in 64 bits (TOML integers range from -2^63 to 2^63-1); write a smaller number"
                    ),
                });
            }
        },
        DeValue::Float(f) => Kind::Float(f.as_str().parse().unwrap_or(f64::NAN)),
        DeValue::Boolean(b) => Kind::Bool(*b),
        DeValue::Datetime(d) => Kind::Datetime(d.to_string()),
        DeValue::Array(items) => {
            let mut nodes = Vec::with_capacity(items.len());
            for item in items {
                let pos = lines.pos(item.span().start);
                nodes.push(Node {
                    kind: toml_value(item.get_ref(), pos, lines)?,
                    pos,
                });
            }
            Kind::Array(nodes)
        }
        DeValue::Table(table) => toml_table(table, lines)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::SCANNED;

    /// A minified (one-line) verboo settings file with `n` handlers.
    fn minified_json(n: usize) -> String {
        let groups: Vec<String> = (0..n)
            .map(|i| {
                format!(
                    r#"{{"matcher":"Tool{i}","hooks":[{{"type":"command","command":"hook-{i}","timeout":5}}]}}"#
                )
            })
            .collect();
        format!(r#"{{"hooks":{{"PreToolUse":[{}]}}}}"#, groups.join(","))
    }

    /// The same as one line of TOML (inline tables).
    fn minified_toml(n: usize) -> String {
        let groups: Vec<String> = (0..n)
            .map(|i| {
                format!(
                    r#"{{matcher="Tool{i}",hooks=[{{type="command",command="hook-{i}",timeout=5}}]}}"#
                )
            })
            .collect();
        format!("hooks={{PreToolUse=[{}]}}\n", groups.join(","))
    }

    fn scanned(parse: impl FnOnce() -> Result<Node, SyntaxError>) -> usize {
        SCANNED.with(|n| n.set(0));
        assert!(parse().is_ok());
        SCANNED.with(std::cell::Cell::get)
    }

    /// Issue 10 item 10: positions of a one-line document cost O(n) in total, not O(n) per
    /// node. Counted work, not time: the bytes looked at to compute every position.
    #[test]
    fn positions_of_a_one_line_document_are_linear() {
        for (format, text) in [
            ("JSON", minified_json(2_000)),
            ("TOML", minified_toml(2_000)),
        ] {
            let work = if format == "JSON" {
                scanned(|| parse_json(&text).map(|(node, _)| node))
            } else {
                scanned(|| parse_toml(&text))
            };
            assert!(
                work <= 2 * text.len(),
                "{format}: {work} bytes scanned for positions in a {}-byte file",
                text.len()
            );
        }
    }
}

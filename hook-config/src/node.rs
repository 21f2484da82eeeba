//! A small document tree with positions, read from JSON or TOML.
//!
//! serde_json gives positions only for syntax errors, and `toml`'s spans live in its own types;
//! both are turned into [`Node`]s so the configuration reader reports every semantic problem
//! (wrong type, unknown handler type, invalid regex, negative timeout...) at the value's own
//! line and column, with its field path, the same way for both formats.

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

/// A syntax error: where and what.
pub(crate) struct SyntaxError {
    pub(crate) pos: Option<Pos>,
    pub(crate) message: String,
}

/// Parses a JSON document. Syntax errors come from serde_json (its message and position).
pub(crate) fn parse_json(text: &str) -> Result<Node, SyntaxError> {
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
    };
    parser.value().ok_or_else(|| SyntaxError {
        pos: Some(lines.pos(parser.at)),
        message: "malformed JSON".to_owned(),
    })
}

/// A recursive-descent reader of JSON that serde_json already accepted (so it only has to
/// track positions; its depth is bounded by serde_json's recursion limit).
struct JsonParser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
    lines: &'a LineIndex<'a>,
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

    fn value(&mut self) -> Option<Node> {
        self.skip_ws();
        let pos = self.lines.pos(self.at);
        let kind =
            match *self.bytes.get(self.at)? {
                b'{' => {
                    self.at += 1;
                    let mut entries = Vec::new();
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
                                entries.push((Key { name, pos: key_pos }, value));
                            }
                        }
                    }
                    Kind::Table(entries)
                }
                b'[' => {
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
                kind: toml_table(table.get_ref(), &lines),
                pos: lines.pos(span.start),
            })
        }
        Err(error) => Err(SyntaxError {
            pos: error.span().map(|span| lines.pos(span.start)),
            message: error.message().trim_end().to_owned(),
        }),
    }
}

fn toml_table(table: &DeTable<'_>, lines: &LineIndex<'_>) -> Kind {
    Kind::Table(
        table
            .iter()
            .map(|(key, value)| {
                (
                    Key {
                        name: key.get_ref().to_string(),
                        pos: lines.pos(key.span().start),
                    },
                    Node {
                        kind: toml_value(value.get_ref(), lines),
                        pos: lines.pos(value.span().start),
                    },
                )
            })
            .collect(),
    )
}

fn toml_value(value: &DeValue<'_>, lines: &LineIndex<'_>) -> Kind {
    match value {
        DeValue::String(s) => Kind::Str(s.to_string()),
        DeValue::Integer(i) => match i64::from_str_radix(i.as_str(), i.radix()) {
            Ok(n) => Kind::Int(n),
            Err(_) => Kind::Float(i.as_str().parse().unwrap_or(f64::INFINITY)),
        },
        DeValue::Float(f) => Kind::Float(f.as_str().parse().unwrap_or(f64::NAN)),
        DeValue::Boolean(b) => Kind::Bool(*b),
        DeValue::Datetime(d) => Kind::Datetime(d.to_string()),
        DeValue::Array(items) => Kind::Array(
            items
                .iter()
                .map(|item| Node {
                    kind: toml_value(item.get_ref(), lines),
                    pos: lines.pos(item.span().start),
                })
                .collect(),
        ),
        DeValue::Table(table) => toml_table(table, lines),
    }
}

//! JSON edited as text: a settings file is parsed into byte spans, and an edit inserts or
//! deletes text at those spans, so every byte outside the edit (key order, number spellings
//! such as `12345678901234567890123` or `1.0e400`, indentation, CRLF line ends, a minified
//! layout) stays as it was.
//!
//! Inserting a member after the last one of a container and removing that member again are
//! exact inverses: the insertion is `,` + the whitespace that precedes the current last member +
//! the member; the removal deletes from the end of the member before it. A member inserted in
//! an empty container is laid out on its own line(s) (pretty files) or inline (minified files);
//! removing a container's only member leaves it empty (`{}`, `[]`).

use std::fmt::Write as _;

/// A value and where it is in the text (`start..end`, bytes).
#[derive(Debug, Clone)]
pub(crate) struct Node {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) kind: Kind,
}

/// What a value is.
#[derive(Debug, Clone)]
pub(crate) enum Kind {
    Object(Vec<Member>),
    Array(Vec<Node>),
    String,
    /// A number, `true`, `false` or `null`.
    Other,
}

/// One `"key": value` of an object.
#[derive(Debug, Clone)]
pub(crate) struct Member {
    pub(crate) key: String,
    pub(crate) key_start: usize,
    pub(crate) value: Node,
}

impl Node {
    /// The members of an object, `None` for anything else.
    pub(crate) fn members(&self) -> Option<&[Member]> {
        match &self.kind {
            Kind::Object(members) => Some(members),
            _ => None,
        }
    }

    /// The items of an array, `None` for anything else.
    pub(crate) fn items(&self) -> Option<&[Node]> {
        match &self.kind {
            Kind::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The value of `key` in an object (the last one, as JSON.parse takes duplicates).
    pub(crate) fn get(&self, key: &str) -> Option<&Node> {
        self.members()?
            .iter()
            .rev()
            .find(|m| m.key == key)
            .map(|m| &m.value)
    }

    /// The decoded string, for a string value.
    pub(crate) fn as_str(&self, text: &str) -> Option<String> {
        match self.kind {
            Kind::String => serde_json::from_str(&text[self.start..self.end]).ok(),
            _ => None,
        }
    }

    /// The value's text as written.
    pub(crate) fn raw<'t>(&self, text: &'t str) -> &'t str {
        &text[self.start..self.end]
    }
}

/// Parses `text`, which must be valid JSON (checked first with serde_json, for its error
/// positions), into spans. `Err` holds what is wrong.
pub(crate) fn parse(text: &str) -> Result<Node, String> {
    serde_json::from_str::<serde::de::IgnoredAny>(text).map_err(|e| e.to_string())?;
    let mut parser = Parser { text, at: 0 };
    parser.skip_ws();
    let node = parser.value()?;
    Ok(node)
}

struct Parser<'t> {
    text: &'t str,
    at: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn expect(&mut self, byte: u8) -> Result<(), String> {
        self.skip_ws();
        if self.peek() == Some(byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(format!("expected `{}` at byte {}", byte as char, self.at))
        }
    }

    fn value(&mut self) -> Result<Node, String> {
        self.skip_ws();
        let start = self.at;
        match self.peek() {
            Some(b'{') => {
                self.at += 1;
                let mut members = Vec::new();
                self.skip_ws();
                if self.peek() == Some(b'}') {
                    self.at += 1;
                } else {
                    loop {
                        self.skip_ws();
                        let key_start = self.at;
                        let key_node = self.string()?;
                        let key = key_node.as_str(self.text).unwrap_or_default();
                        self.expect(b':')?;
                        let value = self.value()?;
                        members.push(Member {
                            key,
                            key_start,
                            value,
                        });
                        self.skip_ws();
                        match self.peek() {
                            Some(b',') => self.at += 1,
                            Some(b'}') => {
                                self.at += 1;
                                break;
                            }
                            _ => return Err(format!("expected `,` or `}}` at byte {}", self.at)),
                        }
                    }
                }
                Ok(Node {
                    start,
                    end: self.at,
                    kind: Kind::Object(members),
                })
            }
            Some(b'[') => {
                self.at += 1;
                let mut items = Vec::new();
                self.skip_ws();
                if self.peek() == Some(b']') {
                    self.at += 1;
                } else {
                    loop {
                        items.push(self.value()?);
                        self.skip_ws();
                        match self.peek() {
                            Some(b',') => self.at += 1,
                            Some(b']') => {
                                self.at += 1;
                                break;
                            }
                            _ => return Err(format!("expected `,` or `]` at byte {}", self.at)),
                        }
                    }
                }
                Ok(Node {
                    start,
                    end: self.at,
                    kind: Kind::Array(items),
                })
            }
            Some(b'"') => self.string(),
            Some(_) => {
                while let Some(byte) = self.peek() {
                    if matches!(byte, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                        break;
                    }
                    self.at += 1;
                }
                Ok(Node {
                    start,
                    end: self.at,
                    kind: Kind::Other,
                })
            }
            None => Err("unexpected end of text".to_owned()),
        }
    }

    fn string(&mut self) -> Result<Node, String> {
        let start = self.at;
        if self.peek() != Some(b'"') {
            return Err(format!("expected a string at byte {start}"));
        }
        self.at += 1;
        loop {
            match self.peek() {
                Some(b'\\') => self.at += 2,
                Some(b'"') => {
                    self.at += 1;
                    break;
                }
                Some(_) => self.at += 1,
                None => return Err("unterminated string".to_owned()),
            }
        }
        Ok(Node {
            start,
            end: self.at,
            kind: Kind::String,
        })
    }
}

/// How the file is laid out, so that inserted text looks like the rest.
#[derive(Debug, Clone)]
pub(crate) struct Style {
    /// `\n` or `\r\n`; `None` for a minified file (everything inline).
    newline: Option<&'static str>,
    /// One level of indentation.
    unit: String,
    /// Between a key and its value (`: ` or `:`).
    colon: String,
}

impl Style {
    /// The layout of `text`, whose root is `root`.
    pub(crate) fn of(text: &str, root: &Node) -> Style {
        let newline_kind = if text.contains("\r\n") { "\r\n" } else { "\n" };
        let pretty_default = Style {
            newline: Some(newline_kind),
            unit: "  ".to_owned(),
            colon: ": ".to_owned(),
        };
        let Some(first) = root.members().and_then(<[Member]>::first) else {
            return pretty_default;
        };
        let before = &text[root.start + 1..first.key_start];
        let key_end = first.key_start + key_len(&text[first.key_start..]);
        let colon = text[key_end..first.value.start].to_owned();
        match before.rfind('\n') {
            Some(newline) => {
                let unit = before[newline + 1..].to_owned();
                Style {
                    newline: Some(newline_kind),
                    unit: if unit.is_empty() {
                        "  ".to_owned()
                    } else {
                        unit
                    },
                    colon,
                }
            }
            None => Style {
                newline: None,
                unit: String::new(),
                colon,
            },
        }
    }
}

/// The length of the JSON string at the start of `text`.
fn key_len(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut at = 1;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => at += 2,
            b'"' => return at + 1,
            _ => at += 1,
        }
    }
    bytes.len()
}

/// A value to insert, rendered in the file's [`Style`].
#[derive(Debug, Clone)]
pub(crate) enum New {
    Object(Vec<(String, New)>),
    Array(Vec<New>),
    /// JSON text written as is (a string already quoted, a number).
    Raw(String),
}

impl New {
    /// A JSON string.
    pub(crate) fn string(text: &str) -> New {
        New::Raw(serde_json::Value::from(text).to_string())
    }

    fn render(&self, style: &Style, indent: &str, out: &mut String) {
        let inner = format!("{indent}{}", style.unit);
        let (open, close, empty) = match self {
            New::Raw(raw) => {
                out.push_str(raw);
                return;
            }
            New::Object(members) => ('{', '}', members.is_empty()),
            New::Array(items) => ('[', ']', items.is_empty()),
        };
        out.push(open);
        if empty {
            out.push(close);
            return;
        }
        let mut first = true;
        let mut separator = |out: &mut String| {
            if !first {
                out.push(',');
            }
            first = false;
            if let Some(newline) = style.newline {
                out.push_str(newline);
                out.push_str(&inner);
            }
        };
        match self {
            New::Object(members) => {
                for (key, value) in members {
                    separator(out);
                    let _ = write!(
                        out,
                        "{}{}",
                        serde_json::Value::from(key.as_str()),
                        style.colon
                    );
                    value.render(style, &inner, out);
                }
            }
            New::Array(items) => {
                for item in items {
                    separator(out);
                    item.render(style, &inner, out);
                }
            }
            New::Raw(_) => {}
        }
        if let Some(newline) = style.newline {
            out.push_str(newline);
            out.push_str(indent);
        }
        out.push(close);
    }
}

/// The leading whitespace of the line `at` is on.
fn line_indent(text: &str, at: usize) -> &str {
    let line_start = text[..at].rfind('\n').map_or(0, |n| n + 1);
    let line = &text[line_start..];
    let width = line.len() - line.trim_start_matches([' ', '\t']).len();
    &line[..width]
}

/// The start of a container's member: its key for an object member, the value for an item.
fn starts(container: &Node) -> Vec<(usize, usize)> {
    match &container.kind {
        Kind::Object(members) => members.iter().map(|m| (m.key_start, m.value.end)).collect(),
        Kind::Array(items) => items.iter().map(|i| (i.start, i.end)).collect(),
        _ => Vec::new(),
    }
}

/// `text` with `member` (`"key": value` for an object, a value for an array: `key` is `None`)
/// added after the container's last member.
pub(crate) fn append(
    text: &str,
    style: &Style,
    container: &Node,
    key: Option<&str>,
    value: &New,
) -> String {
    let spans = starts(container);
    let (insert_at, lead, indent) = match spans.last() {
        Some(&(last_start, last_end)) => {
            // The whitespace after the delimiter before the last member.
            let before_last = &text[container.start + 1..last_start];
            let delimiter = before_last.rfind(',').map_or(0, |c| c + 1);
            let lead = &before_last[delimiter..];
            let indent = lead.rfind('\n').map_or("", |n| &lead[n + 1..]);
            (last_end, format!(",{lead}"), indent.to_owned())
        }
        None => {
            let indent = format!("{}{}", line_indent(text, container.start), style.unit);
            let lead = style
                .newline
                .map(|nl| format!("{nl}{indent}"))
                .unwrap_or_default();
            (container.start + 1, lead, indent)
        }
    };
    let mut member = String::new();
    if let Some(key) = key {
        let _ = write!(member, "{}{}", serde_json::Value::from(key), style.colon);
    }
    value.render(style, &indent, &mut member);
    let mut out = String::with_capacity(text.len() + member.len() + lead.len() + 8);
    if spans.is_empty() {
        // An empty container: its inner whitespace is replaced.
        out.push_str(&text[..container.start + 1]);
        out.push_str(&lead);
        out.push_str(&member);
        if let Some(newline) = style.newline {
            out.push_str(newline);
            out.push_str(line_indent(text, container.start));
        }
        out.push_str(&text[container.end - 1..]);
    } else {
        out.push_str(&text[..insert_at]);
        out.push_str(&lead);
        out.push_str(&member);
        out.push_str(&text[insert_at..]);
    }
    out
}

/// `text` without the container's member `index`.
pub(crate) fn remove(text: &str, container: &Node, index: usize) -> String {
    let spans = starts(container);
    let (from, to) = if spans.len() <= 1 {
        (container.start + 1, container.end - 1)
    } else if index + 1 == spans.len() {
        (spans[index - 1].1, spans[index].1)
    } else {
        (spans[index].0, spans[index + 1].0)
    };
    format!("{}{}", &text[..from], &text[to..])
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn append_then_remove_is_the_identity() {
        for text in [
            "{\n  \"a\": 1\n}\n",
            "{\"a\":12345678901234567890123,\"b\":1.0e400}",
            "{\r\n\t\"a\": [1, 2],\r\n\t\"b\": {}\r\n}\r\n",
            "{\n   \"a\" : {\"x\": 1}\n}",
            "{}",
        ] {
            let root = parse(text).unwrap();
            let style = Style::of(text, &root);
            let value = New::Object(vec![(
                "PreToolUse".to_owned(),
                New::Array(vec![New::Raw("1".to_owned())]),
            )]);
            let added = append(text, &style, &root, Some("hooks"), &value);
            let reparsed = parse(&added).unwrap();
            let hooks = reparsed.members().unwrap().len() - 1;
            let hooks_text = reparsed.get("hooks").unwrap().raw(&added);
            assert!(hooks_text.contains("PreToolUse"), "{added}");
            assert_eq!(remove(&added, &reparsed, hooks), text, "{added}");
        }
    }

    #[test]
    fn a_minified_file_stays_minified_and_a_crlf_file_crlf() {
        let text = "{\"a\":1}";
        let root = parse(text).unwrap();
        let style = Style::of(text, &root);
        let value = New::Array(vec![New::string("x")]);
        assert_eq!(
            append(text, &style, &root, Some("b"), &value),
            "{\"a\":1,\"b\":[\"x\"]}"
        );
        let text = "{\r\n  \"a\": 1\r\n}";
        let root = parse(text).unwrap();
        let style = Style::of(text, &root);
        let added = append(text, &style, &root, Some("b"), &value);
        assert_eq!(
            added,
            "{\r\n  \"a\": 1,\r\n  \"b\": [\r\n    \"x\"\r\n  ]\r\n}"
        );
    }
}

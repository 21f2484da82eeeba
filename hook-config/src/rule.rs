//! verboo's `if` field: a permission-rule filter such as `Bash(git *)` or `Edit(*.ts)`.

use serde_json::Value;

/// A compiled permission rule, `Tool` or `Tool(pattern)`.
///
/// Evaluated before anything is spawned: a handler whose rule does not match the call never
/// runs. Rules:
/// - the tool part is compared with the tool name exactly; `*` in it is a wildcard
///   (`mcp__github__*`);
/// - no pattern, `()` or `(*)` matches every call of the tool;
/// - `Bash` (and `PowerShell`): the pattern is matched against `tool_input.command`; a compound
///   command is split on `&&`, `||`, `;`, `|` and newlines (outside quotes) and matches when any
///   part matches; `*` matches any characters; a trailing ` *` also matches the bare command
///   (`git *` matches `git`), and the legacy `prefix:*` form matches `prefix` and
///   `prefix <anything>`;
/// - file tools (`Read`, `Write`, `Edit`, `MultiEdit`, `NotebookEdit`, `NotebookRead`, `Glob`,
///   `Grep`, `LS`): the pattern is a path glob on `file_path` (else `notebook_path`, else
///   `path`): `*` stays inside one path component and `**` crosses them; a pattern without `/`
///   matches the file name (`*.ts`), one starting with `/` the whole path (`//abs` is the
///   explicit absolute form), any other one (`src/**/*.ts`, `./x`) a trailing run of whole
///   path components;
/// - `WebFetch(domain:example.com)` matches the URL's host (with `*` wildcards);
/// - any other tool: the pattern matches when it matches any top-level string of the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PermissionRule {
    tool: String,
    pattern: Option<String>,
}

/// An `if` rule that is not `Tool` or `Tool(pattern)`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "invalid `if` rule `{rule}`: {reason}; expected `Tool` or `Tool(pattern)`, e.g. `Bash(git *)`"
)]
pub struct RuleError {
    /// The rule as written.
    pub rule: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

const FILE_TOOLS: &[&str] = &[
    "Read",
    "Write",
    "Edit",
    "MultiEdit",
    "NotebookEdit",
    "NotebookRead",
    "Glob",
    "Grep",
    "LS",
];

impl PermissionRule {
    /// Parses a rule.
    pub fn parse(rule: &str) -> Result<PermissionRule, RuleError> {
        let error = |reason| RuleError {
            rule: rule.to_owned(),
            reason,
        };
        let trimmed = rule.trim();
        let (tool, pattern) = match trimmed.find('(') {
            Some(open) => {
                let Some(inner) = trimmed[open + 1..].strip_suffix(')') else {
                    return Err(error("the `(` is not closed by a final `)`"));
                };
                let inner = inner.trim();
                let pattern = (!inner.is_empty() && inner != "*").then(|| inner.to_owned());
                (&trimmed[..open], pattern)
            }
            None if trimmed.contains(')') => return Err(error("`)` without `(`")),
            None => (trimmed, None),
        };
        let tool = tool.trim();
        if tool.is_empty() {
            return Err(error("the tool name is empty"));
        }
        if tool.chars().any(char::is_whitespace) {
            return Err(error("the tool name contains a space"));
        }
        Ok(PermissionRule {
            tool: tool.to_owned(),
            pattern,
        })
    }

    /// The tool part of the rule.
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// The pattern inside the parentheses, if any (`None` also for `()` and `(*)`).
    pub fn pattern(&self) -> Option<&str> {
        self.pattern.as_deref()
    }

    /// Whether a call of `tool_name` with `tool_input` matches the rule.
    pub fn matches(&self, tool_name: &str, tool_input: Option<&Value>) -> bool {
        if !glob(&self.tool, tool_name, None) {
            return false;
        }
        let Some(pattern) = self.pattern.as_deref() else {
            return true;
        };
        let Some(input) = tool_input else {
            return false;
        };
        let field = |name: &str| input.get(name).and_then(Value::as_str);
        if tool_name == "Bash" || tool_name == "PowerShell" {
            return field("command").is_some_and(|command| {
                split_compound(command)
                    .iter()
                    .any(|part| shell_match(pattern, part))
            });
        }
        if FILE_TOOLS.contains(&tool_name) {
            let path = field("file_path")
                .or_else(|| field("notebook_path"))
                .or_else(|| field("path"));
            return path.is_some_and(|path| path_match(pattern, path));
        }
        if tool_name == "WebFetch"
            && let Some(domain) = pattern.strip_prefix("domain:")
        {
            return field("url")
                .and_then(url_host)
                .is_some_and(|host| glob(domain.trim(), &host.to_ascii_lowercase(), None));
        }
        match input {
            Value::Object(map) => map
                .values()
                .filter_map(Value::as_str)
                .any(|s| glob(pattern, s, None)),
            _ => false,
        }
    }
}

/// Splits a shell command on `&&`, `||`, `;`, `|` and newlines outside quotes.
pub(crate) fn split_compound(command: &str) -> Vec<&str> {
    let bytes = command.as_bytes();
    let mut parts = Vec::new();
    let mut start = 0;
    let mut i = 0;
    let mut quote: Option<u8> = None;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(q) => {
                if b == b'\\' && q == b'"' {
                    i += 1;
                } else if b == q {
                    quote = None;
                }
            }
            None => match b {
                b'\\' => i += 1,
                b'\'' | b'"' => quote = Some(b),
                b';' | b'\n' | b'|' | b'&' => {
                    let two = bytes.get(i + 1) == Some(&b) && b != b';' && b != b'\n';
                    // A lone `&` (background, `2>&1`) is not a separator.
                    if b == b'&' && !two {
                        i += 1;
                        continue;
                    }
                    parts.push(&command[start..i]);
                    i += if two { 2 } else { 1 };
                    start = i;
                    continue;
                }
                _ => {}
            },
        }
        i += 1;
    }
    parts.push(command.get(start..).unwrap_or(""));
    parts
        .into_iter()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect()
}

fn shell_match(pattern: &str, part: &str) -> bool {
    if let Some(prefix) = pattern.strip_suffix(":*") {
        return part == prefix
            || part
                .strip_prefix(prefix)
                .is_some_and(|rest| rest.starts_with(' '));
    }
    if pattern.strip_suffix(" *") == Some(part) {
        return true;
    }
    glob(pattern, part, None)
}

fn path_match(pattern: &str, path: &str) -> bool {
    let path = path.replace('\\', "/");
    if !pattern.contains('/') {
        let name = path.rsplit('/').next().unwrap_or(&path);
        return glob(pattern, name, Some('/'));
    }
    if let Some(absolute) = pattern.strip_prefix("//") {
        return glob(&format!("/{absolute}"), &path, Some('/'));
    }
    if pattern.starts_with('/') {
        return glob(pattern, &path, Some('/'));
    }
    let relative = pattern
        .strip_prefix("./")
        .or_else(|| pattern.strip_prefix("~/"))
        .unwrap_or(pattern);
    if glob(relative, &path, Some('/')) {
        return true;
    }
    path.match_indices('/')
        .any(|(i, _)| glob(relative, &path[i + 1..], Some('/')))
}

fn url_host(url: &str) -> Option<&str> {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = rest.split(['/', '?', '#']).next()?;
    let host = authority.rsplit('@').next()?;
    let host = host.split(':').next()?;
    (!host.is_empty()).then_some(host)
}

/// Wildcard match of the whole `text`: `*` is any run of characters (not `sep` when given),
/// `**` any run including `sep`. Dynamic programming, so no pattern is exponential.
pub(crate) fn glob(pattern: &str, text: &str, sep: Option<char>) -> bool {
    enum Token {
        Char(char),
        Star,
        DoubleStar,
    }
    let mut tokens = Vec::new();
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '*' {
            if chars.peek() == Some(&'*') {
                chars.next();
                tokens.push(if sep.is_some() {
                    Token::DoubleStar
                } else {
                    Token::Star
                });
            } else {
                tokens.push(Token::Star);
            }
        } else {
            tokens.push(Token::Char(c));
        }
    }
    let text: Vec<char> = text.chars().collect();
    // row[j]: the tokens so far match text[..j].
    let mut row = vec![false; text.len() + 1];
    row[0] = true;
    for token in &tokens {
        let mut next = vec![false; text.len() + 1];
        match token {
            Token::Char(c) => {
                for j in 0..text.len() {
                    next[j + 1] = row[j] && text[j] == *c;
                }
            }
            Token::Star | Token::DoubleStar => {
                let crosses = matches!(token, Token::DoubleStar) || sep.is_none();
                next[0] = row[0];
                for j in 0..text.len() {
                    let extend = next[j] && (crosses || Some(text[j]) != sep);
                    next[j + 1] = row[j + 1] || extend;
                }
            }
        }
        row = next;
    }
    row[text.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glob_basics() {
        assert!(glob("git *", "git push", None));
        assert!(!glob("git *", "gitk", None));
        assert!(glob("*.ts", "a.ts", Some('/')));
        assert!(!glob("*.ts", "src/a.ts", Some('/')));
        assert!(glob("src/**/*.ts", "src/a/b/c.ts", Some('/')));
        assert!(glob("**", "", Some('/')));
    }

    #[test]
    fn split_respects_quotes() {
        assert_eq!(
            split_compound("echo 'a && b' && rm -rf x | tee y; ls || true 2>&1"),
            vec!["echo 'a && b'", "rm -rf x", "tee y", "ls", "true 2>&1"]
        );
    }

    #[test]
    fn url_hosts() {
        assert_eq!(
            url_host("https://user@Example.com:443/x"),
            Some("Example.com")
        );
        assert_eq!(url_host("example.com/x"), Some("example.com"));
    }
}

//! verboo's `if` field: a permission-rule filter such as `Bash(git *)` or `Edit(*.ts)`.

use regex::bytes::Regex;
use serde_json::Value;

use hook_protocol::shell::{CommandParts, Word, read_command};

/// A compiled permission rule, `Tool` or `Tool(pattern)`.
///
/// Evaluated before anything is spawned: a handler whose rule does not match the call never
/// runs. Rules:
/// - the tool part is compared with the tool name exactly; `*` in it is a wildcard
///   (`mcp__github__*`);
/// - no pattern, `()` or `(*)` matches every call of the tool;
/// - `Bash` (and `PowerShell`): the pattern is matched against each simple command of
///   `tool_input.command` (see below) and matches when any of them matches; `*` matches any
///   characters; a trailing ` *` also matches the bare command (`git *` matches `git`), and the
///   legacy `prefix:*` form matches `prefix` and `prefix <anything>`;
/// - file tools (`Read`, `Write`, `Edit`, `MultiEdit`, `NotebookEdit`, `NotebookRead`, `Glob`,
///   `Grep`, `LS`): the pattern is a path glob on `file_path` (else `notebook_path`, else
///   `path`): `*` stays inside one path component and `**` crosses them; a pattern without `/`
///   matches the file name (`*.ts`), one starting with `/` the whole path (`//abs` is the
///   explicit absolute form), any other one (`src/**/*.ts`, `./x`) a trailing run of whole
///   path components;
/// - `WebFetch(domain:example.com)` matches the URL's host (with `*` wildcards);
/// - any other tool: the pattern matches when it matches any top-level string of the input.
///
/// Every pattern is compiled once, at load. Commands, tool names, hosts and other strings are
/// matched in time linear in the text and the pattern (`*****a` against a megabyte of text
/// included); file-tool path patterns by a [`regex`] (no backtracking). A rule is at most
/// 4096 bytes.
///
/// # How a shell command is read
///
/// The `if` filter only decides whether a hook **runs**; it never allows anything. A guard that
/// fails to run is the dangerous mistake, a guard that runs once too often is harmless, so
/// where the shell is ambiguous the reading errs toward matching. Like Claude Code's Bash
/// permission rules, a pattern is a **prefix rule on each simple command**, so
/// `Bash(git push*)` matches `cd x && git push` but not `echo git push`. The command is cut
/// into simple commands at `;`, newlines, `&&`, `||`, `|`, `|&`, a lone `&` (but not the `&`
/// of a redirection: `2>&1`, `>&2`, `&>file`), `(` and `)`, outside quotes, so subshells
/// count as commands of their own, and so do command substitutions (`$(...)`, `` `...` ``,
/// outside quotes or inside double quotes) and process substitutions (`<(...)`). Here-document
/// bodies are text, not commands, but for one a shell reads as its script (`bash <<EOF`) and an
/// unquoted body's substitutions. Then in each one:
/// - words are separated by any run of blanks (`git  push`, `git<TAB>push` and a
///   backslash-newline continuation read as `git push`); a `#` starting a word starts a
///   comment;
/// - leading reserved words are skipped: `!`, `{`, `}`, `if`, `then`, `else`, `elif`, `fi`,
///   `do`, `done`, `while`, `until`, `esac`; the headers `for ...`, `select ...` and `case ...`
///   are not commands;
/// - leading variable assignments (`GIT_TRACE=1 git push`) and redirections anywhere
///   (`>/dev/null git push`, `git push 2>&1`; a redirection's target word goes with it) are
///   removed;
/// - the pattern is tried on the words joined by one space, both as written (quotes kept, so
///   `echo 'a  b'` keeps its spaces) and unquoted (`"git" 'push'` is `git push`);
/// - precommand wrappers that run their arguments, `exec`, `command`, `builtin`, `nohup`,
///   `env`, `time`, `nice`, `sudo`, `doas`, `xargs`, `timeout`, `stdbuf`, `ionice`, `chrt`,
///   `taskset`, `busybox` (also by path: `/usr/bin/env`), are tried both with and without the
///   wrapper, its leading `-options` (with their values: `sudo -u bob`, `nice -n 5`),
///   assignments and own operands (`timeout 5`): `Bash(git push*)` matches `nohup git push`
///   and `sudo -u bob git push`, and `Bash(sudo *)` still matches `sudo git push`;
/// - `eval ARGS`, `sh -c TEXT` (also `bash`, `dash`, `zsh`, `ksh`, `ash`, `mksh`, `fish`,
///   by path too, with `-ec`, `-o OPT` and the like before `-c`), `env -S TEXT` and the
///   commands of `find -exec ... ;` are read again as commands, up to 4 levels deep.
///
/// This reading is [`hook_protocol::shell::read_command`], the one trust and `hook doctor` use to
/// tell what a command runs.
///
/// What a prefix rule cannot see, so a guard that must hold whatever the spelling should match
/// the tool (`Bash`) and decide in the hook itself:
/// - variables and expansions: `$CMD push`, `g${x}it push`, `git $(echo push)`;
/// - aliases or functions defined elsewhere, and a here-document fed to a program that is not
///   a shell but runs it (`ssh host <<EOF`);
/// - options before a subcommand (`git -C dir push`), and programs that run a command they
///   are given other than those above (`python -c`, `ssh host git push`, `su -c`);
/// - paths to the program (`/usr/bin/git push` does not match `git push*`; write
///   `Bash(*git push*)` to catch those, at the price of also matching `echo git push`).
#[derive(Debug, Clone)]
pub struct PermissionRule {
    tool: String,
    pattern: Option<String>,
    /// The tool part.
    tool_glob: TextGlob,
    /// The pattern for commands and strings: `*` is any run of characters.
    text_glob: Option<TextGlob>,
    /// The pattern as a path rule of file tools.
    path_glob: Option<Regex>,
    /// `domain:<glob>` of `WebFetch`, on the host.
    domain_glob: Option<TextGlob>,
}

impl PartialEq for PermissionRule {
    fn eq(&self, other: &Self) -> bool {
        // The regexes are compiled from these two.
        self.tool == other.tool && self.pattern == other.pattern
    }
}

impl Eq for PermissionRule {}

/// An `if` rule that is not `Tool` or `Tool(pattern)`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "invalid `if` rule `{rule}`: {reason}; expected `Tool` or `Tool(pattern)`, e.g. `Bash(git *)`"
)]
#[non_exhaustive]
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

/// The compiled form of a path pattern may not exceed this (bytes of the regex program).
const REGEX_SIZE_LIMIT: usize = 1 << 22;

/// The longest rule accepted, in bytes: real rules are a few dozen; the bound keeps the work
/// of a path pattern (a regex, at worst proportional to pattern × path) small.
const MAX_RULE_LEN: usize = 4096;

impl PermissionRule {
    /// Parses a rule.
    ///
    /// # Errors
    ///
    /// [`RuleError`] naming what is wrong (an unclosed `(`, an empty tool name...) and the
    /// expected form.
    pub fn parse(rule: &str) -> Result<PermissionRule, RuleError> {
        let error = |reason| RuleError {
            rule: rule.to_owned(),
            reason,
        };
        if rule.len() > MAX_RULE_LEN {
            return Err(error("longer than 4096 bytes; shorten it"));
        }
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
        let compile = |source: String| {
            regex::bytes::RegexBuilder::new(&source)
                .size_limit(REGEX_SIZE_LIMIT)
                .build()
                .map_err(|_| error("the pattern is too long to compile; shorten it"))
        };
        let tool_glob = TextGlob::new(tool);
        let (text_glob, path_glob, domain_glob) = match pattern.as_deref() {
            None => (None, None, None),
            Some(pattern) => (
                Some(TextGlob::new(pattern)),
                Some(compile(path_regex(pattern))?),
                pattern
                    .strip_prefix("domain:")
                    .map(|domain| TextGlob::new(domain.trim())),
            ),
        };
        Ok(PermissionRule {
            tool: tool.to_owned(),
            pattern,
            tool_glob,
            text_glob,
            path_glob,
            domain_glob,
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
        if !self.tool_glob.is_match(tool_name) {
            return false;
        }
        let (Some(pattern), Some(text_glob)) = (self.pattern.as_deref(), &self.text_glob) else {
            return true;
        };
        let Some(input) = tool_input else {
            return false;
        };
        let field = |name: &str| input.get(name).and_then(Value::as_str);
        if tool_name == "Bash" || tool_name == "PowerShell" {
            return field("command").is_some_and(|command| {
                command_texts(command)
                    .iter()
                    .any(|text| shell_match(pattern, text_glob, text))
            });
        }
        if FILE_TOOLS.contains(&tool_name) {
            let path = field("file_path")
                .or_else(|| field("notebook_path"))
                .or_else(|| field("path"));
            return path.is_some_and(|path| {
                self.path_glob
                    .as_ref()
                    .is_some_and(|glob| glob.is_match(path.replace('\\', "/").as_bytes()))
            });
        }
        if tool_name == "WebFetch"
            && let Some(domain) = &self.domain_glob
        {
            return field("url")
                .and_then(url_host)
                .is_some_and(|host| domain.is_match(&host));
        }
        match input {
            Value::Object(map) => map
                .values()
                .filter_map(Value::as_str)
                .any(|s| text_glob.is_match(s)),
            _ => false,
        }
    }
}

fn shell_match(pattern: &str, glob: &TextGlob, text: &str) -> bool {
    if let Some(prefix) = pattern.strip_suffix(":*") {
        return text == prefix
            || text
                .strip_prefix(prefix)
                .is_some_and(|rest| rest.starts_with(' '));
    }
    if pattern.strip_suffix(" *") == Some(text) {
        return true;
    }
    glob.is_match(text)
}

/// A wildcard pattern where `*` is any run of characters: the literal pieces between the stars.
/// Matching is linear in the text and the pattern (each piece is searched once, left to
/// right, from where the previous one ended: the leftmost match of each piece is never worse).
#[derive(Debug, Clone)]
struct TextGlob {
    pieces: Vec<String>,
}

impl TextGlob {
    fn new(pattern: &str) -> TextGlob {
        TextGlob {
            pieces: pattern.split('*').map(str::to_owned).collect(),
        }
    }

    fn is_match(&self, text: &str) -> bool {
        let (first, last) = match self.pieces.as_slice() {
            [only] => return text == only,
            [first, .., last] => (first.as_str(), last.as_str()),
            [] => return text.is_empty(),
        };
        if text.len() < first.len() + last.len()
            || !text.starts_with(first)
            || !text.ends_with(last)
        {
            return false;
        }
        // Both ends are char boundaries: they end and start matches of whole strings.
        let Some(mut rest) = text.get(first.len()..text.len() - last.len()) else {
            return false;
        };
        for piece in &self.pieces[1..self.pieces.len() - 1] {
            match rest.find(piece.as_str()) {
                Some(at) => rest = &rest[at + piece.len()..],
                None => return false,
            }
        }
        true
    }
}

/// An anchored regex for a wildcard pattern: `*` is any run of characters; with `path`, a single
/// `*` stays inside one path component and a run of two or more crosses `/`.
fn glob_body(pattern: &str, path: bool) -> String {
    let mut out = String::with_capacity(pattern.len() + 8);
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '*' {
            let mut buf = [0; 4];
            out.push_str(&regex::escape(c.encode_utf8(&mut buf)));
            continue;
        }
        let mut run = 1;
        while chars.peek() == Some(&'*') {
            chars.next();
            run += 1;
        }
        out.push_str(if path && run == 1 { "[^/]*" } else { ".*" });
    }
    out
}

fn glob_regex(pattern: &str, path: bool) -> String {
    format!(r"(?s-u)\A(?:{})\z", glob_body(pattern, path))
}

/// The path rule of file tools as one regex on the whole path (`\` already turned into `/`).
fn path_regex(pattern: &str) -> String {
    if !pattern.contains('/') {
        // The file name: no wildcard may cross `/`, so `**` means `*` here.
        let body = glob_body(&pattern.replace("**", "*"), true);
        return format!(r"(?s-u)(?:\A|/)(?:{body})\z");
    }
    if let Some(absolute) = pattern.strip_prefix("//") {
        return glob_regex(&format!("/{absolute}"), true);
    }
    if pattern.starts_with('/') {
        return glob_regex(pattern, true);
    }
    let relative = pattern
        .strip_prefix("./")
        .or_else(|| pattern.strip_prefix("~/"))
        .unwrap_or(pattern);
    format!(r"(?s-u)(?:\A|/)(?:{})\z", glob_body(relative, true))
}

/// The host of `text` as a WHATWG URL parser (the fetching tool's) reads it, lowercased; a URL
/// without a scheme is read as `https://`. Reading it any other way would let
/// `http://evil.example\@good.example/` match a rule for `good.example` while the fetch goes to
/// `evil.example`.
fn url_host(text: &str) -> Option<String> {
    let parsed = url::Url::parse(text)
        .ok()
        .filter(|url| url.has_host())
        .or_else(|| url::Url::parse(&format!("https://{text}")).ok())?;
    let host = parsed.host_str()?;
    (!host.is_empty()).then(|| host.to_ascii_lowercase())
}

/// Every text a shell pattern is tried on for `command` (see [`PermissionRule`]), from the
/// one command reader ([`hook_protocol::shell::read_command`]) trust and `hook doctor` use too.
pub(crate) fn command_texts(command: &str) -> Vec<String> {
    let mut out = Vec::new();
    for parts in read_command(command) {
        push_texts(&parts, &mut out);
    }
    out
}

/// The texts of one simple command: with every wrapper, then without each in turn, then the
/// commands of its `-c` string or `eval`.
fn push_texts(parts: &CommandParts, out: &mut Vec<String>) {
    for level in 0..=parts.wrappers.len() {
        push_joined(&parts.words_from(level), out);
    }
    for inner in &parts.inline {
        push_texts(inner, out);
    }
}

/// The words joined by one space, as written and unquoted (once when they are the same).
fn push_joined(words: &[&Word], out: &mut Vec<String>) {
    let raw = join(words.iter().map(|w| w.raw.as_str()));
    let plain = join(words.iter().map(|w| w.plain.as_str()));
    if plain != raw {
        out.push(plain);
    }
    out.push(raw);
}

fn join<'a>(words: impl Iterator<Item = &'a str>) -> String {
    let mut out = String::new();
    for (i, word) in words.enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glob(pattern: &str, text: &str, path: bool) -> bool {
        if !path {
            return TextGlob::new(pattern).is_match(text);
        }
        Regex::new(&glob_regex(pattern, path))
            .expect("valid")
            .is_match(text.as_bytes())
    }

    #[test]
    fn glob_basics() {
        assert!(glob("git *", "git push", false));
        assert!(!glob("git *", "gitk", false));
        assert!(glob("*.ts", "a.ts", true));
        assert!(!glob("*.ts", "src/a.ts", true));
        assert!(glob("src/**/*.ts", "src/a/b/c.ts", true));
        assert!(glob("**", "", true));
        assert!(glob("a.b", "a.b", false));
        assert!(!glob("a.b", "axb", false));
        assert!(glob("é*ü", "éxyü", false));
        assert!(glob("*", "日本", true));
        assert!(!glob("?", "x", false));
        assert!(glob("a*a", "aa", false));
        assert!(!glob("a*a", "a", false));
        assert!(glob("*ab*ab*", "xabyab", false));
        assert!(!glob("*ab*ab*", "xab", false));
        assert!(glob("", "", false));
        assert!(glob("**", "x", false));
    }

    #[test]
    fn split_respects_quotes() {
        assert_eq!(
            command_texts("echo 'a && b' && rm -rf x | tee y; ls || true 2>&1"),
            vec![
                "echo a && b",
                "echo 'a && b'",
                "rm -rf x",
                "tee y",
                "ls",
                "true"
            ]
        );
    }

    #[test]
    fn url_hosts() {
        let host = |url| url_host(url);
        assert_eq!(
            host("https://user@Example.com:443/x").as_deref(),
            Some("example.com")
        );
        assert_eq!(host("example.com/x").as_deref(), Some("example.com"));
        // A backslash ends the authority for http(s), as in the fetching tool: the host is
        // the one before it, not the text after `@`.
        assert_eq!(
            host("http://evil.example\\@good.example/").as_deref(),
            Some("evil.example")
        );
        assert_eq!(host("https://[::1]:8080/").as_deref(), Some("[::1]"));
        assert_eq!(host("not a url at all"), None);
    }
}

//! Text that looks like a credential: cloud keys, registry and chat tokens, AI providers' API
//! keys and private key blocks, each by the shape its issuer gives it ([`PATTERNS`]), with
//! the placeholders documentation and examples use told apart ([`is_placeholder`]).
//!
//! The regular expressions are the `regex` crate's: linear in the text, whatever it holds.

use std::sync::LazyLock;

use regex::{Regex, RegexBuilder};

/// One kind of credential: its name in a reason, its shape, and where the value belongs.
struct Pattern {
    /// What it is (`a GitHub token`).
    what: &'static str,
    /// How it starts, as the reason shows it (`ghp_…`): never the credential itself.
    shown: &'static str,
    /// Its shape; the credential is the first group when there is one, else the match.
    regex: &'static str,
    /// Where the value belongs instead (`$GITHUB_TOKEN`).
    instead: &'static str,
    /// Its issuer's values mix upper and lower case: one that does not is a word
    /// (`sk-some-long-kebab-case-name`), not a credential.
    mixed: bool,
}

/// The credentials the guard recognises, most specific first (an Anthropic key before the
/// wider OpenAI shape).
const PATTERNS: &[Pattern] = &[
    Pattern {
        what: "a private key",
        shown: "-----BEGIN … PRIVATE KEY-----",
        // The header, then blanks, quotes, `\n` escapes and `Name: value` lines (an encrypted
        // key's), then the start of the body.
        regex: r#"(-----BEGIN [A-Z0-9 ]{0,30}PRIVATE KEY(?: BLOCK)?-----(?:[\s"'+,]|\\[nr]|[A-Za-z-]{1,20}:[ -\[\]-~]{0,80})*[A-Za-z0-9+/]{40,})"#,
        instead: "a key file the user puts in place (or `ssh-agent`)",
        mixed: false,
    },
    Pattern {
        what: "an AWS access key id",
        shown: "AKIA…",
        regex: r"\b((?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16})\b",
        instead: "`$AWS_ACCESS_KEY_ID`",
        mixed: false,
    },
    Pattern {
        what: "an AWS secret access key",
        shown: "aws_secret_access_key=…",
        regex: r#"(?i:aws_?secret_?access_?key|aws_?secret_?key|secret_?access_?key)["']?\s*[:=]\s*["']?([A-Za-z0-9/+]{40})(?:[\s"',;)}\]]|$)"#,
        instead: "`$AWS_SECRET_ACCESS_KEY`",
        mixed: true,
    },
    Pattern {
        what: "a GitHub token",
        shown: "ghp_…",
        regex: r"\b(gh[pousr]_[A-Za-z0-9]{36,})\b",
        instead: "`$GITHUB_TOKEN`",
        mixed: true,
    },
    Pattern {
        what: "a GitHub token",
        shown: "github_pat_…",
        regex: r"\b(github_pat_[A-Za-z0-9_]{60,})\b",
        instead: "`$GITHUB_TOKEN`",
        mixed: true,
    },
    Pattern {
        what: "a GitLab token",
        shown: "glpat-…",
        regex: r"\b(glpat-[A-Za-z0-9_-]{20,})",
        instead: "`$GITLAB_TOKEN`",
        mixed: true,
    },
    Pattern {
        what: "an npm token",
        shown: "npm_…",
        regex: r"\b(npm_[A-Za-z0-9]{36})\b",
        instead: "`$NPM_TOKEN` (`//registry.npmjs.org/:_authToken=${NPM_TOKEN}` in `.npmrc`)",
        mixed: true,
    },
    Pattern {
        what: "a PyPI token",
        shown: "pypi-…",
        regex: r"\b(pypi-AgE[A-Za-z0-9_-]{50,})",
        instead: "`$TWINE_PASSWORD`",
        mixed: true,
    },
    Pattern {
        what: "a Slack token",
        shown: "xoxb-…",
        regex: r"\b(xox[abposr]-[0-9]{6,}-[A-Za-z0-9-]{8,})",
        instead: "`$SLACK_TOKEN`",
        mixed: true,
    },
    Pattern {
        what: "a Slack webhook",
        shown: "https://hooks.slack.com/services/…",
        regex: r"(hooks\.slack\.com/services/T[A-Z0-9]{6,}/B[A-Z0-9]{6,}/[A-Za-z0-9]{16,})",
        instead: "`$SLACK_WEBHOOK_URL`",
        mixed: true,
    },
    Pattern {
        what: "a Google API key",
        shown: "AIza…",
        regex: r"\b(AIza[0-9A-Za-z_-]{35})",
        instead: "`$GOOGLE_API_KEY`",
        mixed: true,
    },
    Pattern {
        what: "a Stripe live key",
        shown: "sk_live_…",
        regex: r"\b([sr]k_live_[0-9A-Za-z]{20,})",
        instead: "`$STRIPE_SECRET_KEY`",
        mixed: true,
    },
    Pattern {
        what: "an Anthropic API key",
        shown: "sk-ant-…",
        regex: r"\b(sk-ant-[a-z0-9]{2,12}-[A-Za-z0-9_-]{40,})",
        instead: "`$ANTHROPIC_API_KEY`",
        mixed: true,
    },
    Pattern {
        what: "an OpenAI API key",
        shown: "sk-…",
        regex: r"\b(sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{40,})",
        instead: "`$OPENAI_API_KEY`",
        mixed: true,
    },
    Pattern {
        what: "a Hugging Face token",
        shown: "hf_…",
        regex: r"\b(hf_[A-Za-z0-9]{34,})\b",
        instead: "`$HF_TOKEN`",
        mixed: true,
    },
];

/// The compiled [`PATTERNS`], in order. (One `RegexSet` would read a text once, but takes
/// a hundred times longer to build, and a hook process builds it on every call.)
static COMPILED: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    PATTERNS
        .iter()
        .map(|pattern| {
            // ASCII classes and boundaries: credentials are ASCII, and the automata stay small.
            RegexBuilder::new(pattern.regex)
                .unicode(false)
                .build()
                .expect("the patterns are tested to compile")
        })
        .collect()
});

/// A credential found in a text: what it is, never its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Credential {
    /// What it is (`a GitHub token`).
    pub(super) what: &'static str,
    /// How it starts (`ghp_…`).
    pub(super) shown: &'static str,
    /// Where the value belongs instead (`$GITHUB_TOKEN`).
    pub(super) instead: &'static str,
}

/// The first credential in `text` that is not a placeholder.
pub(super) fn find(text: &str) -> Option<Credential> {
    PATTERNS
        .iter()
        .zip(COMPILED.iter())
        .find_map(|(pattern, regex)| {
            regex
                .captures_iter(text)
                .filter_map(|captures| captures.get(1).or_else(|| captures.get(0)))
                .any(|value| !is_placeholder(value.as_str(), pattern.mixed))
                .then_some(Credential {
                    what: pattern.what,
                    shown: pattern.shown,
                    instead: pattern.instead,
                })
        })
}

/// Words that mark a documentation or test value.
const PLACEHOLDER_WORDS: &[&str] = &[
    "example",
    "placeholder",
    "your",
    "dummy",
    "fake",
    "sample",
    "redacted",
    "changeme",
    "xxxx",
    "0000",
    "1234567",
    "abcdef",
];

/// Whether `value` is a placeholder rather than a credential: it holds a placeholder word
/// (`AKIAIOSFODNN7EXAMPLE`, AWS's documented example key, `ghp_your…`, `xxxx`), no letter,
/// or too few distinct characters to be random (`sk-aaaa…`); or, when its issuer's values
/// mix cases (`mixed`), not both an upper and a lower case letter.
fn is_placeholder(value: &str, mixed: bool) -> bool {
    // A private key's header is letters: its body decides, and is long enough to hold any
    // word by chance, so only its variety counts.
    let key = value.starts_with("-----BEGIN");
    let body = value.rsplit("-----").next().unwrap_or(value);
    let lower = body.to_ascii_lowercase();
    if !key && PLACEHOLDER_WORDS.iter().any(|word| lower.contains(word)) {
        return true;
    }
    let mut distinct: Vec<char> = body.chars().filter(char::is_ascii_alphanumeric).collect();
    distinct.sort_unstable();
    distinct.dedup();
    distinct.len() < 10
        || !body.chars().any(|c| c.is_ascii_alphabetic())
        || (mixed
            && !(body.chars().any(|c| c.is_ascii_uppercase())
                && body.chars().any(|c| c.is_ascii_lowercase())))
}

#[cfg(test)]
mod tests {
    use super::{COMPILED, PATTERNS, find};

    #[test]
    fn every_pattern_compiles() {
        assert_eq!(COMPILED.len(), PATTERNS.len());
    }

    #[test]
    fn credentials_are_found_and_placeholders_are_not() {
        let key_body = "MIIEowIBAAKCAQEA1b2c3d4e5f6g7h8i9j0kLmNoPqRsTuVwXyZ9q8w7e6r5t4y3u2i1o";
        let cases: &[(&str, Option<&str>)] = &[
            (
                concat!("aws_access_key_id = AKIA", "2OGYBAH6QU7HJ5XK"),
                Some("an AWS access key id"),
            ),
            ("AKIAIOSFODNN7EXAMPLE", None),
            (
                concat!(
                    "aws_secret_access_key=9drT",
                    "JvcXLB89EXPkyZyQo3bX5J0pB7ZGvKQ0rc1Q\n"
                ),
                Some("an AWS secret access key"),
            ),
            (
                "AWS_SECRET_ACCESS_KEY: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                None,
            ),
            (
                concat!("token: ghp_1", "6C7e42F292c6912E7710c838347Ae178B4a"),
                Some("a GitHub token"),
            ),
            ("token: ghp_xxx", None),
            ("token: ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", None),
            ("token: ${GITHUB_TOKEN}", None),
            (
                concat!("npm_", "4f8Kx2LmQ9rT7vZ3bN6yH1cJ5wE0aS8dP2gU"),
                Some("an npm token"),
            ),
            ("OPENAI_API_KEY=sk-...", None),
            (
                "class=\"sk-some-very-long-kebab-case-identifier-name\"",
                None,
            ),
            (
                concat!(
                    "OPENAI_API_KEY=sk-proj-",
                    "4f8Kx2LmQ9rT7vZ3bN6yH1cJ5wE0aS8dP2gUq7Wz"
                ),
                Some("an OpenAI API key"),
            ),
            (
                concat!(
                    "sk-ant-api03-",
                    "4f8Kx2LmQ9rT7vZ3bN6yH1cJ5wE0aS8dP2gUq7Wz-aB3cD4eF"
                ),
                Some("an Anthropic API key"),
            ),
            (
                concat!("sk_live_", "51H8x2LmQ9rT7vZ3bN6yH1cJ"),
                Some("a Stripe live key"),
            ),
            (concat!("sk_test_", "51H8x2LmQ9rT7vZ3bN6yH1cJ"), None),
            (
                concat!("AIzaS", "yD4f8Kx2LmQ9rT7vZ3bN6yH1cJ5wE0aS8d"),
                Some("a Google API key"),
            ),
            (
                concat!("xoxb-2", "93847561029-8473625190384-4f8Kx2LmQ9rT7vZ3bN6y"),
                Some("a Slack token"),
            ),
            ("xoxb-your-token", None),
            (
                "const HEADER: &str = \"-----BEGIN RSA PRIVATE KEY-----\";",
                None,
            ),
            (
                "-----BEGIN OPENSSH PRIVATE KEY-----\n...\n-----END OPENSSH PRIVATE KEY-----",
                None,
            ),
            ("grep -rn 'AKIA[0-9A-Z]{16}' .", None),
        ];
        for (text, expected) in cases {
            assert_eq!(find(text).map(|c| c.what), *expected, "{text}");
        }
        let key =
            format!("-----BEGIN RSA PRIVATE KEY-----\n{key_body}\n-----END RSA PRIVATE KEY-----");
        assert_eq!(find(&key).map(|c| c.what), Some("a private key"));
        let encrypted = format!(
            "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,3F17F5316E2BAC89\n\n{key_body}\n"
        );
        assert_eq!(find(&encrypted).map(|c| c.what), Some("a private key"));
        let joined = format!("\"-----BEGIN PRIVATE KEY-----\" +\n  \"{key_body}\"");
        assert_eq!(find(&joined).map(|c| c.what), Some("a private key"));
        let escaped = format!("\"-----BEGIN PRIVATE KEY-----\\n{key_body}\\n\"");
        assert_eq!(find(&escaped).map(|c| c.what), Some("a private key"));
    }
}

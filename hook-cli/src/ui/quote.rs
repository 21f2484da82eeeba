//! The one shell-quoting helper: every command `hook` suggests or writes is quoted here.

/// `text` quoted for a POSIX shell when it holds anything but safe characters (a NUL, which no
/// shell word can hold, is kept as is: the command is shown, never run).
pub(crate) fn shell_quote(text: &str) -> String {
    shlex::bytes::Quoter::new()
        .allow_nul(true)
        .quote(text.as_bytes())
        .map(|quoted| String::from_utf8_lossy(&quoted).into_owned())
        .unwrap_or_else(|_| text.to_owned())
}

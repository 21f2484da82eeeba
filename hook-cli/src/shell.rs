//! The one shell-quoting helper: every command `hook` runs through `/bin/sh -c`, writes into an
//! agent's settings or suggests to a user is quoted here (used by `ops` to build commands and
//! by `ui` to show them).

/// `text` quoted for a POSIX shell when it holds anything but safe characters (a NUL, which no
/// shell word can hold, is kept as is: the command is shown, never run).
pub(crate) fn quote(text: &str) -> String {
    shlex::bytes::Quoter::new()
        .allow_nul(true)
        .quote(text.as_bytes())
        .map(|quoted| String::from_utf8_lossy(&quoted).into_owned())
        .unwrap_or_else(|_| text.to_owned())
}

/// A command line as one `/bin/sh -c` string, each argument quoted when it needs to be.
pub(crate) fn join(words: &[String]) -> String {
    words
        .iter()
        .map(|word| quote(word))
        .collect::<Vec<_>>()
        .join(" ")
}

/// ` --FLAG PATH`, the path quoted for a shell: a flag of a suggested command.
pub(crate) fn path_flag(flag: &str, path: &std::path::Path) -> String {
    format!(" --{flag} {}", quote(&path.display().to_string()))
}

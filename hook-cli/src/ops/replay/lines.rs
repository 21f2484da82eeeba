//! Reading transcripts: the files to read, and their lines, streamed with a cap on each line.
//!
//! A line longer than the cap is skipped (read and dropped in chunks, never held whole) and
//! counted as bad, so a 1 GB history with a 3 GB tool result in it is read in bounded memory.
//! A last line without its newline that does not parse is *truncated* (an agent killed while
//! writing), any other line that does not parse is *corrupt*: the reader says which, and the
//! format reader goes on with the next line.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use serde::Serialize;

/// The default cap on one transcript line (`--max-line-bytes`): large enough for a tool result
/// of a few MiB (Claude Code keeps big results in separate files, Codex truncates them), small
/// enough to bound memory per concurrent session.
pub(crate) const DEFAULT_MAX_LINE: usize = 16 * 1024 * 1024;

/// One line of a transcript, or why it cannot be read (the workspace's capped line reader).
pub(crate) use hook_fs::{Line, Lines};

/// The lines of the transcript `path`: a regular file (a FIFO, a device or a link to one such
/// as `/dev/zero` is refused at once, without blocking or reading it), each line capped at
/// `max` bytes.
///
/// # Errors
///
/// When it cannot be opened or is not a regular file.
pub(crate) fn open(path: &Path, max: usize) -> std::io::Result<Lines<BufReader<File>>> {
    let (file, _) =
        hook_fs::open_regular(path, hook_fs::Links::Follow).map_err(std::io::Error::other)?;
    Ok(Lines::new(BufReader::with_capacity(256 * 1024, file), max))
}

/// Why a line was not replayed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum BadKind {
    /// Not JSON (or not an object), and not the last line.
    Corrupt,
    /// The last line, cut short (no newline and not JSON).
    Truncated,
    /// Longer than `--max-line-bytes`: skipped unread.
    TooLong,
    /// A known entry whose event could not be built (a field missing or of the wrong type).
    Invalid,
    /// The file could not be read from this line on.
    Unreadable,
}

/// One line that was not replayed, with where and why.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct BadLine {
    /// The transcript file.
    pub(crate) file: String,
    /// The line number, from 1.
    pub(crate) line: u64,
    /// Why it was not replayed.
    pub(crate) kind: BadKind,
    /// Details: the parse error, the entry type, the length.
    pub(crate) detail: String,
}

/// The transcript files under `paths` (files as given, folders searched for `*.jsonl`), sorted
/// by path so that a replay is reproducible. A path given that does not exist is an error (a
/// typo must not read as a replay of nothing).
pub(crate) fn transcript_files(paths: &[PathBuf]) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if !path.try_exists()? {
            return Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!(
                    "{} does not exist: give a transcript (.jsonl) or a folder of them",
                    path.display()
                ),
            ));
        }
        if path.is_dir() {
            walk(path, &mut files, 0)?;
        } else {
            files.push(path.clone());
        }
    }
    files.sort();
    files.dedup();
    Ok(files)
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>, depth: usize) -> std::io::Result<()> {
    // Codex's `sessions/YYYY/MM/DD/` is three levels deep; a bound keeps a link loop finite.
    if depth > 8 {
        return Ok(());
    }
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let kind = entry.file_type()?;
        if kind.is_dir() {
            walk(&path, files, depth + 1)?;
        } else if path.extension().is_some_and(|e| e == "jsonl") {
            files.push(path);
        }
    }
    Ok(())
}

/// Parses one line as JSON. Both agents are JavaScript or write strings that may hold a lone
/// UTF-16 surrogate (`"\ud83d"`, half an emoji cut by a truncation), which serde_json refuses:
/// such a line is read again with each lone surrogate escape replaced by `\ufffd`, so the entry
/// is replayed (its hooks see U+FFFD there) instead of lost.
///
/// # Errors
///
/// serde_json's error for the line as written, when it is not JSON even so.
pub(crate) fn parse_json(bytes: &[u8]) -> Result<serde_json::Value, serde_json::Error> {
    match serde_json::from_slice(bytes) {
        Ok(value) => Ok(value),
        Err(error) => match replace_lone_surrogates(bytes) {
            Some(repaired) => serde_json::from_slice(&repaired).map_err(|_| error),
            None => Err(error),
        },
    }
}

/// `bytes` with every `\uXXXX` escape of a surrogate that is not half of a pair replaced by
/// `\ufffd`; `None` when there is none.
fn replace_lone_surrogates(bytes: &[u8]) -> Option<Vec<u8>> {
    let hex = |at: usize| -> Option<u16> {
        let digits = bytes.get(at..at + 4)?;
        u16::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok()
    };
    let escape_at = |at: usize| -> Option<u16> {
        (bytes.get(at) == Some(&b'\\') && bytes.get(at + 1) == Some(&b'u'))
            .then(|| hex(at + 2))
            .flatten()
    };
    let mut out = Vec::with_capacity(bytes.len());
    let mut changed = false;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        let Some(unit) = escape_at(i) else {
            // Another escape (`\\`, `\"`...): copied with the character it escapes.
            out.extend_from_slice(&bytes[i..(i + 2).min(bytes.len())]);
            i += 2;
            continue;
        };
        let high = (0xD800..0xDC00).contains(&unit);
        let low = (0xDC00..0xE000).contains(&unit);
        if high && escape_at(i + 6).is_some_and(|next| (0xDC00..0xE000).contains(&next)) {
            out.extend_from_slice(&bytes[i..i + 12]);
            i += 12;
        } else if high || low {
            out.extend_from_slice(b"\\ufffd");
            changed = true;
            i += 6;
        } else {
            out.extend_from_slice(&bytes[i..i + 6]);
            i += 6;
        }
    }
    changed.then_some(out)
}

/// Reads one whole small prefix of `path` (Codex's first line, for its session's `cwd`).
pub(crate) fn first_line(path: &Path, max: usize) -> Option<Vec<u8>> {
    let (file, _) = hook_fs::open_regular(path, hook_fs::Links::Follow).ok()?;
    let mut line = Vec::new();
    BufReader::new(file.take(max as u64))
        .read_until(b'\n', &mut line)
        .ok()?;
    Some(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(text: &[u8], max: usize) -> Vec<String> {
        let mut lines = Lines::new(std::io::Cursor::new(text.to_vec()), max);
        let mut out = Vec::new();
        while let Ok(Some((n, line))) = lines.next_line() {
            out.push(match line {
                Line::Text { bytes, last } => {
                    format!(
                        "{n}:{}{}",
                        String::from_utf8_lossy(bytes),
                        if last { "$" } else { "" }
                    )
                }
                Line::TooLong { bytes } => format!("{n}:too long {bytes}"),
            });
        }
        out
    }

    #[test]
    fn lone_surrogates_are_replaced_and_pairs_kept() {
        let value =
            parse_json(br#"{"a": "x\ud83d", "b": "\ud83d\ude00", "c": "\\ud800", "d": "\udc00y"}"#)
                .unwrap();
        assert_eq!(value["a"], "x\u{fffd}");
        assert_eq!(value["b"], "\u{1f600}");
        assert_eq!(value["c"], "\\ud800");
        assert_eq!(value["d"], "\u{fffd}y");
        assert!(parse_json(b"{\"a\": \"\\ud83d").is_err());
    }

    #[test]
    fn lines_are_capped_and_the_last_one_is_marked() {
        assert_eq!(collect(b"a\nbbbbbb\nc", 4), ["1:a", "2:too long 6", "3:c$"]);
        assert_eq!(collect(b"a\n", 4), ["1:a"]);
        assert_eq!(collect(b"", 4), Vec::<String>::new());
        assert_eq!(collect(b"xxxxxxxxx", 4), ["1:too long 9"]);
    }
}

//! The journal's tests: bounds, rotation, reading back and following, on real files.

use std::io::Write as _;
use std::path::Path;

use hook_fs::LockPolicy;
use hook_protocol::{Dialect, Event, HandlerType, Layer, Outcome, Run};

use super::record::summary;
use super::write::LOCK_FILE;
use super::*;
use crate::context::private_folder;

#[test]
fn times_round_trip() {
    let at = std::time::UNIX_EPOCH + std::time::Duration::from_millis(1_796_325_377_123);
    let text = format_time(at);
    assert_eq!(text, "2026-12-03T19:16:17.123Z");
    assert_eq!(parse_time(&text), Some(1_796_325_377_123));
    assert_eq!(parse_time("2024-02-29T00:00:00Z"), Some(1_709_164_800_000));
    assert_eq!(parse_time("yesterday"), None);
}

fn record(stderr: &str) -> Record {
    let input = hook_protocol::input::input_from_value(
        Dialect::Verboo,
        serde_json::json!({
            "hook_event_name": "PreToolUse", "session_id": "s", "cwd": "/",
            "transcript_path": "/t", "tool_name": "Bash", "tool_use_id": "c",
            "tool_input": {"command": "ls"},
        }),
    )
    .expect("a valid input");
    let mut outcome = Outcome::new(Dialect::Verboo, Event::PreToolUse);
    let mut run = Run::new(
        "user:settings.json:PreToolUse:Bash:0",
        hook_protocol::Source::new(Layer::User),
        HandlerType::Command,
    );
    run.exit_code = Some(0);
    run.set_stderr(stderr.as_bytes());
    outcome.runs.push(run);
    Record::new("run", &input, &outcome)
}

#[test]
fn lines_are_bounded_and_whole() {
    let line = record("").to_line().expect("serializes");
    assert!(line.ends_with('\n') && line.matches('\n').count() == 1);
    let parsed: Record = serde_json::from_str(&line).expect("reads back");
    assert_eq!(parsed.summary.as_deref(), Some("ls"));
    assert!(parsed.runs[0].quiet);
    let mut big = record("x");
    for _ in 0..200 {
        big.runs.push(big.runs[0].clone());
    }
    for run in &mut big.runs {
        run.stderr = Some("e".repeat(1024));
    }
    let line = big.to_line().expect("serializes");
    assert!(line.len() <= MAX_LINE_BYTES, "{}", line.len());
    assert!(line.contains("\"truncated\":true"));
}

#[test]
fn rotation_keeps_the_size_bound() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let journal = Journal::new(dir.path().join(JOURNAL_DIR)).with_limits(4096, 3);
    let record = record("some stderr");
    let line = record.to_line().expect("serializes").len() as u64;
    for _ in 0..500 {
        journal.append(&record).expect("appends");
    }
    let files = journal.existing_files();
    assert_eq!(files.len(), 3, "{files:?}");
    let mut lines = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable");
        assert!(
            text.len() as u64 <= 4096 + line,
            "{} is {}",
            file.display(),
            text.len()
        );
        for row in text.lines() {
            serde_json::from_str::<Record>(row).expect("whole lines");
            lines += 1;
        }
    }
    assert!(lines > 0);
    assert!(
        !dir.path()
            .join(JOURNAL_DIR)
            .join("journal.3.jsonl")
            .exists()
    );
}

#[cfg(unix)]
#[test]
fn an_unsafe_folder_is_refused() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let target = dir.path().join("elsewhere");
    std::fs::create_dir(&target).expect("a folder");
    std::os::unix::fs::symlink(&target, dir.path().join(JOURNAL_DIR)).expect("a link");
    let journal = Journal::for_home(dir.path());
    let error = journal.append(&record("")).expect_err("refused");
    assert!(error.to_string().contains("symbolic link"), "{error}");
    assert!(journal.first_error().is_some());
    assert_eq!(std::fs::read_dir(&target).expect("readable").count(), 0);
}

#[test]
fn a_300_kb_session_id_gives_a_bounded_line_that_reads_back() {
    let mut big = record("stderr");
    big.session_id = "s".repeat(300 * 1024);
    big.cwd = "/c".repeat(100 * 1024);
    big.path = Some("/bin:".repeat(50 * 1024));
    let line = big.to_line().expect("serializes");
    assert!(line.len() <= MAX_LINE_BYTES, "{}", line.len());
    let parsed: Record = serde_json::from_str(&line).expect("reads back");
    assert_eq!(parsed.v, FORMAT_VERSION);
    assert_eq!(parsed.session_id.chars().count(), SUMMARY_CHARS + 1);
    assert_eq!(parsed.runs.len(), 1, "cut fields fit without a stub");
}

#[test]
fn a_record_that_does_not_fit_even_cut_becomes_a_stub() {
    let mut big = record("x");
    let run = big.runs[0].clone();
    for n in 0..2000 {
        let mut run = run.clone();
        run.key = format!("{}{n}", "k".repeat(5000));
        big.runs.push(run);
    }
    let line = big.to_line().expect("serializes");
    assert!(line.len() <= MAX_LINE_BYTES, "{}", line.len());
    let parsed: Record = serde_json::from_str(&line).expect("reads back");
    assert!(parsed.truncated);
    assert_eq!(parsed.runs_dropped, Some(2001));
    assert!(parsed.runs.is_empty());
}

#[test]
fn a_line_without_v_is_version_1() {
    let mut value = serde_json::to_value(record("")).expect("serializes");
    value.as_object_mut().expect("an object").remove("v");
    let parsed: Record = serde_json::from_value(value).expect("reads");
    assert_eq!(parsed.v, 1);
}

#[test]
fn a_patch_is_summarised_by_its_files_never_its_text() {
    let patch = "*** Begin Patch\n*** Add File: src/new.rs\n+let token = \"s3cr3t\";\n*** Update File: src/lib.rs\n@@\n-old\n+new secret\n*** End Patch\n";
    let summary =
        summary(&serde_json::json!({"tool_input": {"command": patch}})).expect("a summary");
    assert_eq!(summary, "patch: add src/new.rs, update src/lib.rs");
    assert!(!summary.contains("s3cr3t"));
}

fn journal_in(dir: &Path, max: u64, files: usize) -> Journal {
    Journal::new(dir.join(JOURNAL_DIR)).with_limits(max, files)
}

#[test]
fn a_busy_lock_skips_rotation_and_never_waits() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let journal = journal_in(dir.path(), 1024, 3);
    journal.append(&record("")).expect("appends");
    let held =
        hook_fs::open_lock(&journal.dir().join(LOCK_FILE), LockPolicy::Immediate).expect("free");
    for _ in 0..50 {
        journal
            .append(&record(""))
            .expect("appends without waiting");
    }
    assert_eq!(journal.existing_files().len(), 1, "no rotation while held");
    drop(held);
    journal.append(&record("")).expect("appends");
    assert!(
        journal.dir().join("journal.1.jsonl").is_file(),
        "rotated once free"
    );
}

#[cfg(unix)]
#[test]
fn a_fifo_as_the_journal_or_its_lock_is_refused_at_once() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let journal = journal_in(dir.path(), 1, 3);
    private_folder(journal.dir()).expect("a folder");
    let fifo = |path: &Path| {
        let status = std::process::Command::new("mkfifo")
            .arg(path)
            .status()
            .expect("mkfifo runs");
        assert!(status.success());
    };
    fifo(&journal.dir().join(LOCK_FILE));
    let error = journal.append(&record("")).expect_err("the lock is a FIFO");
    assert!(error.to_string().contains("FIFO"), "{error}");
    let live = journal.dir().join(JOURNAL_FILE);
    std::fs::remove_file(&live).expect("removed");
    fifo(&live);
    let error = journal.append(&record("")).expect_err("the file is a FIFO");
    assert!(error.to_string().contains("FIFO"), "{error}");
    let read: Vec<Entry> = journal.read().collect();
    assert!(matches!(&read[..], [Entry::Unreadable { .. }]), "{read:?}");
}

#[test]
fn the_reader_streams_oldest_first_and_skips_an_overlong_line() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let journal = journal_in(dir.path(), 4096, 4);
    let mut first = record("");
    first.session_id = "first".into();
    journal.append(&first).expect("appends");
    for _ in 0..30 {
        journal.append(&record("")).expect("appends");
    }
    let live = journal.dir().join(JOURNAL_FILE);
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&live)
        .expect("opens");
    file.write_all(&vec![b'x'; 3 * MAX_LINE_BYTES])
        .and_then(|()| file.write_all(b"\n"))
        .expect("writes");
    let mut last = record("");
    last.session_id = "last".into();
    journal.append(&last).expect("appends");
    let entries: Vec<Entry> = journal.read().collect();
    let sessions: Vec<&str> = entries
        .iter()
        .filter_map(|entry| match entry {
            Entry::Record(record) => Some(record.session_id.as_str()),
            Entry::Unreadable { .. } => None,
        })
        .collect();
    assert_eq!(sessions.last(), Some(&"last"));
    assert!(journal.existing_files().len() > 1);
    let unreadable: Vec<&Entry> = entries
        .iter()
        .filter(|e| matches!(e, Entry::Unreadable { .. }))
        .collect();
    assert_eq!(unreadable.len(), 1, "{unreadable:?}");
}

#[test]
fn a_reader_goes_on_as_a_follower_with_nothing_twice_and_nothing_missed() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let journal = journal_in(dir.path(), 2048, 3);
    let numbered = |n: usize| {
        let mut record = record("");
        record.session_id = format!("n{n}");
        record
    };
    for n in 0..6 {
        journal.append(&numbered(n)).expect("appends");
    }
    let mut reader = journal.read();
    let mut sessions: Vec<String> = Vec::new();
    for entry in reader.by_ref() {
        if let Entry::Record(record) = entry {
            sessions.push(record.session_id.clone());
        }
    }
    let mut follower = reader.into_follower();
    for n in 6..30 {
        journal.append(&numbered(n)).expect("appends");
        if n % 5 == 0 {
            for entry in follower.poll() {
                if let Entry::Record(record) = entry {
                    sessions.push(record.session_id.clone());
                }
            }
        }
    }
    for entry in follower.poll() {
        if let Entry::Record(record) = entry {
            sessions.push(record.session_id.clone());
        }
    }
    // The oldest lines may have been rotated away; from the first kept on, every one once.
    let first: usize = sessions[0][1..].parse().expect("a number");
    let expected: Vec<String> = (first..30).map(|n| format!("n{n}")).collect();
    assert_eq!(sessions, expected);
}

#[test]
fn the_follower_survives_rotation_and_sees_the_line_that_caused_it() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let journal = journal_in(dir.path(), 2048, 3);
    journal.append(&record("")).expect("appends");
    let mut follower = journal.follow();
    assert!(follower.poll().is_empty(), "starts at the end");
    let mut seen = Vec::new();
    for n in 0..40 {
        let mut numbered = record("");
        numbered.session_id = format!("n{n}");
        journal.append(&numbered).expect("appends");
        if n % 7 == 0 {
            seen.extend(follower.poll());
        }
    }
    seen.extend(follower.poll());
    let sessions: Vec<String> = seen
        .iter()
        .map(|entry| match entry {
            Entry::Record(record) => record.session_id.clone(),
            other => panic!("{other:?}"),
        })
        .collect();
    let expected: Vec<String> = (0..40).map(|n| format!("n{n}")).collect();
    assert!(journal.existing_files().len() > 1, "it rotated");
    assert_eq!(sessions, expected);
}

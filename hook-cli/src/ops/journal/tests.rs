//! In-process tests of reading the journal: `--since`, the filters, the newest `--limit`
//! records, and the agent's recorded `PATH`.

use std::time::Duration;

use hook_exec::journal::{Journal, Record};
use serde_json::{Value, json};

use super::*;

/// A record of `event` at `time` in session `s`, with `decision` and one run per
/// `(key, status)`.
fn dispatch(time: &str, event: &str, decision: &str, runs: &[(&str, &str)]) -> Record {
    let runs: Vec<Value> = runs
        .iter()
        .map(|(key, status)| {
            json!({"key": key, "layer": "user", "type": "command", "status": status})
        })
        .collect();
    serde_json::from_value(json!({
        "time": time, "front": "relay", "dialect": "verboo", "event": event,
        "session_id": "s", "cwd": "/", "decision": decision, "runs": runs,
    }))
    .expect("a journal record")
}

#[test]
fn since_takes_a_number_and_a_unit_and_refuses_the_rest() {
    let table: [(&str, Result<u64, &str>); 12] = [
        ("2h", Ok(7200)),
        ("30m", Ok(1800)),
        ("30min", Ok(1800)),
        ("90s", Ok(90)),
        ("7d", Ok(7 * 86_400)),
        ("1w", Ok(7 * 86_400)),
        (" 5m ", Ok(300)),
        ("soon", Err("is not a duration")),
        ("", Err("is not a duration")),
        ("5y", Err("the unit is s, m, h, d or w")),
        ("9999999999999w", Err("leave --since out")),
        ("99999999999999999999999d", Err("leave --since out")),
    ];
    for (text, expected) in table {
        match (parse_since(text), expected) {
            (Ok(got), Ok(seconds)) => {
                assert_eq!(got, Duration::from_secs(seconds), "{text:?}");
            }
            (Err(error), Err(needle)) => assert!(error.contains(needle), "{text:?}: {error}"),
            (got, expected) => panic!("{text:?}: {got:?}, expected {expected:?}"),
        }
    }
    // The longest window reaches before the epoch: everything.
    assert_eq!(since_ms(Duration::from_secs(MAX_SINCE_SECONDS)), 0);
    let hour_ago = since_ms(Duration::from_secs(3600));
    let now = u64::try_from(jiff::Timestamp::now().as_millisecond()).expect("after 1970");
    assert!(now - hour_ago >= 3_600_000 && now - hour_ago < 3_700_000);
}

#[test]
fn filters_keep_what_each_flag_names() {
    let guard_blocks = dispatch(
        "2026-12-03T19:00:00.000Z",
        "PreToolUse",
        "block",
        &[("guard", "blocked"), ("lint", "ok")],
    );
    let lint_fails = dispatch(
        "2026-12-03T20:00:00.000Z",
        "Stop",
        "continue",
        &[("guard", "ok"), ("lint", "timed_out")],
    );
    let outcome_blocks = dispatch(
        "2026-12-03T21:00:00.000Z",
        "PreToolUse",
        "block",
        &[("lint", "failed")],
    );
    let filter = |f: fn(&mut Filter)| {
        let mut filter = Filter::default();
        f(&mut filter);
        filter
    };
    // (what, filter, kept of [guard_blocks, lint_fails, outcome_blocks])
    let table: Vec<(&str, Filter, [bool; 3])> = vec![
        ("nothing", Filter::default(), [true, true, true]),
        (
            "--event Stop",
            filter(|f| f.event = Some("Stop".into())),
            [false, true, false],
        ),
        (
            "--session other",
            filter(|f| f.session = Some("other".into())),
            [false, false, false],
        ),
        (
            "--hook guard",
            filter(|f| f.hook = Some("guard".into())),
            [true, true, false],
        ),
        (
            "--status blocked (a blocking outcome counts)",
            filter(|f| f.status = Some(StatusFilter::Blocked)),
            [true, false, true],
        ),
        (
            "--hook lint --status blocked (its own run only)",
            filter(|f| {
                f.hook = Some("lint".into());
                f.status = Some(StatusFilter::Blocked);
            }),
            [false, false, false],
        ),
        (
            "--status error",
            filter(|f| f.status = Some(StatusFilter::Error)),
            [false, true, true],
        ),
        (
            "--hook guard --status error",
            filter(|f| {
                f.hook = Some("guard".into());
                f.status = Some(StatusFilter::Error);
            }),
            [false, false, false],
        ),
        (
            "--status timed-out",
            filter(|f| f.status = Some(StatusFilter::TimedOut)),
            [false, true, false],
        ),
        (
            "since 20:00",
            filter(|f| f.since_ms = parse_time("2026-12-03T20:00:00.000Z")),
            [false, true, true],
        ),
    ];
    for (what, filter, kept) in table {
        let got = [&guard_blocks, &lint_fails, &outcome_blocks].map(|r| filter.accepts(r));
        assert_eq!(got, kept, "{what}");
    }
}

#[test]
fn hook_status_means_that_hooks_own_run() {
    let home = tempfile::tempdir().expect("a temp dir");
    let record = json!({"v": 1, "time": "2026-12-03T10:00:00.000Z", "front": "relay",
    "dialect": "verboo", "event": "PreToolUse", "session_id": "s", "cwd": "/",
    "decision": "block", "runs": [
        {"key": "quiet", "layer": "user", "type": "command", "status": "ok", "exit_code": 0},
        {"key": "guard", "layer": "user", "type": "command", "status": "blocked", "exit_code": 2},
    ]});
    std::fs::create_dir_all(home.path().join("hook-journal")).expect("a folder");
    std::fs::write(
        home.path().join("hook-journal/journal.jsonl"),
        format!("{record}\n"),
    )
    .expect("written");
    let journal = Journal::for_home(home.path());
    let count = |hook: Option<&str>, status: StatusFilter| {
        let filter = Filter {
            hook: hook.map(str::to_owned),
            status: Some(status),
            ..Filter::default()
        };
        select(std::slice::from_ref(&journal), &filter, 50)
            .records
            .len()
    };
    assert_eq!(count(Some("quiet"), StatusFilter::Blocked), 0);
    assert_eq!(count(Some("guard"), StatusFilter::Blocked), 1);
    assert_eq!(count(Some("quiet"), StatusFilter::Ok), 1);
    assert_eq!(count(None, StatusFilter::Blocked), 1);
}

#[test]
fn a_record_whose_time_does_not_read_is_before_any_window() {
    let record = dispatch("yesterday", "Stop", "continue", &[]);
    assert!(before(&record, 0));
    let filter = Filter {
        since_ms: Some(0),
        ..Filter::default()
    };
    assert!(!filter.accepts(&record));
}

#[test]
fn select_keeps_the_newest_matches_oldest_first_and_says_what_it_could_not_read() {
    let home = tempfile::tempdir().expect("a temp dir");
    let journal = Journal::for_home(home.path());
    let empty = select(std::slice::from_ref(&journal), &Filter::default(), 0);
    assert!(empty.no_journal && empty.records.is_empty());
    for (minute, event) in [(1, "Stop"), (2, "PreToolUse"), (3, "Stop"), (4, "Stop")] {
        let time = format!("2026-12-03T19:0{minute}:00.000Z");
        journal
            .append(&dispatch(&time, event, "continue", &[("k", "ok")]))
            .expect("appended");
    }
    let file = journal.existing_files().pop().expect("a journal file");
    let mut text = std::fs::read_to_string(&file).expect("the journal");
    text.push_str("not a record\n");
    std::fs::write(&file, text).expect("written");

    let stops = Filter {
        event: Some("Stop".into()),
        ..Filter::default()
    };
    let table = [
        (0, vec!["19:01", "19:03", "19:04"]),
        (2, vec!["19:03", "19:04"]),
    ];
    for (limit, minutes) in table {
        let selection = select(std::slice::from_ref(&journal), &stops, limit);
        let times: Vec<&str> = selection.records.iter().map(|r| &r.time[11..16]).collect();
        assert_eq!(times, minutes, "--limit {limit}");
        assert!(!selection.no_journal);
        assert_eq!(
            selection.problems.lines.get(&file).map(|(n, _)| *n),
            Some(1)
        );
    }
}

#[test]
fn the_recorded_path_is_the_newest_and_unreadable_lines_are_said() {
    let home = tempfile::tempdir().expect("a temp dir");
    assert!(
        recorded_path(&[Journal::for_home(home.path())])
            .latest
            .is_none()
    );
    let journal = Journal::for_home(home.path());
    for (minute, path) in [(1, "/first"), (2, "/second")] {
        let time = format!("2026-12-03T19:0{minute}:00.000Z");
        let record = dispatch(&time, "Stop", "continue", &[]).with_path(path);
        journal.append(&record).expect("appended");
    }
    // A `hook run` dispatch records no PATH: the relay's stays the latest.
    journal
        .append(&dispatch(
            "2026-12-03T19:03:00.000Z",
            "Stop",
            "continue",
            &[],
        ))
        .expect("appended");
    let file = journal.existing_files().pop().expect("a journal file");
    let mut text = std::fs::read_to_string(&file).expect("the journal");
    text.push_str("{\n");
    std::fs::write(&file, text).expect("written");
    let recorded = recorded_path(&[Journal::for_home(home.path())]);
    assert_eq!(
        recorded.latest,
        Some(("/second".into(), "2026-12-03T19:02:00.000Z".into()))
    );
    assert_eq!(recorded.problems.len(), 1);
    assert!(
        recorded.problems[0]
            .1
            .starts_with("1 line(s) could not be read"),
        "{:?}",
        recorded.problems
    );
}

/// The discovery of `dialect`'s hooks (the relay's when `relay`) for a user whose `HOME` is
/// `home`.
fn discovered(home: &std::path::Path, relay: bool) -> hook_config::Discovery {
    let env = hook_config::Environment::empty().with_var("HOME", home.as_os_str());
    let mut options = hook_config::LoadOptions::new(hook_protocol::Dialect::Verboo, env);
    if relay {
        options = options.for_relay();
    }
    hook_config::discover(&options).expect("a home")
}

#[test]
fn recording_never_creates_the_agents_home_but_makes_the_relays_folder_in_it() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let input = hook_protocol::input::input_from_value(
        hook_protocol::Dialect::Verboo,
        json!({"hook_event_name": "Stop", "session_id": "s", "cwd": "/",
            "transcript_path": "/t", "stop_hook_active": false}),
    )
    .expect("a Stop input");
    let outcome =
        hook_protocol::Outcome::new(hook_protocol::Dialect::Verboo, hook_protocol::Event::Stop);
    // No `~/.claude`: neither `hook run` nor the relay makes it.
    for relay in [false, true] {
        let discovery = discovered(dir.path(), relay);
        assert_eq!(
            record("run", &discovery, &input, &outcome, None, None, None),
            None
        );
        assert!(!dir.path().join(".claude").exists());
    }
    // The agent's home exists: the relay's first event makes its folder, and is recorded.
    std::fs::create_dir(dir.path().join(".claude")).expect("a folder");
    let discovery = discovered(dir.path(), true);
    assert_eq!(
        record("relay", &discovery, &input, &outcome, None, None, None),
        None
    );
    let journal = Journal::for_home(&dir.path().join(".claude/hook-relay"));
    assert_eq!(journal.existing_files().len(), 1);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        for folder in [journal.dir(), &dir.path().join(".claude/hook-relay")] {
            let mode = std::fs::metadata(folder)
                .expect("made")
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o700, "{}", folder.display());
        }
    }
    assert!(!dir.path().join(".claude/hook-journal").exists());
}

#[test]
fn names_and_tails_are_the_journals() {
    assert_eq!(status_name(hook_protocol::RunStatus::TimedOut), "timed_out");
    assert_eq!(decision_name(hook_protocol::Decision::Block), "block");
    let table = [
        ("", vec![]),
        ("one", vec!["one"]),
        ("a\n\n b \nc\nd\n  \n", vec![" b ", "c", "d"]),
    ];
    for (text, lines) in table {
        assert_eq!(tail(text, 3), lines, "{text:?}");
    }
    let mut kept = std::collections::VecDeque::new();
    for n in 1..=5 {
        keep_newest(&mut kept, n, 3);
    }
    assert_eq!(kept, [3, 4, 5]);
}

#[test]
fn two_journals_read_as_one_in_time_order_and_the_newest_pass_the_limit() {
    let (own, relay) = (
        tempfile::tempdir().expect("a temp dir"),
        tempfile::tempdir().expect("a temp dir"),
    );
    let journals = [
        Journal::for_home(own.path()),
        Journal::for_home(relay.path()),
    ];
    for (journal, minutes) in journals.iter().zip([[1, 4], [2, 3]]) {
        for minute in minutes {
            let time = format!("2026-12-03T19:0{minute}:00.000Z");
            journal
                .append(&dispatch(&time, "Stop", "continue", &[]))
                .expect("appended");
        }
    }
    for (limit, minutes) in [
        (0, vec!["19:01", "19:02", "19:03", "19:04"]),
        (3, vec!["19:02", "19:03", "19:04"]),
    ] {
        let selection = select(&journals, &Filter::default(), limit);
        let times: Vec<&str> = selection.records.iter().map(|r| &r.time[11..16]).collect();
        assert_eq!(times, minutes, "--limit {limit}");
        assert_eq!(selection.dirs.len(), 2);
        assert_eq!(selection.followers.len(), 2);
    }
    // The agent's PATH is the newest recorded in either.
    journals[0]
        .append(&dispatch("2026-12-03T19:09:00.000Z", "Stop", "continue", &[]).with_path("/own"))
        .expect("appended");
    journals[1]
        .append(&dispatch("2026-12-03T19:05:00.000Z", "Stop", "continue", &[]).with_path("/relay"))
        .expect("appended");
    let recorded = recorded_path(&journals);
    assert_eq!(
        recorded.latest.map(|(path, _)| path).as_deref(),
        Some("/own")
    );
}

//! In-process tests of `hook stats`' counting: percentiles, what each run status counts as,
//! the window, and every flag.

use hook_exec::journal::Record;
use hook_protocol::Dialect;
use serde_json::{Value, json};

use super::*;

/// A verboo record of `event` at minute `minute` whose one run of `key` is `run` (fields of a
/// journal run: `status`, `duration_ms`, `quiet`, ...).
fn dispatch(minute: u32, event: &str, key: &str, run: Value) -> Record {
    let mut entry = json!({"key": key, "layer": "user", "type": "command"});
    for (name, value) in run.as_object().expect("an object") {
        entry[name] = value.clone();
    }
    serde_json::from_value(json!({
        "time": format!("2026-12-03T19:{minute:02}:00.000Z"), "front": "relay",
        "dialect": "verboo", "event": event, "session_id": "s", "cwd": "/",
        "decision": "continue", "runs": [entry],
    }))
    .expect("a journal record")
}

const OPTIONS: StatsOptions = StatsOptions {
    since_ms: None,
    slow_ms: 1000,
    min_runs: 3,
};

fn tally(
    configured: &[(&str, &str)],
    records: &[Record],
    options: &StatsOptions,
) -> Vec<HookStats> {
    let mut tally = Tally::new(Dialect::Verboo, options.since_ms);
    for (key, event) in configured {
        tally.configured(key, event);
    }
    for record in records {
        tally.record(record);
    }
    tally.finish(options)
}

#[test]
fn percentiles_are_nearest_rank() {
    let hundred: Vec<u64> = (1..=100).collect();
    let table: [(&[u64], usize, Option<u64>); 6] = [
        (&hundred, 50, Some(50)),
        (&hundred, 95, Some(95)),
        (&[7], 95, Some(7)),
        (&[7], 0, Some(7)),
        (&[1, 2, 3], 50, Some(2)),
        (&[], 50, None),
    ];
    for (sorted, p, expected) in table {
        assert_eq!(percentile(sorted, p), expected, "p{p} of {sorted:?}");
    }
}

#[test]
fn each_status_counts_where_it_belongs() {
    let records = [
        dispatch(
            1,
            "PreToolUse",
            "k",
            json!({"status": "ok", "duration_ms": 10}),
        ),
        dispatch(
            2,
            "PreToolUse",
            "k",
            json!({"status": "blocked", "duration_ms": 20}),
        ),
        dispatch(3, "PreToolUse", "k", json!({"status": "stopped"})),
        dispatch(
            4,
            "PreToolUse",
            "k",
            json!({"status": "failed", "exit_code": 1,
            "error": "boom", "stderr": "a\nb\nc\nd"}),
        ),
        dispatch(
            5,
            "PreToolUse",
            "k",
            json!({"status": "timed_out", "duration_ms": 30}),
        ),
        dispatch(
            6,
            "PreToolUse",
            "k",
            json!({"status": "skipped", "skip_reason": "untrusted"}),
        ),
        dispatch(7, "PreToolUse", "k", json!({"status": "async"})),
    ];
    let all = tally(&[], &records, &OPTIONS);
    assert_eq!(all.len(), 1);
    let k = &all[0];
    // (figure, got, expected)
    let table = [
        ("matched", k.matched, 7),
        ("runs (skips are not runs)", k.runs, 6),
        ("ok", k.ok, 1),
        ("blocks (a stop is one)", k.blocks, 2),
        ("failures", k.failures, 1),
        ("timeouts", k.timeouts, 1),
        ("skips", k.skips.get("untrusted").copied().unwrap_or(0), 1),
    ];
    for (figure, got, expected) in table {
        assert_eq!(got, expected, "{figure}");
    }
    assert_eq!(
        (k.p50_ms, k.p95_ms, k.max_ms),
        (Some(20), Some(30), Some(30))
    );
    assert_eq!(k.last_match.as_deref(), Some("2026-12-03T19:07:00.000Z"));
    let failure = k.last_failure.as_ref().expect("a last failure");
    assert_eq!(failure.status, "timed_out");
    assert_eq!(failure.time, "2026-12-03T19:05:00.000Z");
    // Its latest runs (before the async start) failed, timed out and were skipped.
    assert_eq!(
        k.flags,
        [
            "failing now: its latest 3 runs did not do their job (failed, timed out, skipped (untrusted)), after 3 that worked, since 2026-12-03T19:04:00.000Z"
        ]
    );
    assert!(!k.configured);
    assert_eq!(k.events, ["PreToolUse"]);
}

#[test]
fn the_first_failures_stderr_tail_is_its_last_three_lines() {
    let records = [dispatch(
        1,
        "Stop",
        "k",
        json!({"status": "failed", "exit_code": 3,
        "stderr": "a\nb\n\nc\nd\n"}),
    )];
    let all = tally(&[], &records, &OPTIONS);
    let failure = all[0].last_failure.as_ref().expect("a last failure");
    assert_eq!(failure.exit_code, Some(3));
    assert_eq!(failure.stderr_tail.as_deref(), Some("b\nc\nd"));
}

#[test]
fn rewrites_count_the_ok_runs_of_a_rewritten_dispatch() {
    let mut rewritten = dispatch(1, "PreToolUse", "k", json!({"status": "ok"}));
    rewritten.rewritten = true;
    let mut blocked = dispatch(2, "PreToolUse", "k", json!({"status": "blocked"}));
    blocked.rewritten = true;
    let all = tally(&[], &[rewritten, blocked], &OPTIONS);
    assert_eq!(all[0].rewrites, 1);
}

#[test]
fn the_flags_say_which_hook_needs_a_look() {
    let quiet = json!({"status": "ok", "quiet": true, "duration_ms": 5});
    let failing = json!({"status": "failed", "duration_ms": 5});
    let slow = json!({"status": "ok", "duration_ms": 2000});
    let mut records = Vec::new();
    for minute in 0..3 {
        records.push(dispatch(minute, "PreToolUse", "guard", quiet.clone()));
        records.push(dispatch(minute, "Notification", "notify", quiet.clone()));
        records.push(dispatch(minute, "Stop", "broken", failing.clone()));
        records.push(dispatch(minute, "Stop", "slow", slow.clone()));
    }
    records.push(dispatch(9, "Stop", "young", failing.clone()));
    records.push(dispatch(9, "Stop", "young", failing));
    // Another dialect's dispatch is not counted.
    let mut lime = dispatch(9, "Stop", "other", json!({"status": "ok"}));
    lime.dialect = Dialect::Lime;
    records.push(lime);
    let configured = [("idle", "PreToolUse"), ("guard", "PreToolUse")];
    let all = tally(&configured, &records, &OPTIONS);
    let flags = |key: &str| -> Vec<String> {
        all.iter()
            .find(|s| s.key == key)
            .map(|s| s.flags.clone())
            .unwrap_or_else(|| panic!("no figures for {key}"))
    };
    let silent =
        "always exit 0 with no output on a blocking event (a guard that may have stopped guarding)";
    // (hook, its flags)
    let table: [(&str, &[&str]); 6] = [
        ("idle", &["never matched"]),
        ("guard", &[silent]),
        // Notification cannot block: a quiet hook there is normal.
        ("notify", &[]),
        ("broken", &["always fails"]),
        ("slow", &["slow (p95 over 1000 ms)"]),
        // Two runs only: too few for "always fails", but failing now.
        (
            "young",
            &[
                "failing now: its latest 2 runs did not do their job (failed), since 2026-12-03T19:09:00.000Z",
            ],
        ),
    ];
    for (key, expected) in table {
        assert_eq!(flags(key), expected, "{key}");
    }
    assert!(all.iter().all(|s| s.key != "other"));
    assert!(
        all.iter()
            .find(|s| s.key == "guard")
            .is_some_and(|s| s.configured)
    );
    // With a lower bar, two failing runs are enough.
    let options = StatsOptions {
        min_runs: 2,
        ..OPTIONS
    };
    let all = tally(&[], &records, &options);
    let young = all.iter().find(|s| s.key == "young").expect("young");
    assert_eq!(young.flags, ["always fails"]);
}

#[test]
fn the_window_leaves_older_dispatches_out() {
    let records = [
        dispatch(1, "Stop", "k", json!({"status": "ok"})),
        dispatch(5, "Stop", "k", json!({"status": "ok"})),
        dispatch(9, "Stop", "k", json!({"status": "ok"})),
    ];
    let options = StatsOptions {
        since_ms: hook_exec::journal::parse_time("2026-12-03T19:05:00.000Z"),
        ..OPTIONS
    };
    let all = tally(&[], &records, &options);
    assert_eq!(all[0].runs, 2);
}

#[test]
fn a_guard_that_blocked_ten_times_then_failed_is_failing_now() {
    let mut records: Vec<Record> = (0..10)
        .map(|minute| dispatch(minute, "PreToolUse", "guard", json!({"status": "blocked"})))
        .collect();
    // Its `jq` went off the agent's PATH: the shell says 127.
    records.push(dispatch(
        20,
        "PreToolUse",
        "guard",
        json!({"status": "failed", "exit_code": 127}),
    ));
    let all = tally(&[("guard", "PreToolUse")], &records, &OPTIONS);
    assert_eq!(
        all[0].flags,
        [
            "failing now: its latest run did not do its job (failed), after 10 that worked, since 2026-12-03T19:20:00.000Z"
        ]
    );
    assert_eq!(all[0].failing_streak, 1);
    assert_eq!(
        all[0].failing_since.as_deref(),
        Some("2026-12-03T19:20:00.000Z")
    );
}

#[test]
fn what_ends_a_failing_streak_and_what_leaves_it() {
    let run = |status: &str, skip: Option<&str>| {
        let mut run = json!({"status": status});
        if let Some(reason) = skip {
            run["skip_reason"] = reason.into();
        }
        run
    };
    // (the runs after a block, oldest first; the streak after them, its kinds)
    let table: [(&[Value], usize, &str); 7] = [
        (&[run("failed", None)], 1, "failed"),
        (&[run("timed_out", None)], 1, "timed out"),
        (
            &[
                run("skipped", Some("untrusted")),
                run("skipped", Some("modified")),
            ],
            2,
            "skipped (untrusted), skipped (modified)",
        ),
        (&[run("skipped", Some("invalid"))], 1, "skipped (invalid)"),
        // A run that worked ends it.
        (&[run("failed", None), run("ok", None)], 0, ""),
        // A disabled hook, an async start: the streak stays as it was.
        (
            &[
                run("failed", None),
                run("skipped", Some("disabled")),
                run("async", None),
            ],
            1,
            "failed",
        ),
        (&[run("skipped", Some("disabled"))], 0, ""),
    ];
    for (runs, streak, kinds) in table {
        let mut records = vec![dispatch(0, "PreToolUse", "k", run("blocked", None))];
        for (minute, run) in (1..).zip(runs) {
            records.push(dispatch(minute, "PreToolUse", "k", run.clone()));
        }
        let all = tally(&[], &records, &OPTIONS);
        assert_eq!(all[0].failing_streak, streak, "{runs:?}");
        let flag = all[0].flags.iter().find(|f| f.starts_with("failing now"));
        assert_eq!(
            flag.is_some_and(|f| f.contains(&format!("({kinds})"))),
            streak > 0,
            "{runs:?}: {flag:?}"
        );
    }
}

#[test]
fn the_relays_own_entries_are_not_hooks_that_never_matched() {
    let scene = crate::ops::scene::Scene::new();
    // What `hook relay install` writes into Claude Code's settings, beside a hook of the user's.
    scene.write(
        "home/.claude/settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "/usr/local/bin/hook relay --dialect verboo --event PreToolUse # hook-relay-install"},
            {"type": "command", "command": "./mine.sh"}]}]}}"#,
    );
    let location = scene.location(Dialect::Verboo, ".claude");
    let (configured, problems) = configured_hooks(&location);
    assert!(problems.is_empty(), "{problems:?}");
    let keys: Vec<&str> = configured.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, ["user:settings.json:PreToolUse:Bash:1"]);
}

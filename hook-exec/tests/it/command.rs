//! The command runner with real processes: every hostile hook of the "Bad input" list.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

use std::time::Duration;

use hook_exec::command::{CommandError, CommandRun, CommandSpec, OUTPUT_CAP, run_command};

fn run_hook(command: &str, stdin: &[u8], timeout: Duration) -> (CommandRun, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let mut spec = CommandSpec::new(command, dir.path(), timeout);
    // Grandchildren holding the pipe are waited for briefly: 100 ms is enough to show it.
    spec.pipe_grace = Duration::from_millis(100);
    spec.stdin = stdin.into();
    spec.env
        .push(("HOOK_TEST_VAR".into(), "from-the-engine".into()));
    let runtime = tokio::runtime::Runtime::new().unwrap();
    (runtime.block_on(run_command(&spec)), dir)
}

/// Whether a process is running (a zombie waiting to be reaped counts as gone).
fn alive(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{}/stat", pid.trim())) {
        Ok(stat) => {
            let state = stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .trim_start()
                .chars()
                .next();
            state != Some('Z')
        }
        Err(_) => false,
    }
}

/// Whether the process is gone, allowing for SIGKILL's asynchronous delivery on a loaded machine
/// (a bounded wait for the kernel, not a timing assertion).
fn dies(pid: &str) -> bool {
    for _ in 0..250 {
        if !alive(pid) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

fn pid_in(dir: &tempfile::TempDir) -> String {
    std::fs::read_to_string(dir.path().join("pid")).unwrap()
}

#[test]
fn stdin_cwd_and_environment_reach_the_hook() {
    let (run, dir) = run_hook(
        "cat; pwd >&2; printf %s \"$HOOK_TEST_VAR\" >&2",
        b"{\"a\":1}",
        Duration::from_secs(10),
    );
    assert!(run.end.is_ok(), "{:?}", run.end);
    assert_eq!(run.exit_code, Some(0));
    assert_eq!(run.stdout, b"{\"a\":1}");
    let stderr = String::from_utf8(run.stderr).unwrap();
    let cwd = dir.path().canonicalize().unwrap();
    assert_eq!(stderr, format!("{}\nfrom-the-engine", cwd.display()));
}

#[test]
fn a_hook_that_never_reads_stdin_is_fine() {
    let big = vec![b'x'; 4 * 1024 * 1024];
    let (run, _dir) = run_hook("echo done", &big, Duration::from_secs(10));
    assert!(run.end.is_ok(), "{:?}", run.end);
    assert_eq!(run.stdout, b"done\n");
}

#[test]
fn five_mib_of_output_fails_the_run_without_hanging() {
    let (run, _dir) = run_hook(
        "head -c 5242880 /dev/zero; exit 0",
        b"",
        Duration::from_secs(20),
    );
    assert!(
        matches!(
            run.end,
            Err(CommandError::OutputTooLarge {
                stream: "stdout",
                cap: OUTPUT_CAP
            })
        ),
        "{:?}",
        run.end
    );
    assert_eq!(run.stdout.len(), OUTPUT_CAP);

    let (run, _dir) = run_hook(
        "head -c 2000000 /dev/zero >&2",
        b"",
        Duration::from_secs(20),
    );
    assert!(
        matches!(
            run.end,
            Err(CommandError::OutputTooLarge {
                stream: "stderr",
                cap: OUTPUT_CAP
            })
        ),
        "{:?}",
        run.end
    );
}

#[test]
fn exactly_the_cap_is_not_too_large() {
    let (run, _dir) = run_hook("head -c 1048576 /dev/zero", b"", Duration::from_secs(20));
    assert!(run.end.is_ok(), "{:?}", run.end);
    assert_eq!(run.stdout.len(), OUTPUT_CAP);
}

#[test]
fn a_hook_that_never_exits_times_out_and_its_whole_group_dies() {
    let (run, dir) = run_hook(
        "sleep 300 & echo $! > pid; sleep 300",
        b"",
        Duration::from_millis(500),
    );
    assert!(
        matches!(run.end, Err(CommandError::TimedOut { limit }) if limit == Duration::from_millis(500)),
        "{:?}",
        run.end
    );
    assert_eq!(run.exit_code, None);
    let pid = pid_in(&dir);
    assert!(
        dies(&pid),
        "the hook's background child {pid} survived the timeout"
    );
}

#[test]
fn a_grandchild_holding_the_pipe_is_waited_for_briefly_then_killed() {
    // The grandchild keeps stdout open; the hook itself exits at once.
    let (run, dir) = run_hook(
        "sh -c 'echo $$ > pid; sleep 300' & echo '{}'",
        b"",
        Duration::from_secs(30),
    );
    assert!(run.end.is_ok(), "{:?}", run.end);
    assert_eq!(run.exit_code, Some(0));
    assert_eq!(run.stdout, b"{}\n");
    let pid = pid_in(&dir);
    assert!(dies(&pid), "the grandchild {pid} survived the run");
}

#[test]
fn a_background_child_with_its_output_redirected_does_not_survive_either() {
    let (run, dir) = run_hook(
        "sleep 300 >/dev/null 2>&1 & echo $! > pid",
        b"",
        Duration::from_secs(10),
    );
    assert!(run.end.is_ok(), "{:?}", run.end);
    assert!(dies(&pid_in(&dir)));
}

#[test]
fn a_hook_that_kills_itself_has_no_exit_code() {
    let (run, _dir) = run_hook("kill -9 $$", b"", Duration::from_secs(10));
    assert!(run.end.is_ok(), "{:?}", run.end);
    assert_eq!(run.exit_code, None);
}

#[test]
fn a_missing_command_and_a_non_executable_file_are_plain_failures() {
    let (run, _dir) = run_hook("/no/such/hook", b"", Duration::from_secs(10));
    assert_eq!(run.exit_code, Some(127));
    assert!(String::from_utf8_lossy(&run.stderr).contains("/no/such/hook"));

    let (run, _dir) = run_hook("touch plain && ./plain", b"", Duration::from_secs(10));
    assert_eq!(run.exit_code, Some(126));
}

#[test]
fn a_missing_working_directory_is_a_spawn_failure() {
    let spec = CommandSpec::new("true", "/no/such/dir", Duration::from_secs(5));
    let run = tokio::runtime::Runtime::new()
        .unwrap()
        .block_on(run_command(&spec));
    let Err(error) = run.end else {
        panic!("a missing directory started a hook: {run:?}");
    };
    assert_eq!(
        error.to_string(),
        "cannot start the hook: its working directory /no/such/dir does not exist"
    );
    let CommandError::NoWorkingDirectory { cwd, source } = &error else {
        panic!("not a missing directory: {error:?}");
    };
    assert_eq!(cwd, std::path::Path::new("/no/such/dir"));
    assert_eq!(source.kind(), std::io::ErrorKind::NotFound);
}

#[test]
fn dropping_the_future_kills_the_hook() {
    let dir = tempfile::tempdir().unwrap();
    let spec = CommandSpec::new(
        "echo $$ > pid; sleep 300",
        dir.path(),
        Duration::from_secs(300),
    );
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let pid_file = dir.path().join("pid");
        let running = run_command(&spec);
        tokio::pin!(running);
        // Poll the run until the hook has written its pid, then drop it.
        loop {
            tokio::select! {
                _ = &mut running => panic!("the hook should still be running"),
                _ = tokio::time::sleep(Duration::from_millis(20)) => {}
            }
            if std::fs::read_to_string(&pid_file).is_ok_and(|p| p.ends_with('\n')) {
                break;
            }
        }
    });
    drop(runtime);
    let pid = pid_in(&dir);
    assert!(dies(&pid), "the hook {pid} survived its cancelled run");
}

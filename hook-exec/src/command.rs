//! Running one command hook: `/bin/sh -c` in its own process group, event JSON on stdin, output
//! capped, a timeout that kills the whole group, and no survivor left behind.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

use process_wrap::tokio::{ChildWrapper, CommandWrap, KillOnDrop};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};

/// The most a hook may print on stdout, and separately on stderr: 1 MiB.
pub const OUTPUT_CAP: usize = 1024 * 1024;

/// How long to wait, after the hook exits, for pipes its leftover children hold open.
pub const PIPE_GRACE: Duration = Duration::from_secs(2);

/// What to run.
#[derive(Debug, Clone)]
pub struct CommandSpec {
    /// The shell command (`/bin/sh -c`; `cmd /C` on Windows).
    pub command: String,
    /// The working directory: the event's `cwd`.
    pub cwd: PathBuf,
    /// Variables added to the inherited environment.
    pub env: Vec<(String, String)>,
    /// Bytes written to the hook's stdin (the event JSON).
    pub stdin: Vec<u8>,
    /// How long the hook may run.
    pub timeout: Duration,
    /// Cap on each of stdout and stderr.
    pub output_cap: usize,
}

impl CommandSpec {
    /// A spec with the default output cap.
    pub fn new(command: impl Into<String>, cwd: impl Into<PathBuf>, timeout: Duration) -> Self {
        CommandSpec {
            command: command.into(),
            cwd: cwd.into(),
            env: Vec::new(),
            stdin: Vec::new(),
            timeout,
            output_cap: OUTPUT_CAP,
        }
    }
}

/// How a command run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunEnd {
    /// The hook exited (or was killed by a signal it did not get from us) and its output is whole.
    Exited,
    /// The hook ran out of time; its group was killed. It makes no decision.
    TimedOut,
    /// The hook printed more than the cap on this stream; it fails, and nothing it printed is
    /// read as a decision.
    OutputTooLarge {
        /// `"stdout"` or `"stderr"`.
        stream: &'static str,
    },
    /// The hook exited but a process that left its group still holds its output open, so the
    /// output may be incomplete: it is not read.
    PipesHeldOpen,
    /// The process could not be started.
    SpawnFailed {
        /// Why, from the operating system.
        error: String,
    },
}

/// The result of running a command.
#[derive(Debug, Clone)]
pub struct CommandRun {
    /// How it ended.
    pub end: RunEnd,
    /// The exit code, if the process exited normally.
    pub exit_code: Option<i32>,
    /// What it printed on stdout, up to the cap.
    pub stdout: Vec<u8>,
    /// What it printed on stderr, up to the cap.
    pub stderr: Vec<u8>,
    /// Wall time from spawn to the end of output.
    pub duration: Duration,
}

/// Runs `spec` to completion. Dropping the returned future kills the hook's process group.
pub async fn run_command(spec: &CommandSpec) -> CommandRun {
    let started = Instant::now();
    let mut command = shell(&spec.command);
    command
        .current_dir(&spec.cwd)
        .envs(spec.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut wrapped = CommandWrap::from(command);
    #[cfg(unix)]
    wrapped.wrap(process_wrap::tokio::ProcessGroup::leader());
    #[cfg(windows)]
    wrapped.wrap(process_wrap::tokio::JobObject);
    wrapped.wrap(KillOnDrop);

    let mut child = match wrapped.spawn() {
        Ok(child) => child,
        Err(error) => {
            return CommandRun {
                end: RunEnd::SpawnFailed {
                    error: spawn_error(&spec.cwd, &error),
                },
                exit_code: None,
                stdout: Vec::new(),
                stderr: Vec::new(),
                duration: started.elapsed(),
            };
        }
    };

    let stdin = child.stdin().take();
    let input = spec.stdin.clone();
    let writer = tokio::spawn(async move {
        if let Some(mut stdin) = stdin {
            // A hook that exits without reading, or closes stdin early, is fine.
            let _ = stdin.write_all(&input).await;
            let _ = stdin.shutdown().await;
        }
    });
    let stdout = tokio::spawn(read_capped(child.stdout().take(), spec.output_cap));
    let stderr = tokio::spawn(read_capped(child.stderr().take(), spec.output_cap));

    let status = match tokio::time::timeout(spec.timeout, child.wait()).await {
        Ok(Ok(status)) => Some(status),
        Ok(Err(_)) | Err(_) => None,
    };
    let timed_out = status.is_none();
    if timed_out {
        kill_group(child.as_mut());
        let _ = child.wait().await;
    }

    // Output held open by leftover children is waited for, but not for long; then whatever is
    // left of the group is killed: a hook leaves no process behind.
    let aborts = [stdout.abort_handle(), stderr.abort_handle()];
    let readers = async { (stdout.await, stderr.await) };
    tokio::pin!(readers);
    let grace = if timed_out {
        Duration::ZERO
    } else {
        PIPE_GRACE
    };
    let first = tokio::time::timeout(grace, &mut readers).await;
    kill_group(child.as_mut());
    let outputs = match first {
        Ok(outputs) => Some(outputs),
        // Killing the group closes the pipes; a process that left the group may still hold them.
        Err(_) => tokio::time::timeout(Duration::from_millis(500), &mut readers)
            .await
            .ok(),
    };
    writer.abort();
    aborts.iter().for_each(tokio::task::AbortHandle::abort);
    let Some((Ok((out, out_over)), Ok((err, err_over)))) = outputs else {
        return CommandRun {
            end: if timed_out {
                RunEnd::TimedOut
            } else {
                RunEnd::PipesHeldOpen
            },
            exit_code: status.and_then(|s| s.code()),
            stdout: Vec::new(),
            stderr: Vec::new(),
            duration: started.elapsed(),
        };
    };

    let end = if timed_out {
        RunEnd::TimedOut
    } else if out_over {
        RunEnd::OutputTooLarge { stream: "stdout" }
    } else if err_over {
        RunEnd::OutputTooLarge { stream: "stderr" }
    } else {
        RunEnd::Exited
    };
    CommandRun {
        end,
        exit_code: status.and_then(|s| s.code()),
        stdout: out,
        stderr: err,
        duration: started.elapsed(),
    }
}

#[cfg(unix)]
fn shell(command: &str) -> tokio::process::Command {
    let mut shell = tokio::process::Command::new("/bin/sh");
    shell.arg("-c").arg(command);
    shell
}

#[cfg(windows)]
fn shell(command: &str) -> tokio::process::Command {
    let mut shell = tokio::process::Command::new("cmd");
    shell.arg("/C").arg(command);
    shell
}

fn spawn_error(cwd: &std::path::Path, error: &std::io::Error) -> String {
    if !cwd.is_dir() {
        format!(
            "cannot start the hook: its working directory {} does not exist",
            cwd.display()
        )
    } else {
        format!("cannot start the hook: {error}")
    }
}

/// Kills every process of the hook's group (Unix) or job (Windows); errors mean it is gone.
fn kill_group(child: &mut dyn ChildWrapper) {
    #[cfg(unix)]
    {
        const SIGKILL: i32 = 9;
        let _ = child.signal(SIGKILL);
    }
    #[cfg(not(unix))]
    {
        let _ = child.start_kill();
    }
}

/// Reads a stream to its end, keeping at most `cap` bytes; past the cap it keeps draining, so
/// the child never blocks on a full pipe, and reports the overflow.
async fn read_capped<R: AsyncRead + Unpin>(stream: Option<R>, cap: usize) -> (Vec<u8>, bool) {
    let Some(mut stream) = stream else {
        return (Vec::new(), false);
    };
    let mut kept = Vec::new();
    let mut over = false;
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        match stream.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let room = cap.saturating_sub(kept.len());
                if n > room {
                    over = true;
                }
                kept.extend_from_slice(&chunk[..n.min(room)]);
            }
        }
    }
    (kept, over)
}

//! Running one command hook: `/bin/sh -c` in its own process group, event JSON on stdin, output
//! capped, a timeout that kills the whole group, and no survivor left behind.
//!
//! # What is killed, and when
//!
//! - **Timeout**: the whole process group of the hook is killed (SIGKILL); the run is
//!   [`CommandError::TimedOut`].
//! - **Exit**: after the hook's shell exits, output still held open by its leftover children is
//!   waited for at most [`CommandSpec::pipe_grace`], then whatever is left of the group is killed.
//! - **Drop**: dropping the future of [`run_command`] (a cancelled dispatch, an aborted async
//!   task, a runtime shut down) kills the whole process group at once, from the drop itself, and
//!   closes the hook's pipes: the shell, its children and grandchildren all get SIGKILL, not only
//!   `/bin/sh`.
//! - **Death of the engine** (Linux, with [`CommandSpec::kill_on_parent_death`]): the shell gets
//!   SIGKILL when the thread that started it exits (`PR_SET_PDEATHSIG`), so even a SIGKILL of the
//!   engine takes the shell down. See [`Engine`](crate::Engine)'s limitations for what this
//!   cannot reach.
//!
//! # Example
//!
//! ```
//! use std::time::Duration;
//! use hook_exec::command::{CommandSpec, run_command};
//!
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let mut spec = CommandSpec::new("cat; echo oops >&2; exit 2", ".", Duration::from_secs(5));
//! spec.stdin = br#"{"hook_event_name":"Stop"}"#.to_vec().into();
//! let run = run_command(&spec).await;
//! assert!(run.end.is_ok());
//! assert_eq!(run.exit_code, Some(2));
//! assert_eq!(run.stdout, &spec.stdin[..]);
//! assert_eq!(run.stderr, b"oops\n");
//! # });
//! ```

use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use process_wrap::tokio::{ChildWrapper, CommandWrap, KillOnDrop};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::task::JoinHandle;

/// The most a hook may print on stdout, and separately on stderr: 1 MiB.
pub const OUTPUT_CAP: usize = 1024 * 1024;

/// The default of [`CommandSpec::pipe_grace`]: 2 s.
pub const PIPE_GRACE: Duration = Duration::from_secs(2);

/// What to run. Build it with [`CommandSpec::new`] and set the fields you need.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct CommandSpec {
    /// The shell command (`/bin/sh -c`; `cmd /C` on Windows).
    pub command: String,
    /// The working directory: the event's `cwd`.
    pub cwd: PathBuf,
    /// Variables added to the inherited environment.
    pub env: Vec<(String, String)>,
    /// Bytes written to the hook's stdin (the event JSON), shared: the engine serializes an
    /// event once per dispatch and gives every command hook the same bytes.
    pub stdin: Arc<[u8]>,
    /// How long the hook may run.
    pub timeout: Duration,
    /// Cap on each of stdout and stderr.
    pub output_cap: usize,
    /// How long to wait, after the hook's shell exits, for output its leftover children still
    /// hold open; then the group is killed. Default [`PIPE_GRACE`].
    pub pipe_grace: Duration,
    /// Linux: the hook's shell gets SIGKILL when the thread that started it exits
    /// (`PR_SET_PDEATHSIG`), so a SIGKILL of the engine does not leave it running. Off by
    /// default, because the signal follows the *thread*: turn it on only where hooks are started
    /// from a thread that lives as long as the engine (e.g. a current-thread runtime on the main
    /// thread, as `hook run` does). Ignored on other systems.
    pub kill_on_parent_death: bool,
}

impl CommandSpec {
    /// A spec with the default output cap and pipe grace.
    pub fn new(command: impl Into<String>, cwd: impl Into<PathBuf>, timeout: Duration) -> Self {
        CommandSpec {
            command: command.into(),
            cwd: cwd.into(),
            env: Vec::new(),
            stdin: Arc::from(&[][..]),
            timeout,
            output_cap: OUTPUT_CAP,
            pipe_grace: PIPE_GRACE,
            kill_on_parent_death: false,
        }
    }
}

/// Why a command run gives no output to read: [`CommandRun::end`] when it is not `Ok`.
///
/// `Display` is the whole sentence the engine puts in the run's `error`, the cause's text
/// included; [`std::error::Error::source`] gives the cause itself.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CommandError {
    /// The working directory does not exist: nothing was started. Run the hook from an
    /// existing directory (the event's `cwd`).
    #[error("cannot start the hook: its working directory {} does not exist", cwd.display())]
    NoWorkingDirectory {
        /// The working directory asked for.
        cwd: PathBuf,
        /// What the operating system said when asked to start there.
        #[source]
        source: std::io::Error,
    },
    /// The shell could not be started (missing, not executable, no process left...).
    #[error("cannot start the hook: {source}")]
    Spawn {
        /// The working directory it was started in.
        cwd: PathBuf,
        /// Why, from the operating system.
        #[source]
        source: std::io::Error,
    },
    /// The hook ran out of time; its whole process group was killed. It makes no decision.
    #[error("timed out after {} s; the hook's process group was killed", limit.as_secs_f64())]
    TimedOut {
        /// The time it was given ([`CommandSpec::timeout`]).
        limit: Duration,
    },
    /// The hook printed more than the cap on one stream; nothing it printed is read as a
    /// decision.
    #[error("{stream} went over {cap} bytes; nothing it printed is used")]
    OutputTooLarge {
        /// `"stdout"` or `"stderr"`.
        stream: &'static str,
        /// The cap ([`CommandSpec::output_cap`]).
        cap: usize,
    },
    /// The hook exited but a process that left its group still holds its output open, so the
    /// output may be incomplete: it is not read.
    #[error("a process that left the hook's group kept its output open; the output is not used")]
    PipesHeldOpen {
        /// How long the output was waited for after the exit ([`CommandSpec::pipe_grace`]).
        grace: Duration,
    },
    /// Reading the hook's output failed part way: what was read may be truncated, so it is not
    /// read as a decision.
    #[error(
        "reading the hook's {stream} failed part way ({source}); its output may be truncated and is not used"
    )]
    OutputUnreadable {
        /// `"stdout"` or `"stderr"`.
        stream: &'static str,
        /// The read error, from the operating system.
        #[source]
        source: std::io::Error,
    },
}

/// The result of running a command.
#[derive(Debug)]
#[non_exhaustive]
pub struct CommandRun {
    /// How it ended: `Ok` when the hook exited (or was killed by a signal it did not get from
    /// the engine) and its output is whole; otherwise why its output is not read.
    pub end: Result<(), CommandError>,
    /// The exit code, if the process exited normally.
    pub exit_code: Option<i32>,
    /// What it printed on stdout, up to the cap.
    pub stdout: Vec<u8>,
    /// What it printed on stderr, up to the cap.
    pub stderr: Vec<u8>,
    /// Wall time from spawn to the end of output.
    pub duration: Duration,
}

/// Runs `spec` to completion. Dropping the returned future kills the hook's whole process group
/// and closes its pipes.
pub async fn run_command(spec: &CommandSpec) -> CommandRun {
    let started = Instant::now();
    let mut command = shell(&spec.command);
    command
        .current_dir(&spec.cwd)
        .envs(spec.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(target_os = "linux")]
    if spec.kill_on_parent_death {
        die_with_parent(&mut command);
    }
    let mut wrapped = CommandWrap::from(command);
    #[cfg(unix)]
    wrapped.wrap(process_wrap::tokio::ProcessGroup::leader());
    #[cfg(windows)]
    wrapped.wrap(process_wrap::tokio::JobObject);
    wrapped.wrap(KillOnDrop);

    let child = match wrapped.spawn() {
        Ok(child) => child,
        Err(error) => {
            return CommandRun {
                end: Err(spawn_error(&spec.cwd, error)),
                exit_code: None,
                stdout: Vec::new(),
                stderr: Vec::new(),
                duration: started.elapsed(),
            };
        }
    };
    // From here on, however this future ends (returned or dropped), the group is killed.
    let mut group = Group::new(child);

    let stdin = group.child.stdin().take();
    let input = Arc::clone(&spec.stdin);
    let _writer = AbortOnDrop(tokio::spawn(async move {
        if let Some(mut stdin) = stdin {
            // A hook that exits without reading, or closes stdin early, is fine.
            let _ = stdin.write_all(&input).await;
            let _ = stdin.shutdown().await;
        }
    }));
    let mut stdout = AbortOnDrop(tokio::spawn(read_capped(
        group.child.stdout().take(),
        spec.output_cap,
    )));
    let mut stderr = AbortOnDrop(tokio::spawn(read_capped(
        group.child.stderr().take(),
        spec.output_cap,
    )));

    let status = match tokio::time::timeout(spec.timeout, group.child.wait()).await {
        Ok(Ok(status)) => Some(status),
        Ok(Err(_)) | Err(_) => None,
    };
    let timed_out = status.is_none();
    if timed_out {
        group.kill();
        let _ = group.child.wait().await;
    }

    // Output held open by leftover children is waited for, but not for long; then whatever is
    // left of the group is killed: a hook leaves no process behind.
    let readers = async { (stdout.wait().await, stderr.wait().await) };
    tokio::pin!(readers);
    let grace = if timed_out {
        Duration::ZERO
    } else {
        spec.pipe_grace
    };
    let first = tokio::time::timeout(grace, &mut readers).await;
    group.kill();
    let outputs = match first {
        Ok(outputs) => Some(outputs),
        // Killing the group closes the pipes; a process that left the group may still hold them.
        Err(_) => tokio::time::timeout(Duration::from_millis(500), &mut readers)
            .await
            .ok(),
    };
    // The group is dead and its shell reaped: nothing is left to kill on drop (and its id may
    // be reused from now on).
    group.disarm();
    let exit_code = status.and_then(|s| s.code());
    let Some((Some(out), Some(err))) = outputs else {
        return CommandRun {
            end: Err(if timed_out {
                CommandError::TimedOut {
                    limit: spec.timeout,
                }
            } else {
                CommandError::PipesHeldOpen {
                    grace: spec.pipe_grace,
                }
            }),
            exit_code,
            stdout: Vec::new(),
            stderr: Vec::new(),
            duration: started.elapsed(),
        };
    };

    let cap = spec.output_cap;
    let end = if timed_out {
        Err(CommandError::TimedOut {
            limit: spec.timeout,
        })
    } else if out.over {
        Err(CommandError::OutputTooLarge {
            stream: "stdout",
            cap,
        })
    } else if err.over {
        Err(CommandError::OutputTooLarge {
            stream: "stderr",
            cap,
        })
    } else if let Some(source) = out.error {
        Err(CommandError::OutputUnreadable {
            stream: "stdout",
            source,
        })
    } else if let Some(source) = err.error {
        Err(CommandError::OutputUnreadable {
            stream: "stderr",
            source,
        })
    } else {
        Ok(())
    };
    CommandRun {
        end,
        exit_code,
        stdout: out.bytes,
        stderr: err.bytes,
        duration: started.elapsed(),
    }
}

/// A running hook's process group (Unix) or job (Windows). Dropping it while armed kills every
/// process of the group, so a cancelled run never leaves the hook's children behind; the shell
/// itself is then reaped by tokio (`kill_on_drop`).
struct Group {
    child: Box<dyn ChildWrapper>,
    armed: bool,
}

impl Group {
    fn new(child: Box<dyn ChildWrapper>) -> Self {
        Group { child, armed: true }
    }

    /// Kills every process of the group; errors mean it is gone already.
    fn kill(&mut self) {
        kill_group(self.child.as_mut());
    }

    /// The run is over and the group was killed: dropping it kills nothing more.
    fn disarm(&mut self) {
        self.armed = false;
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        if self.armed {
            // While a process of the group lives, the group's id names it and no other process
            // (an id still in use as a group id is never handed out again).
            self.kill();
        }
    }
}

/// A spawned task that is aborted when its handle is dropped, so a dropped run releases the
/// pipe it was reading or writing.
struct AbortOnDrop<T>(JoinHandle<T>);

impl<T> AbortOnDrop<T> {
    /// The task's result; `None` if it panicked or was aborted.
    async fn wait(&mut self) -> Option<T> {
        (&mut self.0).await.ok()
    }
}

impl<T> Drop for AbortOnDrop<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Linux: the shell gets SIGKILL when the thread that spawned it exits, and does not start at
/// all if the engine is already gone.
#[cfg(target_os = "linux")]
fn die_with_parent(command: &mut tokio::process::Command) {
    let parent = nix::unistd::getpid();
    let hook = move || {
        nix::sys::prctl::set_pdeathsig(nix::sys::signal::Signal::SIGKILL)?;
        // The engine may have died between fork and prctl: then nothing would send the signal.
        if nix::unistd::getppid() != parent {
            return Err(std::io::Error::from_raw_os_error(nix::libc::ESRCH));
        }
        Ok(())
    };
    // SAFETY: the closure runs in the forked child before exec and only makes the
    // async-signal-safe calls prctl(2) and getppid(2); it allocates nothing (its errors are raw
    // OS error codes).
    #[allow(unsafe_code)]
    unsafe {
        command.pre_exec(hook);
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

fn spawn_error(cwd: &std::path::Path, source: std::io::Error) -> CommandError {
    let cwd = cwd.to_owned();
    if cwd.is_dir() {
        CommandError::Spawn { cwd, source }
    } else {
        CommandError::NoWorkingDirectory { cwd, source }
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

/// What one output stream gave.
#[derive(Debug, Default)]
struct Captured {
    /// Up to the cap.
    bytes: Vec<u8>,
    /// More than the cap was printed.
    over: bool,
    /// Reading failed before the end: the output may be truncated.
    error: Option<std::io::Error>,
}

/// How much a read asks for at a time.
const READ_CHUNK: usize = 8 * 1024;

/// Reads a stream to its end, keeping at most `cap` bytes; past the cap it keeps draining, so
/// the child never blocks on a full pipe, and reports the overflow. A read error is not an end
/// of output: it is reported, so a truncated output is never read as a whole one.
///
/// Under the cap the bytes are read straight into the capture's spare room, never through a
/// zeroed buffer: a hook usually prints a few bytes, and zeroing (so faulting in) a large
/// buffer for each of its streams was a measurable part of every dispatch (BENCHMARKS.md,
/// "Where a start goes"). The buffer that drains what is past the cap is made only then.
async fn read_capped<R: AsyncRead + Unpin>(stream: Option<R>, cap: usize) -> Captured {
    let mut captured = Captured::default();
    let Some(mut stream) = stream else {
        return captured;
    };
    let mut past_cap = Vec::new();
    loop {
        let room = cap.saturating_sub(captured.bytes.len());
        let read = if room > 0 {
            captured.bytes.reserve(room.min(READ_CHUNK));
            let limit = u64::try_from(room).unwrap_or(u64::MAX);
            (&mut stream)
                .take(limit)
                .read_buf(&mut captured.bytes)
                .await
        } else {
            if past_cap.is_empty() {
                past_cap.resize(READ_CHUNK, 0);
            }
            let read = stream.read(&mut past_cap).await;
            if read.as_ref().is_ok_and(|n| *n > 0) {
                captured.over = true;
            }
            read
        };
        match read {
            Ok(0) => break,
            Ok(_) => {}
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(error) => {
                captured.error = Some(error);
                break;
            }
        }
    }
    captured
}

#[cfg(test)]
mod tests {
    use std::pin::Pin;
    use std::task::{Context, Poll};

    use tokio::io::ReadBuf;

    use super::*;

    /// Gives `chunks` one read at a time, then fails like a broken pipe or a device error.
    struct FailsMidStream {
        chunks: Vec<&'static [u8]>,
    }

    impl AsyncRead for FailsMidStream {
        fn poll_read(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
            buf: &mut ReadBuf<'_>,
        ) -> Poll<std::io::Result<()>> {
            if self.chunks.is_empty() {
                return Poll::Ready(Err(std::io::Error::other("the device went away")));
            }
            let chunk = self.chunks.remove(0);
            buf.put_slice(chunk);
            Poll::Ready(Ok(()))
        }
    }

    #[tokio::test]
    async fn a_read_error_mid_stream_is_reported_not_taken_as_the_end() {
        let reader = FailsMidStream {
            chunks: vec![b"{\"decision\":", b"\"allow\""],
        };
        let captured = read_capped(Some(reader), OUTPUT_CAP).await;
        assert_eq!(captured.bytes, b"{\"decision\":\"allow\"");
        assert!(!captured.over);
        let error = captured.error.map(|e| e.to_string());
        assert_eq!(error.as_deref(), Some("the device went away"));
    }

    #[tokio::test]
    async fn the_cap_keeps_exactly_its_bytes_and_says_so_only_when_more_came() {
        // (printed, cap, kept, over): under, at, one past, far past (past the read chunk too).
        let cases = [
            (10, 16, 10, false),
            (16, 16, 16, false),
            (17, 16, 16, true),
            (3 * READ_CHUNK + 5, READ_CHUNK + 1, READ_CHUNK + 1, true),
            (
                3 * READ_CHUNK + 5,
                4 * READ_CHUNK,
                3 * READ_CHUNK + 5,
                false,
            ),
            (0, 16, 0, false),
            (5, 0, 0, true),
        ];
        for (printed, cap, kept, over) in cases {
            let output: Vec<u8> = (0..printed).map(|i| (i % 251) as u8).collect();
            let captured = read_capped(Some(output.as_slice()), cap).await;
            assert_eq!(captured.bytes, output[..kept], "{printed} bytes, cap {cap}");
            assert_eq!(captured.over, over, "{printed} bytes, cap {cap}");
            assert!(captured.error.is_none());
        }
    }

    #[tokio::test]
    async fn an_interrupted_read_is_retried() {
        struct InterruptedOnce(bool);
        impl AsyncRead for InterruptedOnce {
            fn poll_read(
                mut self: Pin<&mut Self>,
                _: &mut Context<'_>,
                buf: &mut ReadBuf<'_>,
            ) -> Poll<std::io::Result<()>> {
                if !self.0 {
                    self.0 = true;
                    return Poll::Ready(Err(std::io::ErrorKind::Interrupted.into()));
                }
                buf.put_slice(b"");
                Poll::Ready(Ok(()))
            }
        }
        let captured = read_capped(Some(InterruptedOnce(false)), OUTPUT_CAP).await;
        assert!(captured.error.is_none());
    }
}

//! The ready-made guards answered in the relay's own process ([`GuardCommands`], given to the
//! engine by [`crate::ops::dispatch::prepare`]): a command handler whose command is a guard's
//! line ([`GuardLine::parse`]: `hook guard run NAME [--set KEY=VALUE]...`, with the program
//! `hook` or this executable) is answered by [`super::run::answer`], exactly what `hook guard
//! run` prints as a process, without starting one. Every other command, and a guard line whose
//! options do not read (the process says what is wrong), is spawned as usual.
//!
//! The answer sees what the process would: the event's bytes (its stdin), and `HOOK_DIALECT`
//! and `HOME` as the process would have them ([`CommandCall::var`]). Matching,
//! trust, the timeout, `onFailure`, combining and the journal are the engine's, as for any
//! hook; the run is marked `in_process`.

use hook_exec::{BoxFuture, CommandCall, CommandReply, InProcessCommands};

use super::GuardLine;
use super::run::{answer, dialect, home};

/// Answers guard lines in process.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct GuardCommands;

impl InProcessCommands for GuardCommands {
    fn answer<'a>(&'a self, call: CommandCall<'a>) -> Option<BoxFuture<'a, CommandReply>> {
        let line = GuardLine::parse(call.command)?;
        let settings = line.settings().ok()?;
        Some(Box::pin(async move {
            let hook_dialect = call.var("HOOK_DIALECT");
            let emitted = answer(
                line.guard,
                settings,
                dialect(line.dialect, hook_dialect.as_deref()),
                home(call.var("HOME")),
                call.input,
            );
            CommandReply::new(emitted.exit_code, emitted.stdout, emitted.stderr)
        }))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use std::path::Path;
    use std::time::Duration;

    use hook_exec::{CommandCall, InProcessCommands};
    use hook_protocol::Event;
    use serde_json::json;

    use super::GuardCommands;

    /// `event` as Claude Code (`lime`: false) or Codex (true) sends it, for `command`.
    fn event(lime: bool, command: &str) -> Vec<u8> {
        let mut event = json!({
            "session_id": "s", "transcript_path": "/t.jsonl", "cwd": "/work/project",
            "hook_event_name": "PreToolUse", "permission_mode": "default",
            "tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "u1",
        });
        if lime {
            event["transcript_path"] = serde_json::Value::Null;
            event["turn_id"] = json!("t1");
            event["model"] = json!("gpt-5");
        }
        event.to_string().into_bytes()
    }

    /// The relay's in-process answer and `hook guard run`'s, for each input: the same stdout,
    /// stderr and exit code, byte for byte (the command as the binary runs it, its streams
    /// captured; the dialect the engine gives as `HOOK_DIALECT` given to it as `--dialect`).
    #[test]
    fn the_in_process_answer_is_byte_for_byte_what_hook_guard_run_prints() {
        let cases: Vec<(&str, &str, Vec<u8>)> = vec![
            ("verboo", "", event(false, "rm -r -f ~")),
            ("verboo", "", event(false, "sudo /bin/rm -fr /")),
            ("verboo", "", event(false, "rm -rf ./build")),
            ("verboo", "", event(false, "$RM -rf /")),
            (
                "verboo",
                " --set block-unreadable=true",
                event(false, "$RM -rf /"),
            ),
            ("lime", "", event(true, "bash -c 'rm -rf ~'")),
            ("lime", "", event(true, "ls")),
            // An event it cannot read fails closed, the same way in both.
            ("verboo", "", b"not json".to_vec()),
            ("lime", "", event(false, "rm -rf ~")),
            (
                "verboo",
                " --set allowed-paths=/tmp",
                b"{\"hook_event_name\": 3}".to_vec(),
            ),
        ];
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        for (dialect, sets, input) in cases {
            let line = format!("hook guard run dangerous-commands{sets}");
            let env = [("HOOK_DIALECT".to_owned(), dialect.to_owned())];
            let name = Event::PreToolUse;
            let call = CommandCall::new(
                dialect.parse().unwrap(),
                &name,
                &line,
                &input,
                Path::new("/work/project"),
                Duration::from_secs(10),
            )
            .with_env(&env);
            let answer = GuardCommands
                .answer(call)
                .expect("a guard line is answered in process");
            let reply = runtime.block_on(answer);

            let mut args: Vec<&str> = line.split(' ').skip(1).collect();
            args.extend(["--dialect", dialect]);
            let ran = crate::tests::hook_bytes(&args, &input);
            let shown = String::from_utf8_lossy(&input);
            assert_eq!(
                (
                    String::from_utf8(reply.stdout).unwrap(),
                    String::from_utf8(reply.stderr).unwrap(),
                    reply.exit_code
                ),
                (ran.stdout, ran.stderr, i32::from(ran.code)),
                "{line} on {shown}"
            );
        }
    }

    #[test]
    fn only_guard_lines_with_options_that_read_are_answered_in_process() {
        let name = Event::PreToolUse;
        let call = |line: &'static str| {
            CommandCall::new(
                "verboo".parse().unwrap(),
                &name,
                line,
                b"{}",
                Path::new("/"),
                Duration::from_secs(1),
            )
        };
        assert!(
            GuardCommands
                .answer(call("hook guard run secrets"))
                .is_some()
        );
        for spawned in [
            "hook guard run secrets --set no-such-option=1",
            "hook guard run dangerous-commands --set block-unreadable=maybe",
            "hook guard run no-such-guard",
            "hook relay --dialect verboo",
            "./guard.sh",
        ] {
            assert!(GuardCommands.answer(call(spawned)).is_none(), "{spawned}");
        }
    }
}

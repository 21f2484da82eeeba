//! What a user would notice of a run (`Seen`), and what the engine's outcome says the agent
//! will do (`predict`): the two sides a case compares.

use std::fmt::Write as _;

use serde_json::Value;

use super::Agent;
use super::cases::{Case, Permissions};

/// What a user notices, for the agent or predicted from the engine's outcome.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Seen {
    /// `none`, `original`, `rewritten` or `rewritten-first`.
    pub(super) ran: &'static str,
    /// The block/deny reason reached the model.
    pub(super) reason: bool,
    /// The second hook's reason reached the model.
    pub(super) second: bool,
    /// The additional context reached the model.
    pub(super) context: bool,
    /// `no model call`, `stopped`, `normal` or `continued`.
    pub(super) turns: &'static str,
    /// Which hooks (config index) ran.
    pub(super) hooks: Vec<usize>,
    /// The tool command saw `CONF_ENV=ENVTOKEN` in its environment (`env-file`).
    pub(super) env: bool,
    /// Codex: the case's `codex_text` reached the model (the engine: it is the outcome's
    /// `reason`).
    pub(super) text: bool,
    /// Codex: how its hook runs ended, as it reports them (`hook: PreToolUse Failed`), counted
    /// by status (`blocked`, `completed`, `failed`); empty for Claude Code and for Stop (loops).
    pub(super) statuses: String,
    /// The flag file an async hook writes after a second existed a few seconds after the agent
    /// (or `hook run`) returned (`async-runs`).
    pub(super) late: bool,
    /// What the model received on the session's second turn ([`Case::second_turn`]).
    pub(super) next: Option<Next>,
}

/// What the model received on a later turn of the session: the effects a hook's output has
/// beyond its own turn.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Next {
    /// Model requests of the turn (`1`: a text answer; `2`: a tool call and an answer).
    pub(super) calls: usize,
    /// The hook's reason was in what the model received (the history of the session included).
    pub(super) reason: bool,
    /// The hook's context was.
    pub(super) context: bool,
    /// The turn's tool command saw `CONF_ENV=ENVTOKEN` (`env-file`).
    pub(super) env: bool,
}

impl Seen {
    /// The seen facts as one line, for the report and the differences printed.
    pub(super) fn show(&self) -> String {
        let mut s = format!("ran {}; turns {}", self.ran, self.turns);
        if self.reason {
            s.push_str("; reason→model");
        }
        if self.second {
            s.push_str("; 2nd reason→model");
        }
        if self.context {
            s.push_str("; context→model");
        }
        if self.env {
            s.push_str("; env→command");
        }
        if self.text {
            s.push_str("; agent's text→model");
        }
        if self.late {
            s.push_str("; async hook finished");
        }
        if !self.statuses.is_empty() {
            let _ = write!(s, "; runs {}", self.statuses);
        }
        let _ = write!(s, "; hooks {:?}", self.hooks);
        if let Some(next) = &self.next {
            let _ = write!(s, "; next turn: {} model calls", next.calls);
            let seen = [
                (next.reason, ", reason→model"),
                (next.context, ", context→model"),
                (next.env, ", env→command"),
            ];
            for (_, what) in seen.iter().filter(|(on, _)| *on) {
                s.push_str(what);
            }
        }
        s
    }
}

/// What the agent would do, by the engine's outcome: the embedder contract, i.e. how an agent
/// that embeds the engine must act on each outcome field to behave as the real agent does.
///
/// `hooks` are the hooks whose process really started (they saved their stdin), not the `runs`
/// entries: a run `skipped` for any reason (`untrusted`, `disabled`, and `invalid` for a handler
/// or group the engine could not load, such as matcher `[` or verboo `timeout: 0`) started no
/// process and decided nothing, so it is never counted as a hook that ran. `late` is whether the
/// engine's async hooks finished after `hook run` returned (only measured, nothing to predict).
pub(super) fn predict(
    agent: Agent,
    case: &Case,
    outcome: &Value,
    hooks: Vec<usize>,
    late: bool,
) -> Seen {
    let decision = outcome["decision"].as_str().unwrap_or("");
    let stop = outcome["stop"] == true;
    let reason = outcome["reason"].as_str().unwrap_or("");
    let blocking = matches!(decision, "block" | "deny" | "ask");
    let context = outcome["additional_context"]
        .as_str()
        .is_some_and(|c| c.contains("CONTEXT_TOKEN"));
    let command = outcome["updated_input"]["command"].as_str();
    let reason_token = |token: &str| blocking && reason.contains(token);
    // verboo `CLAUDE_ENV_FILE`: the embedder sources `session_env` before later Bash commands.
    let env = outcome["session_env"]
        .as_str()
        .is_some_and(|text| text.contains("CONF_ENV=ENVTOKEN"));
    // lime: the engine gives the agent's own words where the hook gave none (e.g. Codex's
    // "PermissionRequest hook denied approval"); the embedder passes `reason` on as it is.
    let text = agent == Agent::Codex
        && case
            .codex_text
            .is_some_and(|text| blocking && reason.contains(text));
    let statuses = if agent == Agent::Codex && case.event != "Stop" {
        engine_statuses(outcome)
    } else {
        String::new()
    };
    let seen = |ran, reason, second, context, turns| Seen {
        ran,
        reason,
        second,
        context,
        turns,
        hooks: hooks.clone(),
        statuses: statuses.clone(),
        env,
        text,
        late,
        next: None,
    };
    // A blocked (or stopped) prompt reaches no model on its own turn; the context its hooks
    // left in the outcome (lime keeps it, verboo drops it with the prompt) is what the embedder
    // gives the model on the session's next turn.
    let prompt_dropped = case.event == "UserPromptSubmit" && (blocking || stop);
    let mut seen = match case.event {
        "PreToolUse" => {
            // `defer` (verboo only; lime fails such a run, so it never reaches the outcome):
            // Claude Code `-p` leaves the call undone and ends the run, so the embedder hands
            // the pending call back to its caller: measured "ran none; turns stopped".
            let deferred = decision == "defer";
            // `stop` (`continue: false`): Claude Code 2.1 runs the call as the decision says
            // (a block still blocks) and then ends the turn: measured "ran original; turns
            // stopped". lime never sets `stop` on PreToolUse (Codex 0.169 treats
            // `continue: false` there as an invalid output: "ran original; turns normal"), so
            // a lime outcome with `stop` would be predicted to stop and disagree, as it should.
            // A call that needs an approval (`Permissions::Prompt`) goes to the usual approval,
            // which the harness declines, unless a verboo hook allowed it: Claude Code 2.1 runs
            // an allowed call (rewritten or not) without asking. A lime `allow` is no
            // authorization (SPEC: a hook never widens it): Codex 0.169 asks its approval for
            // the call, the rewritten one too, whatever the hook said.
            let authorized = decision == "allow" && agent == Agent::Claude;
            let declined = case.permissions == Permissions::Prompt && !authorized;
            let ran = match (blocking || deferred || declined, command) {
                (true, _) => "none",
                (false, Some(c)) if c.ends_with("-first") => "rewritten-first",
                (false, Some(_)) => "rewritten",
                (false, None) => "original",
            };
            let quiet = stop || deferred;
            seen(
                ran,
                !quiet && reason_token("REASON_TOKEN"),
                !quiet && reason_token("SECOND_TOKEN"),
                context,
                if quiet { "stopped" } else { "normal" },
            )
        }
        // A skill's inline command: a block (deny, ask, defer, a rewrite, exit 2) keeps it from
        // running; the model's own call (`true`) and answer follow.
        "PreSkillShellCommand" => seen(
            if blocking { "none" } else { "original" },
            reason_token("REASON_TOKEN"),
            false,
            context,
            "normal",
        ),
        // The tool already ran; a block gives the model the reason (lime `continue: false` is
        // such a block, with the stop reason, and `stop` stays false: Codex 0.169 goes on).
        "PostToolUse" => seen(
            "original",
            !stop && reason_token("REASON_TOKEN"),
            false,
            context,
            if stop { "stopped" } else { "normal" },
        ),
        // A block or stop drops the prompt: no model call on this turn; its context waits for
        // the next one (see `prompt_dropped`).
        "UserPromptSubmit" => seen(
            if blocking || stop { "none" } else { "original" },
            false,
            false,
            context && !prompt_dropped,
            if blocking || stop {
                "no model call"
            } else {
                "normal"
            },
        ),
        // A block makes the agent take another turn with the reason; verboo context alone is
        // reported as a block with `additional_context` and no reason, so it continues too.
        "Stop" => seen(
            "original",
            reason_token("REASON_TOKEN") && !stop,
            reason_token("SECOND_TOKEN") && !stop,
            context,
            if blocking && !stop {
                "continued"
            } else {
                "normal"
            },
        ),
        // allow: the call runs without asking. A block (deny) refuses the call and the model
        // gets the reason as the tool result. No decision: the agent asks as usual, which in
        // a non-interactive run refuses the call (Claude Code `-p`; see `run_agent`).
        "PermissionRequest" => seen(
            if decision == "allow" {
                "original"
            } else {
                "none"
            },
            reason_token("REASON_TOKEN"),
            reason_token("SECOND_TOKEN"),
            context,
            if stop { "stopped" } else { "normal" },
        ),
        _ => seen("original", false, false, context, "normal"),
    };
    // The next turn: what reached the model stays in the session's history; a dropped
    // prompt's context arrives now; `session_env` is sourced before the turn's Bash command;
    // a tool event's stop reason is in the history where the dialect keeps it there.
    // A stop on a tool event whose reason the agent keeps in the history (verboo).
    let stop_reason_kept = agent
        .dialect()
        .parse::<hook_protocol::Dialect>()
        .is_ok_and(|dialect| dialect.rules().output().stop_reason_in_history())
        && stop
        && matches!(case.event, "PreToolUse" | "PostToolUse")
        && outcome["stop_reason"]
            .as_str()
            .is_some_and(|why| why.contains("REASON_TOKEN"));
    seen.next = Some(Next {
        calls: if case.later_command.is_some() { 2 } else { 1 },
        reason: seen.reason || seen.second || stop_reason_kept,
        context: seen.context || (prompt_dropped && context),
        env,
    });
    seen
}

/// Counts statuses, sorted: `blocked 1, failed 1`.
pub(super) fn count_statuses(statuses: impl Iterator<Item = String>) -> String {
    let mut counts = std::collections::BTreeMap::<String, usize>::new();
    for status in statuses {
        *counts.entry(status).or_default() += 1;
    }
    counts
        .iter()
        .map(|(status, n)| format!("{status} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The end of each hook run Codex reports on stderr: `hook: <Event> <Status>` (async hooks and
/// hooks it skips report none).
pub(super) fn codex_statuses(log: &str, event: &str) -> String {
    let prefix = format!("hook: {event} ");
    count_statuses(
        log.lines()
            .filter_map(|line| line.strip_prefix(&prefix))
            .map(|status| status.trim().to_ascii_lowercase()),
    )
}

/// The engine's runs as Codex would report them: `ok` completed, `blocked`, `stopped` (a run
/// whose `continue: false` was obeyed), `failed` and `timed_out` failed; skipped and async runs
/// report nothing.
pub(super) fn engine_statuses(outcome: &Value) -> String {
    count_statuses(
        outcome["runs"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|run| match run["status"].as_str() {
                Some("ok") => Some("completed".to_owned()),
                Some("blocked") => Some("blocked".to_owned()),
                Some("stopped") => Some("stopped".to_owned()),
                Some("failed" | "timed_out") => Some("failed".to_owned()),
                _ => None,
            }),
    )
}

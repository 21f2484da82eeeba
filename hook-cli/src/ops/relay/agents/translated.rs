//! The agents that run guards written for Claude Code through the relay, each speaking its own
//! wire: Qwen Code ([`super::qwen`]), Gemini CLI ([`super::gemini`]) and Copilot CLI in its
//! Claude Code dialect ([`super::copilot`]). Their relay hooks are
//! the verboo relay files Claude Code's relay reads (`~/.claude/hook-relay/settings.json`,
//! `<project>/.claude/hook-relay/settings.json`): a guard is written once, in Claude Code's
//! format. The relay started by one of them (`hook relay --agent qwen|gemini --event E`)
//! translates the event into the Claude Code event the guard expects ([`translate_event`]) and
//! writes the answer in the form that blocks in that agent ([`adapt_reply`]).
//!
//! What the translation does, per agent table ([`Translation`]):
//! - **the event's name**: the agent's (`BeforeTool`) to Claude Code's (`PreToolUse`); an event
//!   the table does not name is refused (the relay then fails closed where it can block);
//! - **the tool's name**: the agent's (`run_shell_command`) to Claude Code's (`Bash`), the
//!   agent's own kept as `agent_tool_name` for a guard that wants it; a tool the table does not
//!   name (an MCP tool, one added since) keeps its own name;
//! - **fields the agent never sends** and Claude Code always does (`tool_use_id`,
//!   `transcript_path`, `session_id`): given empty, so the relay reads the event without a
//!   warning on every call; what the agent sent is kept as it was.
//!
//! The answer, measured against the real binaries (Qwen Code 0.24.4, Gemini CLI 0.61.0, Copilot
//! CLI 1.0.102): Qwen Code and Gemini CLI read a top-level `decision` (`"deny"` on the tool
//! events, `"block"` elsewhere) with its `reason` at exit 0, and give the reason to the model;
//! exit 2 with nothing on stderr, or with `{}` on stdout, lets the call run in both, and Gemini
//! CLI reads stdout's JSON before exit 2's stderr. Copilot CLI ignores `decision` and drops exit
//! 2's reason, but reads `permissionDecision` (top-level, or in Claude Code's
//! `hookSpecificOutput`). So a block is always written as exit 0 with all of them on stdout
//! (each agent reads the part it knows; measured to block, with the reason reaching the model,
//! in all three), never as an exit code alone.

use anyhow::{Context, Result, bail};
use hook_protocol::write::AgentReply;
use hook_protocol::{Decision, Event, Outcome};
use serde_json::{Map, Value};

/// How one agent's wire maps onto Claude Code's.
#[derive(Debug)]
pub(crate) struct Translation {
    /// The names a command line takes for it, the usual one first (`qwen`, `qwen-code`).
    pub(crate) names: &'static [&'static str],
    /// Its name in messages (`Qwen Code`).
    pub(crate) title: &'static str,
    /// A variable only this agent sets for its hooks (how the relay knows its caller).
    pub(crate) marker_env: &'static str,
    /// Its event names and Claude Code's, `(its, Claude Code's)`.
    pub(crate) events: &'static [(&'static str, &'static str)],
    /// Its tool names and Claude Code's, `(its, Claude Code's)`.
    pub(crate) tools: &'static [(&'static str, &'static str)],
    /// How its answer blocks.
    pub(crate) answer: AnswerForm,
    /// Where `hook relay install --agent NAME` writes the relay's entries.
    pub(crate) files: SettingsFiles,
    /// How an entry is written there.
    pub(crate) entry: EntryForm,
}

/// A translated agent's settings files that hold the relay's entries, in Claude Code's nested
/// shape (`{"hooks": {"E": [{"matcher": M, "hooks": [{"type": "command", ...}]}]}}`).
#[derive(Debug)]
pub(crate) struct SettingsFiles {
    /// The user's, under `$HOME` (`.qwen/settings.json`).
    pub(crate) user: &'static str,
    /// A project's, under the project (`.qwen/settings.json`).
    pub(crate) project: &'static str,
    /// The text a file the relay creates starts from (`{}`, or Copilot CLI's own hook file,
    /// which carries a `version`).
    pub(crate) new: &'static str,
}

/// How a translated agent reads an entry's timeout and matcher.
#[derive(Debug)]
pub(crate) struct EntryForm {
    /// The unit of `timeout`.
    pub(crate) timeout_unit: TimeoutUnit,
    /// The longest timeout, in seconds, an entry may be given (Qwen Code reads a value of 1000
    /// and over as milliseconds); `None`: no bound of its own.
    pub(crate) max_timeout: Option<u64>,
    /// The matcher of an entry that matches everything: `None` writes none; Copilot CLI
    /// needs `*` (an empty matcher matches nothing there).
    pub(crate) match_all: Option<&'static str>,
}

/// The unit an agent reads a hook's `timeout` in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TimeoutUnit {
    Seconds,
    /// Gemini CLI.
    Milliseconds,
}

impl TimeoutUnit {
    /// `secs` seconds in this unit.
    pub(crate) fn of(self, secs: u64) -> u64 {
        match self {
            TimeoutUnit::Seconds => secs,
            TimeoutUnit::Milliseconds => secs.saturating_mul(1000),
        }
    }
}

/// How a translated agent's answer blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AnswerForm {
    /// A top-level `decision` (`deny` on tool events, `block` elsewhere) and `reason`, exit 0
    /// (Qwen Code, Gemini CLI).
    Decision,
    /// Claude Code's `hookSpecificOutput.permissionDecision: "deny"` with its reason, exit 0,
    /// on tool events; elsewhere Claude Code's reply as it is (Copilot CLI, where any exit but
    /// 0 blocks).
    ClaudeDenial,
}

impl Translation {
    /// The dialect of the guards it runs: Claude Code's, verboo.
    pub(crate) fn dialect(&self) -> hook_protocol::Dialect {
        hook_protocol::Dialect::Verboo
    }

    /// Its usual name on a command line.
    pub(crate) fn name(&self) -> &'static str {
        self.names.first().copied().unwrap_or("")
    }

    /// Claude Code's event for the agent's `event`.
    pub(crate) fn claude_event(&self, event: &str) -> Option<&'static str> {
        self.events
            .iter()
            .find(|(its, _)| *its == event)
            .map(|(_, claude)| *claude)
    }

    /// The agent's event for Claude Code's `event`.
    pub(crate) fn agent_event(&self, event: &str) -> Option<&'static str> {
        self.events
            .iter()
            .find(|(_, claude)| *claude == event)
            .map(|(its, _)| *its)
    }

    /// The agent's tool for Claude Code's `tool`, if the table names it.
    pub(crate) fn agent_tool(&self, tool: &str) -> Option<&'static str> {
        self.tools
            .iter()
            .find(|(_, claude)| *claude == tool)
            .map(|(its, _)| *its)
    }

    /// Claude Code's tool for the agent's `tool`, if the table names it.
    pub(crate) fn claude_tool(&self, tool: &str) -> Option<&'static str> {
        self.tools
            .iter()
            .find(|(its, _)| *its == tool)
            .map(|(_, claude)| *claude)
    }
}

/// An event of a translated agent, as Claude Code would have sent it.
#[derive(Debug)]
pub(crate) struct Translated {
    /// The event as Claude Code's JSON: what the relay reads and its hooks get.
    pub(crate) bytes: Vec<u8>,
    /// Claude Code's name of the event.
    pub(crate) event: Event,
}

/// How the relay knows which agent called it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Caller {
    /// `--agent qwen|gemini|copilot`: its entry names it, and `--event` is its own event's name.
    Named,
    /// Claude Code's relay (`--dialect verboo`) started with the agent's variable set: an entry
    /// of Claude Code's that the agent runs (Copilot CLI a project's `.claude/settings.json`,
    /// Gemini CLI one `gemini hooks migrate --from-claude` copied). `--event` is Claude Code's
    /// name; an event already in Claude Code's names is read as it is (the variable may have
    /// been inherited by Claude Code itself).
    Detected,
}

/// The agent's event `bytes` as the Claude Code event a guard expects; `installed` is the
/// event the entry was installed for (`--event`: the agent's name, or Claude Code's for a
/// [`Caller::Detected`] agent), which an event without a name is read as.
///
/// # Errors
///
/// When the bytes are not a JSON object, name no event, name another event than `installed`,
/// or an event the table does not translate.
pub(crate) fn translate_event(
    agent: &Translation,
    caller: Caller,
    bytes: &[u8],
    installed: Option<&str>,
) -> Result<Translated> {
    let value: Value = serde_json::from_slice(bytes)
        .with_context(|| format!("the event {} sent is not JSON", agent.title))?;
    let Value::Object(mut object) = value else {
        bail!("the event {} sent is not a JSON object", agent.title);
    };
    // Claude Code's name of an event named `name` (the agent's, or already Claude Code's
    // where the caller was detected).
    let claude_name = |name: &str| -> Result<String> {
        if let Some(claude) = agent.claude_event(name) {
            return Ok(claude.to_owned());
        }
        if caller == Caller::Detected && !matches!(Event::from_name(name), Event::Other(_)) {
            return Ok(name.to_owned());
        }
        bail!(
            "{} event {name} has no Claude Code event the relay's hooks could be on",
            agent.title
        )
    };
    let sent = object
        .get("hook_event_name")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let claude_event = match (sent.as_deref(), installed) {
        (Some(sent), Some(installed)) => {
            let claude = claude_name(sent)?;
            let expected = match caller {
                Caller::Named => claude_name(installed)?,
                Caller::Detected => installed.to_owned(),
            };
            if claude != expected {
                bail!(
                    "{} sent a {sent} event to the relay entry installed for {installed}",
                    agent.title
                );
            }
            claude
        }
        (Some(sent), None) => claude_name(sent)?,
        (None, Some(installed)) => match caller {
            Caller::Named => claude_name(installed)?,
            Caller::Detected => installed.to_owned(),
        },
        (None, None) => bail!("the event {} sent names no event", agent.title),
    };
    object.insert("hook_event_name".to_owned(), claude_event.as_str().into());
    if let Some(tool) = object.get("tool_name").and_then(Value::as_str)
        && let Some(claude_tool) = agent.claude_tool(tool)
    {
        let its_tool = tool.to_owned();
        object.insert("tool_name".to_owned(), claude_tool.into());
        object.insert("agent_tool_name".to_owned(), its_tool.into());
    }
    fill_claude_fields(&mut object);
    Ok(Translated {
        bytes: serde_json::to_vec(&Value::Object(object))
            .context("cannot write the translated event")?,
        event: Event::from_name(&claude_event),
    })
}

/// The fields Claude Code always sends and another agent may not (or sends as `null`):
/// `session_id`, `transcript_path`, and `tool_use_id` on a tool event, given `""`, so that
/// Claude Code's reader takes the event without a warning on every call. Codex's relay reads
/// Codex's events for the Claude Code guards with it too.
pub(crate) fn fill_claude_fields(object: &mut Map<String, Value>) {
    let mut fields = vec!["session_id", "transcript_path"];
    if object.contains_key("tool_name") {
        fields.push("tool_use_id");
    }
    for field in fields {
        let slot = object.entry(field).or_insert(Value::Null);
        if slot.is_null() {
            *slot = "".into();
        }
    }
}

/// `reply` (the answer as Claude Code reads it, for `outcome`) as `agent` reads it: a block is
/// exit 0 with a top-level `decision` and `reason` on stdout (and Claude Code's form beside
/// it); the event's name in `hookSpecificOutput` is the agent's.
pub(crate) fn adapt_reply(agent: &Translation, outcome: &Outcome, reply: AgentReply) -> AgentReply {
    let mut reply = reply;
    let mut object = match reply.stdout.take() {
        Some(Value::Object(object)) => object,
        _ => Map::new(),
    };
    if let Some(Value::Object(specific)) = object.get_mut("hookSpecificOutput")
        && let Some(name) = specific.get("hookEventName").and_then(Value::as_str)
        && let Some(its) = agent.agent_event(name)
    {
        specific.insert("hookEventName".to_owned(), its.into());
    }
    let blocks = outcome.decision == Decision::Block || reply.exit_code == 2;
    if blocks {
        let reason = outcome
            .reason
            .clone()
            .or_else(|| (!reply.stderr.is_empty()).then(|| reply.stderr.join("\n")))
            .unwrap_or_else(|| format!("blocked by hook relay ({} event)", outcome.event));
        // `block` on every event: Qwen Code and Gemini CLI read it as `deny` on a tool call,
        // and Claude Code (should it be taken for one of them) reads it too.
        let tool_event =
            outcome.event.match_target(outcome.dialect) == hook_protocol::MatchTarget::ToolName;
        match agent.answer {
            AnswerForm::Decision => {
                object.insert("decision".to_owned(), "block".into());
                object.insert("reason".to_owned(), reason.into());
            }
            // Claude Code's own denial, which Claude Code reads too: the relay may take Claude
            // Code for Copilot CLI when it inherited `COPILOT_CLI`, and must still block.
            AnswerForm::ClaudeDenial if tool_event => {
                let specific = object
                    .entry("hookSpecificOutput")
                    .or_insert_with(|| Value::Object(Map::new()));
                if let Value::Object(specific) = specific {
                    specific.insert("hookEventName".to_owned(), outcome.event.as_str().into());
                    specific.insert("permissionDecision".to_owned(), "deny".into());
                    specific.insert("permissionDecisionReason".to_owned(), reason.into());
                }
            }
            // Elsewhere any exit but 0 blocks in it: the reply as it is.
            AnswerForm::ClaudeDenial => {
                reply.stdout = (!object.is_empty()).then_some(Value::Object(object));
                return reply;
            }
        }
        reply.exit_code = 0;
    }
    reply.stdout = (!object.is_empty()).then_some(Value::Object(object));
    reply
}

pub(crate) mod settings;

#[cfg(test)]
mod tests;

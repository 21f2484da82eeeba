//! The deliberate differences: each rule where the engine differs from an agent on purpose,
//! and which cases it explains (`DELIBERATE`, a table), with the note on Codex's model-request
//! hooks the report ends with.

use super::Agent;

/// What Codex's model-request hooks are, as measured (written into CONFORMANCE.md).
pub(super) const MODEL_REQUEST_HOOKS: &str = "## Codex's model-request hooks\n\n\
Codex CLI 0.169 and 0.171 run two hook events lime does not model yet, configured like the others \
(`[[hooks.PreModelRequest]]`, `[[hooks.PostModelRequest]]` in `config.toml` or `hooks.json`), \
with no embedded command schema. Measured on 0.171.0 with `codex exec` against a fake and an \
unreachable model server: both fire once per model request *attempt* (a retry fires them again \
with the same `request_id` and a higher `attempt_number`; compaction requests too, `kind` \
`foreground_compaction`), `PreModelRequest` before the request is sent (which waits for it), \
with the input `kind` (`sampling`), `request_id`, `attempt_number`, `session_id`, `thread_id`, \
`turn_id`, `cwd`, `transcript_path`, `model`, `hook_event_name`, and `PostModelRequest` after \
it, failed ones included, adding `status`, `error`, `token_usage` and `response_id`. They \
observe only: stdout is ignored (a block, `continue: false`, `additionalContext` or garbage \
alike), a non-zero exit (2 included) only marks the run `Failed`, and matchers are ignored. \
(The stored Codex source has an older `PostModelResponse` with a richer payload; the binary is \
what is described here.) Nothing they say changes what Codex does, so no guard can be written \
on them and the relay has nothing to block: lime does not model them in this version (a later \
one can, as observe-only events), `cargo xtask conformance drift` lists them as known, and a \
lime file naming them loads them as events the engine does not know (kept, with a warning).\n";

/// The deliberate differences issue 11 keeps, each with the rule that makes it: the rows of
/// `deliberate` use these texts, and the report lists every one, hit by a case or not.
pub(super) const RULE_EVENT_NAME: &str = "lime: a `hookEventName` naming another event fails the run (the published schema), \
     though Codex 0.169 accepts it";

pub(super) const RULE_TWO_BLOCKS: &str = "several PreToolUse blocks: the first in config order gives the reason (Claude Code 2.1: \
     the first to finish, a race)";

pub(super) const RULE_TWO_REWRITES: &str =
    "several rewrites: the last in config order wins (both agents: the last to finish, a race)";

pub(super) const RULE_EXIT_1_JSON: &str = "verboo: JSON is read on exit 0 only; exit 1/3 with JSON is a failed run (Claude Code 2.1 obeys the JSON)";

pub(super) const RULE_TRAILING_JSON: &str = "verboo: truncated or trailing JSON is a failed run with a message (Claude Code treats it as text)";

pub(super) const RULE_PERMISSION: &str =
    "verboo PermissionRequest: deny wins and exit 2 denies (Claude Code races the user prompt)";

pub(super) const RULE_BAD_TIMEOUT: &str = "one bad handler never disables the others: an invalid handler (`timeout: 0`) is skipped \
     and the rest run (Claude Code 2.1.332 drops every hook of that settings file when the invalid handler is on \
     PreToolUse, PermissionRequest or PreSkillShellCommand, and the handler alone elsewhere, as the engine does)";

pub(super) const RULE_TRUSTED_FILES: &str = "trust covers the files a hook runs: a trusted hook whose script changed waits for trust \
     again (Codex 0.169 hashes the config entry only and runs the changed script)";

/// Every deliberate rule, in the order the report lists them.
pub(super) const RULES: [&str; 8] = [
    RULE_EVENT_NAME,
    RULE_TWO_BLOCKS,
    RULE_TWO_REWRITES,
    RULE_EXIT_1_JSON,
    RULE_TRAILING_JSON,
    RULE_PERMISSION,
    RULE_BAD_TIMEOUT,
    RULE_TRUSTED_FILES,
];

/// Deliberate differences, as data: (the agent, `None` for both; the cases; the rule that
/// makes them differ).
const DELIBERATE: &[(Option<Agent>, &[&str], &str)] = &[
    (
        Some(Agent::Codex),
        &["pre-wrong-event-name"],
        RULE_EVENT_NAME,
    ),
    // Both hooks exit 2 at once: Claude Code 2.1 gives the model the reason of the one that
    // finished first (measured both ways); Codex 0.169 the first in config order.
    (Some(Agent::Claude), &["pre-two-blocks"], RULE_TWO_BLOCKS),
    (None, &["pre-two-rewrites"], RULE_TWO_REWRITES),
    (
        Some(Agent::Claude),
        &["pre-exit1-json-allow"],
        RULE_EXIT_1_JSON,
    ),
    (
        Some(Agent::Claude),
        &["pre-invalid-json", "pre-json-trailing-text"],
        RULE_TRAILING_JSON,
    ),
    // Claude Code 2.1 takes the first PermissionRequest hook to answer (it races them and the
    // user's prompt) and ignores exit 2 there (the call goes to the user).
    // `perm-deny-and-allow` agrees when the deny answers first and differs when the allow does
    // (seen both ways on one machine).
    (
        Some(Agent::Claude),
        &[
            "perm-exit2",
            "perm-allow-and-slow-deny",
            "perm-deny-and-allow",
        ],
        RULE_PERMISSION,
    ),
    // Claude Code 2.1 rejects the whole settings file (no hook of it runs) when one handler has
    // `timeout: 0`; a matcher `[` drops only its group there.
    (
        Some(Agent::Claude),
        &["bad-timeout-others-run"],
        RULE_BAD_TIMEOUT,
    ),
];

/// The rule that makes `case` differ on `agent` on purpose, if one does ([`DELIBERATE`]).
pub(super) fn deliberate(agent: Agent, case: &str) -> Option<&'static str> {
    DELIBERATE
        .iter()
        .find(|(only, cases, _)| only.is_none_or(|only| only == agent) && cases.contains(&case))
        .map(|(_, _, rule)| *rule)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_deliberate_case_has_its_rule_on_its_agents_only() {
        // (agent, case, the rule expected)
        let table = [
            (Agent::Codex, "pre-wrong-event-name", Some(RULE_EVENT_NAME)),
            (Agent::Claude, "pre-wrong-event-name", None),
            (Agent::Codex, "pre-two-rewrites", Some(RULE_TWO_REWRITES)),
            (Agent::Claude, "pre-two-rewrites", Some(RULE_TWO_REWRITES)),
            (
                Agent::Claude,
                "pre-json-trailing-text",
                Some(RULE_TRAILING_JSON),
            ),
            (Agent::Claude, "perm-deny-and-allow", Some(RULE_PERMISSION)),
            (Agent::Codex, "perm-deny-and-allow", None),
            (Agent::Claude, "pre-deny-reason", None),
        ];
        for (agent, case, rule) in table {
            assert_eq!(deliberate(agent, case), rule, "{agent:?} {case}");
        }
        // Every rule of the table is one the report lists, and every case is a real case.
        let names: Vec<&str> = super::super::cases::all().iter().map(|c| c.name).collect();
        for (_, cases, rule) in DELIBERATE {
            assert!(RULES.contains(rule), "{rule}");
            for case in *cases {
                assert!(names.contains(case), "{case} is not a case");
            }
        }
    }
}

//! The cases: hooks (what each prints and how it exits) on one event, for both agents.

mod groups;

use groups::{broken_neighbours, claude_code_2_1_332, claude_only};

/// One hook handler of a case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Hook {
    /// The group's matcher (`None`: no matcher key).
    pub(crate) matcher: Option<&'static str>,
    /// What the hook prints on stdout; `{REWRITE}` becomes the rewritten command.
    pub(crate) stdout: &'static str,
    /// What it prints on stderr.
    pub(crate) stderr: &'static str,
    /// Its exit code.
    pub(crate) exit: i32,
    /// Seconds it sleeps before answering.
    pub(crate) sleep: u32,
    /// Its timeout in seconds.
    pub(crate) timeout: u32,
    /// verboo only: the handler's `if`.
    pub(crate) when: Option<&'static str>,
    /// The handler is `async` (runs in the background).
    pub(crate) background: bool,
    /// Shell lines run after the capture and the sleep, before the output; `{FLAG}` becomes the
    /// side's flag file (see `Seen::late`).
    pub(crate) shell: &'static str,
    /// Use the command (the very same script) of the hook at this index instead of its own: the
    /// two handlers differ only in the other fields. What it prints is that hook's, and its stdin
    /// is captured under that hook's index.
    pub(crate) same_as: Option<usize>,
    /// It prints `stdout` (and exits with `exit`) the first time only; later runs (a later
    /// turn of the session) print nothing and exit 0.
    pub(crate) once: bool,
    /// verboo only: the handler's `onFailure`.
    pub(crate) on_failure: Option<&'static str>,
}

/// A hook with the defaults: no matcher, silent, exit 0, 5 s timeout.
pub(crate) const fn hook() -> Hook {
    Hook {
        matcher: None,
        stdout: "",
        stderr: "",
        exit: 0,
        sleep: 0,
        timeout: 5,
        when: None,
        background: false,
        shell: "",
        same_as: None,
        once: false,
        on_failure: None,
    }
}

const fn out(stdout: &'static str) -> Hook {
    Hook { stdout, ..hook() }
}

const fn code(exit: i32, stderr: &'static str) -> Hook {
    Hook {
        exit,
        stderr,
        ..hook()
    }
}

/// Which agents a case applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Only {
    Both,
    Claude,
    Codex,
}

/// How the agent treats permissions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Permissions {
    /// Everything is allowed (Codex `--dangerously-bypass-approvals-and-sandbox`, Claude Code
    /// `--dangerously-skip-permissions`): no permission prompt ever happens.
    Bypass,
    /// The call needs a permission, so `PermissionRequest` hooks fire: Claude Code's default
    /// mode with the stdio prompt tool, Codex `--approve-for-me` with an escalated call (see the
    /// module doc and `run_agent`).
    Prompt,
}

/// What makes the case's event happen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Trigger {
    /// The fake model's tool call (`command`).
    ToolCall,
    /// Claude Code: a project command `.claude/commands/x.md` whose text holds the inline shell
    /// command `` !`command` ``, run as the prompt `/x` (`PreSkillShellCommand`); the fake model
    /// then calls `true` only.
    SkillCommand,
    /// Claude Code stream-json: the SDK control request `set_model` to [`SWITCH_TO`] before
    /// the prompt (`PreModelSwitch`, `PostModelSwitch`); *ran* is then `switched` when a model
    /// request used that model, else `kept`.
    SetModel,
    /// Claude Code stream-json: the SDK control request `register_repo_root` with a folder of
    /// the project before the prompt (`DirectoryAdded`); *ran* is then `refused` when Claude
    /// Code's debug log (`--debug-file`) says a hook's JSON output failed validation, else
    /// `accepted`.
    AddDirectory,
}

/// The model a `SetModel` case switches to.
pub(crate) const SWITCH_TO: &str = "claude-opus-4-6";

/// The default scripted tool command; `{MARKER}` becomes the marker file.
pub(crate) const TOUCH: &str = "touch {MARKER}";

/// One case.
#[derive(Clone, Debug)]
pub(crate) struct Case {
    /// Short name, also the folder name.
    pub(crate) name: &'static str,
    /// The event the hooks are on (agent spelling, same in both).
    pub(crate) event: &'static str,
    /// The hooks, in config order.
    pub(crate) hooks: Vec<Hook>,
    /// Whether to add a silent, matcher-less probe hook last (so a payload is captured even when
    /// no hook under test matched).
    pub(crate) probe: bool,
    /// Claude Code / verboo: the probe sits alone in the project's `.claude/settings.json`, so
    /// it still runs when the agent rejects the user's file.
    pub(crate) probe_apart: bool,
    /// Which agents.
    pub(crate) only: Only,
    /// The tool command the fake model asks for; `{MARKER}` becomes the marker file, which the
    /// command must create.
    pub(crate) command: &'static str,
    /// How the agent treats permissions.
    pub(crate) permissions: Permissions,
    /// Seconds the fake model takes for its final answer (the agent lives that much longer).
    pub(crate) answer_delay: u64,
    /// Codex only: the tool call is `apply_patch` adding the marker file, not a shell command
    /// (`command` is then unused).
    pub(crate) patch: bool,
    /// Codex only: a text of Codex's own that must reach the model (and be the engine's
    /// `reason`), such as its default denial message.
    pub(crate) codex_text: Option<&'static str>,
    /// The agent is run a second time on the same session (Codex `exec resume <session id>`, Claude
    /// Code `--continue`) with a second prompt, and what the model receives on that turn is
    /// compared too: the effects a hook has on a later turn (a blocked prompt's context, a
    /// Stop hook's continuation, `CLAUDE_ENV_FILE`, a `PostToolUse` replacement).
    pub(crate) second_turn: bool,
    /// The tool command the fake model asks for at the start of the second turn (`{MARKER2}`
    /// becomes the second marker file); `None`: it answers with text.
    pub(crate) later_command: Option<&'static str>,
    /// What makes the event happen.
    pub(crate) trigger: Trigger,
    /// Relay runs only (`cargo xtask conformance relay`): the case kills the relay process
    /// while it evaluates the event (its hook kills its parent when that is `hook relay`), so
    /// the agent's own `onFailure` decides; the engine's prediction is then a block.
    pub(crate) relay_killed: bool,
    /// The oldest Claude Code release the case applies to (what it measures is new there); an
    /// older release (`--floor`) skips it.
    pub(crate) since_claude: Option<&'static str>,
    /// Claude Code only: the hooks (through the relay, the relay's entry) sit in the project's
    /// personal `.claude/settings.local.json` instead of the user's settings: Claude Code reads
    /// that file too, and `hook relay install --agent-config` puts a project's personal relay
    /// hooks' entries there.
    pub(crate) personal_settings: bool,
}

fn case(name: &'static str, event: &'static str, hooks: Vec<Hook>) -> Case {
    Case {
        name,
        event,
        hooks,
        probe: false,
        probe_apart: false,
        only: Only::Both,
        command: TOUCH,
        permissions: Permissions::Bypass,
        answer_delay: 0,
        patch: false,
        codex_text: None,
        second_turn: false,
        later_command: None,
        trigger: Trigger::ToolCall,
        relay_killed: false,
        since_claude: None,
        personal_settings: false,
    }
}

/// `case`, run over two turns of one session (see [`Case::second_turn`]).
fn two_turns(case: Case) -> Case {
    Case {
        second_turn: true,
        ..case
    }
}

const DENY_R: &str = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"REASON_TOKEN deny"}}"#;
const ALLOW_R: &str = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"REASON_TOKEN allow"}}"#;

/// Every case, in report order.
pub(crate) fn all() -> Vec<Case> {
    let pre = "PreToolUse";
    let bash = |h: Hook| Hook {
        matcher: Some("Bash"),
        ..h
    };
    let mut cases = vec![
        case("pre-exit0-empty", pre, vec![bash(hook())]),
        case("pre-exit0-empty-object", pre, vec![bash(out("{}"))]),
        case(
            "pre-exit1-stderr",
            pre,
            vec![bash(code(1, "REASON_TOKEN exit1"))],
        ),
        case(
            "pre-exit2-stderr",
            pre,
            vec![bash(code(2, "REASON_TOKEN exit2"))],
        ),
        case("pre-exit2-empty-stderr", pre, vec![bash(code(2, ""))]),
        case(
            "pre-exit3-stderr",
            pre,
            vec![bash(code(3, "REASON_TOKEN exit3"))],
        ),
        case(
            "pre-exit1-json-allow",
            pre,
            vec![bash(Hook {
                exit: 1,
                ..out(ALLOW_R)
            })],
        ),
        case("pre-deny-reason", pre, vec![bash(out(DENY_R))]),
        case(
            "pre-deny-no-reason",
            pre,
            vec![bash(out(
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}"#,
            ))],
        ),
        case("pre-allow-reason", pre, vec![bash(out(ALLOW_R))]),
        case(
            "pre-allow-no-reason",
            pre,
            vec![bash(out(
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#,
            ))],
        ),
        case(
            "pre-ask-reason",
            pre,
            vec![bash(out(
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"REASON_TOKEN ask"}}"#,
            ))],
        ),
        case(
            "pre-ask-no-reason",
            pre,
            vec![bash(out(
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}"#,
            ))],
        ),
        case(
            "pre-defer",
            pre,
            vec![bash(out(
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}"#,
            ))],
        ),
        case(
            "pre-rewrite-allow",
            pre,
            vec![bash(out(
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"{REWRITE}"}}}"#,
            ))],
        ),
        case(
            "pre-rewrite-no-allow",
            pre,
            vec![bash(out(
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"{REWRITE}"}}}"#,
            ))],
        ),
        case(
            "pre-legacy-approve",
            pre,
            vec![bash(out(
                r#"{"decision":"approve","reason":"REASON_TOKEN approve"}"#,
            ))],
        ),
        case(
            "pre-legacy-block",
            pre,
            vec![bash(out(
                r#"{"decision":"block","reason":"REASON_TOKEN block"}"#,
            ))],
        ),
        case(
            "pre-reason-no-decision",
            pre,
            vec![bash(out(r#"{"reason":"REASON_TOKEN reason"}"#))],
        ),
        // Codex's order of checks: a decision in `hookSpecificOutput` is read alone; the legacy
        // `decision`/`reason` beside it are neither checked nor obeyed.
        Case {
            only: Only::Codex,
            ..case(
                "pre-legacy-reason-beside-deny",
                pre,
                vec![bash(out(
                    r#"{"reason":"legacy","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"REASON_TOKEN deny"}}"#,
                ))],
            )
        },
        Case {
            only: Only::Codex,
            ..case(
                "pre-legacy-block-beside-rewrite",
                pre,
                vec![bash(out(
                    r#"{"decision":"block","reason":"REASON_TOKEN legacy","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"{REWRITE}"}}}"#,
                ))],
            )
        },
        Case {
            only: Only::Codex,
            ..case(
                "pre-decision-reason-alone",
                pre,
                vec![bash(out(
                    r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecisionReason":"REASON_TOKEN reason"}}"#,
                ))],
            )
        },
        two_turns(case(
            "pre-continue-false",
            pre,
            vec![bash(out(
                r#"{"continue":false,"stopReason":"REASON_TOKEN stop"}"#,
            ))],
        )),
        case(
            "pre-plain-text",
            pre,
            vec![bash(out("CONTEXT_TOKEN plain text"))],
        ),
        case(
            "pre-invalid-json",
            pre,
            vec![bash(out(r#"{"hookSpecificOutput": "#))],
        ),
        case(
            "pre-json-trailing-text",
            pre,
            vec![bash(out(
                "{\"decision\":\"block\",\"reason\":\"REASON_TOKEN trailing\"} and more",
            ))],
        ),
        case(
            "pre-unknown-fields",
            pre,
            vec![bash(out(
                r#"{"futureField":1,"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"REASON_TOKEN unknown","extra":true}}"#,
            ))],
        ),
        case(
            "pre-wrong-event-name",
            pre,
            vec![bash(out(
                r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","permissionDecision":"deny","permissionDecisionReason":"REASON_TOKEN wrong"}}"#,
            ))],
        ),
        case(
            "pre-timeout",
            pre,
            vec![bash(Hook {
                sleep: 4,
                timeout: 1,
                ..out(DENY_R)
            })],
        ),
        case(
            "pre-deny-and-allow",
            pre,
            vec![bash(out(DENY_R)), bash(out(ALLOW_R))],
        ),
        case(
            "pre-two-blocks",
            pre,
            vec![
                bash(code(2, "REASON_TOKEN first")),
                bash(code(2, "SECOND_TOKEN second")),
            ],
        ),
        case(
            "pre-two-rewrites",
            pre,
            vec![
                bash(out(
                    r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"{REWRITE}-first"}}}"#,
                )),
                bash(Hook {
                    sleep: 1,
                    ..out(
                        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"{REWRITE}"}}}"#,
                    )
                }),
            ],
        ),
        case(
            "pre-context",
            pre,
            vec![bash(out(
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"CONTEXT_TOKEN pre"}}"#,
            ))],
        ),
        case(
            "pre-system-message",
            pre,
            vec![bash(out(r#"{"systemMessage":"CONTEXT_TOKEN system"}"#))],
        ),
    ];
    // Matchers: a blocking hook under each matcher, plus a probe that always runs.
    for (name, m) in [
        ("match-exact", "Bash"),
        ("match-regex", "^Ba.*"),
        ("match-list", "Edit|Bash"),
        ("match-star", "*"),
        ("match-empty", ""),
        ("match-lowercase", "bash"),
        ("match-other-tool", "Write"),
        ("match-invalid-regex", "["),
    ] {
        let mut c = case(
            name,
            pre,
            vec![Hook {
                matcher: Some(m),
                ..code(2, "REASON_TOKEN matched")
            }],
        );
        c.probe = true;
        cases.push(c);
    }
    let post = "PostToolUse";
    cases.extend([
        two_turns(case("post-block", post, vec![out(r#"{"decision":"block","reason":"REASON_TOKEN post"}"#)])),
        case("post-exit2", post, vec![code(2, "REASON_TOKEN post exit2")]),
        case(
            "post-context",
            post,
            vec![out(r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"CONTEXT_TOKEN post"}}"#)],
        ),
        two_turns(case("post-continue-false", post, vec![out(r#"{"continue":false,"stopReason":"REASON_TOKEN stop"}"#)])),
        // `continue: false` is read before the `reason`-needs-`decision` check (Codex: the run
        // is stopped and the model gets the `reason` in place of the tool's output).
        // `continue: false` before the `suppressOutput` refusal (Codex).
        Case {
            only: Only::Codex,
            ..case(
                "post-continue-false-suppress",
                post,
                vec![out(r#"{"continue":false,"suppressOutput":true,"reason":"REASON_TOKEN post"}"#)],
            )
        },
        two_turns(case(
            "post-continue-false-reason",
            post,
            vec![out(r#"{"continue":false,"stopReason":"stop reason","reason":"REASON_TOKEN post"}"#)],
        )),
        case("post-plain-text", post, vec![out("CONTEXT_TOKEN plain")]),
    ]);
    let ups = "UserPromptSubmit";
    cases.extend([
        case("prompt-plain-text", ups, vec![out("CONTEXT_TOKEN plain")]),
        case(
            "prompt-context",
            ups,
            vec![out(r#"{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"CONTEXT_TOKEN prompt"}}"#)],
        ),
        case("prompt-block", ups, vec![out(r#"{"decision":"block","reason":"REASON_TOKEN prompt"}"#)]),
        // Blocks the first prompt only: the second turn shows whether the context of the
        // blocked prompt reaches the model later (Codex: yes; Claude Code: no).
        two_turns(case(
            "prompt-block-with-context",
            ups,
            vec![Hook {
                once: true,
                ..out(r#"{"decision":"block","reason":"REASON_TOKEN prompt","hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"CONTEXT_TOKEN prompt"}}"#)
            }],
        )),
        case("prompt-exit2", ups, vec![code(2, "REASON_TOKEN prompt exit2")]),
        case("prompt-continue-false", ups, vec![out(r#"{"continue":false,"stopReason":"REASON_TOKEN stop"}"#)]),
        // A stopped prompt's context, over two turns (Codex keeps it for the next turn).
        two_turns(case(
            "prompt-continue-false-with-context",
            ups,
            vec![Hook {
                once: true,
                ..out(r#"{"continue":false,"stopReason":"stop","hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"CONTEXT_TOKEN prompt"}}"#)
            }],
        )),
        // Codex reads `continue: false` before the block-needs-a-reason check.
        Case {
            only: Only::Codex,
            ..case(
                "prompt-continue-false-beside-bad-block",
                ups,
                vec![out(r#"{"continue":false,"stopReason":"stop","decision":"block"}"#)],
            )
        },
        case("prompt-matcher-ignored", ups, vec![Hook { matcher: Some("["), ..out("CONTEXT_TOKEN plain") }]),
    ]);
    let start = "SessionStart";
    cases.extend([
        case("start-plain-text", start, vec![out("CONTEXT_TOKEN start")]),
        case(
            "start-context",
            start,
            vec![out(r#"{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"CONTEXT_TOKEN start"}}"#)],
        ),
    ]);
    let stop = "Stop";
    cases.extend([
        two_turns(case("stop-block-once", stop, vec![Hook { stdout: "STOP_ONCE", ..hook() }])),
        case("stop-exit2-once", stop, vec![Hook { stdout: "STOP_ONCE_EXIT2", ..hook() }]),
        case("stop-continue-false", stop, vec![out(r#"{"continue":false,"stopReason":"REASON_TOKEN stop"}"#)]),
        case(
            "stop-context",
            stop,
            vec![out(r#"{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"CONTEXT_TOKEN stop"}}"#)],
        ),
        case("stop-block-loop", stop, vec![out(r#"{"decision":"block","reason":"REASON_TOKEN loop"}"#)]),
        case("stop-two-blocks", stop, vec![Hook { stdout: "STOP_ONCE", ..hook() }, Hook { stdout: "STOP_ONCE_B", ..hook() }]),
    ]);
    let mut dedup = case(
        "dedup-same-command",
        pre,
        vec![
            bash(code(2, "REASON_TOKEN dup")),
            bash(code(2, "REASON_TOKEN dup")),
        ],
    );
    dedup.only = Only::Both;
    cases.push(dedup);
    let mut c = case(
        "verboo-if-match",
        pre,
        vec![Hook {
            when: Some("Bash(touch:*)"),
            ..bash(code(2, "REASON_TOKEN if"))
        }],
    );
    c.only = Only::Claude;
    c.probe = true;
    cases.push(c);
    let mut c = case(
        "verboo-if-no-match",
        pre,
        vec![Hook {
            when: Some("Bash(git push:*)"),
            ..bash(code(2, "REASON_TOKEN if"))
        }],
    );
    c.only = Only::Claude;
    c.probe = true;
    cases.push(c);
    cases.push(case(
        "zero-timeout",
        pre,
        vec![Hook {
            timeout: 0,
            ..bash(code(2, "REASON_TOKEN zero"))
        }],
    ));
    cases.extend(broken_neighbours());
    // lime: `apply_patch` is also matched by `Edit` and `Write` (Codex's aliases); each runs once.
    cases.push(Case {
        only: Only::Codex,
        patch: true,
        ..case(
            "patch-edit-write-aliases",
            pre,
            vec![
                Hook {
                    matcher: Some("Edit"),
                    ..hook()
                },
                Hook {
                    matcher: Some("Write"),
                    ..hook()
                },
                Hook {
                    matcher: Some("Edit|Write"),
                    ..hook()
                },
            ],
        )
    });
    cases.extend(claude_only());
    // A guard beside an async hook: the deny must reach the agent at once (through the relay,
    // the async hook runs in a process of its own), and the async hook still finishes its work
    // (the agent lives five more seconds, so it does in direct mode too).
    cases.push(Case {
        answer_delay: 5,
        ..case(
            "pre-deny-beside-async",
            pre,
            vec![
                bash(out(DENY_R)),
                bash(Hook {
                    background: true,
                    sleep: 3,
                    shell: "date +%s%N > {FLAG}",
                    ..hook()
                }),
            ],
        )
    });
    // The guard in the project's personal settings (through the relay: the relay's entry
    // there, as `hook relay install --agent-config .claude/settings.local.json` writes it).
    cases.push(Case {
        only: Only::Claude,
        personal_settings: true,
        ..case("pre-deny-personal-settings", pre, vec![bash(out(DENY_R))])
    });
    // A model-written command with a lone surrogate escape (`\ud800`, valid JSON text that
    // serde_json will not read into a string): the guard's deny must still reach the agent.
    cases.push(Case {
        command: "touch {MARKER} # {LONE_SURROGATE}",
        ..case("pre-deny-lone-surrogate", pre, vec![bash(out(DENY_R))])
    });
    // An async hook that needs a second; the agent lives three more seconds (both agents kill
    // their async hooks when they exit: with no delay neither finishes).
    cases.push(Case {
        answer_delay: 3,
        ..case(
            "async-runs",
            post,
            vec![Hook {
                background: true,
                sleep: 1,
                shell: "touch {FLAG}",
                ..hook()
            }],
        )
    });
    cases.extend(claude_code_2_1_332());
    cases
}

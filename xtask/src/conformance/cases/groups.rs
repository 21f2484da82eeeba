//! The groups of cases [`all`](super::all) appends after its main table, each on one theme:
//! Claude Code 2.1.332's new surfaces, a broken handler beside a good one, and the cases of
//! Claude Code's own events and settings (`PermissionRequest`, `CLAUDE_ENV_FILE`, `if` dedup).

use super::{ALLOW_R, Case, Hook, Only, Permissions, Trigger, case, code, hook, out};

/// Claude Code 2.1.332's new surfaces: a skill's inline shell command guarded by
/// `PreSkillShellCommand`, and `onFailure` on a failing guard (and on the relay's own entry,
/// with the relay killed mid-event).
pub(super) fn claude_code_2_1_332() -> Vec<Case> {
    let skill = "PreSkillShellCommand";
    let deny = r#"{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"deny","permissionDecisionReason":"REASON_TOKEN no"}}"#;
    let ask = r#"{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"ask"}}"#;
    let on_skill = |name, hooks| Case {
        trigger: Trigger::SkillCommand,
        only: Only::Claude,
        ..case(name, skill, hooks)
    };
    let failing = |on_failure| Hook {
        matcher: Some("Bash"),
        on_failure,
        ..code(1, "broken guard")
    };
    let control = |name, event, trigger, hooks| Case {
        trigger,
        only: Only::Claude,
        ..case(name, event, hooks)
    };
    let switch_deny = r#"{"hookSpecificOutput":{"hookEventName":"PreModelSwitch","permissionDecision":"deny","permissionDecisionReason":"keep the model"}}"#;
    let switch_context = r#"{"hookSpecificOutput":{"hookEventName":"PostModelSwitch","additionalContext":"CONTEXT_TOKEN switched"}}"#;
    let added_specific = r#"{"systemMessage":"added","hookSpecificOutput":{"hookEventName":"DirectoryAdded","additionalContext":"x"}}"#;
    let mut cases = vec![
        control(
            "switch-silent",
            "PreModelSwitch",
            Trigger::SetModel,
            vec![hook()],
        ),
        control(
            "switch-deny",
            "PreModelSwitch",
            Trigger::SetModel,
            vec![out(switch_deny)],
        ),
        control(
            "switch-exit2",
            "PreModelSwitch",
            Trigger::SetModel,
            vec![code(2, "keep it")],
        ),
        control(
            "switched-context",
            "PostModelSwitch",
            Trigger::SetModel,
            vec![out(switch_context)],
        ),
        control(
            "dir-added-message",
            "DirectoryAdded",
            Trigger::AddDirectory,
            vec![out(r#"{"systemMessage":"added"}"#)],
        ),
        control(
            "dir-added-specific",
            "DirectoryAdded",
            Trigger::AddDirectory,
            vec![out(added_specific)],
        ),
        on_skill("skill-silent", vec![hook()]),
        on_skill("skill-deny", vec![out(deny)]),
        on_skill("skill-ask", vec![out(ask)]),
        on_skill("skill-exit2", vec![code(2, "REASON_TOKEN no")]),
        Case {
            only: Only::Claude,
            ..case(
                "pre-on-failure-block",
                "PreToolUse",
                vec![failing(Some("block"))],
            )
        },
        Case {
            only: Only::Claude,
            ..case(
                "pre-on-failure-continue",
                "PreToolUse",
                vec![failing(Some("continue"))],
            )
        },
    ];
    cases.push(Case {
        only: Only::Claude,
        relay_killed: true,
        ..case(
            "relay-killed",
            "PreToolUse",
            vec![Hook {
                matcher: Some("Bash"),
                // Kills the nearest ancestor that is `hook relay` (never `hook run`).
                shell: "p=$PPID; for _ in 1 2 3; do if tr '\\0' ' ' < /proc/$p/cmdline 2>/dev/null | grep -q ' relay --dialect'; then kill -9 $p; break; fi; p=$(cut -d' ' -f4 /proc/$p/stat); done",
                ..hook()
            }],
        )
    });
    for c in &mut cases {
        c.since_claude = Some("2.1.332");
    }
    cases
}

/// One broken handler next to a good one: the good one still decides.
pub(super) fn broken_neighbours() -> Vec<Case> {
    let pre = "PreToolUse";
    vec![
        case(
            "bad-matcher-others-run",
            pre,
            vec![
                Hook {
                    matcher: Some("["),
                    ..code(2, "SECOND_TOKEN bad matcher")
                },
                Hook {
                    matcher: Some("Bash"),
                    ..code(2, "REASON_TOKEN good hook")
                },
            ],
        ),
        // Claude Code rejects the whole user file here, so the probe sits in the project file.
        Case {
            probe: true,
            probe_apart: true,
            ..case(
                "bad-timeout-others-run",
                pre,
                vec![
                    Hook {
                        matcher: Some("Bash"),
                        timeout: 0,
                        ..code(2, "SECOND_TOKEN zero timeout")
                    },
                    Hook {
                        matcher: Some("Bash"),
                        ..code(2, "REASON_TOKEN good hook")
                    },
                ],
            )
        },
        // Claude Code 2.1.332 drops an invalid handler alone on an event that is not a guard
        // (PreToolUse, PermissionRequest and PreSkillShellCommand still lose the whole file).
        Case {
            probe: true,
            probe_apart: true,
            only: Only::Claude,
            since_claude: Some("2.1.332"),
            ..case(
                "bad-timeout-prompt-others-run",
                "UserPromptSubmit",
                vec![
                    Hook {
                        timeout: 0,
                        ..code(2, "SECOND_TOKEN zero timeout")
                    },
                    code(2, "REASON_TOKEN good hook"),
                ],
            )
        },
    ]
}

const PERM_ALLOW: &str = r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}"#;
const PERM_DENY_R: &str = r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"REASON_TOKEN perm deny"}}}"#;

/// `if`-sensitive dedup and `CLAUDE_ENV_FILE` (verboo only); `PermissionRequest`, and
/// PreToolUse on a call that needs an approval (both agents, with a permission question: see
/// `Permissions::Prompt`).
pub(super) fn claude_only() -> Vec<Case> {
    let bash = |h: Hook| Hook {
        matcher: Some("Bash"),
        ..h
    };
    let perm = "PermissionRequest";
    let mut cases = vec![
        // The same command twice, told apart only by `if`: the second matches the call.
        case(
            "dedup-differs-in-if",
            "PreToolUse",
            vec![
                Hook {
                    when: Some("Bash(git push:*)"),
                    ..bash(code(2, "REASON_TOKEN dedup if"))
                },
                Hook {
                    when: Some("Bash(touch *)"),
                    same_as: Some(0),
                    ..bash(code(2, "REASON_TOKEN dedup if"))
                },
            ],
        ),
        // A SessionStart hook exports a variable through `CLAUDE_ENV_FILE`; the later Bash
        // command writes what it sees into the marker.
        Case {
            command: r#"printf '%s' "$CONF_ENV" > {MARKER}"#,
            second_turn: true,
            later_command: Some(r#"printf '%s' "$CONF_ENV" > {MARKER2}"#),
            ..case(
                "env-file",
                "SessionStart",
                vec![Hook {
                    shell: r#"echo 'export CONF_ENV=ENVTOKEN' >> "$CLAUDE_ENV_FILE""#,
                    ..hook()
                }],
            )
        },
        case("perm-no-decision", perm, vec![bash(hook())]),
        case("perm-allow", perm, vec![bash(out(PERM_ALLOW))]),
        case("perm-deny-message", perm, vec![bash(out(PERM_DENY_R))]),
        // Codex tells the model "PermissionRequest hook denied approval" (Claude Code: "Permission
        // denied by PermissionRequest hook", its own text, not checked).
        Case {
            codex_text: Some("PermissionRequest hook denied approval"),
            ..case(
                "perm-deny-no-message",
                perm,
                vec![bash(out(
                    r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny"}}}"#,
                ))],
            )
        },
        case(
            "perm-exit2",
            perm,
            vec![bash(code(2, "REASON_TOKEN perm exit2"))],
        ),
        case(
            "perm-deny-and-allow",
            perm,
            vec![bash(out(PERM_DENY_R)), bash(out(PERM_ALLOW))],
        ),
        // The allow answers at once, the deny a second later.
        case(
            "perm-allow-and-slow-deny",
            perm,
            vec![
                bash(out(PERM_ALLOW)),
                bash(Hook {
                    sleep: 1,
                    ..out(PERM_DENY_R)
                }),
            ],
        ),
    ];
    for c in &mut cases {
        c.only = Only::Claude;
        if c.event == perm {
            c.only = Only::Both;
            c.permissions = Permissions::Prompt;
            // Claude Code refuses a `touch` outside its working directories before asking;
            // through `sh -c` the call needs (and gets) a permission question.
            c.command = "sh -c 'touch {MARKER}'";
        }
    }
    // PreToolUse where the call needs an approval: does an allow skip it? (With every call
    // allowed, an allow and no decision look the same.)
    for (name, stdout) in [
        ("approval-pre-silent", ""),
        (
            "approval-pre-allow",
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#,
        ),
        ("approval-pre-allow-reason", ALLOW_R),
        (
            "approval-pre-rewrite-allow",
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"sh -c '{REWRITE}'"}}}"#,
        ),
    ] {
        cases.push(Case {
            permissions: Permissions::Prompt,
            command: "sh -c 'touch {MARKER}'",
            ..case(name, "PreToolUse", vec![bash(out(stdout))])
        });
    }
    cases
}

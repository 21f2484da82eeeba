//! Every built-in guard's case table, in both agents' event shapes: each verdict as expected,
//! each answer written in the agent's dialect, read back as the engine reads it, and valid
//! against the dialect's schema; and each table large enough to mean something.

use hook_guards::{BUILTINS, Expect, Guard, Settings, Shape};
use hook_sdk::{Decision, testing};

/// The least a table holds of each kind (issue 46: 40 calls to block, 40 to allow).
const LEAST: usize = 40;

#[test]
fn every_case_of_every_guard_passes_in_both_shapes() {
    let mut failures = Vec::new();
    for guard in BUILTINS {
        for case in guard.cases() {
            for shape in Shape::ALL {
                let result = case.run(guard, shape);
                if !result.passed {
                    failures.push(format!(
                        "{} / {}: `{}` ({}): expected {:?}, got {:?}",
                        guard.name,
                        shape.title(),
                        case.describe(),
                        case.form,
                        case.expect,
                        result.got
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failing:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_answer_is_the_agents_own_block_or_nothing() {
    for guard in BUILTINS {
        for case in guard.cases() {
            let settings = Settings::parse(guard, case.settings).expect("the case's options");
            let handler = Guard::new(guard, settings, Some("/home/dev".into()));
            for shape in Shape::ALL {
                let run = testing::run_json(handler.clone(), shape.dialect(), case.event(shape));
                run.validate().unwrap_or_else(|error| {
                    panic!("{} `{}`: {error}", guard.name, case.describe())
                });
                let expected = match case.expect {
                    Expect::Block => Decision::Block,
                    _ if case.settings.contains(&"block-unreadable=true") => Decision::Block,
                    _ => Decision::Continue,
                };
                if case.expect == Expect::Unreadable {
                    // Let through, but said: the user sees the guard could not read it.
                    let message = run.stdout_json().unwrap_or_default()["systemMessage"].clone();
                    assert!(
                        message.as_str().is_some_and(|m| m.contains(guard.name)),
                        "{} / {}: `{}` unreadable but not said: {message}",
                        guard.name,
                        shape.title(),
                        case.describe()
                    );
                }
                assert_eq!(
                    run.decision(),
                    expected,
                    "{} / {}: `{}`: {}",
                    guard.name,
                    shape.title(),
                    case.describe(),
                    run.stdout_json().unwrap_or_default()
                );
            }
        }
    }
}

#[test]
fn every_table_has_enough_cases_of_each_kind() {
    for guard in BUILTINS {
        let count = |expect| guard.cases().iter().filter(|c| c.expect == expect).count();
        assert!(
            count(Expect::Block) >= LEAST && count(Expect::Allow) >= LEAST,
            "{}: {} to block, {} to allow: at least {LEAST} of each",
            guard.name,
            count(Expect::Block),
            count(Expect::Allow)
        );
    }
}

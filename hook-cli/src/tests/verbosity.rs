//! `--quiet` drops notes and keeps results; `--verbose` gives an error's causes a line each.

use super::hook;
use crate::ops::scene::verboo_guard;

#[test]
fn quiet_drops_the_notes_and_keeps_the_result() {
    let scene = verboo_guard();
    let (home, project) = (scene.path("home/.claude"), scene.project());
    let (home, project) = (home.to_str().unwrap(), project.to_str().unwrap());
    let trust = [
        "trust",
        "--dialect",
        "verboo",
        "--all",
        "--home",
        home,
        "--project",
        project,
    ];
    let normal = hook(&trust, "");
    assert_eq!(normal.code, 0, "{normal:?}");
    assert!(normal.stdout.contains("\nstore: "), "{}", normal.stdout);
    let untrust = [
        "untrust",
        "--dialect",
        "verboo",
        "--all",
        "--home",
        home,
        "--project",
        project,
    ];
    let quiet = hook(&[&untrust[..], &["--quiet"]].concat(), "");
    assert_eq!(quiet.code, 0, "{quiet:?}");
    assert!(
        quiet.stdout.starts_with("untrusted project:"),
        "{}",
        quiet.stdout
    );
    assert!(!quiet.stdout.contains("store: "), "{}", quiet.stdout);
    assert_eq!(quiet.stdout.lines().count(), 1, "{}", quiet.stdout);
}

#[test]
fn verbose_gives_each_cause_a_line() {
    let validate = [
        "validate",
        "--dialect",
        "lime",
        "--event",
        "Stop",
        "/no/such/output.json",
    ];
    let normal = hook(&validate, "");
    assert_eq!(normal.code, 1);
    assert_eq!(
        normal.stderr,
        "error: cannot read /no/such/output.json: No such file or directory (os error 2)\n"
    );
    let verbose = hook(&[&validate[..], &["-v"]].concat(), "");
    assert_eq!(verbose.code, 1);
    assert_eq!(
        verbose.stderr,
        "error: cannot read /no/such/output.json\n  caused by: No such file or directory (os error 2)\n"
    );
    let both = hook(&[&validate[..], &["-v", "-q"]].concat(), "");
    assert_eq!(both.code, 2, "--quiet and --verbose conflict: {both:?}");
}

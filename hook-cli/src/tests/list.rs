//! `hook list` with a broken configuration: diagnostics with file:line:col on stderr, the other
//! files still listed, and `--strict` to make any diagnostic fail (in-process).

#[test]
fn diagnostics_are_printed_and_strict_makes_them_fail() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let project = dir.path().join("project");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(project.join(".claude")).unwrap();
    std::fs::write(
        home.join("settings.json"),
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./ok.sh"}]}]}}"#,
    )
    .unwrap();
    // A broken project file: its hooks are not loaded, the user's still are.
    let broken = project.join(".claude/settings.json");
    std::fs::write(
        &broken,
        "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"bogus\"}]}]}}",
    )
    .unwrap();
    // An unknown event in the local file: a warning, and it loads.
    let local = project.join(".claude/settings.local.json");
    std::fs::write(
        &local,
        r#"{"hooks": {"FutureEvent": [{"hooks": [{"type": "command", "command": "./f.sh"}]}]}}"#,
    )
    .unwrap();

    let run = |extra: &[&str]| {
        let mut args = vec![
            "list",
            "--dialect",
            "verboo",
            "--json",
            "--home",
            home.to_str().unwrap(),
            "--project",
            project.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        super::output(&args, "")
    };
    let out = run(&[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let broken_line = stderr
        .lines()
        .find(|l| l.starts_with("error: "))
        .unwrap_or_default();
    assert!(
        broken_line.starts_with(&format!("error: {}:1:", broken.display())),
        "{stderr}"
    );
    assert!(broken_line.contains("bogus"), "{stderr}");
    let warning = stderr
        .lines()
        .find(|l| l.starts_with("warning: "))
        .unwrap_or_default();
    assert!(
        warning.starts_with(&format!("warning: {}:1:", local.display())),
        "{stderr}"
    );
    assert!(warning.contains("FutureEvent"), "{stderr}");
    // An error in one file is reported; the other files are listed.
    assert_eq!(out.status.code(), Some(0));
    let handlers: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let events: Vec<&str> = handlers
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["event"].as_str().unwrap())
        .collect();
    assert_eq!(events, ["FutureEvent", "Stop"]);

    // --strict fails on any diagnostic, even a warning alone.
    assert_eq!(run(&["--strict"]).status.code(), Some(1));
    std::fs::remove_file(&broken).unwrap();
    assert_eq!(run(&["--strict"]).status.code(), Some(1));
    std::fs::remove_file(&local).unwrap();
    assert_eq!(run(&["--strict"]).status.code(), Some(0));
}

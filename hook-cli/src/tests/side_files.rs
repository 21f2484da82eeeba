//! `hook run` writes lime side files (context over `additionalContextLimit`) to the private
//! folder `<home>/hook-context` (0700, files 0600), never to a shared `/tmp` folder (in-process).

use hook_test_support::Output;
use hook_test_support::Scene;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// `hook COMMAND --dialect lime --home HOME --project PROJECT ARGS`, in this process.
fn hook(command: &str, home: &Path, project: &Path, args: &[&str]) -> Output {
    let (home, project) = (home.to_str().unwrap(), project.to_str().unwrap());
    let mut all = vec![
        command,
        "--dialect",
        "lime",
        "--home",
        home,
        "--project",
        project,
    ];
    all.extend_from_slice(args);
    super::output(&all, "")
}

fn mode(path: &Path) -> u32 {
    std::fs::symlink_metadata(path)
        .unwrap()
        .permissions()
        .mode()
        & 0o777
}

#[test]
fn hook_run_keeps_lime_side_files_in_a_private_folder_of_the_home() {
    let scene = Scene::new();
    let (home, project) = (scene.home(), scene.project());
    std::fs::write(
        home.join("config.toml"),
        r#"
[[hooks.SessionStart]]
[[hooks.SessionStart.hooks]]
type = "command"
command = "head -c 300 /dev/zero | tr '\\0' 'x'"
additionalContextLimit = 100
"#,
    )
    .unwrap();
    let trusted = hook("trust", &home, &project, &["--all"]);
    assert_eq!(trusted.status.code(), Some(0), "{trusted:?}");
    let event = scene.root().join("event.json");
    std::fs::write(
        &event,
        r#"{"session_id":"s","transcript_path":null,"model":"m","turn_id":"t","source":"startup"}"#,
    )
    .unwrap();

    let out = hook(
        "run",
        &home,
        &project,
        &[
            "--event",
            "SessionStart",
            "--input",
            event.to_str().unwrap(),
        ],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let outcome: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let context = outcome["additional_context"].as_str().unwrap();

    let side = home.join("hook-context");
    assert_eq!(mode(&side), 0o700);
    let files: Vec<_> = std::fs::read_dir(&side)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    assert_eq!(mode(&files[0]), 0o600);
    assert_eq!(std::fs::read_to_string(&files[0]).unwrap(), "x".repeat(300));
    assert!(
        context.contains(&format!("the whole text is in {}", files[0].display())),
        "{context}"
    );
}

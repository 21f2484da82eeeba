//! `hook trust` of a native hook whose library cannot be read as a library (a device, a FIFO,
//! a file over the cap): a clear error naming the file, nothing trusted, no hang.
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

use std::process::Command;

#[test]
fn a_native_library_that_cannot_be_hashed_is_never_trusted() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo.so");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let huge = dir.path().join("huge.so");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(hook_exec::native::LIBRARY_SIZE_CAP + 1)
        .unwrap();
    let cases = [
        (
            "/dev/zero".into(),
            "not a regular file but a character device",
        ),
        (fifo, "not a regular file but a FIFO"),
        (huge, "larger than the 256 MiB cap"),
    ];
    for (library, says) in cases {
        let home = dir.path().join("home");
        let project = dir.path().join("project");
        std::fs::create_dir_all(project.join(".claude")).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        let settings = serde_json::json!({"hooks": {"Stop": [{"hooks": [
            {"type": "native", "library": library}
        ]}]}});
        std::fs::write(project.join(".claude/settings.json"), settings.to_string()).unwrap();
        let output = Command::new(env!("CARGO_BIN_EXE_hook"))
            .args(["trust", "--dialect", "verboo", "--all", "--home"])
            .arg(&home)
            .arg("--project")
            .arg(&project)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{library:?}: {stderr}");
        assert!(stderr.contains(says), "{library:?}: {stderr}");
        assert!(stderr.contains("nothing was trusted"), "{stderr}");
        assert!(!home.join("hook-trust.json").exists(), "{library:?}");
    }
}

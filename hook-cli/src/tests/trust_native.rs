//! `hook trust` of a native hook whose library cannot be read as a library (a device, a FIFO,
//! a file over the cap): a clear error naming the file, nothing trusted (in-process).

use super::{located, output, text, words};

#[test]
fn a_native_library_that_cannot_be_hashed_is_never_trusted() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo.so");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    // Sparse: nothing is written to the disk.
    let huge = tempfile::NamedTempFile::new_in(dir.path()).unwrap();
    huge.as_file()
        .set_len(hook_exec::native::LIBRARY_SIZE_CAP + 1)
        .unwrap();
    let huge = huge.into_temp_path().keep().unwrap();
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
        let mut trust = located("trust", "verboo", &home, &project);
        trust.push("--all".to_owned());
        let out = output(&words(&trust), "");
        let stderr = text(&out.stderr);
        assert!(!out.status.success(), "{library:?}: {stderr}");
        assert!(stderr.contains(says), "{library:?}: {stderr}");
        assert!(stderr.contains("nothing was trusted"), "{stderr}");
        assert!(!home.join("hook-trust.json").exists(), "{library:?}");
    }
}

//! `hook new` (in-process): one dialect only, and READMEs whose every config snippet is a file
//! `hook validate --config` accepts where the heading puts it. The scaffold built and tested
//! with cargo is in `tests/it/new.rs`.

use super::{output, text};

#[test]
fn one_dialect_only() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lime-hook").display().to_string();
    let out = output(
        &["new", "lime-hook", "--dialect", "lime", "--path", &path],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let readme = std::fs::read_to_string(dir.path().join("lime-hook/README.md")).unwrap();
    assert!(
        readme.contains("### lime") && !readme.contains("### wuu"),
        "{readme}"
    );
    // A Codex user is led to the relay's file and `hook relay install`, not to `~/.lime`.
    assert!(
        readme.contains("### lime (Codex: the relay's file, `~/.codex/hook-relay/config.toml`")
            && readme.contains("`hook relay install --dialect lime`"),
        "{readme}"
    );
    let main = std::fs::read_to_string(dir.path().join("lime-hook/src/main.rs")).unwrap();
    // (Two literals: tidy reads the variant's path in this crate's code as a branch on it.)
    assert!(
        main.contains(concat!(
            "const DIALECTS: &[Dialect] = &[Dialect",
            "::Lime];"
        )),
        "{main}"
    );
}

/// Every config snippet of the scaffolds' READMEs, written to each project file its heading
/// names, is a file `hook validate --config` accepts there: no README leads a user to put a
/// handler in an agent's own settings that the agent would ignore the whole file for.
#[test]
fn no_scaffold_readme_leads_to_a_file_the_agent_rejects() {
    let dir = tempfile::tempdir().unwrap();
    for native in [false, true] {
        let name = if native { "guard-native" } else { "guard" };
        let path = dir.path().join(name).display().to_string();
        let mut args = vec!["new", name, "--path", &path];
        if native {
            args.push("--native");
        }
        let out = output(&args, "");
        assert!(out.status.success(), "{}", text(&out.stderr));
        let readme = std::fs::read_to_string(dir.path().join(name).join("README.md")).unwrap();
        let mut checked = 0;
        for section in readme.split("\n### ").skip(1) {
            let dialect = section.split_whitespace().next().unwrap();
            let heading = section.lines().next().unwrap();
            let snippet = section
                .split("```")
                .nth(1)
                .and_then(|block| block.split_once('\n'))
                .map(|(_, body)| body)
                .unwrap();
            // The project-relative files the heading names (`.claude/...`, `.codex/...`).
            for file in heading.split('`').skip(1).step_by(2) {
                if !file.starts_with('.') {
                    continue;
                }
                let project = dir.path().join(format!("project-{name}-{checked}"));
                let path = project.join(file);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, snippet).unwrap();
                let path = path.display().to_string();
                let out = output(&["validate", "--dialect", dialect, "--config", &path], "");
                assert!(
                    out.status.success(),
                    "{name} README, {file}:\n{snippet}\n{}",
                    text(&out.stderr)
                );
                checked += 1;
            }
        }
        assert!(
            checked >= 3,
            "{name}: only {checked} files checked\n{readme}"
        );
    }
    // And the check has teeth: a native handler in Claude Code's own settings is refused.
    let settings = dir.path().join("p/.claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(
        &settings,
        r#"{"permissions": {"deny": ["Bash(rm:*)"]},
  "hooks": {"PreToolUse": [{"hooks": [{"type": "native", "library": "/x.so"}]}]}}"#,
    )
    .unwrap();
    let settings = settings.display().to_string();
    let out = output(
        &["validate", "--dialect", "verboo", "--config", &settings],
        "",
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("settings.json:2:"), "{stderr}");
    assert!(
        stderr.contains("ignore or refuse this whole file"),
        "{stderr}"
    );
}

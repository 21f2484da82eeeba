//! Unit tests of `protected-paths`: the calls the case table cannot express (MultiEdit,
//! NotebookEdit, patches that delete and move), its reasons, and its bounds.

use std::path::Path;

use hook_sdk::{TextEdit, Tool};

use super::GUARD;
use crate::table::HOME;
use crate::testing::{self, reason};
use crate::{Call, Settings, Verdict};

fn verdict(tool: &Tool, settings: &[&str]) -> Verdict {
    testing::verdict(&GUARD, tool, settings)
}

fn bash(command: &str) -> Verdict {
    verdict(&testing::bash(command), &[])
}

#[test]
fn every_tool_that_writes_is_read() {
    let multi = Tool::MultiEdit {
        file_path: "/home/dev/project/Cargo.lock".to_owned(),
        edits: vec![TextEdit::new("a", "b")],
    };
    assert!(reason(verdict(&multi, &[])).contains("cargo update"));
    let notebook = Tool::NotebookEdit {
        notebook_path: "notebooks/analysis.ipynb".to_owned(),
        new_source: Some("print(1)".to_owned()),
        cell_id: None,
        edit_mode: None,
    };
    assert_eq!(verdict(&notebook, &[]), Verdict::Allow);
    assert!(matches!(
        verdict(&notebook, &["paths=notebooks/"]),
        Verdict::Block { .. }
    ));
    let read = Tool::Read {
        file_path: ".git/config".to_owned(),
    };
    assert_eq!(verdict(&read, &[]), Verdict::Allow);
}

#[test]
fn a_patch_that_deletes_or_moves_a_protected_file_is_blocked() {
    for patch in [
        "*** Begin Patch\n*** Delete File: yarn.lock\n*** End Patch\n",
        "*** Begin Patch\n*** Update File: ci.yml\n*** Move to: .github/workflows/ci.yml\n@@\n-a\n+b\n*** End Patch\n",
        "*** Begin Patch\n*** Update File: src/lib.rs\n@@\n-a\n+b\n*** Add File: .git/hooks/post-checkout\n+exit 0\n*** End Patch\n",
    ] {
        let tool =
            Tool::parse("apply_patch", &serde_json::json!({ "command": patch })).expect("a patch");
        assert!(
            matches!(verdict(&tool, &[]), Verdict::Block { .. }),
            "{patch}"
        );
    }
}

#[test]
fn reasons_say_what_was_written_and_what_to_do_instead() {
    let git = reason(bash("echo x >> .git/config"));
    assert!(
        git.starts_with("a `>>` redirection writes `.git/config`"),
        "{git}"
    );
    assert!(git.contains("git config"), "{git}");
    let lock = reason(bash("sed -i s/a/b/ web/package-lock.json"));
    assert!(
        lock.contains("the lockfile `web/package-lock.json`"),
        "{lock}"
    );
    assert!(lock.contains("`npm install`"), "{lock}");
    let ci = reason(bash("rm -rf .github"));
    assert!(
        ci.contains("`rm` deletes `.github`, which holds CI files"),
        "{ci}"
    );
    let user = reason(verdict(
        &Tool::Write {
            file_path: "config/prod.yml".to_owned(),
            content: String::new(),
        },
        &["paths=config/"],
    ));
    assert!(
        user.contains("which the user protected (`config/`)"),
        "{user}"
    );
    let outside = reason(bash("rm -f /home/dev/other/.git/index.lock"));
    assert!(
        outside.contains("`/home/dev/other/.git/index.lock`"),
        "{outside}"
    );
    let tail = reason(bash("cp hook \"$ROOT\"/.git/hooks/pre-commit"));
    assert!(tail.contains("`…/.git/hooks/pre-commit`"), "{tail}");
}

#[test]
fn folders_a_command_goes_to_are_followed() {
    assert!(matches!(
        bash("cd web && sed -i s/a/b/ yarn.lock"),
        Verdict::Block { .. }
    ));
    assert!(matches!(
        bash("cd .git && rm -f config"),
        Verdict::Block { .. }
    ));
    assert!(matches!(
        bash("cd ~/project/.github && touch workflows/x.yml"),
        Verdict::Block { .. }
    ));
    assert_eq!(bash("cd src && rm -f config"), Verdict::Allow);
    // Each command's paths are read in its own folder; a redirection of a command that runs
    // no program, in every folder the line goes to.
    assert_eq!(bash("echo > config; cd .git"), Verdict::Allow);
    assert_eq!(bash("cd /tmp/x && echo > .git/config"), Verdict::Allow);
    assert!(matches!(bash("cd .git && > config"), Verdict::Block { .. }));
    // A `cd` to a folder known only at run time is passed over.
    assert!(matches!(
        bash("cd .git && cd \"$X\" && rm -f config"),
        Verdict::Block { .. }
    ));
    let nested = reason(bash("git -C sub -C .git rm config"));
    assert!(nested.contains("`sub/.git/config`"), "{nested}");
}

#[test]
fn here_documents_are_text_unless_a_shell_reads_them() {
    for command in [
        "cat <<'EOF' | sh\necho x > .git/config\nEOF",
        "bash <<EOF\nrm -f Cargo.lock\nEOF",
        "echo \"$(rm -f Cargo.lock)\"",
        "cat > notes.md <<EOF\n$(rm -f .git/index.lock)\nEOF",
    ] {
        assert!(matches!(bash(command), Verdict::Block { .. }), "{command}");
    }
    assert_eq!(
        bash("cat > notes.md <<'EOF'\necho x > .git/config && rm -f Cargo.lock\nEOF"),
        Verdict::Allow
    );
}

#[test]
fn paths_after_an_expansion_are_matched_at_any_depth() {
    assert!(matches!(
        bash("echo x > \"$ROOT/.git/config\""),
        Verdict::Block { .. }
    ));
    assert!(matches!(
        bash("rm -f ${DIR}/Cargo.lock"),
        Verdict::Block { .. }
    ));
    assert!(matches!(
        bash("echo x > $D/.git/$NAME"),
        Verdict::Block { .. }
    ));
    assert!(matches!(bash("rm -rf $X/../.git"), Verdict::Block { .. }));
    assert!(matches!(bash("rm -f Cargo.loc[k]"), Verdict::Block { .. }));
    assert_eq!(bash("echo x > \"$OUT\""), Verdict::Allow);
    assert_eq!(bash("echo x > $TMP/../log"), Verdict::Allow);
    // A user path relative to the project is not matched against an unknown folder.
    assert_eq!(
        verdict(
            &testing::bash("echo x > $DIR/config/prod.yml"),
            &["paths=config/prod.yml"]
        ),
        Verdict::Allow
    );
}

#[test]
fn user_entries_read_as_documented() {
    let write = |path: &str| Tool::Write {
        file_path: path.to_owned(),
        content: String::new(),
    };
    let blocks = |path: &str, entry: &str| {
        matches!(
            verdict(&write(path), &[&format!("paths={entry}")]),
            Verdict::Block { .. }
        )
    };
    assert!(blocks("schema.sql", "schema.sql"));
    assert!(blocks("db/schema.sql", "schema.sql"));
    assert!(!blocks("/home/dev/other/schema.sql", "schema.sql"));
    assert!(blocks("/home/dev/other/schema.sql", "**/schema.sql"));
    assert!(!blocks("db/schema.sql", "./schema.sql"));
    assert!(blocks("config/a/b.yml", "config"));
    assert!(blocks("config/a/b.yml", "config/**/*.yml"));
    assert!(!blocks("config/a/b.json", "config/**/*.yml"));
    assert!(blocks("/home/dev/.bashrc", "~/.bashrc"));
    assert!(blocks("/home/dev/project/x", "$HOME/project/"));
    assert!(!blocks("x", "$DIR/x"));
    assert!(!blocks("x", "~other/x"));
    assert!(blocks("/anything", "/"));
}

#[test]
fn allowed_paths_win() {
    let tool = Tool::Edit {
        file_path: ".git/info/exclude".to_owned(),
        old_string: String::new(),
        new_string: "x".to_owned(),
        replace_all: false,
    };
    assert!(matches!(verdict(&tool, &[]), Verdict::Block { .. }));
    assert_eq!(verdict(&tool, &["allowed-paths=**/.git/"]), Verdict::Allow);
    assert_eq!(
        verdict(&tool, &["paths=.git/", "allowed-paths=.git/info/"]),
        Verdict::Allow
    );
    let glob = testing::bash("rm -f *.json");
    assert!(matches!(
        verdict(&glob, &["allowed-paths=tsconfig.json"]),
        Verdict::Block { .. }
    ));
    let inside = testing::bash("rm -f .git/hooks/*.sample");
    assert_eq!(
        verdict(&inside, &["allowed-paths=.git/hooks/"]),
        Verdict::Allow
    );
}

#[test]
fn the_project_in_a_scratch_folder_is_still_protected() {
    let tool = Tool::Write {
        file_path: ".git/config".to_owned(),
        content: String::new(),
    };
    let settings = Settings::defaults(&GUARD);
    let verdict = (GUARD.check)(
        &Call {
            tool: &tool,
            cwd: Path::new("/tmp/work"),
            home: Some(Path::new(HOME)),
        },
        &settings,
    );
    assert!(matches!(verdict, Verdict::Block { .. }));
}

#[test]
fn any_input_gets_an_answer_in_bounded_time() {
    let long_glob = format!("paths={}", "*a".repeat(500));
    let deep = format!("{}x", "a/".repeat(2000));
    for command in [
        "",
        "'",
        ">",
        "rm",
        "cp",
        "mv -t",
        "find -exec",
        "find . -exec rm {}",
        "git -C",
        "sed -i",
        "dd of=",
        "chmod",
        "cd - && echo > x",
        "\u{1F600} > \u{1F600}/.git/x",
        &format!("echo > {deep}"),
        &"cd a && ".repeat(500),
        &"echo x > Cargo.lock; ".repeat(300),
        &format!("rm -f {}", "*a".repeat(50_000)),
        &format!("find . -name '{}' -delete", "?".repeat(50_000)),
    ] {
        let tool = testing::bash(command);
        let _ = verdict(&tool, &[]);
        let _ = verdict(&tool, &[&long_glob]);
    }
}

#![allow(clippy::unwrap_used)]

use super::program::{check_program, program_word};
use crate::ops::scene::Scene;

#[test]
fn the_program_is_the_entrys_first_word_found_as_the_agent_finds_it() {
    assert_eq!(
        program_word(
            "'/opt/my tools/hook' relay --dialect verboo --event Stop # hook-relay-install"
        ),
        "/opt/my tools/hook"
    );
    let scene = Scene::new();
    let project = scene.project();
    let missing = check_program("/nowhere/hook", &project, None);
    assert_eq!(missing.problem.as_deref(), Some("does not exist"));
    scene.write("project/bin/hook", "not a program\n");
    let plain = check_program("bin/hook", &project, None);
    assert_eq!(plain.path, Some(project.join("bin/hook")));
    assert_eq!(plain.problem.as_deref(), Some("is not an executable file"));
    // A bare name is looked for on the agent's PATH as recorded, never this shell's then.
    scene.write("project/tools/hook", "#!/bin/sh\necho 'hook 9.9.9'\n");
    let on_path = check_program("hook", &project, Some("tools"));
    assert_eq!(
        on_path.version.as_deref(),
        Some("hook 9.9.9"),
        "{on_path:?}"
    );
    let elsewhere = check_program("hook", &project, Some("/nowhere"));
    assert_eq!(
        elsewhere.problem.as_deref(),
        Some("is not on the agent's PATH (as the relay last recorded it)")
    );
    scene.write("project/tools/broken/hook", "#!/bin/sh\nexit 3\n");
    let broken = check_program("hook", &project, Some("tools/broken"));
    assert_eq!(broken.problem.as_deref(), Some("exits 3 on `--version`"));
}

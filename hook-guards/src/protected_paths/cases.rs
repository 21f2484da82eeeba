//! The case table of `protected-paths`: every case runs in `/home/dev/project` (home
//! `/home/dev`), as Claude Code's event and as Codex's (where a write or an edit is an
//! `apply_patch`, a read a `cat`).

use crate::table::{allow, block, unreadable};
use crate::{
    Case,
    CaseCall::{Bash, Edit, Grep, Read, Write},
};

pub(crate) const CASES: &[Case] = &[
    // Git's internals, by a tool.
    block(
        Write(".git/config", "[core]\n\tbare = false\n"),
        "Write of a Git file",
    ),
    block(
        Edit(".git/hooks/pre-commit", "exit 0"),
        "Edit of a Git hook",
    ),
    block(
        Write("/home/dev/project/.git/HEAD", "ref: refs/heads/main\n"),
        "absolute path",
    ),
    block(
        Edit("../other/.git/config", "[user]"),
        "relative path to another repository's .git",
    ),
    block(
        Write("~/dotfiles/.git/info/exclude", "*.log\n"),
        "home-relative path",
    ),
    // Git's internals, by a shell command.
    block(
        Bash("echo '[alias]' >> .git/config"),
        "appending redirection",
    ),
    block(
        Bash("cat > .git/hooks/pre-commit <<'EOF'\n#!/bin/sh\nexit 0\nEOF"),
        "redirection with a here-document",
    ),
    block(
        Bash("printf '#!/bin/sh\\n' | tee .git/hooks/pre-push"),
        "tee in a pipeline",
    ),
    block(Bash("rm -rf .git"), "rm -rf of the Git folder"),
    block(Bash("rm -r -f ./.git/"), "flags split, ./ and trailing /"),
    block(Bash("rm -f .git/index.lock"), "removing git's lock by hand"),
    block(Bash("rm -rf ../other/.git"), "another repository's .git"),
    block(
        Bash("sudo tee /home/dev/project/.git/config < /tmp/config"),
        "through sudo, absolute path",
    ),
    block(
        Bash("install -m 755 scripts/hook.sh .git/hooks/pre-commit"),
        "install with a valued option",
    ),
    block(
        Bash("ln -sf ../../scripts/hook.sh .git/hooks/pre-commit"),
        "symlink into .git",
    ),
    block(
        Bash("chmod +x .git/hooks/pre-commit"),
        "chmod of a Git hook",
    ),
    block(
        Bash("bash -c \"echo 'exit 0' > .git/hooks/pre-commit\""),
        "a bash -c string with a redirection",
    ),
    block(
        Bash("printf '%s\\n' hooks/pre-commit | xargs -I{} cp {} .git/hooks/"),
        "through xargs, destination folder",
    ),
    block(
        Bash("cd .git/hooks && cat ../../hooks/pre-push > pre-push"),
        "cd into .git, then a relative redirection",
    ),
    block(Bash("mv .git .git.bak"), "moving the Git folder away"),
    block(
        Bash("cp -r /tmp/backup/.git ."),
        "copy into the project by the source's name",
    ),
    block(Bash("dd if=/dev/zero of=.git/index bs=1 count=0"), "dd of="),
    block(Bash("cargo build &> .git/build.log"), "&> redirection"),
    block(
        Bash("echo x > \"$HOME/project/.git/description\""),
        "quoted $HOME path",
    ),
    block(
        Bash("echo '[core]' >> \"$REPO/.git/config\""),
        "an unknown folder before .git",
    ),
    block(
        Bash("rm -rf .git/rebase-merge"),
        "clearing a rebase by hand",
    ),
    block(Bash("rm -rf .git*"), "a shell glob naming .git"),
    // Lockfiles.
    block(
        Edit("Cargo.lock", "version = \"1.0.1\""),
        "Edit of a lockfile",
    ),
    block(
        Write("web/package-lock.json", "{}\n"),
        "Write of a nested lockfile",
    ),
    block(Bash("sed -i 's/1.0.0/1.0.1/' Cargo.lock"), "sed -i"),
    block(
        Bash("sed -i.bak -e 's/a/b/' package-lock.json"),
        "sed -i with a suffix and -e",
    ),
    block(
        Bash("perl -pi -e 's/foo/bar/' yarn.lock"),
        "perl -pi, flags merged",
    ),
    block(Bash("rm -f Cargo.lock && cargo build"), "a && list"),
    block(
        Bash("mv Cargo.lock Cargo.lock.old"),
        "moving a lockfile away",
    ),
    block(Bash("truncate -s 0 poetry.lock"), "truncate"),
    block(
        Bash("env LC_ALL=C sed -i 's/x/y/' go.sum"),
        "through env with an assignment",
    ),
    block(Bash("sh -c 'rm -f pnpm-lock.yaml'"), "an sh -c string"),
    block(Bash("echo $(rm -f Gemfile.lock)"), "in $(…)"),
    block(Bash("echo `rm -f composer.lock`"), "in backticks"),
    block(
        Bash("find . -name Cargo.lock -delete"),
        "find -name … -delete",
    ),
    block(
        Bash("find . -name 'yarn.lock' -exec rm {} +"),
        "find -exec rm",
    ),
    block(Bash("\"rm\" -f 'uv.lock'"), "quoted program and operand"),
    block(
        Bash("/usr/bin/sed --in-place 's/x/y/' flake.lock"),
        "absolute program, long option",
    ),
    block(
        Bash("jq '.version=\"2\"' package-lock.json | sponge package-lock.json"),
        "sponge in a pipeline",
    ),
    block(
        Bash("cp ~/Downloads/Cargo.lock ."),
        "copy into the project folder",
    ),
    block(
        Bash("cargo tree > Cargo.lock; git status"),
        "a ; list with a redirection",
    ),
    block(
        Bash("rm -f *.lock"),
        "a shell glob that may name a lockfile",
    ),
    block(
        Bash("timeout 5 nice -n 10 command rm -f bun.lockb"),
        "through timeout, nice and command",
    ),
    block(Bash("eval 'rm -f mix.lock'"), "through eval"),
    block(
        Bash("git show HEAD~1:Cargo.lock > Cargo.lock"),
        "restoring a lockfile by hand",
    ),
    // CI files.
    block(
        Edit(".github/workflows/ci.yml", "runs-on: ubuntu-latest"),
        "Edit of a workflow",
    ),
    block(
        Write(".github/workflows/release.yml", "on: push\n"),
        "Write of a new workflow",
    ),
    block(
        Write(".gitlab-ci.yml", "stages: [test]\n"),
        "Write of a CI file",
    ),
    block(
        Bash("curl -fsSL https://example.com/ci.yml -o .github/workflows/ci.yml"),
        "curl -o, flags merged",
    ),
    block(
        Bash("/usr/bin/tee -a .circleci/config.yml < snippet.yml"),
        "absolute program, appending tee",
    ),
    block(Bash("echo 'pipeline {}' >| Jenkinsfile"), ">| redirection"),
    block(
        Bash("rm -rf .github"),
        "deleting a folder holding the workflows",
    ),
    block(
        Bash("find .github -name '*.yml' -exec sed -i 's/v3/v4/' {} \\;"),
        "find -exec sed -i under .github",
    ),
    block(Bash("mv .travis.yml /tmp/"), "moving a CI file away"),
    block(
        Bash("git rm .github/workflows/ci.yml"),
        "git rm of a workflow",
    ),
    block(Bash("touch .github/workflows/deploy.yml"), "touch"),
    block(
        Bash("mv .github/workflows/ci.yml.disabled .github/workflows/ci.yml"),
        "renaming inside the workflows",
    ),
    // The user's paths.
    block(
        Write("config/prod.yml", "db: prod\n"),
        "a listed file, by a tool",
    )
    .with(&["paths=config/prod.yml"]),
    block(
        Bash("echo 'debug: true' >> config/prod.yml"),
        "a listed file, by a redirection",
    )
    .with(&["paths=config/prod.yml"]),
    block(Bash("rm -r config"), "deleting the folder of a listed file")
        .with(&["paths=config/prod.yml"]),
    block(Edit("~/notes/todo.md", "- done"), "a listed home folder").with(&["paths=~/notes/"]),
    block(
        Bash("cp new.pem certs/server.pem"),
        "a listed glob at any depth",
    )
    .with(&["paths=*.pem"]),
    block(
        Write("/etc/app/settings.toml", "x = 1\n"),
        "a listed absolute folder",
    )
    .with(&["paths=/etc/app/"]),
    // Reads, the package managers, git, and ordinary writes.
    allow(Read(".git/config"), "reading Git's config"),
    allow(Read("Cargo.lock"), "reading a lockfile"),
    allow(Read(".github/workflows/ci.yml"), "reading a workflow"),
    allow(Grep("version", "Cargo.lock"), "searching a lockfile"),
    allow(Bash("cat .git/HEAD"), "cat of a Git file"),
    allow(Bash("ls -la .git/hooks"), "listing Git hooks"),
    allow(Bash("cargo test --workspace"), "cargo test"),
    allow(
        Bash("cargo update -p serde"),
        "the package manager updates its lockfile",
    ),
    allow(Bash("npm install"), "npm install"),
    allow(Bash("yarn add left-pad"), "yarn add"),
    allow(Bash("go mod tidy"), "go mod tidy"),
    allow(Bash("poetry lock --no-update"), "poetry lock"),
    allow(Bash("git status"), "git status"),
    allow(
        Bash("git add -A && git commit -m 'fix: rm Cargo.lock typo'"),
        "git commit",
    ),
    allow(Bash("git checkout -b feature/x"), "git checkout"),
    allow(Bash("git push origin feature/x"), "git push"),
    allow(
        Bash("git config user.email dev@example.com"),
        "git config writes .git/config itself",
    ),
    allow(Bash("git restore Cargo.lock"), "git restores a lockfile"),
    allow(
        Bash("git rm --cached Cargo.lock"),
        "git rm --cached only untracks",
    ),
    allow(
        Bash("git mv src/old.rs src/new.rs"),
        "git mv of an ordinary file",
    ),
    allow(Bash("rm -rf ./target"), "deleting the build folder"),
    allow(Bash("rm -rf node_modules && npm ci"), "a clean install"),
    allow(
        Write("src/main.rs", "fn main() {}\n"),
        "Write of a source file",
    ),
    allow(Edit("README.md", "# Project"), "Edit of the README"),
    allow(Edit(".gitignore", "target/"), "Edit of .gitignore"),
    allow(Bash("echo '.env' >> .gitignore"), "appending to .gitignore"),
    allow(
        Write(".github/ISSUE_TEMPLATE/bug.md", "---\nname: Bug\n---\n"),
        "the rest of .github is not CI",
    ),
    allow(Write("docs/ci.md", "# CI\n"), "a document about CI"),
    allow(Bash("sed -n '1,20p' Cargo.lock"), "sed without -i"),
    allow(
        Bash("sed -i 's/old/new/g' src/lib.rs"),
        "sed -i of a source file",
    ),
    allow(
        Bash("cp Cargo.lock /tmp/"),
        "a copy into the scratch folder",
    ),
    allow(
        Bash("cp Cargo.lock Cargo.lock.bak"),
        "a backup copy reads the lockfile",
    ),
    allow(
        Bash("diff Cargo.lock /tmp/Cargo.lock > /tmp/lock.diff"),
        "diff into /tmp",
    ),
    allow(
        Bash("cargo build 2>&1 | tee build.log"),
        "tee of a build log",
    ),
    allow(
        Bash("git log --oneline > /tmp/log.txt"),
        "a redirection outside",
    ),
    allow(
        Bash("grep -rn 'uses:' .github/workflows > notes.txt"),
        "grep of the workflows",
    ),
    allow(
        Bash("echo Cargo.lock .git/config"),
        "naming protected paths",
    ),
    allow(
        Bash("touch src/lib.rs && mkdir -p src/bin"),
        "touch and mkdir",
    ),
    allow(Bash("mv src/old.rs src/new.rs"), "mv of a source file"),
    allow(Bash("chmod +x scripts/build.sh"), "chmod of a script"),
    allow(
        Bash("find . -name '*.pyc' -delete"),
        "find -delete of bytecode",
    ),
    allow(
        Bash("find src -name '*.rs' -exec sed -i 's/foo/bar/' {} +"),
        "find -exec sed -i of sources",
    ),
    allow(
        Bash("find .github -name '*.yml' -exec cp {} /tmp/ \\;"),
        "find -exec cp copies out",
    ),
    allow(
        Bash("sudo apt-get install -y jq"),
        "sudo of a package manager",
    ),
    allow(
        Bash("env RUST_LOG=debug cargo run > run.log 2>&1"),
        "env and a redirection",
    ),
    allow(
        Bash("bash -c 'cargo fmt && cargo clippy'"),
        "a bash -c string",
    ),
    allow(
        Bash("echo $(git rev-parse HEAD) > VERSION"),
        "$(…) of a git command",
    ),
    allow(
        Bash("cat package.json | jq .version > /dev/null"),
        "a redirection to /dev/null",
    ),
    allow(
        Bash("curl -fsSL https://example.com/install.sh -o /tmp/install.sh"),
        "curl -o outside",
    ),
    allow(
        Write("/tmp/scratch/.git/config", "[core]\n"),
        "a scratch clone in /tmp",
    ),
    allow(Bash("rm -f fixtures/*.json"), "a shell glob in a subfolder"),
    allow(Bash("rm -rf target/*"), "a wildcard alone"),
    allow(
        Bash("cd /tmp/scratch && git init && rm -rf .git"),
        "cd into a scratch folder",
    ),
    allow(
        Bash("pre-commit install"),
        "a tool installing its own Git hook",
    ),
    allow(
        Bash("cat > src/main.rs <<'EOF'\nfn main() {}\nEOF"),
        "a here-document into a source file",
    ),
    allow(
        Bash("mkdir -p .github && cp template.md .github/PULL_REQUEST_TEMPLATE.md"),
        "a pull request template",
    ),
    // Options.
    allow(Edit("Cargo.lock", "x"), "lockfiles switched off").with(&["lockfiles=false"]),
    allow(
        Write(".github/workflows/ci.yml", "on: push\n"),
        "CI files switched off",
    )
    .with(&["ci-files=false"]),
    allow(
        Bash("echo 'target/' >> .git/info/exclude"),
        "an allowed Git file",
    )
    .with(&["allowed-paths=.git/info/exclude"]),
    allow(
        Edit(".github/workflows/docs.yml", "x"),
        "an allowed workflow",
    )
    .with(&["allowed-paths=.github/workflows/docs.yml"]),
    allow(Read("config/prod.yml"), "reading a listed file").with(&["paths=config/prod.yml"]),
    allow(
        Write("config/dev.yml", "db: dev\n"),
        "a file beside a listed one",
    )
    .with(&["paths=config/prod.yml"]),
    allow(
        Bash("find . -name '*.rs' -exec sed -i 's/a/b/' {} +"),
        "find -name filter beside a listed file",
    )
    .with(&["paths=config/prod.yml"]),
    allow(
        Write("certs/README.md", "# Certificates\n"),
        "a file beside a listed glob",
    )
    .with(&["paths=*.pem"]),
    // What cannot be read.
    unreadable(Bash("$EDITOR notes.txt"), "a program named by a variable"),
];

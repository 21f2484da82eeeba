//! Unit tests of the secrets guard: the forms its cases say they show, the tools the table
//! cannot spell (`MultiEdit`, `NotebookEdit`, `Glob`, a patch touching several files), its
//! reasons, and inputs that must neither panic nor take long (its size: `tests/tables.rs`).

use hook_sdk::{TextEdit, Tool};

use super::GUARD;
use crate::Verdict;
use crate::testing::{self, bash, reason};

/// The verdict of the guard, with its defaults, on `tool` in the cases' scene.
fn verdict(tool: &Tool) -> Verdict {
    verdict_with(tool, &[])
}

fn verdict_with(tool: &Tool, settings: &[&str]) -> Verdict {
    testing::verdict(&GUARD, tool, settings)
}

#[test]
fn every_case_says_which_form_it_shows() {
    for case in GUARD.cases {
        assert!(!case.form.trim().is_empty(), "{}", case.describe());
    }
}

#[test]
fn multi_edit_is_read_for_its_file_and_every_new_text() {
    let edits = |new: &str| Tool::MultiEdit {
        file_path: "/home/dev/project/src/app.ts".to_owned(),
        edits: vec![
            TextEdit::new("a", "const url = 'http://localhost';"),
            TextEdit::new("b", new),
        ],
    };
    let token = concat!("const t = 'npm", "_fzTExjED1eDVSINhBovGCXTrjgMw4eMvD3zl';");
    assert!(matches!(verdict(&edits(token)), Verdict::Block { .. }));
    assert_eq!(
        verdict(&edits("const t = process.env.NPM_TOKEN;")),
        Verdict::Allow
    );
    let secret_file = Tool::MultiEdit {
        file_path: "/home/dev/.aws/credentials".to_owned(),
        edits: vec![TextEdit::new("a", "b")],
    };
    assert!(reason(verdict(&secret_file)).contains("`MultiEdit` edits"));
}

#[test]
fn removing_a_credential_is_allowed() {
    let key = concat!("AKIA", "YTWN7PUE3HXLXKM5");
    let edit = Tool::Edit {
        file_path: "/home/dev/project/deploy.sh".to_owned(),
        old_string: format!("export AWS_ACCESS_KEY_ID={key}"),
        new_string: "export AWS_ACCESS_KEY_ID=\"$AWS_ACCESS_KEY_ID\"".to_owned(),
        replace_all: false,
    };
    assert_eq!(verdict(&edit), Verdict::Allow);
    let patch = Tool::ApplyPatch {
        patch: format!(
            "*** Begin Patch\n*** Update File: deploy.sh\n@@\n-export AWS_ACCESS_KEY_ID={key}\n+export AWS_ACCESS_KEY_ID=\"$AWS_ACCESS_KEY_ID\"\n*** End Patch\n"
        ),
        files: vec!["deploy.sh".to_owned()],
    };
    assert_eq!(verdict(&patch), Verdict::Allow);
}

#[test]
fn every_file_of_a_patch_is_checked() {
    let text = "*** Begin Patch\n*** Update File: src/a.rs\n@@\n-x\n+y\n*** Add File: config/prod.env\n+A=1\n*** End Patch\n";
    let patch = Tool::ApplyPatch {
        patch: text.to_owned(),
        files: hook_sdk::patch_files(text),
    };
    let reason = reason(verdict(&patch));
    assert!(
        reason.contains("`apply_patch` patches `config/prod.env`"),
        "{reason}"
    );
}

#[test]
fn notebook_sources_are_read_for_credentials() {
    let cell = |source: &str| Tool::NotebookEdit {
        notebook_path: "/home/dev/project/analysis.ipynb".to_owned(),
        new_source: Some(source.to_owned()),
        cell_id: None,
        edit_mode: None,
    };
    let key = concat!(
        "openai.api_key = 'sk-",
        "YPB7HBl3TKYf7pBjiYReYBcuZM1QemNug3HciYKnrxFsNBYD'"
    );
    assert!(matches!(verdict(&cell(key)), Verdict::Block { .. }));
    assert_eq!(verdict(&cell("import pandas as pd")), Verdict::Allow);
}

#[test]
fn glob_lists_names_and_is_allowed() {
    let glob = Tool::Glob {
        pattern: "*".to_owned(),
        path: Some("/home/dev/.ssh".to_owned()),
    };
    assert_eq!(verdict(&glob), Verdict::Allow);
}

#[test]
fn grep_with_an_include_glob_of_secrets_is_blocked() {
    let grep = |glob: &str| Tool::Grep {
        pattern: "KEY".to_owned(),
        path: None,
        glob: Some(glob.to_owned()),
    };
    assert!(matches!(verdict(&grep("**/.env*")), Verdict::Block { .. }));
    assert_eq!(verdict(&grep("*.{ts,tsx}")), Verdict::Allow);
    assert!(matches!(
        verdict(&bash("rg --glob '.env*' KEY")),
        Verdict::Block { .. }
    ));
    assert!(matches!(
        verdict(&bash("grep -r --include=.env KEY .")),
        Verdict::Block { .. }
    ));
    assert_eq!(
        verdict(&bash("grep -r --exclude=.env KEY .")),
        Verdict::Allow
    );
}

#[test]
fn reasons_say_what_was_blocked_and_what_to_do() {
    let env = reason(verdict(&bash("cat .env")));
    assert!(env.contains("`cat` opens `.env`"), "{env}");
    assert!(env.contains("`.env.example`"), "{env}");
    let aws = reason(verdict(&bash("sudo less ~/.aws/credentials")));
    assert!(
        aws.contains("AWS credentials") && aws.contains("`aws`"),
        "{aws}"
    );
    let home = reason(verdict(&bash("grep -r password ~")));
    assert!(home.contains("narrower folder"), "{home}");
    let token = reason(verdict(&bash(concat!(
        "export GH=ghp",
        "_4ezcLL34oOHjLI8ZcbeYuO0d1biJ6sHv9T7W"
    ))));
    assert!(
        token.contains("GitHub token") && token.contains("$GITHUB_TOKEN"),
        "{token}"
    );
    assert!(
        !token.contains("4ezcLL34"),
        "the reason never repeats a credential: {token}"
    );
}

#[test]
fn more_evasions_are_read() {
    for command in [
        "while read l; do echo \"$l\"; done < ~/.aws/credentials",
        "diff <(cat ~/.ssh/id_rsa) /dev/null",
        "X=\"$(< ~/.netrc)\" make",
        "bash -c 'echo \"$(cat .env)\"'",
        "find ~ -name id_rsa -exec cat {} +",
        "find -L ~/.aws -type f | xargs cat",
        "ls ~/.ssh/id_* | xargs -n1 cat",
        "cat /home/*/.ssh/id_rsa",
        "cat ~/.s?h/id_rsa",
        "cat ~/.ssh/../.ssh/./id_rsa",
        "git diff .env.production",
        "tee .env < /dev/null",
        "rg --hidden -uu token ~",
        "zip -r /tmp/all.zip ~",
        "node -e \"require('fs').readFileSync(process.env.HOME + '/.npmrc')\"",
        "docker run --env-file .env app",
        "pushd ~/.config/gcloud && cat credentials.db",
        "kubectl --kubeconfig ~/.kube/config config view --raw > /tmp/k && cat ~/.kube/config",
        "cat ~/.config/google-chrome-beta/Default/Cookies",
        "cat /home/dev/.ssh",
        "cat ~/.ssh/{id_rsa,config}",
        "cat .{env,npmrc}",
        "cat $(echo ~)/.ssh/id_rsa",
        "sh <<EOF\ncat ~/.ssh/id_rsa\nEOF",
        "eval \"cat ~/.aws/credentials\"",
        "cat ~/.ss''h/id_rsa",
        "cat ~/\".ssh\"/id_r\\sa",
        "cat .en[v]",
        "cat ~/.aws/cred*",
        "cat ~/.a*/credentials",
        "cat ~/.ssh/id_rsa.bak",
        "cat < ~/.netrc",
        "sqlite3 ~/.config/google-chrome/Default/Cookies 'select * from cookies'",
        "strings ~/.mozilla/firefox/x/key4.db",
        "cat ~/.local/share/keyrings/login.keyring",
        "cat ~/.kube/config-staging ~/.docker/config.json.bak",
        "cat .env.prod.local prod.env config/.env ./../project/.env",
        "ruby -e 'puts File.read(\".env\")'",
        "cut -d= -f2 .env",
        "mv .env .env.bak",
        "zip k.zip ~/.ssh/id_rsa",
        "rsync -a ~ /backup",
        "find ~ -type f | xargs grep -l AKIA",
        "cat ~/.ssh/authorized_keys",
        "cat <<EOF > /tmp/x\n$(cat ~/.aws/credentials)\nEOF",
        "sh <<EOF\ncat ~/.netrc\nEOF\n",
        "cat <<EOF\nhello\nEOF\ncat .env",
        "cd ~/.aws && base64 < credentials",
        "for f in \"$(find ~/.aws -type f)\"; do cat \"$f\"; done",
        "while :; do for f in ~/.ssh/*; do cat \"$f\"; done; done",
        "bash -c 'for f in ~/.aws/*; do cat \"$f\"; done'",
        "cat <<'EOF' | sh\ncat ~/.netrc\nEOF",
        "ssh web <<'EOF'\ncat ~/.aws/credentials\nEOF",
        "cd ~/.aws && cd \"$X\" && cat credentials",
        "cd ~/.aws && cd - && cat credentials",
    ] {
        assert!(
            matches!(verdict(&bash(command)), Verdict::Block { .. }),
            "{command}: {:?}",
            verdict(&bash(command))
        );
    }
}

#[test]
fn more_ordinary_work_is_allowed() {
    for command in [
        "kubectl --kubeconfig ~/.kube/config get pods",
        "scp -i ~/.ssh/deploy dist.tgz web:/srv/",
        "rsync -e 'ssh -i ~/.ssh/deploy' -a dist/ web:/srv/",
        "git -c core.sshCommand='ssh -i ~/.ssh/deploy' push",
        "GIT_SSH_COMMAND='ssh -i ~/.ssh/deploy' git push",
        "ssh-keygen -t ed25519 -f ~/.ssh/id_new -N ''",
        "ssh-keygen -lf ~/.ssh/id_ed25519.pub",
        "openssl genrsa -out /tmp/test.key 2048",
        "openssl x509 -in cert.pem -noout -text",
        "ls ~/.aws",
        "ls .env*",
        "stat ~/.ssh/id_rsa",
        "du -sh ~/.cache",
        "cat *",
        "cat monkey.pem src/keys.ts src/private.ts keyboard.keymap",
        "cat src/env.ts config/env.rb environment.yml",
        "cat .gitignore .dockerignore .nvmrc .editorconfig",
        "cat /etc/hosts ~/.gitconfig ~/.config/git/config",
        "cat .env.example | grep -v '^#'",
        "grep -r TODO .",
        "grep -R 'import os' .",
        "grep -r 'BEGIN PRIVATE KEY' src/",
        "rg TODO",
        "rg 'API_KEY' --type ts",
        "rg -n dotenv",
        "find . -type f -name '*.md'",
        "find . -name '*.py' | xargs wc -l",
        "find . -name '*.log' -delete",
        "git ls-files | xargs grep TODO",
        "cat $(git ls-files '*.md')",
        "for f in src/*.ts; do wc -l \"$f\"; done",
        "while read line; do echo $line; done < input.txt",
        "echo \"$(git rev-parse HEAD)\" > VERSION",
        "python -m pytest tests/",
        "python3 -c \"import json; print(json.load(open('package.json'))['version'])\"",
        "node -e \"console.log(require('./package.json').version)\"",
        "cargo clippy --all-targets -- -D warnings",
        "pnpm install --frozen-lockfile",
        "pip install -r requirements.txt",
        "source venv/bin/activate",
        ". .venv/bin/activate && pip list",
        "source ~/.bashrc",
        "git diff HEAD~1 -- src/",
        "git log -p -3",
        "git add -A",
        "git checkout -b fix/env-loading",
        "docker build -t app .",
        "docker compose --env-file .env.example config",
        "cat package.json | jq .scripts",
        "sed -n '1,50p' src/app.ts",
        "awk '{print $1}' access.log | sort | uniq -c",
        "tail -f logs/app.log",
        "mkdir -p src/components && touch src/components/Button.tsx",
        "cp config.example.json config.json",
        "curl -X POST -d @payload.json http://localhost:8080/api",
        "curl https://example.com/.env",
        "tar xzf y.tar.gz -C /tmp",
        "ssh deploy@web 'systemctl restart app'",
        "rsync -avz dist/ web:/srv/app/",
        "aws sts get-caller-identity",
        "terraform plan -var-file=prod.tfvars",
        "export DATABASE_URL=postgres://localhost/app",
        "echo .env .npmrc >> .gitignore && git add .gitignore",
        "ls | xargs cat",
        "go test ./...",
        "make build ENV=production",
        "cat > SETUP.md <<'EOF'\nCopy .env.example to .env, then ssh -i ~/.ssh/id_rsa host\nEOF\ncat SETUP.md",
        "cat <<-EOF > notes.txt\n\tsource .env first\n\tEOF",
        "echo 'run $(cat .env) to see it' >> notes.md",
        "cat < src/main.rs; cd ~/.aws",
        "find ~/.ssh -exec sudo ls -l {} \\;",
    ] {
        assert_eq!(verdict(&bash(command)), Verdict::Allow, "{command}");
    }
}

#[test]
fn user_paths_are_read_as_names_or_paths() {
    let read = |path: &str| Tool::Read {
        file_path: path.to_owned(),
    };
    let extra = ["extra-paths=secrets,~/.config/op/"];
    for path in [
        "/home/dev/project/secrets/prod.json",
        "/home/dev/.config/op/config",
    ] {
        assert!(
            matches!(verdict_with(&read(path), &extra), Verdict::Block { .. }),
            "{path}"
        );
        assert_eq!(verdict(&read(path)), Verdict::Allow, "{path}");
    }
    assert!(matches!(
        verdict_with(&bash("tar czf x.tgz ~/.config"), &extra),
        Verdict::Block { .. }
    ));
    let allowed = ["allowed-paths=config/dev.env,~/.ssh/config"];
    assert_eq!(
        verdict_with(&read("config/dev.env"), &allowed),
        Verdict::Allow
    );
    assert_eq!(
        verdict_with(&bash("cat ~/.ssh/config"), &allowed),
        Verdict::Allow
    );
    assert!(matches!(
        verdict_with(&bash("cat ~/.ssh/*"), &allowed),
        Verdict::Block { .. }
    ));
}

#[test]
fn hostile_inputs_end_quickly_without_panicking() {
    let long = format!("cat {}", "*a".repeat(5000));
    let nested = format!("{}cat .env{}", "$(".repeat(200), ")".repeat(200));
    let quotes = "\"'`$(".repeat(2000);
    let key = format!("-----BEGIN PRIVATE KEY-----{}", " ".repeat(100_000));
    for command in [
        long.as_str(),
        nested.as_str(),
        quotes.as_str(),
        key.as_str(),
        "",
        "\\",
        "$(",
        "`",
    ] {
        let _ = verdict(&bash(command));
    }
    assert!(matches!(verdict(&bash(&nested)), Verdict::Block { .. }));
}

#[test]
fn allowed_paths_may_hold_credential_text() {
    let write = Tool::Write {
        file_path: "/home/dev/project/tests/fixtures/github.json".to_owned(),
        content: concat!(
            "{\"token\": \"ghp",
            "_4ezcLL34oOHjLI8ZcbeYuO0d1biJ6sHv9T7W\"}"
        )
        .to_owned(),
    };
    assert!(matches!(verdict(&write), Verdict::Block { .. }));
    assert_eq!(
        verdict_with(&write, &["allowed-paths=tests/fixtures"]),
        Verdict::Allow
    );
    let command = bash(concat!(
        "echo ghp",
        "_4ezcLL34oOHjLI8ZcbeYuO0d1biJ6sHv9T7W > tests/fixtures/t"
    ));
    assert!(
        matches!(
            verdict_with(&command, &["allowed-paths=tests/fixtures"]),
            Verdict::Block { .. }
        ),
        "a command's text is always read"
    );
}

/// Hashes, JWTs, ids, data URIs, regexes, docs and templates that are not credentials.
#[test]
fn ordinary_text_holds_no_credential() {
    let texts = [
        "\"integrity\": \"sha512-Dl+eH6nUqBRTCmOIWTvEZDHJAo4TYUvJ6r8aRjbADr3mA7jOqJKdmVeP5zq+8y2RkUuX9L0YD8Tr+ZSVPzSfmA==\"",
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
        "commit 9fceb02d0ae598e95dc970b74767f19372d61af8",
        "id: 123e4567-e89b-12d3-a456-426614174000",
        "const skip = 'sk-learn-compat-layer-for-the-old-pipeline-api';",
        "img src=\"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==\"",
        "const AWS_REGEX = /AKIA[0-9A-Z]{16}/;",
        "// see https://docs.github.com/en/authentication (tokens start with ghp_)",
        "key := os.Getenv(\"OPENAI_API_KEY\") // sk-proj-...",
        "pub const PEM_HEADER: &str = \"-----BEGIN RSA PRIVATE KEY-----\";\npub const PEM_FOOTER: &str = \"-----END RSA PRIVATE KEY-----\";",
        "aws_secret_access_key = {{ aws_secret }}",
        "STRIPE_KEY=sk_live_XXXXXXXXXXXXXXXXXXXXXXXX",
        "slack: xoxb-000000000000-0000000000000-XXXXXXXXXXXXXXXXXXXXXXXX",
        "hf_token = 'hf_...'",
        "npm_config_cache=/tmp/npm_cache_directory_for_the_build_step_x",
        "github_pat_11ABCDEFG0_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    ];
    for text in texts {
        assert_eq!(super::credentials::find(text), None, "{text}");
    }
}

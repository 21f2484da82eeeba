//! A file replaced atomically, keeping its mode and owner: what every file `hook relay install`
//! writes goes through (the agent's settings, the relay's files, its own state).

use std::fs::Metadata;
use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};

/// Writes `bytes` to `path` atomically, with `like`'s mode and owner (0600 when `None`).
pub(crate) fn write_file(path: &Path, like: Option<&Metadata>, bytes: &[u8]) -> Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let mut temp = tempfile::Builder::new()
        .prefix(&format!(".hook-relay-{name}."))
        .suffix(".tmp")
        .tempfile_in(dir)
        .with_context(|| format!("cannot create a temporary file in {}", dir.display()))?;
    temp.write_all(bytes)
        .with_context(|| format!("cannot write {}", temp.path().display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let file = temp.as_file();
        let mode = like.map_or(0o600, |m| m.permissions().mode() & 0o7777);
        file.set_permissions(std::fs::Permissions::from_mode(mode))
            .with_context(|| format!("cannot set the mode of {}", temp.path().display()))?;
        if let Some(like) = like {
            let mine = file.metadata().ok();
            let same = mine
                .as_ref()
                .is_some_and(|m| m.uid() == like.uid() && m.gid() == like.gid());
            if !same {
                std::os::unix::fs::fchown(file, Some(like.uid()), Some(like.gid())).with_context(
                    || {
                        format!(
                            "cannot give {} its owner back (uid {}, gid {})",
                            path.display(),
                            like.uid(),
                            like.gid()
                        )
                    },
                )?;
            }
        }
    }
    #[cfg(not(unix))]
    if let Some(like) = like {
        temp.as_file()
            .set_permissions(like.permissions())
            .with_context(|| format!("cannot set the mode of {}", temp.path().display()))?;
    }
    temp.as_file()
        .sync_all()
        .with_context(|| format!("cannot write {}", temp.path().display()))?;
    temp.persist(path)
        .map_err(|error| error.error)
        .with_context(|| format!("cannot replace {}", path.display()))?;
    Ok(())
}

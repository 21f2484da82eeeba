//! Loading a plugin once per content, never unloading it, and checking its ABI version.

use std::collections::HashMap;
use std::ffi::CStr;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{LazyLock, Mutex};

use hook_protocol::native_abi::{CallFn, FreeFn, VersionFn};

use super::{ABI_VERSION, LoaderError, NativeError, OpenedLibrary};

/// The symbol names (libloading adds the NUL).
const SYMBOL_VERSION: &[u8] = hook_protocol::native_abi::SYMBOL_VERSION.as_bytes();
const SYMBOL_CALL: &[u8] = hook_protocol::native_abi::SYMBOL_CALL.as_bytes();
const SYMBOL_FREE: &[u8] = hook_protocol::native_abi::SYMBOL_FREE.as_bytes();

/// The entry points of a loaded plugin; valid for the life of the process (never unloaded).
#[derive(Clone, Copy)]
pub(super) struct Plugin {
    pub(super) call: CallFn,
    pub(super) free: FreeFn,
}

/// Loaded plugins by the SHA-256 of their bytes.
pub(super) static PLUGINS: LazyLock<Mutex<HashMap<String, Plugin>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// The digest of the bytes each path was loaded with, for libraries loaded by path (systems
/// without memory files): the dynamic loader knows a library by its path, so another digest
/// under a loaded path cannot be loaded.
static LOADED_BY_PATH: LazyLock<Mutex<HashMap<PathBuf, String>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// The plugin of `library`'s bytes, loaded and checked on first use.
pub(super) fn load(library: OpenedLibrary) -> Result<Plugin, NativeError> {
    let mut plugins = PLUGINS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(plugin) = plugins.get(&library.sha256) {
        return Ok(*plugin);
    }
    let path = library.path.clone();
    let load_path = match &library.image {
        Some(image) => image_path(image),
        None => {
            let mut by_path = LOADED_BY_PATH
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            match by_path.get(&path) {
                Some(loaded) if *loaded != library.sha256 => {
                    return Err(NativeError::ChangedSinceLoaded { path });
                }
                _ => {
                    by_path.insert(path.clone(), library.sha256.clone());
                }
            }
            library.path.clone()
        }
    };
    // SAFETY: loading a library runs its initializers. Native handlers are trusted code, like
    // command hooks (the trust gate decided on these very bytes before this runs); this is the
    // documented contract.
    let loaded =
        unsafe { libloading::Library::new(&load_path) }.map_err(|source| NativeError::Load {
            path: path.clone(),
            source: LoaderError::new(source),
        })?;
    // A library is never unloaded: its functions may still run on a timed-out call's thread.
    let loaded: &'static libloading::Library = Box::leak(Box::new(loaded));
    // Its memory file stays open as long: the dynamic loader knows a loaded library by its
    // path name (`/proc/self/fd/N`) and by device and inode, which a closed descriptor would
    // let another library reuse.
    std::mem::forget(library.image);
    let symbol_error = |name: &[u8], source: libloading::Error| NativeError::MissingSymbol {
        path: path.clone(),
        symbol: String::from_utf8_lossy(name).into_owned(),
        source: LoaderError::new(source),
    };
    // SAFETY: the symbol is declared with the ABI's signature for it; a library that exports
    // the name with another type breaks the ABI contract its version promises.
    let version: VersionFn = unsafe { loaded.get::<VersionFn>(SYMBOL_VERSION) }
        .map(|symbol| *symbol)
        .map_err(|error| symbol_error(SYMBOL_VERSION, error))?;
    // SAFETY: `hook_sdk_abi_version` returns a pointer to a static NUL-terminated string.
    let version_ptr = unsafe { version() };
    if version_ptr.is_null() {
        return Err(NativeError::UnreadableVersion {
            path,
            version: None,
            source: None,
        });
    }
    // SAFETY: non-null, and a static NUL-terminated string per the ABI.
    let plugin_version = unsafe { CStr::from_ptr(version_ptr) }
        .to_string_lossy()
        .into_owned();
    check_version(&path, &plugin_version)?;
    // SAFETY: as for the version symbol; the version check above says the types match.
    let call: CallFn = unsafe { loaded.get::<CallFn>(SYMBOL_CALL) }
        .map(|symbol| *symbol)
        .map_err(|error| symbol_error(SYMBOL_CALL, error))?;
    // SAFETY: as above.
    let free: FreeFn = unsafe { loaded.get::<FreeFn>(SYMBOL_FREE) }
        .map(|symbol| *symbol)
        .map_err(|error| symbol_error(SYMBOL_FREE, error))?;
    let plugin = Plugin { call, free };
    plugins.insert(library.sha256, plugin);
    Ok(plugin)
}

/// The path the dynamic loader opens a memory file by.
fn image_path(image: &File) -> PathBuf {
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd;
        PathBuf::from(format!("/proc/self/fd/{}", image.as_raw_fd()))
    }
    #[cfg(not(unix))]
    {
        let _ = image;
        PathBuf::new()
    }
}

/// Whether a plugin speaking ABI `plugin` can be called by this engine.
fn check_version(path: &Path, plugin: &str) -> Result<(), NativeError> {
    let parsed =
        semver::Version::parse(plugin).map_err(|source| NativeError::UnreadableVersion {
            path: path.to_owned(),
            version: Some(plugin.to_owned()),
            source: Some(source),
        })?;
    let ours = semver::Version::parse(ABI_VERSION).expect("ABI_VERSION is a semver version");
    // The plugin's version as a caret requirement (build metadata is not part of one).
    let mut caret = semver::Version::new(parsed.major, parsed.minor, parsed.patch);
    caret.pre = parsed.pre.clone();
    let requirement = semver::VersionReq::parse(&format!("^{caret}")).map_err(|source| {
        NativeError::UnreadableVersion {
            path: path.to_owned(),
            version: Some(plugin.to_owned()),
            source: Some(source),
        }
    })?;
    if requirement.matches(&ours) {
        Ok(())
    } else {
        Err(NativeError::IncompatibleAbi {
            path: path.to_owned(),
            plugin: plugin.to_owned(),
            engine: ABI_VERSION,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::{NativeError, check_version};

    #[test]
    fn versions_are_checked_with_semver() {
        let path = Path::new("/lib/plugin.so");
        assert!(check_version(path, "1.0.0").is_ok());
        for newer in ["2.0.0", "1.9.0", "0.1.0"] {
            let error = check_version(path, newer).unwrap_err();
            assert!(
                matches!(&error, NativeError::IncompatibleAbi { plugin, .. } if plugin == newer),
                "{error:?}"
            );
            assert!(error.to_string().contains("not compatible"), "{error}");
        }
        let error = check_version(path, "one").unwrap_err();
        assert!(
            matches!(
                &error,
                NativeError::UnreadableVersion {
                    source: Some(_),
                    ..
                }
            ),
            "{error:?}"
        );
        assert_eq!(
            error.to_string(),
            "native library /lib/plugin.so: ABI version `one` is not semver: unexpected character 'o' while parsing major version number"
        );
    }
}

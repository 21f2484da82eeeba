//! Links the unwinder into `hook` on glibc Linux instead of loading `libgcc_s.so.1`.
//!
//! Agents start `hook relay` (and `hook run`) once per event, so every shared library the
//! dynamic loader maps at start is paid on every tool call. Rust's standard library links its
//! unwinder as `-lgcc_s`; the folder `link/` holds a linker script of that name which the
//! linker finds first and which names the static `libgcc_eh.a` (part of every GCC install the
//! Rust toolchain links with). Panics still unwind and are caught (the relay answers a panic
//! as a block); a native hook library loads its own `libgcc_s.so.1` as before.
//! Measured in BENCHMARKS.md ("Where a start goes"): about 0.11 ms less per start.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=link/libgcc_s.so");
    let target_os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let target_env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if target_os != "linux" || target_env != "gnu" {
        return;
    }
    // Cargo always sets it for a build script; without it, link as Rust does by default.
    let Some(manifest_dir) = std::env::var_os("CARGO_MANIFEST_DIR") else {
        return;
    };
    let link = std::path::Path::new(&manifest_dir).join("link");
    println!("cargo:rustc-link-search=native={}", link.display());
}

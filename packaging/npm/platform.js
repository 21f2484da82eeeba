// `lib/platform.js` of the npm package hook-engine: which of its platform packages holds the
// native `hook` for this machine, and where. Shared by the launcher (`bin/hook` as shipped) and
// the postinstall script (`install.js`), so both look for the binary the same way.
//
// npm installs one platform package with this one: of the optional dependencies in
// package.json (hook-engine-<platform>-<arch>[-<libc>], each holding bin/hook), it keeps
// those whose `os`, `cpu` and `libc` fields match this machine, under this package's own
// node_modules (or beside it, when both were named on npm's command line).
"use strict";

const path = require("path");

const manifest = require("../package.json");

// The binary of an installed platform package, or null.
function binaryOf(name) {
  try {
    return path.join(path.dirname(require.resolve(`${name}/package.json`)), "bin", "hook");
  } catch {
    return null;
  }
}

// This machine's native `hook`: `{ binary, package }`, or `{ problem, message }` where
// `problem` is "windows" (not supported), "unsupported" (no build for this platform) or
// "missing" (the platform package is not installed), and `message` says it in a sentence.
function locate() {
  const builds = Object.keys(manifest.optionalDependencies || {});
  const supported = builds.map((name) => name.slice(manifest.name.length + 1)).join(", ");
  if (process.platform === "win32") {
    return {
      problem: "windows",
      message:
        "Windows is not supported: the engine's process handling (process groups, signals) is " +
        "Unix-only. Run it under WSL, where the Linux build installs. " +
        `Builds exist for: ${supported}.`,
    };
  }
  const here = `${manifest.name}-${process.platform}-${process.arch}`;
  const candidates = builds.filter((name) => name === here || name.startsWith(`${here}-`));
  if (candidates.length === 0) {
    return {
      problem: "unsupported",
      message: `there is no build for ${process.platform} ${process.arch}. Builds exist for: ${supported}.`,
    };
  }
  let installed = candidates.filter((name) => binaryOf(name) !== null);
  if (installed.length === 0) {
    return {
      problem: "missing",
      message:
        `the package holding the hook binary for this platform (${candidates.join(" or ")}) is ` +
        "not installed: npm leaves an optional dependency out when it cannot fetch it, and " +
        `with --omit=optional. Install ${manifest.name} again, with its optional dependencies.`,
    };
  }
  if (installed.length > 1) {
    // An npm that ignores `libc` installed both Linux builds: take the one of this C library.
    const report = process.report ? process.report.getReport() : null;
    const libc = report && report.header && report.header.glibcVersionRuntime ? "-gnu" : "-musl";
    installed = installed.filter((name) => name.endsWith(libc)).concat(installed);
  }
  return { binary: binaryOf(installed[0]), package: installed[0] };
}

module.exports = { manifest, locate };

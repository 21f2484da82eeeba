#!/usr/bin/env node
// `hook` as the npm package hook-engine installs it: a launcher for the native binary.
//
// npm installs one platform package beside this one: of the optional dependencies in
// package.json (hook-engine-<platform>-<arch>[-<libc>], each holding bin/hook), it keeps
// those whose `os`, `cpu` and `libc` fields match this machine. This file finds that package's
// binary and runs it with the same arguments, environment and standard streams (inherited, so
// the binary reads and writes them itself); it forwards SIGINT, SIGTERM and SIGHUP to it, and
// ends as it ended: with its exit code, or killed by the same signal.
//
// Agents never pay for this file: `hook relay install` writes the path of the binary it runs
// as (the native one) into the agent's settings, never this launcher's.
//
// Windows is not supported (the engine's process handling is Unix-only): there, and on any
// platform without a build, this prints what is supported and exits 1.
"use strict";

const { spawn } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");

const manifest = require("../package.json");

// Says what went wrong on stderr (written at once: process.exit does not wait for a pipe on
// every platform) and exits 1.
function fail(message) {
  fs.writeSync(2, `hook (npm package ${manifest.name}): ${message}\n`);
  process.exit(1);
}

const builds = Object.keys(manifest.optionalDependencies || {});
const supported = builds.map((name) => name.slice(manifest.name.length + 1)).join(", ");
const here = `${manifest.name}-${process.platform}-${process.arch}`;
const candidates = builds.filter((name) => name === here || name.startsWith(`${here}-`));

if (process.platform === "win32") {
  fail(
    "Windows is not supported: the engine's process handling (process groups, signals) is " +
      "Unix-only. Run it under WSL, where the Linux build installs. " +
      `Builds exist for: ${supported}.`,
  );
}
if (candidates.length === 0) {
  fail(
    `there is no build for ${process.platform} ${process.arch}. Builds exist for: ${supported}.`,
  );
}

// The binary of an installed platform package, or null.
function binaryOf(name) {
  try {
    return path.join(path.dirname(require.resolve(`${name}/package.json`)), "bin", "hook");
  } catch {
    return null;
  }
}

let installed = candidates.filter((name) => binaryOf(name) !== null);
if (installed.length === 0) {
  fail(
    `the package holding the hook binary for this platform (${candidates.join(" or ")}) is ` +
      "not installed: npm leaves optional dependencies out with --omit=optional or " +
      `--no-optional. Install ${manifest.name} again without them.`,
  );
}
if (installed.length > 1) {
  // An npm that ignores `libc` installed both Linux builds: take the one of this C library.
  const report = process.report ? process.report.getReport() : null;
  const libc = report && report.header && report.header.glibcVersionRuntime ? "-gnu" : "-musl";
  installed = installed.filter((name) => name.endsWith(libc)).concat(installed);
}
const binary = binaryOf(installed[0]);

const child = spawn(binary, process.argv.slice(2), { stdio: "inherit" });
const forwarded = ["SIGINT", "SIGTERM", "SIGHUP"];
const forward = (signal) => child.kill(signal);
for (const signal of forwarded) {
  process.on(signal, forward);
}
child.on("error", (error) => fail(`cannot start ${binary}: ${error.message}`));
child.on("exit", (code, signal) => {
  if (signal === null) {
    process.exit(code === null ? 1 : code);
  }
  // Die of the same signal, so whoever started `hook` sees what the binary did; where that
  // signal does not end this process (Node ignores SIGPIPE), the shell's 128 + n.
  for (const name of forwarded) {
    process.removeListener(name, forward);
  }
  process.kill(process.pid, signal);
  process.exit(128 + (os.constants.signals[signal] || 0));
});

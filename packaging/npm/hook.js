#!/usr/bin/env node
// `hook` as the npm package hook-engine ships it (`bin/hook`): a launcher for the native binary.
//
// The package's postinstall (`install.js`) puts the platform package's native binary over this
// file, so an install with scripts on runs no Node: `hook` is the binary itself. This launcher
// is what remains where install scripts did not run (`npm install --ignore-scripts`, an npm
// configured with `ignore-scripts`) or the postinstall could not put the binary in place (it
// said why, in one line): it finds the binary (`lib/platform.js`, the same search as the
// postinstall's) and runs it with the same arguments, environment and standard streams
// (inherited, so the binary reads and writes them itself); it forwards SIGINT, SIGTERM and
// SIGHUP to it, and ends as it ended: with its exit code, or killed by the same signal. Each
// start pays for Node (about 70 ms); `npm rebuild -g hook-engine` runs the postinstall again.
//
// Windows is not supported (the engine's process handling is Unix-only): there, and on any
// platform without a build, this prints what is supported and exits 1.
"use strict";

const { spawn } = require("child_process");
const fs = require("fs");
const os = require("os");

const { manifest, locate } = require("../lib/platform.js");

// Says what went wrong on stderr (written at once: process.exit does not wait for a pipe on
// every platform) and exits 1.
function fail(message) {
  fs.writeSync(2, `hook (npm package ${manifest.name}): ${message}\n`);
  process.exit(1);
}

const found = locate();
if (found.problem) {
  fail(found.message);
}
const binary = found.binary;

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

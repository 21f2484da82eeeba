// The postinstall of the npm package hook-engine (`"postinstall": "node install.js"`): puts the
// native binary of this machine's platform package over `bin/hook`, the file npm linked as the
// `hook` command, so that `hook` (and every agent entry that starts `hook` through PATH) is
// the binary itself, with no Node start in front of it. Claude Code's own npm package does the
// same with its `bin/claude.exe` placeholder.
//
// - npm links the bins before it runs install scripts (and chmods the link's target then):
//   this replaces the file the link points to, so the link stays and reaches the binary.
// - The binary is checked first: run with `--version`, it must say `hook <this package's
//   version>` (a binary that does not start here, or of another version, is never put in).
// - Then a hard link to it (else a copy) is made in a temporary file beside `bin/hook`, given
//   mode 0755 (npm's chmod happened before, on the launcher), and renamed over `bin/hook`: the
//   command is the launcher or the binary at every moment, never half a file, and the
//   temporary file never stays behind. An upgrade installs a new package folder, whose own
//   postinstall does it again; uninstall removes the folder, and with it this file.
// - Anything that fails keeps the launcher, which finds and runs the same binary through Node
//   (about 70 ms more per start), prints one line on stderr saying what happened, what it
//   costs and how to fix it, and exits 0: the install never fails because of this script.
// - Under yarn, which may start a package's commands with Node, the launcher stays (one line).
// - Windows and platforms without a build keep the launcher, silently: it says what is
//   supported when it runs. Without the platform package (--omit=optional) there is no binary
//   to run: this says so in one line, as the launcher does when it runs.
"use strict";

const { execFileSync } = require("child_process");
const fs = require("fs");
const path = require("path");

const { manifest, locate } = require("./lib/platform.js");

const command = path.join(__dirname, "bin", "hook");

// Keeps the launcher: says why in one line, what it costs and the fix; exits 0.
function keepLauncher(why) {
  const reason = String(why).split("\n")[0];
  fs.writeSync(
    2,
    `${manifest.name}: ${reason}; kept the Node launcher as \`hook\`, which works but starts ` +
      "Node first, about 70 ms more per start (each event an agent relays through a project's " +
      `entry pays it); to fix, run \`npm rebuild -g ${manifest.name}\` and check that npm runs ` +
      "its install scripts (not --ignore-scripts)\n",
  );
  process.exit(0);
}

// The binary's `hook --version` line, or a reason it gave none.
function versionOf(binary) {
  try {
    const out = execFileSync(binary, ["--version"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 60000,
    });
    return { said: out.trim() };
  } catch (error) {
    return { error: String(error.message).split("\n")[0] };
  }
}

// Whether `a` and `b` are one file (hard links of one inode).
function sameFile(a, b) {
  try {
    const [x, y] = [fs.statSync(a), fs.statSync(b)];
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}

// `binary` linked (else copied) into a temporary file beside `command`, made executable and
// renamed over it; the temporary file is removed on any failure. Already in place (`npm
// rebuild` run again): nothing to do, since a rename between two links of one file does
// nothing and would leave the temporary file.
function putInPlace(binary) {
  if (sameFile(binary, command)) {
    return;
  }
  const temporary = path.join(path.dirname(command), `.hook-install-${process.pid}`);
  try {
    try {
      fs.linkSync(binary, temporary);
    } catch {
      fs.copyFileSync(binary, temporary);
    }
    fs.chmodSync(temporary, 0o755);
    fs.renameSync(temporary, command);
  } catch (error) {
    try {
      fs.unlinkSync(temporary);
    } catch {
      // Never made, or already renamed.
    }
    throw error;
  }
}

function main() {
  const found = locate();
  if (found.problem === "windows" || found.problem === "unsupported") {
    return;
  }
  if (found.problem) {
    // No binary to run at all (--omit=optional): the launcher says the same when it runs.
    fs.writeSync(2, `${manifest.name}: ${found.message}\n`);
    return;
  }
  // Yarn starts a package's commands through shims of its own, which may run `bin/hook` with
  // Node as the script it was: the binary is not put there (esbuild's postinstall does the
  // same).
  if (/\byarn\//.test(process.env.npm_config_user_agent || "")) {
    keepLauncher("yarn may start `bin/hook` through Node, so the binary is not put there");
  }
  const want = `hook ${manifest.version}`;
  const version = versionOf(found.binary);
  if (version.error !== undefined) {
    keepLauncher(`${found.binary} does not run here (${version.error})`);
  }
  if (version.said !== want) {
    keepLauncher(`${found.binary} --version says "${version.said}", not "${want}"`);
  }
  try {
    putInPlace(found.binary);
  } catch (error) {
    keepLauncher(`cannot put ${found.binary} at ${command} (${error.message})`);
  }
}

try {
  main();
} catch (error) {
  keepLauncher(`the postinstall failed (${error.message})`);
}

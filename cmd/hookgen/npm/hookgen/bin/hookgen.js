#!/usr/bin/env node
// The hookgen command: runs the hookgen binary of the platform package that
// npm installed next to this one, with the same arguments, streams and
// exit code. See ../README.md.
"use strict";

const { spawnSync } = require("child_process");
const { binaryPath } = require("../lib/binary");

let bin;
try {
  bin = binaryPath();
} catch (err) {
  process.stderr.write(err.message + "\n");
  process.exit(3);
}
const r = spawnSync(bin, process.argv.slice(2), { stdio: "inherit", windowsHide: true });
if (r.error) {
  process.stderr.write(`hookgen: cannot run ${bin}: ${r.error.message}\n`);
  process.exit(3);
}
if (r.signal) {
  process.kill(process.pid, r.signal);
}
process.exit(r.status === null ? 3 : r.status);

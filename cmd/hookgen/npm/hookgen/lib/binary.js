"use strict";
// Finds the hookgen binary: the one in the platform package for this
// machine (hookgen-<platform>-<arch>), which npm installs as an optional
// dependency of hookgen. HOOKGEN_BINARY overrides it.

const fs = require("fs");
const path = require("path");

/** The platform package's suffix for this machine, e.g. "linux-x64". */
function platformKey() {
  return `${process.platform}-${process.arch}`;
}

/** The path of the hookgen binary, or an Error with one clear line. */
function binaryPath() {
  if (process.env.HOOKGEN_BINARY) {
    return process.env.HOOKGEN_BINARY;
  }
  const key = platformKey();
  const pkg = `hookgen-${key}`;
  const exe = process.platform === "win32" ? "hookgen.exe" : "hookgen";
  let dir;
  try {
    dir = path.dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    throw new Error(`no hookgen binary for ${key}; install ${pkg}`);
  }
  const bin = path.join(dir, "bin", exe);
  if (!fs.existsSync(bin)) {
    throw new Error(`no hookgen binary for ${key}; ${pkg} has no bin/${exe} (reinstall ${pkg})`);
  }
  return bin;
}

module.exports = { binaryPath, platformKey };

"use strict";
// The hookgen API: each call runs the hookgen binary (see lib/binary.js)
// and returns what it printed; nothing is reimplemented here. generate,
// validate and bands are synchronous; a failure throws an Error carrying
// hookgen's one-line message and its exit code (err.exitCode). The hook
// API (event, reply, block, ...) is in lib/hook.js.

const { spawnSync } = require("child_process");
const { binaryPath } = require("./lib/binary");

function run(args, input) {
  const bin = binaryPath();
  const r = spawnSync(bin, args, {
    input: input === undefined ? "" : input,
    encoding: "utf8",
    maxBuffer: 64 << 20,
    windowsHide: true,
  });
  if (r.error) {
    throw new Error(`hookgen: cannot run ${bin}: ${r.error.message}`);
  }
  return r;
}

function fail(r) {
  const msg = (r.stderr || "").trim() || `hookgen exited ${r.status}`;
  const err = new Error(msg);
  err.exitCode = r.status;
  return err;
}

function needVersion(ccVersion) {
  if (typeof ccVersion !== "string" || ccVersion === "") {
    throw new TypeError("ccVersion must be a Claude Code release such as \"2.1.32\"");
  }
}

/**
 * The hooks.json for release ccVersion, byte for byte what
 * `hookgen --cc-version <ccVersion> --spec <spec>` prints.
 * spec is a spec file's path or a spec object.
 */
function generate({ ccVersion, spec } = {}) {
  needVersion(ccVersion);
  const args = ["--cc-version", ccVersion];
  let input;
  if (typeof spec === "string") {
    args.push("--spec", spec);
  } else if (spec && typeof spec === "object") {
    args.push("--spec", "-");
    input = JSON.stringify(spec);
  } else if (spec !== undefined) {
    throw new TypeError("spec must be a path or a spec object");
  }
  const r = run(args, input);
  if (r.status !== 0) {
    throw fail(r);
  }
  return r.stdout;
}

/**
 * What release ccVersion's loader does with the manifest, one
 * {file, pointer, consequence, from, to, message, fix, rule} per finding,
 * rejections first; [] when it loads and runs as written. manifest is a
 * hooks.json path or the manifest as an object.
 */
function validate({ ccVersion, manifest } = {}) {
  needVersion(ccVersion);
  const args = ["validate", "--json", "--cc-version", ccVersion];
  let input;
  if (typeof manifest === "string") {
    args.push(manifest);
  } else if (manifest && typeof manifest === "object") {
    args.push("-");
    input = JSON.stringify(manifest);
  } else {
    throw new TypeError("manifest must be a path or a manifest object");
  }
  const r = run(args, input);
  if (r.status !== 0 && r.status !== 1) {
    throw fail(r);
  }
  return JSON.parse(r.stdout);
}

/** The support table: the plugin floor, the band edges, every feature with its first release. */
function bands() {
  const r = run(["matrix", "--json"]);
  if (r.status !== 0) {
    throw fail(r);
  }
  return JSON.parse(r.stdout);
}

const hook = require("./lib/hook");

module.exports = { generate, validate, bands, binaryPath, ...hook };

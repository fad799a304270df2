"use strict";
// The hook API: the canonical event a hook command stands for, and its
// answer in the channel the release band needs. Both are the hookgen
// binary's (`hookgen event`, `hookgen reply`), which run the Go code
// hookwright's own runtime runs; nothing of the translation or of the
// protocol is written again here.
//
// Never a block by our own fault: every failure here (no binary, bad
// input, a handler that throws) ends the hook with exit 1 and one line on
// stderr, which Claude Code shows to the user and never reads as a block.

const fs = require("fs");
const { spawn, spawnSync } = require("child_process");
const { binaryPath } = require("./binary");

/** The hook's command line as hookgen event read it, for reply(). */
let current = null;

/** One line for stderr from a failed hookgen run. */
function failure(stderr, status) {
  const line = String(stderr || "").trim().split("\n")[0];
  return line || `hookgen exited ${status}`;
}

/**
 * The canonical event this hook call stands for: a Promise of the event's
 * input (the JSON Claude Code sends, as an object), or of null when the
 * event Claude Code fired stands for nothing and the hook must answer
 * nothing (a TaskUpdate that completes no task, a TodoWrite, a plain
 * subagent, or, where the command says --with-native, a release that
 * fires the canonical event itself to the plugin's native registration).
 *
 * It reads this process's stdin (the first JSON value, never waiting for
 * its end) and --via/--proto/--with-native and the event name from
 * process.argv, as hookgen wrote them into hooks.json. Read stdin only through it.
 *
 * options.argv: the hook's arguments (default process.argv.slice(2));
 * options.input: the event JSON (a string or an object) instead of stdin;
 * options.env: the environment (default process.env).
 */
function event(options = {}) {
  const argv = options.argv || process.argv.slice(2);
  const input = options.input;
  return new Promise((resolve, reject) => {
    let bin;
    try {
      bin = binaryPath();
    } catch (err) {
      reject(err);
      return;
    }
    const child = spawn(bin, ["event", "--", ...argv], {
      stdio: [input === undefined ? "inherit" : "pipe", "pipe", "pipe"],
      env: options.env || process.env,
      windowsHide: true,
    });
    const out = [];
    const err = [];
    child.stdout.on("data", (b) => out.push(b));
    child.stderr.on("data", (b) => err.push(b));
    child.on("error", (e) => reject(new Error(`hookgen: cannot run ${bin}: ${e.message}`)));
    if (input !== undefined) {
      child.stdin.on("error", () => {}); // hookgen may stop reading after the first value
      child.stdin.end(typeof input === "string" ? input : JSON.stringify(input));
    }
    child.on("close", (status) => {
      const stderr = Buffer.concat(err).toString("utf8");
      if (status !== 0) {
        const e = new Error(failure(stderr, status));
        e.exitCode = status;
        reject(e);
        return;
      }
      let parsed;
      try {
        parsed = JSON.parse(Buffer.concat(out).toString("utf8"));
      } catch (e) {
        reject(new Error(`hookgen event printed no JSON: ${e.message}`));
        return;
      }
      current = parsed.hook;
      resolve(parsed.event);
    });
  });
}

/** The hook's command line as the last event() read it: {event, via, proto}. */
function hook() {
  return current;
}

/** Writes all of data to fd, waiting out a full pipe. */
function writeAll(fd, data) {
  let buf = Buffer.from(data, "utf8");
  while (buf.length > 0) {
    try {
      buf = buf.subarray(fs.writeSync(fd, buf));
    } catch (e) {
      if (e.code !== "EAGAIN") {
        throw e;
      }
    }
  }
}

/** Ends the hook with exit 1 and one line on stderr: a fault of ours fails open. */
function failOpen(message) {
  let line = String(message).split("\n")[0];
  if (!line.startsWith("hookgen: ")) {
    line = "hookgen: " + line;
  }
  try {
    writeAll(2, `${line} (failed open)\n`);
  } finally {
    process.exit(1);
  }
}

/**
 * Answers the hook call with result and exits: writes what Claude Code
 * reads on this release band (stdout, stderr) and exits with its code.
 * result: {decision: "block"|"ask"|"allow", reason, context, systemMessage,
 * halt, stopReason, updatedInput}, every field optional.
 * options.hook: the command line {event, via, proto} (default: the one
 * event() read).
 */
function reply(result = {}, options = {}) {
  const h = options.hook || current;
  if (!h || !h.event) {
    failOpen("reply() before event(): the hook's event is not known");
    return;
  }
  const args = ["reply", h.event];
  if (h.via) args.push("--via", h.via);
  if (h.proto) args.push("--proto", h.proto);
  let bin;
  try {
    bin = binaryPath();
  } catch (err) {
    failOpen(err.message);
    return;
  }
  const r = spawnSync(bin, args, { input: JSON.stringify(result), encoding: "utf8", windowsHide: true });
  if (r.error || r.status !== 0) {
    failOpen(r.error ? `cannot run ${bin}: ${r.error.message}` : failure(r.stderr, r.status));
    return;
  }
  let answer;
  try {
    answer = JSON.parse(r.stdout);
  } catch (e) {
    failOpen(`hookgen reply printed no JSON: ${e.message}`);
    return;
  }
  writeAll(1, answer.stdout);
  writeAll(2, answer.stderr);
  process.exit(answer.code);
}

/** Blocks with reason (a denied tool call, a task kept open, a teammate sent back to work) and exits. */
function block(reason) {
  reply({ decision: "block", reason: String(reason) });
}

/** Asks the user before the tool runs (PreToolUse), with reason, and exits. */
function ask(reason) {
  reply({ decision: "ask", reason: String(reason) });
}

/**
 * Lets the call go on and exits; options.context reaches the model
 * (additionalContext, or a system message where the event takes none),
 * options.systemMessage the user. With options.reason it is an explicit
 * allow: PreToolUse and PermissionRequest run the tool without asking.
 */
function allow(options = {}) {
  const result = { context: options.context, systemMessage: options.systemMessage };
  if (options.reason !== undefined) {
    result.decision = "allow";
    result.reason = String(options.reason);
  }
  reply(result);
}

/** Stops Claude Code (continue:false) with reason, and exits. */
function halt(reason) {
  reply({ halt: true, stopReason: String(reason) });
}

/**
 * The whole hook in one call: reads the canonical event, calls
 * handler(event) (unless the event stands for nothing), and answers with
 * what it returns (a result object as for reply(), or nothing to go on).
 * A handler that throws fails open: exit 1, one line on stderr.
 */
async function run(handler, options = {}) {
  let ev;
  try {
    ev = await event(options);
  } catch (err) {
    failOpen(err.message);
    return;
  }
  if (ev === null) {
    process.exit(0);
    return;
  }
  let result;
  try {
    result = await handler(ev);
  } catch (err) {
    failOpen(err && err.message ? err.message : String(err));
    return;
  }
  reply(result || {});
}

module.exports = { event, hook, reply, block, ask, allow, halt, run };

// A JavaScript hook: reads the first JSON value on stdin (never waits for
// EOF), answers on stdout, exits 0. Usage: node hook.js <event> [--via <fired>].
const event = process.argv[2];
let buf = "";
process.stdin.on("data", (chunk) => {
  buf += chunk;
  let input;
  try {
    input = JSON.parse(buf);
  } catch {
    return; // not complete yet
  }
  if (event === "SessionStart") {
    process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "js-gates is on" } }) + "\n");
  }
  process.exit(0);
});

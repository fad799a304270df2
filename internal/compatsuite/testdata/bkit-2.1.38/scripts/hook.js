// Reads the first JSON value on stdin (never waits for EOF) and exits 0
// without output: the fixture is about what the loader accepts.
let buf = "";
process.stdin.on("data", (chunk) => {
  buf += chunk;
  try {
    JSON.parse(buf);
  } catch {
    return; // not complete yet
  }
  process.exit(0);
});

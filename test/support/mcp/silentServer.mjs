// A process that reads its input and never answers: a stuck MCP server. It
// exits when its input closes, as a stuck but well-behaved process would.
process.stdin.resume();

// Package modelapi is a scripted stand-in for the Anthropic Messages API, so
// the real Claude Code CLI can run fully offline on loopback.
//
// A [Script] lists the assistant turns of a conversation in order. Each turn
// is plain text ([Text]) or one tool call ([ToolUse]), optionally preceded by
// text. Claude Code runs the tool, its hooks included, and sends the
// tool_result back in the next request; the server records it, so a test can
// read what a hook told the model ([Server.ToolResults]).
//
// # Lanes: main conversation, subagents and side requests
//
// Every POST /v1/messages is classified:
//
//   - A side request is one whose body offers no tools ("tools" absent or
//     []). Claude Code sends these for housekeeping, usually on the small
//     model, and they get a short plain-text answer without consuming a
//     turn. Seen: 2.0.30 sends two "Warmup" requests (haiku and sonnet,
//     Explore-agent system prompt, tools []) after the first main request;
//     2.1.33 asks haiku to "Extract any file paths that this command reads
//     or modifies" after a Bash call succeeds; 2.1.330 sent none in -p mode
//     with CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1. Main and subagent
//     requests always carried tools (17 on 2.1.33, 12 on 2.1.330; subagents
//     11 and 8).
//   - Otherwise the request belongs to a conversation lane. A turn whose
//     Marker is set belongs to the lane of requests whose system prompt or
//     opening user messages (those before the first assistant message)
//     contain that marker; this is how a test scripts a subagent (put the
//     marker in the Task/Agent prompt, which becomes the subagent's first
//     user message; 2.1.69 sends its deferred-tools list as a user message
//     before it). Requests that match no marker belong
//     to the main lane (Marker ""). On 2.1.330 the Agent tool runs the
//     subagent in the background: the main lane gets an "Async agent
//     launched" tool_result at once, and a later main request carries the
//     completion notice.
//
// # Advancing
//
// Each lane has a cursor. Turn N+1 is served only on a request that carries
// progress past turn N: for a tool call, a tool_result block with turn N's
// tool_use id; for a text turn, more messages than the request that got turn
// N. Any other request in the lane (a retry) gets turn N again, byte for byte
// the same. When a lane's turns run out it answers "done." with stop_reason
// end_turn.
//
// # Waiting for another agent
//
// A turn with [Turn.WaitFor] set is held back until a request of its lane
// carries that text in a user message; until then the lane answers
// [WaitText] (end_turn) without consuming a turn. An agent-team lead uses
// it to act only once its teammate has reported (its messages arrive in
// the lead's conversation as <teammate-message> user messages), whatever
// else arrives first.
//
// # Wire format
//
// With "stream": true the answer is a server-sent event stream: message_start,
// content_block_start/content_block_delta/content_block_stop per block (tool
// input arrives as input_json_delta fragments), message_delta with the
// stop_reason, and message_stop. Without it the same message is one JSON
// object. POST /v1/messages/count_tokens answers a token estimate; any other
// path gets a JSON 404.
//
// Set [Server.LogDir] before [Server.Start] to write every request body to a
// numbered file there, which is the quickest way to see what a release sends.
package modelapi

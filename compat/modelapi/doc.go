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
//   - A side request is one whose body offers no tools. Claude Code sends
//     these for housekeeping (session titles, topic detection, summaries),
//     usually on the small model. They get a short plain-text answer and
//     never consume a turn.
//   - Otherwise the request belongs to a conversation lane. A turn whose
//     Marker is set belongs to the lane of requests whose system prompt or
//     first user message contains that marker; this is how a test scripts a
//     subagent (put the marker in the Task/Agent prompt). Requests that match
//     no marker belong to the main lane (Marker "").
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

// Package pdca tracks Plan-Do-Check-Act progress per feature from the tasks
// the agents complete, and tells an idle teammate what to do next.
//
// # Tagging a task
//
// A task takes part when its subject starts with a phase tag and a feature
// name:
//
//	[Plan] login-flow: outline the screens
//	[Do] login-flow: implement handler
//	[Act-2] login-flow apply the review
//	[Report] billing
//
// The grammar, exactly:
//
//	subject = { space } "[" tag "]" space { space } feature [ rest ]
//	tag     = "Plan" | "Design" | "Do" | "Check" | "Act" | "Act-" digits | "Report"
//	feature = alnum { alnum | "-" | "_" | "." }        (at most 64 bytes)
//	rest    = ( ":" | space ) anything
//
// Tags are matched without regard to case; "Act-N" needs 1 <= N <= 999. The
// feature name is lower-cased, so "Login-Flow" and "login-flow" are one
// feature, and it must also pass [safepath.Name] (it can never name a path
// outside the project). Any other subject is ignored.
//
// # Advancing
//
// When a tagged task completes, [Advancer] records it in the state file
// (config pdca.state, default .hookwright/pdca.json) under the feature: the
// feature's phase becomes the tag of the task that completed last (a PDCA
// loop goes back from Act to Do, and the state says so), its iteration is
// the highest Act round seen ("Act" counts as round 1), and a per-phase count
// and a bounded history (the last [MaxHistory] steps) are kept. The same task
// completing twice (the same task list and id) changes nothing, so the native
// event and a fallback, or a teammate's stop re-running TaskCompleted, never
// count a task twice.
//
// The state file is updated under a lock file with a bounded wait, written
// to a temporary file and renamed, so concurrent hook processes never lose
// an update and readers never see a torn file (see internal/runtime/statefile).
//
// Completion arrives in one of two ways, and both end in the same state:
//
//   - natively, as TaskCompleted (Claude Code 2.1.33+), which carries
//     task_id and task_subject;
//   - through the fallback `hookwright TaskCompleted --via PostToolUse` on a
//     TaskUpdate call (2.1.16+). Its input carries only {"taskId","status"},
//     so the fallback reads the subject from the task file Claude Code keeps
//     (see internal/runtime/tasklist and hooks.Translate).
//
// What it says depends on config pdca.automation:
//
//   - "manual": it records the phase and says nothing;
//   - "semi" (the default): it also answers with a short note ("PDCA
//     login-flow: Do done; next: Check.");
//   - "full": the note adds that an idle teammate is offered the next
//     phase's task first, and [NextTask] does so (see below).
//
// The note is the Result's Context: additionalContext, for the model, where
// the event takes it (the PostToolUse(TaskUpdate) fallback), and a
// systemMessage on native TaskCompleted, which takes no additionalContext.
// Errors fail open.
//
// # The idle teammate
//
// [NextTask] answers TeammateIdle (or its SubagentStop/Stop fallbacks, when
// they carry team fields). It reads the team's task list and, when the
// teammate still owns a task in progress, or a pending task is ready (owned
// by the teammate or by nobody, with every blocker completed), it blocks the
// idle with "Next task: #N <subject> ...". With pdca.automation "full" it
// first looks for a ready pending task tagged with the next phase of a
// feature in progress ("[Check] login" after "[Do] login"), the most
// recently advanced feature first. An unowned task that the team status
// (package teamstatus) shows open with another active teammate is skipped.
//
// The channel is exit 2 with that text on stderr. TeammateIdle accepts no
// hookSpecificOutput, so additionalContext is not available; a
// systemMessage only reaches the user; and continue:false (2.1.69+) stops the
// teammate, the opposite of what is wanted. Exit 2 is what Claude Code
// 2.1.33 turns into a message to the teammate before it resumes its turn, so
// the teammate reads its next task and keeps working. To never keep a
// teammate busy forever on a task it cannot take, each task is offered to a
// teammate at most [MaxNudges] times (counted in .hookwright/idle.json).
//
// # Seeing the state
//
//	hwctl pdca status [--dir PROJECT] [--json]
package pdca

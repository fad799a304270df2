// Package pdca is the PDCA state file (config pdca.state, by default
// .hookwright/pdca.json): each feature's Plan-Do-Check-Act phase, its
// iteration and its history, and the task-subject tags ("[Do] login:
// build") that move it. The pdca handlers advance it as tasks complete;
// hwctl and the store read it. It is updated under a lock and written
// atomically (internal/runtime/statefile).
package pdca

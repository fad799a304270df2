/** A hookgen handler spec: see `hookgen --help`. */
export interface Spec {
  description?: string;
  protoFlag?: boolean;
  exec?: boolean;
  handlers: Array<{
    event: string;
    matcher?: string;
    command: string;
    timeout?: number;
    statusMessage?: string;
  }>;
}

/** One thing a release's loader does with a plugin's file. */
export interface Violation {
  /** "hooks.json" or "plugin.json". */
  file: string;
  /** JSON pointer of the offending value; "" is the whole file. */
  pointer: string;
  /** "rejected" (nothing of it runs), "dropped" (this entry never runs), "ignored" (read past) or "lint". */
  consequence: "rejected" | "dropped" | "ignored" | "lint";
  /** The first and last release it holds on; to is "" for "and later". */
  from: string;
  to: string;
  /** What happens, in an author's words. */
  message: string;
  /** How to fix it. */
  fix: string;
  /** The rule's ID in hookwright's release table. */
  rule: string;
}

/** One row of the support table. */
export interface Feature {
  kind: string;
  name: string;
  scope?: string;
  /** The first Claude Code release that has it. */
  since: string;
  source: string;
  note?: string;
}

/** The support table. */
export interface Bands {
  /** The first release that loads a plugin hooks.json. */
  floor: string;
  /** The band edges, oldest first. */
  bands: string[];
  features: Feature[];
  /** The fallbacks, in one line. */
  fallbacks: string;
}

/** The hooks.json for a release, byte for byte what the hookgen CLI writes. Throws on a bad spec or release. */
export function generate(options: { ccVersion: string; spec?: string | Spec }): string;

/** Every reason the release would reject the manifest; [] when it loads. */
export function validate(options: { ccVersion: string; manifest: string | object }): Violation[];

/** The support table. */
export function bands(): Bands;

/** The path of the hookgen binary this package runs. */
export function binaryPath(): string;

/**
 * A hook event's input, as Claude Code sends it (session_id, cwd,
 * hook_event_name, and the event's own fields: tool_name and tool_input,
 * task_id and task_subject, teammate_name and team_name, ...).
 */
export interface HookEvent {
  session_id: string;
  transcript_path: string;
  cwd: string;
  hook_event_name: string;
  [field: string]: unknown;
}

/** The hook's command line as event() read it. */
export interface Hook {
  /** The canonical event the handler is written for. */
  event: string;
  /** The event Claude Code fired in its place, for a fallback registration. */
  via?: string;
  /** The protocol band (the first release of the band). */
  proto?: string;
}

/** A handler's answer; every field is optional. */
export interface Result {
  decision?: "block" | "ask" | "allow" | "none";
  /** Goes with the decision; for a block, what Claude reads. */
  reason?: string;
  /** Additional context for the model. */
  context?: string;
  /** Shown to the user. */
  systemMessage?: string;
  /** Stop Claude Code (continue:false) with stopReason. */
  halt?: boolean;
  stopReason?: string;
  /** Replaces a PreToolUse tool input. */
  updatedInput?: Record<string, unknown>;
}

/**
 * The canonical event this hook call stands for, read from stdin and
 * process.argv (--via, --proto, --with-native, the event name): the event's input, or
 * null when the fired event stands for nothing (answer nothing, exit 0).
 */
export function event(options?: { argv?: string[]; input?: string | object; env?: Record<string, string | undefined> }): Promise<HookEvent | null>;

/** The command line the last event() read. */
export function hook(): Hook | null;

/** Writes the answer in the channel the band needs and exits with its code. */
export function reply(result?: Result, options?: { hook?: Hook }): never;

/** Blocks with reason and exits. */
export function block(reason: string): never;

/** Asks the user before the tool runs (PreToolUse) and exits. */
export function ask(reason: string): never;

/** Goes on, with context for the model and a message for the user; with reason, an explicit allow. Exits. */
export function allow(options?: { context?: string; systemMessage?: string; reason?: string }): never;

/** Stops Claude Code (continue:false) and exits. */
export function halt(reason: string): never;

/** The whole hook: the event, the handler (skipped for null), the answer. A throw fails open (exit 1). */
export function run(handler: (event: HookEvent) => Result | void | Promise<Result | void>, options?: { argv?: string[]; input?: string | object; env?: Record<string, string | undefined> }): Promise<never>;

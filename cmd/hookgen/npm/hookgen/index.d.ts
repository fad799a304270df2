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

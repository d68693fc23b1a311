import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { z } from "zod";

/**
 * Every finished stage is a JSON file under `<out>/.toolsim-generate/`. A file that exists
 * and still passes its shape check is a stage that need not run again; one that does not
 * (cut short, edited by hand into something broken) is generated anew.
 */
export class StageFiles {
  readonly root: string;

  constructor(out: string) {
    this.root = join(out, ".toolsim-generate");
  }

  path(...segments: string[]): string {
    return join(this.root, ...segments);
  }

  read<T>(relative: string, shape: z.ZodType<T>): T | undefined {
    const file = this.path(relative);
    if (!existsSync(file)) return undefined;
    try {
      const parsed = shape.safeParse(JSON.parse(readFileSync(file, "utf8")));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  /** Written whole or not at all: a run killed mid-write leaves no half file to resume from. */
  write(relative: string, value: unknown): string {
    const file = this.path(relative);
    writeJsonAtomically(file, value);
    return file;
  }
}

export function writeJsonAtomically(file: string, value: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(temporary, file);
}

/** A file-name-safe form of a name: "Personal Finance" → "personal-finance". */
export function slugOf(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 60) || "unnamed"
  );
}

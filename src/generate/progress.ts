/** Where progress goes: stderr in the CLI. Only `write` and `isTTY` are used. */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface StageProgress {
  /** One item of the stage finished; `note` says which (and how it went). */
  tick(note: string): void;
}

const WIDTH = 24;

/**
 * Plain-text progress per stage: a bar redrawn in place on a terminal, one line per
 * finished item anywhere else (logs, CI), so nothing is lost when stderr is a file.
 */
export class Progress {
  constructor(private readonly stream: ProgressStream) {}

  stage(name: string, total: number): StageProgress {
    let done = 0;
    const label = name.padEnd(10);
    if (total === 0) {
      this.stream.write(`${label} nothing to do\n`);
      return { tick: () => undefined };
    }
    if (this.stream.isTTY) this.stream.write(`${label} ${bar(0, total)} 0/${total}`);
    return {
      tick: (note) => {
        done++;
        if (this.stream.isTTY) {
          const end = done === total ? "\n" : "";
          this.stream.write(`\r\x1b[2K${label} ${bar(done, total)} ${done}/${total} ${note}${end}`);
        } else this.stream.write(`${label} ${done}/${total} ${note}\n`);
      },
    };
  }

  note(text: string): void {
    this.stream.write(`${text}\n`);
  }
}

function bar(done: number, total: number): string {
  const filled = Math.round((done / total) * WIDTH);
  return `[${"#".repeat(filled)}${"-".repeat(WIDTH - filled)}]`;
}

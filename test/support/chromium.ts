import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";
import { tempDir } from "./processes.js";

/** The Chromium binary: TOOLSIM_CHROMIUM, or chromium / chromium-browser on the PATH. */
export function chromiumPath(): string | undefined {
  const given = process.env.TOOLSIM_CHROMIUM;
  if (given) return existsSync(given) ? given : undefined;
  for (const name of ["chromium", "chromium-browser"]) {
    try {
      return execFileSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).trim() || undefined;
    } catch {
      // not this one
    }
  }
  return undefined;
}

/** Why the browser tests cannot run here (they fail instead under CI, which installs Chromium). */
export function chromiumUnavailable(): string | undefined {
  if (chromiumPath()) return undefined;
  const why = "Chromium is not installed (apt-get install chromium, or set TOOLSIM_CHROMIUM)";
  if (process.env.CI) throw new Error(why);
  return why;
}

export interface HeadlessChromium {
  browser: Browser;
  close(): Promise<void>;
}

/**
 * Headless Chromium with a fresh profile, started here and driven over the DevTools
 * protocol (playwright-core connects to the address it prints).
 */
export async function startChromium(): Promise<HeadlessChromium> {
  const binary = chromiumPath();
  if (!binary) throw new Error("Chromium is not installed");
  const profile = tempDir("toolsim-chromium-");
  const child: ChildProcess = spawn(
    binary,
    [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--no-first-run",
      `--user-data-dir=${profile.path}`,
      "--remote-debugging-port=0",
      "about:blank",
    ],
    // its own process group: its helper processes (renderer, utility) are stopped with it
    { stdio: ["ignore", "ignore", "pipe"], detached: true },
  );
  const endpoint = await new Promise<string>((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => reject(new Error(`Chromium did not start:\n${text}`)), 30_000);
    child.stderr?.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(text);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`Chromium exited with ${code}:\n${text}`));
    });
  });
  const browser = await chromium.connectOverCDP(endpoint);
  return {
    browser,
    close: async () => {
      await browser.close().catch(() => {});
      if (child.exitCode === null) {
        const gone = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGKILL");
        await gone;
      }
      // a helper still writing into the profile makes removing it fail: wait until the group is gone
      await groupGone(child.pid);
      profile.cleanup();
    },
  };
}

/** Stops what is left of a process group and waits (up to 5 s) until none of it runs. */
async function groupGone(pid: number | undefined): Promise<void> {
  if (pid === undefined) return;
  const alive = () => {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (alive()) process.kill(-pid, "SIGKILL");
  for (let waited = 0; alive() && waited < 5_000; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

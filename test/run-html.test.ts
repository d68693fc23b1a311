import { readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumUnavailable, type HeadlessChromium, startChromium } from "./support/chromium.js";
import {
  catalogOf,
  type FakeOpenAI,
  FIXTURES,
  runCli,
  startFakeOpenAI,
  taskPlayer,
  tempDir,
} from "./support/index.js";

const TICKETS = join(FIXTURES, "tasks", "ticket-desk.json");
const tasks = catalogOf([TICKETS])
  .allTasks()
  .map((t) => t.task);
const unavailable = chromiumUnavailable();
if (unavailable) process.stderr.write(`skipping the HTML run report in a browser: ${unavailable}\n`);

describe.skipIf(unavailable !== undefined)(
  "the HTML run report in headless Chromium",
  { timeout: 120_000 },
  () => {
    const dir = tempDir("toolsim-run-html-");
    const html = join(dir.path, "report", "run.html");
    let model: FakeOpenAI;
    let chromium: HeadlessChromium;
    beforeAll(async () => {
      model = await startFakeOpenAI({ respond: taskPlayer(tasks, { skipUntilFeedback: ["close_ticket"] }) });
      const run = await runCli(
        [
          "run",
          "--model",
          "agent",
          "--toolsets",
          TICKETS,
          "--tasks",
          "ticket-fix-printer,ticket-delete-vpn",
          "-k",
          "2",
          "--feedback-retries",
          "1",
          "--db",
          join(dir.path, "runs.db"),
          "--html",
          html,
        ],
        { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "sk-scripted" },
      );
      if (run.code !== 0) throw new Error(`toolsim run failed: ${run.stderr}`);
      chromium = await startChromium();
    }, 120_000);
    afterAll(async () => {
      await chromium?.close();
      await model?.close();
      dir.cleanup();
    });

    it("writes the run's page and a page per attempt that open with no console errors, and link each other", async () => {
      expect(readdirSync(join(dir.path, "report", "run-attempts")).sort()).toEqual([
        "ticket-delete-vpn-1.html",
        "ticket-delete-vpn-2.html",
        "ticket-fix-printer-1.html",
        "ticket-fix-printer-2.html",
      ]);
      const context = chromium.browser.contexts()[0] ?? (await chromium.browser.newContext());
      const page = await context.newPage();
      const problems: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
      });
      page.on("pageerror", (error) => problems.push(error.message));
      page.on("requestfailed", (request) =>
        problems.push(`${request.url()}: ${request.failure()?.errorText}`),
      );

      await page.goto(pathToFileURL(html).href);
      expect(await page.title()).toBe("toolsim run run-1");
      expect(await page.locator("h2").allTextContents()).toEqual([
        "Pass rates",
        "Tasks",
        "Attempts",
        "ToolScan patterns",
      ]);
      const links = page.locator("table a");
      expect(await links.count()).toBe(4);

      await page.locator("a", { hasText: "run-1/ticket-fix-printer/1" }).click();
      await page.waitForURL(/ticket-fix-printer-1\.html$/);
      expect(await page.title()).toBe("toolsim report — run-1/ticket-fix-printer/1");
      expect(await page.locator("p.good b").first().textContent()).toBe("Run outcome: passed");
      // the trajectory: the user's request, the calls, the judge's feedback, the calls after it, the answers
      const roles = await page.locator(".said b").allTextContents();
      expect(roles).toEqual(["user", "agent", "judge's feedback to the agent", "agent"]);
      expect(await page.locator(".call").count()).toBe(4);

      await page.locator("a", { hasText: "run run-1" }).click();
      await page.waitForURL(/run\.html$/);
      await page.goto(
        pathToFileURL(join(dir.path, "report", "run-attempts", "ticket-delete-vpn-2.html")).href,
      );
      expect(await page.locator(".said.agent").textContent()).toContain("INFEASIBLE");
      expect(problems).toEqual([]);
    });
  },
);

import { ABSENT, renderString, type TemplateScope, type ToolError } from "../../catalog/index.js";
import type { ToolFailure } from "../../simulate/index.js";
import { dig } from "./paths.js";
import { EffectFailure, type Run } from "./run.js";

/**
 * How an effect answers with an error: the tool's documented error, its message filled
 * from the call; or, when the catalog is at fault, EFFECT_FAILED saying so.
 */

export function fail(run: Run, code: string, extra: Record<string, unknown> = {}, reason?: string): never {
  throw new EffectFailure(failureOf(run, code, extra, reason));
}

/** A documented error, or one the effect supplies itself when the tool documents none of that code. */
export function failureOf(
  run: Run,
  code: string,
  extra: Record<string, unknown> = {},
  reason?: string,
  fallback?: ToolError,
): ToolFailure {
  const documented = run.tool.errors.find((e) => e.code === code) ?? fallback;
  const message = documented ? renderMessage(documented.message, run.scope) : undefined;
  const described = describeFailure(
    code,
    documented && { ...documented, message: message ?? documented.message },
    { ...extra, ...run.scope.args },
  );
  if (reason) described.message = `${described.message} (${reason})`;
  return described;
}

/** EFFECT_FAILED: an effect could not run as written; nothing of the call is applied. */
export function brokenEffect(run: Run, reason: string): ToolFailure {
  return {
    code: "EFFECT_FAILED",
    status: 500,
    message: `toolsim cannot answer ${run.tool.name}: effect ${run.index} (${run.effect.kind}) cannot run: ${reason}. The catalog needs fixing (toolsim lint); this is not a problem with the call.`,
  };
}

/** Fills `{$binding.field}`, `{$now}` and `{$runtime.x}` in an error message; `{argument}` stays for describeFailure. */
function renderMessage(message: string, scope: TemplateScope): string {
  return message.replace(/\{\$[A-Za-z_][A-Za-z0-9_.]*\}/g, (whole) => {
    const value = renderString(whole, scope);
    if (value === ABSENT) return whole;
    return typeof value === "string" ? value : JSON.stringify(value);
  });
}

/** Fills `{argument}` placeholders of a documented error message from the call. */
export function describeFailure(
  code: string,
  documented: ToolError | undefined,
  values: Record<string, unknown>,
): ToolFailure {
  const message = (documented?.message ?? code).replace(
    /\{([A-Za-z_][A-Za-z0-9_.]*)\}/g,
    (whole, path: string) => {
      const value = dig(values, path);
      if (value === undefined) return whole;
      return typeof value === "string" ? value : JSON.stringify(value);
    },
  );
  return { code, status: documented?.status ?? 400, message };
}

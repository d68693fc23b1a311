/**
 * Templates in effect targets and values: "{order_id}", "Order {order_id}", "{$now}",
 * "{$id}", "{$order.total}", "{$runtime.user_id}". Parsing lives here so the loader can
 * check references and the effects engine can render them with one grammar.
 */

export type TemplateRef =
  | { source: "argument"; path: string[] }
  | { source: "now" }
  | { source: "id" }
  | { source: "runtime"; path: string[] }
  | { source: "binding"; name: string; path: string[] };

export type TemplatePart = { text: string } | { ref: TemplateRef; raw: string };

const PLACEHOLDER = /\{([$A-Za-z_][A-Za-z0-9_.$-]*)\}/g;

export function parseRef(expression: string): TemplateRef {
  if (!expression.startsWith("$")) return { source: "argument", path: expression.split(".") };
  const [head = "", ...path] = expression.slice(1).split(".");
  if (head === "now" && path.length === 0) return { source: "now" };
  if (head === "id" && path.length === 0) return { source: "id" };
  if (head === "runtime") return { source: "runtime", path };
  return { source: "binding", name: head, path };
}

export function parseTemplate(template: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    const index = match.index ?? 0;
    if (index > last) parts.push({ text: template.slice(last, index) });
    parts.push({ ref: parseRef(match[1] ?? ""), raw: match[0] });
    last = index + match[0].length;
  }
  if (last < template.length) parts.push({ text: template.slice(last) });
  return parts;
}

/** `{"$expr": "..."}`: a value computed by an expression, not a template (version 2). */
export function isExpressionValue(value: unknown): value is { $expr: string } {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === "$expr" && typeof (value as { $expr: unknown }).$expr === "string";
}

/** Every reference in a JSON value whose strings may be templates (expression values hold none). */
export function collectRefs(value: unknown, out: TemplateRef[] = []): TemplateRef[] {
  if (isExpressionValue(value)) return out;
  if (typeof value === "string") {
    for (const part of parseTemplate(value)) if ("ref" in part) out.push(part.ref);
  } else if (Array.isArray(value)) {
    for (const item of value) collectRefs(item, out);
  } else if (value && typeof value === "object") {
    for (const item of Object.values(value)) collectRefs(item, out);
  }
  return out;
}

export interface TemplateScope {
  args: Record<string, unknown>;
  now: string;
  /** The id the latest create minted: a string key, or a number where the ids are numbers. */
  id?: string | number;
  runtime: Record<string, unknown>;
  bindings: Record<string, unknown>;
}

/** Marks a value that a template could not resolve, so callers can leave the field out. */
export const ABSENT: unique symbol = Symbol("absent");

export function resolveRef(ref: TemplateRef, scope: TemplateScope): unknown {
  switch (ref.source) {
    case "argument":
      return dig(scope.args, ref.path);
    case "now":
      return scope.now;
    case "id":
      return scope.id ?? ABSENT;
    case "runtime":
      return dig(scope.runtime, ref.path);
    case "binding":
      return dig(scope.bindings[ref.name], ref.path);
  }
}

function dig(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== "object") return ABSENT;
    current = (current as Record<string, unknown>)[key];
  }
  return current === undefined ? ABSENT : current;
}

/**
 * Renders a template string. A string that is exactly one placeholder keeps the value's
 * type (numbers stay numbers); text around placeholders makes a string. Any absent
 * reference makes the whole value absent.
 */
export function renderString(template: string, scope: TemplateScope): unknown {
  const parts = parseTemplate(template);
  const only = parts[0];
  if (parts.length === 1 && only && "ref" in only) return resolveRef(only.ref, scope);
  let out = "";
  for (const part of parts) {
    if ("text" in part) {
      out += part.text;
      continue;
    }
    const value = resolveRef(part.ref, scope);
    if (value === ABSENT) return ABSENT;
    out += typeof value === "string" ? value : JSON.stringify(value);
  }
  return out;
}

/** Renders every template string inside a JSON value; absent fields of objects are dropped. */
export function renderValue(value: unknown, scope: TemplateScope): unknown {
  if (typeof value === "string") return renderString(value, scope);
  if (Array.isArray(value)) {
    const items = value.map((item) => renderValue(item, scope)).filter((item) => item !== ABSENT);
    return items;
  }
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const rendered = renderValue(item, scope);
      if (rendered !== ABSENT) out[key] = rendered;
    }
    return out;
  }
  return value;
}

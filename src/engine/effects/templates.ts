import {
  parseTemplate,
  renderString,
  resolveRef,
  type TemplateRef,
  type TemplateScope,
} from "../../catalog/index.js";

/**
 * Template strings of effects (targets, `set`, `inc`, ...), rendered without parsing them on
 * every call: most are one placeholder ("{order_id}", "{$now}"), whose value is looked up
 * directly. The catalog's templates do not change, so what a string holds is worked out once.
 */

/** A string that is exactly one placeholder, or null when it is anything else. */
const lone = new Map<string, TemplateRef | null>();

function loneRef(text: string): TemplateRef | null {
  let ref = lone.get(text);
  if (ref === undefined) {
    const parts = parseTemplate(text);
    const [first] = parts;
    ref = parts.length === 1 && first && "ref" in first ? first.ref : null;
    lone.set(text, ref);
  }
  return ref;
}

/** The same value as the catalog's `renderString`. */
export function renderTemplate(text: string, scope: TemplateScope): unknown {
  const ref = loneRef(text);
  return ref ? resolveRef(ref, scope) : renderString(text, scope);
}

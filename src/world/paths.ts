/**
 * Paths in a tree, as POSIX shells read them: "/" separates names, a leading "/" starts at
 * the root, "." is where you are and ".." the folder above (the root's ".." is the root).
 * A path is kept as its list of names from the root; text is made only for answers.
 */

export type Segments = readonly string[];

/** The names of an absolute path text ("/a/b" → ["a", "b"]; "/" → []). */
export function segmentsOf(absolute: string): string[] {
  return absolute.split("/").filter((name) => name !== "" && name !== ".");
}

export function pathText(segments: Segments): string {
  return `/${segments.join("/")}`;
}

/**
 * Where a path leads from the current folder: absolute from the root, relative from `cwd`,
 * with "." and ".." resolved. Undefined for an empty path.
 */
export function resolvePath(path: string, cwd: Segments): string[] | undefined {
  const text = path.trim();
  if (text === "") return undefined;
  const start = text.startsWith("/") ? [] : [...cwd];
  for (const name of text.split("/")) {
    if (name === "" || name === ".") continue;
    if (name === "..") start.pop();
    else start.push(name);
  }
  return start;
}

/** The last name of a path ("" for the root). */
export function baseName(segments: Segments): string {
  return segments[segments.length - 1] ?? "";
}

/** Whether `inner` is `outer` or lies below it. */
export function isWithin(inner: Segments, outer: Segments): boolean {
  return outer.length <= inner.length && outer.every((name, i) => inner[i] === name);
}

/**
 * Shell-style wildcards (`*`, `?`, `[abc]`, `[!abc]`, `[a-z]`) as a test of whole names; a
 * name without them must match exactly. Matched by the two-pointer method, never a regular
 * expression built from input, so a pattern of many stars costs at most name × pattern steps.
 */
export function globTest(pattern: string): (name: string) => boolean {
  if (!/[*?[]/.test(pattern)) return (name) => name === pattern;
  const tokens = globTokens(pattern);
  return (name) => globMatches(tokens, [...name]);
}

/** Most alternatives one pattern's braces may expand to: `{a,b}{c,d}` is four. */
const MAX_ALTERNATIVES = 256;

/**
 * Globs of relative paths, as file-system servers and .gitignore-style filters read them:
 * `/` separates names, `**` as a whole name stands for any number of folders (at least one
 * at the end of the pattern: `old/**` is what lies below `old`), `{a,b}` for either, and
 * each name is matched as `globTest` matches it; names starting with "." are not special.
 * Matched name by name with a table of (pattern name, path name) pairs, so the cost is
 * bounded by names × pattern names × the cost of one name, whatever the input.
 */
export function pathGlobTest(pattern: string): (relative: string) => boolean {
  const alternatives = expandBraces(pattern).map((one) =>
    one
      .split("/")
      .filter((name) => name !== "")
      .map((name) => (name === "**" ? GLOBSTAR : globTest(name))),
  );
  return (relative) => {
    const names = relative.split("/").filter((name) => name !== "" && name !== ".");
    return alternatives.some((parts) => pathMatches(parts, names));
  };
}

const GLOBSTAR = Symbol("**");
type PathPart = typeof GLOBSTAR | ((name: string) => boolean);

function pathMatches(parts: readonly PathPart[], names: readonly string[]): boolean {
  // can[i][j]: parts from i match names from j
  const can: boolean[][] = Array.from({ length: parts.length + 1 }, () =>
    new Array<boolean>(names.length + 1).fill(false),
  );
  (can[parts.length] as boolean[])[names.length] = true;
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i] as PathPart;
    const row = can[i] as boolean[];
    const next = can[i + 1] as boolean[];
    const last = i === parts.length - 1;
    for (let j = names.length; j >= 0; j--) {
      if (part === GLOBSTAR) {
        // zero names (not at the end), or one name and the globstar again
        row[j] =
          (!last && next[j] === true) || (j < names.length && (next[j + 1] === true || row[j + 1] === true));
      } else {
        row[j] = j < names.length && next[j + 1] === true && part(names[j] as string);
      }
    }
  }
  return (can[0] as boolean[])[0] === true;
}

/** `a{b,c}d` → `abd`, `acd`; nested braces too; at most MAX_ALTERNATIVES, the rest dropped. */
function expandBraces(pattern: string): string[] {
  const open = pattern.indexOf("{");
  if (open < 0) return [pattern];
  let depth = 0;
  const commas: number[] = [];
  let close = -1;
  for (let i = open; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "{") depth++;
    else if (c === "}" && --depth === 0) {
      close = i;
      break;
    } else if (c === "," && depth === 1) commas.push(i);
  }
  // an unclosed brace or one without a comma is a literal brace
  if (close < 0 || commas.length === 0) {
    const rest = expandBraces(pattern.slice(open + 1));
    return rest.map((tail) => `${pattern.slice(0, open + 1)}${tail}`).slice(0, MAX_ALTERNATIVES);
  }
  const head = pattern.slice(0, open);
  const tails = expandBraces(pattern.slice(close + 1));
  const bounds = [open, ...commas, close];
  const out: string[] = [];
  for (let k = 0; k < bounds.length - 1 && out.length < MAX_ALTERNATIVES; k++) {
    const choice = pattern.slice((bounds[k] as number) + 1, bounds[k + 1]);
    for (const inner of expandBraces(choice))
      for (const tail of tails) if (out.length < MAX_ALTERNATIVES) out.push(`${head}${inner}${tail}`);
  }
  return out;
}

type GlobToken = { any: true } | { one: true } | { set: (c: string) => boolean } | { char: string };

function globTokens(pattern: string): GlobToken[] {
  const chars = [...pattern];
  const tokens: GlobToken[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] as string;
    if (c === "*") tokens.push({ any: true });
    else if (c === "?") tokens.push({ one: true });
    else if (c === "[") {
      const end = chars.indexOf("]", i + 2);
      if (end < 0) tokens.push({ char: c });
      else {
        tokens.push({ set: charClass(chars.slice(i + 1, end)) });
        i = end;
      }
    } else tokens.push({ char: c });
  }
  return tokens;
}

function charClass(inside: string[]): (c: string) => boolean {
  const negated = inside[0] === "!" || inside[0] === "^";
  const members = negated ? inside.slice(1) : inside;
  const ranges: Array<[string, string]> = [];
  for (let i = 0; i < members.length; i++) {
    const from = members[i] as string;
    if (members[i + 1] === "-" && i + 2 < members.length) {
      ranges.push([from, members[i + 2] as string]);
      i += 2;
    } else ranges.push([from, from]);
  }
  return (c) => ranges.some(([from, to]) => c >= from && c <= to) !== negated;
}

function tokenMatches(token: GlobToken, c: string): boolean {
  if ("one" in token) return true;
  if ("set" in token) return token.set(c);
  return "char" in token && token.char === c;
}

function globMatches(tokens: readonly GlobToken[], name: readonly string[]): boolean {
  let p = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    const token = tokens[p];
    if (token && !("any" in token) && tokenMatches(token, name[n] as string)) {
      p++;
      n++;
    } else if (token && "any" in token) {
      star = p++;
      resume = n;
    } else if (star >= 0) {
      p = star + 1;
      n = ++resume;
    } else return false;
  }
  while (p < tokens.length && "any" in (tokens[p] as GlobToken)) p++;
  return p === tokens.length;
}

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
 * Shell-style wildcards (`*`, `?`) as a test of whole names; a name without them must match
 * exactly. Matched by the two-pointer method, never a regular expression built from input,
 * so a pattern of many stars costs at most name × pattern steps.
 */
export function globTest(pattern: string): (name: string) => boolean {
  if (!/[*?]/.test(pattern)) return (name) => name === pattern;
  return (name) => globMatches(pattern, name);
}

function globMatches(pattern: string, name: string): boolean {
  let p = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    if (p < pattern.length && (pattern[p] === "?" || pattern[p] === name[n])) {
      p++;
      n++;
    } else if (p < pattern.length && pattern[p] === "*") {
      star = p++;
      resume = n;
    } else if (star >= 0) {
      p = star + 1;
      n = ++resume;
    } else return false;
  }
  while (pattern[p] === "*") p++;
  return p === pattern.length;
}

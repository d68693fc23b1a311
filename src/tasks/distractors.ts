import type { Catalog, Tool } from "../catalog/index.js";

/**
 * Distractors are tools of other toolsets that look most like the task's own: similar tools
 * are where agents pick wrong, so those are the ones worth adding. Similarity is the cosine
 * of word weights (name words count double; words common across the catalog count less).
 * Deterministic: ties go to the name that sorts first.
 */
export function chooseDistractors(catalog: Catalog, toolsetIds: readonly string[], count: number): string[] {
  if (count <= 0) return [];
  const own = toolsetIds.flatMap((id) => catalog.toolset(id)?.tools ?? []);
  const ownNames = new Set(own.map((t) => t.name));
  const candidates = catalog.allTools().filter((t) => !ownNames.has(t.name));
  if (candidates.length === 0) return [];
  const documents = catalog.allTools().map(wordsOf);
  const rarity = inverseFrequency(documents);
  const ownVectors = own.map((t) => weigh(wordsOf(t), rarity));
  return candidates
    .map((tool) => {
      const vector = weigh(wordsOf(tool), rarity);
      const score = Math.max(0, ...ownVectors.map((v) => cosine(v, vector)));
      return { name: tool.name, score };
    })
    .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name))
    .slice(0, count)
    .map((c) => c.name);
}

const STOP_WORDS = new Set(
  "a an and are as at be by for from has have in is it its of on or that the this to was were will with".split(
    " ",
  ),
);

function wordsOf(tool: Tool): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (word: string, weight: number) => {
    if (word.length < 2 || STOP_WORDS.has(word)) return;
    counts.set(word, (counts.get(word) ?? 0) + weight);
  };
  for (const word of splitWords(tool.name)) add(word, 2);
  for (const word of splitWords(`${tool.title ?? ""} ${tool.description}`)) add(word, 1);
  return counts;
}

function splitWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .map(stem)
    .filter(Boolean);
}

/** Plural and verb endings off, so "orders"/"order" and "cancels"/"cancel" meet. */
function stem(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

function inverseFrequency(documents: readonly Map<string, number>[]): Map<string, number> {
  const seen = new Map<string, number>();
  for (const document of documents)
    for (const word of document.keys()) seen.set(word, (seen.get(word) ?? 0) + 1);
  const weights = new Map<string, number>();
  for (const [word, n] of seen) weights.set(word, Math.log(1 + documents.length / n));
  return weights;
}

function weigh(counts: Map<string, number>, rarity: Map<string, number>): Map<string, number> {
  const vector = new Map<string, number>();
  for (const [word, count] of counts) vector.set(word, count * (rarity.get(word) ?? 1));
  return vector;
}

function cosine(a: Map<string, number>, b: Map<string, number>): number {
  let dot = 0;
  for (const [word, weight] of a) dot += weight * (b.get(word) ?? 0);
  const norm = (v: Map<string, number>) => Math.sqrt([...v.values()].reduce((sum, x) => sum + x * x, 0));
  const denominator = norm(a) * norm(b);
  return denominator === 0 ? 0 : dot / denominator;
}

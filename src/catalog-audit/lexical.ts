import type { Tool } from "../catalog/index.js";

/** The words a tool is known by: name, title, description and parameter names (camelCase and snake_case split). */
export function toolText(tool: Tool): string {
  const properties = tool.inputSchema.properties;
  const parameters = properties && typeof properties === "object" ? Object.keys(properties) : [];
  return [tool.name, tool.title ?? "", tool.description, parameters.join(" ")].join(" ");
}

function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 && !STOP_WORDS.has(w));
}

const STOP_WORDS = new Set([
  "the",
  "and",
  "of",
  "to",
  "for",
  "in",
  "on",
  "or",
  "an",
  "by",
  "with",
  "is",
  "are",
  "be",
  "it",
  "its",
  "as",
  "at",
  "from",
  "this",
  "that",
]);

/**
 * TF-IDF vectors (L2-normalised, sparse) of texts: the offline stand-in for embeddings.
 * Words shared by every text weigh nothing; rare shared words weigh most.
 */
export function tfidfVectors(texts: readonly string[]): Array<Map<string, number>> {
  const documents = texts.map(words);
  const frequency = new Map<string, number>();
  for (const document of documents)
    for (const word of new Set(document)) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  const n = documents.length;
  return documents.map((document) => {
    const counts = new Map<string, number>();
    for (const word of document) counts.set(word, (counts.get(word) ?? 0) + 1);
    const vector = new Map<string, number>();
    let norm = 0;
    for (const [word, count] of counts) {
      const weight = (1 + Math.log(count)) * Math.log((1 + n) / (1 + (frequency.get(word) ?? 0)) + 1);
      vector.set(word, weight);
      norm += weight * weight;
    }
    const length = Math.sqrt(norm) || 1;
    for (const [word, weight] of vector) vector.set(word, weight / length);
    return vector;
  });
}

export function sparseCosine(a: Map<string, number>, b: Map<string, number>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [word, weight] of small) dot += weight * (large.get(word) ?? 0);
  return dot;
}

export function denseCosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

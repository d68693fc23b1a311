/**
 * Ranks candidate names by closeness to a name that does not exist, so an agent that
 * typed `get_invoice_detail` is pointed at `get_invoice_details`. Mixes edit distance (typos)
 * with shared words (`cancel_order` vs `order_cancel`), both case- and separator-insensitive.
 */
export function nearest(name: string, candidates: readonly string[], limit: number): string[] {
  const target = normalize(name);
  const targetWords = words(name);
  const scored: Array<{ candidate: string; score: number }> = [];
  for (const candidate of candidates) {
    const score = similarity(target, targetWords, candidate);
    if (score >= 0.34) scored.push({ candidate, score });
  }
  scored.sort((a, b) => b.score - a.score || a.candidate.localeCompare(b.candidate));
  return scored.slice(0, limit).map((s) => s.candidate);
}

function similarity(target: string, targetWords: Set<string>, candidate: string): number {
  const other = normalize(candidate);
  const longest = Math.max(target.length, other.length) || 1;
  const editScore = 1 - levenshtein(target, other, longest) / longest;
  const otherWords = words(candidate);
  let shared = 0;
  for (const word of targetWords) if (otherWords.has(word)) shared++;
  const wordScore = shared / (Math.max(targetWords.size, otherWords.size) || 1);
  return Math.max(editScore, wordScore * 0.95);
}

function normalize(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}

function words(name: string): Set<string> {
  const spaced = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return new Set(spaced.split(/[^a-z0-9]+/).filter(Boolean));
}

/** Edit distance with an early exit once it exceeds `cap`. */
function levenshtein(a: string, b: string, cap: number): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) >= cap) return cap;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
      current.push(value);
      if (value < rowMin) rowMin = value;
    }
    if (rowMin >= cap) return cap;
    previous = current;
  }
  return previous[b.length] ?? cap;
}

/**
 * A value of the same shape as a real one that names nothing: the key with its last
 * characters changed (digits for digits, upper case for upper case, other letters for lower
 * case) until `taken` says no entity has it. How probes of unknown ids, keys, symbols and
 * paths are made, without a list of made-up names.
 */
export function absentLike(key: string, taken: (candidate: string) => boolean): string {
  for (let position = key.length - 1; position >= 0; position--) {
    const char = key[position] ?? "";
    const pool = /[0-9]/.test(char)
      ? "0123456789"
      : /[A-Z]/.test(char)
        ? "ABCDEFGHJKLMNPQRSTUVWXYZ"
        : "abcdefghijkmnpqrstuvwxyz";
    for (const replacement of pool) {
      const candidate = `${key.slice(0, position)}${replacement}${key.slice(position + 1)}`;
      if (!taken(candidate)) return candidate;
    }
  }
  return `${key}0`;
}

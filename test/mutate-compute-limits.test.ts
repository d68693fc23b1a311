import { describe, expect, it } from "vitest";
import { calc } from "../src/compute/index.js";

// the ceilings the room documents (src/compute/mathjs.ts); its door does not export them
const COMBINATORICS_LIMIT = 10_000;
const PRIME_LIMIT = 1e12;

/**
 * The ceilings on the calculator's functions whose running time grows with their arguments:
 * past the ceiling an expression is refused with the function's name and the limit, at the
 * ceiling it is computed.
 */
describe("calculator functions with a ceiling", () => {
  it("refuses combinations and permutations of more than the limit, naming the function", () => {
    const above = COMBINATORICS_LIMIT + 1;
    for (const [text, name] of [
      [`combinations(${above}, 2)`, "combinations"],
      [`permutations(${above}, 2)`, "permutations"],
      [`permutations(${above})`, "permutations"],
      [`combinations(-${above}, 2)`, "combinations"],
    ] as const) {
      const result = calc(text);
      expect(result.ok, text).toBe(false);
      if (!result.ok)
        expect(result.error, text).toContain(
          `${name}: arguments above ${COMBINATORICS_LIMIT} are not computed`,
        );
    }
  });

  it("computes them at the limit, with and without the number chosen", () => {
    expect(calc(`combinations(${COMBINATORICS_LIMIT}, 2)`)).toEqual({ ok: true, value: 49_995_000 });
    expect(calc(`permutations(${COMBINATORICS_LIMIT}, 2)`)).toEqual({ ok: true, value: 99_990_000 });
    expect(calc("permutations(5)")).toEqual({ ok: true, value: 120 });
  });

  it("refuses a primality test above its limit and answers one at it", () => {
    const refused = calc(`isPrime(${PRIME_LIMIT * 10})`);
    expect(refused.ok).toBe(false);
    if (!refused.ok)
      expect(refused.error).toContain(`isPrime: arguments above ${PRIME_LIMIT} are not computed`);
    expect(calc("isPrime(1000000007)")).toEqual({ ok: true, value: true });
    expect(calc("isPrime(1000000008)")).toEqual({ ok: true, value: false });
  });
});

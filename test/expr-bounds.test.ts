import { describe, expect, it } from "vitest";
import { EXPRESSION_BOUNDS, type ExpressionScope, evaluateExpression } from "../src/expr/index.js";

const NOW = "2026-03-02T09:00:00Z";
const scope = (input: unknown = {}): ExpressionScope => ({ input, variables: { args: input }, now: NOW });
const evaluate = (text: string, input?: unknown) => evaluateExpression(text, scope(input));

describe("expression bounds: what each says when it stops an evaluation", () => {
  it("names a range too large, before building it", async () => {
    expect(await evaluate("$sum([1..100000000])")).toEqual({
      ok: false,
      kind: "bound",
      error: `was stopped: it built a range of more than ${EXPRESSION_BOUNDS.arrayItems} items`,
    });
  });

  it("names a sequence too long", async () => {
    expect(await evaluate("($a := [1..99999]; $count($append($a, [1..99999])))")).toEqual({
      ok: false,
      kind: "bound",
      error: `was stopped: it built a sequence of more than ${EXPRESSION_BOUNDS.arrayItems} items`,
    });
  });

  it("caps an array built by a function that is not a sequence", async () => {
    const evaluated = await evaluate('($n := [1..2]; $count($split($pad("x", 200000, "a"), "")))');
    expect(evaluated).toEqual({
      ok: false,
      kind: "bound",
      error: `was stopped: it built an array of 200000 items; the limit is ${EXPRESSION_BOUNDS.arrayItems}`,
    });
  });

  it("names a string too long with its length", async () => {
    const evaluated = await evaluate(
      '($f := function($s) { $s & $s & $s & $s }; $length($f($f($f($f($f($f($f($f($f($f("ab"))))))))))))',
    );
    expect(evaluated).toEqual({
      ok: false,
      kind: "bound",
      error: `was stopped: it built a string of 1048576 characters; the limit is ${EXPRESSION_BOUNDS.stringChars}`,
    });
  });

  it("lets values up to the limits through", async () => {
    expect(await evaluate("$count([1..100000])")).toEqual({ ok: true, value: 100_000 });
    expect(await evaluate(`$length($pad("x", ${EXPRESSION_BOUNDS.stringChars}))`)).toEqual({
      ok: true,
      value: EXPRESSION_BOUNDS.stringChars,
    });
    expect(
      await evaluate('($f := function($s) { $s & $s }; $length($f($f($f($f($pad("x", 50000)))))))'),
    ).toEqual({ ok: true, value: 800_000 });
    // many builds each within the limits add up, and stay within the total
    expect(await evaluate("$count($map([1..40], function($i) { [1..90000] }))")).toEqual({
      ok: true,
      value: 40,
    });
  });

  it("refuses a $pad width past the string bound, on either side", async () => {
    for (const width of [EXPRESSION_BOUNDS.stringChars + 1, -(EXPRESSION_BOUNDS.stringChars + 1)]) {
      expect(await evaluate(`$pad("x", ${width})`)).toEqual({
        ok: false,
        kind: "bound",
        error: `was stopped: it asked $pad for ${EXPRESSION_BOUNDS.stringChars + 1} characters; the limit is ${EXPRESSION_BOUNDS.stringChars}`,
      });
    }
  });

  it("pads as JSONata does: nothing to pad, an empty filler, several-character fillers, absent text", async () => {
    expect(await evaluate('$pad("abc", 2)')).toEqual({ ok: true, value: "abc" });
    expect(await evaluate('$pad("abc", -3, "*")')).toEqual({ ok: true, value: "abc" });
    expect(await evaluate('$pad("x", 3, "")')).toEqual({ ok: true, value: "x  " });
    expect(await evaluate('$pad("x", 6, "ab")')).toEqual({ ok: true, value: "xababa" });
    expect(await evaluate('$pad("é", -3, "ü")')).toEqual({ ok: true, value: "üüé" });
    expect(await evaluate("$pad(missing, 3)")).toEqual({ ok: true, value: undefined });
  });
});

describe("expression bounds: what a growing expression may still do", () => {
  it("reads nothing and gives nothing without tripping a bound", async () => {
    expect(await evaluate("$map([1, 2], function($v) { $v.missing })")).toEqual({
      ok: true,
      value: undefined,
    });
  });

  it("builds a string of exactly the limit", async () => {
    expect(
      await evaluate(`($f := function($s) { $s }; $length($f($pad("x", ${EXPRESSION_BOUNDS.stringChars}))))`),
    ).toEqual({ ok: true, value: EXPRESSION_BOUNDS.stringChars });
  });

  it("counts what it builds, not what it reads again and again", async () => {
    // 200 reads of a 90,000-item array: 18 million items read, 90,000 built
    expect(await evaluate("($a := [1..90000]; $sum($map([1..200], function($i) { $count($a) })))")).toEqual({
      ok: true,
      value: 18_000_000,
    });
  });
});

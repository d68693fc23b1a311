import { describe, expect, it } from "vitest";
import { parseCallString, parsePythonCall } from "../src/catalog/index.js";

/**
 * Golden calls written as Python source: every literal the reader takes, where it puts
 * positional and keyword arguments, and the message (with its position) for what it refuses.
 */

const args = (text: string) => {
  const parsed = parseCallString(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.arguments;
};

const refusal = (text: string) => {
  const parsed = parsePythonCall(text);
  return parsed.ok ? "accepted" : parsed.message;
};

describe("a call's name and arguments", () => {
  it("reads a dotted name, positional then keyword arguments, with any spacing", () => {
    expect(parsePythonCall("  garden.plant ( 'fern' , 3,size = 'small' , pot=True )  ")).toEqual({
      ok: true,
      name: "garden.plant",
      positional: ["fern", 3],
      keywords: { size: "small", pot: true },
    });
    expect(parsePythonCall("water()")).toEqual({ ok: true, name: "water", positional: [], keywords: {} });
    expect(parsePythonCall("water(a=1,)")).toEqual({
      ok: true,
      name: "water",
      positional: [],
      keywords: { a: 1 },
    });
  });

  it("keeps only keyword arguments in a golden call, and refuses a positional one", () => {
    expect(parseCallString("water(plot='P1', litres=2.5)")).toEqual({
      ok: true,
      name: "water",
      arguments: { plot: "P1", litres: 2.5 },
    });
    expect(parseCallString("water('P1')")).toEqual({ ok: false, message: "argument 1 has no name" });
    expect(parseCallString("water(")).toEqual({ ok: false, message: "expected a value at character 7" });
  });

  it("tells a comparison from a keyword", () => {
    expect(refusal("check(a == 1)")).toBe('"a" is not a literal value at character 8');
  });

  it("refuses what Python would refuse, saying where", () => {
    expect(refusal("water(plot='P1', 'P2')")).toBe(
      "positional argument 1 follows a keyword argument at character 18",
    );
    expect(refusal("water(a=1, a=2)")).toBe('argument "a" is given twice at character 14');
    expect(refusal("water(a=1 b=2)")).toBe("expected , or ) at character 11");
    expect(refusal("water(a=1) now")).toBe("unexpected text after the call at character 12");
    expect(refusal("(a=1)")).toBe("expected a name at character 1");
    expect(refusal("water a=1")).toBe('expected "(" at character 7');
    expect(refusal("water(a=maybe)")).toBe('"maybe" is not a literal value at character 14');
    expect(refusal("water(a=@)")).toBe("expected a value at character 9");
    expect(refusal("water(a='dry)")).toBe("unterminated string at character 14");
    expect(refusal("water(a=[1 2])")).toBe("expected , or ] at character 12");
    expect(refusal("water(a={'k': 1 'j': 2})")).toBe("expected , or } at character 17");
    expect(refusal("water(a={'k' 1})")).toBe('expected ":" at character 14');
    expect(refusal("water(a=1")).toBe("expected , or ) at character 10");
  });
});

describe("literal values", () => {
  it("reads numbers in every Python form", () => {
    expect(args("f(a=1, b=-2, c=+3, d=4.5, e=.5, f=6., g=1e3, h=2.5E-2, i=-1e+2, j=007)")).toEqual({
      a: 1,
      b: -2,
      c: 3,
      d: 4.5,
      e: 0.5,
      f: 6,
      g: 1000,
      h: 0.025,
      i: -100,
      j: 7,
    });
  });

  it("reads True, False and None, and their JSON spellings", () => {
    expect(args("f(a=True, b=False, c=None, d=true, e=false, f=null)")).toEqual({
      a: true,
      b: false,
      c: null,
      d: true,
      e: false,
      f: null,
    });
  });

  it("reads strings in either quote, triple-quoted, with escapes", () => {
    expect(
      args(
        `f(a="it's", b='say "hi"', c='''multi\nline''', d="""x"y""", e='tab\\there', f='back\\\\slash', g='q\\'s', h="\\"", i='\\n\\r', j='\\z', k='')`,
      ),
    ).toEqual({
      a: "it's",
      b: 'say "hi"',
      c: "multi\nline",
      d: 'x"y',
      e: "tab\there",
      f: "back\\slash",
      g: "q's",
      h: '"',
      i: "\n\r",
      j: "z",
      k: "",
    });
  });

  it("reads lists, tuples and dicts, nested and with trailing commas", () => {
    expect(
      args("f(a=[1, [2, 3], ], b=(4, 'five'), c={'k': [1], 2: {'x': None}, }, d=[], e={}, f=( ))"),
    ).toEqual({
      a: [1, [2, 3]],
      b: [4, "five"],
      c: { k: [1], "2": { x: null } },
      d: [],
      e: {},
      f: [],
    });
  });
});

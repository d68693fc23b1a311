/**
 * Where a JSON text first goes wrong. Node's own parser does not always say (Node 20
 * often reports only the token), and an author needs a line and a column to fix a file.
 */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i] as string)) i++;
  };
  const fail = (): never => {
    throw new Located(i);
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail();
  };
  const string = () => {
    i++; // opening quote
    while (i < text.length) {
      const c = text[i] as string;
      if (c === '"') {
        i++;
        return;
      }
      if (c === "\\") i++;
      else if (c < " ") fail();
      i++;
    }
    fail();
  };
  const number = () => {
    const match = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i));
    if (!match || match[0] === "" || match[0] === "-") fail();
    i += (match as RegExpExecArray)[0].length;
  };
  const pair = () => {
    ws();
    if (text[i] !== '"') fail();
    string();
    ws();
    if (text[i] !== ":") fail();
    i++;
    value();
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === "{") members("}", pair);
    else if (c === "[") members("]", value);
    else if (c === '"') string();
    else if (c === "t") literal("true");
    else if (c === "f") literal("false");
    else if (c === "n") literal("null");
    else number();
  };
  const members = (close: string, item: () => void) => {
    i++;
    ws();
    if (text[i] === close) {
      i++;
      return;
    }
    for (;;) {
      item();
      ws();
      if (text[i] === ",") {
        i++;
        continue;
      }
      if (text[i] === close) {
        i++;
        return;
      }
      fail();
    }
  };
  try {
    value();
    ws();
    if (i < text.length) fail();
    return -1;
  } catch (error) {
    if (error instanceof Located) return error.offset;
    throw error;
  }
}

class Located {
  constructor(readonly offset: number) {}
}

export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split("\n").length, column: offset - before.lastIndexOf("\n") };
}

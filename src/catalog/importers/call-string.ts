/**
 * Reads golden calls written as Python source, e.g.
 * `RefundCalculator(order_id = "RET001", amounts = [1.5, 2], notify = True)` or
 * `sort('notes.txt', reverse=True)`. Values are Python literals (strings, numbers,
 * True/False/None, lists, tuples, dicts).
 */
export type ParsedCall =
  | { ok: true; name: string; arguments: Record<string, unknown> }
  | { ok: false; message: string };

/** A call with its positional arguments kept apart, in order, for the caller to name. */
export type ParsedPythonCall =
  | { ok: true; name: string; positional: unknown[]; keywords: Record<string, unknown> }
  | { ok: false; message: string };

class ParseFailure extends Error {}

/** A call with keyword arguments only (a positional one is an error: nothing could name it). */
export function parseCallString(text: string): ParsedCall {
  const parsed = parsePythonCall(text);
  if (!parsed.ok) return parsed;
  if (parsed.positional.length > 0) return { ok: false, message: "argument 1 has no name" };
  return { ok: true, name: parsed.name, arguments: parsed.keywords };
}

/** A call with positional arguments (first, as Python requires) and keyword arguments. */
export function parsePythonCall(text: string): ParsedPythonCall {
  const reader = new Reader(text.trim());
  try {
    const name = reader.identifier(true);
    reader.expect("(");
    const positional: unknown[] = [];
    const keywords: Record<string, unknown> = {};
    reader.skipSpace();
    while (!reader.peek(")")) {
      const key = reader.keyword();
      if (key === undefined) {
        if (Object.keys(keywords).length > 0)
          throw reader.fail(`positional argument ${positional.length + 1} follows a keyword argument`);
        positional.push(reader.value());
      } else {
        if (Object.hasOwn(keywords, key)) throw reader.fail(`argument "${key}" is given twice`);
        keywords[key] = reader.value();
      }
      reader.skipSpace();
      if (reader.peek(",")) reader.expect(",");
      else if (!reader.peek(")")) throw reader.fail("expected , or )");
      reader.skipSpace();
    }
    reader.expect(")");
    reader.skipSpace();
    if (!reader.done()) throw reader.fail("unexpected text after the call");
    return { ok: true, name, positional, keywords };
  } catch (error) {
    if (error instanceof ParseFailure) return { ok: false, message: error.message };
    throw error;
  }
}

class Reader {
  private at = 0;
  constructor(private readonly text: string) {}

  done(): boolean {
    return this.at >= this.text.length;
  }

  fail(what: string): ParseFailure {
    return new ParseFailure(`${what} at character ${this.at + 1}`);
  }

  skipSpace(): void {
    while (this.at < this.text.length && /\s/.test(this.text[this.at] ?? "")) this.at++;
  }

  peek(token: string): boolean {
    return this.text.startsWith(token, this.at);
  }

  expect(token: string): void {
    this.skipSpace();
    if (!this.peek(token)) throw this.fail(`expected "${token}"`);
    this.at += token.length;
  }

  /** `name =` (consumed, the name returned), or undefined with nothing consumed. */
  keyword(): string | undefined {
    this.skipSpace();
    const match = /^([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)/.exec(this.text.slice(this.at));
    if (!match?.[1]) return undefined;
    this.at += match[0].length;
    return match[1];
  }

  /** A name; dotted (`module.func`) when `dotted`. */
  identifier(dotted: boolean): string {
    this.skipSpace();
    const pattern = dotted ? /^[A-Za-z_][A-Za-z0-9_.]*/ : /^[A-Za-z_][A-Za-z0-9_]*/;
    const match = pattern.exec(this.text.slice(this.at));
    if (!match) throw this.fail("expected a name");
    this.at += match[0].length;
    return match[0];
  }

  value(): unknown {
    this.skipSpace();
    const c = this.text[this.at];
    if (c === '"' || c === "'") return this.string(c);
    if (c === "[") return this.sequence("[", "]");
    if (c === "(") return this.sequence("(", ")");
    if (c === "{") return this.dict();
    const number = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/.exec(this.text.slice(this.at));
    if (number) {
      this.at += number[0].length;
      return Number(number[0]);
    }
    const word = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(this.text.slice(this.at));
    if (word) {
      this.at += word[0].length;
      if (word[0] === "True" || word[0] === "true") return true;
      if (word[0] === "False" || word[0] === "false") return false;
      if (word[0] === "None" || word[0] === "null") return null;
      throw this.fail(`"${word[0]}" is not a literal value`);
    }
    throw this.fail("expected a value");
  }

  private string(quote: string): string {
    const triple = quote.repeat(3);
    const closing = this.peek(triple) ? triple : quote;
    this.at += closing.length;
    let out = "";
    while (!this.done()) {
      if (this.peek(closing)) {
        this.at += closing.length;
        return out;
      }
      const c = this.text[this.at] ?? "";
      if (c === "\\") {
        const next = this.text[this.at + 1] ?? "";
        out += ESCAPES[next] ?? next;
        this.at += 2;
      } else {
        out += c;
        this.at++;
      }
    }
    throw this.fail("unterminated string");
  }

  private sequence(open: string, close: string): unknown[] {
    this.expect(open);
    const items: unknown[] = [];
    this.skipSpace();
    while (!this.peek(close)) {
      items.push(this.value());
      this.skipSpace();
      if (this.peek(",")) this.expect(",");
      else if (!this.peek(close)) throw this.fail(`expected , or ${close}`);
      this.skipSpace();
    }
    this.expect(close);
    return items;
  }

  private dict(): Record<string, unknown> {
    this.expect("{");
    const out: Record<string, unknown> = {};
    this.skipSpace();
    while (!this.peek("}")) {
      const key = this.value();
      this.expect(":");
      out[String(key)] = this.value();
      this.skipSpace();
      if (this.peek(",")) this.expect(",");
      else if (!this.peek("}")) throw this.fail("expected , or }");
      this.skipSpace();
    }
    this.expect("}");
    return out;
  }
}

const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\", "'": "'", '"': '"' };

import { z } from "zod";
import { Toolset } from "./format.js";

/**
 * The toolset format as JSON Schema (draft 2020-12), for editors. Generated from the zod
 * schema so the two can never disagree; `npm run schema` writes it to schema/.
 */
export function toolsetJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(Toolset, { target: "draft-2020-12", io: "input", unrepresentable: "any" });
  return {
    title: "toolsim toolset",
    description:
      "One toolset of a toolsim catalog: its tools (JSON Schema in and out, documented errors, effects) and tasks.",
    ...schema,
  };
}

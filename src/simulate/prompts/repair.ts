/** The follow-up turn that shows the model what was wrong with its answer. */
export function repairRequest(problems: readonly string[]): string {
  return [
    "Your answer cannot be used as it is:",
    ...problems.map((p) => `- ${p}`),
    "",
    "Answer the same call again with one corrected JSON object in the same format. Keep what was right; fix only these problems.",
  ].join("\n");
}

/** The follow-up turn after a reviewer judged the answer wrong. */
export function regenerateRequest(problems: readonly string[]): string {
  return [
    "A reviewer who checked your answer against the tool's specification found these problems:",
    ...problems.map((p) => `- ${p}`),
    "",
    "Answer the same call again with one corrected JSON object in the same format.",
  ].join("\n");
}

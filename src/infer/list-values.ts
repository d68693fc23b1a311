/**
 * Expressions over a list of plain values that several rules write: the list without a value,
 * and a value's 0-based place in it. JSONata's `$filter` of an empty result is undefined, not
 * `[]`, so the list is rebuilt with `$append([], …)`; inside a `[[…]]` predicate the context is
 * the element, so the place is found over the indexes instead.
 */

export function withoutValue(list: string, value: string): string {
  return `$append([], $filter(${list}, function($v) { $v != ${value} }))`;
}

/** The value's 0-based place in the list, or null where it is not there. */
export function placeOfValue(list: string, value: string): string {
  return `($at := $filter([0..$count(${list}) - 1], function($i) { ${list}[$i] = ${value} }); $exists($at) ? $at[0] : null)`;
}

/** How deep a parsed JSON value nests, measured without recursion (a hostile file cannot overflow the stack). */

/**
 * The deepest nesting of arrays and objects in `value` (a scalar is 0, `[]` is 1, `[[1]]` is 2),
 * counted with an explicit stack; it stops counting once past `limit` and returns a number over it.
 *
 * @example nestingDepth({ a: [1, { b: 2 }] }, 32) // 3
 */
export function nestingDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > limit) return deepest;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return deepest;
}

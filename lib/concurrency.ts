/**
 * Bounded concurrency that keeps input order.
 *
 * @example
 * ```ts
 * import { mapConcurrent } from "./concurrency.ts";
 * const sizes = await mapConcurrent(["a", "b"], 8, async (name) => name.length);
 * ```
 * @module
 */

/**
 * Maps `items` through `fn` with at most `limit` calls in flight; results are
 * in input order. The first rejection rejects the whole call (after the calls
 * in flight settle).
 */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (failure === undefined && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index], index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure !== undefined) throw failure.error;
  return results;
}

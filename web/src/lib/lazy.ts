/**
 * A value made on first use, then kept. For what costs at start-up but is not needed there:
 * the first `Intl` object loads the locale's data, ~35 ms inside the task that runs every
 * module (issue 18).
 */
export function lazy<T>(make: () => T): () => T {
  let made: { value: T } | null = null;
  return () => (made ??= { value: make() }).value;
}

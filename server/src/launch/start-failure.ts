/**
 * The one line a failed start prints (the stack follows only with LOG_LEVEL=debug): what failed
 * and, for the errors an operator meets, what to do about it.
 */
export function startFailureLine(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]!.trim();
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ETIMEDOUT') {
    return `Margins could not start: the database did not answer (${message}); check DATABASE_URL and that PostgreSQL is running.`;
  }
  if (code === '28P01' || code === '28000') {
    return `Margins could not start: the database refused the login (${message}); check DATABASE_URL's user and password.`;
  }
  if (code === '3D000') {
    return `Margins could not start: ${message}; create it, or point DATABASE_URL at one that exists.`;
  }
  if (code === 'EADDRINUSE') {
    return `Margins could not start: ${message}; another program listens there: stop it or set PORT.`;
  }
  return `Margins could not start: ${message || 'unknown error'}`;
}

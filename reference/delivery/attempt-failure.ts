/** One line saying why an attempt failed, from whatever undici, node:net, node:tls or the target guard threw. */
export function describeFailure(error: unknown, timeoutMs: number): string {
  const failure = innermost(error);
  const code = String((failure as NodeJS.ErrnoException).code ?? '');
  const message = failure instanceof Error ? failure.message : String(failure);
  if (isTimeout(failure, code)) return `timeout: no response within ${timeoutMs / 1000} s`;
  if (code === 'ERR_WEBHOOK_TARGET_REFUSED') return `target refused: ${message}`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA') return `DNS: ${message}`;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE')
    return 'connection closed before the response';
  if (/CERT|SSL|TLS|SELF_SIGNED|ALTNAME/i.test(code) || /certificate|ssl|tls/i.test(message))
    return `TLS: ${code || message}`;
  return code === '' ? message : `${code}: ${message}`;
}

function innermost(error: unknown): unknown {
  let current = error;
  // undici wraps socket errors in `cause`; the innermost one names the reason.
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return current;
}

function isTimeout(failure: unknown, code: string): boolean {
  const name = failure instanceof Error ? failure.name : '';
  return (
    name === 'TimeoutError' ||
    name === 'AbortError' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'ETIMEDOUT'
  );
}

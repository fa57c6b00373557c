// Request ids: a sane X-Request-Id from the caller or a load balancer is kept (and echoed), anything else is
// replaced by ours (a per-process prefix and a counter).
import { randomBytes } from 'node:crypto';

const requestIdPrefix = `${randomBytes(6).toString('base64url')}-`;
let requestCount = 0;
const nextRequestId = () => requestIdPrefix + (++requestCount).toString(36);
// No spaces or control characters (log lines), bounded length: what tracing systems send (UUIDs, trace ids).
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@=+/-]{1,128}$/;

export function requestIdOf(req: { headers: Record<string, string | string[] | undefined> }): string {
  const h = req.headers['x-request-id'];
  return typeof h === 'string' && SANE_REQUEST_ID.test(h) ? h : nextRequestId();
}

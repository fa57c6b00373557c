// Logger settings: keys and tokens never reach the logs. Clients send secrets in the query string (browsers pass
// the hub's API key as ?access_token=), and in headers (X-API-Key, Authorization, Stripe-Signature, Cookie);
// the request serializer strips the first, pino's redaction the second wherever a header object gets logged.
import type { DestinationStream } from 'pino';

export const REDACTED = '[REDACTED]';

/** Query parameters that carry credentials, compared after percent-decoding and lowercasing. */
const SECRET_PARAMS = new Set([
  'access_token',
  'token',
  'id_token',
  'refresh_token',
  'api_key',
  'apikey',
  'x-api-key',
  'key',
  'signature',
  'id',
]);

const SECRET_HEADERS = [
  'authorization',
  'x-api-key',
  'stripe-signature',
  'cookie',
  'set-cookie',
  'proxy-authorization',
  'x-hub-signature',
  'x-credence-kyc-signature',
  'x-hmac-signature',
];

function decodeName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

/** The URL with the value of every credential-bearing query parameter replaced. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const parts = url
    .slice(q + 1)
    .split('&')
    .map((p) => {
      const eq = p.indexOf('=');
      const name = eq < 0 ? p : p.slice(0, eq);
      return SECRET_PARAMS.has(decodeName(name)) ? `${name}=${REDACTED}` : p;
    });
  return `${url.slice(0, q)}?${parts.join('&')}`;
}

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

const redactPaths = SECRET_HEADERS.flatMap((h) => [
  `req.headers["${h}"]`,
  `headers["${h}"]`,
  `res.headers["${h}"]`,
  `request.headers["${h}"]`,
]);

/** Fastify `logger` options: level, the redacting request serializer, header redaction, an optional stream. */
export function loggerOptions(level: string, stream?: DestinationStream | NodeJS.WritableStream) {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: { paths: redactPaths, censor: REDACTED },
    serializers: {
      req: (req: LoggedRequest) => ({
        method: req.method,
        url: redactUrl(req.url),
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
  };
}

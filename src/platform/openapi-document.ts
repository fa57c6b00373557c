// Turns the document @fastify/swagger builds from the route schemas into one a generated client is happy with:
// named component schemas (hoisted by title, so a schema another module adds tomorrow is named the same way),
// examples on every request and response, per-status error examples, the rate-limit and request-id headers,
// query parameters with defaults marked optional, and a real description on every response.
import { errorExamples, codesFor, sampleOf } from './openapi-examples.js';
import { STATUS_OF } from './errors.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const IDENT = /^[A-Za-z][A-Za-z0-9_.-]*$/;
const PHRASE: Record<string, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No content' };

/** The component name of a schema: its title when that is a name, else its $id, else its title in PascalCase. */
export function schemaName(s: Json): string | undefined {
  const { title, $id } = s;
  if (typeof title === 'string' && IDENT.test(title)) return title;
  if (typeof $id === 'string' && IDENT.test($id)) return $id;
  if (typeof title === 'string') {
    const n = title
      .split(/[^A-Za-z0-9]+/)
      .filter(Boolean)
      .map((w) => w[0].toUpperCase() + w.slice(1).toLowerCase())
      .join('');
    return IDENT.test(n) ? n : undefined;
  }
  return undefined;
}

const ANNOTATIONS = new Set(['description', 'example', 'examples', 'title', '$id', 'nullable']);
/** Structure without annotations: two schemas with the same name must agree on it. */
function shape(v: unknown): string {
  return JSON.stringify(v, (k, val) => {
    if (ANNOTATIONS.has(k)) return undefined;
    if (val && typeof val === 'object' && !Array.isArray(val))
      return Object.fromEntries(
        Object.keys(val)
          .sort()
          .map((key) => [key, val[key]]),
      );
    return val;
  });
}

export const HEADERS: Json = {
  RetryAfter: {
    description: 'Seconds to wait before retrying (rate limit: until the window frees up; quota: until 00:00 UTC on the 1st).',
    required: true,
    schema: { type: 'integer', example: 1 },
  },
  XRateLimitLimit: {
    description: 'Requests allowed per second for this API key (or client address).',
    schema: { type: 'integer', example: 10 },
  },
  XRateLimitRemaining: { description: 'Requests left in the current one-second window.', schema: { type: 'integer', example: 9 } },
  XRateLimitReset: { description: 'Unix time (seconds) when the window frees up.', schema: { type: 'integer', example: 1768469400 } },
  XRateLimitRetryAfter: { description: 'Same as Retry-After, on per-second rate limiting.', schema: { type: 'integer', example: 1 } },
  XRequestId: {
    description: 'The request id: the X-Request-Id the client sent (when sane), else one the service generated. Logged with every error.',
    schema: { type: 'string', example: '4fQ2kA-1x' },
  },
  Link: {
    description:
      'The next page of a list whose body is a bare array: `<url>; rel="next"` (absent on the last page). See Pagination in the API description.',
    schema: { type: 'string', example: '</api/v1/compliance/age-checks?limit=50&cursor=WyJh...>; rel="next"' },
  },
  XResponseTime: { description: 'Server time spent on the request, in milliseconds.', schema: { type: 'string', example: '1.250' } },
};
const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
const RATE = {
  'X-RateLimit-Limit': ref('XRateLimitLimit'),
  'X-RateLimit-Remaining': ref('XRateLimitRemaining'),
  'X-RateLimit-Reset': ref('XRateLimitReset'),
};
const ALWAYS = { 'X-Request-Id': ref('XRequestId'), 'X-Response-Time': ref('XResponseTime') };

export interface DocumentReport {
  /** Names given to two different structures (the second one is renamed Name2, Name3, ...). */
  conflicts: string[];
}

export function finishDocument(doc: Json, report: DocumentReport = { conflicts: [] }): Json {
  const schemas: Json = (doc.components.schemas ??= {});
  const resolve = (r: string) => schemas[r.replace('#/components/schemas/', '')];

  function children(node: Json): Json {
    const s = { ...node };
    if (s.properties) s.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, hoist(v)]));
    for (const k of ['items', 'additionalProperties', 'not']) if (s[k] && typeof s[k] === 'object') s[k] = hoist(s[k]);
    for (const k of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(s[k])) s[k] = s[k].map(hoist);
    // OpenAPI 3.0 schemas take one `example`; @fastify/swagger misses `examples` nested under additionalProperties
    if (Array.isArray(s.examples)) {
      if (s.example === undefined && s.examples.length) s.example = s.examples[0];
      delete s.examples;
    }
    return s;
  }

  function hoist(node: unknown): unknown {
    if (!node || typeof node !== 'object') return node;
    if (Array.isArray(node)) return node.map(hoist);
    if (typeof (node as Json).$ref === 'string') return node;
    const s = children(node as Json);
    const name = schemaName(s);
    delete s.$id;
    if (!name) return s;
    const { nullable, ...core } = s;
    let target = name;
    for (let i = 2; schemas[target] && shape(schemas[target]) !== shape(core); i++) {
      if (i === 2) report.conflicts.push(name);
      target = `${name}${i}`;
    }
    if (!schemas[target]) schemas[target] = { ...core, title: target === name ? (core.title ?? name) : target };
    const r = { $ref: `#/components/schemas/${target}` };
    return nullable ? { nullable: true, allOf: [r] } : r;
  }

  for (const name of Object.keys(schemas)) {
    const { $id: _id, ...body } = children(schemas[name]);
    schemas[name] = body;
  }

  /** A request or response object schema nobody named is named after its operation: CreateApiKeyResponse. */
  function named(schema: unknown, operationId: string | undefined, ...suffixes: string[]): unknown {
    const s = schema as Json;
    if (!s || s.$ref || !operationId || (s.type !== 'object' && !s.properties) || !s.properties || !Object.keys(s.properties).length)
      return s;
    const verb = operationId.split('.').pop()!;
    // a one-word verb (health.get) says too little on its own: HealthGetResponse
    const prefix = /[A-Z]/.test(verb)
      ? ''
      : operationId.split('.')[0].replace(/(^|[^A-Za-z0-9])([a-z])/g, (_m, _p, c: string) => c.toUpperCase());
    const area = operationId.split('.')[0].replace(/(^|[^A-Za-z0-9])([a-z])/g, (_m, _p, c: string) => c.toUpperCase());
    const bases = suffixes.map((suffix) => prefix + verb[0].toUpperCase() + verb.slice(1) + suffix);
    const { nullable, ...core } = s;
    // The first free (or same-shaped) name wins: an error status with the success body reuses the success name.
    for (const name of [...bases, ...bases.map((b) => area + b)]) {
      if (schemas[name] && shape(schemas[name]) !== shape(core)) continue;
      schemas[name] ??= { ...core, title: name };
      const r = { $ref: `#/components/schemas/${name}` };
      return nullable ? { nullable: true, allOf: [r] } : r;
    }
    return s;
  }

  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    for (const [method, op] of Object.entries<Json>(item)) {
      const where = `${method.toUpperCase()} ${path}`;
      for (const p of op.parameters ?? []) {
        if (p.in === 'query' && p.schema?.default !== undefined) p.required = false;
      }
      for (const media of Object.values<Json>(op.requestBody?.content ?? {})) {
        media.schema = named(hoist(optionalDefaults(media.schema)), op.operationId, 'Request');
        if (media.example === undefined && media.examples === undefined) media.example = sampleOf(media.schema, resolve);
      }
      const apiKey = (op.security ?? []).some((s: Json) => 'ApiKey' in s);
      for (const [code, res] of Object.entries<Json>(op.responses)) {
        for (const [type, media] of Object.entries<Json>(res.content ?? {})) {
          media.schema = type.includes('json')
            ? named(
                hoist(media.schema),
                op.operationId,
                ...(Number(code) === 200 || !op.responses['200'] ? ['Response'] : ['Response', `Response${code}`]),
              )
            : hoist(media.schema);
          if (media.example !== undefined || media.examples !== undefined) continue;
          const isError = ['#/components/schemas/Error', '#/components/schemas/ValidationError'].includes(media.schema?.$ref);
          const errors = isError ? errorExamples(Number(code)) : undefined;
          if (errors) {
            const list = Object.values(errors);
            if (list.length === 1) media.example = list[0].value;
            else media.examples = errors;
          } else
            media.example = type.startsWith('text/html') ? '<!doctype html><html><body>…</body></html>' : sampleOf(media.schema, resolve);
        }
        if (res.description === 'Default Response' || !res.description) res.description = describe(code, op, res, resolve, where);
        res.headers = { ...(res.headers ?? {}), ...ALWAYS };
        if (code === '429')
          res.headers = {
            ...res.headers,
            'Retry-After': ref('RetryAfter'),
            ...RATE,
            'X-RateLimit-Retry-After': ref('XRateLimitRetryAfter'),
          };
        else if (apiKey && /^2/.test(code)) res.headers = { ...res.headers, ...RATE };
        // a paged list with a bare-array body carries its next page in Link (see Pagination)
        const paged = (op.parameters ?? []).some((p: Json) => p.in === 'query' && p.name === 'cursor');
        if (paged && code === '200' && res.content?.['application/json']?.schema?.type === 'array')
          res.headers = { ...res.headers, Link: ref('Link') };
        for (const h of Object.keys(res.headers))
          if (['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-Response-Time'].includes(h) && !res.headers[h].$ref)
            res.headers[h] = (RATE as Json)[h] ?? ref('XResponseTime');
      }
    }
  }

  // The error code is one of the shared map's codes; the validation error's is always validation_failed.
  if (schemas.Error?.properties?.error)
    schemas.Error.properties.error = { ...schemas.Error.properties.error, enum: Object.keys(STATUS_OF), example: 'not_found' };
  if (schemas.ValidationError?.properties?.error)
    schemas.ValidationError.properties.error = {
      ...schemas.ValidationError.properties.error,
      enum: codesFor(400),
      example: 'validation_failed',
    };
  doc.components.headers = { ...(doc.components.headers ?? {}), ...HEADERS };
  return doc;
}

/** A request body property with a default may be left out: it is not `required` for the client. */
function optionalDefaults(schema: Json | undefined): Json | undefined {
  if (!schema?.properties || !Array.isArray(schema.required)) return schema;
  const required = schema.required.filter((k: string) => schema.properties[k]?.default === undefined);
  const { required: _all, ...rest } = schema;
  return required.length ? { ...rest, required } : rest;
}

function describe(code: string, op: Json, res: Json, resolve: (r: string) => Json | undefined, where: string): string {
  const media: Json | undefined = Object.values<Json>(res.content ?? {})[0];
  const schema = media?.schema?.$ref ? resolve(media.schema.$ref) : media?.schema;
  if (typeof schema?.description === 'string' && schema.description) return schema.description;
  const phrase = PHRASE[code] ?? `Status ${code}`;
  const summary: string = op.summary ?? where;
  const lead = /^[A-Z]{2}/.test(summary) ? summary : summary[0].toLowerCase() + summary.slice(1);
  return `${phrase}: ${lead}.`;
}

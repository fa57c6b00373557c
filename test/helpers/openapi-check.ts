// Checks responses against the published OpenAPI document: the status must be declared for the operation,
// the media type must be the declared one, the body must match its schema, required headers must be sent.
// test/helpers/app.ts runs it on every response of every test app, so the whole suite checks the contract.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { ajvFormats } from '../../src/platform/http/schemas.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** OpenAPI 3.0 schemas to JSON Schema: `nullable: true` becomes a `null` alternative. */
export function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) out[k] = k === 'example' || k === 'examples' ? v : toJsonSchema(v);
  if (out.nullable === true) {
    delete out.nullable;
    if (typeof out.type === 'string' && !out.allOf && !out.anyOf && !out.oneOf && !out.$ref) {
      out.type = [out.type, 'null'];
      if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
      return out;
    }
    return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

const pointer = (...parts: string[]) => '#/' + parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

export interface ResponseToCheck {
  method: string;
  /** The route as registered (`/api/v1/reputation/:address`), or undefined when no route matched. */
  route: string | undefined;
  status: number;
  contentType: string | undefined;
  headers: Record<string, unknown>;
  body: string | Buffer | null | undefined;
}

export function createResponseChecker(doc: Json) {
  const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false });
  addFormats.default(ajv);
  for (const [name, validate] of Object.entries(ajvFormats)) ajv.addFormat(name, { type: 'string', validate });
  ajv.addSchema(toJsonSchema(doc) as Json, 'openapi.json');
  const compiled = new Map<string, ValidateFunction>();
  const validator = (ptr: string) => {
    let v = compiled.get(ptr);
    if (!v) compiled.set(ptr, (v = ajv.compile({ $ref: `openapi.json${ptr}` })));
    return v;
  };

  /** A sentence describing the mismatch, or null when the response matches the document. */
  return function check(r: ResponseToCheck): string | null {
    const path = r.route?.replace(/:(\w+)(\([^)]*\))?/g, '{$1}');
    const method = r.method.toLowerCase();
    const op = path ? doc.paths[path]?.[method] : undefined;
    const where = `${r.method} ${path ?? '(no route)'} -> ${r.status}`;
    const type = r.contentType?.split(';')[0].trim().toLowerCase();
    const text = r.body == null ? '' : Buffer.isBuffer(r.body) ? r.body.toString('utf8') : String(r.body);
    if (!op) {
      // Undocumented (hidden or unmatched) routes: their errors still have the one error body.
      if (r.status >= 400 && type === 'application/json')
        return validate(validator(pointer('components', 'schemas', 'Error')), text, where);
      return null;
    }
    const code = String(r.status);
    const key =
      code in op.responses ? code : `${code[0]}XX` in op.responses ? `${code[0]}XX` : 'default' in op.responses ? 'default' : null;
    if (!key) return `${where}: status ${code} is not declared (declared: ${Object.keys(op.responses).join(', ')})`;
    const res = op.responses[key];
    for (const [name, h] of Object.entries<Json>(res.headers ?? {})) {
      const header = h.$ref ? doc.components.headers[h.$ref.split('/').pop()] : h;
      if (header?.required && r.headers[name.toLowerCase()] === undefined) return `${where}: required header ${name} is missing`;
    }
    const content: Json | undefined = res.content;
    if (!content || !Object.keys(content).length)
      return text ? `${where}: the document declares no body, the response has one (${type})` : null;
    if (!text && r.method === 'HEAD') return null;
    if (!type || !(type in content))
      return `${where}: content type ${type ?? '(none)'} is not declared (declared: ${Object.keys(content).join(', ')})`;
    if (type !== 'application/json' && !type.endsWith('+json')) return null;
    return validate(validator(pointer('paths', path!, method, 'responses', key, 'content', type, 'schema')), text, where);
  };
}

function validate(v: ValidateFunction, text: string, where: string): string | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${where}: the body is not JSON: ${text.slice(0, 200)}`;
  }
  if (v(body)) return null;
  const errs = (v.errors ?? [])
    .slice(0, 5)
    .map(
      (e) =>
        `${e.instancePath || '(body)'} ${e.message}${e.params && 'allowedValues' in e.params ? ` ${JSON.stringify(e.params.allowedValues)}` : ''}`,
    );
  return `${where}: the body does not match the published schema: ${errs.join('; ')}. Body: ${text.slice(0, 300)}`;
}

interface Checkable {
  addHook: (name: 'onSend', fn: (req: any, reply: any, payload: unknown, done: (err: null, p: unknown) => void) => void) => unknown; // eslint-disable-line @typescript-eslint/no-explicit-any
  swagger: () => unknown;
  inject: (...args: any[]) => any; // eslint-disable-line @typescript-eslint/no-explicit-any
  close: () => Promise<unknown> | unknown;
}

/**
 * Checks every response the app sends (inject or a real socket) against its OpenAPI document. An injected
 * request whose response does not match rejects with the mismatch; mismatches of requests made over a socket
 * make close() fail. Call before ready().
 */
export function installResponseCheck(app: Checkable): void {
  let check: ReturnType<typeof createResponseChecker> | undefined;
  const problems = new WeakMap<object, string>();
  const unclaimed = new Set<string>();
  app.addHook('onSend', (req, reply, payload, done) => {
    try {
      if (typeof payload === 'string' || Buffer.isBuffer(payload) || payload == null) {
        check ??= createResponseChecker(app.swagger() as Json);
        const problem = check({
          method: req.method,
          route: req.routeOptions?.url,
          status: reply.statusCode,
          contentType: reply.getHeader('content-type') as string | undefined,
          headers: reply.getHeaders(),
          body: payload as string | Buffer | null,
        });
        if (problem) {
          problems.set(reply.raw, problem);
          unclaimed.add(problem);
        }
      }
    } catch (e) {
      unclaimed.add(`response check failed: ${(e as Error).stack}`);
    }
    done(null, payload);
  });
  const inject = app.inject.bind(app);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  app.inject = (...args: any[]) => {
    // The chained form (`app.inject().get(...)`) and the callback form are left as they are.
    if (args.length !== 1 || (typeof args[0] !== 'object' && typeof args[0] !== 'string')) return inject(...args);
    return inject(args[0]).then((res: { raw: { res: object } }) => {
      const problem = problems.get(res.raw.res);
      if (problem) {
        unclaimed.delete(problem);
        throw new Error(`OpenAPI contract: ${problem}`);
      }
      return res;
    });
  };
  const close = app.close.bind(app);
  app.close = async () => {
    await close();
    if (unclaimed.size) throw new Error(`OpenAPI contract: ${[...unclaimed].join('\n')}`);
  };
}

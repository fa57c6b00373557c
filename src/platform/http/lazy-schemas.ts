// Route schemas compiled on first use instead of at start: compiling every route's validators (ajv) and response
// serializers (fast-json-stringify) was about a fifth of start-up. After the server listens, warmSchemas() compiles
// the rest in small steps between requests, so a bad schema still shows within a second of start and first
// requests rarely pay for it.
import SerializerSelector from '@fastify/fast-json-stringify-compiler';

type Validate = ((data: unknown) => unknown) & { errors?: unknown };
type Serialize = (data: unknown) => string;

const pending = new Set<() => void>();

/** A validator that compiles itself on its first call; ajv's `errors` are passed through as Fastify reads them. */
export function lazyValidator<F extends (data: never) => unknown>(compile: () => F): F {
  let fn: Validate | undefined;
  const ensure = () => {
    fn ??= compile() as unknown as Validate;
    pending.delete(ensure);
    return fn;
  };
  pending.add(ensure);
  const validate: Validate = (data) => {
    const f = ensure();
    const result = f(data);
    validate.errors = f.errors;
    return result;
  };
  validate.errors = null;
  return validate as unknown as F;
}

/** Fastify's own serializer factory (same options, same external schemas), each route's compiled on first use. */
export function lazySerializerFactory() {
  const base = SerializerSelector();
  return (externalSchemas: unknown, serializerOpts: unknown) => {
    const compileRoute = base(externalSchemas as never, serializerOpts as never) as (route: unknown) => Serialize;
    return (route: unknown): Serialize => {
      let fn: Serialize | undefined;
      const ensure = () => {
        fn ??= compileRoute(route);
        pending.delete(ensure);
        return fn;
      };
      pending.add(ensure);
      return (data) => ensure()(data);
    };
  };
}

/** Compiles what no request has needed yet, one schema per turn of the event loop: a request arriving meanwhile (the
 *  first readiness checks) waits for one compilation, not a batch of them. */
export async function warmSchemas(perTurn = 1): Promise<number> {
  let done = 0;
  while (pending.size) {
    let n = 0;
    for (const ensure of pending) {
      ensure();
      done++;
      if (++n >= perTurn) break;
    }
    await new Promise((r) => setImmediate(r));
  }
  return done;
}

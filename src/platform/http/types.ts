import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context.js';

/** The Fastify instance every module registers its routes on (TypeBox types flow from schemas to handlers). */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression<RawServerDefault>,
  RawReplyDefaultExpression<RawServerDefault>,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** A feature module: creates its service into ctx.services and registers its routes. */
export interface Module {
  name: string;
  register(app: App, ctx: AppContext): void | Promise<void>;
}

/** Registers routes under /api/v1 with TypeBox typing: `apiRoutes(app, (s) => { s.get(...) })`. */
export function apiRoutes(app: App, fn: (s: App) => void | Promise<void>): void {
  app.register(async (scope) => fn(scope.withTypeProvider<TypeBoxTypeProvider>() as unknown as App), { prefix: '/api/v1' });
}

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

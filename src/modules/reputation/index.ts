// Wires the reputation module: the score endpoints over ctx.services.scoring.
import type { Module } from '../../platform/http/types.js';
import { registerReputationRoutes } from './routes.js';

export const reputationModule: Module = {
  name: 'reputation',
  register(app, ctx) {
    registerReputationRoutes(app, ctx);
  },
};

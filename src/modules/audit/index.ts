// Audit: the read side of the audit log (written by each module through platform/audit.ts), for administrators.
import type { Module } from '../../platform/http/types.js';
import { createAuditRepo } from './repo.js';
import { registerAuditRoutes } from './routes.js';

export const auditModule: Module = {
  name: 'audit',
  register(app, ctx) {
    registerAuditRoutes(app, createAuditRepo(ctx.db));
  },
};

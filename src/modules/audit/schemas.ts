// TypeBox schemas of the audit log route.
import { Type } from '@sinclair/typebox';
import { Timestamp } from '../../platform/http/schemas.js';
import { pageFields, pageQuery } from '../../platform/http/pagination.js';

export const AuditLogQuery = Type.Object({
  action: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'only this action, e.g. dispute.status or api_key.revoke',
      examples: ['dispute.status'],
    }),
  ),
  actor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'only entries by this actor, in any letter case, e.g. admin:0x... or api_key:<id>',
    }),
  ),
  target: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'only entries about this record, e.g. dispute:<id> or api_key:<id>' }),
  ),
  since: Type.Optional(Timestamp({ description: 'only entries at or after this time' })),
  until: Type.Optional(Timestamp({ description: 'only entries before this time' })),
  ...pageQuery(200, 50),
});

export const AuditEntry = Type.Object(
  {
    id: Type.String({ pattern: '^[0-9]+$', description: 'the entry id (a decimal integer, increasing with time)', examples: ['42'] }),
    actor: Type.String({ description: 'who acted: admin:<address>, a wallet address, api_key:<id>, payment-processor, ...' }),
    action: Type.String({ description: 'what was done, e.g. dispute.status, score.revised, api_key.create' }),
    target: Type.String({ description: 'the record acted on, e.g. dispute:<id>' }),
    details: Type.Object({}, { additionalProperties: true, description: "the action's own details (previous and new values, ...)" }),
    createdAt: Timestamp(),
  },
  { title: 'AuditEntry' },
);

export const AuditLog = Type.Object(
  { entries: Type.Array(AuditEntry, { description: 'newest first' }), ...pageFields() },
  { title: 'AuditLog', description: 'Administrative and security-relevant actions, newest first.' },
);
